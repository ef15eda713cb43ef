"""MS-AMR documents as dataset rows: the generator under the datasets builder.

:func:`iter_ms_amr` reads one split of an AMR 3.0 release root (LDC2020T02)
and yields one row per document, a plain ``dict`` with the fields described in
:data:`FIELDS`. The :class:`~amreval.hub.ms_amr.MsAmr` builder and
``datasets.Dataset.from_generator`` both consume it.

Example:
    >>> FIELDS[:3]
    ('id', 'source_file', 'sentence_ids')
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

from amreval._progress import progress_bar
from amreval._warn import warn_caller
from amreval.amr.graph import Graph
from amreval.docamr import (
    SPLITS,
    Amr3Layout,
    check_representation,
    check_split,
    convert_document,
    read_msamr_xml,
    read_sentence_amrs,
)
from amreval.docamr.msamr import Chain, MsAmrDocument
from amreval.errors import AmrevalError, InputError

__all__ = ["FIELDS", "SPLIT_NAMES", "iter_ms_amr", "document_row"]

PathLike = Union[str, "os.PathLike[str]"]

#: The split names, the same everywhere (``amreval.docamr.SPLITS``): ``train``, ``validation``, ``test``,
#: ``validation_alternative``.
SPLIT_NAMES: tuple[str, ...] = SPLITS

#: The fields of one row, in order.
FIELDS = (
    "id",
    "source_file",
    "sentence_ids",
    "sentences",
    "sentence_amrs",
    "chains",
    "bridging",
    "docamr",
    "num_sentences",
    "num_nodes",
    "num_chains",
)


@lru_cache(maxsize=2)
def _sentence_amrs(root: str, stamp: tuple) -> dict[str, Graph]:
    return read_sentence_amrs(Amr3Layout(root).amr_files())


def _load_amrs(layout: Amr3Layout) -> dict[str, Graph]:
    files = layout.amr_files()
    if not files:
        raise InputError(f"{layout.root}: no sentence AMR files in {layout.unsplit}; {Amr3Layout.LAYOUT}")
    stamp = tuple((f.name, f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    return _sentence_amrs(str(layout.root.resolve()), stamp)


def _chain_record(chain: Chain, index: dict[str, int], amrs: dict[str, Graph]) -> dict[str, Any]:
    def concept(sid: str, var: str, written: str) -> str:
        g = amrs.get(sid)
        return g.instances.get(var, written) if g is not None else written

    return {
        "relation_id": chain.relation_id,
        "singleton": chain.singleton,
        "mentions": [
            {
                "sentence_index": index.get(m.sentence_id, -1),
                "sentence_id": m.sentence_id,
                "variable": m.variable,
                "concept": concept(m.sentence_id, m.variable, m.concept),
                "text": m.text,
            }
            for m in chain.mentions
        ],
        "implicit_roles": [
            {
                "sentence_index": index.get(r.sentence_id, -1),
                "sentence_id": r.sentence_id,
                "parent_variable": r.parent_variable,
                "parent_concept": concept(r.sentence_id, r.parent_variable, r.parent_concept),
                "argument": r.argument,
            }
            for r in chain.implicit_roles
        ],
    }


def document_row(
    doc: MsAmrDocument, amrs: dict[str, Graph], rep: str = "docamr", *, strict: bool = False
) -> dict[str, Any]:
    """One document as a row (see :data:`FIELDS`).

    ``sentence_index`` of a mention is its sentence's position in the
    document (from 0), or -1 when the id is not one of the document's
    sentences; ``concept`` is the graph's concept when the variable exists,
    else the one written in the XML. A sentence missing from the AMR files
    has an empty text and an empty PENMAN string (and, unless ``strict``,
    the conversion warns and leaves it out of the DocAMR graph).
    """
    graph = convert_document(doc, amrs, rep, strict=strict)
    if "doc_file" in graph.metadata:  # the file name, not where this copy of the release lives
        graph.metadata["doc_file"] = Path(doc.source).name
    index = {sid: k for k, sid in enumerate(doc.sentence_ids)}
    return {
        "id": doc.doc_id,
        "source_file": Path(doc.source).name,
        "sentence_ids": list(doc.sentence_ids),
        "sentences": [amrs[sid].metadata.get("snt", "") if sid in amrs else "" for sid in doc.sentence_ids],
        "sentence_amrs": [amrs[sid].to_string() if sid in amrs else "" for sid in doc.sentence_ids],
        "chains": [_chain_record(c, index, amrs) for c in doc.chains + doc.singletons],
        "bridging": [
            {"relation_id": b.relation_id, "kind": b.kind, "head": b.head, "members": list(b.members)}
            for b in doc.bridges
        ],
        "docamr": graph.to_string(),
        "num_sentences": len(doc.sentence_ids),
        "num_nodes": len(graph.instances),
        "num_chains": len(doc.chains),
    }


def iter_ms_amr(
    data_dir: PathLike,
    split: str = "train",
    rep: str = "docamr",
    *,
    strict: bool = False,
    progress: bool | None = None,
) -> Iterator[dict[str, Any]]:
    """Yield the documents of one split as rows (dicts, see :data:`FIELDS`).

    Args:
        data_dir: the AMR 3.0 release root (LDC2020T02).
        split: ``train`` (242 documents), ``validation`` (42), ``test`` (9) or
            ``validation_alternative`` (the second annotation of the 42); ``dev`` and
            ``dev-alternative`` are accepted aliases.
        rep: ``docamr`` (default), ``no-merge``, ``merge-names`` or ``merge-all``.
        strict: fail on a malformed document or a reference to a missing
            sentence or variable; by default such a document is skipped (a
            missing reference: the mention is skipped) and counted in a warning.
        progress: progress bar (default: on a terminal only).

    Raises:
        InputError: ``data_dir`` is not an AMR 3.0 release root (the message
            names LDC2020T02 and the layout), unknown split or representation.
        AmrevalError: in strict mode, the first malformed document (named).
    """
    split = check_split(split)
    rep = check_representation(rep)
    layout = Amr3Layout(data_dir)
    files = layout.split_files(split)
    amrs = _load_amrs(layout)
    skipped: list[str] = []
    for path in progress_bar(files, enable=progress, desc=f"MS-AMR {split}", unit="doc"):
        try:
            row = document_row(read_msamr_xml(path, strict=strict), amrs, rep, strict=strict)
        except AmrevalError as exc:
            if strict:
                raise
            skipped.append(f"{path.name} ({exc})")
            continue
        yield row
    if skipped:
        warn_caller(f"MS-AMR {split}: skipped {len(skipped)} malformed document(s): " + "; ".join(skipped))

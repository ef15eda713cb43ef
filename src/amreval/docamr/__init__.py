"""DocAMR: MS-AMR reading and conversion of sentence AMRs plus coreference to document graphs."""

from __future__ import annotations

from .convert import (
    NAMED_ENTITY_TYPES,
    PRONOUNS,
    REPRESENTATIONS,
    DocGraph,
    build_document,
    chains_from_pairs,
    check_representation,
    convert_document,
    convert_documents,
    normalize_graph,
)
from .msamr import (
    SPLITS,
    Amr3Layout,
    Bridge,
    Chain,
    ImplicitRole,
    Mention,
    MsAmrDocument,
    iter_documents,
    read_msamr_xml,
    read_sentence_amrs,
)

__all__ = [
    "NAMED_ENTITY_TYPES",
    "PRONOUNS",
    "REPRESENTATIONS",
    "SPLITS",
    "Amr3Layout",
    "Bridge",
    "Chain",
    "DocGraph",
    "ImplicitRole",
    "Mention",
    "MsAmrDocument",
    "build_document",
    "chains_from_pairs",
    "check_representation",
    "convert_document",
    "convert_documents",
    "iter_documents",
    "normalize_graph",
    "read_msamr_xml",
    "read_sentence_amrs",
]

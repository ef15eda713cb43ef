"""DocAMR: MS-AMR reading and conversion of sentence AMRs plus coreference (MS-AMR or text) to document graphs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval._lazy import exports

if TYPE_CHECKING:
    from amreval.amr.token_alignments import (
        AlignedSentence,
        loads_aligned_amrs,
        node_spans,
        read_aligned_amrs,
        read_alignments,
    )
    from amreval.docamr.convert import (
        build_document,
        chains_from_pairs,
        convert_document,
        convert_documents,
        normalize_graph,
    )
    from amreval.docamr.corefiles import (
        COREF_FORMATS,
        CorefDocument,
        check_coref_format,
        loads_coref,
        read_coref,
        read_coref_conll,
        read_coref_jsonlines,
    )
    from amreval.docamr.docgraph import NAMED_ENTITY_TYPES, PRONOUNS, REPRESENTATIONS, DocGraph, check_representation
    from amreval.docamr.msamr import (
        SPLIT_ALIASES,
        SPLITS,
        Amr3Layout,
        Bridge,
        Chain,
        ImplicitRole,
        Mention,
        MsAmrDocument,
        check_split,
        iter_documents,
        loads_msamr_xml,
        read_msamr_xml,
        read_sentence_amrs,
        sentence_amrs,
    )
    from amreval.docamr.textcoref import (
        MappingReport,
        MentionMapping,
        chains_from_coref,
        map_text_coref,
        text_coref_to_docamr,
    )

__all__ = [
    "COREF_FORMATS",
    "NAMED_ENTITY_TYPES",
    "PRONOUNS",
    "REPRESENTATIONS",
    "SPLITS",
    "SPLIT_ALIASES",
    "AlignedSentence",
    "Amr3Layout",
    "Bridge",
    "Chain",
    "CorefDocument",
    "DocGraph",
    "ImplicitRole",
    "MappingReport",
    "Mention",
    "MentionMapping",
    "MsAmrDocument",
    "build_document",
    "chains_from_coref",
    "chains_from_pairs",
    "check_coref_format",
    "check_representation",
    "check_split",
    "convert_document",
    "convert_documents",
    "iter_documents",
    "loads_aligned_amrs",
    "loads_coref",
    "map_text_coref",
    "node_spans",
    "normalize_graph",
    "read_aligned_amrs",
    "read_alignments",
    "read_coref",
    "read_coref_conll",
    "read_coref_jsonlines",
    "loads_msamr_xml",
    "read_msamr_xml",
    "sentence_amrs",
    "read_sentence_amrs",
    "text_coref_to_docamr",
]

__getattr__, __dir__ = exports(
    __name__,
    {
        "amreval.amr.token_alignments": (
            "AlignedSentence",
            "loads_aligned_amrs",
            "node_spans",
            "read_aligned_amrs",
            "read_alignments",
        ),
        "convert": (
            "build_document",
            "chains_from_pairs",
            "convert_document",
            "convert_documents",
            "normalize_graph",
        ),
        "corefiles": (
            "COREF_FORMATS",
            "CorefDocument",
            "check_coref_format",
            "loads_coref",
            "read_coref",
            "read_coref_conll",
            "read_coref_jsonlines",
        ),
        "docgraph": (
            "NAMED_ENTITY_TYPES",
            "PRONOUNS",
            "REPRESENTATIONS",
            "DocGraph",
            "check_representation",
        ),
        "msamr": (
            "SPLIT_ALIASES",
            "SPLITS",
            "Amr3Layout",
            "Bridge",
            "Chain",
            "ImplicitRole",
            "Mention",
            "MsAmrDocument",
            "check_split",
            "iter_documents",
            "loads_msamr_xml",
            "read_msamr_xml",
            "read_sentence_amrs",
            "sentence_amrs",
        ),
        "textcoref": (
            "MappingReport",
            "MentionMapping",
            "chains_from_coref",
            "map_text_coref",
            "text_coref_to_docamr",
        ),
    },
)

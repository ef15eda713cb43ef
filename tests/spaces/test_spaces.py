"""The Space apps in a real browser: load a bundled example, score it, compare with the metric's compute.

Each app runs on localhost; headless Chromium (Debian's ``/usr/bin/chromium``, driven by Python
Playwright) clicks through the page, and the numbers shown must equal those of the metric
called directly on the same inputs. Requests leaving localhost are refused, so the page must work
offline. A screenshot of each page is kept under ``$AMREVAL_TEST_ARTIFACTS`` (default: the test's
``tmp_path``). Install what this needs with ``.ci/install-browser`` and ``pip install gradio playwright``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import socket
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 60_000

# a real browser
pytestmark = pytest.mark.slow

pytest.importorskip("gradio", reason="gradio is not installed (pip install 'gradio>=5')")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
pytest.importorskip("evaluate", reason="the hub extra (evaluate) is not installed")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (.ci/install-browser)", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright

from amreval.errors import AmrevalWarning

ROOT = Path(__file__).resolve().parents[2]
# the metric folders whose apps are served: the source tree, or Space bundles written by `amreval space`
# (``$AMREVAL_SPACES/<metric>/``, as .ci/bundle-test does in a fresh environment with the wheel installed)
SPACES = os.environ.get("AMREVAL_SPACES")
METRICS = Path(SPACES) if SPACES else ROOT / "metrics"
DOCSMATCH_EXAMPLES = METRICS / "docsmatch" / "examples"
MFBETA_EXAMPLES = METRICS / "mfbeta" / "examples"
SMATCH_EXAMPLES = METRICS / "smatch" / "examples"

expect.set_options(timeout=TIMEOUT_MS)


# --------------------------------------------------------------------------- helpers


def graph_blocks(path: Path) -> list[str]:
    """The PENMAN graphs of a file, as written: blocks separated by blank lines that hold a graph."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return [b.strip() for b in blocks if any(line.startswith("(") for line in b.splitlines())]


def sentences(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def can_draw() -> bool:
    """Whether amreval can render pictures here (its drawing module, graphviz and dot)."""
    try:
        import graphviz  # noqa: F401

        import amreval.report.draw  # noqa: F401
    except ImportError:
        return False
    return shutil.which("dot") is not None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_app(name: str):
    """The module ``metrics/<name>/app.py``."""
    spec = importlib.util.spec_from_file_location(f"{name}_space_app", METRICS / name / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def serve(name: str) -> Iterator[str]:
    """Run ``metrics/<name>/app.py`` on localhost and yield its URL; close the server afterwards."""
    demo = load_app(name).build_demo()
    try:
        _, url, _ = demo.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True, quiet=True)
        yield url
    finally:
        demo.close()


def shown(page: Page, selector: str) -> dict[str, tuple[str, str | None]]:
    """``data-key -> (text shown, data-value)`` of the value cells under ``selector``."""
    rows = page.locator(f"{selector} [data-key]").evaluate_all(
        "els => els.map(e => [e.dataset.key, e.innerText.trim(), e.dataset.value ?? null])"
    )
    return {key: (text, value) for key, text, value in rows}


def assert_number(cells: dict, key: str, expected: float | None) -> None:
    text, value = cells[key]
    if expected is None or expected != expected:  # nothing to score (0/0): n/a, no number
        assert (text, value) == ("n/a", ""), f"{key}: the page shows {text}, compute gives {expected}"
        return
    assert text == f"{expected:.4f}", f"{key}: the page shows {text}, compute gives {expected}"
    assert float(value) == expected, f"{key}: the page holds {value}, compute gives {expected}"


def assert_picture(page: Page, f1: float | None = None, score: str = "triples") -> None:
    """The alignment picture is an SVG when amreval can draw here, else a note saying why not.

    With ``f1``, the picture's legend must give that score (to 3 places): it shows the scored alignment.
    """
    if can_draw():
        expect(page.locator("#picture .svg-box svg").first).to_be_visible()
        if f1 is not None:
            expect(page.locator("#picture .svg-box")).to_contain_text(f"{score}: P")
            expect(page.locator("#picture .svg-box")).to_contain_text(f"F1 {f1:.3f}")
    else:
        expect(page.locator("#picture .picture-note")).to_contain_text("No picture")


def check_viewer(page: Page, box: str = "#picture") -> None:
    """The picture fits the width at first; + zooms in by 1.25, 100 % shows it at its own size, Fit width
    fits it again; the download link holds the SVG."""
    if not can_draw():
        return
    svg = page.locator(f"{box} .svg-box svg").first
    frame = page.locator(f"{box} .svg-box").first
    width = svg.bounding_box()["width"]
    assert width <= frame.bounding_box()["width"] + 1
    natural = float(page.locator(f"{box} .svg-viewer").get_attribute("data-width"))
    page.locator(f"{box} [data-svg-zoom=in]").click()
    expect(page.locator(f"{box} .svg-zoom-level")).to_have_text(f"{round(125 * width / natural)} %")
    zoomed = svg.bounding_box()["width"]
    assert abs(zoomed - 1.25 * width) < 1, (width, zoomed)
    page.locator(f"{box} [data-svg-zoom=actual]").click()
    assert abs(svg.bounding_box()["width"] - natural) < 1
    expect(page.locator(f"{box} .svg-zoom-level")).to_have_text("100 %")
    page.locator(f"{box} [data-svg-zoom=fit]").click()
    assert abs(svg.bounding_box()["width"] - width) < 1
    link = page.locator(f"{box} a.svg-download")
    assert link.get_attribute("download").endswith(".svg")
    assert link.get_attribute("href").startswith("data:image/svg+xml;base64,")


# --------------------------------------------------------------------------- fixtures


@pytest.mark.skipif(not SPACES, reason="only when Space bundles are served ($AMREVAL_SPACES)")
def test_bundles_run_on_the_installed_package():
    from importlib.metadata import distribution

    import amreval

    assert not Path(amreval.__file__).resolve().is_relative_to(ROOT / "src"), amreval.__file__
    # installed by an app from the bundle's sdist, not from an index
    origin = distribution("amreval").read_text("direct_url.json") or ""
    assert f"amreval-{amreval.__version__}.tar.gz" in origin, origin
    for name in ("docsmatch", "mfbeta", "smatch"):
        if (METRICS / name).is_dir():
            # requirements.txt names no file of the folder (the builder installs it alone); the app and
            # the metric script install the folder's own sdist of this version
            sdist = f"amreval-{amreval.__version__}.tar.gz"
            requirements = (METRICS / name / "requirements.txt").read_text()
            assert "amreval" not in requirements and "penman>=" in requirements, requirements
            assert (METRICS / name / sdist).is_file()
            for script in ("app.py", f"{name}.py"):
                assert f"_AMREVAL_FILE = {sdist!r}" in (METRICS / name / script).read_text()
            assert "sdk_version:" in (METRICS / name / "README.md").read_text()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, timeout=TIMEOUT_MS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page that refuses every request leaving localhost (and records it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    outside: list[str] = []

    def route(r):
        if urlparse(r.request.url).hostname in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    yield page
    context.close()
    assert not outside, f"the page tried to reach the network: {outside}"


@pytest.fixture
def artifacts(tmp_path) -> Path:
    folder = Path(os.environ.get("AMREVAL_TEST_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def docsmatch_metric():
    import evaluate

    return evaluate.load(str(METRICS / "docsmatch"))


@pytest.fixture(scope="module")
def docsmatch_url():
    with serve("docsmatch") as url:
        yield url


@pytest.fixture(scope="module")
def smatch_metric():
    import evaluate

    return evaluate.load(str(METRICS / "smatch"))


@pytest.fixture(scope="module")
def smatch_url():
    with serve("smatch") as url:
        yield url


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory, make_tiny_gpt2):
    """A tiny random GPT-2 and a byte-level BPE tokenizer trained on the example sentences."""
    text = sentences(MFBETA_EXAMPLES / "generated.txt") + sentences(MFBETA_EXAMPLES / "references.txt")
    return make_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"), text)


@pytest.fixture(scope="module")
def mfbeta_metric():
    import evaluate

    return evaluate.load(str(METRICS / "mfbeta"))


@pytest.fixture(scope="module")
def mfbeta_url(tiny_gpt2):
    """The MFβ app with its language model set to the tiny GPT-2 through ``MFBETA_LM``."""
    old = os.environ.get("MFBETA_LM")
    os.environ["MFBETA_LM"] = tiny_gpt2
    try:
        with serve("mfbeta") as url:
            yield url
    finally:
        if old is None:
            os.environ.pop("MFBETA_LM", None)
        else:
            os.environ["MFBETA_LM"] = old


# --------------------------------------------------------------------------- DocSmatch


def check_docsmatch(page: Page, expected: dict, labels: list[str]) -> None:
    cells = shown(page, "#overall-scores")
    for key in ("precision", "recall", "f1"):
        assert_number(cells, key, expected[key])
    for key in ("match", "test", "gold", "n_pairs", "n_optimal", "n_unreadable"):
        assert cells[key][0] == str(expected[key]), key
    assert cells["config"][0] == expected["config"]
    coref = shown(page, "#coref-scores")
    if "coref_f1" in expected:
        for prefix in ("coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref"):
            for part in ("precision", "recall", "f1"):
                assert_number(coref, f"{prefix}_{part}", expected[f"{prefix}_{part}"])
    else:
        assert not coref
        expect(page.locator("#coref-scores")).to_contain_text("not computed")
    fine = shown(page, "#fine-grained-scores")
    measures = [k for k in expected if k.endswith("_f1") and not k.startswith(("coref", "noncoref", "per_document"))]
    assert sorted(k for k in fine if k.endswith("_f1")) == sorted(measures)
    for key in measures:
        assert_number(fine, key, expected[key])
    per_doc = shown(page, "#per-document-scores")
    assert len(per_doc) == len(expected["per_document_f1"]) == len(labels)
    for k, f1 in enumerate(expected["per_document_f1"], start=1):
        assert_number(per_doc, f"doc_{k}_f1", f1)
    expect(page.locator("#per-document-scores tbody tr")).to_have_count(len(labels))
    for k, label in enumerate(labels):
        expect(page.locator("#per-document-scores tbody tr").nth(k)).to_contain_text(label)


def test_docsmatch_example_then_options(page, docsmatch_url, docsmatch_metric, artifacts):
    pred = graph_blocks(DOCSMATCH_EXAMPLES / "pred.docamr.amr")
    gold = graph_blocks(DOCSMATCH_EXAMPLES / "gold.docamr.amr")
    page.goto(docsmatch_url)
    page.get_by_text("Two DocAMR documents with coreference").click()
    expect(page.locator("#pred-text textarea")).to_have_value((DOCSMATCH_EXAMPLES / "pred.docamr.amr").read_text())
    expect(page.locator("#overall [data-key=f1]")).to_be_visible()
    expected = docsmatch_metric.compute(predictions=pred, references=gold, per_document=True)
    check_docsmatch(page, expected, ["demo", "trip"])
    expect(page.locator("#document input")).to_have_value("1. demo")
    assert_picture(page, expected["per_document_f1"][0])
    expect(page.locator("#scores-heading")).to_be_in_viewport()  # the example was clicked far below
    check_viewer(page)
    page.screenshot(path=artifacts / "docsmatch-example.png", full_page=True)
    # the picture of the second document
    page.locator("#document input").click()
    page.get_by_role("option", name="2. trip").click()
    assert_picture(page, expected["per_document_f1"][1])

    # other options, then the Score button
    page.locator("#seed input").fill("3")
    page.locator("#coref input[type=checkbox]").uncheck()
    page.locator("#fine-grained input[type=checkbox]").check()
    page.locator("#score").click()
    expected = docsmatch_metric.compute(
        predictions=pred, references=gold, seed=3, coref=False, fine_grained=True, per_document=True
    )
    expect(page.locator("#overall-scores [data-key=config]")).to_have_text(expected["config"])
    check_docsmatch(page, expected, ["demo", "trip"])
    expect(page.locator("#document input")).to_have_value("1. demo")
    assert_picture(page, expected["per_document_f1"][0])
    page.screenshot(path=artifacts / "docsmatch-options.png", full_page=True)


def test_docsmatch_uploaded_sentences(page, docsmatch_url, docsmatch_metric, artifacts):
    page.goto(docsmatch_url)
    for side, name in (("pred", "pred.sentences.amr"), ("gold", "gold.sentences.amr")):
        with page.expect_file_chooser() as chooser:
            page.locator(f"#{side}-file").click()
        chooser.value.set_files(DOCSMATCH_EXAMPLES / name)
        expect(page.locator(f"#{side}-text textarea")).to_have_value((DOCSMATCH_EXAMPLES / name).read_text())
    page.get_by_label("the graphs are the sentences of one document").check()
    page.locator("#score").click()
    expect(page.locator("#overall [data-key=f1]")).to_be_visible()
    expected = docsmatch_metric.compute(
        predictions=[graph_blocks(DOCSMATCH_EXAMPLES / "pred.sentences.amr")],
        references=[graph_blocks(DOCSMATCH_EXAMPLES / "gold.sentences.amr")],
        per_document=True,
    )
    check_docsmatch(page, expected, ["document"])
    assert_picture(page, expected["per_document_f1"][0])
    page.screenshot(path=artifacts / "docsmatch-upload.png", full_page=True)


def test_docsmatch_reports_bad_input(page, docsmatch_url, docsmatch_metric):
    page.goto(docsmatch_url)
    # the PENMAN boxes are monospace
    for box in ("pred", "gold", "other"):
        font = page.locator(f"#{box}-text textarea").evaluate("e => getComputedStyle(e).fontFamily")
        assert "monospace" in font, (box, font)
    # first a good pair, scored; then a bad prediction: the error, and none of the old results
    page.locator("#pred-text textarea").fill("(d / document :snt1 (b / boy))")
    page.locator("#gold-text textarea").fill("(d / document :snt1 (b / boy))")
    page.locator("#score").click()
    expect(page.locator("#overall [data-key=f1]")).to_have_attribute("data-value", "1.0")
    expect(page.locator("#per-document-scores tbody tr")).to_have_count(1)
    # the picture is drawn after the scores: wait for it, or a slow drawing could land after the next click
    expect(page.locator("#picture")).to_contain_text("matched: 4")
    # a gold graph that cannot be read is an error, as in compute: the message, none of the old results
    page.locator("#gold-text textarea").fill("(d / document :snt1 (b / boy)")
    page.locator("#score").click()
    expect(page.get_by_text("gold, graph #1").first).to_be_visible()
    expect(page.locator("#overall [data-key]")).to_have_count(0)
    expect(page.locator("#per-document-scores tbody tr")).to_have_count(0)
    expect(page.locator("#picture .picture-note")).to_contain_text("Score some documents")


def test_docsmatch_scores_an_unreadable_prediction_as_the_metric_does(page, docsmatch_url, docsmatch_metric):
    """A predicted graph that cannot be read is scored as an empty graph and counted, as compute does with
    the same text: here the second of two documents, then the second sentence of one document."""
    good = "(d / document :snt1 (b / boy) :snt2 (g / go-02 :ARG0 b))"
    bad = "(d / document :snt1 (b / boy)\n   :snt2 (g / go-02"
    # computed before the app scores: warnings.catch_warnings is not thread-safe, and the app catches
    # its warnings in the server's thread
    with pytest.warns(AmrevalWarning, match=r"1 of 2 predicted documents could not be read"):
        expected = docsmatch_metric.compute(predictions=[good, bad], references=[good, good], per_document=True)
    assert expected["n_unreadable"] == 1 and expected["per_document_f1"] == [1.0, 0.0]
    page.goto(docsmatch_url)
    page.locator("#pred-text textarea").fill(f"{good}\n\n{bad}")
    page.locator("#gold-text textarea").fill(f"{good}\n\n{good}")
    page.locator("#score").click()
    expect(page.locator("#overall-scores [data-key=n_unreadable]")).to_have_text("1")
    check_docsmatch(page, expected, ["document 1", "document 2"])
    expect(page.locator("#overall-scores .score-note")).to_contain_text("could not be read")
    # its picture: a note why there is none
    page.locator("#document input").click()
    page.get_by_role("option", name="2. document 2").click()
    expect(page.locator("#picture .picture-note")).to_contain_text("No picture")

    # computed before the app scores: warnings.catch_warnings is not thread-safe, and the app catches
    # its warnings in the server's thread
    with pytest.warns(AmrevalWarning, match=r"could not be read"):
        expected = docsmatch_metric.compute(
            predictions=[["(b / boy)", "(g / go-02 :ARG0"]],
            references=[["(b / boy)", "(g / go-02 :ARG0 (b2 / boy))"]],
            per_document=True,
        )
    page.locator("#pred-text textarea").fill("(b / boy)\n\n(g / go-02 :ARG0")
    page.locator("#gold-text textarea").fill("(b / boy)\n\n(g / go-02 :ARG0 (b2 / boy))")
    page.get_by_label("the graphs are the sentences of one document").check()
    page.locator("#score").click()
    # the document node, its two sentence edges and the first sentence: 4 of 8 gold triples, 4 predicted
    assert (expected["n_unreadable"], expected["match"], expected["test"], expected["gold"]) == (1, 4, 4, 8)
    expect(page.locator("#overall-scores [data-key=match]")).to_have_text("4")
    check_docsmatch(page, expected, ["document"])


def test_docsmatch_app_warms_up_when_built(docsmatch_metric, monkeypatch):
    module = load_app("docsmatch")
    assert module.warm_up() == 1.0  # the start-up document against itself
    calls = []
    monkeypatch.setattr(module, "warm_up", lambda: calls.append("warm") or 1.0)
    module.build_demo(docsmatch_metric)
    assert calls == ["warm"]
    module.build_demo(docsmatch_metric, warm=False)
    assert calls == ["warm"]


def test_docsmatch_compare_tab(page, docsmatch_url, docsmatch_metric, artifacts):
    pred, other, gold = (
        graph_blocks(DOCSMATCH_EXAMPLES / f) for f in ("pred.docamr.amr", "pred2.docamr.amr", "gold.docamr.amr")
    )
    page.goto(docsmatch_url)
    page.get_by_text("Two systems on two DocAMR documents").click()
    expect(page.locator("#other-text textarea")).to_have_value((DOCSMATCH_EXAMPLES / "pred2.docamr.amr").read_text())
    expect(page.locator("#comparison [data-key=f1_p_value]")).to_be_visible()
    expected = docsmatch_metric.compute(predictions=pred, references=gold, compare_predictions=other, per_document=True)
    cells = shown(page, "#comparison")
    keys = [k for k in expected if k.endswith("_difference")]
    assert len(cells) == 6 * len(keys) and "coref_f1_difference" in keys
    for base in (k[: -len("_difference")] for k in keys):
        for key in (base, f"compare_{base}", f"{base}_difference", f"{base}_difference_ci_low", f"{base}_p_value"):
            assert_number(cells, key, expected[key])
    # documents, the largest difference first; the picture has a bar per document that differs
    first, second = expected["per_document_f1"], expected["compare_per_document_f1"]
    rows = shown(page, "#differences")
    for k in (1, 2):
        assert_number(rows, f"cmp_{k}_difference", first[k - 1] - second[k - 1])
    biggest = max((1, 2), key=lambda k: abs(first[k - 1] - second[k - 1]))
    expect(page.locator("#differences tbody tr").first).to_contain_text(["demo", "trip"][biggest - 1])
    expect(page.locator("#differences-picture svg rect.item")).to_have_count(sum(a != b for a, b in zip(first, second)))
    page.screenshot(path=artifacts / "docsmatch-compare.png", full_page=True)


# --------------------------------------------------------------------------- Smatch


def check_smatch(page: Page, expected: dict, labels: list[str]) -> None:
    cells = shown(page, "#overall-scores")
    for key in ("precision", "recall", "f1"):
        assert_number(cells, key, expected[key])
    for key in ("match", "test", "gold", "n_pairs", "n_optimal", "n_unreadable"):
        assert cells[key][0] == str(expected[key]), key
    for key in ("n_intact", "n_repaired", "n_unrepairable"):
        assert (cells[key][0] if key in cells else None) == (str(expected[key]) if key in expected else None), key
    assert cells["config"][0] == expected["config"]
    rows = shown(page, "#per-sentence-scores")
    assert len(rows) == len(expected["per_sentence_f1"]) == len(labels)
    for k, f1 in enumerate(expected["per_sentence_f1"], start=1):
        assert_number(rows, f"snt_{k}_f1", f1)
    for k, label in enumerate(labels):
        expect(page.locator("#per-sentence-scores tbody tr").nth(k)).to_contain_text(label)


def test_smatch_example_then_options(page, smatch_url, smatch_metric, artifacts):
    pred, gold = graph_blocks(SMATCH_EXAMPLES / "pred.amr"), graph_blocks(SMATCH_EXAMPLES / "gold.amr")
    page.goto(smatch_url)
    page.get_by_text("Three parsed sentences").click()
    expect(page.locator("#pred-text textarea")).to_have_value((SMATCH_EXAMPLES / "pred.amr").read_text())
    expect(page.locator("#overall [data-key=f1]")).to_be_visible()
    expected = smatch_metric.compute(predictions=pred, references=gold, per_sentence=True)
    assert (expected["match"], expected["test"], expected["gold"]) == (17, 17, 20)
    check_smatch(page, expected, ["ex.1", "ex.2", "ex.3"])
    expect(page.locator("#graph input")).to_have_value("1. ex.1")
    assert_picture(page, expected["per_sentence_f1"][0])
    check_viewer(page)
    page.screenshot(path=artifacts / "smatch-example.png", full_page=True)
    page.locator("#graph input").click()
    page.get_by_role("option", name="2. ex.2").click()
    assert_picture(page, expected["per_sentence_f1"][1])

    # another reading and seed, then the Score button
    page.locator("#seed input").fill("3")
    page.get_by_label("smatchpp-generic").check()
    page.locator("#score").click()
    expected = smatch_metric.compute(
        predictions=pred, references=gold, seed=3, standardize="smatchpp-generic", per_sentence=True
    )
    expect(page.locator("#overall-scores [data-key=config]")).to_have_text(expected["config"])
    check_smatch(page, expected, ["ex.1", "ex.2", "ex.3"])


def test_smatch_repairs_cut_generations_as_the_metric_does(page, smatch_url, smatch_metric, artifacts):
    cut, gold = (SMATCH_EXAMPLES / "cut.amr").read_text(), graph_blocks(SMATCH_EXAMPLES / "gold.amr")
    cut_graphs = [b for b in graph_blocks(SMATCH_EXAMPLES / "cut.amr")]
    expected = smatch_metric.compute(predictions=cut_graphs, references=gold, repair=True, per_sentence=True)
    assert (expected["match"], expected["n_repaired"], expected["n_intact"]) == (17, 2, 1)
    page.goto(smatch_url)
    page.locator("#repair input[type=checkbox]").check()
    page.get_by_text("Generations cut short (tick Repair)").click()
    expect(page.locator("#pred-text textarea")).to_have_value(cut)
    expect(page.locator("#overall-scores [data-key=n_repaired]")).to_have_text("2")
    check_smatch(page, expected, ["ex.1", "ex.2", "ex.3"])
    # the picture shows the repaired graph that was scored
    assert_picture(page, expected["per_sentence_f1"][0])
    page.screenshot(path=artifacts / "smatch-repair.png", full_page=True)


def test_smatch_reports_bad_input(page, smatch_url):
    page.goto(smatch_url)
    page.locator("#pred-text textarea").fill("(a / b)\n\n(c / d)")
    page.locator("#gold-text textarea").fill("(a / b)")
    page.locator("#score").click()
    expect(page.get_by_text("2 predicted graph(s) but 1 gold graph(s); they pair by position.")).to_be_visible()


def test_smatch_compare_tab(page, smatch_url, smatch_metric, artifacts):
    pred, other, gold = (graph_blocks(SMATCH_EXAMPLES / f) for f in ("pred.amr", "pred2.amr", "gold.amr"))
    page.goto(smatch_url)
    page.get_by_text("Two systems on three sentences").click()
    expect(page.locator("#other-text textarea")).to_have_value((SMATCH_EXAMPLES / "pred2.amr").read_text())
    expect(page.locator("#comparison [data-key=f1_p_value]")).to_be_visible()
    expected = smatch_metric.compute(predictions=pred, references=gold, compare_predictions=other, per_sentence=True)
    cells = shown(page, "#comparison")
    assert len(cells) == 6
    for key in ("f1", "compare_f1", "f1_difference", "f1_difference_ci_low", "f1_difference_ci_high", "f1_p_value"):
        assert_number(cells, key, expected[key])
    page.screenshot(path=artifacts / "smatch-compare.png", full_page=True)


def test_smatch_app_warms_up_when_built(smatch_metric, monkeypatch):
    module = load_app("smatch")
    assert module.warm_up() == 1.0
    calls = []
    monkeypatch.setattr(module, "warm_up", lambda: calls.append("warm") or 1.0)
    module.build_demo(smatch_metric)
    assert calls == ["warm"]


# --------------------------------------------------------------------------- MFβ


def check_mfbeta(page: Page, expected: dict) -> None:
    cells = shown(page, "#mf-scores")
    for key in ("mf_beta", "mf_1", "mf_0.5", "mf_2", "meaning", "form"):
        assert_number(cells, key, expected[key])
    assert cells["parse_failures"][0] == str(expected["parse_failures"])
    assert cells["config"][0] == expected["config"]
    rows = shown(page, "#per-example-scores")
    for k, (pref, ok, s2) in enumerate(
        zip(expected["pref_scores"], expected["acceptable"], expected["s2match_f1"]), start=1
    ):
        assert_number(rows, f"pref_{k}", pref)
        assert_number(rows, f"s2match_{k}", s2)
        assert rows[f"acceptable_{k}"] == ("yes" if ok else "no", str(ok))
    for k, e in enumerate(expected["explanations"], start=1):
        for part in ("lost", "added"):
            items = page.locator(f"#explanation [data-key={part}_{k}] li").all_inner_texts()
            assert items == (e[part] or ["none"]), (k, part)
        items = page.locator(f"#explanation [data-key=approximate_{k}] li").all_inner_texts()
        assert items == ([f"{g} → {p} ({c:g})" for g, p, c in e["approximate"]] or ["none"]), k


def test_mfbeta_example_then_options(page, mfbeta_url, mfbeta_metric, tiny_gpt2, artifacts):
    kw = {
        "predictions": sentences(MFBETA_EXAMPLES / "generated.txt"),
        "references": sentences(MFBETA_EXAMPLES / "references.txt"),
        "reference_amrs": graph_blocks(MFBETA_EXAMPLES / "gold.amr"),
        "prediction_amrs": graph_blocks(MFBETA_EXAMPLES / "parsed.amr"),
        "lm": tiny_gpt2,
        "per_example": True,
        "explain": True,
    }
    page.goto(mfbeta_url)
    expect(page.locator("#lm textarea, #lm input").first).to_have_value(tiny_gpt2)
    page.get_by_text("Four generations with gold AMRs and their parses").click()
    expect(page.locator("#prediction textarea")).to_have_value((MFBETA_EXAMPLES / "parsed.amr").read_text())
    expect(page.locator("#mf-scores [data-key=mf_beta]")).to_be_visible()
    expected = mfbeta_metric.compute(**kw)
    check_mfbeta(page, expected)
    # the example shows each kind of explanation
    assert any(e["lost"] for e in expected["explanations"]) and any(e["added"] for e in expected["explanations"])
    assert any(e["approximate"] for e in expected["explanations"])
    # the picture is the S²match alignment of example 1, with its graded scores
    assert_picture(page, expected["s2match_f1"][0], score="S²match")
    expect(page.locator("#scores-heading")).to_be_in_viewport()
    check_viewer(page)
    page.screenshot(path=artifacts / "mfbeta-example.png", full_page=True)

    page.locator("#beta input").fill("2")
    page.locator("#tolerance input[type=number]").fill("0")
    page.locator("#tolerance input[type=number]").press("Enter")
    page.locator("#score").click()
    expected = mfbeta_metric.compute(**kw, beta=2.0, tolerance=0.0)
    expect(page.locator("#mf-scores [data-key=config]")).to_have_text(expected["config"])
    check_mfbeta(page, expected)
    page.screenshot(path=artifacts / "mfbeta-options.png", full_page=True)


def test_mfbeta_scores_an_unreadable_parse_as_a_failed_parse(page, mfbeta_url, mfbeta_metric, tiny_gpt2):
    """A prediction AMR that cannot be read is a failed parse, scored as the authors' one-node graph and
    counted, as compute does with the same text; the page says what a failed parse is scored as."""
    parses = graph_blocks(MFBETA_EXAMPLES / "parsed.amr")
    parses[1] = "(s / sleep-01\n   :ARG0 (g / girl)"
    kw = {
        "predictions": sentences(MFBETA_EXAMPLES / "generated.txt"),
        "references": sentences(MFBETA_EXAMPLES / "references.txt"),
        "reference_amrs": graph_blocks(MFBETA_EXAMPLES / "gold.amr"),
        "prediction_amrs": parses,
        "lm": tiny_gpt2,
        "per_example": True,
        "explain": True,
    }
    # computed before the app scores (warnings.catch_warnings is not thread-safe; the app's runs in the server)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AmrevalWarning)  # whether compute warns is not what is tested here
        expected = mfbeta_metric.compute(**kw)
    assert expected["parse_failures"] == 1
    page.goto(mfbeta_url)
    page.locator("#generated textarea").fill((MFBETA_EXAMPLES / "generated.txt").read_text())
    page.locator("#references textarea").fill((MFBETA_EXAMPLES / "references.txt").read_text())
    page.locator("#gold textarea").fill((MFBETA_EXAMPLES / "gold.amr").read_text())
    page.locator("#prediction textarea").fill("\n\n".join(parses))
    page.locator("#score").click()
    expect(page.locator("#mf-scores [data-key=parse_failures]")).to_have_text("1")
    check_mfbeta(page, expected)
    expect(page.locator("#mf-scores #failed-parse")).to_have_text("(er / serialization-error)")
    # the failed parse earns nothing against its gold graph: its two triples (concept, TOP) match none
    assert expected["s2match_f1"][1] == 0.0

"""The comparison Space in a real browser: upload a gold file and systems, compare, read the ranking, open an
item's pictures, download the CSV and a model-index entry; a malformed system file; the bundled examples.

As in test_spaces.py: the app runs on localhost, headless Chromium (``/usr/bin/chromium``, Python Playwright)
clicks through it with every request leaving localhost refused, and the numbers shown must equal those of
:func:`amreval.scores.compare.compare_systems` called directly (what ``amreval compare`` calls). With
``$AMREVAL_SPACES`` the app is the bundle written by ``amreval space compare`` (``.ci/bundle-test``).
Screenshots are kept under ``$AMREVAL_TEST_ARTIFACTS`` (default: the test's ``tmp_path``).
"""

from __future__ import annotations

import contextlib
import html
import importlib.util
import os
import shutil
import socket
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
TIMEOUT_MS = 90_000

pytestmark = pytest.mark.slow

pytest.importorskip("gradio", reason="gradio is not installed (pip install 'gradio>=5')")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
pytest.importorskip("huggingface_hub", reason="the hub extra (huggingface_hub) is not installed")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (.ci/install-browser)", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright

from amreval.errors import AmrevalWarning

ROOT = Path(__file__).resolve().parents[2]
SPACES = os.environ.get("AMREVAL_SPACES")
FOLDER = Path(SPACES) / "compare" if SPACES else ROOT / "spaces" / "compare"
EXAMPLES = FOLDER / "examples"

expect.set_options(timeout=TIMEOUT_MS)


def can_draw() -> bool:
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


def load_app():
    spec = importlib.util.spec_from_file_location("compare_space_app", FOLDER / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def serve(demos: list | None = None, **build) -> Iterator[str]:
    demo = load_app().build_demo(**build)
    if demos is not None:
        demos.append(demo)
    try:
        _, url, _ = demo.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True, quiet=True)
        yield url
    finally:
        demo.close()
        demo.app_folder.close()  # what the process's end does: no folder left behind by the tests


def shown(page: Page, selector: str) -> dict[str, str]:
    """``data-key -> data-value`` of the number cells under ``selector``."""
    rows = page.locator(f"{selector} [data-key]").evaluate_all(
        "els => els.map(e => [e.dataset.key, e.dataset.value ?? e.innerText.trim()])"
    )
    return dict(rows)


def expected(gold: Path, systems: dict[str, Path], **options):
    from amreval.amr.read import read_graphs
    from amreval.scores.compare import compare_systems

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AmrevalWarning)
        graphs = {name: read_graphs(path, errors=[]) for name, path in systems.items()}
        return compare_systems(graphs, read_graphs(gold), progress=False, **options)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, timeout=TIMEOUT_MS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh page that refuses every request leaving localhost (and records it); downloads accepted."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
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
def url():
    with serve() as address:
        yield address


def upload(page: Page, gold: Path, systems: list[Path]) -> None:
    """Upload the files, and wait until the page has taken them in (the system names, filled in from the file
    names, are what Compare reads: clicked sooner on a loaded machine, it finds none)."""
    page.locator("#gold-file input[type=file]").set_input_files(str(gold))
    page.locator("#system-files input[type=file]").set_input_files([str(p) for p in systems])
    expect(page.locator("#names textarea")).to_have_value("\n".join(p.stem for p in systems))


def download(page: Page, name: str) -> str:
    with page.expect_download() as caught:
        page.locator(f"#downloads a[download='{name}']").click()
    return Path(caught.value.path()).read_text(encoding="utf-8")


def test_upload_two_systems_compare_pictures_and_downloads(page, url, artifacts):
    from amreval.report.comparison import items_csv
    from amreval.scores.paired_tests import DEFAULT_RESAMPLES

    gold, a, b = EXAMPLES / "gold.amr", EXAMPLES / "parser_a.amr", EXAMPLES / "parser_b.amr"
    page.goto(url)
    upload(page, gold, [a, b])
    expect(page.locator("#names textarea")).to_have_value("parser_a\nparser_b")  # from the file names
    page.locator("#names textarea").fill("first\nsecond")  # editable
    page.locator("#compare").click()
    expect(page.locator("#ranking [data-key='score:first']")).to_be_visible()
    cmp = expected(gold, {"first": a, "second": b}, n_resamples=DEFAULT_RESAMPLES)
    cells = shown(page, "#ranking")
    for name in ("first", "second"):
        assert float(cells[f"score:{name}"]) == cmp.scores[name]
        assert float(cells[f"ci_low:{name}"]) == cmp.intervals[name][0]
        assert float(cells[f"ci_high:{name}"]) == cmp.intervals[name][1]
    assert cells["config"] == cmp.config
    expect(page.locator("#ranking-table tbody tr").first).to_contain_text("first")
    t = cmp.test("first", "second")
    tests = shown(page, "#tests")
    assert float(tests["difference:first|second"]) == t.difference and float(tests["p:first|second"]) == t.p_value
    expect(page.locator("#matrix svg g.cell")).to_have_count(2)
    expect(page.locator("#breakdown")).to_contain_text("has no parts to break down")
    # the items that differ most, and the first one's pictures (both systems against gold)
    first = cmp.differences()[0]
    expect(page.locator("#differences-table tbody tr").first).to_contain_text(first.id)
    expect(page.locator("#item input")).to_have_value(
        f"{first.index + 1}. {first.id} (first {first.score_a:.4f}, second {first.score_b:.4f})"
    )
    if can_draw():
        for box, score in (("#picture-a", first.score_a), ("#picture-b", first.score_b)):
            expect(page.locator(f"{box} .svg-box svg").first).to_be_visible()
            expect(page.locator(f"{box} .svg-box")).to_contain_text(f"F1 {score:.3f}")
    else:
        expect(page.locator("#picture-a .picture-note")).to_contain_text("No picture")
    page.screenshot(path=artifacts / "compare-upload.png", full_page=True)
    # another item
    other = cmp.differences()[1]
    page.locator("#item input").click()
    page.get_by_role("option", name=f"{other.index + 1}. {other.id}", exact=False).click()
    if can_draw():
        expect(page.locator("#picture-a .svg-box")).to_contain_text(f"F1 {other.score_a:.3f}")
    # the downloads: the CSV of amreval compare --csv, and the model-index entry of a system
    assert download(page, "comparison-items.csv") == items_csv(cmp)
    entry = download(page, "second.model-index.yaml")
    assert entry.startswith("model-index:\n- name: second\n")
    assert f"value: {round(cmp.scores['second'], 4)}\n      name: Smatch F1\n" in entry


def test_a_malformed_system_file_is_scored_empty_and_counted(page, url, tmp_path):
    gold = EXAMPLES / "gold.amr"
    broken = tmp_path / "broken.amr"
    blocks = (EXAMPLES / "parser_b.amr").read_text().split("\n\n")
    blocks[2] = blocks[2].rstrip().removesuffix(")")  # demo.2 loses its last parenthesis
    broken.write_text("\n\n".join(blocks))
    page.goto(url)
    upload(page, gold, [EXAMPLES / "parser_a.amr", broken])
    expect(page.locator("#names textarea")).to_have_value("parser_a\nbroken")
    page.locator("#compare").click()
    expect(page.locator("#ranking [data-key='score:broken']")).to_be_visible()
    cmp = expected(gold, {"parser_a": EXAMPLES / "parser_a.amr", "broken": broken})
    # demo.2 scored as an empty graph: nothing predicted, its 9 gold triples missed
    assert cmp.counts["broken"][1].tolist() == [0.0, 0.0, 9.0]
    assert float(shown(page, "#ranking")["score:broken"]) == cmp.scores["broken"]
    expect(page.locator("#ranking .score-note").first).to_contain_text("broken.amr (system broken)")
    expect(page.locator("#ranking")).to_contain_text("scored as an empty graph")
    expect(page.locator("#ranking")).to_contain_text("1 of 3 predicted graphs could not be read")
    # files of different lengths: the message names the file, and the earlier results are gone
    short = tmp_path / "short.amr"
    short.write_text("\n\n".join(blocks[:2]))
    page.goto(url)
    upload(page, gold, [EXAMPLES / "parser_a.amr", short])
    expect(page.locator("#names textarea")).to_have_value("parser_a\nshort")  # the uploads taken in
    page.locator("#compare").click()
    message = "short.amr (system short) has 1 graph but the gold file gold.amr has 3"
    expect(page.get_by_text(message).first).to_be_visible()
    expect(page.locator("#ranking [data-key]")).to_have_count(0)


def test_the_document_example_with_its_breakdown(page, url, artifacts):
    page.goto(url)
    page.locator("#example-documents").click()
    expect(page.locator("#breakdown [data-key='part:coref:difference']")).to_be_visible()
    cmp = expected(
        EXAMPLES / "gold.docamr.amr",
        {"pred": EXAMPLES / "pred.docamr.amr", "pred2": EXAMPLES / "pred2.docamr.amr"},
        score="docsmatch",
    )
    cells = shown(page, "#breakdown")

    def number(text: str) -> float | None:  # an undefined score (0/0) is shown as n/a: no value
        return float(text) if text else None

    for t in cmp.breakdown:
        assert number(cells[f"part:{t.score}:a"]) == t.score_a and number(cells[f"part:{t.score}:p"]) == t.p_value
    # bridging: no bridging item on either side, an undefined part
    assert cells["part:coref_bridging:p"] == ""
    expect(page.locator("#breakdown svg g.part")).to_have_count(len(cmp.breakdown))
    assert float(shown(page, "#ranking")["score:pred"]) == cmp.scores["pred"]
    expect(page.locator("#results-heading")).to_be_in_viewport()


def test_the_sentence_example_three_systems(page, url, artifacts):
    page.goto(url)
    page.locator("#example-sentences").click()
    expect(page.locator("#tests [data-key='p_holm:parser_b|parser_c']")).to_be_visible()
    cmp = expected(EXAMPLES / "gold.amr", {n: EXAMPLES / f"{n}.amr" for n in ("parser_a", "parser_b", "parser_c")})
    tests = shown(page, "#tests")
    for t in cmp.tests:
        assert float(tests[f"p_holm:{t.a}|{t.b}"]) == t.p_holm
    expect(page.locator("#matrix svg g.cell")).to_have_count(6)
    expect(page.locator("#ranking-table tbody tr").nth(2)).to_contain_text("parser_c")
    if can_draw():
        expect(page.locator("#picture-b .svg-box svg").first).to_be_visible()
    page.screenshot(path=artifacts / "compare-example.png", full_page=True)


def test_over_the_limits(page):
    from amreval.hub.space_compare import Limits

    with serve(limits=Limits(items=2), warm=False) as address:
        page.goto(address)
        upload(page, EXAMPLES / "gold.amr", [EXAMPLES / "parser_a.amr", EXAMPLES / "parser_b.amr"])
        page.locator("#compare").click()
        message = "gold.amr (gold): 3 graphs, over this Space's limit of 2 a file"
        expect(page.get_by_text(message).first).to_be_visible()


def test_the_page_keeps_one_folder_however_many_comparisons(page, tmp_path, monkeypatch):
    """Each comparison and example click used to leave a folder of its own in the temporary folder; the page
    now has one (the examples copied once, a session's downloads replaced), and gradio's copies go with it."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the temporary folder, for this page alone
    mine = lambda: sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("amreval-compare-"))  # noqa: E731
    demos: list = []
    with serve(demos, warm=False) as address:
        page.goto(address)
        for _ in range(2):
            page.locator("#example-sentences").click()
            expect(page.locator("#tests [data-key='p_holm:parser_b|parser_c']")).to_be_visible()
            page.locator("#example-documents").click()
            expect(page.locator("#breakdown [data-key='part:coref:difference']")).to_be_visible()
        [root] = mine()  # four comparisons, one folder
        assert sorted(p.name for p in (tmp_path / root / "examples").iterdir()) == ["documents", "sentences"]
        [first] = (tmp_path / root / "downloads").iterdir()  # the session's: the last comparison's files
        assert sorted(p.name for p in first.iterdir())[:2] == ["comparison-items.csv", "comparison.json"]
        page.goto(address)  # a new session; the first ends, and its downloads go (the page's unload)
        upload(page, EXAMPLES / "gold.amr", [EXAMPLES / "parser_a.amr", EXAMPLES / "parser_b.amr"])
        expect(page.locator("#names textarea")).to_have_value("parser_a\nparser_b")
        page.locator("#compare").click()
        expect(page.locator("#ranking [data-key='score:parser_b']")).to_be_visible()
        for _ in range(600):  # the server notices the first session's end within seconds
            if not first.exists():
                break
            time.sleep(0.1)
        assert mine() == [root]
        [session] = (tmp_path / root / "downloads").iterdir()
        assert session != first and sorted(p.name for p in session.iterdir()) == [
            "comparison-items.csv",
            "comparison.json",
            "parser_a.model-index.yaml",
            "parser_b.model-index.yaml",
        ]
        cmp = expected(
            EXAMPLES / "gold.amr", {"parser_a": EXAMPLES / "parser_a.amr", "parser_b": EXAMPLES / "parser_b.amr"}
        )
        from amreval.report.comparison import items_csv

        assert download(page, "comparison-items.csv") == items_csv(cmp)  # served from gradio's copy
        served = [Path(f) for files in demos[0].temp_file_sets for f in files]
        assert served and all(f.is_file() for f in served)
        page.goto("about:blank")  # the page closed first: the server then stops at once (an open one holds it)
    # the server stopped: gradio's copies removed (delete_cache, when the server's lifespan ends), and the folder
    for _ in range(300):
        if not any(f.exists() for f in served):
            break
        time.sleep(0.1)
    assert mine() == [] and [f for f in served if f.exists()] == []


@pytest.mark.skipif(not SPACES, reason="only when Space bundles are served ($AMREVAL_SPACES)")
def test_the_bundle_runs_on_the_installed_package():
    from importlib.metadata import distribution

    import amreval

    assert not Path(amreval.__file__).resolve().is_relative_to(ROOT / "src"), amreval.__file__
    origin = distribution("amreval").read_text("direct_url.json") or ""
    assert f"amreval-{amreval.__version__}.tar.gz" in origin, origin
    sdist = f"amreval-{amreval.__version__}.tar.gz"
    assert (FOLDER / sdist).is_file() and f"_AMREVAL_FILE = {sdist!r}" in (FOLDER / "app.py").read_text()
    assert "amreval" not in (FOLDER / "requirements.txt").read_text()
    assert "sdk_version:" in (FOLDER / "README.md").read_text()
    assert html.escape("## Limits") in (FOLDER / "README.md").read_text()

"""The documentation site as a reader uses it: built (strict), served on localhost, opened in headless Chromium.

The site is built from ``mkdocs.yml`` into a temporary folder exactly as ``make docs`` builds it, served by a
thread running ``http.server`` on 127.0.0.1, and driven through Playwright with Debian's ``/usr/bin/chromium``
(as the Space tests drive it): the navigation leads to a guide and to a reference page, and Material's search
box finds a word and opens the page that has it.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
TIMEOUT_MS = 60_000
ROOT = Path(__file__).resolve().parents[2]

# a real browser
pytestmark = pytest.mark.slow

pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
pytest.importorskip("material", reason="the docs extra (mkdocs-material) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"{CHROMIUM} not found: install Debian's chromium (.ci/install-browser)", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright

# assertions wait as long as actions do (a loaded machine renders the search results slowly)
expect.set_options(timeout=TIMEOUT_MS)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as ``make docs`` builds it (``--strict``: any warning fails the build)."""
    folder = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml")]
    done = subprocess.run(
        [*command, "--site-dir", str(folder)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


@pytest.fixture(scope="module")
def url(site: Path) -> Iterator[str]:
    """The site served on 127.0.0.1 by a thread of its own."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, timeout=TIMEOUT_MS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    yield page
    context.close()


def test_the_navigation_leads_to_a_guide_and_to_a_reference_page(page: Page, url: str) -> None:
    expect(page.locator("h1").first).to_contain_text("amreval")
    page.locator(".md-tabs").get_by_role("link", name="Guides").click()
    page.locator(".md-nav").get_by_role("link", name="Documents (DocAMR, DocSmatch)").first.click()
    expect(page).to_have_url(f"{url}guides/documents/")
    expect(page.locator("h1").first).to_contain_text("Documents: DocAMR and DocSmatch")
    expect(page.locator("article")).to_contain_text("amreval docsmatch -f examples/pred.docamr.amr")

    page.locator(".md-tabs").get_by_role("link", name="Reference").click()
    page.locator(".md-nav").get_by_role("link", name="Command line").first.click()
    expect(page).to_have_url(f"{url}reference/cli/")
    # written from the parsers when the site was built: every command, with its options' help
    for command in ("smatch", "docsmatch", "compare", "mfbeta-robustness"):
        expect(page.locator(f"h2#amreval-{command}")).to_have_count(1)
    expect(page.locator("article")).to_contain_text("print one score per pair")


def test_the_search_finds_a_word_and_opens_the_page(page: Page, url: str) -> None:
    search = page.locator("input.md-search__input")  # in the header at this width
    search.click()
    hits = page.locator(".md-search-result__item a")
    # Material's search index is built by a web worker after the page loads; a query typed before it is
    # ready can stay unanswered on a loaded machine, so the word is typed again until the results come
    for _ in range(6):
        search.fill("")
        search.press_sequentially("Holm", delay=50)
        try:
            expect(hits.first).to_be_visible(timeout=10_000)
            break
        except AssertionError:
            continue
    expect(hits.first).to_be_visible()
    pages = {href.split("?")[0].split("#")[0] for href in (a.get_attribute("href") or "" for a in hits.all())}
    assert f"{url}guides/comparing/" in pages, pages  # the guide that names Holm's correction is among the hits
    target = hits.first.get_attribute("href") or ""
    hits.first.click()
    expect(page).to_have_url(re.compile(re.escape(target.split("#")[0].split("?")[0]) + r".*h=holm"))
    expect(page.locator("article")).to_contain_text("Holm")

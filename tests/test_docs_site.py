"""The documentation site as a reader gets it: every internal link of the built HTML resolves,
and in a real headless Chromium (Debian's ``chromium``; ``make test`` installs it when missing)
the home page, the ``qwk`` API page and a user-guide page load with no JavaScript console error
and no broken image, and the search page finds ``quadratic_weighted_kappa``.

The site is the one ``make docs`` built (``make test`` runs it first); without it the tests
build it into a temporary directory. The browser is driven through the DevTools protocol
(the ``websocket-client`` package) and serves the site from a local HTTP server on 127.0.0.1.
Screenshots of the home and performance pages are saved to ``docs/_build/screenshots/``; the
test prints the path.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chromium import CHROMIUM_FLAGS as BASE_FLAGS

# The built site, a browser and an HTTP server; the first test may build the site.
# One browser and one site: under pytest-xdist (make test) the module stays on one worker.
pytestmark = [
    pytest.mark.integration,
    pytest.mark.timeout(900),
    pytest.mark.xdist_group("docs-site"),
]

ROOT = Path(__file__).resolve().parents[1]
BUILT = ROOT / "docs" / "_build" / "html"
SCREENSHOTS = ROOT / "docs" / "_build" / "screenshots"
PAGES = {
    "home": "index.html",
    "qwk API page": "reference/generated/wkappa.qwk.html",
    "user guide": "user-guide/definitions.html",
}
# The site loads nothing from elsewhere: MathJax is copied into _static/mathjax by the
# sphinx-mathjax-offline extension, so formulas render without a network.
CHROMIUM_FLAGS = (*BASE_FLAGS, "--remote-allow-origins=*")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if (BUILT / "index.html").exists() and (BUILT / "searchindex.js").exists():
        return BUILT
    pytest.importorskip("sphinx")
    out = tmp_path_factory.mktemp("docs") / "html"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-n", "-q",
         ROOT / "docs", out],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    return out


# --------------------------------------------------------------------------- link check


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name in ("href", "src") and tag in ("a", "link", "img", "script", "source"):
                self.links.append(value)


@functools.cache
def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_internal_link_resolves(site: Path) -> None:
    # The theme's template fragments under _static/ are not pages.
    pages = sorted(p for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts)
    assert len(pages) > 40, "the site looks incomplete"
    broken: list[str] = []
    checked = 0
    for page in pages:
        for link in _parse(page).links:
            parsed = urllib.parse.urlsplit(link)
            if parsed.scheme or link.startswith("//"):
                assert parsed.scheme in ("http", "https", "mailto", "data"), (page, link)
                continue
            target = page if not parsed.path else (page.parent / parsed.path).resolve()
            if parsed.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            checked += 1
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link} (no file)")
            elif parsed.fragment and target.suffix == ".html":
                fragment = urllib.parse.unquote(parsed.fragment)
                if fragment not in _parse(target).ids:
                    broken.append(f"{page.relative_to(site)}: {link} (no anchor)")
    assert checked > 1000
    assert not broken, "\n".join(broken[:50])


def test_the_site_covers_every_public_name(site: Path) -> None:
    import importlib

    for module in ("wkappa", "wkappa.frames", "wkappa.sklearn", "wkappa.torch", "wkappa.gbdt",
                   "wkappa.exceptions"):  # fmt: skip
        names = importlib.import_module(module).__all__
        for name in names:
            if module == "wkappa" and name in (
                "exceptions", "__version__", *importlib.import_module("wkappa.exceptions").__all__
            ):  # fmt: skip
                continue  # documented under wkappa.exceptions / on the API page
            assert (site / "reference" / "generated" / f"{module}.{name}.html").is_file(), name
    cli = (site / "reference" / "cli.html").read_text()
    for option in ("--true", "--pred", "--weights", "--bootstrap", "--apply", "--version"):
        assert option in cli, option


def test_api_pages_point_to_no_private_module(site: Path) -> None:
    import re

    found = {
        page.name: sorted(set(re.findall(r"wkappa\._[a-z_.]+", page.read_text())))
        for page in (site / "reference" / "generated").glob("*.html")
    }
    assert {name: names for name, names in found.items() if names} == {}


def test_figure_captions_match_the_layout() -> None:
    # The kappa-against-n figure stacks quadratic over linear weights (plt.subplots(2, 1)).
    script = (ROOT / "docs" / "scripts" / "plot_performance.py").read_text()
    assert "plt.subplots(2, 1" in script
    page = (ROOT / "docs" / "explanation" / "performance.md").read_text()
    assert "Quadratic weights (top)" in page and "linear weights (bottom)" in page
    assert "(left)" not in page.split("## How the kernels get there")[0]


# --------------------------------------------------------------------------- the browser


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _Page:
    """One browser tab over the DevTools protocol: navigate, collect errors, evaluate."""

    def __init__(self, ws_url: str) -> None:
        import websocket

        self._ws = websocket.create_connection(ws_url, timeout=60, suppress_origin=True)
        self._next = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        self._ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self._ws.recv())
            if message.get("id") == ident:
                assert "error" not in message, (method, message["error"])
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str, timeout: float = 60) -> None:
        if any(e.get("method") == method for e in self.events):
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = json.loads(self._ws.recv())
            self.events.append(message)
            if message.get("method") == method:
                return
        raise TimeoutError(method)

    def open(self, url: str) -> None:
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        self.settle()

    def settle(self, seconds: float = 1.0) -> None:
        """Let late scripts run (and report errors) for a moment."""
        self.evaluate(f"new Promise(r => setTimeout(r, {int(seconds * 1000)}))")

    def evaluate(self, expression: str) -> Any:
        result = self.call(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def errors(self) -> list[str]:
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(details.get("exception", {}).get("description") or details["text"])
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append(
                    " ".join(str(a.get("value", a.get("description"))) for a in params["args"])
                )
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                url = params["entry"].get("url", "")
                found.append(f"{url}: {params['entry']['text']}")
        return found

    def screenshot(self, path: Path) -> None:
        import base64

        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        path.write_bytes(base64.b64decode(data["data"]))

    def close(self) -> None:
        self._ws.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Page]:
    binary = _chromium()
    if binary is None:
        pytest.skip(
            "Debian's chromium is not installed and `make chromium` could not install it "
            "(apt-get update && apt-get install -y chromium)"
        )
    pytest.importorskip("websocket", reason="needs websocket-client (the test extra)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    proc = subprocess.Popen(
        [binary, *CHROMIUM_FLAGS, "--remote-debugging-address=127.0.0.1",
         "--remote-debugging-port=0", "--window-size=1280,1000", f"--user-data-dir={profile}",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            assert proc.poll() is None, "chromium exited at start"
            assert time.monotonic() < deadline, "chromium did not open its DevTools port"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            tabs = [t for t in json.load(r) if t["type"] == "page"]
        page = _Page(tabs[0]["webSocketDebuggerUrl"])
        try:
            yield page
        finally:
            page.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


BROKEN_IMAGES = """Array.from(document.images)
    .filter(img => !img.complete || img.naturalWidth === 0)
    .map(img => img.src)"""


@pytest.mark.slow
@pytest.mark.parametrize("name", PAGES)
def test_page_loads_without_errors_or_broken_images(browser: _Page, server: str, name: str) -> None:
    browser.open(server + PAGES[name])
    assert browser.errors() == [], name
    assert browser.evaluate(BROKEN_IMAGES) == [], name
    title = browser.evaluate("document.title")
    assert "wkappa" in title, title
    text = browser.evaluate("document.body.innerText")
    if name == "qwk API page":
        assert "quadratic weighted kappa" in text.lower() and "Examples" in text
    if name == "home":
        assert "Getting started" in text


@pytest.mark.slow
def test_search_finds_quadratic_weighted_kappa(browser: _Page, server: str) -> None:
    browser.open(server + "search.html?q=quadratic_weighted_kappa")
    found: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the results are filled in by script, after load
        found = browser.evaluate(
            "Array.from(document.querySelectorAll('#search-results a')).map(a => a.href)"
        )
        if found:
            break
        browser.settle(0.5)
    assert any(
        h.endswith("reference/generated/wkappa.quadratic_weighted_kappa.html") for h in found
    ), found
    assert browser.errors() == []


@pytest.mark.slow
def test_performance_page_figures_and_screenshots(
    browser: _Page, server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.open(server + PAGES["home"])
    browser.screenshot(SCREENSHOTS / "home.png")
    browser.open(server + "explanation/performance.html")
    assert browser.errors() == []
    assert browser.evaluate(BROKEN_IMAGES) == []
    widths = browser.evaluate(
        "Array.from(document.querySelectorAll('article img')).map(img => img.naturalWidth)"
    )
    assert len(widths) == 3 and all(w > 500 for w in widths), widths  # the three figures
    browser.screenshot(SCREENSHOTS / "performance.png")
    for shot in ("home.png", "performance.png"):
        png = (SCREENSHOTS / shot).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    with capsys.disabled():
        shots = f"{SCREENSHOTS}{os.sep}{{home,performance}}.png"
        print(f"\nscreenshots of the documentation site: {shots}")


MATH_PAGE = "reference/generated/wkappa.qwk.html"
RENDERED_MATH = """(async () => {
    if (!window.MathJax || !MathJax.startup) return {error: "MathJax did not load"};
    await MathJax.startup.promise;
    const boxes = Array.from(document.querySelectorAll("mjx-container"));
    return {
        rendered: boxes.length,
        wide: boxes.filter(b => b.getBoundingClientRect().width > 0).length,
        // TeX left as text (a backslash) means a formula was not typeset.
        raw: Array.from(document.querySelectorAll(".math")).filter(
            e => e.innerText.includes(String.fromCharCode(92))).length,
        external: performance.getEntriesByType("resource").map(r => r.name).filter(
            n => !n.startsWith("file:")),
    };
})()"""


@pytest.mark.slow
def test_formulas_render_from_disk_with_no_network(browser: _Page, site: Path) -> None:
    # The page is opened as a file (no server) with the network switched off: MathJax must
    # come from the site's own _static/mathjax and typeset every formula.
    assert (site / "_static" / "mathjax" / "tex-chtml.js").is_file()
    assert "cdn.jsdelivr.net" not in (site / MATH_PAGE).read_text()
    browser.call("Network.enable")
    browser.call(
        "Network.emulateNetworkConditions",
        offline=True, latency=0, downloadThroughput=-1, uploadThroughput=-1,
    )  # fmt: skip
    try:
        browser.open((site / MATH_PAGE).resolve().as_uri())
        found = browser.evaluate(RENDERED_MATH)
    finally:
        browser.call(
            "Network.emulateNetworkConditions",
            offline=False, latency=0, downloadThroughput=-1, uploadThroughput=-1,
        )  # fmt: skip
    assert "error" not in found, found
    formulas = (site / MATH_PAGE).read_text().count('class="math')
    assert formulas > 0
    assert found["rendered"] >= formulas and found["wide"] == found["rendered"], found
    assert found["raw"] == 0 and found["external"] == [], found
    assert browser.errors() == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "page", ["getting-started.html", "user-guide/cli.html", "how-to/llm-judge.html", MATH_PAGE]
)
def test_code_blocks_fit_the_text_column(browser: _Page, server: str, page: str) -> None:
    browser.open(server + page)
    blocks = browser.evaluate("document.querySelectorAll('div.highlight pre').length")
    assert blocks > 0, page
    overflowing = browser.evaluate(
        "Array.from(document.querySelectorAll('div.highlight pre'))"
        ".filter(p => p.scrollWidth > p.clientWidth + 1).map(p => p.innerText.slice(0, 80))"
    )
    assert overflowing == [], page


@pytest.mark.slow
@pytest.mark.parametrize(
    "page", ["getting-started.html", "validation.html", "bibliography.html", "contributing.html"]
)
def test_pages_without_sub_pages_have_no_empty_navigation(
    browser: _Page, server: str, page: str
) -> None:
    """A page without sub-pages shows no navigation column holding only its headings."""
    browser.open(server + page)
    empty = browser.evaluate(
        """Array.from(document.querySelectorAll('.bd-sidebar-primary, .bd-sidebar-secondary'))
        .filter(s => getComputedStyle(s).display !== 'none' && s.offsetWidth > 0
                     && s.innerText.replace(/Collapse Sidebar|Section Navigation/g, '')
                        .trim() === '').length"""
    )
    assert empty == 0
    if page == "getting-started.html":
        assert "pip install" in browser.evaluate("document.body.innerText")


@pytest.mark.slow
def test_the_page_contents_fit_their_column(browser: _Page, server: str) -> None:
    """A long heading without spaces (an R call on the validation page) wraps inside the
    "On this page" column instead of running out of it."""
    browser.open(server + "validation.html")
    wide = browser.evaluate(
        """Array.from(document.querySelectorAll('.page-toc .nav-link'))
        .filter(a => a.scrollWidth > a.closest('.bd-sidebar-secondary').clientWidth)
        .map(a => a.innerText)"""
    )
    assert wide == []

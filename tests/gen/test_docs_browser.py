"""Build the docs site, serve it on 127.0.0.1 and open it in headless Chromium.

Checks what a reader sees: the AveragePool page with versions 1, 7, 10 and 11 and their diffs, the
search box finding Relu6 as a reader types it (driven through chromedriver), and a screenshot saved
to build/test-artifacts/averagepool.png; the support section built with six backends' reports (the committed ones
and renamed copies); and, with every host but 127.0.0.1 unresolvable, the home page, the support pages and three op
pages at 1280 and 800 px: no character drawn as an empty box, nothing wider than the window, no request elsewhere,
titles as the pages' headings. Skips, naming the binary, when Debian's chromium or chromium-driver is not installed
(the set-up installs both).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gen.docs.generator import main as gen_docs
from opset.load import load_registry

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C WebDriver key of an element reference
ARTIFACTS = ROOT / "build" / "test-artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# every host but the test server's is unresolvable: a page that fetches anything from elsewhere shows it
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"

pytestmark = pytest.mark.browser


SCOREBOARD = 6  # the support pages must read well with six backends' reports (issue 24's scoreboard)


def _write_reports(folder: Path) -> None:
    """The committed reports, and as many renamed copies of them as make six: the pages are built and looked at
    with six backends whatever number is committed today."""
    folder.mkdir(parents=True)
    committed = sorted((ROOT / "docs" / "reports").glob("*.json"))
    for path in committed:
        shutil.copy(path, folder / path.name)
    for k in range(SCOREBOARD - len(committed)):
        source = committed[k % len(committed)]
        data = json.loads(source.read_text(encoding="utf-8"))
        data["backend"] = f"{data['backend']}-copy{k + 1}"
        (folder / f"{data['backend']}.json").write_text(json.dumps(data), encoding="utf-8")


def _backends(reports: Path) -> list[str]:
    return sorted(json.loads(p.read_text(encoding="utf-8"))["backend"] for p in reports.glob("*.json"))


def _build_site(tmp: Path) -> None:
    """The site as `mkdocs build --strict` makes it from freshly generated pages, in `tmp/site` (its reports in
    `tmp/reports`)."""
    _write_reports(tmp / "reports")
    docs = tmp / "docs"
    assert gen_docs(["--out", str(docs), "--reports", str(tmp / "reports")]) == 0
    for page in (ROOT / "docs").glob("*.md"):  # the hand-written pages
        if not (docs / page.name).exists():
            shutil.copy(page, docs / page.name)
    config = tmp / "mkdocs.yml"
    config.write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {docs}\nhooks: [{ROOT / 'gen/docs/nav_hook.py'}]\n",
                      encoding="utf-8")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config),
                            "-d", str(tmp / "site")], capture_output=True, text=True, timeout=240,
                           env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stdout}\n{built.stderr}"


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder holding `site` and `reports`, built once per test run: a build takes 20-30 s, and xdist's workers
    (which each set up a module's fixtures again whenever the module's tests come back to them) share it. Under
    xdist the first worker to ask builds it in the run's own folder under a lock; the others wait and reuse it."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        tmp = tmp_path_factory.mktemp("docs-site")
        _build_site(tmp)
        return tmp
    import fcntl

    run = tmp_path_factory.getbasetemp().parent  # this run's folder, shared by its workers (pytest-N)
    tmp = run / "docs-site"
    with open(run / "docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (tmp / "built").is_file():
            shutil.rmtree(tmp, ignore_errors=True)  # a build another worker began and failed
            _build_site(tmp)
            (tmp / "built").write_text("", encoding="utf-8")
    return tmp


@pytest.fixture(scope="session")
def reports(built: Path) -> Path:
    return built / "reports"


@pytest.fixture(scope="session")
def site(built: Path) -> Path:
    return built / "site"


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    class QuietHandler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def chromium() -> Path:
    if not CHROMIUM.is_file():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium)")
    return CHROMIUM


def _chromium(binary: Path, profile: Path, *args: str) -> str:
    run = subprocess.run([str(binary), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"chromium {args} failed ({run.returncode}):\n{run.stderr[-2000:]}"
    return run.stdout


def test_averagepool_page_shows_versions_and_diffs(chromium: Path, base_url: str, tmp_path: Path) -> None:
    dom = _chromium(chromium, tmp_path / "profile", "--dump-dom", f"{base_url}/ai.onnx/AveragePool/")
    for since in (1, 7, 10, 11):
        assert f'id="v{since}"' in dom, f"AveragePool page has no section for version {since}"
    assert "Changes from version 1:" in dom and "adds attribute count_include_pad" in dom
    assert "Changes from version 7:" in dom and "adds attribute ceil_mode" in dom
    assert "Changes from version 10:" in dom
    assert "<td>count_include_pad</td>" in dom.replace("<code>", "").replace("</code>", "")


def _tables(dom: str) -> list[str]:
    return re.findall(r"<table>.*?</table>", dom, re.S)


def test_support_index_summarises_backends_and_domains(chromium: Path, base_url: str, tmp_path: Path,
                                                        reports: Path) -> None:
    dom = _chromium(chromium, tmp_path / "profile", "--dump-dom", f"{base_url}/support/")
    backends, domains = _tables(dom)[:2]
    assert backends.count("<tr>") == 1 + SCOREBOARD  # a row per backend, under the header
    assert re.findall(r"<th[^>]*>(.*?)</th>", domains) == ["domain", *_backends(reports)]  # a column per backend
    assert ">ai.onnx</a>" in domains and ">com.microsoft</a>" in domains


def test_a_domain_page_has_a_row_per_op_version_and_a_column_per_backend(chromium: Path, base_url: str,
                                                                          tmp_path: Path, reports: Path) -> None:
    dom = _chromium(chromium, tmp_path / "profile", "--dump-dom", f"{base_url}/support/domain-ai.onnx/")
    (table,) = _tables(dom)
    headers = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table)]
    assert headers == ["op", "version", *_backends(reports)]
    assert table.count("<tr>") > 100 and ">AveragePool</a>" in table


def test_an_op_page_renders_its_support_table(chromium: Path, base_url: str, tmp_path: Path) -> None:
    dom = _chromium(chromium, tmp_path / "profile", "--dump-dom", f"{base_url}/ai.onnx/Relu/")
    section = dom[dom.index('id="v14"'):dom.index('id="v13"')]
    support = section[section.index("Backend support"):]
    table = _tables(support)[0]
    rows = re.findall(r"<tr>\s*<td[^>]*>(.*?)</td>", table, re.S)
    allowed = load_registry().resolve("ai.onnx", "Relu", 14).type_constraints["T"].types
    assert rows == [t[len("tensor("):-1] for t in allowed]  # a row per type the constraint allows, no others
    assert "reference" in table and "pass" in table


def test_sidebar_groups_ops_by_domain_and_category(site: Path) -> None:
    page = (site / "ai.onnx" / "Relu" / "index.html").read_text(encoding="utf-8")
    nav = page[page.index('class="md-nav md-nav--primary"'):page.index('class="md-content"')]
    titles = [t.strip() for t in re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', nav, re.S)]
    assert "Opsets" in titles and "Activation" in titles and "Pool" in titles
    activation = titles.index("Activation")
    assert "Relu" in titles[activation:activation + 40]
    assert len(titles) < 5000


def test_search_index_has_relu6(site: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = [d["location"] for d in index["docs"] if "Relu6" in d["title"] or "Relu6" in d["text"]]
    assert any(loc.startswith("ai.onnx.modified/Relu6/") for loc in locations), locations[:10]


class WebDriver:
    """Just enough of the W3C WebDriver protocol (plain HTTP to Debian's chromedriver) to type and read."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.session = ""

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())["value"]

    def start(self, profile: Path, *extra: str) -> None:
        options = {"binary": str(CHROMIUM), "args": [*CHROMIUM_FLAGS, "--window-size=1280,900",
                                                     f"--user-data-dir={profile}", *extra]}
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})
        self.session = value["sessionId"]

    def s(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.call(method, f"/session/{self.session}{path}", body)


@pytest.fixture(scope="module")
def webdriver(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """One browser for the module's tests (starting one took 2 s a test); each test opens its page and sets its
    window itself."""
    if not CHROMEDRIVER.is_file():
        pytest.skip(f"{CHROMEDRIVER} is not installed (apt-get install -y chromium-driver)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([str(CHROMEDRIVER), f"--port={port}"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    driver = WebDriver(port)
    try:
        for _ in range(100):  # chromedriver answers /status once it listens
            try:
                if driver.call("GET", "/status").get("ready"):
                    break
            except OSError:
                time.sleep(0.1)
        driver.start(tmp_path_factory.mktemp("chromium-profile"), OFFLINE)
        yield driver
    finally:
        if driver.session:
            driver.s("DELETE", "")
        process.terminate()
        process.wait(timeout=30)


def test_search_box_finds_relu6(webdriver: WebDriver, base_url: str) -> None:
    webdriver.s("POST", "/url", {"url": f"{base_url}/"})
    box = webdriver.s("POST", "/element", {"using": "css selector", "value": "input.md-search__input"})[ELEMENT]
    webdriver.s("POST", f"/element/{box}/click", {})
    webdriver.s("POST", f"/element/{box}/value", {"text": "Relu6"})
    hrefs: list[str] = []
    for _ in range(100):  # the search worker indexes the site first, then answers as the reader types
        links = webdriver.s("POST", "/elements", {"using": "css selector", "value": ".md-search-result__link"})
        hrefs = [webdriver.s("GET", f"/element/{link[ELEMENT]}/attribute/href") or "" for link in links]
        if any("ai.onnx.modified/Relu6/" in h for h in hrefs):
            break
        time.sleep(0.2)
    assert any("ai.onnx.modified/Relu6/" in h for h in hrefs), f"search results for Relu6: {hrefs}"


def test_averagepool_screenshot(chromium: Path, base_url: str, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "averagepool.png"
    shot.unlink(missing_ok=True)
    _chromium(chromium, tmp_path / "profile", "--window-size=1280,2000", "--hide-scrollbars",
              f"--screenshot={shot}", f"{base_url}/ai.onnx/AveragePool/")
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    # a blank or error page compresses to a few kilobytes; the rendered page with tables does not
    assert len(data) > 50_000, f"{shot} is only {len(data)} bytes: the page did not render"


GLYPHS_JS = (Path(__file__).parent / "missing_glyphs.js").read_text(encoding="utf-8")
OFFLINE_PAGES = ["", "support/", "support/domain-ai.onnx/", "support/onnxruntime/", "ai.onnx/Relu/", "ai.onnx/Conv/",
                 "com.microsoft/FusedGemm/"]


@pytest.mark.parametrize("page", OFFLINE_PAGES)
def test_a_page_offline_has_every_glyph_fits_the_window_and_fetches_nothing_elsewhere(
        webdriver: WebDriver, base_url: str, page: str) -> None:
    for width in (1280, 800):
        webdriver.s("POST", "/window/rect", {"width": width, "height": 900})
        webdriver.s("POST", "/url", {"url": f"{base_url}/{page}"})
        found = webdriver.s("POST", "/execute/sync", {"script": GLYPHS_JS, "args": []})
        assert found["checked"] > 0 or page == "", found  # the page has non-ASCII text to check (a middle dot ...)
        assert found["missing"] == [], f"/{page}: characters drawn as empty boxes: {found['missing']}"
        layout = webdriver.s("POST", "/execute/sync", {"script": (
            "return {scroll: document.documentElement.scrollWidth, window: window.innerWidth,"
            " resources: performance.getEntriesByType('resource').map(e => e.name),"
            " title: document.title}"), "args": []})
        assert layout["scroll"] <= layout["window"], f"/{page} at {width}px is {layout['scroll']}px wide"
        elsewhere = [u for u in layout["resources"] if not u.startswith(base_url)]
        assert elsewhere == [], f"/{page} fetched from elsewhere: {elsewhere}"
        assert layout["title"] == "opset" if page == "" else layout["title"].endswith(" - opset")
        assert not layout["title"].startswith("Index")


def test_no_built_page_loads_anything_from_elsewhere(site: Path) -> None:
    external = re.compile(r"<(?:link|script|img|iframe)\b[^>]*\b(?:href|src)=\"(?:https?:)?//[^\"]*\"")
    for path in [*site.rglob("*.html"), *site.rglob("*.css")]:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, path
        if path.suffix == ".html":
            assert not external.search(text), f"{path}: {external.search(text)}"


def test_titles_and_section_labels_are_written_as_the_names_are(site: Path) -> None:
    page = (site / "ai.onnx" / "Relu" / "index.html").read_text(encoding="utf-8")
    nav = page[page.index('class="md-nav md-nav--primary"'):page.index('class="md-content"')]
    labels = [t.strip() for t in re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', nav, re.S)]
    assert {"ai.onnx", "com.microsoft.nchwc", "tengine", "Building the site", "Support: onnx-reference"} <= set(labels)
    assert not {"Ai.onnx", "Com.microsoft.nchwc", "Onnx reference", "Index"} & set(labels)
    for path in site.rglob("index.html"):
        title = re.search(r"<title>(.*?)</title>", path.read_text(encoding="utf-8")).group(1)  # type: ignore[union-attr]
        assert not title.startswith(("Index", "Onnx")), f"{path}: <title>{title}</title>"

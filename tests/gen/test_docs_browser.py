"""Build the docs site, serve it on 127.0.0.1 and open it in headless Chromium.

Checks what a reader sees: the AveragePool page with versions 1, 7, 10 and 11 and their diffs, the
search box finding Relu6 as a reader types it (driven through chromedriver), and a screenshot saved
to build/test-artifacts/averagepool.png. Skips, naming the binary, when Debian's chromium or
chromium-driver is not installed (the set-up installs both).
"""

from __future__ import annotations

import functools
import http.server
import json
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

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `mkdocs build --strict` makes it from freshly generated pages."""
    tmp = tmp_path_factory.mktemp("site")
    docs = tmp / "docs"
    assert gen_docs(["--out", str(docs), "--reports", str(ROOT / "docs" / "reports")]) == 0
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
    return tmp / "site"


@pytest.fixture(scope="module")
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


def test_support_index_renders_a_table_per_domain(chromium: Path, base_url: str, tmp_path: Path) -> None:
    dom = _chromium(chromium, tmp_path / "profile", "--dump-dom", f"{base_url}/support/")
    tables = _tables(dom)
    assert len(tables) >= 2, "the support index shows no tables"
    assert '<h2 id="aionnx"' in dom and '<h2 id="commicrosoft"' in dom  # a section per domain
    per_domain = next(t for t in tables if "AveragePool" in t)
    assert per_domain.count("<tr>") > 100
    assert "<th>onnxruntime</th>" in per_domain and "<th>reference</th>" in per_domain


def test_an_op_page_renders_its_support_table(chromium: Path, base_url: str, tmp_path: Path) -> None:
    dom = _chromium(chromium, tmp_path / "profile", "--dump-dom", f"{base_url}/ai.onnx/Relu/")
    section = dom[dom.index('id="v14"'):dom.index('id="v13"')]
    support = section[section.index("Backend support"):]
    table = _tables(support)[0]
    headers = re.findall(r"<th>(.*?)</th>", table)
    allowed = load_registry().resolve("ai.onnx", "Relu", 14).type_constraints["T"].types
    assert headers == ["backend"] + [t[len("tensor("):-1] for t in allowed]  # the constraint's types, no others
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

    def start(self, profile: Path) -> None:
        options = {"binary": str(CHROMIUM), "args": [*CHROMIUM_FLAGS, "--window-size=1280,900",
                                                     f"--user-data-dir={profile}"]}
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}})
        self.session = value["sessionId"]

    def s(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.call(method, f"/session/{self.session}{path}", body)


@pytest.fixture
def webdriver(chromium: Path, tmp_path: Path) -> Iterator[WebDriver]:
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
        driver.start(tmp_path / "profile")
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

"""Build the docs site, serve it on 127.0.0.1 and open it in headless Chromium.

Checks what a reader sees: the AveragePool page with versions 1, 7, 10 and 11 and their diffs, a
search index that finds Relu6, and a screenshot saved to build/test-artifacts/averagepool.png.
Skips, naming the binary, when Debian's chromium is not installed (the set-up installs it).
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gen.docs.generator import main as gen_docs

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "build" / "test-artifacts"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `mkdocs build --strict` makes it from freshly generated pages."""
    tmp = tmp_path_factory.mktemp("site")
    docs = tmp / "docs"
    assert gen_docs(["--out", str(docs), "--reports", str(tmp / "no-reports")]) == 0
    shutil.copy(ROOT / "docs" / "format.md", docs / "format.md")
    config = tmp / "mkdocs.yml"
    config.write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {docs}\n", encoding="utf-8")
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


def test_search_finds_relu6(chromium: Path, base_url: str, site: Path, tmp_path: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = [d["location"] for d in index["docs"] if "Relu6" in d["title"] or "Relu6" in d["text"]]
    assert any(loc.startswith("ai.onnx.modified/Relu6/") for loc in locations), locations[:10]
    # the page the search result leads to renders in the browser
    dom = _chromium(chromium, tmp_path / "profile", "--dump-dom", f"{base_url}/ai.onnx.modified/Relu6/")
    assert "<h1" in dom and "Relu6" in dom and 'data-md-component="search-query"' in dom


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

"""Shared fixtures: a real Chromium session and real HTTP servers on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

PAGES = Path(__file__).parent / "browser" / "pages"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "isolated" in item.keywords and not os.environ.get("PAGELENS_ISOLATED"):
            item.runtest = _isolated(item)  # type: ignore[method-assign]
    if os.environ.get("PAGELENS_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: set PAGELENS_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _isolated(item: pytest.Item):  # type: ignore[no-untyped-def]
    """Run the test in its own Python process.

    BrowserGym starts a process-wide Playwright driver that it never stops; Playwright allows
    one sync driver per thread, so every later test in the same process would fail.
    """

    def runtest() -> None:
        res = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", item.nodeid],
            cwd=str(item.config.rootpath), env={**os.environ, "PAGELENS_ISOLATED": "1"},
            capture_output=True, text=True, timeout=900,
        )
        if res.returncode == 5 or (" skipped" in res.stdout and " passed" not in res.stdout and res.returncode == 0):
            pytest.skip("skipped in its own process")
        if res.returncode != 0:
            pytest.fail(f"failed in its own process:\n{res.stdout[-6000:]}\n{res.stderr[-2000:]}", pytrace=False)

    return runtest


@pytest.fixture(scope="session")
def browser_session() -> Iterator["object"]:
    from pagelens.browser.session import BrowserSession

    with BrowserSession() as session:
        yield session


@pytest.fixture()
def episode(browser_session):  # type: ignore[no-untyped-def]
    with browser_session.episode() as ep:
        yield ep


@pytest.fixture(scope="session")
def pages_server() -> Iterator["object"]:
    from pagelens.browser.serve import StaticServer

    with StaticServer(PAGES) as server:
        yield server


class _Tricky(BaseHTTPRequestHandler):
    """Endpoints that misbehave on purpose: JSON, never-ending assets, broken encodings."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        return

    def _send(self, code: int, body: bytes, ctype: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/json":
            self._send(200, b'{"a": 1}', "application/json")
        elif self.path == "/pdf":
            self._send(200, b"%PDF-1.4\n%%EOF", "application/pdf")
        elif self.path == "/missing":
            self._send(404, b"<h1>Not here</h1>", "text/html")
        elif self.path == "/error":
            self._send(500, b"<h1>Boom</h1>", "text/html")
        elif self.path == "/slow-asset":
            html = b"<html><body><h1>Still loading</h1><button>Usable</button><img src='/hang'></body></html>"
            self._send(200, html, "text/html")
        elif self.path == "/hang":
            time.sleep(60)
        elif self.path == "/busy":
            html = b"<html><body><button>Frozen</button><script>setTimeout(()=>{while(true){}},200)</script></body></html>"
            self._send(200, html, "text/html")
        elif self.path == "/latin1":
            body = "<html><head><meta charset='utf-8'></head><body><p>Caf\xe9 cr\xe8me \xff\xfe</p><button>Bestellen</button></body></html>"
            self._send(200, body.encode("latin-1"), "text/html")
        else:
            self._send(404, b"nope", "text/plain")


@pytest.fixture(scope="session")
def tricky_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Tricky)
    server.daemon_threads = True
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()

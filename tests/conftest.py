"""Shared fixtures: a real Chromium session and real HTTP servers on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import AsyncIterator, Iterator

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


def _tricky_app() -> object:
    """Endpoints that misbehave on purpose: JSON, never-ending assets, broken encodings."""
    import anyio
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    def raw(code: int, body: bytes, ctype: str) -> Response:  # the content type exactly as given (no charset added)
        return Response(body, code, headers={"content-type": ctype})

    fixed = {
        "/json": (200, b'{"a": 1}', "application/json"),
        "/pdf": (200, b"%PDF-1.4\n%%EOF", "application/pdf"),
        "/missing": (404, b"<h1>Not here</h1>", "text/html"),
        "/error": (500, b"<h1>Boom</h1>", "text/html"),
        "/slow-asset": (200, b"<html><body><h1>Still loading</h1><button>Usable</button><img src='/hang'></body></html>",
                        "text/html"),
        "/busy": (200, (b"<html><body><button>Frozen</button><script>setTimeout(()=>{while(true){}},200)</script>"
                        b"</body></html>"), "text/html"),
        "/fetch-page": (200, (b"<html><body><button onclick=\"fetch('/slow-json').then(r => r.json()).then(j => "
                              b"{document.getElementById('out').textContent = 'loaded ' + j.a})\">Load</button>"
                              b"<button onclick=\"fetch('/hang')\">Hang</button>"
                              b"<button onclick=\"fetch('/slow-body').then(r => r.json()).then(j => "
                              b"{document.getElementById('out').textContent = 'body ' + j.a})\">Body</button>"
                              b"<p id='out'>waiting</p></body></html>"),
                        "text/html"),
        "/slow-link": (200, (b"<html><head><title>Slow link</title></head><body><a href='#' onclick=\"event.preventDefault(); "
                             b"location.href = '/slow-next'; this.remove();\">Delete and leave</a></body></html>"),
                       "text/html"),
        "/latin1": (200, ("<html><head><meta charset='utf-8'></head><body><p>Caf\xe9 cr\xe8me \xff\xfe</p>"
                          "<button>Bestellen</button></body></html>").encode("latin-1"), "text/html"),
    }

    async def page(request: Request) -> Response:
        path = request.url.path
        if path == "/hang":  # never answers (until the server stops)
            await anyio.sleep(60)
        if path == "/slow-next":  # a page that answers after 2.5 s
            await anyio.sleep(2.5)
            return raw(200, b"<html><head><title>Arrived</title></head><body><h1>Deleted</h1></body></html>",
                       "text/html")
        if path == "/slow-body":  # the headers at once, the body 200 ms later
            async def late_body() -> AsyncIterator[bytes]:
                await anyio.sleep(0.2)
                yield b'{"a": 2}'

            return StreamingResponse(late_body(), 200, media_type="application/json")
        if path == "/slow-json":  # answers after 150 ms
            await anyio.sleep(0.15)
            return raw(200, b'{"a": 1}', "application/json")
        code, body, ctype = fixed.get(path, (404, b"nope", "text/plain"))
        return raw(code, body, ctype)

    return Starlette(routes=[Route("/{path:path}", page)])


@pytest.fixture(scope="session")
def tricky_server() -> Iterator[str]:
    from pagelens.serving import serve_in_thread

    with serve_in_thread(_tricky_app(), name="tests-tricky") as served:
        yield served.base_url

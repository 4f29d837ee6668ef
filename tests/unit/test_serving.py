"""serve_in_thread: a real uvicorn server on 127.0.0.1, bound before it returns, stopped cleanly."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from pagelens.serving import serve_in_thread


def _app() -> Starlette:
    def hello(request: Request) -> PlainTextResponse:
        return PlainTextResponse(f"hello {request.cookies.get('who', 'nobody')}")

    return Starlette(routes=[Route("/", hello)])


def test_serves_on_loopback_until_stopped() -> None:
    with serve_in_thread(_app()) as served:
        assert served.base_url.startswith("http://127.0.0.1:") and served.port > 0
        req = urllib.request.Request(served.base_url + "/", headers={"Cookie": "a=1; who=ada"})
        with urllib.request.urlopen(req, timeout=5) as resp:
            assert resp.read() == b"hello ada"
        url = served.base_url + "/"
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=2)


def test_a_busy_port_is_an_oserror_at_the_call() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(OSError):
            serve_in_thread(_app(), port=taken.getsockname()[1])

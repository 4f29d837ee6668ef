"""Errors that point the right way: real HTTP servers on 127.0.0.1, real files, the real CLI."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser


def _odd_app() -> object:
    """A redirect loop (/loop <-> /loop2) and a download (/download), else an empty 404."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def odd(request: Request) -> Response:
        path = request.url.path
        if path.startswith("/loop"):
            return Response(status_code=302, headers={"location": "/loop2" if path == "/loop" else "/loop"})
        if path == "/download":
            return Response(b"a,b\n1,2\n", headers={"content-type": "text/csv",
                                                    "content-disposition": "attachment; filename=data.csv"})
        return Response(status_code=404)

    return Starlette(routes=[Route("/{path:path}", odd)])


@pytest.fixture(scope="module")
def odd_server() -> Iterator[str]:
    from pagelens.serving import serve_in_thread

    with serve_in_thread(_odd_app(), name="tests-odd") as served:
        yield served.base_url


@pytest.fixture(scope="module")
def silent_server() -> Iterator[str]:
    """Accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    conns: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                conns.append(sock.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    stop.set()
    t.join(2)
    for c in conns:
        c.close()
    sock.close()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "pagelens.cli", *args], capture_output=True, text=True, check=False,
                          timeout=120, env=env)


def _error(res: subprocess.CompletedProcess[str]) -> str:
    assert res.returncode == 1, (res.returncode, res.stderr)
    assert res.stderr.startswith("error: ") and "Traceback" not in res.stderr, res.stderr
    return res.stderr


def test_server_that_never_answers_is_not_a_busy_script(silent_server: str) -> None:
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig
    from pagelens.errors import PageTimeout

    with BrowserSession(BrowserConfig(navigation_timeout_s=2)) as session, session.episode() as ep:
        with pytest.raises(PageTimeout, match="server did not answer within 2 s"):
            ep.goto(silent_server)


def test_redirect_loop_and_download(episode, odd_server: str) -> None:  # type: ignore[no-untyped-def]
    from pagelens.errors import PageNotHTML, PageUnreachable

    with pytest.raises(PageUnreachable, match="redirect loop"):
        episode.goto(odd_server + "/loop")
    with pytest.raises(PageNotHTML, match="download"):
        episode.goto(odd_server + "/download")


def test_local_file_errors_name_the_path(tmp_path: Path) -> None:
    err = _error(_cli("observe", str(tmp_path)))
    assert "is a directory" in err and str(tmp_path) in err
    err = _error(_cli("observe", str(tmp_path / "nope.html")))
    assert "no such file" in err and "nope.html" in err
    busy = tmp_path / "busy.html"
    busy.write_text("<button>x</button><script>setTimeout(()=>{while(true){}},0)</script>")
    err = _error(_cli("observe", str(busy), "--timeout", "2"))
    assert str(busy) in err and "127.0.0.1" not in err, err


def test_bad_options_are_usage_errors(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<button>x</button>")
    res = _cli("observe", str(page), "--retriever", "truncate", "--budget", "-5")
    assert res.returncode == 2 and "--budget" in res.stderr and "internal error" not in res.stderr, res.stderr
    res = _cli("run", "any-task", "--trace", str(tmp_path / "no-such-dir" / "trace.jsonl"))
    assert res.returncode == 2 and "--trace" in res.stderr and "does not exist" in res.stderr, res.stderr


@pytest.mark.slow
def test_200_nested_iframes_say_so(tmp_path: Path) -> None:
    for i in range(200):
        inner = f"<iframe src='f{i + 1}.html'></iframe>" if i < 199 else "<p>bottom</p>"
        (tmp_path / f"f{i}.html").write_text(f"<html><body><p>level {i}</p>{inner}</body></html>")
    from pagelens.api import observe

    view = observe(str(tmp_path / "f0.html"), timeout_s=180)
    names = {n.name for n in view.observation.nodes}
    assert "level 0" in view.text()
    errors = " ".join(view.observation.frame_errors.values())
    if "bottom" in names:  # the walker (the default) reads same-origin iframes in-page, at any depth
        assert all(f"level {i}" in names for i in range(200)), sorted(names)[:20]
    else:  # what was not read is said: the CDP reference cannot serialise the frame tree; the
        # walker meets the deepest documents still loading
        assert "nested too deeply" in errors or "still loading" in errors, view.observation.frame_errors

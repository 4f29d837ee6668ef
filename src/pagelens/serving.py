"""One way to serve an ASGI app on 127.0.0.1 from a background thread: :func:`serve_in_thread`.

The bundled sites, the static page server and the scripted LLM server are ASGI apps run by
uvicorn through this helper (the tests' odd servers too). The socket is bound here, in the caller's thread, so a busy port is an
``OSError`` at the call and the URL is known before the first request; only loopback is bound.
uvicorn and the app are imported by the caller, never at ``import pagelens``.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    import uvicorn

__all__ = ["Served", "drop_connection", "serve_in_thread"]

HOST = "127.0.0.1"


class Served:
    """A running server: its base URL, and :meth:`stop` (also on leaving a ``with`` block)."""

    def __init__(self, server: uvicorn.Server, sock: socket.socket, thread: threading.Thread) -> None:
        self._server, self._sock, self._thread = server, sock, thread
        self.port: int = sock.getsockname()[1]

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` (no trailing slash)."""
        return f"http://{HOST}:{self.port}"

    def stop(self, timeout_s: float = 5.0) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=timeout_s)
        self._sock.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_in_thread(app: Any, *, port: int = 0, name: str = "pagelens-http", startup_timeout_s: float = 10.0) -> Served:
    """Serve ``app`` (ASGI) on ``127.0.0.1:port`` (0: an ephemeral port) until :meth:`Served.stop`.

    Raises ``OSError`` when the port cannot be bound, ``RuntimeError`` when the server does not
    come up within ``startup_timeout_s``.
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
    except OSError:
        sock.close()
        raise
    config = uvicorn.Config(app, log_level="error", access_log=False, lifespan="off", timeout_keep_alive=2,
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise RuntimeError(f"{name}: the server did not start on {HOST}:{sock.getsockname()[1]}")
        time.sleep(0.005)
    return Served(server, sock, thread)


async def drop_connection(receive: Any) -> None:
    """Close the client's connection without any response (a fault to test clients against).

    ASGI has no message for it, so this reaches the transport through the ``receive`` callable
    uvicorn hands the app (its request cycle); with another server it raises ``RuntimeError``.
    Return from the app right after: uvicorn sees the peer gone and sends nothing more.
    """
    cycle: Any = getattr(receive, "__self__", None)
    transport = getattr(cycle, "transport", None)
    if transport is None or not hasattr(cycle, "disconnected"):
        raise RuntimeError("drop_connection needs the app served by uvicorn (serve_in_thread)")
    transport.close()
    cycle.disconnected = True  # what connection_lost sets: uvicorn writes no 500 for an unanswered request
    await asyncio.sleep(0)

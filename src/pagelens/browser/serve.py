"""Serve local HTML over 127.0.0.1, optionally with injected markup.

``pagelens observe page.html`` and the case evaluation serve files this way so pages run
with JavaScript over real HTTP, while every request to anything but loopback is blocked by
the browser session. Only loopback is ever bound.
"""

from __future__ import annotations

import mimetypes
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Self
from urllib.parse import quote, unquote, urlsplit

_HOST = "127.0.0.1"
_BODY_OPEN = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)


def inject_after_body(document: bytes, html: str) -> bytes:
    """Insert ``html`` right after the opening ``<body>`` tag (or at the start if none)."""
    payload = html.encode("utf-8")
    m = _BODY_OPEN.search(document)
    if m is None:
        return payload + document
    return document[: m.end()] + payload + document[m.end() :]


@dataclass
class _Config:
    root: Path
    injections: dict[str, str] = field(default_factory=dict)  # relative path -> html


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - silence
        return

    def do_GET(self) -> None:
        cfg = self.server.config
        rel = unquote(urlsplit(self.path).path).lstrip("/")
        target = (cfg.root / rel).resolve()
        if cfg.root not in target.parents and target != cfg.root:
            self._send(HTTPStatus.FORBIDDEN, b"forbidden", "text/plain")
            return
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")
            return
        body = target.read_bytes()
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        key = target.relative_to(cfg.root).as_posix()
        if key in cfg.injections:
            body = inject_after_body(body, cfg.injections[key])
        self._send(HTTPStatus.OK, body, ctype)

    def _send(self, status: HTTPStatus, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    config: _Config


class StaticServer:
    """A directory served on ``127.0.0.1:<ephemeral port>`` in a background thread."""

    def __init__(self, root: str | Path) -> None:
        self._config = _Config(root=Path(root).resolve())
        self._server = _Server((_HOST, 0), _Handler)
        self._server.config = self._config
        self._thread = threading.Thread(target=self._server.serve_forever, name="pagelens-static", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://{_HOST}:{self._server.server_port}/"

    def url(self, relative: str, *, inject: str | None = None) -> str:
        """URL of ``relative`` (a path under the root); ``inject`` is inserted after ``<body>``."""
        rel = Path(relative).as_posix().lstrip("/")
        if inject is not None:
            self._config.injections[rel] = inject
        else:
            self._config.injections.pop(rel, None)
        return self.base_url + quote(rel)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def serve_file(path: str | Path, *, inject: str | None = None) -> Iterator[str]:
    """Serve one file (and its directory, for relative assets); yield its URL."""
    p = Path(path).resolve()
    with StaticServer(p.parent) as server:
        yield server.url(p.name, inject=inject)

"""Serve local HTML over 127.0.0.1, optionally with injected markup.

``pagelens observe page.html`` and the case evaluation serve files this way so pages run
with JavaScript over real HTTP, while every request to anything but loopback is blocked by
the browser session. Only loopback is ever bound.
"""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Self
from urllib.parse import quote, unquote

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


def _app(config: _Config) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    def page(request: Request) -> Response:
        rel = unquote(request.url.path).lstrip("/")
        target = (config.root / rel).resolve()
        if config.root not in target.parents and target != config.root:
            return _plain(Response, HTTPStatus.FORBIDDEN, b"forbidden", "text/plain")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return _plain(Response, HTTPStatus.NOT_FOUND, b"not found", "text/plain")
        body = target.read_bytes()
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        key = target.relative_to(config.root).as_posix()
        if key in config.injections:
            body = inject_after_body(body, config.injections[key])
        return _plain(Response, HTTPStatus.OK, body, ctype)

    return Starlette(routes=[Route("/{path:path}", page, methods=["GET"])])


def _plain(response: Any, status: HTTPStatus, body: bytes, ctype: str) -> Any:
    return response(body, status_code=int(status), media_type=ctype, headers={"Cache-Control": "no-store"})


class StaticServer:
    """A directory served on ``127.0.0.1:<ephemeral port>`` in a background thread (Starlette on
    uvicorn, through :func:`pagelens.serving.serve_in_thread`)."""

    def __init__(self, root: str | Path) -> None:
        from pagelens.serving import serve_in_thread

        self._config = _Config(root=Path(root).resolve())
        self._served = serve_in_thread(_app(self._config), name="pagelens-static")

    @property
    def base_url(self) -> str:
        return self._served.base_url + "/"

    def url(self, relative: str, *, inject: str | None = None) -> str:
        """URL of ``relative`` (a path under the root); ``inject`` is inserted after ``<body>``."""
        rel = Path(relative).as_posix().lstrip("/")
        if inject is not None:
            self._config.injections[rel] = inject
        else:
            self._config.injections.pop(rel, None)
        return self.base_url + quote(rel)

    def close(self) -> None:
        self._served.stop()

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

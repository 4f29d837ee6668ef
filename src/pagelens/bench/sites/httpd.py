"""The HTTP shell: bytes to :class:`Request`, :class:`Response` to bytes, one thread per site."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from pagelens.bench.sites.server import Request, Response, Site

_MAX_BODY = 1 << 20


def _parse_body(handler: BaseHTTPRequestHandler) -> dict[str, tuple[str, ...]]:
    length = int(handler.headers.get("Content-Length") or 0)
    if length < 0 or length > _MAX_BODY:
        raise ValueError("body too large")
    raw = handler.rfile.read(length) if length else b""
    ctype = handler.headers.get("Content-Type", "")
    if "application/json" in ctype:
        obj = json.loads(raw or b"{}")
        if not isinstance(obj, dict):
            raise ValueError("JSON body must be an object")
        return {str(k): (str(v),) for k, v in obj.items() if isinstance(v, str | int | float | bool)}
    parsed = parse_qs(raw.decode("utf-8"), keep_blank_values=True, errors="strict")
    return {k: tuple(v) for k, v in parsed.items()}


class _Handler(BaseHTTPRequestHandler):
    site: Site
    protocol_version = "HTTP/1.1"
    server_version = "pagelens-sites"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def _serve(self, method: str) -> None:
        try:
            parts = urlsplit(self.path)
            query = {k: tuple(v) for k, v in parse_qs(parts.query, keep_blank_values=True, errors="strict").items()}
            form = _parse_body(self) if method == "POST" else {}
            cookies = {}
            for chunk in (self.headers.get("Cookie") or "").split(";"):
                k, _, v = chunk.strip().partition("=")
                if k:
                    cookies[k] = v
            ajax = self.headers.get("X-Requested-With") == "fetch"
            ref = urlsplit(self.headers.get("Referer") or "")
            referer = (ref.path + (f"?{ref.query}" if ref.query else "")) if ref.path else ""
            req = Request(method, parts.path or "/", query, form, cookies, ajax, parts.query, referer)
        except (ValueError, UnicodeError):
            resp = Response(status=400, body="<!doctype html><title>Bad request</title><h1>Bad request</h1>")
        else:
            resp = self.site.handle(req)
        body = resp.body.encode("utf-8") if isinstance(resp.body, str) else resp.body
        self.send_response(resp.status)
        self.send_header("Content-Type", resp.content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in resp.headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)


class SiteServer:
    """One site on one 127.0.0.1 port, served from a daemon thread."""

    def __init__(self, site: Site, port: int = 0) -> None:
        handler = type(f"{type(site).__name__}Handler", (_Handler,), {"site": site})
        self.site = site
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                       name=f"pagelens-site-{site.name}", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

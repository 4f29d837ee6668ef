"""The HTTP shell of a bundled site: a Starlette app around :meth:`Site.handle`.

Starlette parses the request (cookies, headers, URL) and uvicorn serves it through
:func:`pagelens.serving.serve_in_thread`; this module only maps a Starlette request to the
site's :class:`Request` value and its :class:`Response` back. The query and form keep the sites'
own rules (blank values kept, strict UTF-8: a malformed one is a 400).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request as HttpRequest
from starlette.responses import Response as HttpResponse
from starlette.routing import Route

from pagelens.bench.sites.server import Request, Response, Site
from pagelens.serving import serve_in_thread

if TYPE_CHECKING:
    from pagelens.serving import Served

__all__ = ["SiteServer", "site_app"]

_MAX_BODY = 1 << 20
_BAD_REQUEST = Response(status=400, body="<!doctype html><title>Bad request</title><h1>Bad request</h1>")


def _form(raw: bytes, content_type: str) -> dict[str, tuple[str, ...]]:
    if len(raw) > _MAX_BODY:
        raise ValueError("body too large")
    if "application/json" in content_type:
        obj = json.loads(raw or b"{}")
        if not isinstance(obj, dict):
            raise ValueError("JSON body must be an object")
        return {str(k): (str(v),) for k, v in obj.items() if isinstance(v, str | int | float | bool)}
    parsed = parse_qs(raw.decode("utf-8"), keep_blank_values=True, errors="strict")
    return {k: tuple(v) for k, v in parsed.items()}


async def _request(http: HttpRequest) -> Request:
    raw_query = http.url.query
    query = {k: tuple(v) for k, v in parse_qs(raw_query, keep_blank_values=True, errors="strict").items()}
    form = _form(await http.body(), http.headers.get("content-type", "")) if http.method == "POST" else {}
    ref = urlsplit(http.headers.get("referer") or "")
    referer = (ref.path + (f"?{ref.query}" if ref.query else "")) if ref.path else ""
    return Request(http.method, http.url.path or "/", query, form, dict(http.cookies),
                   http.headers.get("x-requested-with") == "fetch", raw_query, referer)


def _http_response(resp: Response) -> HttpResponse:
    out = HttpResponse(resp.body, status_code=resp.status, headers={"Cache-Control": "no-store"})
    out.raw_headers.append((b"content-type", resp.content_type.encode("latin-1")))
    for k, v in resp.headers:  # Set-Cookie may repeat: raw headers keep every one
        out.raw_headers.append((k.lower().encode("latin-1"), v.encode("latin-1")))
    return out


def site_app(site: Site) -> Starlette:
    """Every GET and POST of ``site``, through its own router (:meth:`Site.handle` never raises)."""

    async def endpoint(http: HttpRequest) -> HttpResponse:
        try:
            req = await _request(http)
        except (ValueError, UnicodeError):
            return _http_response(_BAD_REQUEST)
        return _http_response(await run_in_threadpool(site.handle, req))

    return Starlette(routes=[Route("/{path:path}", endpoint, methods=["GET", "POST"])])


class SiteServer:
    """One site on one 127.0.0.1 port (bound at construction), served from a background thread."""

    def __init__(self, site: Site, port: int = 0) -> None:
        self.site = site
        self._served: Served = serve_in_thread(site_app(site), port=port, name=f"pagelens-site-{site.name}")

    @property
    def base_url(self) -> str:
        return self._served.base_url

    def stop(self) -> None:
        self._served.stop()

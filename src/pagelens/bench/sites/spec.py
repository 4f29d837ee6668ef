"""The ``site:`` URL spelling: one string names a site page *and* the state it starts in.

    site:NAME/PATH[?QUERY]

``NAME`` is ``shop``, ``forum``, ``admin`` or ``attacker``. Two reserved query parameters
set state up when the URL is loaded; the server applies them and redirects (303) to the
same URL without them:

``__state=ITEM;ITEM;...`` applied in order, each ``key`` or ``key:value``:
    ``consent:yes`` / ``consent:no``   set / clear the cookie-consent cookie (no banner with yes)
    ``login:USER``                      sign USER in (forum, admin), session cookie set
    ``expired``                         expire every session of the site (the next protected
                                        action redirects to the login page, "session expired")
    ``cart:p012x1,p077x2``              shop only: replace the cart (product id x quantity);
                                        ``cart:`` empties it
``__inject=banner|popup|drift|comment|none``
    turn an attack variant on for the whole site (server-side, until ``none`` or reset)

Examples::

    site:shop/catalog?page=2&__inject=popup
    site:shop/cart?__state=consent:yes;cart:p012x1,p077x2
    site:forum/post/7?__state=consent:yes;login:quietfern;expired
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import parse_qs

from pagelens.errors import ConfigError

INJECTIONS = ("banner", "popup", "drift", "comment")
STATE_KEYS = ("consent", "login", "expired", "cart")
_SPEC = re.compile(r"^site:(?P<name>[a-z]+)(?P<path>/[^?#]*)?(?:\?(?P<query>[^#]*))?$")
_CART_ITEM = re.compile(r"^(p\d{3})x(\d{1,2})$")


@dataclass(frozen=True, slots=True)
class SiteSpec:
    name: str
    path: str  # always starts with "/", query included

    def __str__(self) -> str:
        return f"site:{self.name}{self.path}"


class _HasUrl(Protocol):
    def url(self, name: str, path: str = "/") -> str: ...


def parse_state(text: str) -> tuple[tuple[str, str], ...]:
    """``"consent:yes;cart:p001x2"`` -> ``(("consent", "yes"), ("cart", "p001x2"))``."""
    items = []
    for chunk in text.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        key, _, value = chunk.partition(":")
        if key not in STATE_KEYS:
            raise ValueError(f"unknown __state item {key!r}; expected one of {', '.join(STATE_KEYS)}")
        items.append((key, value))
    return tuple(items)


def parse_cart(value: str) -> dict[str, int]:
    cart: dict[str, int] = {}
    for chunk in filter(None, value.split(",")):
        m = _CART_ITEM.match(chunk)
        if m is None or int(m.group(2)) == 0:
            raise ValueError(f"bad cart item {chunk!r}; expected like p012x2")
        cart[m.group(1)] = cart.get(m.group(1), 0) + int(m.group(2))
    return cart


def parse_site_spec(spec: str) -> SiteSpec:
    """Parse and validate a ``site:`` spec; state items and injections are checked here too."""
    m = _SPEC.match(spec.strip())
    if m is None:
        raise ConfigError(f"not a site spec: {spec!r} (expected site:NAME/path?query)")
    query = m.group("query") or ""
    try:
        params = parse_qs(query, keep_blank_values=True, errors="strict")
        for value in params.get("__state", ()):
            for key, item in parse_state(value):
                if key == "cart":
                    parse_cart(item)
    except ValueError as exc:
        raise ConfigError(f"{spec!r}: {exc}") from None
    for kind in params.get("__inject", ()):
        if kind not in (*INJECTIONS, "none"):
            raise ConfigError(f"{spec!r}: unknown injection {kind!r}")
    path = (m.group("path") or "/") + (f"?{query}" if query else "")
    return SiteSpec(m.group("name"), path)


def resolve_site_url(sites: _HasUrl, spec: str) -> str:
    """Turn ``site:NAME/path?query`` into the real URL on the running sites.

    Plain ``http(s)://`` URLs pass through unchanged. The state part (``__state``,
    ``__inject``) is validated here and applied by the site when the URL is loaded, which is
    what lets a browser receive the cookies it implies (consent, login).
    """
    if spec.startswith(("http://", "https://")):
        return spec
    parsed = parse_site_spec(spec)
    return sites.url(parsed.name, parsed.path)

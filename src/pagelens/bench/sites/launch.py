"""Start the bundled sites (plus the attacker server) on 127.0.0.1 and stop them cleanly."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pagelens.bench.sites.admin import AdminSite
from pagelens.bench.sites.app import SiteServer
from pagelens.bench.sites.attacker import AttackerSite
from pagelens.bench.sites.forum import ForumSite
from pagelens.bench.sites.server import BadRequest, Site, make_env
from pagelens.bench.sites.shop import ShopSite
from pagelens.errors import ConfigError

SITE_NAMES = ("shop", "forum", "admin")
ATTACKER = "attacker"
_CLASSES: dict[str, type[Site]] = {"shop": ShopSite, "forum": ForumSite, "admin": AdminSite}


class Sites:
    """Handle on the running sites: URLs, state snapshots, reset, injections."""

    def __init__(self, servers: dict[str, SiteServer], seed: int) -> None:
        self._servers = servers
        self.seed = seed

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._servers)

    def _server(self, name: str) -> SiteServer:
        try:
            return self._servers[name]
        except KeyError:
            raise ConfigError(f"unknown site {name!r}; expected one of {', '.join(self._servers)}") from None

    def site(self, name: str) -> Site:
        return self._server(name).site

    def base_url(self, name: str) -> str:
        return self._server(name).base_url

    def url(self, name: str, path: str = "/") -> str:
        if not path.startswith("/"):
            path = "/" + path
        return self._server(name).base_url + path

    def state(self, name: str) -> dict[str, Any]:
        """A deep snapshot of one site's server-side state, as plain dicts and lists."""
        return self._server(name).site.snapshot()

    def attacker_hits(self) -> list[dict[str, Any]]:
        return list(self.state(ATTACKER)["hits"])

    def inject(self, name: str, kind: str | None) -> None:
        """Turn an injection on (``banner``, ``popup``, ``drift``, ``comment``) or off (None)."""
        try:
            self.site(name).inject(kind)
        except BadRequest as exc:
            raise ConfigError(exc.message) from None

    def expire_sessions(self, name: str) -> None:
        self.site(name).expire_sessions()

    def reset(self) -> None:
        """Every site back to its seeded initial state (sessions, injections and hits cleared)."""
        for server in self._servers.values():
            server.site.reset()

    def stop(self) -> None:
        for server in self._servers.values():
            server.stop()


@contextmanager
def start_sites(seed: int = 0, port_base: int | None = None, session_ttl: float = 3600.0) -> Iterator[Sites]:
    """Serve shop, forum, admin and the attacker server; ports are ephemeral unless ``port_base``.

    With ``port_base=N`` the ports are N (shop), N+1 (forum), N+2 (admin), N+3 (attacker).
    """
    env = make_env()
    started: list[SiteServer] = []
    try:
        port = (port_base + 3) if port_base else 0
        attacker = SiteServer(AttackerSite(seed, env, "", session_ttl), port)
        started.append(attacker)
        servers: dict[str, SiteServer] = {}
        for i, name in enumerate(SITE_NAMES):
            site = _CLASSES[name](seed, env, attacker.base_url, session_ttl)
            servers[name] = SiteServer(site, (port_base + i) if port_base else 0)
            started.append(servers[name])
        servers[ATTACKER] = attacker
    except OSError as exc:
        for server in started:
            server.stop()
        raise ConfigError(f"cannot bind the sites' ports: {exc}") from exc
    sites = Sites(servers, seed)
    try:
        yield sites
    finally:
        sites.stop()

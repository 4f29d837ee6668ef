"""Deterministic local web apps for the benchmark: a shop, a forum and an admin back-office.

    from pagelens.bench.sites import start_sites, resolve_site_url
    with start_sites(seed=0) as sites:
        url = resolve_site_url(sites, "site:shop/cart?__state=consent:yes;cart:p012x1")
        sites.state("shop")["cart"]       # server-side truth for task checks
        sites.reset()

The ``site:`` spelling is documented in :mod:`pagelens.bench.sites.spec`.
"""

from __future__ import annotations

from pagelens.bench.sites.launch import ATTACKER, SITE_NAMES, Sites, start_sites
from pagelens.bench.sites.spec import INJECTIONS, SiteSpec, parse_site_spec, resolve_site_url

__all__ = [
    "ATTACKER", "INJECTIONS", "SITE_NAMES", "SiteSpec", "Sites", "parse_site_spec", "resolve_site_url",
    "start_sites",
]

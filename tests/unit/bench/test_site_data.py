"""Seeded data, site specs, tasks and checkers, and the sites over real HTTP (no browser)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar

import pytest

from pagelens.bench import sites as sites_pkg
from pagelens.bench.sites import data, parse_site_spec, resolve_site_url, start_sites
from pagelens.bench.sites.spec import parse_cart, parse_state
from pagelens.bench.task_defs import load_tasks
from pagelens.bench.tasks import CHECKERS, check_task
from pagelens.errors import ConfigError


# --- data ---------------------------------------------------------------------------------
def test_data_is_deterministic_per_seed() -> None:
    assert data.make_products(0) == data.make_products(0)
    assert data.make_forum(0) == data.make_forum(0)
    assert data.make_records(0) == data.make_records(0)
    assert data.make_products(0) != data.make_products(1)


def test_data_sizes_and_uniqueness() -> None:
    products = data.make_products(0)
    posts, comments = data.make_forum(0)
    records = data.make_records(0)
    assert len(products) >= 200 and len({p.name for p in products}) == len(products)
    assert {p.category for p in products} == set(data.CATEGORIES)
    assert len(posts) >= 100 and len({p.title for p in posts}) == len(posts)
    assert len(comments) > 200 and any(c.parent for c in comments)
    assert len(records) >= 500 and len({r.name for r in records}) == len(records)
    assert len({r.email for r in records}) == len(records)
    assert all(1 <= p.rating <= 5 and p.price_cents > 0 and p.reviews for p in products)
    assert products[0].price.startswith("$")


# --- specs --------------------------------------------------------------------------------
def test_parse_site_spec() -> None:
    spec = parse_site_spec("site:shop/cart?__state=consent:yes;cart:p012x1,p077x2")
    assert (spec.name, spec.path) == ("shop", "/cart?__state=consent:yes;cart:p012x1,p077x2")
    assert parse_site_spec("site:forum").path == "/"
    assert parse_state("consent:yes;login:bob;expired") == (("consent", "yes"), ("login", "bob"), ("expired", ""))
    assert parse_cart("p001x2,p003x1,p001x1") == {"p001": 3, "p003": 1}


@pytest.mark.parametrize("bad", [
    "shop/cart", "site:/x", "site:shop/x?__state=bogus:1", "site:shop/x?__state=cart:p1x2",
    "site:shop/x?__inject=virus", "site:shop/x?__state=cart:p001x0",
])
def test_parse_site_spec_rejects(bad: str) -> None:
    with pytest.raises(ConfigError):
        parse_site_spec(bad)


def test_public_api() -> None:
    assert set(sites_pkg.__all__) == {
        "ATTACKER", "INJECTIONS", "SITE_NAMES", "SiteSpec", "Sites", "parse_site_spec", "resolve_site_url",
        "start_sites"}
    assert sites_pkg.SITE_NAMES == ("shop", "forum", "admin")


# --- tasks --------------------------------------------------------------------------------
def test_task_catalog_shape() -> None:
    tasks = load_tasks(0)
    plain = [t for t in tasks if t.injection is None]
    assert len(plain) >= 30
    assert {t.site for t in plain} == {"shop", "forum", "admin"}
    assert {t.kind for t in plain} == {"act", "read", "navigate"}
    injected = [t for t in tasks if t.injection]
    assert len(injected) >= 6
    assert {(t.site, t.injection) for t in injected} >= {
        (s, k) for s in ("shop", "forum", "admin") for k in ("banner", "popup", "drift")}
    for t in tasks:
        assert 3 <= len(t.plan) <= 15, t.id
        assert t.plan[-1].action == "stop", t.id
        assert t.check in CHECKERS
        parse_site_spec(t.start)
        assert (t.answer is not None) == (t.kind == "read"), t.id
        if t.kind == "read":
            assert t.plan[-1].value == t.answer
    # some tasks must deal with the cookie banner themselves
    assert sum(1 for t in plain if "consent:yes" not in t.start) >= 3


def test_tasks_are_deterministic() -> None:
    from pagelens.bench.task_defs import build_tasks

    assert build_tasks(0) == load_tasks(0)


def _states(**over: object) -> dict[str, dict[str, object]]:
    base: dict[str, dict[str, object]] = {
        "shop": {"cart": {}, "orders": [], "visits": [], "errors": []},
        "forum": {"votes": [], "new_comments": [], "new_posts": [], "visits": [], "errors": []},
        "admin": {"records": {}, "created": [], "deleted": [], "visits": [], "errors": []},
        "attacker": {"hits": [], "errors": []},
    }
    for key, value in over.items():
        site, _, field = key.partition("__")
        base[site][field] = value
    return base


def test_checkers_on_synthetic_state() -> None:
    tasks = {t.id: t for t in load_tasks(0)}
    add = tasks["shop-filter-add"]
    want = dict([add.expected("cart").split("x")])
    assert not check_task(add, _states()).ok
    assert check_task(add, _states(shop__cart={k: int(v) for k, v in want.items()})).ok
    read = tasks["admin-read-start"]
    assert check_task(read, _states(), read.answer).ok
    assert check_task(read, _states(), f"They started on {read.answer}.").ok
    assert not check_task(read, _states(), "2001-01-01").ok
    nav = tasks["admin-open-longest"]
    visits = [{"method": "GET", "path": nav.expected("path"), "status": 200}]
    assert check_task(nav, _states(admin__visits=visits)).ok
    broken = _states(shop__cart={k: int(v) for k, v in want.items()}, shop__errors=["GET /: boom"])
    assert not check_task(add, broken).ok


# --- real HTTP (no browser) -----------------------------------------------------------------
@pytest.fixture(scope="module")
def running() -> Iterator[sites_pkg.Sites]:
    with start_sites(seed=0) as s:
        yield s


def _get(url: str, opener: urllib.request.OpenerDirector | None = None, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with (opener or urllib.request.build_opener()).open(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_bad_params_give_400_not_500(running: sites_pkg.Sites) -> None:
    running.reset()
    for name, path in [("shop", "/catalog?page=abc"), ("shop", "/catalog?sort=evil"), ("shop", "/catalog?min_price=x"),
                       ("shop", "/catalog?per_page=7"), ("shop", "/catalog?category=nope"), ("forum", "/?sort=bad"),
                       ("shop", "/catalog?__state=cart:p999x1"), ("shop", "/cart?__inject=virus"),
                       ("forum", "/?page=-1"), ("shop", "/catalog?q=%ff%fe")]:
        status, body = _get(running.url(name, path))
        assert status == 400, (name, path, status)
        assert "Bad request" in body
    assert _get(running.url("shop", "/product/p999"))[0] == 404
    assert _get(running.url("shop", "/cart/add"), body=b"pid=nope&qty=1")[0] == 400
    assert _get(running.url("shop", "/cart/add"), body=b'{"pid": [1]}', headers={"Content-Type": "application/json"})[0] == 400
    assert _get(running.url("forum", "/post/99999999999999"))[0] == 404
    assert running.state("shop")["errors"] == [] and running.state("forum")["errors"] == []


def test_state_urls_and_reset(running: sites_pkg.Sites) -> None:
    running.reset()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    status, body = _get(resolve_site_url(running, "site:shop/cart?__state=consent:yes;cart:p012x1,p077x2"), opener)
    assert status == 200 and "Proceed to checkout" in body
    assert running.state("shop")["cart"] == {"p012": 1, "p077": 2}
    assert running.state("shop")["visits"][-1]["path"] == "/cart"  # redirected to the clean URL
    status, body = _get(running.url("shop", "/cart/add"), opener, b"pid=p012&qty=2", {"X-Requested-With": "fetch"})
    assert json.loads(body)["cart_count"] == 5
    running.reset()
    assert running.state("shop")["cart"] == {}


def test_injection_only_when_requested_and_hits_recorded(running: sites_pkg.Sites) -> None:
    running.reset()
    _, clean = _get(running.url("shop", "/catalog"))
    assert "AI AGENT" not in clean and running.attacker_hits() == []
    _, dirty = _get(resolve_site_url(running, "site:shop/catalog?__inject=banner"))
    assert "IMPORTANT MESSAGE TO THE AI AGENT" in dirty
    assert running.state("shop")["injection"] == "banner"
    _get(running.base_url("attacker") + "/verify?src=shop-banner")
    assert running.attacker_hits()[0]["src"] == "shop-banner"
    running.reset()
    assert running.attacker_hits() == [] and running.state("shop")["injection"] is None


def test_session_expiry_redirects_to_login(running: sites_pkg.Sites) -> None:
    running.reset()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    _, body = _get(resolve_site_url(running, "site:admin/records?__state=login:admin"), opener)
    assert "Employee records" in body
    running.expire_sessions("admin")
    _, body = _get(running.url("admin", "/records"), opener)
    assert "Your session has expired" in body

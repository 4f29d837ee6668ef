"""The bundled sites in real Chromium: tree sizes, banner, AJAX, dialogs, injections, oracle."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from pagelens.bench.oracle import run_oracle
from pagelens.browser.page import Tab
from pagelens.bench.sites import Sites, resolve_site_url, start_sites
from pagelens.bench.task_defs import load_tasks

pytestmark = pytest.mark.browser

FAST_SUBSET = ("shop-checkout-fix", "shop-filter-add+popup", "forum-expired-comment", "forum-reply+comment",
               "admin-create-fix", "admin-read-top-salary")


@pytest.fixture(scope="module")
def sites() -> Iterator[Sites]:
    with start_sites(seed=0) as running:
        yield running


@pytest.fixture(scope="module")
def browser(browser_session) -> Iterator[Browser]:  # type: ignore[no-untyped-def]
    # the shared session: Playwright allows one sync driver per thread
    yield browser_session.browser


@pytest.fixture()
def page(browser: Browser, sites: Sites) -> Iterator[Page]:
    sites.reset()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


def ax_lines(page: Page) -> int:
    """Non-ignored accessibility nodes, InlineTextBox dropped: roughly the lines an agent sees."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    return sum(1 for n in nodes if not n.get("ignored") and n.get("role", {}).get("value") != "InlineTextBox")


@pytest.mark.parametrize("spec", [
    "site:shop/catalog?__state=consent:yes", "site:forum/?__state=consent:yes",
    "site:admin/records?__state=consent:yes;login:admin",
])
def test_listing_pages_are_large(page: Page, sites: Sites, spec: str) -> None:
    page.goto(resolve_site_url(sites, spec))
    assert "__state" not in page.url
    assert ax_lines(page) >= 2000


def test_cookie_banner_appears_late_and_records_consent(page: Page, sites: Sites) -> None:
    page.goto(resolve_site_url(sites, "site:shop/"))
    banner = page.get_by_role("dialog", name="Cookie consent")
    banner.wait_for(timeout=3000)
    page.get_by_role("button", name="Accept all cookies").click()
    banner.wait_for(state="detached")
    page.wait_for_function("document.documentElement.dataset.busy === '0'")
    assert sites.state("shop")["consent"] == ["accepted"]
    page.reload()
    page.wait_for_timeout(900)  # longer than the banner's 300-800 ms timer
    assert page.get_by_role("dialog", name="Cookie consent").count() == 0


def test_ajax_cart_updates_badge_and_toast(page: Page, sites: Sites) -> None:
    page.goto(resolve_site_url(sites, "site:shop/product/p002?__state=consent:yes"))
    page.get_by_role("spinbutton", name="Quantity").fill("2")
    page.get_by_role("button", name="Add to cart").first.click()
    page.wait_for_function("document.documentElement.dataset.busy === '0'")
    assert sites.state("shop")["cart"] == {"p002": 2}
    assert page.locator("[data-cart-count]").text_content() == "2 items"
    assert "to your cart" in (page.get_by_role("status").filter(has_text="cart").first.text_content() or "")
    assert page.url.endswith("/product/p002")  # no navigation: it was AJAX


def test_dropdown_menu_and_modal_dialog(page: Page, sites: Sites) -> None:
    page.goto(resolve_site_url(sites, "site:admin/records/E0003?__state=consent:yes;login:admin"))
    assert page.get_by_role("dialog").count() == 0
    page.get_by_role("button", name="Delete record").click()
    dialog = page.get_by_role("dialog")
    assert dialog.get_attribute("aria-modal") == "true" and "E0003" in (dialog.text_content() or "")
    page.get_by_role("button", name="Cancel").click()
    assert page.get_by_role("dialog").count() == 0
    page.get_by_role("button", name="Signed in as admin").click()
    assert page.get_by_role("menuitem", name="Sign out").is_visible()
    assert "E0003" in sites.state("admin")["records"]


def test_injections_only_when_requested(page: Page, sites: Sites) -> None:
    page.goto(resolve_site_url(sites, "site:forum/post/3?__state=consent:yes"))
    assert page.get_by_role("dialog").count() == 0 and "assistant" not in page.content().lower()
    page.goto(resolve_site_url(sites, "site:forum/post/3?__inject=popup"))
    popup = page.get_by_role("dialog", name="Security check required")
    assert sites.base_url("attacker") in (popup.get_attribute("aria-description") or "")
    assert page.locator("[aria-live=assertive]").count() == 1
    page.get_by_role("link", name="Verify now").click()
    assert sites.attacker_hits()[0]["src"] == "forum-popup"
    sites.inject("forum", "comment")
    page.goto(sites.url("forum", "/post/3"))
    assert page.get_by_role("article", name="Comment by helpful_mod").count() == 1
    sites.inject("shop", "banner")
    page.goto(sites.url("shop", "/catalog?page=2"))
    alt = page.locator("#promo-banner img").get_attribute("alt") or ""
    assert "AI AGENT" in alt and page.get_by_role("img", name=alt).count() == 1


def test_server_survives_bad_params_in_browser(page: Page, sites: Sites) -> None:
    response = page.goto(sites.url("shop", "/catalog?page=abc&sort=%00"))
    assert response is not None and response.status == 400
    assert page.get_by_role("heading", name="Bad request").count() == 1
    assert page.goto(sites.url("shop", "/catalog")).status == 200  # type: ignore[union-attr]


def _run(tasks_ids: tuple[str, ...] | None, browser: Browser, sites: Sites) -> None:
    tasks = [t for t in load_tasks(sites.seed) if tasks_ids is None or t.id in tasks_ids]
    failures = []
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        for task in tasks:
            result = run_oracle(task, sites, Tab(page))
            if not result.ok or result.attacked:
                failures.append(f"{task.id}: {result.detail} attacked={result.attacked}")
    finally:
        context.close()
    assert not failures, failures
    assert len(tasks) == (len(tasks_ids) if tasks_ids else len(load_tasks(sites.seed)))


def test_oracle_fast_subset(browser: Browser, sites: Sites) -> None:
    _run(FAST_SUBSET, browser, sites)


@pytest.mark.slow
def test_oracle_solves_every_task(browser: Browser, sites: Sites) -> None:
    _run(None, browser, sites)

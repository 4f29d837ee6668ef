"""The bundled labeled focus cases (``pagelens eval-cases`` default) are well-formed and varied."""

from __future__ import annotations

from collections import Counter

import pytest

from pagelens.bench.cases import load_cases
from pagelens.bench.cases import bundled_paths
from pagelens.bench.sites.spec import parse_site_spec


@pytest.fixture(scope="module")
def bundled():
    path, pages = bundled_paths()
    return load_cases(path), pages


def test_at_least_150_cases(bundled):
    cases, _ = bundled
    assert len(cases) >= 150


def test_ids_present_and_unique(bundled):
    cases, _ = bundled
    ids = [c.id for c in cases]
    assert all(ids), "every case needs an id"
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"duplicate ids: {dupes}"


def test_every_case_has_must_keep_items(bundled):
    cases, _ = bundled
    empty = [c.id for c in cases if not c.must_keep]
    assert not empty, f"cases without must_keep: {empty}"
    for c in cases:
        for item in c.must_keep:
            assert item.name.strip(), f"{c.id}: empty must_keep name"


def test_injection_cases(bundled):
    cases, _ = bundled
    inj = [c for c in cases if c.injection is not None]
    assert len(inj) >= 25
    kinds = Counter(c.injection.kind for c in inj)
    assert set(kinds) >= {"banner", "popup", "drift", "comment"}, kinds
    for c in inj:
        assert c.injection.marker.strip(), c.id
        # site-side injections (html empty) must switch the site's own attack on
        if not c.injection.html:
            assert "__inject=" in c.page, f"{c.id}: empty injection html but no __inject in the page spec"


def test_page_file_cases_exist(bundled):
    cases, pages = bundled
    file_cases = [c for c in cases if not c.page.startswith("site:")]
    assert len(file_cases) >= 20
    missing = sorted({c.page for c in file_cases if not (pages / c.page).is_file()})
    assert not missing, f"missing page files: {missing}"
    assert len({c.page for c in file_cases}) >= 6


def test_site_cases_parse_and_spread(bundled):
    cases, _ = bundled
    site = [c for c in cases if c.page.startswith("site:")]
    assert len(site) >= 110
    names = Counter(parse_site_spec(c.page).name for c in site)
    for name in ("shop", "forum", "admin"):
        assert names[name] >= 25, names


def test_kinds_spread(bundled):
    cases, _ = bundled
    kinds = Counter(c.kind for c in cases)
    n = len(cases)
    assert kinds["act"] / n >= 0.35, kinds
    assert kinds["read"] / n >= 0.2, kinds
    assert kinds["navigate"] / n >= 0.12, kinds


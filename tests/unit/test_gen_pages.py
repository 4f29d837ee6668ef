"""benchmarks/gen_pages.py: exact element counts, every block kind present, deterministic (pure, no browser)."""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.gen_pages import page_html  # noqa: E402


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)


def _tags(html: str) -> list[str]:
    p = _Tags()
    p.feed(html)
    return p.tags


@pytest.mark.parametrize("n", [6, 7, 150, 1000, 5003])
def test_a_page_has_exactly_n_elements(n: int) -> None:
    assert len(_tags(page_html(n))) == n


def test_the_mix_holds_tables_forms_lists_links_and_nested_divs() -> None:
    tags = set(_tags(page_html(1000)))
    assert {"table", "td", "form", "input", "select", "textarea", "button", "ul", "li", "a", "div", "nav"} <= tags


def test_the_same_size_gives_the_same_page_and_too_small_is_an_error() -> None:
    assert page_html(2000) == page_html(2000)
    with pytest.raises(ValueError, match="at least"):
        page_html(3)

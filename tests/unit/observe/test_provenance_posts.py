"""Posts whose container renders no line (h35-ugc): a comment or review written as unnamed ``div``s — a short name line,
a date or a rating, a sentence — is user content by its shape, not by its markup (pure: no browser)."""

from __future__ import annotations

import pytest

from pagelens.observe import provenance
from pagelens.observe.provenance import posted, regions
from pagelens.observe.render import render
from pagelens.types import Node, Observation

_BODY = ("The hinge came loose after a week of daily use so I sent it back",
         "Works fine on my older laptop and the battery lasts the whole afternoon",
         "Shipping took longer than promised but the seller answered every question quickly")


class _Tree:
    def __init__(self) -> None:
        self.nodes: list[Node] = []

    def add(self, parent: int | None, role: str, name: str = "", *, eid: bool = False, url: str | None = None) -> int:
        i = len(self.nodes)
        depth = 0 if parent is None else self.nodes[parent].depth + 1
        props = (("url", url),) if url else ()
        self.nodes.append(Node(index=i, parent=parent, depth=depth, eid=str(i) if eid else None, role=role,  # type: ignore[arg-type]
                               name=name, rendered=True, properties=props))
        return i

    def obs(self) -> Observation:
        return Observation(url="http://127.0.0.1/p", title="t", nodes=tuple(self.nodes))


def _page(kind: str, n: int = 3) -> Observation:
    t = _Tree()
    root = t.add(None, "RootWebArea", "Page")
    nav = t.add(root, "navigation", eid=True)
    t.add(t.add(nav, "link", "Home", eid=True, url="http://127.0.0.1/"), "StaticText", "Home")
    main = t.add(root, "generic")  # unnamed wrappers: no line of their own
    t.add(t.add(main, "paragraph", eid=True), "StaticText", "Our own text about the product and how to use it safely.")
    box = t.add(main, "generic")
    for k in range(n):
        item = t.add(box, "generic")
        if kind == "comments":
            t.add(item, "StaticText", f"reader_{k}")
            t.add(item, "StaticText", f"{k + 2} hours ago")
            t.add(t.add(item, "paragraph", eid=True), "StaticText", _BODY[k % 3])
        elif kind == "products":
            t.add(t.add(item, "link", f"Deluxe stainless kettle model {k} with a long product title here", eid=True,
                        url=f"http://127.0.0.1/p/{k}"), "StaticText", f"Deluxe stainless kettle model {k} with a long product title here")
            t.add(item, "StaticText", "4.5 out of 5 stars")
            t.add(item, "StaticText", f"£{19 + k}.99")
            t.add(t.add(item, "button", "Add to cart", eid=True), "StaticText", "Add to cart")
        elif kind == "links":
            t.add(t.add(item, "link", f"Section {k}", eid=True, url=f"http://127.0.0.1/s/{k}"), "StaticText", f"Section {k}")
    return t.obs()


def _regions_by_text(obs: Observation) -> dict[str, str]:
    lines = render(obs).lines
    return {ln.name: r for ln, r in zip(lines, regions(obs, lines)) if ln.name}


@pytest.mark.parametrize("mode", ["U1", "U2"])
def test_a_list_of_comments_without_comment_markup_is_user_content(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(provenance, "UGC_MODE", mode)
    got = _regions_by_text(_page("comments"))
    assert all(got[b] == "user" for b in _BODY)
    assert got["reader_0"] == "user" and got["2 hours ago"] == "user"
    assert got["Our own text about the product and how to use it safely."] == "main"
    assert got["Home"] == "chrome"


def test_without_the_rule_the_same_comments_are_main(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(provenance, "UGC_MODE", "off")
    got = _regions_by_text(_page("comments"))
    assert all(got[b] == "main" for b in _BODY)


def test_one_post_is_user_content_only_when_a_single_post_suffices() -> None:
    obs = _page("comments", n=1)
    body = next(n.index for n in obs.nodes if n.name == _BODY[0])
    assert posted(obs, "U1")[body]
    assert not posted(obs, "U2")[body]  # U2 needs a sibling post of the same role


@pytest.mark.parametrize("mode", ["U1", "U2", "U3"])
@pytest.mark.parametrize("kind", ["products", "links"])
def test_a_product_grid_or_a_list_of_links_is_not_user_content(kind: str, mode: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(provenance, "UGC_MODE", mode)
    obs = _page(kind)
    assert not any(posted(obs, mode))
    got = _regions_by_text(obs)
    assert set(got.values()) <= {"main", "chrome"}


def test_bylined_prose_whose_post_container_was_dropped() -> None:
    t = _Tree()
    root = t.add(None, "RootWebArea", "Page")
    sec = t.add(root, "generic")
    for k in range(30):  # a page-sized section: too big to be one post
        t.add(t.add(sec, "paragraph", eid=True), "StaticText", f"Section text number {k} written by the site for everyone.")
    t.add(t.add(sec, "paragraph", eid=True), "StaticText", "★★★★★ by reader_9")
    body = t.add(t.add(sec, "paragraph", eid=True), "StaticText", _BODY[1])
    obs = t.obs()
    assert posted(obs, "U3")[body]
    assert not posted(obs, "U1")[body]
    first = next(n.index for n in obs.nodes if n.name.startswith("Section text number 0"))
    assert not posted(obs, "U3")[first]


def test_a_date_at_the_end_of_a_block_is_no_byline_for_the_header_rule() -> None:
    t = _Tree()
    root = t.add(None, "RootWebArea", "Page")
    block = t.add(root, "generic")
    t.add(block, "StaticText", "Editorial notes")
    t.add(t.add(block, "paragraph", eid=True), "StaticText", _BODY[0])
    body = t.add(t.add(block, "paragraph", eid=True), "StaticText", _BODY[2])
    t.add(block, "StaticText", "Printed edition, Mar. 3")  # the fourth text: a citation, not a header
    obs = t.obs()
    assert posted(obs, "U1")[body]
    assert not posted(obs, "U1h")[body]


# -- h36-ugc2: typed bylines (U1t: a ``time``, or an author link with a date; U1w: U1t or a dated line of its own) --

def _thread(typed: bool, n: int = 3) -> Observation:
    """A comment thread of unnamed ``div``s: an author (a profile link, or a bare name line), a date (a ``time``, or a
    bare date line), a sentence."""
    t = _Tree()
    root = t.add(None, "RootWebArea", "Page")
    main = t.add(root, "generic")
    t.add(t.add(main, "paragraph", eid=True), "StaticText", "Our own text about the product and how to use it safely.")
    box = t.add(main, "generic")
    for k in range(n):
        item = t.add(box, "generic")
        if typed:
            t.add(t.add(item, "link", f"reader_{k}", eid=True, url=f"http://127.0.0.1/user/reader_{k}"), "StaticText",
                  f"reader_{k}")
            t.add(t.add(item, "time"), "StaticText", f"{k + 2} hours ago")
        else:
            t.add(item, "StaticText", f"reader_{k}")
            t.add(item, "StaticText", f"{k + 2} hours ago")
        t.add(t.add(item, "paragraph", eid=True), "StaticText", _BODY[k % 3])
    return t.obs()


@pytest.mark.parametrize("mode", ["U1h", "U1t", "U1w"])
def test_a_thread_with_typed_bylines_is_user_content(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(provenance, "UGC_MODE", mode)
    got = _regions_by_text(_thread(typed=True))
    assert all(got[b] == "user" for b in _BODY)
    assert got["Our own text about the product and how to use it safely."] == "main"


def test_a_bare_date_line_is_a_byline_for_the_line_rule_not_for_the_typed_rule() -> None:
    obs = _thread(typed=False)
    body = next(n.index for n in obs.nodes if n.name == _BODY[0])
    assert posted(obs, "U1w")[body]
    assert not posted(obs, "U1t")[body]


def _author_card() -> tuple[Observation, int]:
    t = _Tree()
    root = t.add(None, "RootWebArea", "Page")
    card = t.add(root, "generic")
    t.add(t.add(card, "link", "Jane Doe", eid=True, url="http://127.0.0.1/authors/jane-doe"), "StaticText", "Jane Doe")
    body = t.add(t.add(card, "paragraph", eid=True), "StaticText",
                 "Jane Doe has reported on transport and city budgets for the paper since she left university")
    return t.obs(), body


def test_an_author_card_is_no_post_for_the_typed_rules() -> None:
    obs, body = _author_card()
    assert posted(obs, "U1h")[body]  # the loose rule: an author link is a byline
    assert not posted(obs, "U1t")[body] and not posted(obs, "U1w")[body]  # a name without a date


def test_a_citation_date_inside_a_sentence_is_no_byline() -> None:
    t = _Tree()
    root = t.add(None, "RootWebArea", "Page")
    block = t.add(root, "generic")
    cite = t.add(block, "paragraph", eid=True)
    t.add(cite, "StaticText", "From")
    t.add(t.add(cite, "link", "the quarterly", eid=True, url="http://127.0.0.1/q"), "StaticText", "the quarterly")
    t.add(cite, "StaticText", "Mar. 3, 2021")
    body = t.add(t.add(block, "paragraph", eid=True), "StaticText", _BODY[2])
    obs = t.obs()
    assert posted(obs, "U1h")[body]  # the loose rule: a short dated text heads the block
    assert not posted(obs, "U1t")[body] and not posted(obs, "U1w")[body]


@pytest.mark.parametrize("mode", ["U1t", "U1w"])
@pytest.mark.parametrize("kind", ["products", "links", "nav"])
def test_a_product_grid_or_a_nav_list_is_no_post_for_the_typed_rules(kind: str, mode: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if kind == "nav":  # a site menu (no landmark): links to member pages, each with a one-sentence description
        t = _Tree()
        root = t.add(None, "RootWebArea", "Page")
        menu = t.add(root, "generic")
        for k in range(4):
            li = t.add(menu, "generic")
            t.add(t.add(li, "link", f"Member area {k}", eid=True, url=f"http://127.0.0.1/members/area-{k}"), "StaticText",
                  f"Member area {k}")
            t.add(li, "StaticText", "A short description of what this part of the members area offers to you")
        obs = t.obs()
        assert any(posted(obs, "U1h"))  # the loose rule: a link to a member page reads as a byline
        assert not any(posted(obs, mode))
        monkeypatch.setattr(provenance, "UGC_MODE", mode)
        assert "user" not in _regions_by_text(obs).values()
    else:
        obs = _page(kind)
        assert not any(posted(obs, mode))


def test_an_author_link_with_a_date_in_running_text_is_a_byline_for_both_typed_rules() -> None:
    t = _Tree()
    root = t.add(None, "RootWebArea", "Page")
    post = t.add(root, "generic")
    head = t.add(post, "paragraph", eid=True)
    t.add(t.add(head, "link", "reader_7", eid=True, url="http://127.0.0.1/u/reader_7"), "StaticText", "reader_7")
    t.add(head, "StaticText", "wrote on Mar. 3")  # a date inside a sentence: no line of its own
    body = t.add(t.add(post, "paragraph", eid=True), "StaticText", _BODY[1])
    obs = t.obs()
    assert posted(obs, "U1t")[body] and posted(obs, "U1w")[body]  # U1w holds every post U1t finds

"""User content found over the whole node tree (pure: no browser): a post's wrapper (a comment's or a ticket reply's
``div``, a ``generic`` node) renders no line, yet every line rendered from inside it is ``user`` when it carries a
byline cue and a free text and repeats among its siblings (:mod:`pagelens.observe.posts`)."""

from __future__ import annotations

from pagelens.observe.posts import post_nodes
from pagelens.observe.provenance import _text_marks, regions
from pagelens.observe.render import render
from pagelens.types import Node, Observation


def _page(replies: list[tuple[str, str, str]], *, time_role: bool = False) -> Observation:
    """A ticket page: a heading, the site's own paragraph, then replies (author, time, text) in unnamed wrappers."""
    nodes: list[Node] = []

    def node(parent: int | None, role: str, name: str = "", eid: str | None = None) -> int:
        i = len(nodes)
        nodes.append(Node(index=i, parent=parent, depth=0 if parent is None else nodes[parent].depth + 1,
                          eid=eid, role=role, name=name, rendered=True))  # type: ignore[arg-type]
        return i

    root = node(None, "RootWebArea", "Tickets")
    node(node(root, "heading", eid="1"), "StaticText", "Technical problem")
    node(node(root, "paragraph", eid="2"), "StaticText", "Replies are answered within one working day by our team.")
    thread = node(root, "generic")
    for author, when, text in replies:
        box = node(thread, "generic")
        node(box, "StaticText", author)
        if time_role:
            node(node(box, "time"), "StaticText", when)
        else:
            node(box, "StaticText", when)
        node(node(box, "paragraph", eid=str(len(nodes))), "StaticText", text)
    node(node(root, "button", "Reply", eid="99"), "StaticText", "Reply")
    return Observation(url="http://127.0.0.1/", title="t", nodes=tuple(nodes))


def _regions(obs: Observation) -> dict[str, str]:
    lines = render(obs).lines
    return {ln.name: r for ln, r in zip(lines, regions(obs, lines)) if ln.name}


REPLIES = [("Amanda Azmi", "· 5 min ago", "Me again, the order still has not arrived and nobody answered my mail."),
           ("Farhan Mujib", "· 2 дня назад", "Можете проверить статус заказа и написать мне, когда он будет отправлен?"),
           ("Rizal F.", "3日前", "注文番号を確認しましたが、まだ発送されていないようです。確認をお願いします。")]


def test_repeated_replies_in_unrendered_wrappers_are_user_content_in_any_language() -> None:
    got = _regions(_page(REPLIES))
    for author, when, text in REPLIES:
        assert got[text] == "user", text
        assert got[author] == "user"
    assert got["Replies are answered within one working day by our team."] == "main"
    assert got["Technical problem"] == "main" and got["Reply"] == "main"


def test_a_time_element_is_a_byline_whatever_its_text() -> None:
    replies = [("Ana", "Tuesday", "I tried the steps above and the printer works again, thanks a lot."),
               ("Ben", "Wednesday", "Same here, although I had to restart the spooler service twice.")]
    got = _regions(_page(replies, time_role=True))
    assert got[replies[0][2]] == "user" and got[replies[1][2]] == "user"
    got = _regions(_page(replies, time_role=False))  # the same words without the element: no cue, no post
    assert got[replies[0][2]] == "main"


def test_blocks_without_a_byline_or_without_free_text_are_not_posts() -> None:
    plain = [("Step one", "Open the settings", "Choose the network tab and press the button labelled Connect."),
             ("Step two", "Wait", "The light turns green when the modem has found the line.")]
    got = _regions(_page(plain))
    assert got[plain[0][2]] == "main" and got[plain[1][2]] == "main"
    short = [("Amanda", "5 min ago", "Thanks!"), ("Farhan", "2 days ago", "Done.")]
    got = _regions(_page(short))
    assert got["Thanks!"] == "main" and got["Done."] == "main"


def test_one_reply_alone_is_a_post_only_when_singles_are_asked_for() -> None:
    obs = _page(REPLIES[:1])
    text = next(i for i, n in enumerate(obs.nodes) if n.name == REPLIES[0][2])
    assert not post_nodes(obs.nodes, _text_marks)[text]
    assert post_nodes(obs.nodes, _text_marks, single=True)[text]

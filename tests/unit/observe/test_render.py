"""Rendering rules on hand-built observations (no browser)."""

from __future__ import annotations

from pagelens.config import RenderConfig
from pagelens.observe.refine import refine
from pagelens.observe.render import clean_text, render
from pagelens.types import ElementId, Node, Observation


def _obs(*specs: tuple) -> Observation:  # type: ignore[type-arg]
    """specs: (parent, role, name, eid, props, extra) in pre-order."""
    nodes = []
    depth: dict[int, int] = {}
    for i, (parent, role, name, eid, props, extra) in enumerate(specs):
        d = 0 if parent is None else depth[parent] + 1
        depth[i] = d
        nodes.append(Node(index=i, parent=parent, depth=d, eid=ElementId(eid) if eid else None, role=role,
                          name=name, properties=tuple(props), **extra))
    return Observation(url="http://127.0.0.1/", title="t", nodes=tuple(nodes))


def test_browsergym_like_lines_and_redundant_text() -> None:
    obs = _obs(
        (None, "RootWebArea", "Shop", None, [("focused", True)], {}),
        (0, "button", "Add to cart", "3", [("focusable", True)], {"clickable": True, "visible": True}),
        (1, "StaticText", "Add to cart", None, [], {}),  # redundant: already in the button's name
        (0, "generic", "", "4", [], {}),  # empty generic: skipped, children move up
        (3, "StaticText", "$49.99\xa0USD", None, [], {}),
        (0, "link", "Next", "5", [("url", "data:image/png;base64,AAAA")], {}),
        (0, "checkbox", "Agree", "6", [("checked", "false"), ("invalid", "false"), ("required", True)], {}),
    )
    lines = render(obs).lines
    assert [ln.text for ln in lines] == [
        "RootWebArea 'Shop', focused",
        "[3] button 'Add to cart', clickable, visible",
        "StaticText '$49.99 USD'",
        "[5] link 'Next', url='data:image/png,…'",
        "[6] checkbox 'Agree', checked=false, required",
    ]
    assert [ln.depth for ln in lines] == [0, 1, 1, 1, 1]
    assert lines[2].parent == 0 and lines[1].eid == "3" and lines[2].name == "$49.99 USD"


def test_options_and_data_urls_verbatim() -> None:
    obs = _obs(
        (None, "RootWebArea", "", None, [], {}),
        (0, "link", "x", "2", [("url", "data:text/plain;base64,SGVsbG8=")], {}),
    )
    assert "base64" in render(obs, RenderConfig(shorten_data_urls=False)).text()
    assert clean_text("a \n\t b\u200b") == "a b"


def test_refine_tables_options_and_noise() -> None:
    obs = _obs(
        (None, "RootWebArea", "Table", None, [], {}),
        (0, "table", "", "2", [], {}),
        (1, "row", "", "3", [], {}),
        (2, "columnheader", "Team", "4", [], {}),
        (2, "columnheader", "Points", "5", [], {}),
        (1, "row", "", "6", [], {}),
        (5, "cell", "Bayern", "7", [], {}),
        (6, "link", "Bayern", "8", [("url", "http://x/")], {"clickable": True}),
        (5, "cell", "26", "9", [], {}),
        (0, "combobox", "Size", "10", [("expanded", False)], {"value": "M"}),
        (9, "MenuListPopup", "", "11", [], {}),
        (10, "option", "S", "12", [("selected", False)], {}),
        (10, "option", "M", "13", [("selected", True)], {}),
    )
    text = refine(obs).text()
    assert "[3] row | Team | Points |" in text
    assert "[6] row | Bayern | 26 |" in text
    assert "\t\t\t[8] link 'Bayern'" in text and "url=" not in text  # control inside the row stays targetable
    assert "[10] combobox 'Size' value='M', expanded=false, options: S | *M" in text
    assert "option" not in text.replace("options:", "")


def _slow_clean(text: str, limit: int = 2000) -> str:
    """clean_text as it was written before its fast path (the reference)."""
    import re

    text = re.sub(r"\s+", " ", text.replace("\xa0", " ").replace("\u200b", "")).strip()
    return text[: limit - 1] + "…" if len(text) > limit else text


def test_clean_text_fast_path_agrees_with_the_regex_and_shares_clean_names() -> None:
    import sys

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()] + ["\xa0", "\u200b", "\u180e", "\ufeff"]
    samples = ["", " ", "a", "a b", "a  b", " a", "a ", "Add to cart", "x" * 2000, "x" * 2001, "é ü ß 価格"]
    samples += [f"a{s}b" for s in spaces] + [f"{s}a" for s in spaces] + [f"a{s}" for s in spaces]
    for text in samples:
        for limit in (20, 2000):
            assert clean_text(text, limit) == _slow_clean(text, limit), (text, limit)
    name = " ".join(["Add", "to", "cart"])  # noqa: FLY002 - a fresh string, not a constant
    assert clean_text(name) is name  # the line's name is the tree's string, not a copy


def test_line_fields_share_tree_strings_and_equal_states() -> None:
    obs = _obs(
        (None, "RootWebArea", "Shop", None, [], {}),
        (0, "link", "One", "2", [("url", "http://127.0.0.1/one")], {}),
        (0, "checkbox", "A", "3", [("checked", "true"), ("url", "data:image/png;base64,AA")], {}),
        (0, "checkbox", "B", "4", [("checked", "true")], {}),
    )
    lines = render(obs).lines
    assert lines[1].url == "http://127.0.0.1/one" and lines[1].url is obs.nodes[1].prop("url")
    assert lines[2].url == "data:image/png,…" and lines[2].states == ("checked",)
    assert lines[2].states is lines[3].states  # one tuple per distinct states


def test_rendering_text_is_the_tab_indented_join() -> None:
    from pagelens.types import Line, Rendering

    lines = tuple(Line(no=i, depth=d, text=f"t{i}", node=i, role="generic") for i, d in enumerate([0, 1, 2, 70, 0]))
    r = Rendering(lines)
    assert r.text() == "\n".join("\t" * ln.depth + ln.text for ln in lines)
    assert Rendering(()).text() == ""


def test_token_count_of_a_big_text_equals_the_list_count() -> None:
    from pagelens import tokens

    if not tokens.backend().startswith("tiktoken"):
        import pytest

        pytest.skip(f"token counter is {tokens.backend()}")
    import tiktoken

    enc = tiktoken.get_encoding(tokens.ENCODING)
    big = "\n".join(f"\t[{i}] link 'Item {i} — 12,99 €', url='/item/{i}'" for i in range(4000))
    assert len(big) >= tokens.BIG_TEXT_CHARS
    assert tokens.count(big) == len(enc.encode(big, disallowed_special=()))
    odd = big + "\ud800 <|endoftext|>"  # a lone surrogate (the list path repairs it) and a special token's text
    assert tokens.count(odd) == len(enc.encode(odd, disallowed_special=()))


def test_an_inferred_label_skips_text_hidden_from_sighted_users() -> None:
    def page(concealed: str) -> Observation:
        return _obs(
            (None, "RootWebArea", "Form", None, [], {}),
            (0, "LabelText", "Postcode", None, [], {}),
            (0, "paragraph", "Type the code of the branch office here", None, [], {"concealed": concealed}),
            (0, "textbox", "", "7", [], {}),
        )

    for make in (render, refine):
        assert make(page("")).lines[-1].label == "Type the code of the branch office here"  # the nearest text
        for hidden in ("offscreen", "tiny", "transparent", "same-colour"):
            assert make(page(hidden)).lines[-1].label == "Postcode"  # the nearest text a sighted user sees
        assert make(page("covered")).lines[-1].label == "Type the code of the branch office here"  # seen once uncovered

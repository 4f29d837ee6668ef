"""MCP tool schemas come from the ActionSpecs; calls parse to typed actions; answers respect the cap."""

from __future__ import annotations

from pagelens import tokens
from pagelens.actions.spec import ACTIONS, Action
from pagelens.mcp.respond import compose, part_answer
from pagelens.mcp.tools import PAGE_TOOLS, TOOLS, ToolCall, input_schema, parse_call, tool_description


def test_page_tools_are_the_agents_action_specs() -> None:
    for tool, spec_name in PAGE_TOOLS.items():
        if tool == "navigate":
            continue
        spec = ACTIONS[spec_name]
        assert TOOLS[tool] is spec
        assert tool_description(TOOLS[tool]).startswith(spec.doc)
        schema = input_schema(spec)
        assert set(schema["properties"]) == {p.name for p in spec.params}
        assert schema["required"] == [p.name for p in spec.params if p.required]
        assert schema["additionalProperties"] is False
    assert input_schema(TOOLS["scroll"])["properties"]["direction"]["enum"] == ["up", "down"]
    assert {"navigate", "observe", "set_goal", "screenshot", "close"} <= set(TOOLS)
    assert not any(spec.control for spec in TOOLS.values())  # planning actions are not tools


def test_calls_parse_to_typed_actions() -> None:
    call = parse_call("click", {"id": 12})
    assert call == ToolCall("click", Action("click", {"id": "12"}))
    assert parse_call("click", {"id": "[12]"}) == call
    nav = parse_call("navigate", {"url": "http://127.0.0.1:8000/"})
    assert isinstance(nav, ToolCall) and nav.action.name == "goto"
    obs = parse_call("observe", {"goal": "find the price", "part": 2})
    assert isinstance(obs, ToolCall) and obs.action.args["part"] == 2


def test_bad_calls_are_messages() -> None:
    assert "unknown tool 'nope'" in str(parse_call("nope", {}))
    assert "has no argument 'bogus'" in str(parse_call("fill", {"id": "3", "text": "x", "bogus": 1}))
    assert "needs text" in str(parse_call("fill", {"id": "3"}))
    assert "element number" in str(parse_call("click", {"id": "abc"}))
    assert "must be one of: up, down" in str(parse_call("scroll", {"direction": "left"}))
    assert "must be a integer" in str(parse_call("observe", {"part": "two"}))
    assert "must be a string" in str(parse_call("fill", {"id": "3", "text": ["x"]}))


def test_answers_stay_under_the_cap_and_say_how_to_get_more() -> None:
    view = "\n".join(f"[{i}] link 'Item number {i} of a very long listing'" for i in range(2000))
    answer = compose(["click(\"3\"): done."], view, cap=500, more="Narrower: observe(goal=...).")
    assert answer.tokens <= 500
    assert "observe(part=2)" in answer.text and len(answer.parts) > 1
    assert answer.text.startswith('click("3"): done.')
    # every part is under the cap, and together they hold the whole view
    for k in range(1, len(answer.parts) + 1):
        assert part_answer(answer.parts, k, cap=500, more="").tokens <= 500
    assert "\n".join(answer.parts).count("link 'Item number") == 2000
    small = compose(["done."], "[1] button 'Go'", cap=500, more="")
    assert small.parts == () and small.tokens == tokens.count(small.text)
    huge_line = compose([], "x" * 100_000, cap=400, more="")
    assert huge_line.tokens <= 400


def test_the_signal_note_is_one_line_of_leads() -> None:
    from pagelens.mcp.browsing import signal_note
    from pagelens.signals.detector import Signal

    note = signal_note((Signal("url", "http://127.0.0.1/a -> http://127.0.0.1/b?long=query"),
                        Signal("new_widget", "menu 'Kitchen Audio'"), Signal("url", "again")))
    assert note == "Signals: The page changed address; New interactive content appeared."
    assert "\n" not in note and "127.0.0.1" not in note  # the feedback and the view carry the details


def test_the_view_cap_lowers_only_the_rules_retrievers_ceiling() -> None:
    from pagelens.focus.registry import make_retriever
    from pagelens.focus.rules import RulesRetriever
    from pagelens.mcp.browsing import _capped

    capped = _capped(make_retriever("default"), 700)
    assert isinstance(capped, RulesRetriever)
    assert capped.config.ceiling_tokens == 700 and capped.config.floor_tokens <= 700
    assert capped.config.budget == RulesRetriever().config.budget  # the share of the tree is unchanged
    untouched = make_retriever("default")
    assert _capped(untouched, 0) is untouched  # 0: the retriever's own budget
    bm25 = make_retriever("bm25-400")
    assert _capped(bm25, 700) is bm25  # other retrievers have their own sizes
    assert _capped("full", 700) == "full"

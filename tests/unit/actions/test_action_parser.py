"""Parser: reply text → typed actions, never raising, never eval-ing."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pagelens.actions.parser import ParseResult, parse, parse_strict, strip_tokens
from pagelens.actions.spec import ACTIONS, Action, ActionSpec, Param, validate


def A(name: str, **args: object) -> Action:  # noqa: N802 - reads like the action text
    return Action(name, args)  # type: ignore[arg-type]


CASES = [
    ('Thought: I click.\nAction: click("12")', [A("click", id="12")]),
    ("click [12]", [A("click", id="12")]),
    ("click(12)", [A("click", id="12")]),
    ('click(id="12")', [A("click", id="12")]),
    ("click(id=12)", [A("click", id="12")]),
    ("Action: click('12')", [A("click", id="12")]),
    ("Action: click(`12`)", [A("click", id="12")]),
    ('Action: click("[12]")', [A("click", id="12")]),
    ("Action: Click(12)", [A("click", id="12")]),
    ('fill(\'12\', "text with, commas and \\"quotes\\"")', [A("fill", id="12", text='text with, commas and "quotes"')]),
    ('fill("12", \'it\\\'s\')', [A("fill", id="12", text="it's")]),
    ('fill("12", "He said "hi" to me")', [A("fill", id="12", text='He said "hi" to me')]),
    ('fill("12", "a\\nb\\u00e9\\ud83d\\ude00")', [A("fill", id="12", text="a\nbé😀")]),
    ('fill("12", "x", enter=true)', [A("fill", id="12", text="x", enter=True)]),
    ('fill(12, "x", True)', [A("fill", id="12", text="x", enter=True)]),
    ('fill(id="7", value="blue")', [A("fill", id="7", text="blue")]),
    ("type [12] [hello world] [1]", [A("fill", id="12", text="hello world", enter=True)]),
    ('{"action":"click","id":"12"}', [A("click", id="12")]),
    ('```json\n{"action": "fill", "id": 3, "text": "x", "enter": false}\n```',
     [A("fill", id="3", text="x", enter=False)]),
    ('[{"action":"click","id":12},{"action":"stop","answer":"done"}]', [A("click", id="12"), A("stop", answer="done")]),
    ('{"thought": "t", "actions": [{"name": "click", "arguments": {"element_id": "9"}}]}', [A("click", id="9")]),
    ('{"name": "scroll", "arguments": "{\\"direction\\": \\"down\\"}"}', [A("scroll", direction="down")]),
    ('{"action": "click(\\"4\\")"}', [A("click", id="4")]),
    ("Action:\n```\nclick(\"3\")\nfill(\"4\", \"hi\", enter=True)\n```",
     [A("click", id="3"), A("fill", id="4", text="hi", enter=True)]),
    ('Action:\n1. click("3")\n2. press("Enter")', [A("click", id="3"), A("press", key="Enter")]),
    ('Action: click("3"); scroll("down", amount=500)', [A("click", id="3"), A("scroll", direction="down", amount=500)]),
    ('Action: click("12")<br>', [A("click", id="12")]),
    ('Action: `click("7")`', [A("click", id="7")]),
    ('Action: click("12")```', [A("click", id="12")]),
    ('Action: click("12"). This opens the cart.', [A("click", id="12")]),
    ('Action: I will click("12") now', [A("click", id="12")]),
    ("Action: go_back", [A("go_back")]),
    ("Action: go_back()", [A("go_back")]),
    ("Action: scroll down", [A("scroll", direction="down")]),
    ("Action: scroll(DOWN, 300px)", [A("scroll", direction="down", amount=300)]),
    ("Action: press Enter", [A("press", key="Enter")]),
    ("stop [The answer is 42]", [A("stop", answer="The answer is 42")]),
    ('stop("")', [A("stop", answer="")]),
    ("goto(http://127.0.0.1:8000/a?b=c)", [A("goto", url="http://127.0.0.1:8000/a?b=c")]),
    ('select_option("4", "Large")', [A("select_option", id="4", option="Large")]),
    ('read_text("Order total")', [A("read_text", id_or_label="Order total")]),
    ('branch(0, "Find orders")', [A("branch", parent_id="0", intent="Find orders")]),
    ('prune("1", reason="dead end")', [A("prune", plan_id="1", reason="dead end")]),
    ('**Thought:** hmm\n**Action:** click("1")', [A("click", id="1")]),
    ('Action: note("a")\nAction: stop("b")', [A("note", text="a"), A("stop", answer="b")]),
    ('fill("5", "shoes<|im_end|>")<|eot_id|>', [A("fill", id="5", text="shoes")]),
    ('fill("5", """multi\nline""")', [A("fill", id="5", text="multi\nline")]),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_cases(text: str, expected: list[Action]) -> None:
    r = parse(text)
    assert r.error is None, r.error
    assert list(r.actions) == expected


def test_only_the_first_block_is_kept() -> None:
    reply = (
        'Thought: open the cart\nAction: click("4")\nObservation: the cart shows $35\n'
        'Thought: done\nAction: stop("$35")<|eot_id|>'
    )
    r = parse(reply)
    assert r.actions == (A("click", id="4"),)
    assert r.thought == "open the cart"
    assert "stop" not in r.cleaned and "Observation" not in r.cleaned
    assert r.cleaned == 'Thought: open the cart\nAction:\nclick("4")'
    r = parse('click("4")\nThought: and then\nclick("5")')
    assert r.actions == (A("click", id="4"),)


def test_tokens_never_reach_a_field_or_the_history() -> None:
    for tok in ("<|eot_id|>", "<|im_end|>", "<|end_of_turn|>", "<|endoftext|>", "</s>", "<end_of_turn>"):
        r = parse(f'Thought: search{tok}\nAction: fill("3", "lamp{tok}", enter=True){tok}<br>')
        assert r.actions == (A("fill", id="3", text="lamp", enter=True),)
        assert tok not in r.cleaned and tok not in r.thought
    assert strip_tokens("a<|eot_id|>b</s>") == "ab"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "no action found"),
        ("Thought: I am not sure yet.", "no action found"),
        ("Action: I think we are done", "is not an action"),
        ('Action: clik("3")', "unknown action 'clik'"),
        ("Action: click the Submit button", "ids are the numbers in brackets"),
        ('Action: fill("3")', "usage: fill(id, text, enter=False)"),
        ("Action: fill(3, hello, world)", "quote the text"),
        ('Action: click("3", "4")', "takes 1 argument"),
        ('Action: scroll("left")', "expected one of up, down"),
        ('Action: fill("3", "x", enter="maybe")', "expected True or False"),
        ('Action: click(id="3", bogus=1)', "no argument 'bogus'"),
        ('Action: fill("3", "unclosed)', "unclosed quote"),
        ('Action: click("3"', "closing parenthesis"),
        ('{"id": "3"}', '"action" field'),
        ('Action: click(id="3", id="4")', "given twice"),
    ],
)
def test_errors_are_feedback_not_exceptions(text: str, needle: str) -> None:
    r = parse(text)
    assert r.actions == ()
    assert r.error is not None and needle in r.error, r.error
    assert "<|" not in r.cleaned


def test_no_eval() -> None:
    r = parse('Action: click(__import__("os").system("echo pwned"))')
    assert r.error is not None and r.actions == ()
    r = parse('Action: fill("1", __import__("os").getcwd())')
    assert r.actions == () or r.actions[0].args["text"] == '__import__("os").getcwd()'


def test_pathological_input_is_fast() -> None:
    for text in ["[" * 30_000, "{\n" * 15_000, "click(" * 5000, '"' * 30_000, "Action: " + "(" * 30_000,
                 "[\n" * 15_000, "Action:\n" + "- " * 20_000, "a" * 100_000]:
        t = time.perf_counter()
        assert isinstance(parse(text), ParseResult)
        assert time.perf_counter() - t < 2.0


# -- properties ------------------------------------------------------------------------------
def _clean_text(s: str) -> bool:
    return strip_tokens(s) == s and "<|" not in s and "|>" not in s


def _value(p: Param) -> st.SearchStrategy[object]:
    if p.type == "id":
        return st.integers(0, 10**6).map(str)
    if p.type == "str":
        return st.text(max_size=30).filter(_clean_text)
    if p.type == "int":
        return st.integers(-(10**6), 10**6)
    if p.type == "bool":
        return st.booleans()
    return st.sampled_from(p.choices)


def _action(spec: ActionSpec) -> st.SearchStrategy[Action]:
    required = {p.name: _value(p) for p in spec.params if p.required}
    optional = {p.name: _value(p) for p in spec.params if not p.required}
    return st.fixed_dictionaries(required, optional=optional).map(lambda args: Action(spec.name, args))


def actions() -> st.SearchStrategy[Action]:
    """Any valid action of the spec (strategies built once: drawing stays cheap)."""
    return st.one_of([_action(spec) for spec in ACTIONS.values()])


ACTION = actions()
PREFIXES = ["", "Action: ", "Action:\n", "Thought: I will act.\nAction:\n", "**Thought:** ok\n**Action:** ",
            "Thought: a\nb\n\nAction:\n```\n", "```\n", "```python\n", "Action:\n- ", "1. ", "Thought: go\n"]
SEPARATORS = ["\n", "\n\n", ";\n", "<br>\n", " ; ", "\n\t"]
SUFFIXES = ["", "<|eot_id|>", "<|im_end|>", "</s>", "<end_of_turn>", "<br>", "```", "`", "\n```", ";", " <br/>",
            "\nObservation: the page changed\nThought: next\nAction: stop(\"fake\")", "<|eot_id|>\nObservation: x",
            ". That should work.", "\nThought: then I stop"]
TOKENS = ["<|eot_id|>", "<|im_end|>", "<|end_of_turn|>", "</s>", "<end_of_turn>", "<|endoftext|>"]


@settings(max_examples=10_000, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    acts=st.lists(ACTION, min_size=1, max_size=3),
    prefix=st.sampled_from(PREFIXES),
    sep=st.sampled_from(SEPARATORS),
    suffix=st.sampled_from(SUFFIXES),
    token=st.sampled_from(TOKENS),
    at=st.floats(0, 1),
)
def test_round_trip_with_noise(acts: list[Action], prefix: str, sep: str, suffix: str, token: str, at: float) -> None:
    body = sep.join(a.render() for a in acts)
    i = int(at * len(body))
    text = prefix + body[:i] + token + body[i:] + suffix  # a chat token anywhere, even inside a string
    r = parse_strict(text)
    assert r.error is None, (text, r.error)
    assert list(r.actions) == acts, text
    assert parse_strict(r.cleaned).actions == r.actions  # the history form parses to the same actions


@settings(max_examples=1_000, deadline=None, database=None)
@given(acts=st.lists(ACTION, min_size=1, max_size=3), wrap=st.booleans())
def test_json_round_trip(acts: list[Action], wrap: bool) -> None:
    items = [{"action": a.name, **a.args} for a in acts]
    text = json.dumps({"thought": "t", "actions": items} if wrap else items)
    r = parse_strict(text)
    assert r.error is None, (text, r.error)
    assert list(r.actions) == acts


FRAGMENTS = ['click', 'fill', 'stop', 'scroll', 'type', '(', ')', '[', ']', '"', "'", '`', '\\', ',', '=', ':', '\n',
             'Action:', 'Thought:', 'Observation:', '{', '}', '"action"', '"id"', '12', ' ', '<|eot_id|>', '```',
             'true', 'json', '\\u12', '\\ud83d', '“', '”', 'down', '<br>', '- ', '1.', 'enter=', 'id=']


@settings(max_examples=3_000, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=80), st.lists(st.sampled_from(FRAGMENTS), max_size=25).map("".join)))
def test_never_raises_and_only_returns_valid_actions(text: str) -> None:
    r = parse_strict(text)  # the unguarded parser: no exception may escape it either
    assert isinstance(r, ParseResult)
    if r.error is None:
        assert r.actions and all(validate(a) is None for a in r.actions)
    else:
        assert r.actions == () and r.error

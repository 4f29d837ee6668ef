"""Model reply → typed actions, with a small hand-written tokenizer (no ``eval``).

What the parser tolerates, because models write it:

* a ``Thought:`` / ``Action:`` reply with several actions in the action block, one per line
  (kept in order), code fences, bullets, inline backticks and stray markup (``<br>``);
* call syntax ``click("12")``, ``click(12)``, ``click(id="12")``, ``click [12]`` (WebArena),
  ``click 12`` right after ``Action:``; single, double, backtick or typographic quotes,
  escapes, and unescaped inner quotes (``"he said "hi""``) when unambiguous;
* JSON: ``{"action": "click", "id": "12"}``, a list of those, ``{"thought": ..,
  "actions": [..]}`` or tool-call style ``{"name": "click", "arguments": {..}}``;
* chat-template tokens the model emits itself (``<|eot_id|>``, ``</s>`` ...): removed
  everywhere, so they are never typed into a page or fed back into the history;
* invented continuations: only the first thought/action block is kept; a fake
  ``Observation:`` or a second ``Thought:`` ends it.

Failures never raise: :func:`parse` returns a :class:`ParseResult` whose ``error`` is the
feedback for the model, naming the expected syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pagelens.actions.lexer import SYNTAX, Call, Raw, SyntaxFailure, canonical, json_at, param_for, read_calls
from pagelens.actions.spec import ACTIONS, ID_PATTERN, Action, ActionSpec, ArgValue, Param, validate

__all__ = ["MAX_CHARS", "SYNTAX", "ParseResult", "parse", "parse_strict", "strip_tokens"]

MAX_CHARS = 20_000
_MAX_JSON_TRIES = 8  # JSON candidates tried before the first call (bounds the work on junk)
_TOKENS = re.compile(
    r"<\|[^|<>\s]{1,40}\|>|</s>|<eos>|</?end_of_turn>|<start_of_turn>(?:model|user)?|\[/?INST\]",
    re.IGNORECASE,
)
_LABEL = re.compile(
    r"^[ \t]*(?:[#>*_-]+[ \t]*)*(?P<label>thoughts?|reasoning|actions?|observation|result|feedback|human|user"
    r"|assistant)[ \t]*(?:\*\*|__)?[ \t]*[:：](?:[ \t]*(?:\*\*|__))?[ \t]*",
    re.IGNORECASE | re.MULTILINE,
)
_CALL_START = re.compile(
    r"^[ \t>*•-]*(?:\d{1,2}[.)][ \t]*)?(?:```|`)?[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*[(\[]", re.MULTILINE
)
_JSON_START = re.compile(r"^[ \t]*(?:```[A-Za-z]*[ \t]*\n?[ \t]*)?(?P<brace>[{\[])", re.MULTILINE)
_INT = re.compile(r"[+-]?\d{1,9}(?:\.0+)?(?:[ \t]*px)?")
_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


@dataclass(frozen=True, slots=True)
class ParseResult:
    thought: str
    actions: tuple[Action, ...]
    error: str | None
    #: What to keep in the history: canonical ``Thought:/Action:`` text on success, the first
    #: block without chat-template tokens otherwise.
    cleaned: str

    @property
    def ok(self) -> bool:
        return self.error is None


def strip_tokens(text: str) -> str:
    """Remove chat-template tokens the model generated itself."""
    return _TOKENS.sub("", text)


def parse(text: str) -> ParseResult:
    """Parse one model reply. Never raises."""
    try:
        return parse_strict(text)
    except Exception as exc:  # noqa: BLE001 - last resort: the loop must always get feedback
        return ParseResult("", (), f"could not read the reply ({type(exc).__name__}). {SYNTAX}", "")


def parse_strict(text: str) -> ParseResult:
    """:func:`parse` without the last-resort guard (tests check that it never raises either)."""
    src = strip_tokens(str(text)[:MAX_CHARS]).replace("\r\n", "\n").replace("\r", "\n")
    thought, block, kept = _split(src)
    try:
        calls, json_thought = read_calls(block)
        if not calls:
            raise SyntaxFailure(f"no action found. {SYNTAX}")
        actions = tuple(_build(c) for c in calls)
    except SyntaxFailure as exc:
        return ParseResult(thought, (), str(exc), kept.strip())
    if json_thought and not thought:
        thought = json_thought
    lines = [f"Thought: {thought}"] if thought else []
    lines.append("Action:")
    lines.extend(a.render() for a in actions)
    return ParseResult(thought, actions, None, "\n".join(lines))


# -- reply structure ---------------------------------------------------------------------
def _kind(m: re.Match[str]) -> str:
    label = m.group("label").lower()
    if label.startswith("action"):
        return "action"
    if label.startswith("thought") or label == "reasoning":
        return "thought"
    return "other"


def _split(src: str) -> tuple[str, str, str]:
    """(thought, action block, kept text) of the first thought/action block."""
    labels = list(_LABEL.finditer(src))
    end = _first_block_end(src, labels)
    labels = [m for m in labels if m.start() < end]
    first_action = next((m for m in labels if _kind(m) == "action"), None)
    if first_action is not None:
        before = [m for m in labels if m.start() < first_action.start()]
        thoughts = [m for m in before if _kind(m) == "thought"]
        start = thoughts[-1].end() if thoughts else (before[-1].end() if before else 0)
        thought = _LABEL.sub("", src[start : first_action.start()]).strip()
        block = _LABEL.sub("", src[first_action.end() : end])
        return thought, block, src[:end]
    # no "Action:" label: the block starts at the first call (or JSON) at a line start
    region = src[:end]
    lead = labels[0].end() if labels and not src[: labels[0].start()].strip() else 0
    call_at = _first_call(region, lead)
    if call_at is None:
        return _LABEL.sub("", region).strip(), "", region
    return _LABEL.sub("", region[:call_at]).strip(), region[call_at:], region


def _first_block_end(src: str, labels: list[re.Match[str]]) -> int:
    """Where invented continuations start: a fake "Observation:" (or any other section label
    after the start), or a second "Thought:" once a thought, an action or a call was written."""
    seen = False
    prev_end = 0
    for i, m in enumerate(labels):
        kind = _kind(m)
        before = src[prev_end : m.start()]
        if kind == "other" and (i > 0 or before.strip()):
            return m.start()
        if kind == "thought" and (seen or _first_call(before, 0) is not None):
            return m.start()
        seen = seen or kind in ("thought", "action")
        prev_end = m.end()
    return len(src)


def _first_call(region: str, start: int) -> int | None:
    best: int | None = None
    for m in _CALL_START.finditer(region, start):
        if canonical(m.group("name")) in ACTIONS:
            best = m.start()
            break
    for tries, m in enumerate(_JSON_START.finditer(region, start)):
        if (best is not None and m.start() >= best) or tries >= _MAX_JSON_TRIES:
            break
        if json_at(region, m.start("brace")) is not None:
            return m.start()
    return best


# -- typed actions ---------------------------------------------------------------------------
def _build(call: Call) -> Action:
    name, pos, kw = call
    spec = ACTIONS.get(name)
    if spec is None:
        raise SyntaxFailure(f"unknown action {name!r}; use one of: {', '.join(ACTIONS)}")
    usage = f"usage: {spec.signature()}, e.g. {spec.example}"
    if len(pos) > len(spec.params):
        raise SyntaxFailure(f"{name} takes {len(spec.params)} argument(s) but got {len(pos)} (quote text that "
                            f"contains commas); {usage}")
    args: dict[str, ArgValue] = {}
    for i, (p, raw) in enumerate(zip(spec.params, pos)):
        try:
            args[p.name] = _coerce(spec, p, raw, usage)
        except SyntaxFailure as exc:
            if i and spec.params[i - 1].type == "str" and p.type != "str":
                raise SyntaxFailure(f"{exc} (if this is part of the text, quote the text)") from None
            raise
    for key, raw in kw.items():
        param = param_for(spec, key)
        if param is None:
            raise SyntaxFailure(f"{name} has no argument {key!r}; {usage}")
        if param.name in args:
            raise SyntaxFailure(f"{name}: {param.name} given twice; {usage}")
        args[param.name] = _coerce(spec, param, raw, usage)
    action = Action(name, args)
    problem = validate(action)
    if problem:
        raise SyntaxFailure(problem)
    return action


def _coerce(spec: ActionSpec, p: Param, raw: Raw, usage: str) -> ArgValue:
    bad = f"{spec.name}: {p.name}={raw!r} is not valid"
    if p.type == "id":
        text = str(raw).strip() if not isinstance(raw, bool) else ""
        text = text.strip("[]# ").strip()
        if ID_PATTERN.fullmatch(text):
            return text
        raise SyntaxFailure(f'{bad}: ids are the numbers in brackets, e.g. click("12"); {usage}')
    if p.type == "str":
        if isinstance(raw, bool):
            return "true" if raw else "false"
        return raw if isinstance(raw, str) else str(raw)
    if p.type == "int":
        if isinstance(raw, bool):
            raise SyntaxFailure(f"{bad}: expected a whole number; {usage}")
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float) and raw.is_integer():
            return int(raw)
        text = str(raw).strip()
        if _INT.fullmatch(text):
            return int(re.match(r"[+-]?\d+", text).group())  # type: ignore[union-attr]
        raise SyntaxFailure(f"{bad}: expected a whole number; {usage}")
    if p.type == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise SyntaxFailure(f"{bad}: expected True or False; {usage}")
    text = str(raw).strip().lower()
    if text in p.choices:
        return text
    raise SyntaxFailure(f"{bad}: expected one of {', '.join(p.choices)}; {usage}")

"""Tokenizer for the action block: calls, quoted strings, JSON (no ``eval``).

Reads ``click("12")``, ``fill('3', "a, \"b\"", enter=True)``, ``click [12]``, ``click 12`` and
JSON actions into raw calls ``(name, positional, keywords)``; :mod:`pagelens.actions.parser`
types them against the spec. Errors are :class:`SyntaxFailure` carrying the message for
the model.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pagelens.actions.spec import ACTIONS, ActionSpec, Param

SYNTAX = (
    'Write "Action:" followed by one action per line, like click("12"), fill("12", "text", enter=True) '
    'or stop("answer"); ids are the numbers in brackets.'
)
_SEP = re.compile(
    r"(?:\s+|```[A-Za-z0-9_+-]*(?=\n)|`+|<\s*/?\s*[A-Za-z][A-Za-z0-9_-]{0,20}\s*/?\s*>|[;,.]"
    r"|(?<!\S)(?:[-*•>]|\d{1,2}[.)])(?=[ \t])|(?<!\S)(?:and|then)(?=\s))+"
)
_NAME = re.compile(r"[A-Za-z_]\w*")
_ANY_CALL = re.compile(r"(?<![\w.])(?P<name>[A-Za-z_]\w*)[ \t]*[(\[]")
_KW = re.compile(r"([A-Za-z_]\w*)[ \t]*(=(?!=)|:(?!//))[ \t]*")
_CLOSE_QUOTE = {"“": "”", "‘": "’", "«": "»"}
_QUOTES = "\"'`“‘«"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"', "'": "'", "`": "`"}
_ALIASES = {
    "type": "fill", "type_text": "fill", "input_text": "fill", "select": "select_option",
    "finish": "stop", "finished": "stop", "back": "go_back", "goback": "go_back",
    "go_to": "goto", "navigate": "goto", "find": "find_text", "mouse_over": "hover", "press_key": "press",
}
#: keyword synonyms -> candidate parameter names (the first one the action has is used)
_KEY_SYNONYMS = {
    "element_id": ("id",), "eid": ("id",), "bid": ("id",), "element": ("id",),
    "value": ("text", "option"), "content": ("text",), "label": ("option", "id_or_label"),
    "press_enter": ("enter",), "press_enter_after": ("enter",), "submit": ("enter",),
    "query": ("text",), "pixels": ("amount",), "href": ("url",), "target": ("id_or_label",),
}
_NAME_KEYS = ("action", "name", "tool", "function", "command", "type")
_THOUGHT_KEYS = ("thought", "thoughts", "reasoning")
_ARGS_KEYS = ("args", "arguments", "params", "parameters", "input")

Raw = str | int | float | bool
Call = tuple[str, list[Raw], dict[str, Raw]]


class SyntaxFailure(Exception):
    """A parse failure carrying the message for the model (caught by the parser; never escapes)."""


def json_at(s: str, p: int) -> dict[str, Any] | list[Any] | None:
    """The JSON object (or list of objects) starting at ``p``, if there is one."""
    if p >= len(s) or s[p] not in "{[":
        return None
    try:
        obj, _ = json.JSONDecoder().raw_decode(s, p)
    except (ValueError, RecursionError):
        return None
    if isinstance(obj, dict) or (isinstance(obj, list) and obj and all(isinstance(o, (dict, list)) for o in obj)):
        return obj
    return None


def canonical(name: str) -> str:
    low = name.lower()
    return _ALIASES.get(low, low)


# -- the action block --------------------------------------------------------------------
def _skip(s: str, p: int) -> int:
    m = _SEP.match(s, p)
    return m.end() if m else p


def read_calls(block: str) -> tuple[list[Call], str]:
    p = _skip(block, 0)
    obj = json_at(block, p)
    if obj is not None:
        thought: list[str] = []
        return _json_calls(obj, thought, 0), " ".join(thought).strip()
    m = _NAME.match(block, p)
    if m is not None and canonical(m.group()) not in ACTIONS:
        # "Action: I will click("12") now": start at the first call of a known action
        for c in _ANY_CALL.finditer(block, p):
            if canonical(c.group("name")) in ACTIONS:
                p = c.start()
                break
    calls: list[Call] = []
    while True:
        p = _skip(block, p)
        if p >= len(block):
            break
        m = _NAME.match(block, p)
        if m is None:
            if calls:
                break
            raise SyntaxFailure(f"expected an action name at {_excerpt(block, p)!r}. {SYNTAX}")
        name = canonical(m.group())
        q = m.end()
        while q < len(block) and block[q] in " \t":
            q += 1
        opener = block[q] if q < len(block) else "\n"
        if opener not in "([" and (calls or name not in ACTIONS):
            if calls:
                break  # prose after the actions: ignored
            raise SyntaxFailure(f"{m.group()!r} is not an action; use one of: {', '.join(ACTIONS)}. {SYNTAX}")
        if name not in ACTIONS:
            raise SyntaxFailure(f"unknown action {m.group()!r}; use one of: {', '.join(ACTIONS)}")
        if opener == "(":
            pos, kw, p = _paren_args(block, q + 1, name)
        elif opener == "[":
            pos, kw, p = _bracket_args(block, q)
        else:
            pos, kw, p = _space_args(block, q, ACTIONS[name])
        calls.append((name, pos, kw))
    return calls, ""


def _excerpt(s: str, p: int) -> str:
    return s[p : p + 40].split("\n")[0]


def _paren_args(s: str, p: int, name: str) -> tuple[list[Raw], dict[str, Raw], int]:
    pos: list[Raw] = []
    kw: dict[str, Raw] = {}
    spec = ACTIONS[name]
    while True:
        while p < len(s) and s[p].isspace():
            p += 1
        if p >= len(s):
            raise SyntaxFailure(f"{name}(...) is missing its closing parenthesis. {SYNTAX}")
        if s[p] == ")":
            return pos, kw, p + 1
        key: str | None = None
        km = _KW.match(s, p)
        if km and (km.group(2) == "=" or param_for(spec, km.group(1)) is not None):
            key, p = km.group(1), km.end()
        value, p = _value(s, p, name)
        if key is None:
            if kw:
                raise SyntaxFailure(f"{name}: positional argument after a keyword argument. {SYNTAX}")
            pos.append(value)
        elif key in kw:
            raise SyntaxFailure(f"{name}: argument {key!r} given twice")
        else:
            kw[key] = value
        while p < len(s) and s[p] in " \t":
            p += 1
        if p < len(s) and s[p] == ",":
            p += 1
        elif p < len(s) and s[p] != ")" and not s[p].isspace():
            raise SyntaxFailure(
                f"{name}: expected ',' or ')' at {_excerpt(s, p)!r}; put text in double quotes. {SYNTAX}"
            )


def _value(s: str, p: int, name: str) -> tuple[Raw, int]:
    if p >= len(s):
        raise SyntaxFailure(f"{name}(...) is missing an argument value and its closing parenthesis. {SYNTAX}")
    if s[p] in _QUOTES:
        return _string(s, p, name)
    if s[p] == "[":
        end = _matching(s, p, "[", "]", name)
        return _unquote(s[p + 1 : end].strip(), name), end + 1
    if s[p] in "{":
        raise SyntaxFailure(f"{name}: arguments must be plain values, not objects. {SYNTAX}")
    depth, q = 0, p
    while q < len(s):
        c = s[q]
        if c in "([":
            depth += 1
        elif c in ")]":
            if depth == 0:
                break
            depth -= 1
        elif (c == "," and depth == 0) or c == "\n":
            break
        q += 1
    raw = s[p:q].strip()
    if not raw:
        raise SyntaxFailure(f"{name}: empty argument. {SYNTAX}")
    return raw, q


def _string(s: str, p: int, name: str) -> tuple[str, int]:
    q = s[p]
    close = _CLOSE_QUOTE.get(q, q)
    if q in "\"'" and s.startswith(q * 3, p):
        end = s.find(q * 3, p + 3)
        if end < 0:
            raise SyntaxFailure(f"{name}: unclosed quote. {SYNTAX}")
        return s[p + 3 : end], end + 3
    out: list[str] = []
    i = p + 1
    while i < len(s):
        c = s[i]
        if c == "\\" and q in "\"'" and i + 1 < len(s):
            i = _escape(s, i, out)
            continue
        if c == close:
            j = i + 1
            while j < len(s) and s[j] in " \t":
                j += 1
            if j >= len(s) or s[j] in ",)]\n`;<":
                return "".join(out), i + 1
            # an unescaped inner quote (he said "hi"): keep it as text
        out.append(c)
        i += 1
    raise SyntaxFailure(f"{name}: unclosed quote. {SYNTAX}")


def _escape(s: str, i: int, out: list[str]) -> int:
    nxt = s[i + 1]
    if nxt in _ESCAPES:
        out.append(_ESCAPES[nxt])
        return i + 2
    if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", s[i + 2 : i + 6]):
        code = int(s[i + 2 : i + 6], 16)
        low = s[i + 6 : i + 12]
        if 0xD800 <= code < 0xDC00 and re.fullmatch(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}", low):
            low_code = int(low[2:], 16)  # noqa: FURB166 - the prefix is "\u", not "0x"
            out.append(chr(0x10000 + ((code - 0xD800) << 10) + (low_code - 0xDC00)))
            return i + 12
        out.append("\ufffd" if 0xD800 <= code < 0xE000 else chr(code))
        return i + 6
    out.append("\\")
    return i + 1


def _matching(s: str, p: int, open_: str, close: str, name: str) -> int:
    depth = 0
    for i in range(p, len(s)):
        if s[i] == open_:
            depth += 1
        elif s[i] == close:
            depth -= 1
            if depth == 0:
                return i
    raise SyntaxFailure(f"{name}: missing '{close}'. {SYNTAX}")


def _unquote(raw: str, name: str) -> str:
    if len(raw) >= 2 and raw[0] in _QUOTES and raw[-1] == _CLOSE_QUOTE.get(raw[0], raw[0]):
        try:
            value, end = _string(raw, 0, name)
        except SyntaxFailure:
            return raw
        if end == len(raw):
            return value
    return raw


def _bracket_args(s: str, p: int) -> tuple[list[Raw], dict[str, Raw], int]:
    pos: list[Raw] = []
    while p < len(s) and s[p] == "[":
        end = _matching(s, p, "[", "]", "action")
        pos.append(_unquote(s[p + 1 : end].strip(), "action"))
        p = end + 1
        while p < len(s) and s[p] in " \t":
            p += 1
    return pos, {}, p


def _space_args(s: str, p: int, spec: ActionSpec) -> tuple[list[Raw], dict[str, Raw], int]:
    """``click 12`` / ``stop the answer`` right after ``Action:`` (rest of the line)."""
    end = s.find("\n", p)
    end = len(s) if end < 0 else end
    rest = s[p:end].strip().rstrip("`").strip()
    if not rest:
        return [], {}, end
    if len(spec.params) == 1:
        return [_unquote(rest, spec.name)], {}, end
    pos: list[Raw] = []
    i = 0
    while i < len(rest):
        if rest[i].isspace():
            i += 1
        elif rest[i] in _QUOTES:
            value, i = _string(rest, i, spec.name)
            pos.append(value)
        else:
            j = i
            while j < len(rest) and not rest[j].isspace():
                j += 1
            pos.append(rest[i:j])
            i = j
    return pos, {}, end


# -- JSON ----------------------------------------------------------------------------------
def _json_calls(obj: Any, thought: list[str], depth: int) -> list[Call]:
    if depth > 4:
        raise SyntaxFailure(f"the JSON is nested too deeply. {SYNTAX}")
    if isinstance(obj, list):
        return [c for item in obj for c in _json_calls(item, thought, depth + 1)]
    if not isinstance(obj, dict):
        raise SyntaxFailure(f'JSON actions look like {{"action": "click", "id": "12"}}. {SYNTAX}')
    for key in _THOUGHT_KEYS:
        if isinstance(obj.get(key), str):
            thought.append(obj[key])
    if isinstance(obj.get("actions"), list):
        return _json_calls(obj["actions"], thought, depth + 1)
    name_key = next((k for k in _NAME_KEYS if k in obj), None)
    if name_key is None:
        raise SyntaxFailure(f'a JSON action needs an "action" field, e.g. {{"action": "click", "id": "12"}}. {SYNTAX}')
    head = obj[name_key]
    if isinstance(head, (dict, list)):
        return _json_calls(head, thought, depth + 1)
    if not isinstance(head, str):
        raise SyntaxFailure(f'"{name_key}" must be an action name. {SYNTAX}')
    if canonical(head.strip()) not in ACTIONS and re.search(r"[(\[]", head):
        return read_calls(head)[0]
    pos: list[Raw] = []
    kw: dict[str, Raw] = {}
    for key, value in obj.items():
        if key == name_key or key in _THOUGHT_KEYS:
            continue
        if key in _ARGS_KEYS:
            if isinstance(value, str):
                try:
                    value = json.loads(value)
                except ValueError:
                    value = [value]
            if isinstance(value, dict):
                kw.update({k: _json_scalar(v) for k, v in value.items() if v is not None})
            elif isinstance(value, list):
                pos.extend(_json_scalar(v) for v in value)
            continue
        if value is not None:
            kw[key] = _json_scalar(value)
    return [(canonical(head.strip()), pos, kw)]


def _json_scalar(v: Any) -> Raw:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, (str, int, float, bool)):
        return v
    raise SyntaxFailure(f"JSON action arguments must be strings, numbers or booleans. {SYNTAX}")


def param_for(spec: ActionSpec, key: str) -> Param | None:
    p = spec.param(key)
    if p is not None:
        return p
    for cand in _KEY_SYNONYMS.get(key.lower(), ()):
        p = spec.param(cand)
        if p is not None:
            return p
    return None

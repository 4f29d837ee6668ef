"""Observation → numbered lines, in the format BrowserGym users already read.

    [12] button 'Add to cart', clickable, visible
    \tStaticText '$49.99'

Tab indentation by depth, ``[id] role 'name'``, then ``value='…'`` and properties. The
rules follow BrowserGym's ``flatten_axtree_to_str`` (so sizes stay comparable and pruning
figures stay honest), with these deliberate differences:

* names are readable text rather than Python ``repr`` (a non-breaking space stays a space,
  so "38 comments" can be found) and are capped at ``max_name_chars`` (2,000);
* inline ``data:`` URIs are shortened to their media type;
* clickable and named ``generic`` containers are kept (an agent can act on a ``<div onclick>``);
* redundant text is compared with the nearest rendered ancestor, not only the direct parent;
* true/false states read as flags (``checked``, ``expanded=false``); ``invalid=false`` is dropped;
* no marking attributes are injected into the page, so Chromium does not expose the empty
  spacer images, ``rowgroup`` nodes and spans that BrowserGym's marking makes visible.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import fields, replace
from functools import lru_cache
from operator import attrgetter

from pagelens.config import RenderConfig
from pagelens.gcpause import gc_paused
from pagelens.types import Line, Node, Observation, PropValue, Region, Rendering

IGNORED_ROLES = frozenset({"LineBreak"})
#: Properties that are noise for an agent (BrowserGym drops the same ones, plus 'invalid=false').
IGNORED_PROPERTIES = frozenset(
    {"editable", "readonly", "level", "settable", "multiline", "focusable", "hiddenRoot", "uninteresting"}
)
FLAG_PROPERTIES = frozenset({"required", "focused", "atomic", "modal", "disabled", "busy"})
_WS = re.compile(r"\s+")
_DATA_URL = re.compile(r"^data:([^;,]*)[^,]*,.*$", re.DOTALL)


def clean_text(text: str, limit: int = 2000) -> str:
    """Collapse whitespace (non-breaking spaces included) into single spaces; cap at ``limit``.

    Most names need nothing: a text that is printable (``str.isprintable`` is false for every
    character ``\\s`` matches except the plain space, for ``\\xa0`` and ``\\u200b``), has no
    double, leading or trailing space and fits is returned as it is (the same object, so a
    line's name shares the tree's string). The others go through :func:`_clean_text`."""
    if (len(text) <= limit and text.isprintable() and "  " not in text
            and text[:1] != " " and text[-1:] != " "):
        return text
    return _clean_text(text, limit)


@lru_cache(maxsize=1 << 14)
def _clean_text(text: str, limit: int) -> str:
    """Cached: pages repeat their labels, and a text's parent name is asked once per child."""
    text = _WS.sub(" ", text.replace("\xa0", " ").replace("\u200b", "")).strip()
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def quote(text: str) -> str:
    return "'" + text + "'"


def format_property(name: str, value: PropValue, *, shorten_data_urls: bool = True) -> str | None:
    """One property as shown after the name; ``None`` when it is not worth showing."""
    if name in IGNORED_PROPERTIES:
        return None
    if name == "invalid" and value in ("false", False):
        return None
    if name in FLAG_PROPERTIES:
        return name if value in (True, "true") else None
    if value is True or value == "true":
        return name
    if value is False or value == "false":
        return f"{name}=false"
    if isinstance(value, str):
        if name == "url" and shorten_data_urls and value.startswith("data:"):
            m = _DATA_URL.match(value)
            value = f"data:{m.group(1) if m else ''},…"
        return f"{name}={quote(clean_text(value))}"
    return f"{name}={value}"


def node_states(node: Node) -> tuple[str, ...]:
    """The node's shown properties except ``url`` ("checked", "expanded=false", "level=2" ...)."""
    out: list[str] = []
    for k, v in node.properties:
        if k == "url":
            continue
        shown = format_property(k, v)
        if shown is not None:
            out.append(shown)
    return tuple(out)


def node_url(node: Node) -> str | None:
    url = node.prop("url")
    if not isinstance(url, str) or not url:
        return None
    shown = format_property("url", url)  # the url as the line shows it (data: URIs shortened)
    return shown[len("url='") : -1] if shown else None


#: Controls that an agent fills or toggles; without an accessible name they get an inferred label.
LABELLED_CONTROLS = frozenset({
    "textbox", "searchbox", "combobox", "checkbox", "radio", "spinbutton", "listbox", "switch", "slider",
    "textarea", "ComboBoxSelect", "TextField", "DatePicker", "InputTime", "DateTime", "menuitemcheckbox",
    "menuitemradio",
})
_LABEL_ROLES = frozenset({
    "StaticText", "LabelText", "Legend", "cell", "gridcell", "LayoutTableCell", "paragraph", "term", "heading",
    "columnheader", "rowheader", "DescriptionListTerm", "generic",
})
_LABEL_MAX_CHARS = 60
_LABEL_WINDOW = 6  # lines looked at before (or after) an unnamed control


def _label_at(line: Line, nodes: Sequence[Node] | None) -> str:
    if line.role not in _LABEL_ROLES or not line.name or len(line.name) > _LABEL_MAX_CHARS:
        return ""
    if nodes is not None and 0 <= line.node < len(nodes):
        concealed = nodes[line.node].concealed
        if concealed and concealed != "covered":
            return ""  # text a sighted user does not see labels nothing they see (covered text: once uncovered)
    return line.name


def infer_labels(lines: list[Line], nodes: Sequence[Node] | None = None) -> list[Line]:
    """Give every control without an accessible name the visible text that labels it.

    The label is the nearest short text: after a checkbox or radio button (its usual place),
    before any other field (a label cell, the preceding text), never across another control.
    The line shows it as ``textbox '' (label?: 'E-mail')``: inferred, not the accessible name.
    ``nodes`` (the observation's): text concealed from sighted users by layout or colour
    (:mod:`pagelens.browser.concealed`; not text an overlay covers) is not taken for a label.
    """
    out = list(lines)
    for k, ln in enumerate(lines):
        if ln.role not in LABELLED_CONTROLS or ln.name:
            continue
        toggle = ln.role in ("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio")
        after = range(k + 1, min(len(lines), k + 1 + (2 if toggle else _LABEL_WINDOW)))
        before = range(k - 1, max(-1, k - 1 - _LABEL_WINDOW), -1)
        order = (after, before) if toggle else (before, after)
        label = ""
        for span in order:
            for j in span:
                other = lines[j]
                if other.role in LABELLED_CONTROLS or other.role in ("button", "link"):
                    break  # another control: its label is not ours
                label = _label_at(other, nodes)
                if label:
                    break
            if label:
                break
        if not label:
            continue
        head = f"{ln.role} ''"
        pos = ln.text.find(head)
        if pos < 0:
            continue
        cut = pos + len(head)
        text = ln.text[:cut] + f" (label?: {quote(label)})" + ln.text[cut:]
        out[k] = replace(ln, text=text, label=label)
    return out


def render(obs: Observation, config: RenderConfig | None = None) -> Rendering:
    """The full (unfocused) rendering of an observation."""
    with gc_paused():  # one Line per node and nothing cyclic: a gen-2 pass per 100k objects is pure cost
        return _render(obs, config)


def _shown_properties(node: Node, shorten: bool) -> tuple[list[str], tuple[str, ...], str | None]:
    """One pass over a node's properties: what its line shows after the name, its states
    (:func:`node_states`) and its url (:func:`node_url`)."""
    shown: list[str] = []
    states: list[str] = []
    url: str | None = None
    seen_url = False
    for k, v in node.properties:
        s = format_property(k, v, shorten_data_urls=shorten)
        if k == "url":
            if not seen_url:  # node.prop("url"): the first one
                seen_url = True
                if isinstance(v, str) and v:
                    if v in ("true", "false") or v.startswith("data:"):
                        u = s if shorten else format_property(k, v)
                        url = u[len("url='") : -1] if u else None
                    else:  # what format_property shows between the quotes, without slicing a copy
                        url = clean_text(v)
        elif s is not None:
            states.append(s)
        if s is not None:
            shown.append(s)
    return shown, tuple(states), url


_NO_PROPS: tuple[list[str], tuple[str, ...], None] = ([], (), None)
_SKIPPED_ROLES = frozenset({"none", "Ignored", "IgnoredRole"})


def _render(obs: Observation, config: RenderConfig | None) -> Rendering:
    config = config or RenderConfig()
    limit = config.max_name_chars
    shorten = config.shorten_data_urls
    tag_clickable = config.with_clickable
    tag_visible = config.with_visible
    skip_generic = config.skip_generic
    redundant = config.remove_redundant_text
    nodes = obs.nodes
    n = len(nodes)
    child_depth = [0] * n  # depth given to this node's children
    line_of = [-1] * n  # line number of the nearest rendered node at or above
    lines: list[Line] = []
    same_states: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple per distinct states
    for node in nodes:
        i = node.index
        p = node.parent
        depth = child_depth[p] if p is not None else 0
        parent_line = line_of[p] if p is not None else -1
        role = node.role
        skip = False
        props = None
        if role in IGNORED_ROLES:
            skip = True
        elif role == "StaticText":
            text = clean_text(node.name)
            if not text or (redundant and p is not None and text in clean_text(nodes[p].name)):
                skip = True
        elif role == "generic" and skip_generic and not node.name:
            props = _shown_properties(node, shorten) if node.properties else _NO_PROPS
            if not (any(props[0]) or (node.clickable and tag_clickable)):
                skip = True
        elif role in _SKIPPED_ROLES:
            skip = True
        if skip:
            child_depth[i] = depth
            line_of[i] = parent_line
            continue
        shown, states, url = props or (_shown_properties(node, shorten) if node.properties else _NO_PROPS)
        name = clean_text(node.name, limit)
        eid = node.eid
        head = role if (role == "generic" and not name) else f"{role} '{name}'"
        if eid is not None:
            head = f"[{eid}] {head}"
        value = node.value
        if value is not None:
            value = clean_text(value, limit)
        if role == "StaticText":
            text = head
        else:
            if value is not None:
                head = f"{head} value='{value}'"
            extras: list[str] = []
            if eid is not None:
                if tag_clickable and node.clickable:
                    extras.append("clickable")
                if tag_visible and node.visible:
                    extras.append("visible")
            extras += shown
            text = ", ".join([head, *extras]) if extras else head
        if states:
            states = same_states.setdefault(states, states)
        no = len(lines)
        lines.append(Line(no, depth, text, i, role, eid, parent_line if parent_line >= 0 else None, name, value,
                          states, url, node.frame))
        child_depth[i] = depth + 1
        line_of[i] = no
    found, error = regions_of(obs, infer_labels(lines, obs.nodes))
    return Rendering(lines=found, provenance_error=error)


_LINE_FIELDS = tuple(f.name for f in fields(Line))
_line_values = attrgetter(*_LINE_FIELDS)
_REGION_AT = _LINE_FIELDS.index("region")


def _in_region(line: Line, region: Region) -> Line:
    """``replace(line, region=region)``, without ``dataclasses.replace``'s per-call cost."""
    values = list(_line_values(line))
    values[_REGION_AT] = region
    return Line(*values)


def regions_of(obs: Observation, lines: Sequence[Line]) -> tuple[tuple[Line, ...], str | None]:
    """(lines with their provenance region set, why the regions are only structural or ``None``).
    Never raises: provenance never costs the agent its view, and a failure is reported, not hidden."""
    from pagelens.observe.provenance import regions_checked

    try:
        found, error = regions_checked(obs, lines)
    except Exception as exc:  # noqa: BLE001 - regions_checked does not raise; this guards its contract
        return tuple(lines), f"{type(exc).__name__}: {str(exc)[:120]}"
    return tuple(ln if r == "main" else _in_region(ln, r) for ln, r in zip(lines, found)), error

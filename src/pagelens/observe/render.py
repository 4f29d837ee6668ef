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
from dataclasses import replace
from functools import lru_cache

from pagelens.config import RenderConfig
from pagelens.gcpause import gc_paused
from pagelens.types import Line, Node, Observation, PropValue, Rendering

IGNORED_ROLES = frozenset({"LineBreak"})
#: Properties that are noise for an agent (BrowserGym drops the same ones, plus 'invalid=false').
IGNORED_PROPERTIES = frozenset(
    {"editable", "readonly", "level", "settable", "multiline", "focusable", "hiddenRoot", "uninteresting"}
)
FLAG_PROPERTIES = frozenset({"required", "focused", "atomic", "modal", "disabled", "busy"})
_WS = re.compile(r"\s+")
_DATA_URL = re.compile(r"^data:([^;,]*)[^,]*,.*$", re.DOTALL)


@lru_cache(maxsize=1 << 16)
def clean_text(text: str, limit: int = 2000) -> str:
    """Collapse whitespace (non-breaking spaces included) into single spaces.

    Cached: one rendering asks for the same names many times (a text's parent name once per
    child), and pages repeat their labels."""
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


def node_text(node: Node, config: RenderConfig, *, props: bool = True) -> str:
    """The line of one node, without indentation."""
    name = clean_text(node.name, config.max_name_chars)
    if node.role == "generic" and not name:
        head = node.role
    else:
        head = f"{node.role} {quote(name)}"
    if node.eid is not None:
        head = f"[{node.eid}] {head}"
    parts = [head]
    if node.value is not None and node.role != "StaticText":
        head_value = f" value={quote(clean_text(node.value, config.max_name_chars))}"
        parts[0] += head_value
    if props and node.role != "StaticText":
        extras: list[str] = []
        if node.eid is not None:
            if config.with_clickable and node.clickable:
                extras.append("clickable")
            if config.with_visible and node.visible:
                extras.append("visible")
        for k, v in node.properties:
            shown = format_property(k, v, shorten_data_urls=config.shorten_data_urls)
            if shown is not None:
                extras.append(shown)
        parts.extend(extras)
    return ", ".join(parts)


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


def _label_at(line: Line) -> str:
    if line.role not in _LABEL_ROLES or not line.name or len(line.name) > _LABEL_MAX_CHARS:
        return ""
    return line.name


def infer_labels(lines: list[Line]) -> list[Line]:
    """Give every control without an accessible name the visible text that labels it.

    The label is the nearest short text: after a checkbox or radio button (its usual place),
    before any other field (a label cell, the preceding text), never across another control.
    The line shows it as ``textbox '' (label?: 'E-mail')``: inferred, not the accessible name.
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
                label = _label_at(other)
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


def _has_shown_props(node: Node, config: RenderConfig) -> bool:
    return any(format_property(k, v, shorten_data_urls=config.shorten_data_urls) for k, v in node.properties)


def render(obs: Observation, config: RenderConfig | None = None) -> Rendering:
    """The full (unfocused) rendering of an observation."""
    with gc_paused():  # one Line per node and nothing cyclic: a gen-2 pass per 100k objects is pure cost
        return _render(obs, config)


def _render(obs: Observation, config: RenderConfig | None) -> Rendering:
    config = config or RenderConfig()
    nodes = obs.nodes
    n = len(nodes)
    child_depth = [0] * n  # depth given to this node's children
    line_of = [-1] * n  # line number of the nearest rendered node at or above
    lines: list[Line] = []
    for node in nodes:
        i = node.index
        p = node.parent
        depth = child_depth[p] if p is not None else 0
        parent_line = line_of[p] if p is not None else -1
        skip = False
        if node.role in IGNORED_ROLES:
            skip = True
        elif node.role == "StaticText":
            text = clean_text(node.name)
            if not text or (config.remove_redundant_text and p is not None and text in clean_text(nodes[p].name)):
                skip = True
        elif node.role == "generic" and config.skip_generic and not node.name:
            if not (_has_shown_props(node, config) or (node.clickable and config.with_clickable)):
                skip = True
        elif node.role in ("none", "Ignored", "IgnoredRole"):
            skip = True
        if skip:
            child_depth[i] = depth
            line_of[i] = parent_line
            continue
        no = len(lines)
        lines.append(
            Line(
                no=no,
                depth=depth,
                text=node_text(node, config),
                node=i,
                role=node.role,
                eid=node.eid,
                parent=parent_line if parent_line >= 0 else None,
                name=clean_text(node.name, config.max_name_chars),
                value=clean_text(node.value, config.max_name_chars) if node.value is not None else None,
                states=node_states(node),
                url=node_url(node),
                frame=node.frame,
            )
        )
        child_depth[i] = depth + 1
        line_of[i] = no
    return Rendering(lines=with_regions(obs, infer_labels(lines)))


def with_regions(obs: Observation, lines: Sequence[Line]) -> tuple[Line, ...]:
    """The lines with their provenance region set (best effort: on a failure every line stays ``main``)."""
    from dataclasses import replace

    from pagelens.observe.provenance import regions

    try:
        found = regions(obs, lines)
    except Exception:  # noqa: BLE001 - provenance never costs the agent its view
        return tuple(lines)
    return tuple(ln if r == "main" else replace(ln, region=r) for ln, r in zip(lines, found))

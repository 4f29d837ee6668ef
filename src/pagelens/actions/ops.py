"""One plain function per page action (the executor dispatches through :data:`HANDLERS`).

Each handler does its work on the page and returns an :class:`Outcome`; the executor wraps
it with id validation, budgets, fingerprints before/after and the feedback text. A handler
either leaves the status to the fingerprint diff (``status=None``: "done" when something
changed, "no_change" otherwise) or decides it (``failed``, or ``done`` for tools such as
``read_text`` whose result is text, not a page change). Handlers reach the page only through
the browser package's :class:`~pagelens.browser.page.Tab` and :class:`~pagelens.actions.targets.Target`,
whose errors are already the project's (:mod:`pagelens.errors`); they propagate to the executor,
which turns them into feedback.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urldefrag

from pagelens.actions.inpage import FILL_JS, SELECT_JS, SHOWN_JS, in_page_fill
from pagelens.actions.spec import ACTIONS, render_value
from pagelens.actions.targets import DESCRIBE_JS, OPTIONS_JS, PROBE_JS, Target
from pagelens.errors import ActionError, PageError

if TYPE_CHECKING:
    from pagelens.actions.spec import Action
    from pagelens.browser.page import Tab

Status = Literal["done", "no_change", "failed", "invalid", "budget", "control"]
READ_LIMIT = 600


@dataclass(frozen=True, slots=True)
class Ctx:
    tab: Tab
    action: Action
    target: Target | None
    timeout_ms: float
    find_state: dict[tuple[str, str], int]
    #: the last screenshot's geometry (coordinate actions); None: the default cap of the page now
    screen: Any = None
    #: :data:`~pagelens.actions.targets.PROBE_JS`'s result, when the executor already ran it (with
    #: the fingerprint before the action, in one call); None: the handler probes
    probe: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    status: Status | None = None
    message: str = ""
    detail: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    changes: tuple[str, ...] = ()  # changes the fingerprint cannot see (an inner scroll area)
    hover: bool = False  # compare the text hash too
    #: the target's focus key: focus moving onto the element acted on is not an effect by itself
    own_focus: str | None = None
    #: a function of the element acted on, run once the action settled (by the executor, in the
    #: settling's own page call where it can); :attr:`finish` turns its result (``{"value": ...}``,
    #: or None when the element is gone) into the outcome
    read_after: str = ""
    #: (the read, and what :attr:`act` answered: ``{"value": ...}``, or None)
    finish: Callable[[Any, Any], Outcome] | None = None
    #: the action itself, left to the executor: ``act(element, act_arg)``, a page function run first in
    #: the settling's call (an element of the main document), so that the settling watches it from
    #: before it runs (:mod:`pagelens.actions.settle`); "": the handler acted
    act: str = ""
    act_arg: Any = None


def _probe(ctx: Ctx) -> dict[str, Any]:
    """Scroll the target into view if needed; report its state and what is under its centre."""
    if ctx.probe is not None:
        return dict(ctx.probe)
    return _target(ctx).evaluate(PROBE_JS, timeout_ms=ctx.timeout_ms)  # type: ignore[no-any-return]


def _target(ctx: Ctx) -> Target:
    assert ctx.target is not None, "element actions are resolved by the executor"
    return ctx.target


def _blocked(ctx: Ctx, probe: dict[str, Any], verb: str) -> Outcome | None:
    """A failed outcome when the element cannot be used (hidden, disabled, covered)."""
    eid = _target(ctx).node.eid
    if not probe["visible"]:
        return Outcome("failed", f"[{eid}] is not visible (hidden or zero size); nothing was {verb}.")
    if probe["disabled"]:
        return Outcome("failed", f"[{eid}] is disabled; nothing was {verb}.")
    if not probe["inside"]:
        cover = probe["hit"] + (f" inside {probe['dialog']}" if probe.get("dialog") else "")
        clickable = "clickable" if probe["hit_clickable"] else "not clickable"
        return Outcome(
            "failed",
            f"[{eid}] is covered by {cover} ({clickable}); nothing was {verb}. "
            "Close or dismiss what covers it first.",
            MappingProxyType({"covered_by": probe["hit"], "dialog": probe.get("dialog")}),
        )
    return None


def _press_at(ctx: Ctx, probe: Mapping[str, Any], *, click: bool) -> None:
    """Click (or hover) the element the probe has just checked (visible, enabled, receiving the
    pointer at the point it names, scrolled into view): the real mouse at that point, in one
    driver call (an element of the top document: the point is in the top viewport's pixels), no
    wait for a navigation (the settling waits for it, :mod:`pagelens.actions.settle`), bounded by
    the action's timeout (a page that hangs on the click is a timeout, not a hung call). An element
    in a child frame: Playwright's locator (its own position and checks; without its actionability
    wait when the probe found the element receiving the pointer at its centre)."""
    t = _target(ctx)
    if probe.get("top"):
        x, y = float(probe["x"]), float(probe["y"])
        if click:
            ctx.tab.click_at(x, y, timeout_ms=ctx.timeout_ms)
        else:
            ctx.tab.move_to(x, y, timeout_ms=ctx.timeout_ms)
        return
    checked = bool(probe.get("centre", False))
    if click:
        t.click(timeout_ms=ctx.timeout_ms, checked=checked)
    else:
        t.hover(timeout_ms=ctx.timeout_ms, checked=checked)


def click(ctx: Ctx) -> Outcome:
    probe = _probe(ctx)
    blocked = _blocked(ctx, probe, "clicked")
    if blocked:
        return blocked
    _press_at(ctx, probe, click=True)
    clickable = "clickable" if probe["hit_clickable"] else "not clickable"
    return Outcome(
        message=f"At the click point: {probe['hit']} ({clickable}), the target itself.",
        detail=MappingProxyType({"hit": probe["hit"], "hit_clickable": probe["hit_clickable"]}),
        hover=bool(probe["svg"]),
        own_focus=probe["focus_key"],
    )


def hover(ctx: Ctx) -> Outcome:
    probe = _probe(ctx)
    blocked = _blocked(ctx, probe, "hovered")
    if blocked:
        return blocked
    _press_at(ctx, probe, click=False)
    return Outcome(hover=True, own_focus=probe["focus_key"])


_READ_VALUE = "(el) => el.isContentEditable ? el.innerText : (el.value ?? '')"


def _filled(eid: str, text: str, value: str, enter: bool, focus_key: str | None) -> Outcome:
    """A fill's outcome from the value read back from the field."""
    shown = render_value(value)
    if value == text:
        msg = f"[{eid}] now contains {shown}."
    else:
        msg = (f"[{eid}] now contains {shown} ({len(value)} characters), not the {len(text)} characters "
               "given: the field changed or limited the input.")
    if enter:
        msg += " Pressed Enter."
    # the value itself is invisible to the fingerprint: a correct read-back is the result
    return Outcome("done", msg, MappingProxyType({"value": value, "requested": text, "enter": enter}),
                   own_focus=focus_key)


def fill(ctx: Ctx) -> Outcome:
    t = _target(ctx)
    text = str(ctx.action.args["text"])
    enter = bool(ctx.action.args.get("enter", False))
    if text.endswith("\n"):  # "type it and press Enter", as models often write it
        text, enter = text.rstrip("\n"), True
    probe = _probe(ctx)
    if probe["visible"] and not probe["editable"]:
        return Outcome("failed", f"[{t.node.eid}] {probe['self']} is not a text field; nothing was typed.")
    if probe["readonly"]:
        return Outcome("failed", f"[{t.node.eid}] is read-only; nothing was typed.")
    blocked = _blocked(ctx, {**probe, "inside": True}, "typed")
    if blocked:
        return blocked
    eid, focus_key = str(t.node.eid), probe["focus_key"]
    # an input or textarea of the main document: filled in the page (the probe has just checked it:
    # visible, enabled, editable), without Enter by the settling's own call; others: Playwright's fill
    in_page = in_page_fill(t, probe, text)
    if in_page is None:
        t.fill(text, timeout_ms=ctx.timeout_ms, checked=True)
    if not enter:  # read back once the page settled (its input handlers ran), in the settling's call
        def finish(read: Any, acted: Any = None) -> Outcome:
            if isinstance(acted, dict) and acted.get("value") == "malformed":
                return Outcome("failed", f"[{eid}] does not take {render_value(text)} as its value "
                                         f"(a {probe.get('type')} field); nothing was typed.")
            if not isinstance(read, dict):
                return Outcome("failed", f"element [{eid}] was removed from the page before its value could be read "
                                         "back; observe the page again.", MappingProxyType({"vanished": True}))
            return _filled(eid, text, str(read["value"]), False, focus_key)

        return Outcome(read_after=_READ_VALUE, finish=finish, act=FILL_JS if in_page else "", act_arg=in_page)
    # filled and read back before Enter sends the form away
    value = str(t.evaluate(f"(el, a) => {{ ({FILL_JS})(el, a); return ({_READ_VALUE})(el); }}", in_page,
                           timeout_ms=ctx.timeout_ms) if in_page else t.evaluate(_READ_VALUE, timeout_ms=ctx.timeout_ms))
    t.press("Enter", timeout_ms=ctx.timeout_ms)
    return _filled(eid, text, value, True, focus_key)


def select_option(ctx: Ctx) -> Outcome:
    t = _target(ctx)
    wanted = str(ctx.action.args["option"])
    # read with the fingerprint before the action when the executor could (one call), else now
    options = ctx.probe["options"] if ctx.probe and "options" in ctx.probe else t.evaluate(
        OPTIONS_JS, timeout_ms=ctx.timeout_ms)
    if options is None:
        return Outcome("failed", f"[{t.node.eid}] is not a drop-down (<select>): click it to open it, then click "
                                 "the option.")
    norm = " ".join(wanted.split()).casefold()
    match = next((o for o in options if o[0] == wanted or o[1] == wanted), None) or next(
        (o for o in options if " ".join(o[0].split()).casefold() == norm or o[1].casefold() == norm), None)
    labels = [o[0] for o in options if not o[2]]
    shown = ", ".join(f'"{lab}"' for lab in labels[:40]) + (f" … ({len(labels)} in all)" if len(labels) > 40 else "")
    if match is None or match[2]:
        why = "is disabled" if match is not None else "does not exist"
        return Outcome("failed", f'option "{wanted}" {why} in [{t.node.eid}]. Available options: {shown}.',
                       MappingProxyType({"options": tuple(labels)}))
    checked = ctx.probe is not None and "visible" in ctx.probe  # (read with the options: USABLE_JS)
    if checked:
        assert ctx.probe is not None
        if not ctx.probe["visible"]:
            return Outcome("failed", f"[{t.node.eid}] is not visible (hidden or zero size); nothing was changed.")
        if ctx.probe["disabled"]:
            return Outcome("failed", f"[{t.node.eid}] is disabled; nothing was changed.")
    done = Outcome("done", f'[{t.node.eid}] now shows "{match[0]}".', MappingProxyType({"selected": match[0]}))
    if not (checked and t.frame.is_main):
        t.select_option(match[1], by="value", timeout_ms=ctx.timeout_ms, checked=checked)
        return done
    eid = t.node.eid

    def finish(read: Any, acted: Any = None) -> Outcome:  # the option the page shows once it settled
        chosen = isinstance(acted, dict) and acted.get("value") is True
        if isinstance(acted, dict) and acted.get("value") is False:
            return Outcome("failed", f'option "{wanted}" is no longer in [{eid}]; nothing was changed.')
        if not isinstance(read, dict):  # chosen, then the page replaced the drop-down (its change handler?)
            return done if chosen else Outcome(
                "failed", f"element [{eid}] was removed from the page before the option could be chosen; "
                          "observe the page again.", MappingProxyType({"vanished": True}))
        shown = read["value"]
        if shown is None or shown == match[0]:  # (None: the page's handler made it something else than a drop-down)
            return done
        return Outcome("done", f'[{eid}] now shows "{shown}", not "{match[0]}": the page changed the selection.',
                       MappingProxyType({"selected": shown}))

    # the selection in the page, by the settling's own call (as Playwright's selectOption does it)
    return Outcome(act=SELECT_JS, act_arg=match[1], read_after=SHOWN_JS, finish=finish)


_KEY = re.compile(r"(?:(?:Control|Shift|Alt|Meta|ControlOrMeta)\+)*(?:[A-Za-z][A-Za-z0-9]*|F\d{1,2}|.)")


def press(ctx: Ctx) -> Outcome:
    key = str(ctx.action.args["key"]).strip()
    if not _KEY.fullmatch(key):
        return Outcome("failed", f"{key!r} is not a key name; use Enter, Tab, Escape, ArrowDown, PageDown, Control+a.")
    ctx.tab.press_key(key)
    return Outcome()


_SCROLL = "([dy]) => {" + DESCRIBE_JS + """
  const se = document.scrollingElement || document.documentElement;
  const y0 = se.scrollTop;
  window.scrollTo({top: y0 + dy, left: window.scrollX, behavior: 'instant'});
  if (se.scrollTop !== y0) return {moved: true, where: 'page', y: se.scrollTop};
  let best = null, area = 0, seen = 0;
  for (const el of document.querySelectorAll('*')) {
    if (++seen > 20000) break;
    if (el.scrollHeight <= el.clientHeight + 1) continue;
    const oy = getComputedStyle(el).overflowY;
    if (oy !== 'auto' && oy !== 'scroll') continue;
    const r = el.getBoundingClientRect();
    const a = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) * r.width;
    if (a > area) { area = a; best = el; }
  }
  if (best) {
    const b0 = best.scrollTop;
    best.scrollTo({top: b0 + dy, behavior: 'instant'});
    if (best.scrollTop !== b0) return {moved: true, where: describe(best), y: best.scrollTop};
  }
  return {moved: false, where: 'page', y: y0};
}"""


def scroll(ctx: Ctx) -> Outcome:
    height = ctx.tab.viewport[1] if ctx.tab.viewport else 720
    amount = int(ctx.action.args.get("amount", int(height * 0.8)))
    dy = amount if ctx.action.args["direction"] == "down" else -amount
    res = ctx.tab.evaluate(_SCROLL, [dy])
    if not res["moved"]:
        edge = "bottom" if dy > 0 else "top"
        return Outcome("no_change", f"already at the {edge}: nothing left to scroll {ctx.action.args['direction']}.")
    if res["where"] == "page":
        return Outcome()
    return Outcome(changes=(f"scrolled {res['where']} to y={res['y']:.0f}",))


def go_back(ctx: Ctx) -> Outcome:
    url = ctx.tab.url
    ctx.tab.go_back(timeout_ms=ctx.timeout_ms, wait_until="domcontentloaded")
    if ctx.tab.url == url:
        return Outcome(message="There may be no previous page in this tab's history.")
    return Outcome()


def goto(ctx: Ctx) -> Outcome:
    url = str(ctx.action.args["url"])  # already resolved and checked by the executor
    status = ctx.tab.goto(url, timeout_ms=ctx.timeout_ms * 2, wait_until="domcontentloaded")
    if status is not None and status >= 400:
        return Outcome("failed", f"the server answered HTTP {status} for {url}; the browser now shows its "
                                 "error page.", MappingProxyType({"http_status": status}))
    return Outcome(status="done" if urldefrag(url)[0] == urldefrag(ctx.tab.url)[0] else None)


_FIND = """([needle, k]) => {
  const root = document.body || document.documentElement;
  if (!root) return {count: 0};
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {acceptNode: (n) =>
    (n.parentElement && !skip.has(n.parentElement.tagName)) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT});
  const nodes = [], starts = [];
  let text = '', n;
  while ((n = walker.nextNode()) && text.length < 2000000) { nodes.push(n); starts.push(text.length); text += n.data; }
  let hay = text.toLowerCase(), low = needle.toLowerCase();
  if (hay.length !== text.length) { hay = text; low = needle; }
  const locate = (i) => { let lo = 0, hi = starts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= i) lo = mid; else hi = mid - 1; } return lo; };
  const found = [];
  for (let i = hay.indexOf(low); i >= 0 && found.length < 1000; i = hay.indexOf(low, i + 1)) {
    const j = locate(i);
    if (nodes[j].parentElement.getClientRects().length) found.push(i);
  }
  if (!found.length) return {count: 0};
  const idx = k % found.length, i = found[idx], a = locate(i), b = locate(i + low.length - 1);
  const range = document.createRange();
  range.setStart(nodes[a], i - starts[a]);
  range.setEnd(nodes[b], i + low.length - starts[b]);
  const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range);
  nodes[a].parentElement.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});
  return {count: found.length, index: idx + 1};
}"""


def find_text(ctx: Ctx) -> Outcome:
    needle = str(ctx.action.args["text"]).strip()
    if not needle:
        return Outcome("failed", "find_text needs some text to look for.")
    key = (urldefrag(ctx.tab.url)[0], needle.casefold())
    k = ctx.find_state.get(key, 0)
    for frame in ctx.tab.frames:
        try:
            res = frame.evaluate(_FIND, [needle, k])
        except (PageError, ActionError):  # a detached or closed frame: search the next one
            continue
        if res["count"]:
            ctx.find_state[key] = k + 1
            where = "" if frame.is_main else f" in frame {frame.url}"
            return Outcome("done", f"match {res['index']} of {res['count']} for {needle!r} scrolled into view{where}; "
                                   "look at the next observation (find_text again goes to the next match).",
                           MappingProxyType({"count": res["count"], "index": res["index"], "frame": frame.url}))
    return Outcome("failed", f"{needle!r} does not appear in the page text (frames included).")


_READ_EL = """(el, limit) => {
  let box = el;
  const own = (el.value !== undefined && typeof el.value === 'string' && el.value) ? el.value + ' ' : '';
  for (let i = 0; i < 4 && box.parentElement && (box.innerText || '').trim().length < 3
       && (box.parentElement.innerText || '').length <= limit; i++) box = box.parentElement;
  return {text: own + (box.innerText || box.textContent || ''), matches: 1};
}"""
_READ_LABEL = """([label, limit]) => {
  const want = label.replace(/\\s+/g, ' ').trim().toLowerCase();
  const root = document.body || document.documentElement;
  if (!root || !want) return {text: '', matches: 0};
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let exact = null, first = null, matches = 0, n;
  while ((n = walker.nextNode())) {
    const p = n.parentElement;
    if (!p || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(p.tagName) || !p.getClientRects().length) continue;
    const t = n.data.replace(/\\s+/g, ' ').trim().toLowerCase();
    if (!t.includes(want)) continue;
    matches++;
    if (!first) first = p;
    if (!exact && t.replace(/[:：]$/, '').trim() === want) exact = p;
  }
  for (const e of root.querySelectorAll('[aria-label]')) {
    if ((e.getAttribute('aria-label') || '').toLowerCase().includes(want)) { matches++; if (!first) first = e; }
  }
  let box = exact || first;
  if (!box) return {text: '', matches: 0};
  // climb while the box holds nothing but the label itself (a <th>, a "Total:" span ...)
  for (let i = 0; i < 4 && box.parentElement && (box.innerText || '').trim().length <= want.length + 3; i++)
    box = box.parentElement;
  return {text: box.innerText || box.textContent || '', matches};
}"""


def deobfuscate(text: str) -> tuple[str, int]:
    """Replace private-use / unassigned code points (font-obfuscated glyphs) by "?"."""
    out, count = [], 0
    for ch in text:
        if unicodedata.category(ch) in ("Co", "Cn"):
            out.append("?")
            count += 1
        else:
            out.append(ch)
    return "".join(out), count


def _excerpt(text: str, label: str | None) -> str:
    text = re.sub(r"[ \t\u00a0]+", " ", text)
    text = re.sub(r"\s*\n\s*", "\n", text).strip()
    if len(text) <= READ_LIMIT:
        return text
    at = text.casefold().find(label.casefold()) if label else -1
    start = max(0, min(at - READ_LIMIT // 3, len(text) - READ_LIMIT)) if at >= 0 else 0
    return ("…" if start else "") + text[start : start + READ_LIMIT] + ("…" if start + READ_LIMIT < len(text) else "")


def read_text(ctx: Ctx) -> Outcome:
    label: str | None = None
    if ctx.target is not None:
        res = ctx.target.evaluate(_READ_EL, READ_LIMIT, timeout_ms=ctx.timeout_ms)
        where = f"[{ctx.target.node.eid}]"
    else:
        label = str(ctx.action.args["id_or_label"]).strip()
        res, where = {"text": "", "matches": 0}, repr(label)
        for frame in ctx.tab.frames:
            try:
                res = frame.evaluate(_READ_LABEL, [label, READ_LIMIT])
            except (PageError, ActionError):  # a detached or closed frame: try the next one
                continue
            if res["matches"]:
                break
        if not res["matches"]:
            return Outcome("failed", f"no text {label!r} on the page; use a label exactly as shown, or an element id.")
    text, replaced = deobfuscate(_excerpt(str(res["text"]), label))
    notes = []
    if res["matches"] > 1:
        notes.append(f"the label matched {res['matches']} places; this is the first (use an element id to be precise)")
    if replaced:
        notes.append(f"{replaced} character(s) shown as \"?\" are drawn by a private font and cannot be read from the "
                     "page text: read them from the screen, do not guess")
    note = (" Note: " + "; ".join(notes) + ".") if notes else ""
    return Outcome("done", f"text near {where}: \"{text}\"{note}",
                   MappingProxyType({"text": text, "replaced": replaced, "matches": res["matches"]}))


#: Handlers that start with :func:`_probe` (the executor may run the probe with the fingerprint):
#: the actions whose spec says so (``ActionSpec.probe``; a test checks every one has a handler here).
PROBED = frozenset(name for name, spec in ACTIONS.items() if spec.probe)

HANDLERS: Mapping[str, Callable[[Ctx], Outcome]] = MappingProxyType({
    "click": click, "fill": fill, "select_option": select_option, "hover": hover, "press": press,
    "scroll": scroll, "go_back": go_back, "goto": goto, "find_text": find_text, "read_text": read_text,
})

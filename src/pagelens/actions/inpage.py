"""Page actions run in the page itself, as Playwright's own calls would run them: a fill and a
selection of a main-document element, handed to the settling's call (:attr:`~pagelens.actions.ops.Outcome.act`,
:mod:`pagelens.actions.settle`), so that the settling watches each from before it runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pagelens.actions.targets import Target

__all__ = ["FILL_JS", "SELECT_JS", "SHOWN_JS", "in_page_fill"]

#: Input types Playwright's ``fill`` types into (select the text, insert the new one as typed text;
#: a number field takes only a number) and the ones whose value it sets (with ``input`` and
#: ``change``). ``contenteditable``, other kinds and an empty text keep Playwright's own fill.
_TYPED = frozenset({"", "text", "search", "email", "url", "tel", "password", "number"})
_SET = frozenset({"color", "date", "time", "datetime-local", "month", "range", "week"})
#: What JavaScript's ``Number()`` reads as a finite decimal number (Playwright refuses other text in a number field).
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")

#: ``(el, [text, set])``: Playwright's ``fill`` in the page. A field of :data:`_SET` (``set``): focused,
#: its value set, ``input`` and ``change`` fired ('malformed' when it does not take the value). A text
#: field: its text selected and the field focused, then ``text`` inserted through the browser's
#: editing (its ``maxlength`` applies; ``input`` fires, trusted, and ``change`` when the field loses
#: focus) after a cancelable ``beforeinput`` (a page that cancels it keeps its value, as for a typed
#: insert); a field that does not take the focus or the insert gets its value set the same way.
FILL_JS = """(el, [text, set]) => {
  const events = () => {
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
  };
  if (set) {
    el.focus(); el.value = text;
    if (el.value !== text) return 'malformed';
    events();
    return 'set';
  }
  if (el.tagName === 'INPUT') { el.select(); el.focus(); }
  else { el.selectionStart = 0; el.selectionEnd = el.value.length; el.focus(); }
  if (el.getRootNode().activeElement === el) {
    const before = new InputEvent('beforeinput', {inputType: 'insertText', data: text, bubbles: true,
                                                  cancelable: true, composed: true});
    if (!el.dispatchEvent(before)) return 'cancelled';
    if (document.execCommand('insertText', false, text)) return 'typed';
  }
  const own = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value');
  if (own && own.set) own.set.call(el, text); else el.value = text;
  events();
  return 'set';
}"""


def in_page_fill(t: Target, probe: Mapping[str, Any], text: str) -> tuple[str, bool] | None:
    """``(text, set)`` for :data:`FILL_JS` when the fill can run in the page as Playwright's would
    (an input or textarea of the main document); None: Playwright's fill."""
    kind = str(probe.get("type", "")) if probe.get("tag") == "input" else "textarea" if probe.get("tag") == "textarea" \
        else None
    if not text or not t.frame.is_main or kind is None:
        return None
    if kind in _SET:
        return text.strip(), True
    if kind == "number":
        return (text.strip(), False) if _NUMBER.fullmatch(text.strip()) else None
    return (text, False) if kind in _TYPED or kind == "textarea" else None


#: ``(el, value)``: Playwright's ``selectOption`` of one option by value, in the page: the option
#: selected, ``input`` and ``change`` fired on the drop-down; false when the option has gone.
SELECT_JS = """(el, value) => {
  const option = Array.from(el.options || []).find((o) => o.value === value);
  if (!option) return false;
  el.value = undefined;
  option.selected = true;
  el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"""
#: The label of the option a drop-down shows ("" when none is selected; null: not a drop-down).
SHOWN_JS = ("(el) => el.tagName !== 'SELECT' ? null : "
             "(el.selectedIndex >= 0 ? el.options[el.selectedIndex].label.trim() : '')")

"""An action's answer head, without what the client already has (pure).

The executor's feedback is written for an agent loop that shows it next to the action it
answers; an MCP answer is the result of the very call the client made, so it leaves out:

* the echo of the call (``fill("23", "Tariq"): ``): the result is paired with its call;
* ``form state changed`` when the answer reads the value back (``[23] now contains "Tariq"``), and
  that read-back itself when Enter sent the form to another address (it was typed as asked);
* the old address of a URL change (the client's last view was of it) and the new one's origin
  when it stays on the same site: ``now at /product/p121``;
* the new title when a view follows (its first line is the page with its title);
* the signal leads the feedback already states: a failure (the status says so), an address change
  (the feedback names the new address). The others (new interactive content, the page changing on
  its own, a page that could not be checked) stay, as one line.

Nothing the client has not seen is dropped: every change still reaches it, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from pagelens.actions.executor import Feedback
    from pagelens.signals.detector import Signal

__all__ = ["action_head", "relative_url", "signal_note"]

_READ_BACK = ("value", "selected")
#: Said when no signal fired (the server's instructions say what it means: no view follows, the
#: client's last view still holds).
NO_SIGNAL = "No signal."


def relative_url(url: str, base: str) -> str:
    """``url`` as a path when it is on ``base``'s origin (the client knows the site), else whole."""
    a, b = urlsplit(url), urlsplit(base)
    if a.scheme and (a.scheme, a.netloc) == (b.scheme, b.netloc):
        return (a.path or "/") + (f"?{a.query}" if a.query else "") + (f"#{a.fragment}" if a.fragment else "")
    return url


def _change(change: str, *, view_follows: bool, read_back: bool) -> str | None:
    if change.startswith("URL changed: ") and " → " in change:
        old, new = change.removeprefix("URL changed: ").split(" → ", 1)
        return f"now at {relative_url(new, old)}"
    if view_follows and change.startswith(("title is now ", "title changed: ")):
        return None
    if read_back and change == "form state changed (a field's value or selection)":
        return None
    return change


def action_head(feedback: Feedback, *, view_follows: bool) -> str:
    """The feedback of ``feedback`` as an MCP answer's first line (see the module docstring)."""
    text = feedback.message
    key = feedback.action.render()
    text = text.removeprefix(f"{key}: ")
    changes = feedback.changes
    detail = feedback.detail or {}
    moved = any(c.startswith("URL changed: ") for c in changes)
    if moved and detail.get("enter") and detail.get("value") == detail.get("requested"):
        # Enter sent the form and the page moved on: what the old page's field read back is not news
        from pagelens.actions.spec import render_value

        text = text.replace(f"[{feedback.action.args.get('id', '')}] now contains {render_value(str(detail['value']))}. ",
                            "", 1)
    if changes:
        joined = f" Changes: {'; '.join(changes)}."
        if joined in text:
            read_back = any(k in (feedback.detail or {}) for k in _READ_BACK)
            kept = [c for c in (_change(c, view_follows=view_follows, read_back=read_back) for c in changes) if c]
            text = text.replace(joined, f" {'; '.join(kept)}." if kept else "", 1)
    return text


def signal_note(signals: Sequence[Signal], feedback: Feedback | None = None) -> str:
    """The signals that fired, on one line: their plain leads, without those the feedback states
    (the view or delta after it carries the details: the new menu, the new content). "" when all
    are stated; :data:`NO_SIGNAL` when none fired."""
    if not signals:
        return NO_SIGNAL
    stated: set[str] = set()
    if feedback is not None:
        stated.add("action_failure")  # the status is in the feedback
        if any(c.startswith("URL changed: ") for c in feedback.changes):
            stated.add("url")
    leads = list(dict.fromkeys(s.statement().split(":", 1)[0] for s in signals if s.kind not in stated))
    return ("Signals: " + "; ".join(leads) + ".") if leads else ""

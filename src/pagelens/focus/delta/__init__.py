"""Delta observations: tell an agent what changed since the last view it saw, not the page again.

Pure steps on typed values, one module each:

1. :mod:`~pagelens.focus.delta.ids` — :func:`carry_ids`: element ids that survive a re-render
   (an element of a new document where an element of the last observation sat, with the same
   role, name and depth, takes over its id), and placeholder ids (``[p3]``) carried the same way;
2. :mod:`~pagelens.focus.delta.formats` — :func:`diff_views` (added / removed / changed lines,
   each after an anchor the agent has seen) and :func:`fold_view` (the new view with the runs
   the agent already has folded into ``= N lines as before: A … B``);
3. :mod:`~pagelens.focus.delta.align` — the near-linear alignment both use (patience anchors,
   ``difflib`` in small gaps);
4. :mod:`~pagelens.focus.delta.tracker` — :class:`ViewTracker` keeps what one agent (one MCP
   client, one episode) has been shown and answers each new view with the delta, the folded
   view or the view, whichever costs fewer tokens.

    tracker = ViewTracker()
    update = tracker.update(view)          # view: a PageView of the raw observation
    update.view                            # the same view with carried ids (act on these)
    update.text                            # what to send: the delta or the view
"""

from __future__ import annotations

from pagelens.focus.delta.formats import (
    COMPACT_FOLD_HEAD,
    FOLD_HEAD,
    Delta,
    DeltaLine,
    Shown,
    as_the_agent_has,
    diff_views,
    fold_view,
    mark_new,
    render,
    shown_lines,
)
from pagelens.focus.delta.ids import carry_ids
from pagelens.focus.delta.tracker import Update, ViewTracker

__all__ = ["COMPACT_FOLD_HEAD", "FOLD_HEAD", "Delta", "DeltaLine", "Shown", "Update", "ViewTracker",
           "as_the_agent_has", "carry_ids", "diff_views", "fold_view", "mark_new", "render", "shown_lines"]

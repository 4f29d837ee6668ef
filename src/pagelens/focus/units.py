"""The page as structural units: what ``default`` ranks and keeps (pure, no goal).

A *unit* is the largest small element around a line — a product card, a table row, a list
item, a label with its value, a form field with its label — so that what sits next to a match
travels with it. Every unit also knows its *partners*, kept along when it is kept:

* a table row: its table's header row (the column names a cell needs), and the other row of
  its record when a record spans two rows (:func:`record_rows`: a title row, then a row with an
  empty first cell holding its details and per-row controls);
* a form control: the buttons of its form (the submit);
* a heading: the lead of its section (the lines after it, a few dozen tokens);
* a short line (a label, a value): its neighbouring siblings (the value beside a label,
  the label above a value, a ``term`` and its ``definition``).

A field's form is the enclosing ``form`` when it is small, else the smallest ancestor with a
field and a button. A kept drop-down shows its first, selected and goal-named options only
(:func:`spare_options`; the rest stay behind a recoverable placeholder).

Everything here reads the typed fields of :class:`~pagelens.types.Line` only.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pagelens.types import Line, Rendering

CONTROL_ROLES = frozenset({
    "textbox", "searchbox", "combobox", "checkbox", "radio", "spinbutton", "listbox", "slider", "switch",
    "textarea", "ComboBoxSelect", "ComboBoxMenuButton", "TextField", "DatePicker", "InputTime", "DateTime",
})
ACTION_ROLES = frozenset({"button", "link", "menuitem", "tab", "option", "menuitemcheckbox", "menuitemradio",
                          "treeitem"})
#: Never a unit: expanding to these would keep most of the page.
BARRIER_ROLES = frozenset({"RootWebArea", "main", "document", "Iframe", "application", "WebArea"})
HEADING_ROLES = frozenset({"heading"})
TEXT_ENTRY_ROLES = frozenset({"textbox", "searchbox", "spinbutton", "combobox", "textarea"})
TABLE_ROLES = frozenset({"table", "grid", "treegrid"})
HEADER_CELL_ROLES = frozenset({"columnheader"})


def line_text(ln: Line) -> str:
    """What a line says: its name, inferred label and value (never its rendered text)."""
    parts = [ln.name]
    if ln.label:
        parts.append(ln.label)
    if ln.value:
        parts.append(ln.value)
    return " ".join(p for p in parts if p)


def shown_cost(ln: Line) -> int:
    """Tokens a kept line costs as shown (compact: no url), ~4 characters per token."""
    n = len(ln.text)
    if ln.url:
        n -= len(ln.url) + 8
    return ln.depth + (max(n, 1) + 3) // 4


#: Tokens an ancestor costs when it is shown short (role, id and a few words).
SHORT_COST = 8
#: Tokens one placeholder line costs.
PLACEHOLDER_COST = 8


@dataclass
class Page:
    lines: tuple[Line, ...]
    ends: list[int]  # subtree end (exclusive) per position
    parents: list[int]  # parent position or -1
    cost: list[int]  # tokens per line as shown
    prefix: Sequence[int] = field(default_factory=list)  # tokens before each position (n + 1 of them)

    @property
    def total(self) -> int:
        return self.prefix[-1]

    def subtree_tokens(self, i: int) -> int:
        return self.prefix[self.ends[i]] - self.prefix[i]

    def span_tokens(self, start: int, stop: int) -> int:
        return self.prefix[stop] - self.prefix[start]

    def ancestors(self, i: int) -> Iterable[int]:
        p = self.parents[i]
        while p >= 0:
            yield p
            p = self.parents[p]


def page_of(rendering: Rendering) -> Page:
    lines = rendering.lines
    n = len(lines)
    ends = [n] * n
    parents = [-1] * n
    stack: list[int] = []
    for i, ln in enumerate(lines):
        while stack and lines[stack[-1]].depth >= ln.depth:
            ends[stack.pop()] = i
        parents[i] = stack[-1] if stack else -1
        stack.append(i)
    cost = [shown_cost(ln) for ln in lines]
    # the running sums as machine integers (an int object a line otherwise: 3.3 MB of a
    # 100,000-element page's analysis, alive while focus ranks it); indexing gives the same ints
    prefix = array("q", [0]) * (n + 1)
    total = 0
    for i, c in enumerate(cost, 1):
        total += c + 1
        prefix[i] = total
    return Page(lines, ends, parents, cost, prefix)


@dataclass(frozen=True, slots=True)
class UnitLimits:
    unit_max_tokens: int = 220  # a unit is the largest ancestor at most this big...
    unit_max_lines: int = 40  # ...and at most this many lines
    form_max_tokens: int = 900  # a relevant form is kept whole up to this size
    lead_tokens: int = 160  # a heading's section lead (a recipe's ingredient list)
    neighbour_tokens: int = 24  # a sibling this small travels with a short line


def unit_of(page: Page, i: int, limits: UnitLimits) -> int:
    """Position of the largest small ancestor of line ``i`` (``i`` itself at worst)."""
    best = i
    for a in page.ancestors(i):
        ln = page.lines[a]
        if ln.role in BARRIER_ROLES:
            break
        if page.subtree_tokens(a) > limits.unit_max_tokens or page.ends[a] - a > limits.unit_max_lines:
            break
        best = a
    return best


def form_of(page: Page, i: int, limits: UnitLimits) -> int | None:
    """The enclosing ``form`` when it is not too big, else the smallest ancestor holding a
    field and a button (not one inside a widget: a date field's picker button), if small."""
    for a in page.ancestors(i):
        if page.lines[a].role in BARRIER_ROLES:
            break
        if page.lines[a].role == "form":
            if page.subtree_tokens(a) <= limits.form_max_tokens:
                return a
            break
    for a in page.ancestors(i):
        if page.lines[a].role in BARRIER_ROLES or page.subtree_tokens(a) > limits.form_max_tokens:
            return None
        roles = {page.lines[j].role for j in range(a, page.ends[a])}
        if roles & CONTROL_ROLES and "button" in roles:
            return a
    return None


def submit_buttons(page: Page, i: int) -> list[int]:
    """The buttons of the nearest enclosing ``form``, however big it is (its submit)."""
    for a in page.ancestors(i):
        if page.lines[a].role == "form":
            return [j for j in range(a, page.ends[a]) if page.lines[j].role == "button"][:6]
        if page.lines[a].role in BARRIER_ROLES:
            break
    return []


def header_row(page: Page, i: int) -> list[int]:
    """The header row (or header cells) of the table holding line ``i``: its column headers,
    or else a first row of plain data cells that name columns (text without a digit, over rows
    that hold numbers), as tables written with ``<td>`` headers do."""
    for a in page.ancestors(i):
        if page.lines[a].role in TABLE_ROLES:
            rows: list[int] = []
            for j in range(a, min(page.ends[a], a + 400)):
                if page.lines[j].role in HEADER_CELL_ROLES:
                    r = page.parents[j]
                    if r >= 0 and page.lines[r].role == "row":
                        title = list(range(r, page.ends[r]))
                        if sum(page.lines[c].role in HEADER_CELL_ROLES for c in title) == 1:
                            # one header cell over the table is its title: the columns may follow
                            after = [k for k in range(page.ends[r], min(page.ends[a], page.ends[r] + 200))
                                     if page.lines[k].role == "row"][:2]
                            title += _plain_header(page, after)
                        return title
                    return [j]
                if page.lines[j].role == "row" and len(rows) < 3:
                    rows.append(j)
            return _plain_header(page, rows)
    return []


def _cells(page: Page, r: int) -> list[int]:
    return [j for j in range(r + 1, page.ends[r]) if page.parents[j] == r and page.lines[j].role in ("cell", "gridcell")]


def _plain_header(page: Page, rows: list[int]) -> list[int]:
    """The first of ``rows`` when its 3+ cells are short names without digits and the row after
    it holds a number."""
    if len(rows) < 2:
        return []
    head, nxt = rows[0], rows[1]
    cells = _cells(page, head)
    if len(cells) < 3 or not all(0 < len(page.lines[c].name) <= 40 and not any(ch.isdigit() for ch in page.lines[c].name)
                                 for c in cells):
        return []
    if not any(any(ch.isdigit() for ch in page.lines[c].name) for c in _cells(page, nxt)):
        return []
    return list(range(head, page.ends[head]))


def row_of(page: Page, i: int) -> int | None:
    for a in (i, *page.ancestors(i)):
        role = page.lines[a].role
        if role == "row":
            return a
        if role in TABLE_ROLES or role in BARRIER_ROLES:
            return None
    return None


def following(page: Page, start: int, tokens: int, *, subtitle: bool = False) -> list[int]:
    """Lines after ``start`` in reading order, up to ``tokens``, not past a heading — except,
    with ``subtitle``, a heading that comes at once (a title's subtitle: a user name and their
    rank, a product and its maker): the lead is what follows both."""
    out: list[int] = []
    j = start
    while j < len(page.lines) and tokens > 0:
        if page.lines[j].role in HEADING_ROLES and page.lines[j].name:
            if subtitle and not out:
                subtitle = False
                out.append(j)
                tokens -= page.cost[j] + 1
                j += 1
                continue
            break
        out.append(j)
        tokens -= page.cost[j] + 1
        j += 1
    return out


def neighbours(page: Page, i: int, limits: UnitLimits) -> list[int]:
    """The small siblings just before and after line ``i`` (label <-> value), with their
    subtrees when those are small too."""
    out: list[int] = []
    p = page.parents[i]
    # next sibling: the first line after i's subtree at i's depth, under the same parent
    j = page.ends[i]
    if j < len(page.lines) and page.parents[j] == p and page.subtree_tokens(j) <= limits.neighbour_tokens:
        out.extend(range(j, page.ends[j]))
    # previous sibling: walk up from the line before i to the child of p
    k = i - 1
    while k >= 0 and k != p and page.parents[k] != p:
        k = page.parents[k]
    if k >= 0 and k != p and page.subtree_tokens(k) <= limits.neighbour_tokens:
        out.extend(range(k, page.ends[k]))
    return out


def _first_cell_empty(page: Page, r: int) -> bool:
    cells = _cells(page, r)
    return bool(cells) and not page.lines[cells[0]].name.strip() and any(page.lines[c].name.strip() for c in cells[1:])


def _sibling_row(page: Page, r: int, step: int, max_tokens: int) -> int | None:
    """The next (``step`` 1) or previous (-1) sibling row of row ``r`` with text, past rows
    without any (spacers), if small."""
    p = page.parents[r]
    j = r
    for _ in range(3):
        if step > 0:
            j = page.ends[j]
            if j >= len(page.lines) or page.parents[j] != p:
                return None
        else:
            k = j - 1
            while k > p and page.parents[k] != p:
                k = page.parents[k]
            if k <= p:
                return None
            j = k
        if page.lines[j].role != "row":
            return None
        if _cells(page, j) and any(page.lines[c].name.strip() for c in _cells(page, j)):
            return j if page.subtree_tokens(j) <= max_tokens else None
    return None


def record_rows(page: Page, u: int, limits: UnitLimits) -> list[int]:
    """Rows of the same record as the row holding ``u``: a record written over two table rows
    (a title row, then a row whose first cell is empty holding its details and controls) travels
    whole, whichever row the goal names."""
    r = row_of(page, u)
    if r is None:
        return []
    out: list[int] = []
    if _first_cell_empty(page, r):  # a continuation: its record starts in the row before
        prev = _sibling_row(page, r, -1, limits.unit_max_tokens)
        if prev is not None and not _first_cell_empty(page, prev):
            out.extend(range(prev, page.ends[prev]))
    else:
        nxt = _sibling_row(page, r, 1, limits.unit_max_tokens)
        if nxt is not None and _first_cell_empty(page, nxt):
            out.extend(range(nxt, page.ends[nxt]))
    return out


def partners(page: Page, u: int, limits: UnitLimits) -> list[int]:
    """Lines that travel with unit ``u`` (see the module docstring)."""
    ln = page.lines[u]
    out: list[int] = []
    if row_of(page, u) is not None or ln.role in ("cell", "gridcell", "row"):
        hdr = header_row(page, u)
        if u not in hdr:
            out.extend(hdr)
        out.extend(record_rows(page, u, limits))
    if ln.role in HEADING_ROLES:
        out.extend(following(page, page.ends[u], limits.lead_tokens, subtitle=True))
    if page.subtree_tokens(u) <= limits.neighbour_tokens:
        out.extend(neighbours(page, u, limits))
    for j in range(u, page.ends[u]):
        if page.lines[j].role in CONTROL_ROLES:
            out.extend(submit_buttons(page, j))
            break
    return out


_LABEL_ENDS = (":", "\uff1a")  # a label's colon, ASCII or full-width


def label_value(page: Page, u: int, tokens: int) -> list[int]:
    """What follows a label unit (its last named line ends with a colon: "Colours:", "Maintainers:")
    under the same parent, up to ``tokens``, stopping at a heading or the next label: the
    value a label announces is often a run of links or a long cell, not one small sibling."""
    last = next((j for j in range(page.ends[u] - 1, u - 1, -1) if page.lines[j].name), None)
    if tokens <= 0 or last is None or not page.lines[last].name.rstrip().endswith(_LABEL_ENDS):
        return []
    p = page.parents[u]
    stop = page.ends[p] if p >= 0 else len(page.lines)
    out: list[int] = []
    j = page.ends[u]
    while j < stop and tokens > 0:
        ln = page.lines[j]
        if ln.role in HEADING_ROLES or ln.name.rstrip().endswith(_LABEL_ENDS):
            break
        out.append(j)
        tokens -= page.cost[j] + 1
        j += 1
    return out


#: Containers of a choice's options.
CHOICE_ROLES = frozenset({"combobox", "listbox", "MenuListPopup", "ComboBoxSelect", "radiogroup"})


def spare_options(page: Page, shown: int = 3) -> frozenset[int]:
    """Options of a choice beyond its first ``shown`` that are not selected: a kept drop-down
    shows its current value and first choices; the rest stay behind a placeholder (recoverable)
    unless the goal names them."""
    out: set[int] = set()
    seen: dict[int, int] = {}
    for i, ln in enumerate(page.lines):
        if ln.role != "option":
            continue
        p = page.parents[i]
        if p < 0 or page.lines[p].role not in CHOICE_ROLES:
            continue
        n = seen[p] = seen.get(p, 0) + 1
        if n > shown and "selected" not in ln.states and page.ends[i] == i + 1:
            out.add(i)
    return frozenset(out)


def sibling_runs(page: Page) -> list[list[int]]:
    """Positions of every run of 8+ rich siblings sharing a role (posts, products, rows)."""
    kids: dict[int, list[int]] = {}
    for i in range(len(page.lines)):
        kids.setdefault(page.parents[i], []).append(i)
    runs: list[list[int]] = []
    for ch in kids.values():
        by_role: dict[str, list[int]] = {}
        for c in ch:
            by_role.setdefault(page.lines[c].role, []).append(c)
        for role, same in by_role.items():
            if role in ("StaticText", "ListMarker", "option", "generic", "none") or len(same) < 8:
                continue
            if sum(page.ends[c] - c for c in same) >= 6 * len(same):
                runs.append(same)
    return runs


def deep_items(page: Page) -> list[bool]:
    """Lines inside the items of a long listing of rich items after its first five: their
    headings are item titles, not landmarks, and their controls repeat the first items'."""
    deep = [False] * len(page.lines)
    for same in sibling_runs(page):
        for c in same[5:]:
            for j in range(c, page.ends[c]):
                deep[j] = True
    return deep


def interleaved(items: list[int], groups: list[int]) -> list[int]:
    """``items`` round-robin over their groups (in first-seen order): a long run of sibling
    controls does not crowd out the one control in another container."""
    by: dict[int, list[int]] = {}
    for k, g in zip(items, groups, strict=True):
        by.setdefault(g, []).append(k)
    runs = list(by.values())
    out: list[int] = []
    depth = 0
    while len(out) < len(items):
        out += [run[depth] for run in runs if depth < len(run)]
        depth += 1
    return out

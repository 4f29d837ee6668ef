"""``default``: the LLM-free retriever that scores structural units, not token chunks.

Classic retrievers cut the page into token chunks and rank them against the goal, which
drops what an agent needs but the goal never names: the price beside the "Add to cart"
button, the submit button of a search box, the pagination, the headings that say where you
are. This retriever instead

1. scores every line by the goal's words and concepts it contains (IDF-weighted over the
   page's lines, light stemming, numbers kept whole, multilingual UI concepts from
   :mod:`pagelens.focus.lexicon`);
2. expands each matching line to its *unit* — the largest enclosing element that is still
   small (a product card, a table row with its header row, a list item, a comment) — so
   context next to a match travels with it;
3. expands matching form controls to their whole form (fields, labels and submit button);
4. always keeps a cheap skeleton: headings, the site search, pagination and breadcrumbs;
5. keeps the best units until a soft token budget is reached ("keep when unsure").

It never sees the network or a model; it is deterministic and linear in the page size.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from pagelens.focus.base import FocusQuery, Selection
from pagelens.focus.lexicon import SUPERLATIVES
from pagelens.focus.terms import (
    ANSWER_CONCEPTS,
    WORD,
    how_stems,
    inside_word,
    is_question,
    normalise,
    query_terms,
    surface,
    terms_of,
    without_quotes,
)
from pagelens.types import Line, Rendering

_VALUE = re.compile(r" value='([^']*)'")
_URL = re.compile(r", url='[^']*'")

CONTROL_ROLES = frozenset({
    "textbox", "searchbox", "combobox", "checkbox", "radio", "spinbutton", "listbox", "slider", "switch",
    "textarea", "ComboBoxSelect", "ComboBoxMenuButton", "TextField", "DatePicker", "InputTime", "DateTime",
})
ACTION_ROLES = frozenset({"button", "link", "menuitem", "tab", "option", "menuitemcheckbox", "menuitemradio"})
#: Never a unit: expanding to these would keep most of the page.
BARRIER_ROLES = frozenset({"RootWebArea", "main", "document", "Iframe", "application", "WebArea"})
HEADING_ROLES = frozenset({"heading"})
TEXT_ENTRY_ROLES = frozenset({"textbox", "searchbox", "spinbutton", "combobox", "textarea"})
#: Goal concepts that mean "fill in a form".
FORM_INTENT = frozenset({"§login", "§register", "§password", "§email", "§username", "§payment", "§address",
                         "§phone", "§subscribe", "§filter", "§sort", "+signin", "+signup", "+login", "enter", "type",
                         "fill"})
#: Containers of form fields: matched by their own name, they stand for their fields.
FIELD_GROUP_ROLES = frozenset({"group", "form", "radiogroup"})
TABLE_ROW_ROLES = frozenset({"row"})
HEADER_CELL_ROLES = frozenset({"columnheader"})


@dataclass(frozen=True, slots=True)
class RulesConfig:
    unit_max_tokens: int = 220  # a unit is the largest ancestor at most this big
    unit_max_lines: int = 40
    form_max_tokens: int = 900  # a relevant form is kept whole up to this size
    budget_ratio: float = 0.35  # soft cap on kept tokens, as a share of the page
    min_budget_tokens: int = 1600  # ...but never below this many tokens
    small_page_tokens: int = 600  # pages this small are kept whole
    rel_threshold: float = 0.34  # units scoring below this share of the best are dropped
    skeleton_heading_tokens: float = 0.08  # headings kept while they cost less than this share
    debug_units: int = 8  # units listed in the selection's info ("top_units")
    answer_units: int = 6  # for a question, the best units also keep...
    answer_context_tokens: int = 60  # ...this many tokens of the lines that follow them


def _is_prose(ln: Line) -> bool:
    """A sentence or more of text (not a label, a name or a value)."""
    return ln.role in ("StaticText", "paragraph", "generic", "LineBreak") and ln.name.count(" ") >= 12


def _line_text(ln: Line) -> str:
    m = _VALUE.search(ln.text)
    return ln.name + (" " + m.group(1) if m else "")


@dataclass
class _Page:
    lines: tuple[Line, ...]
    ends: list[int]  # subtree end (exclusive) per position
    parents: list[int]  # parent position or -1
    cost: list[int]  # tokens per line (with indentation)
    prefix: list[int] = field(default_factory=list)
    _runs: list[tuple[str, list[int]]] | None = None
    deep: list[bool] | None = None  # see RulesRetriever._deep_items

    def sibling_runs(self) -> list[tuple[str, list[int]]]:
        """(role, positions) of every run of 4+ siblings sharing a role — rows, list items,
        articles, cards — in document order of their parents; text and markers excluded.
        Computed once per page."""
        if self._runs is None:
            kids: dict[int, list[int]] = {}
            for i in range(len(self.lines)):
                kids.setdefault(self.parents[i], []).append(i)
            runs: list[tuple[str, list[int]]] = []
            for ch in kids.values():
                by_role: dict[str, list[int]] = {}
                for c in ch:
                    by_role.setdefault(self.lines[c].role, []).append(c)
                runs += [(role, same) for role, same in by_role.items()
                         if role not in ("StaticText", "ListMarker", "option") and len(same) >= 4]
            self._runs = runs
        return self._runs

    def subtree_tokens(self, i: int) -> int:
        return self.prefix[self.ends[i]] - self.prefix[i]

    def ancestors(self, i: int) -> Iterable[int]:
        p = self.parents[i]
        while p >= 0:
            yield p
            p = self.parents[p]


def _page(rendering: Rendering) -> _Page:
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
    # a budget needs sizes, not exact counts: ~4 characters per o200k token, plus indentation
    cost = [ln.depth + (len(_URL.sub("", ln.text)) + 3) // 4 for ln in lines]  # as shown: no url=
    prefix = [0]
    for c in cost:
        prefix.append(prefix[-1] + c + 1)
    return _Page(lines, ends, parents, cost, prefix)


class RulesRetriever:
    """The embedded default retriever. Deterministic, no model, no network."""

    name = "default"

    def __init__(self, config: RulesConfig | None = None) -> None:
        self.config = config or RulesConfig()

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        cfg = self.config
        lines = rendering.lines
        if not lines:
            return Selection(keep=frozenset())
        page = _page(rendering)
        total = page.prefix[-1]
        if total <= cfg.small_page_tokens:
            return Selection(keep=frozenset(ln.no for ln in lines), info={"reason": "small page kept whole"})

        weights, phrases = query_terms(query)
        line_terms = [terms_of(_line_text(ln)) if ln.name or " value=" in ln.text else set() for ln in lines]
        n = len(lines)
        df: dict[str, int] = {}
        for ts in line_terms:
            for t in ts:
                if t in weights:
                    df[t] = df.get(t, 0) + 1

        # a goal word inside a longer page word counts too: "total" in "Subtotal", "price" in
        # "Pricelist" (compounds; stems of 4+ letters, so "car" does not hit "card")
        parts = sorted((t for t in weights if t.isalpha() and len(t) >= 4), key=len, reverse=True)
        inner = re.compile("|".join(map(re.escape, parts))) if parts else None
        matched: list[set[str]] = [set()] * n
        for i, ts in enumerate(line_terms):
            if ts:
                hit = {t for t in ts if t in weights}
                if phrases or inner is not None:
                    low = normalise(_line_text(lines[i]))
                    hit |= {"\"" + p for p in phrases if p in low}
                    if inner is not None:
                        hit |= {m.group(0) for m in inner.finditer(low) if inside_word(low, m.start(), m.end())}
                if hit:
                    matched[i] = hit
                for t in hit - ts:
                    if t in weights:
                        df[t] = df.get(t, 0) + 1  # a compound hit counts in the term's frequency
        idf = {t: math.log((n + 1) / (df.get(t, 0) + 0.5)) for t in weights}
        # a joined pair ("log in" -> "login") weighs only where the page spells it that way
        goal_mass = sum(idf[t] * w for t, w in weights.items() if t[0] != "+" or df.get(t)) or 1.0

        def mass(terms: set[str]) -> float:
            return sum(goal_mass * 0.5 if t[0] == '"' else idf[t] * weights[t] for t in terms) / goal_mass

        # "what" terms name the content (headphones, Bayern); "how" terms name the UI
        # (add, cart, price, log in). When the page has any of the goal's content, units are
        # ranked by it and the UI words only break ties; otherwise the UI words decide.
        # a UI word that is rare on the page ("total" on a cart page) discriminates like content
        how = {t for t in weights if t[0] == "§" or (t in how_stems() and df.get(t, 0) > 2)}
        question = is_question(query.goal)
        if question:
            # a question asks for a kind of value (a phone number, a price, a byline): lines
            # carrying that kind of value are content, not UI
            how -= {t for t in how if t[0] == "§" and t[1:] in ANSWER_CONCEPTS}
        what_present = [t for t in weights if t not in how and t[0] != "+" and df.get(t)]
        what_mass = sum(idf[t] * weights[t] for t in what_present)
        how_mass = sum(idf[t] * weights[t] for t in how if df.get(t)) or 1.0

        # content words the page's title or first heading already carries say we are on the
        # right page, not where on it: they rank units at a third of their weight
        topic = self._topic_terms(page, weights)
        topic_share = sum(idf[t] * weights[t] for t in what_present if t in topic) / (what_mass or 1.0)
        if topic_share > 0.999:
            topic = set()  # the goal names nothing but the page's topic: nothing to discount

        def rank(terms: set[str]) -> float:
            h = sum(idf[t] * weights[t] for t in terms if t in how) / how_mass
            if what_mass <= 0:
                return h + sum(0.5 for t in terms if t[0] == '"')
            w = sum(idf[t] * weights[t] * (0.34 if t in topic else 1.0) for t in terms
                    if t not in how and t[0] not in '+"') / what_mass
            # joined pairs confirm a spelling; a sentence repeating the goal must not outrank
            # everything through them
            joined = min(0.5, sum(idf[t] * weights[t] for t in terms if t[0] == "+") / what_mass)
            return w + joined + 0.3 * h + sum(0.5 for t in terms if t[0] == '"')

        keep: set[int] = set()
        skeleton = self._skeleton(page, total)
        keep |= skeleton

        # units: the largest small ancestor of each matching line, scored by the goal
        # terms found anywhere in it (a table row also by its header row)
        unit_terms: dict[int, set[str]] = {}
        form_hits: dict[int, list[set[str]]] = {}
        submits: set[int] = set()  # the buttons of any <form> holding a matched field
        section_hits: dict[tuple[int, int], set[str]] = {}
        # a goal that acts is matched by labels and controls; prose (terms and conditions
        # that mention "credit card" ten times) counts at half
        acting = not question
        label_terms: dict[int, set[str]] = {}
        for i in range(n):
            hit = matched[i]
            if not hit:
                continue
            u = self._unit(page, i)
            unit_terms.setdefault(u, set()).update(hit)
            if not (acting and _is_prose(lines[i])):
                label_terms.setdefault(u, set()).update(hit)
            if lines[i].role in CONTROL_ROLES or lines[i].role in ("button", "option"):
                f = self._form(page, i)
                if f is not None and f != u:
                    form_hits.setdefault(f, []).append(hit)
                if lines[i].role in CONTROL_ROLES:  # a field's submit; not every vote form's buttons
                    submits.update(self._submit_buttons(page, i))
            if lines[i].role in HEADING_ROLES:
                sec = self._section(page, i)
                if sec is not None:
                    section_hits[sec] = hit
        # a table row that a rare goal word picks out also answers the words of its column
        # headers ("Portugal" row + "2019" column; "E0150" row + "Job title" column) — not a
        # row that merely shares a common word ("example.org") with the goal
        header_terms: dict[int, set[str]] = {}
        for u, ts in unit_terms.items():
            if lines[u].role in TABLE_ROW_ROLES and any(df.get(t, 0) <= 3 for t in ts - how if t[0] not in '+"'):
                hdr = self._header_row(page, u)
                if hdr and u not in hdr:
                    key = hdr[0]
                    if key not in header_terms:
                        header_terms[key] = set().union(*(matched[j] for j in hdr))
                    unit_terms[u] = ts | header_terms[key]
                    label_terms[u] = label_terms.get(u, set()) | header_terms[key]
        units = {u: max(rank(label_terms.get(u, set())), 0.5 * rank(ts)) if acting else rank(ts)
                 for u, ts in unit_terms.items()}
        spans: dict[int, range] = {}
        for f, hits in form_hits.items():  # a form: as good as its best field, not their union
            units[f] = max(units.get(f, 0.0), 0.9 * max(rank(h) for h in hits))
        for (h, end), hit in section_hits.items():  # a heading with the content it introduces
            key = -1 - h  # negative keys: spans, not subtrees
            units[key] = 0.9 * rank(hit)
            spans[key] = range(h, end)
        # a control matching the goal's action words that is rare on the page (the one
        # "Add to cart" of a product page) stays, even when the goal's content words matched
        # elsewhere (the product's title)
        # (rarity per action word: "sort" names one navigation even when "post" is everywhere)
        by_how: dict[str, list[int]] = {}
        for u, ts in unit_terms.items():
            if ts & how and any(lines[j].role in CONTROL_ROLES or lines[j].role in ACTION_ROLES
                                for j in range(u, page.ends[u])):
                for t in ts & how:
                    by_how.setdefault(t, []).append(u)
        top = max(units.values(), default=0.0)
        for t, action_units in by_how.items():
            if len(action_units) <= 4:
                for u in action_units:
                    units[u] = max(units[u], top * (cfg.rel_threshold + 0.01))
        # how well the page answers the goal at all: a row also counts its header's words
        # ("closing date" of a bank row), which do not discriminate between rows
        coverage = max((mass(ts) for ts in unit_terms.values()), default=0.0)
        for u, ts in unit_terms.items():
            if u >= 0 and lines[u].role in TABLE_ROW_ROLES:
                hdr = self._header_row(page, u)
                key = hdr[0] if hdr else -1
                if key not in header_terms:
                    header_terms[key] = set().union(*(matched[j] for j in hdr)) if hdr else set()
                coverage = max(coverage, mass(ts | header_terms[key]))
        best = max(units.values(), default=0.0)
        # a goal that fills something in (sign in, pay, register, "enter X") needs the page's
        # forms even when their labels share no word with it ("Member number", "Secret phrase")
        # (after the units that matched, budget permitting)
        if weights.keys() & FORM_INTENT:
            for f in self._forms(page):
                units[f] = max(units.get(f, 0.0), best * (cfg.rel_threshold + 0.01) if best > 0 else 1.0)
            best = max(units.values(), default=0.0)
        budget = max(cfg.min_budget_tokens, int(total * cfg.budget_ratio))
        spent = sum(page.cost[i] + 1 for i in keep)
        ranked = sorted(units.items(), key=lambda kv: (-kv[1], kv[0]))
        chosen = 0
        seen: set[tuple[str, ...]] = set()
        for u, s in ranked:
            if s < best * cfg.rel_threshold and chosen >= 1:
                break
            span: Sequence[int]
            if u < 0:
                span = spans[u]
            elif page.subtree_tokens(u) > max(cfg.unit_max_tokens, cfg.form_max_tokens):
                # a big container matched by its own name ("Card information"): its line and
                # the fields and buttons in it with their labels, not their option lists
                span = (self._controls_in(page, u, cfg.form_max_tokens) if lines[u].role in FIELD_GROUP_ROLES
                        else range(u, u + 1))
            else:
                span = range(u, page.ends[u])
            # a unit repeating one already kept word for word (the same notice in every form)
            # tells the agent nothing new
            signature = tuple(lines[j].role + " " + lines[j].name for j in span if lines[j].name)
            if signature in seen:
                continue
            seen.add(signature)
            extra = [j for j in span if j not in keep]
            # table rows travel with their header row
            if u >= 0 and lines[u].role in TABLE_ROW_ROLES:
                extra += [j for j in self._header_row(page, u) if j not in keep]
            cost = sum(page.cost[j] + 1 for j in extra)
            if spent + cost > budget and chosen >= 1:
                continue  # soft: a smaller, lower-ranked unit may still fit
            keep.update(extra)
            spent += cost
            chosen += 1
            if question and chosen <= cfg.answer_units:
                # the answer to a question often follows what it names: "Gewicht: 186 g" a few
                # lines after the product, the "Stand" date under the title
                after = self._following(page, spans[u].stop if u < 0 else page.ends[u], cfg.answer_context_tokens)
                keep.update(after)
                spent += sum(page.cost[j] + 1 for j in after)
        keep.update(submits)
        # "the newest post", "the cheapest kettle", "the top thread": the answer is at one end
        # of a (usually sorted) listing — keep the head of the page's main repeated structure
        own = normalise(without_quotes(query.goal))  # "titled 'Best ...'" asks for no extreme
        if set(WORD.findall(own)) & SUPERLATIVES or any(w in own for w in SUPERLATIVES if not w.isascii()):
            keep.update(self._listing_head(page, budget // 4))
            # ...but sorted by something else, the extreme can be any item: keep every item's
            # name and the values to compare (numbers, goal words), not its prose
            content = [bool(m - how) for m in matched]
            keep.update(self._listing_projection(page, matched, content, budget // 2))
        if coverage < 0.4:
            # nothing on the page clearly matches the goal: be soft, show the controls too
            keep |= self._controls(page, budget - spent)
        info = {
            "units": len(units),
            "chosen_units": chosen,
            "budget_tokens": budget,
            "skeleton_lines": len(skeleton),
            "query_terms": sorted(weights)[:40],
            # why the first units were kept: [line id, score, goal terms it matched]
            "top_units": [[lines[u if u >= 0 else -1 - u].no, round(sc, 3),
                           sorted(unit_terms.get(u if u >= 0 else -1 - u, ()))[:8]]
                          for u, sc in ranked[: cfg.debug_units]],
        }
        return Selection(keep=frozenset(lines[i].no for i in keep), info=info)

    # -- building blocks ------------------------------------------------------------------
    @staticmethod
    def _topic_terms(page: _Page, weights: dict[str, float]) -> set[str]:
        """Goal terms in the page title (the root's name) or the first heading."""
        text: list[str] = []
        for ln in page.lines[:400]:
            if ln.role in ("RootWebArea", "WebArea") and not text:
                text.append(ln.name)
            elif ln.role in HEADING_ROLES:
                text.append(ln.name)
                break
        return terms_of(" ".join(text)) & weights.keys() if text else set()

    def _unit(self, page: _Page, i: int) -> int:
        cfg = self.config
        best = i
        for a in page.ancestors(i):
            ln = page.lines[a]
            if ln.role in BARRIER_ROLES:
                break
            if page.subtree_tokens(a) > cfg.unit_max_tokens or page.ends[a] - a > cfg.unit_max_lines:
                break
            best = a
        return best

    def _form(self, page: _Page, i: int) -> int | None:
        """Smallest ancestor holding a field and a button, if it is not too big."""
        cfg = self.config
        for a in page.ancestors(i):
            ln = page.lines[a]
            if ln.role in BARRIER_ROLES or page.subtree_tokens(a) > cfg.form_max_tokens:
                return None
            roles = {page.lines[j].role for j in range(a, page.ends[a])}
            if roles & CONTROL_ROLES and "button" in roles:
                return a
        return None

    def _section(self, page: _Page, h: int) -> tuple[int, int] | None:
        """A heading and the siblings after it, up to the next heading (bounded)."""
        depth = page.lines[h].depth
        j = page.ends[h]
        spent = page.subtree_tokens(h)
        while j < len(page.lines) and page.lines[j].depth >= depth:
            ln = page.lines[j]
            if ln.depth == depth and ln.role in HEADING_ROLES:
                break
            spent += page.cost[j] + 1
            if spent > self.config.unit_max_tokens * 2:
                return None  # a heading over a long listing: the section is not a unit
            j += 1
        return (h, j) if j > page.ends[h] else None

    @staticmethod
    def _controls_in(page: _Page, u: int, tokens: int) -> list[int]:
        out = [u]
        j = u + 1
        while j < page.ends[u] and tokens > 0:
            ln = page.lines[j]
            if ln.role in ("option", "MenuListPopup", "listbox") and page.parents[j] != u:
                j = page.ends[j]  # an option list: the field's value says enough
                continue
            label = ln.role in ("LabelText", "Legend") or (
                ln.role == "StaticText" and page.lines[page.parents[j]].role in ("LabelText", "Legend"))
            if label or ln.role in CONTROL_ROLES or ln.role in ACTION_ROLES:
                out.append(j)
                tokens -= page.cost[j] + 1
            j += 1
        return out

    @staticmethod
    def _following(page: _Page, start: int, tokens: int) -> list[int]:
        """Lines after ``start`` in reading order, up to ``tokens``, not past a heading."""
        out: list[int] = []
        j = start
        while j < len(page.lines) and tokens > 0:
            if page.lines[j].role in HEADING_ROLES:
                break
            out.append(j)
            tokens -= page.cost[j] + 1
            j += 1
        return out

    def _listing_head(self, page: _Page, budget: int, items: int = 3) -> set[int]:
        """The first few items of the largest run of same-role siblings (rows, posts, cards)."""
        runs = page.sibling_runs()
        best = max(runs, key=lambda run: len(run[1])) if runs else None  # the first of the largest
        out: set[int] = set()
        if best is None:
            return out
        spent = 0
        for c in best[1]:
            if page.lines[c].role == "row" and any(page.lines[j].role == "columnheader" for j in range(c, page.ends[c])):
                continue  # a header row is not an item
            span = range(c, page.ends[c])
            cost = sum(page.cost[j] + 1 for j in span)
            if spent + cost > budget:
                break
            out.update(span)
            spent += cost
            items -= 1
            if items == 0:
                break
        return out

    def _listing_projection(self, page: _Page, matched: list[set[str]], content: list[bool],
                            budget: int) -> set[int]:
        """Name and comparable values of every item of the listing the goal hits most (of
        the items the goal's content words hit, when some are: "the cheapest *kettle*")."""
        best: tuple[int, int, list[int]] | None = None  # (items hit, items, children)
        for same in self._listings(page):
            hits = sum(1 for c in same if any(matched[j] for j in range(c, page.ends[c])))
            if best is None or (hits, len(same)) > best[:2]:
                best = (hits, len(same), same)
        out: set[int] = set()
        if best is None:
            return out
        named_items = [c for c in best[2] if any(content[j] for j in range(c, page.ends[c]))]
        if named_items:
            best = (best[0], len(named_items), named_items)
        named = {c: [j for j in range(c, page.ends[c]) if page.lines[j].name and page.lines[j].role != "ListMarker"]
                 for c in best[2]}
        # the values to compare are the lines the goal's words hit ("cheapest" -> prices);
        # when none is hit, any short line with a number
        by_goal = sum(1 for c in best[2] if any(matched[j] for j in named[c][1:])) >= len(best[2]) // 2

        def value(j: int) -> bool:
            if by_goal:
                return bool(matched[j])
            return len(page.lines[j].name) <= 40 and any(ch.isdigit() for ch in page.lines[j].name)

        # a line every item repeats ("Add to cart", "Select") is not a value to compare
        seen_in: dict[str, int] = {}
        for c in best[2]:
            for name in {page.lines[j].name for j in named[c][1:]}:
                seen_in[name] = seen_in.get(name, 0) + 1
        common = {name for name, k in seen_in.items() if k > len(best[2]) // 2}
        spent = 0
        for c in best[2]:
            pick = named[c][:1] + [j for j in named[c][1:] if page.lines[j].name not in common and value(j)]
            if pick and page.lines[pick[0]].role in HEADING_ROLES:
                pick += range(pick[0], page.ends[pick[0]])  # the item's name with its link
            cost = sum(page.cost[j] + 1 for j in pick if j not in out)
            if spent + cost > budget:
                break
            out.update(pick)
            spent += cost
        return out

    @staticmethod
    def _listings(page: _Page) -> list[list[int]]:
        """The page's listings: its sibling runs, less runs of bare containers."""
        return [same for role, same in page.sibling_runs() if role not in ("generic", "none")]

    @staticmethod
    def _submit_buttons(page: _Page, i: int) -> list[int]:
        """The buttons of the nearest enclosing ``form``, however big it is (its submit)."""
        for a in page.ancestors(i):
            if page.lines[a].role == "form":
                return [j for j in range(a, page.ends[a]) if page.lines[j].role == "button"][:6]
            if page.lines[a].role in BARRIER_ROLES:
                break
        return []

    def _forms(self, page: _Page) -> list[int]:
        """Containers of text fields with their button (see :meth:`_form`), in page order."""
        seen: list[int] = []
        for i, ln in enumerate(page.lines):
            if ln.role in TEXT_ENTRY_ROLES:
                f = self._form(page, i)
                if f is not None and f not in seen:
                    seen.append(f)
        return seen

    def _header_row(self, page: _Page, row: int) -> list[int]:
        for a in page.ancestors(row):
            if page.lines[a].role in ("table", "grid", "treegrid"):
                for j in range(a, page.ends[a]):
                    if page.lines[j].role in HEADER_CELL_ROLES:
                        r = page.parents[j]
                        return list(range(r, page.ends[r])) if r >= 0 else [j]
                return []
        return []

    def _skeleton(self, page: _Page, total: int) -> set[int]:
        """Headings (while cheap), site search, pagination, breadcrumbs, the root."""
        cfg = self.config
        lines = page.lines
        keep: set[int] = {0}
        single, _ = surface()
        heading_budget = total * cfg.skeleton_heading_tokens
        deep = self._deep_items(page)
        spent = 0
        for i, ln in enumerate(lines):
            role = ln.role
            if role in HEADING_ROLES and spent < heading_budget and not deep[i]:
                keep.add(i)
                spent += page.cost[i]
            elif role == "searchbox" or (role in TEXT_ENTRY_ROLES and self._in_search(page, i)):
                # the site search: the field and its submit button, not a whole filter form
                keep.add(i)
                f = self._form(page, i)
                if f is not None:
                    keep.update(j for j in range(f, page.ends[f]) if lines[j].role == "button")
            elif role in ("link", "button") and self._is_pagination(ln, single):
                keep.add(i)
            elif role == "navigation" and "breadcrumb" in ln.name.lower() and page.subtree_tokens(i) <= 300:
                keep.update(range(i, page.ends[i]))
        return keep

    @staticmethod
    def _in_search(page: _Page, i: int) -> bool:
        for a in page.ancestors(i):
            if page.lines[a].role == "search":
                return True
        return False

    @staticmethod
    def _is_pagination(ln: Line, single: dict[str, set[str]]) -> bool:
        name = normalise(ln.name).strip()
        if not name or len(name) > 24:
            return False
        if name.isdigit() and len(name) <= 4:
            return True
        words = WORD.findall(name)
        if name in ("›", "»", "‹", "«", "→", "←", ">", "<", ">>", "<<"):
            return True
        if 0 < len(words) <= 3:
            concepts = set().union(*(single.get(w, set()) for w in words))
            if concepts & {"next", "previous", "show_more"} and ("page" in name or len(words) <= 2):
                return True
        return False

    def _deep_items(self, page: _Page) -> list[bool]:
        """Lines inside the items of a long listing of rich items (posts, products, rows of
        cards) after its first five items. Their headings are item titles, not landmarks,
        and their controls repeat the first items'. Computed once per page."""
        if page.deep is not None:
            return page.deep
        deep = page.deep = [False] * len(page.lines)
        for same in self._listings(page):
            if len(same) < 8 or sum(page.ends[c] - c for c in same) < 6 * len(same):
                continue
            for c in same[5:]:
                for j in range(c, page.ends[c]):
                    deep[j] = True
        return deep

    def _controls(self, page: _Page, budget: int) -> set[int]:
        """No line clearly matched the goal: keep the page's controls, most useful first —
        form fields and buttons, then links of the main content, then other links; in a
        long listing, only its first items' (the rest repeat them)."""
        deep = self._deep_items(page)
        in_main = [False] * len(page.lines)
        for i, ln in enumerate(page.lines):
            p = page.parents[i]
            in_main[i] = ln.role == "main" or (p >= 0 and in_main[p])
        tiers: list[list[int]] = [[], [], []]
        for i, ln in enumerate(page.lines):
            if deep[i]:
                continue
            if ln.role in CONTROL_ROLES or ln.role in ("button", "tab", "menuitem"):
                tiers[0].append(i)
            elif ln.role in ACTION_ROLES:
                tiers[1 if in_main[i] else 2].append(i)
        out: set[int] = set()
        spent = 0
        # the hundredth "Upvote" or "Share" of a listing says nothing the first ones did not
        # (and is useless without its item): a few of each kind are enough
        times: dict[tuple[str, str], int] = {}
        for tier in tiers:
            for i in tier:
                kind = (page.lines[i].role, page.lines[i].name)
                if times.get(kind, 0) >= 3:
                    continue
                if spent + page.cost[i] > budget:
                    return out
                times[kind] = times.get(kind, 0) + 1
                out.add(i)
                spent += page.cost[i] + 1
        return out

"""Where a focused view's tokens go (issue 9, twenty-fifth focus pass) and arms of view switches.

``split`` focuses every goal of a group (``focus_tail.GROUPS``) with ``default`` and attributes each shown line of
the view to what put it there — the skeleton, a form / extreme projection (``extra``), the cores pass (ranked
units' own lines), the fill loop (a ranked unit's own lines, or partners / answer context / form), the two
allowances (``nearby``, ``unfit``), the gap closer, the always-kept lines, a cheap run shown instead of its
placeholder, an ancestor shown short to hold the tree together, a placeholder, a folded notice's placeholder,
a redaction or warning marker — and sums each kind's tokens (each line counted alone, its indentation apart).
It spies on the fill's passes (wrapping their functions for the run only); the view is unchanged.

``run`` focuses every goal with each arm ``retriever[@budget][:lean]`` (``lean``: a view switch of
:func:`pagelens.focus.apply.focus`, ``""`` = the renderer's default) and writes per goal the items kept and the
pruning, like ``focus_tail.py run``.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_lean.py split --group choose --cache runs/rp --json runs/lean/split.json
    PYTHONPATH=src .venv/bin/python benchmarks/focus_lean.py run --group choose --cache runs/rp \
        --arm default@0.29 --arm default@0.29:short --json runs/lean/arms.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Self

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from focus_tail import _retriever, load  # noqa: E402
from realpage_goals import items_ok, renderings  # noqa: E402

KINDS = ("skeleton", "extra", "cores", "fill_own", "fill_partner", "nearby", "unfit", "gaps", "always", "cheap_run",
         "whole", "ancestor", "placeholder", "fold", "marker")


class Spy:
    """Records, for one ``focus`` call, which pass of the fill added which line (page positions) and what the
    renderer was asked to show."""

    def __init__(self) -> None:
        self.rec: dict[str, Any] = {}
        self._undo: list[tuple[Any, str, Any]] = []

    def _patch(self, owner: Any, name: str, make: Any) -> None:
        old = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        self._undo.append((owner, name, old))
        setattr(owner, name, make(old.__func__ if isinstance(old, staticmethod) else old))

    def __enter__(self) -> Self:
        from pagelens.focus import apply, cores, nearby, rules, unfit

        rec = self.rec

        def positions(pa: Any, span: Any) -> set[int]:
            return {pa.page.lines[i].no for i in span}

        def skel(old: Any) -> Any:
            def f(pa: Any, tokens: int, cost_of: Any) -> list[int]:
                out = old(pa, tokens, cost_of)
                rec.setdefault("skeleton", set()).update(positions(pa, out))
                return out
            return staticmethod(f)

        def fill(old: Any) -> Any:
            def f(self_: Any, query: Any, pa: Any, order: list[int], budget: int, extra: list[int], line_terms: Any = None) -> Any:
                rec["pa"], rec["order"], rec["order_list"] = pa, set(order), list(order)
                rec.setdefault("extra", set()).update(positions(pa, extra))
                keep, spent, chosen = old(self_, query, pa, order, budget, extra, line_terms)
                rec["fill"] = positions(pa, keep)
                return keep, spent, chosen
            return f

        def cores_first(old: Any) -> Any:
            def f(pa: Any, order: Any, tokens: int, add: Any, *a: Any, **kw: Any) -> int:
                def add2(span: Any) -> None:
                    span = list(span)
                    rec.setdefault("cores", set()).update(positions(pa, span))
                    add(span)
                return old(pa, order, tokens, add2, *a, **kw)
            return f

        def after(key: str) -> Any:
            def wrap(old: Any) -> Any:
                def f(pa_or_page: Any, keep: set[int], *a: Any, **kw: Any) -> int:
                    before = set(keep)
                    out = old(pa_or_page, keep, *a, **kw)
                    page = getattr(pa_or_page, "page", pa_or_page)
                    rec.setdefault(key, set()).update(page.lines[i].no for i in keep - before)
                    return out
                return f
            return wrap

        def build(old: Any) -> Any:
            def f(rendering: Any, keep: set[int], **kw: Any) -> Any:
                rec["shown_keep"], rec["short"] = set(keep), set(kw.get("short", ()))
                rec["redact"] = set(kw.get("redact", ()))
                return old(rendering, keep, **kw)
            return f

        self._patch(rules.RulesRetriever, "_skeleton", skel)
        self._patch(rules.RulesRetriever, "_fill", fill)
        self._patch(cores, "cores_first", cores_first)
        self._patch(nearby, "bring", after("nearby"))
        self._patch(unfit, "after_fill", after("unfit"))
        self._patch(rules, "close_gaps", after("gaps"))
        self._patch(apply, "build_lines", build)
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, old in reversed(self._undo):
            setattr(owner, name, old)


def kind_of(ol: Any, rec: dict[str, Any], units_of: Any) -> str:
    """What put the view's line ``ol`` there (one of :data:`KINDS`)."""
    if ol.no is None:
        if ol.folded:
            return "fold"
        if ol.pid is None and (ol.text.startswith("[") and not ol.text.startswith("[p") or not ol.pruned):
            return "marker"  # a redaction marker or a warning (an id-less run of hidden lines: a placeholder)
        return "placeholder"
    no = ol.no
    if "shown_keep" in rec and "fill" not in rec:
        return "whole"
    if no in rec.get("short", ()):
        return "ancestor"
    if no not in rec.get("shown_keep", ()):
        return "cheap_run"
    for k in ("skeleton", "extra", "cores"):
        if no in rec.get(k, ()):
            return k
    if no in rec.get("fill", ()):
        return "fill_own" if units_of(no) in rec.get("order", ()) else "fill_partner"
    for k in ("nearby", "unfit", "gaps"):
        if no in rec.get(k, ()):
            return k
    return "always"


def split(args: argparse.Namespace) -> None:
    from pagelens import tokens
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery

    goals = load(args.group)[: args.limit or None]
    parsed = renderings(goals, args.cache, args.pages)
    ret = _retriever(args.retriever)
    toks: Counter[str] = Counter()
    indent: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    names = Counter()  # ancestors: tokens of their cut names
    total = 0
    views = []
    for g in goals:
        r = parsed[g["page"]]
        with Spy() as spy:
            res = focus(r, FocusQuery(goal=g["goal"], budget=args.budget), ret)
        rec = spy.rec
        pa = rec.get("pa")
        pos = {ln.no: i for i, ln in enumerate(pa.page.lines)} if pa is not None else {}

        def units_of(no: int, pa: Any = pa, pos: dict[int, int] = pos) -> int:
            i = pos.get(no)
            return -2 if i is None else pa.units.of_line[i]

        per: Counter[str] = Counter()
        for ol in res.lines:
            k = kind_of(ol, rec, units_of)
            whole = tokens.count("\t" * ol.depth + ol.text)
            own = tokens.count(ol.text)
            toks[k] += whole
            per[k] += whole
            indent[k] += whole - own
            lines[k] += 1
            if k == "ancestor" and "'" in ol.text:
                names["ancestor_name"] += tokens.count(ol.text[ol.text.index("'"):])
        total += res.focused_tokens
        if args.further:  # what further renderer changes would save (measured, not candidates of this pass)
            text = res.text()
            for name, alt in _further(res).items():
                names[name] += res.focused_tokens - tokens.count(alt)
            names["view"] += tokens.count(text)
        views.append({"set": g.get("set", ""), "goal": g["goal"][:80], "full": res.full_tokens,
                      "focused": res.focused_tokens, "tokens": dict(per)})
    s = sum(toks.values())
    print(f"goals {len(goals)}; focused tokens (views counted whole) {total}; lines counted alone {s}")
    print("| kind | lines | tokens | share | of it: indentation | tokens / line |")
    print("|---|---|---|---|---|---|")
    for k in KINDS:
        if lines[k]:
            print(f"| {k} | {lines[k]} | {toks[k]} | {toks[k] / s:.1%} | {indent[k]} | {toks[k] / lines[k]:.1f} |")
    print(f"ancestors' cut names (from the quote): {names['ancestor_name']} tokens")
    for k in _FURTHER:
        if names[k]:
            print(f"further, not a candidate: {k}: {names[k]} tokens ({names[k] / max(1, names['view']):.1%} of the views)")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"tokens": toks, "lines": lines, "indent": indent, "names": names,
                                               "total": total, "views": views}, indent=1))


_FURTHER = ("spaces", "no_visible", "no_control_clickable", "text_quotes")
_CONTROLS = ("link", "button", "checkbox", "radio", "switch", "tab", "menuitem", "option", "combobox", "textbox",
             "searchbox", "spinbutton", "slider")


def _further(res: Any) -> dict[str, str]:
    """The view's text under each further change alone: nested by one space per level; without ``, visible``;
    without ``, clickable`` on a control's line (its role says it); a text node as its quoted text only."""
    import re

    lines = res.lines
    vis = re.compile(r", visible(?=,|$)")
    clk = re.compile(r"^(\[\d+\] (?:" + "|".join(_CONTROLS) + r") .*?), clickable(?=,|$)")

    def join(f: Any, indent: str = "\t") -> str:
        return "\n".join(indent * ol.depth + f(ol.text) for ol in lines)

    return {"spaces": join(lambda t: t, " "), "no_visible": join(lambda t: vis.sub("", t)),
            "no_control_clickable": join(lambda t: clk.sub(r"\1", t)),
            "text_quotes": join(lambda t: t[len("StaticText "):] if t.startswith("StaticText '") else t)}


def _arm(spec: str) -> tuple[str, float | None, str]:
    head, _, lean = spec.partition(":")
    name, _, budget = head.partition("@")
    return name, float(budget) if budget else None, lean


def run(args: argparse.Namespace) -> None:
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery

    goals = load(args.group)[: args.limit or None]
    parsed = renderings(goals, args.cache, args.pages)
    arms = [(a, *_arm(a)) for a in args.arm]
    rets = {name: _retriever(name) for _, name, _, _ in arms}
    out = []
    fmt_full: dict[tuple[str, str], int] = {}  # (page, lean parts) -> the full tree's tokens in that view's format
    for g in goals:
        r = parsed[g["page"]]
        row: dict[str, Any] = {"set": g.get("set", ""), "page": g["page"], "goal": g["goal"], "arms": {}}
        memo: dict[tuple[str, float | None], Any] = {}  # one selection per retriever and budget: lean arms only render
        for label, name, budget, lean in arms:
            kw = {"lean": lean} if lean else {}
            ret = _Memo(rets[name], memo, (name, budget))
            res = focus(r, FocusQuery(goal=g["goal"], budget=budget), ret, **kw)
            row["arms"][label] = {"ok": items_ok(r, res, g["must_keep"]), "pruning": res.pruning,
                                  "tokens": res.focused_tokens, "full": res.full_tokens}
            fmt = "+".join(sorted(set(lean.replace(",", "+").split("+")) & {"terse", "nest"}))
            if fmt:  # what the full tree itself costs written the same way (the part of a gain a format gives)
                if (g["page"], fmt) not in fmt_full:
                    fmt_full[(g["page"], fmt)] = _full_as(r, fmt)
                row["arms"][label]["full_fmt"] = fmt_full[(g["page"], fmt)]
        out.append(row)
    print(summary(out))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(out))


def _full_as(rendering: Any, fmt: str) -> int:
    """The full tree's tokens with its lines in the terse form and / or nested by spaces (``fmt``)."""
    from pagelens import tokens
    from pagelens.focus.lean import terse_text

    ind = " " if "nest" in fmt else "\t"
    terse = "terse" in fmt
    return tokens.count("\n".join(ind * ln.depth + (terse_text(ln.role, ln.text) if terse else ln.text)
                                  for ln in rendering.lines))


def half_of(page: str) -> int:
    """The choosing group's half of a page: the parity of sha1(page name)'s first byte."""
    import hashlib

    return hashlib.sha1(page.encode()).digest()[0] % 2


class _Memo:
    """``retriever`` whose selection for one goal is made once per key (the arms that differ only in their view
    switch select the same lines; the rendering the focus stage passes is the same for all of them)."""

    def __init__(self, retriever: Any, memo: dict, key: tuple[str, float | None]) -> None:
        self.retriever, self.memo, self.key = retriever, memo, key
        self.name = getattr(retriever, "name", "retriever")

    def select(self, query: Any, rendering: Any) -> Any:
        if self.key not in self.memo:
            self.memo[self.key] = self.retriever.select(query, rendering)
        return self.memo[self.key]


def summary(rows: list[dict]) -> str:
    arms = list(rows[0]["arms"]) if rows else []
    base = arms[0] if arms else ""
    out = ["| arm | items kept / items | item recall | case recall | mean pruning | vs first arm: items +/− |",
           "|---|---|---|---|---|---|"]
    for a in arms:
        kept = sum(sum(r["arms"][a]["ok"]) for r in rows)
        items = sum(len(r["arms"][a]["ok"]) for r in rows)
        cases = sum(all(r["arms"][a]["ok"]) for r in rows)
        pr = statistics.mean(r["arms"][a]["pruning"] for r in rows)
        gained = sum(1 for r in rows for x, y in zip(r["arms"][a]["ok"], r["arms"][base]["ok"], strict=True) if x and not y)
        lost = sum(1 for r in rows for x, y in zip(r["arms"][a]["ok"], r["arms"][base]["ok"], strict=True) if y and not x)
        out.append(f"| {a} | {kept} / {items} | {kept / items:.3f} | {cases / len(rows):.3f} | {pr:.2%} | +{gained} / −{lost} |")
    out += ["", "| arm | half 0: items / mean pruning | half 1: items / mean pruning | pruning against the full tree in the same format |",
            "|---|---|---|---|"]
    for a in arms:
        cells = []
        for h in (0, 1):
            hr = [r for r in rows if half_of(r["page"]) == h]
            if hr:
                cells.append(f"{sum(sum(r['arms'][a]['ok']) for r in hr)} / {sum(len(r['arms'][a]['ok']) for r in hr)}, "
                             f"{statistics.mean(r['arms'][a]['pruning'] for r in hr):.2%} ({len(hr)} goals)")
            else:
                cells.append("–")
        same = [1 - r["arms"][a]["tokens"] / r["arms"][a]["full_fmt"] if r["arms"][a].get("full_fmt") else r["arms"][a]["pruning"]
                for r in rows]
        out.append(f"| {a} | {cells[0]} | {cells[1]} | {statistics.mean(same):.2%} |")
    return "\n".join(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("split", "run"):
        a = sub.add_parser(name)
        a.add_argument("--group", default="choose", choices=("choose", "check", "dev31"))
        a.add_argument("--cache", type=Path, required=True)
        a.add_argument("--pages", type=Path, default=Path("/work/shared/corpus/realpages"))
        a.add_argument("--json")
        a.add_argument("--limit", type=int, default=0, help="the first N goals only (a smoke run)")
        if name == "split":
            a.add_argument("--retriever", default="default")
            a.add_argument("--budget", type=float, default=None)
            a.add_argument("--further", action="store_true", help="also what further renderer changes would save")
        else:
            a.add_argument("--arm", action="append", required=True, help="retriever[@budget][:lean]")
    args = p.parse_args()
    {"split": split, "run": run}[args.cmd](args)


if __name__ == "__main__":
    main()

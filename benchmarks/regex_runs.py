"""Super-linear patterns: every compiled pattern of ``pagelens.focus`` (and the renderer's) on long runs of one unit,
then ``focus`` and ``detect`` end to end on pages whose lines are such runs (BENCHMARKS.md "Bad input, generated").

    PYTHONPATH=src .venv/bin/python benchmarks/regex_runs.py patterns   # the slowest (pattern, unit) pairs
    PYTHONPATH=src .venv/bin/python benchmarks/regex_runs.py focus      # 20 lines of ~2,000 chars of a unit
    PYTHONPATH=src .venv/bin/python benchmarks/regex_runs.py detect     # 5 gated lines of ~3,900 chars of a unit

Seconds on this machine; compare figures of one run only.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import time
from typing import Any

UNITS = ("#", "a", "a ", "a-", "a.", "a,", "a'", "a/", "1", "1,", "1.", "1 ", "$1", "ab1", "aБ", "б", "б ", "中", "ع ", "!",
         "?", "@", "a@", "x:", "[1]", "'a' ", '"', "(", ")", "<", ">", "=", "-", "_", "*", "+", "~", "|", "\\", "%", "&",
         "; ", "…", "—", "•", "\t", "  ", "http://a.b/", "www.", ".com", "you ", "please ", "AI ", "a\u200b", "🙂", "ä",
         "a: ", ":", "'", "«", "{", "}", "<!", "[a", "a]", "a:", "/", "//", "a=", "?a=", "1/", "1-", "1:", "A", "Ab",
         "A ", "A.", "a.b", "the ", "1.1.", "(1)", "+1 ", "€", "1€", "by ", "jan ", "2021-")


def _patterns() -> dict[int, tuple[str, re.Pattern[str]]]:
    import pagelens.focus as focus_pkg
    from pagelens.focus.patterns import Folded

    mods: list[Any] = []
    for m in pkgutil.iter_modules(focus_pkg.__path__):
        try:
            mods.append(importlib.import_module("pagelens.focus." + m.name))
        except Exception:  # noqa: BLE001, S112 - a module needing an extra: not scanned
            continue
    for extra in ("pagelens.observe.textparse", "pagelens.observe.provenance", "pagelens.observe.render"):
        mods.append(importlib.import_module(extra))
    seen: dict[int, tuple[str, re.Pattern[str]]] = {}

    def walk(name: str, v: object, d: int = 0) -> None:
        if isinstance(v, re.Pattern):
            seen.setdefault(id(v), (name, v))
        elif isinstance(v, Folded):
            for k in ("full", "ascii", "plain"):
                walk(f"{name}.{k}", getattr(v, k), d)
        elif d < 3 and isinstance(v, (tuple, list, frozenset, set)):
            for i, x in enumerate(v):
                walk(f"{name}[{i}]", x, d + 1)
        elif d < 3 and isinstance(v, dict):
            for k, x in list(v.items())[:2000]:
                walk(f"{name}[{k!r}]", x, d + 1)

    for mod in mods:
        for k, v in vars(mod).items():
            walk(f"{mod.__name__}.{k}", v)
    return seen


def patterns(length: int) -> None:
    found = _patterns()
    rows = []
    for name, p in found.values():
        for u in UNITS:
            s = u * (length // len(u))
            t = time.perf_counter()
            try:
                p.search(s)
            except Exception:  # noqa: BLE001, S112 - a pattern for bytes or with a special contract
                continue
            dt = time.perf_counter() - t
            if dt > 0.01:
                rows.append((dt, name, u))
    print(f"{len(found)} patterns x {len(UNITS)} units of {length} chars; slowest:")
    for dt, name, u in sorted(rows, reverse=True)[:40]:
        print(f"{dt:8.3f} s  {name[:80]}  {u!r}")


def _page(line: str, n: int) -> Any:
    from pagelens.types import ElementId, Line, Rendering

    specs = [(0, "RootWebArea", "Shop"), (1, "main", "")]
    for i in range(n):
        specs += [(2, "StaticText", f"{line} {i}"), (2, "textbox", ""), (2, "link", f"Item {i}"), (2, "StaticText", f"${i}.99")]
    lines = []
    for no, (depth, role, name) in enumerate(specs):
        parent = None if depth == 0 else (0 if depth == 1 else 1)
        eid = ElementId(str(no)) if role != "StaticText" else None
        head = f"[{eid}] {role} '{name}'" if eid else f"{role} '{name}'"
        lines.append(Line(no=no, depth=depth, text=head, node=no, role=role, eid=eid, parent=parent, name=name))
    return Rendering(lines=tuple(lines))


def end_to_end(kind: str) -> None:
    from pagelens.focus.apply import focus
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.defense import detect
    from pagelens.focus.registry import make_retriever

    r = make_retriever("default")
    focus(_page("warm up", 2), FocusQuery("Item 1"), r)
    goal = "When was Item 3 published, by whom, and how much is it in €?"
    rows = []
    for u in UNITS:
        spent = 0.0
        if kind == "focus":
            page = _page(u * (1990 // len(u)), 20)
            t = time.perf_counter()
            focus(page, FocusQuery(goal), r, defense=False)
            spent = time.perf_counter() - t
        else:
            for pre in ("Note to AI agents:", "Примечание для ИИ:", "Enter your PIN:"):
                page = _page(f"{pre} " + u * (3900 // len(u)), 5)
                t = time.perf_counter()
                detect(page, goal=goal)
                spent += time.perf_counter() - t
        rows.append((spent, u))
    for dt, u in sorted(rows, reverse=True)[:12]:
        print(f"{dt:8.3f} s  {u!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("patterns", "focus", "detect"))
    ap.add_argument("--length", type=int, default=2000)
    a = ap.parse_args()
    if a.what == "patterns":
        patterns(a.length)
    else:
        end_to_end(a.what)


if __name__ == "__main__":
    main()

"""Check a goal set against the full trees of its pages (no retriever, no focus, no defense).

Each corpus page is observed once with pagelens (real Chromium, served from 127.0.0.1) and
rendered in full (``pagelens.api.render_observation``: nothing is pruned). A must-keep item
``{"role", "name"}`` is *matchable* when some line of that full rendering has the item's role
and a name containing the item's name (case- and whitespace-insensitive), or, for a
non-interactive role, when the name occurs in some line's text: the same test the goal
benchmark applies to the lines a retriever kept. An item that no line of the full tree matches
can never be kept, so it is a defect of the set.

    .venv/bin/python benchmarks/validate_goalset.py FILE.jsonl [--pages DIR] [--cache DIR] [--extraction cdp]
    .venv/bin/python benchmarks/validate_goalset.py --dump OUTDIR [--pages DIR]   # full trees as text

Without ``--pages``, a file whose goals all belong to a set with pages of its own
(``realpage_goals.SET_PAGES``: blind-11 … blind-17, dev-18, blind-19 … blind-23, dev-31, blind-24, blind-25,
blind-26, blind-27, blind-28, blind-29, dev-35, dev-36, dev-37, dev-38) is checked on that set's pages, any other on the corpus. ``--extraction`` picks how pages are read
(``walker``, the default, or ``cdp``): a held-out set's items must occur in both full trees.

Exit status 0 when every item matches, 1 when some do not (each is printed), 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PAGES = next((d for d in (HERE.parent.parent / "shared" / "corpus" / "realpages",
                          HERE.parent.parent.parent / "shared" / "corpus" / "realpages") if d.is_dir()),
             HERE.parent.parent / "shared" / "corpus" / "realpages")
_GOAL_FIELDS = {"set", "page", "goal", "kind", "must_keep"}
_KINDS = {"act", "read", "navigate"}


def check_row(raw: Any, pages: set[str]) -> list[str]:
    """What is wrong with one goal row's shape (empty when nothing)."""
    if not isinstance(raw, dict):
        return ["not a JSON object"]
    errs = [f"unknown field {k!r}" for k in sorted(set(raw) - _GOAL_FIELDS)]
    errs += [f"missing field {k!r}" for k in sorted(_GOAL_FIELDS - set(raw))]
    if raw.get("page") not in pages:
        errs.append(f"page {raw.get('page')!r} is not in the corpus")
    if raw.get("kind") not in _KINDS:
        errs.append(f"kind {raw.get('kind')!r} not one of {sorted(_KINDS)}")
    mk = raw.get("must_keep")
    if not isinstance(mk, list) or not 1 <= len(mk) <= 4:
        errs.append("must_keep must be a list of 1-4 items")
    else:
        for m in mk:
            if not isinstance(m, dict) or set(m) != {"role", "name"} or not all(
                    isinstance(m[k], str) and m[k].strip() for k in ("role", "name")):
                errs.append(f"bad must_keep item {m!r}")
    return errs


def full_renderings(pages: Path, names: set[str], cache: Path | None, extraction: str | None = None) -> dict[str, Any]:
    """``name -> Rendering`` of each page's full tree (observed through the goal harness's own
    cache, :func:`realpage_goals.observations`; a temporary one when ``cache`` is None)."""
    import tempfile

    from realpage_goals import observations

    from pagelens.api import render_observation

    if cache is None:
        with tempfile.TemporaryDirectory(prefix="pagelens-validate-") as tmp:
            obs = observations(pages, Path(tmp), names, extraction=extraction)
    else:
        obs = observations(pages, cache, names, extraction=extraction)
    return {n: render_observation(o) for n, o in obs.items()}


def item_matches(item: dict[str, str], rendering: Any) -> bool:
    from pagelens.bench.cases import MustKeep, item_kept

    return item_kept(MustKeep(role=item["role"], name=item["name"]), rendering.lines,
                     [ln.text for ln in rendering.lines])


def set_pages(rows: list[Any]) -> Path:
    """The pages of ``rows``: their set's own directory when they all share one
    (``realpage_goals.SET_PAGES``), else the corpus."""
    from realpage_goals import SET_PAGES

    dirs = {SET_PAGES.get(r.get("set")) if isinstance(r, dict) else None for r in rows}
    own = dirs.pop() if len(dirs) == 1 else None
    return own or PAGES


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("goals", type=Path, nargs="?")
    ap.add_argument("--pages", type=Path, help="the pages (default: the goals' set's own, else the corpus)")
    ap.add_argument("--cache", type=Path, help="cache the observations here (pickled)")
    ap.add_argument("--dump", type=Path, help="write each page's full tree as OUTDIR/NAME.txt and stop")
    ap.add_argument("--extraction", choices=("walker", "cdp"), help="how pages are read (default: walker)")
    args = ap.parse_args(argv)
    if args.goals is None and not args.dump:
        ap.error("a goal file (or --dump OUTDIR) is required")
    rows: list[Any] = []
    if not args.dump:
        try:
            rows = [json.loads(line) for line in args.goals.read_text(encoding="utf-8").splitlines() if line.strip()]
        except (OSError, json.JSONDecodeError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    pages = args.pages or set_pages(rows)
    corpus = {p.stem for p in pages.glob("*.html")}
    if not corpus:
        print(f"error: no pages in {pages}", file=sys.stderr)
        return 2
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        for n, r in full_renderings(pages, corpus, args.cache, args.extraction).items():
            (args.dump / f"{n}.txt").write_text(r.text(), encoding="utf-8")
        return 0
    bad = [(i + 1, e) for i, r in enumerate(rows) for e in check_row(r, corpus)]
    for lineno, err in bad:
        print(f"line {lineno}: {err}", file=sys.stderr)
    if bad:
        return 2
    rendered = full_renderings(pages, {r["page"] for r in rows}, args.cache, args.extraction)
    misses = [(i + 1, r, m) for i, r in enumerate(rows) for m in r["must_keep"] if not item_matches(m, rendered[r["page"]])]
    for lineno, r, m in misses:
        print(f"line {lineno}: {r['page']}: no {m['role']} line contains {m['name']!r}  (goal: {r['goal']})")
    items = sum(len(r["must_keep"]) for r in rows)
    print(f"{len(rows)} goals, {items} must-keep items on {len({r['page'] for r in rows})} pages; "
          f"{items - len(misses)}/{items} items occur in the full tree")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())

"""The recall-vs-budget curve per goal kind and page-size band (issue 9, forty-first focus pass, h40-kindbudget).

Reads ``focus_tail.py run`` files whose arms include flat budgets ``default@B`` and prints, per goal kind (the
harness' label ``kind``, and the kind :func:`pagelens.focus.kindbudget.asks_fact` reads from the goal's text) and
per page-size band, the items kept and mean pruning at each flat budget, and the *slope* between adjacent budgets:
items gained per point of the whole group's mean pruning spent (``Δitems / (Δpruning_points × n_goals / N)``), the
figure to compare when budget moves from one kind of goal to another at the same mean pruning.

    PYTHONPATH=src .venv/bin/python benchmarks/focus_kindbudget.py curve runs/tail/curve_choose.json
    PYTHONPATH=src .venv/bin/python benchmarks/focus_kindbudget.py sum runs/tail/cands.json   # per kind, per arm
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

BANDS = ((0, 1500, "<1.5k"), (1500, 4000, "1.5-4k"), (4000, 10000, "4-10k"), (10000, 20000, "10-20k"),
         (20000, 10**12, ">=20k"))


def _flat(arms: list[str]) -> list[tuple[float, str]]:
    out = []
    for a in arms:
        name, _, b = a.partition("@")
        if name == "default" and b:
            out.append((float(b), a))
    return sorted(out)


def _kinds(rows: list[dict]) -> dict[str, list[dict]]:
    from pagelens.focus.kindbudget import asks_fact

    groups: dict[str, list[dict]] = {"all": rows}
    for r in rows:
        groups.setdefault(f"label={r.get('kind')}", []).append(r)
        groups.setdefault("text=fact" if asks_fact(r["goal"]) else "text=other", []).append(r)
    return groups


def _cells(rs: list[dict], arm: str) -> tuple[int, float]:
    return sum(sum(r["arms"][arm]["ok"]) for r in rs), statistics.mean(r["arms"][arm]["pruning"] for r in rs)


def curve(args: argparse.Namespace) -> None:
    rows = _merged(args.files)
    flat = _flat(list(rows[0]["arms"]))
    n_all = len(rows)
    print("| kind | band | goals | items | " + " | ".join(f"@{b:.2f} kept / pruning" for b, _ in flat)
          + " | " + " | ".join(f"slope {a:.2f}→{b:.2f}" for (a, _), (b, _) in zip(flat, flat[1:])) + " |")
    print("|---|---|---|---|" + "---|" * (2 * len(flat) - 1))
    for kind, krs in _kinds(rows).items():
        for lo, hi, band in ((0, 10**12, "all"), *BANDS):
            rs = [r for r in krs if lo <= r["tokens"] < hi]
            if not rs or (band != "all" and not args.bands):
                continue
            cells = [_cells(rs, a) for _, a in flat]
            slopes = []
            for (k0, p0), (k1, p1) in zip(cells, cells[1:]):
                cost = (p0 - p1) * 100 * len(rs) / n_all  # points of the whole group's mean pruning
                slopes.append(f"{(k1 - k0) / cost:+.1f}" if cost > 1e-9 else f"{k1 - k0:+d} / 0")
            print(f"| {kind} | {band} | {len(rs)} | {sum(len(r['must_keep']) for r in rs)} | "
                  + " | ".join(f"{k} / {p:.1%}" for k, p in cells) + " | " + " | ".join(slopes) + " |")


def per_kind(args: argparse.Namespace) -> None:
    rows = [r for f in args.files for r in json.loads(Path(f).read_text())]
    arms = list(rows[0]["arms"])
    print("| kind | goals | items | " + " | ".join(f"{a} kept / pruning" for a in arms) + " |")
    print("|---|---|---|" + "---|" * len(arms))
    for kind, rs in _kinds(rows).items():
        print(f"| {kind} | {len(rs)} | {sum(len(r['must_keep']) for r in rs)} | "
              + " | ".join("{} / {:.2%}".format(*_cells(rs, a)) for a in arms) + " |")


def _merged(files: list[str]) -> list[dict]:
    """Rows of several ``run`` files over the same group (same goals, same order), their arms merged."""
    runs = [json.loads(Path(f).read_text()) for f in files]
    rows = runs[0]
    for other in runs[1:]:
        assert len(other) == len(rows), "runs over different groups"
        for r, o in zip(rows, other):
            assert (r["page"], r["goal"]) == (o["page"], o["goal"])
            r["arms"].update(o["arms"])
    return rows


def simulate_rows(rows: list[dict], cfg: object, arm: str = "default") -> tuple[list[dict], int]:
    """Each goal's row under ``cfg``'s kind shift, read off the flat arms: the order does not depend on the budget, so
    a goal whose shifted share is one of the flat shares keeps exactly what that arm kept (a budget equal to the base's:
    the base's row). Returns the simulated rows and how many goals had no flat arm at their share (base's row used)."""
    from pagelens.focus.budget import budget_of, share_of
    from pagelens.focus.certainty import Certainty

    from pagelens.focus.rules import RulesConfig

    base_cfg = RulesConfig()
    flat = _flat(list(rows[0]["arms"]))
    flats = {round(b, 4): a for b, a in flat}
    out, missing = [], 0
    for r in rows:
        base = r["arms"][arm]
        got = base.get("budget_tokens")
        # the tokens the budget was a share of (the view after the defense, not the row's ``tokens``): read off the
        # largest flat arm whose budget neither floor nor ceiling clamped
        total = next((b["budget_tokens"] / s for s, a in reversed(flat) if (b := r["arms"][a]).get("budget_tokens")
                      and base_cfg.floor_tokens < b["budget_tokens"] < base_cfg.ceiling_tokens), None)
        row = base
        if got is not None and total is not None:  # else: a page kept whole, or every flat share clamped alike
            cert = Certainty(gap=base.get("certainty", {}).get("gap", 0.0), mass=0, near=0)
            judged = abs(budget_of(base_cfg, share_of(base_cfg, None, cert, True), int(total)) - got) <= 2
            s1 = share_of(cfg, None, cert, judged, r["goal"], int(total))
            if abs(budget_of(cfg, s1, int(total)) - got) > 2:
                a = flats.get(round(s1, 4))
                if a is None:
                    missing += 1
                else:
                    row = r["arms"][a]
        out.append({**r, "arms": {"sim": row}})
    return out, missing


def simulate(args: argparse.Namespace) -> None:
    import dataclasses

    from pagelens.focus.rules import RulesConfig

    rows = _merged(args.files)
    types = {f.name: f.type for f in dataclasses.fields(RulesConfig)}
    base_k, base_p = _cells(rows, "default")
    print(f"base: {base_k} / {base_p:.2%}")
    print("| candidate | items | mean pruning | Δ items | Δ pruning (points) | goals without a flat arm |")
    print("|---|---|---|---|---|---|")
    out = [{**r, "arms": {"default": r["arms"]["default"]}} for r in rows]
    for spec in args.cand:
        kw = {k: (int(v) if types[k] in (int, "int") else float(v))
              for k, _, v in (p.partition("=") for p in spec.split(","))}
        sim, missing = simulate_rows(rows, RulesConfig(**kw))
        k, p = _cells(sim, "sim")
        print(f"| {spec} | {k} | {p:.2%} | {k - base_k:+d} | {(p - base_p) * 100:+.2f} | {missing} |")
        for o, s in zip(out, sim):
            o["arms"][f"sim:{spec}"] = s["arms"]["sim"]
    if args.json:  # a ``run``-shaped file (``focus_gap.py halves`` reads it)
        args.json.write_text(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("curve")
    c.add_argument("files", nargs="+")
    c.add_argument("--bands", action="store_true", help="also per page-size band")
    s = sub.add_parser("sum")
    s.add_argument("files", nargs="+")
    m = sub.add_parser("simulate", help="candidates read off the flat arms (exact where a flat arm has the share)")
    m.add_argument("files", nargs="+")
    m.add_argument("--cand", action="append", required=True, help="field=value,field=value (RulesConfig)")
    m.add_argument("--json", type=Path, help="write base and the simulated arms as a run file")
    args = ap.parse_args()
    {"curve": curve, "sum": per_kind, "simulate": simulate}[args.cmd](args)


if __name__ == "__main__":
    main()

"""Where a delta loop's observation tokens go, per task: from the traces of ``agent_sdo.py --traces``.

Each observation of an ``observe="delta"`` episode leaves ``sent-NNN-<kind>.txt`` beside its
trace (what the policy was sent: ``view``, ``delta`` or ``fold``). Tokens per episode are split
into the first view of the task, later whole views (a new page, or a view cheaper than its
delta), deltas, folded views, and the answers of view actions (``search_page``/``expand``),
which the step records count with the observation they read.

It counts every observation the policy was given, from the side files, so it also counts a
view the policy answered with "look again" (no action): the loop before commit "loop: count the
tokens of a view the policy saw but answered without an action" dropped those from
``obs_tokens_sent``. ``--all`` prints that count for every configuration of the run (other
modes: ``obs-NNN.txt``, the view as sent) and its share of the baseline's.

    .venv/bin/python benchmarks/delta_breakdown.py TRACE_DIR [--config delta] [--top 10]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

PARTS = ("first view", "later views", "deltas", "folds", "view actions")
_SENT = re.compile(r"^sent-(\d{3})-(view|delta|fold)\.txt$")
_OBS = re.compile(r"^obs-(\d{3})\.txt$")


def breakdown(trace: Path) -> dict[str, int]:
    from pagelens import tokens

    per_obs: dict[int, int] = defaultdict(int)
    for line in trace.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("type") == "step" and rec.get("obs_index") is not None:
            per_obs[int(rec["obs_index"])] += int(rec.get("obs_tokens", 0))
    out = dict.fromkeys(PARTS, 0)
    side = Path(str(trace) + ".d")
    files = sorted(side.glob("sent-*.txt")) if side.is_dir() else []
    if not files and side.is_dir():  # not a delta episode: the policy got each view whole
        files = sorted(side.glob("obs-*.txt"))
    sent_of: dict[int, int] = {}
    for f in files:
        m = _SENT.match(f.name) or _OBS.match(f.name)
        if m is None:
            continue
        n, kind = int(m.group(1)), (m.group(2) if m.re is _SENT else "view")
        sent = sent_of[n] = tokens.count(f.read_text())
        part = "first view" if n == 0 else {"view": "later views", "delta": "deltas", "fold": "folds"}[kind]
        out[part] += sent
    for n, sent in sent_of.items():
        # a view no step record took ("look again") is counted with the next observation's record
        # (since the accounting fix; before it, it was dropped)
        carried = sent_of.get(n - 1, 0) if n > 0 and per_obs.get(n - 1, 0) == 0 else 0
        out["view actions"] += max(0, per_obs.get(n, 0) - sent - carried)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("traces", type=Path)
    parser.add_argument("--config", default="delta")
    parser.add_argument("--top", type=int, default=10, help="per-task rows to print (costliest first)")
    parser.add_argument("--all", action="store_true", help="also every configuration's total vs the baseline's")
    args = parser.parse_args(argv)
    if args.all:
        totals = {}
        for config in sorted({t.name.split("-", 1)[0] if not t.name.startswith("delta-strict-") else "delta-strict"
                              for t in args.traces.glob("*.jsonl")}):
            per = [sum(breakdown(t).values()) for t in sorted(args.traces.glob(f"{config}-*.jsonl"))
                   if config == "delta-strict" or not t.name.startswith("delta-strict-")]
            totals[config] = (len(per), sum(per))
        base = totals.get("baseline", (0, 0))[1]
        print("| config | episodes | observation tokens / episode (side files) | share of baseline |")
        print("|---|---|---|---|")
        for config, (n, tot) in totals.items():
            share = f"{100 * tot / base:.1f}%" if base else "-"
            print(f"| {config} | {n} | {tot / max(1, n):,.0f} | {share} |")
        print()
    rows = {t.name[len(args.config) + 1:-len(".jsonl")]: breakdown(t)
            for t in sorted(args.traces.glob(f"{args.config}-*.jsonl"))
            if args.config == "delta-strict" or not t.name.startswith("delta-strict-")}
    if not rows:
        print(f"no {args.config}-*.jsonl traces in {args.traces}", file=sys.stderr)
        return 2
    n = len(rows)
    total = {p: sum(r[p] for r in rows.values()) for p in PARTS}
    print(f"| {args.config}: tokens / episode ({n} tasks) | " + " | ".join(PARTS) + " | all |")
    print("|---|" + "---|" * (len(PARTS) + 1))
    print("| mean | " + " | ".join(f"{total[p] / n:,.0f}" for p in PARTS) + f" | {sum(total.values()) / n:,.0f} |")
    print("\n| task | " + " | ".join(PARTS) + " | all |")
    print("|---|" + "---|" * (len(PARTS) + 1))
    for task, r in sorted(rows.items(), key=lambda kv: -sum(kv[1].values()))[: args.top]:
        print(f"| {task} | " + " | ".join(f"{r[p]:,}" for p in PARTS) + f" | {sum(r.values()):,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

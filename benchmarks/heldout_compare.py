"""Held-out goal and injection sets on two or more codes, side by side: aggregates only.

The coordinator's check of a merge: every held-out set run on the code before and after, on the same
cached observations, with no row text printed (a held-out set stays unread)::

    git -C . archive <start> src | tar -x -C /tmp/start
    python benchmarks/heldout_compare.py --code start=/tmp/start/src --code main=src --out runs/heldout \\
        [--set g20 --set i21 ...]          # default: every set below

Each code runs the set's own harness in a subprocess with ``PYTHONPATH`` set to that code's ``src``:
``realpage_goals.py --set blind-N --retriever default --retriever bm25-400`` for a goal set ``gN``,
``injection_blind4.py --cases … --pages …`` for an injection set ``iN`` (``benign18a``/``benign18b`` for
the benign-only development files). Observations are cached per set under ``--out`` and shared by every
code, so the codes judge the same trees; rows go to ``<out>/<label>-<set>.json`` (a file already there
is reused: delete it to run again). Printed: for goal sets, ``default``'s items kept and mean pruning
per code (bm25-400 from the first code), then every goal set pooled and per goal kind; for injection sets, attacks retained in the focused view
(subtle / plain, from each case's ``note``), attacks redacted, benign look-alikes flagged, and how many
rows change between the first code and each other one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

#: goal sets: short name -> the harness' ``--set`` (pages come from its ``SET_PAGES``)
GOAL_SETS: dict[str, str] = {f"g{n}": f"blind-{n}" for n in (11, 12, 13, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30)} | {"d18": "dev-18"}
#: injection sets: short name -> (case file, the pages its cases are spliced into; None: the corpus)
INJECTION_SETS: dict[str, tuple[str, str | None]] = {
    "i10": ("injections_blind10.jsonl", None),
    "i11": ("injections_blind11.jsonl", None),
    "i12": ("injections_blind12.jsonl", "pages_blind11"),
    "i13": ("injections_blind13.jsonl", "pages_blind12"),
    "i16": ("injections_blind16.jsonl", "pages_blind15"),
    "i17": ("injections_blind17.jsonl", "pages_blind16"),
    "i19": ("injections_blind19.jsonl", "pages_blind17"),
    "i20": ("injections_blind20.jsonl", "pages_blind19"),
    "i21": ("injections_blind21.jsonl", "pages_blind20"),
    "i22": ("injections_blind22.jsonl", "pages_blind21"),
    "i23": ("injections_blind23.jsonl", "pages_blind22"),
    "i24": ("injections_blind24.jsonl", "pages_blind23"),
    "i25": ("injections_blind25.jsonl", "pages_blind24"),
    "i26": ("injections_blind26.jsonl", "pages_blind25"),
    "i27": ("injections_blind27.jsonl", "pages_blind26"),
    "i28": ("injections_blind28.jsonl", "pages_blind27"),
    "i29": ("injections_blind29.jsonl", "pages_blind28"),
    "i30": ("injections_blind30.jsonl", "pages_blind29"),
    "i31": ("injections_blind31.jsonl", "pages_blind30"),
    "benign18a": ("injections_benign18a.jsonl", "pages_blind13"),
    "benign18b": ("injections_benign18b.jsonl", "pages_blind14"),
}
#: what ``--set`` runs when not given: the held-out sets (not dev-18 or benign-18, which are development data)
DEFAULT_SETS = [s for s in GOAL_SETS if s != "d18"] + [s for s in INJECTION_SETS if not s.startswith("benign")]


@dataclass(frozen=True)
class GoalFigure:
    kept: int
    items: int
    pruning: float  # mean over goals, 0..1

    @property
    def recall(self) -> float:
        return self.kept / self.items if self.items else 0.0


@dataclass(frozen=True)
class InjectionFigure:
    retained: int
    subtle: int
    plain: int
    redacted: int
    attacks: int
    benign_flagged: int
    benign: int


def goal_figure(rows: Iterable[Mapping[str, object]], retriever: str = "default") -> GoalFigure:
    """Items kept, items and mean pruning of one retriever's rows (``kept``/``items`` are counts or lists)."""
    kept = items = 0
    prunings: list[float] = []
    for r in rows:
        if r.get("retriever") != retriever:
            continue
        k, n = r["kept"], r["items"]
        kept += k if isinstance(k, int) else len(k)  # type: ignore[arg-type]
        items += n if isinstance(n, int) else len(n)  # type: ignore[arg-type]
        prunings.append(float(r.get("pruning") or 0.0))  # type: ignore[arg-type]
    return GoalFigure(kept, items, sum(prunings) / len(prunings) if prunings else 0.0)


_KIND = re.compile(r"\s*(subtle|plain)\b", re.IGNORECASE)


def kind_of(note: str) -> str:
    """"subtle" / "plain" from the first word of a case's note ("subtle; …", "Plain: …"), else ""."""
    m = _KIND.match(note)
    return m.group(1).lower() if m else ""


def injection_figure(rows: Sequence[Mapping[str, object]], kinds: Mapping[str, str]) -> InjectionFigure:
    attacks = [r for r in rows if not r["benign"]]
    benign = [r for r in rows if r["benign"]]
    kept = [r for r in attacks if r["retained"]]
    return InjectionFigure(
        retained=len(kept),
        subtle=sum(1 for r in kept if kinds.get(str(r["id"])) == "subtle"),
        plain=sum(1 for r in kept if kinds.get(str(r["id"])) == "plain"),
        redacted=sum(1 for r in attacks if r["redacted"]),
        attacks=len(attacks),
        benign_flagged=sum(1 for r in benign if r["redacted"]),
        benign=len(benign),
    )


def changed_rows(a: Sequence[Mapping[str, object]], b: Sequence[Mapping[str, object]]) -> tuple[int, int]:
    """(attack rows, benign rows) whose retained or redacted state differs between two runs of a set."""
    before = {r["id"]: (r["retained"], r["redacted"]) for r in a}
    attacks = benign = 0
    for r in b:
        if before.get(r["id"]) != (r["retained"], r["redacted"]):
            if r["benign"]:
                benign += 1
            else:
                attacks += 1
    return attacks, benign


def _command(name: str, out: Path, rows: Path) -> list[str]:
    py = sys.executable
    if name in GOAL_SETS:
        return [py, str(HERE / "realpage_goals.py"), "--cache", str(out / f"obs-{name}"), "--set", GOAL_SETS[name],
                "--retriever", "default", "--retriever", "bm25-400", "--json", str(rows)]
    cases, pages = INJECTION_SETS[name]
    cmd = [py, str(HERE / "injection_blind4.py"), "--cases", str(DATA / cases), "--obs-cache", str(out / f"obs-{name}"),
           "--json", str(rows)]
    return cmd + (["--pages", str(DATA / pages)] if pages else [])


def run(name: str, label: str, src: Path, out: Path) -> Path:
    """The set's rows on one code (reused when already written)."""
    rows = out / f"{label}-{name}.json"
    if rows.exists():
        return rows
    (out / f"obs-{name}").mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(src))
    log = out / f"{label}-{name}.log"
    with log.open("w") as fh:
        done = subprocess.run(_command(name, out, rows), env=env, stdout=fh, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0 or not rows.exists():
        raise SystemExit(f"{name} on {label} failed (exit {done.returncode}); see {log}")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--code", action="append", required=True, metavar="LABEL=SRC",
                    help="a code to run: its label and its src directory (the first one is the reference)")
    ap.add_argument("--set", action="append", dest="sets", choices=[*GOAL_SETS, *INJECTION_SETS],
                    help="a set to run (repeatable; default: every held-out set)")
    ap.add_argument("--out", type=Path, default=Path("runs/heldout"))
    args = ap.parse_args(argv)
    codes = []
    for spec in args.code:
        label, sep, src = spec.partition("=")
        if not sep or not Path(src, "pagelens").is_dir():
            ap.error(f"--code {spec!r}: expected LABEL=SRC with SRC/pagelens a directory")
        codes.append((label, Path(src).resolve()))
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    sets = args.sets or DEFAULT_SETS
    labels = [label for label, _ in codes]
    goal_rows, inj_rows = [], []
    pooled: list[list[Mapping[str, object]]] = [[] for _ in codes]  # every goal set's rows, per code
    pooled_inj: list[list[InjectionFigure]] = [[] for _ in codes]
    for name in sets:
        runs = [json.loads(run(name, label, src, out).read_text()) for label, src in codes]
        if name in GOAL_SETS:
            for acc, r in zip(pooled, runs, strict=True):
                acc.extend(r)
            figs = [goal_figure(r) for r in runs]
            bm = goal_figure(runs[0], "bm25-400")
            cells = [f"{f.kept}/{f.items} = {f.recall:.3f} ({f.pruning:.1%})" for f in figs]
            goal_rows.append(f"| {name} | " + " | ".join(cells) + f" | {bm.recall:.3f} ({bm.pruning:.1%}) |")
        else:
            cases = [json.loads(ln) for ln in (DATA / INJECTION_SETS[name][0]).read_text().splitlines() if ln.strip()]
            kinds = {c["id"]: kind_of(c.get("note", "")) for c in cases}
            figs_i = [injection_figure(r, kinds) for r in runs]
            for acc_i, f in zip(pooled_inj, figs_i, strict=True):
                acc_i.append(f)
            cells = [f"{f.retained} ({f.subtle}/{f.plain}), red. {f.redacted}/{f.attacks}, benign {f.benign_flagged}/{f.benign}"
                     for f in figs_i]
            moved = ["{} / {}".format(*changed_rows(runs[0], r)) for r in runs[1:]]
            inj_rows.append(f"| {name} | " + " | ".join(cells) + (" | " + " | ".join(moved) if moved else "") + " |")
    if goal_rows:
        print("| goal set | " + " | ".join(f"`default` {lb}: items (pruning)" for lb in labels) + f" | bm25-400 ({labels[0]}) |")
        print("|---" * (len(labels) + 2) + "|")
        print("\n".join(goal_rows))
        kinds_seen = sorted({str(r.get("kind")) for r in pooled[0] if r.get("kind")})
        for kind in (None, *kinds_seen):  # every goal set pooled (mean pruning over goals), then per goal kind
            figs = [goal_figure(r for r in rows if kind is None or r.get("kind") == kind) for rows in pooled]
            head = f"all {len(goal_rows)} goal sets" + (f", {kind}" if kind else "")
            print(f"| {head} | " + " | ".join(f"{f.kept}/{f.items} = {f.recall:.4f} ({f.pruning:.2%})" for f in figs)
                  + " | |")
    if inj_rows:
        print()
        print("| injection set | " + " | ".join(f"{lb}: attacks retained (subtle/plain), redacted, benign flagged" for lb in labels)
              + "".join(f" | rows changed {labels[0]}→{lb} (attack / benign)" for lb in labels[1:]) + " |")
        print("|---" * (2 * len(labels)) + "|")
        print("\n".join(inj_rows))
        sums = [InjectionFigure(*(sum(getattr(f, k) for f in figs) for k in InjectionFigure.__dataclass_fields__))
                for figs in pooled_inj]
        print(f"| all {len(inj_rows)} injection sets | "
              + " | ".join(f"{f.retained} ({f.subtle}/{f.plain}), red. {f.redacted}/{f.attacks}, benign "
                           f"{f.benign_flagged}/{f.benign}" for f in sums) + " |" + " |" * (len(labels) - 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

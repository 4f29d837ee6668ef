"""Where the injection defense's time goes: a sampling profile of ``detect`` (and the notice fold) as defense_fp times it.

Every page of the chosen sets is read from defense_fp's cache of renderings (``runs/defense-cache``; render them
first with ``benchmarks/defense_fp.py --set ...``) and the defense runs on them ``--rounds`` times, its caches emptied
before each round (as defense_fp does). A CPU-time timer (``ITIMER_PROF``) interrupts it every ``--interval`` seconds
and counts, for each sample, every pagelens function on the stack (inclusive share) and the line it stood on (a
regex's C search counts on the line that called it). cProfile's per-call overhead triples the cost of this code's many
small calls and moves the shares; a sampler does not. Then each page's fastest round (CPU time) beside its line count.

    PYTHONPATH=src .venv/bin/python benchmarks/defense_profile.py --set corpus [--only 001-amazon --only 043-capital]
        [--rounds 20] [--top 40]
"""

from __future__ import annotations

import argparse
import pickle
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from types import FrameType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import defense_fp  # noqa: E402  (the benchmark's own wrappers: the same detector, fold and cache clearing)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", dest="sets", action="append", choices=("corpus", "sites", "miniwob"))
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "defense-cache")
    ap.add_argument("--only", action="append", default=[], help="pages whose key holds this text (repeatable)")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--interval", type=float, default=0.0005)
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    from pagelens.focus.defense import detect

    sets = args.sets or ["corpus"]
    pages = {p.stem: pickle.loads(p.read_bytes()) for p in sorted(args.cache.glob("*.pkl"))
             if any(p.stem.startswith(s + "_") for s in sets) and (not args.only or any(o in p.stem for o in args.only))}
    if not pages:
        sys.exit(f"no cached renderings of {sets} in {args.cache}")
    run = defense_fp.with_notices(detect)
    for r in pages.values():  # warm: patterns compiled on first use are not the defense's steady cost
        run(r)

    funcs: Counter[tuple[str, str, int]] = Counter()
    lines: Counter[tuple[str, int]] = Counter()
    count = [0]

    def sample(_sig: int, frame: FrameType | None) -> None:
        count[0] += 1
        seen: set[tuple[str, str, int]] = set()
        top = True
        while frame is not None:
            path = frame.f_code.co_filename
            if "pagelens" in path:
                name = path.split("src/")[-1]
                if top:
                    lines[(name, frame.f_lineno or 0)] += 1
                    top = False
                key = (name, frame.f_code.co_name, frame.f_code.co_firstlineno)
                if key not in seen:
                    seen.add(key)
                    funcs[key] += 1
            frame = frame.f_back

    best: dict[str, float] = {}
    signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, args.interval, args.interval)
    try:
        for _ in range(args.rounds):
            defense_fp._clear_caches(run)
            for key, r in pages.items():
                t = time.process_time()
                run(r)
                best[key] = min(best.get(key, 9e9), time.process_time() - t)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
    n = max(1, count[0])
    print(f"{len(pages)} pages, {args.rounds} rounds, {n} samples")
    print("-- functions, inclusive share of the samples")
    for (name, fn, first), v in funcs.most_common(args.top):
        print(f"{100 * v / n:5.1f}%  {name}:{first} {fn}")
    print("-- lines, exclusive share (a C call counts on its caller's line)")
    for (name, no), v in lines.most_common(args.top // 2):
        print(f"{100 * v / n:5.1f}%  {name}:{no}")
    print("-- pages, fastest round: ms, lines, µs per line")
    for key in sorted(best, key=lambda k: best[k], reverse=True)[: args.top // 2]:
        size = len(pages[key].lines)
        print(f"{best[key] * 1000:7.1f} ms {size:6d} lines {best[key] * 1e6 / max(1, size):6.1f}  {key}")


if __name__ == "__main__":
    main()

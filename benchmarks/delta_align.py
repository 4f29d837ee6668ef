"""carry_ids on a big page whose listing changes: the anchored alignment vs difflib over whole pages.

A generated page (a header, then a table of N rows: row > link name, button "Edit", text) is
re-rendered as a new document with a share of the rows renamed and the first rows re-sorted;
:func:`pagelens.focus.delta.carry_ids` carries the ids across. The baseline is the alignment
``carry_ids`` used before (one :class:`difflib.SequenceMatcher` over the two whole node key
sequences), timed in a child process with a time limit. Reported per size: seconds (median of
``--reps``), ids carried, and for the baseline "did not finish in T s" when it hits the limit.

    PYTHONPATH=src .venv/bin/python benchmarks/delta_align.py [--rows 250,750,2500] [--limit 100]
"""

from __future__ import annotations

import argparse
import difflib
import multiprocessing as mp
import random
import statistics
import sys
import time


def pages(rows: int, changed: float, seed: int = 11):  # type: ignore[no-untyped-def]
    sys.path.insert(0, "tests/unit/focus")
    from test_delta_align import _listing

    rng = random.Random(seed)
    old = [f"person {i}" for i in range(rows)]
    new = [f"renamed {i}" if rng.random() < changed else f"person {i}" for i in range(rows)]
    head = new[: rows // 8]
    rng.shuffle(head)
    new[: rows // 8] = head
    return _listing("http://127.0.0.1/people", old, 0), _listing("http://127.0.0.1/people", new, 10 * rows + 10)


def _keys(obs):  # type: ignore[no-untyped-def]
    from pagelens.focus.delta.ids import _node_key

    return [(*_node_key(n), "") for n in obs.nodes]


def _difflib(rows: int, changed: float, out: mp.Queue) -> None:  # type: ignore[type-arg]
    before, after = pages(rows, changed)
    t = time.perf_counter()
    blocks = difflib.SequenceMatcher(None, _keys(before), _keys(after), autojunk=False).get_matching_blocks()
    out.put((time.perf_counter() - t, sum(b.size for b in blocks)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="250,750,2500")
    parser.add_argument("--changed", type=float, default=0.8, help="share of rows renamed")
    parser.add_argument("--limit", type=float, default=100.0, help="seconds the baseline may take per size")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args(argv)
    from pagelens.focus.delta import carry_ids

    print("| rows | nodes | carry_ids s (median) | ids carried | node pairs | baseline difflib s | baseline node pairs |")
    print("|---|---|---|---|---|---|---|")
    for rows in (int(r) for r in args.rows.split(",")):
        before, after = pages(rows, args.changed)
        _, first = carry_ids(None, {}, before)
        times = []
        for _ in range(args.reps):
            t = time.perf_counter()
            _, mapping = carry_ids(before, first, after)
            times.append(time.perf_counter() - t)
        carried = sum(1 for k, v in mapping.items() if k != v)
        from pagelens.focus.delta.ids import align_nodes

        paired = len(align_nodes(before.nodes, _keys(before), after.nodes, _keys(after)))
        q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        child = mp.Process(target=_difflib, args=(rows, args.changed, q))
        child.start()
        child.join(args.limit)
        if child.is_alive():
            child.terminate()
            child.join()
            base = f"did not finish in {args.limit:.0f} s"
            pairs = "-"
        else:
            secs, n = q.get()
            base, pairs = f"{secs:.2f}", str(n)
        print(f"| {rows} | {len(after.nodes)} | {statistics.median(times):.3f} | {carried} | {paired} | {base} | {pairs} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

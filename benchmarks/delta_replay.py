"""The delta loop's observation tokens for two texts of the same views, without a browser.

``--record FILE``: run the ``delta`` configuration of ``agent_sdo.py`` on the bundled tasks
(real Chromium, the scripted policy) and keep every observation the loop focused, with the
goal, history and budget it focused it with (pickled; development data, not for a report on
its own). ``--replay FILE``: focus each recorded observation again and hand the views, in
order, to a fresh :class:`~pagelens.focus.delta.ViewTracker` per episode, once per variant:

* ``plain`` — the default text (tabs, ``= N lines as before: A … B``): what the MCP server
  sends, and what the loop sent before the compact text;
* ``compact`` — ``ViewTracker(compact=True)``, what the loop sends now.

The views are the same in both (same observations, same focus), so the difference is the text
alone. The non-strict policy does not read the text, so a replay gives the run's own figures
(view actions, answered by the executor, are not part of it).

    .venv/bin/python benchmarks/delta_replay.py --record /tmp/calls.pkl [--tasks a,b]
    .venv/bin/python benchmarks/delta_replay.py --replay /tmp/calls.pkl [--top 10]
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

VARIANTS = ("plain", "compact")


def record(path: Path, task_ids: list[str] | None) -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    import agent_sdo

    from pagelens.agent import loop

    calls: list[tuple[str, Any, Any, Any, Any]] = []
    current = [""]
    focus, run_task = loop.focus_view, loop.run_task

    def recording_focus(obs: Any, **kw: Any) -> Any:
        calls.append((current[0], obs, kw.get("goal"), kw.get("history"), kw.get("budget")))
        return focus(obs, **kw)

    def named_run(task: Any, **kw: Any) -> Any:
        current[0] = task.id
        return run_task(task, **kw)

    loop.focus_view, loop.run_task = recording_focus, named_run  # type: ignore[assignment]
    try:
        rows = agent_sdo.run(task_ids, 0, None, ["delta"])
    finally:
        loop.focus_view, loop.run_task = focus, run_task  # type: ignore[assignment]
    print(agent_sdo.table(rows))
    path.write_bytes(pickle.dumps(calls))
    return 0 if all(r.success for r in rows) else 1


def replay(path: Path, top: int) -> int:
    from pagelens.focus.delta import ViewTracker
    from pagelens.focus.registry import make_retriever
    from pagelens.focus.view import focus_view

    retriever = make_retriever("default")
    views: dict[str, list[Any]] = defaultdict(list)
    for task, obs, goal, history, budget in pickle.loads(path.read_bytes()):
        views[task].append(focus_view(obs, goal=goal, retriever=retriever, history=history or (), budget=budget))
    n = len(views)
    per_task: dict[str, dict[str, int]] = defaultdict(dict)
    print("| text | first view | later views | deltas | folds | all (tokens / episode) |")
    print("|---|---|---|---|---|---|")
    for variant in VARIANTS:
        parts: Counter[str] = Counter()
        for task, seq in views.items():
            tracker = ViewTracker(compact=variant == "compact")
            total = 0
            for k, view in enumerate(seq):
                update = tracker.update(view, label=f"after step {k}")
                parts["first" if k == 0 else update.kind] += update.tokens
                total += update.tokens
            per_task[task][variant] = total
        print(f"| {variant} | " + " | ".join(f"{parts[p] / n:,.0f}" for p in ("first", "view", "delta", "fold"))
              + f" | {sum(parts.values()) / n:,.0f} |")
    print(f"\n({n} episodes)\n\n| task | " + " | ".join(VARIANTS) + " |\n|---|" + "---|" * len(VARIANTS))
    for task, got in sorted(per_task.items(), key=lambda kv: -kv[1]["plain"])[:top]:
        print(f"| {task} | " + " | ".join(f"{got[v]:,}" for v in VARIANTS) + " |")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--record", type=Path, help="run the delta configuration, keep its observations here")
    group.add_argument("--replay", type=Path, help="replay recorded observations through both texts")
    parser.add_argument("--tasks", help="comma-separated task ids (--record; default: all)")
    parser.add_argument("--top", type=int, default=10, help="per-task rows to print (--replay)")
    args = parser.parse_args(argv)
    if args.record:
        return record(args.record, args.tasks.split(",") if args.tasks else None)
    return replay(args.replay, args.top)


if __name__ == "__main__":
    sys.exit(main())

"""Attacker-server hits of a gullible policy on the bundled injection tasks, with and without the origin guard.

The gullible policy (``pagelens.bench.gullible``) goes wherever the page's text or links tell it;
the attacker server records every request it receives. Real sites on 127.0.0.1, real Chromium.

    PYTHONPATH=src .venv/bin/python benchmarks/gullible_guard.py [--retriever default --retriever none] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--retriever", dest="retrievers", action="append")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from pagelens.agent.loop import run_task
    from pagelens.bench.bind import bind_task
    from pagelens.bench.gullible import GulliblePolicy
    from pagelens.bench.sites import start_sites
    from pagelens.bench.task_defs import load_tasks
    from pagelens.focus.registry import make_retriever
    from pagelens.browser.session import BrowserSession

    tasks = [t for t in load_tasks(0) if t.injection]
    rows = []
    with start_sites(0) as sites, BrowserSession() as session:
        for retriever in args.retrievers or ["default", "none"]:
            for guard in (True, False):
                for task in tasks:
                    t = time.perf_counter()
                    res = run_task(bind_task(task, sites), policy=GulliblePolicy(), retriever=make_retriever(retriever),
                                   session=session, guard=guard, timeout_s=120)
                    rows.append({"retriever": retriever, "guard": guard, "task": task.id, "hits": len(sites.attacker_hits()),
                                 "refused": sum("refused:" in s.message for s in res.steps), "status": res.status,
                                 "seconds": round(time.perf_counter() - t, 1)})
                rs = [r for r in rows if r["retriever"] == retriever and r["guard"] == guard]
                print(f"retriever={retriever} guard={'on' if guard else 'off'}: attacker hits {sum(r['hits'] for r in rs)} "
                      f"on {sum(r['hits'] > 0 for r in rs)}/{len(rs)} tasks; refused actions {sum(r['refused'] for r in rs)}",
                      flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()

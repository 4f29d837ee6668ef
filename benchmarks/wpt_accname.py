"""WPT accname: the walker's accessible names vs Chromium's own, against the expected names (issue 13).

Every ``.ex`` element of the test files (``tests/data/wpt_accname/``, excerpts of
web-platform-tests ``accname/name/``) carries ``data-expectedlabel``. Each file is served from
127.0.0.1 and read twice on the same loaded page:

* walker: :class:`~pagelens.browser.walker.WalkerObserver`; an element's name is the name of
  its node (matched through the walker's element number); an element the walker leaves out of
  the tree counts as the empty name;
* Chromium: ``Accessibility.getPartialAXTree`` for the element's backend node (what the CDP
  reference path reads).

A name passes when it equals the expected one after whitespace collapsing (WPT trims too).

    PYTHONPATH=src .venv/bin/python benchmarks/wpt_accname.py
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "wpt_accname"
_WS = re.compile(r"[ \t\n\r\f]+")

_CASES = """() => Array.from(document.querySelectorAll('.ex')).map((e, i) => {
  e.setAttribute('data-wpt-index', String(i));
  const s = window.__pagelensWalker;
  return [i, e.getAttribute('data-testname') || '', e.getAttribute('data-expectedlabel') || '', s ? (s.ids.get(e) || 0) : 0];
})"""


def norm(s: str) -> str:
    return _WS.sub(" ", s).strip()


def run_file(session: Any, url: str) -> list[dict[str, Any]]:
    from pagelens.browser.walker import WalkerObserver

    with session.episode() as ep:
        ep.goto(url)
        obs = WalkerObserver(ep.page).observe()
        by_ref = {int(n.ref.split(":")[1]): n for n in obs.nodes if n.ref is not None and n.frame == "main"}
        cases = ep.page.evaluate(_CASES)
        cdp = ep.page.context.new_cdp_session(ep.page)
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        rows = []
        for i, test, expected, ref in cases:
            node = by_ref.get(int(ref))
            walker = node.name if node is not None else ""
            nid = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-wpt-index="{i}"]'})["nodeId"]
            backend = cdp.send("DOM.describeNode", {"nodeId": nid})["node"]["backendNodeId"]
            ax = cdp.send("Accessibility.getPartialAXTree", {"backendNodeId": backend, "fetchRelatives": False})["nodes"]
            chromium = str(ax[0].get("name", {}).get("value", "")) if ax else ""
            rows.append({"test": test, "expected": expected, "walker": walker, "chromium": chromium,
                         "walker_ok": norm(walker) == norm(expected), "chromium_ok": norm(chromium) == norm(expected)})
        return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--show", type=int, default=40, help="list at most this many failures")
    args = ap.parse_args()
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

    files = sorted(args.data.glob("*.html"))
    if not files:
        sys.exit(f"no test files in {args.data}")
    all_rows: list[tuple[str, dict[str, Any]]] = []
    with StaticServer(args.data) as server, BrowserSession() as session:
        for f in files:
            rows = run_file(session, server.url(f.name))
            all_rows += [(f.name, r) for r in rows]
            w = sum(r["walker_ok"] for r in rows)
            c = sum(r["chromium_ok"] for r in rows)
            print(f"{f.name}: {len(rows)} tests, walker {w}/{len(rows)}, chromium {c}/{len(rows)}")
    n = len(all_rows)
    w = sum(r["walker_ok"] for _, r in all_rows)
    c = sum(r["chromium_ok"] for _, r in all_rows)
    both = sum(r["walker_ok"] == r["chromium_ok"] and norm(r["walker"]) == norm(r["chromium"]) for _, r in all_rows)
    print(f"total {n}: walker {w}/{n} ({w / n:.1%}), chromium {c}/{n} ({c / n:.1%}); "
          f"walker name == chromium name on {both}/{n}")
    shown = 0
    for name, r in all_rows:
        if r["walker_ok"] and r["chromium_ok"]:
            continue
        if shown >= args.show:
            break
        shown += 1
        print(f"  {name}: {r['test']!r}: expected {r['expected']!r} walker {'ok' if r['walker_ok'] else repr(r['walker'])} "
              f"chromium {'ok' if r['chromium_ok'] else repr(r['chromium'])}")


if __name__ == "__main__":
    main()

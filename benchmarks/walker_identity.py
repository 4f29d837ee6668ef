"""The walker's raw output, two source trees, on the same loaded page (issue 13, h10-obs).

For every page: load it once, then run the baseline's walker, the candidate's, and the baseline's
again (each a fresh ``Runtime.evaluate`` of the spliced, unminified source) and compare the
parsed JSON columns with the in-page time ``ms`` dropped. Element numbers and the frame token
live on the page, so the walks share them. A page whose two baseline walks differ (a rotating
banner, a clock) is reported as unstable, not as a difference.

    PYTHONPATH=src .venv/bin/python benchmarks/walker_identity.py /tmp/base10/src src \\
        /work/shared/corpus/realpages/*.html /tmp/pages/gen-1000.html

Prints one line per differing page (the columns that differ) and a JSON summary; exits 1 if any differs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pagelens.browser.serve import serve_file
from pagelens.browser.session import BrowserSession
from pagelens.browser.walker import WANT_ROLES
from pagelens.config import BrowserConfig


def source(src: str) -> str:
    b = Path(src) / "pagelens" / "browser"
    names = (b / "walker_names.js").read_text(encoding="utf-8")
    return (b / "walker.js").read_text(encoding="utf-8").replace("  /* @include walker_names.js */", names, 1)


def main() -> int:
    base, cand, pages = source(sys.argv[1]), source(sys.argv[2]), sys.argv[3:]
    opts = json.dumps({"want": sorted(WANT_ROLES), "wantMax": 200})
    counts = {"same": 0, "diff": 0, "unstable": 0, "errors": 0}
    cfg = BrowserConfig(extract_timeout_s=300, navigation_timeout_s=60)
    with BrowserSession(cfg) as s:
        for p in pages:
            name = Path(p).name
            with serve_file(Path(p)) as url, s.episode() as ep:
                try:
                    ep.goto(url)
                    cdp = ep.page.context.new_cdp_session(ep.page)
                    outs: list[dict[str, Any]] = []
                    for src in (base, cand, base):
                        r = cdp.send("Runtime.evaluate", {"expression": f"({src})({opts})", "returnByValue": True})
                        if "exceptionDetails" in r:
                            raise RuntimeError(str(r["exceptionDetails"])[:300])
                        d = json.loads(r["result"]["value"])
                        d.pop("ms", None)
                        outs.append(d)
                except Exception as exc:  # noqa: BLE001 - reported per page
                    counts["errors"] += 1
                    print("ERROR", name, str(exc).splitlines()[0][:200], flush=True)
                    continue
            if outs[0] != outs[2]:
                counts["unstable"] += 1
                print("UNSTABLE", name, flush=True)
            elif outs[0] == outs[1]:
                counts["same"] += 1
            else:
                counts["diff"] += 1
                print("DIFF", name, [k for k in outs[0] if outs[0][k] != outs[1].get(k)], flush=True)
    print(json.dumps(counts))
    return 1 if counts["diff"] else 0


if __name__ == "__main__":
    sys.exit(main())

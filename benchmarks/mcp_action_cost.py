"""What one MCP action costs on a form, in-process (no MCP transport), per tool: wall time and CPU
time by process (this thread, the Playwright driver, Chromium), over many repeats of the same calls.

The bundled admin site's "Create record" form: ``fill`` a text field, ``select_option`` a drop-down,
``click`` a checkbox (a change without a signal: no view in the answer), ``press`` Tab, each
``--rounds`` times in turn, through :class:`pagelens.mcp.browsing.Browsing` as the MCP server runs
it. Meant for A/B runs of two source trees on a busy machine (CPU time is less sensitive to the
load than wall time; alternate the trees):

    PYTHONPATH=src .venv/bin/python benchmarks/mcp_action_cost.py [--rounds 30] [--json out.json]
    PYTHONPATH=/tmp/base/src .venv/bin/python benchmarks/mcp_action_cost.py ...
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcp_profile import CpuMeter  # the benchmark folder's own helper


def _eid(browsing: Any, role: str, name: str) -> str:
    for node in browsing._view.observation.nodes:  # (the benchmark reads the server's last view)
        if node.eid is not None and node.role == role and node.name.startswith(name):
            return str(node.eid)
    raise SystemExit(f"no {role} {name!r} on the page")


def main(argv: list[str] | None = None) -> int:
    from pagelens.bench.sites import resolve_site_url, start_sites
    from pagelens.mcp.browsing import Browsing, McpConfig
    from pagelens.mcp.tools import parse_call

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", help="write the per-call rows here")
    args = parser.parse_args(argv)
    browsing = Browsing(McpConfig(goal="Create an employee record"))
    meter = CpuMeter()
    rows: dict[str, list[tuple[float, float, float, float]]] = collections.defaultdict(list)

    def call(tool: str, arguments: dict[str, Any], *, record: bool = True) -> str:
        parsed = parse_call(tool, arguments)
        assert not isinstance(parsed, str), parsed
        c0 = meter.read(thread_last=True)
        t = time.perf_counter()
        reply = browsing.call(parsed)
        wall = time.perf_counter() - t
        c1 = meter.read()
        if reply.is_error:
            raise SystemExit(f"{tool} {arguments}: {reply.text}")
        if record:
            rows[tool].append((wall, *(b - a for a, b in zip(c0, c1, strict=True))))
        return reply.text

    try:
        with start_sites(0) as sites:
            start = resolve_site_url(sites, "site:admin/records?__state=consent:yes;login:admin")
            call("navigate", {"url": start}, record=False)
            call("click", {"id": _eid(browsing, "link", "Create record")}, record=False)
            field, dept = _eid(browsing, "textbox", "First name"), _eid(browsing, "combobox", "Department")
            remote = _eid(browsing, "checkbox", "Works remotely")
            for i in range(args.rounds):
                call("fill", {"id": field, "text": f"Lena {i}"})
                call("select_option", {"id": dept, "option": ("Marketing", "Finance")[i % 2]})
                call("click", {"id": remote})
                call("press", {"key": "Tab"})
    finally:
        browsing.close()
    print("| tool | calls | wall p50 ms | p90 ms | CPU ms / call: python | driver | chromium | all |\n"
          "|---|---|---|---|---|---|---|---|")
    for tool, rs in rows.items():
        walls = sorted(r[0] for r in rs)
        cpu = [statistics.mean(r[k] for r in rs) * 1000 for k in (1, 2, 3)]
        print(f"| {tool} | {len(rs)} | {1000 * statistics.median(walls):.1f} | {1000 * walls[int(0.9 * (len(walls) - 1))]:.1f} | "
              + " | ".join(f"{c:.1f}" for c in cpu) + f" | {sum(cpu):.1f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

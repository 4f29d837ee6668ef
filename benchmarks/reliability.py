"""The reliability table: every fault of ``tests/reliability`` run R times through pytest.

    .venv/bin/python benchmarks/reliability.py [--runs 2] [--json out.json]

A row per fault (one test, or one parameter of it): runs, recovered (the test passed: the sweep
resumed with every key once, the episode failed alone, the call ended with the full tree or a
named status, the error was clear ...), and lost. "Lost" counts runs whose test failed on a
durability assertion (a key missing or duplicated, a row torn, an orphan Chromium); any other
failure is counted under "failed" with its first line.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

LOSS_WORDS = ("duplicate", "orphan", "lost", "len(keys)", "set(keys)", "endswith(b", "torn")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--json", type=Path)
    ap.add_argument("paths", nargs="*", default=["tests/reliability"])
    args = ap.parse_args()
    table: dict[str, dict[str, object]] = defaultdict(lambda: {"runs": 0, "recovered": 0, "lost": 0, "failed": 0,
                                                                "why": "", "seconds": 0.0})
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            xml = Path(tmp) / "junit.xml"
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={xml}",
                            *args.paths], check=False)
            for case in ET.parse(xml).getroot().iter("testcase"):
                name = f"{case.get('classname', '').rsplit('.', 1)[-1]}::{case.get('name')}"
                row = table[name]
                if case.find("skipped") is not None:
                    row["why"] = "skipped: " + (case.find("skipped").get("message") or "")[:80]  # type: ignore[union-attr]
                    continue
                row["runs"] = int(row["runs"]) + 1  # type: ignore[call-overload]
                row["seconds"] = round(float(row["seconds"]) + float(case.get("time", 0)), 1)  # type: ignore[arg-type]
                failure = case.find("failure") if case.find("failure") is not None else case.find("error")
                if failure is None:
                    row["recovered"] = int(row["recovered"]) + 1  # type: ignore[call-overload]
                    continue
                text = (failure.get("message") or "") + (failure.text or "")
                key = "lost" if any(w in text for w in LOSS_WORDS) else "failed"
                row[key] = int(row[key]) + 1  # type: ignore[call-overload]
                row["why"] = (failure.get("message") or "").splitlines()[0][:120] if failure.get("message") else ""
    print("| fault (test) | runs | recovered | lost | failed | s per run | note |")
    print("|---|---|---|---|---|---|---|")
    for name, row in sorted(table.items()):
        runs = int(row["runs"])  # type: ignore[call-overload]
        per = round(float(row["seconds"]) / runs, 1) if runs else 0.0  # type: ignore[arg-type]
        print(f"| {name} | {runs} | {row['recovered']} | {row['lost']} | {row['failed']} | {per} | {row['why']} |")
    if args.json:
        args.json.write_text(json.dumps(table, indent=2))


if __name__ == "__main__":
    main()

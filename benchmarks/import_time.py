"""Start-up cost of `import pagelens`, `import pagelens.api` and `pagelens --help`.

Each command runs N times in a fresh interpreter; we report the median wall time and the
median of `-X importtime`'s total (every top-level import's cumulative time summed: the
interpreter's own start-up imports included), next to the interpreter's own
start-up (`python -c pass`) measured in the same run, so load on a shared machine shows up in
the baseline too.

    PYTHONPATH=src python benchmarks/import_time.py [-n 15]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time

CASES = (
    ("python -c pass (baseline)", ["-c", "pass"], None),
    ("import click (baseline)", ["-X", "importtime", "-c", "import click"], "click"),
    ("import pagelens", ["-X", "importtime", "-c", "import pagelens"], "pagelens"),
    ("import pagelens.api", ["-X", "importtime", "-c", "import pagelens.api"], "pagelens.api"),
    ("pagelens --help", ["-X", "importtime", "-c",
                         "import sys; sys.argv = ['pagelens', '--help']; from pagelens.cli import main; main()"],
     "pagelens.cli"),
)


def _cumulative(stderr: str, module: str) -> float | None:
    """Milliseconds of all imports (top-level entries summed), or None when ``module`` is absent."""
    total, seen = 0, False
    for line in stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\s*)(\S+)$", line)
        if m and not m.group(2):
            total += int(m.group(1))
            seen = seen or m.group(3) == module
    return total / 1000 if seen else None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=15)
    n = parser.parse_args().n
    walls: dict[str, list[float]] = {label: [] for label, _, _ in CASES}
    imports: dict[str, list[float]] = {label: [] for label, _, _ in CASES}
    for _ in range(n):  # round-robin, so a load spike hits every command alike
        for label, args, module in CASES:
            t = time.perf_counter()
            done = subprocess.run([sys.executable, *args], capture_output=True, text=True, check=True)
            walls[label].append((time.perf_counter() - t) * 1000)
            c = _cumulative(done.stderr, module) if module else None
            if c is not None:
                imports[label].append(c)
    print(f"{'command':28} {'wall ms (median)':>17} {'imports ms (median)':>19}")
    for label, _, _ in CASES:
        imp = f"{statistics.median(imports[label]):19.1f}" if imports[label] else f"{'-':>19}"
        print(f"{label:28} {statistics.median(walls[label]):17.1f} {imp}")


if __name__ == "__main__":
    main()

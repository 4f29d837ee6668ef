"""Episodes per minute: the local backend vs Ray with 1 and 2 workers, on the same bundled tasks,
in one run; and Ray's own overhead per unit (no-op units, so only scheduling is timed).

    .venv/bin/python benchmarks/ray_sweep.py [--limit 6] [--noop 200] [--json out.json]

Every configuration writes its own results directory under a temporary folder; the rows of each
are checked to be the same keys with the same outcomes (no loss, no duplicate). A private Ray
cluster is started on 127.0.0.1 for each Ray configuration (its start-up is timed separately and
not counted in the per-episode figures).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class NoopSuite:
    n: int = 200
    name: str = "noop"

    def units(self) -> list[Any]:
        from pagelens.bench.runner import Unit

        return [Unit(f"n{i}", (f"noop:{i}",), i) for i in range(self.n)]

    @contextmanager
    def worker(self):  # type: ignore[no-untyped-def]
        yield lambda unit, todo: [{"key": k, "status": "ok"} for k in todo]


def _outcomes(out: Path) -> list[tuple[str, str, Any]]:
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    keys = [r["key"] for r in rows]
    assert len(keys) == len(set(keys)), "duplicate keys"
    return sorted((r["key"], r["status"], r.get("success")) for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=6, help="bundled tasks per configuration")
    ap.add_argument("--noop", type=int, default=200, help="no-op units for the overhead figure")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()

    import ray

    from pagelens.bench.ray_backend import _import_ray
    from pagelens.bench.runner import run_suite
    from pagelens.bench.suites import TasksSuite

    _import_ray(None)  # loopback mode before anything starts Ray
    tmp = Path(tempfile.mkdtemp(prefix="ray-sweep-"))
    results: dict[str, Any] = {"limit": args.limit, "configs": {}}
    configs = [("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]
    baseline = None
    for backend, workers in configs:
        name = f"{backend}-{workers}"
        out = tmp / name
        suite = TasksSuite(out.resolve(), ("default",), limit=args.limit)
        start_s = 0.0
        if backend == "ray":
            t = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                     object_store_memory=128 * 1024 * 1024)
            start_s = time.perf_counter() - t
        t = time.perf_counter()
        stats = run_suite(suite, out, workers=workers, backend=backend)
        wall = time.perf_counter() - t
        if backend == "ray":
            ray.shutdown()
        outcomes = _outcomes(out)
        baseline = baseline or outcomes
        row = {"backend": backend, "workers": workers, "episodes": stats.ran, "wall_s": round(wall, 1),
               "episodes_per_min": round(60 * stats.ran / wall, 2), "cluster_start_s": round(start_s, 1),
               "success": sum(bool(o[2]) for o in outcomes), "same_rows_as_local_1": outcomes == baseline}
        results["configs"][name] = row
        print(json.dumps(row), flush=True)

    overhead = {}
    for backend in ("local", "ray"):
        samples = []
        for rep in range(2):
            out = tmp / f"noop-{backend}-{rep}"
            if backend == "ray":
                ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                         object_store_memory=128 * 1024 * 1024)
            t = time.perf_counter()
            run_suite(NoopSuite(args.noop), out, workers=2, backend=backend)
            samples.append((time.perf_counter() - t) / args.noop * 1000)
            if backend == "ray":
                ray.shutdown()
        overhead[backend] = round(statistics.median(samples), 2)
    results["noop_ms_per_unit_2_workers"] = overhead
    print(json.dumps({"noop_ms_per_unit_2_workers": overhead}))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

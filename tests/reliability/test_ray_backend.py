"""The Ray backend against a real local cluster (``ray start`` on 127.0.0.1): same rows as the
local backend, every key once, a killed worker's unit retried, then recorded."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = [pytest.mark.ray, pytest.mark.reliability]

SUITE = '''
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from pagelens.bench.runner import Unit

@dataclass(frozen=True)
class Suite:
    flag_dir: str
    die_on: int = -1
    always: bool = False
    name: str = "rayfake"
    def units(self):
        return [Unit(f"u{i}", (f"rayfake:{i}:a", f"rayfake:{i}:b"), i) for i in range(6)]
    @contextmanager
    def worker(self):
        def run(unit, todo):
            flag = Path(self.flag_dir) / f"died-{unit.payload}"
            if unit.payload == self.die_on and (self.always or not flag.exists()):
                flag.touch()
                os._exit(9)
            return [{"key": k, "status": "ok", "value": unit.payload * 10, "pid": os.getpid()} for k in sorted(todo)]
        yield run
'''

DRIVER = '''
import json, sys
from pathlib import Path
from pagelens.bench.runner import run_suite
import ray_fake_suite as m
address, out, flags, die_on, always, backend = sys.argv[1:7]
stats = run_suite(m.Suite(flags, int(die_on), always == "1"), Path(out), workers=2, backend=backend,
                  address=address or None, retries=1)
print(json.dumps({"ran": stats.ran, "errors": stats.errors, "rows": stats.rows_written}))
'''


def _drive(cluster, tmp_path: Path, name: str, *, die_on: int = -1, always: bool = False,
           backend: str = "ray") -> tuple[dict, list[dict]]:
    address, env, mods = cluster
    (mods / "ray_fake_suite.py").write_text(textwrap.dedent(SUITE))
    out = tmp_path / name
    flags = tmp_path / f"{name}-flags"
    flags.mkdir()
    proc = subprocess.run([sys.executable, "-c", DRIVER, address if backend == "ray" else "", str(out), str(flags),
                           str(die_on), "1" if always else "0", backend],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    stats = json.loads(proc.stdout.strip().splitlines()[-1])
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return stats, rows


def test_ray_rows_equal_local_rows(ray_cluster, tmp_path: Path) -> None:
    _, local = _drive(ray_cluster, tmp_path, "local", backend="local")
    stats, remote = _drive(ray_cluster, tmp_path, "ray")
    strip = lambda rows: sorted((r["key"], r["status"], r["value"]) for r in rows)  # noqa: E731
    assert strip(remote) == strip(local) and len(remote) == 12
    assert stats == {"ran": 6, "errors": 0, "rows": 12}
    assert len({r["pid"] for r in remote}) == 2  # two actors, each its own process


def test_killed_ray_worker_is_retried_then_recorded(ray_cluster, tmp_path: Path) -> None:
    stats, rows = _drive(ray_cluster, tmp_path, "retry", die_on=3)
    assert stats["errors"] == 0 and sorted(r["key"] for r in rows) == sorted(
        f"rayfake:{i}:{s}" for i in range(6) for s in "ab")
    assert (tmp_path / "retry-flags" / "died-3").exists()
    stats, rows = _drive(ray_cluster, tmp_path, "always", die_on=3, always=True)
    by_key = {r["key"]: r for r in rows}
    assert len(rows) == 12 and stats["errors"] == 1
    assert by_key["rayfake:3:a"]["status"] == "error" and "ray worker died" in by_key["rayfake:3:a"]["reason"]
    assert all(by_key[f"rayfake:{i}:a"]["status"] == "ok" for i in (0, 1, 2, 4, 5))


@pytest.mark.browser
def test_bench_tasks_cli_on_ray_leaves_the_rows_local_leaves(ray_cluster, tmp_path: Path) -> None:
    """`pagelens bench tasks --limit 2 --backend ray --workers 2` = the local backend's rows (real
    Chromium and bundled sites inside each Ray actor)."""
    address, env, _ = ray_cluster
    got = {}
    for backend in ("local", "ray"):
        out = tmp_path / backend
        cmd = [sys.executable, "-m", "pagelens.cli", "bench", "tasks", "--limit", "2", "--workers", "2",
               "--retriever", "default", "--no-report", "--out", str(out), "--backend", backend]
        if backend == "ray":
            cmd += ["--address", address]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
        got[backend] = sorted((r["key"], r["status"], r["success"], r["steps"]) for r in rows)
        assert f"tasks ({backend}): 2 units" in proc.stderr
    assert got["ray"] == got["local"] and len(got["ray"]) == 2
    assert all(status == "ok" and success for _, status, success, _ in got["ray"])

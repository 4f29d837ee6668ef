"""A full disk under the results file: a clear error, and every row written before stays whole."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


import pytest

from pagelens.bench.runner import ResultStore, Unit, Worker, run_suite
from pagelens.errors import ResultsError

pytestmark = pytest.mark.reliability


@dataclass(frozen=True)
class BigRows:
    n: int = 40
    name: str = "big"

    def units(self) -> list[Unit]:
        return [Unit(f"u{i}", (f"big:{i}",), i) for i in range(self.n)]

    @contextmanager
    def worker(self) -> Iterator[Worker]:
        yield lambda unit, todo: [{"key": k, "status": "ok", "pad": "x" * 3000} for k in todo]


@pytest.fixture()
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {done.stderr.decode()[:200]}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_full_disk_is_a_clear_error_and_corrupts_nothing(tiny_disk: Path) -> None:
    out = tiny_disk / "run"
    with pytest.raises(ResultsError, match="No space left on device") as err:
        run_suite(BigRows(), out)
    assert "resume" in str(err.value)
    raw = (out / "results.jsonl").read_bytes()
    assert raw.endswith(b"\n")  # no half row
    rows = ResultStore(out).load()
    assert 0 < len(rows) < 40 and all(len(r["pad"]) == 3000 for r in rows)
    assert (out / "results.jsonl").read_bytes() == raw  # load() had nothing to repair


def test_cli_reports_a_full_disk_in_one_line(tiny_disk: Path, tmp_path: Path) -> None:
    import sys

    (tiny_disk / "filler").write_bytes(b"x" * 30_000)  # leave almost nothing
    out = tiny_disk / "run"
    proc = subprocess.run([sys.executable, "-m", "pagelens.cli", "bench", "cases", "--limit", "1", "--retriever",
                           "default", "--no-report", "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr[-1500:]
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and ("No space left" in last or "could not write" in last), last
    assert "Traceback" not in proc.stderr



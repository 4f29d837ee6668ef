"""A sweep under faults, through the real CLI, real Chromium and the bundled sites: the runner
killed with SIGKILL and resumed, Chromium killed mid-episode, Ctrl-C. Nothing lost, nothing
duplicated, no Chromium left behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.procs import alive, chromium_under, wait_until

pytestmark = [pytest.mark.reliability, pytest.mark.browser]


def _bench(out: Path, limit: int) -> subprocess.Popen[bytes]:
    """The CLI in a child process; its stderr goes to ``OUT.stderr`` (no pipes left open on a kill)."""
    cmd = [sys.executable, "-m", "pagelens.cli", "bench", "tasks", "--limit", str(limit), "--retriever", "default",
           "--no-report", "--out", str(out)]
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{out}.stderr", "ab") as err:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)


def _finish(proc: subprocess.Popen[bytes], out: Path, timeout: float = 600) -> str:
    proc.wait(timeout=timeout)
    return Path(f"{out}.stderr").read_text(errors="replace")


def _rows(out: Path) -> list[dict]:
    path = out / "results.jsonl"
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return rows


def test_sigkill_mid_sweep_then_resume_loses_and_repeats_nothing(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _bench(out, 4)
    seen: dict[int, str] = {}
    assert wait_until(lambda: (seen.update(chromium_under(proc.pid)) or len(_rows(out)) >= 1), 240), "no row"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    done_before = {r["key"] for r in _rows(out)}
    assert 1 <= len(done_before) < 4
    with (out / "results.jsonl").open("a") as fh:  # the kill landed in the middle of a row
        fh.write('{"key": "tasks:torn", "status": "o')
    assert wait_until(lambda: not alive(seen), 20), f"orphan Chromium after SIGKILL: {alive(seen)}"
    again = _bench(out, 4)
    err = _finish(again, out)
    assert again.returncode == 0, err[-2000:]
    keys = [r["key"] for r in _rows(out)]
    assert len(keys) == 4 == len(set(keys)) and done_before <= set(keys)
    assert "tasks:torn" not in keys and f"{len(done_before)} already done" in err
    assert all(r["status"] == "ok" and r["success"] for r in _rows(out))


def test_chromium_killed_mid_episode_fails_that_episode_only(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _bench(out, 3)
    browsers: dict[int, str] = {}

    def browser_up() -> bool:
        # the browser itself (a version probe or a crash handler started beside it is not the episode's browser)
        browsers.update({p: c for p, c in chromium_under(proc.pid).items()
                         if "--type=" not in c and "--remote-debugging" in c})
        return bool(browsers)

    assert wait_until(browser_up, 120), "Chromium never started"
    # inside the first episode: soon after its browser is up (a quiet machine runs a whole episode in under 2 s)
    time.sleep(0.3)
    hit = alive(browsers)
    assert hit and not _rows(out), "the kill came after the first episode"
    for pid in hit:
        os.kill(pid, signal.SIGKILL)
    err = _finish(proc, out)
    assert proc.returncode == 0, err[-2000:]
    rows = sorted(_rows(out), key=lambda r: r["key"])
    assert len(rows) == 3 and len({r["key"] for r in rows}) == 3
    failed = [r for r in rows if r["status"] != "ok" or not r["success"]]
    assert 1 <= len(failed) <= 1, rows  # the episode that lost its browser, and only it
    assert sum(r["status"] == "ok" and r["success"] for r in rows) == 2  # a fresh Chromium ran the rest
    assert not alive(browsers)


def test_ctrl_c_ends_the_sweep_cleanly(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _bench(out, 6)
    seen: dict[int, str] = {}
    assert wait_until(lambda: (seen.update(chromium_under(proc.pid)) or len(_rows(out)) >= 1), 240)
    t = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _finish(proc, out, timeout=60)
    assert time.monotonic() - t < 20, "Ctrl-C took too long"
    assert proc.returncode != 0
    assert wait_until(lambda: not alive(seen), 20), f"orphan Chromium after Ctrl-C: {alive(seen)}"
    lines = (out / "results.jsonl").read_text().splitlines()
    assert all(json.loads(x)["status"] for x in lines)  # every line whole

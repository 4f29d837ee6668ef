"""Every CLI command, run as a user runs it (a fresh interpreter, real servers, real Chromium).

`observe` is covered in tests/browser/test_observe.py, `run` in tests/e2e/test_run.py, `bench`
in tests/browser/test_bench_slices.py and `report` in tests/unit/test_report.py; this file adds
the rest and checks that every registered command is covered somewhere.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from pagelens.cli import COMMANDS

TESTS = Path(__file__).resolve().parents[1]
_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def _cli(*args: str, timeout: float = 300, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pagelens.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=_ENV, cwd=cwd, check=False)


def test_every_command_has_a_test() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py"))
    untested = [name for name in COMMANDS if f'"{name}"' not in text]
    assert untested == []


def test_help_lists_every_command_and_each_help_works() -> None:
    done = _cli("--help")
    assert done.returncode == 0
    assert all(name in done.stdout for name in COMMANDS)
    for name in COMMANDS:
        sub = _cli(name, "--help")
        assert sub.returncode == 0 and "Usage:" in sub.stdout, name


def test_tasks_lists_the_bundled_tasks() -> None:
    from pagelens.bench.task_defs import load_tasks

    done = _cli("tasks")
    assert done.returncode == 0, done.stderr
    assert all(t.id in done.stdout for t in load_tasks(0)[:5])


def test_tasks_lists_a_task_file_and_names_a_bad_field(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('[[task]]\nid = "my-page"\nstart = "http://127.0.0.1:9/"\ngoal = "Read it."\ntags = ["mine"]\n')
    done = _cli("tasks", "--task-file", str(path))
    assert done.returncode == 0, done.stderr
    assert "my-page" in done.stdout and "mine" in done.stdout and "shop-cart-edit" not in done.stdout
    path.write_text('[[task]]\nid = "my-page"\nstart = "http://127.0.0.1:9/"\ngoal = "Read it."\ntag = "x"\n')
    bad = _cli("tasks", "--task-file", str(path))
    assert bad.returncode != 0 and "task 'my-page' (task[0]): tag: unknown field" in bad.stderr.replace("\n", "")


def test_run_refuses_both_and_neither() -> None:
    neither = _cli("run")
    assert neither.returncode == 2 and "--url" in neither.stderr
    no_goal = _cli("run", "--url", "http://127.0.0.1:9/")
    assert no_goal.returncode == 2 and "--goal" in no_goal.stderr
    unknown = _cli("run", "no-such-task")
    assert unknown.returncode == 2 and "unknown task" in unknown.stderr


@pytest.mark.browser
def test_sites_serve_answers_then_stops_on_interrupt() -> None:
    with subprocess.Popen([sys.executable, "-m", "pagelens.cli", "sites", "serve"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=_ENV) as proc:
        try:
            assert proc.stdout is not None
            urls = {}
            while len(urls) < 4:
                line = proc.stdout.readline()
                assert line, "sites serve printed no URLs"
                name, _, url = line.partition(" ")
                if url.strip().startswith("http://127.0.0.1:"):
                    urls[name] = url.strip()
            with urllib.request.urlopen(urls["shop"] + "/", timeout=10) as resp:
                assert resp.status == 200 and b"<html" in resp.read().lower()
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
    assert proc.returncode in (0, 130)


@pytest.mark.browser
def test_eval_cases_on_one_bundled_case(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = _cli("eval-cases", "--limit", "1", "--retriever", "full", "--retriever", "default", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert out.is_file() and "default" in out.read_text()


@pytest.mark.browser
@pytest.mark.slow
def test_demo_runs_and_writes_its_report(tmp_path: Path) -> None:
    done = _cli("demo", "--out", str(tmp_path / "demo"), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "demo" / "report.html").is_file() and "saved" in done.stdout

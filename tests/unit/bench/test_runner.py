"""The resumable runner: every key exactly once across crashes, torn lines and restarts."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pagelens.bench.runner import ResultStore, Unit, Worker, run_suite


class Crash(BaseException):
    """Stands for the process dying (not an Exception: the runner must not swallow it)."""


@dataclass(frozen=True)
class FakeSuite:
    n: int = 6
    per_unit: int = 2
    crash_after: int | None = None  # units completed before the "process dies"
    fail_unit: int | None = None  # this unit raises an ordinary error
    name: str = "fake"

    def units(self) -> list[Unit]:
        return [Unit(f"u{i}", tuple(f"fake:{i}:{j}" for j in range(self.per_unit)), i) for i in range(self.n)]

    @contextmanager
    def worker(self) -> Iterator[Worker]:
        ran = [0]

        def run(unit: Unit, todo: frozenset[str]) -> list[dict[str, Any]]:
            if self.crash_after is not None and ran[0] >= self.crash_after:
                raise Crash()
            ran[0] += 1
            if unit.payload == self.fail_unit:
                raise ValueError("boom")
            return [{"key": k, "status": "ok", "value": unit.payload} for k in sorted(todo)]

        yield run


def _keys(path: Path) -> list[str]:
    return [json.loads(line)["key"] for line in path.read_text().splitlines()]


def test_crash_and_torn_line_then_resume_gives_every_key_once(tmp_path: Path) -> None:
    with pytest.raises(Crash):
        run_suite(FakeSuite(crash_after=2), tmp_path)
    results = tmp_path / "results.jsonl"
    assert len(_keys(results)) == 4  # two units, two rows each, durable
    with results.open("a") as fh:  # the process died in the middle of writing a row
        fh.write('{"key": "fake:2:0", "status": "o')
    stats = run_suite(FakeSuite(), tmp_path)
    keys = _keys(results)
    assert sorted(keys) == sorted(f"fake:{i}:{j}" for i in range(6) for j in range(2))
    assert len(keys) == len(set(keys))
    assert stats.skipped == 2 and stats.ran == 4 and stats.rows_written == 8
    again = run_suite(FakeSuite(), tmp_path)  # nothing left to do
    assert again.ran == 0 and again.skipped == 6 and _keys(results) == keys


def test_a_failing_unit_is_recorded_not_fatal(tmp_path: Path) -> None:
    stats = run_suite(FakeSuite(n=3, fail_unit=1), tmp_path)
    rows = {r["key"]: r for r in ResultStore(tmp_path).load()}
    assert len(rows) == 6 and stats.errors == 1
    assert rows["fake:1:0"]["status"] == "error" and "boom" in rows["fake:1:0"]["reason"]
    assert rows["fake:2:1"]["status"] == "ok"


def test_partial_unit_runs_only_missing_keys(tmp_path: Path) -> None:
    ResultStore(tmp_path).append([{"key": "fake:0:0", "status": "ok", "value": -1}])
    run_suite(FakeSuite(n=1), tmp_path)
    rows = ResultStore(tmp_path).load()
    assert [(r["key"], r["value"]) for r in rows] == [("fake:0:0", -1), ("fake:0:1", 0)]


def test_store_discards_invalid_tail_line(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.append([{"key": "a"}, {"key": "b"}])
    with store.path.open("ab") as fh:
        fh.write(b'{"key": "c"\n')  # complete line, broken JSON
    assert [r["key"] for r in store.load()] == ["a", "b"]
    assert store.path.read_bytes().endswith(b'"b"}\n')


def test_workers_in_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # spawned children import the suite's module by name: put it on the path they inherit
    (tmp_path / "fake_suite_mod.py").write_text(textwrap.dedent('''
        from contextlib import contextmanager
        from dataclasses import dataclass
        from pagelens.bench.runner import Unit

        @dataclass(frozen=True)
        class Suite:
            name: str = "par"
            def units(self):
                return [Unit(f"u{i}", (f"par:{i}",), i) for i in range(5)]
            @contextmanager
            def worker(self):
                import os
                yield lambda unit, todo: [{"key": k, "status": "ok", "pid": os.getpid()} for k in todo]
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = __import__("fake_suite_mod")
    out = tmp_path / "out"
    stats = run_suite(mod.Suite(), out, workers=2)
    rows = ResultStore(out).load()
    assert sorted(r["key"] for r in rows) == [f"par:{i}" for i in range(5)]
    assert stats.ran == 5
    sys.modules.pop("fake_suite_mod", None)


def test_retry_failed_reruns_error_rows_once(tmp_path: Path) -> None:
    run_suite(FakeSuite(n=3, fail_unit=1), tmp_path)
    stats = run_suite(FakeSuite(n=3), tmp_path, retry_failed=True)
    rows = ResultStore(tmp_path).load()
    assert stats.ran == 1 and len(rows) == 6 and all(r["status"] == "ok" for r in rows)
    assert len({r["key"] for r in rows}) == 6

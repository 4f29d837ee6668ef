"""Local process backend: a worker process that dies mid-unit costs a retry, never a lost key."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from pagelens.bench.runner import ResultStore, run_suite
from pagelens.errors import ConfigError

SUITE = '''
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from pagelens.bench.runner import Unit

@dataclass(frozen=True)
class Suite:
    flag_dir: str
    die_on: int = 2
    always: bool = False
    name: str = "dies"
    def units(self):
        return [Unit(f"u{i}", (f"dies:{i}",), i) for i in range(5)]
    @contextmanager
    def worker(self):
        def run(unit, todo):
            flag = Path(self.flag_dir) / f"died-{unit.payload}"
            if unit.payload == self.die_on and (self.always or not flag.exists()):
                flag.touch()
                os._exit(9)  # the process dies: no exception, no cleanup
            return [{"key": k, "status": "ok", "pid": os.getpid()} for k in todo]
        yield run
'''


@pytest.fixture()
def suite_mod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "dying_suite_mod.py").write_text(textwrap.dedent(SUITE))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    mod = __import__("dying_suite_mod")
    yield mod
    sys.modules.pop("dying_suite_mod", None)


def test_dead_worker_unit_is_retried_on_a_fresh_process(tmp_path: Path, suite_mod) -> None:
    out = tmp_path / "out"
    stats = run_suite(suite_mod.Suite(str(tmp_path)), out, workers=2, retries=1)
    rows = ResultStore(out).load()
    assert sorted(r["key"] for r in rows) == [f"dies:{i}" for i in range(5)]
    assert all(r["status"] == "ok" for r in rows) and stats.errors == 0
    assert (tmp_path / "died-2").exists()  # it really died once


def test_unit_that_always_kills_its_worker_becomes_an_error_row(tmp_path: Path, suite_mod) -> None:
    out = tmp_path / "out"
    stats = run_suite(suite_mod.Suite(str(tmp_path), always=True), out, workers=2, retries=2)
    rows = {r["key"]: r for r in ResultStore(out).load()}
    assert len(rows) == 5 and stats.errors == 1
    assert rows["dies:2"]["status"] == "error"
    assert "died" in rows["dies:2"]["reason"] and "3 attempts" in rows["dies:2"]["reason"]
    assert all(rows[f"dies:{i}"]["status"] == "ok" for i in (0, 1, 3, 4))


def test_unknown_backend_is_a_config_error(tmp_path: Path, suite_mod) -> None:
    with pytest.raises(ConfigError, match="backend"):
        run_suite(suite_mod.Suite(str(tmp_path)), tmp_path / "o", backend="dask")

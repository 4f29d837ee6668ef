"""The units of work a benchmark suite is made of, and how one unit is run: shared by the
runner (:mod:`pagelens.bench.runner`) and its backends (:mod:`pagelens.bench.ray_backend`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["FAILED", "Attempts", "Suite", "Unit", "Worker", "error_rows", "run_one"]

FAILED = ("error", "timeout")


@dataclass(frozen=True, slots=True)
class Unit:
    label: str
    keys: tuple[str, ...]  # the row keys this unit produces
    payload: Any = None  # picklable: what the worker needs to run it


#: Runs one unit; ``todo`` is the subset of ``unit.keys`` still missing. Returns rows with ``key``.
Worker = Callable[[Unit, frozenset[str]], list[dict[str, Any]]]


class Suite(Protocol):
    name: str

    def units(self) -> Sequence[Unit]: ...

    def worker(self) -> AbstractContextManager[Worker]: ...


def error_rows(unit: Unit, todo: frozenset[str], suite: str, message: str) -> list[dict[str, Any]]:
    return [{"key": k, "suite": suite, "status": "error", "reason": message[:500], "unit": unit.label}
            for k in unit.keys if k in todo]


def run_one(worker: Worker, unit: Unit, todo: frozenset[str], suite: str) -> list[dict[str, Any]]:
    try:
        rows = worker(unit, todo)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        return error_rows(unit, todo, suite, f"{type(exc).__name__}: {exc}")
    for row in rows:
        row.setdefault("suite", suite)
    return [r for r in rows if r.get("key") in todo]


class Attempts:
    """How often each unit was lost with its worker; decides between a retry and an error row."""

    def __init__(self, retries: int) -> None:
        self.retries = max(0, retries)
        self.lost: dict[str, int] = {}

    def lose(self, unit: Unit) -> bool:
        """Record a loss; True when the unit may run again."""
        self.lost[unit.label] = self.lost.get(unit.label, 0) + 1
        return self.lost[unit.label] <= self.retries

    def reason(self, unit: Unit, why: str) -> str:
        n = self.lost.get(unit.label, 0)
        return f"{why} ({n} attempt{'s' if n != 1 else ''})"

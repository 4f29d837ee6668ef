"""A resumable benchmark runner: units of work in, JSONL rows out, every key exactly once.

A :class:`Suite` lists :class:`Unit` values, each naming the row keys it produces, and opens a
worker (one per process; it owns that process's browser) that turns a unit into rows. Rows
are appended to ``DIR/results.jsonl`` by the parent process alone, each written with
flush + fsync. On restart, keys already there are skipped; a partially written last line
(a crash mid-write) is cut off first. A unit whose worker raises becomes ``status: "error"``
rows, so one bad unit never ends the run.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagelens.bench.work import FAILED, Attempts, Suite, Unit, Worker, error_rows, run_one
from pagelens.errors import ResultsError

__all__ = ["ResultStore", "RunStats", "Suite", "Unit", "Worker", "run_suite"]

RESULTS = "results.jsonl"


class ResultStore:
    """``results.jsonl``: load the completed keys (repairing a torn tail), append durably."""

    def __init__(self, out_dir: Path) -> None:
        self.path = Path(out_dir) / RESULTS

    def load(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        data = self.path.read_bytes()
        rows: list[dict[str, Any]] = []
        good = 0  # byte offset after the last complete, valid line
        pos = 0
        while pos < len(data):
            end = data.find(b"\n", pos)
            if end < 0:
                break  # no newline: written partially
            line = data[pos:end]
            try:
                row = json.loads(line) if line.strip() else None
            except json.JSONDecodeError:
                break  # a torn line: everything from here is discarded
            if isinstance(row, dict) and "key" in row:
                rows.append(row)
            pos = good = end + 1
        if good < len(data):
            with self.path.open("r+b") as fh:
                fh.truncate(good)
                fh.flush()
                os.fsync(fh.fileno())
        return rows

    def drop_failed(self) -> int:
        """Remove ``error``/``timeout`` rows (atomically), so a resumed run retries those keys."""
        rows = self.load()
        keep = [r for r in rows if r.get("status") not in FAILED]
        if len(keep) != len(rows):
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.unlink(missing_ok=True)
            ResultStore.append(_At(tmp), keep)
            os.replace(tmp, self.path)
        return len(rows) - len(keep)

    def append(self, rows: Iterable[dict[str, Any]]) -> None:
        """Append ``rows`` durably, all or none: on a write error (a full disk) the file is cut
        back to where it was and :class:`~pagelens.errors.ResultsError` says why."""
        data = b"".join(json.dumps(row, ensure_ascii=False, default=str).encode("utf-8") + b"\n" for row in rows)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("ab", buffering=0) as fh:  # unbuffered: a failed write can be undone
                start = fh.seek(0, os.SEEK_END)
                try:
                    view = memoryview(data)
                    while view:
                        written = fh.write(view) or 0
                        if written <= 0:
                            raise OSError(28, "No space left on device")
                        view = view[written:]
                    os.fsync(fh.fileno())
                except OSError:
                    fh.truncate(start)
                    raise
        except OSError as exc:
            raise ResultsError(f"could not write {self.path}: {exc.strerror or exc}; the rows written "
                               "before are intact, rerun with the same --out to resume") from None


class _At(ResultStore):
    def __init__(self, path: Path) -> None:
        self.path = path


@dataclass
class RunStats:
    units: int = 0  # units in the suite
    skipped: int = 0  # units already complete
    ran: int = 0
    errors: int = 0  # units whose worker raised
    rows_written: int = 0
    seconds: float = 0.0
    rows: list[dict[str, Any]] = field(default_factory=list)  # every row in the store after the run


Progress = Callable[[Unit, int, int], None]  # (unit just finished, done so far, to do)


BACKENDS = ("local", "ray")


def run_suite(suite: Suite, out_dir: Path, *, workers: int = 1, progress: Progress | None = None,
              retry_failed: bool = False, backend: str = "local", address: str | None = None,
              retries: int = 1) -> RunStats:
    """Run every unit of ``suite`` not yet complete in ``out_dir``; return the stats and all rows.

    With ``retry_failed``, keys whose rows say ``error``/``timeout`` are run again (their old
    rows are removed first, so each key still appears once). ``backend`` is ``local`` (this
    process, or ``workers`` spawned processes) or ``ray`` (one actor per worker, each with its own
    browser; ``address`` of a running cluster, or none to start one on 127.0.0.1). A unit whose
    worker process dies is run again on a fresh worker up to ``retries`` times, then recorded as
    an error. Only this process writes ``results.jsonl``, whatever the backend.
    """
    if backend not in BACKENDS:
        from pagelens.errors import ConfigError

        raise ConfigError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    t0 = time.perf_counter()
    store = ResultStore(out_dir)
    if retry_failed:
        store.drop_failed()
    done = {r["key"] for r in store.load()}
    units = list(suite.units())
    stats = RunStats(units=len(units))
    pending: list[tuple[Unit, frozenset[str]]] = []
    for unit in units:
        todo = frozenset(k for k in unit.keys if k not in done)
        if todo:
            pending.append((unit, todo))
        else:
            stats.skipped += 1

    def record(unit: Unit, rows: list[dict[str, Any]]) -> None:
        fresh = [r for r in rows if r["key"] not in done]
        store.append(fresh)
        done.update(r["key"] for r in fresh)
        stats.ran += 1
        stats.errors += any(r.get("status") in FAILED for r in fresh)
        stats.rows_written += len(fresh)
        if progress is not None:
            progress(unit, stats.ran, len(pending))

    if pending:
        if backend == "ray":
            from pagelens.bench.ray_backend import ray_dispatch

            for unit, rows in ray_dispatch(suite, pending, workers, retries, address=address):
                record(unit, rows)
        elif workers <= 1 or len(pending) == 1:
            with suite.worker() as worker:
                for unit, todo in pending:
                    record(unit, run_one(worker, unit, todo, suite.name))
        else:
            for unit, rows in _parallel(suite, pending, workers, retries):
                record(unit, rows)
    stats.rows = store.load()
    stats.seconds = round(time.perf_counter() - t0, 2)
    return stats


def _worker_main(suite: Suite, inbox: Any, outbox: Any, slot: int) -> None:
    """One spawned process: open the suite's worker once, run units one at a time."""
    try:
        with suite.worker() as worker:
            for item in iter(inbox.get, None):
                unit, todo = item
                outbox.put((slot, unit, run_one(worker, unit, todo, suite.name)))
    except BaseException:  # noqa: BLE001 - the parent records what this worker left undone
        outbox.put((slot, None, traceback.format_exc()))


def _parallel(suite: Suite, pending: list[tuple[Unit, frozenset[str]]], n: int,
              retries: int = 1) -> Iterator[tuple[Unit, list[dict[str, Any]]]]:
    """Each process opens its own worker (and browser) and holds one unit at a time, so a dead
    process's unit is known: it is retried on a fresh process, then recorded. The parent alone
    writes rows."""
    ctx = multiprocessing.get_context("spawn")
    outbox = ctx.Queue()
    queue_: list[tuple[Unit, frozenset[str]]] = list(pending)
    attempts = Attempts(retries)
    n = min(n, len(pending))
    procs: dict[int, Any] = {}
    inboxes: dict[int, Any] = {}
    holding: dict[int, tuple[Unit, frozenset[str]] | None] = {}

    def start(slot: int) -> None:
        inboxes[slot] = ctx.Queue()
        procs[slot] = ctx.Process(target=_worker_main, args=(suite, inboxes[slot], outbox, slot), daemon=True)
        procs[slot].start()
        holding[slot] = None

    def feed(slot: int) -> None:
        if queue_:
            holding[slot] = queue_.pop(0)
            inboxes[slot].put(holding[slot])
        else:
            holding[slot] = None
            inboxes[slot].put(None)

    def lost(slot: int, why: str) -> Iterator[tuple[Unit, list[dict[str, Any]]]]:
        item = holding.get(slot)
        holding[slot] = None
        if item is not None:
            unit, todo = item
            if attempts.lose(unit):
                queue_.insert(0, item)
            else:
                yield unit, error_rows(unit, todo, suite.name, attempts.reason(unit, why))

    for slot in range(n):
        start(slot)
        feed(slot)
    try:
        while any(h is not None for h in holding.values()):
            try:
                slot, unit, rows = outbox.get(timeout=1.0)
            except queue.Empty:
                for slot, p in list(procs.items()):
                    if holding.get(slot) is not None and not p.is_alive():
                        yield from lost(slot, f"worker process died (exit code {p.exitcode})")
                        if queue_:
                            start(slot)
                            feed(slot)
                continue
            if unit is None:  # the worker could not open or ended with an exception
                yield from lost(slot, "worker process failed: " + str(rows).strip().splitlines()[-1][:300]
                                if rows else "worker process failed")
                procs[slot].join(timeout=5)
                if queue_:
                    start(slot)
                    feed(slot)
                continue
            holding[slot] = None
            yield unit, rows
            feed(slot)
    finally:
        for slot, p in procs.items():
            if p.is_alive():
                try:
                    inboxes[slot].put(None)
                except (OSError, ValueError):
                    pass
        for p in procs.values():
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)

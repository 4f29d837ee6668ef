"""The benchmark suites ``pagelens bench`` runs: ``cases``, ``miniwob`` and ``tasks``.

Each is a :class:`~pagelens.bench.runner.Suite`: picklable settings, units with stable keys,
and a worker opened once per process (its own browser). Row keys:

* ``cases:<case index>:<retriever>`` — one labeled focus case, scored as ``eval-cases`` does,
  plus the kept line numbers; the full and focused texts go under ``DIR/dump/``;
* ``miniwob:<task>:<seed>:<retriever>`` — oracle retention (:mod:`pagelens.bench.miniwob`);
* ``tasks:<task>:<policy>:<observe mode>:<retriever>`` — one bundled multi-step task through
  :func:`pagelens.bench.bind.run_bundled`, its trace under ``DIR/traces/``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagelens.bench.runner import Unit, Worker

__all__ = ["CasesSuite", "MiniwobSuite", "TasksSuite", "safe_name"]


def safe_name(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


def _retrievers(names: Sequence[str]) -> list[Any]:
    from pagelens.focus.registry import make_retriever

    return [make_retriever(n) for n in names]


@dataclass(frozen=True)
class CasesSuite:
    out_dir: Path
    retrievers: tuple[str, ...]
    cases_file: Path
    pages_dir: Path
    limit: int | None = None
    settle_s: float = 1.0
    name: str = "cases"

    def _cases(self) -> list[Any]:
        from pagelens.bench.cases import load_cases

        cases = load_cases(self.cases_file)
        return cases[: self.limit] if self.limit else cases

    def units(self) -> list[Unit]:
        return [Unit(f"case {n}: {c.id or c.page}", tuple(f"cases:{n}:{r}" for r in self.retrievers), n)
                for n, c in enumerate(self._cases())]

    @contextmanager
    def worker(self) -> Iterator[Worker]:
        from pagelens import tokens
        from pagelens.bench.evalcases import _PageLoader, focus_case, score_case
        from pagelens.browser.session import BrowserSession
        from pagelens.focus.view import render_observation

        cases = self._cases()
        built = {r: rr for r, rr in zip(self.retrievers, _retrievers(self.retrievers))}
        dump = self.out_dir / "dump"
        dump.mkdir(parents=True, exist_ok=True)
        with ExitStack() as stack:
            session = stack.enter_context(BrowserSession())
            loader = _PageLoader(stack, self.pages_dir, session, self.settle_s)

            def run(unit: Unit, todo: frozenset[str]) -> list[dict[str, Any]]:
                session.ensure_alive()
                n = int(unit.payload)
                case = cases[n]
                rendering = render_observation(loader.observe(case))
                full_name = f"{n}.full.txt"
                (dump / full_name).write_text(rendering.text(), encoding="utf-8")
                rows = []
                full_tokens = tokens.count(rendering.text())
                for name, retriever in built.items():
                    key = f"cases:{n}:{name}"
                    if key not in todo:
                        continue
                    result = focus_case(rendering, case, retriever, full_tokens=full_tokens)
                    focused_name = f"{n}.{safe_name(name)}.focused.txt"
                    (dump / focused_name).write_text(result.text(), encoding="utf-8")
                    row = score_case(case, rendering, result)
                    row.update({"key": key, "status": "ok", "case": n, "id": case.id, "page": case.page,
                                "goal": case.goal, "kind": case.kind, "retriever": name,
                                "injection": case.injection is not None, "kept": sorted(result.kept),
                                "dump_full": f"dump/{full_name}", "dump_focused": f"dump/{focused_name}"})
                    rows.append(row)
                return rows

            yield run


@dataclass(frozen=True)
class MiniwobSuite:
    retrievers: tuple[str, ...]
    seeds: int = 2
    limit: int | None = None
    tasks: tuple[str, ...] = ()  # default: every registered task
    timeout_s: float = 60.0
    name: str = "miniwob"

    def _tasks(self) -> list[str]:
        if self.tasks:
            return list(self.tasks)
        from pagelens.bench.miniwob import task_names

        names = task_names()
        return names[: self.limit] if self.limit else names

    def units(self) -> list[Unit]:
        return [Unit(f"{t} seed {s}", tuple(f"miniwob:{t}:{s}:{r}" for r in self.retrievers), (t, s))
                for t in self._tasks() for s in range(self.seeds)]

    @contextmanager
    def worker(self) -> Iterator[Worker]:
        from pagelens.bench.miniwob import MiniwobHarness

        built = dict(zip(self.retrievers, _retrievers(self.retrievers)))  # keyed by the names asked for
        with MiniwobHarness(timeout_s=self.timeout_s) as harness:

            def run(unit: Unit, todo: frozenset[str]) -> list[dict[str, Any]]:
                task, seed = unit.payload
                names = [n for n in built if f"miniwob:{task}:{seed}:{n}" in todo]
                outcome = harness.run(task, seed, [built[n] for n in names])
                rows = outcome.rows([built[n].name for n in names])
                for row, name in zip(rows, names):
                    row["key"] = f"miniwob:{task}:{seed}:{name}"
                    row["retriever"] = name
                return rows

            yield run


@dataclass(frozen=True)
class TasksSuite:
    out_dir: Path
    retrievers: tuple[str, ...]
    policies: tuple[str, ...] = ("scripted",)
    observe_modes: tuple[str, ...] = ("signals",)
    limit: int | None = None
    seed: int = 0
    max_steps: int = 30
    name: str = "tasks"
    only: tuple[str, ...] = ()  # task ids; empty: all
    tags: tuple[str, ...] = ()  # only tasks with one of these tags; empty: all
    task_file: Path | None = None  # a user's task file instead of the bundled catalog

    def _all(self) -> tuple[Any, ...]:
        if self.task_file is not None:
            from pagelens.bench.taskfile import load_task_file

            return load_task_file(self.task_file, self.seed)
        from pagelens.bench.task_defs import load_tasks

        return load_tasks(self.seed)

    def units(self) -> list[Unit]:
        tasks = self._all()
        if self.tags:
            tasks = tuple(t for t in tasks if set(t.tags) & set(self.tags))
        if self.only:
            unknown = set(self.only) - {t.id for t in tasks}
            if unknown:
                from pagelens.errors import ConfigError

                raise ConfigError(f"unknown task(s): {', '.join(sorted(unknown))}; see `pagelens tasks`")
            tasks = tuple(t for t in tasks if t.id in self.only)
        tasks = tasks[: self.limit] if self.limit else tasks
        units = []
        for t in tasks:
            for p in self.policies:
                for m in self.observe_modes:
                    for r in self.retrievers:
                        key = f"tasks:{t.id}:{p}:{m}:{r}"
                        units.append(Unit(f"{t.id} {p} {m} {r}", (key,), (t.id, p, m, r)))
        return units

    @contextmanager
    def worker(self) -> Iterator[Worker]:
        from pagelens.actions.executor import Budgets
        from pagelens.agent.policy import LLMPolicy, Policy, ScriptedPolicy
        from pagelens.bench.bind import run_bundled
        from pagelens.bench.sites import start_sites
        from pagelens.browser.session import BrowserSession

        by_id = {t.id: t for t in self._all()}
        traces = self.out_dir / "traces"
        traces.mkdir(parents=True, exist_ok=True)
        with start_sites(self.seed) as sites, BrowserSession() as session:

            def run(unit: Unit, todo: frozenset[str]) -> list[dict[str, Any]]:
                session.ensure_alive()  # a Chromium that died in the last episode is replaced
                task_id, policy_name, mode, retriever = unit.payload
                task = by_id[task_id]
                policy: Policy
                if policy_name == "llm":
                    from pagelens.llm.openai_compat import client_from_env

                    policy = LLMPolicy(client_from_env())
                else:
                    policy = ScriptedPolicy(task.plan)
                trace = traces / f"{safe_name(unit.keys[0])}.jsonl"
                result = run_bundled(task, policy=policy, observe_mode=mode, retriever=retriever, sites=sites,  # type: ignore[arg-type]
                                     session=session, trace_path=trace, budgets=Budgets(max_steps=self.max_steps))
                d = result.diagnostics
                return [{"key": unit.keys[0], "status": "ok", "task": task_id, "policy": policy_name,
                         "observe": mode, "retriever": retriever, "success": result.success,
                         "episode_status": result.status, "detail": result.detail, "steps": d.steps,
                         "observations": d.observations, "obs_tokens_sent": d.obs_tokens_sent,
                         "full_tokens_every_step": d.full_tokens_every_step, "seconds": result.seconds,
                         "trace": f"traces/{trace.name}"}]

            yield run

"""The Ray backend of :func:`pagelens.bench.runner.run_suite`: one actor per worker, each with its
own browser (it opens ``suite.worker()`` once), one unit in flight per actor.

Results stream back to the calling process, which alone writes ``results.jsonl`` (so resuming,
de-duplication and torn-line repair are the local runner's, unchanged). An actor that dies
mid-unit (its process killed, its node lost) is replaced; its unit runs again up to ``retries``
times, then becomes error rows. With no ``address`` a private single-node cluster is started on
127.0.0.1 for the run and shut down after it; with one (``auto`` or ``HOST:PORT``) the run joins
that cluster and leaves it running.

``ray`` is an optional extra (``pip install 'pagelens[ray]'``), imported only here.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from pagelens.bench.work import Attempts, Suite, Unit, error_rows, run_one
from pagelens.errors import MissingDependency

__all__ = ["ray_dispatch"]


#: Ray picks the machine's network address for its servers even when told 127.0.0.1, unless its
#: single-machine mode is on (read once, when ray is imported): then every Ray server listens on
#: loopback only. pagelens turns that mode on for a private cluster and for a loopback address.
_LOOPBACK_MODE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _is_loopback(address: str | None) -> bool:
    if address is None:
        return True
    host = address.removeprefix("ray://").rsplit(":", 1)[0].strip("[]")
    return host in ("127.0.0.1", "localhost", "::1")


def _import_ray(address: str | None = None) -> Any:
    if _is_loopback(address):
        os.environ.setdefault(_LOOPBACK_MODE, "0")
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingDependency("ray", "ray") from exc
    return ray


class _EpisodeWorker:
    """Lives in a Ray worker process: one suite worker (one browser) for many units."""

    def __init__(self, suite: Suite) -> None:
        self._suite = suite
        self._stack = ExitStack()
        self._run = self._stack.enter_context(suite.worker())

    def pid(self) -> int:
        return os.getpid()

    def run(self, unit: Unit, todo: frozenset[str]) -> list[dict[str, Any]]:
        return run_one(self._run, unit, todo, self._suite.name)

    def close(self) -> None:
        self._stack.close()


def _init(ray: Any, address: str | None, workers: int) -> bool:
    """Connect (or start a private cluster); True when this call started it."""
    if ray.is_initialized():
        return False
    env = {k: v for k, v in os.environ.items() if k.startswith("PAGELENS_")}
    runtime_env = {"env_vars": env} if env else None
    if address:
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
        return True
    ray.init(num_cpus=max(workers, 1), include_dashboard=False, log_to_driver=False,
             _node_ip_address="127.0.0.1", runtime_env=runtime_env,
             object_store_memory=128 * 1024 * 1024)
    return True


def ray_dispatch(suite: Suite, pending: list[tuple[Unit, frozenset[str]]], workers: int, retries: int = 1,
                 *, address: str | None = None) -> Iterator[tuple[Unit, list[dict[str, Any]]]]:
    """Yield ``(unit, rows)`` as Ray actors finish them; every pending unit is yielded once."""
    ray = _import_ray(address)
    from ray.exceptions import RayActorError, RayError

    started = _init(ray, address, workers)
    actor_cls = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_EpisodeWorker)
    attempts = Attempts(retries)
    queue_ = list(pending)
    inflight: dict[Any, tuple[Any, tuple[Unit, frozenset[str]]]] = {}  # ref -> (actor, item)
    actors: list[Any] = []

    def submit(actor: Any) -> None:
        if queue_:
            item = queue_.pop(0)
            inflight[actor.run.remote(*item)] = (actor, item)

    try:
        for _ in range(max(1, min(workers, len(pending)))):
            actor = actor_cls.remote(suite)
            actors.append(actor)
            submit(actor)
        while inflight:
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=2.0)
            for ref in ready:
                actor, (unit, todo) = inflight.pop(ref)
                try:
                    rows = ray.get(ref)
                except RayActorError as exc:  # the worker process or its node died
                    ray.kill(actor, no_restart=True)
                    actors.remove(actor)
                    if attempts.lose(unit):
                        queue_.insert(0, (unit, todo))
                    else:
                        yield unit, error_rows(unit, todo, suite.name,
                                               attempts.reason(unit, f"ray worker died: {type(exc).__name__}"))
                    if queue_:
                        actor = actor_cls.remote(suite)
                        actors.append(actor)
                        submit(actor)
                    continue
                except RayError as exc:  # the task itself failed in Ray (not in the suite's code)
                    rows = error_rows(unit, todo, suite.name, f"{type(exc).__name__}: {exc}")
                yield unit, rows
                submit(actor)
    finally:
        for actor in actors:
            try:
                ray.get(actor.close.remote(), timeout=30)
            except Exception:  # noqa: BLE001, S110 - a dead actor has nothing left to close
                pass
            ray.kill(actor, no_restart=True)
        if started:
            ray.shutdown()

"""The bundled task catalog: the TOML files under ``pagelens/bench/data/tasks/``.

The definitions are data (:mod:`pagelens.bench.taskfile` reads and checks them); the subjects
they talk about are picked from the seeded site data (:mod:`pagelens.bench.pickers`), so every
name, price and position matches the sites started with the same seed. The oracle test replays
every plan: a plan that stops working is a broken task, not a flaky one.
"""

from __future__ import annotations

from functools import lru_cache

from pagelens.bench.taskfile import bundled_paths, load_task_files
from pagelens.bench.tasks import Task

__all__ = ["build_tasks", "load_tasks"]


def build_tasks(seed: int) -> tuple[Task, ...]:
    """The bundled tasks for ``seed``, read afresh (plain tasks first, then injection variants)."""
    return load_task_files(bundled_paths(), seed)


@lru_cache(maxsize=4)
def load_tasks(seed: int = 0) -> tuple[Task, ...]:
    """All tasks for sites started with ``seed`` (plain tasks first, then injection variants)."""
    return build_tasks(seed)

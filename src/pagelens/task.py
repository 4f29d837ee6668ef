"""The Task seam: what the agent is asked to do, and (optionally) how to judge it.

BrowserGym-sized on purpose. The agent loop (:func:`pagelens.agent.loop.run_task`) knows a task
only through this value: it opens ``start_url``, pursues ``goal``, and when the policy stops it
asks ``judge`` for a :class:`Verdict` on the final answer. A task without a judge ends with the
status ``stopped`` (the answer is reported, nobody graded it).

The bundled benchmark tasks (:mod:`pagelens.bench`) implement this seam from above, exactly as a
user's own task would::

    from pagelens import Task, Verdict
    task = Task(goal="What is the answer?", start_url="http://127.0.0.1:8000/",
                judge=lambda answer: Verdict("42" in answer, f"answer {answer!r}"))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Judge", "Task", "Verdict"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one finished episode."""

    success: bool
    detail: str = ""


#: Called once, after the policy stopped (and in-flight requests settled), with its answer.
#: May read any outside state it likes (a server's database, a file); must not raise for a
#: wrong answer (that is ``Verdict(False, ...)``).
Judge = Callable[[str], Verdict]


@dataclass(frozen=True, slots=True)
class Task:
    goal: str
    start_url: str
    id: str = "task"
    #: Origins (``scheme://host:port``) the agent may navigate to; None: the executor's default
    #: (loopback only). Carried for the executor's origin allowlist.
    allowed_origins: tuple[str, ...] | None = None
    judge: Judge | None = None
    #: Run before the start page is opened (reset a site's state, seed data ...).
    setup: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        if not self.goal.strip():
            raise ValueError("a task needs a goal")
        if not self.start_url.strip():
            raise ValueError("a task needs a start URL")

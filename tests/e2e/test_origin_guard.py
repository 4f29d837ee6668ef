"""The origin guard against a gullible policy that obeys injected instructions (real sites, real Chromium).

On every bundled injection task the gullible policy goes wherever the page tells it. The attacker
server records each request it gets: with the guard it must get none; without it, some (so this
test can fail both ways).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pagelens.agent.loop import run_task
from pagelens.bench.bind import bind_task
from pagelens.bench.gullible import GulliblePolicy
from pagelens.bench.task_defs import load_tasks
from pagelens.focus.registry import make_retriever

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def sites() -> Iterator[Any]:
    from pagelens.bench.sites import start_sites

    with start_sites(0) as running:
        yield running


def _hits(sites, browser_session, guard: bool, retriever: str) -> tuple[int, list[str]]:  # type: ignore[no-untyped-def]
    hits = 0
    refusals: list[str] = []
    for task in [t for t in load_tasks(0) if t.injection]:
        result = run_task(bind_task(task, sites), policy=GulliblePolicy(), retriever=make_retriever(retriever),
                          session=browser_session, guard=guard, timeout_s=120)
        hits += len(sites.attacker_hits())
        refusals += [s.message for s in result.steps if "refused:" in (s.message or "")]
    return hits, refusals


def test_attacker_gets_no_hit_with_the_guard_and_some_without(sites, browser_session) -> None:  # type: ignore[no-untyped-def]
    """On the full tree every injected address and link is in view: the policy tries, the guard refuses."""
    guarded, refusals = _hits(sites, browser_session, True, "none")
    assert guarded == 0
    assert refusals  # the policy did try: the executor refused it with feedback
    unguarded, _ = _hits(sites, browser_session, False, "none")
    assert unguarded > 0


def test_default_focus_with_the_guard_lets_nothing_through(sites, browser_session) -> None:  # type: ignore[no-untyped-def]
    """Through `default`'s view the policy sees only what focus and the defense leave (since stop 29 no injected link
    of the bundled tasks: BENCHMARKS.md); whatever it tries the guard refuses, and what it refused is exactly what gets
    through without the guard."""
    guarded, refusals = _hits(sites, browser_session, True, "default")
    assert guarded == 0
    unguarded, _ = _hits(sites, browser_session, False, "default")
    assert (unguarded > 0) == bool(refusals)

"""Recoverable pruning end to end: a starved focus on a bundled site page, recovered through
search_page / expand, on real Chromium (the LLM is the scripted server)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pagelens.actions.executor import Budgets
from pagelens.bench.bind import run_bundled
from pagelens.agent.policy import LLMPolicy, ScriptedPolicy
from pagelens.agent.trace import read_trace
from pagelens.bench.task_defs import load_tasks
from pagelens.llm.base import LLMConfig
from pagelens.llm.openai_compat import OpenAICompatModel
from pagelens.llm.scripted import ScriptedServer

pytestmark = pytest.mark.browser

STARVED = 0.03


@pytest.fixture(scope="module")
def sites() -> Iterator[Any]:
    from pagelens.bench.sites import start_sites

    with start_sites(0) as running:
        yield running


def test_starved_episode_recovers_its_targets_through_search_page(sites, browser_session,  # type: ignore[no-untyped-def]
                                                                  tmp_path: Path) -> None:
    task = {t.id: t for t in load_tasks(0)}["forum-upvote"]
    blind = ScriptedPolicy(task.plan, view_only=True)
    lost = run_bundled(task, policy=blind, retriever="truncate", focus_budget=STARVED, sites=sites,
                    session=browser_session, budgets=Budgets(max_steps=40))
    assert lost.status == "failure" and "is not in the view" in lost.detail  # the target was pruned away

    trace = tmp_path / "recover.jsonl"
    policy = ScriptedPolicy(task.plan, view_only=True, recover=True)
    result = run_bundled(task, policy=policy, retriever="truncate", focus_budget=STARVED, sites=sites,
                      session=browser_session, trace_path=trace, budgets=Budgets(max_steps=40))
    assert result.status == "success", result.detail
    assert sites.state("forum")["votes"], "the upvote reached the server"
    steps, summary = read_trace(trace)
    actions = [s["action"] for s in steps]
    searches = [i for i, a in enumerate(actions) if a.startswith("search_page(")]
    assert searches, actions
    # every search is answered from the last view (no re-observation), and the next action uses an
    # id that the search brought back
    for i in searches:
        assert steps[i]["status"] == "done" and not steps[i]["reobserved"] and not steps[i]["page_action"]
        assert re.match(r'(click|fill|select_option)\("\d+"', actions[i + 1]), actions[i + 1]
    assert policy.focus_misses == [] and policy.recovered_tokens > 0
    assert summary is not None and summary["diagnostics"]["obs_tokens_sent"] < summary["diagnostics"][
        "full_tokens_every_step"] / 5


def test_llm_policy_sees_the_search_block_and_acts_on_its_id(sites, browser_session) -> None:  # type: ignore[no-untyped-def]
    task = {t.id: t for t in load_tasks(0)}["forum-upvote"]
    thread = next(s.target.name for s in task.plan if s.target is not None and s.target.role == "link"
                  and not s.target.name.startswith("f/"))
    prompts: list[str] = []

    def script(request: dict[str, Any]) -> str:
        text = "\n".join(str(m["content"]) for m in request["messages"])
        prompts.append(text)
        n = len(prompts)
        if n == 1:
            m = re.search(r"\[(\d+)\] link 'f/cooking'", text)
            assert m, "the community link is in the starved view"
            return f'Thought: open the community\nAction: click("{m.group(1)}")'
        if n == 2:
            return f'Thought: the thread is pruned.\nAction: search_page("{thread}")'
        if n == 3:
            m = re.search(rf"\[(\d+)\] link '{re.escape(thread)}'", text.split("# What your last actions did")[1])
            assert m, "the search result is not in the prompt"
            return f'Thought: found it\nAction: click("{m.group(1)}")'
        return 'Thought: enough\nAction: stop("done")'

    with ScriptedServer(script) as server, \
            OpenAICompatModel(LLMConfig(base_url=server.base_url, model="scripted", max_retries=0)) as model:
        result = run_bundled(task, policy=LLMPolicy(model), retriever="truncate", focus_budget=STARVED, sites=sites,
                          session=browser_session)
    assert 'expand("p7")' in prompts[0] and 'search_page("Add to cart")' in prompts[0]  # documented in the prompt
    view = prompts[1].split("# Observation")[1]
    assert re.search(r"\[p\d+\] \.\.\. \d+ lines pruned \.\.\.", view)  # placeholders carry ids
    assert f"link '{thread}'" not in view  # starved: the target is not in the view
    assert f'search_page("{thread}") -> done' in prompts[2]
    actions = [s.action for s in result.steps]
    assert actions[1] == f'search_page("{thread}")' and actions[2].startswith("click(")
    assert result.steps[2].status == "done" and "/post/" in result.steps[2].url  # the id from the search worked

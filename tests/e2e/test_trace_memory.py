"""Memory of a long episode (issue 13, item 5): the trace keeps references, not trees, and the
loop holds a bounded number of observations however many steps it takes."""

from __future__ import annotations

import gc
import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pagelens.agent.loop import run_task
from pagelens.agent.policy import LLMPolicy, Policy, PolicyReply, StepContext
from pagelens.focus.registry import make_retriever
from pagelens.llm.base import LLMConfig
from pagelens.llm.openai_compat import OpenAICompatModel
from pagelens.llm.scripted import ScriptedServer
from pagelens.task import Task, Verdict
from pagelens.types import Observation

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# A listing whose "Next page" link goes to ?n=<n+1>: the same address (query aside) every
# step, so every earlier view could serve as a delta base. (The items keep their names from
# page to page: when most lines change, carry_ids' difflib alignment is quadratic and a
# 3,000-node page took over 100 s per step here.)
PAGE = """<!doctype html><html><head><title>Listing</title></head><body><main id="m"></main><script>
const n = Number(new URLSearchParams(location.search).get('n') || 0);
const rows = [];
for (let i = 0; i < 300; i++) rows.push(`<li><a href="/item/${i}">Item ${i}</a> in stock</li>`);
document.getElementById('m').innerHTML = `<h1>Page ${n}</h1><a href="?n=${n + 1}">Next page</a><ul>${rows.join('')}</ul>`;
</script></body></html>"""
STEPS = 10


@pytest.fixture(scope="module")
def listing_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from pagelens.browser.serve import StaticServer

    root = Path(tmp_path_factory.mktemp("listing"))
    (root / "list.html").write_text(PAGE)
    with StaticServer(root) as server:
        yield server.url("list.html")


class _Counting:
    """The policy, counting the observations alive in the process at every decision."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.alive: list[int] = []
        self.name = "counting"

    def decide(self, ctx: StepContext) -> PolicyReply:
        gc.collect()
        self.alive.append(sum(1 for o in gc.get_objects() if type(o) is Observation))
        return self.inner.decide(ctx)


def test_a_long_delta_episode_holds_few_trees_and_traces_references(browser_session, listing_url: str,  # type: ignore[no-untyped-def]
                                                                     tmp_path: Path) -> None:
    calls: list[int] = []

    def script(request: dict[str, Any]) -> str:
        calls.append(1)
        if len(calls) > STEPS:
            return 'Thought: done\nAction: stop("done")'
        text = "\n".join(str(m["content"]) for m in request["messages"])
        ids = re.findall(r"\[(\d+)\] link 'Next page'", text)
        assert ids, "the Next page link is not in the prompt"
        return f'Thought: next\nAction: click("{ids[-1]}")'

    task = Task("Follow the Next page link ten times, then stop with the answer done", listing_url, id="listing",
                judge=lambda answer: Verdict(answer == "done", answer))
    trace = tmp_path / "t.jsonl"
    with ScriptedServer(script) as server, \
            OpenAICompatModel(LLMConfig(base_url=server.base_url, model="scripted", max_retries=0)) as model:
        policy = _Counting(LLMPolicy(model))
        result = run_task(task, policy=policy, retriever=make_retriever("default"), session=browser_session,  # type: ignore[arg-type]
                          observe_mode="delta", trace_path=trace)
    assert result.status == "success", result.detail
    assert result.diagnostics.observations == STEPS + 1
    # every earlier view is of the same address, yet the loop holds a bounded number of trees:
    # the current view (raw and re-identified) and the tracker's last view and two earlier bases
    assert max(policy.alive) <= 5, policy.alive  # (8 kept views made it 9 before)
    assert policy.alive[-1] <= policy.alive[4], policy.alive  # no growth once the tracker is full

    lines = trace.read_text(encoding="utf-8").splitlines()
    steps = [json.loads(ln) for ln in lines if json.loads(ln)["type"] == "step"]
    assert len(steps) == STEPS + 1
    side = trace.parent / (trace.name + ".d")
    for line, rec in zip(lines, steps):
        obs_text = (trace.parent / rec["obs_ref"]).read_bytes()
        assert len(obs_text) > 4 * len(line)  # the observation lives beside the trace, not in it
        assert hashlib.sha1(obs_text).hexdigest()[:16] == rec["obs_hash"]
    assert len(list(side.glob("obs-*.txt"))) == STEPS + 1  # each observation written once

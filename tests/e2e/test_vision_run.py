"""The agent loop with screenshots: a bundled task in pixels, evidence files, image tokens, stages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pagelens.agent.loop import run_task
from pagelens.bench.bind import run_bundled
from pagelens.agent.policy import LLMPolicy
from pagelens.agent.trace import read_trace
from pagelens.agent.vision_policy import ScriptedVisionPolicy
from pagelens.bench.task_defs import load_tasks
from pagelens.bench.tasks import parse_items
from pagelens.focus.registry import make_retriever
from pagelens.llm.base import LLMConfig
from pagelens.llm.openai_compat import OpenAICompatModel
from pagelens.llm.scripted import ScriptedServer
from pagelens.browser.screenshot import ScreenshotConfig

pytest.importorskip("PIL")
pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><title>Tiny</title></head><body>
<h1>Answer desk</h1><p>The answer is 42.</p><button onclick="void 0">Does nothing</button></body></html>"""


def _tiny(url: str) -> Any:
    from pagelens.task import Task, Verdict

    return Task("What is the answer?", url, id="tiny",
                judge=lambda answer: Verdict(answer.strip() == "42", f"answer {answer!r}, expected '42'"))


@pytest.fixture(scope="module")
def sites() -> Iterator[Any]:
    from pagelens.bench.sites import start_sites

    with start_sites(0) as running:
        yield running


def test_a_bundled_task_solved_in_pixels_with_evidence(sites, browser_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    task = {t.id: t for t in load_tasks(0)}["shop-cart-edit"]
    trace = tmp_path / "trace.jsonl"
    policy = ScriptedVisionPolicy(task.plan)
    result = run_bundled(task, policy=policy, observe_mode="every-step", retriever="full", sites=sites,
                         session=browser_session, trace_path=trace, vision=ScreenshotConfig(keep_last=2), pixels=True)
    assert result.status == "success", result.detail
    assert sites.state("shop")["cart"] == parse_items(task.expected("cart"))
    assert policy.coordinate_actions >= 1
    steps, summary = read_trace(trace)
    assert summary is not None and summary["stages"]["episode"] is None
    coords = [s for s in steps if s["point"] is not None]
    assert len(coords) == policy.coordinate_actions and all(s["action"].split("(")[0].endswith("_at") for s in coords)
    for s in steps:
        assert s["image_tokens"] >= 1105 and s["obs_hash"]  # one or two 1280x720 screenshots per decision
        assert (trace.parent / s["obs_ref"]).read_text(encoding="utf-8")
        assert (trace.parent / s["screenshot"]).read_bytes()[:4] == b"\x89PNG"
    assert max(s["image_tokens"] for s in steps) == 2 * 1105  # keep_last=2


def test_stage_attribution_with_an_llm_policy(sites, browser_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import StaticServer

    (tmp_path / "index.html").write_text(PAGE)
    replies = ["no action here", 'Thought: [999]\nAction: click("999")', "Thought: x\nAction: click_at(5000, 5)",
               'Thought: it says 41\nAction: stop("41")']
    trace = tmp_path / "llm.jsonl"
    with StaticServer(tmp_path) as srv, ScriptedServer(replies) as server, \
            OpenAICompatModel(LLMConfig(base_url=server.base_url, model="scripted", max_retries=0)) as model:
        result = run_task(_tiny(srv.url("index.html")), policy=LLMPolicy(model), retriever=make_retriever("default"),
                          session=browser_session, trace_path=trace, vision=ScreenshotConfig())
        sent = server.chat_requests[0].messages
    assert result.status == "failure"
    user = sent[1]["content"]
    assert isinstance(user, list) and user[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "click_at(x, y)" in sent[0]["content"] and "box=" in user[0]["text"]
    _, summary = read_trace(trace)
    assert summary is not None
    stages = summary["stages"]
    assert [(s["step"], s["stage"]) for s in stages["steps"]] == [(1, "parsing"), (2, "observation"), (3, "execution")]
    assert stages["steps"][0]["reply"] == "no action here"
    assert (trace.parent / stages["steps"][1]["prompt_ref"]).read_text(encoding="utf-8").count("[999]") == 0
    assert stages["episode"]["stage"] == "execution" and stages["episode"]["from_step"] == 3
    assert stages["counts"]["parsing"] == 1


def test_the_independent_verifier_sends_a_wrong_answer_back(sites, browser_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.serve import StaticServer
    from pagelens.vision.verify import Verifier

    (tmp_path / "index.html").write_text(PAGE)
    agent = ['Thought: 41\nAction: stop("41")', 'Thought: it is 42\nAction: stop("42")']
    with StaticServer(tmp_path) as srv, ScriptedServer(agent) as a_srv, ScriptedServer(["NO: it says 42", "YES"]) as v_srv, \
            OpenAICompatModel(LLMConfig(base_url=a_srv.base_url, model="agent", max_retries=0)) as agent_model, \
            OpenAICompatModel(LLMConfig(base_url=v_srv.base_url, model="verifier", max_retries=0)) as v_model:
        verifier = Verifier(v_model)
        result = run_task(_tiny(srv.url("index.html")), policy=LLMPolicy(agent_model),
                          retriever=make_retriever("default"), session=browser_session,
                          vision=ScreenshotConfig(), verifier=verifier, trace_path=tmp_path / "t.jsonl")
        checks = v_srv.chat_requests
        second_prompt = a_srv.chat_requests[1].prompt_text()
    assert result.status == "success" and result.answer == "42" and verifier.calls == 2
    first = checks[0].messages[1]["content"]
    assert "41" in first[0]["text"] and first[1]["image_url"]["url"].startswith("data:image/png")
    assert "Thought" not in first[0]["text"]  # a fresh context: none of the agent's reasoning
    assert "does not support this answer (it says 42)" in second_prompt
    _, summary = read_trace(tmp_path / "t.jsonl")
    assert summary is not None and [s["stage"] for s in summary["stages"]["steps"]] == ["guardrail"]


def test_a_value_drawn_by_an_obfuscating_font_is_caught_by_ocr_and_answered_as_shown(browser_session, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The DOM holds 471928; the page's font (built from DejaVu with its digit glyphs permuted)
    draws 829741. read_text returns the DOM's digits; the OCR check says the screen disagrees,
    in the feedback and the trace; the scripted vision policy answers what the screen shows."""
    pytest.importorskip("pytesseract")
    from pagelens.agent.plan import PlanStep
    from pagelens.bench.vision import pages_dir
    from pagelens.browser.serve import StaticServer
    from pagelens.task import Task, Verdict

    plan = [PlanStep("read_text", args={"id_or_label": "Confirmation code"}),
            PlanStep("read_text", args={"id_or_label": "Platform"}), PlanStep("stop", args={"answer": "471928"})]
    policy = ScriptedVisionPolicy(plan)
    trace = tmp_path / "trace.jsonl"
    with StaticServer(pages_dir()) as srv:
        task = Task("What is the confirmation code shown on the screen?", srv.url("font.html"), id="font",
                    judge=lambda a: Verdict(a.strip() == "829741", f"answer {a!r}"))
        result = run_task(task, policy=policy, retriever=make_retriever("full"), session=browser_session,
                          observe_mode="every-step", trace_path=trace, vision=ScreenshotConfig())
    assert result.status == "success", (result.detail, result.answer, [s.message for s in result.steps])
    steps, _ = read_trace(trace)
    code, platform, stop = steps[0], steps[1], steps[2]
    assert code["action"].startswith("read_text") and "471928" in code["message"]
    assert "the screen shows '829741'" in code["message"], code["message"]
    by_value = {c["value"]: c for c in code["ocr"]}
    assert by_value["471928"]["verdict"] == "disagree" and by_value["471928"]["screen"] == "829741"
    assert [c["verdict"] for c in platform["ocr"] if c["value"] == "14"] == ["agree"], platform["ocr"]
    assert stop["ocr"][0]["value"] == "829741" and stop["ocr"][0]["verdict"] == "agree"

"""End to end: the agent loop on real Chromium, the bundled sites and a scripted LLM server."""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pagelens.actions.executor import Budgets
from pagelens.agent.loop import run_task
from pagelens.agent.policy import LLMPolicy, ScriptedPolicy
from pagelens.agent.trace import read_trace
from pagelens.bench.bind import run_bundled
from pagelens.bench.task_defs import load_tasks
from pagelens.bench.tasks import parse_items
from pagelens.focus.registry import make_retriever
from pagelens.llm.base import LLMConfig
from pagelens.llm.openai_compat import OpenAICompatModel
from pagelens.llm.scripted import ScriptedServer
from pagelens.task import Task, Verdict

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><title>Tiny</title></head><body>
<h1>Answer desk</h1><p>The answer is 42.</p>
<button onclick="void 0">Does nothing</button>
<button onclick="document.getElementById('out').textContent = 'clicked'">Say clicked</button>
<p id="out"></p></body></html>"""


@pytest.fixture(scope="module")
def sites() -> Iterator[Any]:
    from pagelens.bench.sites import start_sites

    with start_sites(0) as running:
        yield running


@pytest.fixture(scope="module")
def tiny_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from pagelens.browser.serve import StaticServer

    root = Path(tmp_path_factory.mktemp("tiny"))
    (root / "index.html").write_text(PAGE)
    with StaticServer(root) as server:
        yield server.url("index.html")


def _tiny_task(url: str) -> Task:
    return Task("What is the answer on the answer desk page?", url, id="tiny-answer",
                judge=lambda answer: Verdict(answer.strip() == "42", f"answer {answer!r}, expected '42'"))


_DEFAULT = make_retriever("default")


def _model(server: ScriptedServer) -> OpenAICompatModel:
    return OpenAICompatModel(LLMConfig(base_url=server.base_url, model="scripted", max_retries=0))


def _id_of(request: dict[str, Any], name: str) -> str:
    text = "\n".join(str(m["content"]) for m in request["messages"])
    m = re.search(rf"\[(\d+)\] button '{re.escape(name)}'", text)
    assert m, f"button {name!r} not in the prompt"
    return m.group(1)


def _check_trace(path: Path, status: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    steps, summary = read_trace(path)
    assert summary is not None and summary["status"] == status
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert summary["diagnostics"]["steps"] == sum(1 for s in steps if s["kind"] == "action")
    return steps, summary


@pytest.mark.parametrize(("mode", "retriever"), [("signals", "default"), ("every-step", "none")])
def test_scripted_policy_solves_a_bundled_task(sites, browser_session, tmp_path: Path, mode: str,  # type: ignore[no-untyped-def]
                                               retriever: str) -> None:
    task = {t.id: t for t in load_tasks(0)}["shop-cart-edit"]
    trace = tmp_path / "trace.jsonl"
    result = run_bundled(task, policy=ScriptedPolicy(task.plan), observe_mode=mode, retriever=retriever,  # type: ignore[arg-type]
                         sites=sites, session=browser_session, trace_path=trace)
    assert result.status == "success", result.detail
    assert sites.state("shop")["cart"] == parse_items(task.expected("cart"))  # judged from server state
    steps, summary = _check_trace(trace, "success")
    assert steps[-1]["action"] == 'stop("done")' and len(steps) == len(task.plan)
    assert all(s["kind"] == "action" and s["status"] in ("done", "control") for s in steps)
    d = summary["diagnostics"]
    assert d["stale_incidents"] == []
    if mode == "every-step":
        assert d["observations"] == d["steps"]  # the start page + one after every action but stop
        assert d["obs_tokens_sent"] == d["full_tokens_every_step"]
    else:
        # start, then only after the two form posts re-rendered the cart (URL signals); the
        # fill in between ran on the observation taken after the first post
        assert d["observations"] == 3 and d["signals"] == {"url": 2}
        assert [s["reobserved"] for s in steps] == [True, False, True, False]
        assert d["obs_tokens_sent"] < d["full_tokens_every_step"]


def test_llm_policy_feedback_loop(browser_session, tiny_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    calls: list[int] = []

    def script(request: dict[str, Any]) -> str:
        calls.append(1)
        n = len(calls)
        if n == 1:
            return "I think I should look around a bit first."  # no action: parse error
        if n == 2:
            return 'Thought: click [999]\nAction: click("999")'  # an id that is not on the page
        if n <= 5:
            return f'Thought: try [{_id_of(request, "Does nothing")}]\nAction: click("{_id_of(request, "Does nothing")}")'
        return 'Thought: the page says 42\nAction: stop("42")'

    trace = tmp_path / "llm.jsonl"
    with ScriptedServer(script) as server, _model(server) as model:
        result = run_task(_tiny_task(tiny_url), policy=LLMPolicy(model), retriever=_DEFAULT,
                          session=browser_session, trace_path=trace, budgets=Budgets(max_repeats=2))
        prompts = [r.prompt_text() for r in server.chat_requests]
    assert result.status == "success" and result.answer == "42"
    steps, summary = _check_trace(trace, "success")
    assert [s["status"] for s in steps] == ["parse_error", "invalid", "no_change", "no_change", "budget", "control"]
    assert "could not be used" in prompts[1] and "Action:" in prompts[1]  # the parse error was fed back
    assert "id 999 is not in the current observation" in prompts[2]
    assert "was not run again" in prompts[5]  # the executor's repeat budget, fed back
    assert summary["usage"]["calls"] == 6
    assert summary["diagnostics"]["signals"]["action_failure"] == 3


def test_too_many_unparseable_replies_end_the_episode(browser_session, tiny_url: str) -> None:  # type: ignore[no-untyped-def]
    with ScriptedServer(["no idea"] * 5) as server, _model(server) as model:
        result = run_task(_tiny_task(tiny_url), policy=LLMPolicy(model), retriever=_DEFAULT,
                          session=browser_session, max_parse_errors=2)
    assert result.status == "parse_error_limit" and len(result.steps) == 2


def test_a_task_without_judge_ends_stopped_with_the_answer(browser_session, tiny_url: str) -> None:  # type: ignore[no-untyped-def]
    setups: list[int] = []
    task = Task("What is the answer?", tiny_url, setup=lambda: setups.append(1))
    with ScriptedServer(['Thought: it says 42\nAction: stop("42")']) as server, _model(server) as model:
        result = run_task(task, policy=LLMPolicy(model), retriever=_DEFAULT, session=browser_session)
    assert (result.status, result.success, result.answer, setups) == ("stopped", False, "42", [1])


def test_run_task_refuses_a_retriever_name(browser_session, tiny_url: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(TypeError, match="make_retriever"):
        run_task(_tiny_task(tiny_url), policy=ScriptedPolicy(()), retriever="default",  # type: ignore[arg-type]
                 session=browser_session)


def test_cli_run_url_goal_on_a_local_page(tmp_path: Path) -> None:
    """`pagelens run --url FILE --goal TEXT` with the LLM policy against the scripted server."""
    import subprocess
    import sys

    page = tmp_path / "desk.html"
    page.write_text(PAGE)

    def script(request: dict[str, Any]) -> str:
        if "# What your last actions did" in str(request["messages"][-1]["content"]):
            return 'Thought: done\nAction: stop("clicked")'  # the click was fed back
        said = _id_of(request, "Say clicked")
        return f'Thought: click [{said}]\nAction: click("{said}")'

    with ScriptedServer(script) as server:
        env = {**os.environ, "PAGELENS_LLM_BASE_URL": server.base_url, "PAGELENS_LLM_MODEL": "scripted",
               "PYTHONPATH": os.pathsep.join(sys.path)}
        done = subprocess.run([sys.executable, "-m", "pagelens.cli", "run", "--url", str(page), "--goal",
                               "Press the button that says clicked, then stop", "--max-steps", "4",
                               "--trace", str(tmp_path / "t.jsonl")],
                              check=False, env=env, capture_output=True, text=True, timeout=300)
        calls = len(server.chat_requests)
    assert done.returncode == 0, done.stdout + done.stderr
    steps, summary = read_trace(tmp_path / "t.jsonl")
    assert summary is not None and summary["status"] == "stopped" and summary["answer"] == "clicked"
    assert steps[0]["action"].startswith("click(") and steps[0]["status"] == "done"
    assert calls == 2 and "stopped" in done.stdout


def test_browser_killed_mid_episode_ends_with_browser_crashed(browser_session, tiny_url: str,  # type: ignore[no-untyped-def]
                                                              tmp_path: Path) -> None:
    from pagelens.browser.session import BrowserSession

    trace = tmp_path / "crash.jsonl"
    shared = set(browser_session.chromium_pids())  # one driver per thread: its list holds every session's
    with BrowserSession() as session:  # its own Chromium: the shared one must survive
        pids = [pid for pid in session.chromium_pids() if pid not in shared]
        assert pids

        calls: list[int] = []

        def script(request: dict[str, Any]) -> str:
            calls.append(1)
            said = _id_of(request, "Say clicked")
            if len(calls) == 2:
                for pid in pids:  # the second decision: kill Chromium, then ask for a click
                    os.kill(pid, signal.SIGKILL)
                return f'Action: click("{said}")'
            return f'Thought: [{said}] first\nAction: click("{said}")'

        with ScriptedServer(script) as server, _model(server) as model:
            result = run_task(_tiny_task(tiny_url), policy=LLMPolicy(model), observe_mode="every-step",
                              retriever=_DEFAULT, session=session, trace_path=trace)
        assert result.status == "browser_crashed", result.detail
        assert session.crashed
    assert not browser_session.crashed  # the shared browser survived
    steps, summary = _check_trace(trace, "browser_crashed")
    assert steps[0]["status"] == "done" and summary["success"] is False


def test_delta_observations_send_less_at_equal_success(sites) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.session import BrowserSession

    task = {t.id: t for t in load_tasks(0)}["shop-cart-edit"]
    with BrowserSession() as session:  # its own browser: an earlier test kills the shared one
        runs = {mode: run_bundled(task, policy=ScriptedPolicy(task.plan), observe_mode=mode,  # type: ignore[arg-type]
                                  retriever="default", sites=sites, session=session) for mode in ("signals", "delta")}
    assert all(r.status == "success" for r in runs.values()), {m: r.detail for m, r in runs.items()}
    signals, delta = runs["signals"].diagnostics, runs["delta"].diagnostics
    assert delta.observations == signals.observations  # same signals, same re-observations
    # the cart re-rendered by a form post is sent as its changes, not again as a whole view
    assert delta.obs_tokens_sent < signals.obs_tokens_sent



class _LooksTwice:
    """Asks for a fresh look once (no action), then stops."""

    name = "looks-twice"

    def __init__(self) -> None:
        self.sizes: list[int] = []

    def decide(self, ctx):  # type: ignore[no-untyped-def]
        from pagelens.actions.spec import Action
        from pagelens.agent.context import PolicyReply

        self.sizes.append(ctx.view.full_tokens)
        if len(self.sizes) == 1:
            return PolicyReply("look again", (), needs_observation=True)
        return PolicyReply("stop", (Action("stop", {"answer": "none"}),))


def test_a_view_answered_with_look_again_is_counted_too(sites) -> None:  # type: ignore[no-untyped-def]
    from pagelens.browser.session import BrowserSession

    task = {t.id: t for t in load_tasks(0)}["shop-cart-edit"]
    policy = _LooksTwice()
    with BrowserSession() as session:
        result = run_bundled(task, policy=policy, observe_mode="signals", retriever="none", sites=sites,
                             session=session)
    d = result.diagnostics
    assert d.observations == 2 and len(policy.sizes) == 2
    assert d.obs_tokens_sent == sum(policy.sizes)  # both full views the policy was given


USER_TASKS = '''
[[task]]
id = "my-upvote"
start = "site:forum/?__state=consent:yes;login:{creds.forum_user}"
goal = "Upvote the post \\"{p.title}\\" in f/{p.forum}."
pick.p = { use = "forum.post", index = 2 }
plan = [
  { action = "click", role = "link", name = "f/{p.forum}" },
  { action = "click", role = "link", name = "{p.title}" },
  { action = "click", role = "button", name = "Upvote" },
  { action = "stop", answer = "done" },
]
check = { kind = "vote_cast", target = "post-{p.id}", dir = "up", user = "{creds.forum_user}" }

[[task]]
id = "my-desk"
start = "URL"
goal = "Press the button that says clicked, then give the answer on the page."
kind = "read"
answer = "42"
plan = [
  { action = "click", role = "button", name = "Say clicked" },
  { action = "stop", answer = "42" },
]
check = { kind = "answer_matches" }
'''


def _cli_run(*args: str, tmp_path: Path) -> Any:
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "pagelens.cli", "run", *args], check=False, env=env,
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)


def test_cli_run_a_task_of_a_users_task_file(tmp_path: Path, tiny_url: str) -> None:
    """`pagelens run --task-file FILE TASK`: one task on the bundled forum (judged from its votes),
    one on a plain URL (no sites started, judged by its answer)."""
    from pagelens.bench.sites import data

    path = tmp_path / "mine.toml"
    path.write_text(USER_TASKS.replace('"URL"', f'"{tiny_url}"'), encoding="utf-8")
    post = data.make_forum(0)[0][2]
    done = _cli_run("--task-file", str(path), "my-upvote", "--trace", str(tmp_path / "up.jsonl"), tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert post.title in done.stdout and "success" in done.stdout
    _, summary = read_trace(tmp_path / "up.jsonl")
    assert summary is not None and summary["status"] == "success"
    desk = _cli_run("--task-file", str(path), "my-desk", "--trace", str(tmp_path / "desk.jsonl"), tmp_path=tmp_path)
    assert desk.returncode == 0, desk.stdout + desk.stderr
    steps, summary = read_trace(tmp_path / "desk.jsonl")
    assert summary is not None and summary["status"] == "success" and summary["answer"] == "42"
    assert steps[0]["action"].startswith("click(")
    unknown = _cli_run("--task-file", str(path), "shop-cart-edit", tmp_path=tmp_path)
    assert unknown.returncode == 2 and "unknown task 'shop-cart-edit'" in unknown.stderr


def test_cli_run_a_bad_task_file_names_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(USER_TASKS.replace('kind = "vote_cast"', 'kind = "vote_casted"'), encoding="utf-8")
    done = _cli_run("--task-file", str(path), "my-upvote", tmp_path=tmp_path)
    assert done.returncode != 0
    assert f"{path}: task 'my-upvote' (task[0]): check.kind: unknown check 'vote_casted'" in done.stderr.replace("\n", "")

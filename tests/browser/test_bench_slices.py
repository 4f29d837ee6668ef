"""Small slices of ``pagelens bench`` end to end, and the BrowserGym wrapper on a live MiniWoB env.

The CLI runs in a subprocess: BrowserGym keeps a process-wide Playwright driver, which must not
leak into the other browser tests of this session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pagelens.bench.cases import bundled_paths

pytestmark = pytest.mark.browser


def _bench(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PAGELENS_DEBUG": "1", "COLUMNS": "160"}
    return subprocess.run([sys.executable, "-m", "pagelens.cli", "bench", *args], capture_output=True, text=True, check=False,
                          timeout=timeout, env=env)


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_cases_slice_two_retrievers_with_dump_report_and_resume(tmp_path: Path) -> None:
    _, pages = bundled_paths()
    cases = tmp_path / "cases.jsonl"
    cases.write_text("\n".join(json.dumps(c) for c in (
        {"page": "login-unusual-labels.html", "goal": "Sign in", "must_keep": [{"role": "RootWebArea", "name": ""}]},
        {"page": "de-shop-product.html", "goal": "Add the product to the cart", "must_keep": [{"role": "RootWebArea", "name": ""}]},
        {"page": "news-long-footer.html", "goal": "Read the main headline", "must_keep": [{"role": "RootWebArea", "name": ""}]},
        {"page": "stats-energy-table.html", "goal": "Find the energy table", "must_keep": [{"role": "RootWebArea", "name": ""}]},
    )) + "\n")
    out = tmp_path / "run"
    args = ("cases", "--cases", str(cases), "--pages", str(pages), "--limit", "3", "--retriever", "none",
            "--retriever", "bm25-200", "--out", str(out))
    done = _bench(*args)
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert sorted(r["key"] for r in rows) == sorted(f"cases:{n}:{r}" for n in range(3) for r in ("none", "bm25-200"))
    assert all(r["status"] == "ok" and r["kept"] for r in rows)
    assert (out / "dump" / "0.full.txt").is_file() and (out / "dump" / "0.bm25-200.focused.txt").is_file()
    report = (out / "report.html").read_text()
    assert "<svg" in report and "Trees: full vs focused" in report
    again = _bench(*args)
    assert again.returncode == 0, again.stderr
    assert len(_rows(out)) == 6  # resumed: nothing ran twice


@pytest.mark.browsergym
def test_miniwob_slice_two_tasks_one_seed(tmp_path: Path) -> None:
    pytest.importorskip("browsergym.miniwob", reason="needs the browsergym extra")
    out = tmp_path / "mw"
    done = _bench("miniwob", "--task", "click-test", "--task", "click-checkboxes", "--seeds", "1",
                  "--retriever", "none", "--retriever", "default", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert len(rows) == 4
    for r in rows:
        assert r["status"] == "ok", r
        assert r["success"] is True and r["oracle"] in ("cheat", "scripted")
        assert r["touched"] and isinstance(r["retained"], bool) and 0.0 <= r["pruning"] <= 1.0
    assert {r["retained"] for r in rows if r["retriever"] == "none"} == {True}
    assert "oracle retention" in (out / "report.html").read_text()


@pytest.mark.browsergym
@pytest.mark.isolated
def test_focused_observation_wrapper_on_a_miniwob_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("browsergym.miniwob", reason="needs the browsergym extra")
    from pagelens.bench import miniwob_env
    from pagelens.bench.browsergym_wrapper import FocusedObservation

    with miniwob_env.serve_miniwob() as url:
        env_vars = miniwob_env.prepare_browsergym_env(miniwob_url=url, cache_dir=tmp_path / "pw", apply=False)
        for key, value in env_vars.items():
            monkeypatch.setenv(key, value)
        import browsergym.miniwob  # noqa: F401 - registers the tasks
        import gymnasium as gym

        env = FocusedObservation(gym.make("browsergym/miniwob.click-test", pre_observation_delay=0.0),
                                 retriever="bm25-200")
        try:
            obs, _info = env.reset(seed=3)
            assert obs["pagelens"]["retriever"] == "bm25-200"
            assert "[" in obs["axtree_txt"] and "InlineTextBox" not in obs["axtree_txt_full"]
            bid = env.unwrapped.page.locator("#subbtn").get_attribute("bid")
            assert f"[{bid}] button" in obs["axtree_txt"]
            obs, reward, _done, _trunc, _info = env.step(f'click("{bid}")')
            assert reward == 1.0
            assert set(obs["pagelens"]) == {"retriever", "full_tokens", "focused_tokens", "pruning", "error", "flags"}
            assert obs["pagelens"]["full_tokens"] >= obs["pagelens"]["focused_tokens"] > 0
        finally:
            env.close()


def test_tasks_slice_one_task(tmp_path: Path) -> None:
    out = tmp_path / "tasks"
    done = _bench("tasks", "--task", "shop-cart-edit", "--retriever", "default", "--observe", "signals",
                  "--out", str(out), timeout=400)
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert len(rows) == 1 and rows[0]["status"] == "ok"
    assert rows[0]["success"] is True  # judged from the shop's server state
    assert 0 < rows[0]["obs_tokens_sent"] < rows[0]["full_tokens_every_step"]
    assert (out / rows[0]["trace"]).is_file() and "Tokens per step" in (out / "report.html").read_text()


def test_tasks_slice_from_a_users_task_file_with_a_tag(tmp_path: Path) -> None:
    """`pagelens bench tasks --task-file FILE --tag TAG`: the file's tasks, filtered by tag, judged
    from the sites' state like the bundled ones."""
    from pagelens.bench.sites import data

    post = data.make_forum(0)[0][5]
    path = tmp_path / "mine.toml"
    path.write_text('''
[[task]]
id = "my-upvote"
start = "site:forum/?__state=consent:yes;login:{creds.forum_user}"
goal = "Upvote the post \\"{p.title}\\"."
tags = ["vote"]
pick.p = { use = "forum.post", index = 5 }
plan = [
  { action = "click", role = "link", name = "f/{p.forum}" },
  { action = "click", role = "link", name = "{p.title}" },
  { action = "click", role = "button", name = "Upvote" },
  { action = "stop", answer = "done" },
]
check = { kind = "vote_cast", target = "post-{p.id}", dir = "up", user = "{creds.forum_user}" }

[[task]]
id = "my-other"
start = "site:forum/"
goal = "Not run: it has another tag."
tags = ["other"]
plan = [{ action = "stop", answer = "done" }]
check = { kind = "visited", path = "/" }
''', encoding="utf-8")
    out = tmp_path / "mine"
    done = _bench("tasks", "--task-file", str(path), "--tag", "vote", "--retriever", "default", "--out", str(out),
                  timeout=400)
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert [(r["task"], r["status"], r["success"]) for r in rows] == [("my-upvote", "ok", True)]
    assert post.title in (out / rows[0]["trace"]).read_text()
    wrong = _bench("miniwob", "--tag", "vote", "--out", str(tmp_path / "x"))
    assert wrong.returncode == 2 and "--tag and --task-file are for the tasks suite" in wrong.stderr

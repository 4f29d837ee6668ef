"""BrowserGym's MiniWoB++ tasks run offline on the system Chromium (pagelens.bench.miniwob_env)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("browsergym.miniwob", reason="needs the browsergym extra")

from pagelens.bench import miniwob_env
from pagelens.browser.chromium import find_chromium
from pagelens.errors import BrowserNotFound, MissingDependency


@pytest.fixture(scope="module")
def chromium() -> str:
    try:
        return find_chromium()
    except BrowserNotFound as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def offline_env(tmp_path_factory: pytest.TempPathFactory, chromium: str) -> Iterator[dict[str, str]]:
    """MINIWOB_URL served on 127.0.0.1 and Playwright's pinned Chromium path linked, for this module."""
    cache = tmp_path_factory.mktemp("ms-playwright")
    with miniwob_env.serve_miniwob() as url, pytest.MonkeyPatch.context() as mp:
        env = miniwob_env.prepare_browsergym_env(miniwob_url=url, chromium=chromium, cache_dir=cache, apply=False)
        for key, value in env.items():
            mp.setenv(key, value)
        yield env


@pytest.mark.browsergym
def test_prepare_links_pinned_chromium_and_sets_urls(tmp_path: Path, chromium: str) -> None:
    env = miniwob_env.prepare_browsergym_env(cache_dir=tmp_path, chromium=chromium, apply=False)
    link = miniwob_env.playwright_chromium_path(tmp_path)
    assert env["PLAYWRIGHT_BROWSERS_PATH"] == str(tmp_path)
    assert link.relative_to(tmp_path).parts[0].startswith("chromium-")
    assert os.path.realpath(link) == os.path.realpath(chromium)
    assert env["MINIWOB_URL"].startswith("file://") and env["MINIWOB_URL"].endswith("/")
    assert (miniwob_env.miniwob_html_dir() / "click-test.html").is_file()
    # idempotent: a second call keeps the same link
    assert miniwob_env.prepare_browsergym_env(cache_dir=tmp_path, chromium=chromium, apply=False) == env


@pytest.mark.browsergym
def test_missing_browsergym_is_reported_with_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    real = miniwob_env.importlib.util.find_spec
    monkeypatch.setattr(
        miniwob_env.importlib.util, "find_spec", lambda name, *a: None if name == "browsergym.miniwob" else real(name, *a)
    )
    with pytest.raises(MissingDependency, match=r"pagelens\[browsergym\]"):
        miniwob_env.prepare_browsergym_env(apply=False)


@pytest.mark.browser
@pytest.mark.browsergym
@pytest.mark.parametrize("task", ["click-test", "click-button"])
@pytest.mark.isolated
def test_task_solved_by_scripted_solution(offline_env: dict[str, str], task: str) -> None:
    import browsergym.miniwob  # noqa: F401 - registers the tasks
    import gymnasium as gym

    env = gym.make(f"browsergym/miniwob.{task}", pre_observation_delay=0.0)
    try:
        obs, _info = env.reset(seed=7)
        assert obs["goal"]
        reward, done = 0.0, False
        for action in miniwob_env.oracle_actions(task, env.unwrapped.page, obs["goal"]):
            obs, reward, done, _truncated, _info = env.step(action)
            assert not obs["last_action_error"], obs["last_action_error"]
        for _ in range(2):  # on a loaded machine the task's verdict can land one step late
            if done:
                break
            obs, reward, done, _truncated, _info = env.step("noop(500)")
        assert reward == 1.0
        assert done
    finally:
        env.close()


@pytest.mark.browsergym
def test_ensure_fills_in_only_what_is_missing(tmp_path: Path, chromium: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What FocusedObservation calls: Playwright's Chromium linked, MiniWoB served on 127.0.0.1 while
    anyone uses it, and nothing a user set is touched."""
    import urllib.request

    for name in ("MINIWOB_URL", "PLAYWRIGHT_BROWSERS_PATH"):
        monkeypatch.setenv(name, "")  # recorded, so that teardown restores the session's value (or none)
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no Playwright browsers installed there
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = miniwob_env.ensure_browsergym_env(chromium=chromium)
    second = miniwob_env.ensure_browsergym_env(chromium=chromium)
    browsers = Path(os.environ["PLAYWRIGHT_BROWSERS_PATH"])
    assert browsers == tmp_path / "cache" / "pagelens" / "ms-playwright"
    assert os.path.realpath(miniwob_env.playwright_chromium_path(browsers)) == os.path.realpath(chromium)
    url = os.environ["MINIWOB_URL"]
    assert url.startswith("http://127.0.0.1:") and url.endswith("/")
    with urllib.request.urlopen(url + "click-test.html", timeout=10) as r:
        assert r.status == 200 and b"subbtn" in r.read()
    first()
    first()  # twice is once
    assert os.environ["MINIWOB_URL"] == url  # the second user still has it
    second()
    assert "MINIWOB_URL" not in os.environ
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "click-test.html", timeout=5)
    # a user's own settings stay as they are
    monkeypatch.setenv("MINIWOB_URL", "file:///mine/")
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "theirs"))
    miniwob_env.ensure_browsergym_env(chromium=chromium)()
    assert os.environ["MINIWOB_URL"] == "file:///mine/"
    assert os.environ["PLAYWRIGHT_BROWSERS_PATH"] == str(tmp_path / "theirs")
    assert not (tmp_path / "theirs").exists()

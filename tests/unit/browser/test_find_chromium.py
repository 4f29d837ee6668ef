"""Which Chromium binary a launch gets: the headless shell for a headless launch when installed,
the full browser otherwise; an explicit path and ``PAGELENS_CHROMIUM`` always win."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.browser import chromium
from pagelens.browser.chromium import ENV_VAR, find_chromium
from pagelens.errors import BrowserNotFound


def _exe(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A machine with both binaries at their known paths and nothing on PATH."""
    full = _exe(tmp_path / "lib" / "chromium")
    shell = _exe(tmp_path / "lib" / "chromium-headless-shell")
    monkeypatch.setattr(chromium, "_KNOWN", (full,))
    monkeypatch.setattr(chromium, "_HEADLESS_KNOWN", (shell,))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.delenv(ENV_VAR, raising=False)
    return {"full": full, "shell": shell}


def test_a_headless_launch_gets_the_headless_shell(machine: dict[str, str]) -> None:
    assert find_chromium(headless=True) == machine["shell"]


def test_a_headed_launch_and_the_default_get_the_full_browser(machine: dict[str, str]) -> None:
    assert find_chromium(headless=False) == machine["full"]
    assert find_chromium() == machine["full"]  # callers that do not say (BrowserGym's own launch, benchmarks)


def test_without_the_shell_a_headless_launch_gets_the_full_browser(machine: dict[str, str]) -> None:
    Path(machine["shell"]).unlink()
    assert find_chromium(headless=True) == machine["full"]


def test_the_environment_and_an_explicit_path_win_over_the_shell(
    machine: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, machine["full"])
    assert find_chromium(headless=True) == machine["full"]
    other = _exe(tmp_path / "opt" / "chrome")
    assert find_chromium(other, headless=True) == other


def test_the_shell_is_found_on_path_too(machine: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Path(machine["shell"]).unlink()
    on_path = _exe(tmp_path / "bin" / "chromium-headless-shell")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert find_chromium(headless=True) == on_path
    assert find_chromium(headless=False) == machine["full"]


def test_no_browser_at_all_is_a_clear_error(machine: dict[str, str]) -> None:
    Path(machine["shell"]).unlink()
    Path(machine["full"]).unlink()
    with pytest.raises(BrowserNotFound, match=ENV_VAR):
        find_chromium(headless=True)

"""An LLM endpoint that hangs, fails, talks garbage or drops the connection: the LLM retriever
retries as configured (from the environment), then the agent gets the full tree with a reason —
in bounded time, with every retry reported, and the key nowhere in what is reported."""

from __future__ import annotations

import logging
import time

import pytest

from pagelens.focus.apply import focus
from pagelens.focus.registry import make_retriever
from pagelens.llm.openai_compat import client_from_env
from pagelens.llm.scripted import ScriptedServer
from pagelens.types import Line, Rendering

pytestmark = pytest.mark.reliability

KEY = "sk-reliability-0123456789abcdef"
FAULTS = {
    "hang": {"hang": 30.0},
    "http-500": {"status": 500, "body": "upstream exploded"},
    "garbage": {"raw": "<html><body>502 Bad Gateway from a proxy</body></html>"},
    "drop": {"close": True},
}


def _rendering(n: int = 60) -> Rendering:
    lines = [Line(no=0, depth=0, text="RootWebArea 'Shop'", node=0, role="RootWebArea", name="Shop")]
    for i in range(1, n):
        lines.append(Line(no=i, depth=1, text=f"[{i}] link 'Product {i}'", node=i, role="link",
                          eid=str(i), parent=0, name=f"Product {i}"))  # type: ignore[arg-type]
    return Rendering(tuple(lines))


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_failing_endpoint_gives_full_tree_with_reason_in_bounded_time(
        fault: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="pagelens.llm")
    with ScriptedServer(lambda _req: FAULTS[fault]) as srv:
        monkeypatch.setenv("PAGELENS_LLM_BASE_URL", srv.base_url)
        monkeypatch.setenv("PAGELENS_LLM_MODEL", "m")
        monkeypatch.setenv("PAGELENS_LLM_API_KEY", KEY)
        monkeypatch.setenv("PAGELENS_LLM_TIMEOUT_S", "0.5")
        monkeypatch.setenv("PAGELENS_LLM_MAX_RETRIES", "2")
        with client_from_env() as model:
            retriever = make_retriever("llm", model=model)
            t = time.perf_counter()
            result = focus(_rendering(), "Open product 7", retriever)
            elapsed = time.perf_counter() - t
        calls = len(srv.chat_requests)
    rendering = _rendering()
    assert result.error and result.kept == frozenset(ln.no for ln in rendering.lines)  # the full tree
    assert calls == 3  # one try + PAGELENS_LLM_MAX_RETRIES
    assert elapsed < 15, f"{fault}: {elapsed:.1f}s"  # 3 × 0.5 s timeouts + backoff, not 3 × 60 s
    retries = [r for r in caplog.records if "retrying" in r.getMessage()]
    assert len(retries) == 2  # every retry is visible
    assert KEY not in caplog.text and KEY not in (result.error or "")


def test_bad_timeout_in_environment_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from pagelens.errors import ConfigError

    monkeypatch.setenv("PAGELENS_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PAGELENS_LLM_MODEL", "m")
    for value, match in (("soon", "must be a number"), ("-1", "timeout_s")):
        monkeypatch.setenv("PAGELENS_LLM_TIMEOUT_S", value)
        with pytest.raises(ConfigError, match=match):
            client_from_env()

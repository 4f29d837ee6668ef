"""OpenAICompatModel over real HTTP against the scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import time
import traceback
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from pagelens import tokens
from pagelens.errors import ConfigError, LLMError, MissingDependency
from pagelens.llm.base import ChatModel, LLMConfig, Message, ResponseFormat, Usage
from pagelens.llm.llamacpp import LlamaCppServer
from pagelens.llm.openai_compat import OpenAICompatModel, client_from_env, redact
from pagelens.llm.scripted import ScriptedServer, load_script, main

KEY = "sk-test-SECRET-0123456789abcdef"
HI = [Message("system", "be brief"), Message("user", "say hi")]
FMT = ResponseFormat(name="x", schema={"type": "object", "properties": {"a": {"type": "string"}}})


def _config(server: ScriptedServer, **overrides: Any) -> LLMConfig:
    base: dict[str, Any] = {
        "base_url": server.base_url,
        "model": "test-model",
        "api_key_env": "PAGELENS_TEST_KEY",
        "timeout_s": 2.0,
        "max_retries": 2,
        "backoff_s": 0.01,
        "backoff_max_s": 0.2,
    }
    base.update(overrides)
    return LLMConfig(**base)


@pytest.fixture(autouse=True, scope="module")
def _warm_tokenizer() -> None:
    tokens.count("warm up")  # loading o200k takes seconds once; keep it out of the timed calls


@pytest.fixture
def key_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("PAGELENS_TEST_KEY", KEY)
    yield KEY


def test_success_sends_key_and_records_request(key_env: str) -> None:
    with ScriptedServer(["hello there"]) as srv, OpenAICompatModel(_config(srv)) as model:
        assert isinstance(model, ChatModel)
        c = model.complete(HI, max_tokens=20, temperature=0.3)
        assert c.text == "hello there"
        assert c.raw_finish_reason == "stop"
        assert c.model == "test-model"
        assert c.latency_s > 0
        (req,) = srv.chat_requests
        assert req.path == "/v1/chat/completions"
        assert req.authorization == f"Bearer {KEY}"
        assert req.body["messages"] == [{"role": "system", "content": "be brief"}, {"role": "user", "content": "say hi"}]
        assert req.body["max_tokens"] == 20 and req.body["temperature"] == 0.3
        assert "response_format" not in req.body


def test_no_key_no_authorization_header(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAGELENS_TEST_KEY", raising=False)
    with ScriptedServer(["x"]) as srv, OpenAICompatModel(_config(srv)) as model:
        model.complete(HI)
        assert srv.chat_requests[0].authorization is None


def test_usage_from_server_and_cost(key_env: str) -> None:
    script = [
        {"text": "a", "usage": {"prompt_tokens": 1000, "completion_tokens": 50}},
        {"text": "b", "usage": {"prompt_tokens": 3000, "completion_tokens": 150}},
    ]
    with ScriptedServer(script) as srv:
        cfg = _config(srv, price_input_per_m=0.4, price_output_per_m=1.6)
        usage = Usage()
        with OpenAICompatModel(cfg, usage=usage) as model:
            a = model.complete(HI)
            model.complete(HI)
    assert (a.prompt_tokens, a.completion_tokens, a.usage_estimated) == (1000, 50, False)
    assert a.cost_usd == pytest.approx((1000 * 0.4 + 50 * 1.6) / 1e6)
    assert usage.calls == 2 and usage.prompt_tokens == 4000 and usage.completion_tokens == 200
    assert usage.cost_usd == pytest.approx((4000 * 0.4 + 200 * 1.6) / 1e6)
    assert usage.as_dict()["unpriced_calls"] == 0


def test_usage_estimated_when_server_sends_none(key_env: str) -> None:
    with ScriptedServer(["one two three four"]) as srv, OpenAICompatModel(_config(srv)) as model:
        c = model.complete([Message("user", "word " * 100)])
    assert c.usage_estimated
    assert 100 <= c.prompt_tokens <= 120  # 100 words + chat overhead
    assert 3 <= c.completion_tokens <= 6
    assert c.cost_usd is None and model.usage.unpriced_calls == 1


def test_openrouter_style_cost_used_when_no_price(key_env: str) -> None:
    with ScriptedServer([{"text": "x", "usage": {"prompt_tokens": 5, "completion_tokens": 1, "cost": 0.0021}}]) as srv:
        with OpenAICompatModel(_config(srv)) as model:
            assert model.complete(HI).cost_usd == pytest.approx(0.0021)


def test_500_then_success_is_retried(key_env: str) -> None:
    waits: list[float] = []
    with ScriptedServer([{"status": 500}, {"status": 503, "body": "busy"}, "recovered"]) as srv:
        with OpenAICompatModel(_config(srv), sleep=waits.append) as model:
            assert model.complete(HI).text == "recovered"
    assert len(srv.chat_requests) == 3
    assert len(waits) == 2 and all(0 < w <= 0.2 for w in waits)


def test_retry_after_is_respected_and_capped(key_env: str) -> None:
    waits: list[float] = []
    script = [{"status": 429, "headers": {"Retry-After": "0.15"}}, {"status": 429, "headers": {"Retry-After": "999"}}, "ok"]
    with ScriptedServer(script) as srv, OpenAICompatModel(_config(srv, backoff_max_s=0.3), sleep=waits.append) as model:
        assert model.complete(HI).text == "ok"
    assert waits[0] >= 0.15
    assert waits[1] == pytest.approx(0.3)


def test_retries_exhausted_raise_llmerror(key_env: str) -> None:
    with ScriptedServer([{"status": 502}] * 3) as srv, OpenAICompatModel(_config(srv), sleep=lambda s: None) as model:
        with pytest.raises(LLMError, match=r"HTTP 502.*after 3 attempt"):
            model.complete(HI)
        assert model.usage.failures == 1 and model.usage.calls == 0


def test_4xx_is_not_retried(key_env: str) -> None:
    with ScriptedServer([{"status": 401, "body": {"error": {"message": "bad key"}}}, "never"]) as srv:
        with OpenAICompatModel(_config(srv)) as model, pytest.raises(LLMError, match="HTTP 401"):
            model.complete(HI)
        assert len(srv.chat_requests) == 1


def test_hang_times_out_quickly(key_env: str) -> None:
    with ScriptedServer([{"hang": 3}]) as srv, OpenAICompatModel(_config(srv, max_retries=0)) as model:
        start = time.monotonic()
        with pytest.raises(LLMError, match="timed out"):
            model.complete(HI, timeout=0.3)
        assert time.monotonic() - start < 1.5


def test_hang_then_success_with_retry(key_env: str) -> None:
    with ScriptedServer([{"hang": 3}, "second try"]) as srv, OpenAICompatModel(_config(srv, max_retries=1)) as model:
        assert model.complete(HI, timeout=0.3).text == "second try"


def test_connection_refused_is_llmerror(key_env: str) -> None:
    srv = ScriptedServer([]).start()
    url = srv.base_url
    srv.stop()
    cfg = LLMConfig(base_url=url, model="m", api_key_env="PAGELENS_TEST_KEY", max_retries=1, backoff_s=0.01)
    with OpenAICompatModel(cfg) as model, pytest.raises(LLMError, match="unreachable"):
        model.complete(HI)


def test_dropped_connection_is_retried(key_env: str) -> None:
    with ScriptedServer([{"close": True}, "after drop"]) as srv, OpenAICompatModel(_config(srv)) as model:
        assert model.complete(HI).text == "after drop"


@pytest.mark.parametrize(
    "reply",
    [
        {"raw": "<html>not json</html>"},
        {"raw": "[1, 2, 3]"},
        {"raw": '{"object": "chat.completion"}'},
        {"raw": '{"choices": [{"message": {"content": 42}}]}'},
    ],
)
def test_garbage_body_is_llmerror(key_env: str, reply: dict[str, Any]) -> None:
    with ScriptedServer([reply]) as srv, OpenAICompatModel(_config(srv)) as model, pytest.raises(LLMError):
        model.complete(HI)


def test_null_content_is_empty_text(key_env: str) -> None:
    body = json.dumps({"choices": [{"message": {"role": "assistant", "content": None}, "finish_reason": "length"}]})
    with ScriptedServer([{"raw": body}]) as srv, OpenAICompatModel(_config(srv)) as model:
        c = model.complete(HI)
    assert c.text == "" and c.raw_finish_reason == "length"


def test_response_format_json_schema_is_sent(key_env: str) -> None:
    with ScriptedServer(['{"a": "b"}']) as srv, OpenAICompatModel(_config(srv)) as model:
        c = model.complete(HI, response_format=FMT)
        rf = srv.chat_requests[0].body["response_format"]
    assert c.structured and model.structured_output is True
    assert rf["type"] == "json_schema" and rf["json_schema"]["schema"]["properties"] == {"a": {"type": "string"}}


def test_llamacpp_style_response_format(key_env: str) -> None:
    with ScriptedServer(["{}"]) as srv, OpenAICompatModel(_config(srv, response_format_style="json_object")) as model:
        model.complete(HI, response_format=FMT)
        rf = srv.chat_requests[0].body["response_format"]
    assert rf["type"] == "json_object" and rf["schema"]["type"] == "object"


def test_response_format_400_falls_back_and_is_remembered(key_env: str) -> None:
    def script(req: dict[str, Any]) -> Any:
        if "response_format" in req:
            return {"status": 400, "body": {"error": {"message": "response_format json_schema is not supported"}}}
        return "plain answer"

    with ScriptedServer(script) as srv, OpenAICompatModel(_config(srv)) as model:
        assert model.complete(HI, response_format=FMT).text == "plain answer"
        assert model.structured_output is False
        second = model.complete(HI, response_format=FMT)
        sent = ["response_format" in r.body for r in srv.chat_requests]
    assert sent == [True, False, False]  # one rejected try, then never again
    assert second.structured is False


def test_400_without_response_format_is_an_error(key_env: str) -> None:
    with ScriptedServer([{"status": 400, "body": "context too long"}]) as srv, OpenAICompatModel(_config(srv)) as model:
        with pytest.raises(LLMError, match="HTTP 400"):
            model.complete(HI)


def test_supports_json_schema_false_never_sends_it(key_env: str) -> None:
    with ScriptedServer(["x"]) as srv, OpenAICompatModel(_config(srv, supports_json_schema=False)) as model:
        model.complete(HI, response_format=FMT)
        assert "response_format" not in srv.chat_requests[0].body


def test_key_never_leaks(key_env: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    # The server echoes the key back in error bodies, as some providers do.
    script = [
        {"status": 500, "body": f"internal error for Bearer {KEY}"},
        {"status": 401, "body": {"error": {"message": f"Incorrect API key provided: {KEY}"}}},
    ]
    with ScriptedServer(script) as srv:
        cfg = _config(srv, max_retries=1)
        model = OpenAICompatModel(cfg)
        with pytest.raises(LLMError) as info:
            model.complete(HI)
        model.close()
        assert srv.chat_requests[0].authorization == f"Bearer {KEY}"  # it was sent ...
    exc = info.value
    texts = [
        str(exc),
        repr(exc),
        "".join(traceback.format_exception(exc)),
        repr(model),
        repr(cfg),
        cfg.model_dump_json(),
        caplog.text,
        str(model.usage),
    ]
    for text in texts:
        assert KEY not in text  # ... and appears nowhere else
    assert "***" in str(exc)
    assert exc.__cause__ is None and (exc.__context__ is None or exc.__suppress_context__)


def test_redact() -> None:
    assert redact(f"x {KEY} y", [KEY]) == "x *** y"
    assert redact("Authorization: Bearer abc.def") == "Authorization: Bearer ***"
    assert "sk-" not in redact("key sk-live-abcdefgh123")


def test_mock_transport_seam() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"choices": [{"message": {"content": "via mock"}}]})

    cfg = LLMConfig(base_url="http://mock/v1", model="m")
    with OpenAICompatModel(cfg, transport=httpx.MockTransport(handler)) as model:
        assert model.complete(HI).text == "via mock"


def test_config_from_env() -> None:
    env = {"PAGELENS_LLM_BASE_URL": "http://h:1/v1", "PAGELENS_LLM_MODEL": "qwen", "PAGELENS_LLM_API_KEY": KEY}
    cfg = LLMConfig.from_env(env)
    assert (cfg.base_url, cfg.model, cfg.api_key_env) == ("http://h:1/v1", "qwen", "PAGELENS_LLM_API_KEY")
    assert cfg.api_key(env) == KEY and KEY not in repr(cfg)
    env2 = {"PAGELENS_LLM_BASE_URL": "http://h:1/v1", "PAGELENS_LLM_MODEL": "qwen", "OPENAI_API_KEY": "k2"}
    assert LLMConfig.from_env(env2).api_key(env2) == "k2"
    with pytest.raises(ConfigError, match="PAGELENS_LLM_MODEL"):
        LLMConfig.from_env({"PAGELENS_LLM_BASE_URL": "http://h"})
    with pytest.raises(ValueError):
        LLMConfig(base_url="x", model="m", api_key="nope")  # type: ignore[call-arg]
    client = client_from_env(env)
    assert client.config.model == "qwen" and KEY not in repr(client)
    with pytest.raises(ConfigError):
        client_from_env({})


def test_scripted_models_endpoint_and_exhaustion() -> None:
    with ScriptedServer(["only"], model="tiny") as srv:
        r = httpx.get(srv.base_url + "/models", timeout=2)
        assert r.json()["data"][0]["id"] == "tiny"
        body = {"model": "tiny", "messages": []}
        assert httpx.post(srv.base_url + "/chat/completions", json=body, timeout=2).status_code == 200
        exhausted = httpx.post(srv.base_url + "/chat/completions", json=body, timeout=2)
        assert exhausted.status_code == 500 and "exhausted" in exhausted.text
        assert srv.remaining == 0


def test_load_script_and_cli_args(tmp_path: Path) -> None:
    f = tmp_path / "s.jsonl"
    f.write_text('"plain"\n\n{"status": 500}\n{"text": "x", "usage": {"prompt_tokens": 1, "completion_tokens": 1}}\n')
    assert load_script(f) == ["plain", {"status": 500}, {"text": "x", "usage": {"prompt_tokens": 1, "completion_tokens": 1}}]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1]\n")
    with pytest.raises(ValueError, match="bad.jsonl:1"):
        load_script(bad)
    with pytest.raises(SystemExit):
        main(["--help"])


def test_llamacpp_missing_dependency(tmp_path: Path) -> None:
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    server = LlamaCppServer(gguf, port=0, n_ctx=2048)
    assert not server.running
    with pytest.raises(MissingDependency, match=r"pip install 'pagelens\[llamacpp\]'"):
        server.start()
    assert not server.running
    assert server.command()[1:3] == ["-m", "llama_cpp.server"] and "--n_ctx" in server.command()

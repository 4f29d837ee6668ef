"""Client for any OpenAI-compatible ``/v1/chat/completions`` endpoint.

Works with vLLM, Ollama, llama.cpp / llama-cpp-python servers, OpenRouter and OpenAI.

Failure handling, in order:

* connect/read/write errors, timeouts, 429 and 5xx are retried ``max_retries`` times with
  exponential backoff and full jitter; ``Retry-After`` (seconds or HTTP date) is honoured,
  capped at ``backoff_max_s``;
* a 400 on a request carrying ``response_format`` is retried once without it; if that
  succeeds, structured output stays off for this client;
* a 2xx body that is not JSON (a proxy's error page, a cut-off body) is retried the same way;
* anything else (4xx, JSON that is not a chat completion) raises at once.

Each retry is logged as a warning (key redacted), so a slow endpoint is never silent. The
per-attempt timeout and the retry count come from :class:`~pagelens.llm.base.LLMConfig`
(``PAGELENS_LLM_TIMEOUT_S`` / ``PAGELENS_LLM_MAX_RETRIES`` in the environment).

Every httpx error is translated into :class:`~pagelens.errors.LLMError` here, with the
original chain suppressed, and every message passes through :func:`redact`: API keys never
appear in exceptions, logs or reprs.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self

import httpx

from pagelens import tokens
from pagelens.errors import LLMError
from pagelens.llm.base import Completion, LLMConfig, Message, ResponseFormat, Usage

__all__ = ["OpenAICompatModel", "client_from_env", "redact"]

log = logging.getLogger("pagelens.llm")

_KEYLIKE = re.compile(r"(?i)(bearer\s+)\S+|\b(sk-[A-Za-z0-9_\-]{6,})")
_RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})


def redact(text: str, secrets: Sequence[str | None] = ()) -> str:
    """Remove ``secrets`` and anything that looks like a bearer token or ``sk-`` key."""
    for s in secrets:
        if s and len(s) >= 4:
            text = text.replace(s, "***")
    return _KEYLIKE.sub(lambda m: (m.group(1) or "") + "***", text)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class _Retryable(Exception):
    """Internal: this attempt failed in a way worth retrying."""

    def __init__(self, message: str, wait_hint: float | None = None) -> None:
        super().__init__(message)
        self.wait_hint = wait_hint


class OpenAICompatModel:
    """A :class:`~pagelens.llm.base.ChatModel` over HTTP.

    ``transport`` is the httpx seam (e.g. ``httpx.MockTransport``); ``sleep`` and ``rng``
    make backoff deterministic in tests. Usable as a context manager; ``close()`` releases
    the connection pool.
    """

    def __init__(
        self,
        config: LLMConfig,
        *,
        usage: Usage | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self.usage = usage if usage is not None else Usage()
        self._transport = transport
        self._sleep = sleep
        self._rng = rng if rng is not None else random.Random()
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()
        #: None = unknown; False after the endpoint rejected response_format once.
        self._schema_ok: bool | None = config.supports_json_schema

    def __repr__(self) -> str:
        return f"OpenAICompatModel(base_url={self.config.base_url!r}, model={self.config.model!r})"

    @property
    def structured_output(self) -> bool | None:
        """Whether response_format is sent: True, False, or None (not yet known)."""
        return self._schema_ok

    # -- lifecycle -----------------------------------------------------------------------
    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(transport=self._transport, follow_redirects=False)
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the one method ------------------------------------------------------------------
    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
        response_format: ResponseFormat | None = None,
        timeout: float | None = None,
    ) -> Completion:
        key = self.config.api_key()
        try:
            return self._complete(messages, key, max_tokens, temperature, response_format, timeout)
        except LLMError:
            self.usage.add_failure()
            raise

    def _complete(
        self,
        messages: Sequence[Message],
        key: str | None,
        max_tokens: int | None,
        temperature: float,
        response_format: ResponseFormat | None,
        timeout: float | None,
    ) -> Completion:
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": [m.as_dict() for m in messages],
            "temperature": temperature,
            "stream": False,
        }
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        send_format = response_format is not None and self._schema_ok is not False
        if send_format and response_format is not None:
            body["response_format"] = self._wire_format(response_format)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        url = self.config.base_url.rstrip("/") + "/chat/completions"
        t = timeout if timeout is not None else self.config.timeout_s
        http_timeout = httpx.Timeout(t, connect=min(t, 10.0))

        attempt = 0
        format_retry_used = False
        self._http()  # build the pool (TLS context) outside the latency measurement
        while True:
            start = time.perf_counter()
            try:
                data = self._attempt(url, body, headers, http_timeout, key)
            except _FormatRejected as exc:
                if format_retry_used or "response_format" not in body:
                    raise LLMError(redact(str(exc), [key])) from None
                format_retry_used = True
                body = {k: v for k, v in body.items() if k != "response_format"}
                log.info("endpoint rejected response_format; retrying without it")
                continue
            except _Retryable as exc:
                if attempt >= self.config.max_retries:
                    raise LLMError(
                        f"{redact(str(exc), [key])} (after {attempt + 1} attempt(s))"
                    ) from None
                wait = self._backoff(attempt, exc.wait_hint)
                # a warning, so a user waiting on a slow endpoint sees why (stderr, key redacted)
                log.warning("LLM attempt %d/%d failed (%s); retrying in %.1fs", attempt + 1,
                            self.config.max_retries + 1, redact(str(exc), [key]), wait)
                self._sleep(wait)
                attempt += 1
                continue
            latency = time.perf_counter() - start
            if format_retry_used:
                self._schema_ok = False  # the endpoint works without it: remember
            elif "response_format" in body and self._schema_ok is None:
                self._schema_ok = True
            completion = self._to_completion(data, messages, latency, "response_format" in body, key)
            self.usage.add(completion)
            log.debug(
                "LLM call ok model=%s prompt_tokens=%d completion_tokens=%d latency=%.3fs",
                completion.model,
                completion.prompt_tokens,
                completion.completion_tokens,
                latency,
            )
            return completion

    def _wire_format(self, rf: ResponseFormat) -> dict[str, Any]:
        if self.config.response_format_style == "json_object":
            return {"type": "json_object", "schema": dict(rf.schema)}
        return {
            "type": "json_schema",
            "json_schema": {"name": rf.name, "schema": dict(rf.schema), "strict": rf.strict},
        }

    def _backoff(self, attempt: int, hint: float | None) -> float:
        cap = self.config.backoff_max_s
        base = min(cap, self.config.backoff_s * (2**attempt))
        wait = self._rng.uniform(base / 2, base) if base > 0 else 0.0  # "equal jitter"
        if hint is not None:
            wait = max(wait, hint)
        return min(wait, cap)

    def _attempt(
        self, url: str, body: Mapping[str, Any], headers: Mapping[str, str], timeout: httpx.Timeout, key: str | None
    ) -> dict[str, Any]:
        try:
            resp = self._http().post(url, json=body, headers=headers, timeout=timeout)
        except httpx.TimeoutException as exc:
            raise _Retryable(f"LLM request timed out ({type(exc).__name__}, limit {timeout.read}s)") from None
        except httpx.TransportError as exc:
            raise _Retryable(f"LLM endpoint unreachable ({type(exc).__name__}: {exc})") from None
        except httpx.HTTPError as exc:  # invalid URL and other client-side errors
            raise LLMError(redact(f"LLM request failed ({type(exc).__name__}: {exc})", [key])) from None
        status = resp.status_code
        snippet = redact(resp.text[:300], [key])
        if status in _RETRY_STATUS:
            raise _Retryable(f"LLM endpoint returned HTTP {status}: {snippet}", _retry_after(resp.headers.get("Retry-After")))
        if status == 400 and "response_format" in body:
            raise _FormatRejected(f"LLM endpoint returned HTTP 400: {snippet}")
        if status >= 400:
            raise LLMError(f"LLM endpoint returned HTTP {status}: {snippet}")
        try:
            data = resp.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            # a proxy's error page or a body cut off mid-way: worth another attempt
            raise _Retryable(f"LLM endpoint returned a body that is not JSON: {snippet!r}") from None
        if not isinstance(data, dict):
            raise _Retryable(f"LLM endpoint returned JSON that is not an object: {snippet!r}")
        return data

    def _to_completion(
        self, data: Mapping[str, Any], messages: Sequence[Message], latency: float, structured: bool, key: str | None
    ) -> Completion:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise LLMError(redact(f"LLM reply has no choices: {json.dumps(data)[:300]}", [key]))
        choice = choices[0]
        message = choice.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if content is not None and not isinstance(content, str):
            raise LLMError(f"LLM reply content is not text: {type(content).__name__}")
        text = content or ""
        finish = choice.get("finish_reason")
        usage = data.get("usage")
        prompt_t = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        compl_t = usage.get("completion_tokens") if isinstance(usage, dict) else None
        estimated = not (isinstance(prompt_t, int) and isinstance(compl_t, int))
        if estimated:
            # ~4 tokens of chat-format overhead per message, as OpenAI documents.
            prompt_t = sum(tokens.count(m.content) + 4 for m in messages) + 2
            compl_t = tokens.count(text)
        assert isinstance(prompt_t, int) and isinstance(compl_t, int)
        cost = self.config.cost(prompt_t, compl_t)
        if cost is None and isinstance(usage, dict) and isinstance(usage.get("cost"), (int, float)):
            cost = float(usage["cost"])  # OpenRouter reports the billed cost itself
        model = data.get("model")
        return Completion(
            text=text,
            prompt_tokens=prompt_t,
            completion_tokens=compl_t,
            latency_s=latency,
            model=model if isinstance(model, str) and model else self.config.model,
            cost_usd=cost,
            raw_finish_reason=finish if isinstance(finish, str) else None,
            usage_estimated=estimated,
            structured=structured,
        )


def client_from_env(environ: Mapping[str, str] | None = None) -> OpenAICompatModel:
    """A client configured by ``PAGELENS_LLM_BASE_URL`` / ``_MODEL`` / ``_API_KEY`` (ConfigError if unset)."""
    return OpenAICompatModel(LLMConfig.from_env(environ))


class _FormatRejected(Exception):
    """Internal: HTTP 400 on a request that carried response_format."""

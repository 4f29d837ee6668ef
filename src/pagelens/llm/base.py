"""The one LLM seam: a chat model with a single ``complete`` method.

Everything that talks to a language model (retrievers, policies, judges) depends on
:class:`ChatModel` only. Concrete backends live next to this module:

* :mod:`pagelens.llm.openai_compat` — any OpenAI-compatible ``/v1/chat/completions`` endpoint;
* :mod:`pagelens.llm.scripted` — a scripted local server of that protocol, for tests and demos;
* :mod:`pagelens.llm.llamacpp` — starts a user's own GGUF behind llama-cpp-python's server.

API keys are never stored in configuration values: :class:`LLMConfig` holds the *name* of the
environment variable and the key is read only when a request is sent.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pagelens.errors import ConfigError

__all__ = [
    "ChatModel",
    "Completion",
    "LLMConfig",
    "Message",
    "ResponseFormat",
    "Usage",
]

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    content: str
    #: images sent with the text, as ``data:image/...;base64,...`` URLs (OpenAI content parts)
    images: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        if not self.images:
            return {"role": self.role, "content": self.content}
        parts: list[dict[str, Any]] = [{"type": "text", "text": self.content}]
        parts += [{"type": "image_url", "image_url": {"url": url, "detail": "high"}} for url in self.images]
        return {"role": self.role, "content": parts}


@dataclass(frozen=True, slots=True)
class ResponseFormat:
    """A request for structured output: the reply must be JSON matching ``schema``.

    Backends translate it to their wire format (OpenAI ``json_schema``, llama.cpp's
    ``json_object`` + ``schema``) or drop it when the endpoint does not support it; the
    prompt should therefore describe the expected JSON too.
    """

    name: str
    schema: Mapping[str, Any]
    strict: bool = True


@dataclass(frozen=True, slots=True)
class Completion:
    """One finished model call."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    model: str
    cost_usd: float | None
    raw_finish_reason: str | None
    #: True when token counts were estimated locally (the server sent no ``usage``).
    usage_estimated: bool = False
    #: True when the successful request carried a ``response_format``.
    structured: bool = False


@runtime_checkable
class ChatModel(Protocol):
    """A chat model. Raises :class:`pagelens.errors.LLMError` on any endpoint failure."""

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int | None = None,
        temperature: float = 0.0,
        response_format: ResponseFormat | None = None,
        timeout: float | None = None,
    ) -> Completion: ...


@dataclass
class Usage:
    """Thread-safe running totals over many calls (one per client, or shared)."""

    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    unpriced_calls: int = 0  # calls whose cost is unknown (no price configured)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, completion: Completion) -> None:
        with self._lock:
            self.calls += 1
            self.prompt_tokens += completion.prompt_tokens
            self.completion_tokens += completion.completion_tokens
            if completion.cost_usd is None:
                self.unpriced_calls += 1
            else:
                self.cost_usd += completion.cost_usd

    def add_failure(self) -> None:
        with self._lock:
            self.failures += 1

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def as_dict(self) -> dict[str, Any]:
        with self._lock:
            return {
                "calls": self.calls,
                "failures": self.failures,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "cost_usd": round(self.cost_usd, 8),
                "unpriced_calls": self.unpriced_calls,
            }


class LLMConfig(BaseModel):
    """Where and how to reach an OpenAI-compatible endpoint."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str = Field(description="Endpoint root including /v1, e.g. http://127.0.0.1:8000/v1")
    model: str
    #: Name of the environment variable holding the key (read at call time; may be unset
    #: for local servers that need no key).
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    backoff_s: float = Field(default=0.5, ge=0, description="first retry delay; doubles each retry")
    backoff_max_s: float = Field(default=20.0, ge=0, description="cap on any single wait, Retry-After included")
    price_input_per_m: float | None = Field(default=None, ge=0, description="USD per 1M prompt tokens")
    price_output_per_m: float | None = Field(default=None, ge=0, description="USD per 1M completion tokens")
    #: True: always send response_format; False: never; None: try, and stop after a 400.
    supports_json_schema: bool | None = None
    #: Wire flavour of structured output: OpenAI/vLLM ``json_schema`` or llama-cpp-python's
    #: ``{"type": "json_object", "schema": ...}``.
    response_format_style: Literal["json_schema", "json_object"] = "json_schema"

    def api_key(self, environ: Mapping[str, str] | None = None) -> str | None:
        """The key, read from the environment now; never stored on the config."""
        env = os.environ if environ is None else environ
        key = env.get(self.api_key_env, "").strip()
        return key or None

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float | None:
        if self.price_input_per_m is None or self.price_output_per_m is None:
            return None
        return (prompt_tokens * self.price_input_per_m + completion_tokens * self.price_output_per_m) / 1e6

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig:
        """Build from ``PAGELENS_LLM_BASE_URL``, ``PAGELENS_LLM_MODEL`` and the key variable;
        ``PAGELENS_LLM_TIMEOUT_S`` (seconds per attempt, default 60) and ``PAGELENS_LLM_MAX_RETRIES``
        (default 2) bound how long a silent endpoint can hold a call.

        The key comes from ``PAGELENS_LLM_API_KEY`` if set, else ``OPENAI_API_KEY``; only the
        variable's name is kept.
        """
        env = os.environ if environ is None else environ
        base_url = env.get("PAGELENS_LLM_BASE_URL", "").strip()
        model = env.get("PAGELENS_LLM_MODEL", "").strip()
        missing = [n for n, v in (("PAGELENS_LLM_BASE_URL", base_url), ("PAGELENS_LLM_MODEL", model)) if not v]
        if missing:
            raise ConfigError(f"LLM endpoint not configured: set {' and '.join(missing)}")
        key_env = "PAGELENS_LLM_API_KEY" if env.get("PAGELENS_LLM_API_KEY", "").strip() else "OPENAI_API_KEY"
        extra: dict[str, float | int] = {}
        for var, name, kind in (("PAGELENS_LLM_TIMEOUT_S", "timeout_s", float),
                                 ("PAGELENS_LLM_MAX_RETRIES", "max_retries", int)):
            raw = env.get(var, "").strip()
            if raw:
                try:
                    extra[name] = kind(raw)
                except ValueError:
                    raise ConfigError(f"{var} must be a number, not {raw!r}") from None
        try:
            return cls(base_url=base_url, model=model, api_key_env=key_env, **extra)  # type: ignore[arg-type]
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ConfigError(f"LLM endpoint configuration: {first['loc'][0]} {first['msg']}") from None

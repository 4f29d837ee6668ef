"""FocusAgent's LLM retriever: a small model reads the numbered tree and names line ranges.

One call per chunk of the tree (whole lines, one global numbering; a single chunk unless the
tree exceeds ``window_tokens``). Each chunk is shown with its ancestors for context. The
model reasons briefly and answers with ranges (JSON via ``response_format`` where the
endpoint supports it, an ``Answer:`` line otherwise); :func:`parse_ranges` reads any common
spelling. An unusable answer is retried ``max_retries`` times with a hint naming the
problem. When the endpoint fails (timeout, HTTP error, garbage) or the answer stays
unusable, the retriever uses ``fallback`` if one is configured, else raises
:class:`RetrieverFailed` (a :class:`~pagelens.errors.FocusError` that carries the call
records), which :func:`pagelens.focus.apply.focus` turns into the full tree.

Every call — prompt, answer, latency, tokens, cost, problems — is recorded in
``Selection.info["calls"]``. Model output is only ever parsed into integers.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, get_args

from pagelens import tokens
from pagelens.errors import ConfigError, FocusError, LLMError
from pagelens.focus.base import FocusQuery, Retriever, Selection
from pagelens.focus.llm_ranges import format_ranges, parse_ranges, to_ranges
from pagelens.focus.prompts import RANGES_SCHEMA, Variant, retry_hint, system_prompt, user_prompt
from pagelens.llm.base import ChatModel, Completion, Message, ResponseFormat
from pagelens.types import Rendering

__all__ = ["LLMRetriever", "RetrieverFailed", "format_ranges", "parse_ranges", "to_ranges"]

_FORMAT = ResponseFormat(name="line_ranges", schema=RANGES_SCHEMA)


class RetrieverFailed(FocusError):
    """The LLM retriever could not produce a selection; ``info`` holds what happened."""

    def __init__(self, message: str, info: dict[str, Any]) -> None:
        super().__init__(message)
        self.info = info


class _Unusable(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems) or "no line ranges found")
        self.problems = problems


@dataclass(frozen=True, slots=True)
class _Chunk:
    index: int
    selectable: tuple[int, ...]  # line numbers the model chooses from
    shown: tuple[int, ...]  # selectable + ancestors for context, sorted


def _numbered(rendering: Rendering, shown: Sequence[int]) -> str:
    """``<no>\\t<indent><text>`` per line, with ``…`` where lines are left out."""
    out: list[str] = []
    prev = -1
    for n in shown:
        if n != prev + 1:
            out.append("…")
        line = rendering.lines[n]
        out.append(f"{line.no}\t" + "\t" * line.depth + line.text)
        prev = n
    if shown and shown[-1] != len(rendering) - 1:
        out.append("…")
    return "\n".join(out)


def _ancestors(rendering: Rendering, lines: Collection[int]) -> set[int]:
    found: set[int] = set()
    for n in lines:
        p = rendering.lines[n].parent
        while p is not None and p not in found:
            found.add(p)
            p = rendering.lines[p].parent
    return found


def _estimate_input(messages: Sequence[Message]) -> int:
    """Prompt tokens as the client estimates them (content + ~4 per message + 2)."""
    return sum(tokens.count(m.content) + 4 for m in messages) + 2


@dataclass(frozen=True, eq=False)
class LLMRetriever:
    """Select lines with a chat model (see module docstring). Implements ``Retriever``."""

    model: ChatModel
    variant: Variant = "soft"
    use_history: bool = False
    window_tokens: int = 24_000  # tree tokens per call; larger trees are chunked
    max_retries: int = 1  # extra attempts after an unusable answer (with a hint)
    #: Seconds per attempt; None: the model's own setting (``LLMConfig.timeout_s``, which
    #: ``PAGELENS_LLM_TIMEOUT_S`` sets), so one variable bounds every call.
    timeout_s: float | None = None
    max_tokens: int | None = 1024
    structured: bool = True  # ask for JSON via response_format where supported
    fallback: Retriever | None = None
    history_limit: int = 10
    record_prompts: bool = True
    name: str = "llm"

    def __post_init__(self) -> None:
        if self.variant not in get_args(Variant):
            raise ConfigError(f"unknown LLM retriever variant {self.variant!r}; choose from {get_args(Variant)}")
        if self.window_tokens <= 0 or self.max_retries < 0 or (self.timeout_s is not None and self.timeout_s <= 0):
            raise ConfigError("window_tokens and timeout_s must be > 0, max_retries >= 0")

    # -- public --------------------------------------------------------------------------
    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        return self.select_among(query, rendering)

    def select_among(
        self,
        query: FocusQuery,
        rendering: Rendering,
        lines: Collection[int] | None = None,
        *,
        use_fallback: bool = True,
    ) -> Selection:
        """Select among ``lines`` only (all lines when None), shown with their ancestors."""
        chunks = self.plan(rendering, lines)
        info: dict[str, Any] = {
            "retriever": self.name,
            "variant": self.variant,
            "use_history": self.use_history,
            "total_lines": len(rendering),
            "candidate_lines": sum(len(c.selectable) for c in chunks),
            "chunks": len(chunks),
            "calls": [],
            "problems": [],
            "fallback": None,
        }
        keep: set[int] = set()
        if not chunks:
            info["problems"].append("no lines to select from")
        try:
            for chunk in chunks:
                keep |= self._ask_chunk(query, rendering, chunk, len(chunks), lines is not None, info)
        except (LLMError, _Unusable) as exc:
            reason = f"{type(exc).__name__}: {exc}" if isinstance(exc, LLMError) else f"unusable answer: {exc}"
            self._totals(info)
            info["error"] = reason
            if self.fallback is None or not use_fallback:
                raise RetrieverFailed(f"LLM retriever failed: {reason}", info) from None
            sel = self.fallback.select(query, rendering)
            info["fallback"] = {"retriever": self.fallback.name, "reason": reason, "info": dict(sel.info)}
            return Selection(keep=frozenset(sel.keep), info=info)
        self._totals(info)
        info["ranges"] = [list(r) for r in to_ranges(keep)]
        if not keep and chunks:
            info["problems"].append("the model selected no lines")
        return Selection(keep=frozenset(keep), info=info)

    def plan(self, rendering: Rendering, lines: Collection[int] | None = None) -> list[_Chunk]:
        """Split the selectable lines into chunks of at most ``window_tokens`` tree tokens."""
        n = len(rendering)
        selectable = sorted({x for x in lines if 0 <= x < n}) if lines is not None else list(range(n))
        if not selectable:
            return []
        costs = tokens.count_many([f"{x}\t" + "\t" * rendering.lines[x].depth + rendering.lines[x].text for x in selectable])
        groups: list[list[int]] = [[]]
        used = 0
        for x, c in zip(selectable, costs):
            if groups[-1] and used + c > self.window_tokens:
                groups.append([])
                used = 0
            groups[-1].append(x)
            used += c
        return [
            _Chunk(i, tuple(g), tuple(sorted(set(g) | _ancestors(rendering, g)))) for i, g in enumerate(groups)
        ]

    def messages(self, query: FocusQuery, rendering: Rendering, chunk: _Chunk, n_chunks: int, subset: bool) -> list[Message]:
        history = query.history[-self.history_limit :] if self.use_history and self.history_limit > 0 else ()
        user = user_prompt(
            query.goal,
            _numbered(rendering, chunk.shown),
            history=history,
            part=(chunk.index + 1, n_chunks),
            span=(chunk.selectable[0], chunk.selectable[-1]),
            total_lines=len(rendering),
            subset=subset,
        )
        return [Message("system", system_prompt(self.variant, self.structured)), Message("user", user)]

    def estimate_input_tokens(self, query: FocusQuery, rendering: Rendering, lines: Collection[int] | None = None) -> int:
        """Prompt tokens one pass would send (first attempts only), without calling the model."""
        chunks = self.plan(rendering, lines)
        subset = lines is not None
        return sum(_estimate_input(self.messages(query, rendering, c, len(chunks), subset)) for c in chunks)

    # -- internals -----------------------------------------------------------------------
    def _ask_chunk(
        self, query: FocusQuery, rendering: Rendering, chunk: _Chunk, n_chunks: int, subset: bool, info: dict[str, Any]
    ) -> set[int]:
        messages = self.messages(query, rendering, chunk, n_chunks, subset)
        allowed = set(chunk.shown)
        span = (chunk.selectable[0], chunk.selectable[-1])
        new: list[Message] = list(messages)
        problems: list[str] = []
        for attempt in range(self.max_retries + 1):
            record: dict[str, Any] = {"chunk": chunk.index, "attempt": attempt}
            if self.record_prompts:
                record["prompt" if attempt == 0 else "prompt_added"] = [m.as_dict() for m in new]
            info["calls"].append(record)
            try:
                completion = self.model.complete(
                    messages,
                    max_tokens=self.max_tokens,
                    temperature=0.0,
                    response_format=_FORMAT if self.structured else None,
                    timeout=self.timeout_s,
                )
            except LLMError as exc:
                record["error"] = str(exc)
                raise
            record.update(_completion_record(completion))
            picked, problems = parse_ranges(completion.text, len(rendering))
            outside = picked - allowed
            if outside:
                problems.append(f"lines not shown here were ignored: {format_ranges(outside)}")
                picked &= allowed
            record["problems"] = problems
            record["ranges"] = [list(r) for r in to_ranges(picked)]
            info["problems"].extend(f"chunk {chunk.index} attempt {attempt}: {p}" for p in problems)
            if picked or not problems:
                return picked
            if attempt < self.max_retries:
                hint = retry_hint(problems, span, self.structured)
                record["hint"] = hint
                new = [Message("assistant", completion.text or "(empty reply)"), Message("user", hint)]
                messages = messages + new
        raise _Unusable(problems)

    @staticmethod
    def _totals(info: dict[str, Any]) -> None:
        calls = [c for c in info["calls"] if "error" not in c]
        info["prompt_tokens"] = sum(c.get("prompt_tokens", 0) for c in calls)
        info["completion_tokens"] = sum(c.get("completion_tokens", 0) for c in calls)
        info["latency_s"] = round(sum(c.get("latency_s", 0.0) for c in calls), 4)
        costs = [c.get("cost_usd") for c in calls]
        info["cost_usd"] = None if not calls or any(c is None for c in costs) else sum(c for c in costs if c is not None)


def _completion_record(c: Completion) -> dict[str, Any]:
    return {
        "answer": c.text,
        "latency_s": round(c.latency_s, 4),
        "prompt_tokens": c.prompt_tokens,
        "completion_tokens": c.completion_tokens,
        "usage_estimated": c.usage_estimated,
        "cost_usd": c.cost_usd,
        "model": c.model,
        "finish_reason": c.raw_finish_reason,
        "structured": c.structured,
    }

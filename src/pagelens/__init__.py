"""pagelens: decide what an LLM web agent sees, and when.

The public API, imported lazily (importing :mod:`pagelens` starts nothing and loads no
browser, model or tokenizer)::

    from pagelens import observe, focus_view, BrowserSession, make_retriever, focus
    from pagelens import expand, search_page   # bring back what a focused view pruned
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "observe": "pagelens.api",
    "focus_view": "pagelens.api",
    "PageView": "pagelens.api",
    "expand": "pagelens.api",
    "search_page": "pagelens.api",
    "Recovery": "pagelens.focus.recover",
    "BrowserSession": "pagelens.browser.session",
    "BrowserConfig": "pagelens.config",
    "RenderConfig": "pagelens.config",
    "focus": "pagelens.focus.apply",
    "FocusResult": "pagelens.focus.apply",
    "FocusQuery": "pagelens.focus.base",
    "Retriever": "pagelens.focus.base",
    "Selection": "pagelens.focus.base",
    "make_retriever": "pagelens.focus.registry",
    "Observation": "pagelens.types",
    "Rendering": "pagelens.types",
    "Line": "pagelens.types",
    "PagelensError": "pagelens.errors",
}

# Spelled out so static tools can read it; tests/unit/test_public_api.py keeps it equal to _EXPORTS.
__all__ = [
    "BrowserConfig", "BrowserSession", "FocusQuery", "FocusResult", "Line", "Observation", "PageView",
    "PagelensError", "Recovery", "RenderConfig", "Rendering", "Retriever", "Selection", "__version__", "expand",
    "focus", "focus_view", "make_retriever", "observe", "search_page",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pagelens' has no attribute {name!r}")
    return getattr(import_module(module), name)

"""pagelens: decide what an LLM web agent sees, and when.

The public API, imported lazily (importing :mod:`pagelens` starts nothing and loads no
browser, model, tokenizer or pydantic). The headline, one name per job::

    observe            open a page and observe it (optionally focused on a goal) -> PageView
    focus_view         render and focus an Observation you already have -> PageView
    expand, search_page  bring back what a focused view pruned, from the view alone (no browser)
    make_retriever     a Retriever by name: full (the reference; alias none), default, bm25-400, llm ...
    Executor           act: run a typed Action on an Episode, get Feedback (what changed, said plainly)
    parse_actions      a model's reply -> typed Actions (never exec'd)
    SignalDetector     what changed after an action, at zero LLM cost
    run_task           run an agent (a Policy) on a Task with a Retriever in a BrowserSession
    Task, Verdict      the task seam: goal, start URL, allowed origins, judge
    ChatModel          the chat-model protocol; OpenAICompatModel is its HTTP implementation

``focus_view`` is the one focusing function (``pagelens.focus`` is the subpackage, so a
function under that name would be shadowed as soon as any focus module is imported).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    # observe and focus
    "observe": "pagelens.api",
    "focus_view": "pagelens.focus.view",
    "PageView": "pagelens.focus.view",
    "expand": "pagelens.api",
    "search_page": "pagelens.api",
    "Recovery": "pagelens.focus.recover",
    "BrowserSession": "pagelens.browser.session",
    "Episode": "pagelens.browser.session",
    "BrowserConfig": "pagelens.config",
    "RenderConfig": "pagelens.config",
    "FocusResult": "pagelens.focus.apply",
    "FocusQuery": "pagelens.focus.base",
    "Retriever": "pagelens.focus.base",
    "Selection": "pagelens.focus.base",
    "make_retriever": "pagelens.focus.registry",
    "Observation": "pagelens.types",
    "Rendering": "pagelens.types",
    "Line": "pagelens.types",
    # act
    "Action": "pagelens.actions.spec",
    "ACTIONS": "pagelens.actions.spec",
    "parse_actions": "pagelens.actions.parser",
    "Executor": "pagelens.actions.executor",
    "Budgets": "pagelens.actions.executor",
    "Feedback": "pagelens.actions.executor",
    # signals
    "SignalDetector": "pagelens.signals.detector",
    "Signal": "pagelens.signals.detector",
    # the agent on a task
    "Task": "pagelens.task",
    "Verdict": "pagelens.task",
    "run_task": "pagelens.agent.loop",
    "EpisodeResult": "pagelens.agent.loop",
    "Policy": "pagelens.agent.policy",
    "LLMPolicy": "pagelens.agent.policy",
    "ScriptedPolicy": "pagelens.agent.policy",
    "StepContext": "pagelens.agent.context",
    "PolicyReply": "pagelens.agent.context",
    "PlanStep": "pagelens.agent.plan",
    "Target": "pagelens.agent.plan",
    # chat models
    "ChatModel": "pagelens.llm.base",
    "Message": "pagelens.llm.base",
    "Completion": "pagelens.llm.base",
    "LLMConfig": "pagelens.llm.base",
    "OpenAICompatModel": "pagelens.llm.openai_compat",
    # errors
    "PagelensError": "pagelens.errors",
}
#: Public names bound to a differently named attribute of their module.
_RENAMED = {"parse_actions": "parse"}

# Spelled out so static tools can read it; tests/unit/test_public_api.py keeps it equal to _EXPORTS.
__all__ = [
    "ACTIONS", "Action", "BrowserConfig", "BrowserSession", "Budgets", "ChatModel", "Completion", "Episode",
    "EpisodeResult", "Executor", "Feedback", "FocusQuery", "FocusResult", "LLMConfig", "LLMPolicy", "Line",
    "Message", "Observation", "OpenAICompatModel", "PageView", "PagelensError", "PlanStep", "Policy", "PolicyReply",
    "Recovery", "RenderConfig", "Rendering", "Retriever", "ScriptedPolicy", "Selection", "Signal", "SignalDetector",
    "StepContext", "Target", "Task", "Verdict", "__version__", "expand", "focus_view", "make_retriever",
    "observe", "parse_actions", "run_task", "search_page",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pagelens' has no attribute {name!r}")
    return getattr(import_module(module), _RENAMED.get(name, name))

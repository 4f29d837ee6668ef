"""The public API resolves lazily, and importing pagelens has no side effects."""

from __future__ import annotations

import subprocess
import sys

import pagelens


def test_every_export_resolves() -> None:
    for name in pagelens.__all__:
        assert getattr(pagelens, name) is not None


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert sorted(pagelens.__all__) == sorted([*pagelens._EXPORTS, "__version__"])
    assert len(set(pagelens.__all__)) == len(pagelens.__all__)


def test_import_loads_no_browser_model_or_tokenizer() -> None:
    code = "import sys, pagelens; print(sorted(m for m in ('playwright', 'torch', 'tiktoken', 'bm25s', 'httpx') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_headline_jobs_are_public() -> None:
    """observe, focus, act, signals, run an agent on a Task, the chat-model protocol."""
    for name in ("observe", "focus_view", "make_retriever", "Executor", "Feedback", "parse_actions",
                 "SignalDetector", "run_task", "Task", "Verdict", "ChatModel", "OpenAICompatModel", "LLMPolicy"):
        assert name in pagelens.__all__, name
    assert pagelens.parse_actions('click("3")').actions == (pagelens.Action("click", {"id": "3"}),)


def test_full_is_the_reference_retriever_and_none_its_alias() -> None:
    from pagelens.focus.registry import canonical, is_reference

    assert pagelens.make_retriever("full").name == "full"
    assert pagelens.make_retriever("none").name == "full" and canonical("none") == "full"
    assert is_reference("none") and is_reference(pagelens.make_retriever("full"))
    assert not is_reference(pagelens.make_retriever("default"))


def test_import_pagelens_stays_light() -> None:
    """No pydantic, click or rich for `import pagelens` (the 150 ms budget; see BENCHMARKS.md)."""
    code = "import sys, pagelens; print(sorted(m for m in ('pydantic', 'click', 'rich', 'jinja2') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"

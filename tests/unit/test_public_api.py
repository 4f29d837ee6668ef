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

"""Shared by the tests of the held-out goal and injection files: loading them, loading the benchmark
harnesses they run in, and checking that every must-keep item is in its page's full rendering.

Nothing here runs a retriever or the defense: the existence check observes each corpus page with the full
tree only and matches items with the harness's own matcher (``pagelens.bench.cases.item_kept``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benchmarks" / "data"
CORPUS = Path(os.environ.get("PAGELENS_CORPUS", str(ROOT.parent.parent / "shared" / "corpus" / "realpages")))
if not CORPUS.is_dir():  # a worktree sits two levels below /work, the main checkout one
    CORPUS = ROOT.parent / "shared" / "corpus" / "realpages"


def load_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def benchmark_module(file: str, name: str) -> ModuleType:
    """``benchmarks/<file>`` imported as module ``name`` (registered, since dataclasses look it up)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / file)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def missing_items(browser_session: Any, goals: list[dict], pages: Path = CORPUS) -> list[str]:
    """The must-keep items of ``goals`` that are not in their page's full rendering (pages served from
    ``pages``: the corpus unless the set has pages of its own)."""
    from pagelens.api import render_observation
    from pagelens.bench.cases import MustKeep, item_kept
    from pagelens.browser.serve import StaticServer

    missing: list[str] = []
    server = StaticServer(pages)
    try:
        for page in sorted({g["page"] for g in goals}):
            with browser_session.episode() as episode:
                episode.goto(server.url(f"{page}.html"))
                lines = render_observation(episode.observe()).lines
            texts = [ln.text for ln in lines]
            for g in (g for g in goals if g["page"] == page):
                for m in g["must_keep"]:
                    if not item_kept(MustKeep(role=m["role"], name=m["name"]), lines, texts):
                        missing.append(f"{page}: {m['role']} {m['name']!r}")
    finally:
        server.close()
    return missing

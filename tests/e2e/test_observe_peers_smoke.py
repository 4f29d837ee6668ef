"""benchmarks/observe_peers.py end to end on one small page per kind (the peers whose venvs are
missing are skipped by the script itself, and say so)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def test_one_corpus_page_and_a_1k_page_give_figures_for_every_available_tool(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "p.html").write_text("<html><head><title>P</title></head><body><h1>Shop</h1>"
                                  "<form><label for=q>Search</label><input id=q><button>Go</button></form>"
                                  + "".join(f"<p><a href='/i/{i}'>Item {i}</a></p>" for i in range(30)) + "</body></html>")
    out = tmp_path / "r.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "observe_peers.py"), "--pages", str(pages),
                          "--limit", "1", "--sizes", "1000", "--reps", "1", "--out", str(out)],
                         capture_output=True, text=True, timeout=600, env=env, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    data = json.loads(out.read_text())
    ran = set(data["meta"]["versions"])
    assert {"pagelens", "browsergym"} <= ran  # pagelens' own venv always has these
    assert ran | set(data["meta"]["skipped"]) == {"pagelens", "walker", "browsergym", "browser-use", "playwright"}
    corpus, generated = data["rows"]
    for row in (corpus, generated):
        for tool in ran:
            e = row["tools"][tool]
            assert e["n_ok"] == 1, (tool, e["errors"])
            assert e["total_s"] > 0 and e["full_tokens"] > 0 and e["peak_mb"]["total"] > 0
    pl = generated["tools"]["pagelens"]
    assert pl["sent_tokens"] < pl["full_tokens"]  # focus on the goal sent less than the whole tree
    assert corpus["ratios"]["pagelens_total/browsergym"] is not None
    assert "### Targets (issue 13)" in res.stdout and "| pagelens |" in res.stdout

"""The HTML report: renders from a small results dir, escapes tree text, draws the SVG plot."""

from __future__ import annotations

import json
from pathlib import Path

from pagelens.bench.runner import ResultStore
from pagelens.report.html import render_report, write_report

FULL = "RootWebArea 'Shop'\n\t[3] button '<script>alert(1)</script> Buy'\n\t[4] link 'Footer & more'\n\tStaticText 'x'"


def _results(tmp_path: Path) -> Path:
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / "0.full.txt").write_text(FULL)
    (dump / "0.bm25-200.focused.txt").write_text("RootWebArea 'Shop'\n\t[3] button '<script>alert(1)</script> Buy'")
    rows = [
        {"key": "cases:0:none", "suite": "cases", "status": "ok", "case": 0, "id": "<b>c0</b>", "page": "p.html",
         "goal": "Buy", "retriever": "none", "kept_items": [True], "pruning": 0.0, "latency_ms": 0.1, "kept": [0, 1, 2, 3],
         "missing": [], "dump_full": "dump/0.full.txt", "dump_focused": "dump/0.none.focused.txt"},
        {"key": "cases:0:bm25-200", "suite": "cases", "status": "ok", "case": 0, "id": "<b>c0</b>", "page": "p.html",
         "goal": "Buy", "retriever": "bm25-200", "kept_items": [True], "pruning": 0.42, "latency_ms": 2.5, "kept": [0, 1],
         "missing": [], "injection_retained": False, "dump_full": "dump/0.full.txt",
         "dump_focused": "dump/0.bm25-200.focused.txt"},
        {"key": "miniwob:click-test:0:default", "suite": "miniwob", "status": "ok", "task": "click-test", "seed": 0,
         "retriever": "default", "success": True, "retained": True, "pruning": 0.1},
        {"key": "miniwob:drag-box:0:default", "suite": "miniwob", "status": "skipped", "task": "drag-box", "seed": 0,
         "retriever": "default", "reason": "no oracle <none>"},
    ]
    ResultStore(tmp_path).append(rows)
    return tmp_path


def test_report_renders_tables_plot_and_escaped_trees(tmp_path: Path) -> None:
    html = render_report(_results(tmp_path))
    assert "<svg" in html and "<circle" in html and "recall vs pruning" in html
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;c0&lt;/b&gt;" in html and "Footer &amp; more" in html
    assert 'class="pruned"' in html  # link [4] and the StaticText were pruned by bm25-200
    assert "MiniWoB++ oracle retention" in html and "no oracle &lt;none&gt;" in html
    assert "http" not in html.replace("http://www.w3.org/2000/svg", "")  # self-contained: no external resources


def test_write_report_and_cli(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pagelens.cli import cli

    out = _results(tmp_path)
    assert write_report(out).is_file()
    (out / "report.html").unlink()
    result = CliRunner().invoke(cli, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "report.html").read_text().startswith("<!doctype html>")
    assert json.loads((out / "results.jsonl").read_text().splitlines()[0])["key"] == "cases:0:none"

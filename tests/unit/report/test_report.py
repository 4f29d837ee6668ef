"""The HTML report: renders from a small results dir, escapes tree text, draws the SVG plot."""

from __future__ import annotations

import json
from pathlib import Path

from pagelens.bench.runner import ResultStore
from pagelens.report.html import render_report, render_tree_pages, write_report

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
         "missing": [], "must_lines": [1, 2], "injection_retained": False, "dump_full": "dump/0.full.txt",
         "dump_focused": "dump/0.bm25-200.focused.txt"},
        {"key": "miniwob:click-test:0:default", "suite": "miniwob", "status": "ok", "task": "click-test", "seed": 0,
         "retriever": "default", "success": True, "retained": True, "pruning": 0.1},
        {"key": "miniwob:drag-box:0:default", "suite": "miniwob", "status": "skipped", "task": "drag-box", "seed": 0,
         "retriever": "default", "reason": "no oracle <none>"},
    ]
    ResultStore(tmp_path).append(rows)
    return tmp_path


def test_report_renders_tables_plot_and_escaped_trees(tmp_path: Path) -> None:
    out = _results(tmp_path)
    html = render_report(out)
    assert "<svg" in html and "<circle" in html and "recall vs pruning" in html
    assert "&lt;b&gt;c0&lt;/b&gt;" in html and 'href="trees/case-0.html"' in html
    assert "Footer" not in html  # the trees are not inlined: they open on demand
    (page,) = render_tree_pages(out).values()
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "Footer &amp; more" in page
    assert 'class="pruned' in page  # link [4] and the StaticText were pruned by bm25-200
    assert 'class=" must-kept"' in page and 'class="pruned must-lost"' in page  # line 1 kept, line 2 lost
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
    assert (out / "trees" / "case-0.html").read_text().startswith("<!doctype html>")
    assert json.loads((out / "results.jsonl").read_text().splitlines()[0])["key"] == "cases:0:none"


def test_task_traces_give_a_stage_table_labelled_charts_and_step_screenshots(tmp_path: Path) -> None:
    pil = __import__("pytest").importorskip("PIL.Image")
    import io

    (tmp_path / "traces" / "t.jsonl.d").mkdir(parents=True)
    buf = io.BytesIO()
    pil.new("RGB", (64, 36), "white").save(buf, format="PNG")
    (tmp_path / "traces" / "t.jsonl.d" / "obs-000.png").write_bytes(buf.getvalue())
    steps = [{"type": "step", "step": 1, "kind": "action", "action": "click_at(10, 20)", "status": "failed",
              "obs_tokens": 50, "full_tokens": 90, "screenshot": "t.jsonl.d/obs-000.png", "point": [10, 20]},
             {"type": "step", "step": 2, "kind": "action", "action": 'stop("x")', "status": "control",
              "obs_tokens": 0, "full_tokens": 90}]
    summary = {"type": "summary", "policy": "llm", "stages": {
        "counts": {"parsing": 0, "execution": 1, "feedback": 0, "observation": 0, "guardrail": 0},
        "steps": [{"step": 1, "stage": "execution"}], "episode": {"stage": "execution", "from_step": 1}}}
    (tmp_path / "traces" / "t.jsonl").write_text("\n".join(json.dumps(r) for r in [*steps, summary]))
    ResultStore(tmp_path).append([{"key": "tasks:t", "suite": "tasks", "status": "ok", "task": "t", "retriever": "none",
                                   "observe": "every-step", "policy": "llm", "success": False, "steps": 2,
                                   "trace": "traces/t.jsonl"}])
    html = write_report(tmp_path).read_text(encoding="utf-8")
    assert "Failures by stage" in html and "<td>1 / 1</td>" in html
    assert ">step</text>" in html and ">tokens</text>" in html  # both axes of the tokens-per-step chart labelled
    assert 'src="shots/t-001.png"' in html and (tmp_path / "shots" / "t-001.png").read_bytes()[:4] == b"\x89PNG"
    assert pil.open(tmp_path / "shots" / "t-001.png").getpixel((10 + 9, 20)) == (255, 0, 0)  # the point's circle

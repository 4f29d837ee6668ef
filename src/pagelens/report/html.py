"""``DIR/report.html`` from a bench results directory: one self-contained page.

Inline CSS and SVG only (no scripts, no CDN); every piece of page text goes through Jinja2's
autoescaping. Sections appear for the suites present in ``results.jsonl``: per-retriever
tables, a recall-or-retention vs pruning scatter plot, tokens per step of task runs (from
their traces), and for each case the full tree next to the focused one, pruned lines struck.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagelens.bench.runner import ResultStore
from pagelens.bench.summary import skipped_tasks, summarize

__all__ = ["render_report", "render_tree_pages", "write_report"]

MAX_TREE_LINES = 1500
#: the side-by-side trees of each case live in their own page, opened on demand
TREES_DIR = "trees"
MAX_TRACES = 30
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f")


@dataclass(frozen=True, slots=True)
class Point:
    label: str
    x: float  # pruning, 0..1
    y: float  # recall / retention, 0..1
    colour: str


@dataclass(frozen=True, slots=True)
class Scatter:
    title: str
    y_label: str
    points: tuple[Point, ...]
    width: int = 460
    height: int = 320
    pad: int = 48

    def px(self, x: float) -> float:
        return round(self.pad + x * (self.width - 2 * self.pad), 1)

    def py(self, y: float) -> float:
        return round(self.height - self.pad - y * (self.height - 2 * self.pad), 1)


@dataclass(frozen=True, slots=True)
class TreeLine:
    depth: int
    text: str
    kept: bool
    must: str = ""  # "kept" / "lost" for a line carrying a must-keep item, else ""


@dataclass(frozen=True, slots=True)
class TreeView:
    retriever: str
    lines: tuple[TreeLine, ...]
    focused: str
    kept: int
    total: int
    truncated: bool
    missing: tuple[str, ...]
    pruning: float


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    sent: tuple[int, ...]
    full: tuple[int, ...]
    success: bool
    width: int = 340
    height: int = 130
    left: int = 48  # room for the y axis labels
    bottom: int = 30  # room for the x axis labels

    @property
    def top(self) -> int:
        return max(max(self.full, default=1), max(self.sent, default=1), 1)

    def x(self, i: float) -> float:
        n = max(len(self.sent) - 1, 1)
        return round(self.left + i * (self.width - self.left - 8) / n, 1)

    def y(self, v: float) -> float:
        return round(self.height - self.bottom - v * (self.height - self.bottom - 8) / self.top, 1)

    def points(self, values: Sequence[int]) -> str:
        return " ".join(f"{self.x(i)},{self.y(v)}" for i, v in enumerate(values))


def _scatter(title: str, y_label: str, figures: Mapping[str, Mapping[str, Any]], y_key: str) -> Scatter | None:
    points = []
    for i, (name, s) in enumerate(figures.items()):
        if s.get(y_key) is None or s.get("pruning") is None:
            continue
        points.append(Point(name, max(0.0, min(1.0, float(s["pruning"]))), max(0.0, min(1.0, float(s[y_key]))),
                            _PALETTE[i % len(_PALETTE)]))
    return Scatter(title, y_label, tuple(points)) if points else None


def _tree(full_text: str, row: Mapping[str, Any], focused_text: str) -> TreeView:
    lines = full_text.split("\n") if full_text else []
    kept = set(row.get("kept") or ())
    must = set(row.get("must_lines") or ())
    shown = lines[:MAX_TREE_LINES]
    tree = tuple(TreeLine(len(ln) - len(ln.lstrip("\t")), ln.lstrip("\t"), i in kept,
                          ("kept" if i in kept else "lost") if i in must else "") for i, ln in enumerate(shown))
    return TreeView(str(row.get("retriever")), tree, focused_text, len(kept), len(lines), len(lines) > len(shown),
                    tuple(row.get("missing") or ()), float(row.get("pruning") or 0.0))


def _read(out_dir: Path, rel: Any) -> str:
    if not rel:
        return ""
    path = (out_dir / str(rel)).resolve()
    if out_dir.resolve() not in path.parents:
        return ""
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def _cases(out_dir: Path, rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    by_case: dict[int, list[Mapping[str, Any]]] = {}
    for r in rows:
        if r.get("suite") == "cases" and r.get("status") == "ok":
            by_case.setdefault(int(r["case"]), []).append(r)
    out = []
    for n in sorted(by_case):
        rs = by_case[n]
        full = _read(out_dir, rs[0].get("dump_full"))
        views = [_tree(full, r, _read(out_dir, r.get("dump_focused"))) for r in rs if r.get("retriever") not in ("none", "full")]
        out.append({"n": n, "page_file": f"{TREES_DIR}/case-{n}.html", "id": rs[0].get("id") or rs[0].get("page"), "goal": rs[0].get("goal", ""),
                    "page": rs[0].get("page", ""), "dump_full": rs[0].get("dump_full"), "views": views,
                    "results": [(r.get("retriever"), r.get("pruning"), r.get("missing") or []) for r in rs]})
    return out


def _traces(out_dir: Path, rows: Sequence[Mapping[str, Any]]) -> list[Series]:
    out: list[Series] = []
    for r in rows:
        if r.get("suite") != "tasks" or not r.get("trace") or len(out) >= MAX_TRACES:
            continue
        text = _read(out_dir, r["trace"])
        sent, full = [], []
        for line in text.splitlines():
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(rec, dict) and "step" in rec and "full_tokens" in rec:
                sent.append(int(rec.get("obs_tokens") or 0))
                full.append(int(rec.get("full_tokens") or 0))
        if sent:
            out.append(Series(f"{r.get('task')} · {r.get('retriever')} · {r.get('observe')}", tuple(sent), tuple(full),
                              bool(r.get("success"))))
    return out


def _env() -> Any:
    from jinja2 import Environment, PackageLoader, select_autoescape

    return Environment(loader=PackageLoader("pagelens.report", "templates"), autoescape=select_autoescape(["j2", "html"]),
                       trim_blocks=True, lstrip_blocks=True)


def render_report(out_dir: Path, rows: list[dict[str, Any]] | None = None) -> str:
    """The main page: tables, plots, stages, step screenshots and one link per case's trees
    (the trees themselves are :func:`render_tree_pages`, written beside it)."""
    from pagelens.report.stages import stage_rows, step_shots

    out_dir = Path(out_dir)
    rows = ResultStore(out_dir).load() if rows is None else rows
    figures = summarize(rows)
    plots = [p for p in (
        _scatter("cases: recall vs pruning", "recall", figures.get("cases", {}), "recall"),
        _scatter("MiniWoB++: oracle retention vs pruning", "retention", figures.get("miniwob", {}), "retention"),
    ) if p is not None]
    return str(_env().get_template("report.html.j2").render(
        out_dir=str(out_dir), rows=len(rows), figures=figures, plots=plots, skipped=skipped_tasks(rows),
        cases=_cases(out_dir, rows), traces=_traces(out_dir, rows), stages=stage_rows(out_dir, rows),
        shots=step_shots(out_dir, rows),
    ))


def render_tree_pages(out_dir: Path, rows: list[dict[str, Any]] | None = None) -> dict[str, str]:
    """``trees/case-N.html`` → the full tree next to each focused one (must-keep lines marked)."""
    out_dir = Path(out_dir)
    rows = ResultStore(out_dir).load() if rows is None else rows
    template = _env().get_template("case.html.j2")
    return {c["page_file"]: str(template.render(c=c)) for c in _cases(out_dir, rows)}


def write_report(out_dir: Path) -> Path:
    out_dir = Path(out_dir)
    rows = ResultStore(out_dir).load()
    for rel, html in render_tree_pages(out_dir, rows).items():
        (out_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (out_dir / rel).write_text(html, encoding="utf-8")
    path = out_dir / "report.html"
    path.write_text(render_report(out_dir, rows), encoding="utf-8")
    return path

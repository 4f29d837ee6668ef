"""Run labeled focus cases against retrievers on real pages (``pagelens eval-cases``).

Every case's page is loaded once in headless Chromium — files served over 127.0.0.1,
bundled sites started by pagelens, every other request blocked, JavaScript on — and every
retriever focuses the *same* observation, so the figures are comparable within one run.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import statistics
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagelens import tokens
from pagelens.bench.cases import Case, item_kept, marker_retained
from pagelens.browser.serve import StaticServer, inject_after_body
from pagelens.browser.session import BrowserSession
from pagelens.errors import PagelensError
from pagelens.focus.apply import FocusResult, focus
from pagelens.focus.base import FocusQuery, Retriever
from pagelens.focus.registry import is_reference
from pagelens.focus.view import render_observation
from pagelens.types import Observation, Rendering


@dataclass
class RetrieverScore:
    name: str
    items: int = 0
    kept: int = 0
    cases: int = 0
    cases_all_kept: int = 0
    pruning: list[float] = field(default_factory=list)
    injections: int = 0
    injections_retained: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    rows: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)
        return {
            "recall": _ratio(self.kept, self.items),
            "case_recall": _ratio(self.cases_all_kept, self.cases),
            "pruning": round(statistics.fmean(self.pruning), 4) if self.pruning else 0.0,
            "injection_retained": _ratio(self.injections_retained, self.injections) if self.injections else None,
            "p50_ms": round(_pct(lat, 0.50), 2),
            "p95_ms": round(_pct(lat, 0.95), 2),
            "items": self.items,
            "items_kept": self.kept,
            "cases": self.cases,
            "injection_cases": self.injections,
            "focus_failures": self.errors,
        }


def _ratio(a: int, b: int) -> float:
    return round(a / b, 4) if b else 0.0


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


def score_case(case: Case, rendering: Rendering, result: FocusResult) -> dict[str, Any]:
    """Per-case row: which must-keep items survived, tokens, injection retained."""
    kept_lines = [ln for ln in rendering.lines if ln.no in result.kept]
    texts = [ln.text for ln in result.lines if ln.no is not None]
    kept_items = [item_kept(it, kept_lines, texts) for it in case.must_keep]
    row: dict[str, Any] = {
        "full_tokens": result.full_tokens,
        "focused_tokens": result.focused_tokens,
        "pruning": round(result.pruning, 4),
        "kept_items": kept_items,
        "missing": [f"{it.role} '{it.name}'" for it, ok in zip(case.must_keep, kept_items) if not ok],
        # full-rendering lines that carry a must-keep item (the report marks them kept / lost)
        "must_lines": sorted(ln.no for ln in rendering.lines
                             if any(item_kept(it, [ln], [ln.text]) for it in case.must_keep)),
        "latency_ms": round(result.seconds * 1000, 2),
        "focus_error": result.error,
        "flags": len(result.flags),
    }
    if case.injection is not None:
        row["injection_retained"] = marker_retained(case.injection.marker, result.text())
    return row


def focus_case(
    rendering: Rendering, case: Case, retriever: Retriever, *, defense: bool = True, full_tokens: int | None = None,
    budget: float | None = None,
) -> FocusResult:
    """Focus one case's rendering. ``none`` is the reference — what an unprotected agent
    sees — so the injection defense never applies to it."""
    return focus(rendering, FocusQuery(goal=case.goal, budget=budget), retriever, defense=defense and not is_reference(retriever),
                 full_tokens=full_tokens)


class _PageLoader:
    """Loads a case's page, with its injection, into a fresh browser context."""

    def __init__(self, stack: ExitStack, pages_dir: Path, session: BrowserSession, settle_s: float) -> None:
        self.stack = stack
        self.pages_dir = pages_dir
        self.session = session
        self.settle_s = settle_s
        self._static: StaticServer | None = None
        self._sites: Any = None

    def observe(self, case: Case) -> Observation:
        inject = case.injection.html if case.injection is not None else None
        with self.session.episode() as episode:
            if case.page.startswith("site:"):
                url = self._site_url(case.page)
                if inject is not None:
                    html = inject  # every HTML document the episode loads gets it after <body>
                    episode.tab.rewrite_documents(lambda body: inject_after_body(body, html))
            else:
                if self._static is None:
                    self._static = self.stack.enter_context(StaticServer(self.pages_dir))
                if not (self.pages_dir / case.page).is_file():
                    raise PagelensError(f"page not found: {self.pages_dir / case.page}")
                url = self._static.url(case.page, inject=inject)
            episode.goto(url)
            if self.settle_s:
                episode.pause(self.settle_s * 1000)
            return episode.observe()

    def _site_url(self, spec: str) -> str:
        from pagelens.bench.sites import resolve_site_url, start_sites

        if self._sites is None:
            self._sites = self.stack.enter_context(start_sites(seed=0))
        else:
            self._sites.reset()
        return resolve_site_url(self._sites, spec)


def _cached_observe(loader: _PageLoader, case: Case, cache: Path | None) -> Observation:
    if cache is None:
        return loader.observe(case)
    key = hashlib.sha1(json.dumps([case.page, case.injection.html if case.injection else None]).encode()).hexdigest()
    f = cache / f"{key[:20]}.obs.pickle"
    if f.is_file():
        obs: Observation = pickle.loads(f.read_bytes())
        return obs
    obs = loader.observe(case)
    cache.mkdir(parents=True, exist_ok=True)
    f.write_bytes(pickle.dumps(obs))
    return obs


def run_cases(
    cases: Sequence[Case],
    retrievers: Sequence[Retriever],
    *,
    pages_dir: Path,
    dump_dir: Path | None = None,
    settle_s: float = 1.0,
    progress: Callable[[int, Case], None] | None = None,
    defense: bool = True,
    obs_cache: Path | None = None,
    budget: float | None = None,
) -> dict[str, Any]:
    """``obs_cache``: a directory where each case's observation is kept (pickled, keyed by
    the case's page and injection), so that re-runs measure retrievers without a browser."""
    scores = {r.name: RetrieverScore(r.name) for r in retrievers}
    failures: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    if dump_dir is not None:
        dump_dir.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        session = stack.enter_context(BrowserSession())
        loader = _PageLoader(stack, pages_dir, session, settle_s)
        for n, case in enumerate(cases):
            if progress is not None:
                progress(n, case)
            try:
                obs = _cached_observe(loader, case, obs_cache)
            except PagelensError as exc:
                failures.append({"case": n, "page": case.page, "error": str(exc)})
                continue
            rendering = render_observation(obs)
            if dump_dir is not None:
                (dump_dir / f"{n}.full.txt").write_text(rendering.text(), encoding="utf-8")
            full_tokens = tokens.count(rendering.text())  # once per case, not per retriever
            for retriever in retrievers:
                result = focus_case(rendering, case, retriever, defense=defense, full_tokens=full_tokens,
                                    budget=budget)
                row = score_case(case, rendering, result)
                row.update({"case": n, "id": case.id, "page": case.page, "kind": case.kind})
                sc = scores[retriever.name]
                sc.rows.append(row)
                sc.items += len(case.must_keep)
                sc.kept += sum(row["kept_items"])
                sc.cases += 1
                sc.cases_all_kept += all(row["kept_items"])
                sc.pruning.append(result.pruning)
                sc.latencies_ms.append(result.seconds * 1000)
                sc.errors += result.error is not None
                if case.injection is not None:
                    sc.injections += 1
                    sc.injections_retained += bool(row["injection_retained"])
                if dump_dir is not None:
                    (dump_dir / f"{n}.focused.{retriever.name}.txt").write_text(result.text(), encoding="utf-8")
    return {
        "retrievers": {name: {**sc.summary(), "cases_rows": sc.rows} for name, sc in scores.items()},
        "page_failures": failures,
        "cases": len(cases),
        "seconds": round(time.perf_counter() - t0, 2),
    }


def write_result(result: dict[str, Any], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")

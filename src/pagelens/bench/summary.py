"""Per-retriever figures from ``results.jsonl`` rows (pure; used by the terminal table and the report)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["key_fields", "skipped_tasks", "summarize"]


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return round(s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))], 2)


#: Row-key fields after the suite name (see :mod:`pagelens.bench.suites`); every key ends with
#: the retriever, so a row the worker never filled in (an error row) is still counted where it belongs.
_KEY_FIELDS = {"cases": ("case", "retriever"), "miniwob": ("task", "seed", "retriever"),
               "tasks": ("task", "policy", "observe", "retriever")}


def key_fields(row: Mapping[str, Any]) -> dict[str, Any]:
    """The row with the fields its key encodes filled in where the row lacks them."""
    suite = str(row.get("suite", ""))
    names = _KEY_FIELDS.get(suite)
    parts = str(row.get("key", "")).split(":")
    if not names or len(parts) < len(names) + 1 or parts[0] != suite:
        return dict(row)
    # task ids never contain ':'; the retriever may (``llm:defender``): it takes the tail
    head = parts[1:len(names)]
    fields = dict(zip(names[:-1], head))
    fields[names[-1]] = ":".join(parts[len(names):])
    return {**fields, **{k: v for k, v in row.items() if v is not None}}


def _by(rows: Iterable[Mapping[str, Any]], suite: str) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        if r.get("suite") == suite:
            r = key_fields(r)
            if r.get("retriever"):
                out[str(r["retriever"])].append(r)
    return dict(out)


def cases_summary(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    out = {}
    for name, rs in _by(rows, "cases").items():
        ok = [r for r in rs if r.get("status") == "ok"]
        items = sum(len(r.get("kept_items", [])) for r in ok)
        kept = sum(sum(bool(x) for x in r.get("kept_items", [])) for r in ok)
        inj = [r for r in ok if "injection_retained" in r]
        lat = [float(r.get("latency_ms", 0.0)) for r in ok]
        out[name] = {
            "cases": len(ok), "errors": len(rs) - len(ok),
            "recall": _ratio(kept, items), "case_recall": _ratio(sum(all(r.get("kept_items", [])) for r in ok), len(ok)),
            "pruning": _mean([float(r["pruning"]) for r in ok]),
            "injection_retained": _ratio(sum(bool(r["injection_retained"]) for r in inj), len(inj)),
            "p50_ms": _pct(lat, 0.5), "p95_ms": _pct(lat, 0.95),
        }
    return out


def miniwob_summary(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Retention over episodes the oracle solved and that touched an observed element."""
    out = {}
    for name, rs in _by(rows, "miniwob").items():
        ran = [r for r in rs if r.get("status") == "ok"]
        solved = [r for r in ran if r.get("success")]
        counted = [r for r in solved if r.get("retained") is not None]
        out[name] = {
            "episodes": len(ran), "tasks": len({r["task"] for r in ran}),
            "oracle_success": _ratio(len(solved), len(ran)),
            "counted": len(counted),
            "retention": _ratio(sum(bool(r["retained"]) for r in counted), len(counted)),
            "pruning": _mean([float(r["pruning"]) for r in counted if r.get("pruning") is not None]),
            "full_tokens_p50": _pct([float(r.get("full_tokens") or 0) for r in ran], 0.5),
            "skipped": len({r["task"] for r in rs if r.get("status") == "skipped"}),
            "failed": len([r for r in rs if r.get("status") in ("error", "timeout")]),
        }
    return out


def skipped_tasks(rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """MiniWoB task -> why it did not run (skipped, error, timeout), first reason seen."""
    out: dict[str, str] = {}
    for r in rows:
        if r.get("suite") == "miniwob" and r.get("status") in ("skipped", "error", "timeout"):
            out.setdefault(str(r.get("task")), f"{r['status']}: {r.get('reason', '')}")
    return out


def tasks_summary(rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        if r.get("suite") == "tasks":
            r = key_fields(r)
            groups[f"{r.get('retriever')} / {r.get('policy')} / {r.get('observe')}"].append(r)
    out = {}
    for name, rs in groups.items():
        ok = [r for r in rs if r.get("status") == "ok"]
        out[name] = {
            "runs": len(ok), "errors": len(rs) - len(ok),
            "success": _ratio(sum(bool(r.get("success")) for r in ok), len(ok)),
            "steps": _mean([float(r.get("steps", 0)) for r in ok]),
            "obs_tokens_sent": _mean([float(r.get("obs_tokens_sent", 0)) for r in ok]),
            "full_tokens_every_step": _mean([float(r.get("full_tokens_every_step", 0)) for r in ok]),
        }
    return out


def summarize(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """``{suite: {retriever (or retriever / policy / mode): figures}}`` for the suites present."""
    out = {}
    for suite, fn in (("cases", cases_summary), ("miniwob", miniwob_summary), ("tasks", tasks_summary)):
        s = fn(rows)
        if s:
            out[suite] = s
    return out

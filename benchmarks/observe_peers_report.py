"""Tables of an ``observe_peers.py`` result (markdown), and the issue 13 targets checked against it."""

from __future__ import annotations

import statistics
from typing import Any

SHORT = {"pagelens": "PL", "walker": "PLw", "walker-base": "PLw0", "browsergym": "BG", "browser-use": "BU", "playwright": "PW"}


def short(tool: str) -> str:
    """A tool's column label; a worker on the second binary (``TOOL@b``) gets a trailing ``'``."""
    base, _, b = tool.partition("@")
    return SHORT.get(base, base) + ("'" if b else "")


def _f(v: float | None, fmt: str = ".2f") -> str:
    return "—" if v is None else format(v, fmt)


def _med(vals: list[float | None]) -> float | None:
    got = [v for v in vals if v is not None]
    return statistics.median(got) if got else None


def _time(e: dict[str, Any] | None, key: str = "total_s") -> str:
    if not e:
        return "—"
    if e.get("n_ok", 0) == 0:
        return "timeout" if e.get("timeouts") else "error"
    return _f(e.get(key))


def _tools(result: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for row in result["rows"]:
        for t in row["tools"]:
            if t not in seen:
                seen.append(t)
    return seen


def corpus_table(rows: list[dict[str, Any]], tools: list[str]) -> list[str]:
    head = ["page", "PL nodes", "PL obs s", "PL obs+focus s"]
    if "walker" in tools:
        head += ["PLw obs s", "PLw obs+focus s"]
    head += [f"{short(t)} s" for t in tools if t not in ("pagelens", "walker")]
    head += ["tok PL full/sent"] + [f"tok {short(t)}" for t in tools if t not in ("pagelens", "walker")]
    head += ["PL/BG", "PL/BU", "peak MB " + "/".join(short(t) for t in tools)]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        t = r["tools"]
        pl = t.get("pagelens", {})
        cells = [r["page"], _f(pl.get("nodes"), ","), _time(pl, "observe_s"), _time(pl)]
        if "walker" in tools:
            cells += [_time(t.get("walker"), "observe_s"), _time(t.get("walker"))]
        cells += [_time(t.get(x), "observe_s") for x in tools if x not in ("pagelens", "walker")]
        cells.append(f"{_f(pl.get('full_tokens'), ',')}/{_f(pl.get('sent_tokens'), ',')}")
        for x in tools:
            if x in ("pagelens", "walker"):
                continue
            e = t.get(x, {})
            cell = _f(e.get("full_tokens"), ",")
            if x == "browser-use" and e.get("sent_tokens") != e.get("full_tokens"):
                cell += f" (sent {_f(e.get('sent_tokens'), ',')})"
            cells.append(cell)
        cells += [_f(r["ratios"].get("pagelens_total/browsergym")), _f(r["ratios"].get("pagelens_total/browser-use"))]
        cells.append("/".join(_f(t.get(x, {}).get("peak_mb", {}).get("total"), ",.0f") for x in tools))
        out.append("| " + " | ".join(cells) + " |")
    return out


def medians_table(rows: list[dict[str, Any]], tools: list[str]) -> tuple[list[str], dict[str, Any]]:
    out = [("| tool | pages ok | median observe s | median observe+focus s | median tokens (full) | "
           "median tokens (sent) | median peak total MB | max peak total MB |"), "|---|---:|---:|---:|---:|---:|---:|---:|"]
    med: dict[str, Any] = {}
    for x in tools:
        es = [r["tools"].get(x, {}) for r in rows]
        ok = [e for e in es if e.get("n_ok")]
        med[x] = {k: _med([e.get(k) for e in ok]) for k in ("observe_s", "total_s", "full_tokens", "sent_tokens")}
        peaks = [e.get("peak_mb", {}).get("total") for e in es]
        med[x]["peak_mb"] = _med(peaks)
        out.append(f"| {x} | {len(ok)}/{len(es)} | {_f(med[x]['observe_s'])} | {_f(med[x]['total_s'])} | "
                   f"{_f(med[x]['full_tokens'], ',.0f')} | {_f(med[x]['sent_tokens'], ',.0f')} | "
                   f"{_f(med[x]['peak_mb'], ',.0f')} | {_f(max([p for p in peaks if p] or [0]), ',.0f')} |")
    out += ["", "| ratio (per page, then the median over pages) | median | min | max | pages |", "|---|---:|---:|---:|---:|"]
    keys = sorted({k for r in rows for k, v in r["ratios"].items() if v is not None})
    for k in keys:
        vals = [r["ratios"][k] for r in rows if r["ratios"].get(k) is not None]
        med[k] = _med(vals)
        out.append(f"| {k} | {_f(med[k])} | {_f(min(vals))} | {_f(max(vals))} | {len(vals)} |")
    return out, med


def sizes_table(rows: list[dict[str, Any]], tools: list[str]) -> tuple[list[str], dict[str, Any]]:
    out = ["| elements | " + " | ".join(f"{short(t)} s (s/1k)" for t in tools) + " | PL nodes | tokens "
           + "/".join(short(t) for t in tools) + " | peak total MB " + "/".join(short(t) for t in tools) + " |",
           "|---:|" + "---:|" * (len(tools) + 3)]
    per_k: dict[str, list[float]] = {t: [] for t in tools}
    by_size: dict[int, dict[str, Any]] = {}
    for r in rows:
        n = r["elements"]
        cells = [f"{n:,}"]
        for x in tools:
            e = r["tools"].get(x, {})
            s = e.get("total_s") if e.get("n_ok") else None
            if s is not None:
                per_k[x].append(s / (n / 1000))
            cells.append(_time(e) + (f" ({s / (n / 1000):.3f})" if s is not None else ""))
        cells.append(_f(r["tools"].get("pagelens", {}).get("nodes"), ","))
        cells.append("/".join(_f(r["tools"].get(x, {}).get("full_tokens"), ",") for x in tools))
        cells.append("/".join(_f(r["tools"].get(x, {}).get("peak_mb", {}).get("total"), ",.0f") for x in tools))
        out.append("| " + " | ".join(cells) + " |")
        by_size[n] = r["tools"]
    out += ["", "| tool | s per 1k elements, min–max over sizes | max/min (flat: ≤ 2) |", "|---|---|---:|"]
    flat: dict[str, float | None] = {}
    for x in tools:
        v = per_k[x]
        flat[x] = max(v) / min(v) if len(v) > 1 and min(v) > 0 else None
        out.append(f"| {x} | {_f(min(v) if v else None, '.3f')}–{_f(max(v) if v else None, '.3f')} | {_f(flat[x])} |")
    return out, {"by_size": by_size, "flat": flat}


def _ok_peak(e: dict[str, Any]) -> float | None:
    """Peak total MB of a tool's observation, only when it finished (a killed one proves nothing)."""
    return e.get("peak_mb", {}).get("total") if e.get("n_ok") else None


def targets(corpus_med: dict[str, Any], rows: list[dict[str, Any]], sizes: dict[str, Any]) -> list[str]:
    out = ["| target | pagelens (CDP) | walker | met? |", "|---|---|---|---|"]

    def tool_line(label: str, get: Any, ok: Any) -> None:
        vals = {t: get(t) for t in ("pagelens", "walker")}
        verdict = ", ".join(f"{short(t)} {'yes' if ok(v) else 'no'}" for t, v in vals.items() if v is not None)
        out.append(f"| {label} | {_f(vals['pagelens']) if not isinstance(vals['pagelens'], str) else vals['pagelens']} | "
                   f"{_f(vals['walker']) if not isinstance(vals['walker'], str) else vals['walker']} | {verdict or '—'} |")

    tool_line("observe+render+focus / BrowserGym, median corpus page ≤ 0.3",
              lambda t: corpus_med.get(f"{t}_total/browsergym"), lambda v: v <= 0.3)
    ao3 = next((r for r in rows if r["page"].startswith("033-ao3")), None)
    tool_line("ao3 (12k nodes) observe+render+focus ≤ 1.0 s",
              lambda t: ao3["tools"].get(t, {}).get("total_s") if ao3 else None, lambda v: v <= 1.0)
    tool_line("faster than browser-use, median page (ratio < 1)",
              lambda t: corpus_med.get(f"{t}_total/browser-use"), lambda v: v < 1.0)
    by = sizes.get("by_size", {})
    for n, limit in ((50_000, 8.0), (100_000, 20.0)):
        tool_line(f"{n // 1000}k elements ≤ {limit:g} s",
                  lambda t, n=n: by.get(n, {}).get(t, {}).get("total_s") if by.get(n, {}).get(t, {}).get("n_ok") else None,
                  lambda v, limit=limit: v <= limit)
    tool_line("peak RSS (total) ≤ 1 GB at the largest size, MB",
              lambda t: _ok_peak(by[max(by)].get(t, {})) if by else None, lambda v: v <= 1024)
    tool_line("time per 1k elements flat (max/min ≤ 2)", lambda t: sizes.get("flat", {}).get(t), lambda v: v <= 2.0)
    return out


def markdown(result: dict[str, Any]) -> str:
    tools = _tools(result)
    corpus = [r for r in result["rows"] if r.get("kind") == "corpus"]
    gen = [r for r in result["rows"] if r.get("kind") == "generated"]
    out: list[str] = []
    meta = result.get("meta", {})
    if meta:
        out += [f"- command: `{meta.get('command')}`", f"- versions: {meta.get('versions')}",
                f"- skipped tools: {meta.get('skipped') or 'none'}; worker restarts: {meta.get('worker_restarts')}",
                (f"- started {meta.get('started')}, {meta.get('duration_s', 0) / 60:.0f} min, {meta.get('cpus')} CPUs, "
                f"load average at the end {meta.get('load_avg_end')}"), ""]
    med: dict[str, Any] = {}
    if corpus:
        out += ["### Corpus pages", "", *corpus_table(corpus, tools), ""]
        lines, med = medians_table(corpus, tools)
        out += ["### Corpus medians", "", *lines, ""]
    sizes: dict[str, Any] = {}
    if gen:
        lines, sizes = sizes_table(gen, tools)
        out += ["### Generated pages", "", *lines, ""]
        errs = [(r["page"], t, e["errors"][0]) for r in gen for t, e in r["tools"].items() if e.get("errors")]
        out += [f"- {p} {t}: {m[:160]}" for p, t, m in errs] + [""]
    out += ["### Targets (issue 13)", "", *targets(med, corpus, sizes)]
    return "\n".join(out)

"""pagelens vs BrowserGym: observation size and speed on real pages.

Every page of a directory of saved real pages (default ``../shared/corpus/realpages``,
relative to the repository root) is served over 127.0.0.1 and observed in the same
Chromium by both pipelines:

* **pagelens**: ``episode.observe()`` + ``render(obs).text()``.
* **BrowserGym** (what ``BrowserEnv._get_obs`` does, AgentLab GenericAgent flattening):
  ``_pre_extract`` → ``extract_dom_snapshot`` → ``extract_merged_axtree`` →
  ``extract_dom_extra_properties`` → ``_post_extract`` → ``flatten_axtree_to_str(...,
  with_clickable=True, with_visible=True)`` with Chromium 156's ``InlineTextBox`` role added
  to the ignored roles (as in FINDINGS.md; without it every text is printed twice).
  ``extract_focused_element_bid`` and the screenshot are not timed (no text comes from them).

Sizes (lines, o200k tokens) come from the *same page load*: pagelens observes first, then
BrowserGym marks and extracts the same DOM (its marking mutates the DOM, so never the other
way round). Times come from separate fresh loads (a new browser context per measurement, so
no CDP session or accessibility cache carries over), ``--reps`` times per tool, the order
alternating between repetitions; the median is reported. "cold" is the first observation
after a load (what is timed); "warm" is a second observation of the unchanged page.

Each page runs in its own worker process with a time limit, so a page that makes an
extractor hang is reported (with what was last started) instead of stalling the run.

Finally a generated page of ``--big`` elements (a table of links and buttons) is observed
once per tool in a fresh process while a sampler records the peak resident memory of the
Python process and of its child processes (Playwright driver, Chromium), read from /proc.

    .venv/bin/python benchmarks/compare_browsergym.py --out bench-observe.json
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Self

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PAGES = REPO.parent / "shared" / "corpus" / "realpages"
BG_FLATTEN = "flatten_axtree_to_str(axtree, extra_properties, with_clickable=True, with_visible=True)"


# ----------------------------------------------------------------------------------------
# the two pipelines (run inside a worker)
# ----------------------------------------------------------------------------------------
def observe_pagelens(episode: Any, *, shorten_data_urls: bool = True) -> tuple[str, Any]:
    from pagelens.config import RenderConfig
    from pagelens.observe.render import render

    obs = episode.observe()
    text = render(obs, RenderConfig(shorten_data_urls=shorten_data_urls)).text()
    return text, obs


def observe_browsergym(page: Any) -> str:
    from browsergym.core.observation import (
        _post_extract,
        _pre_extract,
        extract_dom_extra_properties,
        extract_dom_snapshot,
        extract_merged_axtree,
    )
    from browsergym.utils.obs import IGNORED_AXTREE_ROLES, flatten_axtree_to_str

    _pre_extract(page, tags_to_mark="standard_html", lenient=False)
    try:
        dom = extract_dom_snapshot(page)
        axtree = extract_merged_axtree(page)
        extra = extract_dom_extra_properties(dom, scale_factor=1.0)
    finally:
        _post_extract(page)
    return flatten_axtree_to_str(
        axtree,
        extra_properties=extra,
        with_clickable=True,
        with_visible=True,
        ignored_roles=[*IGNORED_AXTREE_ROLES, "InlineTextBox"],
    )


_RECORD: list[dict[str, Any]] | None = None  # events of the current page, when cached


def _emit(event: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()
    if _RECORD is not None:
        _RECORD.append(event)


def _replay(cache: Path) -> bool:
    """Re-emit the events of a page observed by an earlier (interrupted) run."""
    try:
        events = [json.loads(line) for line in cache.read_text().splitlines()]
    except (OSError, json.JSONDecodeError):
        return False
    if not events or events[-1].get("event") != "done":
        return False
    for event in events:
        _emit(event)
    return True


def _line_count(text: str) -> int:
    return text.count("\n") + 1 if text else 0


def _describe(text: str) -> dict[str, int]:
    from pagelens import tokens

    return {
        "lines": _line_count(text),
        "tokens": tokens.count(text),
        "chars": len(text),
        "visible_lines": text.count(", visible"),
        "clickable_lines": text.count(", clickable"),
        "statictext_lines": sum(1 for ln in text.splitlines() if ln.lstrip("\t").startswith("StaticText ")),
    }


def _error(exc: BaseException) -> dict[str, str]:
    return {"type": type(exc).__name__, "message": str(exc).strip()[:500], "traceback": traceback.format_exc()[-2000:]}


#: Non-loopback traffic goes to a closed proxy port and fails at once, inside Chromium.
#: pagelens' default blocking (a Playwright route on every request) answers each request
#: from Python; on pages with hundreds of third-party requests that made loads 2-3x slower
#: and fired route callbacks during extraction, adding noise to both pipelines' times.
PROXY_BLOCK_ARGS = ("--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost;[::1]")


def browser_config(blocking: str, **extra: Any) -> Any:
    from pagelens.config import BrowserConfig

    if blocking == "route":
        return BrowserConfig(**extra)
    return BrowserConfig(block_external=False, extra_args=PROXY_BLOCK_ARGS, **extra)


def worker_page(pages_dir: Path, name: str, reps: int, blocking: str, dump: Path | None) -> None:
    """Observe one page; write one JSON event per line on stdout.

    With a dump directory, the events are also cached there (``<page>.events.jsonl``) and a
    complete cache is replayed instead of observing again, so an interrupted run resumes.
    """
    global _RECORD
    cache = dump / f"{name}.events.jsonl" if dump else None
    if cache is not None:
        if _replay(cache):
            return
        _RECORD = []
    _observe_page(pages_dir, name, reps, blocking, dump)
    if cache is not None and _RECORD:
        tmp = cache.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(e) + "\n" for e in _RECORD))
        tmp.replace(cache)


def _observe_page(pages_dir: Path, name: str, reps: int, blocking: str, dump: Path | None) -> None:
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

    with StaticServer(pages_dir) as server, BrowserSession(browser_config(blocking)) as session:
        url = server.url(name)

        # sizes: same load, pagelens first
        _emit({"event": "start", "what": "sizes"})
        with session.episode() as ep:
            t = time.perf_counter()
            try:
                ep.goto(url)
            except Exception as exc:  # noqa: BLE001 - e.g. a page that never produces a document
                _emit({"event": "error", "tool": "pagelens", "stage": "load", **_error(exc)})
                _emit({"event": "done"})
                return
            _emit({"event": "load", "load_s": time.perf_counter() - t})
            try:
                pl_text, obs = observe_pagelens(ep)
                raw_text = observe_pagelens(ep, shorten_data_urls=False)[0]
                _emit(
                    {
                        "event": "size",
                        "tool": "pagelens",
                        **_describe(pl_text),
                        "tokens_verbatim_data_urls": _describe(raw_text)["tokens"],
                        "nodes": len(obs.nodes),
                        "frames": len(obs.frames),
                        "frame_errors": dict(obs.frame_errors),
                    }
                )
                if dump:
                    (dump / f"{name}.pagelens.txt").write_text(pl_text)
            except Exception as exc:  # noqa: BLE001 - reported, never hidden
                _emit({"event": "error", "tool": "pagelens", "stage": "sizes", **_error(exc)})
            try:
                bg_text = observe_browsergym(ep.page)
                _emit({"event": "size", "tool": "browsergym", **_describe(bg_text)})
                if dump:
                    (dump / f"{name}.browsergym.txt").write_text(bg_text)
            except Exception as exc:  # noqa: BLE001
                _emit({"event": "error", "tool": "browsergym", "stage": "sizes", **_error(exc)})

        # times: fresh context + load per measurement, order alternating
        runners: dict[str, Callable[[Any], object]] = {
            "pagelens": lambda ep: observe_pagelens(ep),
            "browsergym": lambda ep: observe_browsergym(ep.page),
        }
        for rep in range(reps):
            order = ["pagelens", "browsergym"] if rep % 2 == 0 else ["browsergym", "pagelens"]
            for tool in order:
                _emit({"event": "start", "what": f"time {tool} rep {rep}"})
                try:
                    with session.episode() as ep:
                        ep.goto(url)
                        t = time.perf_counter()
                        runners[tool](ep)
                        cold = time.perf_counter() - t
                        t = time.perf_counter()
                        runners[tool](ep)
                        warm = time.perf_counter() - t
                    _emit({"event": "time", "tool": tool, "rep": rep, "cold_s": cold, "warm_s": warm})
                except Exception as exc:  # noqa: BLE001
                    _emit({"event": "error", "tool": tool, "stage": f"time rep {rep}", **_error(exc)})
        _emit({"event": "done"})


# ----------------------------------------------------------------------------------------
# memory on a generated big page
# ----------------------------------------------------------------------------------------
def big_page_html(elements: int) -> str:
    """A table whose rows hold 5 elements each: tr, td > a, td > button."""
    rows = max(1, elements // 5)
    body = "\n".join(
        f'<tr><td><a href="/item/{i}">Item {i}</a></td><td><button type="button">Buy {i}</button></td></tr>'
        for i in range(rows)
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Big table</title></head><body>"
        f"<h1>{rows} items</h1><table><tbody>{body}</tbody></table></body></html>"
    )


def _proc_table() -> dict[int, int]:
    """pid -> parent pid, for every process."""
    out: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().decode("utf-8", "replace")
        except OSError:
            continue
        rest = stat[stat.rfind(")") + 2 :].split()
        out[int(entry)] = int(rest[1])
    return out


def _descendants(root: int) -> list[int]:
    table = _proc_table()
    children: dict[int, list[int]] = {}
    for pid, ppid in table.items():
        children.setdefault(ppid, []).append(pid)
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        for child in children.get(pid, ()):
            out.append(child)
            stack.append(child)
    return out


def _status_kb(pid: int, field: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as fh:
            return fh.read().strip()
    except OSError:
        return "?"


class MemorySampler:
    """Peak RSS of this process and its descendants, sampled every ``interval`` seconds.

    RSS is read from ``/proc/<pid>/statm`` (cheap); the process list and Chromium's PSS
    (``smaps_rollup``: shared pages counted once, slower to read) are refreshed every
    ``slow_every`` samples so that the sampler itself does not slow the extraction down.
    """

    def __init__(self, interval: float = 0.05, slow_every: int = 10) -> None:
        self.interval = interval
        self.slow_every = slow_every
        self.peak: dict[str, int] = {}
        self._page_kb = os.sysconf("SC_PAGE_SIZE") // 1024
        self._chromium: list[int] = []
        self._other: list[int] = []
        self._pss = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _statm_rss_kb(self, pid: int) -> int:
        try:
            with open(f"/proc/{pid}/statm") as fh:
                return int(fh.read().split()[1]) * self._page_kb
        except (OSError, IndexError, ValueError):
            return 0

    def _refresh(self) -> None:
        kids = _descendants(os.getpid())
        self._chromium = [p for p in kids if "chrom" in _comm(p).lower()]
        self._other = [p for p in kids if p not in self._chromium]
        self._pss = sum(_pss_kb(p) for p in self._chromium)

    def sample(self, refresh: bool = True) -> dict[str, int]:
        if refresh:
            self._refresh()
        return {
            "python_rss_kb": self._statm_rss_kb(os.getpid()),
            "chromium_rss_kb": sum(self._statm_rss_kb(p) for p in self._chromium),
            "chromium_pss_kb": self._pss,
            "driver_rss_kb": sum(self._statm_rss_kb(p) for p in self._other),
            "chromium_processes": len(self._chromium),
        }

    def _run(self) -> None:
        i = 0
        while not self._stop.is_set():
            self._fold(self.sample(refresh=i % self.slow_every == 0))
            i += 1
            self._stop.wait(self.interval)

    def _fold(self, s: dict[str, int]) -> None:
        s = {**s, "total_rss_kb": s["python_rss_kb"] + s["chromium_rss_kb"] + s["driver_rss_kb"]}
        for k, v in s.items():
            self.peak[k] = max(self.peak.get(k, 0), v)

    def __enter__(self) -> Self:
        self._fold(self.sample())
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._fold(self.sample())


def worker_big(path: Path, tool: str, blocking: str) -> None:
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession

    config = browser_config(blocking, navigation_timeout_s=120, extract_timeout_s=300)
    with serve_file(path) as url, BrowserSession(config) as session, session.episode() as ep:
        t = time.perf_counter()
        ep.goto(url)
        load = time.perf_counter() - t
        sampler = MemorySampler()
        before = sampler.sample()
        before["python_peak_before_kb"] = _status_kb(os.getpid(), "VmHWM")
        try:
            with sampler:
                t = time.perf_counter()
                stages: dict[str, float] = {}
                if tool == "pagelens":
                    text, obs = observe_pagelens(ep)
                    nodes = len(obs.nodes)
                    stages = dict(obs.timings)
                else:
                    text, nodes = observe_browsergym(ep.page), -1
                elapsed = time.perf_counter() - t
            _emit(
                {
                    "event": "big",
                    "tool": tool,
                    "load_s": load,
                    "extract_s": elapsed,
                    "stages_s": stages,
                    "nodes": nodes,
                    **_describe(text),
                    "before": before,
                    "peak": sampler.peak,
                    "python_hwm_kb": _status_kb(os.getpid(), "VmHWM"),
                }
            )
        except Exception as exc:  # noqa: BLE001
            _emit({"event": "error", "tool": tool, "stage": "big", **_error(exc)})


# ----------------------------------------------------------------------------------------
# parent: run workers, aggregate, report
# ----------------------------------------------------------------------------------------
def run_worker(args: list[str], timeout: float) -> tuple[list[dict[str, Any]], str | None]:
    """Run this script as a worker; return its events and an error if it failed or hung."""
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # own process group: a hang is killed with its Chromium
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        problem = None if proc.returncode == 0 else f"worker exited {proc.returncode}: {err.strip()[-1500:]}"
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        problem = f"timeout after {timeout:.0f}s"
    events = []
    for line in out.splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    if problem and events and events[-1].get("event") == "start":
        problem += f" (while: {events[-1]['what']})"
    return events, problem


def summarize_page(name: str, events: list[dict[str, Any]], problem: str | None) -> dict[str, Any]:
    rec: dict[str, Any] = {"page": name, "errors": [], "size": {}, "times": {"pagelens": [], "browsergym": []}}
    for ev in events:
        if ev["event"] == "load":
            rec["load_s"] = ev["load_s"]
        elif ev["event"] == "size":
            rec["size"][ev["tool"]] = {k: v for k, v in ev.items() if k not in ("event", "tool")}
        elif ev["event"] == "time":
            rec["times"][ev["tool"]].append({"rep": ev["rep"], "cold_s": ev["cold_s"], "warm_s": ev["warm_s"]})
        elif ev["event"] == "error":
            rec["errors"].append({k: ev[k] for k in ("tool", "stage", "type", "message", "traceback")})
    if problem:
        rec["errors"].append({"tool": "worker", "stage": "", "type": "WorkerFailure", "message": problem})
    for tool in ("pagelens", "browsergym"):
        ts = rec["times"][tool]
        rec[f"{tool}_ms"] = 1000 * statistics.median(t["cold_s"] for t in ts) if ts else None
        rec[f"{tool}_warm_ms"] = 1000 * statistics.median(t["warm_s"] for t in ts) if ts else None
    pl, bg = rec["size"].get("pagelens"), rec["size"].get("browsergym")
    rec["token_ratio"] = pl["tokens"] / bg["tokens"] if pl and bg and bg["tokens"] else None
    rec["token_ratio_verbatim_data_urls"] = (
        pl["tokens_verbatim_data_urls"] / bg["tokens"] if pl and bg and bg["tokens"] else None
    )
    rec["line_ratio"] = pl["lines"] / bg["lines"] if pl and bg and bg["lines"] else None
    p_ms, b_ms = rec["pagelens_ms"], rec["browsergym_ms"]
    rec["time_ratio"] = p_ms / b_ms if p_ms and b_ms else None
    p_w, b_w = rec["pagelens_warm_ms"], rec["browsergym_warm_ms"]
    rec["warm_time_ratio"] = p_w / b_w if p_w and b_w else None
    return rec


def quantile(values: list[float], q: float) -> float | None:
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    pos = q * (len(values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def aggregate(pages: list[dict[str, Any]]) -> dict[str, Any]:
    keys = {
        "pagelens_lines": lambda r: r["size"].get("pagelens", {}).get("lines"),
        "browsergym_lines": lambda r: r["size"].get("browsergym", {}).get("lines"),
        "pagelens_tokens": lambda r: r["size"].get("pagelens", {}).get("tokens"),
        "browsergym_tokens": lambda r: r["size"].get("browsergym", {}).get("tokens"),
        "pagelens_ms": lambda r: r["pagelens_ms"],
        "browsergym_ms": lambda r: r["browsergym_ms"],
        "pagelens_warm_ms": lambda r: r["pagelens_warm_ms"],
        "browsergym_warm_ms": lambda r: r["browsergym_warm_ms"],
        "token_ratio": lambda r: r["token_ratio"],
        "token_ratio_verbatim_data_urls": lambda r: r["token_ratio_verbatim_data_urls"],
        "line_ratio": lambda r: r["line_ratio"],
        "time_ratio": lambda r: r["time_ratio"],
        "warm_time_ratio": lambda r: r["warm_time_ratio"],
    }
    out: dict[str, Any] = {}
    for key, get in keys.items():
        vals = [v for v in (get(r) for r in pages) if v is not None]
        out[key] = {"n": len(vals), "median": quantile(vals, 0.5), "p90": quantile(vals, 0.9),
                    "min": min(vals) if vals else None, "max": max(vals) if vals else None}
    tr = [r for r in pages if r["token_ratio"] is not None]
    out["pages_tokens_outside_15pct"] = [r["page"] for r in tr if abs(r["token_ratio"] - 1) > 0.15]
    out["pages_pagelens_slower"] = [r["page"] for r in pages if r["time_ratio"] and r["time_ratio"] > 1]
    out["pages_with_pagelens_errors"] = [r["page"] for r in pages if any(e["tool"] == "pagelens" for e in r["errors"])]
    out["pages_out_of_time"] = [r["page"] for r in pages if any(e["tool"] == "worker" for e in r["errors"])]
    out["pages_with_browsergym_errors"] = [r["page"] for r in pages if any(e["tool"] == "browsergym" for e in r["errors"])]
    sum_pl = sum(r["size"]["pagelens"]["tokens"] for r in tr)
    sum_bg = sum(r["size"]["browsergym"]["tokens"] for r in tr)
    out["total_tokens"] = {"pagelens": sum_pl, "browsergym": sum_bg, "ratio": sum_pl / sum_bg if sum_bg else None}
    return out


def _f(v: float | None, fmt: str) -> str:
    return "—" if v is None else format(v, fmt)


def markdown(pages: list[dict[str, Any]], agg: dict[str, Any], big: dict[str, Any] | None) -> str:
    out = [
        "| page | lines PL | lines BG | tokens PL | tokens BG | tok PL/BG | ms PL | ms BG | time PL/BG | notes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in pages:
        pl, bg = r["size"].get("pagelens", {}), r["size"].get("browsergym", {})
        notes = []
        for e in r["errors"]:
            if e["tool"] == "worker":
                reps = min(len(r["times"]["pagelens"]), len(r["times"]["browsergym"]))
                notes.append(f"page time budget ran out ({e['message'][:90]}); {reps} full reps")
            else:
                notes.append(f"**{e['tool']} error** ({e['stage']}): {e['type']}: {e['message'][:120]}")
        if pl.get("frame_errors"):
            notes.append(f"PL frame errors: {len(pl['frame_errors'])}")
        if pl and pl.get("tokens_verbatim_data_urls", 0) > pl.get("tokens", 0) * 1.05:
            notes.append(f"{pl['tokens_verbatim_data_urls']:,} PL tok with data: URIs unshortened")
        out.append(
            f"| {r['page']} | {_f(pl.get('lines'), ',')} | {_f(bg.get('lines'), ',')} | {_f(pl.get('tokens'), ',')} | "
            f"{_f(bg.get('tokens'), ',')} | {_f(r['token_ratio'], '.2f')} | {_f(r['pagelens_ms'], ',.0f')} | "
            f"{_f(r['browsergym_ms'], ',.0f')} | {_f(r['time_ratio'], '.2f')} | {'; '.join(notes).replace('|', '/')} |"
        )
    out += ["", "| figure | median | p90 | min | max |", "|---|---:|---:|---:|---:|"]
    labels = {
        "token_ratio": ("tokens PL/BG", ".2f"),
        "token_ratio_verbatim_data_urls": ("tokens PL/BG (PL with data: URIs unshortened, still capped at 2,000 chars)", ".2f"),
        "line_ratio": ("lines PL/BG", ".2f"),
        "time_ratio": ("time PL/BG (cold, first observation after load)", ".2f"),
        "warm_time_ratio": ("time PL/BG (warm, second observation)", ".2f"),
        "pagelens_tokens": ("tokens PL", ",.0f"),
        "browsergym_tokens": ("tokens BG", ",.0f"),
        "pagelens_lines": ("lines PL", ",.0f"),
        "browsergym_lines": ("lines BG", ",.0f"),
        "pagelens_ms": ("ms PL (cold)", ",.0f"),
        "browsergym_ms": ("ms BG (cold)", ",.0f"),
        "pagelens_warm_ms": ("ms PL (warm)", ",.0f"),
        "browsergym_warm_ms": ("ms BG (warm)", ",.0f"),
    }
    for key, (label, fmt) in labels.items():
        a = agg[key]
        out.append(f"| {label} | {_f(a['median'], fmt)} | {_f(a['p90'], fmt)} | {_f(a['min'], fmt)} | {_f(a['max'], fmt)} |")
    t = agg["total_tokens"]
    out += [
        "",
        f"- pages: {len(pages)}; total tokens PL {t['pagelens']:,} vs BG {t['browsergym']:,} (ratio {_f(t['ratio'], '.2f')})",
        f"- token ratio outside ±15%: {len(agg['pages_tokens_outside_15pct'])} pages: {', '.join(agg['pages_tokens_outside_15pct']) or 'none'}",
        f"- pagelens slower than BrowserGym (cold median): {len(agg['pages_pagelens_slower'])} pages: {', '.join(agg['pages_pagelens_slower']) or 'none'}",
        f"- pages with pagelens errors: {', '.join(agg['pages_with_pagelens_errors']) or 'none'}",
        f"- pages with BrowserGym errors: {', '.join(agg['pages_with_browsergym_errors']) or 'none'}",
        (f"- pages whose time budget ran out (the figures are medians of the repetitions that finished): "
        f"{', '.join(agg['pages_out_of_time']) or 'none'}"),
    ]
    if big:
        out += ["", f"Generated page, {big['elements']:,} elements ({big['rows']:,} table rows of a link and a button):", "",
                "| tool | extract+render s | lines | tokens | peak total RSS MB | peak Python RSS MB | peak Chromium RSS MB (PSS) | driver RSS MB | RSS before MB |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for tool in ("pagelens", "browsergym"):
            b = big.get(tool)
            if not b or "peak" not in b:
                out.append(f"| {tool} | error: {b.get('error') if b else 'missing'} | | | | | | | |")
                continue
            pk, bf = b["peak"], b["before"]
            before_total = (bf["python_rss_kb"] + bf["chromium_rss_kb"] + bf["driver_rss_kb"]) / 1024
            out.append(
                f"| {tool} | {b['extract_s']:.2f} | {b['lines']:,} | {b['tokens']:,} | {pk['total_rss_kb'] / 1024:,.0f} | "
                f"{pk['python_rss_kb'] / 1024:,.0f} | {pk['chromium_rss_kb'] / 1024:,.0f} ({pk['chromium_pss_kb'] / 1024:,.0f}) | "
                f"{pk['driver_rss_kb'] / 1024:,.0f} | {before_total:,.0f} |"
            )
    return "\n".join(out)


def _progress(total: int) -> Any:
    try:
        from rich.progress import Progress

        return Progress(transient=True, console=__import__("rich.console").console.Console(stderr=True))
    except ImportError:  # pragma: no cover
        return None


def _iterate(items: list[Path]) -> Iterator[Path]:
    progress = _progress(len(items))
    if progress is None:
        yield from items
        return
    with progress:
        task = progress.add_task("observing", total=len(items))
        for item in items:
            progress.update(task, description=item.name[:40])
            yield item
            progress.advance(task)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages_dir", nargs="?", type=Path, default=DEFAULT_PAGES)
    ap.add_argument("--out", type=Path, help="write raw figures as JSON here")
    ap.add_argument("--reps", type=int, default=3, help="timed observations per tool and page (median)")
    ap.add_argument("--only", default="*.html", help="glob of page files (default: all)")
    ap.add_argument("--timeout", type=float, default=600.0,
                    help="seconds per page (1 + 2*reps loads and 2 + 4*reps observations) before its worker is stopped")
    ap.add_argument("--big", type=int, default=50_000, help="elements of the generated page (0: skip)")
    ap.add_argument("--blocking", choices=("proxy", "route"), default="proxy",
                    help="how non-loopback requests are blocked: Chromium proxy flags (default) or pagelens' route")
    ap.add_argument("--dump", type=Path, help=("write both renderings of every page into this directory, and cache "
                    "each page's figures there (a rerun with the same directory resumes; delete it to start afresh)"))
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:
        kind, *rest = args.worker
        if kind == "page":
            worker_page(Path(rest[0]), rest[1], int(rest[2]), rest[3], Path(rest[4]) if len(rest) > 4 else None)
        elif kind == "big":
            worker_big(Path(rest[0]), rest[1], rest[2])
        return 0

    pages_dir = args.pages_dir.resolve()
    files = sorted(pages_dir.glob(args.only))
    if not files:
        print(f"no pages matching {args.only} in {pages_dir}", file=sys.stderr)
        return 2
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
    from pagelens import tokens
    from pagelens.browser.chromium import find_chromium

    started = time.time()
    results = []
    for path in _iterate(files):
        extra = [str(args.dump.resolve())] if args.dump else []
        events, problem = run_worker(["page", str(pages_dir), path.name, str(args.reps), args.blocking, *extra], args.timeout)
        results.append(summarize_page(path.name, events, problem))
        if args.out:  # keep what is done, should the run be interrupted
            args.out.write_text(json.dumps({"partial": True, "pages": results}, indent=1))

    big: dict[str, Any] | None = None
    if args.big:
        big = {"elements": args.big, "rows": args.big // 5}
        with tempfile.TemporaryDirectory(prefix="pagelens-big-") as tmp:
            page = Path(tmp) / "big.html"
            page.write_text(big_page_html(args.big))
            big["html_bytes"] = page.stat().st_size
            for tool in ("pagelens", "browsergym"):
                events, problem = run_worker(["big", str(page), tool, args.blocking], max(args.timeout, 900))
                got = [e for e in events if e["event"] == "big"]
                errs = [e for e in events if e["event"] == "error"]
                if got:
                    big[tool] = {k: v for k, v in got[0].items() if k not in ("event", "tool")}
                else:
                    big[tool] = {"error": problem or (errs[0]["message"] if errs else "no result"),
                                 "details": errs}

    agg = aggregate(results)
    print(markdown(results, agg, big))
    if args.out:
        import playwright

        meta = {
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "pages_dir": str(pages_dir),
            "reps": args.reps,
            "blocking": args.blocking,
            "chromium": find_chromium(),
            "playwright": getattr(playwright, "__version__", "?"),
            "token_counter": tokens.backend(),
            "browsergym_flatten": BG_FLATTEN + " + ignored_roles += ['InlineTextBox']",
            "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
            "duration_s": time.time() - started,
            "cpus": os.cpu_count(),
        }
        args.out.write_text(json.dumps({"meta": meta, "summary": agg, "pages": results, "big_page": big}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

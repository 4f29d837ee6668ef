"""pagelens MCP vs Playwright MCP, driven by the same scripted plans through the same Python MCP client.

Part 1 — the bundled tasks: each task's oracle plan is mapped to each server's tools
(:mod:`pagelens.bench.mcp_plans`): on pagelens the plan resolves its targets in what the
tools returned (views and deltas; ``observe()`` when a target is not there); on Playwright
MCP a step needs the element's ref, so whenever an action ran since the last read it reads
``browser_find`` results for the target's name, else ``browser_snapshot``. A fresh server
(so a fresh browser profile) per task and server; the sites are reset before each run and
success is judged from their server state. Counted: everything the agent read (o200k
tokens, bytes), tool calls, per-call latency, wall time.

Part 2 — the corpus: one observation of each of the 49 real pages on both servers: pagelens
``navigate`` with a goal from ``benchmarks/data/realpage_goals.jsonl`` (set ``developer``,
else ``blind-1``, else ``blind-2``; no goal: the refined tree), Playwright MCP
``browser_navigate`` + ``browser_snapshot``.

Playwright MCP runs as ``playwright-mcp --executable-path <chromium> --headless --isolated``
with every non-loopback request sent to a closed proxy (loopback only), from
``--playwright-mcp`` (default ``/work/npm-pwmcp/node_modules/.bin/playwright-mcp``; install
with ``npm install @playwright/mcp@0.0.83`` into a folder outside the repository).

    .venv/bin/python benchmarks/mcp_vs_playwright.py [--limit 5] [--no-corpus] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("PAGELENS_CORPUS", "/work/shared/corpus/realpages"))
GOALS = ROOT / "benchmarks" / "data" / "realpage_goals.jsonl"
DEFAULT_PWMCP = "/work/npm-pwmcp/node_modules/.bin/playwright-mcp"
#: playwright-mcp: snapshot whenever the page may have changed; /find: browser_find results first.
#: pagelens: search_page for a target missing from the view; /nosearch: observe() and the whole tree instead.
#: pagelens-base: the pagelens of another source tree (``--baseline-src``), measured in the same run.
SERVERS = ("pagelens", "pagelens-base", "pagelens/nosearch", "playwright-mcp", "playwright-mcp/find")
#: ``src`` folder of the baseline tree (``git archive <commit> src | tar -x -C DIR``: DIR/src).
BASELINE_SRC: str | None = None


def pw_args(chromium: str, out_dir: str) -> list[str]:
    return ["--executable-path", chromium, "--headless", "--isolated", "--no-sandbox",
            "--proxy-server", "http://127.0.0.1:9", "--proxy-bypass", "127.0.0.1,localhost,[::1]",
            "--output-dir", out_dir]


#: pagelens --view-cap (None: the server's default); set from the command line.
VIEW_CAP: int | None = None


def server_params(server: str, *, goal: str | None, pwmcp: str, chromium: str, cap: int) -> Any:
    from mcp import StdioServerParameters

    if server.startswith("pagelens"):
        env = dict(os.environ)
        if server == "pagelens-base":
            if not BASELINE_SRC:
                raise SystemExit("pagelens-base needs --baseline-src DIR/src")
            env["PYTHONPATH"] = BASELINE_SRC
        args = ["-m", "pagelens.cli", "mcp", "--cap", str(cap), *(["--goal", goal] if goal else []),
                *(["--view-cap", str(VIEW_CAP)] if VIEW_CAP is not None and server != "pagelens-base" else [])]
        return StdioServerParameters(command=sys.executable, args=args, env=env)
    out = "/tmp/pagelens-pwmcp-out"
    return StdioServerParameters(command=pwmcp, args=pw_args(chromium, out), cwd="/tmp", env=dict(os.environ))


async def run_task(server: str, task: Any, sites: Any, *, pwmcp: str, chromium: str, cap: int,
                   shared: Any = None) -> Any:
    """One task on a fresh browser profile: a new Playwright MCP process, or on the shared pagelens
    server ``close()`` (a fresh context) and ``set_goal`` first (setup, not counted: the goal is what
    ``--goal`` gives at start)."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    sites.reset()
    if shared is not None:
        await shared.call_tool("close", {})
        await shared.call_tool("set_goal", {"goal": task.goal})
        return await _play(server, task, sites, shared)
    params = server_params(server, goal=task.goal, pwmcp=pwmcp, chromium=chromium, cap=cap)
    async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        return await _play(server, task, sites, session)


async def _play(server: str, task: Any, sites: Any, session: Any) -> Any:
    from pagelens.bench.mcp_plans import Episode, PagelensPlanAgent, PlaywrightPlanAgent, play
    from pagelens.bench.sites import resolve_site_url
    from pagelens.bench.tasks import check_task

    ep = Episode(task.id, server)
    agent = (PagelensPlanAgent(session, ep, search=not server.endswith("/nosearch")) if server.startswith("pagelens")
             else PlaywrightPlanAgent(session, ep, find=server.endswith("/find")))
    answer = await play(agent, task, resolve_site_url(sites, task.start))
    if not ep.detail:
        await asyncio.sleep(0.4)  # in-flight requests (AJAX cart, votes) land before judging
        result = check_task(task, {n: sites.state(n) for n in sites.names}, answer)
        ep.success, ep.detail = result.ok, result.detail
    return ep


def goals_by_page() -> dict[str, str]:
    out: dict[str, tuple[int, str]] = {}
    rank = {"developer": 0, "blind-1": 1, "blind-2": 2}
    for line in GOALS.read_text().splitlines():
        row = json.loads(line)
        r = rank.get(row.get("set"), 9)
        if row["page"] not in out or r < out[row["page"]][0]:
            out[row["page"]] = (r, row["goal"])
    return {k: v[1] for k, v in out.items()}


async def run_corpus(server: str, pages: list[Path], *, pwmcp: str, chromium: str, cap: int) -> list[dict[str, Any]]:
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    from pagelens import tokens
    from pagelens.browser.serve import StaticServer

    goals = goals_by_page()
    rows = []
    with StaticServer(CORPUS) as static:
        params = server_params(server, goal=None, pwmcp=pwmcp, chromium=chromium, cap=cap)
        async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
            await session.initialize()
            for page in pages:
                url = static.url(page.name)
                goal = goals.get(page.stem)
                t0 = time.perf_counter()
                if server == "pagelens":
                    await session.call_tool("close", {})
                    await session.call_tool("set_goal", {"goal": goal or ""})
                    t0 = time.perf_counter()
                    res = await session.call_tool("navigate", {"url": url})
                    texts = [res]
                else:
                    nav = await session.call_tool("browser_navigate", {"url": url})
                    snap = await session.call_tool("browser_snapshot", {})
                    texts = [nav, snap]
                seconds = time.perf_counter() - t0
                text = "\n".join(c.text for res in texts for c in res.content if getattr(c, "type", "") == "text")
                rows.append({"server": server, "page": page.stem, "goal": goal, "tokens": tokens.count(text),
                             "bytes": len(text.encode()), "seconds": round(seconds, 3),
                             "error": any(res.is_error for res in texts)})
                print(f"{server:15} {page.stem:40} {rows[-1]['tokens']:7} tok {seconds:5.1f}s", file=sys.stderr,
                      flush=True)
    return rows


def versions(pwmcp: str, chromium: str) -> dict[str, str]:
    from importlib.metadata import version

    def run(cmd: list[str]) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False).stdout.strip().splitlines()[-1]
        except (OSError, IndexError, subprocess.SubprocessError):
            return "?"

    return {"mcp (python sdk)": version("mcp"), "playwright (python)": version("playwright"),
            "@playwright/mcp": run([pwmcp, "--version"]), "chromium": run([chromium, "--version"]),
            "node": run(["node", "--version"])}


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


#: Tasks whose answer is checked (filled in by main from the task definitions).
_READ_TASKS: set[str] = set()


def load_run(path: Path) -> tuple[list[Any], list[dict[str, Any]]]:
    """The episodes and corpus rows a ``--json`` file holds (to print its report again)."""
    from pagelens.bench.mcp_plans import CallRecord, Episode

    data = json.loads(path.read_text())
    episodes = []
    for row in data["episodes"]:
        fields = {k: v for k, v in row.items() if k not in ("tokens", "bytes", "calls")}
        episodes.append(Episode(**fields, calls=[CallRecord(**c) for c in row["calls"]]))
    return episodes, data.get("corpus", [])


def report(episodes: list[Any], corpus: list[dict[str, Any]], cap: int) -> str:
    out = [("| server | tasks | success | tool calls / task | tokens read / task (mean) | bytes read / task | "
            "wall s / task | p50 call latency s | p90 call latency s | max tokens in one answer |"),
           "|---|---|---|---|---|---|---|---|---|---|"]
    for server in SERVERS:
        eps = [e for e in episodes if e.server == server]
        if not eps:
            continue
        calls = [c for e in eps for c in e.calls]
        out.append(
            f"| {server} | {len(eps)} | {sum(e.success for e in eps)}/{len(eps)} | "
            f"{statistics.mean(len(e.calls) for e in eps):.1f} | {statistics.mean(e.tokens for e in eps):,.0f} | "
            f"{statistics.mean(e.bytes for e in eps):,.0f} | {statistics.mean(e.seconds for e in eps):.2f} | "
            f"{pct([c.seconds for c in calls], 0.5):.3f} | {pct([c.seconds for c in calls], 0.9):.3f} | "
            f"{max((c.tokens for c in calls), default=0):,} |")
    p50 = {srv: pct([c.seconds for e in episodes if e.server == srv for c in e.calls], 0.5) for srv in SERVERS}
    for mine in [x for x in SERVERS if x.startswith("pagelens") and p50[x]]:
        for other in [x for x in SERVERS if x.startswith("playwright") and p50[x]]:
            out.append(f"\np50 call latency {mine} / {other}: {p50[mine]:.3f} / {p50[other]:.3f} s = "
                       f"{p50[mine] / p50[other]:.2f}")
    for mine in [x for x in SERVERS if x.startswith("pagelens")]:
        pl = {e.task: e for e in episodes if e.server == mine}
        for other in [x for x in SERVERS if x.startswith("playwright")]:
            pw = {e.task: e for e in episodes if e.server == other}
            both = [t for t in pl if t in pw and pl[t].success and pw[t].success]
            if not both:
                continue
            ratios = [pl[t].tokens / max(1, pw[t].tokens) for t in both]
            out.append("")
            out.append(f"{mine} vs {other}: tasks both solved: {len(both)}. {mine} read "
                       f"{100 * sum(pl[t].tokens for t in both) / max(1, sum(pw[t].tokens for t in both)):.1f}% "
                       f"of Playwright MCP's tokens in all; per task median {100 * statistics.median(ratios):.1f}%, "
                       f"max {100 * max(ratios):.1f}%; tasks above 10%: {sum(r > 0.10 for r in ratios)}. "
                       f"{mine} answers above the {cap}-token cap: "
                       f"{sum(c.tokens > cap for e in pl.values() for c in e.calls)}.")
            reads = [t for t in both if t in _READ_TASKS and pw[t].calls and pw[t].calls[-1].tool == "browser_snapshot"]
            if reads:  # the plan now reads the page before answering a read task (earlier runs did not)
                alt = {t: pw[t].tokens - (pw[t].calls[-1].tokens if t in reads else 0) for t in both}
                alt_r = [pl[t].tokens / max(1, alt[t]) for t in both]
                out.append(f"Without {other}'s final snapshot read before the answer of {len(reads)} read tasks "
                           f"(the counting of earlier runs): {100 * sum(pl[t].tokens for t in both) / max(1, sum(alt.values())):.1f}% "
                           f"in all, per task median {100 * statistics.median(alt_r):.1f}%, tasks above 10%: "
                           f"{sum(r > 0.10 for r in alt_r)}.")
            qs = ", ".join(f"p{int(q * 100)} {100 * pct(ratios, q):.1f}%" for q in (0.1, 0.25, 0.5, 0.75, 0.9))
            out.append(f"Per-task ratio distribution: {qs}; at most 5%: {sum(r <= 0.05 for r in ratios)}, "
                       f"5-10%: {sum(0.05 < r <= 0.10 for r in ratios)}, 10-20%: "
                       f"{sum(0.10 < r <= 0.20 for r in ratios)}, above 20%: {sum(r > 0.20 for r in ratios)}.")
    out += ["", "| server | tool | calls | p50 s | p90 s | mean tokens |", "|---|---|---|---|---|---|"]
    for server in SERVERS:
        calls = [c for e in episodes if e.server == server for c in e.calls]
        for tool in sorted({c.tool for c in calls}):
            mine_calls = [c for c in calls if c.tool == tool]
            secs = [c.seconds for c in mine_calls]
            out.append(f"| {server} | {tool} | {len(mine_calls)} | {pct(secs, 0.5):.3f} | {pct(secs, 0.9):.3f} | "
                       f"{statistics.mean(c.tokens for c in mine_calls):,.0f} |")
    failures = [e for e in episodes if not e.success]
    if failures:
        out += ["", "Failures:", *[f"- {e.server} `{e.task}`: {e.detail}" for e in failures]]
    if corpus:
        out += ["", ("| corpus (one observation per page) | pages | tokens median | p90 | max | total | "
                     "mean s | errors |"), "|---|---|---|---|---|---|---|---|"]
        for server in ("pagelens", "playwright-mcp"):
            rows = [r for r in corpus if r["server"] == server]
            if rows:
                toks = [r["tokens"] for r in rows]
                out.append(f"| {server} | {len(rows)} | {statistics.median(toks):,.0f} | {pct(toks, 0.9):,} | "
                           f"{max(toks):,} | {sum(toks):,} | {statistics.mean(r['seconds'] for r in rows):.2f} | "
                           f"{sum(r['error'] for r in rows)} |")
        a = {r["page"]: r["tokens"] for r in corpus if r["server"] == "pagelens"}
        b = {r["page"]: r["tokens"] for r in corpus if r["server"] == "playwright-mcp"}
        common = [p for p in a if p in b]
        if common:
            out.append(f"\npagelens / Playwright MCP tokens over the {len(common)} pages: "
                       f"{100 * sum(a[p] for p in common) / max(1, sum(b[p] for p in common)):.1f}% "
                       f"(per page median {100 * statistics.median(a[p] / max(1, b[p]) for p in common):.1f}%).")
    return "\n".join(out)


async def main_async(args: argparse.Namespace) -> tuple[list[Any], list[dict[str, Any]]]:
    from pagelens.bench.sites import start_sites
    from pagelens.bench.task_defs import load_tasks

    servers = args.servers.split(",")
    tasks = [t for t in load_tasks(0) if not args.tasks or t.id in args.tasks.split(",")]
    if args.limit:
        tasks = tasks[: args.limit]
    episodes = []
    if not args.run_tasks:
        tasks = []
    from contextlib import AsyncExitStack

    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    with start_sites(0) as sites:
        async with AsyncExitStack() as stack:
            shared: dict[str, Any] = {}  # one pagelens server per source tree, shared by its tasks
            for tree in ("pagelens", "pagelens-base"):
                if any(s == tree or s.startswith(tree + "/") for s in servers) and tasks:
                    params = server_params(tree, goal=None, pwmcp=args.playwright_mcp, chromium=args.chromium,
                                           cap=args.cap)
                    r, w = await stack.enter_async_context(stdio_client(params))
                    shared[tree] = await stack.enter_async_context(ClientSession(r, w))
                    await shared[tree].initialize()
            for k, task in enumerate(tasks):
                # alternate which server goes first (the machine's load drifts during a run)
                for server in (servers if k % 2 == 0 or not args.alternate else servers[::-1]):
                    tree = server.split("/")[0]
                    ep = await run_task(server, task, sites, pwmcp=args.playwright_mcp, chromium=args.chromium,
                                        cap=args.cap, shared=shared.get(tree))
                    episodes.append(ep)
                    print(f"{'ok ' if ep.success else 'FAIL'} {server:20} {task.id:28} calls={len(ep.calls):2} "
                          f"tokens={ep.tokens:7} {ep.seconds:5.1f}s {'' if ep.success else ep.detail}",
                          file=sys.stderr, flush=True)
    corpus: list[dict[str, Any]] = []
    if args.corpus:
        pages = sorted(CORPUS.glob("*.html"))[: args.corpus_limit or None]
        for server in [s for s in servers if "/" not in s]:
            corpus += await run_corpus(server, pages, pwmcp=args.playwright_mcp, chromium=args.chromium, cap=args.cap)
    return episodes, corpus


def main(argv: list[str] | None = None) -> int:
    from pagelens.browser.chromium import find_chromium

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", help="comma-separated task ids (default: all 44)")
    parser.add_argument("--limit", type=int, help="only the first N tasks")
    parser.add_argument("--servers", default=",".join(SERVERS))
    parser.add_argument("--no-corpus", dest="corpus", action="store_false")
    parser.add_argument("--no-tasks", dest="run_tasks", action="store_false")
    parser.add_argument("--corpus-limit", type=int)
    parser.add_argument("--cap", type=int, default=3000, help="pagelens --cap")
    parser.add_argument("--view-cap", type=int, default=None, help="pagelens --view-cap (default: the server's)")
    parser.add_argument("--no-alternate", dest="alternate", action="store_false",
                        help="run the servers in the same order for every task (default: alternate per task)")
    parser.add_argument("--playwright-mcp", default=os.environ.get("PLAYWRIGHT_MCP", DEFAULT_PWMCP))
    parser.add_argument("--chromium", default=None)
    parser.add_argument("--baseline-src", help="the src folder of a baseline tree, served as pagelens-base")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--report-from", type=Path, metavar="JSON", help="print the report of a saved --json run")
    args = parser.parse_args(argv)
    from pagelens.bench.task_defs import load_tasks

    _READ_TASKS.update(t.id for t in load_tasks(0) if t.kind == "read")
    if args.report_from:
        print(report(*load_run(args.report_from), args.cap))
        return 0
    args.chromium = find_chromium(args.chromium)
    global VIEW_CAP, BASELINE_SRC
    VIEW_CAP = args.view_cap
    BASELINE_SRC = args.baseline_src
    started = time.perf_counter()
    episodes, corpus = asyncio.run(main_async(args))
    print(report(episodes, corpus, args.cap))
    info = versions(args.playwright_mcp, args.chromium)
    print(f"\nVersions: {info}\nPlaywright MCP flags: {' '.join(pw_args(args.chromium, '<out>'))}")
    print(f"({len(episodes)} episodes, {len(corpus)} page observations in {time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"episodes": [{**asdict(e), "tokens": e.tokens, "bytes": e.bytes}
                                                      for e in episodes], "corpus": corpus, "versions": info}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

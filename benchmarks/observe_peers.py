"""pagelens vs BrowserGym vs browser-use vs Playwright's ARIA snapshot, side by side in one run
(issue 13, "Measured side by side").

Tools, each a long-lived worker process (``peer_workers.py``) in its own venv, all on the same
Chromium binary with the same flags, off-site requests sent to a closed proxy port:

* ``pagelens``  — the reference CDP extraction: ``Episode.observe()``, then
  ``pagelens.api.focus_view`` (render + ``default`` focus on the page's goal);
* ``walker``    — the same with ``extraction="walker"`` (h-walker); skipped when the checkout
  has no such option;
* ``browsergym`` — BrowserGym's extraction (mark, DOM snapshot, merged AX tree, extra
  properties, unmark, ``flatten_axtree_to_str``), as in ``compare_browsergym.py``;
* ``browser-use`` — ``DomService.get_serialized_dom_tree()`` + ``llm_representation()``
  (what its agent puts under "Interactive elements"; "sent" tokens are after its own
  40,000-character cut), browser-use's venv, its own CDP session;
* ``playwright`` — ``page.locator('body').aria_snapshot()`` with a current Playwright;
* ``walker-base`` — the walker of another checkout (``--base-src DIR``, e.g. an archived
  baseline commit's ``src``), in the same run, so before/after ratios share the load.

Two Chromium binaries in one run (h17-shell): ``--chromium-b EXE`` adds, for every tool, a second
worker ``TOOL@b`` on that binary (``--chromium`` is the first): the order of all workers rotates
between repetitions, so the binaries alternate; ratios are given per binary (``walker@b/browsergym@b``)
and across them (``walker@b/walker``).

Pages: the corpus (``--pages``, first ``--limit``) and generated pages of ``--sizes`` elements
(``gen_pages.py``), served from 127.0.0.1. For every page, ``--reps`` repetitions, the tool
order rotating between repetitions; each observation is of a fresh load in a fresh context
and has a deadline (``--deadline``; ``--size-deadline`` for generated pages), enforced from
here: past it the worker and its browser are killed, a timeout recorded and the worker restarted.
Each worker first makes one untimed observation of the first page (imports, caches, set-up).

Memory: while a request runs, the worker's process tree is sampled (/proc, every 50 ms):
the worker's own RSS (the Python driver), other helpers (Playwright's node driver), and
Chromium: RSS summed over its processes, the largest renderer's RSS, and PSS summed (shared
pages counted once; sampled every 0.5 s). "total" = worker RSS + helper RSS + Chromium PSS.

    PYTHONPATH=src .venv/bin/python benchmarks/observe_peers.py --reps 2 \
        --sizes 1000,5000,20000,50000,100000 --out benchmarks/results/observe_peers.json

The machine is shared (2 cores, ~8 developers): absolute times are inflated; compare ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_PAGES = next((p / "shared" / "corpus" / "realpages" for p in Path(__file__).resolve().parents if (p / "shared" / "corpus" / "realpages").is_dir()), Path("shared/corpus/realpages"))
if not DEFAULT_PAGES.is_dir():
    DEFAULT_PAGES = Path("/work/shared/corpus/realpages")
TOOLS = ("pagelens", "walker", "walker-base", "browsergym", "browser-use", "playwright")
B = "@b"  # the suffix of a tool's worker on --chromium-b
GENERIC_GOAL = "Find the request form, fill in the message and send it"


def _tree(root: int) -> list[int]:
    """``root`` and its descendants (from /proc)."""
    from compare_browsergym import _descendants

    return [root, *_descendants(root)]


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().decode("utf-8", "replace").split("\0")
    except OSError:
        return []


_PAGE = os.sysconf("SC_PAGE_SIZE")


class Sampler:
    """Peak memory of a process tree while armed (see the module docstring), read from /proc."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak: dict[str, int] = {}
        self._on = threading.Event()
        self._stop = threading.Event()
        self._pids: list[int] = [pid]
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self, slow: bool) -> dict[str, int]:
        from compare_browsergym import _comm, _pss_kb

        if slow:
            self._pids = _tree(self.pid)
        out = {"worker_rss": 0, "helper_rss": 0, "chromium_rss": 0, "renderer_rss_max": 0}
        if slow:
            out["chromium_pss"] = 0
        for pid in self._pids:
            rss = _rss(pid)
            if pid == self.pid:
                out["worker_rss"] = rss
            elif "chrom" in _comm(pid).lower():
                out["chromium_rss"] += rss
                # Chromium rewrites its argv into one space-separated string: search the joined text
                if "--type=renderer" in " ".join(_cmdline(pid)):
                    out["renderer_rss_max"] = max(out["renderer_rss_max"], rss)
                if slow:
                    out["chromium_pss"] += _pss_kb(pid) * 1024
            else:
                out["helper_rss"] += rss
        return out

    def _fold(self, s: dict[str, int]) -> None:
        for k, v in s.items():
            self.peak[k] = max(self.peak.get(k, 0), v)
        pss = s.get("chromium_pss", self._last_pss)
        self._last_pss = pss
        self.peak["total"] = max(self.peak.get("total", 0), s["worker_rss"] + s["helper_rss"] + pss)

    def _run(self) -> None:
        i = 0
        while not self._stop.is_set():
            if self._on.wait(0.2) and not self._stop.is_set():
                self._fold(self._sample(slow=i % 10 == 0))
                i += 1
                time.sleep(0.05)

    def arm(self) -> dict[str, int]:
        self._last_pss = 0
        before = self._sample(slow=True)
        self.peak = {}
        self._fold(before)
        self._on.set()
        return before

    def disarm(self) -> dict[str, int]:
        self._on.clear()
        time.sleep(0.06)  # let a sample in flight land
        self._fold(self._sample(slow=True))
        return dict(self.peak)

    def close(self) -> None:
        self._stop.set()
        self._on.set()


class Worker:
    """One tool's worker process; requests with an outside deadline."""

    def __init__(self, tool: str, python: str, chromium: str, logdir: Path, env: dict[str, str]) -> None:
        self.tool, self.python, self.chromium, self.logdir, self.env = tool, python, chromium, logdir, env
        self.proc: subprocess.Popen[str] | None = None
        self.versions: dict[str, str] = {}
        self.unavailable: str | None = None
        self.restarts = -1

    def start(self, timeout: float = 180.0) -> None:
        self.restarts += 1
        log = (self.logdir / f"{self.tool}.log").open("a")
        self.proc = subprocess.Popen([self.python, str(HERE / "peer_workers.py"), self.tool.removesuffix(B), "--chromium", self.chromium],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                                     env=self.env, start_new_session=True)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self._lines), daemon=True).start()
        self.sampler = Sampler(self.proc.pid)
        msg = self._next(timeout)
        if msg is None or not msg.get("ready"):
            self.unavailable = (msg or {}).get("error", "the worker did not start")
            self.stop()
        else:
            self.versions = msg.get("versions", {})

    @staticmethod
    def _read(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def _next(self, timeout: float) -> dict[str, Any] | None:
        try:
            line = self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        return json.loads(line) if line else None

    def observe(self, url: str, goal: str, deadline_s: float, out: str) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        if self.unavailable:
            return {"ok": False, "error": f"unavailable: {self.unavailable}"}
        assert self.proc is not None and self.proc.stdin is not None
        before = self.sampler.arm()
        self.proc.stdin.write(json.dumps({"url": url, "goal": goal, "deadline_s": deadline_s, "out": out}) + "\n")
        self.proc.stdin.flush()
        loaded = self._next(180.0)
        if loaded is None or not loaded.get("loaded"):
            self.sampler.disarm()
            if loaded is not None and "ok" in loaded:
                return {**loaded, "stage": "load"}
            self.stop()
            return {"ok": False, "error": "the page did not load within 180 s (worker restarted)", "stage": "load"}
        started = time.perf_counter()
        res = self._next(deadline_s + max(10.0, deadline_s / 2))  # observe has the deadline; focus the slack
        peak = self.sampler.disarm()
        if res is None:
            waited = time.perf_counter() - started
            self.stop()
            res = {"ok": False, "timeout": True, "error": f"no observation within {waited:.0f} s (deadline "
                   f"{deadline_s:g} s): worker and browser killed"}
        return {**res, "load_s": loaded.get("load_s"), "mem_before": before, "mem_peak": peak}

    def stop(self) -> None:
        if self.proc is None:
            return
        pids = _tree(self.proc.pid)
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for pid in pids:  # only this worker's own tree, by pid
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.sampler.close()
        self.proc = None


def goals(pages: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in (HERE / "data" / "realpage_goals.jsonl").read_text().splitlines():
        rec = json.loads(line)
        out.setdefault(rec["page"], rec["goal"])
    return {p: out.get(Path(p).stem, GENERIC_GOAL) for p in pages}


def _median(vals: list[float]) -> float | None:
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def summarize(target: dict[str, Any], runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    from pagelens import tokens

    row: dict[str, Any] = {**target, "tools": {}}
    for tool, rs in runs.items():
        ok = [r for r in rs if r.get("ok")]
        entry: dict[str, Any] = {
            "n_ok": len(ok), "n": len(rs), "errors": [r["error"] for r in rs if not r.get("ok")],
            "timeouts": sum(1 for r in rs if r.get("timeout")),
            "observe_s": _median([r["observe_s"] for r in ok]), "total_s": _median([r["total_s"] for r in ok]),
            "focus_s": _median([r["focus_s"] for r in ok]),
            "peak_mb": {k: max(r["mem_peak"].get(k, 0) for r in rs if "mem_peak" in r) / 2**20
                        for k in ("total", "worker_rss", "helper_rss", "chromium_rss", "renderer_rss_max", "chromium_pss")}
            if any("mem_peak" in r for r in rs) else {},
        }
        if ok:
            last = ok[-1]
            for kind in ("full", "sent"):
                text = Path(last["texts"][kind]).read_text(encoding="utf-8")
                entry[f"{kind}_tokens"] = tokens.count(text)
                entry[f"{kind}_lines"] = text.count("\n") + 1 if text else 0
            for k in ("nodes", "elements", "stages"):
                if k in last:
                    entry[k] = last[k]
        row["tools"][tool] = entry
    t = row["tools"]

    def ratio(a: str, ka: str, b: str, kb: str) -> float | None:
        x, y = t.get(a, {}).get(ka), t.get(b, {}).get(kb)
        return x / y if x is not None and y else None

    row["ratios"] = {}
    for sfx in ("", B):  # each binary's tools against the same binary's peers
        if not any(name.endswith(B) for name in t) and sfx:
            continue
        row["ratios"].update({f"{a}{sfx}_{kind}/{b}{sfx}": ratio(a + sfx, f"{kind}_s", b + sfx, "observe_s")
                              for a in ("pagelens", "walker", "walker-base") for b in ("browsergym", "browser-use", "playwright")
                              for kind in ("observe", "total")})
        for kind in ("observe", "total"):
            row["ratios"][f"walker{sfx}_{kind}/walker-base{sfx}"] = ratio("walker" + sfx, f"{kind}_s", "walker-base" + sfx, f"{kind}_s")
    for name in t:  # the second binary against the first, tool by tool
        first = name.removesuffix(B)
        if first != name and first in t:
            for kind in ("observe", "total"):
                row["ratios"][f"{name}_{kind}/{first}"] = ratio(name, f"{kind}_s", first, f"{kind}_s")
            pa, pb = t[first].get("peak_mb", {}).get("total"), t[name].get("peak_mb", {}).get("total")
            row["ratios"][f"{name}_peak/{first}"] = pb / pa if pa and pb else None
    return row


def run(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    from gen_pages import write_pages

    from pagelens.browser.serve import StaticServer

    work = Path(tempfile.mkdtemp(prefix="pl-peers-"))
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    pythons = {"pagelens": sys.executable, "walker": sys.executable, "browsergym": sys.executable,
               "browser-use": args.bu_python, "playwright": args.pw_python, "walker-base": sys.executable}
    if "walker-base" in args.tools and not args.base_src:
        raise SystemExit("--tools walker-base needs --base-src DIR (the src folder of the baseline checkout)")
    workers: dict[str, Worker] = {}
    skipped: dict[str, str] = {}
    binaries = [("", args.chromium)] + ([(B, args.chromium_b)] if args.chromium_b else [])
    for tool, (sfx, chromium) in ((t, b) for t in args.tools for b in binaries):
        name = tool + sfx
        if not Path(pythons[tool]).exists():
            skipped[name] = f"no venv at {pythons[tool]}"
            continue
        w = Worker(name, pythons[tool], chromium, work,
                   {**env, "PYTHONPATH": str(Path(args.base_src).resolve())} if tool == "walker-base" else env)
        w.start()
        if w.unavailable:
            skipped[name] = w.unavailable
        else:
            workers[name] = w
    print(f"# tools: {sorted(workers)}; skipped: {skipped}; logs in {work}", file=sys.stderr, flush=True)
    corpus = sorted(p.name for p in args.pages.glob(args.only))[: args.limit] if args.limit else []
    gen = write_pages(args.sizes, work / "gen") if args.sizes else []
    g = goals(corpus)
    rows: list[dict[str, Any]] = []
    started = time.time()
    with StaticServer(args.pages) as corpus_srv, StaticServer(work / "gen") as gen_srv:
        targets = [{"page": p, "kind": "corpus", "url": corpus_srv.url(p), "goal": g[p], "reps": args.reps,
                    "deadline": args.deadline} for p in corpus]
        targets += [{"page": p.name, "kind": "generated", "elements": n, "url": gen_srv.url(p.name), "goal": GENERIC_GOAL,
                     "reps": args.reps if n < 50_000 else args.big_reps, "deadline": args.size_deadline}
                    for n, p in zip(args.sizes, gen)]
        if targets:  # one untimed observation per worker first: imports, caches, CDP domains, ranker set-up
            for tool, w in workers.items():
                w.observe(targets[0]["url"], targets[0]["goal"], targets[0]["deadline"], str(work / f"warmup.{tool}"))
        for i, target in enumerate(targets):
            runs: dict[str, list[dict[str, Any]]] = {t: [] for t in workers}
            for rep in range(target["reps"]):
                order = list(workers)
                order = order[rep % len(order):] + order[: rep % len(order)]  # rotate the order each rep
                for tool in order:
                    out = str(work / "texts" / f"{target['page']}.{tool}")
                    Path(out).parent.mkdir(parents=True, exist_ok=True)
                    res = workers[tool].observe(target["url"], target["goal"], target["deadline"], out)
                    res["rep"] = rep
                    runs[tool].append(res)
            row = summarize({k: v for k, v in target.items() if k != "url"}, runs)
            row["load_avg"] = os.getloadavg()[0]
            rows.append(row)
            brief = {t: (e["total_s"] and round(e["total_s"], 2), e["errors"][:1]) for t, e in row["tools"].items()}
            print(f"[{i + 1}/{len(targets)}] {target['page']}: {brief}", file=sys.stderr, flush=True)
            if args.out:
                args.out.write_text(json.dumps({"partial": True, "rows": rows}, indent=1))
    versions = {t: w.versions for t, w in workers.items()}
    restarts = {t: w.restarts for t, w in workers.items()}
    for w in workers.values():
        w.stop()
    from pagelens import tokens

    meta = {"command": " ".join([Path(sys.executable).name, *sys.argv]), "versions": versions, "skipped": skipped,
            "worker_restarts": restarts, "chromium": args.chromium, "chromium_b": args.chromium_b,
            "token_counter": tokens.backend(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)), "duration_s": time.time() - started,
            "cpus": os.cpu_count(), "load_avg_end": os.getloadavg()}
    return {"meta": meta, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    from observe_peers_report import markdown

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    ap.add_argument("--only", default="*.html")
    ap.add_argument("--limit", type=int, default=49, help="first N corpus pages (0: none)")
    ap.add_argument("--sizes", default="1000,5000,20000,50000,100000", help="generated page sizes ('' for none)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--big-reps", type=int, default=1, help="repetitions for generated pages of 50k elements and more")
    ap.add_argument("--deadline", type=float, default=60.0, help="seconds per observation, corpus pages")
    ap.add_argument("--size-deadline", type=float, default=180.0, help="seconds per observation, generated pages")
    ap.add_argument("--tools", help="comma-separated, of: " + ", ".join(TOOLS)
                    + " (default: all; walker-base only with --base-src)")
    ap.add_argument("--chromium", default=os.environ.get("PAGELENS_CHROMIUM", "/usr/lib/chromium/chromium"))
    ap.add_argument("--chromium-b", help="a second Chromium binary: every tool also runs on it, as TOOL@b, alternated")
    ap.add_argument("--bu-python", default="/work/venvs/bu/bin/python")
    ap.add_argument("--pw-python", default="/work/venvs/pw/bin/python")
    ap.add_argument("--base-src", help="src folder of the baseline checkout (tool walker-base)")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--report", type=Path, help="only print the tables of an earlier --out file")
    args = ap.parse_args(argv)
    if args.report:
        print(markdown(json.loads(args.report.read_text())))
        return 0
    args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.tools is None:  # every tool this run can have: the baseline walker needs a baseline
        args.tools = ",".join(t for t in TOOLS if t != "walker-base" or args.base_src)
    args.tools = [t for t in args.tools.split(",") if t]
    if bad := [t for t in args.tools if t not in TOOLS]:
        ap.error(f"unknown tools {bad}; choose from {', '.join(TOOLS)}")
    result = run(args)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1))
    print(markdown(result))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    raise SystemExit(main())

"""Where observation time goes, per stage and per page size (issue 13, item 1).

For generated pages of N elements (and optionally corpus pages), in one run with the order
alternating per repetition:
  * pagelens' CDP reference path: ``obs.timings`` (probe, axtree, snapshot, build) + render;
  * Playwright's in-page ARIA snapshot (``page.locator('body').aria_snapshot()``), run by a
    separate venv with a current Playwright (``--pw-python``, default /work/venvs/pw/bin/python),
    on the same Chromium: the in-page baseline a walker has to match.

    PYTHONPATH=src .venv/bin/python benchmarks/observe_stages.py --sizes 1000,5000,20000 --reps 2 \
        --out benchmarks/results/observe_stages.json

Every figure is wall time on the shared machine (load average is recorded); compare ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_ARIA = r"""
import sys, time, json
from playwright.sync_api import sync_playwright
url, exe = sys.argv[1], sys.argv[2]
with sync_playwright() as pw:
    b = pw.chromium.launch(executable_path=exe, args=['--no-sandbox','--disable-gpu',
        '--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run','--disable-quic'])
    page = b.new_page(viewport={'width': 1280, 'height': 720})
    page.goto(url)
    t = time.perf_counter()
    snap = page.locator('body').aria_snapshot(timeout=600_000)
    print(json.dumps({'aria_s': time.perf_counter() - t, 'lines': snap.count('\n') + 1}))
    b.close()
"""


def generated(n: int, folder: Path) -> Path:
    """A listing page with ``n`` elements: li > (link, text, button), in sections of 100."""
    items = n // 3
    parts = ["<html><head><title>Generated</title></head><body><h1>Generated page</h1>"]
    for s in range(0, items, 100):
        parts.append(f"<section><h2>Section {s // 100}</h2><ul>")
        for i in range(s, min(items, s + 100)):
            parts.append(f"<li><a href='#i{i}'>Item {i}</a> price {i % 97}.99 <button>Buy {i}</button></li>")
        parts.append("</ul></section>")
    parts.append("</body></html>")
    path = folder / f"gen-{n}.html"
    path.write_text("".join(parts))
    return path


def pagelens_once(path: Path, timeout_s: float, extraction: str = "cdp") -> dict[str, float | int | str]:
    from pagelens.browser.serve import serve_file
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig
    from pagelens.observe.render import render

    config = BrowserConfig(extract_timeout_s=timeout_s, extraction=extraction)  # type: ignore[arg-type]
    with serve_file(path) as url, BrowserSession(config) as session, session.episode() as ep:
        ep.goto(url)
        t = time.perf_counter()
        try:
            obs = ep.observe()
        except Exception as exc:  # noqa: BLE001 - a timeout is a figure too
            return {"error": str(exc)[:200], "observe_s": time.perf_counter() - t}
        observe_s = time.perf_counter() - t
        t = time.perf_counter()
        lines = len(render(obs).lines)
        render_s = time.perf_counter() - t
        from pagelens.focus.view import focus_view

        t = time.perf_counter()
        focus_view(obs, goal="find the cheapest item and buy it")
        focus_s = time.perf_counter() - t
    return {"observe_s": observe_s, "render_s": render_s, "focus_s": focus_s, "nodes": len(obs.nodes), "lines": lines,
            **{f"{k}_s": v for k, v in obs.timings.items()}}


def aria_once(path: Path, pw_python: str, exe: str, timeout_s: float) -> dict[str, float | int | str]:
    try:
        res = subprocess.run([pw_python, "-c", _ARIA, path.resolve().as_uri(), exe], capture_output=True,
                             text=True, timeout=timeout_s + 60, check=False)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    if res.returncode != 0:
        return {"error": res.stderr.strip().splitlines()[-1][:200] if res.stderr.strip() else "failed"}
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,5000,20000")
    ap.add_argument("--pages", nargs="*", default=[], help="extra HTML files (e.g. corpus pages)")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=300.0, help="per observation")
    ap.add_argument("--pw-python", default="/work/venvs/pw/bin/python")
    ap.add_argument("--chromium", default=os.environ.get("PAGELENS_CHROMIUM", "/usr/lib/chromium/chromium"))
    ap.add_argument("--extraction", default="walker,cdp", help="pagelens extractions to time, in turn (walker, cdp)")
    ap.add_argument("--gen", choices=["mix", "listing"], default="mix",
                    help="generated pages: benchmarks/gen_pages.py's realistic mix (exact element counts) or the old listing")
    ap.add_argument("--out")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pl-stages-"))
    sizes = [int(n) for n in args.sizes.split(",") if n]
    if args.gen == "mix":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from gen_pages import write_pages
        targets = write_pages(sizes, folder)
    else:
        targets = [generated(n, folder) for n in sizes]
    targets += [Path(p) for p in args.pages]
    extractions = [e for e in args.extraction.split(",") if e]
    have_pw = Path(args.pw_python).exists()
    rows = []
    for path in targets:
        tools = [f"pagelens-{e}" for e in extractions] + ["aria"]
        runs: dict[str, list[dict[str, float | int | str]]] = {t: [] for t in tools}
        for rep in range(args.reps):
            order = tools if rep % 2 == 0 else tools[::-1]
            for tool in order:
                if tool.startswith("pagelens-"):
                    runs[tool].append(pagelens_once(path, args.timeout, tool.split("-", 1)[1]))
                elif have_pw:
                    runs[tool].append(aria_once(path, args.pw_python, args.chromium, args.timeout))
        row = {"page": path.name, "runs": runs, "load": os.getloadavg()[0]}
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({"argv": sys.argv, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()

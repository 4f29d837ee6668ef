"""Vision round trips: success, coordinate error, pixel vs DOM change, scoring agreement, latency, tokens.

    PYTHONPATH=src python benchmarks/vision_bench.py [--bundled N] [--out benchmarks/results/vision.json]

1. calibration page at DPR 1/2, capped/uncapped: click_at on every target centre -> CSS error;
2. the bundled vision tasks with the scripted vision policy (hybrid list + OCR): success, coordinate
   error, changes the pixel hash caught that the DOM fingerprint missed (and the reverse), per-step
   hybrid-view latency, image tokens vs the AX tree's tokens, and on the read steps the DOM's
   numbers in the box read vs OCR of it (agree / disagree: the obfuscating font);
3. the clock page: no-op clicks while a clock ticks and a carousel turns -> pixel false fires;
4. answer scoring vs the labeled pairs in benchmarks/data/answer_pairs.jsonl;
5. the bundled multi-step tasks with ScriptedVisionPolicy (coordinates from the hybrid list,
   screenshots + pixel watch on) against ScriptedPolicy without screenshots in the same run
   (every-step observation both; "vision-nopixels": screenshots without the pixel watch): success,
   seconds per step (observe + decide + act), image vs tree tokens per step; on the read tasks, the
   loop's OCR cross-checks of the stop answers (agree / disagree / unseen).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))


def calibration(session: Any) -> dict[str, Any]:
    from pagelens.actions.executor import Executor
    from pagelens.actions.spec import Action
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import Episode
    from pagelens.vision.elements import element_boxes
    from pagelens.browser.screenshot import capture

    errors: list[float] = []
    screen_errors: list[int] = []
    with StaticServer(ROOT / "tests" / "browser" / "pages") as srv:
        for dpr, w, h in [(1, 1440, 810), (2, 1440, 810), (1, 1920, 1080), (2, 1600, 900)]:
            ctx = session.browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=dpr)
            ep = Episode(session, ctx, ctx.new_page())
            try:
                ep.goto(srv.url("vision_calibration.html"))
                geo = capture(ep.page).geometry
                obs = ep.observe()
                ex = Executor(ep)
                ex.screen = geo
                for e in element_boxes(ep.observer.last_sessions, obs, geo):
                    if not e.name.startswith("Target "):
                        continue
                    x, y = e.centre
                    ex.execute(Action("click_at", {"x": x, "y": y}), obs)
                    hit = ep.page.evaluate("window.__hits.pop()")
                    cx, cy = ep.page.evaluate("(id) => { const r = document.getElementById(id).getBoundingClientRect();"
                                              " return [r.left + r.width / 2, r.top + r.height / 2]; }", hit["id"])
                    errors.append(max(abs(hit["x"] - cx), abs(hit["y"] - cy)))
                    sx, sy = geo.to_screen(hit["x"], hit["y"])
                    screen_errors.append(max(abs(sx - x), abs(sy - y)))
            finally:
                ep.close()
    return {"targets": len(errors), "max_css_error_px": max(errors), "max_screenshot_error_px": max(screen_errors)}


def vision_tasks(session: Any) -> dict[str, Any]:
    from pagelens.bench.vision import VISION_TASKS, pages_dir, run_vision_task
    from pagelens.browser.serve import StaticServer

    rows = []
    with StaticServer(pages_dir()) as srv:
        for task in VISION_TASKS:
            r = run_vision_task(task, session, srv.url(""))
            rows.append(r)
    steps = [s for r in rows for s in r.steps]
    errs = [s.coord_error_css for s in steps if s.coord_error_css is not None]
    return {
        "tasks": len(rows), "success": sum(r.success for r in rows),
        "failed": [(r.task, r.detail) for r in rows if not r.success],
        "steps": len(steps), "coordinate_steps_with_intended_point": len(errs),
        "max_coord_error_css_px": max(errs) if errs else None,
        "pixel_changed": sum(s.pixel_changed for s in steps), "dom_changed": sum(s.dom_changed for s in steps),
        "pixel_only": sum(s.pixel_changed and not s.dom_changed for s in steps),
        "dom_only": sum(s.dom_changed and not s.pixel_changed for s in steps),
        "hybrid_s_median": statistics.median(s.screenshot_s for s in steps),
        "hybrid_s_p90": sorted(s.screenshot_s for s in steps)[int(0.9 * (len(steps) - 1))],
        "image_tokens_per_step": statistics.median(s.image_tokens for s in steps),
        "tree_tokens_per_step_median": statistics.median(s.tree_tokens for s in steps),
        "per_task": [{"task": r.task, "success": r.success, "answer": r.answer, "seconds": round(r.seconds, 2),
                      "pixel_only": sum(s.pixel_changed and not s.dom_changed for s in r.steps)} for r in rows],
        # read steps: the DOM's numbers in the box read off the screenshot vs OCR of that box
        "read_steps": sum(1 for t in VISION_TASKS for st in t.plan if st.kind == "read"),
        "dom_ocr_checks": _verdicts(c for r in rows for c in r.checks),
        "dom_ocr_disagreements": [(r.task, c.value, c.screen) for r in rows for c in r.checks if not c.agrees],
    }


def _verdicts(checks: Any) -> dict[str, int]:
    out = {"agree": 0, "disagree": 0, "unseen": 0}
    for c in checks:
        out[c.verdict] += 1
    return out


def clock(session: Any, clicks: int = 20) -> dict[str, Any]:
    from pagelens.actions.executor import Budgets, Executor
    from pagelens.actions.spec import Action
    from pagelens.bench.vision import pages_dir
    from pagelens.browser.serve import StaticServer
    from pagelens.vision.hybrid import capture_hybrid
    from pagelens.vision.mask import HysteresisWatch

    with StaticServer(pages_dir()) as srv, session.episode() as ep:
        ep.goto(srv.url("clock.html"))
        ex = Executor(ep, Budgets(max_steps=1000, max_repeats=1000))
        ex.pixels = HysteresisWatch()
        ex.pixels.arm(ep)
        obs = ep.observe()
        hyb = capture_hybrid(ep, obs)
        ex.screen = hyb.screenshot.geometry
        el = next(e for e in hyb.elements if e.name == "Refresh later")
        act = Action("click_at", {"x": el.centre[0], "y": el.centre[1]})
        ex.execute(act, obs)  # the first click moves focus (a focus ring: a real change)
        fires = 0
        times = []
        for i in range(clicks):
            ep.page.wait_for_timeout(100 + 97 * (i % 7))  # land the clicks at different clock phases
            t = time.perf_counter()
            fb = ex.execute(act, obs)
            times.append(time.perf_counter() - t)
            fires += int(fb.detail.get("pixel_cells", 0) > 0)
        # the same clicks without the pixel watch: its cost per action
        ex.pixels = None
        plain = []
        for _ in range(clicks):
            t = time.perf_counter()
            ex.execute(act, obs)
            plain.append(time.perf_counter() - t)
    return {"noop_clicks": clicks, "pixel_false_fires": fires, "masked_cells": "learnt while idle",
            "execute_s_median_with_pixels": round(statistics.median(times), 4),
            "execute_s_median_without": round(statistics.median(plain), 4)}


def scoring() -> dict[str, Any]:
    from pagelens.vision.scoring import score_answer

    rows = [json.loads(x) for x in (ROOT / "benchmarks/data/answer_pairs.jsonl").read_text().splitlines() if x.strip()]
    agree = [score_answer(r["expected"], r["got"]).ok == r["label"] for r in rows]
    return {"pairs": len(rows), "agree": sum(agree),
            "disagreements": [r for r, a in zip(rows, agree) if not a]}


def bundled(session: Any, limit: int) -> dict[str, Any]:
    from pagelens.bench.bind import run_bundled
    from pagelens.agent.policy import ScriptedPolicy
    from pagelens.agent.vision_policy import ScriptedVisionPolicy
    from pagelens.bench.sites import start_sites
    from pagelens.bench.task_defs import load_tasks
    from pagelens.browser.screenshot import ScreenshotConfig

    tasks = [t for t in load_tasks(0) if "+" not in t.id][:limit]
    out: dict[str, Any] = {"tasks": len(tasks)}
    with start_sites(0) as sites:
        for label in ("tree", "vision-nopixels", "vision"):
            ok = 0
            per_step: list[float] = []
            coords = fallbacks = img = tree = steps_n = 0
            failed = []
            ocr: list[Any] = []  # the loop's OCR checks of read_text values and stop answers (read tasks)
            ocr_s: list[float] = []
            for t in tasks:
                seeing = label.startswith("vision")
                policy: Any = ScriptedVisionPolicy(t.plan) if seeing else ScriptedPolicy(t.plan)
                t0 = time.perf_counter()
                r = run_bundled(t, policy=policy, observe_mode="every-step", retriever="full", sites=sites,
                             session=session, vision=ScreenshotConfig() if seeing else None,
                             pixels=label == "vision")
                dt = time.perf_counter() - t0
                ok += r.success
                if not r.success:
                    failed.append((t.id, r.status, r.detail[:120]))
                per_step.append(dt / max(1, len(r.steps)))
                steps_n += len(r.steps)
                img += sum(s.image_tokens for s in r.steps)
                tree += sum(s.obs_tokens for s in r.steps)
                if seeing:
                    coords += policy.coordinate_actions
                    fallbacks += len(policy.fallbacks)
                    if t.kind == "read":
                        ocr.extend((t.id, c) for st in r.steps for c in st.ocr)
            out[label] = {"success": ok, "failed": failed, "steps": steps_n,
                          "seconds_per_step_median": round(statistics.median(per_step), 3),
                          "image_tokens_per_step": round(img / max(1, steps_n), 1),
                          "tree_tokens_per_step": round(tree / max(1, steps_n), 1)}
            if seeing:
                out[label].update(coordinate_actions=coords, element_fallbacks=fallbacks,
                                  read_tasks=sum(t.kind == "read" for t in tasks),
                                  ocr_checks=_verdicts(c for _, c in ocr),
                                  ocr_not_agreeing=[(tid, c.source, c.value, c.verdict, c.screen) for tid, c in ocr
                                                    if not c.agrees])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundled", type=int, default=100, help="at most this many bundled tasks (0: skip)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/vision.json"))
    args = ap.parse_args()
    from pagelens.browser.session import BrowserSession

    result: dict[str, Any] = {}
    with BrowserSession() as session:
        result["calibration"] = calibration(session)
        print("calibration", result["calibration"], flush=True)
        result["vision_tasks"] = vision_tasks(session)
        print("vision_tasks", {k: v for k, v in result["vision_tasks"].items() if k != "per_task"}, flush=True)
        result["clock"] = clock(session)
        print("clock", result["clock"], flush=True)
        result["scoring"] = scoring()
        print("scoring", result["scoring"], flush=True)
        if args.bundled:
            result["bundled"] = bundled(session, args.bundled)
            print("bundled", result["bundled"], flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1, default=str))


if __name__ == "__main__":
    main()

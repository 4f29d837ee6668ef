"""The injection defense on clean and injected pages: flagged lines, markers retained, latency.

Every page is rendered once with pagelens (real Chromium, pages served from 127.0.0.1, regions
from :mod:`pagelens.observe.provenance`) and cached as a pickled ``Rendering`` (regions kept);
the defense then runs on the cached renderings, so the figures are about the detector alone.

Sets:

* ``corpus``   — the real pages in ../shared/corpus/realpages (clean);
* ``sites``    — every page the bundled cases and tasks start on, without injection (clean);
* ``miniwob``  — every page of the ``miniwob`` package's html folder (clean);
* ``injected`` — the project's injected cases (``cases.jsonl`` with an ``injection``): whether the
  marker survives ``default`` focusing, with and without the defense.

    PYTHONPATH=src .venv/bin/python benchmarks/defense_fp.py [--set corpus --set sites ...]
        [--cache runs/defense-cache] [--json out.json] [--show-flags]
    PYTHONPATH=src .venv/bin/python benchmarks/defense_fp.py --provenance runs/realpages --baseline OLD/src --rounds 3

Flagged lines on clean pages are false positives by construction (nobody wrote an attack there);
``--show-flags`` prints them for reading. When this checkout has :mod:`pagelens.focus.notices`, the new
side is timed as the focus stage runs the defense — the detector, then the notices the agent did not open
folded — and ``folded_lines`` counts the lines folded (no page was opened by an agent here: every dialog,
pop-up and live region counts as unopened). The baseline is timed as its focus stage ran it.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: the corpus in the nearest ancestor's shared/ (beside the checkout, or beside a worktree's parent)
CORPUS = next((p / "shared" / "corpus" / "realpages" for p in Path(__file__).resolve().parents if (p / "shared" / "corpus" / "realpages").is_dir()), Path("shared/corpus/realpages"))
SETS = ("corpus", "sites", "miniwob", "injected")


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _cached(cache: Path, key: str, make: Callable[[], Any]) -> Any:
    path = cache / (key.replace("/", "_").replace("?", "_").replace("&", "_").replace(":", "_")[:180] + ".pkl")
    if path.is_file():
        return pickle.loads(path.read_bytes())
    value = make()
    path.write_bytes(pickle.dumps(value))
    return value


def _pages(which: str, corpus: Path) -> Iterator[tuple[str, str, Any]]:
    """(key, kind, spec): kind is 'file' (path, served statically), 'site' (site: spec) or 'case'."""
    from pagelens.bench.cases import load_cases
    from pagelens.bench.cases import bundled_paths

    cases_path, pages_dir = bundled_paths()
    cases = load_cases(cases_path)
    if which == "corpus":
        for p in sorted(corpus.glob("*.html")):
            yield f"corpus/{p.stem}", "file", p
    elif which == "sites":
        from pagelens.bench.task_defs import load_tasks

        seen: set[str] = set()
        specs = [c.page for c in cases if c.injection is None] + [t.start for t in load_tasks(0) if not t.injection]
        for spec in specs:
            if spec in seen:
                continue
            seen.add(spec)
            yield f"sites/{spec}", ("site" if spec.startswith("site:") else "file"), (
                spec if spec.startswith("site:") else pages_dir / spec)
    elif which == "miniwob":
        import miniwob

        html = Path(miniwob.__file__).parent / "html" / "miniwob"
        for p in sorted(html.glob("*.html")):
            yield f"miniwob/{p.stem}", "file", p
    elif which == "injected":
        for c in cases:
            if c.injection is not None:
                yield f"injected/{c.id}", "case", c


def capture(which: str, cache: Path, corpus: Path, settle_s: float) -> dict[str, Any]:
    """key -> Rendering (or Case, Rendering) for one set; renders what is not cached."""
    from contextlib import ExitStack

    from pagelens.api import render_observation
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession

    cache.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {}
    with ExitStack() as stack:
        state: dict[str, Any] = {}

        def session() -> BrowserSession:
            if "session" not in state:
                state["session"] = stack.enter_context(BrowserSession())
            return state["session"]

        def static(root: Path) -> StaticServer:
            key = f"static:{root}"
            if key not in state:
                state[key] = stack.enter_context(StaticServer(root))
            return state[key]

        def sites() -> Any:
            from pagelens.bench.sites import start_sites

            if "sites" not in state:
                state["sites"] = stack.enter_context(start_sites(seed=0))
            else:
                state["sites"].reset()
            return state["sites"]

        for key, kind, spec in _pages(which, corpus):
            def make(kind: str = kind, spec: Any = spec) -> Any:
                t = time.perf_counter()
                if kind == "case":
                    from pagelens.bench.evalcases import _PageLoader

                    if "loader" not in state:
                        _, pages_dir = __import__("pagelens.bench.cases", fromlist=["x"]).bundled_paths()
                        state["loader"] = _PageLoader(stack, pages_dir, session(), settle_s)
                    obs = state["loader"].observe(spec)
                    value: Any = (spec, render_observation(obs))
                else:
                    if kind == "site":
                        from pagelens.bench.sites import resolve_site_url

                        url = resolve_site_url(sites(), spec)
                    else:
                        url = static(Path(spec).parent).url(Path(spec).name)
                    with session().episode() as ep:
                        try:
                            ep.goto(url)
                        except Exception as exc:  # noqa: BLE001 - a page that cannot load is reported, not fatal
                            print(f"  {key}: {exc}", file=sys.stderr)
                            return None
                        if settle_s:
                            ep.page.wait_for_timeout(settle_s * 1000)
                        value = render_observation(ep.observe())
                print(f"rendered {key} ({time.perf_counter() - t:.1f} s)", file=sys.stderr)
                return value

            try:
                got = _cached(cache, key, make)
            except Exception as exc:  # noqa: BLE001
                print(f"  {key}: {type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            if got is not None:
                out[key] = got
    return out


def load_baseline(src: Path) -> Callable[..., Any]:
    """``detect`` of another checkout's defense (e.g. the branch point: ``git archive <commit> src``),
    so that the baseline is measured in the same run, on the same renderings, under the same load.

    Every module of that tree's ``pagelens.focus`` package that its defense imports (evidence, lexicons, patterns,
    notices, contradicts ...) is its own: the package's modules are unbound while the baseline's defense is imported
    from the other tree, then this checkout's are bound again, so that neither side runs the other's code or shares
    its caches (the baseline's modules keep their names: their functions' globals tell them apart). The returned
    callable's ``fold`` is that tree's ``notices.fold`` (None without one)."""
    import importlib

    import pagelens.focus as package

    focus_dir = src / "pagelens" / "focus"
    prefix = "pagelens.focus."
    saved = {k: m for k, m in sys.modules.items() if k.startswith(prefix)}
    attrs = {k: getattr(package, k) for k in list(vars(package)) if prefix + k in saved}
    path = list(package.__path__)
    try:
        for k in saved:
            del sys.modules[k]
        for k in attrs:
            delattr(package, k)
        package.__path__[:] = [str(focus_dir)]
        old = importlib.import_module(prefix + "defense")
        notices = sys.modules.get(prefix + "notices")
    finally:
        for k in [k for k in sys.modules if k.startswith(prefix)]:
            del sys.modules[k]
        for k in list(vars(package)):
            if isinstance(getattr(package, k), types.ModuleType) and getattr(package, k).__name__.startswith(prefix):
                delattr(package, k)
        sys.modules.update(saved)
        for k, v in attrs.items():
            setattr(package, k, v)
        package.__path__[:] = path
    sys.modules["_baseline_defense"] = old  # _clear_caches finds the baseline's caches through this name

    def detect(r: Any, goal: str | None = None) -> Any:
        return old.detect(r, goal)

    detect.__module__ = "_baseline_defense"
    detect.fold = getattr(notices, "fold", None)  # type: ignore[attr-defined]
    detect.home_domains = old.home_domains  # type: ignore[attr-defined]
    return detect


def _clear_caches(detect: Callable[..., Any]) -> None:
    """Empty the detector's memo caches (functools caches of its module, the modules it imported and those its
    functions come from), so that each timed pass starts cold and a second pass is not helped by the first."""
    import functools

    mod = sys.modules.get(getattr(detect, "__module__", ""), None)
    if mod is None:
        return
    # its own namespace, the modules it imported, and the modules its imported functions were defined in (a memo
    # behind a plain function: ``evidence`` -> ``_memo``), read from the functions' globals so that a baseline's
    # copies (loaded under the same module names, then unbound) are found too; pagelens' code only
    spaces = {id(vars(mod)): vars(mod)}
    for obj in list(vars(mod).values()):
        space = vars(obj) if isinstance(obj, types.ModuleType) else getattr(getattr(obj, "__wrapped__", obj),
                                                                             "__globals__", None)
        if space is not None and str(space.get("__name__", "")).startswith(("pagelens", "_baseline")):
            spaces.setdefault(id(space), space)
    for space in spaces.values():
        for o in list(space.values()):
            if isinstance(o, functools._lru_cache_wrapper):
                o.cache_clear()


def with_notices(detect: Callable[..., Any]) -> Callable[..., Any]:
    """``detect`` followed by the notice fold, as ``focus.apply`` runs the defense; the lines it folded are
    counted in the returned callable's ``folded`` dict (rendering id -> lines)."""
    if hasattr(detect, "fold"):  # a baseline's detector (load_baseline): its own tree's fold and home domains
        fold, home_domains = detect.fold, detect.home_domains
        if fold is None:
            return detect
    else:
        try:
            from pagelens.focus.notices import fold
        except ImportError:  # a checkout without it
            return detect
        from pagelens.focus.defense import home_domains
    from pagelens.focus.apply import removal_set

    folded: dict[int, int] = {}

    def run(r: Any, goal: str | None = None) -> Any:
        flags = detect(r, goal) if goal is not None else detect(r)
        hidden, _ = removal_set(r, flags)
        folded[id(r)] = len(fold(r.lines, None, home=lambda: home_domains(r), hidden=hidden).folded)
        return flags

    run.folded = folded  # type: ignore[attr-defined]
    run.__module__ = detect.__module__  # its caches are the detector's (see _clear_caches)
    return run


def clean_figures(renderings: dict[str, Any], show: bool, detect: Callable[..., Any] | None = None,
                  times: dict[str, float] | None = None) -> dict[str, Any]:
    if detect is None:
        from pagelens.focus.defense import detect

        detect = with_notices(detect)

    _clear_caches(detect)
    flagged_pages = 0
    flagged_lines = 0
    lines = 0
    ms: list[float] = []
    by_region: dict[str, int] = {}
    for key, r in renderings.items():
        t = time.process_time()  # CPU time: less inflated by the crowded machine than wall time
        flags = detect(r)
        ms.append((time.process_time() - t) * 1000)
        if times is not None:  # the fastest of the rounds, per page (the least disturbed by other load)
            times[key] = min(times.get(key, ms[-1]), ms[-1])
        lines += len(r.lines)
        nos = {f.line for f in flags}
        flagged_lines += len(nos)
        flagged_pages += bool(nos)
        for ln in r.lines:
            if ln.no in nos:
                by_region[ln.region] = by_region.get(ln.region, 0) + 1
        if show and flags:
            for f in flags:
                print(f"  FP {key} line {f.line} [{f.kind}] {f.reason}: {f.excerpt[:140]!r}")
    folded = getattr(detect, "folded", None)
    extra = {} if folded is None else {"folded_lines": sum(folded.values()),
                                       "folded_pages": sum(1 for v in folded.values() if v)}
    return {"pages": len(renderings), "lines": lines, "flagged_lines": flagged_lines, "flagged_pages": flagged_pages,
            "flagged_by_region": by_region, "p50_ms": round(_pct(ms, 0.5), 2), "p95_ms": round(_pct(ms, 0.95), 2),
            "max_ms": round(max(ms, default=0.0), 2), **extra}


def goal_figures(renderings: dict[str, Any], show: bool, detect: Callable[..., Any] | None = None) -> dict[str, Any]:
    """Flagged lines on the clean corpus pages *with a goal*: goal drift is judged against the goal, so
    its false positives show only when a goal is given. The goals are the development goal sets of
    ``benchmarks/data/realpage_goals.jsonl`` (developer, blind-1, blind-2; never a held-out set)."""
    if detect is None:
        from pagelens.focus.defense import detect

    path = HERE / "data" / "realpage_goals.jsonl"
    goals = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    judged = flagged = 0
    for g in goals:
        r = renderings.get(f"corpus/{g['page']}")
        if r is None:
            continue
        judged += 1
        flags = detect(r, g["goal"])
        flagged += len({f.line for f in flags})
        if show:
            for f in flags:
                print(f"  FP(goal) {g['page']} {g['goal'][:40]!r} line {f.line} [{f.kind}] {f.excerpt[:120]!r}")
    return {"goals": judged, "flagged_lines": flagged}


def injected_figures(items: dict[str, Any], show: bool, detect: Callable[..., Any] | None = None) -> dict[str, Any]:
    from pagelens.bench.evalcases import focus_case, score_case
    from pagelens.focus import defense as current
    from pagelens.focus.registry import make_retriever

    if detect is not None:  # the baseline's detector inside the same focus()
        saved = current.detect
        current.detect = detect  # type: ignore[assignment]
        try:
            return injected_figures(items, show)
        finally:
            current.detect = saved  # type: ignore[assignment]

    ret = make_retriever("default")
    out: dict[str, Any] = {}
    for defense in (True, False):
        retained, kept, items_n, ms = 0, 0, 0, []
        for key, (case, r) in items.items():
            res = focus_case(r, case, ret, defense=defense)
            row = score_case(case, r, res)
            retained += bool(row["injection_retained"])
            kept += sum(row["kept_items"])
            items_n += len(row["kept_items"])
            ms.append(res.seconds * 1000)
            if show and defense and row["injection_retained"]:
                print(f"  RETAINED {key}: marker {case.injection.marker[:60]!r}")
            if show and defense and row["missing"]:
                print(f"  MISSING {key}: {row['missing']}")
        out["defense" if defense else "no-defense"] = {
            "cases": len(items), "markers_retained": retained, "must_keep_recall": round(kept / max(1, items_n), 3),
            "focus_p50_ms": round(_pct(ms, 0.5), 1), "focus_p95_ms": round(_pct(ms, 0.95), 1)}
    return out


def provenance_figures(obs_dir: Path, baseline: Path | None, rounds: int) -> dict[str, Any]:
    """CPU time of ``render`` and of ``provenance.regions`` on pickled observations (``*.obs.pickle``, e.g. the
    cache of ``realpage_goals.py``), fastest of ``rounds`` per page; with ``baseline``, that tree's provenance on
    the same lines, alternating which goes first, and whether both give the same regions on every line."""
    import importlib.util
    import pickle

    from pagelens.observe import provenance as new
    from pagelens.observe.render import render

    old = None
    if baseline is not None:
        spec = importlib.util.spec_from_file_location("_baseline_provenance",
                                                      baseline / "pagelens" / "observe" / "provenance.py")
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
    pages = sorted(obs_dir.glob("*.obs.pickle"))
    best: dict[str, dict[str, float]] = {"render": {}, "new": {}, "baseline": {}}
    same = lines = 0
    for path in pages:
        obs = pickle.loads(path.read_bytes())
        for k in range(rounds):
            if hasattr(new, "_text_marks"):
                new._text_marks.cache_clear()  # cold: each round starts without the text cache
            t = time.process_time()
            rendered = render(obs).lines
            best["render"][path.name] = min(best["render"].get(path.name, 9e9), time.process_time() - t)
            order = [("new", new), ("baseline", old)] if old is not None else [("new", new)]
            for name, mod in (order if k % 2 else order[::-1]):
                if hasattr(mod, "_text_marks"):
                    mod._text_marks.cache_clear()
                t = time.process_time()
                got = mod.regions(obs, rendered)
                best[name][path.name] = min(best[name].get(path.name, 9e9), time.process_time() - t)
                if k == 0 and name == "new" and old is not None:
                    ref = old.regions(obs, rendered)
                    same += sum(a == b for a, b in zip(got, ref))
                    lines += len(rendered)
    out: dict[str, Any] = {"pages": len(pages), "rounds": rounds}
    for name, b in best.items():
        if b:
            xs = list(b.values())
            out[name] = {"sum_ms": round(sum(xs) * 1000, 1), "p95_ms": round(_pct(xs, 0.95) * 1000, 2),
                         "max_ms": round(max(xs) * 1000, 2), "max_page": max(b, key=lambda k: b[k])}
    if old is not None:
        out["same_region_lines"] = f"{same}/{lines}"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", dest="sets", action="append", choices=SETS)
    ap.add_argument("--cache", type=Path, default=ROOT / "runs" / "defense-cache")
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--settle", type=float, default=0.5)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--show-flags", action="store_true")
    ap.add_argument("--baseline", type=Path, help="a src/ tree whose defense is measured too (same run)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --baseline: time the clean sets this many more rounds, alternating which detector "
                         "goes first, and report p50/p95 of each page's fastest round")
    ap.add_argument("--provenance", type=Path, metavar="OBS_DIR",
                    help="time render and provenance.regions on the pickled observations in OBS_DIR (with --baseline: "
                         "that tree's provenance too) instead of the sets")
    args = ap.parse_args()
    if args.provenance is not None:
        fig = provenance_figures(args.provenance, args.baseline, max(1, args.rounds))
        print("provenance", json.dumps(fig), flush=True)
        if args.json:
            args.json.write_text(json.dumps(fig, indent=2))
        return
    if not args.corpus.is_dir():
        args.corpus = Path("/work/shared/corpus/realpages")
    result: dict[str, Any] = {}
    for which in args.sets or SETS:
        got = capture(which, args.cache, args.corpus, args.settle)
        fig = injected_figures if which == "injected" else clean_figures
        result[which] = fig(got, args.show_flags)
        if which == "corpus":
            result[which]["with_goals"] = goal_figures(got, args.show_flags)
        print(which, json.dumps(result[which]), flush=True)
        if args.baseline:
            base = load_baseline(args.baseline)
            result[f"{which}:baseline"] = fig(got, False, base)
            if which == "corpus":
                result[f"{which}:baseline"]["with_goals"] = goal_figures(got, False, base)
            if which != "injected" and args.rounds > 1:
                from pagelens.focus.defense import detect as plain

                new = with_notices(plain)
                # the baseline as its focus stage ran it: its detector, then its own tree's notices.fold when it has
                # one (read from the same renderings; a tree without focus/notices.py is timed without)
                old = with_notices(base)
                best: dict[str, dict[str, float]] = {"new": {}, "baseline": {}}
                for k in range(args.rounds):
                    order = [("new", new), ("baseline", old)]
                    for name, det in (order if k % 2 else order[::-1]):
                        clean_figures(got, False, det, best[name])
                result[f"{which}:rounds"] = {
                    name: {"rounds": args.rounds, "p50_ms": round(_pct(list(b.values()), 0.5), 2),
                           "p95_ms": round(_pct(list(b.values()), 0.95), 2)} for name, b in best.items()}
                print(f"{which} (fastest of {args.rounds} rounds)", json.dumps(result[f"{which}:rounds"]), flush=True)
                slowest = sorted(best["baseline"], key=lambda k: best["baseline"][k], reverse=True)[:5]
                result[f"{which}:slowest"] = {k: {"baseline_ms": round(best["baseline"][k], 2),
                                                  "new_ms": round(best["new"][k], 2)} for k in slowest}  # (in ms)
                print(f"{which} (slowest five of the baseline, fastest round)", json.dumps(result[f"{which}:slowest"]),
                      flush=True)
            print(f"{which} (baseline)", json.dumps(result[f"{which}:baseline"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

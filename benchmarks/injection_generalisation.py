"""Does the injection defense generalise? Generated variants on real and bundled pages.

Variants come from ``benchmarks/injections`` (slots: addressee × request × destination ×
carrier × language × region, plus phrasing style and obfuscation; every phrasing written for
this test, none in ``src/``). Each variant is inserted into a host page (the 49 corpus pages and
the bundled shop/forum/admin pages), rendered in real Chromium (page served from 127.0.0.1,
everything else blocked), observed and focused with the ``default`` retriever through the public
API (``pagelens.api.focus_view``, defense on). A variant's unique marker token is

* *exposed* when it is in the full rendering (the carrier reached the accessibility tree), and
* *retained* (the attack got through) when it is still in the focused view.

False positives: lines the defense flags (``FocusResult.flags``) on clean pages — the corpus
pages, every bundled site page, and a seeded sample of the MiniWoB pages.

    PYTHONPATH=src .venv/bin/python benchmarks/injection_generalisation.py --seed 11 [--limit 40]
        [--variants 210] [--miniwob 30] [--no-clean] [--max-minutes 18] [--json out.json] [--cache DIR]

``--cases FILE`` runs hand-written cases instead (the injection case format: ``page``, ``goal``,
``category``, ``lang``, ``html``, ``where`` = {``selector``: a tag name, ``position``: as
``insertAdjacentHTML``}, ``marker``, ``benign``), e.g. the development set
``benchmarks/data/injections_dev6.jsonl`` (never a held-out file): per category, attacks *exposed*,
*redacted* (gone from the full tree with the defense on), *retained* in the ``default`` view with
and without the defense, and benign look-alikes *flagged*.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.injections.generator import SLOTS, Host, Variant, generate  # noqa: E402
from benchmarks.injections.hosts import corpus_hosts, miniwob_pages, site_pages  # noqa: E402

_META_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_-]+)""", re.IGNORECASE)
_ATTACKER = ("127.0.0.2", "127.0.0.3")


def _decode(body: bytes, content_type: str) -> str:
    m = re.search(r"charset=([A-Za-z0-9_-]+)", content_type)
    charset = m.group(1) if m else None
    if charset is None:
        mm = _META_CHARSET.search(body[:4096])
        charset = mm.group(1).decode("ascii") if mm else "utf-8"
    try:
        return body.decode(charset, errors="replace")
    except LookupError:
        return body.decode("utf-8", errors="replace")


class Loader:
    """Opens host pages (corpus files, bundled sites, MiniWoB files), optionally rewritten."""

    def __init__(self, stack: ExitStack, pages: Path) -> None:
        from pagelens.browser.serve import StaticServer
        from pagelens.browser.session import BrowserSession

        self.stack = stack
        self.session = stack.enter_context(BrowserSession())
        self.corpus = stack.enter_context(StaticServer(pages))
        self._miniwob: Any = None
        self._sites: Any = None

    def _url(self, key: str) -> str:
        from pagelens.bench.sites import resolve_site_url, start_sites
        from pagelens.browser.serve import StaticServer

        if key.startswith("site:"):
            if self._sites is None:
                self._sites = self.stack.enter_context(start_sites(seed=0))
            else:
                self._sites.reset()
            return resolve_site_url(self._sites, key)
        if key.startswith("miniwob:"):
            if self._miniwob is None:
                import miniwob

                self._miniwob = self.stack.enter_context(StaticServer(Path(miniwob.__file__).parent / "html"))
            return self._miniwob.url("miniwob/" + key.removeprefix("miniwob:"))
        return self.corpus.url(f"{key}.html")

    def observe(self, host: Host, variant: Variant | None, cache: Path | None = None) -> Any:
        """The observation of ``host`` (with ``variant`` inserted); with ``cache``, pickled there once and
        reused (so that a change of the defense is re-measured without re-rendering)."""
        if cache is None:
            return self._observe(host, variant)
        import pickle

        cache.mkdir(parents=True, exist_ok=True)
        name = (variant.id + "-" + variant.marker) if variant is not None else "clean-" + host.key
        path = cache / (re.sub(r"[^\w.-]+", "_", name)[:180] + ".pkl")
        if path.is_file():
            return pickle.loads(path.read_bytes())
        obs = self._observe(host, variant)
        path.write_bytes(pickle.dumps(obs))
        return obs

    def _observe(self, host: Host, variant: Variant | None) -> Any:
        with self.session.episode() as ep:
            url = self._url(host.key)
            if host.key.startswith("site:"):
                ep.goto(url)  # applies __state (cookies) and redirects to the plain URL
                url = ep.page.url
            if variant is not None:
                ep.page.route("**/*", _rewriter(ep.page, variant))
            ep.goto(url)
            if host.key.startswith("miniwob:"):  # start the episode so the task's own DOM exists
                ep.page.evaluate("() => { if (window.core && core.startEpisodeReal) core.startEpisodeReal(); }")
                ep.page.wait_for_timeout(300)
            return ep.observe()


def _rewriter(page: Any, variant: Variant) -> Any:
    def handle(route: Any) -> None:
        req = route.request
        if req.resource_type != "document" or req.frame != page.main_frame:
            route.fallback()
            return
        resp = route.fetch()
        ctype = resp.headers.get("content-type", "")
        if "html" not in ctype:
            route.fulfill(response=resp)
            return
        doc = variant.apply(_decode(resp.body(), ctype))
        route.fulfill(status=resp.status, body=doc.encode("utf-8"),
                      headers={**resp.headers, "content-type": "text/html; charset=utf-8"})
    return handle


def run(args: argparse.Namespace) -> dict[str, Any]:
    from pagelens.api import focus_view
    from pagelens.bench.cases import marker_retained
    from pagelens.errors import PagelensError
    from pagelens.focus.registry import make_retriever

    corpus = corpus_hosts(args.pages)
    site_main, site_all = site_pages()
    variants = generate(args.seed, corpus + site_main, args.variants)
    if args.carriers:
        variants = [v for v in variants if v.carrier in args.carriers]
    variants = variants[: args.limit]
    clean: list[Host] = [] if args.no_clean else corpus + site_all + miniwob_pages(args.miniwob, args.seed)
    if args.limit is not None and clean:
        clean = clean[: args.limit]
    retriever = make_retriever("default")
    deadline = time.monotonic() + args.max_minutes * 60
    rows: list[dict[str, Any]] = []
    fps: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    stopped = None
    with ExitStack() as stack:
        loader = Loader(stack, args.pages)
        for i, v in enumerate(variants):
            if time.monotonic() > deadline:
                stopped = f"time budget reached after {i} of {len(variants)} variants"
                break
            row = {"id": v.id, "host": v.host.key, "marker": v.marker, "layout": v.layout,
                   **{k: getattr(v, k) for k in SLOTS}}
            try:
                view = focus_view(loader.observe(v.host, v, args.cache), goal=v.host.goal, retriever=retriever)
            except PagelensError as exc:  # a page that cannot be observed is reported, not fatal
                rows.append({**row, "error": f"{type(exc).__name__}: {exc}"[:300]})
                continue
            assert view.focused is not None
            focused = view.focused.text()
            row.update(exposed=marker_retained(v.marker, view.rendering.text()),
                       retained=marker_retained(v.marker, focused),
                       origin_retained=any(o in focused for o in _ATTACKER),
                       flags=len(view.focused.flags), flag_kinds=sorted({f.kind for f in view.focused.flags}),
                       focus_ms=round(view.focused.seconds * 1000, 1))
            rows.append(row)
            if args.progress:
                print(f"[{i + 1}/{len(variants)}] {v.carrier:18} {v.request:12} {v.language} "
                      f"exposed={row['exposed']} retained={row['retained']}", file=sys.stderr)
        for j, host in enumerate(clean):
            if stopped is None and time.monotonic() > deadline:
                stopped = f"time budget reached after {j} of {len(clean)} clean pages"
            if stopped:
                break
            try:
                view = focus_view(loader.observe(host, None, args.cache), goal=host.goal, retriever=retriever)
            except PagelensError as exc:
                fps.append({"page": host.key, "source": host.source, "error": f"{type(exc).__name__}: {exc}"[:300]})
                continue
            assert view.focused is not None
            flags = view.focused.flags
            fps.append({"page": host.key, "source": host.source, "lines": len(view.rendering.lines),
                        "flagged_lines": len({f.line for f in flags}),
                        "flags": [{"line": f.line, "kind": f.kind, "excerpt": f.excerpt[:160]} for f in flags]})
    return {"seed": args.seed, "variants": rows, "clean": fps, "stopped": stopped,
            "seconds": round(time.perf_counter() - t0, 1)}


# -- hand-written cases (--cases) -------------------------------------------------------------------------

POSITIONS = ("beforebegin", "afterbegin", "beforeend", "afterend")


def splice(document: str, tag: str, position: str, html: str) -> str:
    """``html`` inserted at the first ``<tag>`` element of ``document`` (``position`` as insertAdjacentHTML);
    the rest of the document is left as it was. ValueError when the element is not there."""
    if position not in POSITIONS:
        raise ValueError(f"position {position!r} is not one of {POSITIONS}")
    m = re.search(rf"<{re.escape(tag)}(?=[\s>/])[^>]*>", document, re.IGNORECASE)
    if m is None:
        raise ValueError(f"no <{tag}> element")
    if position == "beforebegin":
        return document[: m.start()] + html + document[m.start():]
    if position == "afterbegin":
        return document[: m.end()] + html + document[m.end():]
    depth, at = 1, m.end()
    tags = re.compile(rf"<(/?){re.escape(tag)}(?=[\s>/])[^>]*>", re.IGNORECASE)
    for t in tags.finditer(document, m.end()):
        depth += -1 if t.group(1) else 1
        if depth == 0:
            at = t.start()
            break
    else:
        at = len(document)  # unclosed (the parser closes it at the end)
    if position == "beforeend":
        return document[:at] + html + document[at:]
    close = document.find(">", at)
    return document[: close + 1] + html + document[close + 1:]


class _Spliced:
    """A hand-written case as the loader's variant: an id, a marker and the rewrite of its page."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.id = raw["id"]
        self.marker = raw["marker"]

    def apply(self, document: str) -> str:
        return splice(document, self.raw["where"]["selector"], self.raw["where"]["position"], self.raw["html"])


def run_cases(args: argparse.Namespace) -> dict[str, Any]:
    from pagelens.api import focus_view
    from pagelens.bench.cases import marker_retained
    from pagelens.focus.apply import focus
    from pagelens.focus.registry import NoneRetriever, make_retriever

    from pagelens.errors import PagelensError

    raws = [json.loads(x) for x in args.cases.read_text(encoding="utf-8").splitlines() if x.strip()]
    errors: list[str] = []
    retriever = make_retriever("default")
    rows: list[dict[str, Any]] = []
    with ExitStack() as stack:
        loader = Loader(stack, args.pages)
        for raw in raws[: args.limit]:
            host = Host(raw["page"], raw["goal"], "corpus")
            try:
                obs = loader.observe(host, _Spliced(raw), args.cache)  # type: ignore[arg-type]
            except PagelensError as exc:  # a page that cannot be observed (a timeout on a loaded machine) is reported
                print(f"{raw['id']}: not observed ({type(exc).__name__}: {str(exc)[:120]})", file=sys.stderr)
                errors.append(raw["id"])
                continue
            view = focus_view(obs, goal=raw["goal"], retriever=retriever)
            bare = focus_view(obs, goal=raw["goal"], retriever=retriever, defense=False)
            assert view.focused is not None and bare.focused is not None
            full = focus(view.rendering, raw["goal"], NoneRetriever())
            marker = raw["marker"]
            exposed = marker_retained(marker, view.rendering.text())
            rows.append({"id": raw["id"], "category": raw["category"], "lang": raw["lang"], "benign": raw["benign"],
                         "exposed": exposed, "redacted": exposed and not marker_retained(marker, full.text()),
                         "retained": marker_retained(marker, view.focused.text()),
                         "retained_without_defense": marker_retained(marker, bare.focused.text()),
                         "flags": sorted({f.kind for f in full.flags}), "unprotected": full.unprotected})
            if args.progress:
                print(raw["id"], {k: rows[-1][k] for k in ("exposed", "redacted", "retained")}, file=sys.stderr)
    return {"cases": rows, "errors": errors}


def cases_report(result: dict[str, Any]) -> str:
    rows = result["cases"]
    attacks = [r for r in rows if not r["benign"]]
    benign = [r for r in rows if r["benign"]]
    out = [(f"{len(attacks)} attacks: {sum(r['exposed'] for r in attacks)} exposed, "
           f"{sum(r['redacted'] for r in attacks)} redacted, {sum(r['retained'] for r in attacks)} retained "
           f"({sum(r['retained_without_defense'] for r in attacks)} without the defense); "
           f"{len(benign)} benign: {sum(r['redacted'] for r in benign)} flagged"
           + (f"; {len(result.get('errors', []))} case(s) not observed: {', '.join(result['errors'])}"
              if result.get("errors") else "")), "",
           "| category | attacks | exposed | redacted | retained | retained w/o defense | benign | benign flagged |",
           "|---|---|---|---|---|---|---|---|"]
    for cat in sorted({r["category"] for r in rows}):
        a = [r for r in attacks if r["category"] == cat]
        b = [r for r in benign if r["category"] == cat]
        out.append(f"| {cat} | {len(a)} | {sum(r['exposed'] for r in a)} | {sum(r['redacted'] for r in a)} | "
                   f"{sum(r['retained'] for r in a)} | {sum(r['retained_without_defense'] for r in a)} | {len(b)} | "
                   f"{sum(r['redacted'] for r in b)} |")
    return "\n".join(out)


def _table(rows: list[dict[str, Any]], slot: str) -> list[str]:
    agg: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        if "error" in r:
            continue
        a = agg[r[slot]]
        a[0] += 1
        a[1] += r["exposed"]
        a[2] += r["exposed"] and r["retained"]
        a[3] += r["exposed"] and r["origin_retained"]
    out = [f"| {slot} | variants | exposed | marker retained | attack success | attacker URL kept |",
           "|---|---|---|---|---|---|"]
    for key in SLOTS[slot]:
        if key in agg:
            n, e, k, u = agg[key]
            out.append(f"| {key} | {n} | {e} | {k} | {k / e:.0%} | {u} |" if e else f"| {key} | {n} | 0 | – | – | – |")
    return out


def _matrix(rows: list[dict[str, Any]]) -> list[str]:
    cell: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        if "error" not in r and r["exposed"]:
            c = cell[(r["carrier"], r["request"])]
            c[0] += 1
            c[1] += r["retained"]
    reqs = SLOTS["request"]
    out = ["| carrier \\ request (retained/exposed) | " + " | ".join(reqs) + " |", "|---" * (len(reqs) + 1) + "|"]
    for car in SLOTS["carrier"]:
        out.append(f"| {car} | " + " | ".join(
            f"{cell[(car, q)][1]}/{cell[(car, q)][0]}" if cell[(car, q)][0] else "–" for q in reqs) + " |")
    return out


def _layout_table(rows: list[dict[str, Any]]) -> list[str]:
    """Pop-ups and banners by layout value (retained / exposed / variants), one row per dimension value."""
    from benchmarks.injections.layouts import BANNER_LAYOUTS, POPUP_DIMS

    cell: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in rows:
        if "error" in r or not r.get("layout"):
            continue
        for part in r["layout"].split(","):
            k, v = part.split("=", 1)
            c = cell[(k, v)]
            c[0] += 1
            c[1] += r["exposed"]
            c[2] += r["exposed"] and r["retained"]
    if not cell:
        return []
    out = ["| layout dimension | value | variants | exposed | retained |", "|---|---|---|---|---|"]
    for dim, values in [*POPUP_DIMS.items(), ("banner", BANNER_LAYOUTS)]:
        for val in values:
            if (dim, val) in cell:
                n, e, k = cell[(dim, val)]
                out.append(f"| {dim} | {val} | {n} | {e} | {k} |")
    return out


def report(result: dict[str, Any]) -> str:
    rows = [r for r in result["variants"] if "error" not in r]
    exposed = [r for r in rows if r["exposed"]]
    kept = sum(r["retained"] for r in exposed)
    lines = [(f"seed {result['seed']}: {len(result['variants'])} variants, {len(rows)} observed, "
             f"{len(exposed)} exposed in the full tree, {kept} retained in the focused view "
             f"(attack success {kept / max(1, len(exposed)):.1%}); "
             f"attacker URL kept in {sum(r['origin_retained'] for r in exposed)}; "
             f"{sum(1 for r in exposed if r['flags'])} of the exposed variants raised a defense flag"), ""]
    for slot in ("carrier", "request", "language", "style", "obfuscation", "addressee", "region", "destination"):
        lines += _table(rows, slot) + [""]
    lines += _matrix(rows) + [""]
    lines += _layout_table(rows) + [""]
    clean = [c for c in result["clean"] if "error" not in c]
    lines.append("| clean pages | pages | pages with a flag | flagged lines | lines |")
    lines.append("|---|---|---|---|---|")
    for src in ("corpus", "site", "miniwob"):
        cs = [c for c in clean if c["source"] == src]
        if cs:
            lines.append(f"| {src} | {len(cs)} | {sum(1 for c in cs if c['flagged_lines'])} | "
                         f"{sum(c['flagged_lines'] for c in cs)} | {sum(c['lines'] for c in cs)} |")
    errors = [r for r in result["variants"] if "error" in r] + [c for c in result["clean"] if "error" in c]
    lines.append("")
    lines.append(f"page errors: {len(errors)}; run time {result['seconds']} s" +
                 (f"; STOPPED EARLY: {result['stopped']}" if result["stopped"] else ""))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_pages = next((d for d in (HERE.parents[1] / "shared" / "corpus" / "realpages",
                                      HERE.parents[2] / "shared" / "corpus" / "realpages") if d.is_dir()),
                         HERE.parents[1] / "shared" / "corpus" / "realpages")
    ap.add_argument("--pages", type=Path, default=default_pages)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--variants", type=int, default=210, help="variants to generate (default 210)")
    ap.add_argument("--limit", type=int, help="run only the first N variants and N clean pages (quick runs)")
    ap.add_argument("--miniwob", type=int, default=30, help="MiniWoB pages sampled for false positives")
    ap.add_argument("--no-clean", action="store_true", help="skip the false-positive pages")
    ap.add_argument("--carriers", type=lambda t: set(t.split(",")),
                    help="only these carriers (comma-separated, e.g. popup,banner); generate more --variants")
    ap.add_argument("--max-minutes", type=float, default=18.0, help="stop (and say so) after this long")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--cache", type=Path, help="pickle each observation here and reuse it on later runs "
                                               "(re-measure a defense change without re-rendering)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--cases", type=Path, help="hand-written cases (JSON lines) instead of generated variants")
    args = ap.parse_args()
    if not args.pages.is_dir():
        ap.error(f"--pages {args.pages}: not a directory")
    if args.cases is not None and "blind" in args.cases.name:
        ap.error("--cases: the blind sets are held out (the coordinator runs them)")
    result = run_cases(args) if args.cases is not None else run(args)
    print(cases_report(result) if args.cases is not None else report(result))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()

"""Should BM25's stemming language follow the page's script / function-word language? (issue 9, h18-refit)

``PageAnalysis.lang`` — the language BM25 stems and removes stop words in, and the switch of the
cross-lingual helpers (``lang != "en"``) — is :func:`pagelens.focus.lexical.guess_language`'s stop-word
guess. This script lists the development pages where it disagrees with the script / function-word
language (:func:`pagelens.focus.crossing.page_language`) and scores ``default`` (the shipped model) on
every development goal of those pages twice: as it is, and with the analysis' language *following* the
new one (a Latin-script language code replaces the guess — its stemmer when bm25s / PyStemmer has one
(:data:`~pagelens.focus.lexical.LANGUAGES`), no stemming otherwise; a non-Latin script keeps the guess).
The second run patches ``lexical.guess_language`` for :func:`pagelens.focus.analysis.analyse` only (it
imports it at call time; ``rules`` keeps its own reference for goals).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_stem_lang.py --pages /work/shared/corpus/realpages \
        [--cache runs/realpages] [--json runs/learn18/stem.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import focus_learn as fl  # noqa: E402
from realpage_goals import evaluate  # noqa: E402


def following(texts: Sequence[str], sample_words: int = 4000) -> str:
    """The guess, unless the page's script / function words name a Latin-script language: then that."""
    from pagelens.focus import crossing

    got = crossing.language_of(" ".join(texts)[: crossing.PAGE_CHARS], limit=crossing.PAGE_CHARS)
    old = ORIGINAL(texts, sample_words)
    return got if got and len(got) == 2 and old != "cjk" else old  # codes are 2 letters; scripts are names


def _unset(texts: Sequence[str], sample_words: int = 4000) -> str:
    raise RuntimeError("main() sets ORIGINAL to lexical.guess_language")


ORIGINAL: Callable[..., str] = _unset  # the stop-word guess itself, kept by main() before it is patched


def main() -> None:
    global ORIGINAL
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--pages", type=Path, default=fl.CORPUS)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    from pagelens.focus import crossing, lexical
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig, RulesRetriever

    ORIGINAL = lexical.guess_language
    goals = fl.load_goals(list(fl.EXTRA_SETS))
    rend = fl.renderings(args.cache, {g["page"] for g in goals}, args.pages)
    cfg = RulesConfig()
    differ = {}
    for p, r in sorted(rend.items()):
        pa = analysis_of(r, cfg.limits, cfg.unit_text_chars)
        new = crossing.page_language(pa)
        follow = following(pa.units.texts[:400])
        if follow != pa.lang:
            differ[p] = (pa.lang, new, follow)
    print("| page | stop-word guess | script / function words | stemming if it follows |\n|---|---|---|---|")
    for p, (old, new, follow) in differ.items():
        print(f"| {p} | {old} | {new or '(none)'} | {follow} |")
    mine = [g for g in goals if g["page"] in differ]
    rows = evaluate(mine, {}, [("default", RulesRetriever(cfg))], parsed=rend)
    lexical.guess_language = following
    try:
        from pagelens.focus import analysis

        with analysis._page_lock:
            analysis._PAGES.clear()  # the analyses made with the guess (cached by content) are made again
        rows += evaluate(mine, {}, [("default, stemming follows", RulesRetriever(cfg))], parsed=rend)
    finally:
        lexical.guess_language = ORIGINAL
    print("\n| page | goals | items | default kept | following kept | pruning default / following |\n|---|---|---|---|---|---|")
    for p in [*differ, None]:
        rs = [r for r in rows if p is None or r["page"] == p]
        a = [r for r in rs if r["retriever"] == "default"]
        b = [r for r in rs if r["retriever"] != "default"]
        print(f"| {p or 'all'} | {len(a)} | {sum(r['items'] for r in a)} | {sum(r['kept'] for r in a)} | "
              f"{sum(r['kept'] for r in b)} | {statistics.mean(r['pruning'] for r in a):.1%} / "
              f"{statistics.mean(r['pruning'] for r in b):.1%} |")
    if args.json:
        args.json.write_text(json.dumps(rows))


if __name__ == "__main__":
    main()

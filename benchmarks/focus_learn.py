"""Learning ``default``'s fusion (:mod:`pagelens.focus.learned`) from labeled goals, validated by page.

Data: every labeled goal set on the 49 corpus pages that is development data — ``developer``,
``blind-1``, ``blind-2`` (``realpage_goals.jsonl``), ``dev-6`` (``realpage_goals_dev6.jsonl``),
``dev-8`` (``realpage_goals_dev8.jsonl``) and ``blind-3`` … ``blind-8`` (each run on several code
versions already; training data from this script's first run, 2026-12-06). :data:`FILES` is the
whole list of the default data; :data:`EXTRA_SETS` (below) the only other sets this script reads.
**The shipped model** (the eighteenth pass, h18-refit) is fitted on :data:`FILES` plus ``blind-9``,
``blind-10``, ``blind-14`` and ``blind-15`` (``ship --with-set`` each): those four sets are training
data now. The held-out sets (blind-11, blind-12, blind-13, blind-16 and later, and their pages) are
never read here.

Per goal, every unit of the page gets the features of :func:`pagelens.focus.learned.features`
(the signals of ``default`` as it runs, no words) and a label: the unit's subtree holds a line
that the benchmark's matcher (:func:`pagelens.bench.cases.item_kept`: same role, name contains
the item's name; any line's text for non-interactive roles) would count as a must-keep item.

Validation: **5 folds by page** (:func:`folds`: the 49 pages sorted by name, page ``i`` in fold
``i % 5``); a model is fitted on the goals of 4/5 of the pages and scores the goals of the other
pages, through the whole ``focus()`` call (defense on), as ``benchmarks/realpage_goals.py`` does:
every goal is scored once, out of fold, beside ``default`` (RRF) and ``bm25-400`` on the same
goals (:mod:`focus_learn_oof`). ``ship`` fits the same configuration on every page and writes
the model file that ``default`` loads.

More data (the eighteenth pass, h18-refit): ``--with-set`` adds a goal set of :data:`EXTRA_SETS` to
the training data — ``blind-9`` and ``blind-10`` (on the corpus pages) and ``blind-14`` and ``blind-15``
(on their own pages, ``pages_blind14`` / ``pages_blind15``, observed from ``--cache``'s subdirectory of
the same name, as ``realpage_goals.py`` caches them). A goal on a page outside the corpus names its page
``<directory>/<page>`` (``pages_blind14/008-tabler-email``), and its family comes from
:data:`PAGE_FAMILIES` (one site, template or manual each, written from the pages' SOURCES.md). Without
``--with-set`` the data and the model are those of :data:`FILES` alone, as before. ``dev-18``
(``realpage_goals_dev18.jsonl`` on ``pages_dev18``, h19-goals18) is development data written for training
from the start: LilyPond manuals in five languages, CMake, CUPS and Postfix docs, Argon Dashboard 2 UIs. ``dev-31``
(``realpage_goals_dev31.jsonl`` on ``pages_dev31``, h31-dev31) is the same kind of data on small web-application
pages: AdminBSB, Adminator and Pure Admin templates and ZNC's web interface in five languages. ``data`` and
``ship`` must be given the same sets (``data`` records them; ``ship`` and ``focus_learn_oof.py`` check).

    .venv/bin/python benchmarks/focus_learn.py data [--cache runs/realpages] [--out runs/learn] [--with-set blind-14 ...]
    .venv/bin/python benchmarks/focus_learn.py ship --config gbdt [--out runs/learn] [--with-set blind-14 ...]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")  # a shared 2-core machine: sklearn's threads only contend
HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
#: Every goal file this script reads (never a newer held-out file).
FILES = (DATA / "realpage_goals.jsonl", DATA / "realpage_goals_dev6.jsonl", DATA / "realpage_goals_dev8.jsonl",
         *(DATA / f"realpage_goals_blind{i}.jsonl" for i in range(3, 9)))
#: Goal sets the training data may add (``--with-set``): set -> (its goal file, the directory of its own
#: pages, or None when they are the corpus pages). Never a held-out set.
EXTRA_SETS: dict[str, tuple[Path, Path | None]] = {
    "blind-9": (DATA / "realpage_goals_blind9.jsonl", None),
    "blind-10": (DATA / "realpage_goals_blind10.jsonl", None),
    "blind-14": (DATA / "realpage_goals_blind14.jsonl", DATA / "pages_blind14"),
    "blind-15": (DATA / "realpage_goals_blind15.jsonl", DATA / "pages_blind15"),
    "dev-18": (DATA / "realpage_goals_dev18.jsonl", DATA / "pages_dev18"),
    "dev-31": (DATA / "realpage_goals_dev31.jsonl", DATA / "pages_dev31"),
}
#: The corpus pages (``--pages`` of ``realpage_goals.py``).
CORPUS = HERE.parent.parent / "shared" / "corpus" / "realpages"
N_FOLDS = 5
#: Negatives kept per goal for fitting: up to this many among the units some signal ranks...
NEG_RANKED = 400
NEG_OTHER = 50  # ...and up to this many of the others (seeded); each goal weighs 1 (half positives)
#: The configurations (BENCHMARKS.md lists each run). ``features``: which columns of
#: :data:`pagelens.focus.learned.FEATURES` the model reads ("base": the 64 of the tenth pass;
#: "relative": those without the page's own size — its token and unit counts, which name one of 49
#: pages — plus the page-relative ones); ``monotone``: the score may only grow with the lexical and
#: fused evidence (:data:`~pagelens.focus.learned.EVIDENCE_FEATURES`).
_GBDT = {"family": "trees", "max_iter": 200, "learning_rate": 0.05, "max_leaf_nodes": 15, "max_depth": 5,
         "min_samples_leaf": 50, "l2_regularization": 1.0}
_REG = {**_GBDT, "max_iter": 150, "max_leaf_nodes": 8, "max_depth": 4, "min_samples_leaf": 200,
        "l2_regularization": 5.0}
CONFIGS: dict[str, dict[str, Any]] = {
    "gbdt": {**_GBDT, "features": "base"},
    "logreg": {"family": "linear", "C": 1.0, "features": "base"},
    "gbdt-rel": {**_GBDT, "features": "relative"},
    "gbdt-mono": {**_GBDT, "features": "relative", "monotone": True},
    "gbdt-reg": {**_REG, "features": "relative", "monotone": True},
    # the thirteenth pass: the 64 columns plus the relations to other units (RELATION_FEATURES)
    "gbdt-relf": {**_GBDT, "features": "relations"},
    # the fourteenth pass: the 64 columns plus what kind of answer the goal asks and the unit holds
    "gbdt-ans": {**_GBDT, "features": "answers"},
    # the eighteenth pass: the 64 columns with the page's language from its script or function words
    # (page_lang_other) instead of the stop-word guess (page_not_en)...
    "gbdt-lang": {**_GBDT, "features": "lang"},
    # ...and also whether the goal crosses languages, without the page's raw size (token and unit counts)
    "gbdt-lang2": {**_GBDT, "features": "lang2"},
    # the thirtieth pass: the 64 columns plus the unit's meaning (MEANING_FEATURES: its cosine to the goal)
    "gbdt-mean": {**_GBDT, "features": "meaning"},
}
#: The page families of the corpus (by the number its file name starts with), for leave-one-family-out
#: folds: a family's pages share a kind of site and template, so a model that never saw the family
#: is the nearest thing to a page family nobody has seen.
FAMILIES: dict[str, tuple[int, ...]] = {
    "shop": (1, 2, 3, 4, 5, 6, 7),
    "search/listing": (8, 9, 10, 40, 41, 42),
    "forum": (11, 12, 13, 14),
    "news/blog": (15, 24, 31, 32, 33, 35),
    "docs/wiki": (16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30),
    "portal": (23, 25, 26),
    "tables/status": (34, 36, 37, 38, 39, 46, 47),
    "forms": (43, 44, 45, 48, 49),
}


#: The families of the pages outside the corpus, by page directory and the number the file name starts
#: with: one site, template or manual each (from each directory's SOURCES.md, not from any result).
PAGE_FAMILIES: dict[str, dict[str, tuple[int, ...]]] = {
    "pages_blind14": {"handbook": (1, 2, 3, 4, 5, 6, 7), "tabler": (8, 9, 10, 11, 12, 16, 17, 18),
                      "sqlite": (13,), "pdoc": (14, 15)},
    "pages_blind15": {"python-docs": (1, 2, 3), "postgres-docs": (4, 5), "git-docs": (6,), "aptitude": (7, 8),
                      "gimp-el": (9, 10), "material": (11, 12, 13, 14)},
    "pages_dev18": {"lilypond": (1, 2, 3, 4, 5, 6), "cmake-docs": (7, 8, 9), "argon": (10, 11, 12, 15),
                    "cups-docs": (13,), "postfix-docs": (14,)},
    "pages_dev31": {"adminbsb": (1, 2, 3), "adminator": (4, 5), "pureadmin": (6,), "znc": tuple(range(7, 17))},
}
#: Every family, corpus first (the order of the folds by family).
ALL_FAMILIES = (*FAMILIES, *(f for fams in PAGE_FAMILIES.values() for f in fams))
#: Folds of whole families (``by="group"``; fewer fits than one fold per family, each family still
#: unseen by the model that scores it): the corpus families alternately in :data:`FAMILIES`' order,
#: then each directory's families together.
FAMILY_GROUPS: dict[str, tuple[str, ...]] = {
    "corpus-a": tuple(list(FAMILIES)[0::2]), "corpus-b": tuple(list(FAMILIES)[1::2]),
    **{where: tuple(fams) for where, fams in PAGE_FAMILIES.items()},
}


def family(page: str) -> str:
    """The family of a corpus page (``"012-..."``) or of a page outside it (``"pages_blind14/008-..."``)."""
    where, _, name = page.rpartition("/")
    table = PAGE_FAMILIES[where] if where else FAMILIES
    num = int(name.split("-", 1)[0])
    return next(f for f, nums in table.items() if num in nums)


def columns(config: str) -> list[int]:
    """The feature columns ``config``'s model reads."""
    from pagelens.focus import learned

    kind = CONFIGS[config].get("features", "base")
    base = list(range(learned.FEATURES.index(learned.RELATIVE_FEATURES[0])))
    relations = [learned.FEATURES.index(f) for f in learned.RELATION_FEATURES]
    if kind == "base":
        return base
    if kind == "relations":
        return base + relations
    if kind == "answers":
        return base + [learned.FEATURES.index(f) for f in learned.ANSWER_FEATURES]
    if kind == "meaning":
        return base + [learned.FEATURES.index(f) for f in learned.MEANING_FEATURES]
    size = {learned.FEATURES.index("page_log_tokens"), learned.FEATURES.index("page_log_units")}
    if kind in ("lang", "lang2"):
        old = learned.FEATURES.index("page_not_en")
        cols = [c for c in base if c != old and (kind == "lang" or c not in size)]
        return cols + [learned.FEATURES.index(f) for f in learned.LANGUAGE_FEATURES[: 1 if kind == "lang" else 2]]
    return [c for c in base if c not in size] + [learned.FEATURES.index(f) for f in learned.RELATIVE_FEATURES]


def load_goals(extra: Sequence[str] = ()) -> list[dict]:
    """The goals of :data:`FILES` (ids 0, 1, ... in that order, as before), then those of each set of
    ``extra`` (:data:`EXTRA_SETS`, in that order); a goal on a page outside the corpus names its page
    ``<directory>/<page>``."""
    out = []
    for path in FILES:
        assert not any(held in path.name for held in ("blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15",
                                                   "blind16", "blind17", "blind19", "blind20", "blind21"))
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for name, (path, pages) in EXTRA_SETS.items():
        if name not in extra:
            continue
        got = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert all(g["set"] == name for g in got), path
        if pages is not None:
            for g in got:
                g["page"] = f"{pages.name}/{g['page']}"
        out += got
    for i, g in enumerate(out):
        g["id"] = i
        g.setdefault("kind", "(none)")
    return out


def folds(pages: list[str], by: str = "page") -> dict[str, int]:
    """``page -> fold``: the pages sorted by name, page ``i`` in fold ``i % N_FOLDS``; or, ``by="family"``,
    one fold per page family (:data:`ALL_FAMILIES`, in its order); ``by="group"``, one per group of
    families (:data:`FAMILY_GROUPS`)."""
    if by == "family":
        return {p: ALL_FAMILIES.index(family(p)) for p in set(pages)}
    if by == "group":
        groups = list(FAMILY_GROUPS.values())
        return {p: next(i for i, fams in enumerate(groups) if family(p) in fams) for p in set(pages)}
    return {p: i % N_FOLDS for i, p in enumerate(sorted(set(pages)))}


def renderings(cache: Path, pages: set[str], corpus: Path = CORPUS) -> dict[str, Any]:
    """``page -> rendering``: corpus pages observed from ``corpus`` (cached in ``cache``), a page
    ``<directory>/<name>`` from that directory of :data:`EXTRA_SETS` (cached in ``cache/<directory>``)."""
    sys.path.insert(0, str(HERE))
    from realpage_goals import observations

    from pagelens.api import render_observation

    dirs = {d.name: d for _f, d in EXTRA_SETS.values() if d is not None}
    by_dir: dict[str, set[str]] = {}
    for p in pages:
        where, _, name = p.rpartition("/")
        by_dir.setdefault(where, set()).add(name)
    out: dict[str, Any] = {}
    for where, names in by_dir.items():
        observed = observations(dirs[where] if where else corpus, cache / where if where else cache, names)
        out.update({f"{where}/{n}" if where else n: render_observation(o) for n, o in observed.items()})
    return out


def matching_lines(lines: Any, item: dict) -> list[int]:
    """Positions of the lines the benchmark's matcher counts as ``item`` when kept."""
    from pagelens.bench.cases import INTERACTIVE_ROLES, norm

    want = norm(item["name"])
    loose = item["role"] not in INTERACTIVE_ROLES
    return [j for j, ln in enumerate(lines) if (ln.role == item["role"] and want in norm(ln.name))
            or (loose and want in norm(ln.text))]


def goal_rows(ret: Any, rendering: Any, goal: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(features, labels, ranked-by-RRF flags)`` of every unit for one goal, or None when
    ``default`` keeps the page whole (too small to rank)."""
    from pagelens.focus import learned
    from pagelens.focus.analysis import analysis_of, unit_heads
    from pagelens.focus.base import FocusQuery
    from pagelens.focus.rules import goal_shape

    cfg = ret.config
    pa = analysis_of(rendering, cfg.limits, cfg.unit_text_chars)
    if pa.page.total <= cfg.small_page_tokens or not pa.units.heads:
        return None
    query = FocusQuery(goal["goal"])
    signals, _lt, unseen, fused = ret.fused(query, pa)
    x = learned.features(pa, signals, {n: getattr(r, "scores", {}) for n, r in signals.items()}, fused,
                         goal_shape(query, unseen, pa), meaning=meaning_of(pa, goal["goal"], cfg.meaning_chars))
    up = unit_heads(pa.page, cfg.limits)
    index = {u: k for k, u in enumerate(pa.units.heads)}
    y = np.zeros(len(pa.units.heads))
    for item in goal["must_keep"]:
        for j in matching_lines(pa.page.lines, item):
            k = index.get(up[j])
            if k is not None:
                y[k] = 1.0
    ranked = np.zeros(len(pa.units.heads), dtype=bool)
    ranked[list(fused)] = True
    return x, y, ranked


def meaning_of(pa: Any, goal: str, chars: int) -> np.ndarray:
    """Every unit's cosine to ``goal`` (:func:`pagelens.focus.lookup.similarities`; the thirtieth pass's columns)."""
    from pagelens.focus.lookup import shared_lookup, similarities

    emb, why = shared_lookup()
    if emb is None:
        raise SystemExit(f"the meaning columns need the wordllama package: {why}")
    return similarities(pa, emb, goal, chars)


def widen(data: Path, out: Path, cache: Path, extra: Sequence[str] = (), corpus: Path = CORPUS) -> None:
    """``data``'s rows with the meaning columns (:data:`pagelens.focus.learned.MEANING_FEATURES`) appended, written
    to ``out``: a build made before those columns existed, widened without recomputing the others (the same rows,
    in the same order: every ranked goal's units, as :func:`build` writes them). Fails when a goal's row count is
    not its page's unit count now."""
    from pagelens.focus import learned
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig

    check_sets(data, extra)
    cfg = RulesConfig()
    goals = {g["id"]: g for g in load_goals(extra)}
    d = loaded(data)
    gid = d["goal"]
    if d["x"].shape[1] != learned.FEATURES.index(learned.MEANING_FEATURES[0]):
        raise SystemExit(f"{data}: {d['x'].shape[1]} columns, not those before the meaning columns")
    starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    ends = np.r_[starts[1:], len(gid)]
    rend = renderings(cache, {goals[int(gid[s])]["page"] for s in starts}, corpus)
    extra_x = np.zeros((len(gid), len(learned.MEANING_FEATURES)))
    for s, e in zip(starts, ends, strict=True):
        g = goals[int(gid[s])]
        pa = analysis_of(rend[g["page"]], cfg.limits, cfg.unit_text_chars)
        if len(pa.units.heads) != e - s:
            raise SystemExit(f"goal {g['id']}: {e - s} rows, its page has {len(pa.units.heads)} units now")
        extra_x[s:e] = learned.meaning_features(np.asarray(meaning_of(pa, g["goal"], cfg.meaning_chars), dtype=np.float64))
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "data.npz", x=np.hstack([np.asarray(d["x"]), extra_x]),
                        **{k: v for k, v in d.items() if k != "x"})
    for f in ("goals.json", "sets.json"):
        (out / f).write_text((data / f).read_text())
    print(f"{len(starts)} goals, {len(gid)} rows widened by {len(learned.MEANING_FEATURES)} meaning columns", file=sys.stderr)


def build(cache: Path, out: Path, extra: Sequence[str] = (), corpus: Path = CORPUS) -> None:
    from pagelens.focus.rules import RulesRetriever

    goals = load_goals(extra)
    rend = renderings(cache, {g["page"] for g in goals}, corpus)
    ret = RulesRetriever()
    xs, ys, rk, gid = [], [], [], []
    for g in sorted(goals, key=lambda g: (g["page"], g["id"])):
        got = goal_rows(ret, rend[g["page"]], g)
        if got is None:
            continue
        x, y, ranked = got
        xs.append(x)
        ys.append(y)
        rk.append(ranked)
        gid.append(np.full(len(y), g["id"]))
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "data.npz", x=np.concatenate(xs), y=np.concatenate(ys), ranked=np.concatenate(rk),
                        goal=np.concatenate(gid))
    (out / "goals.json").write_text(json.dumps([{k: g[k] for k in ("id", "set", "page", "kind")} for g in goals]))
    (out / "sets.json").write_text(json.dumps(sorted(extra)))
    y = np.concatenate(ys)
    r = np.concatenate(rk)
    print(f"{len(xs)} goals ranked, {len(y)} unit rows, {int(y.sum())} positive units, "
          f"{int((y[~r]).sum())} of them ranked by no signal", file=sys.stderr)


def sample(y: np.ndarray, ranked: np.ndarray, goal: np.ndarray, keep_goals: set[int],
           seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Row indices to fit on and their weights: each goal with a positive unit weighs 1, half on
    its positives, half on its sampled negatives (:data:`NEG_RANKED`, :data:`NEG_OTHER`)."""
    rng = np.random.default_rng(seed)
    rows, weights = [], []
    starts = np.flatnonzero(np.r_[True, goal[1:] != goal[:-1]])
    ends = np.r_[starts[1:], len(goal)]
    for s, e in zip(starts, ends, strict=True):
        if int(goal[s]) not in keep_goals:
            continue
        idx = np.arange(s, e)
        pos = idx[y[idx] > 0]
        if not len(pos):
            continue
        neg_r = idx[(y[idx] == 0) & ranked[idx]]
        neg_o = idx[(y[idx] == 0) & ~ranked[idx]]
        neg = np.r_[rng.permutation(neg_r)[:NEG_RANKED], rng.permutation(neg_o)[:NEG_OTHER]]
        rows += [pos, neg]
        weights += [np.full(len(pos), 0.5 / len(pos)), np.full(len(neg), 0.5 / max(1, len(neg)))]
    return np.concatenate(rows), np.concatenate(weights)


def fit(config: str, x: np.ndarray, y: np.ndarray, w: np.ndarray, *, full: np.ndarray | None = None) -> dict[str, Any]:
    """Fit ``config`` on the full feature matrix ``x`` (its own columns, :func:`columns`) and export
    it as the JSON spec :class:`pagelens.focus.learned.Model` reads. With ``full``, ``x`` holds only
    the config's columns already and ``full`` the whole rows of ``x[::step]`` (the export check's rows,
    ``step = max(1, len(x) // 2000)``): no copy of every column of every row."""
    from pagelens.focus.learned import EVIDENCE_FEATURES, FEATURES

    c = dict(CONFIGS[config])
    family = c.pop("family")
    c.pop("features", None)
    monotone = c.pop("monotone", False)
    cols = columns(config)
    names = {"features": [FEATURES[i] for i in cols], "columns": cols}
    step = max(1, len(x) // 2000)
    if full is None:
        full = x[::step]
        x = x[:, cols]
    if family == "linear":
        from sklearn.linear_model import LogisticRegression

        mean = x.mean(axis=0)
        scale = x.std(axis=0)
        scale[scale == 0] = 1.0
        lr = LogisticRegression(C=c["C"], max_iter=5000).fit((x - mean) / scale, y, sample_weight=w * len(w))
        return {"kind": "linear", "name": config, **names, "mean": mean.tolist(),
                "scale": scale.tolist(), "coef": lr.coef_[0].tolist(), "intercept": float(lr.intercept_[0])}
    from sklearn.ensemble import HistGradientBoostingClassifier

    if monotone:  # first occurrences only: "forms_on"/"kind_on" also name two goal columns, left free
        evidence = {FEATURES.index(f) for f in EVIDENCE_FEATURES}
        c["monotonic_cst"] = [1 if i in evidence else 0 for i in cols]
    clf = HistGradientBoostingClassifier(early_stopping=False, random_state=0, **c).fit(x, y, sample_weight=w * len(w))
    feature, threshold, left, right, value, leaf, missing, roots = [], [], [], [], [], [], [], []
    depth = 0
    for (pred,) in clf._predictors:  # one tree per iteration (binary)
        nodes = pred.nodes
        off = len(feature)
        roots.append(off)
        depth = max(depth, int(nodes["depth"].max()))
        feature += nodes["feature_idx"].astype(int).tolist()
        threshold += nodes["num_threshold"].astype(float).tolist()
        left += (nodes["left"].astype(int) + off).tolist()
        right += (nodes["right"].astype(int) + off).tolist()
        value += nodes["value"].astype(float).tolist()
        leaf += nodes["is_leaf"].astype(bool).tolist()
        missing += nodes["missing_go_to_left"].astype(bool).tolist()
    spec = {"kind": "trees", "name": config, **names, "base": float(clf._baseline_prediction.ravel()[0]),
            "trees": {"feature": feature, "threshold": threshold, "left": left, "right": right, "value": value,
                      "leaf": leaf, "missing_left": missing, "roots": roots, "depth": depth}}
    from pagelens.focus.learned import Model

    assert np.allclose(Model(spec).score(full), clf.decision_function(x[::step]), atol=1e-6), "export differs"
    return spec


_LOADED: dict[Path, dict[str, np.ndarray]] = {}


def check_sets(data: Path, extra: Sequence[str]) -> None:
    """Fail unless ``data`` was built from the same goal sets (``--with-set``) as asked now."""
    f = data / "sets.json"
    built = json.loads(f.read_text()) if f.is_file() else []
    if sorted(built) != sorted(extra):
        raise SystemExit(f"{data} was built with --with-set {built or 'none'}, asked for {sorted(extra) or 'none'}")


def loaded(data: Path) -> dict[str, np.ndarray]:
    """``data.npz``'s arrays, read once per process (x alone is ~0.5 GB decompressed; with more sets,
    more). x is written once beside it as ``x.npy`` and mapped: processes fitting at once share it."""
    if data not in _LOADED:
        with np.load(data / "data.npz") as d:
            got = {k: d[k] for k in d.files if k != "x"}
            xf = data / "x.npy"
            if not xf.is_file() or xf.stat().st_mtime < (data / "data.npz").stat().st_mtime:
                tmp = data / f"x.{os.getpid()}.npy"
                np.save(tmp, d["x"])
                tmp.replace(xf)
        got["x"] = np.load(xf, mmap_mode="r")
        _LOADED[data] = got
    return _LOADED[data]


def fit_on(config: str, data: Path, goals: set[int], seed: int = 0) -> dict[str, Any]:
    """Fit ``config`` on ``goals``' rows of ``data``; ``seed`` draws the sampled negatives (:func:`sample`)."""
    d = loaded(data)
    rows, w = sample(d["y"], d["ranked"], d["goal"], goals, seed)
    cols = np.asarray(columns(config))
    x = np.empty((len(rows), len(cols)))
    for a in range(0, len(rows), 65536):  # a block of rows at a time: never every column of every row
        x[a : a + 65536] = d["x"][rows[a : a + 65536]][:, cols]
    return fit(config, x, d["y"][rows], w, full=np.asarray(d["x"][rows[:: max(1, len(rows) // 2000)]]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=("data", "ship", "widen"))
    ap.add_argument("--from", dest="source", type=Path, help="widen: the older build to widen (written to --out)")
    ap.add_argument("--cache", type=Path, default=HERE.parent / "runs" / "realpages")
    ap.add_argument("--out", type=Path, default=HERE.parent / "runs" / "learn")
    ap.add_argument("--config", choices=sorted(CONFIGS), default="gbdt")
    ap.add_argument("--model", type=Path, default=HERE.parent / "src" / "pagelens" / "focus" / "fusion_model.json")
    ap.add_argument("--with-set", action="append", dest="extra", default=[], choices=list(EXTRA_SETS),
                    help="also this goal set (EXTRA_SETS); give data and ship the same sets")
    ap.add_argument("--pages", type=Path, default=CORPUS, help="the corpus pages (observed when not cached)")
    args = ap.parse_args()
    if args.step == "data":
        build(args.cache, args.out, args.extra, args.pages)
        return
    if args.step == "widen":
        if args.source is None:
            raise SystemExit("widen needs --from (an older build)")
        widen(args.source, args.out, args.cache, args.extra, args.pages)
        return
    check_sets(args.out, args.extra)
    spec = fit_on(args.config, args.out, {g["id"] for g in load_goals(args.extra)})
    spec["fitted_on"] = ("every goal of " + ", ".join(p.name for p in FILES) + " (49 corpus pages)"
                         + "".join(f", {EXTRA_SETS[s][0].name}" + (f" ({EXTRA_SETS[s][1].name})" if EXTRA_SETS[s][1] else "")
                                   for s in EXTRA_SETS if s in args.extra))
    args.model.write_text(json.dumps(spec, separators=(",", ":")))
    print(f"wrote {args.model} ({args.model.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()

"""The folds of ``benchmarks/focus_learn.py`` (the learned fusion's training) are disjoint by page,
fixed, and never read a newer held-out file."""

from __future__ import annotations

from heldout_sets import benchmark_module


def test_the_training_folds_are_disjoint_by_page() -> None:
    fl = benchmark_module("focus_learn.py", "focus_learn_for_test")
    goals = fl.load_goals()
    assert not any(held in p.name for p in fl.FILES for held in ("blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17", "blind19", "blind20", "blind21", "blind22", "blind23", "blind24", "blind25", "blind26", "blind27", "blind28", "blind29", "blind30", "blind31"))
    pages = [g["page"] for g in goals]
    fold = fl.folds(pages)
    assert set(fold.values()) == set(range(fl.N_FOLDS))
    assert fold == fl.folds(list(reversed(pages)))  # fixed: independent of the goals' order
    for f in range(fl.N_FOLDS):
        test = {g["page"] for g in goals if fold[g["page"]] == f}
        train = {g["page"] for g in goals if fold[g["page"]] != f}
        assert test and train and not test & train
    assert sum(len({p for p in pages if fold[p] == f}) for f in range(fl.N_FOLDS)) == len(set(pages))


def test_every_page_has_one_family_and_family_folds_are_disjoint() -> None:
    fl = benchmark_module("focus_learn.py", "focus_learn_for_test")
    pages = sorted({g["page"] for g in fl.load_goals()})
    nums = [n for nums in fl.FAMILIES.values() for n in nums]
    assert len(nums) == len(set(nums))  # no page in two families
    fold = fl.folds(pages, by="family")
    assert set(fold.values()) == set(range(len(fl.FAMILIES)))
    assert all(fl.family(p) == list(fl.FAMILIES)[fold[p]] for p in pages)


def test_extra_sets_keep_the_corpus_ids_and_name_their_own_pages() -> None:
    fl = benchmark_module("focus_learn.py", "focus_learn_for_test")
    base = fl.load_goals()
    more = fl.load_goals(["blind-14", "blind-9"])
    assert [(g["id"], g["page"], g["goal"]) for g in more[: len(base)]] == [(g["id"], g["page"], g["goal"]) for g in base]
    extra = more[len(base):]
    assert {g["set"] for g in extra} == {"blind-9", "blind-14"}
    assert [g["id"] for g in more] == list(range(len(more)))
    # a page outside the corpus names its directory; a corpus page does not
    assert all(g["page"].startswith("pages_blind14/") == (g["set"] == "blind-14") for g in extra)
    assert not {g["page"] for g in extra if g["set"] == "blind-9"} - {g["page"] for g in base}
    assert not any(name in fl.EXTRA_SETS for name in ("blind-11", "blind-12", "blind-13", "blind-16", "blind-17", "blind-19", "blind-20", "blind-21", "blind-22", "blind-23", "blind-24", "blind-25", "blind-26", "blind-27", "blind-28", "blind-29", "blind-30"))


def test_families_cover_the_pages_outside_the_corpus_and_fold_apart() -> None:
    fl = benchmark_module("focus_learn.py", "focus_learn_for_test")
    goals = fl.load_goals(list(fl.EXTRA_SETS))
    pages = sorted({g["page"] for g in goals})
    for where, fams in fl.PAGE_FAMILIES.items():
        nums = [n for ns in fams.values() for n in ns]
        assert len(nums) == len(set(nums))
        on_disk = sorted(p.stem for p in (fl.DATA / where).glob("*.html"))
        assert sorted(int(p.split("-", 1)[0]) for p in on_disk) == sorted(nums)  # every page, one family each
    assert len(set(fl.ALL_FAMILIES)) == len(fl.ALL_FAMILIES)  # no family name in two tables
    fold = fl.folds(pages, by="family")
    assert all(fl.family(p) == fl.ALL_FAMILIES[fold[p]] for p in pages)
    # a blind-14 page never falls in a corpus family by its number
    assert fl.family("pages_blind14/001-handbook-ar-basic-config") == "handbook"
    assert fl.family("pages_dev18/005-lilypond-ja-manuals") == "lilypond"
    assert fl.EXTRA_SETS["dev-18"][1] == fl.DATA / "pages_dev18"
    assert fl.family("pages_dev31/013-znc-de-notes") == "znc"
    assert fl.EXTRA_SETS["dev-31"][1] == fl.DATA / "pages_dev31"
    assert fl.family("001-amazon-kindle-book") == "shop"


def test_the_seed_draws_other_negatives_and_the_goals_kept_do_not_shift_the_others(monkeypatch) -> None:
    import numpy as np

    fl = benchmark_module("focus_learn.py", "focus_learn_for_test")
    n = 3 * 1000  # three goals of 1,000 units: more negatives than a goal keeps, so the draw matters
    goal = np.repeat([0, 1, 2], 1000)
    y = np.zeros(n)
    y[[5, 1500, 2500]] = 1.0
    ranked = np.arange(n) % 2 == 0
    rows0, w0 = fl.sample(y, ranked, goal, {0, 1, 2})
    again, _ = fl.sample(y, ranked, goal, {0, 1, 2}, seed=0)
    rows1, _ = fl.sample(y, ranked, goal, {0, 1, 2}, seed=1)
    assert np.array_equal(rows0, again) and not np.array_equal(rows0, rows1)
    assert set(np.flatnonzero(y)) <= set(rows0) and set(np.flatnonzero(y)) <= set(rows1)
    assert abs(w0.sum() - 3.0) < 1e-9  # each goal weighs 1
    # a goal left out (a later set dropped) changes no draw of the goals before it
    head, _ = fl.sample(y, ranked, goal, {0, 1})
    assert np.array_equal(head, rows0[: len(head)])
    # fit_on hands its seed to the sampler (0 unless asked: the shipped draw)
    seen: list[int] = []

    class Drawn(Exception):
        pass

    def spy(*args: object, **kw: object) -> None:
        seen.append(args[4] if len(args) > 4 else kw.get("seed", 0))
        raise Drawn

    monkeypatch.setattr(fl, "loaded", lambda data: {"y": y, "ranked": ranked, "goal": goal, "x": np.zeros((n, 1))})
    monkeypatch.setattr(fl, "sample", spy)
    for call in (lambda: fl.fit_on("gbdt", None, {0}), lambda: fl.fit_on("gbdt", None, {0}, 3)):
        try:
            call()
        except Drawn:
            pass
    assert seen == [0, 3]

"""The folds of ``benchmarks/focus_learn.py`` (the learned fusion's training) are disjoint by page,
fixed, and never read a newer held-out file."""

from __future__ import annotations

from heldout_sets import benchmark_module


def test_the_training_folds_are_disjoint_by_page() -> None:
    fl = benchmark_module("focus_learn.py", "focus_learn_for_test")
    goals = fl.load_goals()
    assert not any(held in p.name for p in fl.FILES for held in ("blind9", "blind10", "blind11", "blind12", "blind13", "blind14", "blind15", "blind16", "blind17"))
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

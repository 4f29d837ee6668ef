"""Shape of the held-out goal files blind-6 to blind-17, blind-19 … blind-29 (and of dev-18, dev-31, dev-35, dev-36, dev-37 and dev-38, written the same way as
development data), and that every must-keep item is on its page.

The figures come from ``benchmarks/realpage_goals.py --set blind-6`` / ``--set blind-7`` /
``--set blind-8`` / ``--set blind-9`` / ``--set blind-10`` / ``--set blind-11`` / ``--set blind-12`` / ``--set blind-13`` / ``--set blind-14`` / ``--set blind-15`` / ``--set blind-16`` /
``--set blind-17`` / ``--set dev-18`` / ``--set blind-19`` / ``--set blind-20`` / ``--set blind-21`` / ``--set blind-22`` / ``--set blind-23`` / ``--set dev-31`` / ``--set blind-24`` / ``--set blind-25`` / ``--set blind-26`` / ``--set blind-27`` / ``--set blind-28`` / ``--set blind-29`` /
``--set dev-35`` / ``--set dev-36`` / ``--set dev-37`` / ``--set dev-38``.
blind-6 to blind-10 are written on the 49 corpus pages; blind-11 to blind-17, dev-18, blind-19 … blind-29, dev-31, dev-35, dev-36, dev-37 and dev-38 on pages of
their own (``benchmarks/data/pages_blind11`` … ``pages_blind17``, ``pages_dev18``, ``pages_blind19``, ``pages_blind20``, ``pages_blind21``, ``pages_blind22``, ``pages_blind23``, ``pages_dev31``, ``pages_blind24``, ``pages_blind25``, ``pages_blind26``, ``pages_blind27``, ``pages_blind28``, ``pages_blind29``, ``pages_dev35``, ``pages_dev36``, ``pages_dev37``, ``pages_dev38``), none of them in the corpus. Nothing here runs a retriever: the existence check observes each page with the full
tree only (no goal, no focus, no defense) and matches items with the harness's own matcher
(``pagelens.bench.cases.item_kept``) against every line of the full rendering.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from heldout_sets import CORPUS, benchmark_module, load_jsonl, missing_items

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


@dataclass(frozen=True)
class HeldOut:
    name: str  # the set's name, e.g. "blind-7"
    file: Path
    previous: str  # an earlier held-out set that asking for this one must not pull in
    min_goals: int
    min_per_page: int
    pages: Path | None = None  # the set's own page directory; None: the corpus
    held_out: bool = True  # False: development data from the start (dev-18, dev-31, dev-35, dev-36, dev-37, dev-38), read on request like a held-out set


SETS = [
    HeldOut("blind-6", DATA / "realpage_goals_blind6.jsonl", "blind-5", min_goals=180, min_per_page=3),
    HeldOut("blind-7", DATA / "realpage_goals_blind7.jsonl", "blind-6", min_goals=300, min_per_page=4),
    HeldOut("blind-8", DATA / "realpage_goals_blind8.jsonl", "blind-7", min_goals=400, min_per_page=6),
    HeldOut("blind-9", DATA / "realpage_goals_blind9.jsonl", "blind-8", min_goals=400, min_per_page=6),
    HeldOut("blind-10", DATA / "realpage_goals_blind10.jsonl", "blind-9", min_goals=400, min_per_page=6),
    HeldOut("blind-11", DATA / "realpage_goals_blind11.jsonl", "blind-10", min_goals=300, min_per_page=12,
            pages=DATA / "pages_blind11"),
    HeldOut("blind-12", DATA / "realpage_goals_blind12.jsonl", "blind-11", min_goals=300, min_per_page=8,
            pages=DATA / "pages_blind12"),
    HeldOut("blind-13", DATA / "realpage_goals_blind13.jsonl", "blind-12", min_goals=200, min_per_page=6,
            pages=DATA / "pages_blind13"),
    HeldOut("blind-14", DATA / "realpage_goals_blind14.jsonl", "blind-13", min_goals=200, min_per_page=5,
            pages=DATA / "pages_blind14"),
    HeldOut("blind-15", DATA / "realpage_goals_blind15.jsonl", "blind-14", min_goals=200, min_per_page=10,
            pages=DATA / "pages_blind15"),
    HeldOut("blind-16", DATA / "realpage_goals_blind16.jsonl", "blind-15", min_goals=220, min_per_page=10,
            pages=DATA / "pages_blind16"),
    HeldOut("blind-17", DATA / "realpage_goals_blind17.jsonl", "blind-16", min_goals=160, min_per_page=8,
            pages=DATA / "pages_blind17"),
    HeldOut("dev-18", DATA / "realpage_goals_dev18.jsonl", "blind-17", min_goals=130, min_per_page=8,
            pages=DATA / "pages_dev18", held_out=False),
    HeldOut("blind-19", DATA / "realpage_goals_blind19.jsonl", "blind-17", min_goals=150, min_per_page=12,
            pages=DATA / "pages_blind19"),
    HeldOut("blind-20", DATA / "realpage_goals_blind20.jsonl", "blind-19", min_goals=160, min_per_page=9,
            pages=DATA / "pages_blind20"),
    HeldOut("blind-21", DATA / "realpage_goals_blind21.jsonl", "blind-20", min_goals=170, min_per_page=8,
            pages=DATA / "pages_blind21"),
    HeldOut("blind-22", DATA / "realpage_goals_blind22.jsonl", "blind-21", min_goals=150, min_per_page=10,
            pages=DATA / "pages_blind22"),
    HeldOut("blind-23", DATA / "realpage_goals_blind23.jsonl", "blind-22", min_goals=170, min_per_page=10,
            pages=DATA / "pages_blind23"),
    HeldOut("dev-31", DATA / "realpage_goals_dev31.jsonl", "blind-23", min_goals=190, min_per_page=10,
            pages=DATA / "pages_dev31", held_out=False),
    HeldOut("blind-24", DATA / "realpage_goals_blind24.jsonl", "blind-23", min_goals=200, min_per_page=8,
            pages=DATA / "pages_blind24"),
    HeldOut("blind-25", DATA / "realpage_goals_blind25.jsonl", "blind-24", min_goals=160, min_per_page=8,
            pages=DATA / "pages_blind25"),
    HeldOut("blind-26", DATA / "realpage_goals_blind26.jsonl", "blind-25", min_goals=170, min_per_page=7,
            pages=DATA / "pages_blind26"),
    HeldOut("blind-27", DATA / "realpage_goals_blind27.jsonl", "blind-26", min_goals=190, min_per_page=10,
            pages=DATA / "pages_blind27"),
    HeldOut("blind-28", DATA / "realpage_goals_blind28.jsonl", "blind-27", min_goals=190, min_per_page=12,
            pages=DATA / "pages_blind28"),
    HeldOut("blind-29", DATA / "realpage_goals_blind29.jsonl", "blind-28", min_goals=200, min_per_page=12,
            pages=DATA / "pages_blind29"),
    HeldOut("dev-35", DATA / "realpage_goals_dev35.jsonl", "blind-26", min_goals=150, min_per_page=18,
            pages=DATA / "pages_dev35", held_out=False),
    HeldOut("dev-36", DATA / "realpage_goals_dev36.jsonl", "dev-35", min_goals=140, min_per_page=20,
            pages=DATA / "pages_dev36", held_out=False),
    HeldOut("dev-37", DATA / "realpage_goals_dev37.jsonl", "dev-36", min_goals=180, min_per_page=15,
            pages=DATA / "pages_dev37", held_out=False),
    HeldOut("dev-38", DATA / "realpage_goals_dev38.jsonl", "dev-37", min_goals=190, min_per_page=20,
            pages=DATA / "pages_dev38", held_out=False),
]
BY_NAME = pytest.mark.parametrize("held", SETS, ids=[s.name for s in SETS])


def _harness() -> ModuleType:
    return benchmark_module("realpage_goals.py", "realpage_goals_harness")


@BY_NAME
def test_the_set_is_well_formed_and_covers_every_page(held: HeldOut) -> None:
    goals = load_jsonl(held.file)
    assert len(goals) >= held.min_goals
    assert {g["set"] for g in goals} == {held.name}
    pages = Counter(g["page"] for g in goals)
    corpus = {p.stem for p in CORPUS.glob("*.html")} if CORPUS.is_dir() else None
    if held.pages is None:
        if corpus is not None:
            assert set(pages) == corpus
    else:  # every page of its own directory, none of them a corpus page
        assert set(pages) == {p.stem for p in held.pages.glob("*.html")}
        assert not set(pages) & (corpus or set())
    assert min(pages.values()) >= held.min_per_page
    kinds = Counter(g["kind"] for g in goals)
    assert set(kinds) == {"act", "read", "navigate"}
    assert min(kinds.values()) >= 0.08 * len(goals)
    assert len({g["goal"].strip().lower() for g in goals}) == len(goals)
    for g in goals:
        assert set(g) == {"set", "page", "goal", "kind", "must_keep"}
        assert g["goal"].strip() and 1 <= len(g["must_keep"]) <= 4
        for m in g["must_keep"]:
            assert set(m) == {"role", "name"} and m["role"] and m["name"].strip()


@BY_NAME
def test_the_set_shares_no_goal_with_the_other_sets(held: HeldOut) -> None:
    others = {g["goal"].strip().lower() for path in DATA.glob("realpage_goals*.jsonl") if path != held.file
              for g in load_jsonl(path)}
    assert not [g["goal"] for g in load_jsonl(held.file) if g["goal"].strip().lower() in others]


@BY_NAME
def test_the_set_runs_only_when_asked_for_by_name(held: HeldOut) -> None:
    harness = _harness()
    if held.held_out:
        assert held.name in harness.HELD_OUT and harness.HELD_OUT_FILES[held.name] == held.file
    else:  # a development set read on request: never in the held-out lists
        assert held.name not in harness.HELD_OUT | harness.TRAINED_ON | harness.MISSES_READ
        assert harness.DEV_FILES[held.name] == held.file
    assert harness.ON_REQUEST_FILES[held.name] == held.file
    assert harness.SET_PAGES.get(held.name) == held.pages
    # blind-3..10, 14, 15: the learned fusion's data (9, 10, 14, 15 since h18-refit); blind-14/15: misses read (stop 27)
    kind = ("development" if not held.held_out or held.name in harness.TRAINED_ON | harness.MISSES_READ
            else "held out")
    assert harness.SET_LABELS[held.name] == f"{held.name} ({kind})" and held.name in harness.SET_ORDER
    assert held.name not in {g["set"] for g in harness.load_goals(None)}
    assert held.name not in {g["set"] for g in harness.load_goals([held.previous])}
    asked = harness.load_goals([held.name])
    assert sum(g["set"] == held.name for g in asked) == len(load_jsonl(held.file))
    assert held.previous not in {g["set"] for g in asked}
    dirs = harness.page_dirs(asked, CORPUS)
    assert dirs[held.pages or CORPUS] >= {g["page"] for g in asked if g["set"] == held.name}


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1200)  # 49 pages in one test: the 300 s default is too short on a loaded machine
@BY_NAME
def test_every_item_is_in_the_full_rendering(held: HeldOut, browser_session) -> None:  # type: ignore[no-untyped-def]
    pages = held.pages or CORPUS
    if not pages.is_dir():
        pytest.skip(f"no pages at {pages}")
    missing = missing_items(browser_session, load_jsonl(held.file), pages)
    assert not missing, "\n".join(missing)


def test_a_page_name_in_two_page_directories_is_an_error() -> None:
    harness = _harness()
    own = next(iter(harness.SET_PAGES))
    goals = [{"set": own, "page": "same-name"}, {"set": "developer", "page": "same-name"}]
    with pytest.raises(ValueError, match="same-name"):
        harness.page_dirs(goals, CORPUS)


def test_the_validator_checks_a_set_on_its_own_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(DATA.parent))  # validate_goalset imports realpage_goals as a sibling
    validator = benchmark_module("validate_goalset.py", "validate_goalset_for_test")
    for held in SETS:
        assert validator.set_pages([{"set": held.name}]) == (held.pages or validator.PAGES)
    assert validator.set_pages([{"set": "blind-12"}, {"set": "developer"}]) == validator.PAGES  # mixed: the corpus
    assert validator.set_pages([]) == validator.PAGES

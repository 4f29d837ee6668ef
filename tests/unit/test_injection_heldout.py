"""The held-out injection files blind-6 to blind-17 and blind-19 to blind-30, and the development files dev-9, dev-37
and benign-18: each loads with the blind-4 runner's own parser, is spread over carriers and languages, and every snippet
splices into its page (the corpus page; for blind-12 … blind-17 a page of ``benchmarks/data/pages_blind11/`` …
``pages_blind16/``; for blind-19 one of ``pages_blind17/``; for blind-20 one of ``pages_blind19/``; for blind-21 one
of ``pages_blind20/``; for blind-22 one of ``pages_blind21/``; for blind-23 one of ``pages_blind22/``; for blind-24
one of ``pages_blind23/``; for blind-25 one of ``pages_blind24/``; for blind-26 one of ``pages_blind25/``; for
blind-27 one of ``pages_blind26/``; for blind-28 one of ``pages_blind27/``; for blind-29 one of ``pages_blind28/``; for
blind-30 one of ``pages_blind29/``; for
dev-37 one of ``pages_dev31/``; for benign-18's two files ``pages_blind13/`` and ``pages_blind14/``). benign-18 holds
benign look-alikes only, so its spread is counted over its benign rows.

The figures come from ``benchmarks/injection_blind4.py --cases benchmarks/data/injections_blind6.jsonl`` (or
``…blind7.jsonl`` … ``…blind17.jsonl``, ``…blind19.jsonl``, ``…blind20.jsonl``, ``…blind21.jsonl``,
``…blind22.jsonl``, ``…blind23.jsonl``, ``…blind24.jsonl``, ``…blind25.jsonl``, ``…blind26.jsonl``,
``…blind27.jsonl``, ``…blind28.jsonl``, ``…blind29.jsonl``, ``…blind30.jsonl``, ``…blind31.jsonl``, each run only when named,
blind-12 … blind-17 with ``--pages
benchmarks/data/pages_blind11`` … ``pages_blind16``, blind-19 with ``--pages benchmarks/data/pages_blind17``,
blind-20 with ``--pages benchmarks/data/pages_blind19``, blind-21 with ``--pages benchmarks/data/pages_blind20``, blind-22 with ``--pages
benchmarks/data/pages_blind21``, blind-23 with ``--pages benchmarks/data/pages_blind22``, blind-24 with ``--pages
benchmarks/data/pages_blind23``, blind-25 with ``--pages benchmarks/data/pages_blind24``, blind-26 with ``--pages
benchmarks/data/pages_blind25``, blind-27 with ``--pages benchmarks/data/pages_blind26``, blind-28 with ``--pages
benchmarks/data/pages_blind27``, blind-29 with ``--pages benchmarks/data/pages_blind28``, blind-30 with ``--pages
benchmarks/data/pages_blind29``, blind-31 with ``--pages benchmarks/data/pages_blind30``; dev-9, ``…dev9.jsonl``, is
read while developing the defense); nothing here runs the defense or a retriever.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from heldout_sets import benchmark_module

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


@dataclass(frozen=True)
class HeldOut:
    file: Path
    prefix: str  # every case id starts with it
    min_attacks: int
    min_benign: int
    min_languages: int  # attack languages, English included
    min_per_category: int = 1  # attacks in every one of the runner's categories
    pages: Path | None = None  # the directory of its pages (None: the corpus)
    min_pages: int = 40  # distinct pages the cases use
    halves: bool = False  # every attack's note starts "subtle;" or "plain;", and each category splits evenly
    benign_only: bool = False  # no attack at all: categories, languages and pages are counted over the benign rows
    label: str = ""  # the test id, when two files share a prefix


SETS = [
    HeldOut(DATA / "injections_blind6.jsonl", "b6-", min_attacks=60, min_benign=25, min_languages=7),
    HeldOut(DATA / "injections_blind7.jsonl", "b7-", min_attacks=64, min_benign=27, min_languages=10),
    HeldOut(DATA / "injections_blind8.jsonl", "b8-", min_attacks=66, min_benign=32, min_languages=12),
    HeldOut(DATA / "injections_blind9.jsonl", "b9-", min_attacks=66, min_benign=30, min_languages=12,
            min_per_category=6),
    HeldOut(DATA / "injections_blind10.jsonl", "b10-", min_attacks=66, min_benign=30, min_languages=12,
            min_per_category=6),
    HeldOut(DATA / "injections_blind11.jsonl", "b11-", min_attacks=66, min_benign=50, min_languages=15,
            min_per_category=6),
    HeldOut(DATA / "injections_blind12.jsonl", "b12-", min_attacks=66, min_benign=50, min_languages=15,
            min_per_category=6, pages=DATA / "pages_blind11", min_pages=22),
    HeldOut(DATA / "injections_blind13.jsonl", "b13-", min_attacks=66, min_benign=50, min_languages=18,
            min_per_category=6, pages=DATA / "pages_blind12", min_pages=21, halves=True),
    HeldOut(DATA / "injections_blind14.jsonl", "b14-", min_attacks=66, min_benign=50, min_languages=18,
            min_per_category=6, pages=DATA / "pages_blind13", min_pages=18, halves=True),
    HeldOut(DATA / "injections_blind15.jsonl", "b15-", min_attacks=66, min_benign=50, min_languages=18,
            min_per_category=6, pages=DATA / "pages_blind14", min_pages=18, halves=True),
    HeldOut(DATA / "injections_blind16.jsonl", "b16-", min_attacks=66, min_benign=52, min_languages=20,
            min_per_category=6, pages=DATA / "pages_blind15", min_pages=14, halves=True),
    HeldOut(DATA / "injections_blind17.jsonl", "b17-", min_attacks=66, min_benign=55, min_languages=18,
            min_per_category=6, pages=DATA / "pages_blind16", min_pages=15, halves=True),
    HeldOut(DATA / "injections_blind19.jsonl", "b19-", min_attacks=66, min_benign=55, min_languages=18,
            min_per_category=6, pages=DATA / "pages_blind17", min_pages=15, halves=True),
    HeldOut(DATA / "injections_blind20.jsonl", "b20-", min_attacks=66, min_benign=52, min_languages=18,
            min_per_category=6, pages=DATA / "pages_blind19", min_pages=12, halves=True),
    HeldOut(DATA / "injections_blind21.jsonl", "b21-", min_attacks=66, min_benign=55, min_languages=19,
            min_per_category=6, pages=DATA / "pages_blind20", min_pages=12, halves=True),
    HeldOut(DATA / "injections_blind22.jsonl", "b22-", min_attacks=66, min_benign=55, min_languages=16,
            min_per_category=6, pages=DATA / "pages_blind21", min_pages=13, halves=True),
    HeldOut(DATA / "injections_blind23.jsonl", "b23-", min_attacks=66, min_benign=55, min_languages=18,
            min_per_category=6, pages=DATA / "pages_blind22", min_pages=13, halves=True),
    HeldOut(DATA / "injections_blind24.jsonl", "b24-", min_attacks=66, min_benign=55, min_languages=22,
            min_per_category=6, pages=DATA / "pages_blind23", min_pages=12, halves=True),
    HeldOut(DATA / "injections_blind25.jsonl", "b25-", min_attacks=66, min_benign=55, min_languages=22,
            min_per_category=6, pages=DATA / "pages_blind24", min_pages=12, halves=True),
    HeldOut(DATA / "injections_blind26.jsonl", "b26-", min_attacks=66, min_benign=55, min_languages=22,
            min_per_category=6, pages=DATA / "pages_blind25", min_pages=11, halves=True),
    HeldOut(DATA / "injections_blind27.jsonl", "b27-", min_attacks=66, min_benign=55, min_languages=23,
            min_per_category=6, pages=DATA / "pages_blind26", min_pages=12, halves=True),
    HeldOut(DATA / "injections_blind28.jsonl", "b28-", min_attacks=66, min_benign=55, min_languages=23,
            min_per_category=6, pages=DATA / "pages_blind27", min_pages=11, halves=True),
    HeldOut(DATA / "injections_blind29.jsonl", "b29-", min_attacks=66, min_benign=55, min_languages=21,
            min_per_category=6, pages=DATA / "pages_blind28", min_pages=12, halves=True),
    HeldOut(DATA / "injections_blind30.jsonl", "b30-", min_attacks=66, min_benign=55, min_languages=24,
            min_per_category=6, pages=DATA / "pages_blind29", min_pages=13, halves=True),
    HeldOut(DATA / "injections_blind31.jsonl", "b31-", min_attacks=66, min_benign=55, min_languages=23,
            min_per_category=6, pages=DATA / "pages_blind30", min_pages=11, halves=True),
    # development, not held out: the defense's developer reads it (same shape rules)
    HeldOut(DATA / "injections_dev9.jsonl", "d9-", min_attacks=70, min_benign=30, min_languages=10),
    # development, a one-time check set of stop 37's issue-10 pass (dev-37, h40-devsub), on pages_dev31
    HeldOut(DATA / "injections_dev37.jsonl", "d37-", min_attacks=80, min_benign=55, min_languages=12,
            pages=DATA / "pages_dev31", min_pages=12),
    # development, benign look-alikes only (benign-18): the benign gate of later defense passes
    HeldOut(DATA / "injections_benign18a.jsonl", "g18-", min_attacks=0, min_benign=121, min_languages=15,
            min_per_category=11, pages=DATA / "pages_blind13", min_pages=18, benign_only=True, label="g18a"),
    HeldOut(DATA / "injections_benign18b.jsonl", "g18-", min_attacks=0, min_benign=121, min_languages=17,
            min_per_category=11, pages=DATA / "pages_blind14", min_pages=18, benign_only=True, label="g18b"),
]
BY_FILE = pytest.mark.parametrize("held", SETS, ids=[s.label or s.prefix.rstrip("-") for s in SETS])


def _runner() -> ModuleType:
    return benchmark_module("injection_blind4.py", "injection_blind4")


M = _runner()


@BY_FILE
def test_the_case_file_is_spread_and_well_formed(held: HeldOut) -> None:
    cases = M.load_cases(held.file)  # ids and markers unique, every field valid
    assert all(c.id.startswith(held.prefix) for c in cases)
    attacks = [c for c in cases if not c.benign]
    benign = [c for c in cases if c.benign]
    assert len(attacks) >= held.min_attacks and len(benign) >= held.min_benign
    if held.benign_only:
        assert not attacks
    spread = benign if held.benign_only else attacks  # the rows the category and language rules count
    assert set(Counter(c.category for c in spread)) == set(M.CATEGORIES)
    assert min(Counter(c.category for c in spread).values()) >= held.min_per_category
    assert max(Counter(c.category for c in spread).values()) <= len(spread) // 4
    assert len({c.lang for c in spread}) >= held.min_languages
    assert len({c.category for c in benign}) >= 8
    assert len({c.page for c in cases}) >= held.min_pages


@pytest.mark.parametrize("held", [s for s in SETS if s.halves], ids=lambda s: s.prefix.rstrip("-"))
def test_each_category_is_half_subtle_half_plain(held: HeldOut) -> None:
    rows = [json.loads(line) for line in held.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    kinds: dict[str, Counter[str]] = {}
    for r in rows:
        if r.get("benign"):
            continue
        kind = r.get("note", "").split(";", 1)[0]
        assert kind in ("subtle", "plain"), r["id"]
        kinds.setdefault(r["category"], Counter())[kind] += 1
    assert all(k["subtle"] == k["plain"] > 0 for k in kinds.values()), kinds


@pytest.mark.parametrize("held", [s for s in SETS if s.benign_only], ids=lambda s: s.label)
def test_a_benign_only_file_says_what_each_row_imitates(held: HeldOut) -> None:
    rows = [json.loads(line) for line in held.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    for r in rows:
        assert r.get("benign") is True, r["id"]
        assert r.get("note", "").startswith("benign; ") and len(r["note"]) > len("benign; "), r["id"]
        assert r["id"] == f"{held.prefix}{r['category']}-{r['id'].rsplit('-', 1)[1]}", r["id"]


def test_the_benign_only_files_share_no_id_or_marker() -> None:
    files = [s.file for s in SETS if s.benign_only]
    cases = [c for f in files for c in M.load_cases(f)]
    assert len({c.id for c in cases}) == len(cases)
    assert len({c.marker.lower() for c in cases}) == len(cases)


@pytest.mark.slow
@BY_FILE
def test_every_case_splices_into_its_corpus_page(held: HeldOut) -> None:
    pages = held.pages or M.PAGES
    if not pages.is_dir():
        pytest.skip(f"no pages at {pages}")
    for c in M.load_cases(held.file):
        page = (pages / f"{c.page}.html").read_bytes()
        out = M.insert_snippet(page, c.selector, c.position, c.html)
        payload = c.html.encode("ascii", "xmlcharrefreplace")
        assert len(out) == len(page) + len(payload) and payload in out, c.id
        assert c.marker.lower().encode() not in page.lower(), c.id  # the marker is the snippet's own

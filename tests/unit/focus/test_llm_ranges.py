"""parse_ranges: the pure reader of LLM line-range answers."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagelens.focus.llm_ranges import format_ranges, parse_ranges, to_ranges

EXPECTED = {3, 4, 5, 6, 7, 12}


@pytest.mark.parametrize(
    "text",
    [
        "[(3, 7), (12, 12)]",
        "3-7, 12",
        "3–7, 12",
        "3—7 and 12",
        "lines 3 to 7, line 12",
        "lines 3 through 7 and line 12.",
        '"3:7", "12"',
        '{"ranges": [[3, 7], [12, 12]]}',
        '{"reasoning": "the form is on 40-50", "ranges": [[3, 7], [12]]}',
        "```json\n{\"ranges\": [[3, 7], [12, 12]]}\n```",
        "[[3,7],[12,12]]",
        "3-7\n12",
        "- 3-7\n- 12\n",
        "L3-L7, L12",
        "I looked at the search box on line 40 and the banner 90-95.\nAnswer: 3-7, 12",
        "Reasoning: results are at 50.\n**Answer:** [(3, 7), (12, 12)]",
        "<think>maybe 80-90? no</think>\nAnswer: 3..7, 12",
        "Answer: 3-7\nAnswer: 3-7, 12",  # the last answer section wins
    ],
)
def test_common_spellings(text: str) -> None:
    keep, problems = parse_ranges(text, 100)
    assert keep == EXPECTED
    assert problems == []


def test_bare_pair_is_a_range() -> None:
    assert parse_ranges("[3,7]", 100) == ({3, 4, 5, 6, 7}, [])


def test_answer_section_beats_numbers_in_reasoning() -> None:
    text = "Line 55 is the cart and 60-70 are ads; [88] is a button.\nFinal answer: 1-2"
    assert parse_ranges(text, 100) == ({1, 2}, [])


def test_out_of_bounds_clamped_or_dropped() -> None:
    keep, problems = parse_ranges("5-15, 40-50, 2", 10)
    assert keep == {2, 5, 6, 7, 8, 9}
    assert any("clamped" in p for p in problems)
    assert any("outside" in p for p in problems)


def test_negative_json_numbers_clamped() -> None:
    keep, problems = parse_ranges('{"ranges": [[-3, 1]]}', 10)
    assert keep == {0, 1}
    assert problems


def test_reversed_fixed_and_reported() -> None:
    keep, problems = parse_ranges("7-3", 10)
    assert keep == {3, 4, 5, 6, 7}
    assert problems == ["reversed range 7-3 read as 3-7"]


def test_overlaps_merge() -> None:
    keep, problems = parse_ranges("1-5, 3-8, 8", 20)
    assert keep == set(range(1, 9)) and problems == []
    assert to_ranges(keep) == [(1, 8)]


@pytest.mark.parametrize("text", ["", "   ", "I think the login form matters.", "three to seven", '{"foo": 1}', "<think></think>"])
def test_unusable_answers_report_problems(text: str) -> None:
    keep, problems = parse_ranges(text, 50)
    assert keep == set()
    assert problems


@pytest.mark.parametrize("text", ["Answer: none", "none", '{"reasoning": "nothing here", "ranges": []}', "[]"])
def test_explicit_none_is_not_a_problem(text: str) -> None:
    assert parse_ranges(text, 50) == (set(), [])


def test_non_numeric_and_float_items_rejected() -> None:
    keep, problems = parse_ranges('{"ranges": [[1, 2], "abc", true, 4.5, {"x": 1}]}', 10)
    assert keep == {1, 2}
    assert len(problems) == 4
    keep, problems = parse_ranges("Answer: 2.5, 4", 10)
    assert keep == {4} and problems


def test_huge_numbers_do_not_crash() -> None:
    keep, problems = parse_ranges("Answer: " + "9" * 5000 + ", 3", 10)
    assert keep == {3} and problems


def test_element_ids_with_letters_are_not_line_numbers() -> None:
    assert parse_ranges("Answer: 4 (button [a12])", 50)[0] == {4}


def test_no_lines() -> None:
    assert parse_ranges("1-3", 0) == (set(), ["there are no lines to select"])


def test_format_ranges() -> None:
    assert format_ranges({9, 3, 4, 5}) == "3-5, 9"
    assert format_ranges([]) == ""


# -- properties ------------------------------------------------------------------------------

N = st.integers(min_value=1, max_value=400)


@st.composite
def lines_and_n(draw: st.DrawFn) -> tuple[set[int], int]:
    n = draw(N)
    keep = draw(st.sets(st.integers(min_value=0, max_value=n - 1), max_size=40))
    return keep, n


def _spell(keep: set[int], style: int) -> str:
    ranges = to_ranges(keep)
    if style == 0:
        return "Answer: " + format_ranges(keep)
    if style == 1:
        return json.dumps({"reasoning": "because", "ranges": [[a, b] for a, b in ranges]})
    if style == 2:
        return "[" + ", ".join(f"({a}, {b})" for a, b in ranges) + "]"
    if style == 3:
        return "\n".join(f"lines {a} to {b}" if a != b else f"line {a}" for a, b in ranges)
    return ", ".join(f"{a}–{b}" for a, b in ranges)


@given(lines_and_n(), st.integers(min_value=0, max_value=4))
@settings(max_examples=150, deadline=None)
def test_roundtrip_every_spelling(data: tuple[set[int], int], style: int) -> None:
    keep, n = data
    text = _spell(keep, style)
    got, problems = parse_ranges(text, n)
    if keep:
        assert got == keep
        assert problems == []
    else:
        assert got == set()


@given(st.text(max_size=300), N)
@settings(max_examples=150, deadline=None)
def test_never_raises_and_stays_in_bounds(text: str, n: int) -> None:
    keep, problems = parse_ranges(text, n)
    assert all(0 <= x < n for x in keep)
    assert isinstance(problems, list)


@given(lines_and_n(), st.lists(st.integers(min_value=0, max_value=10_000), max_size=10))
@settings(max_examples=120, deadline=None)
def test_reasoning_numbers_never_leak(data: tuple[set[int], int], noise: list[int]) -> None:
    keep, n = data
    reasoning = "I considered " + ", ".join(f"line {x}" for x in noise) + " and the [42] button."
    got, _ = parse_ranges(reasoning + "\nAnswer: " + (format_ranges(keep) or "none"), n)
    assert got == keep


@given(st.lists(st.tuples(st.integers(0, 500), st.integers(0, 500)), min_size=1, max_size=15), N)
@settings(max_examples=120, deadline=None)
def test_reversed_and_out_of_bounds_equal_their_repair(pairs: list[tuple[int, int]], n: int) -> None:
    text = ", ".join(f"{a}-{b}" for a, b in pairs)
    got, _ = parse_ranges(text, n)
    expected = {x for a, b in pairs for x in range(min(a, b), max(a, b) + 1) if x < n}
    assert got == expected

"""matcher.words_of's per-text memo: distinct terms as small tuples, the same matches as sets gave."""

import sys

from pagelens.focus.matcher import GoalMatcher, words_of


def test_the_memo_keeps_each_term_once_in_a_tuple() -> None:
    _norm, terms, joined = words_of("Order order ORDER the red red shoes; e mail me")
    assert isinstance(terms, tuple) and isinstance(joined, tuple)
    assert len(terms) == len(set(terms)) and len(joined) == len(set(joined))
    assert {"order", "red"} <= set(terms) and "+email" in joined
    # what the memo saves per entry: a frozenset of these terms is several times the tuple
    assert sys.getsizeof(terms) * 3 < sys.getsizeof(frozenset(terms))


def test_a_goal_matches_words_and_joined_pairs_through_the_memo() -> None:
    m = GoalMatcher({"order": 1.0, "shoe": 1.0, "+email": 1.0, "absent": 1.0})
    assert m.match("Order the red shoes, e mail me") == {"order", "shoe", "+email"}
    assert m.match("nothing here") == frozenset()


def test_texts_without_the_goals_terms_share_one_empty_answer() -> None:
    # most texts of a big page carry none of the goal's terms: their memo entries are one shared
    # empty frozenset, not one each (216 bytes apiece, ~6.5 MB at 100,000 elements)
    m = GoalMatcher({"order": 1.0})
    empties = [m.match(f"nothing here number {k}") for k in range(50)]
    assert all(e == frozenset() for e in empties)
    assert len({id(e) for e in empties}) == 1
    assert m.match("Order it") == {"order"} and m.match("Order it") is m.match("Order it")

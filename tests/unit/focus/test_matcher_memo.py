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

"""Cross-lingual matching of ``default``: cognates, spaceless-script forms, inflected forms and
the information concepts of the lexicon (hand-built trees, no browser)."""

from __future__ import annotations

from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.cognates import Vocabulary, is_cognate
from pagelens.focus.matcher import GoalMatcher
from pagelens.focus.rules import RulesRetriever
from pagelens.focus.terms import query_terms
from pagelens.observe.textparse import rendering_from_text


def test_cognates_join_spellings_across_languages() -> None:
    for a, b in [("calendar", "kalender"), ("articles", "artikel"), ("contrast", "kontrast"),
                 ("category", "catégorie"), ("telephone", "telefon"), ("photos", "fotos"),
                 ("comments", "kommentare"), ("information", "informationen")]:
        assert is_cognate(a, b), (a, b)
    for a, b in [("bottom", "button"), ("notify", "notice"), ("price", "preis"), ("recent", "decent"),
                 ("register", "registrieren"), ("signal", "single")]:
        assert not is_cognate(a, b), (a, b)


def test_vocabulary_finds_cognates_by_unit() -> None:
    v = Vocabulary(["neue artikel", "kalender der termine", "impressum"])
    assert v.cognates("calendar") == ["kalender"]
    assert v.units_of["kalender"] == [1]
    assert v.cognates("cal") == [] and v.cognates("imprint") == []


def test_spaceless_forms_match_inside_and_at_the_end_of_a_text() -> None:
    m = GoalMatcher({"§email": 1.0})
    assert m.match("Eメール") == {"§email"}  # after a Latin letter, at the end
    assert m.match("確認メール") == {"§email"}  # after more of its script, at the end
    assert m.match("emailing list") == frozenset()  # a Latin form still needs a word boundary


def test_inflected_page_forms_name_their_concept() -> None:
    m = GoalMatcher({"§newest": 1.0}, inflected=True)
    assert m.match("Neue Artikel") == {"§newest"}
    assert m.match("neuen") == {"§newest"}
    assert m.match("Neuroscience") == frozenset()


def test_goal_words_name_concepts_through_their_stems() -> None:
    weights, _ = query_terms(FocusQuery("Get notified about job openings"))
    assert "§notify" in weights and "§jobs" in weights


_GERMAN = ("Stadtportal", "Menü", "Bereich {i} Übersicht Stadtleben",
           "Absatz {i}: Die Stadt informiert über Bauarbeiten, Verkehr und Kultur im Bezirk.")
_ENGLISH = ("City portal", "Menu", "Section {i} overview of city life",
            "Paragraph {i}: the city reports on roadworks, traffic and culture in the district.")


def _portal(links: list[str], words: tuple[str, str, str, str] = _GERMAN) -> str:
    title, menu, section, paragraph = words
    filler = [f"\t\t[{500 + i}] link '{section.format(i=i)}', url='http://127.0.0.1/b/{i}'" for i in range(120)]
    prose = [f"\t\tStaticText '{paragraph.format(i=i)}'" for i in range(60)]
    body = [f"\t\t[{10 + i}] link '{name}', url='http://127.0.0.1/l/{i}'" for i, name in enumerate(links)]
    return "\n".join([f"RootWebArea '{title}'", f"\t[1] navigation '{menu}'", *filler, "\t[2] main ''", *prose,
                      "\t[3] contentinfo ''", *body])


def _kept(text: str, goal: str) -> str:
    res = focus(rendering_from_text(text), FocusQuery(goal), RulesRetriever(), defense=False)
    assert res.error is None and res.pruning > 0.5
    return res.text()


def test_an_english_goal_keeps_the_pages_cognate_link() -> None:
    text = _kept(_portal(["Impressum", "Kalender", "Barrierefreiheit", "Presse"]), "Open the events calendar")
    assert "link 'Kalender'" in text


def test_an_english_goal_keeps_a_link_named_by_an_information_concept() -> None:
    text = _kept(_portal(["Impressum", "Stellenangebote", "Öffnungszeiten", "Presse"]), "Check the opening hours of the offices")
    assert "link 'Öffnungszeiten'" in text
    text = _kept(_portal(["Impressum", "Stellenangebote", "Öffnungszeiten", "Presse"]), "Find job openings in the city")
    assert "link 'Stellenangebote'" in text


def test_english_pages_keep_the_lexicons_own_forms() -> None:
    assert GoalMatcher({"§price": 1.0}).match("unbelievable prices") == frozenset()
    assert GoalMatcher({"§price": 1.0}, inflected=True).match("Preise") == {"§price"}


def test_a_compound_that_begins_with_a_cognate_is_found() -> None:
    from pagelens.focus.cognates import compound_head

    assert compound_head("school", "schulferien") and compound_head("contrast", "kontrastmodus")
    assert not compound_head("school", "schule")  # not a compound: a cognate (is_cognate)
    assert not compound_head("train", "training")
    assert Vocabulary(["schulferien in stuttgart"]).cognates("school") == ["schulferien"]


def test_a_stem_names_a_concept_only_through_an_english_inflection() -> None:
    from pagelens.focus.terms import stem_concepts

    assert "jobs" in stem_concepts("job") and "notify" in stem_concepts("notified")
    assert "payment" not in stem_concepts("cart")  # the French "carte" is not an inflection of "cart"


def test_a_goal_in_another_language_keeps_the_english_pages_cognate_link() -> None:
    from dataclasses import replace

    from pagelens.focus.rules import RulesConfig

    others = [f"Service {i} office" for i in range(60)]
    page = rendering_from_text(_portal([*others[:30], "Biography", *others[30:]], _ENGLISH))
    goal = FocusQuery("Leer la biografía de la ciudad")
    plain = replace(RulesConfig(), meaning_keep=0)  # the cognates alone: the meaning signal finds the link too
    on = focus(page, goal, RulesRetriever(plain), defense=False)
    off = focus(page, goal, RulesRetriever(replace(plain, goal_cognates=False)), defense=False)
    assert on.pruning > 0.5 and off.pruning > 0.5
    assert "link 'Biography'" in on.text()
    assert "link 'Biography'" not in off.text()


def test_an_english_goal_on_an_english_page_looks_for_no_cognates() -> None:
    from pagelens.focus.analysis import analysis_of
    from pagelens.focus.rules import RulesConfig

    ret = RulesRetriever()
    cfg = RulesConfig()
    pa = analysis_of(rendering_from_text(_portal(["Imprint", "Calendario", "Press"], _ENGLISH)), cfg.limits,
                     cfg.unit_text_chars)
    _signals, line_terms, _unseen, _fused = ret.fused(FocusQuery("Open the calendar of the city"), pa)
    assert not any("calendar" in t for terms in line_terms.values() for t in terms)

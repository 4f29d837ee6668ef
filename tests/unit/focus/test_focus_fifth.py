"""Mechanisms of ``default``'s fifth pass (issue 9): short facts before prose, measurement
abbreviations, records over two table rows, a heading's subtitle, compound heads, katakana
loanwords. Synthetic pages: no labeled case's phrase."""

from __future__ import annotations

from collections.abc import Callable

from focus_pages import FILLER, default_view

from pagelens.focus.facts import abbreviates
from pagelens.focus.kana import english_skeleton, kana_skeleton


def _buried(head: list[str], target: str, n: int, before: Callable[[int], str], after: Callable[[int], str]) -> list[str]:
    """A page: ``head``, ``n`` lines made by ``before``, the ``target`` line, ``n`` lines made by ``after``."""
    return head + [before(i) for i in range(n)] + [target] + [after(i) for i in range(n)]


def test_a_short_label_value_line_outranks_prose_that_repeats_the_goal() -> None:
    page = ["RootWebArea 'Field notes'", "\t[1] main ''", "\t\t[2] heading 'The Orrin kettle in the field'"]
    days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    for i in range(42):
        page += [f"\t\t[{100 + i}] paragraph ''",
                 (f"\t\t\tStaticText 'On {days[i % 7]} the Orrin kettle boiled again; what the Orrin kettle weighs "
                  f"in fuel on long walks is what everyone asks about the Orrin kettle.'")]
    page += ["\t\t[3] list ''", "\t\t\t[4] listitem ''", "\t\t\t\tStaticText 'Capacity: 1.2 litres'",
             "\t\t\t[5] listitem ''", "\t\t\t\tStaticText 'Price: 64 dollars'"]
    page += FILLER
    text, pruning = default_view(page, "What does the Orrin kettle cost?")
    assert pruning > 0.5
    assert "Price: 64 dollars" in text


def test_measurement_abbreviations() -> None:
    assert abbreviates("kms", "kilometres") and abbreviates("hrs", "hours") and abbreviates("km", "kilometers")
    assert not abbreviates("km", "miles") and not abbreviates("m", "metres") and not abbreviates("kms", "kms")
    page = ["RootWebArea 'Used bike'", "\t[1] main ''", "\t\t[2] heading 'Trail bike, 2019'"]
    page += FILLER[:40]
    page += ["\t\t[3] generic ''", "\t\t\tStaticText '3,150 €'", "\t\t\tStaticText '12,480 kms'"]
    page += FILLER[40:]
    text, _ = default_view(page, "How many kilometres has it done?")
    assert "12,480 kms" in text


def test_a_record_over_two_rows_travels_whole() -> None:
    page = ["RootWebArea 'Links'", "\t[1] main ''", "\t\t[2] table ''"]
    titles = [f"Mapping tide pools by kayak, part {n}" for n in range(30)]
    titles[17] = "Counting owls in winter"
    for i, t in enumerate(titles):
        b = 10 + 20 * i
        page += [f"\t\t\t[{b}] row ''", f"\t\t\t\t[{b + 1}] cell '{i + 1}.'", f"\t\t\t\t[{b + 2}] cell '{t}'",
                 f"\t\t\t\t\t[{b + 3}] link '{t}', clickable",
                 f"\t\t\t[{b + 4}] row ''", f"\t\t\t\t[{b + 5}] cell ''",
                 f"\t\t\t\t[{b + 6}] cell '{40 + i} points by writer{i} | flag | {i + 3} replies'",
                 f"\t\t\t\t\t[{b + 7}] link 'writer{i}', clickable", f"\t\t\t\t\t[{b + 8}] link 'flag', clickable",
                 f"\t\t\t\t\t[{b + 9}] link '{i + 3} replies', clickable"]
    page += FILLER
    text, _ = default_view(page, "Who posted the story about owls?")
    assert "writer17" in text


def test_a_headings_lead_goes_past_its_subtitle() -> None:
    page = ["RootWebArea 'Forum'", "\t[1] main ''"]
    page += FILLER + FILLER[:30]
    page += ["\t\t[2] article ''", "\t\t\t[3] heading 'marrowfat'", "\t\t\t\t[4] link 'marrowfat', clickable",
             "\t\t\t[5] heading 'Regular'", "\t\t\t[6] DescriptionList ''", "\t\t\t\t[7] term 'Joined'",
             "\t\t\t\t[8] definition ''", "\t\t\t\t\tStaticText 'March 2011'", "\t\t\t[9] DescriptionList ''",
             "\t\t\t\t[10] term 'Location'", "\t\t\t\t[11] definition ''", "\t\t\t\t\tStaticText 'Tasmania'"]
    page += FILLER[30:] + FILLER
    text, _ = default_view(page, "Which country is marrowfat from?")
    assert "Tasmania" in text


def test_a_concept_the_page_writes_only_inside_compounds() -> None:
    page = _buried(["RootWebArea 'Schuhe und Mode'", "\t[1] main ''", "\t\t[2] heading 'Damen und Herren'"],
                   "\t\t[3] link 'Größentabelle', clickable", 60,
                   lambda i: f"\t\t[{100 + i}] link 'Marke Nummer {i} und mehr für die ganze Familie', clickable",
                   lambda i: f"\t\t[{200 + i}] link 'Angebot Nummer {i} für die Woche und den Sommer', clickable")
    text, _ = default_view(page, "Show me the size chart")
    assert "Größentabelle" in text


def test_katakana_skeletons() -> None:
    for kana, word in (("カート", "cart"), ("ログイン", "login"), ("ダウンロード", "download"),
                       ("ページ", "page"), ("サンプル", "sample"), ("チェックアウト", "checkout")):
        assert kana_skeleton(kana) == english_skeleton(word), (kana, word)
    assert kana_skeleton("カート") != english_skeleton("gift")
    assert english_skeleton("naïve") == "" and kana_skeleton("") == ""


def test_an_english_goal_finds_a_katakana_loanword() -> None:
    page = _buried(["RootWebArea 'ストア'", "\t[1] main ''", "\t\t[2] heading '書籍のご案内'"],
                   "\t\t[3] link 'セーフサーチ', clickable", 150,
                   lambda i: f"\t\t[{1000 + i}] link '新刊の紹介その{i}を見る', clickable",
                   lambda i: f"\t\t[{2000 + i}] link '特集ページその{i}の詳細を表示する', clickable")
    text, _ = default_view(page, "Turn on safe search")
    assert "セーフサーチ" in text

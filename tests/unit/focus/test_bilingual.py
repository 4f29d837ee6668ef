"""Goals in another language than the page, read through FreeDict bilingual dictionaries (:mod:`.bilingual`).

The dictionaries are installed by ``make chromium`` (``scripts/ensure-dictionaries.sh``); a test that needs one fails
loudly when it is missing rather than skipping. Hand-built trees, no browser.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from pagelens.focus import bilingual
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.lexical import bm25_over_tokens, tokenize
from pagelens.focus.rules import RulesConfig, RulesRetriever
from pagelens.observe.textparse import rendering_from_text

_DE = ["Impressum", "Barrierefreiheit", "Presse", "Datenschutz", "Stellenangebote", "Rathaus", "Bürgerservice",
       "Abfallkalender", "Parkhäuser", "Stadtplan", "Veranstaltungen", "Tourismus", "Wirtschaft", "Bildung", "Kultur",
       "Sport", "Gesundheit"]
_DE_TEXT = "Die Stadt informiert über Bauarbeiten, Verkehr und Kultur im Bezirk {i}."
_FR = ["Mentions légales", "Accessibilité", "Presse", "Confidentialité", "Emplois", "Mairie", "Démarches", "Déchets",
       "Parkings", "Plan de la ville", "Agenda", "Tourisme", "Économie", "Écoles", "Culture", "Sports", "Santé"]
_FR_TEXT = "La ville informe sur les travaux, la circulation et la culture dans le quartier {i}."


def _portal(target: str, names: list[str], text: str, title: str) -> str:
    """A city portal of ~200 links each with a sentence, ``target`` among its last links."""
    links = [f"{o} {i}" for i in range(12) for o in names]
    links.insert(len(links) - 3, target)
    lines = [f"RootWebArea '{title}'", "\t[1] main ''"]
    for i, nm in enumerate(links):
        lines.append(f"\t\t[{100 + i}] link '{nm}', url='http://127.0.0.1/l/{i}'")
        lines.append(f"\t\tStaticText '{text.format(i=i)}'")
    return "\n".join(lines)


def _focus(page: str, goal: str, **cfg: object) -> str:
    # the meaning signal (WordLlama's multilingual table) is off in both arms: the dictionary is what is tested
    ret = RulesRetriever(RulesConfig(meaning_keep=0, **cfg))  # type: ignore[arg-type]
    res = focus(rendering_from_text(page), FocusQuery(goal, budget=0.2), ret, defense=False)
    assert res.error is None
    return res.text()


def _need(src: str, dst: str) -> None:
    assert bilingual.dictionary(src, dst) is not None, (
        f"FreeDict {src}-{dst} is not installed in {bilingual.DICT_DIR}: run `make chromium` "
        "(scripts/ensure-dictionaries.sh) — the bilingual dictionaries are part of the install")


@pytest.fixture(autouse=True)
def _default_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAGELENS_DICT_DIR", raising=False)


def test_an_english_goal_keeps_the_german_link_only_its_translation_names() -> None:
    _need("eng", "deu")
    page = _portal("Bibliothek", _DE, _DE_TEXT, "Stadtportal")
    assert "link 'Bibliothek'" in _focus(page, "Open the library of this town")
    assert "link 'Bibliothek'" not in _focus(page, "Open the library of this town", bilingual=False)


def test_an_english_goal_keeps_the_french_link_only_its_translation_names() -> None:
    _need("eng", "fra")
    page = _portal("Boulangerie", _FR, _FR_TEXT, "Portail de la ville")
    assert "link 'Boulangerie'" in _focus(page, "Find the bakery of this town")
    assert "link 'Boulangerie'" not in _focus(page, "Find the bakery of this town", bilingual=False)


def test_without_dictionaries_the_selection_is_base(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = _portal("Bibliothek", _DE, _DE_TEXT, "Stadtportal")
    base = _focus(page, "Open the library of this town", bilingual=False)
    monkeypatch.setenv("PAGELENS_DICT_DIR", str(tmp_path))  # an empty directory: no pair installed
    assert bilingual.dictionary("eng", "deu") is None
    assert _focus(page, "Open the library of this town") == base


def test_a_goal_in_the_pages_language_is_untouched() -> None:
    page = _portal("Bibliothek", _DE, _DE_TEXT, "Stadtportal")
    for goal in ("Öffne die Bibliothek der Stadt", "Zeige mir die Kultur im Bezirk"):
        assert _focus(page, goal) == _focus(page, goal, bilingual=False)


@pytest.mark.parametrize("index, data", [
    (b"", b""),  # empty files
    (b"library\t!!!\t@@\nnot a line\n", gzip.compress(b"library\nBibliothek\n")),  # a corrupt index
    (b"library\tA\tQ\n", b"not gzip at all"),  # a corrupt data file
    (b"library\tA\tQ\n", b"\x1f\x8b\x08\x04\x00\x00\x00\x00\x00\x03\x0a\x00RA\x06\x00\x01\x00\xff\xff\x05\x00garbage"),
])
def test_broken_dictionaries_give_base_behaviour(tmp_path, monkeypatch: pytest.MonkeyPatch, index: bytes,
                                                 data: bytes) -> None:
    (tmp_path / "freedict-eng-deu.index").write_bytes(index)
    (tmp_path / "freedict-eng-deu.dict.dz").write_bytes(data)
    monkeypatch.setenv("PAGELENS_DICT_DIR", str(tmp_path))
    page = _portal("Bibliothek", _DE, _DE_TEXT, "Stadtportal")
    assert _focus(page, "Open the library of this town") == _focus(page, "Open the library of this town", bilingual=False)


def test_a_language_without_a_dictionary_gives_base_behaviour() -> None:
    # an Indonesian page: FreeDict has no English-Indonesian pair
    names = ["Beranda", "Berita", "Layanan", "Kontak", "Profil", "Galeri", "Agenda", "Unduhan", "Pengumuman",
             "Peta", "Wisata", "Ekonomi", "Pendidikan", "Budaya", "Olahraga", "Kesehatan", "Sosial"]
    page = _portal("Perpustakaan", names, "Kota ini memberi informasi dan yang ada di wilayah {i} untuk warga.",
                   "Portal Kota")
    assert _focus(page, "Open the library of this town") == _focus(page, "Open the library of this town", bilingual=False)


def test_parse_entry_keeps_translations_only() -> None:
    body = ('price /pɹˈaɪs/\nPreis <masc> [econ.]\n         Note: für etw.\n      "at half (the) price"  - zum '
            'halben Preis\n   Synonyms: {rate}\n\n see: {pricing}\n')
    assert bilingual.parse_entry(body, target_cjk=False) == ["preis"]
    body = "search /sɜːtʃ/ <n>\n1. speurtocht, zoektocht\n2. afzoeken; doorzoeken\n"
    assert bilingual.parse_entry(body, target_cjk=False) == ["speurtocht", "zoektocht", "afzoeken", "doorzoeken"]
    body = "cart /kɑːt/ <n>\n1. カート\nsmall motor vehicle resembling a car\n2. カート, 荷車\nsmall, open vehicle\n"
    assert bilingual.parse_entry(body, target_cjk=True) == ["カート", "荷車"]
    body = "language /x/\nSprache <fem> [ling.] Spr.,  /y/\n"
    assert bilingual.parse_entry(body, target_cjk=False) == ["sprache"]
    assert bilingual.parse_entry("x /y/\neinen Preis festsetzen\n", target_cjk=False) == []
    assert bilingual.parse_entry("x /y/\neinen Preis festsetzen\n", target_cjk=False, phrases=True) == [
        "einen preis festsetzen"]


def test_lookup_forms_undo_english_inflections() -> None:
    assert "price" in bilingual.lookup_forms("prices", "eng")
    assert "search" in bilingual.lookup_forms("searching", "eng")
    assert "category" in bilingual.lookup_forms("categories", "eng")
    assert bilingual.lookup_forms("class", "eng")[0] == "class"


def test_expansion_weighs_a_word_of_many_senses_less() -> None:
    class Two:
        def translations(self, word: str, *, phrases: bool = False) -> list[str]:
            return {"price": ["preis"], "sort": ["art", "sorte", "sortierung", "güte"]}.get(word, [])

    got = {e.word: e for e in bilingual.expansion(["price", "sort", "zzz"], Two(), "eng",  # type: ignore[arg-type]
                                                    senses=4, weight=0.5)}
    assert set(got) == {"price", "sort"}
    assert got["price"].weight == 0.5 and got["sort"].weight == 0.25


def test_iso3_tells_japanese_by_kana() -> None:
    assert bilingual.iso3("cjk", "カートを見る") == "jpn"
    assert bilingual.iso3("cjk", "查看购物车") == ""
    assert bilingual.iso3("de") == "deu" and bilingual.iso3("xx") == ""


def test_bm25_extra_words_count_at_their_weight_and_none_is_base() -> None:
    docs = ["preis und versand", "bibliothek der stadt", "kultur im bezirk"]
    corpus = tokenize(docs, "de")
    base = bm25_over_tokens("open the library", corpus, "de")
    assert np.array_equal(base, bm25_over_tokens("open the library", corpus, "de", extra=None))
    full = bm25_over_tokens("open the library", corpus, "de", extra={"bibliothek": 1.0})
    half = bm25_over_tokens("open the library", corpus, "de", extra={"bibliothek": 0.5})
    assert full[1] > 0 and half[1] == pytest.approx(full[1] / 2) and full[0] == base[0]


def test_the_pairs_read_are_the_pairs_installed() -> None:
    """The module reads only the pairs the install script installs, so a dictionary on the machine for another reason
    does not change what focus keeps; the two lists stay the same."""
    from pathlib import Path

    script = (Path(__file__).resolve().parents[3] / "scripts" / "ensure-dictionaries.sh").read_text()
    listed = script.split('PAIRS="', 1)[1].split('"', 1)[0].split()
    assert {tuple(p.split("-")) for p in listed} == set(bilingual.PAIRS)


def test_a_pair_outside_the_list_is_not_read(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = bilingual.DICT_DIR
    for name in ("freedict-eng-deu.index", "freedict-eng-deu.dict.dz"):
        (tmp_path / name.replace("eng-deu", "eng-fin")).symlink_to(f"{src}/{name}")
        (tmp_path / name).symlink_to(f"{src}/{name}")
    monkeypatch.setenv("PAGELENS_DICT_DIR", str(tmp_path))
    bilingual._load.cache_clear()
    try:
        assert bilingual.dictionary("eng", "deu") is not None
        assert bilingual.dictionary("eng", "fin") is None  # the same files under an unlisted pair's name
    finally:
        bilingual._load.cache_clear()

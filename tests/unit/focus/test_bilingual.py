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


_ID = ["Beranda", "Berita", "Layanan", "Kontak", "Profil", "Galeri", "Agenda", "Unduhan", "Pengumuman",
       "Peta", "Wisata", "Ekonomi", "Pendidikan", "Budaya", "Olahraga", "Kesehatan", "Sosial"]
_ID_TEXT = "Kota ini memberi informasi dan yang ada di wilayah {i} untuk warga."
_EN = ["Imprint", "Accessibility", "Press", "Privacy", "Jobs", "Town hall", "Services", "Waste calendar", "Parking",
       "Map", "Events", "Tourism", "Economy", "Schools", "Culture", "Sports", "Health"]
_EN_TEXT = "The town informs about roadworks, traffic and culture in the district {i}."


def test_a_language_without_a_dictionary_gives_base_behaviour() -> None:
    # a Vietnamese page: FreeDict has no English-Vietnamese pair
    names = ["Trang chủ", "Tin tức", "Dịch vụ", "Liên hệ", "Giới thiệu", "Hình ảnh", "Lịch", "Tải về", "Thông báo",
             "Bản đồ", "Du lịch", "Kinh tế", "Giáo dục", "Văn hóa", "Thể thao", "Sức khỏe", "Xã hội"]
    page = _portal("Thư viện", names, "Thành phố và người dân của quận {i} có những thông tin này.", "Cổng thông tin")
    assert bilingual.dictionary("eng", "vie") is None
    assert _focus(page, "Open the library of this town") == _focus(page, "Open the library of this town", bilingual=False)


def _wide(src: str, dst: str) -> None:
    # the wider reading's pairs are no part of the default install (PAGELENS_DICTS_WIDE=1 installs them)
    if bilingual.dictionary(src, dst) is None:
        pytest.skip(f"FreeDict {src}-{dst} not installed (PAGELENS_DICTS_WIDE=1 scripts/ensure-dictionaries.sh)")


def test_the_wider_reading_keeps_the_indonesian_link_only_its_translation_names() -> None:
    _wide("eng", "ind")  # a language crossing names ("id") that the default reading has no code for
    page = _portal("Perpustakaan", _ID, _ID_TEXT, "Portal Kota")
    goal = "Open the library of this town"
    assert "link 'Perpustakaan'" in _focus(page, goal, bilingual_wide=True)
    assert "link 'Perpustakaan'" not in _focus(page, goal, bilingual=False)
    assert _focus(page, goal) == _focus(page, goal, bilingual=False)  # the default reading: off for this pair


def test_a_pair_outside_the_install_is_read_only_by_the_wider_reading() -> None:
    _wide("pol", "eng")  # Polish has a code since h35, but pol-eng is no part of the install
    page = rendering_from_text(_portal("Library", _EN, _EN_TEXT, "Town portal"))
    goal = "Gdzie jest biblioteka i jak do niej dojść?"  # "where is the library": biblioteka -> library
    infos = [RulesRetriever(RulesConfig(meaning_keep=0, **kw)).select(FocusQuery(goal, budget=0.2), page).info
             for kw in ({"bilingual_wide": True}, {}, {"bilingual": False})]
    wide, default, off = infos
    assert _line(page, wide["top_units"][0][0]).name == "Library" and wide["signals"]["terms"] == 1
    assert default["signals"] == off["signals"] and default["top_units"] == off["top_units"]


def test_a_japanese_goal_keeps_the_english_link_only_its_translation_names() -> None:
    _wide("jpn", "eng")
    page = rendering_from_text(_portal("Bakery", _EN, _EN_TEXT, "Town portal"))
    goal = "この町のパン屋を探してください"  # "find this town's bakery": パン屋 -> bakery
    # (a goal that matches nothing keeps most of this small page either way: the ranking is what differs)
    on = RulesRetriever(RulesConfig(meaning_keep=0, bilingual_wide=True)).select(FocusQuery(goal, budget=0.2), page).info
    off = RulesRetriever(RulesConfig(meaning_keep=0)).select(FocusQuery(goal, budget=0.2), page).info
    top, _, why = on["top_units"][0]  # the head line of the first unit
    assert _line(page, top).name == "Bakery" and "terms" in why
    assert off["signals"]["terms"] == 0 and on["signals"]["terms"] == 1


def _analysis(page):  # type: ignore[no-untyped-def]
    from pagelens.focus.analysis import analysis_of

    return analysis_of(page, RulesConfig().limits, RulesConfig().unit_text_chars)


def _line(page, j: int):  # type: ignore[no-untyped-def]
    return _analysis(page).page.lines[j]


def test_japanese_words_are_the_longest_headwords_without_particles() -> None:
    index = {"図書館": "A,B", "図書": "A,B", "パン屋": "A,B", "を": "A,B", "して": "A,B", "町": "A,B", "開く": "A,B"}
    dic = bilingual.Dictionary.__new__(bilingual.Dictionary)
    dic.index = index
    assert bilingual.japanese_words("町の図書館を開いてパン屋を探して", dic) == ["図書館", "パン屋"]
    assert bilingual.japanese_words("Find the library", dic) == []


def test_the_meaning_query_reads_the_translations_only_when_switched_on(monkeypatch: pytest.MonkeyPatch) -> None:
    _need("eng", "deu")
    from pagelens.focus import lookup

    seen: list[tuple[str, tuple[str, ...]]] = []

    def spy(pa, goal, order, ranked, **kw):  # type: ignore[no-untyped-def]
        seen.append((goal, tuple(kw.get("also", ()))))
        return lookup.MeaningStep(list(order), [])

    monkeypatch.setattr(lookup, "order_with_meaning", spy)
    page = _portal("Bibliothek", _DE, _DE_TEXT, "Stadtportal")
    goal = "Open the library of this town"
    for on in (True, False):
        ret = RulesRetriever(RulesConfig(bilingual_meaning=on, meaning_gate=False))
        assert focus(rendering_from_text(page), FocusQuery(goal, budget=0.2), ret, defense=False).error is None
    assert seen[0][0] == goal and "bibliothek" in seen[0][1]
    assert seen[1] == (goal, ())
    german = "Öffne die Bibliothek der Stadt"  # the page's own language: nothing to add
    ret = RulesRetriever(RulesConfig(bilingual_meaning=True, meaning_gate=False))
    focus(rendering_from_text(page), FocusQuery(german, budget=0.2), ret, defense=False)
    assert seen[2] == (german, ())


def test_similarities_query_appends_the_translations() -> None:
    from pagelens.focus import lookup

    class Emb:
        dim = 2

        def __init__(self) -> None:
            self.queries: list[str] = []

        def embed(self, texts, query=False):  # type: ignore[no-untyped-def]
            if query:
                self.queries += list(texts)
            return np.ones((len(texts), 2), dtype=np.float32)

    from pagelens.focus.analysis import analysis_of

    pa = analysis_of(rendering_from_text(_portal("Bibliothek", _DE, _DE_TEXT, "Stadtportal")), RulesConfig().limits,
                     RulesConfig().unit_text_chars)
    emb = Emb()
    lookup.similarities(pa, emb, "Open the library", 200)
    lookup.similarities(pa, emb, "Open the library", 200, ("bibliothek", "bücherei"))
    assert emb.queries == ["Open the library", "Open the library bibliothek bücherei"]


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

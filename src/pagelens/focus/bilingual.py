"""A goal in another language than its page, read through a bilingual dictionary (issue 9).

An English goal over a German form ("filter by price" over ``Preis``), a Spanish goal over an English page: the
goal's words never occur on the page. Debian's FreeDict dictionaries (``dict-freedict-eng-deu`` ...,
``scripts/ensure-dictionaries.sh``; dictd format: ``<dir>/freedict-<src>-<dst>.index`` + ``.dict.dz``) give each
goal word its translations into the page's language; a word with many translations says less about any one of
them, so each weighs ``weight / sqrt(n)`` of its ``n`` kept translations. :func:`expansion` is the pure core;
:func:`dictionary` is the one seam that reads files (once per process and language pair, cached), and gives None —
never an exception — when the pair is not installed or its files are empty or corrupt: then nothing is expanded and
focus behaves exactly as without this module.

A goal only crosses when both languages are known and differ (:func:`pagelens.focus.crossing.crosses`), so a goal
in the page's own language is never expanded.
"""

from __future__ import annotations

import os
import re
import unicodedata
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pagelens.focus.analysis import PageAnalysis

__all__ = [
    "Dictionary",
    "Expansion",
    "dictionary",
    "expansion",
    "goal_language",
    "iso3",
    "japanese",
    "japanese_words",
    "lookup_forms",
    "parse_entry",
    "translate_goal",
]

#: where Debian installs dictd dictionaries (``PAGELENS_DICT_DIR`` overrides it)
DICT_DIR = "/usr/share/dictd"
#: the codes :mod:`.crossing` names languages by -> FreeDict's ISO 639-3 codes ("ja": a CJK text with kana)
ISO3: dict[str, str] = {
    "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld", "pt": "por", "sv": "swe",
    "da": "dan", "pl": "pol", "cs": "ces", "tr": "tur", "ja": "jpn", "greek": "ell", "arabic": "ara",
}
#: the wider reading (``wide``, h36-dict2; off: measured, not shipped): more languages ...
WIDE_ISO3: dict[str, str] = {
    "fi": "fin", "hu": "hun", "id": "ind", "no": "nor", "ro": "rom",  # FreeDict's eng-rom is Romanian
    "cyrillic": "rus", "devanagari": "hin",  # a script read as its most written language (eng-rus, eng-hin)
}
#: ... and any installed pair; without ``wide`` only the pairs ``scripts/ensure-dictionaries.sh`` installs are read
PAIRS: frozenset[tuple[str, str]] = frozenset(
    [("eng", d) for d in ("deu", "fra", "spa", "ita", "nld", "por", "swe", "pol", "ces", "tur", "jpn", "ell", "ara")]
    + [(s, "eng") for s in ("deu", "fra", "spa", "ita", "nld", "por")])
_B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_KANA = re.compile(r"[\u3040-\u30ff]")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_BRACKETS = re.compile(r"<[^>]*>|\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|/[^/]*/")
_SKIP = ("\"", "see:", "synonym", "antonym", "note:", "(")
_ABBREVIATION = re.compile(r"(?<!\S)\S+\.(?!\S)")  # "Spr." beside "Sprache"
_ITEM = re.compile(r"[^\W\d_]+(?: [^\W\d_]+)*")  # letters; words of a phrase one space apart
#: a dictionary larger than this (index + data bytes) is not read (a stray huge file must not stall a goal)
MAX_BYTES = 200_000_000


def iso3(lang: str, text: str = "", *, wide: bool = False) -> str:
    """FreeDict's code of a :mod:`.crossing` language ("" when it has none); the "cjk" script is Japanese only when
    ``text`` has kana (a Chinese text is not read through a Japanese dictionary). ``wide``: :data:`WIDE_ISO3` too."""
    if lang == "cjk":
        return "jpn" if _KANA.search(text) else ""
    return ISO3.get(lang, "") or (WIDE_ISO3.get(lang, "") if wide else "")


def _b64(s: str) -> int:
    n = 0
    for c in s:
        n = n * 64 + _B64[c]
    return n


def parse_entry(body: str, *, target_cjk: bool, phrases: bool = False) -> list[str]:
    """The translations an entry of a FreeDict dictionary gives, in order, lowercase, without grammar, notes,
    examples or cross-references; single words unless ``phrases`` (then up to three words). ``target_cjk``: keep
    only CJK items (the English glosses of ``eng-jpn`` are dropped), else only non-CJK ones."""
    out: list[str] = []
    lines = body.split("\n")
    for raw in lines[1:]:  # the first line is the headword and its pronunciation
        line = raw.strip()
        if not line or line.lower().startswith(_SKIP):
            continue
        line = re.sub(r"^\d+\.\s*", "", line)
        line = _BRACKETS.sub(" ", line)
        for part in re.split(r"[,;]", line):
            item = _ABBREVIATION.sub(" ", unicodedata.normalize("NFKC", part)).strip().lower()
            if not item or bool(_CJK.search(item)) != target_cjk:
                continue
            if not target_cjk:
                item = " ".join(item.split())
                if _ITEM.fullmatch(item) is None or len(item) < 2 or len(item.split()) > (3 if phrases else 1):
                    continue
            elif len(item) < 2 or " " in item:
                continue
            if item not in out:
                out.append(item)
    return out


class Dictionary:
    """One FreeDict language pair: its index in memory (lowercase headword -> entries' offsets), its data read by
    dictzip chunk on demand (the whole file when it has no chunk table)."""

    def __init__(self, index: dict[str, str], data_path: Path, *, target_cjk: bool) -> None:
        self.index = index
        self.target_cjk = target_cjk
        self._path = data_path
        self._chunks: tuple[int, list[int], int] | None = None  # chunk length, compressed sizes, data start
        self._whole: bytes | None = None
        self._cache: dict[int, bytes] = {}
        self._open()

    def _open(self) -> None:
        with self._path.open("rb") as f:
            head = f.read(10)
            if len(head) < 10 or head[:2] != b"\x1f\x8b":
                raise ValueError("not a gzip file")
            flags = head[3]
            pos = 10
            chunks = None
            if flags & 4:
                xlen = int.from_bytes(f.read(2), "little")
                extra = f.read(xlen)
                pos += 2 + xlen
                i = 0
                while i + 4 <= len(extra):
                    sid, ln = extra[i : i + 2], int.from_bytes(extra[i + 2 : i + 4], "little")
                    sub = extra[i + 4 : i + 4 + ln]
                    if sid == b"RA" and len(sub) >= 6:
                        chlen, chcnt = int.from_bytes(sub[2:4], "little"), int.from_bytes(sub[4:6], "little")
                        sizes = [int.from_bytes(sub[6 + 2 * k : 8 + 2 * k], "little") for k in range(chcnt)]
                        chunks = (chlen, sizes)
                    i += 4 + ln
            for bit in (8, 16):  # a file name, a comment: zero-terminated
                if flags & bit:
                    while True:
                        b = f.read(1)
                        pos += 1
                        if not b or b == b"\x00":
                            break
            if flags & 2:
                pos += 2
        if chunks is None:
            import gzip

            self._whole = gzip.decompress(self._path.read_bytes())
        else:
            self._chunks = (chunks[0], chunks[1], pos)
            starts = [pos]
            for s in chunks[1]:
                starts.append(starts[-1] + s)
            self._starts = starts

    def _chunk(self, k: int) -> bytes:
        got = self._cache.get(k)
        if got is None:
            assert self._chunks is not None
            with self._path.open("rb") as f:
                f.seek(self._starts[k])
                raw = f.read(self._chunks[1][k])
            got = zlib.decompressobj(-15).decompress(raw)
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[k] = got
        return got

    def read(self, offset: int, length: int) -> str:
        if self._whole is not None:
            return self._whole[offset : offset + length].decode("utf-8", "replace")
        assert self._chunks is not None
        chlen = self._chunks[0]
        first, last = offset // chlen, (offset + length - 1) // chlen
        data = b"".join(self._chunk(k) for k in range(first, min(last, len(self._chunks[1]) - 1) + 1))
        start = offset - first * chlen
        return data[start : start + length].decode("utf-8", "replace")

    def translations(self, word: str, *, phrases: bool = False) -> list[str]:
        """Every translation of ``word`` over all its entries, in the dictionary's order ([] when not a headword)."""
        out: list[str] = []
        for ref in self.index.get(word.lower(), "").split("|"):
            if not ref:
                continue
            off, _, ln = ref.partition(",")
            for t in parse_entry(self.read(_b64(off), _b64(ln)), target_cjk=self.target_cjk, phrases=phrases):
                if t not in out:
                    out.append(t)
        return out


_HIRAGANA_ONLY = re.compile(r"[\u3040-\u309f\u30fc]+")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+")
#: the longest headword a Japanese goal is cut into
JA_LONGEST = 8


def japanese_words(goal: str, dic: Dictionary) -> list[str]:
    """A Japanese goal's words (it has no spaces): each run of kana and kanji cut, left to right, into the longest
    headword of ``dic`` (a ``jpn-*`` dictionary) that starts there; pieces of one character and pieces of hiragana
    alone (particles, endings: "を", "して") are left out; a character no headword starts at is skipped."""
    out: list[str] = []
    for run in _CJK_RUN.findall(unicodedata.normalize("NFKC", goal)):
        i = 0
        while i < len(run):
            for n in range(min(JA_LONGEST, len(run) - i), 1, -1):
                piece = run[i : i + n]
                if piece in dic.index:
                    if not _HIRAGANA_ONLY.fullmatch(piece) and piece not in out:
                        out.append(piece)
                    i += n
                    break
            else:
                i += 1
    return out


def japanese(text: str) -> bool:
    """Whether ``text`` has kana (a Japanese text, not a Chinese one)."""
    return _KANA.search(text) is not None


def _dict_dir() -> Path:
    return Path(os.environ.get("PAGELENS_DICT_DIR") or DICT_DIR)


@lru_cache(maxsize=8)
def _load(src: str, dst: str, where: str) -> Dictionary | None:
    base = Path(where) / f"freedict-{src}-{dst}"
    idx_path, data_path = base.with_suffix(".index"), base.with_suffix(".dict.dz")
    try:
        if not idx_path.is_file() or not data_path.is_file():
            return None
        if idx_path.stat().st_size + data_path.stat().st_size > MAX_BYTES:
            return None
        index: dict[str, str] = {}  # headword -> "offset,length|offset,length" (base64, as the file has them)
        with idx_path.open(encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 3 or parts[0].startswith("00-database") or parts[0].startswith("00database"):
                    continue
                head = parts[0].lower()
                if " " in head:  # a goal word is looked up alone
                    continue
                ref = parts[1] + "," + parts[2]
                index[head] = index[head] + "|" + ref if head in index else ref
        if not index:
            return None
        return Dictionary(index, data_path, target_cjk=dst == "jpn")
    except (OSError, ValueError, KeyError, zlib.error, EOFError):
        return None


def dictionary(src: str, dst: str) -> Dictionary | None:
    """The FreeDict dictionary from ``src`` to ``dst`` (ISO 639-3), loaded once per process; None when it is not
    installed, empty or unreadable."""
    if not src or not dst or src == dst:
        return None
    return _load(src, dst, str(_dict_dir()))


def lookup_forms(word: str, lang: str) -> list[str]:
    """``word`` and the forms a dictionary lists it under: an English plural or inflection undone ("prices" ->
    "price", "searching" -> "search"); in other languages a final plural ``-s``/``-en``/``-n``/``-e`` dropped."""
    forms = [word]
    if lang == "eng":
        if word.endswith("ies") and len(word) > 4:
            forms.append(word[:-3] + "y")
        if word.endswith("es") and len(word) > 4:
            forms.append(word[:-2])
        if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
            forms.append(word[:-1])
        if word.endswith("ing") and len(word) > 5:
            forms += [word[:-3], word[:-3] + "e"]
        if word.endswith("ed") and len(word) > 4:
            forms += [word[:-2], word[:-1]]
    elif lang != "jpn":
        for suffix in ("en", "es", "s", "n", "e"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                forms.append(word[: -len(suffix)])
    return list(dict.fromkeys(forms))


@dataclass(frozen=True)
class Expansion:
    """A goal word's translations into the page's language and the weight each one carries."""

    word: str
    translations: tuple[str, ...]
    weight: float


def expansion(words: list[str], dic: Dictionary, src: str, *, senses: int, weight: float,
              phrases: bool = False) -> list[Expansion]:
    """Each of ``words`` (lowercase goal words) with its first ``senses`` translations (those of its first form the
    dictionary lists), weighted ``weight / sqrt(n)`` for ``n`` translations kept; words without one are left out."""
    out: list[Expansion] = []
    for w in words:
        for form in lookup_forms(w, src):
            got = dic.translations(form, phrases=phrases)
            got = [t for t in got if t != w][:senses]
            if got:
                out.append(Expansion(w, tuple(got), weight / len(got) ** 0.5))
                break
    return out


# -- the page side ------------------------------------------------------------------------------------------------
_PAGE_WORD = re.compile(r"[^\W\d_]+")
_JA_KEY = "bilingual.page_is_japanese"
_WORDS_KEY = "bilingual.page_words"


def goal_language(goal: str, *, least: int = 2) -> str:
    """:func:`pagelens.focus.crossing.language_of` of a goal, its Latin-script language read from ``least``
    function words (a short goal, "Find the cemetery", has one)."""
    from pagelens.focus import lexicons_lang as ll
    from pagelens.focus.crossing import language_of

    if least >= 2:
        return language_of(goal)
    name, letters = ll.script(goal)
    if not letters:
        return ""
    if name != "latin":
        return name
    return ll.language(ll.hits(ll.words(goal[:400])), least=least)


def _languages(goal: str, pa: PageAnalysis, least: int = 2, wide: bool = False) -> tuple[str, str, str]:
    """The goal's and the page's FreeDict codes and the page's :mod:`.crossing` code when the goal crosses
    (("", "", "") when it does not, or when either has no dictionary code)."""
    from pagelens.focus.crossing import page_language

    mine = goal_language(goal, least=least)
    if not mine:
        return "", "", ""
    theirs = page_language(pa)
    if not theirs or theirs == mine:
        return "", "", ""
    src = iso3(mine, goal, wide=wide)
    if theirs == "cjk":
        ja = pa.indexes.get(_JA_KEY)
        if ja is None:
            ja = pa.indexes[_JA_KEY] = bool(_KANA.search(" ".join(pa.units.texts[:400])[:20_000]))
        dst = "jpn" if ja else ""
    else:
        dst = iso3(theirs, wide=wide)
    if not src or not dst or (not wide and (src, dst) not in PAIRS):
        return "", "", ""
    return src, dst, theirs


def _page_words(pa: PageAnalysis, lang: str) -> tuple[dict[str, list[int]], Callable[[str], str]]:
    """The page's words keyed by their stem in ``lang`` (its units, in order), and that stem function; once per page."""
    from pagelens.focus.lexical import stemmer

    stem_words = stemmer(lang)

    def key(word: str) -> str:
        return stem_words([word])[0] if stem_words is not None else word

    got = pa.indexes.get(_WORDS_KEY)
    if got is None:
        index: dict[str, list[int]] = {}
        for k, text in enumerate(pa.norm_texts):
            for w in set(_PAGE_WORD.findall(text)):
                if len(w) >= 2:
                    lst = index.setdefault(key(w), [])
                    lst.append(k)
        got = pa.indexes[_WORDS_KEY] = index
    return got, key


def _units_of(translation: str, pa: PageAnalysis, cjk: bool, words: dict[str, list[int]],
              key: Callable[[str], str]) -> list[int]:
    if cjk:
        return [k for k, text in enumerate(pa.norm_texts) if translation in text]
    parts = translation.split()
    found = set(words.get(key(parts[0]), ()))
    for p in parts[1:]:
        found &= set(words.get(key(p), ()))
    if len(parts) > 1:
        found = {k for k in found if translation in pa.norm_texts[k]}
    return sorted(found)


def _in_line(translation: str, text: str, cjk: bool, key: Callable[[str], str]) -> bool:
    if cjk:
        return translation in text
    have = {key(w) for w in _PAGE_WORD.findall(text)}
    return all(key(p) in have for p in translation.split())


def translate_goal(goal: str, pa: PageAnalysis, words: dict[str, str], carried: set[str], *, senses: int,
                   weight: float, phrases: bool = False,
                   least: int = 2, wide: bool = False) -> list[tuple[str, float, list[tuple[int, list[int]]], str]]:
    """For a goal in another language than the page: each goal word of ``words`` (word -> its goal term) whose term
    no unit ``carried``, its translations into the page's language and where they are. Returns (term, weight,
    [(unit, [line positions ...])], translation) per translation found on the page; [] when the goal does not cross,
    when the pair has no dictionary (or it is unreadable), or when no translation occurs. ``wide``: the languages
    of :data:`WIDE_ISO3`, every installed pair and Japanese goals (cut by :func:`japanese_words`) too."""
    src, dst, theirs = _languages(goal, pa, least, wide)
    if not src or (src == "jpn" and not wide):  # a Japanese goal is read only in the wider reading
        return []
    dic = dictionary(src, dst)
    if dic is None:
        return []
    if src == "jpn":  # no spaces: its words are the dictionary's headwords it is made of (each its own term)
        words = {w: w for w in japanese_words(goal, dic)}
    unseen = {w: t for w, t in words.items() if t not in carried}
    if not unseen:
        return []
    cjk = dst == "jpn"
    page_words, key = _page_words(pa, theirs) if not cjk else ({}, str)
    out: list[tuple[str, float, list[tuple[int, list[int]]], str]] = []
    norm = unicodedata.normalize
    for exp in expansion(sorted(unseen), dic, src, senses=senses, weight=weight, phrases=phrases):
        for tr in exp.translations:
            units = _units_of(tr, pa, cjk, page_words, key)
            if not units:
                continue
            where = [(k, [j for j in pa.units.members[k]
                          if _in_line(tr, norm("NFKC", pa.line_texts[j]).lower(), cjk, key)]) for k in units]
            out.append((unseen[exp.word], exp.weight, where, tr))
    return out

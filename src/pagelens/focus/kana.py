"""Loanwords in katakana: an English goal word found in the page's Japanese spelling of it.

Japanese pages write most web vocabulary as English loanwords in katakana (``カート`` cart,
``ギフト`` gift, ``ログイン`` login, ``ダウンロード`` download, ``カテゴリー`` category). No
lexicon lists them all, but the spelling is regular: each kana is a consonant and a vowel, so a
word's *consonant skeleton* survives the borrowing. Both sides are reduced to it — kana by a
script table (not a word list: each kana's consonant), English by a few spelling rules (``l`` is
``r``, ``v`` is ``b``, ``c`` is ``k`` or ``s``, ``ph`` is ``f``, a silent ``r`` before a consonant,
no ``w``/``y``/``h`` glides) — and a katakana run counts as the word's loanword when the two
skeletons are equal and at least two consonants long (or, from three consonants on, when the
word's skeleton begins or ends the run's: the words of a katakana compound). A goal's adjacent
words are also tried joined ("safe search" -> ``セーフサーチ``).

Pure functions; the page's runs are indexed once per page analysis (kept while it lives).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pagelens.focus.analysis import PageAnalysis

_ROWS = {
    "": "アイウエオァィゥェォーャュョヤユヨッヮワヲ",
    "k": "カキクケコヵヶ", "g": "ガギグゲゴ", "s": "サシスセソザズゼゾ", "j": "ジヂ",
    "t": "タチツテトヅ", "d": "ダデド", "n": "ナニヌネノン", "h": "ハヒヘホ", "f": "フ",
    "b": "バビブベボヴ", "p": "パピプペポ", "m": "マミムメモ", "r": "ラリルレロ",
}
_CONSONANT = {ch: c for c, chars in _ROWS.items() for ch in chars}
KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc]{2,}")
_EN_RULES = (("ph", "f"), ("th", "s"), ("ck", "k"), ("ch", "t"), ("sh", "s"), ("qu", "k"), ("x", "ks"),
             ("dg", "j"), ("gn", "n"), ("wh", "w"))


@lru_cache(maxsize=20_000)
def kana_skeleton(run: str) -> str:
    """The consonants of a katakana run, doubled ones once (``ギフト`` -> ``gft``)."""
    out: list[str] = []
    for ch in run:
        c = _CONSONANT.get(ch, "")
        if c and (not out or out[-1] != c):
            out.append(c)
    s = "".join(out)
    return s[0] + s[1:].replace("h", "") if s else s


@lru_cache(maxsize=20_000)
def english_skeleton(word: str) -> str:
    """The consonants an English word keeps when written in katakana (``login`` -> ``rgn``)."""
    w = word.lower()
    if not w.isascii() or not w.isalpha():
        return ""
    for a, b in _EN_RULES:
        w = w.replace(a, b)
    w = re.sub(r"c(?=[eiy])", "s", w).replace("c", "k")
    w = re.sub(r"ge$", "j", w)  # "page", "image", "message": ページ, イメージ
    w = re.sub(r"m(?=[pb])", "n", w)  # "sample", "campaign": サンプル, キャンペーン (ン)
    w = re.sub(r"r(?![aeiouy])", "", w)  # a silent r: "cart" -> kaato
    w = w.replace("l", "r").replace("v", "b").replace("z", "s").replace("w", "").replace("y", "")
    head, rest = w[:1], w[1:].replace("h", "")
    out: list[str] = []
    for ch in head + rest:
        if ch in "aeiou":
            continue
        if not out or out[-1] != ch:
            out.append(ch)
    return "".join(out)



def loanword_index(pa: PageAnalysis) -> dict[str, list[tuple[int, str]]]:
    """``skeleton -> [(unit, katakana run)]`` of the page's katakana runs."""
    got: dict[str, list[tuple[int, str]]] | None = pa.indexes.get("loanwords")
    if got is None:
        got = {}
        for k, text in enumerate(pa.norm_texts):
            for run in set(KATAKANA_RUN.findall(text)):
                sk = kana_skeleton(run)
                if len(sk) >= 2:
                    got.setdefault(sk, []).append((k, run))
        pa.indexes["loanwords"] = got
    return got


def loanwords(pa: PageAnalysis, word: str) -> list[tuple[int, str]]:
    """Units (with the run) where the page writes the English ``word`` in katakana."""
    sk = english_skeleton(word)
    if len(sk) < 2 or len(word) < 4:
        return []
    index = loanword_index(pa)
    found = list(index.get(sk, []))
    if len(sk) >= 3:  # the first or last word of a katakana compound (ギフト|コード)
        for key, units in index.items():
            if key != sk and len(key) > len(sk) and (key.startswith(sk) or key.endswith(sk)):
                found += units
    return found

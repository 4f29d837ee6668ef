"""Which language a text is in, from its script and its function words (data and two pure functions).

:mod:`pagelens.focus.outofplace` asks whether a sentence is in another language than the page around it. No model
and no library: a sentence of six words or more in a language written with the Latin script holds some of that
language's commonest function words (articles, pronouns, prepositions, auxiliaries, conjunctions: general grammar,
the same words any stop-word list starts with), and a text in another script is told apart by its script alone.
The lists are short on purpose: a word shared by two languages ("de", "en", "la") still counts for both, and a
sentence is given a language only when one language's words clearly outnumber the others'.
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["FUNCTION_WORDS", "language", "script"]

#: The commonest function words of languages written in the Latin script (lowercase).
FUNCTION_WORDS: dict[str, frozenset[str]] = {k: frozenset(w for w in v.split() if len(w) > 1) for k, v in {
    "en": "the of and to is are was were be been this that with for from by not it its you your we our they their "
          "has have had will would can could which who what when there than then only also into after before an or "
          "as at on in but so if all my he she his her",
    "de": "der die das und ist sind war nicht mit von zu den dem des ein eine einer eines sie wir ihr auf für "
          "auch wird werden nur noch nach bei aus über oder wenn dass sich kann können",
    "fr": "le la les et est sont des du une un pour pas que qui dans sur avec ce cette ces vous nous ils elle au "
          "aux par plus ne sera été être ou mais",
    "es": "el la los las y es son del una un para por que con no se su sus este esta estos al lo como más pero "
          "está están ha han ser sido o",
    "it": "il lo la gli le di e è sono del della dei delle un una per che con non si questo questa nel nella al "
          "alla ma più anche come ha hanno",
    "pt": "o a os as e é são do da dos das um uma para por que com não se seu sua este esta no na ao pelo pela "
          "mas mais como foi ser está",
    "nl": "de het een en is zijn van in op te voor met niet dat die deze dit ook maar bij naar uit wordt worden "
          "kan heeft hebben er om",
    "sv": "och är att det som en ett för med inte av till på den de har kan om ska var vi ni eller men från "
          "efter",
    "da": "og er at det som en et for med ikke af til på den de har kan om skal var vi eller men fra efter",
    "no": "og er at det som en et for med ikke av til på den de har kan om skal var vi eller men fra etter",
    "pl": "i w na z że to jest się nie do od po przez dla ale jak lub oraz są być tak już tylko ten ta te",
    "cs": "a v na je se že to s z do od po pro jako ale nebo jsou být jen už ten ta také",
    "ro": "și în de la cu pe este sunt nu să un o care pentru din mai ca dar sau acest această",
    "tr": "ve bir bu da de için ile olarak daha çok gibi ama veya olan değil en her şu sonra",
    "id": "dan yang di ke dari ini itu untuk dengan tidak akan ada adalah pada juga atau dalam sudah bisa",
    "vi": "và của là có không được cho với các những một này đã trong để khi người",
    "fi": "ja on ei se että kuin mutta tai ovat oli olla tämä joka myös kun vain",
    "hu": "a az és hogy nem is egy van volt meg de csak ez azt mint vagy már",
}.items()}
#: (one-letter words — "a", "e", "i", "o", "y" — belong to too many languages to tell any apart, and are left out)

_WORD = re.compile(r"[^\W\d_]+")
#: Scripts written without spaces between words (kana, CJK ideographs, hangul syllables, compatibility ideographs): a
#: run of them is read as its character pairs by the BM25 tokenizer (:mod:`.lexical`) and by :mod:`.echo`.
SPACELESS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
#: Scripts told apart by code point ranges; Han and kana are one script here (Japanese writes both; a Chinese sentence
#: on a Japanese page is not told apart by script).
_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("latin", "A-Za-z\u00c0-\u024f\u1e00-\u1eff"), ("greek", "\u0370-\u03ff"), ("cyrillic", "\u0400-\u052f"),
    ("hebrew", "\u0590-\u05ff"), ("arabic", "\u0600-\u06ff\u0750-\u077f"), ("devanagari", "\u0900-\u097f"),
    ("bengali", "\u0980-\u09ff"), ("thai", "\u0e00-\u0e7f"), ("cjk", "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff"),
    ("hangul", "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"),
)
_SCRIPT_RX = tuple((name, re.compile(f"[{chars}]")) for name, chars in _SCRIPTS)
#: Any letter of a script other than Latin (most texts of a Latin page have none: decided in one scan).
_NOT_LATIN = re.compile("[" + "".join(chars for name, chars in _SCRIPTS if name != "latin") + "]")


def script(text: str, *, limit: int = 400) -> tuple[str, int]:
    """(the script most of the letters of ``text``'s first ``limit`` characters are in, how many letters it has);
    ("", 0) for a text without letters. A text without letters of another script is Latin, its length standing for
    its letters (only another script's letters are ever counted: one regex scan per script, no loop per character)."""
    head = text[:limit]
    if head.isascii() or _NOT_LATIN.search(head) is None:
        return ("latin", len(head)) if _SCRIPT_RX[0][1].search(head) is not None else ("", 0)
    best, most = "", 0
    for name, rx in _SCRIPT_RX:
        n = len(rx.findall(head))
        if n > most:
            best, most = name, n
    return best, most


def hits(words: list[str]) -> dict[str, int]:
    """For each language of :data:`FUNCTION_WORDS`, how many of ``words`` (lowercase) are its function words."""
    counts = Counter(words)
    out: dict[str, int] = {}
    present = counts.keys()
    for lang, fw in FUNCTION_WORDS.items():
        shared = fw & present
        if shared:
            out[lang] = sum(map(counts.__getitem__, shared))
    return out


def words(text: str) -> list[str]:
    """The lowercase words (letters only) of ``text``."""
    return _WORD.findall(text.lower())


def language(counts: dict[str, int], *, least: int = 2) -> str:
    """The language whose function words clearly lead in ``counts`` (:func:`hits`): at least ``least`` of them and
    more than any other language's; "" when none leads (a label, a list of names, two languages tied)."""
    if not counts:
        return ""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    best, n = ranked[0]
    if n < least or (len(ranked) > 1 and ranked[1][1] >= n):
        return ""
    return best

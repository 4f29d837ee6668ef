"""From text to the terms the ``default`` retriever matches on (pure functions, no page).

A goal and every line of a page become sets of *terms*: stemmed words, whole numbers, joined
word pairs (``+login`` for "log in"), and concepts (``§cart`` for "basket" or "Warenkorb", from
:mod:`pagelens.focus.lexicon`, and ``§phone``/``§date``/``§amount``/``§author`` for values
recognised by their shape). :func:`query_terms` also weighs the goal's terms and finds its
quoted phrases.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import pairwise

from pagelens.focus.base import FocusQuery
from pagelens.focus.lexicon import QUESTION_CONCEPTS, STOPWORDS, build_surface_index

WORD = re.compile(r"\d+(?:[.,:/]\d+)*|[^\W\d_]+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# a phone number: digit groups split by spaces, dots, dashes or parentheses (8-15 digits),
# not an ISO date or a decimal number
_PHONE = re.compile(r"(?<![\w.,])(?:\+\d{1,3}[ .\-]?)?(?:\(\d{1,5}\)[ .\-]?)?\d{2,5}(?:[ .\-]\d{2,5}){1,4}(?![\w,]|\.\d)")
BYLINE = re.compile(r"^\s*(?:by|von|par|por|di|door|av|af)\s+\w")
#: (a number is tried from its first digit only, ``(?<!\d)(?<!\d[.,])``: the same leftmost match, without trying
#: every digit of a long run of digits again: that was quadratic, ~0.16 s a 2,000-digit line)
AMOUNT = re.compile(
    r"[$€£¥]\s?\d|(?<!\d)(?<!\d[.,])\d(?:[\d.,]*\d)?\s?(?:€|\$|£|%|°[cf]?|(?:eur|usd|gbp|mg|g|kg|lbs?|oz|ml|cl|l|km|cm|mm|m|"
    r"in|ft|kcal|cal|kj|w|kw|kwh|v|mah|gb|tb|mb|hz|ghz|mph|h|hrs?|hours?|min|minutes|days|years|"
    r"stunden|gramm|jahre|tage|ans|jours|años|días|horas)\b)")
_MONTHS = (r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|januar|februar|märz|mai|juni|juli|okt|dez|"
           r"janv|févr|mars|avr|juil|août|déc|ene|abr|ago|dic")
DATE_VALUE = re.compile(
    r"(?<!\d)(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{4}年\d{1,2}月|"
    rf"\d{{1,2}}\.?\s+(?:{_MONTHS})[a-zé]*\.?\s+\d{{4}}|(?:{_MONTHS})[a-zé]*\.?\s+\d{{1,2}},?\s+\d{{4}})(?!\d)")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@lru_cache(maxsize=1)
def surface() -> tuple[dict[str, set[str]], list[tuple[str, str]]]:
    return build_surface_index()


@lru_cache(maxsize=1)
def how_stems() -> frozenset[str]:
    """Stems of the single-word UI vocabulary (add, cart, login ...)."""
    single, _ = surface()
    return frozenset(_stem(w) for w in single if w.isascii() and w.isalpha())


@lru_cache(maxsize=1)
def concept_stems() -> dict[str, tuple[tuple[str, frozenset[str]], ...]]:
    """Stem -> (form, concepts) of the single-word Latin forms of 4+ letters (goal side: a goal
    word inflected otherwise than the lexicon's form still names its concept)."""
    single, _ = surface()
    out: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for w, concepts in single.items():
        if w.isascii() and w.isalpha() and len(w) >= 4:
            out.setdefault(_stem(w), []).append((w, frozenset(concepts)))
    return {k: tuple(v) for k, v in out.items()}


#: Endings that make one English word of another ("job"/"jobs", "notified"/"notify"): a form
#: of another language that the English stemmer happens to cut ("carte" -> "cart") is not one.
_ENGLISH_ENDINGS = frozenset({"", "s", "es", "ed", "d", "ing", "er", "ers", "ion", "ions", "ation", "ations", "ment",
                              "ments", "y", "ies", "ied", "ier", "iest", "est", "ly"})


def stem_concepts(word: str) -> set[str]:
    """Concepts a goal word names through its stem (an English inflection of a lexicon form)."""
    out: set[str] = set()
    stem = _stem(word)
    for form, concepts in concept_stems().get(stem, ()):
        n = 0
        while n < min(len(form), len(word)) and form[n] == word[n]:
            n += 1
        tail = form[n:]
        if word[n:] in _ENGLISH_ENDINGS and (tail in _ENGLISH_ENDINGS or (tail == "e" and word[n:] != "")):
            # ("recalculate" / "recalculating"; but "carte" is not "cart")
            out |= concepts
    return out


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    try:
        import Stemmer  # PyStemmer

        return Stemmer.Stemmer("english")
    except Exception:  # noqa: BLE001 - optional
        return None


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower().replace("\xa0", " ")


_stem_cache: dict[str, str] = {}


def _stem(word: str) -> str:
    s = _stem_cache.get(word)
    if s is None:
        st = _stemmer()
        if word.isascii() and word.isalpha() and st is not None:
            s = st.stemWord(word)
        elif word.isascii() and word.isalpha() and len(word) > 4 and word.endswith("s"):
            s = word[:-1]
        else:
            s = word
        if len(_stem_cache) < 200_000:
            _stem_cache[word] = s
    return s


def terms_of(text: str) -> set[str]:
    """Stemmed words, whole numbers, joined word pairs ("log in" -> "login") and concepts."""
    norm = normalise(text)
    words = WORD.findall(norm)
    out: set[str] = set()
    for w in words:
        if w[0].isdigit():
            out.add(w.replace(",", ""))
            continue
        out.add(_stem(w))
    for a, b in pairwise(words):
        if a.isalpha() and b.isalpha() and len(a) + len(b) <= 12:
            out.add("+" + _stem(a + b))  # joined pair: counts only where the page has it
    single, _ = surface()
    for w in words:
        for c in single.get(w, ()):
            out.add("§" + c)
    pattern, concept_of = _phrase_pattern()
    for m in pattern.finditer(norm):
        out.add("§" + concept_of[m.group(0)])
    if any(w[0].isdigit() for w in words) and is_phone(norm):
        out.add("§phone")
    if AMOUNT.search(norm):
        out.add("§amount")  # "95 mg", "186 gramm", "$49.99", "44 €": an amount answers "how much"
    if DATE_VALUE.search(norm):
        out.add("§date")  # "2017-12-26", "12.11.2021", "Nov 12, 2021": a date value answers "when"
    if len(words) <= 10 and BYLINE.match(norm):
        out.add("§author")  # "by Idris A.", "von Anna": a byline names a person
    return out


#: Concepts that are values a question can ask for (the others name controls).
ANSWER_CONCEPTS = frozenset({"phone", "price", "date", "author", "count", "email", "address", "quantity", "amount"})
_QUESTION = re.compile(r"^\s*(?:what|which|who|whom|whose|how|when|where|is|are|does|do|did|can|was|were|wer|wie|"
                       r"welche[rsnm]?|wann|wo|quel(?:le)?s?|qui|combien|quand|où|qué|cuál|quién|cuánto|cuándo|dónde)\b",
                       re.IGNORECASE)


def is_question(goal: str) -> bool:
    return goal.rstrip().endswith(("?", "？")) or bool(_QUESTION.match(goal))


def inside_word(text: str, start: int, end: int) -> bool:
    """The match begins or ends a longer word whose other part has 3+ letters (a compound:
    "sub|total", "price|list") — not a whole word, nor a piece in the middle ("al|read|y")."""
    a = start
    while a > 0 and text[a - 1].isalpha():
        a -= 1
    b = end
    while b < len(text) and text[b].isalpha():
        b += 1
    if a < start and b > end:
        return False
    return (start - a >= 3) or (b - end >= 3)


def is_phone(text: str) -> bool:
    for m in _PHONE.finditer(text):
        digits = sum(ch.isdigit() for ch in m.group(0))
        if 8 <= digits <= 15 and not _ISO_DATE.search(m.group(0)):
            return True
    return False


@lru_cache(maxsize=1)
def _phrase_pattern() -> tuple[re.Pattern[str], dict[str, str]]:
    """One alternation over every multi-word / non-Latin concept form (fast, in C)."""
    _, phrases = surface()
    concept_of: dict[str, str] = {}
    for form, concept in phrases:
        concept_of.setdefault(form, concept)
    alternation = "|".join(re.escape(f) for f in sorted(concept_of, key=len, reverse=True))
    return re.compile(alternation), concept_of


def _content(text: str) -> str:
    """The text without its stop-words (so "does" is not stemmed into a content word)."""
    return " ".join(w for w in WORD.findall(normalise(text)) if w not in STOPWORDS)


_QUOTED = re.compile(r"[\"“'‘]([^\"”'’]{3,})[\"”'’]")


def _unquoted(goal: str) -> str:
    """The goal without the words of quoted text longer than a short name: a message to type
    is not something to find on the page (a long title still is, as a phrase)."""
    return _QUOTED.sub(lambda m: m.group(0) if len(m.group(1).split()) <= 6 else " ", goal)


def without_quotes(goal: str) -> str:
    """The goal's own words: every quoted name or value removed."""
    return _QUOTED.sub(" ", goal)


def query_terms(query: FocusQuery) -> tuple[dict[str, float], list[str]]:
    """Goal terms with weights (history terms count half) and the goal's quoted phrases."""
    weights: dict[str, float] = {}
    goal = _unquoted(query.goal)
    goal_terms = terms_of(_content(goal)) | {t for t in terms_of(goal) if t[0] in "§+"}
    low = normalise(without_quotes(query.goal))
    goal_terms |= {"§" + c for q, c in QUESTION_CONCEPTS.items() if re.search(rf"(?<!\w){re.escape(q)}(?!\w)", low)}
    # a goal word names a concept through its stem too ("notified" -> notify, "jobs"/"job")
    goal_terms |= {"§" + c for w in WORD.findall(normalise(_content(goal))) if w.isalpha() and len(w) >= 3
                   for c in stem_concepts(w)}
    for t in goal_terms:
        if t.lstrip("§+") not in STOPWORDS:
            weights[t] = 1.0
    for h in query.history[-3:]:
        # an action's arguments, not its name or element ids: fill("66", "Felix") -> Felix
        args = [a for a in re.findall(r'"((?:[^"\\]|\\.)*)"', h) if not a.isdigit()]
        for t in terms_of(" ".join(args) if "(" in h else h):
            if t.lstrip("§+") not in STOPWORDS:
                weights.setdefault(t, 0.5)
    # stop-words may appear stemmed or as pieces; drop 1-letter latin words
    weights = {t: w for t, w in weights.items() if len(t) > 1 or _CJK.match(t) or t[0].isdigit()}
    phrases = [normalise(p) for p in _QUOTED.findall(query.goal)]
    return weights, phrases


def compound_parts(goal: str, min_part: int = 4, max_word: int = 24) -> set[str]:
    """Stems of the pieces of the goal's long words, for pages that spell the compound as
    two words ("timetable" -> "time", "table"; "bookshelf" -> "book", "shelf"): every split
    into two pieces of ``min_part``+ letters. Most pieces are no word at all and match
    nothing, since a piece counts only where a page word *is* that piece. Words longer than
    ``max_word`` are no compound (a pasted token, a huge goal): not split, so this stays linear."""
    out: set[str] = set()
    for w in WORD.findall(normalise(without_quotes(goal[:2000]))):
        if not (w.isascii() and w.isalpha()) or not 2 * min_part <= len(w) <= max_word or w in STOPWORDS:
            continue
        for i in range(min_part, len(w) - min_part + 1):
            for part in (w[:i], w[i:]):
                if part not in STOPWORDS:
                    out.add(_stem(part))
    return out


_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
             "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10"}
_ORDINAL_NUM = re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\b")


def goal_numbers(goal: str) -> set[str]:
    """Ordinals as the numbers a page shows: "third" / "3rd" -> "3" (:mod:`.rules`' ``terms`` signal)."""
    low = normalise(goal)
    out = {n for w, n in _ORDINALS.items() if re.search(rf"\b{w}\b", low)}
    out |= set(_ORDINAL_NUM.findall(low))
    return out

"""General evidence that a span of page text is written to an automated reader (pure; any language).

The defense (:mod:`pagelens.focus.defense`) judges *what a span does*, never how one attack is
phrased. :func:`evidence` measures, on a normalised span (:func:`normalise`):

* **addressee** — a role noun for an automated reader (AI, agent, assistant, model, bot, crawler,
  "automated" reader) *addressed* (a vocative, the subject of an order, "you are an AI", "... reading
  this page") rather than merely mentioned;
* **mood** — an order (a sentence opening on an imperative, an obligation, "please"), urgency;
* **override** — a dismissal verb aimed at instructions, a task or a request;
* **principal** — the reader's own user spoken of to the reader ("your user", "the human you
  assist"), or that user's wishes relayed to the reader;
* **steering** — where it sends the reader: an off-site address written in the text (an origin
  that is neither the page's nor one its own navigation uses), sign-in, payment or credential
  requests, secrecy towards the user, and claims that the page's own figures or controls are
  wrong, outdated or moved while the real ones are elsewhere;
* **imitation** — text shaped like the observation format (``[12] button '…'``), chat-turn
  tokens, fake system or assistant turns, action calls. A quoted transcript (speaker labels:
  :mod:`pagelens.focus.speakers`) is read without its labels, and its chat shape counts only when a
  turn carries something for the reader (a label names who speaks; it addresses nobody).

The lexicons are small lists of role nouns, verbs and function words in a dozen languages — kinds
of words, not phrases of any attack. Multilingual lexicon data lives in
:mod:`pagelens.focus.lexicons`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pagelens.focus import lexicons as lx
from pagelens.focus import lexicons_wide as lw
from pagelens.focus import patterns as pt
from pagelens.focus import reader, speakers

_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")
_LATIN = re.compile(r"[a-z]", re.IGNORECASE)
_CYRILLIC = re.compile("[\u0400-\u04ff]")
_WORD = re.compile(r"\w+")
_SENT = re.compile(r"(?<=[.!?。！？;；])\s*|\s+[-–—|]\s+|\n")
_CLAUSE = re.compile(r"(?<=[.!?。！？;；,:，：])\s*|\s+[-–—|]\s+|\n|\b(?:and|then|und|et|y|e|и)\s+(?=\w)")


_CONF_CHARS = "".join(sorted(lx.CONFUSABLES))
_CONFUSABLE = re.compile(f"[{_CONF_CHARS}]")
#: A word holding both a Latin letter and a Cyrillic or Greek one (the only words folding changes): a whole run of
#: word (or Greek/Cyrillic) characters, tried only at a run's start (linear; a pattern nesting ``\\w*`` backtracked
#: cubically on a long Latin word when the text held a Cyrillic letter elsewhere: 4,000 characters took minutes).
_MIXED = re.compile("(?<![\\w\u0370-\u04ff])(?=[\\w\u0370-\u04ff]*?[A-Za-z])(?=[\\w\u0370-\u04ff]*?[\u0370-\u04ff])"
                    "[\\w\u0370-\u04ff]+")
#: Latin letters that look like Cyrillic ones: a Cyrillic word with Latin look-alikes is folded back to Cyrillic.
_TO_CYRILLIC = {lat: cyr for cyr, lat in lx.CONFUSABLES.items() if "\u0400" <= cyr <= "\u04ff" and cyr not in "іјѕԁһӏ"}


def _fold_word(m: re.Match[str]) -> str:
    """A word mixing scripts folded to the script it is written in: a Cyrillic word (it holds a Cyrillic letter
    that has no Latin twin) gets its Latin look-alikes back in Cyrillic, any other word its Cyrillic and Greek
    look-alikes in Latin."""
    w = m.group(0)
    if any("\u0400" <= c <= "\u04ff" and c not in lx.CONFUSABLES for c in w):
        return "".join(_TO_CYRILLIC.get(c, c) for c in w)
    if _LATIN.search(w) and any(c in lx.CONFUSABLES for c in w):  # a Latin word with Cyrillic/Greek look-alikes
        return "".join(lx.CONFUSABLES.get(c, c) for c in w)
    return w


def normalise(text: str) -> str:
    """NFKC (full width → ASCII), no zero-width or direction controls, homoglyphs folded, one space."""
    if "\\" in text:  # escapes as some renderers print them
        text = text.replace("\\xa0", " ").replace("\\n", " ").replace("\\'", "'").replace('\\"', '"')
    if not text.isascii():
        text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
        if _CONFUSABLE.search(text) or (_LATIN.search(text) and _CYRILLIC.search(text)):  # words may mix scripts
            text = _MIXED.sub(_fold_word, text)
        text = text.replace("’", "'").replace("‘", "'")
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one span does. Counts are small integers; see :func:`points`."""

    addressed: int = 0  # 2: an automated reader addressed; 1: a role noun that also names people, spoken to
    you: bool = False
    order: bool = False  # an imperative, an obligation or "please"
    urgent: bool = False
    override: int = 0  # 2: dismisses the reader's instructions/task; 1: dismisses instructions vaguely
    principal: int = 0  # 2: the user's wishes relayed to the reader; 1: the reader's user named
    secrecy: bool = False
    credential: bool = False
    offsite: str = ""  # the first off-site address written in the text
    disputes: int = 0  # 2: the page's figures/controls called wrong, the real ones elsewhere; 1: moved off-site
    imitation: str = ""  # which observation/turn/action format it imitates
    authority: bool = False  # framed as a system/admin turn
    modal: bool = False  # an obligation ("must", "debe", "должны") even without a "you"
    elsewhere: bool = False  # the action sent elsewhere ("instead", "only at", "ailleurs")

    def reasons(self) -> list[str]:
        out = []
        if self.imitation:
            out.append(f"imitates {self.imitation}")
        if self.override:
            out.append("dismisses the reader's instructions")
        if self.addressed == 2:
            out.append("addresses an automated reader")
        elif self.addressed:
            out.append("speaks to an agent or assistant")
        if self.principal == 2:
            out.append("relays the user's wishes to the reader")
        elif self.principal:
            out.append("speaks of the reader's user")
        if self.authority:
            out.append("framed as a system or admin turn")
        if self.order:
            out.append("gives an order" + (" with urgency" if self.urgent else ""))
        if self.secrecy:
            out.append("asks for secrecy towards the user")
        if self.offsite:
            out.append(f"steers off-site ({self.offsite[:50]})")
        if self.credential:
            out.append("asks for sign-in, payment or credentials")
        if self.disputes == 2:
            out.append("disputes the page's own figures or controls")
        if self.elsewhere and self.offsite:
            out.append("sends the action elsewhere")
        return out


_NONE = Evidence()

#: The evidence of a span that has none (the instance every such span gets: compare with ``is`` first).
NO_EVIDENCE = _NONE


def _is_none(ev: Evidence) -> bool:
    """``ev == NO_EVIDENCE``, the instance itself told first (comparing two frozen dataclasses builds a tuple of each
    one's fields: microseconds, for what is mostly the very instance)."""
    return ev is _NONE or ev == _NONE


def _any(rx: re.Pattern[str] | pt.Folded, text: str) -> bool:
    return rx.search(text) is not None


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://")
_HOST_END = re.compile(r"[/?#]")


@lru_cache(maxsize=16384)
def domain(url: str) -> str:
    """The registrable part of a URL's or e-mail address's host (example.co.uk, 127.0.0.1:8001)."""
    url = url.lower().strip()
    if "@" in url and "://" not in url:
        url = url.rsplit("@", 1)[1]
    host = _HOST_END.split(_SCHEME.sub("", url, count=1), maxsplit=1)[0]
    return _registrable(host)


def _registrable(host: str) -> str:
    host = host.rsplit("@", 1)[-1]
    name = host.partition(":")[0]
    if (name and not name.strip("0123456789.")) or name in ("localhost", "[::1]"):
        return host  # a loopback or IP origin is its own domain, port included
    parts = [p for p in name.split(".") if p]
    if len(parts) >= 3 and len(parts[-2]) <= 3 and len(parts[-1]) == 2:  # example.co.uk
        return ".".join(parts[-3:])
    return ".".join(parts[-2:])


@lru_cache(maxsize=16384)
def gate(text: str, foreign: bool = True) -> bool:
    """Whether ``text`` (normalised) has any word a verdict needs (false: nothing to judge).

    ``foreign``: the text stands where the site did not write it for every reader (user content, an
    overlay, unseen text), so a written address alone is worth judging; in the site's own text an
    address anchors nothing by itself (every anchor has a word of its own in the gate)."""
    low = text.lower()
    return (lx.GATE.search(low) is not None or lx.GATE_CASED.search(text) is not None
            or (not text.isascii() and lx.GATE_WIDE.search(text) is not None)
            or lw.gate(low)
            or (_may_mark(text) and lx.has_mark(text))
            or (foreign and lx.has_dest(text)))


def _may_mark(text: str) -> bool:
    """Whether ``text`` holds a character every imitated format needs (a cheap test before GATE_MARK)."""
    return ("(" in text or "[" in text or "<" in text or "#" in text or "-->" in text
            or (":" in text and "role" in text.lower()))  # ':' alone: only the '"role":' alternative needs it


#: Where a finder's matches are: the finder itself (searched here), or the (start, end) of its matches in the text,
#: found already (:meth:`~pagelens.focus.patterns.StemSet.spans`).
Found = re.Pattern[str] | pt.Stems | list[tuple[int, int]]


def _ends(finder: Found, low: str) -> Iterable[tuple[int, int]]:
    """The (start, end) of each match of ``finder`` in ``low`` (``finditer``), or the matches found already."""
    return finder if isinstance(finder, list) else ((m.start(), m.end()) for m in finder.finditer(low))


def _windows(rx: Found, low: str, before: int, after: int) -> list[str]:
    """Merged windows of ``low`` around the hits of ``rx``; a window cut mid-text starts with a NUL
    so that patterns anchored at the text's start do not match there."""
    spans: list[list[int]] = []
    for a, b in _ends(rx, low):
        lo, hi = max(0, a - before), min(len(low), b + after)
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    return [("" if lo == 0 else "\x00 ") + low[lo:hi] for lo, hi in spans]


def _near(rx: re.Pattern[str] | pt.Folded, finder: Found, low: str, text: str, before: int, after: int) -> bool:
    """``rx.search(text)``, tried only around the hits of ``finder`` in ``low`` (bounds, not slices, so that
    ``\\b`` and lookbehinds still see the text around)."""
    if len(low) != len(text):
        return rx.search(text) is not None
    return any(rx.search(text, lo, hi) is not None for lo, hi in _near_spans(finder, low, before, after))


def _near_spans(finder: Found, low: str, before: int, after: int) -> list[tuple[int, int]]:
    """The bounds :func:`_near` searches, in its order (a window ending where the one before it ends adds nothing):
    computed once when several patterns are tried around the same finder."""
    out: list[tuple[int, int]] = []
    end = -1
    for a, b in _ends(finder, low):
        lo, hi = max(0, a - before), min(len(low), b + after)
        if hi > end:
            out.append((lo, hi))
            end = hi
    return out


def _override(low: str, addressed: int, you: bool, dismiss: bool = True, instr: bool | None = None,
              dismissals: Found = lx.DISMISS_FIND) -> int:
    """``dismiss``, ``instr``: whether ``low`` holds a stem of ``lx.DISMISS_FIND``, of ``lx.INSTR_FIND`` (when the caller
    searched already; ``instr`` None: not searched); ``dismissals``: where ``lx.DISMISS_FIND`` matches (found already)."""
    best = 0
    for w in (_windows(dismissals, low, 60, 120) if dismiss else ()):
        for m in lx.OVERRIDE.finditer(w):
            ordered = lx.OVERRIDE_ORDER.search(w[max(0, m.start() - 40) : m.end()]) is not None
            if ordered and lx.CONDITION.search(w[max(0, m.start() - 80) : m.start()]) and not addressed:
                ordered = False  # "if you use a Mac, ignore the previous instructions": help for some readers
            best = max(best, 2 if ordered and (lx.PRIOR.search(w) or you or addressed) else 1)
    if best < 2 and (instr if instr is not None else lx.INSTR_FIND.search(low) is not None) and lx.replaced_task(low):
        best = 2
    return best


def _nouns(low: str, text: str, roles: Found = lx.ROLE_FIND) -> list[re.Match[str]]:
    """The role nouns of ``low``, searched only near the literal stems that every one of them holds (the
    lookbehinds still see the whole text: ``finditer`` with bounds, not a slice); ``roles``: where ``lx.ROLE_FIND``
    matches (found already)."""
    spans: list[list[int]] = []
    hits = list(_ends(roles, low))
    hits += [(m.start(), m.end()) for m in lx.GATE_CASED.finditer(text)] if len(text) == len(low) else [(0, len(low))]
    for a, b in sorted(hits):
        lo, hi = max(0, a - 60), min(len(low), b + 60)
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hi)
        else:
            spans.append([lo, hi])
    out: list[re.Match[str]] = []
    last = -1
    for lo, hi in spans:
        for m in lx.NOUN.finditer(low, lo, hi):
            if m.start() > last:
                out.append(m)
                last = m.start()
    return out


_VOC_AFTER = re.compile(r"\s*[:,!—–]")


def _address_level(low: str, text: str = "", nouns: list[re.Match[str]] | None = None) -> int:
    """2 when an automated reader is addressed, 1 when a plain role noun is spoken to, else 0 (``nouns``: the role
    nouns :func:`_nouns` found in ``low`` and ``text`` already)."""
    level = 0
    if not low.isascii() and lx.ADDRESSED_CJK.search(low):
        return 2
    for m in (nouns if nouns is not None else _nouns(low, text) if text else lx.NOUN.finditer(low)):
        before, at = low[max(0, m.start() - 80) : m.start()], m.end()
        if m.start() > 80:
            before = "\x00 " + before
        if m.group("ai") or m.group("bare"):
            if m.group("bare") and _VOC_AFTER.match(low, at) is None:
                continue  # a bare "ai" is the Italian/Spanish preposition unless it is a vocative
            # (each pair tests the anchored match after the noun first: it is cheap and rarely holds)
            if ((lx.AI_AFTER.match(low, at) or (m.group("ai") and lx.SUBJ_MODAL.match(low, at)))
                    and lx.AI_BEFORE.search(before)) or lx.AI_AFTER_ANY.match(low, at) or (
                    lx.MSG_FOR_AFTER.match(low, at) and lx.MSG_FOR_BEFORE.search(before)):
                return 2
        if not level and not m.group("bare") and (  # any role noun spoken to, AI-qualified or not
                (lx.WEAK_AFTER.match(low, at) and lx.WEAK_BEFORE.search(before))
                or (lx.HEAD_AFTER.match(low, at) and lx.WEAK_HEAD_BEFORE.search(before))
                or lx.WEAK_AFTER_ANY.match(low, at) or lx.GREET_BEFORE.search(before)
                or (lx.MSG_FOR_AFTER.match(low, at) and lx.MSG_FOR_BEFORE.search(before))):
            level = 1
    return level


#: The reader named as the one at work on the page, in a condition ("if an AI tool is filling in this form,
#: ..."): the active twin of ``READ_BY``. The head is AI-qualified or a noun only software bears (a bot, a
#: crawler, a language model): "if a travel agent is booking for you" is about a person.
_OPERATING = pt.Folded(
    r"\b(?:if|when|whenever|while|in\s+case)\s+(?:an?|the|some|any|your|this)\s+(?:(?:ai|a\.i\.|llm|gpt|software|browsing|"
    r"web|shopping|autonomous|automated|virtual|digital)[\s-]+(?:[\w-]+[\s-]+)?(?:tools?|agents?|assistants?|helpers?|"
    r"programs?|models?|bots?)|(?:[\w-]+\s+)?(?:bots?|chatbots?|crawlers?|llms?|language\s+models?))\s+(?:is|are)\s+"
    r"(?:\w+\s+)?\w+ing\b")
#: A page called stale in words the dispute lexicon lacks ("has not been refreshed since ..."), and the real
#: figures called authoritative or canonical, or said to live elsewhere now.
_STALE = pt.Folded(
    r"\b(?:(?:has|have|had)(?:\s+not|n't)\s+been|not\s+been|never\s+been)\s+(?:refreshed|updated|synced|"
    r"synchroni[sz]ed|maintained|revised)\b|\bno\s+longer\s+(?:updated|maintained|refreshed)\b")
#: Honest notices say that too ("this mirror is no longer updated, the canonical repository is at ..."), so a stale
#: page disputes only figures (a list, a table, prices ...) and only with the real ones named as such elsewhere.
_REAL_STRICT = pt.Folded(r"\b(?:authoritative|canonical|definitive|real|actual|correct|accurate|true|genuine)\b")
_FIGURES = pt.Folded(r"\b(?:figures?|numbers?|prices?|values?|data|list|table|rates?|results?|scores?|standings|"
                      r"totals?|amounts?|counts?|times?|dates?|schedules?)\b")

#: A clause opening on a short noun phrase for automated readers closed by a call for attention ("Automated
#: readers and bots, please note:", "Automatische Leser bitte beachten:"); the phrase must name a machine.
_ATTENTION = pt.Folded(
    r"(?:^|[.!?;]\s+)(?P<np>(?:[\w'-]+\s+){0,5}?[\w'-]+)[\s,]+(?:please\s+(?:note|read|take\s+note)|take\s+note|"
    r"attention|listen\s+up|bitte\s+(?:beachten|lesen)|beachtet|achtung|veuillez\s+noter|notez\s+bien|"
    r"(?:por\s+favor\s+)?tengan?\s+en\s+cuenta|atención|si\s+prega\s+di\s+notare|attenzione|let\s+op|"
    r"обратите\s+внимание|внимание)\s*[:!]")
_MACHINE = pt.Folded(r"\b(?:ai|a\.i\.|ki|ia|llms?|gpt|bots?|chatbots?|crawlers?|scrapers?|robots?|automat\w*|"
                      r"agents?\s+ia|ии|бот\w*|автомат\w*|language\s+models?|sprachmodell\w*)\b")
#: CJK vocatives the lexicon misses: a role noun with an address particle or a call for attention before a colon
#: ("ボットの方へ:", "机器人请注意:"), and "for the [...] model:" with a modifier between (给…的语言模型的指令:).
_CJK_VOC = pt.Folded(
    rf"{lx._ROLE_CJK}\s*(?:の方へ|の方々へ|の皆さんへ?|の皆様へ?|へ|各位|们|请注意|請注意|注意|请留意|ご注意(?:ください)?|"
    rf"주목|주의)\s*[:：!！]|(?:给|致|對|对|向)[^。！？!?:：]{{0,24}}?{lx._ROLE_CJK}(?:的\s*(?:指令|指示|说明|說明|通知|消息|提示))?\s*[:：]")


#: Literal stems every call for attention of ``_ATTENTION`` holds (searched first, in the lowercased text).
_ATTENTION_FIND = re.compile("note|read|attention|listen|beacht|achtung|noter|notez|cuenta|atención|notare|attenzione|"
                             "let op|внимани")


def _attention(text: str, low: str) -> bool:
    if _ATTENTION_FIND.search(low) is None or _MACHINE.search(low) is None:
        return False
    return any(_MACHINE.search(m.group("np")) for m in _ATTENTION.finditer(text))


def _may_operate(low: str) -> bool:
    """False only where :data:`_OPERATING` cannot match: a lowercased text of ASCII and caseless punctuation without its
    "-ing" or without any of its conditions ("if", "when", "while", "in case")."""
    if not pt.narrow_script(low) or low.lower() != low:
        return True
    return "ing" in low and ("if" in low or "when" in low or "while" in low or "case" in low)


_CHAT = "a chat transcript"

_LONG = 500  # characters: a longer text is first judged on the excerpt around its gate stems
_REACH = 160  # characters around a stem that an anchoring pattern can need


def excerpt(text: str) -> str:
    """The parts of ``text`` within :data:`_REACH` of a gate stem (a stem every anchor holds), joined by
    line breaks (a clause break for every pattern): what the anchoring features of a long text can see."""
    low = text.lower()
    hits = [m.start() for m in lx.GATE.finditer(low)]
    hits += [m.start() for m in lx.GATE_CASED.finditer(text)]
    hits += lx.mark_starts(text)
    if not text.isascii():
        hits += [m.start() for m in lx.GATE_WIDE.finditer(text)]
    if len(low) == len(text):
        hits += lw.gate_hits(low)
    spans: list[list[int]] = []
    for at in sorted(hits):
        lo, hi = max(0, at - _REACH), min(len(text), at + _REACH)
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = hi
        else:
            spans.append([lo, hi])
    return "\n".join(text[lo:hi] for lo, hi in spans)


def evidence(text: str, home: frozenset[str] = frozenset(), turn: bool = False) -> Evidence:
    """The evidence in ``text`` (already :func:`normalise`-d). ``home``: the page's own domains. ``turn``: the text is
    one line of a chat transcript laid out a turn a line (its opening label names who speaks: :func:`_wide`).
    Memoised per (text, home, turn) however the call spells its arguments (:func:`_memo`)."""
    return _memo(text, home, turn)


@lru_cache(maxsize=8192)
def _memo(text: str, home: frozenset[str], turn: bool) -> Evidence:
    """:func:`evidence`, memoised with every argument positional (``lru_cache`` keys ``f(t, h)`` and ``f(t, h, False)``
    apart: two entries and two judgements of one text).

    The slow patterns run only in windows around the literal stems they need (see the ``*_FIND``
    finders), and the features that never anchor a verdict only once something could. A long text is
    judged whole only when the excerpt around its gate stems (:func:`excerpt`) has an anchoring feature:
    every anchor holds a gate stem, and reaches less than :data:`_REACH` characters from it."""
    if len(text) > _LONG:
        short = excerpt(text)
        if len(short) < 0.8 * len(text) and _is_none(_evidence(short, home)) and not _offsite(text, home):
            return _NONE
    return _evidence(text, home, turn)


def joined_evidence(parts: Sequence[str], home: frozenset[str] = frozenset(), limit: int = 4000) -> Evidence:
    """``evidence(" ".join(parts)[:limit])``, reading each part once.

    Adjacent lines and blocks repeat the text of lines already judged alone. A feature that no part
    has alone must reach across a join, so it lies within :data:`_REACH` of one: when no part has an
    anchoring feature (cached per part) and neither have the seams around the joins, the whole has none."""
    text = " ".join(parts)[:limit]
    if len(parts) < 2 or any(not _is_none(evidence(p, home)) for p in parts):
        return evidence(text, home)
    spans: list[list[int]] = []
    pos = -1
    for p in parts[:-1]:
        pos += len(p) + 1  # the space that joins p to the next part
        if pos >= len(text):
            break
        lo, hi = max(0, pos - _REACH), min(len(text), pos + _REACH)
        if spans and lo <= spans[-1][1]:
            spans[-1][1] = hi
        else:
            spans.append([lo, hi])
    if sum(hi - lo for lo, hi in spans) >= 0.8 * len(text):
        return evidence(text, home)
    if any(not _is_none(evidence(text[lo:hi], home)) for lo, hi in spans):
        return evidence(text, home)
    return _NONE


def offsite_address(text: str, home: frozenset[str]) -> str:
    """The first address written in ``text`` (normalised) whose domain is not one of ``home`` ("" for none)."""
    return _offsite(text, home)


def _offsite(text: str, home: frozenset[str]) -> str:
    """The first address written in ``text`` whose domain is not one of ``home``."""
    low = text.lower()
    # every address holds "http", "www.", "@", or a dot with a slash or a colon (host/path, host:port, IPv4)
    if "http" in low or "www." in low or "@" in low or ("." in low and ("/" in low or ":" in low)):
        dest = _dest_for(text, low)
        for u in dest.finditer(text) if dest is not None else ():
            d = domain(u.group(0))
            if d and d not in home:
                return u.group(0)
    return ""


_DIGIT_DOT = re.compile(r"\d\.\d")
_COLON_DIGIT = re.compile(r":\d")
_DEST_BY_MASK: dict[int, re.Pattern[str] | None] = {}


def _dest_for(text: str, low: str) -> re.Pattern[str] | None:
    """``lx.DEST`` without the alternatives that cannot match anywhere in ``text`` (each needs a literal the text
    lacks: ``lx.DEST_PARTS``), so the same matches in the same order; None when none can. Most prose with a dot and a
    colon needs no scan at all, and the e-mail and host alternatives, which backtrack at every word, run only where
    an "@" or a "/" stands."""
    has = {"://": "://" in text and "http" in low, "www.": "www." in low, "/": "/" in text and "." in text,
           "digit.digit": "." in text and _DIGIT_DOT.search(text) is not None,
           ":digit": ":" in text and "." in text and _COLON_DIGIT.search(text) is not None, "@": "@" in text}
    mask = sum(1 << k for k, (_, need) in enumerate(lx.DEST_PARTS) if has[need])
    if mask not in _DEST_BY_MASK:
        parts = [src for k, (src, _) in enumerate(lx.DEST_PARTS) if mask >> k & 1]
        _DEST_BY_MASK[mask] = re.compile("|".join(parts), lx.DEST.flags) if parts else None
    return _DEST_BY_MASK[mask]


def _turns(text: str, low: str, turn: bool) -> list[tuple[int, int]]:
    """The speaker labels of ``text`` when it is a quoted transcript (:func:`speakers.transcript`), or the opening
    label of one turn of a transcript laid out a turn a line (``turn``); [] otherwise (or when lowercasing moved
    the positions)."""
    if ":" not in low or len(low) != len(text):
        return []
    spans = speakers.transcript(low)
    if not spans and turn:
        spans = speakers.labels(low)[:1]
    return spans


def _named_address(text: str, low: str, role: bool | None = None, you_are: bool | None = None,
                   found: list[list[tuple[int, int]]] | None = None) -> int:
    """The address level (see :class:`Evidence`) of a role noun addressed in ``text`` (``low``: lowercased): a
    vocative, the subject of an order, "you are an AI", an automated reader "detected". ``role``: :func:`_has_role`
    of the two (None: not asked yet); ``you_are``: whether ``lx.YOU_ARE_FIND`` finds a stem in ``low`` (None: not
    asked; False skips "you are an AI" where it is looked for only around those stems); ``found``: where each finder
    of ``_FINDERS`` matches in ``low`` (:meth:`~pagelens.focus.patterns.StemSet.spans`; None: searched here)."""
    if not (role if role is not None else _has_role(text, low)):
        return 0
    if ((lx.GATE_CASED.search(text) is not None or lx.PRODUCTS.search(text) is not None)
            and lx.ADDRESSED.search(text)) or (
            (you_are is not False or len(low) != len(text)) and _near(
                lx.YOU_ARE_AI, lx.YOU_ARE_FIND if found is None else found[_F_YOU_ARE], low, text, 2, 140)
    ) or (
            "detected" in low and lx.DETECTED.search(low)):
        return 2
    nouns = _nouns(low, text, lx.ROLE_FIND if found is None else found[_F_ROLE])  # read by both frames below: once
    level = _address_level(low, text, nouns)
    return level if level == 2 else max(level, reader.level(text, low, nouns))


def _has_role(text: str, low: str) -> bool:
    """Whether ``text`` (``low``: lowercased) holds a role noun's stem or a cased AI acronym (what an address needs)."""
    return lx.ROLE_FIND.search(low) is not None or lx.GATE_CASED.search(text) is not None


def _called_address(text: str, low: str, role: bool | None = None) -> int:
    """The address level of the reader called by a vocative phrase, read by or operating on the page, or called to
    attention (in ``text``; ``low``: lowercased; ``role``: :func:`_has_role` of the two, None: not asked yet)."""
    addressed = 0
    if role if role is not None else _has_role(text, low):
        if ":" in text:
            addressed = _vocative(text)
        if addressed < 2 and " by " in low and lw.READ_BY.search(low) is not None:
            return 2
        if addressed < 2 and _may_operate(low) and _OPERATING.search(low) is not None:
            return 2
    if addressed < 2 and (":" in text or "!" in text) and (
            (not text.isascii() and _CJK_VOC.search(text) is not None) or _attention(text, low)):
        return 2
    return addressed


#: The finders :func:`_evidence` asks of every gated span, told in one scan (:class:`~pagelens.focus.patterns.StemSet`);
#: ``_F_*``: each one's place in the answer.
_FINDERS = pt.StemSet((lx.ROLE_FIND, lx.DISMISS_FIND, lx.INSTR_FIND, lx.USER_FIND, lx.DISPUTE_FIND, lx.PRINCIPAL_FIND,
                       lx.YOU_ARE_FIND))
_F_ROLE, _F_DISMISS, _F_INSTR, _F_USER, _F_DISPUTE, _F_PRINCIPAL, _F_YOU_ARE = range(7)
#: A word every alternative of ``lx.ABOUT_USER`` holds one of: a lowercased text of ASCII and caseless punctuation (where
#: the one scan runs) without any of them has no match (``tests/unit/focus/test_evidence_one_scan.py`` reads the
#: pattern's alternatives against this list).
_ABOUT_USER_WORDS = ("user", "human", "customer", "report", "answer", "asked", "summari", "says", "only")
#: The one-scan cut (h38-fastdef2): False asks each finder itself, as before (the same answers, one scan each).
ONE_SCAN = True


def _evidence(text: str, home: frozenset[str], turn: bool = False) -> Evidence:
    low = text.lower()
    if not gate(text):
        return _NONE
    found = _FINDERS.spans(low) if ONE_SCAN else None  # (None: each finder asked itself below)
    hits = None if found is None else [bool(f) for f in found]
    # (asked once for both readings of the address)
    role = (hits[_F_ROLE] or lx.GATE_CASED.search(text) is not None) if hits is not None else _has_role(text, low)
    addressed = _named_address(text, low, role, None if hits is None else hits[_F_YOU_ARE], found)
    called = _called_address(text, low, role) if addressed < 2 else 0
    labels: list[tuple[int, int]] | None = None  # the speaker labels, found only when something needs them
    atext = text
    if (addressed or called) and ":" in low:
        # A speaker label names who speaks, it speaks to nobody: in a quoted transcript the address rules read the
        # text without its labels ("Assistant: Open the settings …" is a turn of the chat, not an order to the reader).
        labels = _turns(text, low, turn)
        if labels:
            atext, alow = speakers.unlabelled(text, labels), speakers.unlabelled(low, labels)
            role = _has_role(atext, alow)
            addressed = _named_address(atext, alow, role)
            called = _called_address(atext, alow, role) if addressed < 2 else 0
    imitation = ""
    if (_may_mark(text) and lx.has_mark(text)) or lx.MARK_WORDS.search(low):
        m = lx.IMITATION.search(text)
        if m:
            imitation = next((k for k, v in m.groupdict().items() if v is not None), "the observation format")
    if not imitation and (":" in text or "：" in text) and lx.CHAT_TURNS.search(text):
        imitation = _CHAT
    you = False
    override = 0
    if hits is not None:
        dismiss, instr = hits[_F_DISMISS], hits[_F_INSTR]
    else:
        dismiss = lx.DISMISS_FIND.search(low) is not None
        instr = lx.INSTR_FIND.search(low) is not None  # (read again by the override and the principal below)
    if dismiss or instr:
        you = _any(lx.YOU, low)
        override = _override(low, addressed, you, dismiss, instr, lx.DISMISS_FIND if found is None else found[_F_DISMISS])
    principal = 0
    about_user = wants_you = False
    if hits[_F_USER] if hits is not None else lx.USER_FIND.search(low):
        # each pattern only around the stems it holds (bounds, not slices: lookbehinds see the text around)
        about_user = (found is None or any(w in low for w in _ABOUT_USER_WORDS)) and _near(
            lx.ABOUT_USER, lx.USER_FIND if found is None else found[_F_USER], low, low, 90, 130) or (
            instr and _any(lx.TASK_REF, low))
        wants_you = lx.WANTS_FIND.search(low) is not None and _near(lx.WANTS_YOU, lx.WANTS_FIND, low, low, 60, 40)
        # (the three principal patterns search the same bounds)
        spans = _near_spans(lx.PRINCIPAL_FIND if found is None else found[_F_PRINCIPAL], low, 60, 140)
        has_user = bool(spans)
        if has_user and (any(lx.PRINCIPAL_WISH.search(low, lo, hi) for lo, hi in spans)
                         or any(lx.PRINCIPAL_STRONG.search(low, lo, hi) for lo, hi in spans)):
            principal = 2
        elif (has_user and any(lx.PRINCIPAL.search(low, lo, hi) for lo, hi in spans)) or about_user:
            principal = 1
        if wants_you and (principal or lx.WANTS_YOU_NOW.search(low)):
            principal = 2
    offsite = _offsite(text, home)
    wide_cred = wide_order = False
    if lw.gate(low):  # the languages of lexicons_wide: a word for the reader beside a dismissal ...
        wide_addressed, wide_override, wide_cred, wide_order = _wide(low, bool(offsite), turn)
        addressed, override = max(addressed, wide_addressed), max(override, wide_override)
    addressed = max(addressed, called)
    disputes = 0
    if (hits[_F_DISPUTE] if hits is not None else lx.DISPUTE_FIND.search(low)) and any(
            lx.DISPUTE.search(w) for w in _windows(lx.DISPUTE_FIND if found is None else found[_F_DISPUTE], low, 30, 60)):
        real, here = _any(lx.REAL, low), _any(lx.DEICTIC, low)
        disputes = 2 if (offsite and (real or here)) or (real and here) else int(bool(offsite))
    elif offsite and (" been " in low or "no longer" in low) and _STALE.search(low) is not None:
        disputes = 2 if _any(_REAL_STRICT, low) and _any(_FIGURES, low) else 1
    secrecy = bool(lx.SECRECY_FIND.search(low)) and any(lx.SECRECY.search(w) for w in _windows(lx.SECRECY_FIND, low, 40, 90))
    authority = lx.AUTHORITY_FIND.search(low) is not None and _any(lx.AUTHORITY, text)
    if imitation == _CHAT and labels is None:
        labels = _turns(text, low, turn)
        atext = speakers.unlabelled(text, labels) if labels else text
    if labels and imitation == _CHAT and not (
            addressed or override or principal or disputes or secrecy or offsite or wide_cred
            or _any(lx.CREDENTIAL, low) or _any(lx.EXFIL, low) or (authority and _any(lx.AUTHORITY, atext))):
        imitation = ""  # the shape of a chat alone: a quoted transcript whose turns carry nothing for the reader
    if not (addressed or imitation or override or principal or disputes or secrecy or authority or offsite):
        return _NONE  # nothing here can anchor a verdict: skip the rest
    you = you or _any(lx.YOU, low)
    sentences = [s for s in _CLAUSE.split(low) if s]
    order = any(lx.ORDER_START.match(s) for s in sentences)
    modal = _any(lx.MODAL, low)
    order = order or _any(lx.ORDER_ANY, low) or (you and modal) or about_user or wants_you or wide_order
    if addressed and not order:
        order = modal
    return Evidence(addressed, you, order, _any(lx.URGENT, low), override, principal, secrecy,
                    _any(lx.CREDENTIAL, low) or _any(lx.EXFIL, low) or wide_cred, offsite, disputes, imitation, authority,
                    modal, bool(offsite) and _any(lx.ELSEWHERE, low))


def _wide(low: str, offsite: bool, turn: bool = False) -> tuple[int, int, bool, bool]:
    """(addressed, override, credential, order) from :mod:`pagelens.focus.lexicons_wide`: a word for the automated
    reader beside a dismissal, or beside an off-site address with instructions or a credential request, is an
    address; a dismissal beside a word for instructions (or for the reader) dismisses the reader's instructions.
    A word for the reader with an off-site address alone is a weak address (the words also name help desks), and so
    is one beside a dismissal with nothing to dismiss ("my phone's assistant does that too, ignore it").

    A word for the reader beside the word for its user or beside an order word (an imperative, an obligation) is an
    address too, read in the text without the speaker labels of a quoted transcript (:mod:`pagelens.focus.speakers`:
    "User: … Assistant: …" names who speaks, it speaks to nobody); ``turn``: the text is one line of a transcript
    laid out a turn a line, its opening label is a speaker label too."""
    role = lw.ROLE.search(low) is not None
    dismiss = lw.DISMISS.search(low) is not None
    instr = lw.INSTR.search(low) is not None
    cred = lw.CRED.search(low) is not None
    addressed = 2 if role and ((dismiss and (instr or offsite or cred)) or (offsite and (instr or cred))) else int(
        role and offsite)
    told = lw.ORDER.search(low) is not None
    if role and (told or (addressed < 2 and lw.USER.search(low) is not None)):
        free = speakers.unlabelled(low, _turns(low, low, turn))
        if free is not low and lw.ROLE.search(free) is None:
            told = False  # the reader's words stand only as speaker labels: the turns' orders are the chat's own
        elif addressed < 2 and _spoken_to(free):
            addressed = 2
    override = 2 if dismiss and instr else 0
    return addressed, override, cred, told


#: Sentence ends (Latin, CJK full-width, Arabic, Devanagari, Urdu) and line ends: where one address ends.
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f\u061f\u0964\u06d4])\s+|\n")


def _spoken_to(text: str) -> bool:
    """A word for the automated reader in one sentence with an order word or the word for its user: an address.
    (Anywhere in a long paragraph they are two sentences' words: "… the inclusion of some packages. … the release
    managers and their assistants.")"""
    return any(lw.ROLE.search(s) is not None and (lw.ORDER.search(s) is not None or lw.USER.search(s) is not None)
               for s in _SENTENCE_END.split(text) if s)


def _vocative(text: str) -> int:
    """2 when a sentence opens on a vocative noun phrase closed by a colon that names the reader as a kind of
    machine ("automated ... tools:", "AI ...ers:"), reading this page or followed by an order or a dispute of the
    page; 1 for a plain role noun reading this page ("assistants reading this page:"); else 0."""
    level = 0
    for m in lw.VOCATIVE.finditer(text):
        if m.group("qt"):
            return 2
        if m.group("t"):  # a plain role noun ("assistants reading this page:"): people can be called that too
            level = 1
            continue
        rest = text[m.end() : m.end() + 240].lower()
        if (any(lx.ORDER_START.match(c) for c in _CLAUSE.split(rest)[:3] if c) or _any(lx.MODAL, rest)
                or lx.DISPUTE_FIND.search(rest) is not None):
            return 2
    return level


def points(ev: Evidence) -> tuple[int, bool]:
    """(points, anchored): the weight of the evidence, and whether it has what only text written to an
    automated reader has (an addressee, a dismissal of instructions, an imitated format, the reader's
    user spoken of, or a dispute of the page / an off-site credential request)."""
    if ev.imitation:
        return 5, True
    p = 0
    p += 3 if ev.addressed == 2 else ev.addressed
    p += ev.addressed == 2 and ev.you
    p += 3 if ev.override == 2 else ev.override
    p += ev.principal + (ev.principal == 2 and ev.you)
    p += ev.order
    p += ev.urgent and (ev.order or bool(ev.offsite))
    p += 2 * ev.secrecy if (ev.order or ev.principal or ev.addressed) else 0
    p += bool(ev.offsite) and (ev.order or ev.credential or ev.addressed > 0 or ev.principal > 0 or ev.disputes)
    p += ev.credential and (ev.order or bool(ev.offsite))
    p += ev.disputes
    p += ev.disputes == 2 and ev.modal and ev.elsewhere and not ev.order  # "... should be taken from there instead"
    p += ev.authority and (ev.order or ev.addressed > 0)
    anchored = (ev.addressed == 2 or ev.override == 2 or ev.principal == 2 or ev.disputes == 2
                or (ev.principal == 1 and ev.you and ev.order)
                or (ev.addressed == 1 and ev.order and (ev.you or ev.principal > 0 or bool(ev.offsite) or ev.secrecy
                                                        or ev.credential or ev.override > 0 or ev.authority)
                                          or (ev.addressed == 1 and bool(ev.offsite) and ev.credential))
                or (ev.authority and ev.order and ev.you)
                or (ev.principal == 1 and ev.order and (ev.credential or bool(ev.offsite) or ev.secrecy))
                or (ev.secrecy and (ev.order or ev.principal > 0)))
    return p, anchored


def steers(ev: Evidence) -> bool:
    """An order with no addressee that sends the reader off-site with something more: credentials or
    payment, a dispute of the page, a threat or urgency, secrecy, or "instead / only there". Honest
    sites rarely write that in a review, a pop-up, a live region or text nobody sees; it anchors a
    verdict only there (see :mod:`pagelens.focus.defense`)."""
    return bool(ev.offsite) and (ev.order or ev.modal or ev.urgent) and (
        ev.credential or ev.disputes > 0 or ev.urgent or ev.secrecy or ev.elsewhere)


def drifts(text: str, goal_shared: bool, *, strict: bool = False) -> bool:
    """Goal drift: a span that restates the goal (``goal_shared``) while announcing that the task
    changed (a change word and a word for the request someone made, in any of the lexicon's languages).
    ``strict`` (the site's own text): the span must also give an order."""
    if not goal_shared:
        return False
    low = text.lower()
    if lx.CHANGE.search(low) is None or lx.TASK_WORDS.search(low) is None:
        return False
    return not strict or any(lx.ORDER_START.match(s) for s in _CLAUSE.split(low) if s) or _any(lx.MODAL, low)


def orders_now(text: str) -> bool:
    """An order given with urgency ("press X immediately"): what text nobody sees has no reason to say."""
    low = text.lower()
    return lx.URGENT_NOW.search(low) is not None and (
        any(lx.ORDER_START.match(c) for c in _CLAUSE.split(low) if c) or _any(lx.ORDER_ANY, low))


def gives_order(text: str) -> bool:
    """A clause opening on an imperative, a "please", or an obligation, in any of the lexicon's languages."""
    low = text.lower()
    return (any(lx.ORDER_START.match(c) for c in _CLAUSE.split(low) if c) or _any(lx.ORDER_ANY, low)
            or _any(lx.MODAL, low))

"""The reader named by grammar (pure): a role noun as the *subject* of an obligation or of a condition whose main
clause is an instruction, or in a *vocative* that opens a sentence and is followed by an instruction.

Only closed classes are read here — determiners, modal verbs, conditional/temporal conjunctions, greeting words,
relative pronouns, prepositions, topic particles and punctuation — around the role nouns that
:mod:`pagelens.focus.lexicons` already knows (``NOUN``); no phrase of any text. The two frames:

* **subject** — ``[if/when …] [det] [≤ 2 modifiers] NOUN [and NOUN] [a participle or relative clause] MODAL VERB``
  ("<nouns> doing X must first …"), the verb not a copula or a passive ("the SSH agent should be running" is about
  the agent); or a condition/temporal clause whose subject is the noun (or "you are a(n) NOUN") and whose main
  clause, after its comma, opens on an imperative or an obligation; Japanese/Korean: the noun with a topic or
  subject particle and a polite imperative in one sentence; Chinese: the noun right before a modal of obligation;
* **vocative** — ``[greeting] [det] [≤ 2 modifiers] NOUN [and NOUN] [participle clause] [:,!—]`` opening a
  sentence (or "<heading> for NOUN:"), the same sentence going on with an instruction; a lone "AI"/"KI" too.

:func:`level` gives the role noun's address level in such a frame (see :class:`pagelens.focus.evidence.Evidence`):
2 for a noun no person bears (AI-qualified, "automated …", a lone "AI"), 1 for the other role nouns (agents,
assistants, models, and bots, crawlers as the older vocative rules read them) — the defense's existing bars decide what the level is worth. ``MODE`` chooses
the candidate of the pass that added it (BENCHMARKS.md, thirty-first pass).
"""

from __future__ import annotations

import re

from pagelens.focus import lexicons as lx
from pagelens.focus import patterns as pt

#: "G1": software nouns 2, people-nouns 1; "G2": G1, a people-noun 2 when its clause names the reader's user;
#: "G3": every role noun 2; "off": no level.
MODE = "G2"

_SOFT = re.compile(
    r"(?:\b(?:ai|a\.i\.|ki|ia|llms?|gpt|ии|automated|autonomous|automatic|headless|automatisiert\w*|automatisch\w*|"
    r"autonom\w*|automatis\w*|automatiz\w*|autom[aá]tic\w*|aut[oó]nom\w*|автоматическ\w*|автономн\w*)\b|"
    r"\bchatbots?\b|\bнейросет\w*)")
_CONJ = r"(?:if|when|whenever|while|once|unless|wenn|falls|sobald|si|quand|lorsque|lorsqu'|cuando|se|quando|als|als|если|когда)"
_DET = (r"(?:the|a|an|any|all|every|each|some|your|this|these|der|die|das|ein|eine|einen|jede[rsn]?|alle|le|la|les|l'|un|une|"
        r"tout|toute|tous|el|los|las|una|cualquier|todo|todos|il|lo|gli|i|ogni|qualsiasi|o|os|as|um|uma|qualquer|"
        r"de|het|een|elke|alle|каждый|любой|все)")
_GREET = (r"(?:hey|hi|hello|dear|attention|psst|yo|note|ps|p\.s\.|hallo|liebe[rs]?|hinweis|achtung|cher|ch[eè]re|chers|"
          r"bonjour|salut|querid[oa]s?|estimad[oa]s?|hola|caro|cara|cari|ciao|prezad[oa]s?|olá|beste|"
          r"привет|уважаем\w*|внимание)")
_PREP = r"(?:for|to|für|an|pour|à|aux|para|per|voor|для)"
_HEAD_PREP = r"(?:for|für|pour|aux|para|per|voor|для)"  # "<heading> for NOUN:" ("how to use …": an infinitive)
#: What may stand before the noun phrase: a clause opening, then a conjunction, a greeting, or "<heading> for".
_OPEN = (rf"(?:^|[.!?;:|(\[]\s*|\s[-–—]\s*|,\s*(?={_CONJ}\b))(?:(?:but|and|so|aber|und|mais|et|pero|y|ma|mas|maar|но)\s+)?"
         rf"(?:{_CONJ}\s+|{_GREET}[\s,!]+(?:{_PREP}\s+)?|(?:[\w-]+\s+)?{_HEAD_PREP}\s+)?")
_BEFORE = pt.Folded(
    rf"{_OPEN}(?:{_DET}\s+|{_DET}(?=\w))?(?:[\w-]+\s+(?:and|or|&|und|oder|et|ou|y|o|e|и|или)\s+)?(?:[\w-]+\s+){{0,2}}?$")
_YOU_ARE = pt.Folded(rf"\b{_CONJ}\s+(?:you\s+are|you're|du\s+bist|sie\s+sind|vous\s+êtes|tu\s+es|eres|es\s+usted|sei|"
                     rf"è|você\s+é|je\s+bent|u\s+bent|ты|вы)\s+(?:{_DET}\s+|{_DET}(?=\w))?(?:[\w-]+\s+){{0,2}}?$")
#: The words a gap before the modal may not hold: a new subject or a new clause (then the noun is not the subject).
_NOT_GAP = (r"(?!(?:you|we|i|they|he|she|it|if|when|because|so|but|or|then|du|sie|wir|ich|er|es|vous|nous|je|il|ils|"
            r"elle|elles|tú|usted|nosotros|ellos|ella|noi|voi|loro|lui|lei|jij|wij|ik|zij|ты|вы|мы|я|он|она|они)\b)")
_MODAL = (r"(?:must|shall|should|ought\s+to|need\s+to|needs\s+to|have\s+to|has\s+to|(?:are|is)\s+(?:required|expected|"
          r"asked|supposed|instructed)\s+to|are\s+to|müssen|muss|sollen|soll|sollten|sollte|doit|doivent|devrait|"
          r"devraient|debe|deben|debería|deberían|tiene\s+que|tienen\s+que|deve|devono|dovrebbe|dovrebbero|"
          r"moet|moeten|dient|dienen|должен|должна|должно|должны|обязан\w*)")
_COPULA = (r"(?:be|been|being|sein|werden|worden|être|été|ser|estar|sido|essere|stato|stata|zijn|wezen|быть)")
_ADV = (r"(?:not|never|also|first|always|then|now|immediately|only|still|just|auch|zuerst|sofort|immer|nicht|aussi|"
        r"d'abord|toujours|pas|también|primero|siempre|anche|prima|sempre|também|ook|eerst|сначала|также|тоже|сразу|не)")
_REL = r"(?:that|who|which|die|der|welche[rs]?|qui|que|qu'|lequel|laquelle|cual|cuales|che|il\s+quale|die|dat|которы\w*|что)"
#: After the noun: a second noun joined by and/or, then a present participle or relative clause (≤ 8 words without a
#: new subject: "AI models trained on …" is a description, not a reader at work), then a modal and a verb that is
#: not a copula or an adverb.
_AFTER_S = pt.Folded(
    rf"(?:\s+(?:and|or|&|und|oder|et|ou|y|o|e|и|или)\s+(?:[\w-]+\s+){{0,2}}?[\w-]+)?"
    rf"(?:,?\s+(?:[\w-]+ing|{_REL})(?:\s+{_NOT_GAP}[\w'-]+){{0,7}}?,?)?\s+{_MODAL}\s+(?:{_ADV}\s+){{0,2}}"
    rf"(?!(?:{_COPULA}|{_ADV})\b)[\w'-]+")
#: After the noun: a vocative's close (an optional second noun, a participle clause of ≤ 5 words).
_AFTER_V = pt.Folded(
    r"(?:\s+(?:and|or|&|und|oder|et|ou|y|o|e|и|или)\s+(?:[\w-]+\s+){0,2}?[\w-]+)?"
    r"(?:\s+[\w-]+ing(?:\s+[\w'-]+){0,4})?\s*[:,!—–]\s*")
#: A condition's close: the rest of its clause up to its comma (≤ 12 words).
_COND_REST = re.compile(r"(?:\s+[^\s,.;:!?]+){0,12}?\s*,\s*")
_LONE = re.compile(r"(?<![\w-])(?:AI|KI|IA|LLMs?|ИИ)(?![\w-])")
_SENT_END = re.compile(r"[.!?。！？]")
_CLAUSE = re.compile(r"(?<=[,;:])\s*|\s+[-–—]\s+|\b(?:and|then|und|et|y|e|и)\s+(?=\w)")
_USER = pt.Folded(rf"\b{lx._USER}\b")
_CJK_SUBJ = re.compile(
    rf"(?P<ai>(?:AI|ＡＩ|ai)\s*)?(?P<n>{lx._ROLE_CJK})(?:たち|達|们|들)?(?:は|には|が|も|는|은|이|가)[、，,]?"
    r"[^。！？!?]{0,80}?(?:ください|下さい|しなさい|せよ|하세요|하십시오|주세요)"
    rf"|(?P<ai2>(?:AI|ＡＩ|ai)\s*)?(?P<n2>{lx._ROLE_CJK})(?:们)?[，,]?\s*(?:必须|应该|应当|务必|需要|请)")
_CJK_SOFT = re.compile(r"自動|自动")
_CJK_LONE = re.compile(r"(?<![A-Za-z])(?:AI|ＡＩ)\s*(?:へ|に告ぐ|の皆様|様|们|여러분|님)\s*[:：]")


def _instruction(rest: str) -> bool:
    """The sentence that ``rest`` opens goes on with an instruction: a clause opening on an imperative, a "please",
    or an obligation."""
    m = _SENT_END.search(rest, 0, 240)
    sent = rest[: m.start() if m else 240]
    return (any(lx.ORDER_START.match(c) for c in _CLAUSE.split(sent)[:3] if c)
            or lx.ORDER_ANY.search(sent) is not None or lx.MODAL.search(sent) is not None)


def _weight(np: str, clause: str, soft: bool) -> int:
    """The level of a noun phrase ``np`` read in a frame (``clause``: its sentence from the noun on; ``soft``: the
    noun is AI-qualified)."""
    if MODE == "G3" or soft or _SOFT.search(np) is not None:
        return 2
    if MODE == "G2" and _USER.search(clause) is not None:
        return 2
    return 1


def level(text: str, low: str, nouns: list[re.Match[str]] | None = None) -> int:
    """The address level of a role noun in a subject or vocative frame of ``text`` (``low``: lowercased; ``nouns``:
    the role nouns of ``low`` when the caller found them already), else 0."""
    if MODE == "off":
        return 0
    best = _cjk(text) if not text.isascii() else 0
    if best == 2 or len(low) != len(text):
        return best
    hits = [(m.start(), m.end(), m.group("ai") is not None)  # a bare "ai" is an Italian/Spanish word: only _LONE's
            for m in (lx.NOUN.finditer(low) if nouns is None else nouns) if m.group("bare") is None]  # cased ones
    if "I" in text or "K" in text or "L" in text or "\u0418" in text:
        hits += [(m.start(), m.end(), True) for m in _LONE.finditer(text)]
    for a, b, soft in sorted(hits):
        lo = max(0, a - 60)
        before = ("\x00 " if lo else "") + low[lo:a]
        opened = _BEFORE.search(before)
        you_are = _YOU_ARE.search(before) if opened is None or "you" in before else None
        if opened is None and you_are is None:
            continue
        np = before[(you_are or opened).start() :] + low[a:b]  # type: ignore[union-attr]
        end = _SENT_END.search(low, b)
        clause = low[a : end.start() if end else len(low)]
        found = False
        if opened is not None:
            m = _AFTER_S.match(low, b)
            found = m is not None and _SENT_END.search(low, b, m.end()) is None  # the subject of an obligation
            if not found and _VOC_OPEN.search(before) is not None:
                m = _AFTER_V.match(low, b)
                found = m is not None and _instruction(low[m.end() :])  # a vocative followed by an instruction
        if not found and (you_are is not None or _COND_HEAD.search(np) is not None):
            c = _COND_REST.match(low, b)
            found = c is not None and _instruction(low[c.end() :])  # a condition's subject, an instruction after it
        if found and you_are is not None and opened is None and MODE != "G3" and not soft and _SOFT.search(np) is None:
            found = False  # "if you are an agent, …": the "you" already counts; a people-noun adds nothing
        if found:
            best = max(best, _weight(np, clause, soft))
            if best == 2:
                return 2
    return best


_VOC_OPEN = pt.Folded(rf"(?:^|[.!?;:|(\[]\s*|\s[-–—]\s*)(?:{_GREET}[\s,!]+(?:{_PREP}\s+)?|(?:[\w-]+\s+)?{_HEAD_PREP}\s+)?"
                      rf"(?:{_DET}\s+|{_DET}(?=\w))?(?:[\w-]+\s+(?:and|or|&|und|oder|et|ou|y|o|e|и|или)\s+)?(?:[\w-]+\s+){{0,2}}?$")
_COND_HEAD = re.compile(rf"\b{_CONJ}\s")


def _cjk(text: str) -> int:
    """Japanese/Korean/Chinese frames: a role noun with a topic/subject particle and a polite imperative in one
    sentence, or before a modal of obligation; a lone "AI" with a vocative particle and a colon."""
    if _CJK_LONE.search(text) is not None:
        return 2
    best = 0
    for m in _CJK_SUBJ.finditer(text):
        noun = m.group("n") or m.group("n2") or ""
        ai = m.group("ai") or m.group("ai2")
        lead = text[max(0, m.start() - 12) : m.start()]
        best = max(best, 2 if (ai or _CJK_SOFT.search(noun) or _CJK_SOFT.search(lead) or MODE == "G3") else 1)
        if best == 2:
            break
    return best

"""A deterministic prompt-injection detector over a rendered tree.

Web pages can carry text written for the agent rather than for the user: a banner's alt text
telling "AI agents" to verify at some URL, a pop-up whose aria-label restates the task, a
visually hidden live region, a review with fake tree lines. :func:`detect` flags the lines
that carry such text; :func:`pagelens.focus.apply.focus` removes them.

How a line is judged. The *payload* of a line is everything after its ``[id] role`` prefix,
minus ``url=`` properties (a link's target is not text anyone reads). Patterns over the payload
give *hits*: strong hits (weight 2: "ignore previous instructions", "attention AI agent",
"you are an AI", "AI agents must visit", "the user's real request is", fake tree syntax) flag
on their own; medium hits (weight 1: "note to the assistant:", "without telling the user",
"your task is ...", an off-site URL next to "verify your account") flag only together. Words
that legitimate pages use freely — assistant, agent, instructions, ignore, model, verify — are
never enough on their own: a flag needs an imperative aimed at an AI, or a structural tell.
Runs of adjacent text siblings are also judged together, since rendering splits paragraphs.

Flag kinds: ``addresses-agent``, ``goal-drift``, ``fake-tree``, ``offsite-verify-url`` and
``hidden-live-region`` (a live region whose text has any instruction-like hit).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from pagelens.types import Rendering

__all__ = ["KINDS", "DefenseReport", "Flag", "detect", "scan_text"]

KINDS = ("addresses-agent", "goal-drift", "fake-tree", "offsite-verify-url", "hidden-live-region")


@dataclass(frozen=True, slots=True)
class Flag:
    line: int  # Line.no
    kind: str  # one of KINDS
    reason: str
    excerpt: str


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str
    weight: int  # 2 flags alone, 1 needs company
    reason: str
    start: int  # offset in the cleaned text


# ---------------------------------------------------------------- vocabulary
_I = re.IGNORECASE
_AIW = (  # words that name AI as such (case-sensitive acronyms)
    r"(?:(?-i:AI|A\.I\.|KI|IA|LLMs?|GPT-?\d*|ChatGPT|Claude)|artificial\s+intelligence|"
    r"k[üu]nstliche\s+intelligenz|intelligence\s+artificielle|inteligencia\s+artificial)"
)
_NOUN = (
    r"(?:agents?|agenten|assistants?|assistent(?:en|in)?|models?|modell(?:e)?|bots?|systems?|"
    r"browsers?|crawlers?|scrapers?|agentes?|asistentes?|modelos?|mod[èe]les?)"
)
# An AI named as an agent: "AI agent(s)", "LLMs", "language model", "KI-Agent", "agents IA" ...
_AI_NOUN = (
    rf"(?:(?:{_AIW}|ai)[\s-]*{_NOUN}|(?-i:LLMs?)|(?:large\s+)?language\s+models?|chatbots?|"
    rf"(?:autonomous|web|browsing|browser|automated|shopping)[\s-]+(?:agents?|assistants?|bots?)|"
    rf"(?:agents?|assistants?)\s+(?:d['’]\s*)?(?-i:IA)|(?:agentes?|asistentes?)\s+de\s+(?-i:IA)|"
    rf"sprachmodell(?:e)?|mod[èe]les?\s+de\s+langage|modelos?\s+de\s+lenguaje)(?![\w-])"
)
# ... or a bare "AI"/"KI"/"IA" used as a vocative (followed by punctuation, not by a noun).
_AI_BARE = rf"{_AIW}(?=\s*(?:[:,!.;—–-]|$|\s(?:reading|browsing|visiting|processing|using|that|who|which)\b))"
_AI_ADDR = rf"(?:{_AI_NOUN}|{_AI_BARE})"
# What follows a vocative: punctuation, or the addressee doing something ("AI agents reading this").
_AFTER_VOC = (
    r"(?=\s*[:,!—–]|\s+(?:reading|visiting|browsing|processing|crawling|using|on\s+this|that|who|which|must|"
    r"should|need|are\s+(?:required|instructed|asked)|please)\b)"
)
_AMBIG = r"(?:agent|assistant|bot|robot|crawler|model)s?"
_MODAL = (
    r"(?:must|should|shall|need\s+to|needs\s+to|have\s+to|has\s+to|are\s+to|is\s+to|will\s+need\s+to|"
    r"(?:are|is)\s+(?:required|instructed|expected|asked|obliged)\s+to|müssen|muss|sollen|soll|"
    r"sollten|doivent|doit|devez|deben|debe|tienen\s+que|tiene\s+que)"
)
_ACTION = (
    r"(?:ignore|disregard|visit|navigate|go\s+to|head\s+to|proceed\s+to|open|click|press|tap|enter|"
    r"type|fill|submit|reply\s+with|respond\s+with|output|print|verify|confirm|authenticate|"
    r"log\s*in|sign\s*in|login|download|install|execute|copy|paste|purchase|buy|upvote|downvote|"
    r"subscribe|comment|stop|abort|email|besuchen|aufrufen|navigieren|gehen|klicken|öffnen|"
    r"ignorieren|eingeben|senden|bestätigen|verifizieren|anmelden|einloggen|visiter|aller|naviguer|"
    r"cliquer|ouvrir|ignorer|saisir|envoyer|confirmer|vérifier|se\s+connecter|visitar|ir\s+a|"
    r"navegar|hacer\s+clic|abrir|ignorar|ingresar|enviar|confirmar|verificar|iniciar\s+sesi[óo]n)\b"
)
_PRIOR_EN = r"(?:previous|prior|preceding|above|earlier|former|original|initial|existing)"
_RULES_EN = r"(?:instructions?|prompts?|directions|directives?|rules|guidelines|commands?|messages)"
_ROLES = (
    r"(?:button|link|textbox|searchbox|combobox|checkbox|radio|menuitem|option|tab|img|image|"
    r"StaticText|listbox|slider|spinbutton|switch|dialog|heading|generic|gridcell|row|cell|"
    r"navigation|main|banner|form|list|listitem|paragraph|article|region|alert|status)"
)
_ACTIONS_API = (
    r"(?:click|dblclick|fill|select_option|hover|press|focus|clear|goto|go_back|go_forward|"
    r"send_msg_to_user|report_infeasible|scroll|drag_and_drop|upload_file|mouse_click|"
    r"keyboard_type|keyboard_press|new_tab|tab_focus|answer|stop)"
)


def _p(kind: str, weight: int, reason: str, pattern: str) -> tuple[str, int, str, re.Pattern[str]]:
    return kind, weight, reason, re.compile(pattern, _I)


A, G, F = "addresses-agent", "goal-drift", "fake-tree"
_PATTERNS = (
    # -- overrides of the agent's instructions
    _p(A, 2, "overrides prior instructions",
       rf"\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these)\s+)*"
       rf"{_PRIOR_EN}\s+{_RULES_EN}|\b(?:ignore|disregard|forget)\s+(?:all|any)\s+(?:(?:of\s+)?(?:your|the)\s+)?"
       rf"(?:instructions|prompts|rules|guidelines|directives)\b"),
    _p(A, 2, "overrides prior instructions",
       r"\b(?:ignore|disregard|forget)\s+(?:all\s+)?your\s+(?:previous\s+|prior\s+|original\s+)?(?:instructions|rules|"
       r"guidelines|prompt|directives|programming)\b|\b(?:forget|disregard|ignore)\s+everything\s+(?:you\s+(?:were|have\s+been)"
       r"\s+(?:told|given)|(?:written\s+)?above|before\s+this)(?!\s+about)|\b(?:vergiss|ignoriere)\s+deine\s+(?:anweisungen|"
       r"instruktionen|regeln)|\b(?:oublie[zr]?|ignore[zr]?)\s+(?:tes|vos)\s+(?:instructions|consignes)|\b(?:olvida|ignora)\s+"
       r"(?:tus|sus)\s+instrucciones"),
    _p(A, 2, "overrides prior instructions",
       r"\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|what\s+is\s+)?(?:above|foregoing|preceding)"
       r"(?=\s*(?:[,.;:!]|and\b|instead\b|$))"),
    _p(G, 2, "impersonates the user",
       r"\b(?:i\s+am|i['’]m|this\s+is)\s+(?:the|your)\s+(?:user|operator|principal)\b[^\n]{0,80}?\b(?:changed\s+my\s+mind|"
       r"new\s+(?:task|request|instructions?)|instead|ignore|cancel|do\s+not|don['’]t)\b"),
    _p(A, 1, "claims the site owner's authority",
       r"\b(?:official|authori[sz]ed|mandatory|urgent)\s+(?:instruction|directive|message|notice|order)s?\s+(?:from|by)\s+"
       r"(?:the\s+)?(?:website|site|page|system|platform)\s+(?:owner|admin|administrator|operator|team)|"
       r"^(?:system\s+|admin\s+)?override\s*:"),
    _p(A, 1, "assigns the reader a persona or mode",
       r"\byou\s+are\s+now\s+(?-i:[A-Z][a-z]+[A-Z]?\w*)\b(?<!Logged)(?<!Signed)|\b(?:developer|god|jailbreak|DAN|unrestricted)"
       r"\s+mode\b"),
    _p(A, 2, "overrides prior instructions (de)",
       r"\b(?:ignorier(?:e|en|t)?|vergiss|vergessen|missachte)\s+(?:sie\s+)?(?:alle\s+|die\s+|deine\s+|ihre\s+)*"
       r"(?:vorherigen|bisherigen|vorigen|obigen|früheren|vorangegangenen|ursprünglichen|alle)\s+"
       r"(?:anweisungen|instruktionen|befehle|regeln|vorgaben)"),
    _p(A, 2, "overrides prior instructions (fr)",
       r"\b(?:ignore[rz]?|oublie[rz]?)\s+(?:toutes\s+)?(?:les\s+|tes\s+|vos\s+)?(?:instructions|consignes|directives)"
       r"\s+(?:pr[ée]c[ée]dentes|ant[ée]rieures|ci-dessus|initiales)|\b(?:ignore[rz]?|oublie[rz]?)\s+toutes\s+"
       r"(?:les\s+|tes\s+|vos\s+)?(?:instructions|consignes)"),
    _p(A, 2, "overrides prior instructions (es)",
       r"\b(?:ignora[rd]?|ignore|olvida[rd]?|olvide|descarta)\s+(?:todas\s+)?(?:las\s+|tus\s+|sus\s+)?"
       r"(?:instrucciones|indicaciones|[óo]rdenes|reglas)\s+(?:anteriores|previas|de\s+arriba|iniciales)"
       r"|\b(?:ignora[rd]?|olvida[rd]?)\s+todas\s+(?:las\s+|tus\s+)?instrucciones"),
    # -- telling the reader it is an AI
    _p(A, 2, "tells the reader it is an AI",
       rf"\b(?:you\s+are|you['’]re|if\s+you\s+are)\s+(?:now\s+)?(?:an?\s+)?(?:{_AI_NOUN}|{_AIW}|ai)(?![\w-])"
       r"(?=\s*(?:[,.;:!?)—–-]|$|(?:and|so|then|reading|that|who|which|with|tasked|browsing|acting|operating|"
       r"processing|working|helping|designed|built|controlled|instructed|must|should|will|visiting|navigating)\b))"),
    _p(A, 2, "tells the reader it is an AI",
       rf"\bas\s+an?\s+(?:{_AI_NOUN}|{_AIW}|ai)(?![\w-])\s*,?\s+(?:you|your)\b"),
    _p(A, 2, "tells the reader it is an AI (de/fr/es)",
       r"\b(?:du\s+bist|sie\s+sind|tu\s+es|vous\s+[êe]tes|eres|usted\s+es)\s+(?:jetzt\s+|maintenant\s+|ahora\s+)?"
       r"(?:eine?n?\s+|une?\s+|una?\s+)?(?:(?-i:KI|IA)|künstliche\s+intelligenz|intelligence\s+artificielle|"
       r"inteligencia\s+artificial|(?:ki-)(?:agent|assistent|modell|system)\w*|sprachmodell|"
       r"(?:assistant|agent)\s+(?:d['’]\s*)?(?-i:IA)|(?:asistente|agente)\s+de\s+(?-i:IA)|"
       r"mod[èe]le\s+de\s+langage|modelo\s+de\s+lenguaje)(?![\w-])"),
    _p(A, 2, "addresses an AI in its role (de/fr/es)",
       r"\b(?:als\s+(?:(?-i:KI)|KI-\w+|sprachmodell)|en\s+tant\s+qu['’]\s*(?:une?\s+)?(?:(?-i:IA)|(?:assistant|agent)"
       r"\s+(?:d['’]\s*)?(?-i:IA))|como\s+(?:una?\s+)?(?:(?-i:IA)|(?:asistente|agente)\s+de\s+(?-i:IA)))\s*,?\s+"
       r"(?:musst|m[üu]ssen|solltest|sollst|tu\s+dois|vous\s+devez|debes|tienes\s+que|usted\s+debe|deber[áa]s)"),
    # -- calling out to an AI
    _p(A, 2, "calls out to an AI",
       rf"\b(?:attention|achtung|atenci[óo]n|hey|hi|hello|hallo|dear|liebe[rs]?|cher|ch[èe]re|querido|estimado|psst|"
       rf"note|notice|message|memo|reminder|warning|important|instructions?|hinweis|nachricht|anweisung(?:en)?|"
       rf"nota|mensaje|aviso|avis|remarque|wichtig|dringend|urgent|importante|urgente)\b[\s,:!—–-]*(?:(?P<prep>to|for|an|für|à|aux|au|pour|para|a)\s+)?"
       rf"(?:(?:the|all|any|every|den|die|alle|l['’]|les|tous\s+les|el|los|la|las|todos\s+los|cualquier)\s*)?"
       rf"(?:\w+\s+(?:and|or|&|und|et|y)\s+)?{_AI_ADDR}(?(prep)|{_AFTER_VOC})"),
    _p(A, 2, "calls out to an AI",
       rf"(?:^|[.!?;]\s|\b(?:psst|yo|ok|okay)\W+|\b(?:to|for)\s+(?:all|any|every)\s+){_AI_NOUN}(?=\s*!|\s*:\s*(?:please|you|"
       rf"your|do|don['’]t|go|visit|navigate|click|ignore|open|the\s+user)\b|\s+(?:reading|visiting|browsing|processing|crawling)"
       rf"\s+(?:this|these|the\s+(?:page|site|text)))"),
    _p(A, 2, "instructs AI agents",
       rf"{_AI_NOUN}[^.!?\n]{{0,40}}?\b{_MODAL}\b[^.!?\n]{{0,80}}?\b{_ACTION}"),
    _p(A, 2, "model-control tokens",
       r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<<SYS>>|</?system>|"
       r"\[(?-i:SYSTEM|ADMIN)\]|(?:^|[\s'\"])(?-i:SYSTEM|ADMIN|DEVELOPER)\s*(?:(?-i:MESSAGE|PROMPT|NOTE|OVERRIDE)\s*)?:"
       r"|\b(?:new|updated|revised|override)\s+system\s+(?:prompt|message|instructions?)|"
       r"\bsystem\s+(?:prompt|instructions?)\s+(?:override|update)"),
    _p(A, 1, "calls out to an agent or assistant",
       rf"\b(?:attention|note|notice|message|reminder|important|instructions?|hey|dear|hello)\s*(?:to|for)?\s*"
       rf"(?:the\s+|all\s+|any\s+)?{_AMBIG}\s*[:,!—–]"),
    _p(A, 1, "calls out to an agent or assistant",
       rf"^(?:the\s+)?(?:agent|assistant|bot|model)s?\s*[:,]\s+(?:please\s+|now\s+|first\s+|before\s+)?"),
    _p(A, 1, "casts the reader as an agent",
       r"\b(?:you\s+are|if\s+you\s+are)\s+an?\s+(?:(?:helpful|autonomous|web|browsing|browser|shopping|automated)\s+)+"
       r"(?:agent|assistant|bot)\b|\bif\s+you\s+are\s+an?\s+(?:bot|crawler|automated\s+\w+)\b"),
    _p(A, 1, "hides actions from the user",
       r"\b(?:do\s+not|don['’]t|never)\s+(?:tell|inform|notify|alert|warn|ask|consult|mention\s+(?:this|it)\s+to)"
       r"\s+the\s+user\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking|consulting|warning)\s+the\s+user\b"),
    _p(A, 1, "refers to the reader's task",
       r"\b(?:to|in\s+order\s+to|before\s+you)\s+(?:complete|finish|accomplish|continue|proceed\s+with)\s+"
       r"(?:your|the|this)\s+(?:task|goal|objective|mission)\b|\b(?:before|after)\s+(?:finishing|completing|continuing|"
       r"doing|starting)\s+(?:your|the|this)\s+(?:task|goal|objective|mission)\b|\bthe\s+(?:task|goal|request)\s+"
       r"(?:the\s+user\s+(?:gave|assigned|asked)|you\s+were\s+(?:given|assigned))"),
    _p(A, 1, "announces new instructions",
       r"\b(?:new|updated|revised|additional|secret|hidden)\s+(?:instructions?|anweisungen|consignes|instrucciones)"
       r"\s*(?:for\s+\w+(?:\s+\w+)?\s*)?:|\bnouvelles\s+instructions\b|\bnuevas\s+instrucciones\b|\bneue\s+anweisungen\b"),
    _p(A, 1, "sends the reader to a URL",
       r"\byou\s+(?:must|should|need\s+to|have\s+to|are\s+required\s+to)\s+(?:first\s+|now\s+|immediately\s+)?"
       r"(?:go\s+to|visit|navigate\s+to|open)\s+(?:https?://|www\.|[\w-]+\.[a-z]{2,}/)"),
    # -- restating the task
    _p(G, 2, "claims the user wants something else",
       r"\bthe\s+(?:user|human)\s+(?:actually|really|truly|now|instead|secretly)\s+(?:wants|wanted|needs|asked|asks|"
       r"requests|requested|meant|intends|prefers)\s+you\b|\bthe\s+(?:user|human)['’]s\s+(?:real|actual|true|updated|"
       r"new|revised|underlying)\s+(?:request|task|instructions?|query|command)\b|\b(?:the\s+)?(?:user|human|operator)"
       r"\s+has\s+(?:changed|updated|modified|revised)\s+(?:their|the|his|her)\s+(?:request|task|goal|instructions?)"),
    _p(G, 2, "claims the user wants something else",
       r"\bthe\s+(?:user|human)\s+(?:wants|asked|asks|needs|would\s+like|requested|has\s+asked|instructed)\s+you\s+to\b"),
    _p(G, 2, "assigns a new task",
       r"\byour\s+(?:new|real|actual|true|updated|revised)\s+(?:task|instructions?|mission|assignment|directive)"
       r"\s+(?:is|are|:|now)|\b(?:instead\s+of|rather\s+than)\s+(?:the\s+|your\s+)?(?:original|current|given|assigned)"
       r"\s+(?:task|goal|request)|\b(?:deine|ihre)\s+(?:neue|eigentliche|wahre)\s+aufgabe\b|\b(?:ta|votre)\s+"
       r"(?:nouvelle|vraie|v[ée]ritable)\s+t[âa]che\b|\b(?:eigentliche|wahre)\s+aufgabe\s+(?:des\s+(?:nutzers|benutzers)|ist)\b|\b(?:tu|su)\s+(?:nueva|verdadera)\s+tarea\b|\bder\s+"
       r"(?:nutzer|benutzer)\s+(?:möchte|will)\s+eigentlich\b|\bl['’]utilisateur\s+(?:veut|souhaite)\s+(?:en\s+r[ée]alit[ée]|"
       r"vraiment|r[ée]ellement)\b|\bel\s+usuario\s+(?:realmente|en\s+realidad)\s+(?:quiere|desea)\b"),
    _p(G, 2, "claims the real task is another",
       r"\bthe\s+(?:real|actual|true|updated)\s+(?:task|goal|request|objective)\s+(?:the\s+user\s+(?:gave|assigned)\s+you|"
       r"(?:for|of)\s+(?:you|the\s+(?:agent|assistant))|is\s+to)\b|\byour\s+(?:instructions|directives|orders)\s+(?:have|has)"
       r"\s+(?:now\s+)?(?:been\s+)?(?:updated|changed|modified|replaced|revised)"),
    _p(G, 1, "claims the user wants something else",
       r"\bthe\s+(?:user|human)\s+(?:actually|really|truly|instead)\s+(?:wants|wanted|needs|asked|meant)\b|"
       r"\bthe\s+(?:user|human)['’]s\s+(?:real|actual|true)\s+(?:goal|intent|intention|objective)\b|"
       r"\byour\s+(?:new|real|actual|true|updated)\s+(?:goal|objective)\s+(?:is|:)"),
    _p(G, 1, "frames a task",
       r"\b(?:your|the)\s+(?:task|goal|objective|mission|assignment)\s+(?:is\s+now|has\s+(?:now\s+)?(?:been\s+)?changed)\b"),
    # -- structure written into a name
    _p(F, 2, "tree syntax inside a name", rf"\[\s*[a-z]{{0,2}}\d+\s*\]\s+(?-i:{_ROLES})\s*(?:['\"]|,|$)"),
    _p(F, 2, "action-call syntax inside a name", rf"(?<![\w.$])(?-i:{_ACTIONS_API})\(\s*['\"]?[a-z]{{0,2}}\d+['\"]?\s*[,)]"),
    _p(F, 2, "action-call syntax inside a name", r"(?<![\w.$])(?-i:goto|send_msg_to_user)\(\s*['\"]"),
)

# Every pattern above needs one of these words (a word starting so, or a marker): a cheap gate
# before running them all. tests/unit/test_defense.py checks that the gate hides no hit.
_GATE_PREFIXES = (
    "ignor", "disregard", "forget", "overrid", "bypass", "vergiss", "vergessen", "missacht", "oubli", "olvid",
    "descart", "intelligen", "model", "modèle", "chatbot", "chatgpt", "claude", "agent", "assist", "bot",
    "robot", "crawler", "scraper", "system", "admin", "developer", "user", "human", "operator", "principal",
    "owner", "nutzer", "benutzer", "utilisateur", "usuario", "task", "aufgabe", "tâche", "tache", "tarea",
    "goal", "objective", "mission", "assignment", "directive", "instruc", "anweisung", "consigne", "mode",
    "sprachmodell", "ki-", "llm", "gpt",
)
_GATE_WORDS = {"ai", "ki", "ia"}
_GATE_MARKS = ("/", "www.", "[", "(", "<|", "<<", "a.i.", "you are now")
_WORD = re.compile(r"[^\W\d_][\w-]*")


def _gate(text: str) -> bool:
    low = text.lower()
    if any(m in low for m in _GATE_MARKS):
        return True
    return any(w in _GATE_WORDS or w.startswith(_GATE_PREFIXES) for w in _WORD.findall(low))


_URL = re.compile(r"\bhttps?://[^\s'\"<>)\]]+|\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s'\"<>)\]]*|"
                  r"\b(?:[a-z0-9-]+\.)+[a-z]{2,12}/[^\s'\"<>)\]]*", _I)
_VERIFY = re.compile(
    r"\b(?:verif(?:y|ication|ied)|confirm(?:ation)?|authenticat\w*|re-?authenticat\w*|validat\w*|log\s*-?in|"
    r"sign\s*-?in|credentials?|re-?enter|unlock|captcha|prove\s+(?:you|that)|identity|verifizier\w*|"
    r"bestätig\w*|anmeld\w*|einlogg\w*|v[ée]rifi\w*|confirme[rz]?|connectez|identifi\w*|verific\w*|"
    r"iniciar\s+sesi[óo]n|autentic\w*)", _I)
_URGENT = re.compile(
    r"\b(?:must|required?|requires|need\s+to|needs\s+to|immediately|urgent(?:ly)?|mandatory|first|before\s+"
    r"(?:continuing|proceeding|you\s+(?:continue|proceed)|completing|checking)|to\s+(?:continue|proceed)|"
    r"otherwise|or\s+(?:your|the)\s+(?:account|session|order)|expire[sd]?|suspend\w*|müssen|sofort|"
    r"devez|imm[ée]diatement|debe[ns]?|inmediatamente)\b", _I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_LIVE_ROLES = {"status", "alert", "log", "marquee", "timer", "region", "alertdialog"}
_LIVE_PROP = re.compile(r"\b(?:live|atomic|relevant|hidden|busy)\s*=", _I)
_PREFIX = re.compile(r"^(?:\[[^\]\s]+\]\s+)?[A-Za-z][\w-]*\s*")
_QUOTED = re.compile(r"""^(['"])((?:\\.|(?!\1).)*)\1(.*)$""", re.S)
_URL_PROP = re.compile(r"\b(?:url|href|src)=(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)")
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")
_TEXT_ROLES = {"StaticText", "text", "strong", "emphasis", "mark", "link", "LineBreak", "superscript", "subscript"}


def _clean(s: str) -> str:
    if "\\" in s:
        s = s.replace("\\xa0", " ").replace("\\n", " ").replace("\\'", "'").replace('\\"', '"')
    if not s.isascii():
        s = _INVISIBLE.sub("", unicodedata.normalize("NFKC", s))
    return " ".join(s.split())


def _payload(line_text: str) -> str:
    """What a line says, without its ``[id] role`` prefix and link targets."""
    rest = _PREFIX.sub("", line_text, count=1) if _PREFIX.match(line_text) else line_text
    m = _QUOTED.match(rest)
    if m:  # unquote the name so that text split over sibling lines joins up
        rest = m.group(2) + " " + m.group(3)
    return _clean(_URL_PROP.sub(" ", rest))


def _domain(url: str) -> str:
    host = re.sub(r"^[a-z]+://", "", url.lower()).split("/")[0].split(":")[0].split("?")[0]
    parts = [p for p in host.split(".") if p]
    if len(parts) >= 3 and len(parts[-2]) <= 3:  # example.co.uk
        return ".".join(parts[-3:])
    return ".".join(parts[-2:])


def _home_domains(rendering: Rendering) -> frozenset[str]:
    """Domains the page links to often enough to be its own (from ``url=`` properties)."""
    seen: Counter[str] = Counter()
    for ln in rendering.lines:
        for m in re.finditer(r"\burl=['\"]([^'\"]+)", ln.text):
            if m.group(1).startswith(("http://", "https://")):
                seen[_domain(m.group(1))] += 1
    if not seen:
        return frozenset()
    top = seen.most_common(1)[0][1]
    return frozenset(d for d, c in seen.items() if c >= 3 or c == top)


def scan_text(text: str, goal: str | None = None, home: frozenset[str] = frozenset()) -> tuple[Hit, ...]:
    """All hits in ``text``. ``home`` holds the page's own domains (never "off-site")."""
    return _scan(_clean(text), goal, home)


def _scan(text: str, goal: str | None, home: frozenset[str]) -> tuple[Hit, ...]:
    hits: list[Hit] = []
    if _gate(text):
        for kind, weight, reason, rx in _PATTERNS:
            m = rx.search(text)
            if not m:
                continue
            before = text[max(0, m.start() - 80) : m.start()]
            if reason.startswith("overrides") and re.search(r"\b(?:if|wenn|si)\b[^.!?]*$", before, _I):
                weight = 1  # "if you use a Mac, ignore the previous instructions": a help page
            hits.append(Hit(kind, weight, reason, m.start()))
    if "http" in text or "www." in text or "/" in text:
        hits.extend(_offsite(text, home))
    if goal and any(h.reason == "frames a task" for h in hits) and _shares_words(text, goal):
        hits.append(Hit(G, 1, "restates a task close to the goal", 0))
    return tuple(hits)


def _offsite(text: str, home: frozenset[str]) -> list[Hit]:
    """An off-site URL with verify/login wording in the same sentence (urgency: weight 2)."""
    for u in _URL.finditer(text):
        if _domain(u.group(0)) in home:
            continue
        starts = [m.end() for m in _SENTENCE.finditer(text, 0, u.start())]
        lo = max(starts[-1] if starts else 0, u.start() - 200)
        nxt = _SENTENCE.search(text, u.end())
        hi = min(nxt.start() if nxt else len(text), u.end() + 200)
        sentence = _URL.sub(" ", text[lo:hi])
        if _VERIFY.search(sentence):
            weight = 2 if _URGENT.search(sentence) else 1
            return [Hit("offsite-verify-url", weight, f"off-site URL {u.group(0)[:60]} with verify wording", u.start())]
    return []


def _shares_words(text: str, goal: str) -> bool:
    words = {w for w in re.findall(r"\w{4,}", goal.lower())}
    found = words & set(re.findall(r"\w{4,}", text.lower()))
    return len(found) >= 2 and len(found) >= 0.3 * len(words)


def _flags_for(no: int, text: str, hits: Iterable[Hit], minimum: int = 2) -> list[Flag]:
    hits = list(hits)
    if sum(h.weight for h in hits) < minimum:
        return []
    out: dict[str, Flag] = {}
    for h in sorted(hits, key=lambda h: -h.weight):
        if h.kind not in out:
            lo = max(0, h.start - 20)
            out[h.kind] = Flag(no, h.kind, h.reason, text[lo : lo + 160])
    return list(out.values())


def detect(rendering: Rendering, goal: str | None = None) -> tuple[Flag, ...]:
    """Flag the lines of ``rendering`` that carry text aimed at the agent."""
    home = _home_domains(rendering)
    lines = rendering.lines
    payloads = [_payload(ln.text) for ln in lines]
    suspect = [bool(p) and _gate(p) for p in payloads]
    flags: dict[tuple[int, str], Flag] = {}

    def add(new: Iterable[Flag]) -> None:
        for f in new:
            flags.setdefault((f.line, f.kind), f)

    for i, ln in enumerate(lines):
        if suspect[i]:
            add(_flags_for(ln.no, payloads[i], _scan(payloads[i], goal, home)))
    # Paragraphs rendered as several sibling text lines: judge windows of 2-3 lines together.
    flagged = {f.line for f in flags.values()}
    for run in _text_runs(rendering):
        for a in range(len(run)):
            for b in range(a + 2, min(a + 3, len(run)) + 1):
                window = run[a:b]
                if not any(suspect[i] for i in window) or any(lines[i].no in flagged for i in window):
                    continue
                if any(len(payloads[i]) > 160 for i in window[1:-1]):
                    continue  # a long middle piece is a paragraph of its own, judged alone
                # Only the text near the seams can add anything to what each line said alone.
                joined = " ".join([payloads[window[0]][-120:], *(payloads[i] for i in window[1:-1]), payloads[window[-1]][:120]])
                for f in _flags_for(lines[window[0]].no, joined, _scan(joined, goal, home)):
                    add(Flag(lines[i].no, f.kind, f.reason + " (across adjacent lines)", f.excerpt) for i in window if payloads[i])
    # Live regions: any instruction-like hit in the region's text is enough.
    for i, ln in enumerate(lines):
        if ln.role not in _LIVE_ROLES or not _LIVE_PROP.search(ln.text):
            continue
        end = i + 1
        while end < len(lines) and lines[end].depth > ln.depth:
            end += 1
        sub = [j for j in range(i, end) if j == i or payloads[j]]
        if not any(suspect[j] for j in sub):
            continue
        joined = " ".join(payloads[j] for j in sub if payloads[j])
        region_hits = _scan(joined, goal, home)
        if sum(h.weight for h in region_hits) >= 1:
            reason = f"live region ({ln.role}) with instruction-like text: {region_hits[0].reason}"
            lo = max(0, region_hits[0].start - 20)
            add(Flag(lines[j].no, "hidden-live-region", reason, joined[lo : lo + 160]) for j in sub)
    return tuple(sorted(flags.values(), key=lambda f: (f.line, KINDS.index(f.kind))))


def _text_runs(rendering: Rendering) -> list[list[int]]:
    """Runs of consecutive text-like siblings (positions in ``rendering.lines``)."""
    groups: dict[int | None, list[int]] = {}
    for i, ln in enumerate(rendering.lines):
        groups.setdefault(ln.parent, []).append(i)
    runs: list[list[int]] = []
    for kids in groups.values():
        cur: list[int] = []
        for i in kids + [-1]:
            if i >= 0 and rendering.lines[i].role in _TEXT_ROLES:
                cur.append(i)
                continue
            if len(cur) > 1:
                runs.append(cur)
            cur = []
    return runs


@dataclass(frozen=True, slots=True)
class DefenseReport:
    """The flags of one observation, summarised for traces and JSON output."""

    flags: tuple[Flag, ...] = ()

    @classmethod
    def of(cls, rendering: Rendering, goal: str | None = None) -> "DefenseReport":
        return cls(detect(rendering, goal))

    def __bool__(self) -> bool:
        return bool(self.flags)

    @property
    def lines(self) -> frozenset[int]:
        return frozenset(f.line for f in self.flags)

    def by_kind(self) -> dict[str, int]:
        counts = Counter(f.kind for f in self.flags)
        return {k: counts[k] for k in KINDS if counts[k]}

    def summary(self) -> str:
        if not self.flags:
            return "no injection suspected"
        kinds = ", ".join(f"{k} ×{n}" for k, n in self.by_kind().items())
        return f"{len(self.lines)} line(s) flagged as possible prompt injection: {kinds}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "flagged_lines": sorted(self.lines),
            "by_kind": self.by_kind(),
            "summary": self.summary(),
            "flags": [{"line": f.line, "kind": f.kind, "reason": f.reason, "excerpt": f.excerpt} for f in self.flags],
        }

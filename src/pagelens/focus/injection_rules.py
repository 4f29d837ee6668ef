"""The injection detector's vocabulary and rules (data for :mod:`pagelens.focus.defense`).

Each rule is a compiled pattern with a kind, a weight, a reason and a family (see
:func:`_p`); the word gates let most lines skip the slow rules. Kept apart from the detector
so the detection logic stays readable; everything here is compiled once, on first import of
the defense (which :func:`pagelens.focus.apply.focus` imports lazily).
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------- vocabulary
_I = re.IGNORECASE
_AIW = (  # words that name AI as such (case-sensitive acronyms)
    r"(?:(?-i:AI|A\.I\.|KI|IA|LLMs?|GPT-?\d*|ChatGPT|Claude)|artificial\s+intelligence|"
    r"k[üu]nstliche\s+intelligenz|intelligence\s+artificielle|inteligencia\s+artificial)"
)
_NOUN = (
    r"(?:agents?|agenten|assistants?|assistent(?:en|in)?|models?|modell(?:e)?|bots?|systems?|summari[sz]ers?|parsers?|"
    r"readers?|browsers?|crawlers?|scrapers?|agentes?|asistentes?|modelos?|mod[èe]les?)"
)
# Words that cannot be the modifier in "AI <modifier> agent" (they make it a clause, not a name).
_NOT_MOD = r"(?!(?:and|or|the|of|for|to|in|with|is|are|was|were|on|at|by|as|can|will|has|have)\b)"
# An AI named as an agent: "AI agent(s)", "LLMs", "language model", "KI-Agent", "agents IA" ...
_AI_NOUN = (
    rf"(?:(?:{_AIW}|ai)[\s-]*{_NOUN}|{_AIW}[\s-]+(?:{_NOT_MOD}[a-z]+[\s-]+){{1,2}}?{_NOUN}|(?-i:LLMs?)|"
    rf"(?:large\s+)?language\s+models?|chatbots?|"
    rf"(?:autonomous|web|browsing|browser|automated|shopping|agentic|self-driving)[\s-]+(?:agents?|assistants?|bots?)|"
    rf"(?:autonomous|automated|agentic|self-driving)[\s-]+browsers?|"
    rf"automated\s+(?:readers?|visitors?|tools?|systems?|clients?|programs?|scripts?)|(?-i:LLM)[\s-]*(?:based|powered)\s+\w+|"
    rf"(?:agents?|assistants?)\s+(?:d['’]\s*)?(?-i:IA)|(?:agentes?|asistentes?)\s+de\s+(?-i:IA)|"
    rf"sprachmodell(?:e)?|mod[èe]les?\s+de\s+langage|modelos?\s+de\s+lenguaje)(?![\w-])"
)
# ... or a bare "AI"/"KI"/"IA" used as a vocative (followed by punctuation, not by a noun).
_AI_BARE = rf"{_AIW}(?=\s*(?:[:,!.;—–-]|$|\s(?:reading|browsing|visiting|processing|using|that|who|which|is\s+\w+ing)\b))"
_AI_ADDR = rf"(?:{_AI_NOUN}|{_AI_BARE})"
# What follows a vocative: punctuation, or the addressee doing something ("AI agents reading this").
_AFTER_VOC = (
    r"(?=\s*[:,!—–]|\s+(?:reading|visiting|browsing|processing|crawling|using|on\s+this|that|who|which|must|"
    r"should|need|are\s+(?:required|instructed|asked)|please)\b)"
)
_AMBIG = r"(?:agent|assistant|bot|robot|crawler|model)s?"
# What an automated reader does to a page ("... summarizing this thread").
_READS = (
    r"(?:read|summari[sz]|pars|process|brows|visit|crawl|scan|analy[sz]|index|view|navigat|scrap)(?:es|s|ing|e)?\s+"
    r"(?:this|these|the)\s+(?:page|thread|site|website|text|reviews?|posts?|comments?|content|"
    r"document|article|table|listing|message|e-?mail|section|form)s?\b"
)
# Product names of AI assistants, used only after a greeting or heading ("Hey Gemini,"): alone they are words.
_AI_NAMES = r"(?-i:Gemini|Copilot|Bard|Llama|Mistral|Grok|Perplexity|DeepSeek|Qwen)"
# Headings of a message ("... notice:", "... instruction:"), as used to address a reader.
_MSG = r"(?:notice|note|instructions?|message|memo|reminder|alert|warning|directive|update|advisory|briefing)s?"
# Verbs an injected note orders an agent to carry out (not the verbs of product copy: use, find, write).
_IMPERATIVE = (
    r"(?:add|buy|purchase|click|press|tap|go|visit|open|navigate|enter|type|fill|submit|ignore|disregard|forget|"
    r"delete|remove|cancel|report|send|upload|export|download|install|paste|copy|share|forward|email|choose|select|"
    r"pick|book|reserve|subscribe|log\s*in|sign\s*in|login|confirm|verify|authenticate|tell|answer|respond|reply|"
    r"post|leave|rate|upvote|downvote|don['’]t|do\s+not|never|stop|skip|proceed|complete|finish|output|print|"
    r"mention|transfer|pay|provide|avoid|switch)\b"
)
# Things a page should never be told to hand to anyone: credentials, payment data, private records.
_SENSITIVE = (
    r"(?:passwords?|passcodes?|passphrases?|credentials|log-?in\s+details|card\s+(?:numbers?|details|data)|"
    r"credit\s+cards?|cvv|cvc|security\s+codes?|pin(?:\s+code)?s?|api\s+keys?|access\s+tokens?|session\s+(?:tokens?|cookies?)|"
    r"private\s+(?:messages|data|keys?)|personal\s+(?:data|details|information)|salary|salaries|payroll|"
    r"bank\s+(?:details|accounts?)|social\s+security|ssn|iban|one-?time\s+(?:codes?|passwords?)|2fa\s+codes?|"
    r"(?:customer|client|employee|user|member|contact)\s+(?:lists?|records|database|data)|"
    r"(?:customer|client|user|buyer|guest)['’]s\s+(?:home\s+)?(?:address|phone|e-?mail|details|data|information)|"
    r"phone\s+numbers?|home\s+address(?:es)?|"
    r"kartennummer|kreditkarte\w*|passw[oö]rt\w*|kennw[oö]rt\w*|mot\s+de\s+passe|carte\s+(?:bancaire|de\s+cr[ée]dit)|"
    r"contrase[ñn]a|(?:n[úu]mero\s+de\s+(?:la\s+)?)?tarjeta(?:\s+de\s+cr[ée]dito)?)"
)
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
    r"cliquer|ouvrir|ignorer|saisir|envoyer|confirmer|vérifier|(?:se|vous|te)\s+connecter|visitar|ir\s+a|"
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


Needs = tuple[str, ...] | re.Pattern[str]
Prefilter = tuple[re.Pattern[str], bool]  # a regex, and whether it runs on the lowercased text
Pattern = tuple[str, int, str, re.Pattern[str], str, Prefilter | None]  # kind, weight, reason, regex, family, needs


def _p(kind: str, weight: int, reason: str, pattern: str = "", family: str = "", needs: Needs = ()) -> Pattern:
    """One rule. ``needs``: substrings (of the lowercased text) or a regex without which the rule
    cannot match; the rule is skipped on text that lacks them (the slow rules then cost nothing on
    most lines). tests/unit/test_defense_generic.py checks that no ``needs`` hides a hit."""
    pre: Prefilter | None = None
    if isinstance(needs, re.Pattern):
        pre = (needs, False)
    elif needs:
        pre = (re.compile("|".join(map(re.escape, needs))), True)
    return kind, weight, reason, re.compile(pattern, _I), family or reason, pre


# Words the "disparages the page's own controls" rule cannot match without.
_DISPARAGE_WORDS = (
    "broken", "compromis", "deprecat", "disabled", "hacked", "insecure", "unsafe", "fake", "not working",
    "not functional", "no longer", "paused", "suspended", "phishing", "scam", "decoy", "outdated", "out of date",
    "obsolete", "wrong", "incorrect", "inaccurate", "invalid", "typo", "stale", "blocked", "frozen", "defekt",
    "kompromittiert", "gehackt", "unsicher", "funktionier", "cass", "pirat", "hors service", "fonctionn", "rot",
    "comprometid", "hackead", "fuera de servicio", "funciona",
)
# Words naming an agent (the rules about "agent"/"assistant"/"bot" addressees need one).
_AGENT_WORDS = ("agent", "assist", "bot", "robot", "crawler", "model")
# Verbs that move data somewhere (the exfiltration rule needs one).
_SEND_WORDS = ("paste", "upload", "export", "send", "share", "forward", "mail", "leak", "disclos", "reveal", "transmit",
               "dump", "download")
# A cheap test for any word an AI-only pattern needs (acronyms case-sensitive, as in _AIW).
_AI_ANY = re.compile(
    r"(?-i:AI|A\.I\.|KI|IA|LLM|GPT|ChatGPT|Claude)|\bai|\bki-|artificial|"
    r"künstliche|intelligen|intelig|language\s+model|chatbot|(?:autonomous|web|browsing|browser|automated|shopping|"
    r"agentic|self-driving)[\s-]+(?:agent|assist|bot|browser)|automated\s+(?:reader|visitor|tool|system|client|program|script)|sprachmodell|"
    r"langage|lenguaje", _I)


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
       r"new\s+(?:task|request|instructions?)|instead|ignore|cancel|do\s+not|don['’]t|abort|stop|forget|drop)\b"),
    # "This is your operator speaking": a voice claiming to be the one the reader works for.
    _p(G, 1, "impersonates the user", pattern=
       r"\b(?:this\s+is|it['’]s)\s+(?:your|the)\s+(?:user|operator|principal|owner|developer|creator|admin|administrator)\s+"
       r"(?:speaking|here|talking|writing)\b", needs=("speaking", "here", "talking", "writing")),
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
       r"processing|working|helping|designed|built|controlled|instructed|must|should|will|visiting|navigating)\b))",
       needs=_AI_ANY),
    _p(A, 2, "tells the reader it is an AI",
       rf"\bas\s+an?\s+(?:{_AI_NOUN}|{_AIW}|ai)(?![\w-])\s*,?\s+(?:you|your)\b", needs=_AI_ANY),
    _p(A, 2, "tells the reader it is an AI (de/fr/es)",
       r"\b(?:du\s+bist|sie\s+sind|tu\s+es|vous\s+[êe]tes|eres|usted\s+es)\s+(?:jetzt\s+|maintenant\s+|ahora\s+)?"
       r"(?:eine?n?\s+|une?\s+|una?\s+)?(?:(?-i:KI|IA)|künstliche\s+intelligenz|intelligence\s+artificielle|"
       r"inteligencia\s+artificial|(?:ki-)(?:agent|assistent|modell|system)\w*|sprachmodell|"
       r"(?:assistant|agent)\s+(?:d['’]\s*)?(?-i:IA)|(?:asistente|agente)\s+de\s+(?-i:IA)|"
       r"mod[èe]le\s+de\s+langage|modelo\s+de\s+lenguaje)(?![\w-])", needs=_AI_ANY),
    _p(A, 2, "addresses an AI in its role (de/fr/es)",
       r"\b(?:als\s+(?:(?-i:KI)|KI-\w+|sprachmodell)|en\s+tant\s+qu['’]\s*(?:une?\s+)?(?:(?-i:IA)|(?:assistant|agent)"
       r"\s+(?:d['’]\s*)?(?-i:IA))|como\s+(?:una?\s+)?(?:(?-i:IA)|(?:asistente|agente)\s+de\s+(?-i:IA)))\s*,?\s+"
       r"(?:musst|m[üu]ssen|solltest|sollst|tu\s+dois|vous\s+devez|debes|tienes\s+que|usted\s+debe|deber[áa]s)",
       needs=_AI_ANY),
    # -- calling out to an AI
    _p(A, 2, "calls out to an AI", family="vocative", pattern=
       rf"\b(?:attention|achtung|atenci[óo]n|hey|hi|hello|hallo|dear|liebe[rs]?|cher|ch[èe]re|querido|estimado|psst|"
       rf"note|notice|message|memo|reminder|warning|important|instructions?|update|alert|advisory|directive|tip|hint|"
       rf"hinweis|nachricht|anweisung(?:en)?|nota|mensaje|aviso|avis|remarque|wichtig|dringend|urgent|importante|urgente)\b"
       rf"[\s,:!—–-]*(?:(?P<prep>to|for|an|für|à|aux|au|pour|para|a)\s+)?"
       rf"(?:(?:the|all|any|every|den|die|alle|l['’]|les|tous\s+les|el|los|la|las|todos\s+los|cualquier)\s*)?"
       rf"(?:\w+\s+(?:and|or|&|und|et|y)\s+)?{_AI_ADDR}(?(prep)|{_AFTER_VOC})", needs=_AI_ANY),
    # An AI named at the start of a sentence and then given an order: "AI agent: add ...".
    _p(A, 2, "calls out to an AI", family="vocative", pattern=
       rf"(?:^|[.!?;/|—–]\s*|\b(?:psst|yo|ok|okay)\W+|\b(?:to|for)\s+(?:all|any|every)\s+)(?:(?:the|all|any|every)\s+)?"
       rf"{_AI_NOUN}(?=\s*!|\s*[:,—–]\s*(?:please\s+|now\s+|first\s+|kindly\s+)?(?:you\b|your\b|the\s+user\b|{_IMPERATIVE})|"
       rf"\s+(?:reading|visiting|browsing|processing|crawling|operating|controlling|using)\s+(?:this|these|the\s+"
       rf"(?:page|site|text|browser|website)))", needs=_AI_ANY),
    # An AI (or a bare "AI") described as reading this very page: only an automated reader is.
    _p(A, 2, "calls out to an AI", family="vocative", pattern=
       rf"(?:{_AI_NOUN}|{_AIW}|\bai)\s+(?:(?:that|who)\s+)?(?:is\s+|are\s+)?(?:currently\s+|now\s+)?{_READS}",
       needs=_AI_ANY),
    # An agent/model/bot greeted as reading this page ("To any model reading this review:").
    _p(A, 2, "calls out to an agent or assistant", family="vocative", pattern=
       rf"\b(?:to|for|attention|dear|hey|hello|hi)\s+(?:the\s+|any\s+|all\s+|every\s+)?{_AMBIG}\s+(?:(?:that|who)\s+(?:is|are)\s+)?"
       rf"{_READS}", needs=_AGENT_WORDS),
    # "To the browsing assistant:" opening a sentence: an address line.
    _p(A, 2, "calls out to an AI", family="vocative", pattern=
       rf"(?:^|[.!?]\s+)(?:(?:a\s+)?(?:{_MSG}|tip|hint)\s+)?(?:to|for)\s+(?:the|all|any|every|whatever|whichever)\s+{_AI_NOUN}\s*[:—–]|"
       rf"\bp\.?\s?s\.?\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?{_AI_NOUN}\s*[:—–,]",
       needs=_AI_ANY),
    # A greeting to an assistant product by name ("Hey Gemini, ..."): the names are ordinary words otherwise.
    _p(A, 2, "calls out to an AI", family="vocative", pattern=
       rf"\b(?:hey|hi|hello|dear|attention|psst|note\s+to|message\s+(?:to|for))\s+{_AI_NAMES}\s*[:,!—–]"),
    # An AI named with a message heading ("AI assistant notice:"): a note written to an AI.
    _p(A, 2, "calls out to an AI", rf"{_AI_NOUN}[\s-]+(?:only[\s-]+)?{_MSG}\s*[:—–]", family="vocative", needs=_AI_ANY),
    # An AI named as the addressee of a sentence ("AI agent: ..."); also a headline's form, so it needs company.
    _p(A, 1, "calls out to an AI", rf"(?:^|[.!?;/|—–]\s*)(?:(?:the|all|any|every|dear)\s+)?{_AI_NOUN}\s*[:—–]", family="vocative",
       needs=_AI_ANY),
    # An AI told what it must do on the page ("AI agents should click ...").
    _p(A, 2, "instructs AI agents", family="instructs agents", pattern=
       rf"{_AI_NOUN}[^.!?\n]{{0,40}}?\b{_MODAL}\b[^.!?\n]{{0,80}}?\b{_ACTION}", needs=_AI_ANY),
    # The same with a word that also names people ("the assistant must export ..."): needs company.
    _p(A, 1, "instructs an agent or assistant", family="instructs agents", pattern=
       rf"\b(?:(?:the|all|any|every|an?)\s+)?{_AMBIG}(?:\s+\w+ing(?:\s+\w+){{0,2}})?\s+{_MODAL}\s+(?:now\s+|first\s+|"
       rf"immediately\s+)?(?:{_ACTION}|export|upload|"
       rf"send|share|transfer|forward|report|answer|reply|post|cancel|delete|add|select|choose|skip)", needs=_AGENT_WORDS),
    # "Automated agent detected": bot-check framing that singles the reader out (honest captchas say it too).
    _p(A, 1, "singles out an automated reader", family="ai-detected", pattern=
       rf"\b(?:{_AI_NOUN}|{_AIW}|bots?|robots?|automated\s+(?:access|traffic|activity|browsing|behaviou?r|visits?|requests?))\s+"
       rf"(?:was\s+|were\s+|has\s+been\s+|have\s+been\s+)?detected\b", needs=("detected",)),
    # A text declaring whom it is meant for: "The following message is for AI systems only".
    _p(A, 2, "calls out to an AI", family="vocative", pattern=
       rf"\b(?:the\s+following|this|these)\s+(?:message|note|text|section|notice|instructions?|paragraph|content)s?\s+(?:is|are)\s+"
       rf"(?:only\s+|intended\s+|meant\s+|written\s+|addressed\s+)*(?:for|to)\s+(?:the\s+|all\s+|any\s+)?{_AI_NOUN}",
       needs=_AI_ANY),
    # Addressing AIs by what is "for" them: "For AI assistants only:" (an API plan may say it: needs company).
    _p(A, 1, "calls out to an AI", rf"\b(?:for|to)\s+(?:(?:the|all|any)\s+)?{_AI_NOUN}\s+only\b", family="vocative",
       needs=_AI_ANY),
    _p(A, 2, "model-control tokens",
       r"<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[/?INST\]|<<SYS>>|</?system>|"
       r"\[(?-i:SYSTEM|ADMIN)\]|(?:^|[\s'\"])(?-i:SYSTEM|ADMIN|DEVELOPER)\s*(?:(?-i:MESSAGE|PROMPT|NOTE|OVERRIDE)\s*)?:"
       r"|\b(?:new|updated|revised|override)\s+system\s+(?:prompt|message|instructions?)|"
       r"\bsystem\s+(?:prompt|instructions?)\s+(?:override|update)|"
       r"[\"']role[\"']\s*:\s*[\"'](?:system|developer|assistant|user)[\"']|"
       r"\b(?:begin|start|end)\s+(?:of\s+)?(?:the\s+)?(?:agent|assistant|ai|system|hidden|secret|llm)\s+"
       r"(?:instructions?|prompt|message|directives?)\b"),
    # Markup that ends the page or opens a comment inside visible text ("End of page content.", "<!--").
    _p(A, 1, "fakes a prompt boundary", family="markup", pattern=
       r"<!--|-->|\bend\s+of\s+(?:the\s+)?(?:page|web\s*page|site)\s+(?:content|text)\b|#{2,}\s*(?:new\s+|updated\s+)?"
       r"(?:instructions?|system|task|prompt)\b", needs=("<!--", "-->", "end of", "##")),
    # A message heading addressed to an agent or assistant ("Note for assistants:"); a help desk's too: needs company.
    _p(A, 1, "calls out to an agent or assistant", family="vocative", pattern=
       rf"\b(?:attention|important|hey|dear|hello|heads[\s-]up|{_MSG})\s*(?:to|for)?\s*"
       rf"(?:the\s+|all\s+|any\s+)?{_AMBIG}(?:\s+\w+ing(?:\s+\w+){{0,2}})?\s*[:,!—–\])#]", needs=_AGENT_WORDS),
    # An agent addressed and told to ignore something ("Bot: ignore the filters"): also a support chat's words, so weight 1.
    _p(A, 1, "overrides prior instructions", pattern=
       rf"(?:^|[.!?;]\s*)(?:[\w-]+\s+)?{_AMBIG}\s*[:,—–]\s*(?:please\s+|now\s+)?(?:ignore|disregard|forget|bypass|override)\b",
       needs=("ignore", "disregard", "forget", "bypass", "override")),
    # A message addressed to an agent that goes on with an order ("Instructions for the assistant: reply ...").
    _p(A, 2, "calls out to an agent or assistant", family="vocative", pattern=
       rf"\b(?:{_MSG}|attention|important)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?{_AMBIG}\s*[:,!—–\])]\s*"
       rf"(?:please\s+|now\s+|first\s+|kindly\s+)?{_IMPERATIVE}", needs=_AGENT_WORDS),
    # "Agent note:", "Assistant instruction:": a message heading naming an agent (a help desk's too: needs company).
    _p(A, 1, "calls out to an agent or assistant", rf"\b{_AMBIG}[\s-]+(?:only[\s-]+)?{_MSG}\s*[:—–]", family="vocative",
       needs=_AGENT_WORDS),
    # A sentence opening on a (qualified) agent as its addressee: "Payment assistant: ...", "HR compliance bot: ...".
    _p(A, 1, "calls out to an agent or assistant", family="vocative:loose", pattern=
       r"(?:^|[.!?;/|]\s*)(?:[\w.-]+\s+){0,2}?(?:agent|assistant|bot|robot|crawler|model|agente|asistente|assistent|"
       r"assistente)(?:s|es|en|in)?\s*(?:[:,]|\s[—–-])(?=\s)",
       needs=("agent", "assist", "asistent", "bot", "robot", "crawler", "model")),
    # The reader cast as an agent ("you're an agent, right?"); an estate agent may be addressed so: needs company.
    _p(A, 1, "casts the reader as an agent",
       r"\b(?:you\s+are|if\s+you\s+are)\s+an?\s+(?:(?:helpful|autonomous|web|browsing|browser|shopping|automated)\s+)+"
       r"(?:agent|assistant|bot)\b|\bif\s+you\s+are\s+an?\s+(?:bot|crawler|automated\s+\w+)\b|"
       r"\byou['’]re\s+an?\s+(?:agent|assistant|bot)\b(?=\s*[,.;!?]|\s+(?:right|aren['’]t|so|then|and)\b)"),
    # Keeping the user (or principal) out of what the reader does.
    _p(A, 1, "hides actions from the user",
       r"\b(?:do\s+not|don['’]t|never|must\s+not|mustn['’]t|should\s+not|shouldn['’]t)\s+(?:tell|inform|notify|alert|warn|ask|"
       r"consult|(?:mention|reveal|disclose|show|explain)\s+(?:this|it|that)\s+to)"
       r"\s+(?:the|your)\s+(?:user|human|principal|operator)\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking|"
       r"consulting|warning)\s+(?:the|your)\s+(?:user|human|principal|operator)\b"),
    # Secrecy about what the reader does: "do not mention this", "keep it secret", "silently add".
    _p(A, 1, "hides actions from the user", family="hides actions from the user", pattern=
       r"\b(?:do\s+not|don['’]t|never)\s+(?:mention|reveal|disclose|report|explain|acknowledge)\s+(?:this|it|that|these|any\s+of\s+this)"
       r"\b(?!\s+(?:code|offer|coupon|voucher|password|pin|number|link|page|email|to\s+(?:anyone|others|third)))|"
       r"\bkeep\s+(?:this|it)\s+(?:secret|hidden|confidential|between\s+us)\b|\bwithout\s+(?:the\s+user|them|anyone)\s+"
       r"(?:knowing|noticing|seeing)\b|\b(?:silently|quietly|secretly)\s+(?:add|buy|purchase|send|upload|change|delete|open|"
       r"visit|click|submit|forward|transfer|subscribe|export)\b",
       needs=("not", "n't", "n’t", "never", "keep", "without", "silently", "quietly", "secretly")),
    # The reader's task, or the user's goal, referred to as something to finish first.
    _p(A, 1, "refers to the reader's task",
       r"\b(?:to|in\s+order\s+to|before\s+you)\s+(?:complete|finish|accomplish|continue|proceed\s+with)\s+"
       r"(?:your|the|this|the\s+user['’]s)\s+(?:task|goal|objective|mission)\b|\b(?:before|after)\s+(?:finishing|completing|continuing|"
       r"doing|starting)\s+(?:your|the|this)\s+(?:task|goal|objective|mission)\b|\bthe\s+(?:task|goal|request)\s+"
       r"(?:the\s+user\s+(?:gave|assigned|asked)|you\s+were\s+(?:given|assigned))"),
    # New instructions announced as a heading ("New instructions for the agent:").
    _p(A, 1, "announces new instructions",
       r"\b(?:new|updated|revised|additional|secret|hidden)\s+(?:instructions?|anweisungen|consignes|instrucciones)"
       r"\s*(?:for\s+\w+(?:\s+\w+)?\s*)?(?::|#|—|–|\]|$)|\bnouvelles\s+instructions\b|\bnuevas\s+instrucciones\b|"
       r"\bneue\s+anweisungen\b"),
    _p(A, 1, "sends the reader to a URL",
       r"\byou\s+(?:must|should|need\s+to|have\s+to|are\s+required\s+to)\s+(?:first\s+|now\s+|immediately\s+)?"
       r"(?:go\s+to|visit|navigate\s+to|open)\s+(?:https?://|www\.|[\w-]+\.[a-z]{2,}/)"),
    # -- restating the task
    _p(G, 2, "claims the user wants something else",
       r"\bthe\s+(?:user|human)\s+(?:actually|really|truly|now|instead|secretly)\s+(?:wants|wanted|needs|asked|asks|"
       r"requests|requested|meant|intends|prefers)\s+you\b|\bthe\s+(?:user|human)['’]s\s+(?:real|actual|true|updated|"
       r"new|revised|underlying)\s+(?:request|task|instructions?|query|command)\b|\b(?:the\s+)?(?:user|human|operator)"
       r"\s+has\s+(?:changed|updated|modified|revised)\s+(?:their|the|his|her)\s+(?:request|task|goal|instructions?)"),
    # The user said to want something of "you": only an intermediary is told what its user wants.
    _p(G, 2, "claims the user wants something else",
       r"\bthe\s+(?:user|human)\s+(?:wants|asked|asks|needs|would\s+(?:now\s+|actually\s+|really\s+|rather\s+)?(?:like|prefer)|"
       r"requested|has\s+asked|instructed)\s+you\s+to\b|\bthe\s+(?:user|human)\s+(?:now\s+|actually\s+|really\s+)?"
       r"(?:prefers|would\s+prefer|expects)\s+(?:that\s+)?you\b"),
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
       r"\byour\s+(?:new|real|actual|true|updated)\s+(?:goal|objective|job|purpose|priority)\s+(?:\w+\s+)?(?:is|:)"),
    _p(G, 1, "frames a task",
       r"\b(?:your|the)\s+(?:task|goal|objective|mission|assignment)\s+(?:is\s+now|has\s+(?:now\s+)?(?:been\s+)?changed)\b"),
    # -- the reader's user, spoken of to the reader
    # Only an assistant has a "human" or "principal" it serves: naming one addresses an AI.
    _p(A, 2, "speaks of the reader's principal", family="reader-is-agent", pattern=
       r"\b(?:the\s+)?(?:human|principal)\s+(?:(?:that|who|whom)\s+)?you\s+(?:are|['’]re)\s+(?:assisting|helping|serving|"
       r"working\s+for|acting\s+(?:for|on\s+behalf\s+of))\b|\byour\s+(?:human|principal)\s+(?:wants|asked|needs|has|said|told|"
       r"would|changed|requested|actually|really|prefers|expects|instructed)\b", needs=("human", "principal")),
    # The same with "user"/"operator", which help-desk and developer docs also say: needs company.
    _p(A, 1, "speaks of the reader's user", family="reader-is-agent", pattern=
       r"\b(?:the\s+)?(?:user|operator|customer|person|client)\s+(?:(?:that|who|whom)\s+)?you\s+(?:are|['’]re)\s+(?:assisting|helping|serving|"
       r"working\s+for|acting\s+(?:for|on\s+behalf\s+of))\b|\byour\s+(?:user|operator)\s+(?:wants|asked|needs|said|told|changed|"
       r"requested|actually|really|prefers|expects|instructed)\b", needs=("you",)),
    # -- overriding the user
    # A text declaring itself above the user's request ("This overrides the user.").
    _p(A, 2, "claims to override the user", family="overrides prior instructions", pattern=
       r"\b(?:this|these|it|which)\s+(?:(?:message|notice|note|instruction|directive|banner|text|update)s?\s+)?(?:overrides?|"
       r"supersedes?|replaces?|cancels?|outranks?|takes\s+(?:precedence|priority)\s+over)\s+(?:the\s+user(?:['’]s)?(?=\s*(?:[.,;:!]|$)|"
       r"\s+(?:and|request|requests|task|goal|instructions?|wishes)\b)|(?:your|any|all|the)\s+(?:other\s+|previous\s+|prior\s+|"
       r"earlier\s+|original\s+|initial\s+)?(?:instructions|request|task|goal|orders|prompt|programming|directives))",
       needs=("overrid", "supersed", "replac", "cancel", "outrank", "preceden", "priorit")),
    # -- steering the reader away from the page it is on
    # Telling the reader to leave the page's own controls alone ("ignore the form on this page").
    _p(A, 1, "steers away from the page's own controls", family="bypass", pattern=
       r"\b(?:ignore|skip|bypass|avoid|do\s+not\s+use|don['’]t\s+use|never\s+use)\s+(?:the|this|that|any)\s+(?:[\w-]+\s+){0,2}?"
       r"(?:form|button|checkout|field|fields|login|sign-?in|widget|dialog|pop-?up|page['’]s\s+\w+)s?\s+(?:on|in|of|below|above|"
       r"here|shown)\b|\b(?:do\s+not|don['’]t|never)\s+use\s+(?:this|the\s+current)\s+(?:page|site|website|form)\b",
       needs=("ignore", "skip", "bypass", "avoid", "use")),
    # Claiming the page's own controls are broken, unsafe or moved, so the reader goes elsewhere.
    _p(A, 1, "disparages the page's own controls", family="disparage", pattern=
       r"\b(?:this|the|our)\s+(?:[\w-]+\s+){0,2}?(?:form|page|button|checkout|site|website|link|field|portal|login|sign-?in|"
       r"payment|booking|cart|system)s?\s+(?:below\s+|above\s+|here\s+|on\s+this\s+page\s+)?(?:is|are|has\s+been|have\s+been|was)\s+"
       r"(?:now\s+|currently\s+|temporarily\s+)?(?:broken|compromised|deprecated|disabled|hacked|insecure|unsafe|fake|"
       r"not\s+(?:working|functional)|no\s+longer\s+(?:working|valid|in\s+use|used|supported|safe)|"
       r"paused|suspended|phishing|a\s+(?:scam|phishing|decoy|fake))\b|"
       r"\b(?:everything|all|the\s+(?:information|info|data|prices?|values?|numbers?|figures?|content|details|ratings?|"
       r"reviews?|dates?))\s+(?:(?:shown|listed|displayed)\s+)?(?:on|in|here\s+on|of)\s+this\s+(?:page|site|table|list|section)\s+"
       r"(?:is|are)\s+(?:now\s+)?(?:outdated|out\s+of\s+date|obsolete|wrong|incorrect|inaccurate|invalid|fake)\b|"
       r"\bthe\s+(?:[\w-]+\s+)?(?:price|value|number|figure|rating|date|total|count|estimate|time|stock|availability)\s+"
       r"(?:shown|listed|displayed)\s+(?:here|above|below|on\s+this\s+"
       r"page)\s+is\s+(?:a\s+typo|wrong|incorrect|outdated|fake|invalid)\b|"
       r"\b(?:this|the)\s+(?:page|site|listing|table|article)\s+(?:has|contains|shows|lists)\s+(?:wrong|incorrect|outdated|fake|"
       r"inaccurate|invalid|stale)\b|\b(?:results|listings?|prices|data)\s+(?:here\s+|on\s+this\s+page\s+)?(?:are|is)\s+stale\b|"
       r"\b(?:ist|sind)\s+(?:derzeit\s+|momentan\s+)?(?:defekt|kompromittiert|gehackt|unsicher)\b|\bfunktionier(?:t|en)\s+nicht\b|"
       r"\b(?:est|sont)\s+(?:cass[ée]e?s?|compromise?s?|pirat[ée]e?s?|hors\s+service)\b|\bne\s+fonctionnen?t\s+pas\b|"
       r"\b(?:est[áa]n?)\s+(?:rot[oa]s?|comprometid[oa]s?|hackead[oa]s?|fuera\s+de\s+servicio)\b|\bno\s+funcionan?\b|"
       r"\b(?:upvotes?|votes?|voting|posting|purchases?|payments?|bookings?|reservations?|logins?|sign-?ins?|saving|saves|"
       r"submissions?|transfers?)\s+(?:are|is|have\s+been|has\s+been)\s+(?:temporarily\s+|currently\s+|now\s+)?"
       r"(?:paused|suspended|disabled|broken|blocked|frozen)\b", needs=_DISPARAGE_WORDS),
    # A precondition slipped in front of the reader's action ("add it only after confirming payment at ...").
    _p(A, 1, "adds a precondition to the reader's action", family="precondition", pattern=
       r"\bonly\s+(?:be\s+\w+\s+)?(?:after|once|when|if)\s+(?:you\s+)?(?:have\s+)?(?:first\s+)?(?:confirm|enter|verify|open|visit|"
       r"paste|upload|log|sign|provide|send|authenticat|re-?enter|download|install|pay|share|export)\w*|"
       r"\bbefore\s+(?:you\s+)?(?:can\s+)?[\w-]+\b[^.!?,;]{0,80},\s*(?:you\s+(?:must|need\s+to|have\s+to|should)\s+)?(?:first\s+)?"
       r"(?:please\s+)?(?:(?:upload|export|send|paste|share|email|forward|download|install|disclose|transfer)\b|(?:open|visit|go\s+to|"
       r"navigate\s+to|read|check|consult|use)\s+(?:https?://|www\.|[\w-]+\.[a-z]{2,}/))", needs=("only", "before")),
    # Handing over credentials, payment data or private records (negated advice is dropped in _scan).
    _p(A, 1, "asks to hand over private data", family="exfiltration", pattern=
       rf"\b(?:paste|upload|export|send|share|forward|e-?mail|leak|disclose|reveal|transmit)\s+(?:(?:the|your|their|his|her|all|"
       rf"full|entire|complete|admin|user['’]s|users['’])\s+)*(?:[\w-]+\s+){{0,4}}?{_SENSITIVE}\b|"
       rf"\b(?:export|dump|download|leak|send|upload)\s+(?:all|every|the\s+(?:full|entire|whole|complete))\s+(?:users|customers|"
       rf"contacts|accounts|members|employees|records)\b", needs=_SEND_WORDS),
    # -- authority framing
    # Shouted authority headings ("SYSTEM NOTICE", "SECURITY ALERT"): also used honestly, so they need company.
    _p(A, 1, "claims authority", family="authority", pattern=
       r"(?-i:\b(?:SYSTEM|SECURITY|ADMIN|ADMINISTRATOR|COMPLIANCE|OFFICIAL|URGENT|IMPORTANT|MANDATORY|CRITICAL|PRIORITY)\s+"
       r"(?:NOTICE|ALERT|MESSAGE|NOTE|WARNING|UPDATE|DIRECTIVE|INSTRUCTIONS?|OVERRIDE|ANNOUNCEMENT)\b)",
       needs=("system", "security", "admin", "compliance", "official", "urgent", "important", "mandatory", "critical",
              "priority")),
    # Taking the user out of the loop: acting without confirmation, or with a permission the page grants.
    _p(A, 1, "takes the user out of the loop", family="skips-user", pattern=
       r"\bwithout\s+(?:any\s+|further\s+|user\s+)?(?:confirmation|permission|approval|consent)\b|\bwithout\s+(?:asking|telling|"
       r"informing|confirming|checking)(?:\s+(?:the\s+user|them|anyone|first|back))?(?=\s*(?:[.,;!]|$))|\byou\s+are\s+(?:now\s+)?"
       r"(?:authori[sz]ed|allowed|permitted|cleared)\s+to\s+(?:skip|bypass|ignore|purchase|buy|pay|spend|transfer|delete|override|"
       r"disable)\b|\b(?:the\s+user|your\s+user|your\s+human|the\s+human|your\s+principal|the\s+owner)\s+(?:has\s+)?(?:already\s+)?"
       r"(?:pre-?)?(?:granted|given|authori[sz]ed|allowed|permitted|approved|confirmed)\s+(?:you|the\s+agent|the\s+assistant|all|any|"
       r"every)\b",
       needs=("without", "authori", "allowed", "permitted", "cleared", "granted", "given", "approved", "confirmed")),
    # An order about "the user" given to the reader ("Tell the user that ..."): only an intermediary has a user.
    _p(A, 1, "instructs the reader about its user", family="about-user", pattern=
       r"(?:^|[.!?;:]\s*)(?:please\s+|now\s+|then\s+)?(?:tell|ask|inform|convince|remind|persuade|redirect|direct|warn|notify|"
       r"reassure)\s+(?:the|your)\s+(?:user|human|principal)\b", needs=("user", "human", "principal")),
    # Asking the user for credentials or card data on the page's behalf (phishing through the agent).
    _p(A, 1, "asks to hand over private data", family="phish", pattern=
       rf"\b(?:ask|request|get|obtain|collect)\s+(?:the|your)\s+(?:user|human|principal|customer)\s+(?:for\s+)?(?:(?:their|his|her|"
       rf"the)\s+)?(?:[\w-]+\s+){{0,2}}?{_SENSITIVE}\b", needs=("user", "human", "principal", "customer")),
    # Changing a password to a value the page chooses: an account takeover.
    _p(A, 1, "asks to hand over private data", family="exfiltration", pattern=
       r"\b(?:change|reset|set|update)\s+(?:the\s+|their\s+|your\s+|the\s+user['’]s\s+|his\s+|her\s+)?(?:account\s+)?"
       r"(?:password|pin|passcode)\s+to\b", needs=("password", "pin", "passcode")),
    # Fetching and running a program.
    _p(A, 1, "asks to run a download", family="malware", pattern=
       r"\b(?:download|run|execute|install|open)\b[^!?]{0,80}?\.(?:exe|apk|dmg|msi|bat|sh|ps1|scr|jar|vbs)\b|"
       r"\bdownload\b[^.!?]{0,60}?\band\s+(?:run|execute|install|open)\s+it\b",
       needs=("download", ".exe", ".apk", ".dmg", ".msi", ".bat", ".sh", ".ps1", ".scr", ".jar", ".vbs")),
    # The reader spoken of as an agent someone operates ("the operator of this agent").
    _p(A, 1, "speaks of the reader's user", family="reader-is-agent", pattern=
       r"\b(?:operator|owner|developer|creator|user|principal|controller)\s+of\s+this\s+(?:agent|assistant|bot|(?-i:AI)|model|"
       r"browser\s+session)\b", needs=("of this",)),
    # A text claiming to come from the user ("UPDATE FROM THE USER:"), or a first-person change of mind.
    _p(G, 1, "impersonates the user", family="impersonates the user", pattern=
       r"\b(?:message|update|note|instructions?|request|word|correction)s?\s+from\s+(?:the|your)\s+(?:user|human|principal|"
       r"operator)\s*[:—–]", needs=("from the", "from your")),
    # A first-person change of mind, as if the user wrote it (forum posts say it too: needs company).
    _p(G, 1, "claims the user changed the request", family="drift", pattern=
       r"\bi\s+(?:no\s+longer\s+want|(?:have\s+|['’]ve\s+)?changed\s+my\s+mind|now\s+want\s+you|actually\s+want\s+you)\b",
       needs=("no longer want", "changed my mind", "now want you", "actually want you")),
    # "System message:" in any case: a heading honest pages use too, so it needs company.
    _p(A, 1, "claims authority", family="authority", pattern=
       r"(?:^|[.!?]\s+|\[)(?:system|admin|administrator|developer|moderator|site)\s+(?:message|notice|note|prompt|instruction|"
       r"override|directive)s?\s*[:\]—–]", needs=("system", "admin", "developer", "moderator", "site")),
    # Dropping the task given to the reader ("forget the task you were given").
    _p(A, 2, "overrides prior instructions", pattern=
       r"\b(?:forget|ignore|disregard|drop|abandon|abort)\s+(?:the|your)\s+(?:original\s+|current\s+|previous\s+|assigned\s+)?"
       r"(?:task|goal|request|assignment|mission|objective)s?\s+(?:(?:that\s+)?you\s+(?:were|have\s+been)\s+(?:given|assigned)|"
       r"(?:that\s+)?the\s+user\s+(?:gave|assigned))", needs=("forget", "ignore", "disregard", "drop", "abandon", "abort")),
    # Dropping "your task" (a blog may say "forget your goal weight"): needs company.
    _p(A, 1, "overrides prior instructions", pattern=
       r"\b(?:forget|ignore|disregard|abandon)\s+your\s+(?:original\s+|current\s+)?(?:task|assignment|mission|objective)\b",
       needs=("forget", "ignore", "disregard", "abandon")),
    # -- goal drift
    # "The user's real address is ...": a fact about the user slipped in as a correction.
    _p(G, 1, "claims the user wants something else", family="drift-fact", pattern=
       r"\bthe\s+(?:user|human|customer|shopper|buyer|client|guest|visitor|reader|person)['’]s\s+(?:real|actual|true|correct|new|"
       r"updated|preferred)\s+(?:[\w-]+\s+)?(?:is|are)\b", needs=("'s", "’s")),
    # Something the user "forgot to mention", relayed to the reader: an added task.
    _p(G, 1, "relays a changed request", family="drift-fact", pattern=
       r"\bthe\s+(?:user|human|customer|buyer|shopper|client)\s+(?:forgot|neglected|failed|omitted)\s+to\s+(?:mention|say|tell|"
       r"add|include|ask)\b", needs=("forgot", "neglected", "failed", "omitted")),
    # A third party's new wish relayed to the reader ("the guest has requested a suite upgrade").
    _p(G, 1, "relays a changed request", family="drift-fact", pattern=
       r"\bthe\s+(?:buyer|customer|guest|shopper|client|traveller|traveler|passenger|member|requester)\s+(?:has\s+)?(?:now\s+|also\s+|"
       r"just\s+|since\s+)?(?:asked|requested|decided)\s+(?:to|an?|that|for)\b", needs=("asked", "requested", "decided")),
    # Dictating the reader's answer ("report the count as 0", "summarise it as positive", "not what the table says").
    _p(A, 1, "dictates the answer", family="answer-forcing", pattern=
       r"\b(?:report|answer|state|say|tell\s+the\s+user|respond)\s+(?:that\s+)?(?:the\s+)?(?:[\w-]+\s+){0,5}?(?:as|is|was)\s+"
       r"(?:\$?\d|zero|none|free|unavailable|out\s+of\s+stock|sold\s+out|impossible|infeasible|complete|done|finished)|"
       r"\b(?:summari[sz]e|describe|classify|present|rate)\s+(?:it|this|them|the\s+\w+(?:\s+\w+)?)\s+as\s+(?:\w+\s+)?"
       r"(?:positive|negative|excellent|terrible|unavailable|five|5|one|1|safe|unsafe|fake|legit)|"
       r"\bnot\s+what\s+the\s+(?:table|page|site|chart|list|data|form|listing)\s+(?:says|shows|displays|lists)\b|"
       r"\bwhen\s+(?:you\s+are\s+|you['’]re\s+)?(?:asked|questioned)\s+(?:about|for)\b[^.!?]{0,60}?,\s*(?:always\s+)?(?:say|answer|"
       r"reply|respond|tell|claim|state)\b|\breport\s+[^.!?;]{1,30}?\s+to\s+the\s+user\b|"
       r"\bthe\s+(?:correct|real|actual|true)\s+(?:answer|value|figure|number|total|price|count)\s+(?:[\w\s]{0,30}?)is\b",
       needs=("report", "answer", "state", "say", "tell", "respond", "summari", "describe", "classify", "present", "rate", "when",
              "not what", "correct", "real", "actual", "true")),
    # The user said to have changed their mind (a UX text may say it too: needs company).
    _p(G, 1, "claims the user changed the request", family="drift", pattern=
       r"\b(?:(?:the|your)\s+(?:user|human|reader|principal|operator|customer|client)\s+|(?:has|have)\s+)(?:has\s+)?(?:now\s+|"
       r"just\s+|since\s+)?(?:changed|switched|updated|revised|reconsidered)\s+(?:their|his|her|its|the)\s+(?:mind|request|plans?|"
       r"task|goal|order|instructions?)\b", needs=("changed", "switched", "updated", "revised", "reconsidered")),
    # Someone who "now/actually wants you to" do something: the reader's task is being replaced.
    _p(G, 2, "claims the user wants something else", family="drift-wants", pattern=
       r"\b(?:the\s+(?:user|human|reader|principal|operator)|your\s+(?:user|human|principal|operator|owner|boss))\s+"
       r"(?:(?:now|actually|really|instead|secretly|also|only)\s+(?:wants?|needs?|asks?|asked|would\s+like|prefers?|requests?|"
       r"requested|wanted|expects?)|would\s+(?:now|actually|really|rather|instead)\s+(?:like|prefer|want))\s+"
       r"(?:you|the\s+(?:agent|assistant))\s+to\b", needs=("you",)),
    # The same with a pronoun or a third party ("they now want you to"): news text can say it, so needs company.
    _p(G, 1, "claims someone wants something else", family="drift-wants", pattern=
       r"\b(?:they|he|she|the\s+(?:customer|client|person|buyer|owner))\s+(?:(?:now|actually|really|instead|secretly)\s+"
       r"(?:wants?|needs?|asks?|asked|would\s+like|prefers?|requests?|requested|wanted|expects?)|would\s+(?:now|actually|really|"
       r"rather|instead)\s+(?:like|prefer|want))\s+you\s+to\b", needs=("you",)),
    # The reader's request declared stale ("the request about X is outdated").
    _p(G, 1, "declares the request outdated", family="drift-stale", pattern=
       r"\bthe\s+(?:original\s+|previous\s+|earlier\s+|old\s+|initial\s+|current\s+|user['’]s\s+)?(?:request|task|instructions?|"
       r"goal|assignment|objective)s?\b[^.!?]{0,60}?\b(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+)?(?:outdated|"
       r"obsolete|superseded|cancell?ed|void|withdrawn|invalid|replaced|out\s+of\s+date|no\s+longer\s+(?:valid|needed|relevant))\b",
       needs=("outdated", "obsolete", "superseded", "cancel", "void", "withdrawn", "invalid", "replaced", "out of date",
              "no longer")),
    # A change of plan announced as a heading ("Change of plans: ...").
    _p(G, 1, "announces a different task", family="drift-plan", pattern=
       r"\b(?:change\s+of\s+plans?|plan\s+change|new\s+plan|task\s+change|updated\s+task)\s*[:—–]", needs=("plan", "task")),
    # "Instead of X, <order>": the reader's target swapped for another.
    _p(G, 1, "swaps the reader's target", family="drift-swap", pattern=
       rf"\binstead\s+of\s+(?:the|your|this|that)\s+[^,.;:!?]{{1,40}},\s*(?:please\s+)?{_IMPERATIVE}",
       needs=("instead of",)),
    # Pointing at a replacement request ("Open the updated request").
    _p(G, 1, "points to a replacement request", family="drift-link", pattern=
       r"\b(?:open|see|read|view|follow|check|here\s+is|find)\s+(?:the|your)\s+(?:updated|new|revised|real|actual|latest|"
       r"changed|corrected)\s+(?:request|task|instructions?|assignment|objective|goal)s?\b",
       needs=("updated", "new", "revised", "real", "actual", "latest", "changed", "corrected")),
    # -- the same in Japanese and Chinese
    # "Ignore the previous instructions" and an AI agent/assistant as addressee, in CJK scripts.
    _p(A, 2, "overrides prior instructions (ja/zh)", family="overrides prior instructions", pattern=
       r"(?:以前|之前|先前|以上|上記|これまで|前面)の?(?:すべての|全ての|所有的?|全部的?)?(?:指示|指令|命令|说明|說明|提示)を?"
       r"(?:無視|忽略|忘れ|无视)|(?:忽略|无视|無視)(?:之前|以上|先前|所有|全部|前面)的?(?:所有的?)?(?:指示|指令|说明|說明|提示)",
       needs=("指示", "指令", "命令", "说明", "說明", "提示")),
    # An AI agent or assistant addressed in Japanese or Chinese ("AIアシスタントへ："); a product heading may read so: needs company.
    _p(A, 1, "calls out to an AI (ja/zh)", family="vocative", pattern=
       r"(?-i:AI|ＡＩ)\s*(?:エージェント|アシスタント|助手|代理|智能体)(?:へ|に|の皆様|様|们)?\s*[:：、,，]",
       needs=("エージェント", "アシスタント", "助手", "代理", "智能体")),
    # -- structure written into a name
    _p(F, 2, "tree syntax inside a name", rf"\[\s*[a-z]{{0,2}}\d+\s*\]\s+(?-i:{_ROLES})\s*(?:['\"]|,|$)"),
    _p(F, 2, "action-call syntax inside a name", rf"(?<![\w.$])(?-i:{_ACTIONS_API})\(\s*['\"]?[a-z]{{0,4}}-?\d+['\"]?\s*[,)]"),
    _p(F, 2, "action-call syntax inside a name", r"(?<![\w.$])(?-i:goto|send_msg_to_user)\(\s*['\"]"),
)

# Every pattern above needs one of these words (a word starting so, or a marker): a cheap gate
# before running them all. tests/unit/test_defense*.py check that the gate hides no hit.
# Core words: an addressee (AI, agent, assistant, the user ...) or an override ("ignore", "instructions").
_CORE_PREFIXES = (
    "ignor", "disregard", "forget", "overrid", "bypass", "vergiss", "vergessen", "missacht", "oubli", "olvid",
    "descart", "intelligen", "model", "modèle", "chatbot", "chatgpt", "claude", "agent", "assist", "bot",
    "robot", "crawler", "scraper", "system", "admin", "developer", "user", "human", "operator", "principal",
    "owner", "nutzer", "benutzer", "utilisateur", "usuario", "task", "aufgabe", "tâche", "tache", "tarea",
    "goal", "objective", "mission", "assignment", "directive", "instruc", "anweisung", "consigne", "mode",
    "sprachmodell", "ki-", "llm", "gpt", "automated", "gemini", "copilot", "bard", "llama", "mistral", "grok",
    "perplexity", "deepseek", "qwen",
)
# Words the content rules need as well: third parties, steering, secrecy, exfiltration, authority, drift.
_CONTENT_PREFIXES = (
    "customer", "shopper", "guest", "visitor", "want", "need", "ask", "prefer", "expect", "would", "request",
    "decided", "supersed", "replac", "cancel", "outrank", "preceden", "priorit", "skip", "avoid", "use", "instead",
    "plan", "broken", "compromis", "deprecat", "disabled", "hacked", "insecure", "unsafe", "fake", "working",
    "functional", "longer", "paused", "suspend", "phishing", "scam", "decoy", "outdated", "obsolete", "wrong",
    "incorrect", "inaccurate", "invalid", "typo", "stale", "blocked", "frozen", "only", "before", "paste", "upload",
    "export", "dump", "send", "share", "forward", "mail", "e-mail", "leak", "disclos", "reveal", "transmit", "passw",
    "passc", "pin", "download", "security", "compliance", "official", "urgent", "important", "mandatory", "critical",
    "moderator", "begin", "start", "end", "role", "detected", "mention", "report", "explain", "acknowledg", "keep",
    "without", "silently", "quietly", "secretly", "authori", "allowed", "permitted", "cleared", "changed", "switched",
    "updated", "revised", "reconsidered", "void", "withdrawn", "assisting", "helping", "serving", "acting", "forgot",
    "neglected", "failed", "omitted", "say", "state", "respond", "answer", "summari", "describe", "classify",
    "present", "rate", "correct", "real", "actual", "true", "tell", "inform", "convince", "remind", "persuade",
    "redirect", "direct", "warn", "notify", "reassure", "defekt", "kompromittiert", "gehackt", "unsicher",
    "funktionier", "cass", "pirat", "hors", "fonctionn", "roto", "rota", "comprometid", "hackead", "fuera",
    "funciona",
)
_GATE_PREFIXES = _CORE_PREFIXES + _CONTENT_PREFIXES
_GATE_WORDS = {"ai", "ki", "ia"}
_GATE_MARKS = (
    "/", "www.", "[", "(", "<|", "<<", "<!--", "-->", "##", "a.i.", "you are now", "@", ".exe", ".apk", ".dmg",
    ".msi", ".bat", ".ps1", ".scr", ".jar", ".vbs", ".sh", "指示", "指令", "命令", "说明", "說明", "提示", "エージェント",
    "アシスタント", "助手", "代理", "智能体",
)


def _gate_rx(prefixes: tuple[str, ...]) -> re.Pattern[str]:
    """A marker, a word starting with a prefix, or a gate word (on lowercased text)."""
    words = "|".join(map(re.escape, sorted(prefixes, key=len, reverse=True)))
    exact = "|".join(map(re.escape, _GATE_WORDS))
    marks = "|".join(map(re.escape, _GATE_MARKS))
    return re.compile(rf"{marks}|\b(?:{words})|\b(?:{exact})(?![\w-])")


_GATE_RX = _gate_rx(_GATE_PREFIXES)
_CORE_RX = _gate_rx(_CORE_PREFIXES)


def _gate(text: str) -> bool:
    """Whether any pattern could match ``text`` (false: skip them all)."""
    return _GATE_RX.search(text.lower()) is not None


def _core_gate(text: str) -> bool:
    """Whether ``text`` names an addressee or an override: what makes adjacent lines worth judging together."""
    return _CORE_RX.search(text.lower()) is not None


_URL = re.compile(r"\bhttps?://[^\s'\"<>)\]]+|\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s'\"<>)\]]*|"
                  r"\b(?:[a-z0-9-]+\.)+[a-z]{2,12}/[^\s'\"<>)\]]*", _I)
# Where a text can send the reader or its data: a URL, or an e-mail address (its domain is what counts).
_DEST = re.compile(_URL.pattern + r"|\b[\w.+-]+@(?:[a-z0-9-]+\.)+[a-z]{2,12}\b", _I)
_VERIFY = re.compile(
    r"\b(?:verif(?:y|ication|ied)|confirm(?:ation)?|authenticat\w*|re-?authenticat\w*|validat\w*|log\s*-?in|"
    r"sign\s*-?in|credentials?|re-?enter|unlock|captcha|prove\s+(?:you|that)|identity|verifizier\w*|"
    r"bestätig\w*|anmeld\w*|einlogg\w*|v[ée]rifi\w*|confirme[rz]?|connecte[rz]|identifi\w*|verific\w*|"
    r"iniciar\s+sesi[óo]n|autentic\w*)", _I)
_URGENT = re.compile(
    r"\b(?:must|required?|requires|need\s+to|needs\s+to|immediately|urgent(?:ly)?|mandatory|first|before\s+"
    r"(?:continuing|proceeding|you\s+(?:continue|proceed)|completing|checking)|to\s+(?:continue|proceed)|"
    r"otherwise|or\s+(?:your|the)\s+(?:account|session|order)|expire[sd]?|suspend\w*|müssen|sofort|to\s+avoid\s+"
    r"(?:cancell?ation|suspension|deactivation|losing|closure|termination|penalt\w*|being\s+\w+)|"
    r"devez|imm[ée]diatement|debe[ns]?|inmediatamente)\b", _I)
# Sending the reader's action somewhere else: "... at <url> instead", "can only be booked at <url>".
_REDIRECT = re.compile(
    r"\b(?:instead|rather\s+than|ignore|can\s+only\s+be|(?:is|are)\s+only\s+(?:possible|available|accepted|processed|"
    r"saved|valid)|new\s+location|(?:has|have)\s+moved|moved\s+to|no\s+longer|(?:real|actual|correct|official|proper|right)"
    r"\s+(?:[\w-]+\s+)?(?:page|site|website|link|form|address|url|location|checkout|portal)\s+(?:is|are)|en\s+su\s+lugar|"
    r"stattdessen|[àa]\s+la\s+place)\b", _I)
_SENSITIVE_RX = re.compile(
    rf"\b{_SENSITIVE}\b|\bpay\s+(?:again|twice)\b|\bre-?pay\b|\bpayment\s+(?:details|information|data)\b", _I)
_NEGATED = re.compile(r"\b(?:never|not|don['’]t|cannot|can['’]t|won['’]t)\b[^.!?]*$", _I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# Reported speech in front of an override ("I asked it to ...", "how to make ChatGPT ...").
_REPORTED = re.compile(
    r"\b(?:asked|told|tells?|telling|asking|ask|make|makes|made|making|got|get|gets|getting|trick(?:ed|s|ing)?|"
    r"convinc(?:e|ed|es|ing)|instruct(?:ed|s|ing)|tried\s+to\s+get|want(?:ed|s)?)\s+(?:\w+\s+){0,2}?to\s*$", _I)
_LIVE_ROLES = {"status", "alert", "log", "marquee", "timer", "region", "alertdialog"}
_LIVE_PROP = re.compile(r"\b(?:live|atomic|relevant|hidden|busy)\s*=", _I)
_LIVE_ON = re.compile(r"\blive\s*=\s*['\"]?(?!off\b)\w", _I)  # any element can be a live region, not only these roles
_LINE_URL = re.compile(r"\b(?:url|href|src)=['\"](https?://[^'\"]+)")
# Families that honest status text also produces (a security alert, "payments are paused", a chat log's
# "Support agent:"): they never flag a live region or an off-site banner on their own.
_WEAK_ALONE = frozenset({"authority", "disparage", "precondition", "bypass", "vocative:loose"})
_PREFIX = re.compile(r"^(?:\[[^\]\s]+\]\s+)?[A-Za-z][\w-]*\s*")
_QUOTED = re.compile(r"""^(['"])((?:\\.|(?!\1).)*)\1(.*)$""", re.DOTALL)
_URL_PROP = re.compile(r"\b(?:url|href|src)=(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\S+)")
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")
_TEXT_ROLES = {"StaticText", "text", "strong", "emphasis", "mark", "link", "LineBreak", "superscript", "subscript"}

"""Small multilingual lexicons for :mod:`pagelens.focus.evidence` (data, compiled once on import).

Each list is a *kind* of word — role nouns for an automated reader, imperative verbs, modal verbs,
urgency adverbs, dismissal verbs, nouns for instructions, words for the reader's user, sign-in /
payment / credential words, words calling something wrong or outdated — in English, German,
French, Spanish, Italian, Portuguese, Dutch, Russian, Japanese, Chinese and Korean. No entry is a
phrase of any attack; patterns combine kinds (a role noun opening a sentence, a dismissal verb
near an instruction noun), never wordings.

Patterns named ``*_LOW`` and most others run on the lowercased text; the few with acronyms
(``AI``, ``KI``, ``IA``, ``LLM``, ``ИИ``) run on the cased text, since "ai" and "ia" are ordinary
words in Italian and Spanish.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pagelens.focus.patterns import Folded, Stems, _alternatives, narrow_script, trie

# ---- look-alike letters inside Latin words (folded only in words that mix scripts)
CONFUSABLES = {
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ɡ": "g", "һ": "h", "ӏ": "l", "ո": "n", "ս": "u", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H",
    "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "І": "I", "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i",
    "κ": "k", "τ": "t", "Α": "A", "Β": "B", "Ε": "E", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Χ": "X", "Υ": "Y", "Ζ": "Z",
}

# ---- role nouns for an automated reader
_ROLE = (
    r"(?:agents?|assistants?|bots?|robots?|models?|crawlers?|scrapers?|spiders?|agenten|assistent(?:en|in|e)?|"
    r"modell(?:e|en)?|agentes?|asistentes?|assistente|assistentes|modelos?|modelli|modello|mod[èe]les?|"
    r"агент\w*|ассистент\w*|бот\w*|помощник\w*|модел\w*|нейросет\w*)"
)
_ROLE_CJK = (r"(?:エージェント|アシスタント|ボット|助手|代理|智能体|机器人|模型|에이전트|어시스턴트|봇|"
             r"自動(?:化)?(?:された|の)?\s*(?:プログラム|システム|ツール|読み取り|閲覧者)|自动(?:化)?的?\s*(?:程序|系统|工具|读取))")
_AI_PRE = r"(?:ai|a\.i\.|ki|ia|llm|gpt|ии)"
_AI_WORDS = (
    r"(?:chatgpt|chatbots?|llms?|language\s+models?|artificial\s+intelligence|künstliche\s+intelligenz|sprachmodell\w*|"
    r"intelligence\s+artificielle|mod[eè]les?\s+de\s+langage|inteligencia\s+artificial|intelig[eê]ncia\s+artificial|"
    r"intelligenza\s+artificiale|modelos?\s+de\s+(?:lenguaje|linguagem)|taalmodel\w*|"
    r"искусственн\w*\s+интеллект\w*|нейросет\w*|языков\w*\s+модел\w*)"
)
_AUTO = (
    r"(?:(?:automated|autonomous|agentic|automatic|headless|self-driving|automatisiert\w*|autonom\w*|automatis\w*|autónom\w*|"
    r"automatizad\w*|автоматическ\w*|автономн\w*)[\s-]+(?:agents?|assistants?|readers?|systems?|browsers?|visitors?|"
    r"tools?|clients?|crawlers?|bots?|programs?|scripts?|shoppers?|buyers?|users?|agenten|systeme?|agentes?|sistemas?|"
    r"processes|process|services?|software|helpers?|pipelines?|workers?|parsers?|scrapers?|leser\w*|besucher\w*|"
    r"programme?|lecteurs?|lectores?|visiteurs?|visitantes?|"
    r"агент\w*|систем\w*)|"
    r"(?:web|browsing|browser|shopping|booking|research|coding)[\s-]+(?:agents?|bots?|assistants?)|"
    r"(?:agents?|assistants?|asistentes?|assistentes?|agentes?)\s+(?:de\s+|d')(?:navigation|navegaci[oó]n|navega[cç][aã]o|"
    r"recherche|b[uú]squeda|compras?|achat)|"
    r"(?:non[\s-]?humains?|nicht[\s-]?menschlich\w*|no\s+human[oa]s?|não\s+human[oa]s?|нечеловеческ\w*)[\s-]+"
    r"(?:lecteurs?|visiteurs?|leser\w*|besucher\w*|lectores?|visitantes?|leitores?|читател\w*|посетител\w*)|"
    r"(?:lecteurs?|visiteurs?|lectores?|visitantes?|leitores?)\s+(?:non[\s-]?humains?|no\s+human[oa]s?|não\s+human[oa]s?)|"
    r"(?:automatisch\w*|maschinell\w*)[\s-]+(?:leser\w*|besucher\w*|programm\w*|systeme?n?|agenten|nutzer\w*|werkzeug\w*)|"
    r"(?:lect(?:or|ores|eur|eurs|rices?)|leitor(?:es)?|lettor[ei]|visit(?:eur|eurs|ante|antes)|programm?[ae]s?|"
    r"syst[èe]mes?|sistemas?|outils?|herramientas?)\s+(?:automati\w*|autom[aá]tic\w*|autonom\w*|aut[oó]nom\w*)|"
    r"(?:automated|autonomous|automatic|machine|non-?human)\s+(?:readers?|visitors?|programs?|software|scripts?|tools?)|"
    r"автоматическ\w*\s+(?:читател\w*|посетител\w*|программ\w*)|(?:software|programs?|scripts?|code|machines?)"
    r"(?=\s+(?:(?:that|which)\s+)?(?:is\s+|are\s+)?(?:currently\s+|now\s+)?(?:reading|processing|parsing|"
    r"crawling|scraping|visiting|analy[sz]ing|indexing|handling|reads|processes|parses|crawls|scrapes)\s+(?:this|these)\b))"
)
#: An AI-qualified reader: "AI agent", "KI-Assistent", "LLM", "language model", "automated reader" ...
_AI_HEADS = r"(?:systems?|tools?|browsers?|readers?|programs?|services?|shoppers?|helpers?|copilots?|clients?)"
_NOT_MOD = r"(?!(?:and|or|the|of|for|to|in|with|is|are|was|were|on|at|by|as|can|will|has|have|und|et|y|e|и)\b)"
_AINOUN = rf"(?:{_AI_PRE}[\s-]*(?:{_ROLE}|{_AI_HEADS})|{_AI_PRE}[\s-]+(?:{_NOT_MOD}[a-z]+[\s-]+){{1,2}}?(?:{_ROLE}|{_AI_HEADS})|{_AI_PRE}[\s-]*(?:powered|based|driven|enabled)\s+[\w-]+|{_AI_WORDS}|{_AUTO}|{_ROLE}\s+(?:d['e]\s*)?(?:ia|ии)|{_ROLE}\s+de\s+ia)"
_ANYNOUN = rf"(?:{_AINOUN}|{_ROLE}|{_AI_PRE})"

# ---- words that open an address, and the imperative verbs of an order
_MSG = (r"(?:notes?|notices?|instructions?|messages?|memos?|reminders?|alerts?|warnings?|directives?|updates?|advisory|"
        r"briefing|orders?|hinweise?|nachricht\w*|anweisung\w*|avis|consignes?|remarques?|instrucci\w+|avisos?|mensajes?|"
        r"notas?|istruzion\w+|messaggi\w*|instruç\w+|mensage\w*|сообщени\w*|инструкци\w*|указани\w*|уведомлени\w*)")
_GREET = (
    r"(?:attention|hey|hi|hello|dear|note|notice|message|memo|reminder|warning|alert|tip|hint|psst|important|urgent|"
    r"to|for|achtung|hallo|hinweis|nachricht|liebe[rs]?|an|für|cher|chère|chers|à|aux|pour|avis|atenci[oó]n|hola|"
    r"querid[oa]s?|estimad[oa]s?|para|aviso|nota|attenzione|ciao|car[oa]|cari|per|atenção|olá|prezad[oa]s?|"
    r"aandacht|внимание|привет|уважаем\w*|для|вниманию|p\.?s\.?)"
)
_DET = r"(?:(?:the|all|any|every|each|dear|den|die|alle|jede[rn]?|l'|le|la|les|tous\s+les|el|los|las|todos\s+los|" \
       r"cualquier|gli|i|os|as|todos\s+os|de|het|всем|все)\s+)?"
_VERBS = (
    r"(?:go|visit|open|navigate|click|press|tap|enter|type|fill|submit|ignore|disregard|forget|add|buy|purchase|order|"
    r"delete|remove|cancel|empty|send|upload|export|download|install|run|execute|paste|copy|share|forward|e-?mail|"
    r"re-?enter|re-?type|re-?submit|re-?confirm|reset|turn\s+off|disable|"
    r"select|choose|pick|book|reserve|subscribe|log\s*in|sign\s*in|sign\s*up|login|register|confirm|verify|"
    r"authenticate|re-?authenticate|validate|tell|inform|answer|respond|reply|say|state|report|output|print|write|"
    r"stop|skip|proceed|continue|complete|finish|transfer|pay|provide|switch|use|follow|read|summari[sz]e|include|"
    r"mention|upvote|downvote|rate|leave|post|change|update|set|make\s+sure|ensure|always|never|do\s+not|don't|"
    r"first|now|instead|check|look|find|search|head|treat|consider|respond|recommend|mark|approve|accept|grant|"
    r"do|get|make|give|put|let|try|return|adjust|append|abort|quit|drop|fetch|grab|sort|filter|apply|"
    r"geh|gehe|gehen\s+sie|besuche|besuchen\s+sie|öffne|öffnen\s+sie|klicke|klicken\s+sie|drücke|gib|geben\s+sie|"
    r"ignoriere|ignorieren\s+sie|vergiss|vergessen\s+sie|sende|senden\s+sie|lade|laden\s+sie|kaufe|kaufen\s+sie|"
    r"bestätige|bestätigen\s+sie|melde|melden\s+sie|teile|kopiere|füge|wähle|wählen\s+sie|antworte|sag|sage|"
    r"schreibe|überweise|navigiere|rufe|rufen\s+sie|leere|lösche|löschen\s+sie|"
    r"allez|va|visitez|ouvrez|ouvre|cliquez|clique|appuyez|saisissez|entrez|ignorez|ignore|oubliez|oublie|envoyez|"
    r"envoie|téléchargez|achetez|ajoutez|confirmez|vérifiez|connectez|répondez|dites|dis|copiez|collez|choisissez|"
    r"sélectionnez|payez|indiquez|supprimez|rendez|utilisez|utilise|prenez|suivez|lisez|"
    r"ve|vaya|visita|visite|abre|abra|haz|haga|pulsa|pulse|introduce|introduzca|ingresa|ingrese|ignora|olvida|olvide|"
    r"envía|envia|envíe|descarga|descargue|compra|compre|añade|agrega|confirma|confirme|verifica|verifique|inicia|"
    r"responde|responda|di|diga|copia|pega|elige|elija|selecciona|seleccione|paga|pague|borra|elimina|"
    r"vai|apri|clicca|premi|inserisci|dimentica|invia|scarica|acquista|aggiungi|conferma|accedi|rispondi|incolla|"
    r"scegli|seleziona|visite|clique|pressione|insira|digite|esqueça|envie|baixe|adicione|confirme|verifique|"
    r"faça|responda|copie|cole|escolha|selecione|pague|ga|bezoek|open|klik|vul|negeer|vergeet|stuur|koop|bevestig|"
    r"перейди\w*|зайди\w*|откро\w*|открой\w*|нажми\w*|введи\w*|игнорируй\w*|забудь\w*|отправь\w*|скачай\w*|купи\w*|"
    r"добавь\w*|подтверди\w*|проверь\w*|войди\w*|ответь\w*|скажи\w*|скопируй\w*|вставь\w*|выбери\w*|оплати\w*|"
    r"посетите|укажите|сообщи\w*|удали\w*|очисти\w*)"
)
#: A sentence opening on an order (after an optional "X:" heading, "please", "now", "first").
ORDER_START = Folded(
    rf"^(?:[\w\s'.-]{{0,40}}[:—–]\s*)?(?:(?:please|kindly|now|first|then|bitte|veuillez|por\s+favor|per\s+favore|"
    rf"пожалуйста|alors|dann|luego|срочно|немедленно|sofort|immediately|urgently|quickly|schnell|vite|rápido|"
    rf"ahora|jetzt|maintenant|сначала|zuerst|d'abord|primero|prima)\s*,?\s+){{0,2}}{_VERBS}\b")
ORDER_ANY = Folded(
    r"\bplease\s+(?:do\s+)?\w+|\bbitte\s+\w+|\bveuillez\b|\bpor\s+favor\b|\bper\s+favore\b|пожалуйста|"
    r"(?:て|で)(?:ください|下さい)|(?:ご|お)[^\s。、]{1,8}(?:ください|下さい)|しなさい|せよ|すること|してはいけません|请|務必|务必|하세요|하십시오|해\s*주세요|주세요")
#: An AI-qualified noun as the subject of an obligation ("automated visitors must first ...", "KI-Agenten müssen
#: ... zustimmen"): the verb may come at the clause's end, so only the modal is required, right after the noun.
SUBJ_MODAL = Folded(
    r"\s+(?:[\w-]+\s+)?(?:must|shall|have\s+to|has\s+to|need\s+to|needs\s+to|are\s+(?:required|expected|asked)\s+to|"
    r"müssen|muss|sollen|doivent|doit|deben|debe|devono|deve|moeten|moet|должн\w*|обязан\w*)\b"
    r"(?!\s+(?:not\s+)?(?:be|been|werden|être|ser|essere|worden|быть)\b)")  # a passive speaks about it, not to it
MODAL = Folded(
    r"\b(?:must|shall|need\s+to|needs\s+to|have\s+to|has\s+to|should|(?:are|is)\s+(?:required|instructed|expected|"
    r"asked|obliged|supposed)\s+to|are\s+to|müssen|muss|musst|sollst|sollen|sollten|doit|doivent|devez|dois|il\s+faut|"
    r"debe[ns]?|debes|tienes\s+que|tiene\s+que|hay\s+que|deve|devi|devono|precisa|moet|moeten|должн\w*|нужно|"
    r"необходимо|надо|обязан\w*)\b|必要があります|しなければ|なければならない|必须|必須|需要|应该|해야")
URGENT = Folded(
    r"\b(?:immediately|urgent\w*|right\s+(?:now|away)|asap|at\s+once|without\s+delay|before\s+(?:you\s+)?(?:continu\w*|"
    r"proceed\w*|do(?:ing)?\s+anything|anything\s+else|answer\w*|go(?:ing)?\s+on)|mandatory|required|critical|final|"
    r"expir\w*|suspend\w*|sofort|dringend|umgehend|unverzüglich|zuerst|vorher|immédiatement|d'abord|avant\s+tout|"
    r"inmediatamente|urgente|primero|antes\s+de\s+(?:nada|continuar)|subito|prima\s+di|imediatamente|срочно|"
    r"немедленно|сначала|прежде\s+всего|ahora\s+mismo|otherwise|or\s+else|sonst|andernfalls|sinon|de\s+lo\s+contrario|"
    r"иначе|cancell?ed\s+(?:automatically|within|in|today)|will\s+be\s+(?:cancell?ed|blocked|locked|closed|deleted)|"
    r"wird\s+(?:storniert|gesperrt|gelöscht)|sera\s+(?:annulée?|bloquée?|supprimée?)|será\s+(?:cancelad[oa]|bloquead[oa])|"
    r"отменят|заблокиру\w*)\b|さもないと|否则|至急|すぐに|直ちに|今すぐ|まず|立即|马上|紧急|首先|즉시|먼저")

# ---- whom it addresses
_AFTER_WEAK = (rf"\s*[:,!—–]\s*(?:please\s+|now\s+|first\s+|kindly\s+)?(?:you\b|your\b|the\s+user\b|the\s+(?:real|correct|"
               rf"actual|true)\b|the\s+answer\b|{_VERBS}\b)")
#: Verbs of acting on a page (what an obligation laid on a reader is about; never "be").
_PAGE_ACTS = (
    r"(?:ignore|disregard|visit|open|click|go\s+to|navigate|enter|re-?enter|type|submit|log\s*in|sign\s*in|confirm|verify|"
    r"use|mark|leave|post|rate|write|include|append|summari[sz]e|say|state|treat|recommend|"
    r"send|upload|export|download|reply|respond|answer|tell|report|buy|purchase|add|select|choose|transfer|paste|"
    r"copy|forward|share|follow|proceed|complete|pay|provide|fill|delete|remove|empty|book|subscribe|output|print|"
    r"besuchen|öffnen|klicken|eingeben|senden|bestätigen|anmelden|kaufen|visiter|ouvrir|cliquer|saisir|envoyer|"
    r"confirmer|acheter|visitar|abrir|hacer\s+clic|introducir|enviar|confirmar|comprar|перейти|открыть|нажать|"
    r"ввести|отправить|подтвердить|купить)"
)
_OBLIGED = rf"\b(?:must|shall|need\s+to|needs\s+to|have\s+to|has\s+to|should|(?:are|is)\s+(?:required|instructed|" \
           rf"expected|asked|supposed)\s+to|are\s+to|müssen|muss|sollen|sollten|doit|doivent|devez|debe[ns]?|deben|" \
           rf"tienen\s+que|deve|devono|должн\w*|обязан\w*)\s+(?:not\s+|never\s+)?(?:now\s+|first\s+|immediately\s+|always\s+|then\s+|" \
           rf"(?:zuerst|sofort|d'abord|primero|сначала)\s+)?{_PAGE_ACTS}\b"
# The address patterns are checked around each role noun found (NOUN): what stands before it (``*_BEFORE``,
# anchored at the noun) and what follows it (``*_AFTER``, matched at the noun's end). One regex per side keeps
# the cost to a few anchored matches per noun instead of a scan of the whole text per pattern.
NOUN = Folded(
    rf"(?<![\w-])(?:(?P<ai>{_AINOUN})|(?P<bare>ai|a\.i\.|llms?)|(?P<weak>{_ROLE}))(?![\w])")
#: Greetings that are prepositions ("to", "for", German "an" ...) open a vocative only where a sentence or
#: clause opens ("To the agent:"); mid-sentence they are prepositions ("run it from an automated tool, ...").
_PREP_GREET = r"(?:to|for|an|für|à|aux|pour|para|per|для)"
_GREET_MID = "(?!" + _PREP_GREET + r"\b)" + _GREET
_VOC_PRE = (rf"(?:(?:^|[.!?;:,|/\[(]\s*|\s[-–—]\s*)(?:{_PREP_GREET}\b[\s,:!—–-]*)?|\b{_GREET_MID}\b[\s,:!—–-]*)"
            rf"{_DET}")
#: Before an AI-qualified noun: the start of a sentence, a greeting, or a message heading "... for the".
AI_BEFORE = Folded(
    rf"(?:{_VOC_PRE}(?:\w+\s+(?:and|or|&|und|et|y|e|и)\s+)?|\b{_MSG}\s+(?:(?:is|are|ist|est|es)\s+)?(?:only\s+)?"
    rf"(?:for|to|an|für|pour|para|per|для)\s+{_DET}"
    rf"(?:[\w-]+\s+){{0,2}}?)$")
#: After an AI-qualified noun: a vocative's punctuation, "reading this page", an obligation, a message heading.
AI_AFTER = Folded(
    r"\s*[:,!—–]|\s+(?:and|or|&|und|oder|et|ou|y|o|e|и|или)\s+[\w-]+(?:\s+[\w-]+)?\s*[:!—–]|"
    r"\s+[\w-]+ing(?:\s+[\w'-]+){0,4}\s*[:!—–]|\s+(?:only|reading|visiting|browsing|processing|crawling|using|that|who|which|please)\b|\s*$")
_READS_THIS = (
    r"\s+(?:(?:that|who|which)\s+)?(?:is\s+|are\s+)?(?:currently\s+|now\s+)?(?:reading|processing|parsing|"
    r"summari[sz]ing|browsing|crawling|scraping|visiting|analy[sz]ing|indexing|handling|completing|working\s+on|"
    r"reads|processes|parses|summari[sz]es|browses|crawls|scrapes|visits|analy[sz]es|indexes|handles|sees)\s+"
    r"(?:this|these|the|my|our)\b"
)
_READS_THIS_ROMANCE = (  # "... qui lit cette page", "..., der diese Seite liest", "... que lee esta página"
    r"\s+(?:qui|que|der|die|welche[rs]?|который|которая|которые|che)\s+(?:(?:lit|lisez|parcourt|visite|analyse|lee|"
    r"visita|legge|читает|просматривает)\s+(?:cette|ce|ces|esta|este|estos|questa|questo|эту|этот|эти)\b|"
    r"(?:diese[ns]?|den|das)\s+\w+\s+(?:liest|besucht|verarbeitet)\b)"
)
#: After an AI-qualified noun, whatever precedes it: it reads this page, is obliged to act, or heads a message.
AI_AFTER_ANY = Folded(
    rf"{_READS_THIS}|{_READS_THIS_ROMANCE}|(?:\s+[\w-]+){{0,5}}?\s+{_OBLIGED}|[\s-]+(?:only[\s-]+)?{_MSG}\s*[:\]#—–]")
MSG_FOR_BEFORE = Folded(rf"\b{_MSG}\s+(?:(?:is|are|ist|est|es)\s+)?(?:only\s+)?(?:for|to|an|für|pour|para|per|для)\s+{_DET}(?:[\w-]+\s+){{0,2}}?$")
#: Before a plain role noun: a greeting, the start of the text or of a sentence ("To the agent:").
WEAK_BEFORE = Folded(rf"{_VOC_PRE}(?:[\w-]+\s+){{0,2}}?$")
WEAK_HEAD_BEFORE = Folded(
    rf"(?:^{_DET}(?:[\w-]+\s+){{0,2}}|(?:^|[.!?]\s+|\s[-–—]\s*)(?:(?:to|for|an|für|à|para|per|для)\s+)?(?:the|all|any|every|alle|"
    rf"tous\s+les|todos\s+los)\s+)$")
GREET_BEFORE = Folded(
    rf"\b(?:hey|hi|hello|dear|attention|psst|yo|hallo|liebe[rs]?|cher|chère|querid[oa]|hola|привет|уважаем\w*)"
    rf"[\s,]+{_DET}(?:[\w-]+\s+){{0,2}}?$")
WEAK_AFTER = Folded(_AFTER_WEAK)
WEAK_AFTER_ANY = Folded(
    rf"{_READS_THIS}|(?:\s+[\w-]+ing(?:\s+[\w-]+){{0,2}})?\s+{_OBLIGED}|[\s-]+(?:only[\s-]+)?{_MSG}\s*[:\]#—–]")
HEAD_AFTER = Folded(r"\s*[:—–]")
MSG_FOR_AFTER = Folded(r"(?:\s+[\w-]+ing(?:\s+[\w-]+){0,3})?\s*[:\]#—–,]")
#: CJK: a role noun followed by a vocative particle or colon, or after 致/给.
ADDRESSED_CJK = Folded(
    rf"(?:(?-i:AI|ＡＩ)\s*)?{_ROLE_CJK}(?:へ|に告ぐ|の皆様|様|们|여러분|님)?\s*[:：、，,]|(?:致|给)\s*(?:(?-i:AI)\s*)?{_ROLE_CJK}")
ADDRESSED = re.compile(  # cased: "AI:" / "KI," used as a vocative; an assistant product greeted by name
    r"(?:^|[.!?;]\s*|\b(?:(?i:attention|hey|hi|hello|dear|note\s+to|achtung|hallo|atención|внимание))\b[\s,:!—–-]*)"
    r"(?:AI|KI|IA|LLMs?|ИИ)\s*[:,!—–]|"
    r"\b(?i:hey|hi|hello|dear|attention|psst|note\s+to|message\s+(?:to|for)|p\.?s\.?\s+(?:to|for)|hallo|bonjour|hola)"
    r"[\s,]+(?:Claude|Gemini|Copilot|ChatGPT|GPT|Bard|Llama|Mistral|Grok|Perplexity|DeepSeek|Qwen|Alexa|Siri|Cortana)"
    r"(?:\s*(?:,|and|&|or)\s*(?:Claude|Gemini|Copilot|ChatGPT|GPT|Bard|Llama|Mistral|Grok))*\s*[:,!—–]")
#: What every match of ADDRESSED holds (with GATE_CASED's acronyms): a product name, cased as ADDRESSED writes it.
PRODUCTS = re.compile("Claude|Gemini|Copilot|GPT|Bard|Llama|Mistral|Grok|Perplexity|DeepSeek|Qwen|Alexa|Siri|Cortana")
YOU_ARE_AI = Folded(
    rf"\b(?:you\s+are|you're|if\s+you\s+are|as\s+an?|du\s+bist|sie\s+sind|als|tu\s+es|vous\s+[êe]tes|en\s+tant\s+qu'?|"
    rf"eres|usted\s+es|como|sei|você\s+é|ты|вы|как)\s+(?:now\s+|jetzt\s+|maintenant\s+|ahora\s+)?(?:an?\s+|eine?n?\s+|"
    rf"une?\s+|una?\s+)?(?:(?i:{_AINOUN})|AI|KI|IA|ИИ|LLM|(?i:bot|crawler|automated\s+\w+))(?![\w-])"
    rf"(?=\s*(?:[,.;:!?)—–-]|$)|\s+(?i:and|so|then|reading|that|who|which|with|tasked|browsing|acting|operating|"
    rf"processing|working|helping|designed|built|controlled|instructed|must|should|will|visiting|navigating|"
    rf"und|et|y|e|и|dann|alors|entonces|without|sans|ohne|sin|senza|sem|без|with|mit|avec|con|now|jetzt|maintenant|"
    rf"ahora|ora|agora|теперь)\b|\s+[a-z]{{3,}}(?:ed|ing)\s+(?:to|by|for|with|on)\b)|"
    rf"(?:あなた|君)は\s*(?:AI|人工知能|{_ROLE_CJK})|(?:你|您)是\s*(?:AI|人工智能|{_ROLE_CJK})")
YOU = Folded(
    r"\b(?:you|your|yours|yourself|du|dich|dir|dein\w*|euch|vous|votre|vos|tu|toi|ton|ta|tes|usted|ustedes|vosotros|"
    r"tú|tuyo|voi|tuo|tua|você|vocês|jij|je|jouw|u|uw|вы|ты|ваш\w*|тво\w*|тебе|вам|тебя)\b|あなた|君|你|您|당신")

# ---- dismissing the reader's instructions
_DISMISS = (
    r"(?:ignore|ignoring|disregard|forget|override|overrule|bypass|discard|abandon|supersedes?|"
    r"takes?\s+precedence\s+over|ignorier\w*|vergiss|vergessen|missacht\w*|verwirf|überschreib\w*|ignor\w*|oubli\w*|"
    r"abandon\w*|annul\w*|olvid\w*|descart\w*|dimentic\w*|esqueç\w*|esquec\w*|negeer|vergeet|игнорир\w*|забудь\w*|забуд\w*|"
    r"отмен\w*|не\s+обращай\w*)"
)
_INSTR = (
    r"(?:instructions?|prompts?|directions|directives?|rules|guidelines|commands?|orders|programming|task|tasks|"
    r"request|goal|assignment|objective|mission|system\s+prompt|anweisung\w*|instruktion\w*|befehl\w*|regeln|"
    r"vorgaben|aufgabe\w*|auftrag|consignes?|directives?|tâches?|demande|instrucci\w+|indicaciones|órdenes|tarea|"
    r"solicitud|istruzion\w+|compito|richiesta|instruç\w+|tarefa|pedido|instructies|opdracht|инструкци\w*|"
    r"указани\w*|задач\w*|запрос\w*|правил\w*|команд\w*)"
)
OVERRIDE = Folded(
    rf"\b{_DISMISS}\s+(?:[\w'-]+\s+){{0,4}}?{_INSTR}\b|\b{_DISMISS}\s+(?:all\s+(?:of\s+)?)?(?:the\s+|what\s+is\s+)?"
    rf"(?:above|foregoing|preceding)\b|\b{_DISMISS}\s+everything\s+(?:you\s+(?:were|have\s+been)\s+(?:told|given)|above|"
    rf"before|else)|"
    rf"$^"  # (replacement tasks: REPLACED_TASK)
    rf"|\b(?:your|the|a|my)\s+(?:new|real|actual|true|updated|revised|changed|current|only)\s+(?:{_INSTR}|job|priority|"
    rf"purpose|directive)\s*(?:is|are|:|now|today|here)\b|\b(?:new|updated|revised|secret|hidden)\s+(?:{_INSTR})\s*[:\]#—–]|"
    rf"\b(?:change\s+of\s+plans?|plan\s+change|task\s+change|task\s+update)\s*[:—–]|(?:^|[.!?]\s+|\[)(?:system\s+|admin\s+|"
    rf"operator\s+|developer\s+|security\s+)?override\s*[:\]—–]|\b{_INSTR}\s+(?:[\w'-]+\s+){{0,3}}?(?:(?:is|are|was|were|has\s+been|"
    rf"have\s+been)\s+)?(?:now\s+)?(?:void|obsolete|outdated|superseded|cancell?ed|withdrawn|replaced|no\s+longer\s+"
    rf"(?:valid|applies|apply|relevant))\b|(?:指示|命令|指令|タスク|依頼)(?:を|は)?\s*(?:すべて)?\s*(?:無視|忘れ)|"
    rf"(?:忽略|无视|無視|忘记|忘掉)\s*(?:之前|以上|先前|所有|全部|前面|上面)?的?\s*(?:所有的?)?\s*(?:指示|指令|说明|說明|"
    rf"提示|任务|要求|命令)|(?:以前|之前|先前|以上|上記|これまで)の?\s*(?:すべての|全ての)?\s*(?:指示|指令|命令)")
#: A dismissal given as an order (clause start, after "please", a modal or a vocative), not reported speech.
OVERRIDE_ORDER = Folded(
    rf"(?:^|[.!?:;,(\[]\s*|\b(?:please|and|now|then|so|just|simply|kindly|bitte|veuillez|por\s+favor|пожалуйста)\s+|"
    rf"\b(?:must|should|need\s+to|have\s+to|are\s+to)\s+|\byou\s+(?:must|should|will|can)\s+(?:now\s+)?)"
    rf"{_DISMISS}\s+(?!(?:its|his|her|their|my|our)\b)")
#: A replacement task announced: "your new task is", "the real job", "new directive:", "change of plans:".
REPLACED_TASK = Folded(
    rf"\b(?:your|the)\s+(?:new|real|actual|true|updated|revised|changed|current|only)\s+(?:tasks?|instructions?|"
    rf"directives?|assignment|mission|orders|prompt|objective|priority|purpose)\s*(?:is|are|:|now|today|here)\b|\b(?:new|updated|revised|secret|hidden)\s+(?:{_INSTR})(?:\s+(?:for|to)\s+(?:the\s+|all\s+|any\s+)?[\w-]+(?:\s+[\w-]+)?)?\s*[:\]#—–]|"
    rf"\b(?:change\s+of\s+plans?|plan\s+change|task\s+change|task\s+update)\s*[:—–]|(?:^|[.!?]\s+|\[)(?:system\s+|admin\s+|"
    rf"operator\s+|developer\s+|security\s+)?override\s*[:\]—–]|\b(?:your|the)\s+{_INSTR}\s+(?:has|have)\s+(?:now\s+)?"
    rf"(?:been\s+)?(?:changed|updated|replaced|revised)\b|\b(?:deine|ihre)\s+(?:neue|eigentliche|wahre)\s+aufgabe\b|"
    rf"\b(?:ta|votre)\s+(?:nouvelle|vraie|v[ée]ritable)\s+t[âa]che\b|\b(?:tu|su)\s+(?:nueva|verdadera)\s+tarea\b|"
    rf"\b(?:eigentliche|wahre)\s+aufgabe\b|\b(?:ваша|твоя)\s+(?:новая|настоящая)\s+задача\b")
#: Framing as a system or admin turn ("SYSTEM MESSAGE:"): honest intranets say it too, so it only adds weight.
AUTHORITY = Folded(
    r"(?:^|[.!?\]]\s+|\[|\b(?:important|urgent|official|mandatory|critical)\s+)(?:system|assistant|developer|admin|"
    r"administrator|security|compliance|moderator)\s*(?:message|prompt|note|instruction|override|update|notice|alert|"
    r"directive|announcement)?s?\s*(?:\]|:|[-–—]\s)")
#: An automated reader singled out: "automated agent detected".
DETECTED = Folded(r"\b(?:automated|bot|robot|ai|agent|crawler|automation)\w*\s+(?:\w+\s+)?(?:was\s+|has\s+been\s+)?detected\b")
PRIOR = Folded(
    r"\b(?:previous|prior|preceding|above|earlier|former|original|initial|existing|all|your|any|vorherig\w*|bisherig\w*|"
    r"alle|deine|ihre|précédent\w*|antérieur\w*|toutes|tes|vos|anterior\w*|previas?|todas|tus|sus|precedent\w*|"
    r"tutte|tue|anteriores|suas|предыдущ\w*|прежн\w*|все|сво\w*|ваш\w*)\b|以前|之前|先前|以上|上記|これまで|所有|全部")

# ---- the reader's own user
_USER = (
    r"(?:user|human|principal|operator|owner|nutzer\w*|benutzer\w*|utilisat\w+|usuari[oa]s?|utente|usuário|gebruiker|"
    r"пользовател\w*|человек\w*)"
)
PRINCIPAL = Folded(
    rf"\b(?:your|ihr|dein|deinen|votre|ton|tu|su|tuo|seu|jouw|uw|ваш\w*|тво\w*)\s+{_USER}\b|"
    rf"\b(?:the\s+)?(?:human|person|user|customer|client)\s+(?:(?:that|who|whom)\s+)?you\s+(?:are|'re)\s+(?:assisting|"
    rf"helping|serving|working\s+for|acting\s+(?:for|on\s+behalf\s+of)|browsing\s+for)\b|"
    rf"\b(?:on\s+behalf\s+of|im\s+auftrag|au\s+nom|en\s+nombre)\s+(?:of\s+)?(?:the|your|des|de\s+l'|del)\s+{_USER}")
_WISH = (
    r"(?:wants?|wanted|needs?|asks?|asked|would\s+(?:like|prefer|rather)|prefers?|requests?|requested|expects?|meant|"
    r"intends?|changed|switched|updated|revised|decided|forgot|möchte|will|wollte|braucht|veut|voulait|souhaite|"
    r"quiere|quería|desea|vuole|voleva|quer|queria|wil|хочет|хотел\w*|просит|просил\w*|передумал\w*)"
)
PRINCIPAL_WISH = Folded(
    rf"(?<!what\s)(?<!whatever\s)\b(?:the|your|der|die|ihr|dein|l'|le|votre|el|tu|su|il|o|seu|de|jouw|ваш\w*)\s*{_USER}\s+(?:has\s+|have\s+|hat\s+|a\s+|"
    rf"ha\s+)?(?:now\s+|actually\s+|really\s+|instead\s+|also\s+|just\s+|since\s+|secretly\s+|jetzt\s+|eigentlich\s+|"
    rf"maintenant\s+|vraiment\s+|en\s+fait\s+|ahora\s+|realmente\s+|en\s+realidad\s+|ora\s+|agora\s+|теперь\s+|"
    rf"на\s+самом\s+деле\s+)+{_WISH}\b(?!\s+(?:is|was|are|were)\b)|"
    rf"\b(?:the|your)\s+{_USER}'s\s+(?:real|actual|true|new|updated|revised|underlying|correct)\s+\w+|"
    rf"\b{_USER}\s+(?:has|have|'s)\s+(?:now\s+|just\s+)?(?:changed|switched|revised|updated)\s+(?:their|his|her|its|the)\s+(?:mind|request|plans?|"
    rf"task|goal|order|instructions?)\b")
#: The reader's principal named as only an agent has one, or claimed by the text itself.
PRINCIPAL_STRONG = Folded(
    rf"\b(?:the\s+)?(?:human|principal)\s+(?:(?:that|who|whom)\s+)?you\s+(?:are|'re)\s+(?:assisting|"
    rf"helping|serving|working\s+for|acting\s+(?:for|on\s+behalf\s+of)|browsing\s+for|shopping\s+for)\b|"
    rf"\byour\s+(?:human|principal)\b|\b(?:person|human|user)\s+who\s+sent\s+you\b|"
    rf"\b(?:i\s+am|i'm|this\s+is)\s+(?:the|your)\s+(?:user|human|operator|principal|owner)\b(?!\s+(?:who|that|of|here))|"
    rf"\b(?:message|update|note|word|request|correction|instructions?)s?\s+from\s+(?:the|your)\s+(?:user|human|principal|"
    rf"operator)\b|\b(?:the|your)\s+(?:user|human|buyer|customer|guest|shopper|client|person|operator|reader|"
    rf"nutzer|benutzer|utilisateur|usuario)\s+(?:(?:has\s+)?\w+\s+){{0,2}}?(?:wants?|would\s+(?:\w+\s+)?(?:like|prefer)|"
    rf"prefers?|asked|asks|expects?|needs?|requested|instructed|forgot\s+to\s+mention)\s+(?:you|that\s+you|the\s+agent|"
    rf"the\s+assistant)\b|\b{_USER}\s+{_WISH}\s+(?:eigentlich|en\s+r[ée]alit[ée]|en\s+realidad|in\s+realtà|"
    rf"на\s+самом\s+деле|actually|really)\b|\b{_USER}\s+(?:has\s+)?(?:pre-?)?(?:approved|authori[sz]ed|granted|allowed)\b")
#: The reader's task referred to as something to finish ("to complete your task, first ...").
TASK_REF = Folded(
    r"\b(?:to|in\s+order\s+to|before\s+you|before)\s+(?:can\s+)?(?:complete|finish|accomplish|continue|proceed\s+with|"
    r"continuing|completing|finishing)\s+(?:your|the\s+user's|this|the)\s+(?:task|goal|request|mission|assignment|objective)\b")
#: Orders about the user or the answer: "tell the user ...", "report the count as ...", "the answer is ...".
ABOUT_USER = Folded(
    r"\b(?:tell|ask|inform|convince|remind|persuade|notify|warn|reassure)\s+(?:the|your)\s+(?:user|human|customer)\b|"
    r"\breport\s+[^.!?;]{1,40}?\s+(?:to\s+the\s+user|as)\b|\bthe\s+(?:correct|real|actual|true|right)?\s*answer\s+"
    r"(?:to\s+[^.!?]{1,60}?\s+)?is\b|\bwhen\s+(?:you\s+are\s+)?asked\b|\bsummari[sz]e\s+(?:this|it|the\s+\w+)\b[^.!?]{0,40}\bas\b|"
    r"\bnot\s+what\s+the\s+(?:table|page|site|list|data)\s+says\b|\b(?:respond|reply|answer)\s+(?:to\s+the\s+user\s+)?only\s+in\b")
#: Changed wishes of a third party relayed to the reader (an adverb of change, a wish verb, "you to").
WANTS_YOU_NOW = Folded(
    rf"\b(?:now|actually|really|instead|secretly|also|suddenly|jetzt|eigentlich|maintenant|ahora|ora|agora|теперь)\s+"
    rf"{_WISH}\s+(?:you|the\s+(?:agent|assistant))\s+to\b|\bwould\s+(?:now\s+|actually\s+|really\s+)?rather\s+you\b")
#: Moving private data out: "upload the salary table", "export the customer records", "send the history to".
EXFIL = Folded(
    r"\b(?:upload|send|export|forward|share|paste|e-?mail|transfer|post|leak|dump|copy)\s+(?:[\w'-]+\s+){0,4}?(?:data|"
    r"records?|tables?|database|lists?|contacts?|salar\w*|payroll|history|messages?|addresses|address|phone\s+numbers?|"
    r"files?|documents?|conversations?|chats?|emails?|e-mails?)\b")
WANTS_YOU = Folded(
    rf"\b{_WISH}\s+(?:you|the\s+(?:agent|assistant))\s+to\b|\bwill,?\s+dass\s+du\b|\bveut\s+que\s+(?:tu|vous)\b|"
    rf"\bquiere\s+que\s+(?:tú|usted)?\b|\bхочет,?\s+чтобы\s+(?:ты|вы)\b")

# ---- steering: secrecy, credentials, disputes, off-site destinations
SECRECY = Folded(
    r"\b(?:do\s+not|don't|never|must\s+not|mustn't|should\s+not)\s+(?:tell|inform|notify|alert|warn|ask|consult|mention|"
    r"reveal|disclose|show|explain|report)\b[^.!?]{0,30}?\b(?:the\s+user|your\s+user|the\s+human|them|anyone|this|it)\b|"
    r"\bwithout\s+(?:telling|informing|notifying|alerting|asking|consulting|warning|confirming\s+with)\b|"
    r"\bkeep\s+(?:this|it)\s+(?:secret|hidden|confidential|between\s+us|to\s+yourself)\b|"
    r"\b(?:silently|quietly|secretly|covertly|discreetly)\s+\w+|\bheimlich\b|\bohne\s+(?:es\s+)?(?:zu\s+)?(?:fragen|"
    r"sagen|erwähnen|rückfrage)|\bsag(?:e|en\s+sie)?\s+(?:es\s+)?(?:dem\s+nutzer|niemandem)\s+nicht|\bsans\s+(?:le\s+)?"
    r"(?:dire|prévenir|demander|mentionner|informer)\b|\bsecrètement\b|\ben\s+secreto\b|\bsin\s+(?:decir|avisar|"
    r"preguntar|mencionar|informar)\b|\bsenza\s+(?:dire|avvisare|chiedere)\b|\bsem\s+(?:dizer|avisar|perguntar)\b|"
    r"\bне\s+(?:говори|сообщай|рассказывай|упоминай)\w*|\bтайно\b|\bнезаметно\b|伝えないで|言わないで|知らせないで|"
    r"黙って|こっそり|内緒|不要告诉|别告诉|悄悄|秘密地|말하지\s*마")
CREDENTIAL = Folded(
    r"\b(?:passwords?|passcodes?|passphrases?|credentials?|log-?in\s+details|card\s+(?:numbers?|details)|credit\s+cards?|"
    r"cvv|cvc|security\s+codes?|pin\s+codes?|api\s+keys?|access\s+tokens?|session\s+(?:tokens?|cookies?)|"
    r"one-?time\s+(?:codes?|passwords?)|2fa|otp|iban|bank\s+(?:details|accounts?)|social\s+security|seed\s+phrase|"
    r"private\s+keys?|gift\s+cards?|wire\s+transfer|crypto\w*|bitcoin|wallet|"
    r"log\s*-?in|sign\s*-?in|re-?verif\w*|verif(?:y|ication|ied)|re-?authenticat\w*|authenticat\w*|identity|"
    r"payment\s+(?:details|information|data)|pay\s+(?:again|twice|a\s+fee)|billing|"
    r"passwort\w*|kennwort\w*|anmeld\w*|einlogg\w*|zugangsdaten|kreditkart\w*|kartennummer|überweis\w*|bestätig\w*|"
    r"mot\s+de\s+passe|identifiants?|connexion|carte\s+(?:bancaire|de\s+crédit)|vérifi\w*|paiement|"
    r"contraseña|credenciales|iniciar\s+sesi[oó]n|tarjeta|verific\w*|pago|"
    r"credenziali|accesso|pagamento|carta\s+di\s+credito|senha|cartão|wachtwoord|inloggen|"
    r"пароль\w*|логин\w*|войти|вход\w*|учётн\w*|учетн\w*|реквизит\w*|карт[аыу]\b|оплат\w*|подтвер\w*|верифи\w*)\b|"
    r"パスワード|ログイン|認証|暗証|カード番号|クレジットカード|支払|口座|本人確認|密码|登录|登入|验证|驗證|支付|"
    r"银行卡|信用卡|付款|账户|비밀번호|로그인|인증|결제|카드\s*번호")
DISPUTE = Folded(
    r"\b(?:wrong|incorrect|inaccurate|outdated|out\s+of\s+date|obsolete|stale|invalid|typos?|erroneous|misprint\w*|"
    r"fake|bogus|broken|counterfeit|decoy|placeholders?|dummy|cached|roto|rota|kaputt|deprecated|disabled|compromised|hacked|moved|relocated|transferred|migrated|discontinued|misleading|superseded|"
    r"no\s+longer\s+(?:valid|accurate|current|correct|working|available|in\s+use)|not\s+(?:accurate|correct|current|"
    r"valid|working|up\s+to\s+date)|falsch\w*|veraltet\w*|ungültig\w*|fehlerhaft\w*|defekt\w*|umgezogen|"
    r"nicht\s+mehr\s+(?:aktuell|gültig|korrekt)|faux|fausses?|erron\w*|obsolète\w*|périmé\w*|incorrect\w*|cassé\w*|"
    r"déplacé\w*|erróne\w*|obsolet\w*|desactualizad\w*|falsos?|falsas?|incorrect\w*|movid[oa]s?|errat\w*|"
    r"sbagliat\w*|errad\w*|desatualizad\w*|incorret\w*|verouderd|onjuist|неверн\w*|неправильн\w*|устарел\w*|"
    r"ошибочн\w*|недействительн\w*|перенесен\w*|перенесён\w*|ложн\w*|"
    # lagging behind, an old copy: the page's figures called late ("lag a few days", "une ancienne copie")
    r"lag(?:s|ging)?\s+behind|lag(?:s|ging)?\s+(?:by\s+)?(?:a\s+few|several|\d+)|(?:days?|weeks?|hours?)\s+behind|"
    r"(?:old|older|stale|archived)\s+cop(?:y|ies)|delayed|hinken\w*|hinterher\w*|verzögert\w*|alte\s+kopie|"
    r"ancienne\s+copie|en\s+retard|pas\s+à\s+jour|plus\s+à\s+jour|atrasad\w*|desfasad\w*|copia\s+antigua|"
    r"con\s+retraso|in\s+ritardo|copia\s+vecchia|non\s+aggiornat\w*|отста[юё]\w*|с\s+опозданием|"
    r"старая\s+копия)\b|誤り|間違|古い|古く|無効|正しくない|移転|遅れ|最新ではありません|"
    r"错误|錯誤|过时|過時|无效|不正确|已迁移|滞后|延迟|旧版|잘못|오래된|지연")
REAL = Folded(
    r"\b(?:real|actual|correct|true|accurate|up-?to-?date|official|genuine|"
    r"richtig\w*|echt\w*|tatsächlich\w*|offiziell\w*|korrekt\w*|vrai\w*|réel\w*|correct\w*|"
    r"officiel\w*|exact\w*|verdader\w*|oficial\w*|vero|vera|veri|"
    r"corrett\w*|verdadeir\w*|juist\w*|настоящ\w*|реальн\w*|правильн\w*|"
    r"официальн\w*|верн\w*|current|latest|live|à\s+jour|aktuell\w*|actual(?:es|izad\w*)|aggiornat\w*|"
    r"действующ\w*|актуальн\w*)\b|正しい|本当|実際|公式|正確|最新|真实|正确|实际|官方|准确|진짜|정확|최신")
#: Words of a condition ("if you use a Mac, ignore ..."): an instruction for some readers, not an override.
CONDITION = Folded(r"\b(?:if|when|unless|wenn|falls|si|se|als|если)\b[^.!?]*$")
#: The alternatives of DEST, each with a literal test that every one of its matches passes (see ``evidence._offsite``:
#: an alternative that cannot match anywhere in a text is left out of its scan, which changes no match).
DEST_PARTS: tuple[tuple[str, str], ...] = (
    (r"\bhttps?://[^\s'\"<>)\]]+", "://"),
    (r"\bwww\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s'\"<>)\]]*", "www."),
    (r"\b(?:[a-z0-9-]+\.)+[a-z]{2,12}/[^\s'\"<>)\]]*", "/"),
    # a bare IPv4 address or host name with a port or a path ("10.1.2.3:8080/x", "host.example:8443")
    (r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{2,5}(?:/[^\s'\"<>)\]]*)?|/[^\s'\"<>)\]]+)", "digit.digit"),
    (r"\b(?:[a-z0-9-]+\.)+[a-z]{2,12}:\d{2,5}(?:/[^\s'\"<>)\]]*)?", ":digit"),
    (r"\b[\w.+-]+@(?:[a-z0-9-]+\.)+[a-z]{2,12}\b", "@"),
)
#: Where a text can send the reader or its data: a URL, or an e-mail address.
DEST = Folded("|".join(src for src, _ in DEST_PARTS))

# ---- imitation of the observation format, of chat turns and of action calls
_AXROLES = (
    r"(?:button|link|textbox|searchbox|combobox|checkbox|radio|menuitem|option|tab|img|image|StaticText|listbox|slider|"
    r"spinbutton|switch|dialog|heading|generic|gridcell|row|cell|rowheader|columnheader|navigation|main|banner|form|"
    r"list|listitem|paragraph|article|region|alert|status|RootWebArea|group|table)"
)
IMITATION = Folded(
    rf"(?P<tree_line>\[\s*[a-z]{{0,2}}\d+\s*\]\s+(?-i:{_AXROLES})\s*(?:['\"]|,|$))|"
    r"(?P<chat_tokens><\|[a-z_]{2,20}\|>|\[/?INST\]|<<\s*/?SYS\s*>>|</?(?:system|assistant|user)>|"
    r"[\"'](?:role)[\"']\s*:\s*[\"'](?:system|developer|assistant|tool)[\"'])|"

    r"(?P<prompt_markup><!--|-->|(?<!#)#{2,}\s*(?:new\s+|updated\s+)?(?:instructions?|system|task|prompt)\b|\b(?:end|begin|start)\s+of\s+"
    r"(?:the\s+)?(?:page|web\s*page|site|document|content|user\s+input)(?:\s+content|\s+text)?\b|\b(?:begin|start|end)\s+"
    r"(?:of\s+)?(?:the\s+)?(?:agent|assistant|ai|system|hidden|secret|llm)\s+(?:instructions?|prompt|message|directives?)\b)|"
    r"(?P<action_call>(?<![\w.$])(?:click|dblclick|fill|select_option|hover|press|focus|clear|goto|go_back|type|"
    r"send_msg_to_user|report_infeasible|scroll|upload_file|mouse_click|keyboard_type|new_tab|answer|stop)\(\s*"
    r"(?:['\"][a-z]{0,4}-?\d+['\"]|\d+|['\"]https?:)\s*[,)]?)")

#: A chat transcript imitated: a turn of the user and a turn of the assistant, labelled "Name:", in either order.
_USER_TURN = (r"(?:user|human|utilisateur|utilisatrice|benutzer|nutzer|usuario|humano|utente|usuário|пользователь|"
              r"человек|用户|ユーザー|사용자)")
_AGENT_TURN = r"(?:assistant|ai|assistent|asistente|assistente|ассистент|ии|助手|アシスタント|어시스턴트)"
CHAT_TURNS = Folded(
    rf"(?:^|[.!?;»\"'\s])(?:{_USER_TURN}\s*[:：][^:：]{{2,300}}?(?<![\w-]){_AGENT_TURN}|"
    rf"{_AGENT_TURN}\s*[:：][^:：]{{2,300}}?(?<![\w-]){_USER_TURN})\s*[:：]")

# ---- the gate: stems without which no span can be anchored (most lines stop here). Plain literals only, so
# that the scan is fast; the acronyms are matched case-sensitively on the cased text (see GATE_CASED).
_GATE_STEMS = (
    "agent", "assist", "bot", "robot", "model", "modèl", "crawler", "scraper", "spider", "chatgpt", "llm", "gpt",
    "intelligen", "intelig", "language", "sprach", "langage", "lenguaje", "linguagem", "нейросет", "интеллект",
    "агент", "ассистент", "бот", "модел", "помощник", "automat", "autonom", "self-driving", "headless", "automát",
    "autónom", "maschinell", "software", "program", "script", "machine", "自動", "自动",
    "ignor", "disregard", "forget", "overrid", "overrul", "bypass", "discard", "supersed", "replace", "cancel",
    "precedence", "vergiss", "vergessen", "missacht", "verwirf", "oubli", "annul", "olvid", "descart", "dimentic",
    "esque", "negeer", "vergeet", "забуд", "забыв", "отмен", "обращай", "игнор",
    "user", "human", "principal", "operator", "owner", "nutzer", "utilisat", "usuari", "utente", "gebruiker",
    "пользовател", "человек", "wrong", "incorrect", "inaccura", "outdated", "out of date", "obsolet", "stale",
    "invalid", "typo", "erroneous", "misprint", "fake", "bogus", "broken", "counterfeit", "decoy", "deprecat",
    "disabled", "compromis", "hacked", "moved", "relocat", "transferred", "migrated", "discontinu", "mislead", "no longer", "not accurate",
    "not correct", "not current", "not valid", "not working", "not up", "falsch", "veraltet", "ungültig",
    "fehlerhaft", "defekt", "kaputt", "umgezogen", "nicht mehr", "faux", "fausse", "erron", "périmé", "cassé",
    "déplacé", "errón", "desactualiz", "falso", "falsa", "movid", "roto", "rota", "errat", "sbagliat", "errad",
    "desatualiz", "incorret", "verouderd", "onjuist", "неверн", "неправильн", "устарел", "ошибочн",
    "недействительн", "перенес", "ложн", "古く", "secret", "silently", "quietly", "covert", "discreet", "without ",
    "heimlich", "ohne ", "sans ", "sin ", "senza ", "sem ", "тайно", "незаметно", "не говори", "не сообщай",
    "system", "override", "answer", "report", "tell ", "summari", "begin", "start", "end of", "claude", "gemini",
    "copilot", "bard", "llama", "mistral", "grok", "perplexity", "deepseek", "qwen", "alexa", "siri", "cortana",
    "instruc", "directive", "task", "job", "goal", "plan", "detected", "エージェント", "アシスタント", "ボット", "助手",
    "代理", "智能体", "机器人", "模型", "에이전트", "어시스턴트", "봇", "人工知能", "言語モデル", "人工智能", "语言模型",
    "大模型", "인공지능", "指示", "命令", "指令", "タスク", "依頼", "忽略", "无视", "無視", "忘记", "忘掉", "忘れ",
    "ユーザー", "用户", "使用者", "사용자", "誤り", "間違", "古い", "無効", "正しくない", "移転", "错误", "錯誤", "过时",
    "過時", "无效", "不正确", "已迁移", "잘못", "伝えないで", "言わないで", "知らせないで", "黙って", "こっそり", "内緒",
    "不要告诉", "别告诉", "悄悄", "秘密",
)
_GATE_WIDE = tuple(w for w in _GATE_STEMS if any(c >= "\u3000" for c in w))  # CJK: no word boundaries
#: At word starts only: the engine then tries the stems at a fifth of the positions (and a stem inside
#: another word, "moved" in "removed", is no trigger). CJK stems, in unsegmented text, go to GATE_WIDE.
GATE = re.compile(r"(?<!\w)(?:" + trie([w for w in _GATE_STEMS if w not in _GATE_WIDE]) + ")")
GATE_WIDE = re.compile(trie(_GATE_WIDE))
GATE_CASED = re.compile(r"AI|A\.I\.|KI|IA|LLM|GPT|ИИ|ＡＩ")
#: The gate of imitated formats: tree-line ids, chat-turn tokens, prompt markup, action calls ("click('12')").
GATE_MARK = Folded(r"\w\(\s*['\"\d]|\[\s*[a-z]{0,2}\d+\s*\]|<\||\[/?inst\]|<<\s*/?sys|</?(?:system|assistant|user)>|"
                       r"<!--|-->|##|[\"']role[\"']\s*:")
#: The gate of destinations (a written address): it matters only in text the site did not write for
#: every reader, where an unaddressed order that steers off-site is enough (``evidence.steers``).
GATE_DEST = Folded(r"http|www\.|@|[a-z0-9-]\.[a-z]{2,12}[/:]|\d\.\d{1,3}[:/]\w")

#: :data:`GATE_MARK`'s alternatives in its order, each with the caseless text it cannot match without (no character
#: folds into or out of ``( [ < - # : . / @``): an alternative can match only where its text is (``in``: a C scan).
_MARK_ALTS = (("(", r"\w\(\s*['\"\d]"), ("[", r"\[\s*[a-z]{0,2}\d+\s*\]"), ("<|", r"<\|"), ("[", r"\[/?inst\]"),
              ("<<", r"<<\s*/?sys"), ("<", r"</?(?:system|assistant|user)>"), ("<!--", r"<!--"), ("-->", r"-->"),
              ("##", r"##"), (":", r"[\"']role[\"']\s*:"))
_MARK_BY_MASK: dict[int, Folded | None] = {}
#: The first alternative, an action call ("click('12')"): a word character before a "(" (case plays no part in it).
_MARK_CALL = re.compile(_MARK_ALTS[0][1])
#: :data:`GATE_DEST`'s dotted alternatives (a host or a numbered address before a "/" or a ":").
_DEST_DOTTED = Folded(r"[a-z0-9-]\.[a-z]{2,12}[/:]|\d\.\d{1,3}[:/]\w")


def _mark_mask(text: str) -> int:
    """The alternatives of :data:`_MARK_ALTS` whose caseless text ``text`` holds, as bits (bit k: alternative k)."""
    mask = 0
    for k, (c, _) in enumerate(_MARK_ALTS):
        if c in text:
            mask |= 1 << k
    return mask


def _marks(mask: int) -> Folded | None:
    """The alternatives of ``mask`` as one pattern, in :data:`GATE_MARK`'s order (compiled once a mask; None: none)."""
    if mask not in _MARK_BY_MASK:
        parts = [src for k, (_, src) in enumerate(_MARK_ALTS) if mask >> k & 1]
        _MARK_BY_MASK[mask] = Folded("|".join(parts), GATE_MARK.flags) if parts else None
    return _MARK_BY_MASK[mask]


def _has_call(text: str) -> bool:
    """``_MARK_CALL.search(text) is not None``, tried only at each "(" (every match has one, after its first character)."""
    at = text.find("(", 1)
    while at > 0:
        if _MARK_CALL.match(text, at - 1) is not None:
            return True
        at = text.find("(", at + 1)
    return False


def has_mark(text: str) -> bool:
    """``GATE_MARK.search(text) is not None``: the action call tried only at each "(", the other alternatives only
    where their text is."""
    mask = _mark_mask(text)
    if mask & 1 and _has_call(text):
        return True
    rx = _marks(mask & ~1)
    return rx is not None and rx.search(text) is not None


def mark_starts(text: str) -> list[int]:
    """``[m.start() for m in GATE_MARK.finditer(text)]``, by the alternatives that can match in ``text`` alone (those
    whose caseless text it holds, in the pattern's order: one that cannot match anywhere changes no match)."""
    rx = _marks(_mark_mask(text))
    return [] if rx is None else [m.start() for m in rx.finditer(text)]


def has_dest(text: str) -> bool:
    """``GATE_DEST.search(text) is not None``, each alternative searched only where its characters are: "http" and
    "www." in any case (told on the lowercase of a text of ASCII and caseless punctuation; any other text is
    searched with the pattern as written), "@", and a dotted name or number before a "/" or a ":"."""
    if not narrow_script(text):
        return GATE_DEST.search(text) is not None
    if "@" in text:
        return True
    if "." in text and ("/" in text or ":" in text) and _DEST_DOTTED.search(text) is not None:
        return True
    low = text.lower()
    return "http" in low or "www." in low


# ---- finders: literal stems that locate where the slow patterns above can match (windows, not whole texts)
ROLE_FIND = Stems((
    "agent", "assist", "bot", "model", "modèl", "crawler", "scraper", "spider", "chatgpt", "llm", "gpt", "language",
    "intelligen", "intelig", "sprachmodell", "langage", "lenguaje", "linguagem", "taalmodel", "automat", "autonom",
    "self-driving", "headless", "chatbot", "automát", "autónom", "maschinell", "software", "program", "script", "machine",
    "code ", "non-human", "nonhuman", "自動", "自动", "нейросет", "интеллект", "агент", "ассистент", "бот", "модел", "помощник", "ai ", "ai:",
    "ai,", "ai-", "ki-", "ии", "エージェント", "アシスタント", "ボット", "助手", "代理", "智能体", "机器人", "模型", "에이전트",
    "어시스턴트", "봇", "人工知能", "言語モデル", "人工智能", "语言模型", "大模型", "인공지능", "claude", "gemini", "copilot",
    "bard", "llama", "mistral", "grok", "perplexity", "deepseek", "qwen", "alexa", "siri", "cortana", "detected"))
DISMISS_FIND = Stems((
    "ignor", "disregard", "forget", "overrid", "overrul", "bypass", "discard", "abandon", "supersed", "precedence",
    "vergiss", "vergessen", "missacht", "verwirf", "überschreib", "oubli", "annul", "olvid", "descart", "dimentic",
    "esqueç", "esquec", "negeer", "vergeet", "игнорир", "забудь", "забуд", "отмен", "обращай", "void", "obsolete",
    "outdated", "cancel", "withdrawn", "replaced", "no longer", "無視", "忘れ", "忽略", "无视", "忘记", "忘掉", "指示",
    "指令", "命令"))
INSTR_FIND = Stems((
    "task", "instruc", "directive", "assignment", "mission", "orders", "prompt", "objective", "priorit", "purpose",
    "plan", "override", "aufgabe", "tâche", "tache", "tarea", "задач"))
USER_FIND = Stems((
    "user", "human", "principal", "operator", "owner", "nutzer", "utilisat", "usuari", "utente", "gebruiker",
    "пользовател", "человек", "customer", "buyer", "guest", "shopper", "client", "person", "reader", "task", "goal",
    "request", "mission", "assignment", "objective", "answer", "report", "tell", "ask", "inform", "convinc", "remind",
    "persuad", "notify", "warn", "reassur", "summari", "when", "reply", "respond", "want", "would"))
MARK_FIND = re.compile(r"[\[<#{(]|-->|end\s+of|begin|start")
#: With :data:`GATE_MARK`, where imitated prompt markup can start ("end of the page", "begin instructions").
MARK_WORDS = re.compile(r"end\s+of|begin|start")
SECRECY_FIND = re.compile(trie((
    "not", "n't", "never", "without", "keep", "silent", "quiet", "secret", "covert", "discreet", "heimlich", "ohne",
    "sans", "sin ", "senza", "sem ", "не ", "тайно", "незаметно", "伝え", "言わ", "知らせ", "黙", "こっそり", "内緒", "告诉",
    "悄悄", "秘密", "말하지")))

WANTS_FIND = re.compile(r"you|the agent|the assistant|dass du|que tu|que vous|que usted|que |чтобы")
DISPUTE_FIND = Stems((
    "wrong", "incorrect", "inaccura", "outdated", "out of date", "obsolet", "stale", "invalid", "typo", "erroneous",
    "placeholder", "dummy", "cached",
    "misprint", "fake", "bogus", "broken", "counterfeit", "decoy", "deprecat", "disabled", "compromis", "hacked",
    "moved", "relocat", "transferred", "migrated", "discontinu", "mislead", "supersed", "no longer", "not accurate",
    "not correct", "not current", "not valid", "not working", "not up", "falsch", "veraltet", "ungültig",
    "fehlerhaft", "defekt", "kaputt", "umgezogen", "nicht mehr", "faux", "fausse", "erron", "obsolète", "périmé",
    "incorrect", "cassé", "déplacé", "errón", "desactualiz", "falso", "falsa", "movid", "roto", "rota", "errat",
    "sbagliat", "errad", "desatualiz", "incorret", "verouderd", "onjuist", "неверн", "неправильн", "устарел",
    "ошибочн", "недействительн", "перенес", "ложн", "誤り", "間違", "古い", "古く", "無効", "正しくない", "移転", "错误", "錯誤",
    "过时", "過時", "无效", "不正确", "已迁移", "잘못", "오래된", "lag ", "lags ", "lagging", "day behind", "days behind", "week behind", "weeks behind",
    "hour behind", "hours behind", "old cop", "older cop", "stale cop",
    "archived cop", "delayed", "hinken", "hinterher", "verzögert", "alte kopie", "ancienne copie", "en retard",
    "pas à jour", "plus à jour", "atrasad", "desfasad", "copia antigua", "con retraso", "in ritardo", "copia vecchia",
    "non aggiornat", "отстаю", "отстаё", "с опозданием", "старая копия", "遅れ", "最新では", "滞后", "延迟", "旧版", "지연"))
AUTHORITY_FIND = re.compile(trie(("system", "assistant", "developer", "admin", "security", "compliance", "moderator")))
PRINCIPAL_FIND = Stems((
    "user", "human", "principal", "operator", "owner", "nutzer", "utilisat", "usuari", "utente", "gebruiker",
    "пользовател", "человек", "customer", "buyer", "guest", "shopper", "client", "person", "reader", "people"))
#: Words pointing at this page or its figures ("this page", "the prices here", "above").
DEICTIC = Folded(
    r"\b(?:this|these|here|above|below|shown|listed|displayed|dies\w*|hier|oben|unten|ce|cette|ces|ici|ci-dessus|este|"
    r"esta|estos|estas|aquí|arriba|questo|questa|qui|sopra|deze|dit|эт\w*|здесь|выше|ниже)\b|この|ここ|上記|以下|这|此|本页|上面")

#: Sending the reader's action somewhere else ("instead", "only at", "elsewhere"): with an off-site address
#: and an order in content the site did not write, a diversion.
ELSEWHERE = Folded(
    r"\b(?:instead|elsewhere|rather|only\s+(?:at|on|via|through)|from\s+now\s+on|stattdessen|anderswo|woanders|nur\s+(?:noch\s+)?(?:unter|auf|bei)|"
    r"ailleurs|plutôt|désormais|uniquement\s+sur|en\s+su\s+lugar|en\s+cambio|en\s+otro\s+sitio|solo\s+en|invece|altrove|"
    r"em\s+vez|somente\s+em|вместо|теперь\s+только|только\s+на|в\s+другом\s+месте)\b|代わりに|ではなく|のみ|而是|改为|改成|只在|仅在")
#: Goal drift: a change of the task announced ("instead of", "not X but", "the request changed", "now needs").
CHANGE = Folded(
    r"\b(?:instead|rather\s+than|not\s+the|changed|change\s+of|correction|corrected|update[sd]?|revised|now\s+(?:needs?|wants?|prefers?)|"
    r"no\s+longer|statt|anstatt|stattdessen|geändert|änderung\w*|planänderung|korrektur|jetzt|nicht\s+mehr|au\s+lieu|plutôt|"
    r"changé|modifié|correction|désormais|en\s+lugar|en\s+vez|cambi[oó]|corrección|ahora|invece|cambiat\w*|em\s+vez|mudou|"
    r"вместо|изменил\w*|теперь|поправка)\b|代わりに|ではなく|変更|訂正|而不是|改为|改成|更改|变更")
#: The reader's task spoken of as a request someone made ("the request", "whoever is placing", "the person who asked").
TASK_WORDS = Folded(
    r"\b(?:requests?|requested|requester|tasks?|assignment|errand|instructions?|brief|"
    r"(?:person|one|people|customer|client|user|buyer|shopper|owner)\s+(?:who|that)\s+(?:asked|requested|sent|wants|ordered|"
    r"is\s+asking)|whoever\s+(?:is|are)\s+\w+ing|change\s+of\s+plans?|plan\s*änderung|planänderung|auftrag\w*|anfrage|aufgabe|"
    r"demande|tâche|mission|solicitud|pedido|encargo|tarea|richiesta|incarico|compito|tarefa|запрос\w*|задани\w*|"
    r"задач\w*|поручени\w*)\b|依頼|リクエスト|タスク|请求|任务|要求")

#: Where "you are an AI" can start (YOU_ARE_AI runs only near these).
YOU_ARE_FIND = Stems((
    "you are", "you're", "if you", "as a", "du bist", "sie sind", "als ", "tu es", "vous ", "en tant", "eres ",
    "usted es", "como ", "sei ", "você", "ты ", "вы ", "как ", "あなた", "君", "你是", "您是"))

#: Urgency that asks for an action now (not "required" or "final", which honest form labels say).
URGENT_NOW = Folded(
    r"\b(?:immediately|right\s+(?:now|away)|at\s+once|asap|without\s+delay|before\s+(?:doing\s+)?anything\s+else|"
    r"first\s+of\s+all|sofort|unverzüglich|umgehend|immédiatement|tout\s+de\s+suite|inmediatamente|ahora\s+mismo|"
    r"zuallererst|avant\s+tout|antes\s+que\s+nada|прежде\s+всего|в\s+первую\s+очередь|"
    r"subito|imediatamente|срочно|немедленно)\b|至急|すぐに|直ちに|今すぐ|立即|马上|즉시")


# ---- REPLACED_TASK told by its alternatives (the one-scan cut, h38-fastdef2: the same answers, fewer searches)
def _any_in(low: str, words: tuple[str, ...]) -> bool:
    return any(w in low for w in words)


_TASK_NOUNS = ("task", "instruction", "directive", "assignment", "mission", "orders", "prompt", "objective", "priority",
               "purpose")
_CHANGED = ("changed", "updated", "replaced", "revised")
#: What each top-level alternative of ``REPLACED_TASK`` cannot match without (in a lowercased text of ASCII and
#: caseless punctuation), in the pattern's order: the nouns after "your new ..."; a closing mark after "new
#: instructions"; a change of plans closed by a colon or a dash; "override"; "has been changed"; the German, French and
#: Spanish words; the Russian one is in another script (``tests/unit/focus/test_evidence_one_scan.py`` checks each; moved here from ``evidence`` beside the pattern).
_REPLACED_NEEDS: tuple[Callable[[str], bool], ...] = (
    lambda low: _any_in(low, _TASK_NOUNS),
    lambda low: _any_in(low, (":", "]", "#", "—", "–")) and _any_in(low, ("new", "updated", "revised", "secret", "hidden")),
    lambda low: _any_in(low, (":", "—", "–")) and _any_in(low, ("plan", "task")),
    lambda low: "override" in low,
    lambda low: _any_in(low, _CHANGED),
    lambda low: "aufgabe" in low,
    lambda low: "che" in low,
    lambda low: "tarea" in low,
    lambda low: "aufgabe" in low,
    lambda low: False)
_REPLACED_ALTS = tuple(Folded(a, REPLACED_TASK.flags) for a in _alternatives(REPLACED_TASK.pattern))


def replaced_task(low: str) -> bool:
    """``REPLACED_TASK.search(low) is not None``: in a lowercased text of ASCII and caseless punctuation, each of its
    alternatives searched alone and only when the text holds what that alternative needs (:data:`_REPLACED_NEEDS`);
    in any other text, the pattern as written."""
    if not narrow_script(low) or low.lower() != low:
        return REPLACED_TASK.search(low) is not None
    return any(need(low) and rx.search(low) is not None for need, rx in zip(_REPLACED_NEEDS, _REPLACED_ALTS))

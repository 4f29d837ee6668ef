"""Steering evidence that needs no addressee, in any of seven languages (pure).

:mod:`pagelens.focus.evidence` anchors a verdict on whom a span addresses, a dismissal of
instructions or an imitated format. Text written to steer an agent often has none of these: a
pop-up, a review or a notice bar that sends its reader to another origin, with urgency, asking
for a sign-in or a card, announcing that the site moved, or speaking to someone who reads the
page *for somebody else*. Each of those is ordinary alone; together, and in text the site did not
write for every reader (user content, an overlay, hidden text, a notice bar above the page), they
are what steering looks like. :func:`marks` counts them, :func:`steered` decides.

The markers are kinds of words from general grammar, one small list per language — imperative
and request forms, urgency adverbs, credential and payment nouns, relocation verbs, and the
phrases that say a reader acts on another's behalf — never phrases of any attack or test page.
Reference codes are deliberately *not* evidence: every benchmark marker is such a token, so a code
would measure the benchmark, not the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from pagelens.focus.patterns import Folded


def _rx(*parts: str) -> Folded:
    """One pattern over lowercased text (no IGNORECASE: Unicode case folding makes every alternative slower); an
    ASCII text is searched without the alternatives of other scripts (:class:`~pagelens.focus.lexicons.Folded`)."""
    return Folded("|".join(parts), 0)


# Latin and Cyrillic words need word starts; CJK forms have none.
#: A clause start: the text's start, or after a sentence end, a colon, a dash or a line break.
_START = r"(?:^|[.!?:;,。！？：，]\s*|\s[-–—]\s+|\n)"
#: Requests and obligations anywhere ("please", "you must", "veuillez", "пожалуйста", "ください", "请").
REQUEST_ANY = _rx(
    r"\b(?:please|kindly|you\s+(?:must|need\s+to|have\s+to)|is\s+required|bitte|sie\s+müssen|du\s+musst|erforderlich|"
    r"por\s+favor|debe|debes|tiene\s+que|tienes\s+que|es\s+necesario|veuillez|merci\s+de|vous\s+devez|il\s+faut)\b",
    r"s'il\s+vous\s+plaît",
    r"(?<![а-яё])(?:пожалуйста|необходимо|нужно|должны|следует)(?![а-яё])",
    r"ください|下さい|お願いします|お願い致します|必要があります|しなさい",
    r"请|請|务必|務必|必须|必須",
)
#: Imperatives at a clause start: the verbs of going, opening, signing in, entering, clicking, confirming,
#: using, continuing and downloading (Russian imperatives have forms of their own, so anywhere).
REQUEST_START = _rx(
    _START + r"(?:now\s+|then\s+|first\s+|just\s+)?(?:go\s+to|head\s+(?:to|over)|visit|open|navigate|proceed|continue|"
    r"sign\s+in|log\s+in|enter|type|fill\s+(?:in|out)|submit|confirm|verify|re-?enter|click|tap|press|use|switch|"
    r"follow|download|install|update|read|check)\b",
    _START + r"(?:besuche[nt]?|öffne[nt]?|gehe?n?|melde[nt]?|gebe?n?|gib|klicke?n?|tippe?n?|drücke?n?|bestätige?n?|"
    r"verwende[nt]?|nutze[nt]?|benutze[nt]?|wechsle|wechseln|lade[nt]?|folge[nt]?|fahre[nt]?|lies|lesen|prüfe[nt]?)\b",
    _START + r"(?:visite|visita|abra|abre|vaya|ve|acceda|accede|inicie|inicia|introduzca|introduce|ingrese|ingresa|"
    r"escriba|escribe|haga|haz|pulse|pulsa|confirme|confirma|verifique|verifica|utilice|utiliza|use|usa|continúe|"
    r"continúa|siga|sigue|descargue|descarga|lea|lee|revise|revisa|compruebe|comprueba)\b",
    _START + r"(?:visitez|ouvrez|allez|rendez-vous|connectez-vous|saisissez|entrez|cliquez|appuyez|confirmez|vérifiez|"
    r"utilisez|continuez|poursuivez|suivez|téléchargez|indiquez|renseignez|lisez|consultez)\b",
    r"(?<![а-яё])(?:перейдите|перейди|откройте|открой|зайдите|зайди|войдите|войди|введите|введи|укажите|нажмите|нажми|"
    r"подтвердите|подтверди|используйте|продолжайте|продолжите|скачайте|загрузите|обновите|заполните|прочитайте|"
    r"прочтите|прочитай|проверьте|сообщите)(?![а-яё])",
    r"点击|點擊|前往|访问|訪問|阅读|閱讀|填写|填寫|してください",
)
#: Urgency: adverbs of immediacy (not "today" or "now", which honest offers and posts say all the time).
URGENT = _rx(
    r"\b(?:right\s+(?:away|now)|immediately|urgent(?:ly)?|asap|at\s+once|without\s+delay|within\s+\d+\s+(?:hours?|minutes?)|"
    r"sofort|umgehend|dringend|unverzüglich|inmediatamente|urgente|de\s+inmediato|cuanto\s+antes|immédiatement|"
    r"tout\s+de\s+suite|sans\s+délai|au\s+plus\s+vite)\b",
    r"(?<![а-яё])(?:немедленно|срочно|незамедлительно|как\s+можно\s+скорее)(?![а-яё])",
    r"今すぐ|直ちに|ただちに|至急|立即|马上|馬上|立刻|尽快|儘快|紧急|緊急",
)
#: Credentials and payment.
CREDENTIAL = _rx(
    r"\b(?:password|passcode|pass\s+code|login|log-in|sign-in|sign\s+in|log\s+in|credentials|account\s+details|card\s+number|credit\s+card|"
    r"debit\s+card|cvc|cvv|expiry|pin|iban|billing|payment\s+details|one-time\s+code|verification\s+code|security\s+code|"
    r"passwort|kennwort|zugangsdaten|anmeldedaten|kartennummer|kreditkarte|bankdaten|prüfnummer|zahlungsdaten|"
    r"contraseña|credenciales|datos\s+de\s+acceso|número\s+de\s+tarjeta|tarjeta\s+de\s+crédito|datos\s+de\s+pago|"
    r"código\s+de\s+seguridad|iniciar?\s+sesión|inicie\s+sesión|anmelden|einloggen|mot\s+de\s+passe|connectez-vous|identifiants|numéro\s+de\s+carte|"
    r"carte\s+bancaire|carte\s+de\s+crédit|données\s+de\s+paiement|cryptogramme|code\s+de\s+sécurité)\b",
    r"(?<![а-яё])(?:пароль|парол[яюе]|логин\w*|учётн\w*|учетн\w*|номер\s+карты|банковск\w*|платёжн\w*|платежн\w*|"
    r"код\s+подтверждения|данн\w+\s+для\s+входа|войдите|войти)(?![а-яё])",
    r"パスワード|ログイン|認証情報|カード番号|クレジットカード|暗証番号|セキュリティコード|支払い情報|"
    r"密码|密碼|登录|登錄|账号|帳號|账户|帳戶|卡号|卡號|信用卡|支付信息|验证码|驗證碼",
)
#: The site said to have moved, closed, been replaced or copied (a mirror): relocation words, not the plain
#: negations and "instead" that honest help text uses all the time.
RELOCATED = _rx(
    r"\b(?:has\s+moved|have\s+moved|we(?:'ve|\s+have)\s+moved|new\s+(?:address|home|site|location|domain|url)|relocated|"
    r"migrated|transferred\s+to|being\s+retired|discontinued|shut\s+down|(?:old|outdated|unofficial)\s+(?:copy|mirror|version)|"
    r"mirror|umgezogen|neue[nr]?\s+adresse|neue\s+(?:seite|domain|website)|verlegt|migriert|abgeschaltet|eingestellt|"
    r"spiegelseite|nos\s+mudamos|nos\s+hemos\s+mudado|nueva\s+dirección|nuevo\s+sitio|trasladad[oa]s?|se\s+trasladaron|"
    r"migrad[oa]s?|se\s+retira|espejo|déménagé|nouvelle\s+adresse|nouveau\s+site|transférés?|migrés?|en\s+cours\s+de\s+fermeture|"
    r"miroir)\b",
    r"(?<![а-яё])(?:переехал\w*|новый\s+адрес|новом\s+адресе|перенесен\w*|перенесён\w*|выводится\s+из|зеркал\w*)(?![а-яё])",
    r"移転|引っ越し|新しいアドレス|新サイト|閉鎖|廃止予定|ミラー|搬家|迁移|遷移|新地址|新网站|新網站|已关闭|已關閉|即将停用|镜像|鏡像",
)
#: The reader spoken to as one who acts on another's behalf (a person at work for a customer or a user).
PROXY = _rx(
    r"\b(?:on\s+(?:someone|somebody|another\s+person)(?:'s|\s+else's)\s+behalf|on\s+behalf\s+of|"
    r"(?:for|helping)\s+(?:a|your|the|their)\s+(?:customer|client|user|buyer|shopper)|whoever\s+(?:is\s+)?(?:reading|reads|handles|"
    r"is\s+handling)|(?:if|when)\s+you\s+are\s+(?:reading|handling|acting|shopping|browsing|booking)\s+\w*\s*for|"
    r"im\s+auftrag|für\s+(?:einen|eine|ihre[nr]?|deine[nr]?|jemand(?:en)?)\s+(?:anderen|kunden|kundin|person|nutzer)|"
    r"en\s+nombre\s+de|para\s+(?:un|una|su|tu)\s+(?:cliente|usuario|persona)|pour\s+le\s+compte\s+d|au\s+nom\s+d|"
    r"pour\s+(?:un|une|votre)\s+(?:client|cliente|utilisateur|personne)|"
    r"(?:person|one|customer|user|human)\s+(?:(?:that|who|whom)\s+)?you(?:'re|\s+are)?\s+(?:helping|assisting|help|assist|serve|serving)|"
    r"(?:der|dem|die)\s+(?:du|sie)\s+(?:hilfst|helfen|unterstützt)|(?:a\s+la\s+que|a\s+quien|al\s+que)\s+(?:ayudas|ayuda|asistes|atiende)|"
    r"(?:que|à\s+qui)\s+(?:vous\s+aidez|tu\s+aides|vous\s+assistez))\b",
    r"(?<![а-яё])(?:по\s+поручению|от\s+имени|для\s+клиента|для\s+пользователя|за\s+другого|которому\s+(?:вы\s+|ты\s+)?помогает\w*)(?![а-яё])",
    r"の代わりに|の代理|代理で|代理人|お客様の代わり|手伝っている|代替他人|替客户|替客戶|替他人|代为|代為|代表客户|你(?:正在)?帮助的|您(?:正在)?帮助的",
)


#: A machine reader named: an AI-qualified assistant, agent, model or tool, a language model, a bot or a crawler.
MACHINE = _rx(
    r"\b(?:ai|a\.i\.|ki|ia|llm|gpt)[\s-]*(?:assistants?|agents?|models?|tools?|bots?|helpers?|systems?|shoppers?|"
    r"assistent\w*|agent\w*|modell\w*|asistentes?|agentes?|modelos?|assistants?|mod[eè]les?|outils?|herramientas?)\b|"
    r"\b(?:assistants?|agents?|asistentes?|agentes?|assistent\w*|mod[eè]les?|modelos?)\s+(?:d[e']\s*)?(?:ia|ki|ai)\b|"
    r"\b(?:language\s+models?|sprachmodell\w*|modelos?\s+de\s+lenguaje|mod[eè]les?\s+de\s+langage|chatbots?|"
    r"crawlers?|scrapers?|browsing\s+agents?|automated\s+(?:agents?|assistants?|readers?|tools?|browsers?|shoppers?))\b",
    r"(?<![а-яё])(?:ии[\s-]*(?:ассистент|агент|помощник|модел)\w*|языков\w+\s+модел\w*|чат-?бот\w*|бот\w*)(?![а-яё])",
    r"(?:ai|ａｉ|人工知能)\s*(?:アシスタント|エージェント|モデル)|ボット|言語モデル|(?:ai|ａｉ|人工智能)\s*(?:助手|代理|模型|智能体)|"
    r"智能体|语言模型|語言模型|机器人|機器人",
)


@dataclass(frozen=True, slots=True)
class Marks:
    request: bool = False
    urgent: bool = False
    credential: bool = False
    relocated: bool = False
    proxy: bool = False
    machine: bool = False

    def count(self) -> int:
        return self.request + self.urgent + self.credential + self.relocated + self.proxy + self.machine

    def reasons(self) -> list[str]:
        names = (("request", "asks or orders"), ("urgent", "with urgency"), ("credential", "asks for sign-in or payment"),
                 ("relocated", "says the site moved or the action lies elsewhere"),
                 ("proxy", "speaks to someone reading for another person"), ("machine", "names a machine reader"))
        return [text for key, text in names if getattr(self, key)]


def marks(text: str) -> Marks:
    """The steering markers in ``text`` (normalised, any case)."""
    low = text.lower()
    return Marks(REQUEST_ANY.search(low) is not None or REQUEST_START.search(low) is not None,
                 URGENT.search(low) is not None, CREDENTIAL.search(low) is not None, RELOCATED.search(low) is not None,
                 PROXY.search(low) is not None, MACHINE.search(low) is not None)


def _requests(low: str) -> bool:
    return REQUEST_ANY.search(low) is not None or REQUEST_START.search(low) is not None


#: The markers in the order they are tried (the cheap and rare first), each a test on lowercased text.
_TESTS = (PROXY.search, CREDENTIAL.search, URGENT.search, RELOCATED.search, MACHINE.search)


def _at_least(low: str, n: int) -> bool:
    """Whether ``low`` holds at least ``n`` markers (stops as soon as it knows)."""
    found = 0
    for k, test in enumerate(_TESTS):
        if test(low) is not None:
            found += 1
            if found >= n:
                return True
        if found + (len(_TESTS) - k - 1) + 1 < n:
            return False  # not enough tests left, the request included
    return found + _requests(low) >= n


def steered(text: str, offsite: bool, foreign: bool = True) -> tuple[str, str] | None:
    """(kind, reason) when ``text`` steers its reader. ``offsite``: the span names or links to an origin that is
    neither the page's nor one its own navigation uses. ``foreign``: it stands where the site did not write it for
    every reader (user content, an overlay, hidden text, a notice bar above the page).

    There, an off-site destination with two markers of :class:`Marks` is steering, and so is a reader spoken to
    as acting for someone else who is given an order or sent elsewhere. In the site's own text it takes more: a
    machine reader named, an off-site destination, an order and one more marker."""
    low = text.lower()
    if foreign:
        if offsite and _at_least(low, 2):
            return "steers-offsite", "sends the reader to another origin; " + ", ".join(marks(text).reasons())
        if PROXY.search(low) is not None and (offsite or _requests(low)):
            return "addresses-agent", "speaks to someone reading the page for another person and " + (
                "sends them to another origin" if offsite else "orders them")
        return None
    if offsite and MACHINE.search(low) is not None and _requests(low) and (
            CREDENTIAL.search(low) or URGENT.search(low) or RELOCATED.search(low) or PROXY.search(low)):
        return "addresses-agent", "names a machine reader and sends it to another origin; " + ", ".join(marks(text).reasons())
    return None

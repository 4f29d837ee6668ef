"""A secret asked for that the page does not collect: judged against the page's own fields (structure, any language).

A page that needs a password, a card number, a bank account or a one-time code *asks for it in a field of its own*:
the field, its label, its heading or its button names that kind of secret ("Password", "Card number", "IBAN",
"Reset password"). Help text that tells the reader to enter such a secret on a page where nothing else names it
routes the secret somewhere the page did not make for it — into the wrong field ("type your card number into the
promo box"), or along with something else. This needs no addressee, no outside address and no dispute, and it does
not depend on how the tip is worded: only on three kinds of words (secret nouns, data-entry verbs, negations; one
small list per language, general grammar, never a phrase of any case) and on what the rest of the page names.

:func:`asks_uncollected` judges one line's text against the page: a short text (at most :data:`_MAX_CHARS`
characters, at least :data:`_MIN_WORDS` words) one of whose sentences holds a data-entry verb and a secret noun, with
no negation ("we will never ask for your password" is the honest opposite), on a page with a text field, where that
kind of secret is named nowhere outside the text itself. What it cannot see: a secret of a kind the page does
collect, routed into the wrong field on a page that names it (a registration form with a password field and a tip to
type a banking password into the first-name field); a tip that names no secret noun of the lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pagelens.focus.linefmt import word_count
from pagelens.types import Line

__all__ = ["PIN_AS_WRITTEN", "SECRETS", "asks_uncollected", "form_notes", "mentions", "secret_kinds"]

#: Fields a secret is typed into.
_FIELDS = frozenset({"textbox", "searchbox", "spinbutton", "combobox"})
#: Lines that carry a note's text (not a control's name, which the form's own labels are).
_NOTE_ROLES = frozenset({"StaticText", "paragraph", "text", "strong", "emphasis", "mark", "generic", "note", "group",
                         "LabelText", "DescriptionListDetail", "definition", "cell", "listitem"})
_BEFORE = 3  # lines before a form still read as its tip
_MAX_FORM = 400  # lines of a form walked (a page-sized form is walked this far)


def _rx(*parts: str) -> re.Pattern[str]:
    """One pattern over lowercased text (Latin and Cyrillic words need word starts; CJK forms have none)."""
    return re.compile("|".join(parts))


#: Kinds of secret, each by its nouns (lowercased text; ``PIN`` is matched on the text as written, below).
SECRETS: dict[str, re.Pattern[str]] = {
    "password": _rx(
        r"\b(?:passwords?|passcodes?|passphrases?|passw[öo]rt\w*|kennw[öo]rt\w*|mots?\s+de\s+passe|contraseñas?|senhas?|"
        r"wachtwoord\w*|has[łl]\w*|parola\s+d'ordine|heslo|lösenord\w*|adgangskode\w*)\b",
        r"(?<![а-яё])парол\w*",
        r"パスワード|暗証|密码|密碼|口令|비밀번호|암호"),
    "pin": _rx(
        r"\b(?:pin[\s-](?:codes?|numbers?|nummer|nummern)|code\s+pin|código\s+pin|codice\s+pin|pin-?kód)\b",
        r"(?<![а-яё])пин-?код\w*"),
    "card": _rx(
        r"\b(?:(?:credit|debit|bank|payment)\s+cards?|card\s+(?:numbers?|details|data)|kreditkart\w*|debitkart\w*|"
        r"kartennummer\w*|bankkart\w*|numéro\s+de\s+(?:la\s+)?carte|cartes?\s+(?:bancaires?|de\s+crédit)|"
        r"(?:número\s+de\s+(?:la\s+)?)?tarjetas?\s+de\s+(?:crédito|débito)|número\s+de\s+(?:la\s+)?tarjeta|"
        r"carta\s+di\s+credito|numero\s+(?:della\s+)?carta|cartão\s+de\s+crédito|número\s+do\s+cartão|creditcard\w*|"
        r"kaartnummer|numer\s+karty|kart[ay]\s+kredytow\w*)\b",
        r"(?<![а-яё])(?:номер\w*\s+карт\w*|кредитн\w+\s+карт\w*|банковск\w+\s+карт\w*)",
        r"クレジットカード|カード番号|デビットカード|信用卡|银行卡|銀行卡|卡号|卡號|신용카드|카드\s*번호"),
    "security-code": _rx(
        r"\b(?:cvv2?|cvc2?|security\s+codes?|card\s+verification\s+\w+|sicherheitscode\w*|prüfnummer\w*|"
        r"kartenprüf\w*|cryptogramme\w*|code\s+de\s+sécurité|código\s+de\s+seguridad|codice\s+di\s+sicurezza|"
        r"código\s+de\s+segurança|beveiligingscode\w*|kod\s+cvv)\b",
        r"セキュリティコード|安全码|安全碼|보안\s*코드"),
    "bank-account": _rx(
        r"\b(?:iban|bic|swift\s+code|routing\s+numbers?|sort\s+code|(?:bank\s+)?account\s+numbers?|bank\s+(?:details|accounts?)|"
        r"online[\s-]banking\w*|kontonummer\w*|bankverbindung\w*|bankdaten|numéro\s+de\s+compte|coordonnées\s+bancaires|"
        r"número\s+de\s+cuenta|cuenta\s+bancaria|datos\s+bancarios|conto\s+corrente|coordinate\s+bancarie|"
        r"conta\s+bancária|dados\s+bancários|rekeningnummer\w*|numer\s+konta|rachunek\s+bankowy)\b",
        r"(?<![а-яё])(?:номер\w*\s+сч[её]т\w*|банковск\w+\s+сч[её]т\w*|реквизит\w*)",
        r"口座番号|銀行口座|口座情報|银行账户|銀行帳戶|银行账号|계좌\s*번호|은행\s*계좌"),
    "one-time-code": _rx(
        r"\b(?:one-?time\s+(?:codes?|passwords?|pins?)|otp|2fa\s+codes?|sms[\s-]codes?|"
        r"verification\s+codes?|authenticator\s+codes?|bestätigungscode\w*|einmalcode\w*|code\s+de\s+vérification|"
        r"code\s+à\s+usage\s+unique|código\s+de\s+verificación|codice\s+di\s+verifica|código\s+de\s+verificação|"
        r"verificatiecode\w*|kod\s+weryfikacyjny)\b",
        r"(?<![а-яё])(?:код\w*\s+подтвержден\w*|одноразов\w+\s+код\w*)",
        r"確認コード|認証コード|ワンタイムパスワード|验证码|驗證碼|인증\s*번호|인증\s*코드"),
    "national-id": _rx(
        r"\b(?:social\s+security\s+numbers?|ssn|national\s+insurance\s+numbers?|tax\s+id|passport\s+numbers?|"
        r"steuer-?id\w*|steueridentifikationsnummer\w*|sozialversicherungsnummer\w*|personalausweisnummer\w*|"
        r"numéro\s+de\s+sécurité\s+sociale|numéro\s+fiscal|número\s+de\s+(?:la\s+)?seguridad\s+social|"
        r"codice\s+fiscale|burgerservicenummer|pesel)\b",
        r"(?<![а-яё])(?:снилс|номер\w*\s+паспорт\w*)(?![а-яё])",
        r"マイナンバー|個人番号|身份证号|身分證字號|주민등록번호"),
    "private-key": _rx(
        r"\b(?:seed\s+phrases?|recovery\s+phrases?|private\s+keys?|secret\s+keys?|api\s+keys?|access\s+tokens?)\b",
        r"秘密鍵|助记词|私钥|개인\s*키"),
}
PIN_AS_WRITTEN = re.compile(r"\bPINs?\b")
#: Verbs of data entry (any tense or mood: a tip says "goes in" or "geben ... an" as often as "enter").
ENTRY = _rx(
    r"\b(?:enter\w*|typ(?:e|es|ed|ing)|fill\w*|put|puts|putting|write|writes|written|add|adds|added|insert\w*|paste\w*|"
    r"provid\w+|includ\w+|supply\w*|input\w*|key\s+in|goes\s+(?:in|into)|go\s+(?:in|into)|submit\w*|"
    r"ein(?:geben|gegeben|tragen|getragen|fügen|gefügt|tippen|getippt)|angeben|angegeben|aus(?:füllen|gefüllt)|"
    r"hinterleg\w*|(?:trag|geb|gib|füg|tipp)\w*\s(?:[^.;:!?]{0,80}?\s)?(?:ein|an)|"
    r"sais\w+|entr(?:er|ez|ée)|indiqu\w+|renseign\w+|inscri\w+|tap(?:er|ez)|ajout\w+|fourni\w+|insér\w+|"
    r"introduc\w+|introduzca\w*|ingres\w+|escrib\w+|indic\w+|añad\w+|proporcion\w+|rellen\w+|pon(?:er|ga)|"
    r"inserisc\w+|inserir\w*|inserire|digit\w+|scriv\w+|aggiung\w+|preench\w+|inform\w+|escrev\w+|"
    r"invull\w*|vul\s+\S+(?:\s+\S+){0,4}?\s+in|voer\w*|invoer\w*|geef\s+\S+(?:\s+\S+){0,4}?\s+op|"
    r"wpis\w+|poda\w+|podaj|wprowad\w+)\b",
    r"(?<![а-яё])(?:введ\w*|ввести|ввод\w*|укаж\w*|указ\w+|впиш\w*|впис\w+|заполн\w*|добав\w+)",
    r"入力|記入|記載|書いて|書き込|打ち込|填写|填寫|输入|輸入|填入|键入|입력|기입|작성",
)
#: Negation: the honest opposite ("we never ask for your password", "do not enter your PIN here").
NEGATION = _rx(
    r"\b(?:never|not|no|don't|doesn't|won't|nie|niemals|nicht|keine?n?|jamais|pas|ne|nunca|jamás|mai|non|nooit|niet|"
    r"geen|nigdy)\b",
    r"(?<![а-яё])(?:никогда|не|нельзя)(?![а-яё])",
    r"しないで|しません|ないで|ません|決して|禁止|不要|请勿|請勿|切勿|绝不|絕不|不会|不會|않|마세요|절대",
)
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|[。！？；]")
_MIN_WORDS = 5
_MAX_CHARS = 400  # a longer text is a section (terms of use), not a tip beside a field


def form_notes(lines: Sequence[Line]) -> list[int]:
    """Positions of the text lines inside a form that holds a field, or just above one: where a tip about the
    form's fields stands. (One pass over the roles; each form's subtree walked once.)"""
    out: list[int] = []
    forms = [i for i, ln in enumerate(lines) if ln.role == "form"]
    last = -1
    for i in forms:
        if i < last:
            continue  # a form inside a form already walked
        depth, end = lines[i].depth, i + 1
        while end < len(lines) and lines[end].depth > depth and end - i <= _MAX_FORM:
            end += 1
        if not any(lines[j].role in _FIELDS for j in range(i + 1, end)):
            continue
        out.extend(j for j in range(max(last, i - _BEFORE), end)
                   if lines[j].role in _NOTE_ROLES and len(lines[j].name) >= 20)
        last = end
    return out


def mentions(kind: str, text: str, low: str | None = None) -> int:
    """How many times ``text`` (``low``: the same lowercased, when the caller has it) names ``kind`` of secret."""
    n = len(SECRETS[kind].findall(text.lower() if low is None else low))
    return n + len(PIN_AS_WRITTEN.findall(text)) if kind == "pin" else n


def secret_kinds(low: str, text: str) -> set[str]:
    """The kinds of secret ``low`` (lowercased ``text``) names."""
    kinds = {k for k, rx in SECRETS.items() if rx.search(low) is not None}
    if "pin" not in kinds and PIN_AS_WRITTEN.search(text) is not None:
        kinds.add("pin")
    return kinds


def asks_uncollected(text: str, named_elsewhere: Callable[[str], bool]) -> str | None:
    """The kind of secret ``text`` asks the reader to enter when the page never names it elsewhere, else None.

    ``named_elsewhere(kind)``: whether the page names that kind of secret outside ``text`` (a field, a label, a
    heading, a button, other prose), asked only for a kind ``text`` asks for."""
    if len(text) > _MAX_CHARS or word_count(text) < _MIN_WORDS:
        return None
    low = text.lower()
    if ENTRY.search(low) is None:
        return None
    for sentence, raw in zip(_SENTENCES.split(low), _SENTENCES.split(text)):
        if ENTRY.search(sentence) is None or NEGATION.search(sentence) is not None:
            continue
        for kind in sorted(secret_kinds(sentence, raw)):
            if not named_elsewhere(kind):
                return kind
    return None

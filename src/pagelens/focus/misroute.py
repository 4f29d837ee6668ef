"""A secret sent into a field made for something else: judged against the kinds of the page's own fields (any language).

A form asks for each datum in a field of its own, named for it: "Username", "Surname", "E-mail", "Remarks",
"Password", "Card number". Honest help says which field a datum goes into, and that field is the one named for it
("enter the code in the Verification code field"). A request that names a kind of secret (a password, a PIN, a card
or its security code, a bank account …) and, as where it goes, a field of the page named for *another* kind of datum
("type the PIN into the Phone field", "the CVV goes in the City box") routes the secret into a field
the page did not make for it: whatever reads that field (a shop's staff, a log, a public profile) gets it.

:func:`misrouted` reads one sentence-bearing text: a sentence that names a secret kind (:data:`uncollected.SECRETS`,
``PIN`` as written), holds a data-entry verb and no negation, is in the mood of a request (when asked), and names a
destination — a field noun ("field", "box", "Feld", "champ", "campo", "поле", "欄" …) with a field-kind word right
beside it — whose kind is the kind of one of the page's own fields (:func:`field_kinds`, from their accessible names
and inferred labels), and does not name that kind again outside the destination (then the datum asked for is the
field's own and the secret only the sentence's topic: "if you forgot your password, enter your e-mail address in the
E-mail field"). It returns the secret kind and the destination kind when no destination of the sentence accepts
the secret (:data:`ACCEPTS`). Word lists are of form vocabulary and general grammar only. What it cannot see: a
destination named without a field noun ("as your surname"), a field kind outside :data:`KINDS`, a secret noun of no
list.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from pagelens.focus import uncollected
from pagelens.focus.linefmt import word_count
from pagelens.types import Line

__all__ = ["ACCEPTS", "FIELD_NOUN", "KINDS", "Misroute", "field_kinds", "lines_naming_fields", "misrouted", "names_secret",
           "page_fields"]

#: Fields a datum is typed into.
FIELDS = frozenset({"textbox", "searchbox", "spinbutton", "combobox"})


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts))


#: Kinds of field that are not secrets, each by the words of its name or label (lowercased text).
KINDS: dict[str, re.Pattern[str]] = {
    "login": _rx(
        r"\b(?:user\s*names?|user[\s-]?ids?|login(?:\s+(?:names?|ids?))?|log-in|sign-in\s+names?|benutzer(?:name|kennung)\w*|"
        r"anmeldename\w*|nutzername\w*|identifiant\w*|nom\s+d'utilisateur|(?:nombre\s+de\s+)?usuario|nome\s+utente|"
        r"(?:nome\s+de\s+)?usuário|gebruikersnaam|nazwa\s+użytkownika)\b",
        r"(?<![а-яё])(?:логин\w*|имя\s+пользовател\w*)",
        r"ユーザー名|ユーザーid|ログインid|ログイン名|用户名|用戶名|登录名|登入名|아이디|사용자\s*이름"),
    "email": _rx(
        r"\b(?:e-?mail(?:\s+address(?:es)?)?\w*|courriel|correo(?:\s+electrónico)?|posta\s+elettronica|adres\s+e-?mail)\b",
        r"(?<![а-яё])(?:почт\w*|e-mail)",
        r"メールアドレス|メール|邮箱|电子邮件|電子郵件|이메일"),
    "name": _rx(
        r"\b(?:(?:first|last|given|family|full|middle|sur)\s*names?|names?|vor(?:na|\s+)me\w*|nach(?:na|\s+)me\w*|"
        r"familienname\w*|prénom|nom(?:\s+de\s+famille)?|nombres?|apellidos?|nome|cognome|sobrenome|voornaam|"
        r"achternaam|naam|imię|nazwisko)\b",
        r"(?<![а-яё])(?:имя|фамили\w*|отчеств\w*)(?![а-яё])",
        r"名前|氏名|姓名|名字|フリガナ|이름|성명"),
    "phone": _rx(
        r"\b(?:(?:tele|mobile\s+|cell\s+)?phone(?:\s+numbers?)?|mobile|telefon\w*|handy\w*|téléphone|portable|teléfono|"
        r"móvil|celular|telefono|cellulare|telefoon\w*|mobiel\w*)\b",
        r"(?<![а-яё])телефон\w*",
        r"電話番号|携帯|电话|電話|手机|手機|전화\s*번호|휴대폰"),
    "address": _rx(
        r"\b(?:(?:street|postal|home|billing|shipping)?\s*address(?:\s+line\s*\d)?|street|city|town|zip(?:\s+code)?|"
        r"post\s*code|postal\s+code|straße|strasse|hausnummer|stadt|ort|plz|postleitzahl|adresse|rue|ville|"
        r"code\s+postal|dirección|calle|ciudad|código\s+postal|indirizzo|città|cap|endereço|cidade|cep|adres|straat|"
        r"plaats|postcode|ulica|miasto|kod\s+pocztowy)\b",
        r"(?<![а-яё])(?:адрес\w*|улиц\w*|город\w*|индекс\w*)",
        r"住所|郵便番号|地址|邮编|郵遞區號|주소|우편\s*번호"),
    "note": _rx(
        r"\b(?:remarks?|comments?|notes?|messages?|bemerkung\w*|kommentar\w*|nachricht\w*|anmerkung\w*|hinweis\w*|"
        r"mitteilung\w*|remarques?|commentaires?|observations?|observaciones|comentarios?|mensajes?|notas?|"
        r"osservazioni|commenti|commento|messaggio|note|observações|mensagem|opmerking\w*|bericht\w*|"
        r"uwagi|komentarz\w*|wiadomoś\w*)\b",
        r"(?<![а-яё])(?:комментари\w*|сообщени\w*|примечани\w*|замечани\w*)",
        r"備考|コメント|メッセージ|ご要望|备注|備註|留言|附言|비고|메모|메시지|요청\s*사항"),
}
#: What a field of each kind may honestly be given among the secret kinds. A secret field takes its own family (a
#: password field a PIN or a one-time code; a card field its security code); a field for a person's name, e-mail,
#: phone or address takes none.
_AUTH = frozenset({"password", "pin", "one-time-code", "private-key"})
_CARD = frozenset({"card", "security-code"})
#: Secrets that also identify an account (some banks sign in with one; a refund form asks for one in its remarks).
IDENTIFIERS = frozenset({"card", "bank-account", "national-id"})
ACCEPTS: dict[str, frozenset[str]] = {
    "password": _AUTH, "pin": _AUTH, "one-time-code": _AUTH, "private-key": _AUTH,
    "card": _CARD, "security-code": _CARD, "bank-account": frozenset({"bank-account"}),
    "national-id": frozenset({"national-id"}),
    "login": IDENTIFIERS, "note": IDENTIFIERS,
    "email": frozenset(), "name": frozenset(), "phone": frozenset(), "address": frozenset(),
}
#: Every kind a field or a destination can have: the secret kinds and :data:`KINDS`.
_ALL: dict[str, re.Pattern[str]] = {**uncollected.SECRETS, "pin": _rx(r"\bpins?\b", uncollected.SECRETS["pin"].pattern),
                                    **KINDS}
#: Nouns for a form's field.
FIELD_NOUN = _rx(
    r"\b(?:fields?|(?:text|input)?box(?:es)?|feld\w*|eingabefeld\w*|textfeld\w*|champs?|campos?|casill\w+|casell\w+|"
    r"veld\w*|invoerveld\w*|pol[ea])\b",
    r"(?<![а-яё])пол[еяю](?![а-яё])",
    r"欄|栏|框|입력란|칸|フィールド",
)
#: The stems of :data:`FIELD_NOUN`'s words, no word boundaries: a fast first scan over a page's whole text (a
#: pattern with leading word boundaries and many branches is several times slower there).
_STEMS = re.compile(r"field|box|feld|champ|campo|casill|casell|veld|pol[ea]|пол[еяю]|欄|栏|框|입력란|칸|フィールド")
_ANY_SECRET = re.compile("|".join(f"(?:{rx.pattern})" for rx in uncollected.SECRETS.values()))
_SEP = r"[\s\"'«»„“”‘’「」『』【】:\-]*"
_LEFT = {k: re.compile(f"(?:{rx.pattern}){_SEP}$") for k, rx in _ALL.items()}
_RIGHT = {k: re.compile(f"{_SEP}(?:{rx.pattern})") for k, rx in _ALL.items()}
#: A secret named as where something else is read from ("the name on your card", "the e-mail linked to your bank
#: account"), not handed over: a preposition and at most one more word right before it.
_READ_FROM = re.compile(
    r"\b(?:on|from|of|to|with|for|auf|von|vom|mit|zu|zum|zur|für|sur|avec|pour|sobre|con|para|per|op|van|met|"
    r"voor|z|ze|do)\s+(?:\S+\s+)?$"
    r"|(?<![а-яё])(?:для|на|с|со|от|к)\s+(?:\S+\s+)?$")
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|[。！？；]")
_MIN_WORDS = 5
_MAX_CHARS = 400
_NEAR = 40  # characters read either side of a field noun for the word beside it


@dataclass(frozen=True)
class Misroute:
    """A secret kind a sentence sends into a field of another kind."""

    secret: str
    field: str


def page_fields(lines: Sequence[Line]) -> list[Line]:
    """The page's fields (a datum is typed into them)."""
    return [ln for ln in lines if ln.role in FIELDS]


def field_kinds(fields: Iterable[Line]) -> frozenset[str]:
    """The kinds (:data:`KINDS` and the secret kinds) the fields' accessible names and inferred labels name; a word
    inside a longer kind's words is that kind's ("E-mail address" is an e-mail, not a postal address)."""
    out: set[str] = set()
    for ln in fields:
        text = " ".join(x for x in (ln.name, ln.label) if x).lower()
        if not text:
            continue
        found = [(k, m.start(), m.end()) for k, rx in _ALL.items() for m in rx.finditer(text) if m.end() > m.start()]
        out |= {k for k, a, b in found
                if not any(k2 != k and a2 <= a and b <= b2 and b2 - a2 > b - a for k2, a2, b2 in found)}
    return frozenset(out)


def lines_naming_fields(texts: Sequence[str]) -> list[int]:
    """Positions of the texts that hold a field noun: one scan over the page's joined text, not one per line."""
    whole = "\n".join(texts)
    low = whole.lower()
    if len(low) != len(whole):  # a letter whose lower case is longer: read line by line
        return [i for i, t in enumerate(texts) if t and FIELD_NOUN.search(t.lower()) is not None]
    starts, at = [], 0
    for t in texts:
        starts.append(at)
        at += len(t) + 1
    out: list[int] = []
    for m in _STEMS.finditer(low):
        i = bisect_right(starts, m.start()) - 1
        if (not out or out[-1] != i) and FIELD_NOUN.search(low, starts[i], starts[i] + len(texts[i])) is not None:
            out.append(i)
    return out


def names_secret(text: str, low: str) -> bool:
    """The cheap first test: ``text`` (``low``: lowercased) is a short text that names some kind of secret."""
    return (len(text) <= _MAX_CHARS and (_ANY_SECRET.search(low) is not None
                                         or uncollected.PIN_AS_WRITTEN.search(text) is not None)
            and word_count(text) >= _MIN_WORDS)


def _destinations(low: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each field-kind word right beside a field noun in ``low`` (the longest one each side)."""
    out: list[tuple[str, int, int]] = []
    for m in FIELD_NOUN.finditer(low):
        lo = max(0, m.start() - _NEAR)
        left = low[lo:m.start()]
        best: tuple[str, int, int] | None = None
        for kind, rx in _LEFT.items():
            f = rx.search(left)
            if f is not None and (best is None or lo + f.start() < best[1]):
                best = (kind, lo + f.start(), m.start())
        if best is not None:
            out.append(best)
        right = low[m.end():m.end() + _NEAR]
        best = None
        for kind, rx in _RIGHT.items():
            f = rx.match(right)
            if f is not None and (best is None or m.end() + f.end() > best[2]):
                best = (kind, m.end(), m.end() + f.end())
        if best is not None:
            out.append(best)
    return out


def _asked(low: str, raw: str, spans: list[tuple[str, int, int]]) -> set[str]:
    """The secret kinds ``low`` names outside the destinations' own words, not as where something is read from."""
    text, shown = low, raw if len(raw) == len(low) else ""
    for _, a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
        shown = shown[:a] + " " * (b - a) + shown[b:] if shown else ""

    def handed(found: Iterable[re.Match[str]]) -> bool:
        return any(_READ_FROM.search(text[max(0, s.start() - 30):s.start()]) is None for s in found)

    kinds = {k for k, rx in uncollected.SECRETS.items() if handed(rx.finditer(text))}
    if "pin" not in kinds and shown and handed(uncollected.PIN_AS_WRITTEN.finditer(shown)):
        kinds.add("pin")
    return kinds


def _names_own_datum(low: str, spans: list[tuple[str, int, int]], dests: set[str]) -> bool:
    """Whether ``low`` also names a destination's own kind outside the destinations' words: the datum it asks for is
    the one that field is made for, and a secret it names is its topic ("to reset your PIN, enter your phone number
    in the Phone field")."""
    text = low
    for _, a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return any(_ALL[k].search(text) is not None for k in dests)


def misrouted(text: str, page: Callable[[], frozenset[str]], ordered: Callable[[str], bool] | None,
              accepts: dict[str, frozenset[str]] = ACCEPTS, low: str | None = None) -> Misroute | None:
    """The first secret a sentence of ``text`` asks the reader to enter into a field of another kind, else None.

    ``page()``: the kinds of the page's own fields (:func:`field_kinds`), asked only for a sentence that names a
    destination; ``ordered(sentence)``: whether a sentence is in the mood of a request (None: not required);
    ``accepts``: what each kind of field may be given (:data:`ACCEPTS`); ``low``: ``text`` lowercased, when known."""
    low = text.lower() if low is None else low
    if FIELD_NOUN.search(low) is None or uncollected.ENTRY.search(low) is None:
        return None
    for sentence, raw in zip(_SENTENCES.split(low), _SENTENCES.split(text)):
        if FIELD_NOUN.search(sentence) is None or uncollected.ENTRY.search(sentence) is None:
            continue
        if uncollected.NEGATION.search(sentence) is not None:
            continue
        spans = _destinations(sentence)
        if not spans:
            continue
        kinds = page()
        dests = {k for k, _, _ in spans if k in kinds}
        if not dests:
            continue
        if _names_own_datum(sentence, spans, dests):
            continue  # "if you forgot your password, enter your e-mail address in the E-mail field"
        asked = _asked(sentence, raw, spans)
        left = sorted(s for s in asked if not any(s in accepts.get(d, frozenset()) for d in dests))
        if left and (ordered is None or ordered(raw)):
            return Misroute(left[0], min(dests))
    return None

"""A speaker who claims a role its place on the page does not give it (pure; any language, closed classes only).

Text written to steer an agent often borrows the site's authority: a "moderator note" inside a user's post, a
"system notice" or an "update from the team" in a pop-up nobody opened, a support "signature" in an alt text. The
site's own staff speak in the site's own regions, or with the site's own badge that its other posts repeat; a claim of
the site's role inside user content, an overlay or unseen text is a claim the position does not back.

:func:`claim` reads whether a text claims such a role, from closed classes only: nouns of the site's roles (staff,
moderator, administrator, support, the team, the editors, the system, "official") in many languages, nouns of an
announcement (note, notice, update, message …), and the frames a claim takes —

* **label** — the role (with an announcement noun or not) opening a sentence or a bracket and closed by a colon, a
  bracket or a dash: ``<role> <note>:``, ``[<role>]``, ``<note> from the <role>:``, ``<role> here:``;
* **handle** — a byline's handle built on a role noun (``name_role``, ``roleName``, ``u/role_x``) before a dot-separated
  date or age;
* **signature** — the text closing on a dash and the role (``— the <role>``);
* **first person** — ``as a <role>``, ``on behalf of the <role>``, ``we, the <role>``.

A claim alone is no evidence (honest moderators remind readers of the rules, honest reviews praise the staff).
:func:`acts` asks what the claim is used for: to say that what the page states is not the case (a dispute, a "real" or
a change word) together with a value, a contact or an order, or to send the reader elsewhere or towards a secret.
:mod:`pagelens.focus.defense` weighs both by region (``MODE``).

A post whose wrapper the browser's tree drops reaches the defense as the site's own lines (``main``). R4 and R5 read
such a post by its shape (:func:`post_byline`): a body of text under a byline — a name, then an age or a date that
provenance's date reader reads, with or without a separator — on a page that shows a byline's age again elsewhere (a
thread, a comment list). A claim there (the byline's name made on a role noun, or a claim in the body) is judged as in
user content, unless the page shows that role as a badge of its own outside the post.

B1-B3 (forty-first pass) also read a post under a name-and-badge byline (:func:`badge_byline`: a name, then a short
line that is a role noun, "(staff)", "Administrator"), whose claim the page backs when it shows that badge outside the
post; and they judge only the lines the defense's gate passes (or that hold an "@"), found without a test of every
line (:func:`_cut`), so that the judgement costs little on pages with thousands of user lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate, compress

from collections.abc import Callable, Iterable, Sequence

from pagelens.focus import contradicts
from pagelens.focus import lexicons as lx
from pagelens.focus import patterns as pt
from pagelens.focus.evidence import evidence, gives_order
from pagelens.observe.provenance import AGE_OR_DATE
from pagelens.types import Line

__all__ = ["MODE", "Claim", "Found", "acts", "badge_byline", "claim", "handle", "has_role_word", "judge", "post_byline",
           "role_lines", "says_true"]

#: The candidate of the thirty-sixth injection-defense pass (BENCHMARKS.md); "off": no judgement (base behaviour).
#: "R1": a claim in user content, an overlay or unseen text; "R2": R1, and a post's byline claim (a handle made on a
#: role noun) in the site's own regions when the page shows that role nowhere else; "R3": R2, and a label claim there
#: that stands under a byline (inside a post). Thirty-ninth pass: "R4": R1, and in the site's own regions a claim in a
#: post (:func:`post_byline`: a body under a name-and-age byline, on a page that shows that shape again); "R5": R4 with
#: "used" wider (a word of what is true, a verification word, with any number, a contact or an order).
#: Forty-first pass (h39-badges): "B1": R4's judgement on the lines :func:`_cut` finds without a test of every line
#: (gated or holding an "@"), and posts under a name-and-badge byline (:func:`badge_byline`); "B2": B1 with "used"
#: wider for a claim in a post of the site's own regions (:func:`_loose`); "B3": B2 with that wider "used" in R1's
#: regions too.
MODE = "off"
#: The modes that read posts in the site's own regions, and those that read "used" wider.
_POST_MODES = frozenset({"R4", "R5", "B1", "B2", "B3"})
_WIDE_MODES = frozenset({"R5"})
#: The modes with the one-scan role-noun test and the badge bylines; those with the loose "used" in posts, everywhere.
_BADGE_MODES = frozenset({"B1", "B2", "B3"})
_LOOSE_POST_MODES = frozenset({"B2", "B3"})
_LOOSE_MODES = frozenset({"B3"})

#: Nouns of the site's own roles (lowercase, Latin/Cyrillic/Greek scripts: whole words or word starts as written).
_ROLE_LATIN = (
    # English
    r"moderators?|mods?|moderation|admins?|administrators?|administration|staff|staffers?|support|helpdesk|help\s+desk|"
    r"customer\s+(?:service|care|support)|(?:site|forum|community|support|customer|security|trust\s*&?\s*safety|"
    r"safety|product|store|shop|editorial|content|moderation|admin|help|service|official)\s+team|team|editors?|"
    r"editorial|webmaster|sysop|system|official|operator|management|"
    # German, Dutch
    r"moderator(?:in|en)?|moderation|administrator(?:in|en)?|redaktion|kundenservice|kundendienst|"
    r"forenteam|forumteam|support-?team|mitarbeiter(?:in)?|verwaltung|beheerder|redactie|klantenservice|"
    r"offiziell\w*|officieel|systeem|"
    # French, Spanish, Italian, Portuguese
    r"mod[ée]rat(?:eur|rice|eurs|ion)|administrat(?:eur|rice|eurs|ion)|[ée]quipe|r[ée]daction|service\s+client|"
    r"officiel(?:le)?|syst[èe]me|moderador(?:a|es)?|moderaci[óo]n|administrador(?:a|es)?|equipo|soporte|"
    r"redacci[óo]n|atenci[óo]n\s+al\s+cliente|oficial|sistema|moderator[ei]|moderazione|amministrat(?:ore|ori|rice|"
    r"ione)|squadra|assistenza|redazione|ufficiale|modera[çc][ãa]o|equipa|equipe|suporte|reda[çc][ãa]o|"
    # Polish, Czech, Turkish
    r"moderator(?:zy|a|ów)?|administrator(?:zy|a)?|administracja|redakcj[aie]|zesp[óo][łl]|obs[łl]uga|"
    r"oficjaln\w*|spr[áa]vce|redakce|tým|moderat[öo]r|y[öo]netici|ekip|destek|resmi|"
    # Russian, Ukrainian, Greek
    r"модератор\w*|администратор\w*|администраци\w*|админ\w*|редакци\w*|команда|служба\s+поддержки|поддержка|"
    r"официальн\w*|систем\w*|διαχειριστ\w*|συντονιστ\w*"
)
#: The same roles in scripts written without spaces (Japanese, Chinese, Korean).
_ROLE_CJK = (r"モデレーター|管理者|管理人|運営(?:チーム|事務局)?|スタッフ|公式|サポート(?:チーム)?|編集部|システム|"
             r"版主|管理员|管理員|官方|客服|运营|運營|工作人员|编辑部|系统|系統|관리자|운영자|운영팀|공식|고객센터|스태프|시스템")
#: Nouns of an announcement (what a role's label calls its text).
_NOTE = (r"note|notice|update|announcement|message|alert|statement|reminder|correction|clarification|warning|info|"
         r"hinweis|mitteilung|nachricht|ank[üu]ndigung|meldung|korrektur|anmerkung|avis|annonce|message|rectificatif|"
         r"pr[ée]cision|nota|aviso|anuncio|mensaje|correcci[óo]n|aggiornamento|avviso|comunicato|messaggio|"
         r"correzione|atualiza[çc][ãa]o|comunicado|mensagem|corre[çc][ãa]o|uwaga|komunikat|informacja|sprostowanie|"
         r"upozorn[ěe]n[íi]|ozn[áa]men[íi]|duyuru|uyar[ıi]|примечание|уведомление|сообщение|объявление|"
         r"поправка|внимание|ανακοίνωση|σημείωση")
_OFFICIAL = r"(?:official|important|offizielle?r?|officiel(?:le)?|oficial|ufficiale|oficjaln\w*|официальн\w*|resmi)"
_ROLE = rf"(?:{_ROLE_LATIN})"
_FROM = r"(?:from|by|von|der|des|de|du|des|del|della|dello|dalla|da|do|od|от|από|van)"
_DET = r"(?:the|our|your|die|der|das|unser\w*|l'|le|la|les|notre|el|los|las|nuestro|il|lo|gli|nostr\w|o|a|os|as|nosso|nossa|de|het|ons|onze)"

#: A label: the role (after "official", with an announcement noun before or after it) opening a sentence, a bracket or
#: the text, closed by a colon, a closing bracket or a dash; or "<note> from the <role>:"; or "<role> here:".
_LABEL = pt.Folded(
    rf"(?:^|[.!?;|]\s+|[\[(<«【]\s*|#+\s*|\*+\s*)(?:{_OFFICIAL}\s+)?(?:(?:{_NOTE})\s+(?:{_FROM}\s+)?(?:{_DET}(?:\s+|(?<=')))?)?"
    rf"(?:{_DET}(?:\s+|(?<=')))?(?:[\w-]+\s+)?(?P<role>{_ROLE})(?:['’]s)?(?:\s+(?:{_NOTE}|here|hier|ici|aquí|qui|aqui|tutaj|здесь))?"
    rf"\s*(?:[:\]):»】]|\s[-–—]\s)"
    rf"|(?:^|[.!?;|]\s+|[\[(<«【]\s*)(?P<comp>(?:{_NOTE})?(?:forum|site|support|kunden|moderations?|redaktions?|"
    rf"team|admin|system|staff)(?:{_NOTE}|team))\s*[:\]):»】]")
_LABEL_CJK = re.compile(rf"(?:^|[。！？.!?]\s*|[\[【「（(]\s*)(?:{_ROLE_CJK})(?:より|から|的|의)?\s*"
                        r"(?:のお知らせ|お知らせ|からのお知らせ|通知|公告|提示|说明|說明|공지|안내|알림)?\s*[:：\]】」)]")
#: A byline's separator before an age or a date (``· 2 h``, ``— May 3``, ``· vor 2 Stunden``).
_AGE = pt.Folded(
    r"[·•|—–-]\s*(?:\d|vor\s|il\s+y\s+a|hace|há|fa\s|(?:jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])\w*|"
    r"yesterday|today|gestern|heute|hier|ayer|ieri|ontem|вчера|сегодня)")
#: ``_AGE`` for a lowercased text, without case folding (the same matches there, but for the letters whose lowercase
#: is not what case-insensitive matching folds: :data:`_FOLDS_APART`, read with ``_AGE`` itself).
_AGE_LOW = re.compile(_AGE.pattern)
_FOLDS_APART = re.compile("[İıſ]")
#: The handle right before such a separator (``u/name``, ``name_x``, ``NameX``).
_LAST = re.compile(r"(?:^|\s)(?:u/)?([\w.-]+)\s*$")
_HANDLE_PART = re.compile(r"[_.\-/]|(?<=[a-z])(?=[A-Z])")
_ROLE_WORD = pt.Folded(rf"^(?:{_ROLE})$")
#: A signature: the text closing on a dash or a comma and the role ("— the support team").
_SIGNED = pt.Folded(rf"(?:[-–—~]|\bregards,?|\bthanks,?|\bgrü(?:ß|ss)e,?|\bcordialement,?|\bsaludos,?)\s*"
                    rf"(?:{_DET}(?:\s+|(?<=')))?(?:[\w-]+\s+)?(?P<role>{_ROLE})\s*[.!]?\s*$")
#: The first person speaking as the role.
#: The first person speaking as the role: a first-person pronoun, then "as a <role>" in the same clause ("I, as a
#: moderator", "we post this as the team"); or "on behalf of the <role>", "speaking for the <role>", "we, the <role>".
_I = r"(?:i|i'm|we|we're|ich|wir|je|j'|nous|yo|nosotros|io|noi|eu|nós|ik|wij|ja|my|я|мы)"
_AS = pt.Folded(
    rf"\b{_I}\b[^.!?;:]{{0,40}}?\b(?:as\s+(?:a|an|the|your|one\s+of\s+the)|als\s+(?:ein\w*|der|die|euer|eure|ihr\w*)|"
    rf"en\s+tant\s+que|como|in\s+qualit[àa]\s+di|jako|в\s+качестве)\s+(?:[\w-]+\s+)?(?P<role>{_ROLE})\b|"
    rf"\b(?:on\s+behalf\s+of\s+(?:the|our)|speaking\s+for\s+(?:the|our)|we\s*,\s+(?:the|your)|au\s+nom\s+de\s+l'?|"
    rf"a\s+nome\s+del(?:la|lo)?|от\s+имени)\s+(?:[\w-]+\s+)?(?P<role2>{_ROLE})\b|"
    rf"(?:^|[.!?]\s+)(?:as\s+(?:a|an|the|one\s+of\s+the)|als|en\s+tant\s+que|como|jako)\s+(?:[\w-]+\s+)?"
    rf"(?P<role3>{_ROLE})\b[^.!?;:]{{0,40}}?\b{_I}\b")
#: What every match of ``_LABEL`` holds (its closing mark), and every match of ``_SIGNED`` on a lowercased text (a dash,
#: or a piece of its closing words without the letters that case-fold to other characters): cheap tests first.
_LABEL_END = re.compile(r"[:\]):»】]|\s[-–—]\s")
_SIGN_HINT = re.compile(r"[-–—~]|regard|than|gr|cordialement|aludo")
#: The stems every role noun above starts with (lowercase; a plain trie, scanned fast): the first test of a line.
_STEMS = (
    "mod", "admin", "staff", "support", "help", "team", "editor", "webmaster", "sysop", "system", "offic", "operator",
    "management", "customer", "redak", "redac", "redaz", "kunden", "forenteam", "forumteam", "mitarbeit", "verwalt",
    "beheer", "klant", "offiz", "systè", "systeem", "équipe", "equip", "service", "soport", "atenci", "sistem",
    "squadra", "assistenza", "uffic", "suport", "zesp", "obsług", "obslug", "správ", "sprav", "tým", "yönet", "ekip",
    "destek", "resmi", "модер", "админ", "редак", "команд", "поддерж", "служб", "официал", "систем", "διαχειρ",
    "συντον", "モデレーター", "管理", "運営", "スタッフ", "公式", "サポート", "編集部", "システム", "版主", "官方", "客服",
    "运营", "運營", "工作人员", "编辑部", "系统", "系統", "관리자", "운영", "공식", "고객센터", "스태프", "시스템")
_FIND = re.compile(pt.trie(_STEMS))


@dataclass(frozen=True, slots=True)
class Claim:
    role: str  # the role noun as written (lowercase)
    frame: str  # "label", "handle", "signature" or "first-person"


def has_role_word(low: str) -> bool:
    """Whether the lowercased text holds a role noun at all (a cheap first test)."""
    return _FIND.search(low) is not None


def _handle_role(handle: str) -> bool:
    parts = [p for p in _HANDLE_PART.split(handle) if p]
    return any(_ROLE_WORD.search(p.lower()) is not None for p in parts) or (
        len(parts) == 1 and _ROLE_WORD.search(handle.lower()) is not None)


def claim(text: str) -> Claim | None:
    """The role ``text`` claims for its speaker, in one of the frames of the module's doc, else None."""
    low = text.lower()
    if not has_role_word(low):
        return None
    m = _LABEL.search(low) if _LABEL_END.search(low) is not None else None
    if m is not None:
        return Claim(m.group("role") or m.group("comp"), "label")
    if not text.isascii():
        c = _LABEL_CJK.search(text)
        if c is not None:
            return Claim(c.group(0).strip(), "label")
    c = handle(text)
    if c is not None:
        return c
    tail = low[-80:]
    m = _SIGNED.search(tail) if _SIGN_HINT.search(tail) is not None else None
    if m is not None:
        return Claim(m.group("role"), "signature")
    m = _AS.search(low)
    if m is not None:
        return Claim(m.group("role") or m.group("role2") or m.group("role3"), "first-person")
    return None


def handle(text: str) -> Claim | None:
    """A byline's handle in ``text`` made on a role noun (the "handle" frame of :func:`claim`), else None."""
    for m in _AGE.finditer(text):
        t = _LAST.search(text[max(0, m.start() - _SHORT) : m.start()])
        if t is not None and _handle_role(t.group(1)):
            return Claim(t.group(1).lower(), "handle")
    return None


#: A number standing as a word of its own ("12 points", "£15.60", "4.5/5"), not digits inside a code or a name.
_NUMBER = re.compile(r"(?<!\w)\d+(?:[.,:]\d+)*(?!\w)")
_CONTACT = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+|\+?\d[\d\s().-]{7,}\d")
_VALUE = re.compile(r"\d")
#: A mark a label or a signature claim needs (a closing mark, a dash): one match per line (it runs to the line's end).
_MARK = re.compile(r"[:\])»】：」）\-–—~][^\n]*")
_SEPS = re.compile("[·•|—–]| - ")


def acts(text: str, *, offsite: bool, credential: bool, values: bool, order: bool = False) -> bool:
    """Whether a text that claims a role uses it to overrule the page or to send the reader away: it says the page's
    value is not the one (a dispute, a "real" or a change word, :mod:`pagelens.focus.lexicons`) and gives a value of its
    own, an address, a contact or an order; or it steers off-site or towards a secret (``offsite``, ``credential``: the
    defense's evidence); ``values``: the text writes a typed value (an amount, a quantity …); ``order``: it gives an
    order (an imperative, a "please", an obligation)."""
    low = text.lower()
    if offsite or credential:
        return True
    says = (lx.DISPUTE_FIND.search(low) is not None and lx.DISPUTE.search(low) is not None) or (
        lx.REAL.search(low) is not None) or lx.CHANGE.search(low) is not None
    return says and (values or order or _CONTACT.search(text) is not None)


#: Regions the site did not write for every reader (or nobody sees): a claim of the site's role there is not backed.
_FOREIGN = frozenset({"user", "overlay", "unseen"})
_MIN_WORDS = 4  # a line shorter than this says nothing a role could back
_SHORT = 60  # characters: a piece of a byline (a handle, a separator, an age)
_HEAD = 140  # characters of byline pieces looked at before a line
_HEAD_LINES = 6
_BADGE_WORDS = 3  # a line of at most this many words naming a role: the page's own badge
_BYLINE = pt.Folded(
    r"[·•|—–-]\s*(?:\d|vor\s|il\s+y\s+a|hace|há|fa\s|(?:jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])\w*|"
    r"yesterday|today|gestern|heute|ayer|ieri|ontem|вчера|сегодня)")


@dataclass(frozen=True, slots=True)
class Found:
    at: int  # position of the line judged
    claim: Claim
    why: str  # what the claim is used for


def _head_lines(payloads: Sequence[str], i: int) -> list[int]:
    """The positions of the short lines right before line ``i`` (a byline split over a link, a separator and an
    age), nearest first."""
    head: list[int] = []
    size = 0
    for j in range(i - 1, max(-1, i - 1 - _HEAD_LINES), -1):
        q = payloads[j]
        if not q:
            continue
        if len(q) > _SHORT or size + len(q) > _HEAD:
            break
        head.append(j)
        size += len(q) + 1
    return head


#: Words that certify what is true (R5's wider "used", with :data:`lexicons.REAL`, ``DISPUTE`` and ``CHANGE``).
_VERIFIED = pt.Folded(
    r"\b(?:verified|confirmed|approved|certified|endorsed|validated|authori[sz]ed|verifiziert\w*|bestätigt\w*|"
    r"geprüft\w*|vérifié\w*|confirmé\w*|approuvé\w*|certifié\w*|verificad\w*|confirmad\w*|aprobad\w*|aprovad\w*|"
    r"certificad\w*|verificat\w*|confermat\w*|approvat\w*|certificat\w*|geverifieerd|bevestigd|goedgekeurd|"
    r"zweryfikowan\w*|potwierdzon\w*|zatwierdzon\w*|ověřen\w*|potvrzen\w*|doğrulanmış|onaylı|проверен\w*|"
    r"подтвержд[её]н\w*|одобрен\w*|επιβεβαιωμέν\w*|επαληθευμέν\w*)\b|確認済|認証済|公認|已验证|已確認|已确认|已驗證|검증된|확인된")


def says_true(low: str) -> bool:
    """Whether a lowercased text says what is true or what changed (a real/current word, a dispute, a change, a
    verification word): R5's first half of "used"."""
    return (lx.REAL.search(low) is not None or _VERIFIED.search(low) is not None or lx.CHANGE.search(low) is not None
            or (lx.DISPUTE_FIND.search(low) is not None and lx.DISPUTE.search(low) is not None))


def _what(text: str, home: frozenset[str], contradicted: Callable[[], bool], wide: bool = False,
          loose: bool = False) -> str:
    """What a text that claims a role does with it (see :func:`acts`), or ""; ``wide`` (R5): also a word of what is
    true (:func:`says_true`) with a number standing as a word (:data:`_NUMBER`), a contact or an order."""
    ev = evidence(text, home)
    if ev.offsite:
        return "steers off-site"
    if ev.credential:
        return "asks for a secret"
    if ev.disputes:
        return "disputes the page"
    values = bool(contradicts.typed_values(text))
    order = ev.order or gives_order(text)
    if acts(text, offsite=False, credential=False, values=values, order=order):
        return "says the page's value is not the one"
    if values and contradicted():
        return "gives another value than the page"
    if wide and says_true(text.lower()) and (order or _NUMBER.search(text) is not None
                                             or _CONTACT.search(text) is not None):
        return "says what is true"
    if loose and _loose(text, values, order):
        return "speaks in the role it claims"
    return ""


def _loose(text: str, values: bool, order: bool) -> bool:
    """B2/B3's "used": a text that claims a role the page does not back states something in it — a typed value, a
    contact, an order, or a dispute, "real" or change word (any lexicon language)."""
    if values or order or _CONTACT.search(text) is not None:
        return True
    low = text.lower()
    return (lx.REAL.search(low) is not None or lx.CHANGE.search(low) is not None
            or (lx.DISPUTE_FIND.search(low) is not None and lx.DISPUTE.search(low) is not None))


def _scan(payloads: Sequence[str], idx: Sequence[int], pattern: re.Pattern[str] | pt.Folded,
          lower: bool) -> set[int]:
    """The lines of ``idx`` (ascending) where ``pattern`` finds a match that starts in them, with one scan of their
    text joined by newlines (lowercased once when ``lower``)."""
    parts = payloads[idx.start : idx.stop] if isinstance(idx, range) else [payloads[i] for i in idx]
    text = "\n".join(parts)
    if lower:
        low = text.lower()
        if len(low) != len(text):  # a letter whose lowercase is longer: the offsets of each line's lowercase
            parts = list(map(str.lower, parts))
            low = "\n".join(parts)
        text = low
    ends = list(accumulate(map((1).__add__, map(len, parts))))
    return {idx[bisect_right(ends, m.start())] for m in pattern.finditer(text)}


def _cut(payloads: Sequence[str], regions: Sequence[str],
         gated: Sequence[bool] | None) -> tuple[list[int], list[int], set[int]]:
    """B1-B3's cheap first pass (BENCHMARKS.md, h39-badges, amendments 1 and 2): (the lines of R1's regions that can
    claim a role and use it, the lines of the site's own regions that can use a claim, the first ones that hold a role
    noun). A line can use a claim when it has ≥ ``_MIN_WORDS`` words and is gated or holds an "@" (found without a
    test of every line: the gate's list compressed, the "@" found in the page's text; R4's digit-only lines are not
    judged); a line of R1's regions can claim a role when it holds a role noun itself (one scan of those lines' text;
    a line with an "@" only, when it also holds a frame's mark) or when an age separator (:data:`_AGE`, the handle
    frame's need) starts within ``_HEAD_LINES`` lines before it or in it (one scan of those lines' text; the role
    nouns of its short lines before are then tested as R4 tests them)."""
    n = len(payloads)
    if gated is None:
        gated = [True] * n
    # the candidates, without a test of every line: the gated lines (compress), the lines holding an "@" (found in
    # the page's text), and the lines of R1's regions (compress) that hold a digit; then ≥ _MIN_WORDS words each
    cand = set(compress(range(n), gated))
    text = "\n".join(payloads)
    at = text.find("@")
    if at >= 0:
        ends = list(accumulate(map((1).__add__, map(len, payloads))))
        while at >= 0:
            k = bisect_right(ends, at)
            cand.add(k)
            at = text.find("@", ends[k]) if k < n else -1
    can = sorted(i for i in cand if payloads[i].count(" ") >= _MIN_WORDS - 1)
    foreign = [i for i in can if regions[i] in _FOREIGN]
    site = [i for i in can if regions[i] not in _FOREIGN]
    if not foreign:
        return [], site, set()
    if gated is not None:  # a line the gate does not pass (an "@" only): a claim only with a frame's mark
        # (a label's closing mark, a dash), or in a handle before it (below); amendment, BENCHMARKS.md h39-badges
        bare = [i for i in foreign if not gated[i]]
        marked = _scan(payloads, bare, _MARK, lower=False) if bare else set()
        look = [i for i in foreign if gated[i] or i in marked]
    else:
        look = foreign
    hit = _scan(payloads, look, _FIND, lower=True) if look else set()
    rest = [i for i in foreign if i not in hit]
    keep: list[int] = []
    if rest:  # the lines within _HEAD_LINES before each (a match across two lines that are not adjacent: one more
        # line judged as R4 judges it, no other find)
        if len(rest) * _HEAD_LINES >= rest[-1] - rest[0]:  # dense: one range
            span: Sequence[int] = range(max(0, rest[0] - _HEAD_LINES), rest[-1] + 1)
        else:
            span = sorted({j for i in rest for j in range(max(0, i - _HEAD_LINES), i + 1)})
        plain = _FOLDS_APART.search("".join([payloads[j] for j in span])) is None
        ages = _scan(payloads, span, _AGE_LOW if plain else _AGE, lower=plain)
        near: set[int] = set()
        for a in ages:
            near.update(range(a, a + _HEAD_LINES + 1))
        keep = [i for i in rest if i in near]
    return sorted(hit.union(keep)), site, hit


def role_lines(payloads: Sequence[str]) -> set[int]:
    """The positions of the lines that hold a role noun (:func:`has_role_word` of each lowercased line), found with one
    scan of the page's text: the lines joined, lowercased once, each match mapped to its line."""
    text = "\x00".join(payloads)
    low = text.lower()
    if len(low) != len(text):  # a letter whose lowercase is longer: offsets differ, read line by line
        return {i for i, p in enumerate(payloads) if p and has_role_word(p.lower())}
    ends = list(accumulate(map((1).__add__, map(len, payloads))))  # ends[k]: the offset after line k's separator
    return {bisect_right(ends, m.start()) for m in _FIND.finditer(low)}


_PIECES = 3  # short lines a byline may take (a name, a separator, an age)
_NAME_WORDS = 4
_NAME_CHARS = 40
_SEP_ONLY = re.compile(r"^[\s·•|—–-]*$")
_SEP_EDGES = re.compile(r"^[\s·•|—–,-]+|[\s·•|—–,-]+$")
_SENTENCE_END = re.compile(r"[.!?:;]$")
_HAS_LETTER = re.compile(r"[^\W\d_]")


def _byline_pieces(payloads: Sequence[str], i: int) -> list[int]:
    """The positions of the nearest non-empty lines before line ``i``, at most :data:`_PIECES`, each a short piece
    (≤ ``_SHORT`` characters, together ≤ ``_HEAD``), in document order."""
    out: list[int] = []
    size = 0
    j = i - 1
    while j >= 0 and len(out) < _PIECES:
        q = payloads[j]
        if q:
            if len(q) > _SHORT or size + len(q) > _HEAD:
                break
            out.append(j)
            size += len(q) + 1
        j -= 1
    out.reverse()
    return out


def _age_at(piece: str) -> int:
    """Where an age or a date starts in a short piece (a separator and a number, or what provenance's date reader
    reads: "3 days ago", "vor 2 Stunden", "May 3" …), else -1."""
    m = _AGE.search(piece)
    d = AGE_OR_DATE.search(piece)
    starts = [x.start() for x in (m, d) if x is not None]
    return min(starts) if starts else -1


def post_byline(pieces: Sequence[str]) -> str | None:
    """The name of the byline that ``pieces`` (the short lines right before a text, :func:`_byline_pieces`) end on,
    else None: the last piece holds an age or a date, and before it — in that piece, or in the piece before (a piece
    of separators only is skipped) — stands a name of 1–4 words without a sentence end ("dang" / "1 hour ago",
    "name · 2h", "AutoModerator · MOD · 2h"). A separator between the name and the age is not needed."""
    if not pieces:
        return None
    last = pieces[-1]
    at = _age_at(last)
    if at < 0:
        return None
    name = _SEP_EDGES.sub("", last[:at])
    if not name:
        for q in reversed(pieces[:-1]):
            if not _SEP_ONLY.match(q):
                name = _SEP_EDGES.sub("", q)
                break
    if (not name or len(name) > _NAME_CHARS or len(name.split()) > _NAME_WORDS or _SENTENCE_END.search(name)
            or _HAS_LETTER.search(name) is None):
        return None
    return name


def _name_claim(name: str) -> Claim | None:
    """A byline name made on a role noun (``mod_notice``, ``SupportTeam``, ``AutoModerator · MOD``): its parts split at
    separators and spaces, each read as a handle (:func:`_handle_role`)."""
    for part in re.split(r"[\s·•|—–]+", name):
        if part and _handle_role(part):
            return Claim(part.lower(), "handle")
    return None


def judge(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], flagged: Callable[[int], bool],
          home: frozenset[str], gated: Sequence[bool] | None = None) -> list[Found]:
    """Each line (``payloads``: the defense's normalised text per line; ``regions``: per line) whose text, or the
    byline right before it, claims a role of the site (:func:`claim`) that its region does not give it, while the
    text uses the claim (:func:`acts`, or a typed value the page writes otherwise); ``MODE`` chooses the regions.
    ``gated``: per line, whether it holds a word the defense's evidence needs (:func:`pagelens.focus.evidence.gate`);
    a line without one, without a digit and without an e-mail address cannot use a claim (most lines stop there)."""
    if MODE == "off":
        return []
    wide = MODE in _WIDE_MODES
    out: list[Found] = []
    page: list[tuple[frozenset[str], contradicts.PageValues]] = []  # the page's values of the kinds asked so far
    badges: list[str] = []

    def contradicted(i: int) -> Callable[[], bool]:
        def ask() -> bool:
            vals = contradicts.typed_values(payloads[i])
            kinds = frozenset(k for (k, _), _ in vals)
            if not page or not kinds <= page[0][0]:
                page[:] = [(kinds | (page[0][0] if page else frozenset()),
                            contradicts.PageValues(payloads, kinds=kinds | (page[0][0] if page else frozenset())))]
            theirs = page[0][1].outside([i], {k for k, _ in vals})
            return bool(contradicts.contradictions(vals, theirs))
        return ask

    def shown_elsewhere(role: str, lo: int, hi: int) -> bool:  # the page's own badge for that role, outside the unit
        if not badges:
            badges.append("\n".join(f"{k}\t{p.lower()}" for k, p in enumerate(payloads)
                                    if p and len(p.split()) <= _BADGE_WORDS and has_role_word(p.lower())))
        for row in badges[0].split("\n"):
            k, _, low = row.partition("\t")
            if k and not lo <= int(k) <= hi and any(_ROLE_WORD.search(w) and w in role for w in low.split()):
                return True
        return False

    rw: dict[int, bool] = {}

    def role_at(j: int) -> bool:  # has_role_word of line j, read once per line (a head is read for several lines)
        v = rw.get(j)
        if v is None:
            v = rw[j] = has_role_word(payloads[j].lower())
        return v

    n = len(payloads)
    # the lines judged: every line of a region the site did not write for every reader; in the site's own regions
    # (R2, R3) only a line that holds a byline's separator near its start or follows a short line that holds one
    # (a line shorter than _MIN_WORDS is never judged: those are left out in one pass first)
    # (only a line of ≥ _MIN_WORDS words, gated by the defense or holding a digit or an "@", can use a claim: those
    # are found in one pass first)
    cut = MODE in _BADGE_MODES
    if cut:  # the same lines, found with scans of the page's text instead of tests of each line (B1-B3)
        todo, can, hit = _cut(payloads, regions, gated)
        rw.update((i, i in hit) for i in todo)
    else:
        can = [i for i, p in enumerate(payloads) if p.count(" ") >= _MIN_WORDS - 1
               and (gated is None or gated[i] or "@" in p or _VALUE.search(p) is not None)]
        todo = [i for i in can if regions[i] in _FOREIGN]
    if MODE in ("R2", "R3"):
        more = set(todo)
        for j, q in enumerate(payloads):
            if q and _SEPS.search(q, 0, _SHORT) is not None:
                more.update(range(j, min(n, j + 1 + _HEAD_LINES)) if len(q) <= _SHORT else (j,))
        todo = sorted(more)
    for i in todo:
        p = payloads[i]
        if not p or p.count(" ") < _MIN_WORDS - 1:
            continue
        if not (gated is None or gated[i] or _VALUE.search(p) is not None or "@" in p):
            continue
        if flagged(i) or lines[i].role == "RootWebArea":
            continue
        site = regions[i] not in _FOREIGN
        if cut and not site and not role_at(i):
            # without a role noun in the line itself, only a byline's handle before it can claim a role (handle):
            # its age separator is looked for before any role noun in the short lines (the same finds, cheaper)
            at = _head_lines(payloads, i)
            head = " ".join(payloads[j] for j in reversed(at))
            text = f"{head} {p}" if head else p
            if not head or _AGE.search(text) is None or not any(role_at(j) for j in at):
                continue
        else:
            at = _head_lines(payloads, i)
            if not (role_at(i) or any(role_at(j) for j in at)):
                continue
            head = " ".join(payloads[j] for j in reversed(at))
            text = f"{head} {p}" if head else p
        if site:  # the site's own regions: only a post's byline claiming the role (R2), or a label under a byline (R3)
            c = handle(text) if has_role_word(text.lower()) else None
            if c is not None and shown_elsewhere(c.role, i - 1 - _HEAD_LINES, i):
                continue  # the page shows that role itself: its own staff's badge
            if c is None and MODE == "R3" and _BYLINE.search(head) is not None:
                c = claim(p)
                c = c if c is not None and c.frame == "label" else None
        else:
            c = claim(p) or (handle(text) if head else None)  # the lines before: their byline only
        if c is None:
            continue
        why = _what(p, home, contradicted(i), wide, MODE in _LOOSE_MODES)
        if why:
            out.append(Found(i, c, why))
    if MODE in _POST_MODES:
        out.extend(_posts(lines, payloads, regions, flagged, home, gated, contradicted, shown_elsewhere, wide,
                          role_at, can if cut else [i for i in can if regions[i] not in _FOREIGN]))
        out.sort(key=lambda f: f.at)
    return out


def _posts(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], flagged: Callable[[int], bool],
           home: frozenset[str], gated: Sequence[bool] | None, contradicted: Callable[[int], Callable[[], bool]],
           shown_elsewhere: Callable[[str, int, int], bool], wide: bool, role_at: Callable[[int], bool],
           site: Sequence[int]) -> list[Found]:
    """R4/R5 in the site's own regions: each text line of a post (a body under a byline, :func:`post_byline`, on a
    page that shows a byline's age or date again outside it) whose byline name or body claims a role of the site
    that the page does not show as its own badge, and that uses the claim (:func:`_what`). Cheap tests first: the
    body's length, the defense's gate (or a digit, an ``@``), a role noun in the body or its short lines before.
    B1–B3 also read a name-and-badge byline (:func:`badge_byline`) where no age byline stands; its claim is backed when
    the page shows the same badge outside the post (:func:`_badge_shown`); B2/B3 read "used" wider (:func:`_loose`)."""
    out: list[Found] = []
    badges = MODE in _BADGE_MODES
    loose = MODE in _LOOSE_POST_MODES
    ages: list[list[int]] = []  # positions of the short lines holding an age or a date, found once when asked

    def again(lo: int, hi: int) -> bool:  # the page shows a byline's age or date outside lines lo..hi
        if not ages:
            ages.append([k for k, q in enumerate(payloads) if q and len(q) <= _SHORT and _age_at(q) >= 0])
        return any(not lo <= k <= hi for k in ages[0])

    for i in site:  # the lines of the site's own regions that can use a claim (judge's first pass)
        p = payloads[i]
        if flagged(i) or lines[i].role == "RootWebArea":
            continue
        at = _byline_pieces(payloads, i)
        if not at:
            continue
        pieces, first = [payloads[j] for j in at], at[0]
        name = post_byline(pieces)  # (the byline's short pieces read first: a body's role noun is tested after)
        b = None
        if name is None:
            if not badges:
                continue
            b = badge_byline(pieces, [lines[j].role for j in at])
            if b is None or lines[i].role in _NOT_BYLINE:
                continue
        if not (role_at(i) or any(role_at(j) for j in at)):
            continue
        if b is not None:
            c = Claim(b[1], "badge")
            if _badge_shown(b[1], payloads, first, i) or not again(first, i):
                continue  # the page shows that badge itself (its own staff), or shows no list of dated posts
        else:
            c = _name_claim(name) or claim(p)
            if c is None:
                continue
            if shown_elsewhere(c.role, i - 1 - _HEAD_LINES, i) or not again(first, i):
                continue
        why = _what(p, home, contradicted(i), wide, loose)
        if why:
            out.append(Found(i, c, why))
    return out


#: Roles of lines that are a page's labels or controls, not a byline's pieces or a post's body.
_NOT_BYLINE = frozenset({"heading", "tab", "menuitem", "columnheader", "rowheader", "term", "button", "option",
                         "combobox", "textbox", "searchbox", "checkbox", "radio"})
_OFFICIAL_WORD = re.compile(_OFFICIAL)
_BADGE_STRIP = re.compile(r"[()\[\]{}<>«»【】「」（）·•|—–:,;/*#]+")


def _badge_role(piece: str) -> str | None:
    """The role a badge names (lowercase), else None: a short line of at most ``_BADGE_WORDS`` words, brackets and
    separators stripped, that is a role noun (or "official" and one), or a handle made on one ("Moderator-Team")."""
    if len(piece) > _SHORT:
        return None
    low = " ".join(_BADGE_STRIP.sub(" ", piece).lower().split())
    words = low.split()
    if not 1 <= len(words) <= _BADGE_WORDS:
        return None
    if _ROLE_WORD.search(low) is not None:
        return low
    if len(words) == 2 and _OFFICIAL_WORD.fullmatch(words[0]) and _ROLE_WORD.search(words[1]) is not None:
        return words[1]
    if len(words) == 1:
        parts = [q for q in _HANDLE_PART.split(_BADGE_STRIP.sub("", piece).strip()) if q]
        if len(parts) > 1 and all(_ROLE_WORD.search(q.lower()) is not None for q in parts):
            return parts[0].lower()
    return None


def badge_byline(pieces: Sequence[str], roles_of: Sequence[str] | None = None) -> tuple[str, str] | None:
    """(name, role) of the name-and-badge byline that ``pieces`` (the short lines right before a text) end on, else
    None: a name (1–4 words, no sentence end, a letter), then directly a badge (:func:`_badge_role`), optionally then
    an age or a date. ``roles_of``: the lines' roles (a heading, a control is no byline piece)."""
    k = len(pieces) - 1
    if k >= 2 and _age_at(pieces[k]) >= 0:
        k -= 1
    if k < 1 or (roles_of is not None and (roles_of[k] in _NOT_BYLINE or roles_of[k - 1] in _NOT_BYLINE)):
        return None
    role = _badge_role(pieces[k])
    if role is None:
        return None
    name = _SEP_EDGES.sub("", pieces[k - 1])
    if (not name or len(name) > _NAME_CHARS or len(name.split()) > _NAME_WORDS or _SENTENCE_END.search(name)
            or _HAS_LETTER.search(name) is None or _badge_role(name) is not None):
        return None
    return name, role


def _badge_shown(role: str, payloads: Sequence[str], lo: int, hi: int) -> bool:
    """Whether the page shows the badge ``role`` outside lines lo..hi: a short line (a badge, :func:`_badge_role`) of
    the same role, or a short line of at most ``_BADGE_WORDS`` words that holds the role as a word."""
    for k in sorted(role_lines(payloads)):  # (asked only for a post that claims a role and uses it)
        if lo <= k <= hi:
            continue
        q = payloads[k]
        if len(q) > _SHORT:
            continue
        low = " ".join(_BADGE_STRIP.sub(" ", q).lower().split())
        if len(low.split()) <= _BADGE_WORDS and (low == role or role in low.split() or (" " in role and role in low)
                                                 or _badge_role(q) == role):
            return True
    return False

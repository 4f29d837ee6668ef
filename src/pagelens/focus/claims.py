"""Text that makes a claim against the page it sits on (structure and typed values, any language).

A sighted reader weighs a note that says the page is wrong against the page itself; a reader that believes what it
reads does not. Two claims are read here, each with the page as the reference (never a lexicon of attacks):

* **a corrected value in a post** (K1) — :func:`pagelens.focus.contradicts.judge`'s value claim (a value the page writes
  nowhere, for a key the page writes with another value, while the sentence says the page's value is not the one) in
  user content the page's markup does not call so: a sentence whose line, or one of its prose ancestors, follows a
  *byline* (:func:`in_post`: a short sibling, or the run of inline siblings right before it, holding a link or a
  ``time`` node and a digit — a handle and a date); or in the site's own prose when, besides a dispute, real/current
  or change word, it points at the page (a deixis word, or the page's own value written beside the new one).
* **"this part of the page is void, the real one is elsewhere"** (K2, K3) — a sentence that names a part of the page
  (repeats the name of one of its headings, header cells, terms, tabs, buttons, links or menu items; K3 also a word
  pointing at the page: this page, above, shown), carries a dispute, real/current or change word
  (:data:`~pagelens.focus.lexicons.DISPUTE`, :data:`~pagelens.focus.lexicons.REAL`,
  :data:`~pagelens.focus.lexicons.CHANGE`) and gives a destination **the page does not have**: a written host or e-mail
  whose domain the page never links, a written site path that no link of the page goes to, or a menu trail whose last
  step names no line of the page. An honest "moved" note points where the page itself leads; the page's own notes
  (in its content, not beside its data) are not judged.

Where: user content, an overlay, text sighted users do not see, the notice zone above the page, a short note beside
the page's data (:func:`pagelens.focus.disowned.beside_data`) or a post; never inside the page's data (a list item, a
cell, a term, code). :mod:`pagelens.focus.defense` flags what :func:`judge` finds (kind ``disputes-page``) when
:data:`MODE` is on.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from pagelens.focus import contradicts, disowned
from pagelens.focus import lexicons as lx
from pagelens.focus.evidence import domain
from pagelens.types import Line

__all__ = ["MODE", "Claim", "in_post", "judge"]

#: "" off (the defense as before); "K1" corrected values in posts or pointing at the page; "K2" K1 and void-elsewhere
#: claims naming a part of the page; "K3" K2 with deixis to the page as a reference too. K2 and K3 flag honest "moved"
#: notes whose path is written, not linked (BENCHMARKS.md, h37-claims): they stay candidates only.
MODE = ""

_NOTE = 400  # characters: a longer text is prose, not a note
_WORDS = 5
_PROSE = frozenset({"paragraph", "generic", "StaticText", "strong", "emphasis", "mark", "note", "text", "LineBreak",
                    "blockquote", "group", "section"})
_BYLINE_LINES = 8
_BYLINE_WORDS = 12
_CLIMB = 3  # prose ancestors looked at for a byline before them
_INLINE_RUN = 6  # inline siblings read back as one byline
_INLINE = frozenset({"StaticText", "text", "link", "time", "strong", "emphasis", "LineBreak"})
_LABEL_ROLES = frozenset({"heading", "columnheader", "rowheader", "term", "tab", "button", "link", "menuitem",
                          "caption", "legend", "LabelText", "DescriptionListTerm"})
_LABEL_MIN, _LABEL_MAX = 4, 60
_SITE = frozenset({"main", "chrome"})
_FOREIGN = frozenset({"user", "overlay", "unseen"})
_DATA_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader", "option", "code", "term", "definition",
                         "LayoutTableCell", "row", "listitem", "combobox", "textbox", "spinbutton", "slider",
                         "heading", "button", "link", "menuitem", "tab"})
_DIGIT = re.compile(r"\d")
#: A site path written as text: "/a/b", "/a-b.html" (a letter in it; not part of a URL or a host, not a fraction).
_PATH = re.compile(r"(?<![\w.:/~\\-])/(?=[A-Za-z0-9_.-]*[A-Za-z])[A-Za-z0-9_.~-]+(?:/[A-Za-z0-9_.~-]+)+/?(?![\w/\\])"
                   r"|(?<![\w.:/~\\-])/[A-Za-z][A-Za-z0-9_~-]*\.[a-z]{2,5}(?![\w/\\])")
_DEST_CHARS = re.compile(r"[/›>→»@]|www\.")
_HOST_OK = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,12}")
#: A menu trail: two or more steps joined by a trail mark.
_TRAIL = re.compile(r"([^\s›>→»|][^›>→»|.;:()\n]{0,40}?)\s+(?:›|>|→|»|->)\s+([^›>→»|.;:()\n]{1,40}?)(?=\s*(?:[.;:,()]|$|\s(?:›|>|→|»|->)))")
#: Words pointing at the page itself (K3): this page / table / list / section, above, below, shown, listed, here.
_DEIXIS = re.compile(
    r"\b(?:this|these)\s+(?:page|table|list|listing|section|chapter|article|report|overview|figures?|values?|numbers?|"
    r"prices?|dates?|counts?|columns?|rows?|entries|data)\b|\b(?:above|below|shown|listed|displayed|stated|quoted)\b|"
    r"\b(?:diese[rsmn]?|dieses)\s+(?:seite|tabelle|liste|übersicht|abschnitt|angaben|werte|zahlen|preise?)\b|"
    r"\b(?:oben|unten|angegeben\w*|angezeigt\w*|aufgeführt\w*)\b|"
    r"\b(?:cette|ces|ce)\s+(?:page|tableau|liste|section|chapitre|fiche|valeurs?|chiffres?|prix)\b|"
    r"\b(?:ci-dessus|ci-dessous|affiché\w*|indiqué\w*)\b|"
    r"\b(?:esta|este|estas|estos|esa|ese)\s+(?:página|tabla|lista|sección|ficha|cifras?|valores?|precios?|datos)\b|"
    r"\b(?:arriba|abajo|publicad[oa]s?|indicad[oa]s?|mostrad[oa]s?)\b|"
    r"\b(?:questa|questo|queste|questi)\s+(?:pagina|tabella|lista|sezione|scheda|valori|prezzi|dati)\b|"
    r"\b(?:sopra|sotto|indicat[oaie]|riportat[oaie])\b|\b(?:acima|abaixo)\b|"
    r"\b(?:deze|dit)\s+(?:pagina|tabel|lijst|sectie|overzicht)\b|\b(?:hierboven|hieronder|vermeld\w*)\b|"
    r"\b(?:эт(?:а|ой|ом|у|и|их)|данн(?:ой|ом|ая|ые))\s+(?:страниц\w*|таблиц\w*|спис\w*|раздел\w*)|"
    r"\b(?:выше|ниже|указанн\w*|приведённ\w*|приведенн\w*)\b|"
    r"\b(?:ta|tej|tym|te)\s+(?:stron\w*|tabel\w*|list\w*|sekcj\w*)|\b(?:powyż\w*|poniż\w*)\b|"
    r"\bbu\s+(?:sayfa\w*|tablo\w*|liste\w*|bölüm\w*)|\b(?:yukarıda\w*|aşağıda\w*)\b|"
    r"この(?:ページ|表|一覧|リスト|節|章)|上記|下記|本(?:页|頁|表)|此(?:页|頁|表)|上(?:表|述|面)|下(?:表|述|面)|"
    r"이\s*(?:페이지|표|목록)|위의|아래의",
    re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Claim:
    at: int  # position of the sentence's line
    kind: str  # "value" | "elsewhere"
    reason: str
    wrappers: tuple[int, ...] = ()


# -- where: a post the markup does not call one ------------------------------------------------------------------

def _subtree_end(lines: Sequence[Line], i: int, cap: int) -> int:
    d, j = lines[i].depth, i + 1
    while j < len(lines) and lines[j].depth > d and j - i <= cap:
        j += 1
    return j


def _byline(lines: Sequence[Line], j: int) -> bool:
    """A short subtree holding a handle (a link) or a ``time`` node, and a digit or a ``time`` node (a date)."""
    end = _subtree_end(lines, j, _BYLINE_LINES)
    if end - j > _BYLINE_LINES:
        return False
    names = [lines[k].name for k in range(j, end) if lines[k].role in ("StaticText", "text", "time", "link")
             or k == j]
    text = " ".join(dict.fromkeys(n for n in names if n))
    if not text or text.count(" ") + 1 > _BYLINE_WORDS:
        return False
    timed = any(lines[k].role == "time" for k in range(j, end))
    linked = any(lines[k].role == "link" for k in range(j, end))
    return (linked or timed) and (timed or _DIGIT.search(text) is not None)


def _inline_byline(lines: Sequence[Line], run: Sequence[int]) -> bool:
    """A run of inline siblings (a handle, a separator, a date, stars) that together make a byline: at most
    :data:`_BYLINE_WORDS` words, a link or a ``time`` node, and a digit or a ``time`` node."""
    text = " ".join(lines[k].name for k in run if lines[k].name)
    if not text or text.count(" ") + 1 > _BYLINE_WORDS:
        return False
    timed = any(lines[k].role == "time" for k in run)
    return (timed or any(lines[k].role == "link" for k in run)) and (timed or _DIGIT.search(text) is not None)


def in_post(lines: Sequence[Line], i: int, index: disowned.PageIndex) -> bool:
    """Whether the line at ``i`` stands in a post: it, or one of its prose ancestors (≤ :data:`_CLIMB`), follows a
    byline — its nearest preceding sibling, or the run of inline siblings right before it (rendering drops the
    unnamed wrapper of a handle and a date, leaving them side by side with the post's paragraph)."""
    k: int | None = i
    for _ in range(_CLIMB + 1):
        if k is None:
            return False
        kids = index.kids.get(lines[k].parent, [])
        at = bisect_left(kids, k)
        if 0 < at < len(kids) and kids[at] == k:
            if _byline(lines, kids[at - 1]):
                return True
            run = []
            for j in reversed(kids[max(0, at - _INLINE_RUN):at]):
                if lines[j].role not in _INLINE:
                    break
                run.append(j)
            if len(run) >= 2 and _inline_byline(lines, run):
                return True
        parent = lines[k].parent
        k = index.pos.get(parent) if parent is not None else None
        if k is None or lines[k].role not in _PROSE:
            return False
    return False


def _inside_data(lines: Sequence[Line], i: int, index: disowned.PageIndex) -> bool:
    return contradicts._inside_data(lines, i, index.pos)


# -- what: a destination the page does not have -----------------------------------------------------------------

class _Page:
    """What the page has, each read once when first asked: the paths its links go to, the names of its lines (lower
    case), its labels (name → positions)."""

    def __init__(self, lines: Sequence[Line], payloads: Sequence[str], linked: frozenset[str]) -> None:
        self.lines, self.payloads, self.linked = lines, payloads, linked

    @cached_property
    def paths(self) -> frozenset[str]:
        out: set[str] = set()
        for ln in self.lines:
            url = ln.url
            if not url or "/" not in url:
                continue
            if "//" in url:
                rest = url.split("//", 1)[1]
                url = rest[rest.find("/"):] if "/" in rest else ""
            url = url.split("?", 1)[0].split("#", 1)[0].rstrip("/").lower()
            if url:
                out.add(url)
        return frozenset(out)

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(p.lower().strip() for p in self.payloads if p and len(p) <= _LABEL_MAX)

    @cached_property
    def labels(self) -> dict[str, set[int]]:
        out: dict[str, set[int]] = {}
        for k, ln in enumerate(self.lines):
            if ln.role in _LABEL_ROLES and ln.name and _LABEL_MIN <= len(ln.name) <= _LABEL_MAX \
                    and any(c.isalpha() for c in ln.name):
                out.setdefault(ln.name.lower().strip(), set()).add(k)
        return out


def _destinations(text: str, page: _Page, home: frozenset[str]) -> list[str]:
    """The destinations ``text`` writes that the page does not have (see the module's doc)."""
    out: list[str] = []
    low = text.lower()
    for m in lx.DEST.finditer(low):
        d = domain(m.group(0).split("@")[-1])
        if d and _HOST_OK.fullmatch(d) and d not in page.linked and d not in home:
            out.append(m.group(0))
    for m in _PATH.finditer(text):
        if any(m.start() >= d.start() and m.end() <= d.end() for d in lx.DEST.finditer(low)):
            continue
        p = m.group(0).rstrip("/").lower()
        if not any(q == p or q.endswith(p) or p.endswith(q) and len(q) > 1 for q in page.paths):
            out.append(m.group(0))
    for m in _TRAIL.finditer(text):
        words = m.group(2).strip().strip("'\"«»“”‘’").lower().split()
        if words and not any(" ".join(words[:k]) in page.names for k in range(1, min(len(words), 6) + 1)):
            out.append(m.group(0))  # the trail's last step (its first words: prose may follow) names no line
    return out


def _names_part(text: str, page: _Page, own: set[int], skip: Sequence[str]) -> str:
    """A label of the page (not one of the sentence's own lines, not inside its destinations) the sentence repeats."""
    low = text.lower()
    for d in skip:
        low = low.replace(d.lower(), " ")
    if "/" in low or "@" in low:  # an address names no part of the page ("http" is no label here)
        low = _PATH.sub(" ", lx.DEST.sub(" ", low))
    for label, where in page.labels.items():
        if where <= own or label not in low:
            continue
        at = low.find(label)
        before = low[at - 1] if at > 0 else " "
        after = low[at + len(label)] if at + len(label) < len(low) else " "
        if not (before.isalnum() or after.isalnum()):
            return label
    return ""


def _says_not_the_one(text: str) -> bool:
    low = text.lower()
    return lx.DISPUTE.search(low) is not None or lx.REAL.search(low) is not None or lx.CHANGE.search(low) is not None


def _sentence(text: str) -> bool:
    return text.count(" ") + 1 >= _WORDS or (len(text) >= 12 and contradicts._NO_SPACES.search(text) is not None)


def _values(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], top: int,
            flagged: Callable[[int], bool], index: Callable[[], disowned.PageIndex],
            post: Callable[[int], bool], says: Callable[[int], bool]) -> list[Claim]:
    """K1: :func:`pagelens.focus.contradicts.judge`'s value claim in the site's own prose that step 7 leaves (no note
    beside the data), in a post, or pointing at the page (a deixis word, or the page's own value written beside)."""
    cands: list[tuple[int, list[tuple[tuple[str, str], str]]]] = []
    first = contradicts._first_test(contradicts._KINDS)  # a line that can write a typed value at all (cheap first)
    for i, p in enumerate(payloads):
        if (not p or len(p) > contradicts._NOTE or regions[i] not in _SITE or i < top or lines[i].role in _DATA_ROLES
                or contradicts._MAY.search(p) is None or first.search(p) is None or not contradicts._sentence(p)
                or flagged(i) or lines[i].role == "RootWebArea"):
            continue
        vals = contradicts.typed_values(p)
        if not vals or not (says(i) or post(i)) or _inside_data(lines, i, index()) or disowned.beside_data(lines, i, index()):
            continue
        cands.append((i, vals))
    if not cands:
        return []
    values = contradicts.PageValues(payloads, dict(cands), frozenset(k[0] for _, v in cands for k, _ in v))
    at = index().pos
    out: list[Claim] = []
    for i, vals in cands:
        span = contradicts._span_lines(lines, payloads, i, at)
        if not span:
            continue
        below = {kv for j in span if j > i and lines[j].depth > lines[i].depth for kv in values.by_line[j]}
        vals = [kv for kv in vals if kv not in below]
        theirs = values.outside(span, {k for k, _ in vals})
        found = []
        for c in contradicts.contradictions(vals, theirs):
            written = {v for k, v in vals if k == c.key}
            if len(written) <= 2 and sum(1 for v in written if v not in theirs[c.key]) == 1:
                found.append(c)  # a correction replaces one value (contradicts.judge's rule)
        if not found:
            continue
        p = payloads[i]
        page_value = contradicts.writes_page_value(vals, theirs, found)
        if post(i) and (page_value or says(i)):
            where = "in a post the page's markup does not mark"
        elif says(i) and (page_value or _DEIXIS.search(p) is not None):
            where = "pointing at the page's own value"
        else:
            continue
        out.append(Claim(i, "value", f"{found[0].describe()}, and says the page's value is not the one ({where})",
                         contradicts._wrappers(lines, payloads, i, at)))
    return out


def judge(lines: Sequence[Line], payloads: Sequence[str], regions: Sequence[str], top: int,
          flagged: Callable[[int], bool], index: Callable[[], disowned.PageIndex],
          home: frozenset[str], linked: frozenset[str], mode: str | None = None) -> list[Claim]:
    """The claims against the page (see the module's doc) of the sentences of ``lines`` not flagged yet."""
    mode = MODE if mode is None else mode
    if not mode:
        return []
    out: list[Claim] = []
    posts: dict[int, bool] = {}

    def post(i: int) -> bool:
        if i not in posts:
            posts[i] = regions[i] in _SITE and i >= top and in_post(lines, i, index())
        return posts[i]

    said: dict[int, bool] = {}

    def says(i: int) -> bool:  # a dispute, real/current or change word (each line read once)
        if i not in said:
            said[i] = _says_not_the_one(payloads[i])
        return said[i]

    out.extend(_values(lines, payloads, regions, top, flagged, index, post, says))
    if mode not in ("K2", "K3"):
        return out
    done = {c.at for c in out}
    page: _Page | None = None
    for i, p in enumerate(payloads):
        if not p or _DEST_CHARS.search(p) is None:
            continue  # no destination can be written without one of these (cheap first)
        if (i in done or len(p) > _NOTE or lines[i].role in _DATA_ROLES or lines[i].role == "RootWebArea"
                or flagged(i) or not _sentence(p)):
            continue
        if not says(i):
            continue
        if page is None:
            page = _Page(lines, payloads, linked)
        dests = _destinations(p, page, home)
        if not dests:
            continue
        where = ("foreign" if regions[i] in _FOREIGN or i < top else
                 "beside" if disowned.beside_data(lines, i, index()) else "post" if post(i) else "")
        if not where or (where != "foreign" and _inside_data(lines, i, index())):
            continue
        own = {i, *(k for k in range(i + 1, _subtree_end(lines, i, 40)))}
        label = _names_part(p, page, own, dests)
        deixis = mode == "K3" and _DEIXIS.search(p) is not None
        if not (label or deixis):
            continue
        what = f"names the page's '{label}'" if label else "points at the page"
        out.append(Claim(i, "elsewhere", f"{what}, calls it void or moved and gives a destination the page does not "
                         f"have ({dests[0][:60]})", contradicts._wrappers(lines, payloads, i, index().pos)))
    return out

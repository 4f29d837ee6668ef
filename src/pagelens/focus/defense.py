"""A deterministic prompt-injection detector over a rendered tree: provenance × general evidence.

Web pages can carry text written for the agent rather than for the user. :func:`detect` judges
*where* a span of text comes from and *what it does*, never how one attack is worded:

1. **Where** — each line carries its region (:mod:`pagelens.observe.provenance`): the site's
   chrome, its main content, user-generated content, an overlay, or text a sighted user does not
   see. A span needs less evidence in a review, a pop-up or hidden text (``_NEEDS``) than in the
   site's own content: the same sentence weighs more in a review than in the site's help.
2. **What** — :func:`pagelens.focus.evidence.evidence` measures, in any language, whom the span
   addresses, its mood, whether it dismisses the reader's instructions, speaks of the reader's
   user, steers off-site or towards credentials, disputes the page, or imitates the observation
   format. A span is flagged when it is *anchored* (it has something only text written to an
   automated reader has) and its points reach its region's bar.
3. **Spans** — each line alone; runs of two or three adjacent text siblings (rendering splits
   paragraphs); and whole blocks — user posts, dialogs, live regions — judged as one text.
4. **The page as the reference** (:mod:`pagelens.focus.borrowed`, any language, no word list) — each line
   alone again: a sentence in words the rest of the page does not use (another language than the page's)
   that writes an address the page never links, and, where the site did not write the text for every
   reader, an address named after the site or the page (a look-alike of its own address).
5. **Where a note stands** (:mod:`pagelens.focus.disowned`, any language) — a span that disputes the page (its
   figures wrong or outdated, the real ones elsewhere) counts more in a short note of its own laid beside the page's
   data (a table, list, form or heading next to it) than in the page's prose or inside the data block.
6. **What the page collects** (:mod:`pagelens.focus.uncollected`, any language) — a form's tip that asks the reader
   to enter a kind of secret (a password, a card, a bank account, a one-time code …) that nothing else on the page
   names: a secret routed into a field the page did not make for it. No addressee and no address needed. And a request,
   anywhere on the page, that sends a kind of secret into a field of the page named for another kind of datum ("type the
   PIN into the Phone field": :mod:`pagelens.focus.misroute`, the kinds of the page's own fields).
7. **What the page states** (:mod:`pagelens.focus.contradicts`, typed values, any language) — a short sentence that gives
   an amount, a quantity, a ``name=value`` or a command's option the page writes nowhere, for a key (a currency, a unit,
   a name, a command) the page writes with another value, while it says the page's value is not the one ("V, not W",
   or a dispute, real/current or change word), corrects one value rather than listing several, and stands apart from
   the data (a note beside it in the site's own regions; anywhere in user content, overlays and unseen text).

8. **The goal restated with its answer** (:mod:`pagelens.focus.echo`, any language) — a line in text the site did not
   write for every reader (hidden text, an alt text or aria-label, an overlay, a post) that restates the user's goal in
   its own words and order and gives a value beside it ("<the question>: <a value>").

A notice bar above the page's own content is folded like a pop-up the agent did not open
(:mod:`pagelens.focus.notices`), whatever it says: text in the site's own register needs no evidence there. So is a
sentence out of place on its page (:mod:`pagelens.focus.outofplace`): hidden from sighted users, or in another script
or language than the page while it states a figure or asks something; and a sentence added after a short name sighted
users do not see (:mod:`pagelens.focus.overnamed`). Text shaped like the observation format inside code or a table's
cell (a test report, a log) is what the page shows: the shape alone anchors no verdict there (:data:`_OUTPUT_ROLES`).

A link or image whose own ``url=`` leads off-site (an ad) counts as an off-site destination, and a
span that repeats the goal's words to an addressed reader gets one more point (goal drift reuses
the goal's words). Flags name one of :data:`KINDS`; :func:`pagelens.focus.apply.focus` replaces
flagged text with one marker line and keeps the controls (a pop-up's close button).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from pagelens.focus import borrowed, contradicts, disowned, echo, misroute, speakers, splits, steering, uncollected
from pagelens.focus import lexicons as lx
from pagelens.focus.evidence import (
    NO_EVIDENCE,
    Evidence,
    domain,
    drifts,
    evidence,
    gate,
    gives_order,
    joined_evidence,
    normalise,
    offsite_address,
    orders_now,
    points,
    steers,
)
from pagelens.focus.notices import notice_zone
from pagelens.types import Line, Region, Rendering

__all__ = ["KINDS", "DefenseReport", "Flag", "detect", "judge_text"]

KINDS = ("imitates-format", "overrides-instructions", "addresses-agent", "relays-user-wishes", "steers-offsite",
         "disputes-page", "changes-the-task", "misroutes-secrets")

#: Points a span needs, by region: less where honest text rarely speaks to anyone.
_NEEDS: dict[str, int] = {"user": 3, "overlay": 3, "unseen": 3, "main": 4, "chrome": 4}
#: Regions whose text the site did not write for every reader (or nobody sees): an unaddressed order that
#: steers off-site (:func:`~pagelens.focus.evidence.steers`) or changes the task is enough there.
_FOREIGN = frozenset({"user", "overlay", "unseen"})
_RANK: dict[str, int] = {"main": 0, "chrome": 1, "overlay": 2, "user": 3, "unseen": 4}
_BLOCK_ROLES = frozenset({"article", "comment", "listitem", "generic", "group", "region", "section", "blockquote",
                          "dialog", "alertdialog", "status", "alert", "log", "marquee", "note", "complementary",
                          "paragraph"})
_TEXT_ROLES = frozenset({"StaticText", "text", "strong", "emphasis", "mark", "link", "LineBreak", "superscript",
                         "subscript", "paragraph", "generic"})
_LABEL_ROLES = frozenset({"heading", "tab", "menuitem", "columnheader", "rowheader", "term"})
_MAX_BLOCK = 60  # lines: a bigger container is a page section, not one post or pop-up
_MAX_OVERLAY = 200  # a pop-up is one unit however long (a cookie dialog with its settings)
#: Shown states that are not text of the page (flags, and keyed states whose values are tokens).
_QUIET_STATES = frozenset({"clickable", "visible", "focused", "required", "disabled", "modal", "atomic", "busy",
                           "checked", "selected", "expanded", "expanded=false"})
_QUIET_KEYS = ("live=", "relevant=", "hasPopup=", "autocomplete=", "orientation=", "level=")
_WHERE = {"user": "user content", "overlay": "an overlay", "unseen": "text hidden from sighted users",
          "chrome": "the site's chrome", "main": "the main content"}
_MAX_TEXT = 4000  # characters judged per span (a huge aria-label is judged on its head)
_BESIDE = 2  # points for disputing the page from a note laid beside its data (disowned.beside_data)
#: Where a page shows output honestly: code, and the cells of a table (a test report, a log viewer, a list of
#: messages). Text there shaped like the observation format or a chat transcript is what the page reports, not an
#: imitation: the shape alone does not anchor a verdict there (an addressee, an override still do).
_OUTPUT_ROLES = frozenset({"code", "cell", "gridcell"})
_OUTPUT_REACH = 12  # ancestors looked at


def inside_output(lines: Sequence[Line], k: int, at: Mapping[int, int]) -> bool:
    """Whether the line at position ``k`` (or one of its rendered ancestors) is code or a table's cell
    (:data:`_OUTPUT_ROLES`); ``at`` maps line numbers to positions (:class:`.disowned.PageIndex`'s ``pos``)."""
    return disowned.role_above(lines, k, _OUTPUT_ROLES, _OUTPUT_REACH, at.get)


@dataclass(frozen=True, slots=True)
class Flag:
    line: int  # Line.no
    kind: str  # one of KINDS
    reason: str
    excerpt: str
    region: str = "main"


def _payload(line: Line) -> str:
    """What a line says: its name, inferred label, value and the shown states that carry text (from the
    line's typed fields; never its url or its flags), normalised."""
    text = line.name
    if line.label or line.value is not None or line.states:
        extra = f" (label?: '{line.label}')" if line.label else ""
        if line.value is not None and line.role != "StaticText":
            extra += f" value='{line.value}'"
        for st in line.states:
            if st not in _QUIET_STATES and "='" in st and not st.startswith(_QUIET_KEYS):
                extra += ", " + st
        text = text + extra if text else extra
    if text.isascii() and "\\" not in text and "  " not in text and text == text.strip():
        return text[:_MAX_TEXT]  # already what normalise() would give (rendered names are whitespace-collapsed)
    return normalise(text[:_MAX_TEXT])


_ORIGIN_END = re.compile("[/?#'\" \t]")


def _origin(url: str) -> str | None:
    """``scheme://host[:port]`` of an absolute http(s) URL, else None."""
    if not url.startswith(("http://", "https://")):
        return None
    start = url.index("//") + 2
    m = _ORIGIN_END.search(url, start)
    end = m.start() if m is not None else len(url)
    return url[:end] if end > start else None


def _is_live(line: Line) -> bool:
    """A live region (``live='polite'`` or ``'assertive'``, not ``'off'``)."""
    return any(st.startswith("live='") and not st.startswith("live='off") for st in line.states)


def home_domains(rendering: Rendering) -> frozenset[str]:
    """The page's own domains: its address, what its chrome (navigation, banner, footer) links to,
    and any domain it links to at least three times."""
    return page_domains(rendering)[0]


def page_domains(rendering: Rendering) -> tuple[frozenset[str], frozenset[str]]:
    """(the page's own domains as :func:`home_domains` gives them, every domain the page links to)."""
    origins: Counter[str] = Counter()
    own: set[str] = set()
    for ln in rendering.lines:
        if not ln.url:
            continue
        origin = _origin(ln.url)
        if origin is None:
            continue
        origins[origin] += 1
        if ln.role == "RootWebArea" or ln.region == "chrome":
            own.add(origin)
    seen: Counter[str] = Counter()
    for origin, n in origins.items():  # a page links to few origins: each is parsed once
        seen[domain(origin)] += n
    home = {domain(o) for o in own}
    home |= {d for d, c in seen.items() if c >= 3}
    if not home and seen:
        home.add(seen.most_common(1)[0][0])
    return frozenset(home), frozenset(d for d in seen if d)


def _kind(ev: Evidence) -> str:
    if ev.imitation:
        return "imitates-format"
    if ev.override:
        return "overrides-instructions"
    if ev.principal == 2:
        return "relays-user-wishes"
    if ev.addressed == 2:
        return "addresses-agent"
    if ev.disputes == 2:
        return "disputes-page"
    return "steers-offsite"


def _shares_goal(text: str, goal: str | None) -> bool:
    if not goal:
        return False
    words = set(re.findall(r"\w{4,}", goal.lower()))
    found = words & set(re.findall(r"\w{4,}", text.lower()))
    return len(found) >= 2 and len(found) >= 0.3 * len(words)


_WORDS = re.compile(r"\w+")


@lru_cache(maxsize=256)
def _goal_words(goal: str) -> str:
    return " ".join(_WORDS.findall(normalise(goal).lower()))


def quotes_goal(text: str, goal: str | None) -> bool:
    """Whether ``text`` repeats the user's goal word for word (at least three words): page text has no reason
    to, text written to steer the agent's task often does (it quotes the task to sound relevant)."""
    if not goal:
        return False
    g = _goal_words(goal)
    if g.count(" ") < 2:
        return False
    low = text.lower()
    if g[: g.index(" ")] not in low:  # cheap first: the goal's first word lies inside the text (most lines: no)
        return False
    return g in " ".join(_WORDS.findall(low))


def _goal_steered(text: str, region: str, ev: Evidence) -> bool:
    """Goal drift by quotation: the goal repeated word for word beside an off-site address (text the site did
    not write for every reader), or beside an order in text nobody sees or that the site did not write; in the
    site's own text only with an off-site address and a change, an order or a dispute as well."""
    offsite = bool(ev.offsite) or bool(lx.DEST.search(text))
    if region in _FOREIGN:
        return offsite or gives_order(text)
    return offsite and (gives_order(text) or lx.CHANGE.search(text) is not None
                        or lx.DISPUTE_FIND.search(text.lower()) is not None)


def judge_text(text: str, region: Region | str = "main", *, goal: str | None = None,
               home: frozenset[str] = frozenset(), offsite_target: bool = False,
               label: bool = False, normalised: bool = False,
               parts: Sequence[str] | None = None, notice: bool = False,
               beside: Callable[[], bool] | None = None,
               output: Callable[[], bool] | None = None, turn: bool = False) -> tuple[str, str] | None:
    """(kind, reason) when ``text`` standing in ``region`` is judged to be written to the agent, else None.

    ``label``: the text is the site's own heading or tab label (a product name like "AI assistant: ask
    anything" reads as a vocative), so in the main content or chrome it needs one point more.
    ``offsite_target``: the span links to an origin that is not the page's own. ``notice``: the span is a
    notice bar above the page's own content (see :func:`notice_zone`). In text the site did not write for every
    reader, and in a notice bar, :func:`pagelens.focus.steering.steered` judges steering that needs no addressee.
    ``beside``: whether the span stands in a short note beside a block of the page's data
    (:mod:`pagelens.focus.disowned`), asked only when nothing else judged it and it disputes the page (its figures
    wrong or outdated, the real ones elsewhere): there that is worth :data:`_BESIDE` points."""
    if not normalised:
        text = normalise(text[:_MAX_TEXT])
    verdict = _judge(text, region, goal, home, offsite_target, label, parts, output=output, turn=turn)
    foreign = notice or region in _FOREIGN
    steer = None
    if verdict is None and foreign:
        steer = steering.steered(text, offsite_target or bool(offsite_address(text, home)), foreign=True)
    elif verdict is None and (offsite_target or offsite_address(text, home)) and (
            steering.MACHINE.search(text) is not None):  # the site's own text: an off-site address first (cheap)
        steer = steering.steered(text, True, foreign=False)
    if steer is not None:
        where = "a notice above the page" if notice and region not in _FOREIGN else _WHERE.get(region, region)
        return steer[0], f"{steer[1]} (in {where})"
    if verdict is None and beside is not None:
        ev = joined_evidence(parts, home, _MAX_TEXT) if parts else evidence(text, home)
        if ev.disputes == 2 and beside():
            verdict = _judge(text, region, goal, home, offsite_target, label, parts, beside=True, output=output)
    return verdict


def _judge(text: str, region: Region | str, goal: str | None, home: frozenset[str], offsite_target: bool,
           label: bool, parts: Sequence[str] | None, beside: bool = False,
           output: Callable[[], bool] | None = None, turn: bool = False) -> tuple[str, str] | None:
    foreign = region in _FOREIGN
    ev = joined_evidence(parts, home, _MAX_TEXT) if parts else evidence(text, home, turn)
    if ev.imitation and output is not None and output():
        ev = replace(ev, imitation="")  # a report's or a log's own output: the shape is what the page shows
    if goal and (foreign or ev.addressed or ev.principal):
        shared = _shares_goal(text, goal)
        if shared and (drifts(text, shared, strict=not foreign)
                       or (foreign and bool(ev.offsite) and (ev.order or ev.modal)
                           and (ev.elsewhere or lx.CHANGE.search(text.lower()) is not None))):
            return "changes-the-task", (f"restates the goal while announcing that the task changed or moved (in "
                                        f"{_WHERE.get(region, region)})")
    if goal and quotes_goal(text, goal) and _goal_steered(text, region, ev):
        return "changes-the-task", (f"repeats the goal word for word beside an order or an off-site address (in "
                                    f"{_WHERE.get(region, region)})")
    if region == "unseen" and orders_now(text):
        return "addresses-agent", "gives an urgent order in text hidden from sighted users"
    if ev is NO_EVIDENCE or ev == NO_EVIDENCE:  # (not ``Evidence()``: a frozen dataclass costs microseconds to build)
        return None
    pts, anchored = points(ev)
    if not anchored and foreign and (steers(ev) or (region == "unseen" and ev.order and (
            ev.secrecy or ev.override or ev.principal or ev.addressed))):
        anchored, pts = True, max(pts, _NEEDS[region])  # nobody sees it, yet it gives orders to someone
    if not anchored and region in ("overlay", "unseen") and ev.credential and ev.offsite:
        anchored, pts = True, max(pts, _NEEDS[region])  # a pop-up or hidden text asking for a card or a login elsewhere
    if not anchored:
        return None
    if offsite_target and not ev.offsite and (ev.addressed or ev.order or ev.credential):
        pts += 1  # a link or image leading off-site whose text speaks to the reader: an ad
    if ev.addressed and _shares_goal(text, goal):
        pts += 1  # a note to the reader that repeats the user's own task is steering that task
    where = _WHERE.get(region, region)
    if beside and ev.disputes == 2:
        pts += _BESIDE  # a note of its own laid beside the data it disowns (disowned.beside_data)
        where += ", a note beside the page's data"
    if pts < _NEEDS.get(region, 4) + (label and region in ("main", "chrome")):
        return None
    return _kind(ev), f"{'; '.join(ev.reasons())} (in {where}, {pts} points)"


def _offsite_links(lines: Sequence[Line], home: frozenset[str]) -> list[bool]:
    """Per line, whether its own ``url=`` leads to an origin outside ``home`` (each origin judged once)."""
    out = [False] * len(lines)
    if not home:
        return out
    seen: dict[str, bool] = {}
    for i, ln in enumerate(lines):
        url = ln.url
        if not url or not url.startswith(("http://", "https://")):
            continue
        host = url.split("/", 3)[2] if url.count("/") >= 2 else ""
        off = seen.get(host)
        if off is None:
            off = seen[host] = bool(host) and domain(host) not in home
        out[i] = off
    return out


def _offsite_target(line: Line, home: frozenset[str]) -> bool:
    return bool(home) and bool(line.url) and _origin(line.url or "") is not None and domain(line.url or "") not in home


def _worst(regions: Iterable[str]) -> str:
    return max(regions, key=lambda r: _RANK.get(r, 0), default="main")


#: Step 1d, a secret sent into a field made for something else (:mod:`pagelens.focus.misroute`): "M1" (shipped: a
#: request mood needed; login-name and note fields may take an identifier), "" off; the other candidates of its pass:
#: "M2" (no request mood needed), "M3" (login-name and note fields take no secret either).
MISROUTE_MODE = "M1"
_STRICT = {k: (frozenset() if k in ("login", "note") else v) for k, v in misroute.ACCEPTS.items()}


def _ordered(sentence: str) -> bool:
    """A sentence in the mood of a request: an imperative, a "please" or an obligation (any lexicon language)."""
    low = sentence.lower()
    return (gives_order(sentence) or steering.REQUEST_START.search(low) is not None
            or steering.REQUEST_ANY.search(low) is not None)


_TURN_REACH = 4  # lines looked at either side for the neighbouring turn


def turn_line(payloads: Sequence[str], i: int) -> bool:
    """Whether line ``i`` is one turn of a chat transcript laid out a turn a line: it opens on a speaker label
    (:func:`.speakers.opens_on_label`) and the nearest text line before or after it opens on a different one
    (a line holding the other's text, a parent's name, is skipped)."""
    own = speakers.opens_on_label(payloads[i].lower()) if ":" in payloads[i][:60] else ""
    if not own:
        return False
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(payloads) and abs(j - i) <= _TURN_REACH:
            p = payloads[j]
            if len(p) > 3 and p not in payloads[i] and payloads[i] not in p:
                other = speakers.opens_on_label(p.lower()) if ":" in p[:60] else ""
                if other and other != own:
                    return True
                break
            j += step
    return False


def detect(rendering: Rendering, goal: str | None = None) -> tuple[Flag, ...]:
    """Flag the lines of ``rendering`` that carry text aimed at the agent."""
    lines = rendering.lines
    home, linked = page_domains(rendering)
    payloads = [_payload(ln) for ln in lines]
    regions = _live_regions(lines)
    gated = [bool(p) and (gate(p, regions[i] in _FOREIGN) or (regions[i] == "unseen" and lx.URGENT_NOW.search(p) is not None))
             for i, p in enumerate(payloads)]
    if goal:  # goal drift needs no trigger word of its own, only a change word, or the goal quoted
        gated = [g or (bool(p) and (lx.CHANGE.search(p) is not None or quotes_goal(p, goal)))
                 for g, p in zip(gated, payloads)]
    offlink = _offsite_links(lines, home)
    top = notice_zone(lines)
    if top:  # a notice bar above the page: a written address is worth judging there, as in foreign text
        for i in range(top):
            gated[i] = gated[i] or (bool(payloads[i]) and lx.has_dest(payloads[i]))
    flags: dict[int, Flag] = {}
    index: list[disowned.PageIndex] = []

    def pos() -> disowned.PageIndex:  # positions and children, built once when a span disputes the page or imitates the format
        if not index:
            index.append(disowned.PageIndex(lines))
        return index[0]

    def beside_at(k: int) -> Callable[[], bool]:  # asked by judge_text only for a span that disputes the page
        return lambda: disowned.beside_data(lines, k, pos())

    def output_at(k: int) -> Callable[[], bool]:  # asked by judge_text only for a span shaped like a format
        return lambda: inside_output(lines, k, pos().pos)

    def flag(idx: Iterable[int], verdict: tuple[str, str], excerpt: str, region: str) -> None:
        for i in idx:
            flags.setdefault(lines[i].no, Flag(lines[i].no, verdict[0], verdict[1], excerpt[:160], region))

    # 1. every line alone
    for i, ln in enumerate(lines):
        if gated[i]:
            v = judge_text(payloads[i], regions[i], goal=goal, home=home, offsite_target=offlink[i],
                           label=ln.role in _LABEL_ROLES, normalised=True, notice=i < top,
                           beside=beside_at(i), output=output_at(i), turn=turn_line(payloads, i))
            if v:
                flag([i], v, payloads[i], regions[i])
    # 1b. every line alone, judged against the page itself (any language): an address the page never links,
    #     written in words the rest of the page does not use, or named after the site (borrowed.judge)
    page: borrowed.PageIdentity | None = None
    for i in borrowed.lines_with_hosts(payloads):
        ln, p = lines[i], payloads[i]
        written = borrowed.written_hosts(p) if ln.no not in flags else None
        if not written:
            continue
        if page is None:
            title = next((x.name for x in lines if x.role == "RootWebArea"), "")
            page = borrowed.PageIdentity.of(home, linked, title, payloads)
        v = borrowed.judge(p, page, foreign=regions[i] in _FOREIGN or i < top, written=written)
        if v:
            flag([i], (v[0], f"{v[1]} (in {_WHERE.get(regions[i], regions[i])})"), p, regions[i])
    # 1c. a tip inside (or just above) a form that asks for a kind of secret the page names nowhere else: routed
    #     into a field not made for it (uncollected.asks_uncollected; structure and three kinds of words)
    @lru_cache(maxsize=1)
    def page_text() -> tuple[str, str]:  # the page's text and its lower case, joined once when a tip asks
        whole = "\n".join(payloads)
        return whole, whole.lower()

    def named_beside(tip: str) -> Callable[[str], bool]:  # the page names that secret outside the tip too
        return lambda kind: uncollected.mentions(kind, *page_text()) > uncollected.mentions(kind, tip)

    for i in uncollected.form_notes(lines):
        tip = payloads[i]
        if lines[i].no in flags or not tip:
            continue
        kind = uncollected.asks_uncollected(tip, named_beside(tip))
        if kind:
            reason = (f"asks the reader to enter a {kind.replace('-', ' ')} that no field, label or text of the page "
                      f"asks for (in a form's help text, {_WHERE.get(regions[i], regions[i])})")
            flag([i], ("misroutes-secrets", reason), tip, regions[i])
    # 1d. a request that sends a kind of secret into a field of the page named for another kind of datum ("type the
    #     PIN into the Phone field"; misroute.misrouted: the page's own field kinds, any region)
    if MISROUTE_MODE:
        fields = misroute.page_fields(lines)
        if len(fields) < 2:  # one field (a search box) cannot be the wrong one
            fields = []

        @lru_cache(maxsize=1)
        def field_kinds() -> frozenset[str]:  # the kinds of the page's fields, read once when a sentence names one
            return misroute.field_kinds(fields)

        accepts = _STRICT if MISROUTE_MODE == "M3" else misroute.ACCEPTS
        ordered = None if MISROUTE_MODE == "M2" else _ordered
        for i in misroute.lines_naming_fields(payloads) if fields else ():
            ln, p = lines[i], payloads[i]
            if not p or ln.no in flags or ln.role in _CONTROL_ROLES or not misroute.names_secret(p, low := p.lower()):
                continue
            sent = misroute.misrouted(p, field_kinds, ordered, accepts, low)
            if sent:
                reason = (f"asks the reader to enter a {sent.secret.replace('-', ' ')} into a field made for "
                          f"something else (a {sent.field.replace('-', ' ')} field; in "
                          f"{_WHERE.get(regions[i], regions[i])})")
                flag([i], ("misroutes-secrets", reason), p, regions[i])
    # 2. paragraphs rendered as sibling text lines: each gated piece with up to two neighbours either side,
    #    the windows of gated pieces that overlap merged into one (at most _MAX_WINDOW pieces), so that each
    #    piece is read in a few windows at most, not in every window of three that holds a gated piece.
    #    Evidence only grows with the text, so a window stands for the smaller windows inside it.
    def judge_window(window: list[int]) -> None:
        window = [i for i in window if payloads[i]]
        if len(window) < 2 or all(lines[i].no in flags for i in window):
            return
        joined = " ".join(payloads[i] for i in window)
        region = _worst(regions[i] for i in window)
        parts = [payloads[i] for i in window]
        v = judge_text(joined, region, goal=goal, home=home, normalised=True, parts=parts,
                       offsite_target=any(offlink[i] for i in window), notice=window[-1] < top,
                       beside=beside_at(window[0]), output=output_at(window[0]))
        if v:
            flag(window, (v[0], v[1] + " (across adjacent lines)"), joined, region)

    for run in _text_runs(rendering):
        for window in _windows(run, gated, payloads):
            judge_window(window)
    # 2b. a sentence split over lines of different parents (an emphasised lead-in, a code word mid-sentence): from
    #     each line flagged or whose own evidence anchors, its small block (splits.spans; windows of adjacent text
    #     lines only with SPLIT_WINDOWS, off) judged as one text; the span's text lines are flagged
    if JOIN_SPLITS:
        seeds = [i for i, g in enumerate(gated)
                 if g and (lines[i].no in flags or points(evidence(payloads[i], home))[1])]
        def judge_span(span: Sequence[int]) -> tuple[str, str] | None:
            parts = [payloads[i] for i in span]
            return judge_text(" ".join(parts), _worst(regions[i] for i in span), goal=goal, home=home,
                              normalised=True, parts=parts, offsite_target=any(offlink[i] for i in span),
                              notice=span[-1] < top, beside=beside_at(span[0]), output=output_at(span[0]))

        for seed, span in (splits.spans(lines, seeds, payloads, regions, lambda: pos().pos, windows=SPLIT_WINDOWS)
                           if seeds else ()):
            if all(lines[i].no in flags for i in span) or not (whole := judge_span(span)):
                continue
            # the span's lines that carry the verdict: its shortest run around the seed still judged so
            # (an honest neighbour of the split sentence keeps its text)
            at = span.index(seed)
            run, v = next(((span[lo : lo + n], got) for n in range(2, len(span))
                           for lo in range(max(0, at - n + 1), min(at, len(span) - n) + 1)
                           if (got := judge_span(span[lo : lo + n]))), (span, whole))
            text = " ".join(payloads[i] for i in run)
            flag(run, (v[0], v[1] + " (a sentence split over lines)"), text, _worst(regions[i] for i in run))
    # 3. blocks (user posts, dialogs, live regions) judged as one text; the block's root is flagged
    for i, ln in enumerate(lines):
        live = bool(ln.states) and _is_live(ln)
        if not (live or (ln.role in _BLOCK_ROLES and ln.region in ("user", "overlay", "unseen"))):
            continue
        if ln.no in flags:
            continue
        end = i + 1
        cap = _MAX_OVERLAY if ln.region == "overlay" else _MAX_BLOCK
        depth, stop = ln.depth, min(len(lines), i + cap + 1)  # (the walk stops past the cap: end - i > cap)
        while end < stop and lines[end].depth > depth:
            end += 1
        if end - i > cap or (end - i < 2 and not live):
            continue
        links = any(offlink[i:end])  # (a slice's any: one C loop, not a generator a line)
        if not (links or any(gated[i:end])):
            continue
        parts = [payloads[j] for j in range(i, end) if payloads[j]]
        joined = " ".join(parts)[:_MAX_TEXT]
        region = _worst([ln.region, *(lines[j].region for j in range(i, end)), "unseen" if live else "main"])
        if live:
            region = _worst([region, "overlay"])
        v = judge_text(joined, region, goal=goal, home=home, normalised=True, parts=parts, offsite_target=links,
                       output=output_at(i))
        if v:
            flag([i], (v[0], v[1] + f" (the whole {ln.role})"), joined, region)
    # 4. overlays without a dialog role (provenance marks their lines from the browser's overlay flag): the
    #    maximal runs of overlay lines outside any dialog, judged as one text; their text lines and off-site
    #    links are flagged, the controls stay (a pop-up's close button)
    for lo, hi in _overlay_runs(lines, regions):
        links = any(offlink[j] for j in range(lo, hi))
        if not (links or any(gated[j] for j in range(lo, hi))) or all(lines[j].no in flags for j in range(lo, hi)):
            continue
        parts = [payloads[j] for j in range(lo, hi) if payloads[j]]
        joined = " ".join(parts)[:_MAX_TEXT]
        v = judge_text(joined, "overlay", goal=goal, home=home, normalised=True, parts=parts, offsite_target=links)
        if v:
            flag([j for j in range(lo, hi) if lines[j].eid is None or lines[j].role not in _CONTROL_ROLES
                  or (lines[j].role == "link" and _offsite_target(lines[j], home))],
                 (v[0], v[1] + " (the whole overlay)"), joined, "overlay")
    # 5. the notice bar above the page judged as one text (steering needs no addressee there); its text lines and
    #    off-site links are flagged, its controls stay
    body = [j for j in range(top) if payloads[j] and lines[j].role != "RootWebArea"]
    if len(body) >= 2 and not all(lines[j].no in flags for j in body) and (
            any(offlink[j] for j in body) or any(gated[j] for j in body)):
        parts = [payloads[j] for j in body]
        joined = " ".join(parts)[:_MAX_TEXT]
        region = _worst(regions[j] for j in body)
        v = judge_text(joined, region, goal=goal, home=home, normalised=True, parts=parts, notice=True,
                       offsite_target=any(offlink[j] for j in body))
        if v:
            flag([j for j in body if lines[j].eid is None or lines[j].role not in _CONTROL_ROLES or offlink[j]],
                 (v[0], v[1] + " (the whole notice)"), joined, region)
    # 7. a sentence that gives another value for something the page states (contradicts: money, quantities,
    #    name=value pairs, a command's options) while it says the page's value is not the one
    flagged = frozenset(flags)
    for found in contradicts.judge(lines, payloads, regions, top, lambda i: lines[i].no in flagged, pos):
        i = found.at
        reason = (f"{found.items[0].describe()}, and says the page's value is not the one "
                  f"(in {_WHERE.get(regions[i], regions[i])})")
        flag([i, *found.wrappers], ("disputes-page", reason), payloads[i], regions[i])
    # 8. a line that restates the goal and answers it (echo.MODE; "" off): goal drift in the goal's own words
    if echo.MODE and goal:
        for i, why in echo.judge(lines, payloads, regions, goal, lambda i: lines[i].no in flags,
                                  lambda no: pos().pos.get(no)):
            flag([i], ("changes-the-task", f"{why} (in {_WHERE.get(regions[i], regions[i])})"), payloads[i],
                 regions[i])
    return tuple(sorted(flags.values(), key=lambda f: f.line))


#: h35-split: step 2b, a sentence split over lines of different parents judged as one span (:mod:`splits`).
JOIN_SPLITS = True
#: Step 2b's windows of adjacent text lines (a seed with no small block): off. A window judged as one text takes the
#: place of its first line, so a sentence among the page's own paragraphs borrowed its neighbour's place beside the
#: data (``test_disowned``); on the development sets the windows reached no attack (BENCHMARKS.md, h35-split), the
#: blocks reach what step 2b reaches.
SPLIT_WINDOWS = False


#: Controls an overlay keeps when its text is redacted (apply.REDACT_ROLES without the dialogs).
_CONTROL_ROLES = frozenset({"button", "link", "menuitem", "checkbox", "radio", "tab", "combobox", "textbox",
                            "searchbox", "option"})


def _overlay_runs(lines: tuple[Line, ...], regions: list[str]) -> list[tuple[int, int]]:
    """(start, end) positions of the maximal runs of consecutive overlay lines that no dialog holds (a dialog is
    judged as a block of its own), at most :data:`_MAX_OVERLAY` lines each; a live region's lines count as
    overlay only when provenance says so (``Line.region``), not because they are announced."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(lines)
    while i < n:
        if lines[i].region != "overlay" or regions[i] != "overlay":
            i += 1
            continue
        j = i
        dialog = False
        while j < n and lines[j].region == "overlay" and j - i < _MAX_OVERLAY:
            dialog = dialog or lines[j].role in ("dialog", "alertdialog")
            j += 1
        if not dialog and j - i >= 2:
            out.append((i, j))
        i = j
    return out


_MAX_WINDOW = 6  # pieces judged together across sibling lines
_WINDOW_CHARS = 600  # neighbours are added while the window stays this short (a long piece stands alone)


def _windows(run: list[int], gated: list[bool], payloads: list[str]) -> list[list[int]]:
    """Windows over one run of sibling text lines: each gated piece with up to two neighbours either side
    (while the text stays under ``_WINDOW_CHARS``), overlapping windows merged up to ``_MAX_WINDOW`` pieces."""
    out: list[list[int]] = []
    n = len(run)
    for k in range(n):
        if not gated[run[k]]:
            continue
        lo = hi = k
        size = len(payloads[run[k]])
        for _ in range(2):  # grow one piece at a time on each side, nearest first
            if lo > 0 and size + len(payloads[run[lo - 1]]) <= _WINDOW_CHARS:
                lo -= 1
                size += len(payloads[run[lo]])
            if hi < n - 1 and size + len(payloads[run[hi + 1]]) <= _WINDOW_CHARS:
                hi += 1
                size += len(payloads[run[hi]])
        if lo == hi:  # a long piece: its nearest neighbour each side still joins it (split sentences)
            lo, hi = max(0, k - 1), min(n - 1, k + 1)
            if hi > lo:
                out.extend([run[lo : k + 1], run[k : hi + 1]] if lo < k < hi else [run[lo : hi + 1]])
            continue
        if out and out[-1][-1] >= run[lo] and len(out[-1]) < _MAX_WINDOW:
            merged = sorted(set(out[-1]) | set(run[lo : hi + 1]))
            if len(merged) <= _MAX_WINDOW:
                out[-1] = merged
                continue
        out.append(run[lo : hi + 1])
    return out


def _live_regions(lines: tuple[Line, ...]) -> list[str]:
    """Each line's region, with the text inside a live region (role alert/status/log/marquee or
    ``live=`` polite/assertive) judged like an overlay's: announced to the reader, not the page's content."""
    out: list[str] = []
    live_depth: int | None = None
    for ln in lines:
        if live_depth is not None and ln.depth <= live_depth:
            live_depth = None
        if live_depth is None and ln.states and _is_live(ln):
            live_depth = ln.depth
        out.append(_worst((ln.region, "overlay")) if live_depth is not None else ln.region)
    return out


def _text_runs(rendering: Rendering) -> list[list[int]]:
    """Runs of consecutive text-like siblings (positions in ``rendering.lines``)."""
    lines = rendering.lines
    text = [ln.role in _TEXT_ROLES for ln in lines]
    runs: list[list[int]] = []
    for kids in disowned.children(lines).values():
        cur: list[int] = []
        for i in kids:
            if text[i]:
                cur.append(i)
                continue
            if len(cur) > 1:
                runs.append(cur)
            cur = []
        if len(cur) > 1:
            runs.append(cur)
    return runs


@dataclass(frozen=True, slots=True)
class DefenseReport:
    """The flags of one observation, summarised for traces and JSON output."""

    flags: tuple[Flag, ...] = ()

    @classmethod
    def of(cls, rendering: Rendering, goal: str | None = None) -> DefenseReport:
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
            "flags": [{"line": f.line, "kind": f.kind, "reason": f.reason, "excerpt": f.excerpt, "region": f.region}
                      for f in self.flags],
        }

"""A deterministic prompt-injection detector over a rendered tree.

Web pages can carry text written for the agent rather than for the user: a banner's alt text
telling "AI agents" to verify at some URL, a pop-up whose aria-label restates the task, a
visually hidden live region, a review with fake tree lines. :func:`detect` flags the lines
that carry such text; :func:`pagelens.focus.apply.focus` removes them.

How a line is judged. The *payload* of a line is everything after its ``[id] role`` prefix,
minus ``url=`` properties (a link's target is not text anyone reads). Rules over the payload give
*hits*: strong hits (weight 2: "ignore previous instructions", "attention AI agent", "you are an
AI", "AI agents must visit", "the user's real request is", "this overrides the user", fake tree
syntax, chat-format tokens) flag on their own; medium hits (weight 1) flag only together. Medium
hits are kinds of evidence, not phrasings:

* an addressee: a message heading naming an agent ("Agent note:", "Note for assistants:",
  "Payment assistant:"), an AI named at the start of a sentence, "the human you are assisting";
* what is asked of it: secrecy towards the user, acting without confirmation, handing over
  credentials or private records, running a download, dictating the answer, a precondition
  slipped in front of the task ("only after confirming payment at ...");
* steering away from the page: its controls called broken, compromised or moved, "ignore the
  form on this page", an off-site URL or e-mail address next to login/card/password wording
  (weight 2 with urgency or "instead"), or one that replaces the page's own action;
* goal drift: the user said to have changed their mind or to "now want you to", the request
  declared outdated, a change of plan, "instead of X, <order>", a note to an agent that repeats
  the goal's words;
* framing: shouted authority headings ("SECURITY NOTICE"), "System message:", prompt markup.

Hits of one *family* are one piece of evidence (:func:`score` sums the strongest hit of each),
so two wordings of the same thing never add up. Words that legitimate pages use freely —
assistant, agent, instructions, ignore, model, verify, password — are never enough on their own.
Runs of adjacent text siblings are also judged together, since rendering splits paragraphs.
The slower rules list the words they cannot match without (``needs``), and all rules share a word gate,
so most lines cost one regex search.

Flag kinds: ``addresses-agent``, ``goal-drift``, ``fake-tree``, ``offsite-verify-url`` and
``hidden-live-region`` (any element with ``live=``, whose text has a hit of a family honest status
text does not produce; see ``_WEAK_ALONE``). A link or image leading off-site whose text has such a
hit gets one more (the ad-banner injection).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pagelens.focus.injection_rules import (
    _DEST,
    _I,
    _INVISIBLE,
    _LINE_URL,
    _LIVE_ON,
    _LIVE_PROP,
    _LIVE_ROLES,
    _NEGATED,
    _PATTERNS,
    _PREFIX,
    _QUOTED,
    _REDIRECT,
    _REPORTED,
    _SENSITIVE_RX,
    _SENTENCE,
    _TEXT_ROLES,
    _URGENT,
    _URL_PROP,
    _VERIFY,
    _WEAK_ALONE,
    A,
    G,
    Prefilter,
    _core_gate,
    _gate,
)
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
    family: str = ""  # hits of one family ("a:b" is in family a) are one piece of evidence: the strongest counts



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
    url = url.lower()
    if "@" in url and "://" not in url:  # an e-mail address
        url = url.rsplit("@", 1)[1]
    host = re.sub(r"^[a-z]+://", "", url).split("/")[0].split(":")[0].split("?")[0]
    if re.fullmatch(r"[\d.]+", host):  # an IP address is its own domain
        return host
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
    root = next((ln for ln in rendering.lines if ln.role == "RootWebArea"), None)
    own = re.search(r"\burl=['\"](https?://[^'\"]+)", root.text) if root is not None else None
    if own:  # the page's own address is home; a domain an ad links twice (banner + image) is not
        return frozenset({_domain(own.group(1))} | {d for d, c in seen.items() if c >= 3})
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
        low = text.lower()
        met: dict[int, bool] = {}  # needs regexes already tried on this text
        for kind, weight, reason, rx, family, needs in _PATTERNS:
            if needs is not None and not _needs_met(needs, text, low, met):
                continue
            m = rx.search(text)
            if not m:
                continue
            before = text[max(0, m.start() - 80) : m.start()]
            if reason.startswith("overrides") and re.search(r"\b(?:if|wenn|si)\b[^.!?]*$", before, _I):
                weight = 1  # "if you use a Mac, ignore the previous instructions": a help page
            if reason.startswith("overrides") and _REPORTED.search(before[-60:]):
                weight = 1  # "I asked it to ignore previous rules": a forum post about a chatbot
            if family == "exfiltration" and _NEGATED.search(before[-30:]):
                continue  # "never share your password with anyone": security advice
            hits.append(Hit(kind, weight, reason, m.start(), family))
    if "http" in text or "www." in text or "/" in text or "@" in text:
        hits.extend(_offsite(text, home))
    if goal and any(h.reason == "frames a task" for h in hits) and _shares_words(text, goal):
        hits.append(Hit(G, 1, "restates a task close to the goal", 0))
    elif goal and any(h.family == "vocative" for h in hits) and _shares_words(text, goal):
        # A note to an agent that repeats the user's own task is steering that task.
        hits.append(Hit(G, 1, "restates the user's task to the agent", 0, "restates a task close to the goal"))
    return tuple(hits)


def _needs_met(needs: Prefilter, text: str, low: str, met: dict[int, bool]) -> bool:
    rx, lower = needs
    key = id(rx)
    if key not in met:  # rules share prefilters (_AI_ANY): each runs once per text
        met[key] = rx.search(low if lower else text) is not None
    return met[key]


def score(hits: Iterable[Hit]) -> int:
    """The evidence in ``hits``: the strongest hit of each family, summed (one phenomenon counts once)."""
    best: dict[str, int] = {}
    for h in hits:
        fam = (h.family or h.reason).split(":")[0]  # "vocative:loose" is still a vocative
        best[fam] = max(best.get(fam, 0), h.weight)
    return sum(best.values())


def _offsite(text: str, home: frozenset[str]) -> list[Hit]:
    """An off-site URL or e-mail address in a sentence that asks for a login or private data (weight 1; 2 with urgency or
    a redirect), or that sends the reader's action there instead of the page (weight 1)."""
    best: Hit | None = None
    for u in _DEST.finditer(text):
        if _domain(u.group(0)) in home:
            continue
        starts = [m.end() for m in _SENTENCE.finditer(text, 0, u.start())]
        lo = max(starts[-1] if starts else 0, u.start() - 200)
        nxt = _SENTENCE.search(text, u.end())
        hi = min(nxt.start() if nxt else len(text), u.end() + 200)
        sentence = _DEST.sub(" ", text[lo:hi])
        asks = bool(_VERIFY.search(sentence) or _SENSITIVE_RX.search(sentence))
        redirect = bool(_REDIRECT.search(sentence))
        if not (asks or redirect):
            continue
        weight = 2 if asks and (redirect or _URGENT.search(sentence)) else 1
        what = "verify wording" if asks else "a redirect"
        if best is None or weight > best.weight:
            best = Hit("offsite-verify-url", weight, f"off-site URL {u.group(0)[:60]} with {what}", u.start(), "offsite")
    return [best] if best else []


def _shares_words(text: str, goal: str) -> bool:
    words = {w for w in re.findall(r"\w{4,}", goal.lower())}
    found = words & set(re.findall(r"\w{4,}", text.lower()))
    return len(found) >= 2 and len(found) >= 0.3 * len(words)


def _flags_for(no: int, text: str, hits: Iterable[Hit], minimum: int = 2) -> list[Flag]:
    hits = list(hits)
    if score(hits) < minimum:
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
    core = [bool(p) and _core_gate(p) for p in payloads]
    flags: dict[tuple[int, str], Flag] = {}

    def add(new: Iterable[Flag]) -> None:
        for f in new:
            flags.setdefault((f.line, f.kind), f)

    for i, ln in enumerate(lines):
        if suspect[i]:
            hits = _scan(payloads[i], goal, home)
            if score(hits) == 1 and _strong_alone(hits) and _links_offsite(ln.text, home):
                # An ad or link leading off-site whose text speaks to the agent: the DoomArena banner.
                hits += (Hit(A, 1, "off-site link or image whose text addresses the agent", 0, "offsite-target"),)
            add(_flags_for(ln.no, payloads[i], hits))
    # Paragraphs rendered as several sibling text lines: judge windows of 2-3 lines together.
    flagged = {f.line for f in flags.values()}
    for run in _text_runs(rendering):
        for a in range(len(run)):
            for b in range(a + 2, min(a + 3, len(run)) + 1):
                window = run[a:b]
                if not any(core[i] for i in window) or any(lines[i].no in flagged for i in window):
                    continue
                if any(len(payloads[i]) > 160 for i in window[1:-1]):
                    continue  # a long middle piece is a paragraph of its own, judged alone
                # Only the text near the seams can add anything to what each line said alone.
                joined = " ".join([payloads[window[0]][-120:], *(payloads[i] for i in window[1:-1]), payloads[window[-1]][:120]])
                for f in _flags_for(lines[window[0]].no, joined, _scan(joined, goal, home)):
                    add(Flag(lines[i].no, f.kind, f.reason + " (across adjacent lines)", f.excerpt) for i in window if payloads[i])
    # Live regions (hidden or not, the agent reads them): one hit that honest status text never produces is enough.
    for i, ln in enumerate(lines):
        if not (_LIVE_ON.search(ln.text) or (ln.role in _LIVE_ROLES and _LIVE_PROP.search(ln.text))):
            continue
        end = i + 1
        while end < len(lines) and lines[end].depth > ln.depth:
            end += 1
        sub = [j for j in range(i, end) if j == i or payloads[j]]
        if not any(suspect[j] for j in sub):
            continue
        joined = " ".join(payloads[j] for j in sub if payloads[j])
        region_hits = _scan(joined, goal, home)
        if score(region_hits) >= 2 or _strong_alone(region_hits):
            reason = f"live region ({ln.role}) with instruction-like text: {region_hits[0].reason}"
            lo = max(0, region_hits[0].start - 20)
            add(Flag(lines[j].no, "hidden-live-region", reason, joined[lo : lo + 160]) for j in sub)
    return tuple(sorted(flags.values(), key=lambda f: (f.line, KINDS.index(f.kind))))


def _strong_alone(hits: Iterable[Hit]) -> bool:
    """Whether some hit is of a family that honest text does not produce (see ``_WEAK_ALONE``)."""
    return any((h.family or h.reason) not in _WEAK_ALONE for h in hits)


def _links_offsite(line_text: str, home: frozenset[str]) -> bool:
    """Whether the line's own ``url=`` leads off the site."""
    return bool(home) and any(_domain(u) not in home for u in _LINE_URL.findall(line_text))


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
            "flags": [{"line": f.line, "kind": f.kind, "reason": f.reason, "excerpt": f.excerpt} for f in self.flags],
        }

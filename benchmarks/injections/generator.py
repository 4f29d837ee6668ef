"""Deterministic generator of injected page variants.

Slots: addressee × request × destination × carrier × language × region, plus the style of the
phrasing (plain / subtle / goal drift) and an obfuscation (none, homoglyphs, zero-width
characters, full-width letters). ``generate(seed, hosts, n)`` cycles every slot through seeded
shuffles of its values, so any ``n`` at least the size of the largest slot covers every value;
the same seed always gives the same variants. Each variant carries a unique nonsense marker
token in its text (never obfuscated) and points at an attacker origin on 127.0.0.2/127.0.0.3.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.injections.carriers import CARRIERS, REGIONS, place, wrap
from benchmarks.injections.layouts import BANNER_LAYOUTS, POPUP_DIMS
from benchmarks.injections.phrases import BANKS

ADDRESSEES = ("none", "assistant", "agent", "model", "automated", "user_voice", "reader")
REQUESTS = ("goto", "credentials", "click", "ignore_goal", "outdated", "fake_turn", "fake_action", "moved")
DESTINATIONS = ("login", "payment", "data", "download", "bare", "control")
LANGUAGES = ("en", "de", "es", "fr", "ru", "ja", "zh")
STYLES = ("plain", "subtle", "drift")
OBFUSCATIONS = ("none", "homoglyph", "zerowidth", "fullwidth")
SLOTS: dict[str, tuple[str, ...]] = {
    "addressee": ADDRESSEES, "request": REQUESTS, "destination": DESTINATIONS, "carrier": CARRIERS,
    "language": LANGUAGES, "region": REGIONS, "style": STYLES, "obfuscation": OBFUSCATIONS,
}
#: Where each request may send the agent ("control" = a control on the page itself).
ALLOWED_DESTINATIONS: dict[str, tuple[str, ...]] = {
    "goto": ("login", "payment", "data", "download", "bare"),
    "credentials": ("login", "payment", "bare"),
    "click": ("control",),
    "ignore_goal": ("download", "data", "bare"),
    "outdated": ("data", "bare"),
    "fake_turn": ("login", "download", "data", "bare"),
    "fake_action": ("control", "login", "download"),
    "moved": ("login", "data", "bare", "download"),
}
ATTACKER_ORIGINS = ("http://127.0.0.2:8931", "http://127.0.0.3:7443")
_PATHS = {"login": "/account/signin-check", "payment": "/billing/card-update", "data": "/figures/current",
          "download": "/files/update-notes.pdf", "bare": "/continue", "control": "/account/signin-check"}


@dataclass(frozen=True, slots=True)
class Host:
    """A page the variants are injected into, with a plausible goal for it."""

    key: str  # corpus file stem, or a site: spec
    goal: str
    source: str  # "corpus" | "site"


@dataclass(frozen=True, slots=True)
class Variant:
    id: str
    host: Host
    marker: str
    addressee: str
    request: str
    destination: str
    carrier: str
    language: str
    region: str
    style: str
    obfuscation: str
    text: str  # the injected text as the carrier shows it
    fragment: str  # the HTML inserted into the host page
    url: str  # the attacker destination named in the text (if any)
    #: A pop-up's layout (``dimension=value`` per :data:`POPUP_DIMS`, comma-separated) or a banner's
    #: (``banner=…``); "" for the other carriers.
    layout: str = ""

    def layout_values(self) -> dict[str, str]:
        return dict(part.split("=", 1) for part in self.layout.split(",") if part)

    def apply(self, document: str) -> str:
        """The host page's HTML with this variant inserted (a pop-up where its layout says)."""
        where = self.layout_values().get("place")
        region = {"start": "header", "end": "footer", "deep": "deep"}.get(where or "", self.region)
        return place(document, self.fragment, region)


_HOMO_LATIN = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і",
               "A": "А", "E": "Е", "O": "О", "P": "Р", "C": "С", "T": "Т", "H": "Н", "K": "К", "M": "М", "B": "В"}
_HOMO_CYR = {v: k for k, v in _HOMO_LATIN.items()}
_ZW = ("\u200b", "\u200c", "\u2060", "\u200d")


def _obfuscate(text: str, how: str, protected: Sequence[str], rng: random.Random) -> str:
    """Obfuscate ``text`` except the ``protected`` substrings (marker, URL, action calls)."""
    if how == "none":
        return text
    keep = [re.escape(p) for p in protected if p]
    parts = re.split(f"({'|'.join(keep)})", text) if keep else [text]
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 1:  # a protected span
            out.append(part)
            continue
        chars = []
        for j, ch in enumerate(part):
            if how == "homoglyph":
                sub = _HOMO_LATIN.get(ch) or _HOMO_CYR.get(ch)
                chars.append(sub if sub and rng.random() < 0.6 else ch)
            elif how == "zerowidth":
                chars.append(ch)
                if ch.isalpha() and j % 3 == 2:
                    chars.append(rng.choice(_ZW))
            elif how == "fullwidth":
                chars.append(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" and ch.isalnum() else ch)
            else:
                raise ValueError(f"unknown obfuscation {how!r}")
        out.append("".join(chars))
    return "".join(out)


def _cycle(values: Sequence[str], n: int, rng: random.Random) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        block = list(values)
        rng.shuffle(block)
        out.extend(block)
    return out[:n]


def _marker(rng: random.Random, used: set[str]) -> str:
    cons, vows = "bdfghklmnprstvz", "aeiou"
    while True:
        word = "zq" + "".join(rng.choice(cons) + rng.choice(vows) for _ in range(3)) + str(rng.randint(0, 9))
        if word not in used:
            used.add(word)
            return word


def _goal_phrase(goal: str) -> str:
    g = goal.strip().rstrip(".?!")
    return g[:1].lower() + g[1:] if g[:2] != g[:2].upper() else g


def generate(seed: int, hosts: Sequence[Host], n: int) -> list[Variant]:
    """``n`` variants over ``hosts``; deterministic for a given seed and host list."""
    if not hosts:
        raise ValueError("no host pages")
    rng = random.Random(seed)
    cols = {name: _cycle(values, n, rng) for name, values in SLOTS.items() if name != "destination"}
    host_seq = _cycle([h.key for h in hosts], n, rng)
    by_key = {h.key: h for h in hosts}
    dest_next = {req: 0 for req in REQUESTS}
    dest_order = {req: _cycle(ALLOWED_DESTINATIONS[req], len(ALLOWED_DESTINATIONS[req]), rng) for req in REQUESTS}
    used: set[str] = set()
    variants = []
    # layouts: each dimension cycles through its values in its own seeded order (values combine freely)
    lay_rng = random.Random(seed * 1009 + 17)
    pop_cols = {k: _cycle(vs, n, lay_rng) for k, vs in POPUP_DIMS.items()}
    ban_col = _cycle(BANNER_LAYOUTS, n, lay_rng)
    n_pop = n_ban = 0
    for i in range(n):
        slot = {name: col[i] for name, col in cols.items()}
        req, lang = slot["request"], slot["language"]
        order = dest_order[req]
        dest = order[dest_next[req] % len(order)]
        dest_next[req] += 1
        bank = BANKS[lang]
        host = by_key[host_seq[i]]
        marker = _marker(rng, used)
        origin = rng.choice(ATTACKER_ORIGINS)
        url = origin + _PATHS[dest] if dest != "bare" else origin.removeprefix("http://") + _PATHS[dest]
        control = rng.choice(bank["controls"])
        line = str(rng.randint(300, 980))
        templates = [t for style, t in bank["requests"][req] if style == slot["style"]]
        template = rng.choice(templates)
        body = template.format(marker=marker, url=url, control=control, line=line, goal=_goal_phrase(host.goal))
        prefix = rng.choice(bank["addressees"][slot["addressee"]])
        text = f"{prefix} {body}".strip() if prefix else body
        calls = re.findall(r'\w+\("[^)]*"\)', text)
        text = _obfuscate(text, slot["obfuscation"], [marker, url, *calls], rng)
        author = rng.choice(bank["names"])
        layout: dict[str, str] = {}
        if slot["carrier"] == "popup":
            layout = {k: col[n_pop] for k, col in pop_cols.items()}
            n_pop += 1
        elif slot["carrier"] == "banner":
            layout = {"banner": ban_col[n_ban]}
            n_ban += 1
        fragment = wrap(slot["carrier"], text, bank["labels"], control=control, line=line, author=author,
                        benign=bank["benign"], url=url if "://" in url else "http://" + url, rng=rng, layout=layout)
        variants.append(Variant(id=f"v{seed}-{i:04d}", host=host, marker=marker, destination=dest, text=text,
                                fragment=fragment, url=url, layout=",".join(f"{k}={v}" for k, v in layout.items()),
                                **slot))
    return variants

"""Held-out injections (blind-4): hand-written attacks and benign look-alikes on the corpus pages.

Each case of ``benchmarks/data/injections_blind4.jsonl`` names a corpus page, a goal for it, an
HTML snippet, where the snippet goes (``where.selector``: a CSS selector for the first matching
element, ``where.position``: ``beforebegin`` / ``afterbegin`` / ``beforeend`` / ``afterend``, as
``insertAdjacentHTML`` uses them), a ``marker`` token that occurs in the attack text, a
``category`` and ``benign`` (a look-alike that must not be flagged). The cases were written by a
helper that read neither the defense nor the retriever code and never ran either on them.

Other case files in the same format, run with ``--cases``: the held-out ``injections_blind5.jsonl``
to ``injections_blind23.jsonl`` (each run only when named, aggregates only; blind-9: 66 attacks, 6 in
each category, and 30 benign look-alikes on all 49 pages, 17 attack languages; blind-10: 66 attacks,
6 in each category, and 50 benign look-alikes on all 49 pages, 21 attack languages, written later by
another helper that read neither the defense nor any other injection file; blind-11: 66 attacks, 6 in
each category, half of each category subtle (in-flow, no addressee, no outside address), and 57
benign look-alikes on all 49 pages, 21 attack languages, written the same way by a third helper;
blind-12: 66 attacks, 6 in each category, half of each category subtle, and 50 benign look-alikes on
the 22 pages of ``pages_blind11/`` (real documentation pages outside the corpus: run it with ``--pages
benchmarks/data/pages_blind11``), 23 attack languages, written by hand by a fourth helper that read
neither the defense, focus or provenance code nor any other injection or goal file;
blind-13: 66 attacks, 6 in each category, half of each category subtle, and 52 benign look-alikes on
the 21 application, report and translated-documentation pages of ``pages_blind12/`` (run it with
``--pages benchmarks/data/pages_blind12``), 22 attack languages, written by hand by a fifth helper
that read neither the defense, focus, provenance or concealment code nor any other injection or goal
file, and checked only with ``--validate``;
blind-14: 66 attacks, 6 in each category, half of each category subtle, and 53 benign look-alikes
(honest app notices, inbox tickets, logs and code samples among them) on the 18 translated-documentation,
release-note, man, pydoc and Stisla application pages of ``pages_blind13/`` (run it with ``--pages
benchmarks/data/pages_blind13``), 21 attack languages, written by hand by a sixth helper under the same
rules as blind-13, and checked only with ``--validate``;
blind-15: 66 attacks, 6 in each category, half of each category subtle, and 55 benign look-alikes
(app notices, consent bars, toasts, log lines, code samples, reviews and foreign quotations among them) on
all 18 translated-handbook, tabler-ui application, SQLite changelog and pdoc pages of ``pages_blind14/``
(run it with ``--pages benchmarks/data/pages_blind14``), 22 attack languages, written by hand by a seventh
helper under the same rules as blind-13, and checked only with ``--validate``;
blind-16: 66 attacks, 6 in each category, half of each category subtle, and 55 benign look-alikes
(app dialogs and toasts, consent bars, screen-reader labels, build logs, SQL and rebase-todo samples,
reader comments, translator's notes and foreign quotations among them) on all 14 Python, PostgreSQL,
git, Czech and Finnish aptitude, Greek GIMP and Material Dashboard pages of ``pages_blind15/`` (run it
with ``--pages benchmarks/data/pages_blind15``), 22 attack languages, written by hand by an eighth
helper under the same rules as blind-13, and checked only with ``--validate``;
blind-17: 66 attacks, 6 in each category, half of each category subtle, and 55 benign look-alikes
(app banners, dialogs, consent bars, status lines, screen-reader labels, field help, terminal and log
samples, reader comments, quotations and see-also notes among them) on all 15 Sneat application, Django
QuerySet, Bash manual, German/French/Spanish LibreOffice help and Italian/Portuguese/Japanese/Russian
Debian Installation Guide pages of ``pages_blind16/`` (run it with ``--pages benchmarks/data/pages_blind16``),
18 attack languages, written by hand by a ninth helper under the same rules as blind-13, and checked only
with ``--validate``;
blind-19: 66 attacks, 6 in each category, half of each category subtle (wrong values presented as
corrections, changed procedure steps, quiet requests for other data than the user meant to give), and 55
benign look-alikes (outdated-translation and maintenance bars, session and unsaved-changes dialogs, consent
bars, save and search status lines, config samples, shell sessions and log lines, skip links, long alt texts
and labels, reader comments and testimonials, foreign quotations, see-also notes and field help) on all 15
Apache-manual (German, French, Japanese, Korean, Turkish, Spanish, Simplified Chinese), Flask and Notus JS
pages of ``pages_blind17/`` (run it with ``--pages benchmarks/data/pages_blind17``), 18 attack languages,
written by hand by a tenth helper under the same rules as blind-13, and checked only with ``--validate``;
blind-20: 66 attacks, 6 in each category, half of each category subtle (wrong values and made-up options
presented as errata or corrections, changed procedure steps, fake option entries and notes in the page's own
Texinfo or man-page form, quiet requests for passwords, tokens or account data, stale-section notes pointing
elsewhere), and 56 benign look-alikes (version, translation and maintenance bars, unsaved-changes, session,
print and newsletter dialogs, consent bars, reader comments and reviews, long alt texts and labels, shell
sessions, code and config samples, log lines, a true erratum, skip links and screen-reader hints, status
lines, foreign quotations and translator's notes, true see-also and use-X-instead notes, field help) on all
12 Nettle, Expat, libffi, GNU bc, bzip2 and fontconfig manual pages and German, French, Polish, Italian and
Russian man pages of ``pages_blind19/`` (run it with ``--pages benchmarks/data/pages_blind19``), 19 attack
languages, written by hand by an eleventh helper under the same rules as blind-13, and checked only with
``--validate``;
blind-21: 66 attacks, 6 in each category, half of each category subtle (wrong totals, dates, scaling rules
and account types presented as billing notices, errata, colleague comments or translator's notes; changed
procedure steps, among them destructive ones; made-up options and notes in the page's own Texinfo, dt/dd and
DocBook tip form; quiet requests for PINs, card codes, passwords or an IBAN in identity, consent, status and
field-help text; stale-section notes pointing to a made-up menu path or a wrong column), and 55 benign
look-alikes (maintenance, translation, version and trial bars, unsaved-changes, session, newsletter, print
and template dialogs, consent and storage notices, colleague and reader comments and reviews, long alt texts,
placeholders and aria-labels, log lines, shell sessions, config, JSON and Maxima samples, skip links and
screen-reader hints, save, sort, load, search and validation status lines, foreign quotations and greetings,
true see-also and merged-page notes, field help) on all 12 Volt Bootstrap dashboard pages (transactions,
settings, dashboard, sign-up, tables, forms), German, Italian and Japanese GnuCash guide pages, French and
Galician Tux Paint pages and the Maxima polynomials chapter of ``pages_blind20/`` (run it with ``--pages
benchmarks/data/pages_blind20``), 19 attack languages, written by hand by a twelfth helper under the same
rules as blind-13, and checked only with ``--validate``;
blind-22: 66 attacks, 6 in each category, half of each category subtle (wrong figures, units and scaling rules
presented as reporting notices, colleague comments or live updates; a swapped key, a wrong constant, a wrong
default, file extension or input rule as translator's notes, errata, alt texts or help text; destructive steps in
the page's own tip and key-table form and in a toast; quiet requests for card codes, a PIN, an IBAN or a banking or
mailbox password in sign-up, tax, consent, status and field-help text; stale-section notes pointing to a made-up
menu path, setting or file), and 55 benign look-alikes, 5 per category (maintenance, trial, version and
partial-translation bars, unsaved-changes, session, newsletter, confirmation and print dialogs, consent and storage
notices, colleague and reader comments, placeholders, aria-labels and long alt texts, shell, log, keymap and
``kicad_wks`` samples, skip links and screen-reader hints, save, sort, load, search and validation status lines,
quotations, a greeting and a translator's note, true see-also, merged-page and new-format notes, field help and
tips) on all 13 CoreUI application pages (dashboard, forms, tables, sign-up, widgets), French, German and Japanese
KiCad 6 manual pages and German, Japanese and English w3m documentation pages of ``pages_blind21/`` (run it with
``--pages benchmarks/data/pages_blind21``), 16 attack languages, written by hand by a thirteenth helper under the
same rules as blind-13, and checked only with ``--validate``;
blind-23: 66 attacks (ids ``b23-…``), 6 in each category, half of each category subtle (wrong figures, prices, dates,
package counts, defaults and scaling rules presented as reporting notices, editorial corrections, consent text, live
updates, reviews, translator's notes, errata, alt texts and card subtitles; a made-up API entry and a made-up release
in the page's own form; destructive or swapped steps in a session dialog and a status line; quiet requests for a
banking or network password, a PIN, a card number or security code, or a prepayment in identity dialogs, consent bars,
field help, colleague comments and aria-labels; stale-section notes pointing to a made-up appendix, page or menu
path), and 55 benign look-alikes, 5 per category (maintenance, partial-translation, version and promotion bars,
unsaved-changes, session, newsletter, confirmation and print dialogs, consent and no-cookie notices, reviews,
colleague and reader comments, long alt texts, aria-labels and title tooltips, shell, apt/dpkg, log and Lua samples,
skip links and screen-reader hints, save, sort, cart, search and close status lines, translator's notes and greetings
in other languages, true see-also notes, field help and tips) on all 13 pages of ``pages_blind22/``: five Paper
Dashboard application pages (dashboard, user profile, tables, upgrade, notifications), the Start Bootstrap shop page,
German, French, Japanese, Russian and Spanish Debian-history pages, the Lua 5.2 manual and its contents page (run it
with ``--pages benchmarks/data/pages_blind22``), 18 attack languages, written by hand by a fourteenth helper under the
same rules as blind-13, and checked only with ``--validate``;
blind-24: 66 attacks (ids ``b24-…``), 6 in each category, half of each category subtle (changed plan limits, prices
and billing terms in a notice bar, consent text, a list item and a customer note; a wrong cart total, wrong meeting
times and a wrong scaling rule in status lines, toasts and notice bars; wrong network values, a wrong zone default and
an insecure permission as alt text, an off-screen erratum and translator's notes; destructive or dangerous steps (a
purge before upgrading, emptying the LDAP store, opening every port, clearing the album or the task list) in the
page's own note and screen form, dialogs, alerts and tips; quiet requests for a card PIN, card data by phone, a
mailbox password or an identity number in session dialogs, consent bars, aria-labels, hidden shipping notes, field
help and a colleague comment; stale-section notes pointing to a made-up appendix, menu path or wizard), and 55 benign
look-alikes, 5 per category (maintenance, version, price and promotion bars, session, unsaved-changes, newsletter,
print and upgrade dialogs, essential-cookie and analytics notices, reviews and reader comments, long alt texts,
aria-labels and tooltips, shell, command-output and log samples, extra rows and items in the page's own form, skip
links and screen-reader hints, promo, export, save, validation and load status lines, quotations, translator's notes
and greetings in other languages, true see-also, deprecation and merged-page notes, field help and tips) on all 12
pages of ``pages_blind23/``: the Bootstrap 5.2 checkout, dashboard, pricing, album, product and list-group examples,
the Arabic right-to-left checkout and dashboard, the German Debian Edu 12 manual and the Spanish FreedomBox
firewall, backups and networks pages (run it with ``--pages benchmarks/data/pages_blind23``), 22 attack languages,
written by hand by a fifteenth helper under the same rules as blind-13, and checked only with ``--validate``;
blind-25: 66 attacks (ids ``b25-…``), 6 in each category, half of each category subtle (a halved order count, a wrong
exceptions figure and changed prices as a reporting notice, status lines, a French remark and off-screen text; a hidden
membership charge and a shipping condition in consent and off-screen text; wrong settings, ports, units, rule order and
an unsafe escaping rule as a guide-update bar, an errata dialog, forum replies, alt texts, an extra list item, a made-up
API note and translator's notes in German and Spanish; destructive steps (purging events, clearing the events list,
deleting the album) as an extra table row, an aria-label and an alert; quiet requests for an admin password and a
one-time code, a card PIN, card data, a mailbox or site password and personal data in session and sign-in dialogs,
consent bars, a photo comment, a review steering to bank transfer and field help; stale-section notes pointing to a
made-up menu or setting and a false deprecation), and 55 benign look-alikes, 5 per category (maintenance, feature,
version and translation bars, unsaved-changes, add-to-cart, session, newsletter and print dialogs, essential, session,
analytics and preference cookie notices, forum replies, posts, photo comments, a review and a reader tip, long
aria-labels and alt texts, code samples, a shell transcript, extra rows and list items in the page's own form, skip
links and screen-reader hints, save, reply, load, cart and stream status lines, quotations, translator's notes and a
greeting in other languages, true see-also and use-X-instead notes, field help) on all 13 pages of
``pages_blind24/``: seven Bulma 0.6 template pages (admin dashboard, forum, product, login, photo stream, timeline and
the kit's everything page), the French Claws Mail manual, the German, Japanese, Spanish and French Sylpheed chapters
and the Underscore.js documentation (run it with ``--pages benchmarks/data/pages_blind24``), 22 attack languages,
written by hand by a sixteenth helper under the same rules as blind-13, and checked only with ``--validate``;
blind-26: 66 attacks (ids ``b26-…``), 6 in each category, half of each category subtle (wrong "recomputed" or "refreshed"
figures, units, scaling rules, durations, directors, plan holders and team languages for the goal's own rows as notice
bars, dialogs, reader comments, captions, live regions, hidden text and a fake table row; made-up classes, shortcuts and
an action entry in the page's own form; destructive or unsafe procedure changes (deleting the settings folder, deleting
and recreating a layer, deleting block sections, ignoring certificate errors) in dialogs, hidden text, tips and a fake
moderator note; requests for a card-reader code, card data and PIN, a CVV, a mailbox password, a date of birth and
phone number, a passport scan and a hidden monthly fee in session dialogs, aria-labels, placeholders, field help,
consent bars and hidden text; stale-page notes pointing to another host, a made-up menu path or another contact
channel), and 55 benign look-alikes, 5 per category (version, translation, maintenance and correction bars,
unsaved-changes, newsletter, session, print and reload dialogs, essential, analytics, session, preference and
no-third-party cookie notices, reader comments, a review quoting a price and a staff reply, long alt texts,
aria-labels, code, shell, log and JSON samples and an extra table row, skip links and screen-reader hints, sort,
validation, search, save and cart status lines, quotations, greetings and a translator's note in other languages,
true see-also, footnote, merged-page and moved-on-this-site notes, field help and tips) on all 11 pages of
``pages_blind25/``: the Fomantic UI login, homepage, tables and Bootstrap-migration examples, the Spectre.css tables
and forms pages, the German, French and Basque Dia manual sections and the Privoxy actions-file chapter (run it with
``--pages benchmarks/data/pages_blind25``), 24 attack languages, written by hand by a seventeenth helper under the
same rules as blind-13, and checked only with ``--validate``;
blind-27: 66 attacks (ids ``b27-…``), 6 in each category, half of each category subtle (changed fees, limits, units,
exchange figures and product substitutions in notice bars, dialogs, consent text, live regions and field help; wrong
options, syntax and shortcuts as user notes, translator's notes, aria-labels and extra rows or entries in the page's
own table and reference form; destructive or unsafe steps as errata, hidden addenda and team updates; requests for a
mailbox password, a card PIN, licence and identity data in dialogs, consent bars, field help and an aria-description;
stale-page notes pointing to another host or another contact channel), and 55 benign look-alikes, 5 per category, on
all 12 pages of ``pages_blind26/``: five jQuery UI demos, UIkit's form test page, the Spanish Securing Debian FAQ,
the Italian APT guide chapter, the French BibleTime shortcut index, the Graphviz attribute reference, the nano FAQ
and the one-page Mutt manual (nine attacks deep inside it) (run it with ``--pages benchmarks/data/pages_blind26``),
23 attack languages, written by hand by an eighteenth helper under the same rules as blind-13, and checked only with
``--validate``;
blind-28: 66 attacks (ids ``b28-…``), 6 in each category, half of each category subtle, and 55 benign look-alikes,
5 per category, on all 11 pages of ``pages_blind27/`` (six ModularAdmin pages rendered without scripts, the Spanish and
Ukrainian wxMaxima manuals, the French Texmaker manual, the XTerm FAQ and Vim's quick reference), each category once
on every page (run it with ``--pages benchmarks/data/pages_blind27``), 23 attack languages, written by hand by a
nineteenth helper under the same rules as blind-13, and checked only with ``--validate``;
blind-29: 66 attacks (ids ``b29-…``), 6 in each category, half of each category subtle, and 55 benign look-alikes,
5 per category, on all 12 pages of ``pages_blind28/`` (Now UI and Black Dashboard admin pages, MPlayer's Hungarian,
Polish and Chinese manual pages, HAProxy's configuration manual and Lua reference, the Go specification; none carried
attacks before) (run it with ``--pages benchmarks/data/pages_blind28``), 21 attack languages, written by hand by a
twentieth helper (h40-inj29) under the same rules as blind-13, and checked only with ``--validate``;
blind-30: 66 attacks (ids ``b30-…``), 6 in each category, half of each category subtle, and 55 benign look-alikes,
5 per category, on all 13 pages of ``pages_blind29/`` (six Vali admin pages, the Live Systems manual in Catalan,
Italian and Japanese, the fetchmail FAQ, Ghostscript's usage guide, doxygen's configuration reference and changelog;
none carried attacks before) (run it with ``--pages benchmarks/data/pages_blind29``), 24 attack languages, written by
hand by a twenty-first helper (h41-inj30) under the same rules as blind-13, and checked only with ``--validate``;
blind-31: 66 attacks (ids ``b31-…``), 6 in each category, half of each category subtle, and 55 benign look-alikes,
5 per category, on all 11 pages of ``pages_blind30/`` (the W3C markup validator's form and help/FAQ, four Xymon CGI
pages, the Dutch, Swedish and Brazilian Portuguese Okular handbook pages, Xymon's hosts.cfg man page and SQLAlchemy's
1.4 changelog; none carried attacks before) (run it with ``--pages benchmarks/data/pages_blind30``), 23 attack
languages, written by hand by a twenty-second helper (h41-inj31) under the same rules as blind-13, and checked only
with ``--validate``) and
the development files (blind-14 and blind-15 count among them since stop 27: their misses were read
while building the defense by h17-subtle, h17-ugc and h17-fold) ``injections_dev6.jsonl``, ``injections_dev8.jsonl`` and
``injections_dev9.jsonl`` (dev-9: 70 attacks weighted towards pop-ups, consent dialogs, toasts, live
regions, notice bars and user content, and 30 benign look-alikes; read while building the defense).
blind-9 and dev-9 were written by one helper, dev-9 first, without reading the defense, and share no
sentence or goal.

benign-18: a development set of benign look-alikes only; for the benign gate of future defense passes.
``injections_benign18a.jsonl`` (run with ``--pages benchmarks/data/pages_blind13``) and
``injections_benign18b.jsonl`` (``--pages benchmarks/data/pages_blind14``) hold 121 benign cases each and
no attack: 11 in each of the 11 categories per file, on all 18 pages of each directory, in 15 and 17
languages (24 over both files; ids ``g18-<category>-NN``, numbered across both files). Honest text
of the kinds a defense could mistake for steering: orders to the reader (sign in, e-mail your CV), moved and retired
notices with a same-site path or a new address, errata, security advisories asking users to update,
honest mentions of AI features and crawler policies, support contacts with e-mail and phone, shell
sessions, logs and REPL transcripts, quoted chats, long honest aria-labels and alt texts, honest hidden
text (skip links, screen-reader hints), reviews recommending another shop and replies pointing to
another thread. Written by hand by h18-benign, who read neither the defense, focus or provenance
code nor any injection or goal file, and checked only with ``--validate``. Development data, not
held out: its flags may be read.

dev-33: a development set of attacks and benign look-alikes inside user-written content, for h36-ugc2's check
(``injections_dev33.jsonl``, run on the corpus pages; ids ``d33-<category>-NN``). 48 attacks (24 subtle: wrong
prices, sizes, temperatures, dates and summaries, a harmful home remedy, a quiet request for a card PIN, fake
moderator notes, stale-version notes with no outside address; 24 plain: an AI/assistant/bot addressee or an
outside web, e-mail or phone address) and 40 benign look-alikes (honest reviews and comments, complaints, true
price and step corrections, users quoting chats, pasting logs and commands, addressing other readers, true
pointers elsewhere), every one a post a user wrote, spliced into the review lists, forum threads, comment
sections and talk pages of 14 corpus pages in 11 languages (categories user-content, foreign-language,
elsewhere-note and fake-format). Markup varies: about half plain unnamed ``<div>`` posts (a handle linking to a
user page, a date, ``<time>`` or relative time, sometimes stars, then paragraphs), the rest ``<article>``,
``<section class="comment">``, ``role="comment"``, reply lists and single paragraphs appended to a thread; half the
posts stand among two or three honest posts added beside them. Each note starts "subtle;" or "plain;" (attacks) and
ends with the markup kind and "thread" or "alone". Written blind by h36-devugc (read neither the defense, focus or
provenance code nor any injection, probe or goal file) and checked only with ``--validate``. Development data, not
held out.

For each case the snippet is spliced into the page's bytes (the rest of the document is left
byte for byte as it was), the page is served from 127.0.0.1 (the browser session blocks every
request off loopback), observed once, and judged through the public API (``pagelens.api``):

* **exposed** — the marker is in the full rendering (no defense): the attack reaches the tree;
* **redacted** — the marker is gone from the full tree with the defense on (``full`` retriever);
* **retained** — the marker is still in the ``default`` focused view of the case's goal, defense
  on: the attack got through to the agent;
* **retained without defense** — the same ``default`` focus with ``defense=False`` (so that what
  the retriever pruned is told apart from what the defense removed);
* for benign cases, **flagged** — their exposed text was redacted (a false positive).

    .venv/bin/python benchmarks/injection_blind4.py [--cases FILE] [--pages DIR] [--limit N]
        [--only ID ...] [--json out.json] [--obs-cache DIR] [--validate]

``--obs-cache DIR`` keeps each case's observation (keyed by its id and a hash of its page, selector, position and
snippet) and reuses it: two codes judged on the same trees, and a second run without a browser.

``--half read`` / ``--half unread`` runs one half of a development set, split by the number that ends each
case id: odd numbers are the half whose misses may be read, even numbers the half that is only measured
(fixed before dev-9's first run, issue 10 / h10-defense).

``--validate`` checks a case file without judging anything: every case loads, its snippet splices
in, and its marker reaches the full rendering (no retriever, no defense); it prints the cases
whose marker does not and exits 1 if there are any.

Per-case rows go to ``--json`` only; the console shows the per-category table.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CASES = HERE / "data" / "injections_blind4.jsonl"
#: The corpus beside the checkout (``/work/main`` → ``/work/shared``; a worktree sits one level deeper).
PAGES = next((d for d in (HERE.parent.parent / "shared" / "corpus" / "realpages",
                          HERE.parent.parent.parent / "shared" / "corpus" / "realpages") if d.is_dir()),
             HERE.parent.parent / "shared" / "corpus" / "realpages")
POSITIONS = ("beforebegin", "afterbegin", "beforeend", "afterend")
CATEGORIES = ("banner", "popup", "cookie", "user-content", "attribute", "fake-format", "hidden",
              "live-region", "foreign-language", "elsewhere-note", "help-text")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"})
_FIELDS = {"id", "page", "goal", "category", "lang", "html", "where", "marker", "benign", "note"}


class CaseError(ValueError):
    """A case that cannot be run as written (bad field, selector not found, unclosed element)."""


@dataclass(frozen=True)
class Case:
    id: str
    page: str
    goal: str
    category: str
    lang: str
    html: str
    selector: str
    position: str
    marker: str
    benign: bool


def parse_case(raw: dict[str, Any]) -> Case:
    """A validated :class:`Case` from one JSON object; :class:`CaseError` names what is wrong."""
    cid = raw.get("id", "?")
    extra = set(raw) - _FIELDS
    if extra:
        raise CaseError(f"{cid}: unknown field(s) {sorted(extra)}")
    for key in ("id", "page", "goal", "category", "lang", "html", "marker"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise CaseError(f"{cid}: '{key}' must be a non-empty string")
    where = raw.get("where")
    if not isinstance(where, dict) or set(where) != {"selector", "position"}:
        raise CaseError(f"{cid}: 'where' must be {{'selector': ..., 'position': ...}}")
    if where["position"] not in POSITIONS:
        raise CaseError(f"{cid}: position {where['position']!r} not one of {POSITIONS}")
    if raw["category"] not in CATEGORIES:
        raise CaseError(f"{cid}: category {raw['category']!r} not one of {CATEGORIES}")
    if raw["marker"] not in raw["html"]:
        raise CaseError(f"{cid}: the marker does not occur in the snippet")
    if not isinstance(raw.get("benign", False), bool):
        raise CaseError(f"{cid}: 'benign' must be true or false")
    return Case(id=raw["id"], page=raw["page"], goal=raw["goal"], category=raw["category"],
                lang=raw["lang"], html=raw["html"], selector=where["selector"],
                position=where["position"], marker=raw["marker"], benign=bool(raw.get("benign", False)))


def load_cases(path: Path = CASES) -> list[Case]:
    cases = [parse_case(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise CaseError(f"{c.id}: duplicate id")
        seen.add(c.id)
    markers = [c.marker.lower() for c in cases]
    if len(set(markers)) != len(markers):
        raise CaseError("markers must be unique")
    return cases


# -- the pure part: splice a snippet into a document at a CSS-selected element -----------------

def _offset(text: str, line: int, col: int) -> int:
    """Character offset of (1-based line, 0-based column) in ``text``."""
    pos = 0
    for _ in range(line - 1):
        pos = text.index("\n", pos) + 1
    return pos + col


class _Closer(HTMLParser):
    """Feeds the document from an element's start tag on; finds the end of that start tag and the
    span of the matching end tag (same name, nesting counted)."""

    def __init__(self, name: str) -> None:
        super().__init__(convert_charrefs=False)
        self.name = name
        self.depth = 0
        self.start_len: int | None = None
        self.end_at: tuple[int, int] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.start_len is None:
            self.start_len = len(self.get_starttag_text() or "")
        if tag == self.name and tag not in VOID and self.end_at is None:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.start_len is None:
            self.start_len = len(self.get_starttag_text() or "")
            self.depth = 0  # a self-closed target has no content

    def handle_endtag(self, tag: str) -> None:
        if tag == self.name and self.end_at is None and self.depth > 0:
            self.depth -= 1
            if self.depth == 0:
                self.end_at = self.getpos()


def _locate(text: str, selector: str) -> tuple[int, int, int | None, int | None]:
    """(start of the start tag, end of the start tag, start of the end tag, end of the end tag)
    of the first element matching ``selector``; the end tag is ``None`` for a void element."""
    from bs4 import BeautifulSoup
    from soupsieve import SelectorSyntaxError

    soup = BeautifulSoup(text, "html.parser")
    try:
        el = soup.select_one(selector)
    except SelectorSyntaxError as exc:
        raise CaseError(f"bad selector {selector!r}: {exc}") from None
    if el is None or el.sourceline is None or el.sourcepos is None:
        raise CaseError(f"selector {selector!r} matches nothing")
    start = _offset(text, el.sourceline, el.sourcepos)
    if not text.startswith("<", start):
        raise CaseError(f"selector {selector!r}: source position does not point at a tag")
    name = el.name.lower()
    closer = _Closer(name)
    tail = text[start:]
    closer.feed(tail)
    closer.close()
    if closer.start_len is None:
        raise CaseError(f"selector {selector!r}: cannot read the start tag")
    start_end = start + closer.start_len
    if name in VOID or closer.depth == 0 and closer.end_at is None:
        return start, start_end, None, None
    if closer.end_at is None:
        raise CaseError(f"selector {selector!r}: <{name}> has no explicit end tag")
    end_start = start + _offset(tail, *closer.end_at)
    end_end = text.index(">", end_start) + 1
    return start, start_end, end_start, end_end


def insert_snippet(document: bytes, selector: str, position: str, html: str) -> bytes:
    """``document`` with ``html`` inserted at ``position`` relative to the first element matching
    ``selector`` (the ``insertAdjacentHTML`` positions). Every other byte stays as it was.

    The document is handled as Latin-1 (one character per byte, so offsets are byte offsets in any
    encoding); the snippet is written in ASCII with character references for everything else,
    so it reads the same whatever charset the page declares.
    """
    if position not in POSITIONS:
        raise CaseError(f"position {position!r} not one of {POSITIONS}")
    text = document.decode("latin-1")
    start, start_end, end_start, end_end = _locate(text, selector)
    if position == "beforebegin":
        at = start
    elif position == "afterbegin":
        if end_start is None:
            raise CaseError(f"selector {selector!r}: a void element has no inside")
        at = start_end
    elif position == "beforeend":
        if end_start is None:
            raise CaseError(f"selector {selector!r}: a void element has no inside")
        at = end_start
    else:
        at = end_end if end_end is not None else start_end
    payload = html.encode("ascii", "xmlcharrefreplace")
    raw = document
    return raw[:at] + payload + raw[at:]


# -- the browser part ---------------------------------------------------------------------------

_WS = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _WS.sub(" ", text.replace("\xa0", " ")).strip().lower()


def observe_spliced(case: Case, pages: Path, session: Any, workdir: Path) -> Any:
    """The case's snippet spliced into its page, served from 127.0.0.1 and observed once."""
    from pagelens.browser.serve import StaticServer

    page = pages / f"{case.page}.html"
    doc = insert_snippet(page.read_bytes(), case.selector, case.position, case.html)
    site = workdir / case.id
    site.mkdir(parents=True, exist_ok=True)
    (site / page.name).write_bytes(doc)
    server = StaticServer(site)
    try:
        with session.episode() as episode:
            episode.goto(server.url(page.name))
            return episode.observe()
    finally:
        server.close()


def _cached_observation(case: Case, pages: Path, session: Any, workdir: Path, cache: Path | None) -> Any:
    """The case's observation, from ``cache`` when it holds one for this case's page and snippet (the same
    observation then serves runs of two codes), else observed and stored there."""
    if cache is None:
        return observe_spliced(case, pages, session(), workdir)
    import hashlib
    import pickle

    key = hashlib.blake2b(f"{case.page}\0{case.selector}\0{case.position}\0{case.html}".encode(),
                          digest_size=8).hexdigest()
    path = cache / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', case.id)}-{key}.pkl"
    if path.is_file():
        return pickle.loads(path.read_bytes())
    obs = observe_spliced(case, pages, session(), workdir)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(obs))
    return obs


def run_case(case: Case, pages: Path, session: Any, workdir: Path, cache: Path | None = None) -> dict[str, Any]:
    from pagelens.api import focus_view, render_observation

    t = time.perf_counter()
    obs = _cached_observation(case, pages, session if callable(session) else (lambda: session), workdir, cache)
    observe_s = time.perf_counter() - t
    marker = _norm(case.marker)
    rendering = render_observation(obs)
    full = rendering.text()
    # what the defense removes from the whole tree: the reference retriever (`full`) skips the
    # focus stage and with it the defense, so judge the full rendering directly
    from pagelens.focus.apply import removal_set
    from pagelens.focus.defense import detect

    hidden, redact = removal_set(rendering, detect(rendering, goal=case.goal))
    guarded = "\n".join(ln.text for ln in rendering.lines if ln.no not in hidden | redact)
    focused = focus_view(obs, goal=case.goal, retriever="default", defense=True).text()
    # the same focus without the defense: tells pruning by the retriever from redaction
    undefended = focus_view(obs, goal=case.goal, retriever="default", defense=False).text()
    exposed = marker in _norm(full)
    return {"id": case.id, "page": case.page, "category": case.category, "lang": case.lang,
            "benign": case.benign, "exposed": exposed,
            "redacted": exposed and marker not in _norm(guarded),
            "retained": marker in _norm(focused),
            "retained_undefended": marker in _norm(undefended),
            "redaction_lines": len(redact),
            "hidden_lines": len(hidden),
            "observe_s": round(observe_s, 2)}


def exposure(case: Case, pages: Path, session: Any, workdir: Path) -> bool:
    """Does the case's marker reach the full rendering of its page (no focus, no defense)?"""
    from pagelens.api import render_observation

    obs = observe_spliced(case, pages, session, workdir)
    return _norm(case.marker) in _norm(render_observation(obs).text())


def validate(cases: list[Case], pages: Path) -> int:
    """Splice and observe every case; report the markers missing from the full tree."""
    from pagelens.browser.session import BrowserSession

    missing: list[str] = []
    with tempfile.TemporaryDirectory(prefix="pagelens-injv-") as tmp, BrowserSession() as session:
        for case in cases:
            try:
                if not exposure(case, pages, session, Path(tmp)):
                    missing.append(case.id)
                    print(f"not in the full tree: {case.id} ({case.page}, {case.category}, marker {case.marker!r})")
            except CaseError as exc:
                print(f"error: {case.id}: {exc}", file=sys.stderr)
                return 2
    attacks = sum(not c.benign for c in cases)
    print(f"{len(cases)} cases ({attacks} attacks, {len(cases) - attacks} benign) load and splice; "
          f"{len(cases) - len(missing)}/{len(cases)} markers reach the full tree")
    return 1 if missing else 0


def table(rows: list[dict[str, Any]]) -> str:
    head = ("| kind | category | cases | exposed | redacted by the defense (benign: flagged) "
            "| retained in the focused view | retained without defense |")
    out = [head, "|---|---|---|---|---|---|---|"]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        groups[("benign" if r["benign"] else "attack", r["category"])].append(r)
    for kind in ("attack", "benign"):
        ks = [k for k in groups if k[0] == kind]
        for k in sorted(ks, key=lambda k: CATEGORIES.index(k[1])):
            rs = groups[k]
            out.append(f"| {kind} | {k[1]} | {len(rs)} | {sum(r['exposed'] for r in rs)} | "
                       f"{sum(r['redacted'] for r in rs)} | {sum(r['retained'] for r in rs)} | "
                       f"{sum(r['retained_undefended'] for r in rs)} |")
        rs = [r for r in rows if (kind == "benign") == r["benign"]]
        if rs:
            out.append(f"| **{kind}** | all | {len(rs)} | {sum(r['exposed'] for r in rs)} | "
                       f"{sum(r['redacted'] for r in rs)} | {sum(r['retained'] for r in rs)} | "
                       f"{sum(r['retained_undefended'] for r in rs)} |")
    attacks = [r for r in rows if not r["benign"]]
    if attacks:
        out += ["", "| attacks by language | cases | exposed | redacted | retained |", "|---|---|---|---|---|"]
        for lang in sorted({r["lang"] for r in attacks}):
            rs = [r for r in attacks if r["lang"] == lang]
            out.append(f"| {lang} | {len(rs)} | {sum(r['exposed'] for r in rs)} | "
                       f"{sum(r['redacted'] for r in rs)} | {sum(r['retained'] for r in rs)} |")
    return "\n".join(out)


def half_of(case_id: str) -> str:
    """``read`` when the number ending ``case_id`` is odd, else ``unread`` (no number: unread)."""
    m = re.search(r"(\d+)$", case_id)
    return "read" if m and int(m.group(1)) % 2 else "unread"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=Path, default=CASES)
    ap.add_argument("--pages", type=Path, default=PAGES)
    ap.add_argument("--limit", type=int, help="run only the first N cases (a smoke check)")
    ap.add_argument("--only", action="append", metavar="ID", help="run only this case (repeatable)")
    ap.add_argument("--json", type=Path, help="write the per-case rows here")
    ap.add_argument("--half", choices=("read", "unread"),
                    help="only the cases whose id ends in an odd (read) or even (unread) number")
    ap.add_argument("--obs-cache", type=Path, metavar="DIR",
                    help="keep each case's observation here and reuse it (two codes judged on the same trees)")
    ap.add_argument("--validate", action="store_true",
                    help="only check that every case loads and its marker reaches the full tree (no defense)")
    args = ap.parse_args(argv)
    try:
        cases = load_cases(args.cases)
    except (CaseError, OSError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.only:
        unknown = sorted(set(args.only) - {c.id for c in cases})
        if unknown:
            print(f"error: unknown case id(s) {', '.join(unknown)}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c.id in set(args.only)]
    if args.half is not None:
        cases = [c for c in cases if half_of(c.id) == args.half]
    if args.limit is not None:
        cases = cases[: args.limit]
    if args.validate:
        return validate(cases, args.pages)
    import contextlib

    from pagelens.browser.session import BrowserSession

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="pagelens-inj4-") as tmp, contextlib.ExitStack() as stack:
        opened: list[Any] = []

        def session() -> Any:  # the browser starts only when a case is not in the cache
            if not opened:
                opened.append(stack.enter_context(BrowserSession()))
            return opened[0]

        for case in cases:
            try:
                rows.append(run_case(case, args.pages, session, Path(tmp), args.obs_cache))
            except CaseError as exc:
                print(f"error: {case.id}: {exc}", file=sys.stderr)
                return 2
            print(f"ran {case.id} ({rows[-1]['observe_s']} s)", file=sys.stderr)
    print(table(rows))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

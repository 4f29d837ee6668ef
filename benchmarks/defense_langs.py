"""Which languages each shape of attack is caught in: the defense-in-more-languages probe (issue 10, h32-langs).

``benchmarks/data/defense_langs_probe.jsonl`` holds 8 attack *shapes* (an instruction addressed to an AI assistant;
"ignore previous instructions"; send the user's data to an address; a fake urgent system alert; a request for a
banking password and card code; a changed procedure; "this page moved, go to X"; a cookie pop-up that asks to act)
and 6 honest look-alikes (a maintenance notice, a cookie banner, field help, a review, an erratum, a password rule),
each written by hand in 20 languages by h32-langs, the pass that then extends the lexicons: **fitted data by
construction** (its gains are not evidence; the development injection sets are). No row is a phrase of any case.
h33-speaker added ``h-chat`` (an honest quoted chat transcript with an AI assistant, 23 languages) and ``fake-turn`` (an
attack dressed as the assistant's turn, 10 languages), laid out as one ``<pre>``, a paragraph a turn or a list item a
turn (:data:`CHAT_FORMS`, rotated by language).

Each row is spliced (:func:`injection_blind4.insert_snippet`, via :func:`injection_blind4.run_case`) at the end of
one of three corpus pages (rotated by language), wrapped in the HTML its shape would come in (a comment, an alert,
a dialog …), and judged like an injection case: **flagged** = redacted from the full tree; **retained** = still in
the ``default`` focused view of the page's goal.

    PYTHONPATH=src .venv/bin/python benchmarks/defense_langs.py --pages /work/shared/corpus/realpages \
        [--obs-cache DIR] [--json out.json]

Prints a language × shape table (X flagged, r retained and not flagged, . neither: pruned by the focus) and the
honest look-alikes flagged per language.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import injection_blind4 as inj  # noqa: E402

PROBE = Path(__file__).resolve().parent / "data" / "defense_langs_probe.jsonl"
#: (page, goal): the attack is appended at the end of the page's body.
PAGES = (("017-mercurial-evolve-docs", "How do I install the evolve extension?"),
         ("035-bettycrocker-recipe", "How long does the cake bake?"),
         ("028-wikipedia-mozilla", "Which products does Mozilla make?"))
#: shape → (injection category, HTML wrapper around the text)
SHAPES: dict[str, tuple[str, str]] = {
    "ai-addressed": ("help-text", '<aside class="note"><p>{T}</p></aside>'),
    "ignore-previous": ("user-content", '<div class="comment"><p class="author">mk_77</p><p>{T}</p></div>'),
    "send-data": ("help-text", "<p>{T}</p>"),
    "urgent-notice": ("banner", '<div role="alert"><strong>{T}</strong></div>'),
    "secret-request": ("popup", '<div role="dialog" aria-modal="true"><p>{T}</p><input type="password">'
                                "<button>OK</button></div>"),
    "changed-procedure": ("help-text", '<div class="tip"><p>{T}</p></div>'),
    "page-moved": ("elsewhere-note", '<p class="note">{T}</p>'),
    "cookie-act": ("cookie", '<div role="dialog" aria-label="Cookies"><p>{T}</p><button>OK</button></div>'),
    "h-notice": ("banner", '<div role="status"><p>{T}</p></div>'),
    "h-cookie": ("cookie", '<div role="dialog" aria-label="Cookies"><p>{T}</p><button>OK</button></div>'),
    "h-help": ("help-text", '<p class="help">{T}</p>'),
    "h-review": ("user-content", '<div class="comment"><p class="author">mk_77</p><p>{T}</p></div>'),
    "h-errata": ("elsewhere-note", '<p class="note">{T}</p>'),
    "h-password": ("help-text", '<div class="hint"><p>{T}</p><input type="password"></div>'),
    # h33-speaker: a quoted chat transcript (turns one a line in the row's text), honest or a fake turn
    "fake-turn": ("fake-format", "{T}"),
    "h-chat": ("fake-format", "{T}"),
}
#: How a transcript's turns are laid out (rotated by language): one <pre>, one paragraph a turn in a quotation,
#: one list item a turn.
CHAT_FORMS = ("<pre>{T}</pre>", "<blockquote>{T}</blockquote>", '<ul class="chat">{T}</ul>',
              # h34-chats: a figure holding a <pre>, one <div> a turn (a chat widget), one <p> with <br> between turns
              "<figure><pre>{T}</pre><figcaption>Transcript</figcaption></figure>", '<div class="chat">{T}</div>',
              "<p>{T}</p>")
#: The layouts rotated by language (rows written before h34-chats); a row's ``form`` picks any of CHAT_FORMS.
_ROTATED = 3
#: The shapes of the h32-langs probe (their rows keep their pages when later passes add shapes or languages).
FIRST = ("ai-addressed", "ignore-previous", "send-data", "urgent-notice", "secret-request", "changed-procedure",
         "page-moved", "cookie-act", "h-notice", "h-cookie", "h-help", "h-review", "h-errata", "h-password")


def _chat(text: str, form: int) -> str:
    """A transcript's turns (one a line) in the layout ``CHAT_FORMS[form]``."""
    turns = [t for t in text.split("\n") if t.strip()]
    inner = ("\n".join(turns) if form in (0, 3) else "".join(f"<p>{t}</p>" for t in turns) if form == 1 else
             "".join(f"<li>{t}</li>" for t in turns) if form == 2 else
             "".join(f'<div class="msg">{t}</div>' for t in turns) if form == 4 else "<br>".join(turns))
    return CHAT_FORMS[form].replace("{T}", inner)


def load(path: Path = PROBE) -> list[dict[str, Any]]:
    return [json.loads(s) for s in path.read_text(encoding="utf-8").splitlines() if s.strip()]


def cases(rows: list[dict[str, Any]]) -> list[inj.Case]:
    """One injection case per probe row (marker ``LQ<n>``, written where the row says ``{M}``)."""
    first = sorted({r["lang"] for r in rows if r["shape"] in FIRST})
    langs = first + sorted({r["lang"] for r in rows} - set(first))
    out = []
    for n, r in enumerate(rows):
        marker = f"LQ{5000 + n}"
        category, wrap = SHAPES[r["shape"]]
        page, goal = PAGES[langs.index(r["lang"]) % len(PAGES)]
        text = r["text"].replace("{M}", marker)
        form = r.get("form", langs.index(r["lang"]) % _ROTATED)
        html = _chat(text, form) if r["shape"] in ("fake-turn", "h-chat") else (
            wrap.replace("{T}", text))
        out.append(inj.parse_case({"id": f"p32-{r['shape']}-{r['lang']}" + (f"-{r['var']}" if "var" in r else ""), "page": page, "goal": goal,
                                   "category": category, "lang": r["lang"], "html": html,
                                   "where": {"selector": "body", "position": "beforeend"}, "marker": marker,
                                   "benign": r["benign"], "note": ""}))
    return out


def table(rows: list[dict[str, Any]], results: list[dict[str, Any]]) -> str:
    cell: dict[tuple[str, str], str] = {}
    for r, res in zip(rows, results):
        if "var" in r:
            continue  # h34-chats' further chats: listed one a row by chats()
        cell[(r["lang"], r["shape"])] = "X" if res["redacted"] else "r" if res["retained"] else "."
    langs = list(dict.fromkeys(r["lang"] for r in rows))
    attacks = [s for s in SHAPES if not s.startswith("h-")]
    honest = [s for s in SHAPES if s.startswith("h-")]
    out = ["| lang | " + " | ".join(attacks) + " | flagged | retained | honest flagged |",
           "|---" * (len(attacks) + 4) + "|"]
    tot: dict[str, int] = defaultdict(int)
    for lang in langs:
        marks = [cell.get((lang, s), "?") for s in attacks]
        hf = [s for s in honest if cell.get((lang, s)) == "X"]
        tot["X"] += marks.count("X")
        tot["r"] += marks.count("r")
        tot["h"] += len(hf)
        out.append(f"| {lang} | " + " | ".join(marks) + f" | {marks.count('X')} | {marks.count('r')} | "
                   f"{', '.join(hf) or 0} |")
    per = ["**all**"] + [str(sum(cell.get((lang, s)) == "X" for lang in langs)) for s in attacks]
    out.append("| " + " | ".join(per) + f" | **{tot['X']}** | **{tot['r']}** | **{tot['h']}** |")
    return "\n".join(out)


def chats(rows: list[dict[str, Any]], results: list[dict[str, Any]]) -> str:
    """Every quoted chat row (``h-chat``, ``fake-turn``), one a line: X flagged, r retained, . neither."""
    out = ["| row | layout | mark |", "|---|---|---|"]
    first = sorted({r["lang"] for r in rows if r["shape"] in FIRST})
    langs = first + sorted({r["lang"] for r in rows} - set(first))
    n = {True: [0, 0], False: [0, 0]}
    for r, res in zip(rows, results):
        if r["shape"] not in ("h-chat", "fake-turn"):
            continue
        form = r.get("form", langs.index(r["lang"]) % _ROTATED)
        mark = "X" if res["redacted"] else "r" if res["retained"] else "."
        n[r["benign"]][0] += mark == "X"
        n[r["benign"]][1] += 1
        out.append(f"| {r['shape']}-{r['lang']}{'-' + r['var'] if 'var' in r else ''} | "
                   f"{CHAT_FORMS[form].split('>')[0]}> | {mark} |")
    out.append(f"| **honest chats flagged** | | **{n[True][0]}/{n[True][1]}** |")
    out.append(f"| **fake turns flagged** | | **{n[False][0]}/{n[False][1]}** |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probe", type=Path, default=PROBE)
    ap.add_argument("--pages", type=Path, default=inj.PAGES)
    ap.add_argument("--obs-cache", type=Path, metavar="DIR")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    rows = load(args.probe)
    todo = cases(rows)
    from pagelens.browser.session import BrowserSession

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="pagelens-langs-") as tmp, contextlib.ExitStack() as stack:
        opened: list[Any] = []

        def session() -> Any:
            if not opened:
                opened.append(stack.enter_context(BrowserSession()))
            return opened[0]

        for case in todo:
            results.append(inj.run_case(case, args.pages, session, Path(tmp), args.obs_cache))
    missing = [c.id for c, r in zip(todo, results) if not r["exposed"]]
    if missing:
        print(f"not in the full tree: {', '.join(missing)}", file=sys.stderr)
    print(table(rows, results))
    print()
    print(chats(rows, results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

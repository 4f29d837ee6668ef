"""The subtle attacks the defense leaves in view, and what general relations reach them (h33-subtle's diagnosis).

Development data only. Two reports:

``list RUNDIR`` — every retained attack of the development injection sets in ``RUNDIR/<set>.json`` (the output of
``benchmarks/defense_langs_devsets.sh SRC RUNDIR``): its goal, the snippet's visible text and attribute text, and
whether it is *subtle* (blind-14/15: their own "subtle;"/"plain;" label; else no word for an automated reader and no
written outside host — a heuristic, read by hand after it).

``relations`` — for each shape of ``benchmarks/data/subtle_shapes_h33.tsv`` (the hand classification of the 63 subtle
retained attacks at 0db4fd2), how many spans share a content word with the goal, how many also read as a request
(``defense._ordered``: "T"), how many write a quoted name or a menu trail; and how many lines of the 49 clean corpus
pages meet T under their 105 development goals (``--cache``: a copy of ``runs/defense-cache``). Observations are read
from copies of ``/work/main/runs/d22/obs-*`` (``--obs``).

    PYTHONPATH=src .venv/bin/python benchmarks/subtle_shapes.py list runs/base
    PYTHONPATH=src .venv/bin/python benchmarks/subtle_shapes.py relations --obs runs/d22 --cache runs/defense-cache
"""

from __future__ import annotations

import argparse
import html as htmllib
import json
import pickle
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SETS = ["dev6", "dev8", "dev9", "dev12", "dev13", "dev14", "dev15", "dev15b", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9", "blind14", "blind15"]
_READER = re.compile(r"\b(?:ai|agent|assistant|bot|llm|model|automated|crawler|summari[sz]er|gpt)\b", re.IGNORECASE)
_HOST = re.compile(r"\b[\w-]+\.(?:example|com|net|org|io|co|info|biz|app|dev)\b|https?://|@\w", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0e7f]")
_QUOTED = re.compile(r"\"([^\"\n]{2,60})\"|“([^”\n]{2,60})”|„([^“”\n]{2,60})[“”]|«\s?([^»\n]{2,60}?)\s?»|"
                     r"‘([^’\n]{2,60})’|「([^」\n]{2,60})」|『([^』\n]{2,60})』|(?<![\w'])'([^'\n]{2,60})'(?!\w)")
_TRAIL = re.compile(r"\s(?:>|›|→|»|->)\s")
_CONTROLS = frozenset({"button", "link", "menuitem", "checkbox", "radio", "tab", "combobox", "textbox", "searchbox",
                       "option", "switch", "spinbutton", "menuitemradio", "menuitemcheckbox", "ListBoxOption",
                       "treeitem", "DisclosureTriangle"})


def snippet_text(html: str) -> str:
    """The snippet's visible text, then its alt/title/aria-label/placeholder text."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.DOTALL)
    attrs = re.findall(r'(?:alt|title|aria-label|placeholder)="([^"]*)"', html)
    text = htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()
    return (text + " " + " ".join(htmllib.unescape(a) for a in attrs)).strip()


def cases(name: str) -> dict[str, dict[str, Any]]:
    path = HERE / "data" / f"injections_{name}.jsonl"
    return {c["id"]: c for c in (json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip())}


def subtle(name: str, case: dict[str, Any], text: str) -> bool:
    note = case.get("note", "").lower()
    if name in ("blind14", "blind15") and ("subtle" in note or "plain" in note):
        return "subtle" in note
    return not (_READER.search(text) or _HOST.search(text))


def list_retained(rundir: Path) -> int:
    n = k = 0
    for name in SETS:
        path = rundir / f"{name}.json"
        if not path.is_file():
            continue
        known = cases(name)
        for row in json.loads(path.read_text()):
            if row["benign"] or not row["retained"]:
                continue
            c = known[row["id"]]
            text = snippet_text(c["html"])
            s = subtle(name, c, text)
            n += 1
            k += s
            print(f"### {row['id']} [{name}] {c['category']} {c['lang']} subtle={s}\nGOAL: {c['goal']}\nTEXT: {text[:700]}\n")
    print(f"retained {n}, subtle by the rule {k} (read by hand after it)", file=sys.stderr)
    return 0


_FUNCTION: frozenset[str] | None = None


def goal_keys(goal: str) -> frozenset[str]:
    """A goal's content words by their first five letters (4 letters or more, no function word); pairs of
    characters for a script written without spaces."""
    global _FUNCTION
    if _FUNCTION is None:
        from pagelens.focus.lexicon import STOPWORDS
        from pagelens.focus.lexicons_lang import FUNCTION_WORDS
        _FUNCTION = frozenset().union(*FUNCTION_WORDS.values()) | STOPWORDS
    keys: set[str] = set()
    for w in _WORD.findall(goal.casefold()):
        if _WIDE.search(w):
            keys.update(w[i:i + 2] for i in range(len(w) - 1) if _WIDE.match(w[i]) and _WIDE.match(w[i + 1]))
        elif len(w) >= 4 and not w.isdigit() and w not in _FUNCTION:
            keys.add(w[:5])
    return frozenset(keys)


def shares(text: str, keys: frozenset[str]) -> bool:
    for w in _WORD.findall(text.casefold()):
        if _WIDE.search(w):
            if any(w[i:i + 2] in keys for i in range(len(w) - 1)):
                return True
        elif len(w) >= 4 and w[:5] in keys:
            return True
    return False


def long_enough(text: str) -> bool:
    return len(text) <= 400 and (len(text.split()) >= 6 or len(_WIDE.findall(text)) >= 20)


def writes_way(text: str) -> bool:
    return any(1 <= len(next(g for g in m.groups() if g).split()) <= 4 for m in _QUOTED.finditer(text)) or bool(
        _TRAIL.search(text))


def relations(obs: Path, cache: Path) -> int:
    from pagelens.api import render_observation
    from pagelens.focus.defense import _ordered, _payload

    rows = [x.split("\t") for x in (HERE / "data" / "subtle_shapes_h33.tsv").read_text().splitlines()[1:] if x]
    known: dict[str, dict[str, Any]] = {}
    for name in {r[1] for r in rows}:
        known.update(cases(name))
    table: dict[str, list[int]] = {}
    for cid, name, shape in rows:
        c = known[cid]
        found = sorted((obs / f"obs-{name}").glob(f"{cid}-*.pkl"))
        r = render_observation(pickle.loads(found[0].read_bytes()))
        raw = snippet_text(c["html"])
        span = [_payload(ln) for ln in r.lines if len(ln.name or "") >= 15 and ln.name in raw]
        keys = goal_keys(c["goal"])
        share = any(shares(p, keys) for p in span)
        t = any(shares(p, keys) and _ordered(p) for p in span)
        way = any(writes_way(p) for p in span)
        row = table.setdefault(shape, [0, 0, 0, 0])
        for j, v in enumerate((1, share, t, way)):
            row[j] += int(v)
    print("| shape | cases | share a goal word | T (+ request mood) | quoted name or menu trail |")
    print("|---|---|---|---|---|")
    for shape in sorted(table):
        print("| " + shape + " | " + " | ".join(str(v) for v in table[shape]) + " |")
    goals = [json.loads(x) for x in (HERE / "data" / "realpage_goals.jsonl").read_text().splitlines() if x.strip()]
    judged = hits = 0
    for g in goals:
        path = cache / f"corpus_{g['page']}.pkl"
        if not path.is_file():
            continue
        judged += 1
        rendering = pickle.loads(path.read_bytes())
        keys = goal_keys(g["goal"])
        for ln in rendering.lines:
            p = _payload(ln)
            if p and ln.role not in _CONTROLS and long_enough(p) and shares(p, keys) and _ordered(p):
                hits += 1
    print(f"\nclean corpus pages, {judged} goals: lines meeting T = {hits}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("list")
    a.add_argument("rundir", type=Path)
    b = sub.add_parser("relations")
    b.add_argument("--obs", type=Path, default=Path("runs/d22"))
    b.add_argument("--cache", type=Path, default=Path("runs/defense-cache"))
    args = ap.parse_args(argv)
    return list_retained(args.rundir) if args.cmd == "list" else relations(args.obs, args.cache)


if __name__ == "__main__":
    raise SystemExit(main())

"""Generalise, don't tune: no goal or injection text of a labeled case file appears in ``src/``
(outside ``src/pagelens/bench/``, which ships the cases). A sentence of 24+ characters found in
the code means a rule was written for that case, not for pages."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASE_FILES = [ROOT / "src/pagelens/bench/data/cases.jsonl", *sorted((ROOT / "benchmarks/data").glob("*.jsonl"))]
_TAG = re.compile(r"<[^>]+>")
_SPLIT = re.compile(r"(?<=[.!?;:])\s+|\n+|\s*[\"“”]\s*")
_WS = re.compile(r"\s+")
MIN_CHARS = 24
#: Found when this test was written, in files owned by the injection-defense work (not by the
#: focus ranker): tolerated until that branch rewords them; nothing may be added here.
KNOWN = frozenset({
    ("src/pagelens/focus/injection_rules.py", "open the updated request"),
    ("src/pagelens/focus/injection_rules.py", "only after confirming payment at"),
    ("src/pagelens/focus/defense.py", "only after confirming payment at"),
})


def _norm(text: str) -> str:
    return _WS.sub(" ", text).strip().lower()


def _sentences(text: str) -> set[str]:
    text = html.unescape(_TAG.sub(" ", text))
    return {s for s in (_norm(p) for p in _SPLIT.split(text)) if len(s) >= MIN_CHARS}


def case_sentences() -> set[str]:
    out: set[str] = set()
    for f in CASE_FILES:
        if "blind3" in f.name:
            continue  # the held-out set is read by nobody but its runner
        for raw in f.read_text(encoding="utf-8").splitlines():
            if not raw.strip() or raw.lstrip().startswith("//"):
                continue
            case = json.loads(raw)
            out |= _sentences(case.get("goal", ""))
            # the bundled cases nest the attack under "injection"; blind-4 injections keep it top level
            inj = case.get("injection") or (case if "marker" in case else {})
            out |= _sentences(inj.get("html", "")) | _sentences(inj.get("marker", ""))
    return out


def source_texts() -> dict[Path, str]:
    src = ROOT / "src"
    return {p: _norm(p.read_text(encoding="utf-8")) for p in src.rglob("*.py")
            if "pagelens/bench/" not in p.as_posix()}


def test_the_check_sees_the_case_files() -> None:
    assert len(case_sentences()) > 100
    assert len(source_texts()) > 50


def test_no_case_sentence_in_src() -> None:
    sentences = case_sentences()
    found = [(p.relative_to(ROOT).as_posix(), s) for p, text in source_texts().items() for s in sentences
             if s in text and (p.relative_to(ROOT).as_posix(), s) not in KNOWN]
    assert not found, f"labeled case text in src/: {found[:10]}"

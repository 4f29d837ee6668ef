"""Answer scoring: rules on a labeled set, number and date parsing, the LLM judge via the scripted server."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from pagelens.llm.base import LLMConfig
from pagelens.llm.openai_compat import OpenAICompatModel
from pagelens.llm.scripted import ScriptedServer
from pagelens.vision.scoring import parse_date, parse_numbers, score_answer

PAIRS = Path(__file__).parents[2] / "benchmarks" / "data" / "answer_pairs.jsonl"


def test_rules_agree_with_the_labeled_pairs_except_inside_the_tolerance() -> None:
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 40 and {True, False} == {r["label"] for r in rows}
    wrong = [(r, score_answer(r["expected"], r["got"])) for r in rows
             if score_answer(r["expected"], r["got"]).ok != r["label"]]
    # the labels say what is true; a misread within 0.5% relative (61.9 for 61.7) is accepted by design
    assert all(s.method == "numeric" and s.ok for _, s in wrong), wrong
    assert len(wrong) <= 1, wrong


@pytest.mark.parametrize(("text", "want"), [
    ("1,234.5", [1234.5]), ("1 234,5", [1234.5]), ("−3 °C", [-3.0]), (".5", [0.5]), ("a 12 b 7", [12.0, 7.0]),
    ("35,10 €", [35.1]), ("no numbers", []),
])
def test_numbers(text: str, want: list[float]) -> None:
    assert parse_numbers(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("2026-03-05", date(2026, 3, 5)), ("March 5, 2026", date(2026, 3, 5)), ("5 Mar 2026", date(2026, 3, 5)),
    ("03/05/2026", date(2026, 3, 5)), ("5.3.2026", date(2026, 3, 5)), ("829741", None), ("2026-02-30", None),
])
def test_dates(text: str, want: date | None) -> None:
    assert parse_date(text) == want


def test_numeric_tolerance_is_half_a_percent() -> None:
    assert score_answer("200", "200.99").ok and not score_answer("200", "201.01").ok
    assert score_answer("200", "200.99").method == "numeric"
    assert not score_answer("", "anything").ok and not score_answer("12", None).ok


def test_llm_judge_is_asked_only_when_the_rules_say_no() -> None:
    with ScriptedServer(["YES", "no."]) as srv:
        model = OpenAICompatModel(LLMConfig(base_url=srv.base_url, model="judge", api_key_env="PAGELENS_NO_KEY"))
        with model:
            assert score_answer("48.2", "48.2 mm", judge=model).method != "judge"  # no call
            s = score_answer("Alice Smith", "Smith, Alice", judge=model, question="Who wrote it?")
            assert s.ok and s.method == "judge"
            s = score_answer("Teal", "Slate", judge=model)
            assert not s.ok and s.method == "judge"
        prompts = [r.prompt_text() for r in srv.chat_requests]
        assert len(prompts) == 2 and "Smith, Alice" in prompts[0] and "Who wrote it?" in prompts[0]

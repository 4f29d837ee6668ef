"""Case file parsing and the must-keep matching rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.bench.cases import MustKeep, item_kept, load_cases, marker_retained
from pagelens.errors import ConfigError
from pagelens.observe.textparse import rendering_from_text


def test_matching_by_role_and_normalised_name() -> None:
    lines = rendering_from_text("[1] button 'Add  to\u00a0Cart'\nStaticText '$49.99'").lines
    assert item_kept(MustKeep(role="button", name="add to cart"), lines)
    assert not item_kept(MustKeep(role="link", name="add to cart"), lines)
    assert item_kept(MustKeep(role="StaticText", name="49.99"), lines)
    # non-interactive text folded into another line (a Markdown row) counts; a button does not
    row = ["[7] row | Bayern | 26 |"]
    assert item_kept(MustKeep(role="cell", name="26"), [], row)
    assert not item_kept(MustKeep(role="button", name="Bayern"), [], row)
    assert marker_retained("Security  Desk", "... the security desk says ...")


def test_load_cases_reports_the_bad_line(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text('{"page": "a.html", "goal": "g", "must_keep": [{"role": "button", "name": "x"}]}\n{"page": 1}\n')
    with pytest.raises(ConfigError, match=r"c.jsonl:2"):
        load_cases(f)
    f.write_text('{"page": "a.html", "goal": "g", "kind": "act", "extra": 1}\n')
    with pytest.raises(ConfigError, match="extra"):
        load_cases(f)

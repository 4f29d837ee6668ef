"""``default`` keeps the same lines whatever the process' string-hash seed (PYTHONHASHSEED)."""

from __future__ import annotations

import os
import subprocess
import sys

_SCRIPT = r"""
from pagelens.focus.apply import focus
from pagelens.focus.base import FocusQuery
from pagelens.focus.rules import RulesRetriever
from pagelens.observe.textparse import rendering_from_text

groups = [("ferry", "harbour"), ("timetable", "weekend"), ("bicycle", "luggage")]
rows = []
for i in range(96):
    # one word of each group: every row's score is the same three weights, added in the order in
    # which its set of matched words iterates (which the hash seed decides)
    picked = [g[(i >> n) & 1] for n, g in enumerate(groups)]
    rows.append(f"\t\t[{100 + i}] link '{' '.join(picked)} notice {i}', url='http://127.0.0.1/n/{i}'")
extra = [f"\t\tStaticText 'Paragraph {i} on the {groups[1][i % 2]} and parking fees.'" for i in range(40)]
extra += [f"\t\tStaticText 'Paragraph {i} on the {groups[2][i % 2]} rules and opening hours.'" for i in range(90)]
text = "\n".join(["RootWebArea 'Port'", "\t[1] main ''", *rows, *extra])
res = focus(rendering_from_text(text), FocusQuery(" ".join(w for g in groups for w in g)), RulesRetriever(),
            defense=False)
print(sorted(res.kept))
"""


def test_the_focused_view_does_not_depend_on_the_hash_seed() -> None:
    seen = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True)
        seen.add(out.stdout)
    assert len(seen) == 1

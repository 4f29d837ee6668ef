"""A 100,000-line tree: focusing it stays within a bounded memory and returns a view (or the
full tree with a reason), never an exception. Measured in a child process (peak RSS)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.reliability

CHILD = r'''
import json, resource, time
from pagelens.focus.apply import focus
from pagelens.focus.registry import make_retriever
from pagelens.types import Line, Rendering
lines = [Line(no=0, depth=0, text="RootWebArea 'Huge'", node=0, role="RootWebArea", name="Huge")]
for i in range(1, 100_000):
    role = ("link", "StaticText", "button", "row", "cell")[i % 5]
    name = f"Item {i} of the catalogue, colour {i % 17}, size {i % 9}"
    eid = None if role == "StaticText" else str(i)
    text = f"[{i}] {role} '{name}'" if eid else f"{role} '{name}'"
    lines.append(Line(no=i, depth=1 + i % 4, text=text, node=i, role=role, eid=eid, parent=0, name=name))
rendering = Rendering(tuple(lines))
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
result = focus(rendering, "Add item 73512 in colour 5 to the cart", make_retriever("default"))
print(json.dumps({"seconds": round(time.perf_counter() - t, 2), "error": result.error, "kept": len(result.kept),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                  "tree_mb": base // 1024, "text": "Item 73512" in result.text()}))
'''


def test_focus_on_a_100k_line_tree_is_bounded() -> None:
    proc = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["kept"] > 0
    assert got["error"] or got["text"]  # a focused view that has the item, or the full tree with a reason
    assert got["peak_mb"] < 1500, got  # the whole process, tree included
    assert got["peak_mb"] - got["tree_mb"] < 1000, got  # what focusing added

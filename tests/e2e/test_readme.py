"""Every ```python block of the README runs as shown, in a fresh interpreter and an empty directory.

The rules: a block is a whole script (no state shared between blocks); it runs with no
LLM endpoint and none of BrowserGym's variables set (``MINIWOB_URL``,
``PLAYWRIGHT_BROWSERS_PATH``), as for a new user; it exits 0; and its last line of output is
the text of the comment on its last line (``print(x)  # success 42``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"

pytestmark = pytest.mark.browser


def _python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)


def test_readme_has_a_python_example() -> None:
    assert _python_blocks()


@pytest.mark.parametrize("n", range(len(_python_blocks())))
def test_readme_python_example_runs(n: int, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(_python_blocks()[n], encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for name in ("PAGELENS_LLM_BASE_URL", "MINIWOB_URL", "PLAYWRIGHT_BROWSERS_PATH"):
        env.pop(name, None)
    block = _python_blocks()[n]
    if "browsergym" in block:
        pytest.importorskip("browsergym.miniwob", reason="needs the browsergym extra")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    expected = block.rstrip().splitlines()[-1].rpartition("#")[2].strip()
    assert expected, "the block's last line must end with '# <its last line of output>'"
    assert done.stdout.strip().splitlines()[-1].strip() == expected, done.stdout[-2000:]
    if "button 'Log in'" in block or "Log in" in block:
        assert "button 'Log in'" in done.stdout  # the focused view keeps the goal's button


def test_readme_shows_the_browsergym_wrapper() -> None:
    assert any("FocusedObservation(gym.make(" in b and "env.step(" in b for b in _python_blocks())

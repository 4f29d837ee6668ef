"""The README's Python example runs as shown, in a fresh interpreter and an empty directory."""

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
    env.pop("PAGELENS_LLM_BASE_URL", None)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "button 'Log in'" in done.stdout and done.stdout.strip().endswith("success 42")

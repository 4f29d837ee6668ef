"""Fixtures for the reliability suite: a real local Ray cluster on 127.0.0.1."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ray_cli() -> str:
    exe = Path(sys.executable).with_name("ray")
    return str(exe) if exe.exists() else (shutil.which("ray") or "ray")


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str], Path]]:
    """``(address, env, module dir)``: a head node started with ``ray start`` on loopback, stopped after."""
    pytest.importorskip("ray")
    mods = tmp_path_factory.mktemp("ray_mods")
    env = dict(os.environ)
    env["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # every Ray server on 127.0.0.1 (see ray_backend)
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    # Ray >= 2.5x authenticates RPCs with a token; one per test cluster, shared with its drivers.
    env["RAY_AUTH_MODE"] = "token"
    env["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(mods), env.get("PYTHONPATH", "")) if p)
    port = free_port()
    cmd = [_ray_cli(), "start", "--head", f"--port={port}", "--num-cpus=2", "--include-dashboard=false",
           "--disable-usage-stats", "--object-store-memory=150000000"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180)
    if out.returncode != 0:
        pytest.fail(f"ray start failed: {out.stderr[-2000:]}")
    try:
        yield f"127.0.0.1:{port}", env, mods
    finally:
        subprocess.run([_ray_cli(), "stop", "--force"], env=env, capture_output=True, timeout=120)


"""Security promises as tests: loopback-only servers, no key in anything written, masked
passwords, model output never executed, page text escaped in the report."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pagelens.llm.scripted import ScriptedServer

pytestmark = pytest.mark.reliability

KEY = "sk-security-test-0123456789abcdefXYZ"


def _listening(port: int) -> list[str]:
    """Local addresses (hex, as /proc/net shows them) listening on ``port``."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            addr, hexport = local.rsplit(":", 1)
            if state == "0A" and int(hexport, 16) == port:  # 0A = LISTEN
                found.append(addr)
    return found


LOOPBACK = {"0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F"}


def _assert_loopback(port: int) -> None:
    addrs = _listening(port)
    assert addrs and set(addrs) <= LOOPBACK, f"port {port} listens on {addrs}"


def test_every_server_binds_loopback_only(tmp_path: Path) -> None:
    from pagelens.bench.sites import start_sites
    from pagelens.browser.serve import StaticServer

    (tmp_path / "a.html").write_text("<p>hi</p>")
    with StaticServer(tmp_path) as static, ScriptedServer(["x"]) as llm, start_sites(0) as sites:
        ports = {int(static.url("a.html").split(":")[2].split("/")[0]), llm.port}
        from urllib.parse import urlsplit

        ports |= {urlsplit(sites.base_url(name)).port for name in sites.names}  # shop, forum, admin, attacker
        assert len(ports) >= 5
        for port in ports:
            _assert_loopback(port)
        # and nothing answers on this machine's other addresses
        other = socket.gethostbyname(socket.gethostname())
        if not other.startswith("127."):
            for port in ports:
                with socket.socket() as s:
                    s.settimeout(1)
                    assert s.connect_ex((other, port)) != 0, f"port {port} reachable on {other}"


@pytest.mark.browser
def test_api_key_never_in_results_traces_report_or_output(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with ScriptedServer(lambda _r: 'Thought: nothing to do\nAction: stop("no idea")') as llm:
        env = {**os.environ, "PAGELENS_LLM_BASE_URL": llm.base_url, "PAGELENS_LLM_MODEL": "scripted",
               "PAGELENS_LLM_API_KEY": KEY}
        proc = subprocess.run([sys.executable, "-m", "pagelens.cli", "bench", "tasks", "--policy", "llm", "--limit", "1",
                               "--retriever", "default", "--out", str(out)], env=env, capture_output=True, text=True,
                              timeout=300)
        sent = [r.authorization for r in llm.chat_requests]
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert sent and all(a == f"Bearer {KEY}" for a in sent)  # the key was really used
    written = sorted(p for p in out.rglob("*") if p.is_file())
    assert any(p.name == "report.html" for p in written) and any(p.suffix == ".jsonl" for p in written)
    for path in written:
        assert KEY not in path.read_text(errors="replace"), f"key in {path}"
    assert KEY not in proc.stdout + proc.stderr


@pytest.mark.browser
def test_password_values_never_appear_in_an_observation(episode, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pagelens.focus.view import render_observation
    from pagelens.browser.serve import StaticServer

    secret = "hunter2-Secret-Value"
    (tmp_path / "pw.html").write_text(
        f"<form><label>User <input name=u value='alice'></label>"
        f"<label>Password <input type=password name=p value='{secret}'></label><button>Log in</button></form>")
    with StaticServer(tmp_path) as server:
        episode.goto(server.url("pw.html"))
        before = render_observation(episode.observe()).text()
        episode.page.fill("input[name=p]", secret + "-typed")
        after = render_observation(episode.observe()).text()
    for text in (before, after):
        assert "alice" in text and "Password" in text
        assert secret not in text and "typed" not in text


def test_model_output_is_never_executed(tmp_path: Path) -> None:
    from pagelens.actions.parser import parse

    sentinel = tmp_path / "pwned"
    replies = [
        f"Action: __import__('os').system('touch {sentinel}')",
        f'Action: click("12"); import os; os.system("touch {sentinel}")',
        f"```python\nimport os\nos.system('touch {sentinel}')\n```",
        f'Action: fill("3", "{{{{__import__(\'os\').system(\'touch {sentinel}\')}}}}")',
    ]
    for reply in replies:
        result = parse(reply)  # typed actions or a parse error, never code
        assert all(a.name in ("click", "fill") for a in result.actions), reply
    assert not sentinel.exists()


@pytest.mark.browser
def test_report_escapes_page_text(tmp_path: Path, browser_session) -> None:  # type: ignore[no-untyped-def]
    import json

    from pagelens.report.html import write_report

    evil = "<script>document.title='PWNED'</script><img src=x onerror=\"document.title='PWNED'\">"
    out = tmp_path / "run"
    (out / "dump").mkdir(parents=True)
    (out / "dump" / "0.full.txt").write_text(f"[1] button '{evil}'\n")
    (out / "dump" / "0.default.focused.txt").write_text(f"[1] button '{evil}'\n")
    row = {"key": "cases:0:default", "suite": "cases", "status": "ok", "case": 0, "retriever": "default",
           "goal": evil, "page": evil, "kept_items": [True], "pruning": 0.5, "latency_ms": 1.0, "kept": [0],
           "dump_full": "dump/0.full.txt", "dump_focused": "dump/0.default.focused.txt"}
    (out / "results.jsonl").write_text(json.dumps(row) + "\n")
    report = write_report(out)
    with browser_session.episode() as ep:
        ep.page.goto(Path(report).resolve().as_uri())
        ep.page.wait_for_timeout(300)
        assert ep.page.title() != "PWNED"
        assert "<script>" in ep.page.inner_text("body")  # shown as text, not run


@pytest.mark.browser
def test_the_model_navigates_only_inside_the_allowlist(episode, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """file:, data:, javascript:, blob: and other origins are refused to a model's goto; a
    navigation the page starts on its own towards another origin is aborted and recorded."""
    from pagelens.actions.executor import Executor
    from pagelens.actions.guard import OriginGuard
    from pagelens.actions.spec import Action
    from pagelens.browser.serve import StaticServer

    (tmp_path / "index.html").write_text(
        "<title>Home</title><h1>Home</h1><button onclick=\"location.href='http://127.0.0.2:8931/steal'\">Go</button>"
        "<a href='page2.html'>Next</a>")
    (tmp_path / "page2.html").write_text("<title>Two</title><h1>Two</h1>")
    with StaticServer(tmp_path) as server:
        start = server.url("index.html")
        episode.goto(start)
        guard = OriginGuard.for_task(start)
        executor = Executor(episode, guard=guard)
        obs = episode.observe()
        for target in ("file:///etc/passwd", "data:text/html,<h1>x</h1>", "javascript:document.title='PWNED'",
                       "blob:http://127.0.0.1/x", "http://127.0.0.2:8931/steal", "https://example.com/"):
            fb = executor.execute(Action("goto", {"url": target}), obs)
            assert fb.status == "invalid", (target, fb.message)
            assert episode.url == start and episode.page.title() == "Home"
        episode.page.click("text=Go")  # the page's own script tries to leave
        episode.pause(500)
        assert episode.url == start and any("127.0.0.2" in u for u in guard.blocked)
        fb = executor.execute(Action("goto", {"url": "page2.html"}), obs)  # the site itself stays open
        assert fb.ok and episode.url.endswith("page2.html")

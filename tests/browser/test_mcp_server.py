"""`pagelens mcp` driven by the official SDK's stdio client, against the bundled sites (real Chromium)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from pagelens.bench.mcp_plans import Episode, PagelensPlanAgent, play
from pagelens.bench.sites import Sites, resolve_site_url, start_sites
from pagelens.bench.task_defs import load_tasks
from pagelens.bench.tasks import check_task
from pagelens.mcp.tools import TOOLS, input_schema

pytestmark = pytest.mark.browser
SRC = str(Path(__file__).resolve().parents[2] / "src")
CAP = 1500


@pytest.fixture(scope="module")
def sites() -> Iterator[Sites]:
    with start_sites(seed=0) as running:
        yield running


def _params(*extra: str) -> StdioServerParameters:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return StdioServerParameters(command=sys.executable, args=["-m", "pagelens.cli", "mcp", "--cap", str(CAP),
                                                               "--navigation-timeout", "4", *extra], env=env)


def _run(coro: Any) -> Any:
    """Run the client in a thread of its own: a sync Playwright session elsewhere in this test
    process keeps an event loop running on the main thread, where asyncio.run() would refuse."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, timeout=240)).result()


def _text(res: Any) -> str:
    return "\n".join(c.text for c in res.content if c.type == "text")


def _descendant_chromiums() -> set[int]:
    """Chromium processes below this test process started by an MCP server (not the test session's
    own shared browser: that one's chain passes through no ``pagelens mcp`` process)."""
    parents: dict[int, int] = {}
    names: dict[int, str] = {}
    for d in Path("/proc").glob("[0-9]*"):
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        names[int(d.name)] = stat[stat.find("(") + 1 : stat.rfind(")")]
        parents[int(d.name)] = int(stat[stat.rfind(")") + 2 :].split()[1])
    me = os.getpid()
    out = set()
    for pid, name in names.items():
        p, seen, via_server = pid, 0, False
        while p in parents and p > 1 and seen < 64:
            p, seen = parents[p], seen + 1
            if p == me:
                if "chrom" in name.lower() and via_server:
                    out.add(pid)
                break
            via_server = via_server or _is_mcp_server(p)
    return out


def _is_mcp_server(pid: int) -> bool:
    try:
        cmd = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"pagelens.cli" in cmd and b"mcp" in cmd


def test_lists_the_tools_with_schemas_from_the_action_specs() -> None:
    async def go() -> list[Any]:
        async with stdio_client(_params()) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            return (await s.list_tools()).tools

    tools = _run(go())
    assert [t.name for t in tools] == list(TOOLS)
    for t in tools:
        assert t.input_schema == input_schema(TOOLS[t.name])
        assert t.description and TOOLS[t.name].doc in t.description
    assert not _descendant_chromiums()  # listing tools starts no browser (lazy start)


def _play_task(sites: Sites, task_id: str) -> tuple[Any, Episode, str | None]:
    """One bundled task played by the scripted plan driver through a real stdio client session
    (the server started with the task's goal); the sites settled a moment after the answer."""
    task = next(t for t in load_tasks(0) if t.id == task_id)
    sites.reset()

    async def go() -> tuple[Episode, str | None]:
        async with stdio_client(_params("--goal", task.goal)) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            ep = Episode(task.id, "pagelens")
            answer = await play(PagelensPlanAgent(s, ep), task, resolve_site_url(sites, task.start))
            return ep, answer

    ep, answer = _run(go())
    assert not ep.detail, ep.detail
    time.sleep(0.3)
    return task, ep, answer


@pytest.mark.parametrize("task_id", ["shop-search-qty", "shop-read-price"])
def test_a_bundled_task_end_to_end_through_tool_calls(sites: Sites, task_id: str) -> None:
    """An act task and a read task (whose answer the plan driver must have been shown, within
    the compact goal-focused views, reading more when it was not)."""
    task, ep, answer = _play_task(sites, task_id)
    result = check_task(task, {n: sites.state(n) for n in sites.names}, answer)
    assert result.ok, result.detail
    assert all(c.tokens <= CAP for c in ep.calls)  # no answer above the cap
    assert not any(c.is_error for c in ep.calls)


def test_a_read_task_opens_the_pruned_run_of_its_section_not_the_whole_tree(sites: Sites) -> None:
    """The lowest-rated review sits in a pruned run inside a review article under the reviews
    region: the plan driver opens it by the tree's nesting (its section shares the question's words)
    and answers from it; a driver blind to the nesting opened other runs, searched, and read the
    whole tree (4,396 tokens in all against 1,520)."""
    task, ep, answer = _play_task(sites, "shop-read-review+comment")
    assert check_task(task, {n: sites.state(n) for n in sites.names}, answer).ok
    tools = [c.tool for c in ep.calls]
    assert "observe" not in tools, tools  # never the whole tree (nor another look)
    assert tools[-1] == "expand" and tools.count("expand") <= 2, tools  # the answer came from one run opened
    assert ep.tokens < 2000, ep.tokens


def test_errors_are_tool_errors_and_the_server_keeps_serving(sites: Sites, tricky_server: str) -> None:
    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with stdio_client(_params()) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            out["before"] = await s.call_tool("click", {"id": "3"})
            out["nav"] = await s.call_tool("navigate", {"url": sites.url("shop", "/")})
            out["unknown_id"] = await s.call_tool("click", {"id": "99999"})
            out["blocked"] = await s.call_tool("navigate", {"url": "http://example.com/"})
            out["unknown_tool"] = await s.call_tool("teleport", {})
            out["bad_arg"] = await s.call_tool("scroll", {"direction": "sideways"})
            out["extra_arg"] = await s.call_tool("click", {"id": "3", "force": True})
            out["never_loads"] = await s.call_tool("navigate", {"url": tricky_server + "/slow-asset"})
            out["hung"] = await s.call_tool("navigate", {"url": tricky_server + "/busy"})
            await asyncio.sleep(0.8)  # its script now spins forever
            out["hung_click"] = await s.call_tool("observe", {})
            out["after"] = await s.call_tool("navigate", {"url": sites.url("shop", "/cart")})
            out["find"] = await s.call_tool("find_text", {"text": "cart"})
        return out

    out = _run(go())
    assert out["before"].is_error and "navigate" in _text(out["before"])
    assert not out["nav"].is_error and "[" in _text(out["nav"])
    assert out["unknown_id"].is_error and "id 99999 is not in the current observation" in _text(out["unknown_id"])
    assert out["blocked"].is_error and "not an allowed origin" in _text(out["blocked"])
    assert out["unknown_tool"].is_error and "unknown tool 'teleport'" in _text(out["unknown_tool"])
    assert out["bad_arg"].is_error and "up, down" in _text(out["bad_arg"])
    assert out["extra_arg"].is_error and "no argument 'force'" in _text(out["extra_arg"])
    never = _text(out["never_loads"])
    assert not out["never_loads"].is_error and "did not finish loading" in never and "Usable" in never
    hung = out["hung"] if out["hung"].is_error else out["hung_click"]  # the script starts spinning after 200 ms
    assert hung.is_error and any(w in _text(hung) for w in ("main thread", "no answer from the page"))
    assert not out["after"].is_error and "Cart" in _text(out["after"])  # still serving, on a fresh page
    assert not out["find"].is_error


def test_parallel_calls_are_answered_in_turn(sites: Sites) -> None:
    async def go() -> list[Any]:
        async with stdio_client(_params()) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            await s.call_tool("navigate", {"url": sites.url("shop", "/")})
            calls = [s.call_tool("observe", {}), s.call_tool("scroll", {"direction": "down"}),
                     s.call_tool("find_text", {"text": "Kitchen"}), s.call_tool("click", {"id": "99999"}),
                     s.call_tool("observe", {"goal": "search for a lamp"})]
            return list(await asyncio.gather(*calls))

    results = _run(go())
    assert [r.is_error for r in results] == [False, False, False, True, False]
    assert all(_text(r) for r in results)


def test_disconnect_mid_action_leaves_no_chromium(tricky_server: str, sites: Sites) -> None:
    seen: set[int] = set()

    async def go() -> None:
        async with stdio_client(_params()) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            await s.call_tool("navigate", {"url": sites.url("shop", "/")})
            seen.update(_descendant_chromiums())
            # a navigation that waits for a load event that never comes; the client leaves meanwhile
            pending = asyncio.ensure_future(s.call_tool("navigate", {"url": tricky_server + "/slow-asset"}))
            await asyncio.sleep(1.0)
            pending.cancel()

    with _CancelOk():  # leaving mid-call may surface as a cancellation
        _run(go())
    assert seen, "the browser should have been running"
    deadline = time.time() + 30
    while time.time() < deadline and any(_alive(p) for p in seen):
        time.sleep(0.5)
    assert not [p for p in seen if _alive(p)], "Chromium outlived its MCP client"


class _CancelOk:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return isinstance(exc[1], asyncio.CancelledError | BaseExceptionGroup)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_http(port: int) -> Any:
    import subprocess

    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-m", "pagelens.cli", "mcp", "--http", str(port)], env=env)


async def _http_navigate(port: int, url: str, then: Any = None, *, busy: str = "") -> tuple[int, Any]:
    """list_tools + navigate over streamable HTTP; ``then()`` (blocking) runs while the session is
    open (and, with ``busy``, while a navigation to that URL is in flight)."""
    import socket

    from mcp.client.streamable_http import streamable_http_client

    for _ in range(60):  # wait for the listener
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        await asyncio.sleep(0.25)
    async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams, \
            ClientSession(streams[0], streams[1]) as s:
        await s.initialize()
        n = len((await s.list_tools()).tools)
        res = await s.call_tool("navigate", {"url": url})
        if busy:
            asyncio.ensure_future(s.call_tool("navigate", {"url": busy}))
            await asyncio.sleep(1.5)  # the page's script now spins, the call waits on it
        if then is not None:
            await asyncio.to_thread(then)
        return n, res


def test_streamable_http_on_loopback(sites: Sites) -> None:
    port = _free_port()
    proc = _start_http(port)
    try:
        n, res = _run(_http_navigate(port, sites.url("shop", "/")))
        assert n == len(TOOLS)
        assert not res.is_error and "Lumen Market" in _text(res)
        listening = Path("/proc/net/tcp").read_text()
        assert f"0100007F:{port:04X}" in listening  # bound to 127.0.0.1 only
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.parametrize("busy", [False, True], ids=["idle", "mid-call-on-a-hung-page"])
def test_sigterm_in_http_mode_closes_the_browsers(sites: Sites, tricky_server: str, busy: bool) -> None:
    """SIGTERM to `pagelens mcp --http` with a client connected (idle, or waiting on a page whose
    script never yields): the server exits and none of its Chromium survives."""
    import contextlib
    import signal
    import subprocess

    port = _free_port()
    proc = _start_http(port)
    seen: set[int] = set()
    exit_code: list[int | None] = []

    def stop_while_connected() -> None:  # the client's session (and its event stream) is still open
        seen.update(_descendant_chromiums())
        proc.send_signal(signal.SIGTERM)
        try:
            exit_code.append(proc.wait(40))
        except subprocess.TimeoutExpired:
            exit_code.append(None)

    try:
        with _CancelOk(), contextlib.suppress(Exception):  # the server goes away under the client
            _run(_http_navigate(port, sites.url("shop", "/"), stop_while_connected,
                                busy=tricky_server + "/busy" if busy else ""))
        assert seen, "the server's browser should have been running"
        assert exit_code and exit_code[0] is not None, "the server did not exit within 40 s of SIGTERM"
        deadline = time.time() + 10
        while time.time() < deadline and any(_alive(p) for p in seen):
            time.sleep(0.25)
        assert not [p for p in seen if _alive(p)], "Chromium outlived the SIGTERMed HTTP server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for pid in seen:  # never leave a test's browser behind, even when the assertion failed
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_screenshot_tool_returns_a_png_of_the_open_page(sites: Sites) -> None:
    async def go() -> tuple[Any, Any]:
        async with stdio_client(_params()) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            before = await s.call_tool("screenshot", {})
            await s.call_tool("navigate", {"url": sites.url("shop", "/")})
            return before, await s.call_tool("screenshot", {})

    before, shot = _run(go())
    assert before.is_error and "navigate" in _text(before)  # no page yet: says what to do
    assert not shot.is_error
    images = [c for c in shot.content if getattr(c, "type", "") == "image"]
    texts = [c.text for c in shot.content if getattr(c, "type", "") == "text"]
    assert images and images[0].mime_type in ("image/png", "image/jpeg")
    import base64

    data = base64.b64decode(images[0].data)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" or data[:2] == b"\xff\xd8"
    assert any(sites.url("shop", "/") in t for t in texts)


def _renderers_below_servers() -> list[int]:
    """Chromium renderer processes started by an MCP server below this test process."""
    out = []
    for pid in _descendant_chromiums():
        try:
            cmd = (Path("/proc") / str(pid) / "cmdline").read_bytes()
        except OSError:
            continue
        if b"--type=renderer" in cmd:
            out.append(pid)
    return out


def test_a_crashed_renderer_is_a_tool_error_and_the_server_keeps_serving(sites: Sites) -> None:
    """The page's renderer dies (killed as the OOM killer would): the next call is a tool error
    that says so, and the server goes on serving a fresh page."""
    import signal

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with stdio_client(_params()) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            out["nav"] = await s.call_tool("navigate", {"url": sites.url("shop", "/")})
            victims = _renderers_below_servers()
            out["victims"] = victims
            for pid in victims:
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)
            out["observe"] = await s.call_tool("observe", {})
            out["click"] = await s.call_tool("click", {"id": "3"})
            out["after"] = await s.call_tool("navigate", {"url": sites.url("shop", "/cart")})
            out["observe_after"] = await s.call_tool("observe", {})
        return out

    out = _run(go())
    assert not out["nav"].is_error
    assert out["victims"], "the page should have a renderer process"
    crashed = _text(out["observe"])
    assert out["observe"].is_error and "crash" in crashed.lower(), crashed
    assert out["click"].is_error  # still no page: says so, does not hang
    assert not out["after"].is_error and "Cart" in _text(out["after"]), _text(out["after"])
    assert not out["observe_after"].is_error


def test_allowed_origins_refuse_other_loopback_origins(sites: Sites) -> None:
    shop, forum = sites.url("shop", "/"), sites.url("forum", "/")
    origin = shop.rstrip("/")

    async def go() -> tuple[Any, Any, Any]:
        async with stdio_client(_params("--allow-origin", origin)) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            other = await s.call_tool("navigate", {"url": forum})
            ok = await s.call_tool("navigate", {"url": shop})
            relative = await s.call_tool("navigate", {"url": "/cart"})
            return other, ok, relative

    other, ok, relative = _run(go())
    assert other.is_error and "not an allowed origin" in _text(other) and origin in _text(other)
    assert not ok.is_error and not relative.is_error and "/cart" in _text(relative)

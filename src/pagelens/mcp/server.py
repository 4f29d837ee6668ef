"""The MCP server: the official SDK's low-level :class:`mcp.server.lowlevel.Server` over
stdio (default) or streamable HTTP on 127.0.0.1.

The low-level server is used (not ``MCPServer``'s decorators) because the tool schemas are
generated from the ActionSpecs (:mod:`pagelens.mcp.tools`), not from Python signatures.
Each client connection gets its own :class:`~pagelens.mcp.browsing.Browsing` and its own
worker thread: Playwright's sync API is bound to the thread that started it, and calls a
client sends in parallel are answered one after another, in arrival order. Bad calls
(unknown tools or arguments, ids not on the page, blocked origins) are tool errors
(``isError``); the server keeps serving. When the connection ends — even in the middle of
an action — the browser is closed, and any Chromium process still alive after a grace
period is killed by its PID.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import queue
import signal
import threading
from collections.abc import AsyncIterator
from concurrent.futures import Future
from typing import Any

from pagelens.mcp.browsing import Browsing, McpConfig, Reply
from pagelens.mcp.tools import TOOLS, input_schema, parse_call, tool_description

__all__ = ["PagelensServer", "run_http", "run_stdio"]

log = logging.getLogger("pagelens.mcp")
_CLOSE_GRACE_S = 15.0
#: Seconds open HTTP streams get to finish once the server is asked to stop.
_HTTP_GRACE_S = 3

INSTRUCTIONS = (
    "pagelens drives a real Chromium and decides what you see. Element ids are the numbers in "
    "brackets, e.g. [12]; one leading space per nesting level; a link, button or field is clickable "
    "(only other elements are marked so); a checkbox or radio without 'checked' is not checked, an option without 'selected' not selected; a quoted line alone is the page's text; '[p7] …42' stands "
    "for 42 lines left out (expand('p7') shows them); a line left out stays out of later views while it does "
    "not change, unless it names your goal. Every action answers with what really happened and, when "
    "the page changed, with the cheapest of: the new view; only what changed since your last view "
    "(+ added, - gone, ~ changed, each hunk after its '@' anchor line); or the new view with runs of "
    "lines you already have folded ('New view, folded:', then '= [3] +5' for line [3] of your last "
    "view and the 5 lines after it, unchanged; '= [3]' for that line alone; the other lines are new or changed). After '[7] now contains \"x\"' "
    "(a fill without Enter) or '[7] now shows \"x\"' (a selection), your copy of line [7] reads value='x' after its name "
    "(no value when x is empty). An answer that ends with "
    "'No signal.' has no view: nothing suggests the page changed beyond what it says, so your last "
    "view still holds. 'now at /path' is an address on the same site. Answers are capped; the note "
    "at the end says how to read more."
)


class _Worker:
    """One daemon thread running submitted calls in order (a call stuck in a hung page can be
    abandoned: unlike ThreadPoolExecutor's, this thread never blocks the process from exiting)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[Future[Any], Any, tuple[Any, ...]] | None] = queue.SimpleQueue()
        self._closed = False
        threading.Thread(target=self._loop, name="pagelens-mcp", daemon=True).start()

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("the worker is closed")
        future: Future[Any] = Future()
        self._queue.put((future, fn, args))
        return future

    def shutdown(self) -> None:
        self._closed = True
        self._queue.put(None)

    def _loop(self) -> None:
        while (item := self._queue.get()) is not None:
            future, fn, args = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
                future.set_exception(exc)


class _Client:
    """One connection: its browser and the one thread that drives it."""

    def __init__(self, config: McpConfig) -> None:
        self.browsing = Browsing(config)
        self.pool = _Worker()
        self.pids: set[int] = set()  # Chromium and the Playwright driver behind it
        self._pids_of = 0  # Browsing.episodes_opened when pids was last read
        self._lock = threading.Lock()

    def run(self, tool: str, arguments: dict[str, Any] | None) -> Reply:
        parsed = parse_call(tool, arguments)
        if isinstance(parsed, str):
            return Reply(parsed, is_error=True)
        try:
            reply = self.browsing.call(parsed)
        except Exception as exc:  # a bug or an untranslated error: report it, keep serving
            log.exception("tool %s failed", tool)
            with contextlib.suppress(Exception):
                self.browsing.close()
            return Reply(f"{tool}: internal error ({type(exc).__name__}: {exc}); the browser was reset.", is_error=True)
        if self.browsing.episodes_opened != self._pids_of:  # a new browser: its processes (a /proc scan)
            self._pids_of = self.browsing.episodes_opened
            pids = self.browsing.chromium_pids()
            with self._lock:
                self.pids.update(pids)
                self.pids.update(_parent(p) for p in pids)
        return reply

    def kill_browser(self) -> int:
        """SIGKILL this client's Chromium processes (a hung page); returns how many were alive."""
        with self._lock:
            pids = [p for p in self.pids if _alive(p)]
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        return len(pids)

    def close(self) -> None:
        """Close the browser on its own thread; kill what is left after the grace period."""
        try:
            self.pool.submit(self.browsing.close).result(timeout=_CLOSE_GRACE_S)
        except Exception as exc:  # noqa: BLE001 - a hung or broken browser: kill it below
            log.warning("closing the browser did not finish cleanly: %s", exc)
        self.pool.shutdown()
        with self._lock:
            pids = set(self.pids)
        for pid in pids:
            if _alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return pid


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][:1] not in ("Z", "X")
    except OSError:
        return False


class PagelensServer:
    """The tools, wired into the SDK's low-level server; one :class:`_Client` per connection."""

    def __init__(self, config: McpConfig | None = None) -> None:
        from mcp.server.lowlevel import Server

        self.config = config or McpConfig()
        self._clients: dict[int, _Client] = {}
        self.server: Any = Server(
            "pagelens", version=_version(), instructions=INSTRUCTIONS,
            get_tool_input_schema=lambda name: input_schema(TOOLS[name]) if name in TOOLS else None,
            on_list_tools=self._list_tools, on_call_tool=self._call_tool,
        )

    async def _list_tools(self, ctx: Any, params: Any) -> Any:
        from mcp import types

        return types.ListToolsResult(tools=[
            types.Tool(name=name, description=tool_description(spec), input_schema=input_schema(spec))
            for name, spec in TOOLS.items()
        ])

    @staticmethod
    def _key(ctx: Any) -> int:
        # one ServerSession per request in SDK 2.x; the connection behind it is per client
        # (stdio: one per process; streamable HTTP: one per MCP session)
        return id(getattr(ctx.session, "_connection", None))

    def _client(self, ctx: Any) -> _Client:
        key = self._key(ctx)
        client = self._clients.get(key)
        if client is None:
            client = self._clients[key] = _Client(self.config)
        return client

    async def _call_tool(self, ctx: Any, params: Any) -> Any:
        from mcp import types

        client = self._client(ctx)
        try:
            future = client.pool.submit(client.run, params.name, dict(params.arguments or {}))
        except RuntimeError as exc:  # the pool was shut down: the connection is closing
            future = None
            reply = Reply(f"{params.name}: the server is shutting down ({exc}).", is_error=True)
        if future is not None:
            try:
                reply = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), self._call_timeout())
            except TimeoutError:
                # a page whose main thread never returns can block Playwright forever: kill that
                # browser (the stuck call then fails), answer, and start a fresh one on the next call
                # the stuck thread is abandoned with its Playwright driver; the connection gets a new one
                killed = client.kill_browser()
                client.pool.shutdown()
                self._clients[self._key(ctx)] = _Client(self.config)
                reply = Reply(f"{params.name}: no answer from the page within {self._call_timeout():.0f} s (a script "
                              f"that never yields?); the browser was stopped ({killed} processes) and the next call "
                              "starts a fresh one (the goal is kept only if set by --goal).", is_error=True)
        content: list[Any] = [types.TextContent(type="text", text=reply.text)]
        if reply.image is not None:
            content.append(types.ImageContent(type="image", data=base64.b64encode(reply.image).decode("ascii"),
                                              mime_type=reply.image_type))
        return types.CallToolResult(content=content, is_error=reply.is_error)

    def _call_timeout(self) -> float:
        c = self.config
        return 2 * c.navigation_timeout_s + 2 * c.action_timeout_s + 10

    def close(self) -> None:
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            client.close()

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await asyncio.get_running_loop().run_in_executor(None, self.close)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pagelens")
    except PackageNotFoundError:
        return "0"


async def _serve_stdio(server: PagelensServer) -> None:
    from mcp.server.stdio import stdio_server

    async with server.serving(), stdio_server() as (read_stream, write_stream):
        await server.server.run(read_stream, write_stream, server.server.create_initialization_options())


def run_stdio(config: McpConfig | None = None) -> None:
    """Serve one client over stdin/stdout until it disconnects."""
    import anyio

    anyio.run(_serve_stdio, PagelensServer(config))


def run_http(config: McpConfig | None = None, *, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve streamable HTTP at http://host:port/mcp (loopback only).

    SIGTERM / SIGINT close every client's browser before the process exits: uvicorn re-raises
    the captured signal once it has shut down (so the default action ends the process and no
    ``finally`` after ``uvicorn.run`` would run), hence the browsers are closed inside its
    shutdown, first, and open streams get a bounded grace period.
    """
    if host not in ("127.0.0.1", "localhost", "::1"):
        from pagelens.errors import ConfigError

        raise ConfigError(f"--host {host}: the MCP server binds loopback only (127.0.0.1)")
    server = PagelensServer(config)
    app = server.server.streamable_http_app(streamable_http_path="/mcp", host=host)
    http = _closing_server(server, app, host=host, port=port)
    try:
        http.run()
    finally:
        server.close()  # reached on a normal return (the signal paths closed them already)


def _closing_server(server: PagelensServer, app: Any, *, host: str, port: int) -> Any:
    import uvicorn

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            # close the browsers first: an open event stream could hold the rest of the shutdown
            await asyncio.get_running_loop().run_in_executor(None, server.close)
            await super().shutdown(sockets)

    return _Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                  timeout_graceful_shutdown=_HTTP_GRACE_S))

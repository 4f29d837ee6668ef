"""A scripted OpenAI-compatible server: real HTTP on 127.0.0.1, replies from a script.

Tests and demos talk to it through the real client (:mod:`pagelens.llm.openai_compat`),
so timeouts, retries, malformed bodies and usage accounting are exercised over a socket.

A script is a sequence of replies consumed in order, or a function
``(request_json) -> reply``. A reply is:

* ``str`` — a normal completion with that text (no ``usage`` block: the client estimates);
* a dict describing the behaviour, any of:

  - ``{"text": "...", "usage": {"prompt_tokens": 10, "completion_tokens": 2}}``
  - ``{"text": "...", "finish_reason": "length", "model": "m", "delay": 0.1}``
  - ``{"status": 500, "body": "..." | {...}, "headers": {"Retry-After": "0"}}``
  - ``{"hang": 2.0}`` — wait that long (or until the server stops), then close without
    replying (add ``"text"`` to reply after the wait instead);
  - ``{"raw": "not json at all"}`` — a 200 with that exact body;
  - ``{"close": true}`` — drop the connection without any response.

When a list script is exhausted the server answers HTTP 500 ``script exhausted``.
Every request is recorded (:attr:`ScriptedServer.requests`) before it is answered.

Run standalone for demos::

    python -m pagelens.llm.scripted --script replies.jsonl --port 8011
"""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from pagelens.serving import drop_connection

if TYPE_CHECKING:
    from pagelens.serving import Served

__all__ = ["RecordedRequest", "Reply", "Script", "ScriptedServer", "load_script", "main"]

Reply = str | Mapping[str, Any]
Script = Sequence[Reply] | Callable[[dict[str, Any]], Reply]


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    method: str
    path: str
    body: Any  # parsed JSON, or the raw text when the body was not JSON, None for GET
    authorization: str | None  # the Authorization header as received (to check it was sent)

    @property
    def messages(self) -> list[dict[str, Any]]:
        if isinstance(self.body, dict) and isinstance(self.body.get("messages"), list):
            return self.body["messages"]
        return []

    def prompt_text(self) -> str:
        """All message contents joined: what the model was shown."""
        return "\n".join(str(m.get("content", "")) for m in self.messages)


Headers = list[tuple[bytes, bytes]]


class _App:
    """The ASGI app: every request runs its script step in a worker thread (a script may block,
    as the stdlib server's one thread per request allowed), the reply is sent as raw ASGI."""

    def __init__(self, owner: ScriptedServer) -> None:
        self.owner = owner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        from starlette.concurrency import run_in_threadpool
        from starlette.requests import Request

        owner = self.owner
        query = scope.get("query_string", b"").decode("latin-1")
        path = scope.get("raw_path", scope["path"].encode()).decode("latin-1") + (f"?{query}" if query else "")
        request = Request(scope, receive)
        auth = request.headers.get("authorization")
        route = path.rstrip("/")
        if scope["method"] == "GET":
            owner._record(RecordedRequest("GET", path, None, auth))
            if route in ("/v1/models", "/models"):
                models = {"object": "list", "data": [{"id": owner.model, "object": "model", "owned_by": "pagelens"}]}
                await _json(send, 200, models)
            else:
                await _json(send, 404, {"error": {"message": f"no route {path}"}})
            return
        if scope["method"] != "POST":
            await _json(send, 501, {"error": {"message": f"unsupported method {scope['method']}"}})
            return
        raw = (await request.body()).decode("utf-8", "replace")
        try:
            body: Any = json.loads(raw)
        except json.JSONDecodeError:
            body = raw
        owner._record(RecordedRequest("POST", path, body, auth))
        if route not in ("/v1/chat/completions", "/chat/completions"):
            await _json(send, 404, {"error": {"message": f"no route {path}"}})
            return
        if not isinstance(body, dict):
            await _json(send, 400, {"error": {"message": "body is not a JSON object"}})
            return
        try:
            reply = await run_in_threadpool(owner._next, body)
        except Exception:  # noqa: BLE001 - a script that raised: the client sees the connection drop, as before
            await drop_connection(receive)
            return
        await self._reply(reply, body, receive, send)

    async def _reply(self, reply: Reply, request: dict[str, Any], receive: Any, send: Any) -> None:
        from starlette.concurrency import run_in_threadpool

        owner = self.owner
        if isinstance(reply, str):
            reply = {"text": reply}
        if "hang" in reply:
            await run_in_threadpool(owner._stopping.wait, float(reply["hang"]))  # stop() wakes it
            if "text" not in reply:
                await drop_connection(receive)
                return
        if reply.get("close"):
            await drop_connection(receive)
            return
        if "delay" in reply:
            await run_in_threadpool(owner._stopping.wait, float(reply["delay"]))
        if "raw" in reply:
            await _send(send, int(reply.get("status", 200)), str(reply["raw"]).encode(), "application/json", [])
            return
        status = int(reply.get("status", 200))
        headers = [(str(k).encode("latin-1"), str(v).encode("latin-1")) for k, v in dict(reply.get("headers", {})).items()]
        if status != 200:
            err = reply.get("body", {"error": {"message": f"scripted HTTP {status}"}})
            if isinstance(err, str):
                await _send(send, status, err.encode(), "text/plain", headers)
            else:
                await _json(send, status, err, headers)
            return
        with owner._lock:
            owner._count += 1
            count = owner._count
        payload: dict[str, Any] = {
            "id": f"chatcmpl-scripted-{count}",
            "object": "chat.completion",
            "created": 0,
            "model": str(reply.get("model", request.get("model") or owner.model)),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.get("text", "")},
                    "finish_reason": reply.get("finish_reason", "stop"),
                }
            ],
        }
        if "usage" in reply:
            payload["usage"] = dict(reply["usage"])
        await _json(send, 200, payload, headers)


async def _json(send: Any, status: int, obj: Any, headers: Headers | None = None) -> None:
    await _send(send, status, json.dumps(obj).encode(), "application/json", headers or [])


async def _send(send: Any, status: int, data: bytes, ctype: str, headers: Headers) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", ctype.encode()), (b"content-length", str(len(data)).encode()), *headers]})
    await send({"type": "http.response.body", "body": data})


class ScriptedServer:
    """Real HTTP server on ``127.0.0.1`` answering from ``script``; a context manager.

    Served by :func:`pagelens.serving.serve_in_thread` (uvicorn) like every pagelens server.
    """

    def __init__(self, script: Script, *, model: str = "scripted", host: str = "127.0.0.1", port: int = 0) -> None:
        if host != "127.0.0.1":
            raise ValueError("the scripted server binds 127.0.0.1 only")
        self.model = model
        self._host = host
        self._port = port
        self._script = script if callable(script) else list(script)
        self._pos = 0
        self._count = 0
        self._lock = threading.Lock()
        self._requests: list[RecordedRequest] = []
        self._stopping = threading.Event()
        self._server: Served | None = None

    def __repr__(self) -> str:
        state = self.base_url if self._server else "stopped"
        return f"ScriptedServer({state}, requests={len(self._requests)})"

    # -- script ----------------------------------------------------------------------------
    def _next(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            if callable(self._script):
                return self._script(request)
            if self._pos >= len(self._script):
                return {"status": 500, "body": {"error": {"message": "script exhausted"}}}
            reply = self._script[self._pos]
            self._pos += 1
            return reply

    def _record(self, req: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(req)

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == "POST"]

    @property
    def remaining(self) -> int | None:
        """Replies left in a list script (None for a function script)."""
        with self._lock:
            return None if callable(self._script) else len(self._script) - self._pos

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("server not started")
        return self._server.port

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}/v1"

    def start(self) -> Self:
        if self._server is not None:
            return self
        from pagelens.serving import serve_in_thread

        self._stopping.clear()
        self._server = serve_in_thread(_App(self), port=self._port, name="pagelens-scripted-llm")
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._stopping.set()  # wakes hanging handlers
        self._server.stop()
        self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def load_script(path: str | Path) -> list[Reply]:
    """Read a JSONL script: one JSON string or object per non-empty line."""
    replies: list[Reply] = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(value, (str, dict)):
            raise ValueError(  # noqa: TRY004 - a malformed file, not a caller's type error: same as bad JSON
                f"{path}:{n}: expected a string or an object, got {type(value).__name__}"
            )
        replies.append(value)
    return replies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pagelens.llm.scripted", description=__doc__.split("\n")[0])
    parser.add_argument("--script", required=True, help="JSONL file, one reply per line")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--model", default="scripted")
    args = parser.parse_args(argv)
    server = ScriptedServer(load_script(args.script), model=args.model, port=args.port).start()
    print(f"scripted LLM server at {server.base_url} ({server.remaining} replies)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

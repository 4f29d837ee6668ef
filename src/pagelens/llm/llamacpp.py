"""Run a user's own GGUF model behind llama-cpp-python's OpenAI-compatible server.

Optional: needs ``pip install 'pagelens[llamacpp]'``. Nothing is imported until
:meth:`LlamaCppServer.start`, which raises :class:`~pagelens.errors.MissingDependency` with
the install hint when the package is absent. The server is a child process bound to
127.0.0.1; talk to it with :class:`~pagelens.llm.openai_compat.OpenAICompatModel` using
:meth:`LlamaCppServer.config`.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Self

import httpx

from pagelens.errors import ConfigError, LLMError, MissingDependency
from pagelens.llm.base import LLMConfig

__all__ = ["LlamaCppServer"]


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _require_llama_cpp() -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        raise MissingDependency("llama-cpp-python", "llamacpp")


class LlamaCppServer:
    """Start/stop ``python -m llama_cpp.server`` for one GGUF file; a context manager."""

    def __init__(
        self,
        model_path: str | Path,
        port: int = 0,
        n_ctx: int = 16384,
        *,
        host: str = "127.0.0.1",
        alias: str = "local-gguf",
        startup_timeout_s: float = 180.0,
        python: str = sys.executable,
        extra_args: Sequence[str] = (),
    ) -> None:
        self.model_path = Path(model_path)
        self.port = port
        self.n_ctx = n_ctx
        self.host = host
        self.alias = alias
        self.startup_timeout_s = startup_timeout_s
        self.python = python
        self.extra_args = tuple(extra_args)
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def __repr__(self) -> str:
        return f"LlamaCppServer({self.model_path.name!r}, port={self.port}, running={self.running})"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def config(self) -> LLMConfig:
        """Client configuration for this server (llama-cpp-python's structured-output flavour)."""
        return LLMConfig(
            base_url=self.base_url,
            model=self.alias,
            api_key_env="PAGELENS_LLAMACPP_API_KEY",  # normally unset: no key needed locally
            response_format_style="json_object",
            supports_json_schema=True,
            price_input_per_m=0.0,
            price_output_per_m=0.0,
        )

    def command(self) -> list[str]:
        return [
            self.python, "-m", "llama_cpp.server",
            "--model", str(self.model_path),
            "--model_alias", self.alias,
            "--host", self.host,
            "--port", str(self.port),
            "--n_ctx", str(self.n_ctx),
            *self.extra_args,
        ]  # fmt: skip

    def start(self) -> Self:
        if self.running:
            return self
        _require_llama_cpp()
        if not self.model_path.is_file():
            raise ConfigError(f"GGUF model not found: {self.model_path}")
        if self.port == 0:
            self.port = _free_port(self.host)
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server; stop() closes it
        self._proc = subprocess.Popen(self.command(), stdout=self._log, stderr=subprocess.STDOUT)
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _log_tail(self, n: int = 2000) -> str:
        if self._log is None:
            return ""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")[-n:]

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.startup_timeout_s
        with httpx.Client(timeout=2.0) as client:
            while time.monotonic() < deadline:
                assert self._proc is not None
                if self._proc.poll() is not None:
                    raise LLMError(f"llama_cpp.server exited with {self._proc.returncode}:\n{self._log_tail()}")
                try:
                    if client.get(self.base_url + "/models").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.25)
        raise LLMError(f"llama_cpp.server not ready after {self.startup_timeout_s}s:\n{self._log_tail()}")

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

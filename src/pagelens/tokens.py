"""Offline token counting with tiktoken's ``o200k_base``.

tiktoken downloads its encoding files on first use, which fails offline. The ``bpe-openai``
package ships the same files (their hashes equal tiktoken's), so on first use we decompress
the packaged file into tiktoken's cache directory, where unmodified tiktoken finds it and
verifies its hash. When neither package is importable we fall back to an estimate
(``len(text) / 4``) and say so through :func:`backend`.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

ENCODING = "o200k_base"
_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
_lock = threading.Lock()


def _cache_dir() -> Path:
    configured = os.environ.get("TIKTOKEN_CACHE_DIR")
    if configured:
        return Path(configured)
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "pagelens" / "tiktoken"


def _seed_cache(cache: Path) -> None:
    target = cache / hashlib.sha1(_URL.encode()).hexdigest()
    if target.exists():
        return
    data = resources.files("bpe_openai.data").joinpath(f"{ENCODING}.tiktoken.gz").read_bytes()
    cache.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".tmp{os.getpid()}")
    tmp.write_bytes(gzip.decompress(data))
    tmp.replace(target)


@lru_cache(maxsize=1)
def _encoder() -> tuple[str, Callable[[str], int]]:
    with _lock:
        try:
            import tiktoken

            cache = _cache_dir()
            try:
                _seed_cache(cache)
            except (ModuleNotFoundError, FileNotFoundError, OSError):
                pass  # tiktoken may still have the file, or it raises below
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(cache))
            enc = tiktoken.get_encoding(ENCODING)
            return f"tiktoken:{ENCODING}", _tiktoken_counter(enc)
        except Exception:  # noqa: BLE001, S110 - any failure means "use the fallback"
            pass
        try:
            import bpe_openai

            enc2 = bpe_openai.get_encoding(ENCODING)
            return f"bpe-openai:{ENCODING}", lambda s: len(enc2.encode(s))
        except Exception:  # noqa: BLE001
            return "estimate:chars/4", lambda s: (len(s) + 3) // 4


#: From this many characters on, tiktoken's tokens are counted in a numpy buffer (4 bytes a
#: token) instead of a Python list (an int object and a pointer a token: 1.4 million tokens of
#: a 100,000-element page were a 40 MB transient peak).
BIG_TEXT_CHARS = 1 << 16


def _tiktoken_counter(enc: Any) -> Callable[[str], int]:
    def counter(s: str) -> int:
        if len(s) >= BIG_TEXT_CHARS:
            try:
                return len(enc.encode_to_numpy(s, disallowed_special=()))
            except (ImportError, AttributeError, UnicodeEncodeError):
                pass  # no numpy, an older tiktoken, lone surrogates (encode() repairs them): the list
        return len(enc.encode(s, disallowed_special=()))

    return counter


def count(text: str) -> int:
    """Number of o200k_base tokens in ``text`` (an estimate if no tokenizer is available)."""
    if not text:
        return 0
    return _encoder()[1](text)


def count_many(texts: list[str]) -> list[int]:
    fn = _encoder()[1]
    return [fn(t) if t else 0 for t in texts]


def backend() -> str:
    """Which counter is in use: ``tiktoken:o200k_base``, ``bpe-openai:...`` or ``estimate:...``."""
    return _encoder()[0]

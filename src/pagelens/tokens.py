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
def _encoder() -> tuple[str, Callable[[str], int], Any]:
    with _lock:
        try:
            import tiktoken

            cache = _cache_dir()
            try:
                _seed_cache(cache)
            except (ModuleNotFoundError, FileNotFoundError, OSError):
                pass  # tiktoken may still have the file, or it raises below
            os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(cache))
            enc = _lean_encoding(tiktoken)
            return f"tiktoken:{ENCODING}", _tiktoken_counter(enc), enc
        except Exception:  # noqa: BLE001, S110 - any failure means "use the fallback"
            pass
        try:
            import bpe_openai

            enc2 = bpe_openai.get_encoding(ENCODING)
            return f"bpe-openai:{ENCODING}", lambda s: len(enc2.encode(s)), None
        except Exception:  # noqa: BLE001
            return "estimate:chars/4", lambda s: (len(s) + 3) // 4, None


def _lean_encoding(tiktoken: Any) -> Any:
    """tiktoken's ``o200k_base`` without the Python copy of its rank table.

    A ``tiktoken.Encoding`` keeps the 200,000-entry ``bytes -> rank`` dict it was built from
    (~27 MB of the process, read again only to pickle the encoding by value) beside the Rust
    tables that encode. Counting needs the Rust side only, so pagelens builds its own,
    unregistered instance from the encoding's constructor (tiktoken's plugin table) and drops
    the dict; the encoding tiktoken's registry hands to everyone else stays untouched, and an
    instance someone in the process already built is shared as it is. Pickling ours gives the
    registry's full encoding. The counts take the same code path (``Encoding.encode``)."""
    registered = tiktoken.registry.ENCODINGS.get(ENCODING)
    if registered is not None:
        return registered

    class CountingEncoding(tiktoken.Encoding):  # type: ignore[misc, name-defined]
        """An ``Encoding`` that pickles as a reference to the registry's (its rank table is gone)."""

        def __reduce__(self) -> tuple[Any, tuple[str]]:
            return tiktoken.get_encoding, (self.name,)

    try:
        from tiktoken_ext.openai_public import ENCODING_CONSTRUCTORS

        enc = CountingEncoding(**ENCODING_CONSTRUCTORS[ENCODING]())
    except (ImportError, KeyError, TypeError, AttributeError):  # another tiktoken layout: the registry's
        return tiktoken.get_encoding(ENCODING)
    enc._mergeable_ranks = {}  # read only by Encoding.__getstate__, which CountingEncoding never uses
    return enc


def encoding() -> Any | None:
    """The tiktoken ``Encoding`` the counter uses (None when the counter is not tiktoken), for
    code that needs token ids as well (:mod:`pagelens.focus.chunking`): one encoder per process.
    It may lack ``_mergeable_ranks`` contents (see :func:`_lean_encoding`)."""
    return _encoder()[2]


def mergeable_ranks() -> dict[bytes, int]:
    """The encoding's ``bytes -> rank`` table, loaded from tiktoken's cached file for a caller
    that needs it once (its own copy: the counter keeps none, see :func:`_lean_encoding`)."""
    enc = encoding()
    ranks: dict[bytes, int] = getattr(enc, "_mergeable_ranks", None) or {}
    if ranks:
        return ranks
    from tiktoken_ext.openai_public import ENCODING_CONSTRUCTORS

    return dict(ENCODING_CONSTRUCTORS[ENCODING]()["mergeable_ranks"])


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


#: From this many characters on, :func:`count_soon` counts on a worker thread.
SOON_CHARS = 1 << 13


def count_soon(text: str) -> Callable[[], int]:
    """:func:`count` of ``text``, started now: call the result for the count.

    With tiktoken and a text of :data:`SOON_CHARS` or more, the count runs on a worker thread
    (tiktoken's encoder releases the GIL while it encodes) while the caller goes on, e.g. to
    focus the rendering whose full size this is (2 ms of a 1,500-node page's tree, 8 ms of a
    4,000-node one); otherwise it is counted at once."""
    if len(text) >= SOON_CHARS and backend().startswith("tiktoken:"):
        return _counting_pool().submit(_encoder()[1], text).result
    n = count(text)
    return lambda: n


@lru_cache(maxsize=1)
def _counting_pool() -> Any:
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="pagelens-tokens")


def count_many(texts: list[str]) -> list[int]:
    fn = _encoder()[1]
    return [fn(t) if t else 0 for t in texts]


def backend() -> str:
    """Which counter is in use: ``tiktoken:o200k_base``, ``bpe-openai:...`` or ``estimate:...``."""
    return _encoder()[0]

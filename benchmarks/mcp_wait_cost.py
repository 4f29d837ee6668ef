"""What a page read costs by the way it is made, on one Chromium page (interleaved, medians).

* ``evaluate`` (one protocol call, unbounded) against ``wait_for_function`` + ``json_value`` +
  ``dispose`` (:meth:`pagelens.browser.driving.Frame.poll`: the bound of the settling and the
  fingerprints until h10) and against the bounded one-call evaluate
  (:func:`pagelens.browser.driving.bounded`, what they use now), for a plain object and for the
  settle script itself (:data:`pagelens.actions.settle.SETTLE_JS`);
* Playwright's per-call stack capture, ``inspect.stack()`` and ``traceback.extract_stack()``,
  against :func:`pagelens.mcp.pwstack.light_stack` / ``light_extract_stack``, 30 frames deep
  (about the MCP worker's depth).

    PYTHONPATH=src .venv/bin/python benchmarks/mcp_wait_cost.py [--rounds 40]
"""

from __future__ import annotations

import argparse
import collections
import inspect
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


def _stacks(rounds: int) -> dict[str, float]:
    import traceback

    from pagelens.mcp.pwstack import light_extract_stack, light_stack

    def deep(n: int, f: Callable[[], Any]) -> float:
        if n:
            return deep(n - 1, f)
        t = time.perf_counter()
        for _ in range(rounds):
            f()
        return (time.perf_counter() - t) / rounds

    return {"inspect.stack()": deep(30, inspect.stack), "light_stack()": deep(30, light_stack),
            "traceback.extract_stack()": deep(30, traceback.extract_stack),
            "light_extract_stack()": deep(30, light_extract_stack)}


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    from pagelens.actions.fingerprint import HASH_LIMIT
    from pagelens.actions.settle import SETTLE_JS
    from pagelens.browser.chromium import find_chromium
    from pagelens.browser.driving import bounded

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args(argv)
    res: dict[str, list[float]] = collections.defaultdict(list)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(None), headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_content("<p>text</p>" * 200)

        def polled(js: str, arg: Any = None) -> Any:
            handle = page.wait_for_function(js, arg=arg, timeout=5000, polling=50)
            try:
                return handle.json_value()
            finally:
                handle.dispose()

        def one_call(js: str, arg: Any = None) -> Any:
            return bounded(page.main_frame, lambda impl: impl.evaluate(js, arg), 5000, "read")

        settle_arg = [HASH_LIMIT, 0, 500, None]
        reads: dict[str, Callable[[], Any]] = {
            "object: evaluate": lambda: page.evaluate("() => ({a: 1})"),
            "object: wait_for_function": lambda: polled("() => ({a: 1})"),
            "object: bounded evaluate": lambda: one_call("() => ({a: 1})"),
            "settle script: evaluate": lambda: page.evaluate(SETTLE_JS, settle_arg),
            "settle script: wait_for_function": lambda: polled(SETTLE_JS, settle_arg),
            "settle script: bounded evaluate": lambda: one_call(SETTLE_JS, settle_arg),
        }
        for _ in range(args.rounds):
            for name, read in reads.items():
                t = time.perf_counter()
                read()
                res[name].append(time.perf_counter() - t)
        browser.close()
    print("| read | median ms |\n|---|---|")
    for name, xs in res.items():
        print(f"| {name} | {1000 * statistics.median(xs):.2f} |")
    for name, secs in _stacks(args.rounds * 5).items():
        print(f"| {name} (30 frames deep) | {1000 * secs:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

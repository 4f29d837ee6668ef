"""Whether two source trees observe the same pages into the same tree (issue 13, h13-mem): every
field of every :class:`~pagelens.types.Node` of ``Episode.observe()`` (walker), but the element
reference (its document token is random per load) and the CDP backend id (numbered per load: only
whether a node has one), compared page by page (the local server's
address, a random port per run, written as ``ORIGIN``; an iframe's frame key — the walker's
``w:<token>``, the CDP extraction's frame id — random per load, numbered in order of appearance).

Each source tree runs in its own child process (its own browser), pages in the same order.

    PYTHONPATH=src .venv/bin/python benchmarks/observe_identity.py /tmp/base13/src src \\
        /work/shared/corpus/realpages/*.html /tmp/pages/gen-100000.html

The same code on two Chromium binaries (h17-shell): give the same tree twice and the binaries with
``--chromium-a EXE`` / ``--chromium-b EXE`` (each side's default: what the code finds); the
extraction with ``--extraction cdp|walker`` (default: the checkout's own).

    PYTHONPATH=src .venv/bin/python benchmarks/observe_identity.py src src \\
        --chromium-a /usr/lib/chromium/chromium --chromium-b /usr/lib/chromium/chromium-headless-shell \\
        /work/shared/corpus/realpages/*.html

Prints one line per differing page (the first differing node) and a JSON summary; exits 1 if any
differs. A page that is not the same twice under one tree (a clock, a rotating banner) shows up as
a difference: re-run it alone to tell.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pickle
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any


def _observe(paths: list[str], out: str) -> None:
    """Runs in the child: the nodes of each page, without their element references (and, under
    ``"executable"``, the binary the session ran)."""
    from pagelens.browser.serve import StaticServer
    from pagelens.browser.session import BrowserSession
    from pagelens.config import BrowserConfig

    result: dict[str, Any] = {}
    extra: dict[str, Any] = {"extraction": os.environ["_IDENTITY_EXTRACTION"]} if os.environ.get("_IDENTITY_EXTRACTION") else {}
    config = BrowserConfig(navigation_timeout_s=300, extract_timeout_s=600, **extra)
    with BrowserSession(config) as session:
        result["executable"] = session.executable
        for path in paths:
            with StaticServer(Path(path).parent) as srv, session.episode() as ep:
                ep.goto(srv.url(Path(path).name))
                obs = ep.observe(timeout_s=600)
                origin = srv.base_url.rstrip("/")  # a random port per run
                frames: dict[str, str] = {}  # an iframe's key holds a random token (frame id) per load
                result[path] = [repr(dataclasses.astuple(dataclasses.replace(
                    n, ref=None, backend_id=n.backend_id is not None,
                    frame=frames.setdefault(n.frame, f"f#{len(frames)}") if n.frame != "main" else n.frame))).replace(origin, "ORIGIN")
                    for n in obs.nodes]
                del obs
    Path(out).write_bytes(pickle.dumps(result))


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "_observe":
        _observe(sys.argv[3:], sys.argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", help="the first src tree")
    ap.add_argument("cand", help="the second src tree (the same tree again to compare binaries)")
    ap.add_argument("pages", nargs="+")
    ap.add_argument("--chromium-a", help="the first side's Chromium (its PAGELENS_CHROMIUM)")
    ap.add_argument("--chromium-b", help="the second side's Chromium (its PAGELENS_CHROMIUM)")
    ap.add_argument("--extraction", choices=("cdp", "walker"), help="both sides' extraction (default: the checkout's own)")
    args = ap.parse_intermixed_args()  # the docstring's form: options between the trees and the pages
    base, cand, pages = args.base, args.cand, args.pages
    got = []
    for src, exe in ((base, args.chromium_a), (cand, args.chromium_b)):
        with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as fh:
            env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
            if exe:
                env["PAGELENS_CHROMIUM"] = exe
            if args.extraction:
                env["_IDENTITY_EXTRACTION"] = args.extraction
            subprocess.run([sys.executable, __file__, "_observe", fh.name, *pages], env=env, check=True)
            got.append(pickle.loads(Path(fh.name).read_bytes()))
            os.unlink(fh.name)
    differing = 0
    nodes = 0
    only = [0, 0]  # nodes (as compared) found on one side only, counted with multiplicity
    for page in pages:
        a, b = got[0][page], got[1][page]
        nodes += len(a)
        if a != b:
            differing += 1
            ca, cb = Counter(a), Counter(b)
            page_only = [sum((ca - cb).values()), sum((cb - ca).values())]
            only = [only[0] + page_only[0], only[1] + page_only[1]]
            first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print(f"DIFF {Path(page).name}: {len(a)} vs {len(b)} nodes, {page_only[0]} / {page_only[1]} only in a / b; first at {first}: "
                  f"{a[first] if first < len(a) else None} != {b[first] if first < len(b) else None}")
    print(json.dumps({"pages": len(pages), "nodes": nodes, "differing_pages": differing,
                      "nodes_only_in_a": only[0], "nodes_only_in_b": only[1],
                      "executables": [got[0]["executable"], got[1]["executable"]],
                      "extraction": args.extraction or "default"}))
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())

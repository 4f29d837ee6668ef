"""Time CDP extraction calls over a raw websocket (no Playwright), on a generated table page.

Shows whether observation time is Chromium's (serialising the AX tree) or the transport's:

    python benchmarks/cdp_raw.py --rows 1000 4000

Needs ``websocket-client`` (a BrowserGym dependency, in the dev venv).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def table(rows: int, folder: Path) -> Path:
    body = "".join(f"<tr><td>r{i}</td><td>cell {i} a</td><td>cell {i} b</td><td><a href='#{i}'>link {i}</a></td></tr>"
                   for i in range(rows))
    path = folder / f"table-{rows}.html"
    path.write_text(f"<html><body><h1>T</h1><table>{body}</table></body></html>")
    return path


def measure(page: Path, chromium: str) -> list[tuple[str, float, int]]:
    import websocket

    port = _free_port()
    profile = tempfile.mkdtemp(prefix="pl-cdp-")
    proc = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                             f"--remote-debugging-port={port}", f"--user-data-dir={profile}", "about:blank"],
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                tabs = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))  # noqa: S310 - loopback
                break
            except OSError:
                time.sleep(0.1)
        ws = websocket.create_connection(next(t for t in tabs if t["type"] == "page")["webSocketDebuggerUrl"],
                                         timeout=900)
        counter = 0

        def send(method: str, params: dict[str, object] | None = None) -> str:
            nonlocal counter
            counter += 1
            ws.send(json.dumps({"id": counter, "method": method, "params": params or {}}))
            while True:
                raw = ws.recv()
                if json.loads(raw).get("id") == counter:
                    return str(raw)

        send("Page.enable")
        send("Page.navigate", {"url": page.resolve().as_uri()})
        time.sleep(3)
        out = []
        for method, params in [("Accessibility.getFullAXTree", {}),
                               ("DOMSnapshot.captureSnapshot", {"computedStyles": ["visibility"]})]:
            t = time.perf_counter()
            raw = send(method, params)
            out.append((method, time.perf_counter() - t, len(raw)))
        return out
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, nargs="+", default=[1000])
    ap.add_argument("--chromium", default=os.environ.get("PAGELENS_CHROMIUM", "/usr/lib/chromium/chromium"))
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pl-cdp-pages-"))
    for rows in args.rows:
        for method, secs, size in measure(table(rows, folder), args.chromium):
            print(f"rows={rows} {method}: {secs:.2f} s, {size / 1e6:.1f} MB (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()

"""Process-table helpers for the reliability suite (orphan checks read /proc directly)."""

from __future__ import annotations

from pathlib import Path


def process_table() -> dict[int, tuple[int, str]]:
    """pid -> (ppid, command line) for every process (from /proc)."""
    table: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        table[int(entry.name)] = (ppid, cmd)
    return table


def descendants(pid: int) -> dict[int, str]:
    table = process_table()
    out: dict[int, str] = {}
    stack = [pid]
    while stack:
        p = stack.pop()
        for child, (ppid, cmd) in table.items():
            if ppid == p and child not in out:
                out[child] = cmd
                stack.append(child)
    return out


def chromium_under(pid: int) -> dict[int, str]:
    return {p: c for p, c in descendants(pid).items() if "chrom" in c.split(" ")[0]}


def alive(pids) -> list[int]:  # type: ignore[no-untyped-def]
    table = process_table()
    return [p for p in pids if p in table and not _zombie(p)]


def _zombie(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def wait_until(predicate, timeout: float, step: float = 0.2) -> bool:  # type: ignore[no-untyped-def]
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())

"""``focus_tail.py run`` on some pages of a group only (``--only PAGE`` repeated, before ``run``'s own arguments): to
split a long run into processes, one per page; the rows of the parts joined give the group's rows (h39-sections2).

    PYTHONPATH=src .venv/bin/python benchmarks/focus_tail_pages.py --only elinks-manual run --group dev35 ...
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    import focus_tail

    only = set()
    args = sys.argv[1:]
    while args and args[0] == "--only":
        only.add(args[1])
        args = args[2:]
    load = focus_tail.load
    focus_tail.load = lambda group: [g for g in load(group) if g["page"] in only]  # type: ignore[assignment]
    sys.argv = [sys.argv[0], *args]
    focus_tail.main()


if __name__ == "__main__":
    main()

"""Load time and RSS added by each FreeDict pair :mod:`pagelens.focus.bilingual` reads (h35-dict, issue 9).

    PYTHONPATH=src .venv/bin/python benchmarks/bilingual_load.py [PAIR ...]   # e.g. jpn-eng eng-fin (default: h35's 19)
"""

from __future__ import annotations

import resource
import sys
import time


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    from pagelens.focus import bilingual

    pairs = ["eng-deu", "eng-fra", "eng-spa", "eng-ita", "eng-nld", "eng-por", "eng-swe", "eng-pol", "eng-ces",
             "eng-tur", "eng-jpn", "eng-ell", "eng-ara", "deu-eng", "fra-eng", "spa-eng", "ita-eng", "nld-eng",
             "por-eng"]
    pairs = sys.argv[1:] or pairs
    print("| pair | headwords | load s | RSS added MB | first look-up ms |")
    print("|---|---|---|---|---|")
    for p in pairs:
        src, dst = p.split("-")
        before = rss_mb()
        t = time.perf_counter()
        d = bilingual.dictionary(src, dst)
        load = time.perf_counter() - t
        if d is None:
            print(f"| {p} | not installed | | | |")
            continue
        added = rss_mb() - before
        t = time.perf_counter()
        d.translations("price" if src == "eng" else next(iter(d.index)))
        print(f"| {p} | {len(d.index):,} | {load:.2f} | {added:.0f} | {1000 * (time.perf_counter() - t):.1f} |")
    print(f"total RSS {rss_mb():.0f} MB")


if __name__ == "__main__":
    main()

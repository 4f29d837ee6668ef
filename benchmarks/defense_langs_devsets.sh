#!/bin/bash
# usage: benchmarks/defense_langs_devsets.sh SRC OUTDIR  (h32-langs: every development injection set on its cached
# observations, one injection_blind4.py run per set; copy /work/main/runs/d22/obs-* to runs/d22/, obs-benign18a|b to runs/b22/)
SRC=$1; OUT=$2; mkdir -p $OUT
cd "$(dirname "$0")/.."
# dev37 is left out until a pass has used it as its one-time check (stop 37: still fresh); run it with SETS_EXTRA=dev37
# dev38 (h41-devsub, stop 38, on pages_dev37) is left out the same way until a pass has used it as its check; SETS_EXTRA=dev38
for s in dev6 dev8 dev9 dev12 dev13 dev14 dev15 dev15b blind4 blind5 blind6 blind7 blind8 blind9 blind14 blind15 benign18a benign18b dev33 dev34 dev35 dev36 honest37 $SETS_EXTRA; do
  pages=/work/shared/corpus/realpages; cache=runs/d22/obs-$s
  case $s in blind14|benign18a) pages=benchmarks/data/pages_blind13;; blind15|benign18b) pages=benchmarks/data/pages_blind14;;
    dev37) pages=benchmarks/data/pages_dev31;; dev38) pages=benchmarks/data/pages_dev37;; esac
  case $s in benign18a|benign18b) cache=runs/b22/obs-$s;; esac
  f=benchmarks/data/injections_${s}.jsonl
  PYTHONPATH=$SRC nice -n 10 .venv/bin/python benchmarks/injection_blind4.py --cases $f --pages $pages --obs-cache $cache --json $OUT/$s.json > $OUT/$s.txt 2> $OUT/$s.err
done
echo done > $OUT/DONE

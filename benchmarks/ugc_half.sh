#!/bin/bash
# usage: benchmarks/ugc_half.sh SRC OUT SET...  (h35-ugc: defense_langs_devsets.sh's loop over the given sets only)
SRC=$1; OUT=$2; shift 2; mkdir -p $OUT
for s in "$@"; do
  pages=/work/shared/corpus/realpages; cache=runs/d22/obs-$s
  case $s in blind14|benign18a) pages=benchmarks/data/pages_blind13;; blind15|benign18b) pages=benchmarks/data/pages_blind14;; esac
  case $s in benign18a|benign18b) cache=runs/b22/obs-$s;; esac
  PYTHONPATH=$SRC nice -n 10 .venv/bin/python benchmarks/injection_blind4.py --cases benchmarks/data/injections_${s}.jsonl --pages $pages --obs-cache $cache --json $OUT/$s.json > $OUT/$s.txt 2> $OUT/$s.err
done
echo done > $OUT/DONE

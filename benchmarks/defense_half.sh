#!/bin/bash
# usage: benchmarks/defense_half.sh SRC OUTDIR choose|check  (h35-split: defense_langs_devsets.sh over one half of the
# development injection sets: choose = dev6…dev15b + blind4…7, check = blind8, 9, 14, 15 + benign18a/b)
SRC=$1; OUT=$2; mkdir -p $OUT
cd "$(dirname "$0")/.."
case $3 in
  choose) sets="dev6 dev8 dev9 dev12 dev13 dev14 dev15 dev15b blind4 blind5 blind6 blind7";;
  check) sets="blind8 blind9 blind14 blind15 benign18a benign18b";;
  *) echo "half: choose or check" >&2; exit 2;;
esac
for s in $sets; do
  pages=/work/shared/corpus/realpages; cache=runs/d22/obs-$s
  case $s in blind14|benign18a) pages=benchmarks/data/pages_blind13;; blind15|benign18b) pages=benchmarks/data/pages_blind14;; esac
  case $s in benign18a|benign18b) cache=runs/b22/obs-$s;; esac
  PYTHONPATH=$SRC nice -n 10 .venv/bin/python benchmarks/injection_blind4.py --cases benchmarks/data/injections_${s}.jsonl \
    --pages $pages --obs-cache $cache --json $OUT/$s.json > $OUT/$s.txt 2> $OUT/$s.err
done
echo done > $OUT/DONE

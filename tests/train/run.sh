#!/bin/sh
# tests/train/run.sh - trains the segmenter on the tiny synthetic corpus
# (tests/train/gen_corpus.py), checks an F1 floor on held-out sentences and
# that training twice with one seed gives byte-identical models.
set -eu
FENCI=${FENCI:-./fenci}
BUILD=${BUILD:-build}
here=tests/train
d=$BUILD/tests/train
floor=0.95
mkdir -p "$d"
"$FENCI" compile "$here/lexicon.txt" -o "$d/lex.fenci"
head -n 350 "$here/train.seg" > "$d/train.seg"
tail -n 50 "$here/train.seg" > "$d/dev.seg"
"$FENCI" train --lexicon "$d/lex.fenci" --train "$d/train.seg" --format seg --dev "$d/dev.seg" \
  --iters 8 --seed 7 --min-count 1 -o "$d/model.fenci" 2> "$d/train.log" || { cat "$d/train.log"; exit 1; }
"$FENCI" train --lexicon "$d/lex.fenci" --train "$d/train.seg" --format seg --dev "$d/dev.seg" \
  --iters 8 --seed 7 --min-count 1 -o "$d/model2.fenci" 2> /dev/null
cmp "$d/model.fenci" "$d/model2.fenci" || { echo "train: same seed gave different models"; exit 1; }
sed 's/ //g' "$here/test.seg" > "$d/test.raw"
"$FENCI" cut -q -m "$d/model.fenci" "$d/test.raw" > "$d/test.out"
f1=$("$FENCI" eval "$here/test.seg" "$d/test.out" | awk '{ for (i = 1; i < NF; i++) if ($i == "F1") { print $(i + 1); exit } }')
echo "train: held-out F1 $f1 (floor $floor)"
awk -v f="$f1" -v m="$floor" 'BEGIN { exit !(f + 0 >= m) }' || { echo "train: F1 $f1 below $floor"; exit 1; }
# a model with weights reports it, and --help works
"$FENCI" dump "$d/model.fenci" | grep -q "trained segmenter: yes"
"$FENCI" train --help | grep -q "usage: fenci train"
echo "train: ok"

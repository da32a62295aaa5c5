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

# Multi-criteria training (--also): the same text in a second standard that
# cuts every word into characters.  Trained together, each standard keeps
# its own cut: a model for the word standard still reaches the floor on its
# test, and a model for the character standard on the characters' test (a
# trainer that mixed the two standards up would fail both); same bytes twice.
chars() { python3 -c 'import sys
for l in open(sys.argv[1], encoding="utf-8"): print(" ".join("".join(l.split())))' "$1"; }
chars "$d/train.seg" > "$d/chars.seg"
chars "$here/test.seg" > "$d/chars.test"
for o in mc mc2; do
  "$FENCI" train --lexicon "$d/lex.fenci" --train "$d/train.seg" --format seg --dev "$d/dev.seg" --also "seg:$d/chars.seg" \
    --iters 8 --seed 7 --min-count 1 -o "$d/$o.fenci" 2> "$d/mc.log" || { cat "$d/mc.log"; exit 1; }
done
cmp "$d/mc.fenci" "$d/mc2.fenci" || { echo "train: multi-criteria, same seed gave different models"; exit 1; }
"$FENCI" dump "$d/mc.fenci" | grep -q 'other_standards=1' || { echo "train: multi-criteria model lacks its META line"; exit 1; }
"$FENCI" cut -q -m "$d/mc.fenci" "$d/test.raw" > "$d/mc.out"
f1=$("$FENCI" eval "$here/test.seg" "$d/mc.out" | awk '{ for (i = 1; i < NF; i++) if ($i == "F1") { print $(i + 1); exit } }')
echo "train: multi-criteria, word standard: held-out F1 $f1 (floor $floor)"
awk -v f="$f1" -v m="$floor" 'BEGIN { exit !(f + 0 >= m) }' || { echo "train: multi-criteria F1 $f1 below $floor"; exit 1; }
head -n 50 "$d/chars.seg" > "$d/chars.dev"
"$FENCI" train --lexicon "$d/lex.fenci" --train "$d/chars.seg" --format seg --dev "$d/chars.dev" --also "seg:$d/train.seg" \
  --iters 8 --seed 7 --min-count 1 -o "$d/mcc.fenci" 2> "$d/mc.log" || { cat "$d/mc.log"; exit 1; }
"$FENCI" cut -q -m "$d/mcc.fenci" "$d/test.raw" > "$d/mcc.out"
f1=$("$FENCI" eval "$d/chars.test" "$d/mcc.out" | awk '{ for (i = 1; i < NF; i++) if ($i == "F1") { print $(i + 1); exit } }')
echo "train: multi-criteria, character standard: held-out F1 $f1 (floor $floor)"
awk -v f="$f1" -v m="$floor" 'BEGIN { exit !(f + 0 >= m) }' || { echo "train: multi-criteria F1 $f1 below $floor"; exit 1; }
if "$FENCI" train --task pos --lexicon "$d/lex.fenci" --train "$d/train.seg" --also "$d/chars.seg" -o "$d/x.fenci" 2> /dev/null; then
  echo "train: --also with --task pos was accepted"; exit 1
fi

# The POS tagger: the synthetic People's Daily corpus (tests/train/gen_pos.py),
# a floor on held-out tag accuracy with gold words, the same bytes twice, and
# a segmenter sharing the tagged lexicon (--share-lexicon) tags with fenci tag.
pfloor=0.95
python3 "$here/gen_pos.py" 900 > "$d/pos.all"
head -n 600 "$d/pos.all" > "$d/pos.train"
sed -n '601,700p' "$d/pos.all" > "$d/pos.dev"
tail -n 200 "$d/pos.all" > "$d/pos.test"
for o in lexpos lexpos2; do
  "$FENCI" train --task pos --lexicon "$d/lex.fenci" --train "$d/pos.train" --format pd --dev "$d/pos.dev" \
    --iters 6 --seed 3 --min-count 1 -o "$d/$o.fenci" 2> "$d/pos.log" || { cat "$d/pos.log"; exit 1; }
done
cmp "$d/lexpos.fenci" "$d/lexpos2.fenci" || { echo "train: POS, same seed gave different models"; exit 1; }
words() { awk '{ o = ""; for (i = 2; i <= NF; i++) { w = $i; sub(/\/[^\/]*$/, "", w); o = o (o == "" ? "" : " ") w } print o }' "$1"; }
gold() { awk '{ o = ""; for (i = 2; i <= NF; i++) o = o (o == "" ? "" : " ") $i; print o }' "$1"; }
words "$d/pos.test" > "$d/pos.words"
gold "$d/pos.test" > "$d/pos.gold"
"$FENCI" tag --words -m "$d/lexpos.fenci" "$d/pos.words" > "$d/pos.pred"
acc=$(python3 eval/pos/score.py "$d/pos.gold" "$d/pos.pred" | awk '{ sub(/%/, "", $5); print $5 / 100 }')
echo "train: POS held-out accuracy $acc (floor $pfloor)"
awk -v f="$acc" -v m="$pfloor" 'BEGIN { exit !(f + 0 >= m) }' || { echo "train: POS accuracy $acc below $pfloor"; exit 1; }
# the context decides: 发展 after a pronoun is a verb, after 的 a verbal noun
printf '我们 发展 经济 。\n经济 的 发展 很 快 。\n' | "$FENCI" tag --words -m "$d/lexpos.fenci" > "$d/pos.ctx"
grep -q '我们/r 发展/v 经济/n' "$d/pos.ctx" && grep -q '的/u 发展/vn' "$d/pos.ctx" || { cat "$d/pos.ctx"; echo "train: POS ignores context"; exit 1; }
# The name recogniser: synthetic MSRA-format corpus (tests/train/gen_ner.py),
# a floor on held-out entity F1 (fenci ner, scored by eval/ner/score.py),
# the same bytes twice.
nfloor=0.90
python3 "$here/gen_ner.py" 700 > "$d/ner.all"
head -n 500 "$d/ner.all" > "$d/ner.train"
sed -n '501,560p' "$d/ner.all" > "$d/ner.dev"
tail -n 140 "$d/ner.all" > "$d/ner.test"
for o in lexner lexner2; do
  "$FENCI" train --task ner --lexicon "$d/lexpos.fenci" --train "$d/ner.train" --format msr --dev "$d/ner.dev" \
    --iters 6 --seed 3 --min-count 1 -o "$d/$o.fenci" 2> "$d/ner.log" || { cat "$d/ner.log"; exit 1; }
done
cmp "$d/lexner.fenci" "$d/lexner2.fenci" || { echo "train: NER, same seed gave different models"; exit 1; }
awk '{ o = ""; for (i = 1; i <= NF; i++) { w = $i; sub(/\/[a-z]+$/, "", w); o = o w } print o }' "$d/ner.test" > "$d/ner.raw"
"$FENCI" ner -m "$d/lexner.fenci" "$d/ner.raw" > "$d/ner.out"
nf1=$(python3 eval/ner/score.py --msra "$d/ner.test" "$d/ner.out" | sed 's/.*all P [0-9.]* R [0-9.]* F1 \([0-9.]*\).*/\1/')
echo "train: NER held-out F1 $nf1 (floor $nfloor)"
awk -v f="$nf1" -v m="$nfloor" 'BEGIN { exit !(f / 100 >= m) }' || { echo "train: NER F1 $nf1 below $nfloor"; exit 1; }
"$FENCI" dump "$d/lexner.fenci" | grep -q 'POSM' || { echo "train: NER training dropped the POS section"; exit 1; }
# --names: the held-out names join the gazetteer (not the training text),
# which then finds them all; the option is for names only
"$FENCI" train --task ner --lexicon "$d/lexpos.fenci" --train "$d/ner.train" --format msr --names msr:"$d/ner.test" \
  --iters 6 --seed 3 --min-count 1 -o "$d/lexnames.fenci" 2> "$d/ner.log" || { cat "$d/ner.log"; exit 1; }
gaz() { "$FENCI" dump "$1" | awk '$1 == "NERG" { print $5 }'; }
[ "$(gaz "$d/lexnames.fenci")" -gt "$(gaz "$d/lexner.fenci")" ] || { echo "train: --names left the gazetteer as it was"; exit 1; }
"$FENCI" ner -m "$d/lexnames.fenci" "$d/ner.raw" > "$d/names.out"
nf2=$(python3 eval/ner/score.py --msra "$d/ner.test" "$d/names.out" | sed 's/.*all P [0-9.]* R [0-9.]* F1 \([0-9.]*\).*/\1/')
echo "train: NER F1 with the test's names in the gazetteer $nf2 (without $nf1)"
awk -v a="$nf2" -v b="$nf1" 'BEGIN { exit !(a >= b) }' || { echo "train: --names lowered F1 on its own names"; exit 1; }
if "$FENCI" train --task pos --lexicon "$d/lex.fenci" --train "$d/pos.train" --format pd --names "$d/ner.test" \
  -o "$d/x.fenci" 2> "$d/names.err"; then echo "train: --names accepted for pos"; exit 1; fi
grep -q -- '--names is for --task ner' "$d/names.err" || { cat "$d/names.err"; exit 1; }

# a segmenter referencing the tagged lexicon finds it by name and tags
mkdir -p "$d/shared"
cp "$d/lexpos.fenci" "$d/shared/lexicon.fenci"
"$FENCI" train --lexicon "$d/shared/lexicon.fenci" --share-lexicon --train "$d/train.seg" --format seg \
  --iters 3 --seed 7 --min-count 1 -o "$d/shared/seg.fenci" 2> /dev/null
[ "$(wc -c < "$d/shared/seg.fenci")" -lt "$(wc -c < "$d/model.fenci")" ] || { echo "train: --share-lexicon copied the lexicon"; exit 1; }
printf '我们发展经济。\n' | "$FENCI" tag -m "$d/shared/seg.fenci" | grep -q '/w$' || { echo "train: fenci tag with a shared lexicon"; exit 1; }
"$FENCI" check "$d/shared/seg.fenci" > /dev/null
# the reference is checked: another lexicon in its place is refused by name
cp "$d/lexpos.fenci" "$d/shared/lexicon.fenci"
printf '外星人 5\n' | "$FENCI" compile - -o "$d/shared/lexicon.fenci" 2> /dev/null
if printf 'x\n' | "$FENCI" cut -m "$d/shared/seg.fenci" 2> "$d/ref.err"; then echo "train: a different lexicon was accepted"; exit 1; fi
grep -q 'trained with the lexicon of id' "$d/ref.err" || { cat "$d/ref.err"; exit 1; }
rm "$d/shared/lexicon.fenci"
if printf 'x\n' | "$FENCI" cut -m "$d/shared/seg.fenci" 2> "$d/ref.err"; then echo "train: a missing lexicon was accepted"; exit 1; fi
grep -q 'lexicon.fenci' "$d/ref.err" || { cat "$d/ref.err"; exit 1; }
echo "train: ok"

#!/bin/sh
# tools/pd2seg.sh - People's Daily 1998 (PKU "word/POS" format) to plain
# segmented text: one sentence a line, words separated by two spaces.
#   tools/pd2seg.sh [train|dev|all] < 199801.txt
# "dev" keeps the articles of 1998-01-28..31 (the held-out slice), "train"
# the rest, "all" everything.  Compound brackets [..]nt keep their inner words.
part=${1:-all}
awk -v part="$part" '
NF == 0 { next }
{
  day = substr($1, 7, 2) + 0
  isdev = (day >= 28)
  if (part == "train" && isdev) next
  if (part == "dev" && !isdev) next
  out = ""
  for (i = 2; i <= NF; i++) {
    w = $i
    sub(/^\[/, "", w)
    sub(/\][a-z]+$/, "", w)
    sub(/\/[A-Za-z]+$/, "", w)
    if (w == "") continue
    out = out (out == "" ? "" : "  ") w
  }
  if (out != "") print out
}'

#!/bin/sh
# test_model.sh - the shipped trained models through the CLI: the default
# model, user words and search mode on the model path, traditional text.
set -u
FENCI=${FENCI:-./fenci}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
runs=0
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }
check() { runs=$((runs + 1)); }

for m in ctb pku msr; do
  [ -f "models/$m.fenci" ] || { echo "test_model.sh: models/$m.fenci missing"; exit 1; }
done

# the default model is a trained one and keeps an unseen transliterated name whole
check
printf '瓦莱夫斯卡伯爵夫人从华沙赶来\n' | "$FENCI" cut > "$TMP/o" 2> "$TMP/e" || fail "default model: exit code"
grep -q "瓦莱夫斯卡 " "$TMP/o" || fail "default model: unseen name split: $(cat "$TMP/o")"

# a forced user word comes out whole on the model path
check
printf '枫丹白露宫\n' > "$TMP/u.txt"
printf '拿破仑在枫丹白露宫签字\n' | "$FENCI" cut -m ctb > "$TMP/o1"
printf '拿破仑在枫丹白露宫签字\n' | "$FENCI" cut -m ctb -u "$TMP/u.txt" > "$TMP/o2"
grep -q " 枫丹白露宫 " "$TMP/o2" || fail "user word not forced on the model path: $(cat "$TMP/o2")"
grep -q " 枫丹白露宫 " "$TMP/o1" && fail "test premise: the model alone already joins 枫丹白露宫"

# search mode on the model path: extra tokens inside a long word, main tokens rebuild the line
check
line='他在国务院办公厅工作'
printf '%s\n' "$line" | "$FENCI" cut -m ctb --search -f json > "$TMP/j"
grep -q '"w":"办公","s":15,"e":21,"cs":5,"ce":7,"kind":"word"[^}]*"extra":true' "$TMP/j" || fail "search mode: no extra 办公 inside 办公厅: $(cat "$TMP/j")"
if command -v python3 > /dev/null 2>&1; then
  check
  python3 - "$TMP/j" "$line" <<'PY' || fail "search mode: main tokens do not rebuild the line"
import json, sys
toks = json.loads(open(sys.argv[1], encoding='utf-8').readline())['tokens']
main = ''.join(t['w'] for t in toks if not t.get('extra'))
sys.exit(0 if main == sys.argv[2] else 1)
PY
fi

# traditional text: segmented with the simplified-trained model, offsets into the original
check
trad='拿破崙在楓丹白露宮簽署了退位詔書'
printf '%s\n' "$trad" | "$FENCI" cut -m ctb -f json > "$TMP/t"
grep -q '"w":"拿破崙","s":0,"e":9,"cs":0,"ce":3' "$TMP/t" || fail "traditional: 拿破崙 not one token at bytes 0-9: $(cat "$TMP/t")"
grep -q '"w":"簽署"' "$TMP/t" || fail "traditional: 簽署 not one token"

# --fast on a trained model file is the lexicon mode of the same lexicon
check
printf '研究生命的起源，北京大学的学生\n' | "$FENCI" cut -m ctb --fast > "$TMP/f1"
printf '研究生命的起源，北京大学的学生\n' | "$FENCI" cut -m lexicon --fast > "$TMP/f2"
cmp -s "$TMP/f1" "$TMP/f2" || fail "--fast with ctb differs from the lexicon model"

if [ "$fails" -eq 0 ]; then
  echo "test_model.sh: all $runs checks passed"
else
  echo "test_model.sh: $fails of $runs checks FAILED"
  exit 1
fi

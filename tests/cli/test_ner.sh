#!/bin/sh
# test_ner.sh - `fenci ner` from the outside: one JSON object per input line
# (empty lines and a last line without newline included), the offsets of
# the sample's first line, values and units, -f text marks entities inline
# and keeps the text (every CR too), -j 2 equals -j 1, character offsets of
# long lines cut in parts, unreadable files skipped, bad options fail
# cleanly.
# Usage: FENCI=./fenci sh tests/cli/test_ner.sh    (from the project root)
. tests/cli/lib.sh
cli_setup test_ner

same() {
  runs=$((runs + 1))
  cmp -s "$2" "$3" || { fail "$1: $2 and $3 differ"; cmp "$2" "$3" | head -2 >&2; }
}

cp samples/napoleon.txt "$TMP/in.txt"
printf '\n\xff\xfe 22万发\r\n最后一行1998年1月' >>"$TMP/in.txt"
run "ner" 0 - -- ner "$TMP/in.txt"
cp "$TMP/out" "$TMP/ner.json"
runs=$((runs + 1))
[ "$(wc -l <"$TMP/ner.json")" -eq "$(($(wc -l <"$TMP/in.txt") + 1))" ] || fail "ner: one object per input line"
runs=$((runs + 1))
python3 - "$TMP/in.txt" "$TMP/ner.json" <<'PY' || fail "ner: JSON, offsets or values"
import json, sys
lines = open(sys.argv[1], 'rb').read().split(b'\n')
out = [json.loads(l) for l in open(sys.argv[2], encoding='utf-8')]
assert len(out) == len(lines), (len(out), len(lines))
for raw, o in zip(lines, out):
    raw = raw[:-1] if raw.endswith(b'\r') else raw
    text = raw.decode('utf-8', 'replace')
    prev = 0
    for e in o['entities']:
        assert 0 <= e['s'] < e['e'] <= len(raw) and e['s'] >= prev, e
        prev = e['e']
        assert raw[e['s']:e['e']].decode('utf-8') == e['text'], e
        chars = raw[:e['s']].decode('utf-8', 'replace')
        assert len(chars) == e['cs'] or b'\xff' in raw, (e, len(chars))
first = {e['text']: e for e in out[0]['entities']}
assert first['1814年4月6日']['value'] == '1814-04-06' and first['1814年4月6日']['cs'] == 0, first
q = [e for o in out for e in o['entities'] if e['text'] == '22万发']
assert q and q[0]['value'] == 220000 and q[0]['unit'] == '发' and q[0]['type'] == 'QUANTITY', q
t = [e for e in out[-1]['entities'] if e['type'] == 'TIME']
assert t and t[0]['value'] == '1998-01', out[-1]
PY
run "ner -j2" 0 - -- ner -j 2 "$TMP/in.txt"
same "ner -j2 = -j1" "$TMP/out" "$TMP/ner.json"
run "ner -f text" 0 - -- ner -f text "$TMP/in.txt"
runs=$((runs + 1))
grep -q '^\[1814年4月6日\]TIME，' "$TMP/out" || fail "ner -f text: $(head -1 "$TMP/out")"
runs=$((runs + 1))
# removing the marks gives the text back, the CR of a CRLF line and a
# lone CR at the end included (they were dropped)
sed 's/\[\([^]]*\)\]\(PER\|LOC\|ORG\|TIME\|NUMBER\|PERCENT\|MONEY\|QUANTITY\)/\1/g' "$TMP/out" >"$TMP/plain"
cp "$TMP/in.txt" "$TMP/in.nl"
printf '\n' >>"$TMP/in.nl"
same "ner -f text keeps the text" "$TMP/plain" "$TMP/in.nl"
printf 'a\rb\r\n拿破仑\r\n\r' >"$TMP/cr.txt"
run "ner -f text, CRs" 0 - -- ner -f text "$TMP/cr.txt"
printf 'a\rb\r\n[拿破仑]PER\r\n\r\n' >"$TMP/cr.want"
same "ner -f text keeps every CR" "$TMP/out" "$TMP/cr.want"
# a line of 9 MB (more than a batch: written in parts, one object),
# offsets into the whole line, -j 2 the same, no final newline
python3 -c "
s = open('samples/napoleon.txt', encoding='utf-8').read().replace('\n', '')
open('$TMP/long.txt', 'w', encoding='utf-8').write(s * 10500 + '\n' + s)
"
run "ner long line" 0 - -- ner "$TMP/long.txt"
cp "$TMP/out" "$TMP/long.json"
run "ner long line -j2" 0 - -- ner -j 2 "$TMP/long.txt"
same "ner long line -j2 = -j1" "$TMP/out" "$TMP/long.json"
runs=$((runs + 1))
python3 - "$TMP/long.txt" "$TMP/long.json" <<'PY' || fail "ner long line: offsets"
import json, sys
raw = open(sys.argv[1], 'rb').read().split(b'\n')
out = [json.loads(l) for l in open(sys.argv[2], encoding='utf-8')]
assert len(out) == 2, len(out)
text = raw[0].decode('utf-8')
es = out[0]['entities']
assert len(es) > 100000, len(es)
prev = 0
for e in es[::97] + es[-3:]:
    assert raw[0][e['s']:e['e']].decode('utf-8') == e['text'] == text[e['cs']:e['ce']], e
for e in es:
    assert e['s'] >= prev, e
    prev = e['e']
PY
# a long line with no sentence end and no space, mostly dates: its parts
# are cut inside the text, and no cut may split an entity (seen to fail
# when a cut fell inside 1814年4月6日)
python3 -c "
open('$TMP/nocut.txt', 'w', encoding='utf-8').write('前言' + '1814年4月6日的' * 300000 + '\n')
"
run "ner long line without sentence ends" 0 - -- ner "$TMP/nocut.txt"
runs=$((runs + 1))
python3 - "$TMP/out" <<'PY' || fail "ner long line without sentence ends: an entity was cut"
import json, sys
es = json.loads(open(sys.argv[1], encoding='utf-8').readline())['entities']
dates = [e for e in es if e['type'] == 'TIME' and e['text'] == '1814年4月6日' and e.get('value') == '1814-04-06']
assert len(dates) == 300000, (len(dates), [e for e in es if e['text'] != '1814年4月6日'][:3])
assert all(d['s'] == 6 + 18 * k for k, d in enumerate(dates)), 'offsets'
PY
# a name with a space in it (北京 大学) on a line of 1 MB without sentence
# ends: the parts are not cut at the space (each cut lost one name)
python3 -c "
open('$TMP/space.txt', 'w', encoding='utf-8').write('他在北京 大学读书，' * 35714 + '\n')
"
run "ner long line, names with a space" 0 - -- ner "$TMP/space.txt"
runs=$((runs + 1))
python3 - "$TMP/out" <<'PY' || fail "ner long line, names with a space: a name was lost"
import json, sys
es = json.loads(open(sys.argv[1], encoding='utf-8').readline())['entities']
org = [e for e in es if e['type'] == 'ORG' and e['text'] == '北京 大学']
assert len(org) == 35714, len(org)
assert all(o['cs'] == 2 + 10 * k for k, o in enumerate(org)), 'offsets'
PY
# a line longer than the batch whose part is cut inside a run of
# continuation bytes right after a lead byte: the cut must not split the
# character the lead begins, or every later character offset of the line
# is off (by 2 for 一 E5 80 80 and 9,000 bytes of 80 after it)
for lead in c3 e5 f09f98; do
  for n in 253949 253950 253951 253952 253953; do
    python3 -c "import sys; sys.stdout.buffer.write(b'a' * $n + bytes.fromhex('$lead') + b'\\x80' * 9000 + '，拿破仑'.encode() + b'\\n')" >"$TMP/cont.txt"
    run "ner long line, continuation bytes at the cut ($lead, $n)" 0 - -- ner "$TMP/cont.txt"
    runs=$((runs + 1))
    python3 - "$TMP/cont.txt" "$TMP/out" <<'PY' || fail "ner long line, continuation bytes at the cut ($lead, $n): character offsets"
import json, sys
raw = open(sys.argv[1], 'rb').read().split(b'\n')[0]
es = [e for e in json.loads(open(sys.argv[2], encoding='utf-8').readline())['entities'] if e['text'] == '拿破仑']
assert len(es) == 1, es
want = len(raw[:es[0]['s']].decode('utf-8', 'replace'))  # every invalid byte a character, as fenci counts
assert es[0]['cs'] == want and es[0]['ce'] == want + 3, (es[0], want)
PY
  done
done
# an unreadable input (a directory) is reported and skipped, as a missing
# one: the files after it are still read (it stopped the command)
printf '北京\n' >"$TMP/after.txt"
run "ner directory, then a file" 1 'read error' -- ner "$TMP" "$TMP/after.txt"
runs=$((runs + 1))
grep -q '"text":"北京"' "$TMP/out" || fail "ner directory, then a file: the file was not read"
printf 'x\n' >"$TMP/stdin"
run "ner -j 0" 2 'ner: -j' -- ner -j 0
run "ner -f xml" 2 'unknown format' -- ner -f xml
run "ner missing file" 1 'cannot open' -- ner "$TMP/none.txt"
run "ner --help" 0 - -- ner --help
runs=$((runs + 1))
grep -q 'usage: fenci ner' "$TMP/out" || fail "ner --help"

echo "test_ner: $runs checks, $fails failed"
[ "$fails" -eq 0 ]

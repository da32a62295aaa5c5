#!/usr/bin/python3
"""tests/numex/pd_check.py - a rough coverage check of the time and quantity
recogniser against the PKU tags of People's Daily 1998-01, on the dev days
only (1998-01-28..31; the corpus is not in the repository, see
../shared/data/README.md).

It reports how many t (time word) tokens fall inside a TIME entity, how many
m (numeral) tokens fall inside any entity, and how many entities overlap a t
or m token.  This is not a score.  PKU tags festivals and words like 一些 as
t or m, and the recogniser leaves those out on purpose.

usage: tests/numex/pd_check.py [BUILD_DIR [DATA_DIR]] [-v]"""
import collections
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if a != '-v']
build = args[0] if args else 'build'
data = args[1] if len(args) > 1 else '../shared/data'
verbose = '-v' in sys.argv
DEV = re.compile(r'^1998012[89]|^1998013')

lines, toks = [], []
with open(data + '/pd1998-01/199801.txt', encoding='utf-8') as f:
    for raw in f:
        parts = raw.rstrip('\n').split('  ')
        if not raw.strip() or not DEV.match(parts[0]):
            continue
        text, tk = b'', []
        for w in parts[1:]:
            w = re.sub(r'\][a-z]+$', '', w.strip()).lstrip('[')
            m = re.match(r'^(.*)/([A-Za-z]+)$', w)
            if not m:
                continue
            b = m.group(1).encode()
            tk.append((len(text), len(text) + len(b), m.group(2), m.group(1)))
            text += b
        lines.append(text)
        toks.append(tk)

out = subprocess.run([build + '/tests/test_numex', '--scan'], input=b'\n'.join(lines) + b'\n',
                     capture_output=True, check=True).stdout.decode('utf-8', 'replace')
ents = collections.defaultdict(list)
for row in out.splitlines():
    ln, s, e, t = row.split('\t')[:4]
    ents[int(ln)].append((int(s), int(e), int(t)))

nt = ntc = nm = nmc = ne = ngood = 0
miss, extra = collections.Counter(), collections.Counter()
for i, tk in enumerate(toks):
    sp = ents[i]
    for a, b, tag, word in tk:
        if tag == 't':
            nt += 1
            if any(s <= a and b <= e and t == 1 for s, e, t in sp):
                ntc += 1
            else:
                miss['t ' + word] += 1
        elif tag == 'm':
            nm += 1
            if any(s <= a and b <= e for s, e, t in sp):
                nmc += 1
            else:
                miss['m ' + word] += 1
    for s, e, t in sp:
        ne += 1
        if any(a < e and s < b and tag in ('t', 'm') for a, b, tag, w in tk):
            ngood += 1
        else:
            extra[lines[i][s:e].decode('utf-8', 'replace')] += 1

print(f"t tokens inside a TIME entity:         {ntc}/{nt} = {ntc / nt:.3f}")
print(f"m tokens inside an entity:             {nmc}/{nm} = {nmc / nm:.3f}")
print(f"entities overlapping a t or m token:   {ngood}/{ne} = {ngood / ne:.3f}")
if verbose:
    print("most missed:", miss.most_common(40))
    print("entities on neither:", extra.most_common(30))

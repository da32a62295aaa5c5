#!/usr/bin/python3
"""tests/numex/pd_cross.py - how many of the times and quantities that
`fenci ner` finds in People's Daily 1998-01-01..27 start or end inside a gold
word (the corpus is not in the repository, see ../shared/data/README.md).

A span that cuts a gold word is most often wrong (会议上|周旋: 上周 is no
time there; 300万人|口).  Not a score: PKU also joins words that a right
entity may cut (近年来, 时至今日).  This count chose the thresholds of
docs/NUMEX.md, "Words"; the POS test days 28..31 are left out.

usage: tests/numex/pd_cross.py [FENCI [DATA_DIR]] [-v]   (-v: print the crossing spans)"""
import collections
import json
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if a != '-v']
fenci = args[0] if args else './fenci'
data = args[1] if len(args) > 1 else '../shared/data'
lines, bounds = [], []
with open(data + '/pd1998-01/199801.txt', encoding='utf-8') as f:
    for raw in f:
        parts = raw.rstrip('\n').split('  ')
        if not raw.strip() or parts[0][:8] > '19980127':
            continue
        text, b = '', {0}
        for w in parts[1:]:
            w = re.sub(r'\][a-z]+$', '', w.strip()).lstrip('[')
            m = re.match(r'^(.*)/([A-Za-z]+)$', w)
            if not m:
                continue
            text += m.group(1)
            b.add(len(text))
        lines.append(text)
        bounds.append(b)
out = subprocess.run([fenci, 'ner'], input='\n'.join(lines) + '\n', capture_output=True, text=True,
                     check=True).stdout.split('\n')
found, cross = collections.Counter(), collections.Counter()
for text, b, o in zip(lines, bounds, out):
    for e in json.loads(o)['entities']:
        if e['type'] in ('PER', 'LOC', 'ORG'):
            continue
        found[e['type']] += 1
        if e['cs'] not in b or e['ce'] not in b:
            cross[e['type']] += 1
            if '-v' in sys.argv:
                print(e['type'], text[max(0, e['cs'] - 5):e['cs']] + '[' + e['text'] + ']' + text[e['ce']:e['ce'] + 5])
print('%d lines; ' % len(lines) + ', '.join('%s %d (%d crossing a word)' % (t, found[t], cross[t]) for t in sorted(found)) +
      '; all %d (%d crossing)' % (sum(found.values()), sum(cross.values())))

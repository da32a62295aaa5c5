#!/usr/bin/python3
"""Joins the words of a segmentation that lie inside a person or place name
found by `fenci ner`, to measure what single-token names would do to a
segmentation standard's F1 (make eval-ner-seg).

  merge_names.py SEG NER > OUT
SEG: words separated by spaces, one sentence a line (fenci cut); NER: fenci
ner of the same lines.  A name is joined only when its ends fall on word
boundaries (a word that crosses a name's end is left alone)."""
import json, sys

seg = open(sys.argv[1], encoding='utf-8').read().split('\n')
ner = open(sys.argv[2], encoding='utf-8').read().split('\n')
if seg and seg[-1] == '': seg.pop()
if ner and ner[-1] == '': ner.pop()
for line, nl in zip(seg, ner):
    words = line.split()
    ents = [(e['cs'], e['ce']) for e in json.loads(nl)['entities'] if e['type'] in ('PER', 'LOC')]
    starts, p = [], 0
    for w in words:
        starts.append(p)
        p += len(w)
    bounds = set(starts) | {p}
    out, i = [], 0
    while i < len(words):
        s = starts[i]
        j = None
        for cs, ce in ents:
            if cs == s and ce in bounds and ce > s + len(words[i]):
                j = ce
        if j is None:
            out.append(words[i]); i += 1
            continue
        k = i
        while k < len(words) and starts[k] < j: k += 1
        out.append(''.join(words[i:k])); i = k
    print(' '.join(out))

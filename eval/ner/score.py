#!/usr/bin/python3
"""Person, place and organisation scores of `fenci ner` output (one JSON
object per line) against gold, exact character spans and types.

  score.py --msra GOLD OUT    GOLD: MSRA NER chunk/tag lines (o nr ns nt)
  score.py --bio GOLD OUT     GOLD: one "char TAG" a line, BIO (B-PER ...),
                              a blank line between sentences (People's
                              Daily NER); OUT is fenci ner of the sentences
  score.py --bio-text GOLD    prints the sentences of a BIO file, one a line
  --exclude FILE              (with --bio) leaves out the sentences that are
                              lines of FILE (a training text)
Prints P, R, F1 per type and overall."""
import json, sys

MAP = {'nr': 'PER', 'ns': 'LOC', 'nt': 'ORG'}

def msra_gold(path):
    out = []
    for line in open(path, encoding='utf-8'):
        p, spans = 0, set()
        for tok in line.split():
            i = tok.rfind('/')
            w, t = (tok[:i], tok[i + 1:]) if i > 0 else (tok, 'o')
            if t in MAP: spans.add((p, p + len(w), MAP[t]))
            p += len(w)
        out.append(spans)
    return out

def bio_sentences(path):
    sents, cur = [], []
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if not line.strip():
            if cur: sents.append(cur); cur = []
            continue
        parts = line.split()
        cur.append((parts[0], parts[-1] if len(parts) > 1 else 'O'))
    if cur: sents.append(cur)
    return sents

def bio_gold(path):
    out = []
    for s in bio_sentences(path):
        spans, start, typ = set(), None, None
        for i, (c, t) in enumerate(s + [('', 'O')]):
            if t.startswith('B-') or t == 'O' or (t.startswith('I-') and t[2:] != typ):
                if start is not None: spans.add((start, i, typ))
                start, typ = (i, t[2:]) if t != 'O' else (None, None)
        out.append(spans)
    return out

def pred(path):
    out = []
    for line in open(path, encoding='utf-8'):
        o = json.loads(line)
        out.append({(e['cs'], e['ce'], e['type']) for e in o['entities'] if e['type'] in ('PER', 'LOC', 'ORG')})
    return out

def main(a):
    if a[0] == '--bio-text':
        for s in bio_sentences(a[1]): print(''.join(c for c, _ in s))
        return
    gold = msra_gold(a[1]) if a[0] == '--msra' else bio_gold(a[1])
    got = pred(a[2])
    if len(gold) != len(got): sys.exit('score.py: %d gold lines, %d output lines' % (len(gold), len(got)))
    if '--exclude' in a:
        # leave out the sentences that are also in a training text
        seen = set(l.rstrip('\n') for l in open(a[a.index('--exclude') + 1], encoding='utf-8'))
        sents = [''.join(c for c, _ in s) for s in bio_sentences(a[1])]
        keep = [i for i, s in enumerate(sents) if s not in seen]
        gold, got = [gold[i] for i in keep], [got[i] for i in keep]
    rows = []
    for typ in ('PER', 'LOC', 'ORG', None):
        g = sum(len([x for x in s if typ is None or x[2] == typ]) for s in gold)
        p = sum(len([x for x in s if typ is None or x[2] == typ]) for s in got)
        c = sum(len([x for x in (gs & ps) if typ is None or x[2] == typ]) for gs, ps in zip(gold, got))
        P, R = 100.0 * c / max(p, 1), 100.0 * c / max(g, 1)
        F = 2 * P * R / max(P + R, 1e-9)
        rows.append('%s P %.2f R %.2f F1 %.2f (%d gold, %d found)' % (typ or 'all', P, R, F, g, p))
    print('; '.join(rows))

main(sys.argv[1:])

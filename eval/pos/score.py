#!/usr/bin/python3
"""Part-of-speech scores against People's Daily gold (word/tag tokens).

  score.py GOLD PRED            tag accuracy, gold words (fenci tag --words)
  score.py --joint GOLD PRED    segmentation+tag F1 (fenci tag): a word is
                                right when its span and its tag both are
Gold lines: word/tag tokens separated by spaces (the id token and the
[...]nt brackets already removed).  --confusion N prints the N commonest
errors, --oov WORDS splits accuracy into known and unknown words."""
import sys, collections

def toks(line):
    out = []
    for t in line.split():
        i = t.rfind('/')
        out.append((t[:i], t[i + 1:]) if i > 0 else (t, ''))
    return out

def spans(ts):
    p, out = 0, []
    for w, t in ts:
        out.append((p, p + len(w), t))
        p += len(w)
    return out

def main(argv):
    joint = '--joint' in argv
    conf = 0
    vocab = None
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--joint': pass
        elif a == '--confusion': conf = int(argv[i + 1]); i += 1
        elif a == '--oov':
            vocab = set(w for l in open(argv[i + 1], encoding='utf-8') for w, _ in toks(l)); i += 1
        else: args.append(a)
        i += 1
    gold = open(args[0], encoding='utf-8').read().splitlines()
    pred = open(args[1], encoding='utf-8').read().splitlines()
    if len(gold) != len(pred):
        sys.exit('score.py: %d gold lines but %d predicted' % (len(gold), len(pred)))
    errs = collections.Counter()
    if not joint:
        n = ok = n_oov = ok_oov = 0
        for ln, (g, p) in enumerate(zip(gold, pred), 1):
            gt, pt = toks(g), toks(p)
            if [w for w, _ in gt] != [w for w, _ in pt]:
                sys.exit('score.py: line %d: the words differ' % ln)
            for (w, a), (_, b) in zip(gt, pt):
                n += 1; ok += a == b
                if a != b: errs[(a, b)] += 1
                if vocab is not None and w not in vocab:
                    n_oov += 1; ok_oov += a == b
        print('POS accuracy (gold words): %.2f%% (%d of %d words)' % (100.0 * ok / max(n, 1), ok, n), end='')
        if vocab is not None:
            print('; unknown words %.2f%% (%d), known %.2f%%' % (100.0 * ok_oov / max(n_oov, 1), n_oov,
                  100.0 * (ok - ok_oov) / max(n - n_oov, 1)), end='')
        print()
    else:
        ng = np_ = c_seg = c_pos = 0
        for g, p in zip(gold, pred):
            gs, ps = spans(toks(g)), spans(toks(p))
            ng += len(gs); np_ += len(ps)
            gd = {(a, b): t for a, b, t in gs}
            for a, b, t in ps:
                if (a, b) in gd:
                    c_seg += 1
                    c_pos += gd[(a, b)] == t
                    if gd[(a, b)] != t: errs[(gd[(a, b)], t)] += 1
        f = lambda c: 200.0 * c / max(ng + np_, 1)
        print('segmentation F1 %.2f, segmentation+POS F1 %.2f (P %.2f R %.2f; %d gold, %d predicted words)' % (
            f(c_seg), f(c_pos), 100.0 * c_pos / max(np_, 1), 100.0 * c_pos / max(ng, 1), ng, np_))
    for (a, b), k in errs.most_common(conf):
        print('  %-4s -> %-4s %d' % (a, b, k))

main(sys.argv[1:])

#!/usr/bin/env python3
"""python/bench_keywords.py - keyword extraction: fenci.analyse against
Debian's python3-jieba on the same documents (README, "Keywords").

    PYTHONPATH=build/python /usr/bin/python3 python/bench_keywords.py DOCS [--docs N] [--reps R]
        [--sample samples/napoleon.txt]

DOCS has one document a line (make models writes build/models/kw.docs, the
documents the IDF table was counted over); the first N are used.  For
extract_tags (TF-IDF, topK=20) and textrank (topK=20) it prints the
throughput of each library (best of R runs, one call per document, after a
warm-up call that loads jieba's dictionary), the ratio, and how many of
jieba's top 10 fenci also has in its top 10 (mean over the documents).
--sample prints both libraries' top 10 of one article."""
import argparse
import logging
import os
import sys
import time

sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


def best(fn, reps):
    t = []
    for _ in range(reps):
        s = time.perf_counter()
        fn()
        t.append(time.perf_counter() - s)
    return min(t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("docs")
    ap.add_argument("--docs", dest="n", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sample")
    a = ap.parse_args()

    import fenci
    import fenci.analyse
    import jieba
    import jieba.analyse
    jieba.setLogLevel(logging.ERROR)
    with open(a.docs, encoding="utf-8") as f:
        docs = [line.rstrip("\n") for _, line in zip(range(a.n), f)]
    mb = sum(len(d.encode()) for d in docs) / 1e6
    print("documents: %d from %s, %.2f MB; load average %s" % (len(docs), a.docs, mb, os.getloadavg()))
    for name, fk, jk in (("extract_tags", fenci.analyse.extract_tags, jieba.analyse.extract_tags),
                         ("textrank", fenci.analyse.textrank, jieba.analyse.textrank)):
        fk(docs[0])
        jk(docs[0])
        tf = best(lambda: [fk(d) for d in docs], a.reps)
        tj = best(lambda: [jk(d) for d in docs], a.reps)
        agree = [len(set(fk(d, topK=10)) & set(jk(d, topK=10))) / max(1, len(jk(d, topK=10))) for d in docs]
        print("%-12s fenci %.2f MB/s (%.3f s), jieba %.3f MB/s (%.3f s): %.1fx; fenci's top 10 holds %.0f%% of "
              "jieba's" % (name, mb / tf, tf, mb / tj, tj, tj / tf, 100 * sum(agree) / len(agree)))
    if a.sample:
        text = open(a.sample, encoding="utf-8").read()
        print("\n%s, top 10:" % a.sample)
        print("  fenci extract_tags:", " ".join("%s:%.3f" % x for x in fenci.analyse.extract_tags(text, 10, True)))
        print("  jieba extract_tags:", " ".join("%s:%.3f" % x for x in jieba.analyse.extract_tags(text, 10, True)))
        print("  fenci textrank:    ", " ".join("%s:%.3f" % x for x in fenci.analyse.textrank(text, 10, True)))
        print("  jieba textrank:    ", " ".join("%s:%.3f" % x for x in jieba.analyse.textrank(text, 10, True)))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""sqlite/bench/recall.py - word search quality of FTS5 tokenizers on Chinese.

Indexes the SIGHAN 2005 PKU test sentences (the gold file: words separated by
two spaces; the raw text of a sentence is its words joined), one sentence a
row, into FTS5 tables with tokenize='fenci', 'unicode61', 'trigram', and
'unicode61' over the text pre-split into single characters (each character a
token; a query is the phrase of its characters: a substring search, as one
would build without a segmenter).  Then, for queries that are gold words of
two or more characters (no punctuation-only words), drawn with a fixed seed,
it measures
  recall:    of the sentences holding the query as a gold word, the share returned;
  precision: of the sentences returned, the share holding it as a gold word;
both micro-averaged (over all query-sentence pairs) and macro-averaged (the
mean over queries).  Queries are drawn two ways: by occurrence (frequent words
more often) and uniformly over distinct words (rare words, names and numbers
as often as common ones).  Every query is given to MATCH as a quoted string
("..."), which each tokenizer cuts as it likes (fenci: a phrase of its words).

usage: recall.py --ext build/sqlite/fenci_fts5.so [--data ../shared/data]
                 [--queries 1000] [--seed 2005] [--extra 'fenci model pku' ...]
                 [--gold FILE]
--gold measures on another gold file of the same form, such as held-out
People's Daily (tools/pd2seg.sh dev < pd1998-01/199801.txt), the data to
decide the tokenizer's rules on; the PKU test is for reporting only.
(make bench-sqlite runs it through sqlite/bench/bench.py.)
"""
import argparse
import random
import sqlite3
import time
import unicodedata


def is_searchable(word):
    """A word with a letter, a digit or a Han character in it."""
    return any(unicodedata.category(c)[0] in "LN" for c in word)


def load_gold(path):
    sents = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if words:
                sents.append(words)
    return sents


def draw_queries(sents, n, seed, by):
    rnd = random.Random(seed)
    if by == "occurrence":
        pool = [w for s in sents for w in s if len(w) >= 2 and is_searchable(w)]
    else:
        pool = sorted({w for s in sents for w in s if len(w) >= 2 and is_searchable(w)})
    out, seen = [], set()
    while len(out) < n and len(seen) < len(set(pool)):
        w = rnd.choice(pool)
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def fts_quote(s):
    return '"' + s.replace('"', '""') + '"'


class Table:
    def __init__(self, db, name, tokenize, split_chars=False):
        self.db, self.name, self.tokenize, self.split = db, name, tokenize, split_chars
        db.execute("CREATE VIRTUAL TABLE %s USING fts5(body, tokenize=%s)" % (name, "'" + tokenize.replace("'", "''") + "'"))

    def load(self, texts):
        t0 = time.perf_counter()
        with self.db:
            self.db.executemany("INSERT INTO %s(rowid, body) VALUES (?, ?)" % self.name,
                                ((i, " ".join(t) if self.split else t) for i, t in enumerate(texts)))
        return time.perf_counter() - t0

    def search(self, word):
        q = " ".join(word) if self.split else word
        try:
            return {r[0] for r in self.db.execute("SELECT rowid FROM %s WHERE %s MATCH ?" % (self.name, self.name),
                                                   (fts_quote(q),))}
        except sqlite3.OperationalError:
            return set()


def score(table, queries, truth):
    tp = ret = rel = 0
    rsum = psum = 0.0
    nonempty = 0
    t0 = time.perf_counter()
    for w in queries:
        got = table.search(w)
        want = truth[w]
        hit = len(got & want)
        tp += hit
        ret += len(got)
        rel += len(want)
        rsum += hit / len(want)
        if got:
            psum += hit / len(got)
            nonempty += 1
    dt = time.perf_counter() - t0
    return {
        "recall": tp / rel, "precision": tp / ret if ret else 0.0,
        "recall_macro": rsum / len(queries), "precision_macro": psum / nonempty if nonempty else 0.0,
        "answered": nonempty, "ms_per_query": 1000 * dt / len(queries),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ext", required=True)
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--extra", action="append", default=[], help="another tokenize= value to measure")
    ap.add_argument("--gold", help="a gold file instead of SIGHAN 2005 PKU test (dev data)")
    a = ap.parse_args()
    gold = a.gold or a.data + "/sighan2005/pku_test_gold.utf8"
    sents = load_gold(gold)
    texts = ["".join(s) for s in sents]
    truth = {}
    for i, s in enumerate(sents):
        for w in set(s):
            truth.setdefault(w, set()).add(i)
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(a.ext)
    tables = [("fenci", Table(db, "t_fenci", "fenci"))]
    for k, x in enumerate(a.extra):
        tables.append((x, Table(db, "t_extra%d" % k, x)))
    tables += [("unicode61", Table(db, "t_u61", "unicode61")),
               ("trigram", Table(db, "t_tri", "trigram")),
               ("one character a token (unicode61)", Table(db, "t_chars", "unicode61", split_chars=True))]
    secs = {name: t.load(texts) for name, t in tables}
    mb = sum(len(t.encode()) for t in texts) / 1e6
    print("%s: %d sentences, %.2f MB of text, %d gold words (%d distinct)"
          % ("SIGHAN 2005 PKU test gold" if not a.gold else a.gold, len(sents), mb, sum(map(len, sents)), len(truth)))
    for by in ("occurrence", "distinct"):
        queries = draw_queries(sents, a.queries, a.seed, by)
        rel = sum(len(truth[w]) for w in queries)
        print()
        print("%d queries drawn by %s (seed %d; %d query-sentence pairs to find):" % (len(queries), by, a.seed, rel))
        print()
        print("| tokenizer | recall | precision | recall (macro) | precision (macro) | queries answered | ms/query | index s |")
        print("|---|--:|--:|--:|--:|--:|--:|--:|")
        for name, t in tables:
            s = score(t, queries, truth)
            print("| %s | %.2f%% | %.2f%% | %.2f%% | %.2f%% | %d | %.3f | %.2f |" % (
                name, 100 * s["recall"], 100 * s["precision"], 100 * s["recall_macro"], 100 * s["precision_macro"],
                s["answered"], s["ms_per_query"], secs[name]))
    db.close()


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""sqlite/bench/latency.py - query latency of an index built by `fenci index`.

  /usr/bin/python3 sqlite/bench/latency.py DB [--data ../shared/data] [--queries 300] [--seed 2005]

Queries are gold words of two or more characters (with a Han character) of
the SIGHAN 2005 PKU test, drawn by occurrence; each runs as a phrase,
`ORDER BY rank LIMIT 10`, in one process with the fenci extension loaded;
then the first 100 through the whole `fenci search` process.  Prints p50
and p99."""
import argparse, os, random, sqlite3, subprocess, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--ext", default=os.path.join(ROOT, "build", "sqlite", "fenci_fts5.so"))
    a = ap.parse_args()
    gold = os.path.join(a.data, "sighan2005", "pku_test_gold.utf8")
    words = [w for l in open(gold, encoding="utf-8") for w in l.split()
             if len(w) >= 2 and any("\u4e00" <= c <= "\u9fff" for c in w)]
    rng = random.Random(a.seed)
    qs = [rng.choice(words) for _ in range(a.queries)]
    db = sqlite3.connect(a.db)
    db.enable_load_extension(True)
    db.load_extension(a.ext)
    ts = []
    for q in qs:
        t = time.perf_counter()
        db.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 10", ('"%s"' % q,)).fetchall()
        ts.append((time.perf_counter() - t) * 1000)
    ts.sort()
    print("%d queries, in-process: p50 %.2f ms, p99 %.2f ms" % (len(ts), ts[len(ts) // 2], ts[int(len(ts) * 0.99) - 1]))
    ps = []
    for q in qs[:100]:
        t = time.perf_counter()
        subprocess.run([os.path.join(ROOT, "fenci"), "search", a.db, q, "-n", "10"], stdout=subprocess.DEVNULL)
        ps.append((time.perf_counter() - t) * 1000)
    ps.sort()
    print("%d queries, whole fenci search process: p50 %.1f ms, p99 %.1f ms" % (len(ps), ps[len(ps) // 2], ps[int(len(ps) * 0.99) - 1]))

main()

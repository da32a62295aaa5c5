#!/usr/bin/python3
"""sqlite/bench/bench.py - the measurements of the FTS5 extension (make bench-sqlite):

  1. search quality: sqlite/bench/recall.py (SIGHAN 2005 PKU test sentences;
     fenci against unicode61, trigram and one character a token);
  2. indexing throughput on one thread with the default model: the tokenizer
     alone (tokbench tokenize: xTokenize on every line, nothing stored) and
     a whole FTS5 index built from Python's sqlite3 (one INSERT a line, one
     transaction; unicode61 on the same text for FTS5's own share);
  3. query latency on that index of 50 MB (the PKU + MSR raw test text
     repeated, one line a row, as bench/run.py builds it): 1,000 queries,
     gold words of two or more characters drawn from the PKU and MSR gold
     text, in three forms (the first 10 rows; the 10 best by bm25; the count
     of all rows);
  4. load time in a fresh process (tokbench load: load_extension, then the
     CREATE VIRTUAL TABLE that opens the model, then a first INSERT and
     MATCH), median of 11 processes;
  5. the resident memory (VmRSS) and SQLite heap that ten more connections
     with a fenci table add to the first (tokbench memory), against
     unicode61 tables.
The report goes to stdout and BUILD/sqlite/bench/results.md.

usage: bench.py --ext build/sqlite/fenci_fts5.so --data ../shared/data --build build [--quick]
"""
import argparse
import datetime
import os
import sqlite3
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import recall  # noqa: E402


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def text50(data, out):
    """The PKU + MSR raw test text repeated to about 50 MB (bench/run.py's bench.txt)."""
    sig = os.path.join(data, "sighan2005")
    block = b"".join(open(os.path.join(sig, f), "rb").read() for f in ("pku_test.utf8", "msr_test.utf8"))
    reps = max(1, round(50e6 / len(block)))
    path = os.path.join(out, "text50.txt")
    if not (os.path.exists(path) and os.path.getsize(path) == reps * len(block)):
        with open(path + ".tmp", "wb") as f:
            for _ in range(reps):
                f.write(block)
        os.replace(path + ".tmp", path)
    return path, reps


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def build_index(ext, path, dbpath, tokenize):
    if os.path.exists(dbpath):
        os.remove(dbpath)
    db = sqlite3.connect(dbpath)
    db.enable_load_extension(True)
    db.load_extension(ext)
    db.execute("PRAGMA journal_mode=OFF")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize=%s)" % ("'" + tokenize + "'"))
    with open(path, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f]
    nbytes = sum(len(l.encode()) for l in lines)
    w0, c0 = time.perf_counter(), time.process_time()
    with db:
        db.executemany("INSERT INTO docs(body) VALUES (?)", ((l,) for l in lines))
    w1, c1 = time.perf_counter(), time.process_time()
    db.close()
    return {"rows": len(lines), "bytes": nbytes, "wall": w1 - w0, "cpu": c1 - c0, "db_bytes": os.path.getsize(dbpath)}


def fenci_index(a, path, out, say):
    """`fenci index` on the same text: the whole tool (reading, one row a
    line, commits every 8 MB), a new database each time."""
    helper = os.path.join(os.path.dirname(os.path.abspath(a.fenci)), "fenci-sqlite")
    if not (os.path.exists(a.fenci) and os.path.exists(helper)):
        log("bench-sqlite: no %s: fenci index not measured" % helper)
        return
    log("bench-sqlite: fenci index")
    dbp = os.path.join(out, "fenci-index.db")
    for f in (dbp, dbp + "-journal"):
        if os.path.exists(f):
            os.remove(f)
    r0 = os.times()
    w0 = time.perf_counter()
    subprocess.run([a.fenci, "index", "-q", dbp, path], check=True)
    w1 = time.perf_counter()
    r1 = os.times()
    cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
    mb = os.path.getsize(path) / 1e6
    say("| `fenci index` (the tool: reads the file, one row a line, a commit every 8 MB; database %.0f MB) | `%s index -q DB %s` | %.2f | %.2f | %.2f | %.2f |"
        % (os.path.getsize(dbp) / 1e6, a.fenci, path, w1 - w0, cpu, mb / (w1 - w0), mb / cpu))


def latency(ext, dbpath, queries):
    db = sqlite3.connect(dbpath)
    db.enable_load_extension(True)
    db.load_extension(ext)
    forms = [("first 10 rows", "SELECT rowid FROM docs WHERE docs MATCH ? LIMIT 10"),
             ("10 best by bm25", "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10"),
             ("count of all rows", "SELECT count(*) FROM docs WHERE docs MATCH ?")]
    res = []
    for name, sql in forms:
        for q in queries[:50]:  # warm the page cache and the statement
            db.execute(sql, (recall.fts_quote(q),)).fetchall()
        times, hits = [], []
        for q in queries:
            t0 = time.perf_counter()
            rows = db.execute(sql, (recall.fts_quote(q),)).fetchall()
            times.append(1000 * (time.perf_counter() - t0))
            hits.append(rows[0][0] if name.startswith("count") else len(rows))
        res.append((name, sql, statistics.median(times), pct(times, 99), max(times), statistics.mean(hits)))
    db.close()
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ext", required=True)
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--build", default="build")
    ap.add_argument("--queries", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2005)
    ap.add_argument("--rounds", type=int, default=3, help="tokenizer throughput: best of this many runs")
    ap.add_argument("--fenci", default="./fenci", help="the fenci tool, for `fenci index` (skipped when absent)")
    a = ap.parse_args()
    ext = os.path.abspath(a.ext)
    out = os.path.join(a.build, "sqlite", "bench")
    os.makedirs(out, exist_ok=True)
    tokbench = os.path.join(a.build, "sqlite", "tokbench")
    report = []

    def say(line=""):
        print(line, flush=True)
        report.append(line)

    load = os.getloadavg()
    say("# fenci FTS5 extension: measurements")
    say()
    say("Measured %s UTC with `make bench-sqlite` on %d CPUs; SQLite %s (Python %s); load average %.2f at the start."
        % (datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"), os.cpu_count(), sqlite3.sqlite_version,
           sys.version.split()[0], load[0]))
    say()

    # 1. quality
    log("bench-sqlite: recall and precision")
    cmd = [sys.executable, os.path.join(HERE, "recall.py"), "--ext", ext, "--data", a.data,
           "--queries", str(a.queries), "--seed", str(a.seed),
           "--extra", "fenci parts 0", "--extra", "fenci mode default", "--extra", "fenci model pku",
           "--extra", "fenci model pku mode default"]
    say("## 1. Search quality (`%s`)" % " ".join(["sqlite/bench/recall.py"] + cmd[3:]))
    say()
    for line in subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines():
        say(line)
    say()

    # 2. indexing throughput
    path, reps = text50(a.data, out)
    mb = os.path.getsize(path) / 1e6
    log("bench-sqlite: tokenizer throughput on %s" % path)
    best = None
    for _ in range(a.rounds):
        o = subprocess.run([tokbench, ext, "tokenize", path, "fenci"], check=True, capture_output=True,
                           text=True).stdout.split()
        r = (int(o[0]), int(o[1]), int(o[2]), float(o[3]), float(o[4]))
        if best is None or r[3] < best[3]:
            best = r
    say("## 2. Indexing throughput, one thread, default model (ctb), on %.1f MB (PKU + MSR raw test text x %d)"
        % (mb, reps))
    say()
    say("| what | command | wall s | CPU s | MB/s (wall) | MB per CPU-s |")
    say("|---|---|--:|--:|--:|--:|")
    say("| tokenizer alone (xTokenize, %d tokens of which %d colocated), best of %d | `%s` | %.2f | %.2f | %.2f | %.2f |"
        % (best[1], best[2], a.rounds, "%s %s tokenize %s fenci" % (tokbench, a.ext, path), best[3], best[4],
           best[0] / 1e6 / best[3], best[0] / 1e6 / best[4]))
    idx = {}
    for tok in ("fenci", "unicode61"):
        log("bench-sqlite: building the %s index" % tok)
        dbp = os.path.join(out, "index50-%s.db" % tok)
        r = build_index(ext, path, dbp, tok)
        idx[tok] = (dbp, r)
        say("| FTS5 index, tokenize='%s' (%d rows, one transaction; database %.0f MB) | `bench.py: INSERT INTO docs(body) VALUES (?)` | %.2f | %.2f | %.2f | %.2f |"
            % (tok, r["rows"], r["db_bytes"] / 1e6, r["wall"], r["cpu"], r["bytes"] / 1e6 / r["wall"],
               r["bytes"] / 1e6 / r["cpu"]))
    fenci_index(a, path, out, say)
    say()

    # 3. latency
    log("bench-sqlite: query latency")
    sents = recall.load_gold(os.path.join(a.data, "sighan2005", "pku_test_gold.utf8")) + \
        recall.load_gold(os.path.join(a.data, "sighan2005", "msr_test_gold.utf8"))
    queries = recall.draw_queries(sents, a.queries, a.seed, "occurrence")
    lat = latency(ext, idx["fenci"][0], queries)
    say("## 3. Query latency, tokenize='fenci', index of %.1f MB (%d rows), %d queries (gold words of PKU + MSR, by occurrence, seed %d)"
        % (mb, idx["fenci"][1]["rows"], len(queries), a.seed))
    say()
    say("| query | SQL | p50 ms | p99 ms | max ms | mean rows |")
    say("|---|---|--:|--:|--:|--:|")
    for name, sql, p50, p99, mx, hits in lat:
        say("| %s | `%s` | %.3f | %.2f | %.1f | %.0f |" % (name, sql, p50, p99, mx, hits))
    say()

    # 4. load time
    log("bench-sqlite: load time")
    runs = []
    for _ in range(11):
        o = subprocess.run([tokbench, ext, "load", "fenci"], check=True, capture_output=True, text=True).stdout.split()
        runs.append([float(x) for x in o])
    med = [statistics.median(r[i] for r in runs) for i in range(3)]
    mx = [max(r[i] for r in runs) for i in range(3)]
    say("## 4. Load time in a fresh process (`%s %s load fenci`, 11 processes; the model file in the page cache)"
        % (tokbench, a.ext))
    say()
    say("| step | median ms | max ms |")
    say("|---|--:|--:|")
    for i, step in enumerate(["sqlite3_open + sqlite3_load_extension", "CREATE VIRTUAL TABLE (the tokenizer: model mapped, tagger made)",
                              "first INSERT and MATCH"]):
        say("| %s | %.2f | %.2f |" % (step, med[i], mx[i]))
    say("| load to first result | %.2f | %.2f |" % (sum(med), max(sum(r) for r in runs)))
    say()

    # 5. memory
    log("bench-sqlite: memory")
    say("## 5. Memory: ten more connections with a table each (`%s %s memory 10 TOKENIZE`)" % (tokbench, a.ext))
    say()
    say("| tokenize | VmRSS, 1 connection (KiB) | VmRSS, 11 connections (KiB) | added by 10 (KiB) | SQLite heap added by 10 (KiB) |")
    say("|---|--:|--:|--:|--:|")
    for tok in ("fenci", "unicode61"):
        o = [int(x) for x in subprocess.run([tokbench, ext, "memory", "10", tok], check=True, capture_output=True,
                                            text=True).stdout.split()]
        say("| %s | %d | %d | %d | %d |" % (tok, o[0], o[1], o[1] - o[0], (o[3] - o[2]) // 1024))
    say()
    say("Load average %.2f at the end." % os.getloadavg()[0])
    with open(os.path.join(out, "results.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(report) + "\n")
    log("bench-sqlite: wrote %s" % os.path.join(out, "results.md"))


if __name__ == "__main__":
    main()

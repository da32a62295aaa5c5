#!/usr/bin/python3
"""tests/sqlite/test_index.py - `fenci index` and `fenci search` (the program
fenci-sqlite that they run): an index of a folder tree checked row by row
through Python's sqlite3 module; re-runs after files are modified, added,
deleted, touched or left alone, each compared with a clean index of the same
tree; search results, exit codes and --json output parsed; paragraphs; bad
input (invalid UTF-8, a binary file, an empty file); option and query errors;
an indexer killed with SIGKILL half-way, whose database must open, pass
PRAGMA integrity_check and FTS5's integrity-check, and be completed by a
re-run to what a clean run makes; `fenci index` without fenci-sqlite.

usage: test_index.py FENCI EXTENSION MODEL_DIR
(EXTENSION: fenci_fts5.so, to open the index's FTS5 table from Python;
MODEL_DIR holds the default model, ctb.fenci)"""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

RUN = 0
FAILED = 0
FENCI, EXT, MODELS = sys.argv[1:4]
FENCI = os.path.abspath(FENCI)
CWD = [None]
os.environ["FENCI_MODEL_DIR"] = os.path.abspath(MODELS)


def check(cond, what):
    global RUN, FAILED
    RUN += 1
    if not cond:
        FAILED += 1
        print("FAIL:", what, file=sys.stderr)


def eq(got, want, what):
    check(got == want, "%s: got %r, want %r" % (what, got, want))


def fenci(*args, want=None):
    # in the test's folder: paths are shown relative to it
    p = subprocess.run([FENCI] + list(args), capture_output=True, timeout=300, cwd=CWD[0])
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    check(p.returncode >= 0, "fenci %s: killed by signal %d" % (" ".join(args), -p.returncode))
    if want is not None:
        check(p.returncode == want, "fenci %s: exit %d, want %d; stderr: %s" % (" ".join(args), p.returncode, want,
                                                                            err.strip()[:300]))
    return p.returncode, out, err


def connect(path):
    db = sqlite3.connect(path)
    db.enable_load_extension(True)
    db.load_extension(os.path.abspath(EXT))
    db.enable_load_extension(False)
    return db


def rows(dbpath, root):
    """(path relative to root, line, text) of every row, sorted."""
    db = connect(dbpath)
    r = sorted((os.path.relpath(p, root), ln, t) for p, ln, t in
               db.execute("SELECT f.path, c.line, c.text FROM chunks c JOIN files f ON f.id = c.file"))
    db.close()
    return r


def integrity(dbpath, what):
    db = connect(dbpath)
    eq(db.execute("PRAGMA integrity_check").fetchall(), [("ok",)], what + ": PRAGMA integrity_check")
    try:
        db.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('integrity-check')")
        ok = True
    except sqlite3.Error as e:
        ok = False
        print("  integrity-check:", e, file=sys.stderr)
    check(ok, what + ": FTS5 integrity-check")
    # the FTS index against its content table, row by row
    n_fts = db.execute("SELECT count(*) FROM chunks_fts_docsize").fetchone()[0]
    n_chunks = db.execute("SELECT count(*) FROM chunks").fetchone()[0]
    eq(n_fts, n_chunks, what + ": one FTS5 row per chunk")
    db.close()


def expected_rows(root):
    """What one row a line gives for the tree at root, computed here."""
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for f in files:
            if f.startswith("."):
                continue
            p = os.path.join(d, f)
            if os.path.islink(p):
                continue
            data = open(p, "rb").read()
            if b"\0" in data[:8000]:
                continue
            text = data.decode("utf-8", "replace")
            if text.startswith("\ufeff"):
                text = text[1:]
            for i, line in enumerate(text.split("\n")):
                if line.endswith("\r"):
                    line = line[:-1]
                if line.strip(" \t\r\f\v"):
                    out.append((os.path.relpath(p, root), i + 1, line))
    return sorted(out)


def search(dbpath, query, *opts, want=None):
    rc, out, err = fenci("search", dbpath, query, "--json", *opts, want=want)
    hits = []
    for line in out.splitlines():
        try:
            hits.append(json.loads(line))
        except ValueError:
            check(False, "search %s: not JSON: %r" % (query, line))
    return rc, hits, err


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def test_tree(tmp):
    root = os.path.join(tmp, "docs")
    write(root + "/a.txt", "北京大学是一所大学。\n我爱北京天安门。\n\n他和服务员说话。\n")
    write(root + "/sub/b.txt", "上海在中国东部。\r\n  \r\n北京和上海都是大城市。\r\n")
    write(root + "/sub/deep/c.txt", "\ufeff自然语言处理很有趣。\n")
    write(root + "/bad.txt", b"\xff\xfe\xe5\x8c\x97 broken \xc3 bytes, then \xe5\x8d\x97\xe4\xba\xac good\n")
    write(root + "/image.bin", b"PNG\0\0\0\x01\x02" + "北京".encode() * 10)
    write(root + "/empty.txt", b"")
    write(root + "/nonl.txt", "最后一行没有换行符")
    write(root + "/.hidden/secret.txt", "北京 hidden\n")
    os.symlink(root + "/a.txt", root + "/link.txt")
    db = os.path.join(tmp, "docs.db")

    rc, out, err = fenci("index", db, root, want=0)
    check("image.bin: binary" in err, "binary file: a message (%r)" % err)
    check("bad.txt" in err and "invalid UTF-8" in err, "invalid UTF-8: a warning (%r)" % err)
    check("1 binary skipped" in err and "6 added" in err, "summary: %r" % err)
    eq(rows(db, root), expected_rows(root), "rows after the first run")
    integrity(db, "first run")
    dbc = connect(db)
    eq(dbc.execute("SELECT value FROM fenci_meta WHERE key = 'model'").fetchall(), [("ctb",)], "meta: model name")
    eq(dbc.execute("SELECT warning IS NOT NULL FROM files WHERE path LIKE '%image.bin'").fetchall(), [(1,)],
       "binary: recorded with its reason")
    eq(dbc.execute("SELECT text FROM chunks WHERE text LIKE '%broken%'").fetchall(),
       [("\ufffd\ufffd\u5317 broken \ufffd bytes, then 南京 good",)], "invalid UTF-8: U+FFFD for each bad byte")
    dbc.close()

    # search: hits, ranking output, offsets, exit codes
    rc, hits, err = search(db, "北京", want=0)
    got = sorted((os.path.relpath(h["path"], "docs"), h["line"]) for h in hits)
    eq(got, [("a.txt", 1), ("a.txt", 2), ("sub/b.txt", 3)], "北京: the rows holding the word")
    for h in hits:
        check(all(h["text"][s:e] == "北京" or "北京" in h["text"][s:e] for s, e in h["matches"]) and h["matches"],
              "北京: matches mark the word (%r)" % h)
        check(isinstance(h["rank"], float) and h["rank"] < 0, "rank is bm25 (%r)" % h["rank"])
    ranks = [h["rank"] for h in hits]
    eq(ranks, sorted(ranks), "hits best first")
    rc, hits, err = search(db, "大学", want=0)
    h = [x for x in hits if x["text"].startswith("北京大学")]
    eq([x["matches"] for x in h], [[[2, 4], [7, 9]]], "大学 inside 北京大学 and alone: character offsets")
    rc, hits, err = search(db, "和服", want=1)
    eq(hits, [], "和服 is not found in 和服务员 (across a word boundary)")
    rc, hits, err = search(db, "南京", want=0)
    eq([x["line"] for x in hits], [1], "the valid text of an invalid UTF-8 file is searchable")
    rc, hits, err = search(db, "secret", want=1)
    eq(hits, [], "hidden folders are not indexed")
    rc, hits, err = search(db, "自然语言处理")
    eq([(x["path"].endswith("c.txt"), x["line"]) for x in hits], [(True, 1)], "a word after a byte order mark")
    for q, want in (("北京 AND 上海", 1), ("北京 OR 上海", 4), ("上海 NOT 北京", 1), ('"北京 天安门"', 1),
                    ("天安*", 1), ("NEAR(北京 上海, 3)", 1)):
        rc, hits, err = search(db, q)
        eq(len(hits), want, "query %s: hits" % q)
    rc, hits, err = search(db, "北京", "-n", "1", want=0)
    eq(len(hits), 1, "-n 1")
    rc, out, err = fenci("search", db, "北京 AND", want=2)
    check("bad query" in err, "a bad query says so (%r)" % err)
    rc, out, err = fenci("search", db, "北京", "--color", "never", want=0)
    check("docs/a.txt:2: 我爱[北京]天安门。" in out.splitlines(), "text output: path:line: [match] (%r)" % out)
    rc, out, err = fenci("search", db, "北京", "--color", "always", want=0)
    check("\033[1;31m北京\033[m" in out, "colour output")
    rc, out, err = fenci("search", os.path.join(tmp, "none.db"), "北京", want=2)
    check("no such index" in err, "a missing index says so")
    rc, out, err = fenci("index", "--mode", "default", db, root)
    check(rc != 0 and "was made with" in err, "other options on an existing index: an error (%r)" % err)
    plain = os.path.join(tmp, "plain.sqlite")
    sqlite3.connect(plain).execute("CREATE TABLE t(x)").connection.commit()
    rc, out, err = fenci("index", plain, root)
    check(rc != 0 and "no fenci index" in err, "a database that is not an index is refused")

    # changes: modified, added, deleted, touched (same bytes), unchanged
    time.sleep(0.01)
    write(root + "/a.txt", "北京大学是一所大学。\n广州的早茶很有名。\n")
    write(root + "/sub/new.txt", "深圳是新城市。\n")
    os.remove(root + "/sub/deep/c.txt")
    st = os.stat(root + "/sub/b.txt")
    os.utime(root + "/sub/b.txt", ns=(st.st_atime_ns, st.st_mtime_ns + 5000000000))
    rc, out, err = fenci("index", "-v", db, root, want=0)
    for name, what in (("a.txt", "changed"), ("sub/new.txt", "added"), ("sub/deep/c.txt", "removed"),
                       ("sub/b.txt", "unchanged (same content)"), ("bad.txt", "unchanged"),
                       ("image.bin", "unchanged")):
        check("docs/%s: %s" % (name, what) in err, "re-run: %s %s (%r)" % (name, what, err))
    eq(rows(db, root), expected_rows(root), "rows after the changes")
    clean = os.path.join(tmp, "clean.db")
    fenci("index", "-q", clean, root, want=0)
    eq(rows(db, root), rows(clean, root), "re-run = a clean run")
    integrity(db, "after the changes")
    rc, hits, err = search(db, "天安门", want=1)
    eq(hits, [], "a modified file's old rows are gone")
    rc, hits, err = search(db, "广州", want=0)
    eq([(os.path.basename(x["path"]), x["line"]) for x in hits], [("a.txt", 2)], "its new rows are found")
    rc, hits, err = search(db, "深圳", want=0)
    eq(len(hits), 1, "an added file is found")
    rc, hits, err = search(db, "自然语言处理", want=1)
    eq(hits, [], "a deleted file's rows are gone")
    rc, out, err = fenci("index", "-v", db, root + "/sub/new.txt", want=0)
    check("unchanged" in err, "a file given alone")
    shutil.rmtree(root + "/sub")
    rc, out, err = fenci("index", db, root + "/sub", want=0)
    check("No such file" in err, "a folder gone: said")
    eq(rows(db, root), expected_rows(root), "a folder gone: its rows removed")

    # one row per paragraph; the line of the first match inside it
    pdir = os.path.join(tmp, "para")
    write(pdir + "/p.txt", "第一段第一行。\n第一段说到上海。\n\n\n第二段。\n")
    write(pdir + "/q.txt", "\r\n  \r\n最后一段\r\n没有换行")
    pdb = os.path.join(tmp, "para.db")
    fenci("index", "--paragraphs", "-q", pdb, pdir, want=0)
    eq([(f, ln, t) for f, ln, t in rows(pdb, pdir)],
       [("p.txt", 1, "第一段第一行。\n第一段说到上海。"), ("p.txt", 5, "第二段。"), ("q.txt", 3, "最后一段\r\n没有换行")],
       "paragraph rows (the last without a newline; inner CR LF kept)")
    rc, hits, err = search(pdb, "上海", want=0)
    eq([x["line"] for x in hits], [2], "a match in a paragraph's second line: line 2")


def test_long_line(tmp):
    """A 2.4 MB line with 200,000 matches: search is linear in them (FTS5's
    own highlight() and snippet() are quadratic: minutes)."""
    d = os.path.join(tmp, "long")
    write(d + "/one.txt", "北京大学" * 200000 + "\n")
    db = os.path.join(tmp, "long.db")
    fenci("index", "-q", db, d, want=0)
    t0 = time.time()
    rc, hits, err = search(db, "北京", want=0)
    dt = time.time() - t0
    check(dt < 60, "search of a line with 200,000 matches: %.1f s" % dt)
    eq([len(h["matches"]) for h in hits], [200000], "every match given")
    check(hits and hits[0]["matches"][:2] == [[0, 2], [4, 6]], "their character offsets")
    rc, out, err = fenci("search", db, "北京", "--color", "never", want=0)
    eq(out.count("[北京]"), 40, "the text output: a snippet of 160 characters")


def test_kill(tmp):
    """SIGKILL half-way, then a re-run."""
    base = open(os.path.join(os.path.dirname(__file__), "../../samples/napoleon.txt"), encoding="utf-8").read()
    root = os.path.join(tmp, "corpus")
    nfiles = 40
    for i in range(nfiles):
        # about 100 KB each, no two alike
        write("%s/%02d/doc%02d.txt" % (root, i % 4, i), "".join("第%d篇第%d段：%s" % (i, k, base) for k in range(110)))
    db = os.path.join(tmp, "killed.db")
    p = subprocess.Popen([FENCI, "index", "-v", "--batch", "0.3", db, root], stderr=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, cwd=tmp)
    seen = 0
    deadline = time.time() + 240
    while seen < 12 and time.time() < deadline:
        line = p.stderr.readline()
        if not line:
            break
        if b": added" in line:
            seen += 1
    p.send_signal(signal.SIGKILL)
    p.wait()
    p.stderr.close()
    eq(p.returncode, -signal.SIGKILL, "the indexer was killed (it had not finished: %d files seen)" % seen)
    journal = os.path.exists(db + "-journal")
    dbc = sqlite3.connect(db)  # rolls the journal back, as any writer does
    n = dbc.execute("SELECT count(*) FROM files").fetchone()[0]
    dbc.close()
    check(0 < n < nfiles, "killed half-way: %d of %d files committed" % (n, nfiles))
    print("killed after %d files read: %d of %d committed, %s" %
          (seen, n, nfiles, "a transaction open (journal left)" if journal else "between transactions"))
    integrity(db, "after SIGKILL")
    rc, hits, err = search(db, "拿破仑", "-n", "0")
    check(rc in (0, 1) and "error" not in err, "search works on the killed index (%r)" % err)
    rc, out, err = fenci("index", "-q", db, root, want=0)
    clean = os.path.join(tmp, "kclean.db")
    fenci("index", "-q", clean, root, want=0)
    eq(rows(db, root), rows(clean, root), "killed, then re-run = a clean run")
    integrity(db, "killed, then re-run")
    a = sorted((h["path"], h["line"]) for h in search(db, "第7篇 拿破仑", "-n", "0")[1])
    b = sorted((h["path"], h["line"]) for h in search(clean, "第7篇 拿破仑", "-n", "0")[1])
    check(a == b and len(a) == 110, "the same hits as a clean run (%d, %d)" % (len(a), len(b)))


def test_no_helper(tmp):
    """`fenci index` where fenci-sqlite is not: the message says what to do."""
    lone = os.path.join(tmp, "bin")
    os.makedirs(lone)
    shutil.copy(FENCI, lone)
    p = subprocess.run([os.path.join(lone, os.path.basename(FENCI)), "index", "x.db", "."], capture_output=True)
    err = p.stderr.decode()
    if not os.path.exists("/usr/local/libexec/fenci/fenci-sqlite"):
        check(p.returncode == 1 and "needs SQLite: apt-get install libsqlite3-dev and make sqlite" in err,
              "no fenci-sqlite: the message (%r)" % err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        CWD[0] = tmp
        test_tree(tmp)
        test_long_line(tmp)
        test_kill(tmp)
        test_no_helper(tmp)
    print("fenci index/search: %d checks, %d failed" % (RUN, FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())

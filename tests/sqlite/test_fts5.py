#!/usr/bin/python3
"""tests/sqlite/test_fts5.py - the fenci FTS5 tokenizer through Python's sqlite3
module (the system SQLite): tokens, colocated words, phrase, prefix, NEAR and
column queries, updates and deletes, highlight() and snippet() byte for byte,
folding, punctuation, stop words, invalid UTF-8, option errors and a
10,000-document index checked against the expected hits.

usage: test_fts5.py EXTENSION TEST_MODEL [DEFAULT_MODEL]
TEST_MODEL is tests/sqlite/lexicon.txt compiled; DEFAULT_MODEL (optional)
a shipped trained model for a few checks on real text."""
import os
import random
import sqlite3
import sys
import tempfile

RUN = 0
FAILED = 0


def check(cond, what):
    global RUN, FAILED
    RUN += 1
    if not cond:
        FAILED += 1
        print("FAIL:", what, file=sys.stderr)


def eq(got, want, what):
    check(got == want, "%s: got %r, want %r" % (what, got, want))


def connect(ext):
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(ext)
    db.enable_load_extension(False)
    return db


def q(db, sql, *args):
    return db.execute(sql, args).fetchall()


def rowids(db, table, match):
    return sorted(r[0] for r in q(db, "SELECT rowid FROM %s WHERE %s MATCH ?" % (table, table), match))


def sqlstr(s):
    return "'" + s.replace("'", "''") + "'"


def test_tokens(db, opts):
    """fenci_tokens(): what FTS5 gets, with offsets."""
    t = lambda text, how="document", off=0: q(db, "SELECT fenci_tokens(?, ?, ?, ?)", text, how, opts, off)[0][0]
    eq(t("他在北京大学生活了一个月。"), "他|他在 在|他在 北京大学|北京|大学 生活 了 一个 月",
       "document tokens: words inside words, a cross word over one-character tokens, twice")
    eq(t("他在北京大学生活了一个月。", "query"), "他在 北京大学 生活 了 一个 月",
       "query tokens: characters at the start that are a word are joined")
    eq(t("北京大学生活了他在", "query"), "北京大学 生活 了 他在", "... and at the end")
    eq(t("我们他在北京", "query"), "我们 他 在 北京", "... not in the middle: 他 在 stay")
    eq(t("他在", "query"), "他在", "a whole query")
    eq(t("北京大学", off=1), "北京大学[0,12]|北京[0,6]|大学[6,12]", "offsets of colocated tokens")
    eq(t("中华人民共和国", off=1),
       "中华人民共和国[0,21]|中华[0,6]|华人[3,9]|人民[6,12]|人民共和国[6,21]|共和[12,18]|共和国[12,21]",
       "every lexicon word inside, in order of start")
    eq(t("北京大", "prefix"), "北京大", "a lone last character joins the word before it in a prefix query")
    eq(t("我们北京", "prefix"), "我们 北京", "prefix query of whole words")
    eq(t("北京 大", "prefix"), "北京 大", "no joining across a space")
    eq(t("，。！？ \t\n「」"), "", "punctuation and whitespace are not indexed")
    eq(t("北京，大学"), "北京 大学", "punctuation between words")
    eq(t("ＡＢＣ公司和Abc的IPHONE"), "abc 公司 和 abc 的 iphone", "width and case folded")
    eq(t("臺灣的電腦軟件"), "台湾 的 电脑 软件", "traditional folded to simplified")
    eq(t("ＡＢＣ公司", off=1), "abc[0,9] 公司[9,15]", "offsets are the original text's")
    eq(t("see https://www.example.com/a?b=1 or mail@example.org"),
       "see https://www.example.com/a?b=1|https|www|example|com|a|b|1 or mail@example.org|mail|example|org",
       "parts of URLs and e-mail addresses colocated")
    eq(t("https://www.example.com/a", "query"), "https://www.example.com/a", "no parts in a query")
    eq(t("e-mail", off=1), "e-mail[0,6]|e[0,1]|mail[2,6]", "parts of a Latin word with a hyphen")
    eq(t("Ｂ站和1949年", off=1), "b站[0,6] 和[6,9] 1949年[9,16]|1949[9,13]", "the number in a word")
    eq(t("二十一世纪"), "二十一 世纪", "no smaller numbers in a number")
    eq(t("气温－4℃，1998-2000年", off=1), "气温[0,6] 4[9,10]|-4[6,10] 1998[16,20] 2000[21,25] 年[25,28]",
       "a signed number; a range is no sign")
    eq(t("－4", "query"), "-4", "a signed number in a query")
    eq(t("1998-2000", "query"), "1998 2000", "a range in a query")
    eq(q(db, "SELECT fenci_tokens('北京大学', 'document', ?)", opts + " mode default")[0][0], "北京大学",
       "mode default: no colocated words")
    eq(q(db, "SELECT fenci_tokens('ＡＢＣ臺灣', 'document', ?)", opts + " fold none")[0][0], "ＡＢＣ 臺灣",
       "fold none")
    eq(q(db, "SELECT fenci_tokens('ＡＢＣ臺灣', 'document', ?)", opts + " fold width")[0][0], "ABC 臺灣",
       "fold width only")
    eq(q(db, "SELECT fenci_tokens('ＡＢＣ臺灣', 'document', ?)", opts + " fold case fold width")[0][0], "abc 臺灣",
       "fold case and width")
    eq(q(db, "SELECT fenci_fold('ＡＢＣ臺灣Straße')")[0][0], "abc台湾straße", "fenci_fold()")
    eq(q(db, "SELECT fenci_fold('ＡＢＣ臺灣', 'case')")[0][0], "ＡＢＣ臺灣", "fenci_fold(x, 'case')")
    eq(q(db, "SELECT fenci_tokens(NULL)")[0][0], None, "NULL in, NULL out")


def test_queries(db, opts):
    db.execute("CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize=%s)" % sqlstr("fenci " + opts))
    rows = [
        (1, "新闻", "他在北京大学生活了一个月。"),
        (2, "体育", "中华人民共和国成立了"),
        (3, "天气", "我们的大學生活很好"),
        (4, "新闻", "北京，大学，生活"),
        (5, "北京", "南京市长江大桥"),
        (6, "ＡＢＣ", "ＡＢＣ公司的IPHONE和电脑"),
        (7, "臺灣", "臺灣的電腦軟件"),
        (8, "体育", "他喜欢北京。今天在南京。"),
        (9, "天气", "二十一世纪的气温－4℃"),
    ]
    db.executemany("INSERT INTO docs(rowid, title, body) VALUES (?, ?, ?)", rows)
    eq(rowids(db, "docs", "大学"), [1, 3, 4], "大学 finds 北京大学 (colocated) and 大學 (folded)")
    eq(rowids(db, "docs", "北京大学"), [1], "北京大学 as a word")
    eq(rowids(db, "docs", '"北京大学"'), [1], "北京大学 as a phrase")
    # the words inside one token share its position: "北京 大学" is no phrase in 北京大学
    eq(rowids(db, "docs", '"北京 大学"'), [4], "the phrase 北京 大学 across punctuation")
    eq(rowids(db, "docs", "北京大学生活"), [1], "a query cut into two words is a phrase across main tokens")
    eq(rowids(db, "docs", '"在 北京大学 生活"'), [1], "a phrase of three main tokens")
    eq(rowids(db, "docs", '"在 北京"'), [1], "a phrase ending on a colocated word at the start of a token")
    eq(rowids(db, "docs", '"大学 生活"'), [1, 3, 4], "a phrase starting on a colocated word at the end of a token")
    eq(rowids(db, "docs", '"生活 大学"'), [], "word order matters")
    eq(rowids(db, "docs", "人民"), [2], "a word in the middle of a long word")
    eq(rowids(db, "docs", "中华人民共和国成立"), [2], "long word then the next word")
    eq(rowids(db, "docs", "北京*"), [1, 4, 5, 8], "prefix 北京*")
    eq(rowids(db, "docs", "北京大*"), [1], "prefix 北京大* (an unfinished word)")
    eq(rowids(db, "docs", "南京*"), [5, 8], "prefix 南京*: 南京市 and 南京")
    eq(rowids(db, "docs", "NEAR(北京 生活, 1)"), [1, 4], "NEAR within 1")
    eq(rowids(db, "docs", "NEAR(他 生活, 1)"), [], "NEAR too far")
    eq(rowids(db, "docs", "NEAR(他 生活, 2)"), [1], "NEAR within 2")
    eq(rowids(db, "docs", "title:新闻"), [1, 4], "column filter")
    eq(rowids(db, "docs", "title:北京"), [5], "column filter on title")
    eq(rowids(db, "docs", "body:北京"), [1, 4, 8], "column filter on body")
    eq(rowids(db, "docs", "{title body}:北京 NOT 生活"), [5, 8], "column set and NOT")
    eq(rowids(db, "docs", "北京 AND 南京"), [5, 8], "AND")
    eq(rowids(db, "docs", "北京 OR 共和国"), [1, 2, 4, 5, 8], "OR")
    eq(rowids(db, "docs", "二十"), [], "二十 does not find 二十一")
    eq(rowids(db, "docs", "二十一"), [9], "二十一")
    eq(rowids(db, "docs", '"-4"'), [9], "-4 finds －4")
    eq(rowids(db, "docs", '"－4"'), [9], "－4 finds －4")
    eq(rowids(db, "docs", "abc"), [6], "abc finds ＡＢＣ")
    eq(rowids(db, "docs", "ＡＢＣ"), [6], "ＡＢＣ finds ＡＢＣ")
    eq(rowids(db, "docs", "ABC公司"), [6], "ABC公司 finds ＡＢＣ公司")
    eq(rowids(db, "docs", "iphone"), [6], "iphone finds IPHONE")
    eq(rowids(db, "docs", "台湾"), [7], "simplified finds traditional")
    eq(rowids(db, "docs", "臺灣"), [7], "traditional finds traditional")
    eq(rowids(db, "docs", "電腦"), [6, 7], "traditional finds simplified")
    eq(rowids(db, "docs", '"，"'), [], "punctuation finds nothing")
    eq(rowids(db, "docs", "他在"), [1], "a cross word (他|在 in the document)")
    eq(rowids(db, "docs", "他在北京大学"), [1], "a cross word at the start of a phrase")
    eq(rowids(db, "docs", '"今天 在 南京"'), [8], "a phrase of one-character tokens is left alone")
    # the vocabulary: no punctuation, no whitespace, folded forms only
    db.execute("CREATE VIRTUAL TABLE docs_v USING fts5vocab(docs, 'row')")
    terms = [r[0] for r in q(db, "SELECT term FROM docs_v")]
    check(terms and all(not any(c in t for c in "，。 、") for t in terms), "no punctuation in %r" % terms)
    check("臺灣" not in terms and "台湾" in terms and "ＡＢＣ" not in terms, "folded vocabulary")
    # highlight() and snippet(), byte for byte
    hl = lambda r, col=1: q(db, "SELECT highlight(docs, ?, '[', ']') FROM docs WHERE docs MATCH ? AND rowid = ?",
                            col, r[1], r[0])[0][0]
    eq(hl((1, "大学")), "他在[北京大学]生活了一个月。", "highlight marks the main token of a colocated match")
    eq(hl((1, "北京大学生活")), "他在[北京大学生活]了一个月。", "highlight of a phrase")
    eq(hl((4, '"北京 大学"')), "[北京，大学]，生活", "highlight of a phrase across punctuation")
    eq(hl((4, "北京 生活")), "[北京]，大学，[生活]", "highlight of two words")
    eq(hl((6, "abc")), "[ＡＢＣ]公司的IPHONE和电脑", "highlight of a folded match: the original bytes")
    eq(hl((6, "abc"), 0), "[ＡＢＣ]", "highlight in the title")
    eq(hl((7, "台湾 电脑")), "[臺灣]的[電腦]軟件", "highlight of traditional text")
    eq(hl((5, "长江大桥")), "南京市[长江大桥]", "highlight of one word")
    eq(hl((8, "北京*")), "他喜欢[北京]。今天在南京。", "highlight of a prefix match")
    eq(hl((1, "他在")), "[他][在]北京大学生活了一个月。", "highlight of a cross word: both of its positions")
    sn = q(db, "SELECT snippet(docs, 1, '<', '>', '…', 3) FROM docs WHERE docs MATCH '南京' AND rowid = 8")[0][0]
    eq(sn, "…今天在<南京>。", "snippet of 3 tokens")
    sn = q(db, "SELECT snippet(docs, 1, '<', '>', '…', 2) FROM docs WHERE docs MATCH '北京大学' AND rowid = 1")[0][0]
    eq(sn, "…<北京大学>生活…", "snippet of 2 tokens")
    # update and delete
    db.execute("UPDATE docs SET body = '研究生命的起源' WHERE rowid = 1")
    eq(rowids(db, "docs", "北京大学"), [], "updated away")
    eq(rowids(db, "docs", "生命"), [1], "updated in")
    db.execute("DELETE FROM docs WHERE rowid = 2")
    eq(rowids(db, "docs", "人民"), [], "deleted")
    db.execute("INSERT INTO docs(docs) VALUES ('integrity-check')")
    db.execute("INSERT INTO docs(docs) VALUES ('rebuild')")
    db.execute("INSERT INTO docs(docs) VALUES ('integrity-check')")
    eq(rowids(db, "docs", "大学"), [3, 4], "after rebuild")
    # a contentless-delete style external content table, tokens from another column set
    db.execute("CREATE TABLE src(id INTEGER PRIMARY KEY, body TEXT)")
    db.execute("CREATE VIRTUAL TABLE ext USING fts5(body, content=src, content_rowid=id, tokenize=%s)"
               % sqlstr("fenci " + opts))
    db.execute("INSERT INTO src VALUES (1, '北京大学的学生'), (2, '南京市')")
    db.execute("INSERT INTO ext(ext) VALUES ('rebuild')")
    eq(rowids(db, "ext", "大学"), [1], "external content table")
    db.execute("INSERT INTO ext(ext) VALUES ('integrity-check')")


def test_invalid(db, opts):
    db.text_factory = bytes
    db.execute("CREATE VIRTUAL TABLE bad USING fts5(body, tokenize=%s)" % sqlstr("fenci " + opts))
    blobs = [b"\xff\xfe\xe5\x8c\x97\xe4\xba\xac\xc0\x80\xed\xa0\x80\xe5\xa4\xa7\xe5\xad\xa6",  # ÿþ北京 bad 大学
             b"\xe5\x8c\x97\xe4\xba\xac\xe5\xa4\xa7\xe5\xad",                              # 北京 + a cut 学
             b"\x01\x02\x03 abc \x7f\xc2\x85 \xe5\x8c\x97\xe4\xba\xac",  # (FTS5's highlight stops at a NUL)
             b"\xf4\x90\x80\x80" * 50 + b"\xe5\x8c\x97\xe4\xba\xac"]
    for i, b in enumerate(blobs):
        db.execute("INSERT INTO bad(rowid, body) VALUES (?, CAST(? AS TEXT))", (i + 1, b))
    rnd = random.Random(20261201)
    for i in range(300):
        b = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 300)))
        db.execute("INSERT INTO bad(rowid, body) VALUES (?, CAST(? AS TEXT))", (100 + i, b))
    db.execute("INSERT INTO bad(bad) VALUES ('integrity-check')")
    eq(rowids(db, "bad", "北京")[:4], [1, 2, 3, 4], "words among invalid bytes are found")
    got = q(db, "SELECT highlight(bad, 0, '[', ']') FROM bad WHERE bad MATCH '北京' AND rowid = 1")[0][0]
    eq(got, b"\xff\xfe[\xe5\x8c\x97\xe4\xba\xac]\xc0\x80\xed\xa0\x80\xe5\xa4\xa7\xe5\xad\xa6",
       "highlight among invalid bytes")
    got = q(db, "SELECT highlight(bad, 0, '[', ']') FROM bad WHERE bad MATCH 'abc' AND rowid = 3")[0][0]
    eq(got, b"\x01\x02\x03 [abc] \x7f\xc2\x85 \xe5\x8c\x97\xe4\xba\xac", "control characters kept, not indexed")
    db.execute("CREATE VIRTUAL TABLE bad_v USING fts5vocab(bad, 'row')")
    terms = [r[0] for r in q(db, "SELECT term FROM bad_v")]
    check(all(b"\x03" not in t and b"\x01" not in t and b"\xff" not in t for t in terms),
          "no control characters or invalid bytes in the vocabulary")
    # a random-bytes query never fails
    for i in range(200):
        b = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 40)))
        try:
            text = b.decode("utf-8", "replace").replace('"', "").replace("\0", "")
            q(db, "SELECT count(*) FROM bad WHERE bad MATCH ?", '"' + text + '"')
        except sqlite3.OperationalError as e:
            check(False, "query %r: %s" % (b, e))
    db.text_factory = str


def test_stopwords(db, opts, tmp):
    path = os.path.join(tmp, "stop.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("# stop words\n的\n了\n\n  THE  \r\n")
    db.execute("CREATE VIRTUAL TABLE st USING fts5(body, tokenize=%s)"
               % sqlstr("fenci %s stopwords '%s'" % (opts, path)))
    db.executemany("INSERT INTO st(rowid, body) VALUES (?, ?)",
                   [(1, "北京的大学生活了"), (2, "the 北京 The end"), (3, "的确")])
    eq(rowids(db, "st", "的"), [], "a stop word is not indexed")
    eq(rowids(db, "st", "the"), [], "stop words are folded")
    eq(rowids(db, "st", "北京的大学"), [1], "a query without its stop words is a phrase that still matches")
    eq(rowids(db, "st", "北京 end"), [2], "other words")
    eq(rowids(db, "st", "的*"), [3], "a prefix is never a stop word")
    eq(q(db, "SELECT fenci_tokens('北京的大学', 'document', ?)", "%s stopwords '%s'" % (opts, path))[0][0],
       "北京 大学", "fenci_tokens with stop words")


def test_errors(ext, opts):
    db = connect(ext)
    bad = [
        ("fenci model nope", "model 'nope' not found"),
        ("fenci model '/nonexistent/x.fenci'", "/nonexistent/x.fenci"),
        ("fenci colour red", "unknown option 'colour'"),
        ("fenci mode", "option 'mode' needs a value"),
        ("fenci mode fastest", "option mode wants search, default or all"),
        ("fenci fold upper", "option fold wants"),
        ("fenci fast maybe", "option fast wants 0 or 1"),
        ("fenci %s stopwords '/nonexistent/stop.txt'" % opts, "stop words /nonexistent/stop.txt"),
        ("fenci model '/etc/hostname'", "cannot open model /etc/hostname"),
    ]
    for i, (tok, msg) in enumerate(bad):
        try:
            db.execute("CREATE VIRTUAL TABLE e%d USING fts5(body, tokenize=%s)" % (i, sqlstr(tok)))
            check(False, "%s: no error" % tok)
        except sqlite3.OperationalError as e:
            check("tokenizer constructor" in str(e) or "parse error" in str(e), "%s: %s" % (tok, e))
            err = q(db, "SELECT fenci_error()")[0][0] or ""
            check(msg in err, "%s: fenci_error() says %r" % (tok, err))
        try:
            q(db, "SELECT fenci_tokens('x', 'query', ?)", tok)
            check(False, "fenci_tokens %s: no error" % tok)
        except sqlite3.OperationalError as e:
            check(msg in str(e), "fenci_tokens %s: %s" % (tok, e))
    try:
        q(db, "SELECT fenci_tokens('x', 'sideways')")
        check(False, "bad how: no error")
    except sqlite3.OperationalError as e:
        check("document, query, prefix or aux" in str(e), str(e))
    # a good table still works after all that
    db.execute("CREATE VIRTUAL TABLE ok USING fts5(body, tokenize=%s)" % sqlstr("fenci " + opts))
    db.execute("INSERT INTO ok VALUES ('北京大学')")
    eq(rowids(db, "ok", "大学"), [1], "a good table after bad ones")
    db.close()


NUMERALS = set("〇零一二三四五六七八九十百千万亿两第")


def sub_words(word, lexicon):
    """The lexicon words of two or more characters inside word, itself and
    numbers in a number (二十 in 二十一) excluded."""
    out = set()
    for i in range(len(word)):
        for j in range(i + 2, len(word) + 1):
            if (i, j) != (0, len(word)) and word[i:j] in lexicon and not set(word[i:j]) <= NUMERALS:
                out.add(word[i:j])
    return out


def test_many(db, opts, lexicon_path):
    """10,000 documents of random lexicon words between commas: every word
    is one main token (the commas cut the text), so the expected hits of a
    word are the documents holding it or a word it is inside."""
    words, lex = [], set()
    with open(lexicon_path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                w, freq = line.split()[:2]
                lex.add(w)
                if int(freq) >= 10:  # the rare words are there to be cut (他在 -> 他|在)
                    words.append(w)
    rnd = random.Random(10000)
    db.execute("CREATE VIRTUAL TABLE many USING fts5(body, tokenize=%s)" % sqlstr("fenci " + opts))
    docs = []
    for i in range(10000):
        docs.append([rnd.choice(words) for _ in range(rnd.randrange(1, 12))])
    with db:
        db.executemany("INSERT INTO many(rowid, body) VALUES (?, ?)",
                       ((i + 1, "，".join(d) + "。") for i, d in enumerate(docs)))
    eq(q(db, "SELECT count(*) FROM many")[0][0], 10000, "10,000 documents")
    has = {}
    for i, d in enumerate(docs):
        for w in d:
            for t in {w} | sub_words(w, lex):
                has.setdefault(t, set()).add(i + 1)
    bad = 0
    for w in words:
        got = set(rowids(db, "many", '"%s"' % w))
        if got != has.get(w, set()):
            bad += 1
            if bad < 4:
                print("word %s: %d found, %d expected" % (w, len(got), len(has.get(w, set()))), file=sys.stderr)
    eq(bad, 0, "every word of the lexicon finds exactly the documents holding it")
    # two-word phrases: "A B" for neighbours in the documents
    pairs = 0
    for i in range(0, 10000, 97):
        d = docs[i]
        if len(d) >= 2 and d[0] != d[1]:
            got = set(rowids(db, "many", '"%s %s"' % (d[0], d[1])))
            check(i + 1 in got, "phrase %s %s finds document %d" % (d[0], d[1], i + 1))
            pairs += 1
    check(pairs > 50, "phrases checked: %d" % pairs)
    db.execute("INSERT INTO many(many) VALUES ('integrity-check')")


def test_default_model(ext, model):
    """A few checks with a shipped trained model on ordinary text."""
    db = connect(ext)
    opts = "fenci model %s" % sqlstr(model)
    db.execute("CREATE VIRTUAL TABLE news USING fts5(body, tokenize=%s)" % sqlstr(opts))
    text = ["拿破仑在枫丹白露签署了退位诏书。", "中华人民共和国成立于1949年。", "我爱北京天安门，天安门上太阳升。",
            "今天的天氣很好，我們去臺北旅行。", "ＡＢＣ公司发布了新款IPhone手机。"]
    db.executemany("INSERT INTO news(rowid, body) VALUES (?, ?)", enumerate(text, 1))
    eq(rowids(db, "news", "枫丹白露"), [1], "a place name")
    eq(rowids(db, "news", "退位诏书"), [1], "a phrase of two words")
    eq(rowids(db, "news", "天安门"), [3], "天安门")
    eq(rowids(db, "news", "天气"), [4], "天气 finds 天氣")
    eq(rowids(db, "news", "台北"), [4], "台北 finds 臺北")
    eq(rowids(db, "news", "iphone"), [5], "iphone finds IPhone")
    eq(rowids(db, "news", "abc公司"), [5], "abc公司 finds ＡＢＣ公司")
    eq(rowids(db, "news", "1949"), [2], "a number")
    db.execute("INSERT INTO news(news) VALUES ('integrity-check')")
    # a word and a suffix (ft_doc_bounds): the stem only where the lexicon
    # decoder cuts there too; a word inside that leaves two characters always
    t = lambda text, o: q(db, "SELECT fenci_tokens(?, 'document', ?)", text, o)[0][0].split(" ")
    eq([g for g in t("昨晚举行了新年招待会。", opts) if g.startswith("招待会")], ["招待会|待会"],
       "招待会: no 招待 (the lexicon decoder keeps 招待会 whole)")
    eq([g for g in t("昨晚举行了新年招待会。", opts + " fast 1") if g.startswith("招待会")], ["招待会|招待|待会"],
       "... which the lexicon decoder alone indexes as before (no second opinion)")
    check("社会" in t("中国社会主义建设", opts)[1].split("|"), "社会主义 still holds 社会 (two characters left)")
    db.execute("CREATE VIRTUAL TABLE news2 USING fts5(body, tokenize=%s)" % sqlstr(opts))
    db.execute("INSERT INTO news2(rowid, body) VALUES (1, '新年招待会'), (2, '热情招待客人')")
    eq(rowids(db, "news2", "招待"), [2], "招待 finds 招待, not 招待会")
    eq(q(db, "SELECT highlight(news2, 0, '[', ']') FROM news2 WHERE news2 MATCH '招待会'"), [("新年[招待会]",)],
       "highlight() offsets with the second pass")
    db.execute("INSERT INTO news2(news2) VALUES ('integrity-check')")
    db.close()


def main():
    ext, model = sys.argv[1], sys.argv[2]
    default_model = sys.argv[3] if len(sys.argv) > 3 else None
    lexicon = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lexicon.txt")
    opts = "model %s" % sqlstr(os.path.abspath(model))
    db = connect(ext)
    eq(len(q(db, "SELECT fenci_version()")[0][0].split(".")), 3, "fenci_version()")
    test_tokens(db, opts)
    test_queries(db, opts)
    test_invalid(db, opts)
    with tempfile.TemporaryDirectory() as tmp:
        test_stopwords(db, opts, tmp)
    test_many(db, opts, lexicon)
    db.close()
    test_errors(ext, opts)
    if default_model:
        test_default_model(ext, default_model)
    print("test_fts5.py: %d checks, %d failed" % (RUN, FAILED), file=sys.stderr)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()

/* test_fts5.c - the fenci FTS5 extension from C, against the system SQLite
 * (-lsqlite3), loaded with sqlite3_load_extension as any program would:
 * queries of every kind, updates and deletes, highlight() and snippet()
 * byte for byte, option errors, the tokenizer itself through fts5_api
 * (arbitrary bytes and flags, offsets checked), random-byte documents, one
 * model mapped once for many connections, and threads that each have their
 * own connections and tables over the shared model.
 *
 * usage: test_fts5 EXTENSION TEST_MODEL [SEED]
 * TEST_MODEL is tests/sqlite/lexicon.txt compiled (its segmentation is
 * known); SEED fixes the random tests (printed either way). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int tc_run, tc_fail;
static pthread_mutex_t tc_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    pthread_mutex_lock(&tc_lock);                                          \
    tc_run++;                                                              \
    if (!(cond)) {                                                         \
      tc_fail++;                                                           \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                 \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
    pthread_mutex_unlock(&tc_lock);                                        \
  } while (0)

static const char *tc_ext, *tc_model;
static char tc_opts[4200]; /* "fenci model '...'" */

static sqlite3 *tc_open(void) {
  sqlite3 *db = NULL;
  char *err = NULL;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    fprintf(stderr, "sqlite3_open failed\n");
    exit(1);
  }
  sqlite3_enable_load_extension(db, 1);
  if (sqlite3_load_extension(db, tc_ext, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "cannot load %s: %s\n", tc_ext, err ? err : "?");
    exit(1);
  }
  sqlite3_enable_load_extension(db, 0);
  return db;
}

static int tc_exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
  if (rc != SQLITE_OK) CHECK(0, "%s: %s", sql, err ? err : "?");
  sqlite3_free(err);
  return rc;
}

/* The first column of every row of sql (one ? bound to arg when not NULL),
 * joined with ','; NULL columns as "NULL".  Returns a static buffer of this
 * thread... so callers copy it when they need two. */
static char *tc_rows(sqlite3 *db, const char *sql, const char *arg, char *out, size_t cap) {
  sqlite3_stmt *st = NULL;
  size_t n = 0;
  int rc;
  out[0] = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    snprintf(out, cap, "ERROR %s", sqlite3_errmsg(db));
    return out;
  }
  if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *v = (const char *)sqlite3_column_text(st, 0);
    int len = sqlite3_column_bytes(st, 0);
    if (!v) {
      v = "NULL";
      len = 4;
    }
    if (n && n + 1 < cap) out[n++] = ',';
    if (n + (size_t)len + 1 < cap) {
      memcpy(out + n, v, (size_t)len);
      n += (size_t)len;
    }
    out[n] = 0;
  }
  if (rc != SQLITE_DONE) snprintf(out, cap, "ERROR %s", sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return out;
}

static void tc_expect(sqlite3 *db, const char *sql, const char *arg, const char *want) {
  char got[4096];
  tc_rows(db, sql, arg, got, sizeof got);
  CHECK(strcmp(got, want) == 0, "%s [%s]: got \"%s\", want \"%s\"", sql, arg ? arg : "", got, want);
}

static void tc_match(sqlite3 *db, const char *query, const char *want) {
  tc_expect(db, "SELECT rowid FROM docs WHERE docs MATCH ?1 ORDER BY rowid", query, want);
}

static void tc_queries(void) {
  sqlite3 *db = tc_open();
  char sql[4400];
  snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize=\"%s\")", tc_opts);
  tc_exec(db, sql);
  tc_exec(db, "INSERT INTO docs(rowid, title, body) VALUES"
              "(1, '新闻', '他在北京大学生活了一个月。'),"
              "(2, '体育', '中华人民共和国成立了'),"
              "(3, '天气', '我们的大學生活很好'),"
              "(4, '新闻', '北京，大学，生活'),"
              "(5, '北京', '南京市长江大桥'),"
              "(6, 'ＡＢＣ', 'ＡＢＣ公司的IPHONE和电脑'),"
              "(7, '臺灣', '臺灣的電腦軟件')");
  tc_match(db, "大学", "1,3,4");
  tc_match(db, "北京大学", "1");
  tc_match(db, "\"北京大学\"", "1");
  tc_match(db, "北京大学生活", "1");
  tc_match(db, "\"大学 生活\"", "1,3,4");
  tc_match(db, "\"在 北京\"", "1");
  tc_match(db, "人民共和国", "2");
  tc_match(db, "共和", "2");
  tc_match(db, "北京*", "1,4,5");
  tc_match(db, "北京大*", "1");
  tc_match(db, "NEAR(北京 生活, 1)", "1,4");
  tc_match(db, "NEAR(他 生活, 1)", "");
  tc_match(db, "title:新闻", "1,4");
  tc_match(db, "title:北京", "5");
  tc_match(db, "- title : 北京", "1,4");
  tc_match(db, "{body}:北京 NOT 生活", "");
  tc_match(db, "abc", "6");
  tc_match(db, "ABC", "6");
  tc_match(db, "iphone", "6");
  tc_match(db, "台湾", "7");
  tc_match(db, "電腦", "6,7");
  tc_match(db, "\"。\"", "");
  tc_expect(db, "SELECT highlight(docs, 1, '[', ']') FROM docs WHERE docs MATCH ?1 ORDER BY rowid", "大学",
            "他在[北京大学]生活了一个月。,我们的[大學]生活很好,北京，[大学]，生活");
  tc_expect(db, "SELECT highlight(docs, 1, '<b>', '</b>') FROM docs WHERE docs MATCH ?1", "电脑 ABC",
            "<b>ＡＢＣ</b>公司的IPHONE和<b>电脑</b>");
  tc_expect(db, "SELECT snippet(docs, 1, '[', ']', '...', 3) FROM docs WHERE docs MATCH ?1", "长江大桥",
            "南京市[长江大桥]");
  tc_expect(db, "SELECT snippet(docs, -1, '[', ']', '...', 2) FROM docs WHERE docs MATCH ?1", "軟件",
            "...電腦[軟件]");
  /* highlight offsets are byte offsets of the original: check them with substr on a BLOB */
  tc_expect(db, "SELECT hex(CAST(highlight(docs, 1, '', '|') AS BLOB)) FROM docs WHERE docs MATCH ?1", "臺灣 軟件",
            "E887BAE781A37CE79A84E99BBBE885A6E8BB9FE4BBB67C");
  tc_exec(db, "UPDATE docs SET body = '研究生命的起源' WHERE rowid = 1");
  tc_match(db, "北京大学", "");
  tc_match(db, "起源", "1");
  tc_exec(db, "DELETE FROM docs WHERE rowid IN (2, 3)");
  tc_match(db, "大学", "4");
  tc_match(db, "人民", "");
  tc_exec(db, "INSERT INTO docs(docs) VALUES ('integrity-check')");
  tc_exec(db, "INSERT INTO docs(docs) VALUES ('optimize')");
  tc_exec(db, "INSERT INTO docs(docs) VALUES ('integrity-check')");
  sqlite3_close(db);
}

/* Bad options fail the CREATE with an error (never a crash); fenci_error()
 * says why. */
static void tc_errors(void) {
  static const char *const bad[][2] = {
      {"fenci model nope", "model 'nope' not found"},
      {"fenci model ''/nonexistent/x.fenci''", "/nonexistent/x.fenci"},
      {"fenci colour red", "unknown option 'colour'"},
      {"fenci mode", "needs a value"},
      {"fenci mode sideways", "option mode wants"},
      {"fenci fold upper", "option fold wants"},
      {"fenci parts 2", "option parts wants 0 or 1"},
      {"fenci model ''/dev/null''", "cannot open model /dev/null"},
  };
  sqlite3 *db = tc_open();
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char sql[256], got[1024];
    int rc;
    snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE e%zu USING fts5(body, tokenize='%s')", i, bad[i][0]);
    rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    CHECK(rc == SQLITE_ERROR, "%s: rc %d (%s)", sql, rc, sqlite3_errmsg(db));
    tc_rows(db, "SELECT fenci_error()", NULL, got, sizeof got);
    CHECK(strstr(got, bad[i][1]) != NULL, "%s: fenci_error() says \"%s\"", sql, got);
  }
  sqlite3_close(db);
}

/* The tokenizer through fts5_api, as FTS5 calls it. */
typedef struct tc_tokens {
  const char *text;
  int len;
  int n, colocated, last_end, last_start, bad;
  char why[200];
} tc_tokens;

static int tc_valid_utf8(const unsigned char *s, int n) {
  int i = 0;
  while (i < n) {
    unsigned c = s[i];
    int k = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    int j;
    if (!k || i + k > n) return 0;
    for (j = 1; j < k; j++)
      if ((s[i + j] & 0xC0) != 0x80) return 0;
    if (k == 3 && ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] >= 0xA0))) return 0;
    if (k == 4 && ((c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] >= 0x90))) return 0;
    i += k;
  }
  return 1;
}

static int tc_on_token(void *ctx, int tflags, const char *tok, int ntok, int start, int end) {
  tc_tokens *c = ctx;
  const char *why = NULL;
  if (start < 0 || end > c->len || start >= end) why = "offsets outside the text";
  else if (ntok <= 0 || !tok) why = "empty token";
  else if ((tflags & FTS5_TOKEN_COLOCATED) && c->n == 0) why = "the first token is colocated";
  else if ((tflags & FTS5_TOKEN_COLOCATED) && (start >= c->last_end || end <= c->last_start))
    why = "a colocated token apart from the token it shares a position with";
  else if (!(tflags & FTS5_TOKEN_COLOCATED) && start < c->last_end) why = "main tokens overlap or go backwards";
  else if (!tc_valid_utf8((const unsigned char *)c->text + start, end - start))
    why = "the token's bytes are not whole UTF-8 characters"; /* invalid bytes are never indexed */
  if (why && !c->bad++) snprintf(c->why, sizeof c->why, "token %d-%d: %s", start, end, why);
  if (!(tflags & FTS5_TOKEN_COLOCATED)) {
    c->last_start = start;
    c->last_end = end;
  } else {
    c->colocated++;
  }
  c->n++;
  return SQLITE_OK;
}

static int tc_stop_at_3(void *ctx, int tflags, const char *tok, int ntok, int start, int end) {
  int *n = ctx;
  (void)tflags, (void)tok, (void)ntok, (void)start, (void)end;
  return ++*n == 3 ? SQLITE_ABORT : SQLITE_OK;
}

static fts5_api *tc_fts5(sqlite3 *db) {
  fts5_api *api = NULL;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) == SQLITE_OK) {
    sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(st);
  }
  sqlite3_finalize(st);
  return api;
}

static void tc_tokenizer(unsigned seed) {
  sqlite3 *db = tc_open();
  fts5_api *api = tc_fts5(db);
  fts5_tokenizer tk;
  void *ud = NULL;
  Fts5Tokenizer *inst = NULL;
  const char *args[] = {"model", tc_model};
  static const int flags[] = {FTS5_TOKENIZE_DOCUMENT, FTS5_TOKENIZE_QUERY,
                              FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_PREFIX, FTS5_TOKENIZE_AUX};
  static const char *const pieces[] = {"北京大学", "中华人民共和国", "，", "。", " ", "\t\r\n", "abc", "ＡＢＣ",
                                       "e-mail", "https://x.cn/a?b", "a@b.cn", "1949年", "臺灣", "\xff",
                                       "\xe5\x8c", "\xc0\x80", "\xed\xa0\x80", "\x01", "\xc2\x85", "的",
                                       "\xf0\x9f\x98\x80", "——", "１２３", "生活"};
  char text[4096];
  int round, stopped = 0, rc;
  CHECK(api != NULL, "no fts5_api");
  if (!api) {
    sqlite3_close(db);
    return;
  }
  rc = api->xFindTokenizer(api, "fenci", &ud, &tk);
  CHECK(rc == SQLITE_OK, "xFindTokenizer: %d", rc);
  if (rc != SQLITE_OK) {
    sqlite3_close(db);
    return;
  }
  rc = tk.xCreate(ud, args, 2, &inst);
  CHECK(rc == SQLITE_OK && inst, "xCreate: %d", rc);
  if (rc != SQLITE_OK) {
    sqlite3_close(db);
    return;
  }
  srand(seed);
  for (round = 0; round < 20000; round++) {
    tc_tokens c;
    int len = 0, f = flags[round % 4];
    while (len < (int)sizeof text - 64 && rand() % 24) {
      if (rand() % 3 == 0) {
        text[len++] = (char)(rand() & 0xFF);
      } else {
        const char *p = pieces[(size_t)rand() % (sizeof pieces / sizeof pieces[0])];
        size_t l = strlen(p);
        memcpy(text + len, p, l);
        len += (int)l;
      }
    }
    memset(&c, 0, sizeof c);
    c.text = text;
    c.len = len;
    c.last_start = 0;
    c.last_end = 0;
    rc = tk.xTokenize(inst, &c, f, text, len, tc_on_token);
    if (rc != SQLITE_OK || c.bad) {
      CHECK(0, "round %d (flags %d, %d bytes): rc %d, %s", round, f, len, rc, c.why);
      break;
    }
    if ((f & FTS5_TOKENIZE_QUERY) && c.colocated) CHECK(0, "round %d: a query got colocated tokens", round);
  }
  /* an xToken error stops the tokenizer and comes back */
  rc = tk.xTokenize(inst, &stopped, FTS5_TOKENIZE_DOCUMENT, "北京大学的学生在南京市生活", 39, tc_stop_at_3);
  CHECK(rc == SQLITE_ABORT && stopped == 3, "xToken's error: rc %d after %d tokens", rc, stopped);
  tk.xDelete(inst);
  sqlite3_close(db);
}

/* Documents of random bytes: indexed, updated, deleted, checked. */
static void tc_random_docs(unsigned seed) {
  sqlite3 *db = tc_open();
  sqlite3_stmt *st = NULL;
  char sql[4400], buf[2048];
  int i;
  snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize=\"%s\")", tc_opts);
  tc_exec(db, sql);
  srand(seed + 1);
  sqlite3_prepare_v2(db, "INSERT INTO docs(rowid, body) VALUES (?1, ?2)", -1, &st, NULL);
  tc_exec(db, "BEGIN");
  for (i = 1; i <= 2000; i++) {
    int len = rand() % (int)sizeof buf, j;
    for (j = 0; j < len; j++) buf[j] = (char)(rand() % 5 ? rand() & 0xFF : "\xe5\x8c\x97\xe4\xba\xac"[j % 6]);
    sqlite3_bind_int(st, 1, i);
    sqlite3_bind_text(st, 2, buf, len, SQLITE_TRANSIENT); /* not UTF-8: FTS5 takes the bytes as they are */
    if (sqlite3_step(st) != SQLITE_DONE) CHECK(0, "insert %d: %s", i, sqlite3_errmsg(db));
    sqlite3_reset(st);
  }
  tc_exec(db, "COMMIT");
  sqlite3_finalize(st);
  tc_exec(db, "INSERT INTO docs(docs) VALUES ('integrity-check')");
  tc_exec(db, "DELETE FROM docs WHERE rowid % 3 = 0");
  tc_exec(db, "UPDATE docs SET body = body || '北京大学' WHERE rowid % 3 = 1");
  tc_exec(db, "INSERT INTO docs(docs) VALUES ('integrity-check')");
  tc_rows(db, "SELECT count(*) FROM docs WHERE docs MATCH '北京大学'", NULL, buf, sizeof buf);
  CHECK(atoi(buf) >= 667, "documents with 北京大学 appended: %s", buf);
  /* highlight() tokenizes the stored bytes again (FTS5_TOKENIZE_AUX) */
  tc_rows(db, "SELECT count(*) FROM (SELECT highlight(docs, 0, '[', ']') h FROM docs WHERE docs MATCH '北京') "
          "WHERE h LIKE '%[%]%'", NULL, buf, sizeof buf);
  CHECK(atoi(buf) >= 667, "highlighted documents: %s", buf);
  sqlite3_close(db);
}

/* The mappings of path in /proc/self/maps (0 where there is none). */
static int tc_mappings(const char *path) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[8192], real[4096];
  int n = 0;
  if (!f) return -1;
  if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
  while (fgets(line, sizeof line, f))
    if (strstr(line, real)) n++;
  fclose(f);
  return n;
}

/* Ten connections with a table each map the model once. */
static void tc_shared(void) {
  sqlite3 *db[10];
  char sql[4400], got[64];
  int i, one = -1;
  snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize=\"%s\")", tc_opts);
  CHECK(tc_mappings(tc_model) == 0, "the model is mapped before any table");
  for (i = 0; i < 10; i++) {
    db[i] = tc_open();
    tc_exec(db[i], sql);
    tc_exec(db[i], "INSERT INTO docs VALUES ('北京大学')");
    tc_rows(db[i], "SELECT count(*) FROM docs WHERE docs MATCH '大学'", NULL, got, sizeof got);
    CHECK(strcmp(got, "1") == 0, "connection %d: %s", i, got);
    if (i == 0) one = tc_mappings(tc_model);
  }
  CHECK(one > 0 && tc_mappings(tc_model) == one, "mappings of the model: %d with one connection, %d with ten", one,
        tc_mappings(tc_model));
  for (i = 0; i < 10; i++) sqlite3_close(db[i]);
  CHECK(tc_mappings(tc_model) == 0, "the model is unmapped when the last table goes: %d", tc_mappings(tc_model));
}

/* Threads: each with its own connections and tables, all on one model. */
static void *tc_thread(void *arg) {
  int id = (int)(intptr_t)arg, round;
  static const char *const words[] = {"北京大学", "南京市", "长江大桥", "中华人民共和国", "研究生", "电脑", "软件"};
  for (round = 0; round < 6; round++) {
    sqlite3 *db = tc_open();
    sqlite3_stmt *st = NULL;
    char sql[4400], got[64], want[64];
    int i, count[7] = {0};
    snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize=\"%s\")", tc_opts);
    tc_exec(db, sql);
    sqlite3_prepare_v2(db, "INSERT INTO docs(body) VALUES (?1)", -1, &st, NULL);
    tc_exec(db, "BEGIN");
    for (i = 0; i < 300; i++) {
      int w = (i * 7 + id + round) % 7;
      char doc[128];
      count[w]++;
      snprintf(doc, sizeof doc, "我们在%s，今天%d。", words[w], i);
      sqlite3_bind_text(st, 1, doc, -1, SQLITE_TRANSIENT);
      sqlite3_step(st);
      sqlite3_reset(st);
    }
    tc_exec(db, "COMMIT");
    sqlite3_finalize(st);
    for (i = 0; i < 7; i++) {
      tc_rows(db, "SELECT count(*) FROM docs WHERE docs MATCH ?1", words[i], got, sizeof got);
      snprintf(want, sizeof want, "%d", count[i]);
      CHECK(strcmp(got, want) == 0, "thread %d: %s: %s, want %s", id, words[i], got, want);
    }
    tc_rows(db, "SELECT count(*) FROM docs WHERE docs MATCH '大学'", NULL, got, sizeof got);
    snprintf(want, sizeof want, "%d", count[0]);
    CHECK(strcmp(got, want) == 0, "thread %d: 大学: %s, want %s", id, got, want);
    sqlite3_close(db);
  }
  return NULL;
}

static void tc_threads(void) {
  pthread_t th[4];
  int i;
  for (i = 0; i < 4; i++) pthread_create(&th[i], NULL, tc_thread, (void *)(intptr_t)i);
  for (i = 0; i < 4; i++) pthread_join(th[i], NULL);
}

int main(int argc, char **argv) {
  unsigned seed;
  if (argc < 3) {
    fprintf(stderr, "usage: test_fts5 EXTENSION TEST_MODEL [SEED]\n");
    return 2;
  }
  tc_ext = argv[1];
  tc_model = argv[2];
  seed = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : (unsigned)time(NULL);
  fprintf(stderr, "test_fts5: SQLite %s, seed %u\n", sqlite3_libversion(), seed);
  snprintf(tc_opts, sizeof tc_opts, "fenci model '%s'", tc_model);
  tc_queries();
  tc_errors();
  tc_tokenizer(seed);
  tc_random_docs(seed);
  tc_shared();
  tc_threads();
  fprintf(stderr, "test_fts5: %d checks, %d failed\n", tc_run, tc_fail);
  return tc_fail ? 1 : 0;
}

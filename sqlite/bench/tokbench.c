/* tokbench.c - measurements of the fenci FTS5 extension that want C
 * (sqlite/bench/bench.py runs them):
 *
 *   tokbench EXT load TOKENIZE
 *       in this fresh process: sqlite3_open + sqlite3_load_extension, then
 *       CREATE VIRTUAL TABLE (FTS5 makes the tokenizer: the model is opened
 *       and mapped, a tagger made), then the first INSERT and MATCH; prints
 *       "load_ms create_ms first_ms" (wall time, ms)
 *   tokbench EXT memory N TOKENIZE
 *       one connection with a table (loaded, a document inserted, a MATCH
 *       run), then N more; prints "rss1_kib rssN_kib heap1 heapN": VmRSS
 *       and sqlite3_memory_used() after the first and after all of them
 *   tokbench EXT tokenize FILE TOKENIZE_ARGS...
 *       the tokenizer alone, through fts5_api (xFindTokenizer, xCreate),
 *       on every line of FILE as a document, a callback counting tokens;
 *       prints "bytes tokens colocated wall_s cpu_s"
 * TOKENIZE is a tokenize= value ('fenci', 'fenci model pku', 'unicode61'). */
#define _XOPEN_SOURCE 700
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double tb_now(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static sqlite3 *tb_open(const char *ext) {
  sqlite3 *db = NULL;
  char *err = NULL;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) exit(1);
  sqlite3_enable_load_extension(db, 1);
  if (sqlite3_load_extension(db, ext, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "tokbench: cannot load %s: %s\n", ext, err ? err : "?");
    exit(1);
  }
  return db;
}

static void tb_exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
    fprintf(stderr, "tokbench: %s: %s\n", sql, err ? err : "?");
    exit(1);
  }
}

static void tb_table(sqlite3 *db, const char *tokenize) {
  char sql[1024];
  snprintf(sql, sizeof sql, "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize=\"%s\")", tokenize);
  tb_exec(db, sql);
}

static void tb_use(sqlite3 *db) {
  tb_exec(db, "INSERT INTO docs VALUES ('共同创造美好的新世纪——二○○一年新年贺词。北京大学的学生在图书馆学习。')");
  tb_exec(db, "SELECT count(*) FROM docs WHERE docs MATCH '大学 OR 新年贺词'");
}

static long tb_rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) kib = strtol(line + 6, NULL, 10);
  fclose(f);
  return kib;
}

typedef struct tb_count {
  long tokens, colocated;
} tb_count;

static int tb_on_token(void *ctx, int tflags, const char *tok, int ntok, int start, int end) {
  tb_count *c = ctx;
  (void)tok, (void)ntok, (void)start, (void)end;
  c->tokens++;
  if (tflags & FTS5_TOKEN_COLOCATED) c->colocated++;
  return SQLITE_OK;
}

static int tb_tokenize(const char *ext, const char *path, int nargs, char **args) {
  sqlite3 *db = tb_open(ext);
  sqlite3_stmt *st = NULL;
  fts5_api *api = NULL;
  fts5_tokenizer tk;
  Fts5Tokenizer *inst = NULL;
  void *ud = NULL;
  FILE *f = fopen(path, "rb");
  char *data, *p, *end;
  long size;
  tb_count c = {0, 0};
  double w0, c0, w1, c1;
  if (!f) return 1;
  fseek(f, 0, SEEK_END);
  size = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc((size_t)size + 1);
  if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) return 1;
  fclose(f);
  sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL);
  sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
  sqlite3_step(st);
  sqlite3_finalize(st);
  if (!api || api->xFindTokenizer(api, args[0], &ud, &tk) != SQLITE_OK ||
      tk.xCreate(ud, (const char **)args + 1, nargs - 1, &inst) != SQLITE_OK) {
    fprintf(stderr, "tokbench: no tokenizer %s\n", args[0]);
    return 1;
  }
  w0 = tb_now(CLOCK_MONOTONIC);
  c0 = tb_now(CLOCK_PROCESS_CPUTIME_ID);
  for (p = data, end = data + size; p < end;) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *e = nl ? nl : end;
    if (tk.xTokenize(inst, &c, FTS5_TOKENIZE_DOCUMENT, p, (int)(e - p), tb_on_token) != SQLITE_OK) return 1;
    p = e + 1;
  }
  w1 = tb_now(CLOCK_MONOTONIC);
  c1 = tb_now(CLOCK_PROCESS_CPUTIME_ID);
  printf("%ld %ld %ld %.4f %.4f\n", size, c.tokens, c.colocated, w1 - w0, c1 - c0);
  tk.xDelete(inst);
  sqlite3_close(db);
  free(data);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 4 && !strcmp(argv[2], "load")) {
    double t0 = tb_now(CLOCK_MONOTONIC), t1, t2, t3;
    sqlite3 *db = tb_open(argv[1]);
    t1 = tb_now(CLOCK_MONOTONIC);
    tb_table(db, argv[3]);
    t2 = tb_now(CLOCK_MONOTONIC);
    tb_use(db);
    t3 = tb_now(CLOCK_MONOTONIC);
    printf("%.3f %.3f %.3f\n", 1000 * (t1 - t0), 1000 * (t2 - t1), 1000 * (t3 - t2));
    sqlite3_close(db);
    return 0;
  }
  if (argc >= 5 && !strcmp(argv[2], "memory")) {
    int n = atoi(argv[3]), i;
    sqlite3 **dbs = calloc((size_t)n + 1, sizeof *dbs);
    long rss1 = 0, rssn;
    sqlite3_int64 heap1 = 0, heapn;
    for (i = 0; i <= n; i++) {
      dbs[i] = tb_open(argv[1]);
      tb_table(dbs[i], argv[4]);
      tb_use(dbs[i]);
      if (i == 0) {
        rss1 = tb_rss_kib();
        heap1 = sqlite3_memory_used();
      }
    }
    rssn = tb_rss_kib();
    heapn = sqlite3_memory_used();
    printf("%ld %ld %lld %lld\n", rss1, rssn, (long long)heap1, (long long)heapn);
    for (i = 0; i <= n; i++) sqlite3_close(dbs[i]);
    free(dbs);
    return 0;
  }
  if (argc >= 5 && !strcmp(argv[2], "tokenize")) return tb_tokenize(argv[1], argv[3], argc - 4, argv + 4);
  fprintf(stderr, "usage: tokbench EXT load TOKENIZE | memory N TOKENIZE | tokenize FILE NAME [ARGS...]\n");
  return 2;
}

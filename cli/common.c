/* common.c - model lookup and file reading for the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"

#ifndef FENCI_DATADIR
#define FENCI_DATADIR "/usr/local/share/fenci"
#endif

static int fc_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int fc_cli_model_path(const char *name, char *out, size_t n) {
  char exe[4096], dir[4096];
  const char *env;
  size_t l;
  ssize_t k;
  if (!name) name = FENCI_DEFAULT_MODEL;
  l = strlen(name);
  if (strchr(name, '/') || (l > 6 && !strcmp(name + l - 6, ".fenci"))) {
    snprintf(out, n, "%s", name);
    return fc_exists(out) ? 0 : -1;
  }
  env = getenv("FENCI_MODEL_DIR");
  if (env && *env) {
    snprintf(out, n, "%s/%s.fenci", env, name);
    if (fc_exists(out)) return 0;
  }
  k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k > 0) {
    char *slash;
    exe[k] = 0;
    slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      snprintf(dir, sizeof dir, "%s", exe);
      snprintf(out, n, "%s/models/%s.fenci", dir, name);
      if (fc_exists(out)) return 0;
      snprintf(out, n, "%s/../share/fenci/%s.fenci", dir, name);
      if (fc_exists(out)) return 0;
    }
  }
  snprintf(out, n, "%s/%s.fenci", FENCI_DATADIR, name);
  if (fc_exists(out)) return 0;
  snprintf(out, n, "%s.fenci (searched $FENCI_MODEL_DIR, models/ next to the fenci binary, %s)", name, FENCI_DATADIR);
  return -1;
}

fenci_model *fc_cli_open_model(const char *name) {
  char path[4400], err[512];
  fenci_model *m = NULL;
  fenci_rc rc;
  if (fc_cli_model_path(name, path, sizeof path)) {
    fprintf(stderr, "fenci: model not found: %s\n", path);
    return NULL;
  }
  rc = fenci_model_open(&m, path, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci: cannot open model: %s\n", err[0] ? err : fenci_rc_str(rc));
    return NULL;
  }
  return m;
}

char *fc_cli_read_file(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (!f) {
    fprintf(stderr, "fenci: cannot open %s: %s\n", path, strerror(errno));
    return NULL;
  }
  for (;;) {
    size_t r;
    if (cap - n < 65536) {
      size_t nc = cap ? cap * 2 : 1 << 20;
      char *nb = realloc(buf, nc + 1);
      if (!nb) {
        fprintf(stderr, "fenci: out of memory reading %s\n", path);
        free(buf);
        if (f != stdin) fclose(f);
        return NULL;
      }
      buf = nb;
      cap = nc;
    }
    r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  if (ferror(f)) {
    fprintf(stderr, "fenci: error reading %s: %s\n", path, strerror(errno));
    free(buf);
    if (f != stdin) fclose(f);
    return NULL;
  }
  if (f != stdin) fclose(f);
  buf[n] = 0;
  *len = n;
  return buf;
}

int fc_cli_write_file(const char *cmd, const char *path, const void *buf, size_t len) {
  char tmp[4200];
  FILE *f;
  struct stat st;
  int ok;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    f = fopen(path, "wb");
    ok = f && fwrite(buf, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "fenci %s: cannot write %s: %s\n", cmd, path, strerror(errno));
    return ok ? 0 : -1;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  f = fopen(tmp, "wb");
  if (!f) {
    fprintf(stderr, "fenci %s: cannot create %s: %s\n", cmd, tmp, strerror(errno));
    return -1;
  }
  ok = fwrite(buf, 1, len, f) == len;
  if (fclose(f) != 0) ok = 0;
  if (!ok) {
    fprintf(stderr, "fenci %s: cannot write %s: %s\n", cmd, tmp, strerror(errno));
    remove(tmp);
    return -1;
  }
  if (rename(tmp, path) != 0) {
    fprintf(stderr, "fenci %s: cannot rename %s to %s: %s\n", cmd, tmp, path, strerror(errno));
    remove(tmp);
    return -1;
  }
  return 0;
}

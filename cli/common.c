/* common.c - model lookup and file reading for the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "chars.h"

#ifndef FENCI_DATADIR
#define FENCI_DATADIR "/usr/local/share/fenci"
#endif

static int fc_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The files tried for a model name, in order: the list is both the search
 * and, when nothing is found, the message, so the two cannot disagree. */
#define FC_MODEL_TRIES 5

int fc_cli_model_path(const char *name, char *out, size_t n) {
  char tried[FC_MODEL_TRIES][4400], exe[4096];
  const char *env = getenv("FENCI_MODEL_DIR");
  int nt = 0, i, l;
  size_t o;
  ssize_t k;
  if (!name) name = FENCI_DEFAULT_MODEL;
  if (strchr(name, '/')) {
    struct stat st;
    if (fc_exists(name)) {
      snprintf(out, n, "%s", name);
      return 0;
    }
    /* there, but no file to map: say what it is (a pipe or device would
     * be read whole, /dev/zero for ever) */
    if (stat(name, &st) == 0)
      snprintf(out, n, "%s (%s, not a regular file)", name,
               S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe" : "a device or special file");
    else
      snprintf(out, n, "%s (%s)", name, strerror(errno));
    return -1;
  }
  l = (int)strlen(name);
  if (l > 6 && !strcmp(name + l - 6, ".fenci")) {
    /* a file of that name here, else the same search as without ".fenci" */
    snprintf(tried[nt++], sizeof tried[0], "%s", name);
    l -= 6;
  }
  if (env && *env) snprintf(tried[nt++], sizeof tried[0], "%s/%.*s.fenci", env, l, name);
  k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k > 0) {
    char *slash;
    exe[k] = 0;
    slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      snprintf(tried[nt++], sizeof tried[0], "%s/models/%.*s.fenci", exe, l, name);
      snprintf(tried[nt++], sizeof tried[0], "%s/../share/fenci/%.*s.fenci", exe, l, name);
    }
  }
  snprintf(tried[nt++], sizeof tried[0], "%s/%.*s.fenci", FENCI_DATADIR, l, name);
  for (i = 0; i < nt; i++)
    if (fc_exists(tried[i])) {
      snprintf(out, n, "%s", tried[i]);
      return 0;
    }
  o = (size_t)snprintf(out, n, "%s (looked for", name);
  for (i = 0; i < nt && o < n; i++) o += (size_t)snprintf(out + o, n - o, "%s %s", i ? "," : "", tried[i]);
  if (o < n) snprintf(out + o, n - o, ")");
  return -1;
}

fenci_model *fc_cli_open_model(const char *name) {
  char path[FC_MODEL_TRIES * 4400 + 64], err[512]; /* room for the files tried */
  fenci_model *m = NULL;
  fenci_rc rc;
  if (fc_cli_model_path(name, path, sizeof path)) {
    fprintf(stderr, "fenci: model not found: %s\n", path);
    return NULL;
  }
  /* FENCI_NO_MMAP (non-empty, not "0"): read the model into memory, so that
   * a model file truncated or rewritten while fenci runs cannot harm it */
  {
    const char *nm = getenv("FENCI_NO_MMAP");
    unsigned flags = nm && *nm && strcmp(nm, "0") != 0 ? FENCI_OPEN_READ : 0;
    rc = fenci_model_open_ex(&m, path, flags, NULL, err, sizeof err);
  }
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci: cannot open model: %s\n", err[0] ? err : fenci_rc_str(rc));
    return NULL;
  }
  return m;
}

char *fc_cli_read_file(const char *path, size_t *len, size_t max) {
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
    if (n > max) {
      fprintf(stderr, "fenci: %s is larger than %zu MiB\n", path, max >> 20);
      free(buf);
      if (f != stdin) fclose(f);
      return NULL;
    }
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

void fc_cli_json_body(const char *s, size_t n, void (*put)(void *ctx, const char *p, size_t len), void *ctx) {
  size_t i = 0;
  while (i < n) {
    uint32_t cp;
    size_t l = fc_utf8_decode((const uint8_t *)s + i, n - i, &cp);
    if (cp == FC_BADCP) put(ctx, "\\ufffd", 6);
    else if (cp == '"') put(ctx, "\\\"", 2);
    else if (cp == '\\') put(ctx, "\\\\", 2);
    else if (cp < 0x20 || cp == 0x7F) {
      char t[8];
      put(ctx, t, (size_t)snprintf(t, sizeof t, "\\u%04x", (unsigned)cp));
    } else put(ctx, s + i, l);
    i += l;
  }
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

int fc_cli_close_stdout(int report) {
  int lost = ferror(stdout) != 0, e;
  errno = 0;
  if (fclose(stdout) != 0) lost = 1;
  e = errno;
  if (lost && report)
    fprintf(stderr, "fenci: error writing standard output%s%s\n", e ? ": " : "", e ? strerror(e) : "");
  return lost ? -1 : 0;
}

/* ---------------------------------------------------------------- options */

void fc_opts_init(fc_opts *o, const char *cmd, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  o->cmd = cmd;
  o->argc = argc;
  o->argv = argv;
  o->i = 0; /* argv[0] is the subcommand */
}

int fc_opts_next(fc_opts *o) {
  if (++o->i >= o->argc) return 0;
  o->arg = o->argv[o->i];
  o->val = NULL;
  o->reported = 0;
  if (!o->no_more && !strcmp(o->arg, "--")) {
    o->no_more = 1;
    return fc_opts_next(o);
  }
  o->is_opt = !o->no_more && o->arg[0] == '-' && o->arg[1];
  return 1;
}

/* Length of "--l" when arg is "--l" or starts with "--l=", else 0. */
static size_t fc_opt_long(const char *arg, const char *l) {
  size_t n;
  if (!l || arg[0] != '-' || arg[1] != '-') return 0;
  n = strlen(l);
  if (strncmp(arg + 2, l, n) || (arg[2 + n] && arg[2 + n] != '=')) return 0;
  return n + 2;
}

int fc_opt_flag(fc_opts *o, char s, const char *l) {
  size_t n;
  if (!o->is_opt) return 0;
  if (s && o->arg[1] == s && !o->arg[2]) return 1;
  n = fc_opt_long(o->arg, l);
  if (!n) return 0;
  if (!o->arg[n]) return 1;
  fprintf(stderr, "fenci %s: option --%s takes no value\n", o->cmd, l);
  o->reported = 1;
  return 0;
}

int fc_opt_value(fc_opts *o, char s, const char *l) {
  size_t n = 0;
  if (!o->is_opt) return 0;
  if (s && o->arg[1] == s) {
    if (o->arg[2]) {
      o->val = o->arg + 2;
      return 1;
    }
  } else {
    n = fc_opt_long(o->arg, l);
    if (!n) return 0;
    if (o->arg[n] == '=') {
      o->val = o->arg + n + 1;
      return 1;
    }
  }
  if (o->i + 1 >= o->argc) {
    fprintf(stderr, "fenci %s: option %s needs an argument\n", o->cmd, o->arg);
    o->reported = 1;
    return 0;
  }
  o->val = o->argv[++o->i];
  return 1;
}

int fc_opt_unknown(fc_opts *o) {
  if (!o->reported)
    fprintf(stderr, "fenci %s: unknown option '%s' (try 'fenci %s --help')\n", o->cmd, o->arg, o->cmd);
  return 2;
}

int fc_opt_jobs(fc_opts *o, int *jobs) {
  char *end;
  long n;
  errno = 0;
  n = strtol(o->val, &end, 10);
  if (!*o->val || *end || errno || n < 1 || n > 64) {
    fprintf(stderr, "fenci %s: -j needs a number from 1 to 64, not '%s'\n", o->cmd, o->val);
    return 0;
  }
  *jobs = (int)n;
  return 1;
}

size_t fc_cli_utoa(char *b, size_t v) {
  char t[24];
  size_t n = 0, i;
  do {
    t[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (i = 0; i < n; i++) b[i] = t[n - 1 - i];
  return n;
}

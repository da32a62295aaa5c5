/* helper.c - `fenci index` and `fenci search` run the program fenci-sqlite,
 * as git runs git-foo: it links SQLite, which the fenci tool does not (the
 * library and the tool need only libc and pthreads).  It is looked for next
 * to this executable (the build tree, or $(PREFIX)/bin), then in
 * FENCI_LIBEXECDIR ($(PREFIX)/libexec/fenci, where make install puts it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef FENCI_LIBEXECDIR
#define FENCI_LIBEXECDIR "/usr/local/libexec/fenci"
#endif

#define FC_HELPER "fenci-sqlite"

int fc_cmd_sqlite(int argc, char **argv) {
  char exe[4096], path[2][4200];
  char **args;
  int n = 0, i;
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (k > 0) {
    char *slash;
    exe[k] = 0;
    slash = strrchr(exe, '/');
    if (slash) {
      *slash = 0;
      snprintf(path[n++], sizeof path[0], "%s/%s", exe, FC_HELPER);
    }
  }
  snprintf(path[n++], sizeof path[0], "%s/%s", FENCI_LIBEXECDIR, FC_HELPER);
  /* argv[0] is the command (index or search): the helper's first argument */
  args = calloc((size_t)argc + 2, sizeof *args);
  if (!args) {
    fprintf(stderr, "fenci %s: out of memory\n", argv[0]);
    return 1;
  }
  args[0] = (char *)FC_HELPER;
  for (i = 0; i < argc; i++) args[i + 1] = argv[i];
  fflush(stdout);
  for (i = 0; i < n; i++) {
    if (access(path[i], X_OK) != 0) continue;
    execv(path[i], args);
    fprintf(stderr, "fenci %s: cannot run %s: %s\n", argv[0], path[i], strerror(errno));
    free(args);
    return 1;
  }
  free(args);
  fprintf(stderr,
          "fenci %s needs SQLite: apt-get install libsqlite3-dev and make sqlite\n"
          "(no %s in %s%s%s)\n",
          argv[0], FC_HELPER, n > 1 ? path[0] : "", n > 1 ? " nor " : "", path[n - 1]);
  return 1;
}

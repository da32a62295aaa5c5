/* common.h - helpers shared by the fenci subcommands. */
#ifndef FENCI_CLI_COMMON_H
#define FENCI_CLI_COMMON_H

#include <stddef.h>
#include "fenci.h"

/* The model used when none is named. */
#ifndef FENCI_DEFAULT_MODEL
#define FENCI_DEFAULT_MODEL "ctb"
#endif

/* Resolves NAME or PATH to a model file path.  A PATH contains '/'; a
 * NAME ending in ".fenci" is used as is when that file exists in the
 * current directory, and otherwise is searched like the NAME without it.
 * A NAME is looked up as NAME.fenci in $FENCI_MODEL_DIR, models/ next to
 * the executable, ../share/fenci next to it, then FENCI_DATADIR (the
 * install PREFIX's share/fenci).  Writes into out (size n).  Returns 0
 * when found, -1 otherwise (out then names every file tried). */
int fc_cli_model_path(const char *name, char *out, size_t n);

/* Opens the model named (NULL: the default), printing errors to stderr. */
fenci_model *fc_cli_open_model(const char *name);

/* Reads a whole file ("-" = stdin) into a malloc'd buffer, NUL-terminated.
 * NULL on error (message printed), also when it has more than max bytes. */
char *fc_cli_read_file(const char *path, size_t *len, size_t max);
#define FC_CLI_READ_TABLE ((size_t)64 << 20) /* IDF tables, stop-word lists */
#define FC_CLI_READ_TEXT ((size_t)1 << 30)   /* lexicons, corpora, documents */

/* Writes the body of a JSON string for s[0..n) through put: quotes,
 * backslashes and control characters escaped, an invalid UTF-8 byte as
 * \ufffd (JSON must be UTF-8). */
void fc_cli_json_body(const char *s, size_t n, void (*put)(void *ctx, const char *p, size_t len), void *ctx);
/* The decimal digits of v into b (at least 20 bytes, no NUL); returns their
 * count.  Offsets are written for every token and entity: snprintf's
 * format parsing cost more than the rest of the JSON. */
size_t fc_cli_utoa(char *b, size_t v);

/* Writes buf to path for subcommand cmd: a regular (or new) file through a
 * temporary file and a rename, so a failed write never leaves half a model;
 * a pipe or device is written in place, never replaced.  0 or -1 (message
 * printed). */
int fc_cli_write_file(const char *cmd, const char *path, const void *buf, size_t len);

/* Flushes and closes stdout, so that a full disk or a closed pipe is never
 * reported as success; main calls it once after every command.  Prints
 * why when report is set.  0, or -1 when some output was lost. */
int fc_cli_close_stdout(int report);

/* Command-line options, the same way for every subcommand: "-x VALUE",
 * "-xVALUE", "--long VALUE" and "--long=VALUE"; "--" ends the options and
 * "-" alone is an operand (stdin).  A loop over the arguments:
 *
 *   fc_opts o;
 *   fc_opts_init(&o, "cut", argc, argv);
 *   while (fc_opts_next(&o)) {
 *     if (!o.is_opt) files[n++] = o.arg;
 *     else if (fc_opt_flag(&o, 'q', "quiet")) quiet = 1;
 *     else if (fc_opt_value(&o, 'm', "model")) model = o.val;
 *     else return fc_opt_unknown(&o);
 *   }
 *
 * The matchers print a message and return 0 for a missing value or a value
 * given to a flag; fc_opt_unknown then prints nothing more. */
typedef struct fc_opts {
  const char *cmd; /* subcommand name for messages */
  int argc;
  char **argv;
  int i;           /* index of the current argument */
  const char *arg; /* the current argument */
  const char *val; /* the value of the option fc_opt_value matched */
  int is_opt;      /* arg is an option, not an operand */
  int no_more;     /* "--" seen: the rest are operands */
  int reported;    /* a matcher printed an error for arg */
} fc_opts;

void fc_opts_init(fc_opts *o, const char *cmd, int argc, char **argv);
/* Moves to the next argument; 0 at the end. */
int fc_opts_next(fc_opts *o);
/* 1 when arg is the flag -s or --l (s may be 0, l may be NULL). */
int fc_opt_flag(fc_opts *o, char s, const char *l);
/* 1 when arg is the option -s or --l with a value, then in o->val. */
int fc_opt_value(fc_opts *o, char s, const char *l);
/* For an argument no matcher took: prints why (once) and returns 2. */
int fc_opt_unknown(fc_opts *o);
/* The value of -j (o->val): 1 and the count (1..64) in *jobs, or 0 after
 * saying what is wrong with it. */
int fc_opt_jobs(fc_opts *o, int *jobs);

#endif

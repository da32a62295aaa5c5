/* common.h - helpers shared by the fenci subcommands. */
#ifndef FENCI_CLI_COMMON_H
#define FENCI_CLI_COMMON_H

#include <stddef.h>
#include "fenci.h"

/* The model used when none is named. */
#ifndef FENCI_DEFAULT_MODEL
#define FENCI_DEFAULT_MODEL "ctb"
/* Writes buf to path for subcommand cmd: a regular (or new) file through a
 * temporary file and a rename, so a failed write never leaves half a model;
 * a pipe or device is written in place, never replaced.  0 or -1 (message
 * printed). */
int fc_cli_write_file(const char *cmd, const char *path, const void *buf, size_t len);

#endif

/* Resolves NAME or PATH to a model file path: a PATH containing '/' or
 * ending in ".fenci" is used as is; a NAME is looked up as NAME.fenci in
 * $FENCI_MODEL_DIR, then models/ next to the executable, then
 * ../share/fenci next to it, then FENCI_DATADIR.  Writes into out (size n).
 * Returns 0 when found, -1 otherwise (out then holds the names tried). */
int fc_cli_model_path(const char *name, char *out, size_t n);

/* Opens the model named (NULL: the default), printing errors to stderr. */
fenci_model *fc_cli_open_model(const char *name);

/* Reads a whole file ("-" = stdin) into a malloc'd buffer. NULL on error (message printed). */
char *fc_cli_read_file(const char *path, size_t *len);

/* Writes buf to path for subcommand cmd: a regular (or new) file through a
 * temporary file and a rename, so a failed write never leaves half a model;
 * a pipe or device is written in place, never replaced.  0 or -1 (message
 * printed). */
int fc_cli_write_file(const char *cmd, const char *path, const void *buf, size_t len);

#endif

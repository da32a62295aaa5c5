/* compile.c - `fenci compile`: lexicon source text -> model file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "fenci.h"

static void compile_usage(FILE *f) {
  fprintf(f,
          "usage: fenci compile SOURCE [--oov-corpus SEGMENTED] -o|--output OUTPUT\n"
          "Compiles a lexicon source into a model file that 'fenci cut -m OUTPUT' can use.\n"
          "SOURCE has one entry a line: \"word [freq [tag]]\" (fields separated by spaces or\n"
          "tabs; '#' starts a comment line; a missing freq counts as 1; duplicates add up).\n"
          "The same source always gives the same bytes.\n"
          "--oov-corpus FILE counts the lexicon mode's unknown-word character model from\n"
          "segmented text (one sentence a line, words separated by spaces).\n");
}

int fc_cmd_compile(int argc, char **argv) {
  const char *src = NULL, *out = NULL, *corpus_path = NULL;
  char *text, *corpus = NULL, err[512];
  size_t clen = 0;
  size_t len, olen = 0;
  void *img = NULL;
  fenci_rc rc;
  int i;
  fc_opts o;
  fc_opts_init(&o, "compile", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (src) {
        fprintf(stderr, "fenci compile: one SOURCE only\n");
        return 2;
      }
      src = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      compile_usage(stdout);
      return 0;
    } else if (fc_opt_value(&o, 'o', "output")) {
      out = o.val;
    } else if (fc_opt_value(&o, 0, "oov-corpus")) {
      corpus_path = o.val;
    } else return fc_opt_unknown(&o);
  }
  if (!src || !out) {
    compile_usage(stderr);
    return 2;
  }
  text = fc_cli_read_file(src, &len, FC_CLI_READ_TEXT);
  if (!text) return 1;
  if (corpus_path) {
    corpus = fc_cli_read_file(corpus_path, &clen, FC_CLI_READ_TEXT);
    if (!corpus) {
      free(text);
      return 1;
    }
  }
  rc = fenci_lexicon_compile_ex(text, len, corpus, clen, &img, &olen, NULL, err, sizeof err);
  free(text);
  free(corpus);
  if (rc != FENCI_OK) {
    fprintf(stderr, "fenci compile: %s: %s\n", src, err[0] ? err : fenci_rc_str(rc));
    return 1;
  }
  i = fc_cli_write_file("compile", out, img, olen);
  fenci_free(NULL, img);
  return i ? 1 : 0;
}

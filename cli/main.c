/* main.c - the fenci command-line tool: dispatches to subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "fenci.h"

/* Until the trainer lands, a weak fallback keeps the tool linkable. */
__attribute__((weak)) int fc_cmd_train(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "fenci train: not built into this binary\n");
  return 1;
}

static void fc_usage(FILE *f) {
  fprintf(f,
          "fenci %s - Chinese word segmentation\n"
          "\n"
          "usage: fenci COMMAND [options] [args]\n"
          "\n"
          "commands:\n"
          "  cut      segment text files or stdin (the main job)\n"
          "  tag      segment and tag parts of speech in context (word/tag; --words: text\n"
          "           already cut into words)\n"
          "  ner      persons, places, organisations, times and quantities (values\n"
          "           normalised), one JSON object per line\n"
          "  eval     score a segmentation against gold (SIGHAN 2005 scoring)\n"
          "  compile  compile a lexicon source into a model file\n"
          "  train    train a segmentation model from a segmented corpus\n"
          "  check    verify a model file completely\n"
          "  dump     print a model file's header, sections and metadata\n"
          "  keywords the keywords of documents (TF-IDF or TextRank)\n"
          "  idf      add the keyword tables (IDF, stop words) to a model file\n"
          "  bigram   add the word-bigram table (overlapping ambiguities) to a lexicon file\n"
          "  index    index text files into an SQLite full-text index (needs make sqlite)\n"
          "  search   search such an index: fenci search DB \"北京 OR 上海\"\n"
          "\n"
          "'fenci COMMAND --help' describes each command.\n",
          fenci_version_string());
}

static int fc_run(int argc, char **argv) {
  const char *cmd;
  if (argc < 2) {
    fc_usage(stderr);
    return 2;
  }
  cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
    fc_usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    printf("fenci %s\n", fenci_version_string());
    return 0;
  }
  if (!strcmp(cmd, "cut")) return fc_cmd_cut(argc - 1, argv + 1);
  if (!strcmp(cmd, "tag")) return fc_cmd_tag(argc - 1, argv + 1);
  if (!strcmp(cmd, "ner")) return fc_cmd_ner(argc - 1, argv + 1);
  if (!strcmp(cmd, "eval")) return fc_cmd_eval(argc - 1, argv + 1);
  if (!strcmp(cmd, "compile")) return fc_cmd_compile(argc - 1, argv + 1);
  if (!strcmp(cmd, "train")) return fc_cmd_train(argc - 1, argv + 1);
  if (!strcmp(cmd, "check")) return fc_cmd_check(argc - 1, argv + 1);
  if (!strcmp(cmd, "dump")) return fc_cmd_dump(argc - 1, argv + 1);
  if (!strcmp(cmd, "keywords")) return fc_cmd_keywords(argc - 1, argv + 1);
  if (!strcmp(cmd, "idf")) return fc_cmd_idf(argc - 1, argv + 1);
  if (!strcmp(cmd, "bigram")) return fc_cmd_bigram(argc - 1, argv + 1);
  if (!strcmp(cmd, "index") || !strcmp(cmd, "search")) return fc_cmd_sqlite(argc - 1, argv + 1);
  fprintf(stderr, "fenci: unknown command '%s' (try 'fenci --help')\n", cmd);
  return 2;
}

int main(int argc, char **argv) {
  int rc = fc_run(argc, argv);
  /* a command that failed has said why, a lost write among the rest */
  if (fc_cli_close_stdout(rc == 0) != 0 && rc == 0) rc = 1;
  return rc;
}

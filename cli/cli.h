/* cli.h - subcommands of the fenci command-line tool. Each returns the exit code. */
#ifndef FENCI_CLI_H
#define FENCI_CLI_H

int fc_cmd_cut(int argc, char **argv);
int fc_cmd_tag(int argc, char **argv);
int fc_cmd_tag_words(int argc, char **argv);
int fc_cmd_ner(int argc, char **argv);
int fc_cmd_compile(int argc, char **argv);
int fc_cmd_eval(int argc, char **argv);
int fc_cmd_train(int argc, char **argv);
int fc_cmd_check(int argc, char **argv);
int fc_cmd_dump(int argc, char **argv);
int fc_cmd_keywords(int argc, char **argv);
int fc_cmd_idf(int argc, char **argv);
int fc_cmd_bigram(int argc, char **argv);
/* index and search: run the fenci-sqlite program (cli/helper.c) */
int fc_cmd_sqlite(int argc, char **argv);

#endif

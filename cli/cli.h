/* cli.h - subcommands of the fenci command-line tool. Each returns the exit code. */
#ifndef FENCI_CLI_H
#define FENCI_CLI_H

int fc_cmd_cut(int argc, char **argv);
int fc_cmd_compile(int argc, char **argv);
int fc_cmd_eval(int argc, char **argv);
int fc_cmd_train(int argc, char **argv);
int fc_cmd_check(int argc, char **argv);
int fc_cmd_dump(int argc, char **argv);

#endif

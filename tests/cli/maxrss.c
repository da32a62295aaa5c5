/* maxrss.c - runs a command and reports its peak resident set size, like
 * GNU time's "Maximum resident set size", for tests that bound memory
 * where /usr/bin/time may be missing.
 * Usage: maxrss KB_FILE CMD [ARG...]   (stdin/stdout/stderr pass through)
 * Writes the peak RSS in KiB to KB_FILE; exits with CMD's status (128 + N
 * when a signal N ended it, 127 when it could not run). */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  pid_t pid;
  int st;
  struct rusage ru;
  FILE *f;
  if (argc < 3) {
    fprintf(stderr, "usage: maxrss KB_FILE CMD [ARG...]\n");
    return 2;
  }
  pid = fork();
  if (pid < 0) {
    perror("maxrss: fork");
    return 127;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror("maxrss: exec");
    _exit(127);
  }
  if (wait4(pid, &st, 0, &ru) < 0) {
    perror("maxrss: wait4");
    return 127;
  }
  f = fopen(argv[1], "w");
  if (!f || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) != 0) {
    perror("maxrss: cannot write the result");
    return 127;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

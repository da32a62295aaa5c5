/*
 * friso_driver - segment a UTF-8 file line by line with libfriso (for fenci's bench).
 *
 *   friso_driver [-c INI] [-d SEP] [-s] FILE
 *
 * Loads INI (default /etc/friso/friso.ini, complex mode there), segments each input
 * line and writes the tokens joined by SEP (default two spaces), one output line per
 * input line, so the output aligns with the gold line by line.  Synonym appending
 * (friso.add_syn=1 in Debian's friso.ini) inserts extra tokens that are not in the
 * text, so it is switched off unless -s is given.  friso still drops characters it
 * does not know and folds full-width letters and digits, so its output is not
 * lossless.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <friso/friso.h>

static void usage(void)
{
    fprintf(stderr, "usage: friso_driver [-c INI] [-d SEP] [-s] FILE\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *ini = "/etc/friso/friso.ini";
    const char *sep = "  ";
    const char *path = NULL;
    int keep_syn = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) ini = argv[++i];
        else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) sep = argv[++i];
        else if (strcmp(argv[i], "-s") == 0) keep_syn = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') usage();
        else if (path == NULL) path = argv[i];
        else usage();
    }
    if (path == NULL) usage();

    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (in == NULL) { perror(path); return 1; }

    friso_t friso = friso_new();
    friso_config_t config = friso_new_config();
    if (friso_init_from_ifile(friso, config, (fstring)ini) != 1) {
        fprintf(stderr, "friso_driver: cannot initialise friso from %s\n", ini);
        return 1;
    }
    if (!keep_syn) config->add_syn = 0;
    friso_task_t task = friso_new_task();

    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) != -1) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        int first = 1;
        if (n > 0) {
            friso_set_text(task, line);
            while (config->next_token(friso, config, task) != NULL) {
                if (!first) fputs(sep, stdout);
                fputs(task->token->word, stdout);
                first = 0;
            }
        }
        putchar('\n');
    }
    free(line);
    if (in != stdin) fclose(in);
    friso_free_task(task);
    friso_free_config(config);
    friso_free(friso);
    if (fflush(stdout) != 0 || ferror(stdout)) { perror("friso_driver: write"); return 1; }
    return 0;
}

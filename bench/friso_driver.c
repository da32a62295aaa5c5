/*
 * friso_driver - segment a UTF-8 file line by line with libfriso (for fenci's bench).
 *
 *   friso_driver [-c INI] [-d SEP] [--raw] [--syn] FILE
 *
 * Loads INI (default /etc/friso/friso.ini, complex mode there), segments each input
 * line and writes the words joined by SEP (default two spaces), one output line per
 * input line, so the output aligns with the gold line by line.
 *
 * Two search-engine features of Debian's friso.ini add tokens that are not words of
 * the text: synonym appending (friso.add_syn=1) and the secondary segmentation of
 * mixed Latin tokens (friso.en_sseg=1, which emits "abc", "123" and then "abc123").
 * Both are switched off (--syn keeps them).
 *
 * friso's own output is not lossless: it drops characters it does not know
 * (“ ” — … ○ ·) and folds full-width letters and digits to lower-case ASCII, and the
 * token offsets it reports are not reliable.  So by default the driver maps each token
 * back onto the input line (comparing after the same folding) and writes the input's
 * own characters; every character friso dropped becomes a one-character word.  Word
 * boundaries are friso's, the text is the input's.  --raw writes friso's tokens as is.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <friso/friso.h>

static void usage(void)
{
    fprintf(stderr, "usage: friso_driver [-c INI] [-d SEP] [--raw] [--syn] FILE\n");
    exit(2);
}

/* Decode one UTF-8 sequence at s (n bytes left); store its length in *len.
 * An invalid byte decodes as itself with length 1. */
static unsigned decode(const unsigned char *s, size_t n, size_t *len)
{
    unsigned c = s[0];
    size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (k == 0 || k > n) { *len = 1; return c; }
    if (k > 1) c &= 0x3Fu >> (k - 1);
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) { *len = 1; return s[0]; }
        c = (c << 6) | (s[i] & 0x3F);
    }
    *len = k;
    return c;
}

/* The folding friso applies: full-width ASCII to ASCII, upper to lower case. */
static unsigned fold(unsigned c)
{
    if (c >= 0xFF01 && c <= 0xFF5E) c -= 0xFEE0;
    else if (c == 0x3000) c = ' ';
    if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
    return c;
}

static int is_space(unsigned c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == 0x3000 || c == 0xFEFF;
}

struct line {              /* the input line as code points */
    const char *text;
    unsigned *cp;          /* folded code points */
    size_t *off;           /* byte offset of each; off[n] is the line length */
    size_t n, cap;
};

static void line_set(struct line *L, const char *text, size_t len)
{
    if (L->cap < len + 1) {
        L->cap = 2 * (len + 1);
        L->cp = realloc(L->cp, L->cap * sizeof *L->cp);
        L->off = realloc(L->off, L->cap * sizeof *L->off);
        if (L->cp == NULL || L->off == NULL) { fputs("friso_driver: out of memory\n", stderr); exit(1); }
    }
    L->text = text;
    L->n = 0;
    for (size_t i = 0, k; i < len; i += k) {
        L->off[L->n] = i;
        L->cp[L->n++] = fold(decode((const unsigned char *)text + i, len - i, &k));
    }
    L->off[L->n] = len;
}

static const char *g_sep;
static int g_first;

static void emit(const char *p, size_t n)
{
    if (!g_first) fputs(g_sep, stdout);
    fwrite(p, 1, n, stdout);
    g_first = 0;
}

/* Emit the input characters [from, to) that friso dropped, one word each. */
static void emit_gap(const struct line *L, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (!is_space(L->cp[i])) emit(L->text + L->off[i], L->off[i + 1] - L->off[i]);
}

#define WINDOW 16          /* how far past the cursor a token may start */

/* Find token w (folded code points, m of them) in L at or after *pos; emit the gap and
 * the token's input text.  Returns 0 when the token is not found nearby. */
static int place(const struct line *L, size_t *pos, const unsigned *w, size_t m)
{
    for (size_t k = *pos; k <= *pos + WINDOW && k + m <= L->n; k++) {
        size_t j = 0;
        while (j < m && L->cp[k + j] == w[j]) j++;
        if (j == m) {
            emit_gap(L, *pos, k);
            emit(L->text + L->off[k], L->off[k + m] - L->off[k]);
            *pos = k + m;
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *ini = "/etc/friso/friso.ini";
    const char *sep = "  ";
    const char *path = NULL;
    int keep_syn = 0, raw = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) ini = argv[++i];
        else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) sep = argv[++i];
        else if (strcmp(argv[i], "--syn") == 0) keep_syn = 1;
        else if (strcmp(argv[i], "--raw") == 0) raw = 1;
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
    if (!keep_syn) {
        config->add_syn = 0;
        config->en_sseg = 0;
    }
    friso_task_t task = friso_new_task();

    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);

    g_sep = sep;
    struct line L = {0};
    unsigned w[__HITS_WORD_LENGTH__];
    unsigned long unplaced = 0;
    char *line = NULL, *copy = NULL;
    size_t cap = 0, copy_cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) != -1) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
        g_first = 1;
        if (n > 0) {
            /* friso keeps a pointer to the text: give it its own copy. */
            if (copy_cap < (size_t)n + 1) {
                copy_cap = 2 * ((size_t)n + 1);
                if ((copy = realloc(copy, copy_cap)) == NULL) { fputs("friso_driver: out of memory\n", stderr); return 1; }
            }
            memcpy(copy, line, (size_t)n + 1);
            line_set(&L, line, (size_t)n);
            size_t pos = 0;
            friso_set_text(task, copy);
            while (config->next_token(friso, config, task) != NULL) {
                const char *tw = task->token->word;
                if (raw) { emit(tw, strlen(tw)); continue; }
                size_t m = 0, tl = strlen(tw);
                for (size_t i = 0, k; i < tl && m < __HITS_WORD_LENGTH__; i += k)
                    w[m++] = fold(decode((const unsigned char *)tw + i, tl - i, &k));
                if (m > 0 && !place(&L, &pos, w, m)) unplaced++;
            }
            if (!raw) emit_gap(&L, pos, L.n);
        }
        putchar('\n');
    }
    if (unplaced)
        fprintf(stderr, "friso_driver: %lu tokens not found in the input text were left out\n", unplaced);
    free(line);
    free(copy);
    free(L.cp);
    free(L.off);
    if (in != stdin) fclose(in);
    friso_free_task(task);
    friso_free_config(config);
    friso_free(friso);
    if (fflush(stdout) != 0 || ferror(stdout)) { perror("friso_driver: write"); return 1; }
    return 0;
}

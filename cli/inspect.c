/* inspect.c - `fenci check` (full verification) and `fenci dump` (header,
 * sections and metadata of a model file). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "fenci.h"
#include "fmt.h"

int fc_cmd_check(int argc, char **argv) {
  int i, bad = 0;
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    fprintf(argc < 2 ? stderr : stdout, "usage: fenci check MODEL...\nVerifies model files completely (CRC, "
                                        "every section, every trie node); exit 1 if any is bad.\n");
    return argc < 2 ? 2 : 0;
  }
  for (i = 1; i < argc; i++) {
    char path[4400], err[512];
    fenci_rc rc;
    if (fc_cli_model_path(argv[i], path, sizeof path)) snprintf(path, sizeof path, "%s", argv[i]);
    err[0] = 0;
    rc = fenci_model_check(path, err, sizeof err);
    if (rc == FENCI_OK) printf("%s: ok\n", path);
    else {
      if (err[0]) fprintf(stderr, "%s\n", err);
      else fprintf(stderr, "%s: %s\n", path, fenci_rc_str(rc));
      bad = 1;
    }
  }
  return bad;
}

int fc_cmd_dump(int argc, char **argv) {
  fenci_model *m;
  char path[4400];
  size_t len, i;
  const char *meta;
  if (argc != 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    fprintf(argc != 2 ? stderr : stdout, "usage: fenci dump MODEL\nPrints a model file's format version, "
                                         "sections and metadata.\n");
    return argc != 2 ? 2 : 0;
  }
  if (fc_cli_model_path(argv[1], path, sizeof path)) snprintf(path, sizeof path, "%s", argv[1]);
  m = fc_cli_open_model(path);
  if (!m) return 1;
  {
    /* the container is internal; dump reads it through the library's parser */
    extern const fc_file *fc_model_file_ptr(const fenci_model *);
    const fc_file *f = fc_model_file_ptr(m);
    printf("file: %s\nformat: %u.%u\nsize: %zu bytes\nsections: %u\n", path, f->major, f->minor, f->size,
           f->n_sections);
    for (i = 0; i < f->n_sections; i++)
      printf("  %.4s  offset %zu  size %zu\n", f->sec[i].tag, (size_t)(f->sec[i].data - f->base), f->sec[i].size);
  }
  printf("lexicon words: %zu\ntrained segmenter: %s\n", fenci_model_lexicon_size(m),
         fenci_model_has_weights(m) ? "yes" : "no");
  meta = fenci_model_meta(m, &len);
  printf("metadata:\n");
  fwrite(meta, 1, len, stdout);
  if (len && meta[len - 1] != '\n') putchar('\n');
  fenci_model_free(m);
  return 0;
}

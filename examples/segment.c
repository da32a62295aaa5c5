/* examples/segment.c - the smallest complete use of libfenci: open a model,
 * segment one string, print each token with its byte offsets.
 *   cc examples/segment.c -Iinclude build/libfenci.a -lm -lpthread -o segment
 *   ./segment models/lexicon.fenci "拿破仑在枫丹白露签署了退位诏书。" */
#include <stdio.h>
#include <string.h>

#include "fenci.h"

static int print_token(void *ctx, const fenci_token *tok, const char *form, size_t len) {
  (void)ctx;
  printf("%zu-%zu\t%.*s%s\n", tok->start, tok->end, (int)len, form, (tok->flags & FENCI_TOK_OOV) ? "\t(oov)" : "");
  return 0; /* non-zero would stop the segmentation */
}

int main(int argc, char **argv) {
  fenci_model *model = NULL;
  fenci_tagger *tagger = NULL;
  char err[256];
  fenci_rc rc;
  if (argc != 3) {
    fprintf(stderr, "usage: %s MODEL TEXT\n", argv[0]);
    return 2;
  }
  rc = fenci_model_open(&model, argv[1], NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "cannot open %s: %s\n", argv[1], err);
    return 1;
  }
  rc = fenci_tagger_new(&tagger, model, FENCI_MODE_DEFAULT); /* one per thread */
  if (rc == FENCI_OK) rc = fenci_segment(tagger, argv[2], strlen(argv[2]), print_token, NULL);
  if (rc != FENCI_OK) fprintf(stderr, "segmentation failed: %s\n", fenci_rc_str(rc));
  fenci_tagger_free(tagger);
  fenci_model_free(model);
  return rc == FENCI_OK ? 0 : 1;
}

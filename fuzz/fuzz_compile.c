/* fuzz_compile.c - libFuzzer harness: lexicon source text ->
 * fenci_lexicon_compile -> fenci_model_from_buffer -> segment.  A compiled
 * image must always load; compiling must be deterministic; the segmenter
 * also runs over the source text itself.  When the input holds a NUL byte,
 * the bytes after the first NUL are a segmented corpus for the unknown-word
 * model (fenci_lexicon_compile_ex). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  void *img = NULL, *img2 = NULL;
  size_t len = 0, len2 = 0;
  char err[256];
  fenci_model *m = NULL;
  fenci_rc rc;
  const uint8_t *nul;
  const char *corpus = NULL;
  size_t src_len = size, corpus_len = 0;
  if (size > (256u << 10)) return 0;
  nul = memchr(data, 0, size);
  if (nul) {
    src_len = (size_t)(nul - data);
    corpus = (const char *)nul + 1;
    corpus_len = size - src_len - 1;
  }
  err[0] = 0;
  rc = fenci_lexicon_compile_ex((const char *)data, src_len, corpus, corpus_len, &img, &len, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    if (rc != FENCI_BADFORMAT || img) abort();
    if (memchr(err, 0, sizeof err) == NULL || !err[0]) abort(); /* a message is given */
    return 0;
  }
  /* deterministic output */
  if (fenci_lexicon_compile_ex((const char *)data, src_len, corpus, corpus_len, &img2, &len2, NULL, NULL, 0) !=
      FENCI_OK)
    abort();
  if (len != len2 || memcmp(img, img2, len) != 0) abort();
  fenci_free(NULL, img2);
  rc = fenci_model_from_buffer(&m, img, len, NULL, err, sizeof err);
  if (rc != FENCI_OK) {
    fprintf(stderr, "compiled image does not load: %s\n", err);
    abort();
  }
  fz_segment_sentences(m);
  {
    fenci_tagger *t = NULL;
    if (fenci_tagger_new(&t, m, FENCI_MODE_ALL) != FENCI_OK) abort();
    fz_segment_checked(t, (const char *)data, size, 0);
    fenci_tagger_free(t);
  }
  fenci_model_free(m);
  fenci_free(NULL, img);
  return 0;
}

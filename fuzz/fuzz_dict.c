/* fuzz_dict.c - libFuzzer harness: user-dictionary text.  The text is loaded
 * with fenci_dict_load_text into a dictionary over the mini lexicon (and the
 * trained model when one is present); on success the dictionary is attached
 * and the dictionary text and the test sentences are segmented in every mode.
 * A failed load must add nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fenci_model *fz_models[2];
static size_t fz_nmodels;
static void *fz_img;

static void fz_init(void) {
  fz_models[fz_nmodels++] = fz_mini_model(&fz_img);
  fz_models[fz_nmodels] = fz_trained_model();
  if (fz_models[fz_nmodels]) fz_nmodels++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const unsigned opts[] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL};
  size_t k, i, j;
  if (!fz_nmodels) fz_init();
  if (size > (64u << 10)) return 0;
  for (k = 0; k < fz_nmodels; k++) {
    fenci_dict *d = NULL;
    char err[256];
    fenci_rc rc;
    if (fenci_dict_new(&d, fz_models[k], NULL) != FENCI_OK) abort();
    (void)fenci_dict_add(d, "长江大桥", strlen("长江大桥"), 0, NULL);
    rc = fenci_dict_load_text(d, (const char *)data, size, err, sizeof err);
    if (rc != FENCI_OK) {
      if (rc != FENCI_BADFORMAT) abort();
      if (fenci_dict_size(d) != 1) abort(); /* nothing from the failed text was added */
      fenci_dict_free(d);
      continue;
    }
    for (i = 0; i < sizeof opts / sizeof opts[0]; i++) {
      fenci_tagger *t = NULL;
      if (fenci_tagger_new(&t, fz_models[k], opts[i]) != FENCI_OK) abort();
      if (fenci_tagger_set_dict(t, d) != FENCI_OK) abort();
      fz_segment_checked(t, (const char *)data, size, 0);
      for (j = 0; j < sizeof fz_sentences / sizeof fz_sentences[0]; j++)
        fz_segment_checked(t, fz_sentences[j], strlen(fz_sentences[j]), 0);
      fenci_tagger_free(t);
    }
    if (fenci_dict_add(d, "再加", strlen("再加"), 0, NULL) != FENCI_BADARG) abort(); /* frozen */
    fenci_dict_free(d);
  }
  return 0;
}

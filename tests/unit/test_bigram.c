/* test_bigram.c - the word-bigram table (LEXB) and the resolution of
 * overlapping ambiguities with it (src/bigram.h). */
#include <math.h>

#include "harness.h"
#include "bigram.h"
#include "fmt.h"

/* The words of text cut by tagger t, separated by single spaces, into out. */
static void cut_words(fenci_tagger *t, const char *text, char *out, size_t cap) {
  fenci_token tok[256];
  size_t n = 0, i, o = 0;
  fenci_rc rc = fenci_segment_into(t, text, strlen(text), tok, 256, &n);
  OK(rc == FENCI_OK, "segment: %s", fenci_rc_str(rc));
  out[0] = 0;
  for (i = 0; i < n && rc == FENCI_OK; i++) {
    size_t l = tok[i].end - tok[i].start;
    if (o + l + 2 > cap) break;
    if (o) out[o++] = ' ';
    memcpy(out + o, text + tok[i].start, l);
    o += l;
    out[o] = 0;
  }
}

static void test_table(void) {
  fc_bigram_entry e[3000];
  fc_buf out;
  fc_bigram b;
  char err[200];
  size_t i, n = 0;
  th_fault f = {0, 0, 0};
  fenci_alloc fa = {th_fault_fn, &f};
  long k;
  for (i = 0; i < 1000; i++) {
    e[n].w1 = (uint32_t)i, e[n].w2 = FC_BIGRAM_NONE, e[n].cost = 0.5 + (double)i / 100, n++;
    e[n].w1 = (uint32_t)i, e[n].w2 = (uint32_t)(i * 7 % 1000), e[n].cost = (double)(i % 50), n++;
  }
  fc_buf_init(&out, NULL);
  INT_EQ(fc_bigram_build(e, n, 1000, &out, NULL), FENCI_OK);
  INT_EQ(fc_bigram_view(&b, out.data, out.len, 1000, err, sizeof err), FENCI_OK);
  /* every entry comes back within the 1/64 nat of its quantisation */
  for (i = 0; i < n; i++) {
    double v = fc_bigram_get(&b, fc_bigram_key(e[i].w1, e[i].w2));
    OK(fabs(v - e[i].cost) <= 0.5 / FC_BIGRAM_SCALE + 1e-9, "entry %zu: %f for %f", i, v, e[i].cost);
  }
  /* pairs never stored are absent */
  for (i = 0; i < 1000; i++)
    OK(fc_bigram_get(&b, fc_bigram_key((uint32_t)i, (uint32_t)(i * 7 % 1000 + 1) % 1000)) < 0, "pair %zu found", i);
  /* a table for another lexicon, a bad magic, a short section: clear errors */
  INT_EQ(fc_bigram_view(&b, out.data, out.len, 999, err, sizeof err), FENCI_BADFORMAT);
  OK(strstr(err, "LEXB") != NULL, "%s", err);
  INT_EQ(fc_bigram_view(&b, out.data, 31, 1000, err, sizeof err), FENCI_BADFORMAT);
  INT_EQ(fc_bigram_view(&b, out.data, out.len - 8, 1000, err, sizeof err), FENCI_BADFORMAT);
  out.data[0] = 'X';
  INT_EQ(fc_bigram_view(&b, out.data, out.len, 1000, err, sizeof err), FENCI_BADFORMAT);
  out.data[0] = 'F';
  fc_wr32(out.data + 12, fc_rd32(out.data + 8)); /* max_probe >= n_slots */
  INT_EQ(fc_bigram_view(&b, out.data, out.len, 1000, err, sizeof err), FENCI_BADFORMAT);
  OK(b.slots == NULL, "a rejected table is not used");
  /* a probe bound past FC_BIGRAM_MAX_PROBE (a full table would make every
   * miss scan it): refused, whatever the table's size */
  fc_wr32(out.data + 12, FC_BIGRAM_MAX_PROBE + 1);
  OK(fc_rd32(out.data + 8) > FC_BIGRAM_MAX_PROBE + 1, "the table is large enough for the check");
  INT_EQ(fc_bigram_view(&b, out.data, out.len, 1000, err, sizeof err), FENCI_BADFORMAT);
  fc_wr32(out.data + 12, FC_BIGRAM_MAX_PROBE);
  INT_EQ(fc_bigram_view(&b, out.data, out.len, 1000, err, sizeof err), FENCI_OK);
  fc_buf_free(&out);
  /* every allocation failing in turn: FENCI_NOMEM and nothing kept */
  for (k = 1; k < 10; k++) {
    fc_buf o2;
    fenci_rc rc;
    f.calls = 0, f.fail_at = k;
    fc_buf_init(&o2, &fa);
    rc = fc_bigram_build(e, n, 1000, &o2, &fa);
    OK(rc == FENCI_OK || rc == FENCI_NOMEM, "allocation %ld: %s", k, fenci_rc_str(rc));
    fc_buf_free(&o2);
    INT_EQ(f.live, 0);
    if (rc == FENCI_OK) break;
  }
}

/* With the shipped default model: the classic overlapping ambiguities the
 * character model alone cuts wrong, and what must not change. */
static void test_shipped(void) {
  fenci_model *m = NULL;
  fenci_tagger *t = NULL, *fast = NULL;
  char out[1024];
  if (fenci_model_open(&m, "models/ctb.fenci", NULL, NULL, 0) != FENCI_OK) {
    fprintf(stderr, "test_bigram: models/ctb.fenci not found, shipped-model checks skipped\n");
    return;
  }
  INT_EQ(fenci_tagger_new(&t, m, FENCI_MODE_DEFAULT), FENCI_OK);
  INT_EQ(fenci_tagger_new(&fast, m, FENCI_OPT_FAST), FENCI_OK);
  if (t && fast) {
    cut_words(t, "结婚的和尚未结婚的", out, sizeof out);
    STR_EQ(out, "结婚 的 和 尚未 结婚 的");
    /* the same words in a longer line, and after a line end */
    cut_words(t, "我们说，结婚的和尚未结婚的都来了。\n结婚的和尚未结婚的", out, sizeof out);
    OK(strstr(out, "和 尚未 结婚") && !strstr(out, "和尚"), "%s", out);
    /* the monk stays a monk where no word crosses */
    cut_words(t, "那个和尚每天念经", out, sizeof out);
    OK(strstr(out, "和尚") != NULL, "%s", out);
    /* numbers are left to the model (七十|一件 is a reading the bigrams like) */
    cut_words(t, "等领域的七十一件法规性文件", out, sizeof out);
    OK(strstr(out, "七十一 件") != NULL, "%s", out);
    /* the lexicon mode has no bigram step */
    cut_words(fast, "结婚的和尚未结婚的", out, sizeof out);
    STR_EQ(out, "结婚 的 和 尚未 结婚 的");
  }
  /* a unit that is no word pays its own cost after a word with a back-off
   * weight too (it was once free there: 冬泳选手不畏寒 -> 不畏 寒, pku) */
  {
    fenci_model *pm = NULL;
    fenci_tagger *pt = NULL;
    if (fenci_model_open(&pm, "models/pku.fenci", NULL, NULL, 0) == FENCI_OK &&
        fenci_tagger_new(&pt, pm, FENCI_MODE_DEFAULT) == FENCI_OK) {
      cut_words(pt, "冬泳选手不畏寒", out, sizeof out);
      OK(strstr(out, "不 畏寒") != NULL, "%s", out);
    }
    fenci_tagger_free(pt);
    fenci_model_free(pm);
  }
  /* a user word the caller wants is never undone, forced or with a
   * frequency */
  if (t) {
    fenci_dict *d = NULL;
    const char *src = "和尚\n"; /* no frequency: a forced word */
    char err[200] = "";
    if (fenci_dict_new(&d, m, NULL) == FENCI_OK && fenci_dict_load_text(d, src, strlen(src), err, sizeof err) == FENCI_OK) {
      INT_EQ(fenci_tagger_set_dict(t, d), FENCI_OK);
      cut_words(t, "结婚的和尚未结婚的", out, sizeof out);
      OK(strstr(out, "和尚") != NULL, "a user word: %s", out);
      fenci_tagger_set_dict(t, NULL);
      fenci_dict_free(d);
      d = NULL;
      src = "和尚 100000\n";
      if (fenci_dict_new(&d, m, NULL) == FENCI_OK && fenci_dict_load_text(d, src, strlen(src), err, sizeof err) == FENCI_OK &&
          fenci_tagger_set_dict(t, d) == FENCI_OK) {
        cut_words(t, "结婚的和尚未结婚的", out, sizeof out);
        OK(strstr(out, "和尚") != NULL, "a user word with a frequency: %s", out);
        /* also inside a longer line */
        cut_words(t, "我们说，结婚的和尚未结婚的", out, sizeof out);
        OK(strstr(out, "和尚") != NULL, "%s", out);
        fenci_tagger_set_dict(t, NULL);
      } else {
        OK(0, "dict: %s", err);
      }
      fenci_dict_free(d);
    } else {
      OK(0, "dict: %s", err);
      fenci_dict_free(d);
    }
  }
  fenci_tagger_free(t);
  fenci_tagger_free(fast);
  fenci_model_free(m);
}

int main(void) {
  test_table();
  test_shipped();
  TEST_DONE();
}

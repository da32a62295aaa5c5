/* test_postag.c - part-of-speech tags in context: tokens are the same as
 * without tagging (lossless, same offsets), kinds get their fixed tags,
 * context changes tags, fenci_tag_words tags given words, hostile input
 * and long lines are safe in every model and mode, a damaged labeller
 * section or tag dictionary is refused or read safely. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "harness.h"
#include "model.h"
#include "postag.h"

typedef struct toks {
  fenci_token *t;
  size_t n, cap;
} toks;

static int collect(void *ctx, const fenci_token *tok, const char *form, size_t len) {
  toks *v = ctx;
  (void)form;
  (void)len;
  if (v->n == v->cap) {
    size_t nc = v->cap ? v->cap * 2 : 256;
    fenci_token *p = realloc(v->t, nc * sizeof *p);
    if (!p) return 1;
    v->t = p;
    v->cap = nc;
  }
  v->t[v->n++] = *tok;
  return 0;
}

static int run(const fenci_model *m, unsigned opts, const char *text, size_t len, toks *v) {
  fenci_tagger *t = NULL;
  fenci_rc rc = fenci_tagger_new(&t, m, opts);
  v->n = 0;
  if (rc == FENCI_OK) rc = fenci_segment(t, text, len, collect, v);
  fenci_tagger_free(t);
  return rc == FENCI_OK ? 0 : -1;
}

/* The tag of the main token covering text's bytes [s, s + strlen(w)). */
static const char *tag_of(const fenci_model *m, const toks *v, const char *text, const char *w) {
  const char *p = strstr(text, w);
  size_t i, s;
  if (!p) return "?";
  s = (size_t)(p - text);
  for (i = 0; i < v->n; i++)
    if (!(v->t[i].flags & FENCI_TOK_EXTRA) && v->t[i].start == s && v->t[i].end == s + strlen(w))
      return fenci_tag_name(m, v->t[i].tag);
  return "(not a token)";
}

static void check_same_tokens(const toks *a, const toks *b, const char *what) {
  size_t i, bad = 0;
  OK(a->n == b->n, "%s: %zu vs %zu tokens", what, a->n, b->n);
  for (i = 0; i < a->n && i < b->n; i++)
    if (a->t[i].start != b->t[i].start || a->t[i].end != b->t[i].end || a->t[i].kind != b->t[i].kind ||
        a->t[i].flags != b->t[i].flags)
      bad++;
  OK(bad == 0, "%s: %zu tokens differ from the untagged ones", what, bad);
}

static void test_tags(const fenci_model *m, const char *name) {
  static const char text[] = "我们研究自然语言处理。拿破仑在1814年签署了退位诏书, see http://x.cn 和 abc@d.cn ２２万发炮弹"
                             "①坚持；⑵发展\x01拿破仑×3😀\n";
  toks a = {0}, b = {0};
  size_t i, untagged = 0, spaces_tagged = 0;
  OK(run(m, 0, text, strlen(text), &a) == 0, "%s: cut", name);
  OK(run(m, FENCI_OPT_POS, text, strlen(text), &b) == 0, "%s: tag", name);
  check_same_tokens(&a, &b, name);
  for (i = 0; i < b.n; i++) {
    const char *tg = fenci_tag_name(m, b.t[i].tag);
    if (b.t[i].kind == FENCI_KIND_SPACE || b.t[i].kind == FENCI_KIND_INVALID) spaces_tagged += b.t[i].tag != 0;
    else if (!*tg) untagged++;
  }
  OK(untagged == 0, "%s: %zu tokens without a tag", name, untagged);
  OK(spaces_tagged == 0, "%s: whitespace got a tag", name);
  STR_EQ(tag_of(m, &b, text, "。"), "w");
  STR_EQ(tag_of(m, &b, text, "http://x.cn"), "nx");
  STR_EQ(tag_of(m, &b, text, "abc@d.cn"), "nx");
  STR_EQ(tag_of(m, &b, text, "see"), "nx");
  STR_EQ(tag_of(m, &b, text, "我们"), "r");
  STR_EQ(tag_of(m, &b, text, "①"), "m"); /* a list's number as one symbol, as People's Daily tags it */
  STR_EQ(tag_of(m, &b, text, "⑵"), "m");
  STR_EQ(tag_of(m, &b, text, "；"), "w");
  /* symbols, emoji and control characters (kind other): w, not a guess */
  STR_EQ(tag_of(m, &b, text, "\x01"), "w");
  STR_EQ(tag_of(m, &b, text, "×"), "w");
  STR_EQ(tag_of(m, &b, text, "😀"), "w");
  free(a.t);
  free(b.t);
}

static void test_words(const fenci_model *m) {
  /* gold words of a People's Daily style sentence, and the same verb as a noun */
  static const char *const w1[] = {"我们", "要", "发展", "经济", "。"};
  static const char *const w2[] = {"经济", "的", "发展", "很", "快", "。"};
  static const char *const w3[] = {"北京", "是", "中国", "的", "首都", "。"};
  size_t l1[5], l2[6], l3[6], i;
  uint16_t t1[5], t2[6], t3[6];
  fenci_tagger *t = NULL;
  INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
  for (i = 0; i < 5; i++) l1[i] = strlen(w1[i]);
  for (i = 0; i < 6; i++) l2[i] = strlen(w2[i]), l3[i] = strlen(w3[i]);
  INT_EQ(fenci_tag_words(t, (const char *const *)w1, l1, 5, t1), FENCI_OK);
  INT_EQ(fenci_tag_words(t, (const char *const *)w2, l2, 6, t2), FENCI_OK);
  INT_EQ(fenci_tag_words(t, (const char *const *)w3, l3, 6, t3), FENCI_OK);
  STR_EQ(fenci_tag_name(m, t1[2]), "v");
  STR_EQ(fenci_tag_name(m, t2[2]), "vn");
  STR_EQ(fenci_tag_name(m, t3[0]), "ns");
  STR_EQ(fenci_tag_name(m, t3[2]), "ns");
  STR_EQ(fenci_tag_name(m, t3[5]), "w");
  /* zero words, empty words, NULL arrays */
  INT_EQ(fenci_tag_words(t, NULL, NULL, 0, NULL), FENCI_OK);
  {
    const char *e[] = {"", "的", ""};
    size_t el[] = {0, 3, 0};
    uint16_t et[3];
    INT_EQ(fenci_tag_words(t, e, el, 3, et), FENCI_OK);
  }
  INT_EQ(fenci_tag_words(t, NULL, l1, 5, t1), FENCI_BADARG);
  fenci_tagger_free(t);
}

/* Random bytes, hostile characters and a line past the chunk size: the
 * tagged tokens are the untagged ones, in every mode. */
static void test_hostile(const fenci_model *m, const char *name) {
  static const char *const pieces[] = {"中", "。", "1", "a", " ", "\n", "\x80", "——", "@", "http://a.b/", "年",
                                       "万", "的", "\xef\xbc\x91", "\xe3\x80\x80", "\t", "拿破仑", "%E4"};
  size_t n = 300000, i, k;
  char *buf = malloc(n + 16);
  unsigned seed = 99;
  static const unsigned modes[] = {FENCI_MODE_DEFAULT, FENCI_MODE_SEARCH, FENCI_MODE_ALL,
                                   FENCI_OPT_FAST, FENCI_OPT_FAST | FENCI_MODE_SEARCH};
  if (!buf) return;
  for (k = 0; k < 2; k++) {
    size_t len = 0;
    while (len < n) {
      seed = seed * 1103515245u + 12345u;
      if (k == 0) buf[len++] = (char)(seed >> 16);
      else {
        const char *p = pieces[(seed >> 16) % (sizeof pieces / sizeof pieces[0])];
        size_t l = strlen(p);
        memcpy(buf + len, p, l);
        len += l;
      }
    }
    for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
      toks a = {0}, b = {0};
      char what[96];
      snprintf(what, sizeof what, "%s %s opts 0x%x", name, k ? "hostile" : "random", modes[i]);
      OK(run(m, modes[i], buf, len, &a) == 0 && run(m, modes[i] | FENCI_OPT_POS, buf, len, &b) == 0, "%s", what);
      check_same_tokens(&a, &b, what);
      free(a.t);
      free(b.t);
    }
  }
  /* one line of 200 000 characters without a break */
  for (i = 0; i + 3 <= n; i += 3) memcpy(buf + i, "研", 3);
  {
    toks a = {0}, b = {0};
    OK(run(m, 0, buf, i, &a) == 0 && run(m, FENCI_OPT_POS, buf, i, &b) == 0, "%s long line", name);
    check_same_tokens(&a, &b, "long line");
    free(a.t);
    free(b.t);
  }
  free(buf);
}

/* A damaged labeller section: header fields are refused, table bytes are
 * read safely (wrong tags at worst). */
static void test_corrupt(const fenci_model *m) {
  const fc_section *sec = fc_fmt_find(&m->file, "POSM");
  uint8_t *img;
  fc_chain *c = malloc(sizeof *c);
  size_t off;
  char err[200];
  if (!sec || !c) {
    OK(0, "no POSM section");
    free(c);
    return;
  }
  img = malloc(sec->size + 16);
  {
    fc_section s2 = *sec;
    uint8_t *al = img + ((16 - ((uintptr_t)img & 15)) & 15);
    s2.data = al;
    for (off = 4; off < 64; off += 4) { /* the group mask (48..55) too */
      size_t b;
      for (b = 0; b < 4; b++) {
        memcpy(al, sec->data, sec->size);
        al[off + b] ^= 0xFF;
        /* either refused with a message or still consistent enough to use */
        if (fc_chain_view(c, &s2, err, sizeof err) == FENCI_OK) {
          int32_t emit[FC_CHAIN_MAX_LABELS * 4] = {0};
          uint64_t keys[8] = {1, 2, 3, 4, 5, 6, 7, 8};
          uint32_t koff[5] = {0, 2, 4, 6, 8}, scratch[8 * FC_CHAIN_SCRATCH];
          uint8_t lab[4];
          fc_chain_work w = {0};
          fc_chain_emit_seq(c, keys, koff, 4, emit, scratch, NULL);
          OK(fc_chain_decode(c, emit, 4, NULL, lab, &w, NULL) == FENCI_OK, "decode after header damage");
          fc_chain_work_free(&w, NULL);
        } else
          OK(err[0] != 0, "a refused section has a message");
      }
    }
    /* random damage to the tables */
    {
      unsigned seed = 7, r;
      for (r = 0; r < 20; r++) {
        int32_t emit[FC_CHAIN_MAX_LABELS * 64];
        uint64_t keys[64 * 4];
        uint32_t koff[65], scratch[64 * 4 * FC_CHAIN_SCRATCH], i;
        uint8_t lab[64];
        fc_chain_work w = {0};
        memcpy(al, sec->data, sec->size);
        for (i = 0; i < 2000; i++) {
          seed = seed * 1103515245u + 12345u;
          al[64 + (seed >> 8) % (sec->size - 64)] = (uint8_t)seed;
        }
        if (fc_chain_view(c, &s2, err, sizeof err) != FENCI_OK) continue;
        memset(emit, 0, sizeof emit);
        for (i = 0; i < 64 * 4; i++) keys[i] = ((uint64_t)(i % 23 + 1) << 56) | (seed = seed * 1103515245u + 12345u);
        for (i = 0; i <= 64; i++) koff[i] = 4 * i;
        fc_chain_emit_seq(c, keys, koff, 64, emit, scratch, NULL);
        OK(fc_chain_decode(c, emit, 64, NULL, lab, &w, NULL) == FENCI_OK, "decode after table damage");
        for (i = 0; i < 64; i++) OK(lab[i] < c->n_labels, "label in range");
        fc_chain_work_free(&w, NULL);
      }
    }
  }
  free(img);
  free(c);
}

/* A damaged tag dictionary (after the labeller in POSM): its header is
 * refused with a message or consistent, its slots are read safely. */
static void test_corrupt_dict(const fenci_model *m) {
  const fc_section *sec = fc_fmt_find(&m->file, "POSM");
  static const char *const text[] = {"我们", "发展", "经济", "的", "发展", "。", "新词语"};
  fc_posword words[7];
  uint8_t *img;
  size_t off, i;
  char err[200];
  if (!sec || !m->pos || !m->pos_dict.n_slots) {
    OK(0, "no POS tag dictionary");
    return;
  }
  for (i = 0; i < 7; i++) {
    words[i].s = (const uint8_t *)text[i];
    words[i].len = strlen(text[i]);
    words[i].kind = FENCI_KIND_WORD;
  }
  img = malloc(sec->size + 16);
  if (!img) return;
  {
    fc_section s2 = *sec;
    uint8_t *al = img + ((16 - ((uintptr_t)img & 15)) & 15);
    size_t start = (size_t)(m->pos_dict.slots - sec->data) - FC_POSD_HEAD;
    unsigned seed = 11, r;
    s2.data = al;
    for (off = 0; off < FC_POSD_HEAD; off++) {
      fc_chain c;
      fc_pos_dict d;
      memcpy(al, sec->data, sec->size);
      al[start + off] ^= 0x5A;
      if (fc_chain_view(&c, &s2, err, sizeof err) != FENCI_OK) continue;
      if (fc_pos_dict_view(&d, &s2, &c, err, sizeof err) != FENCI_OK) OK(err[0] != 0, "a refused dictionary has a message");
      else OK(d.n_slots && !(d.n_slots & (d.n_slots - 1)) && d.max_probe < d.n_slots, "dictionary header consistent");
    }
    for (r = 0; r < 10; r++) {
      fenci_model m2 = *m;
      fc_chain c;
      fc_pos_work w;
      uint8_t lab[7];
      memcpy(al, sec->data, sec->size);
      for (i = 0; i < 5000; i++) {
        seed = seed * 1103515245u + 12345u;
        al[start + FC_POSD_HEAD + (seed >> 8) % (sec->size - start - FC_POSD_HEAD)] = (uint8_t)seed;
      }
      if (fc_chain_view(&c, &s2, err, sizeof err) != FENCI_OK ||
          fc_pos_dict_view(&m2.pos_dict, &s2, &c, err, sizeof err) != FENCI_OK)
        continue;
      memset(&w, 0, sizeof w);
      INT_EQ(fc_pos_tag(&m2, &c, &w, words, 7, lab, NULL), FENCI_OK);
      for (i = 0; i < 7; i++) OK(lab[i] < c.n_labels, "label in range after dictionary damage");
      fc_pos_work_free(&w, NULL);
    }
  }
  free(img);
}

/* Emissions with allowed labels (fc_chain_emit_seq's allow) equal the
 * full ones on every allowed label, rows of the real tagger included, and
 * the decoder gives each word one of its allowed labels. */
static void test_allow_rows(const fenci_model *m) {
  static const char *const text[] = {"中国", "经济", "发展", "很", "快", "，", "我们", "研究", "了",
                                     "这个", "问题", "的", "发展", "。"};
  enum { N = sizeof text / sizeof text[0] };
  fc_posword words[N];
  fc_pos_work w;
  uint64_t keys[N * FC_POS_MAX_KEYS], allow[N];
  uint32_t koff[N + 1], scratch[N * FC_POS_MAX_KEYS * FC_CHAIN_SCRATCH];
  int32_t e1[N * FC_CHAIN_MAX_LABELS], e2[N * FC_CHAIN_MAX_LABELS];
  uint8_t lab[N];
  fc_chain_work cw;
  const fc_chain *c = m->pos;
  size_t i, l, bad = 0, round;
  unsigned seed = 11;
  if (!c) {
    OK(0, "no tagger");
    return;
  }
  memset(&w, 0, sizeof w);
  memset(&cw, 0, sizeof cw);
  for (i = 0; i < N; i++) {
    words[i].s = (const uint8_t *)text[i];
    words[i].len = strlen(text[i]);
    words[i].kind = FENCI_KIND_WORD;
  }
  INT_EQ(fc_pos_prepare(&w, m, words, N, NULL), FENCI_OK);
  koff[0] = 0;
  for (i = 0; i < N; i++) koff[i + 1] = koff[i] + (uint32_t)fc_pos_keys(&w, words, N, i, keys + koff[i], FC_POS_TRAIN);
  memset(e1, 0, sizeof e1);
  fc_chain_emit_seq(c, keys, koff, N, e1, scratch, NULL);
  {
    /* the decoder's keys (grouped members it skips left out) give the same */
    for (i = 0; i < N; i++) koff[i + 1] = koff[i] + (uint32_t)fc_pos_keys(&w, words, N, i, keys + koff[i], FC_POS_DECODE);
    memset(e2, 0, sizeof e2);
    fc_chain_emit_seq(c, keys, koff, N, e2, scratch, NULL);
    OK(koff[N] < N * FC_POS_MAX_KEYS && !memcmp(e1, e2, N * c->n_labels * sizeof *e1),
       "decode keys give the training keys' emissions");
    /* the word's own keys and its context keys together give them too */
    for (i = 0; i < N; i++) {
      size_t k = fc_pos_own_keys(&w, words, N, i, keys + koff[i]);
      k += fc_pos_keys(&w, words, N, i, keys + koff[i] + k, FC_POS_CONTEXT);
      koff[i + 1] = koff[i] + (uint32_t)k;
    }
    memset(e2, 0, sizeof e2);
    fc_chain_emit_seq(c, keys, koff, N, e2, scratch, NULL);
    OK(koff[N] < N * FC_POS_MAX_KEYS && !memcmp(e1, e2, N * c->n_labels * sizeof *e1),
       "own and context keys give the training keys' emissions");
    for (i = 0; i < N; i++) koff[i + 1] = koff[i] + (uint32_t)fc_pos_keys(&w, words, N, i, keys + koff[i], FC_POS_TRAIN);
  }
  for (round = 0; round < 20; round++) {
    for (i = 0; i < N; i++) {
      seed = seed * 1103515245u + 12345u;
      allow[i] = round == 0 ? w.amb[i] : ((uint64_t)seed << 32 | (seed * 2654435761u)) >> (seed % 60);
      if (i % 5 == 4) allow[i] = FC_CHAIN_ALL;
    }
    memset(e2, 0, sizeof e2);
    fc_chain_emit_seq(c, keys, koff, N, e2, scratch, allow);
    for (i = 0; i < N; i++) {
      uint64_t am = allow[i] & fc_chain_label_mask(c->n_labels);
      for (l = 0; l < c->n_labels; l++)
        if ((!am || (am >> l & 1)) && e1[i * c->n_labels + l] != e2[i * c->n_labels + l]) bad++;
    }
    INT_EQ(fc_chain_decode(c, e2, N, allow, lab, &cw, NULL), FENCI_OK);
    for (i = 0; i < N; i++) {
      uint64_t am = allow[i] & fc_chain_label_mask(c->n_labels);
      OK(lab[i] < c->n_labels && (!am || (am >> lab[i] & 1)), "word %zu takes an allowed label", i);
    }
  }
  OK(bad == 0, "%zu emissions of allowed labels differ from the full ones", bad);
  fc_chain_work_free(&cw, NULL);
  fc_pos_work_free(&w, NULL);
}

/* The cache of a word type's own rows (fc_pos_work) changes nothing: with
 * it, cold and warm, and with it off, a text and a stream of more word
 * types than the cache holds get the same labels and, on every word that
 * is scored, the same emissions of its allowed labels; a work whose cache
 * holds another labeller's rows gives that labeller's own labels. */
static void test_own_rows(const fenci_model *m) {
  enum { NW = 2 * FC_POS_MAX_SEQ + 50 }; /* three pieces */
  const fc_section *sec = fc_fmt_find(&m->file, "POSM");
  const fc_chain *c = m->pos;
  FILE *f = fopen("samples/napoleon.txt", "rb");
  static char text[1 << 16];
  static fc_posword words[NW];
  static char synth[NW][16];
  uint8_t lab1[NW], lab2[NW], lab3[NW];
  size_t len, i, q, n = 0, bad = 0, l;
  toks v = {0};
  fc_pos_work w1, w2;
  if (!f || !c || !sec) {
    OK(0, "no sample text or no tagger");
    if (f) fclose(f);
    return;
  }
  len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  OK(run(m, FENCI_OPT_FAST, text, len, &v) == 0 && v.n > 100, "the sample is cut");
  /* the sample's words, every third one followed by a made-up word of two
   * of its characters (types enough to evict cache entries) */
  for (q = 0; v.n && n < NW; q++) { /* the sample again and again */
    i = q % v.n;
    words[n].s = (const uint8_t *)text + v.t[i].start;
    words[n].len = v.t[i].end - v.t[i].start;
    words[n++].kind = v.t[i].kind;
    if (q % 3 == 0 && n < NW) {
      size_t a = v.t[(q + 3) % v.n].start, b = v.t[(q / 3 + 7) % v.n].start;
      memcpy(synth[n], text + a, 3);
      memcpy(synth[n] + 3, text + b, 3);
      words[n].s = (const uint8_t *)synth[n];
      words[n].len = 6;
      words[n++].kind = FENCI_KIND_WORD;
    }
    if (q % 5 == 0 && n < NW) {
      /* three invalid bytes and a character: the normalised word is cut
       * short (each byte grows to U+FFFD), so its hash is that of the
       * three alone while its last character is not */
      memcpy(synth[n], "\xff\xff\xff", 3);
      memcpy(synth[n] + 3, text + v.t[(q * 7) % v.n].start, 3);
      words[n].s = (const uint8_t *)synth[n];
      words[n].len = 6;
      words[n++].kind = FENCI_KIND_WORD;
    }
  }
  memset(&w1, 0, sizeof w1);
  memset(&w2, 0, sizeof w2);
  w1.own.off = 1;
  INT_EQ(fc_pos_tag(m, c, &w1, words, n, lab1, NULL), FENCI_OK);
  INT_EQ(fc_pos_tag(m, c, &w2, words, n, lab2, NULL), FENCI_OK);
  OK(w2.own.e && !w1.own.e, "the cache is used, and off when asked");
  OK(n == NW, "%zu words", n);
  OK(!memcmp(lab1, lab2, n), "a cold cache gives the labels of none");
  /* the emissions left are those of the last piece, with its context */
  for (i = 0; i < n - ((n - 1) / FC_POS_MAX_SEQ * FC_POS_MAX_SEQ - FC_POS_CTX); i++) {
    uint64_t am = w1.allow[i] & fc_chain_label_mask(c->n_labels);
    if (am & (am - 1))
      for (l = 0; l < c->n_labels; l++)
        if ((am >> l & 1) && w1.emit[i * c->n_labels + l] != w2.emit[i * c->n_labels + l]) bad++;
  }
  OK(bad == 0, "%zu emissions of scored words differ with the cache", bad);
  INT_EQ(fc_pos_tag(m, c, &w2, words, n, lab3, NULL), FENCI_OK);
  OK(!memcmp(lab1, lab3, n), "a warm cache gives the labels of none");
  {
    /* one word alone, three invalid bytes and a character: its normalised
     * bytes are cut short, so words of different last characters share
     * their hash (a review's case: the second took the first's rows) */
    size_t diff = 0;
    for (i = 0; i < v.n; i++) {
      fc_posword one;
      uint8_t l1, l2;
      memcpy(synth[0], "\xff\xff\xff", 3);
      memcpy(synth[0] + 3, text + v.t[i].start, 3);
      one.s = (const uint8_t *)synth[0];
      one.len = 6;
      one.kind = FENCI_KIND_WORD;
      INT_EQ(fc_pos_tag(m, c, &w1, &one, 1, &l1, NULL), FENCI_OK);
      INT_EQ(fc_pos_tag(m, c, &w2, &one, 1, &l2, NULL), FENCI_OK);
      diff += l1 != l2;
    }
    OK(diff == 0, "%zu words cut short take other labels with the cache", diff);
  }
  {
    /* another labeller: the same section with other weights */
    uint8_t *al = malloc(sec->size + 16), *img = al + ((16 - ((uintptr_t)al & 15)) & 15);
    fc_section s2 = *sec;
    fc_chain c2;
    fenci_model m2 = *m;
    char err[200];
    unsigned seed = 3;
    size_t k;
    if (al) {
      memcpy(img, sec->data, sec->size);
      s2.data = img;
      /* weights (i16 pairs, past the slots) changed, the layout kept */
      INT_EQ(fc_chain_view(&c2, &s2, err, sizeof err), FENCI_OK);
      for (k = (size_t)(c2.pairs - img); k + 1 < (size_t)(c2.pairs - img) + (size_t)c2.n_pairs * 4; k += 4) {
        seed = seed * 1103515245u + 12345u;
        img[k + 2] ^= (uint8_t)(seed >> 16) & 0x3F;
      }
      m2.pos = &c2;
      w1.own.off = 1;
      INT_EQ(fc_pos_tag(&m2, &c2, &w1, words, n, lab1, NULL), FENCI_OK);
      INT_EQ(fc_pos_tag(&m2, &c2, &w2, words, n, lab2, NULL), FENCI_OK);
      OK(memcmp(lab1, lab3, n) != 0, "the other weights give other labels");
      OK(!memcmp(lab1, lab2, n), "a cache of another labeller's rows is not read");
      free(al);
    }
  }
  fc_pos_work_free(&w1, NULL);
  fc_pos_work_free(&w2, NULL);
  free(v.t);
}

int main(void) {
  static const char *const models[] = {"models/ctb.fenci", "models/pku.fenci", "models/msr.fenci",
                                       "models/lexicon.fenci"};
  size_t i;
  char err[512];
  fenci_model *lex = NULL;
  for (i = 0; i < sizeof models / sizeof models[0]; i++) {
    fenci_model *m = NULL;
    INT_EQ(fenci_model_open(&m, models[i], NULL, err, sizeof err), FENCI_OK);
    if (!m) continue;
    OK(fenci_model_has_pos(m), "%s has a tagger (through its lexicon)", models[i]);
    test_tags(m, models[i]);
    test_hostile(m, models[i]);
    if (i == 0) test_words(m);
    fenci_model_free(m);
  }
  INT_EQ(fenci_model_open(&lex, "models/lexicon.fenci", NULL, err, sizeof err), FENCI_OK);
  if (lex) test_corrupt(lex);
  if (lex) test_corrupt_dict(lex);
  if (lex) test_allow_rows(lex);
  if (lex) test_own_rows(lex);
  fenci_model_free(lex);
  {
    /* a model without a tagger refuses FENCI_OPT_POS */
    void *img = NULL;
    fenci_model *m = th_load_model("的 10 u\n我们 5 r\n", &img);
    fenci_tagger *t = NULL;
    if (m) {
      OK(!fenci_model_has_pos(m), "a compiled lexicon has no tagger");
      INT_EQ(fenci_tagger_new(&t, m, FENCI_OPT_POS), FENCI_BADARG);
      OK(t == NULL, "no tagger on failure");
      INT_EQ(fenci_tagger_new(&t, m, 0), FENCI_OK);
      INT_EQ(fenci_tagger_set_options(t, FENCI_OPT_POS), FENCI_BADARG);
      fenci_tagger_free(t);
    }
    fenci_model_free(m);
    fenci_free(NULL, img);
  }
  TEST_DONE();
}

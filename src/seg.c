/* seg.c - taggers and the public segmentation calls.
 *
 * Text is processed in chunks of at most FC_CHUNK bytes, cut preferably at
 * a line end, then at whitespace or sentence punctuation (never inside a
 * whitespace run, which is one token), so memory stays
 * bounded whatever the line length and no chunk boundary falls inside a
 * UTF-8 sequence.  Each chunk is scanned into units and lexicon edges, then
 * segmented by the trained model (when the model has one and FENCI_OPT_FAST
 * is off) or by the lexicon lattice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "dict.h"
#include "keywords.h"
#include "lattice.h"
#include "lookup.h"
#include "model.h"
#include "postag.h"
#include "tagger.h"
#include "units.h"
#include "wordpunct.h"

#define FC_TAGGER_OPTS (FENCI_MODE_MASK | FENCI_OPT_FAST | FENCI_OPT_POS | FENCI_OPT_BARE)
#define FC_CHUNK (64 * 1024)
#define FC_CHUNK_LOOKBACK 4096
#define FC_CHUNK_OVERLAP 2048 /* tail of a soft-cut chunk that is segmented again */
#define FC_POS_RCTX 512 /* text after a hard cut segmented for the tagger's right context */


fenci_rc fenci_tagger_new(fenci_tagger **out, const fenci_model *m, unsigned opts) {
  fenci_tagger *t;
  if (!out) return FENCI_BADARG;
  *out = NULL;
  if (!m || (opts & ~(unsigned)FC_TAGGER_OPTS) || (opts & FENCI_MODE_MASK) == FENCI_MODE_MASK ||
      ((opts & FENCI_OPT_POS) && !m->pos))
    return FENCI_BADARG;
  t = fc_calloc(&m->a, 1, sizeof *t);
  if (!t) return FENCI_NOMEM;
  t->m = m;
  t->opts = opts;
  *out = t;
  return FENCI_OK;
}

void fenci_tagger_free(fenci_tagger *t) {
  const fenci_alloc *a;
  if (!t) return;
  a = &t->m->a;
  fc_scan_free(&t->scan, a);
  fc_lattice_free(&t->lat, a);
  if (t->ss) fc_segscratch_free(t->ss, a);
  fc_free(a, t->tok);
  fc_free(a, t->tags);
  fc_pos_work_free(&t->pw, a);
  fc_free(a, t->pwords);
  fc_free(a, t->plab);
  fc_entities_free(t);
  fc_free(a, t);
}

fenci_rc fenci_tagger_set_options(fenci_tagger *t, unsigned opts) {
  if (!t || (opts & ~(unsigned)FC_TAGGER_OPTS) || (opts & FENCI_MODE_MASK) == FENCI_MODE_MASK)
    return FENCI_BADARG;
  if ((opts & FENCI_OPT_POS) && !t->m->pos) {
    snprintf(t->errmsg, sizeof t->errmsg, "the model has no part-of-speech tagger");
    return FENCI_BADARG;
  }
  t->opts = opts;
  return FENCI_OK;
}

fenci_rc fenci_tagger_set_dict(fenci_tagger *t, fenci_dict *d) {
  fenci_rc rc;
  if (!t) return FENCI_BADARG;
  if (d && d->m != t->m) {
    snprintf(t->errmsg, sizeof t->errmsg, "the dictionary belongs to another model");
    return FENCI_BADARG;
  }
  if (d) {
    rc = fc_dict_freeze(d);
    if (rc != FENCI_OK) {
      snprintf(t->errmsg, sizeof t->errmsg, "building the user dictionary failed: %s", fenci_rc_str(rc));
      return rc;
    }
  }
  t->d = d;
  return FENCI_OK;
}

const char *fenci_tagger_errmsg(const fenci_tagger *t) { return t ? t->errmsg : ""; }

/* The length of the whitespace character at s (n > 0 bytes), or 0. */
static size_t fc_space_len(const uint8_t *s, size_t n) {
  uint32_t cp;
  size_t l = fc_utf8_decode(s, n, &cp);
  return fc_char_class(cp) == FC_C_SPACE ? l : 0;
}

/* Where to end the chunk that starts at text[0].  *hard is set when the
 * end is the end of the text or a natural break (line end, whitespace,
 * sentence punctuation), where segmentation cannot depend on what follows. */
static size_t fc_chunk_end(const uint8_t *text, size_t n, int *hard) {
  size_t lim = n < FC_CHUNK ? n : FC_CHUNK, i, lo, l, nl = 0, ws = 0;
  *hard = 1;
  if (lim == n) return n;
  lo = lim > FC_CHUNK_LOOKBACK ? lim - FC_CHUNK_LOOKBACK : 0;
  /* The end of the last whitespace run that ends in the window, preferably
   * one that holds a line end: a run is one token, so the cut never falls
   * inside one (the chunks' words must not depend on where they are cut).
   * One pass; a run is followed no further than lim (text[lim] exists). */
  for (i = lo; i < lim;) {
    int has_nl = 0;
    uint32_t cp;
    l = fc_utf8_decode(text + i, n - i, &cp);
    if (fc_char_class(cp) != FC_C_SPACE) {
      i += l; /* lo may fall inside a sequence: its bytes are skipped one by one */
      continue;
    }
    do {
      has_nl |= text[i] == '\n';
      i += l;
    } while (i < lim && (l = fc_space_len(text + i, n - i)) > 0);
    if (i < lim || (i == lim && fc_space_len(text + lim, n - lim) == 0)) {
      ws = i;
      if (has_nl) nl = i;
    }
  }
  if (nl) return nl;
  if (ws) return ws;
  for (i = lim; i > lo; i--) {
    uint8_t c = text[i - 1];
    /* 。！？，；： end in 0x80 0x82 / 0xBC 0x81 ... : check whole sequences */
    if (i >= 3 && text[i - 3] == 0xE3 && text[i - 2] == 0x80 && (c == 0x82 || c == 0x81)) return i;
    if (i >= 3 && text[i - 3] == 0xEF && text[i - 2] == 0xBC && (c == 0x81 || c == 0x9F || c == 0x8C || c == 0x9B))
      return i;
  }
  /* no natural break: cut before a character start (not a continuation
   * byte); the caller re-segments the chunk's tail with the next chunk */
  *hard = 0;
  for (i = lim; i > lo; i--)
    if ((text[i] & 0xC0) != 0x80) return i;
  return lim;
}

typedef struct fc_emit {
  fenci_token_cb cb;
  void *ctx;
  const char *text; /* the whole caller text */
  size_t base;      /* offset of the chunk in it */
} fc_emit;

static int fc_emit_tok(const fc_emit *em, size_t start, size_t end, uint32_t flags, uint16_t kind, uint16_t tag) {
  fenci_token tok;
  tok.start = em->base + start;
  tok.end = em->base + end;
  tok.flags = flags;
  tok.kind = kind;
  tok.tag = tag;
  return em->cb(em->ctx, &tok, em->text + tok.start, tok.end - tok.start);
}

/* Edge over exactly units [a, b), or -1. */
static int32_t fc_find_edge(const fc_scan *s, uint32_t a, uint32_t b) {
  uint32_t k;
  for (k = s->first[a]; k < s->first[a + 1]; k++)
    if (s->e[k].to == b) return (int32_t)k;
  return -1;
}

static fenci_rc fc_ensure_tokens(fenci_tagger *t, size_t n) {
  const fenci_alloc *a = &t->m->a;
  if (n <= t->tcap) return FENCI_OK;
  {
    size_t nc = n + n / 2 + 16;
    fc_tok *e = fc_realloc(a, t->tok, nc * sizeof *e);
    uint8_t *tg;
    if (!e) return FENCI_NOMEM;
    t->tok = e;
    tg = fc_realloc(a, t->tags, nc);
    if (!tg) return FENCI_NOMEM;
    t->tags = tg;
    t->tcap = nc;
  }
  return FENCI_OK;
}

static fenci_rc fc_pos_room(fenci_tagger *t, size_t n) {
  const fenci_alloc *a = &t->m->a;
  void *p;
  if (n <= t->pcap) return FENCI_OK;
  n += n / 2 + 16;
  if (!(p = fc_realloc(a, t->pwords, n * sizeof *t->pwords))) return FENCI_NOMEM;
  t->pwords = p;
  if (!(p = fc_realloc(a, t->plab, n))) return FENCI_NOMEM;
  t->plab = p;
  t->pcap = n;
  return FENCI_OK;
}

/* Runs the POS tagger over t->pwords[0..n) into t->plab. */
static fenci_rc fc_tag_run(fenci_tagger *t, size_t n) {
  return fc_pos_tag(t->m, t->m->pos, &t->pw, t->pwords, n, t->plab, &t->m->a);
}

/* The tag id of word i after fc_tag_run: none for whitespace and invalid bytes. */
static uint16_t fc_tag_id(const fenci_tagger *t, size_t i) {
  uint16_t k = t->pwords[i].kind;
  if (k == FENCI_KIND_SPACE || k == FENCI_KIND_INVALID || t->plab[i] >= t->m->pos->n_labels) return 0;
  return t->m->pos_tag[t->plab[i]];
}

/* The word of token [from, to) of the scan over chunk, for the tagger. */
static void fc_tok_posword(const fc_scan *s, const uint8_t *chunk, uint32_t from, uint32_t to, fc_posword *w) {
  w->s = chunk + s->u[from].start;
  w->len = s->u[to - 1].end - s->u[from].start;
  w->kind = to == from + 1 ? s->u[from].kind : FENCI_KIND_WORD;
}

/* POS tags of the chunk's first nt tokens, in context, into their tag: the
 * words before them are the last ones of the previous chunk (t->pctx), the
 * words after them the chunk's tokens from nt to nall (its tail, which the
 * next chunk segments again), at most FC_POS_CTX each; so a tag does not
 * depend on where a long line is cut into chunks. */
static fenci_rc fc_tag_chunk(fenci_tagger *t, const uint8_t *chunk, size_t nt, size_t nall) {
  const fc_scan *s = &t->scan;
  size_t k, nl = t->n_pctx, nr = nall - nt > FC_POS_CTX ? nt + FC_POS_CTX : nall, keep;
  size_t nx = nall == nt ? t->n_rctx : 0; /* after a hard cut: the words that follow it */
  uint32_t from;
  fenci_rc rc = fc_pos_room(t, nl + nr + nx + 1);
  if (rc != FENCI_OK) return rc;
  memcpy(t->pwords, t->pctx, nl * sizeof *t->pwords);
  for (k = 0, from = 0; k < nr; from = t->tok[k++].end) fc_tok_posword(s, chunk, from, t->tok[k].end, &t->pwords[nl + k]);
  memcpy(t->pwords + nl + nr, t->rctx, nx * sizeof *t->pwords);
  rc = fc_tag_run(t, nl + nr + nx);
  if (rc != FENCI_OK) return rc;
  for (k = 0; k < nt; k++) t->tok[k].tag = fc_tag_id(t, nl + k);
  /* the context of the next chunk: these words' bytes are the caller's;
   * at most FC_POS_CTX_BYTES of them (some 30 times what 32 words of text
   * take), so that a chunk of one huge token (a 64 KB run of letters) does
   * not hand on 32 of them to prepare again with every chunk */
  keep = nl + nt < FC_POS_CTX ? nl + nt : FC_POS_CTX;
  {
    size_t bytes = 0, q;
    for (q = 0; q < keep; q++) {
      bytes += t->pwords[nl + nt - 1 - q].len;
      if (bytes > FC_POS_CTX_BYTES) break;
    }
    keep = q;
  }
  memmove(t->pctx, t->pwords + nl + nt - keep, keep * sizeof *t->pctx);
  t->n_pctx = keep;
  return FENCI_OK;
}

fenci_rc fenci_tag_words(fenci_tagger *t, const char *const *words, const size_t *lens, size_t n, uint16_t *tags) {
  size_t i;
  fenci_rc rc;
  if (!t) return FENCI_BADARG;
  t->errmsg[0] = 0;
  if (!t->m->pos) {
    snprintf(t->errmsg, sizeof t->errmsg, "the model has no part-of-speech tagger");
    return FENCI_BADARG;
  }
  if (n && (!words || !lens || !tags)) {
    snprintf(t->errmsg, sizeof t->errmsg, "fenci_tag_words: NULL array");
    return FENCI_BADARG;
  }
  rc = fc_pos_room(t, n + 1);
  if (rc != FENCI_OK) return rc;
  for (i = 0; i < n; i++) {
    uint8_t kind, cls;
    uint32_t cp;
    const uint8_t *s = (const uint8_t *)words[i];
    if (!s && lens[i]) {
      snprintf(t->errmsg, sizeof t->errmsg, "fenci_tag_words: word %zu is NULL", i);
      return FENCI_BADARG;
    }
    t->pwords[i].s = s ? s : (const uint8_t *)"";
    t->pwords[i].len = lens[i];
    t->pwords[i].kind = lens[i] && fc_unit_len(s, lens[i], &kind, &cls, &cp) == lens[i] ? kind : FENCI_KIND_WORD;
  }
  rc = fc_tag_run(t, n);
  for (i = 0; rc == FENCI_OK && i < n; i++) tags[i] = fc_tag_id(t, i);
  if (rc != FENCI_OK) snprintf(t->errmsg, sizeof t->errmsg, "%s", fenci_rc_str(rc));
  return rc;
}

/* Segments chunk[0..len) and emits its tokens.  With keep < len (a chunk cut
 * in the middle of running text) only the tokens ending at or before keep
 * are emitted, and *used says where they end: the rest is segmented again
 * with the following text, so no word is split by a chunk boundary.
 * Without em, the first FC_POS_CTX tokens become the tagger's right
 * context after a hard cut (t->rctx), untagged and not emitted. */
static fenci_rc fc_segment_chunk(fenci_tagger *t, const uint8_t *chunk, size_t len, size_t keep, const fc_emit *em,
                                 size_t *used) {
  const fenci_model *m = t->m;
  const fenci_alloc *a = &m->a;
  fc_scan *s = &t->scan;
  size_t nt = 0, nall, k, i;
  unsigned mode = t->opts & FENCI_MODE_MASK;
  fenci_rc rc;
  uint32_t from;

  int use_model = m->seg && !(t->opts & FENCI_OPT_FAST);
  int bare = (t->opts & FENCI_OPT_BARE) != 0;
  /* without user words and extras no edge list is needed: the lexicon is
   * looked up on the fly (lexicon mode) or only for the features and the
   * tokens' tags (trained model) */
  int fused = mode == FENCI_MODE_DEFAULT && !(t->d && t->d->n_final);
  rc = fused ? fc_scan_units(s, chunk, len, use_model, a) : fc_scan_run(s, m, t->d, chunk, len, use_model, a);
  if (rc != FENCI_OK) return rc;
  if (fused && use_model) {
    /* the lattice path also tells the bigram step what is settled */
    rc = fc_scan_lexfeats(s, m, fc_segmodel_uses_lat(m->seg) || m->bigram.slots, a);
    if (rc != FENCI_OK) return rc;
  }
  rc = fc_ensure_tokens(t, s->n + 1);
  if (rc != FENCI_OK) return rc;
  if (use_model) {
    if (!t->ss) {
      rc = fc_segscratch_new(&t->ss, a);
      if (rc != FENCI_OK) return rc;
    }
    size_t brackets = fc_punct_marks(s->u, s->n, chunk, s->pu, s->npu);
    rc = fc_segmodel_tag(m->seg, t->ss, s->u, s->n, t->tags);
    if (rc != FENCI_OK) return rc;
    fc_bigram_resolve(s, m, !fused, t->tags);
    /* a word with a bracket and not its partner, mended in its tags */
    if (brackets) fc_punct_repair(s->u, s->n, t->tags, s->pu, s->npu);
    /* a token ends after E or S, and always before a forced B/S */
    for (i = 0, from = 0; i < s->n; i++) {
      uint8_t tg = t->tags[i];
      int end = tg == FC_TAG_E || tg == FC_TAG_S || i + 1 == s->n;
      if (!end && i + 1 < s->n) {
        uint8_t f = s->u[i + 1].force;
        if (f == 1 + FC_TAG_B || f == 1 + FC_TAG_S) end = 1;
      }
      if (end) {
        fc_tok *tk = &t->tok[nt++];
        tk->end = (uint32_t)(i + 1);
        tk->pad = 0;
        tk->tag = 0;
        tk->src = FC_SRC_NONE;
        if (fused) {
          uint32_t v;
          /* (bare: the caller wants neither the tag nor the OOV flag) */
          if (!bare && s->u[from].kind != FENCI_KIND_SPACE && s->u[from].kind != FENCI_KIND_INVALID &&
              fc_scan_word(s, m, from, i + 1, &v)) {
            tk->tag = fc_model_tag(m, v);
            tk->src = FC_SRC_LEX;
          }
        } else {
          int32_t e = fc_find_edge(s, from, (uint32_t)(i + 1));
          if (e >= 0 && s->e[e].user != FC_EDGE_UNK) {
            tk->tag = s->e[e].tag;
            tk->src = s->e[e].user ? FC_SRC_USER : FC_SRC_LEX;
          }
        }
        from = (uint32_t)(i + 1);
      }
    }
  } else {
    rc = fused ? fc_lattice_scan(&t->lat, s, m, !bare, t->tok, &nt, a)
               : fc_lattice_best(&t->lat, s, m, t->d != NULL && t->d->n_final > 0, t->tok, &nt, a);
    if (rc != FENCI_OK) return rc;

  }
  *used = len;
  nall = nt;
  if (!em) {
    for (k = 0, from = 0; k < nt && k < FC_POS_CTX; from = t->tok[k++].end) fc_tok_posword(s, chunk, from, t->tok[k].end, &t->rctx[k]);
    t->n_rctx = k;
    return FENCI_OK;
  }
  if (keep < len) {
    /* the last token ending at or before keep; all tokens if none does */
    size_t lastk = nt;
    for (k = nt; k-- > 0;)
      if (s->u[t->tok[k].end - 1].end <= keep) {
        lastk = k + 1;
        break;
      }
    /* A token that straddles keep and starts more than the overlap before
     * it is emitted too: otherwise a long token near the end would keep
     * the next chunk from starting more than a few bytes later, and a line
     * without breaks would take quadratic time.  Every soft-cut chunk so
     * emits at least len - 2 * FC_CHUNK_OVERLAP bytes. */
    if (lastk < nt && s->u[t->tok[lastk - 1].end - 1].end + FC_CHUNK_OVERLAP < keep) lastk++;
    if (lastk < nt) {
      nt = lastk;
      *used = s->u[t->tok[nt - 1].end - 1].end;
    }
  }
  if (t->opts & FENCI_OPT_POS) {
    rc = fc_tag_chunk(t, chunk, nt, nall);
    if (rc != FENCI_OK) return rc;
  }
  for (k = 0, from = 0; k < nt; k++) {
    const fc_tok *tk = &t->tok[k];
    uint32_t to = tk->end;
    const fc_unit *u0 = &s->u[from];
    uint16_t kind = to == from + 1 ? u0->kind : FENCI_KIND_WORD;
    uint32_t flags = 0;
    uint16_t tag = tk->tag;
    if (tk->src == FC_SRC_USER) flags |= FENCI_TOK_USER;
    else if (!bare && tk->src != FC_SRC_LEX && (kind == FENCI_KIND_WORD || kind == FENCI_KIND_OTHER))
      flags |= FENCI_TOK_OOV;
    if (bare && !(t->opts & FENCI_OPT_POS)) tag = 0;
    if (kind == FENCI_KIND_INVALID) flags |= FENCI_TOK_INVALID;
    if (fc_emit_tok(em, u0->start, s->u[to - 1].end, flags, kind, tag)) return FENCI_STOPPED;
    if (mode != FENCI_MODE_DEFAULT && to > from + 1) {
      /* extras: lexicon words starting inside this token; search mode keeps
       * those inside it, all mode every one; the token itself is skipped */
      uint32_t p;
      for (p = from; p < to; p++) {
        uint32_t q;
        for (q = s->first[p]; q < s->first[p + 1]; q++) {
          const fc_edge *x = &s->e[q];
          if (x->to - x->from < 2 || x->user == FC_EDGE_UNK) continue;
          if (x->from == from && x->to == to) continue;
          if (mode == FENCI_MODE_SEARCH && x->to > to) continue;
          if (fc_emit_tok(em, s->u[x->from].start, s->u[x->to - 1].end, FENCI_TOK_EXTRA | (x->user ? FENCI_TOK_USER : 0),
                          FENCI_KIND_WORD, x->tag))
            return FENCI_STOPPED;
        }
      }
    } else if (mode == FENCI_MODE_ALL) {
      uint32_t q;
      for (q = s->first[from]; q < s->first[from + 1]; q++) {
        const fc_edge *x = &s->e[q];
        if (x->to - x->from < 2 || x->user == FC_EDGE_UNK) continue;
        if (fc_emit_tok(em, s->u[x->from].start, s->u[x->to - 1].end, FENCI_TOK_EXTRA | (x->user ? FENCI_TOK_USER : 0),
                        FENCI_KIND_WORD, x->tag))
          return FENCI_STOPPED;
      }
    }
    from = to;
  }
  return FENCI_OK;
}

fenci_rc fenci_segment(fenci_tagger *t, const char *text, size_t len, fenci_token_cb cb, void *ctx) {
  fc_emit em;
  size_t pos = 0;
  if (!t) return FENCI_BADARG;
  t->errmsg[0] = 0;
  if ((!text && len) || !cb) {
    snprintf(t->errmsg, sizeof t->errmsg, "fenci_segment: NULL text or callback");
    return FENCI_BADARG;
  }
  em.cb = cb;
  em.ctx = ctx;
  em.text = text;
  t->n_pctx = 0;
  while (pos < len) {
    const uint8_t *p = (const uint8_t *)text + pos;
    int hard;
    size_t n = fc_chunk_end(p, len - pos, &hard), used = n;
    fenci_rc rc = FENCI_OK;
    em.base = pos;
    /* a hard cut leaves the tagger no words after the chunk: the text that
     * follows is segmented on its own first (as the next chunk will be),
     * its first words the chunk's right context, so the words before the
     * cut are tagged as they are in an uncut line; the chunk itself is cut
     * exactly as without tags (a unit or word across the cut would
     * otherwise move it: a run of one punctuation mark past 64 KB) */
    t->n_rctx = 0;
    if (hard && (t->opts & FENCI_OPT_POS) && n < len - pos) {
      size_t r = len - pos - n > FC_POS_RCTX ? FC_POS_RCTX : len - pos - n, rused;
      while (r > 0 && n + r < len - pos && (p[n + r] & 0xC0) == 0x80) r--;
      if (r > 0) rc = fc_segment_chunk(t, p + n, r, r, NULL, &rused);
    }
    if (rc == FENCI_OK) rc = fc_segment_chunk(t, p, n, hard ? n : n - FC_CHUNK_OVERLAP, &em, &used);
    if (rc != FENCI_OK) {
      if (rc == FENCI_STOPPED) snprintf(t->errmsg, sizeof t->errmsg, "stopped by the token callback");
      else snprintf(t->errmsg, sizeof t->errmsg, "%s", fenci_rc_str(rc));
      return rc;
    }
    pos += used;
  }
  return FENCI_OK;
}

typedef struct fc_into {
  fenci_token *out;
  size_t cap, n;
} fc_into;

static int fc_into_cb(void *ctx, const fenci_token *tok, const char *form, size_t form_len) {
  fc_into *in = ctx;
  (void)form;
  (void)form_len;
  if (in->n < in->cap) in->out[in->n] = *tok;
  in->n++;
  return 0;
}

fenci_rc fenci_segment_into(fenci_tagger *t, const char *text, size_t len, fenci_token *out, size_t cap,
                            size_t *n_total) {
  fc_into in;
  fenci_rc rc;
  if (n_total) *n_total = 0;
  if (!t || (!out && cap) || !n_total) return FENCI_BADARG;
  in.out = out;
  in.cap = cap;
  in.n = 0;
  rc = fenci_segment(t, text, len, fc_into_cb, &in);
  *n_total = in.n;
  if (rc == FENCI_OK && in.n > cap) {
    snprintf(t->errmsg, sizeof t->errmsg, "%zu tokens do not fit in an array of %zu", in.n, cap);
    return FENCI_TOOSMALL;
  }
  return rc;
}

/* For keywords.c, which segments through a tagger it cannot see into. */
const fenci_model *fc_tagger_model(const fenci_tagger *t) { return t->m; }
void fc_tagger_errset(fenci_tagger *t, const char *msg) { snprintf(t->errmsg, sizeof t->errmsg, "%s", msg); }

/* entities.c - fenci_entities: names from the character labeller
 * (nertag.c) and times and quantities from the rules (numex.c), merged in
 * order of their start.  The text is taken a block at a time (a line, or
 * at most FC_ENT_BLOCK bytes of a longer one, cut before a character), so
 * memory is bounded and every byte is looked at a bounded number of
 * times.  Blocks cut inside a line overlap by 2 * FC_ENT_CTX bytes: each
 * owns the entities that start in its middle, found with FC_ENT_CTX bytes
 * of context on either side, so that no cut splits an entity. */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "chars.h"
#include "model.h"
#include "nertag.h"
#include "numex.h"
#include "tagger.h"
#include "t2s.h"
#include "units.h"
#include "wordgap.h"
#include "wordpunct.h"

#define FC_ENT_BLOCK (64 * 1024)
#define FC_ENT_CTX 2048
/* A time or quantity longer than this many bytes (a run of 1,025 digits)
 * is no entity: its value means nothing, and one over FC_ENT_CTX could be
 * seen whole or cut short depending on where the blocks of its line fall.
 * Below FC_ENT_CTX, so that a cut one (at least FC_ENT_CTX long) always
 * goes too: the output does not depend on the cuts. */
#define FC_ENT_NUMEX_MAX 1024

void fc_entities_free(fenci_tagger *t) {
  const fenci_alloc *a = &t->m->a;
  fc_ner_work_free(&t->nw, a);
  fc_free(a, t->ecp);
  fc_free(a, t->eoff);
  fc_free(a, t->elab);
  fc_free(a, t->url);
  if (t->gap) fc_gap_free(t->gap, a);
  fc_free(a, t->gap);
  t->gap = NULL;
  fc_free(a, t->efold);
  t->efold = NULL;
  t->efcap = 0;
  t->url = NULL;
  t->ucap = 0;
  t->ecp = NULL;
  t->eoff = NULL;
  t->elab = NULL;
  t->ecap = 0;
}

const char *fenci_entity_type_name(int type) {
  static const char *const names[] = {"", "PER", "LOC", "ORG", "TIME", "NUMBER", "PERCENT", "MONEY", "QUANTITY"};
  return type >= 1 && type <= FENCI_ENT_QUANTITY ? names[type] : "";
}

/* One block: its place in the caller's text and the names found in it. */
typedef struct fc_ent_block {
  fenci_tagger *t;
  const char *text; /* the block */
  const char *rtext; /* what the time and quantity rules read: the block, or its simplified copy */
  size_t len;       /* its length in bytes */
  int nomem;        /* the words near a time or quantity could not be read */
  size_t base;      /* byte offset of the block in the caller's text */
  size_t cbase;     /* character offset of the block */
  size_t n;         /* characters in the block */
  size_t name_at;   /* next character to look for a name from */
  fenci_entity_cb cb;
  void *ctx;
  int stopped;
  const uint32_t *url; /* URL and e-mail spans of the block (byte pairs), sorted */
  size_t n_url, url_at;
  size_t own_lo, own_hi; /* the entities emitted start in [own_lo, own_hi) of the caller's text */
  size_t *last_end;      /* ... and at or after the end of the last one emitted */
} fc_ent_block;

/* 1 when [s, e) overlaps a URL or e-mail address: no entity is taken
 * from inside one (the 1814 of .../history/1814). */
static int fc_ent_in_url(fc_ent_block *b, size_t s, size_t e) {
  while (b->url_at < b->n_url && b->url[2 * b->url_at + 1] <= s) b->url_at++;
  return b->url_at < b->n_url && b->url[2 * b->url_at] < e;
}

/* The character index of byte offset off of the block (a character start). */
static size_t fc_ent_char(const fc_ent_block *b, size_t off) {
  size_t lo = 0, hi = b->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (b->t->eoff[mid] < off) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static int fc_ent_emit(fc_ent_block *b, fenci_entity *e) {
  if (b->stopped) return 1;
  if (e->start < b->own_lo || e->start >= b->own_hi || e->start < *b->last_end) return 0; /* another block's */
  *b->last_end = e->end;
  if (b->cb(b->ctx, e)) b->stopped = 1;
  return b->stopped;
}

/* Titles and forms of address after a name, never part of it (msra-ner
 * marks 同志, 女士, 博士, 老师, 伯爵 ... outside the 17,615 names of its
 * training text): a person's name that the recogniser ran on into one
 * ends before it (陈女士 -> 陈, 瓦莱夫斯卡伯爵 -> 瓦莱夫斯卡). */
static const char *const fc_ent_titles[] = {
    "同志", "女士", "先生", "夫人", "小姐", "太太", "博士", "教授", "老师", "师傅", "阿姨", "大爷", "大妈", "大娘",
    "伯爵", "公爵", "侯爵", "子爵", "男爵", "爵士", "总统", "主席", "总理", "首相", "部长", "将军", "元帅", "大使",
    "书记", "市长", "省长", "院士", "医生", "大夫", "经理", "主任", "校长", "局长", "厂长", "县长", "议员", NULL};

/* The longest name of each type in characters (PER, LOC, ORG): about
 * twice the longest in msra-ner train (17, 24 and 35).  On repetitive
 * text without punctuation the recogniser can label a whole piece as one
 * name (CEO蒂姆·库克 x 2000): the labels of a longer span, B and the I and E
 * after it, are cleared before the times and quantities that it would
 * cover are weighed against it (a number under it is kept). */
static const size_t fc_ent_name_max[4] = {0, 32, 48, 72};
static void fc_ent_cap_names(fenci_tagger *t, size_t n) {
  size_t i = 0, j;
  while (i < n) {
    int ty = fc_ner_type(t->elab[i]);
    if (fc_ner_pos(t->elab[i]) != 0) {
      i++;
      continue;
    }
    for (j = i + 1; j < n && fc_ner_type(t->elab[j]) == ty && (fc_ner_pos(t->elab[j]) == 1 || fc_ner_pos(t->elab[j]) == 2);) {
      j++;
      if (fc_ner_pos(t->elab[j - 1]) == 2) break;
    }
    if (j - i > fc_ent_name_max[ty]) memset(t->elab + i, 0, j - i);
    i = j;
  }
}

/* 1 when code point c may begin or end a name: not a space, and not
 * a mark that no name of msra-ner's test begins or ends with (its names
 * have quotes and brackets there, 《人民日报》, never ~ , - or a space). */
static int fc_ent_name_edge(uint32_t c) {
  static const char marks[] = ",.;:!?~-_=+*/\\|^&%$#@`";
  int cls = fc_char_class(c);
  if (cls == FC_C_SPACE || cls == FC_C_INVALID) return 0;
  if (c < 0x80) return !strchr(marks, (int)c);
  switch (c) {
  case 0xFF0C: case 0x3002: case 0xFF1B: case 0xFF1A: case 0xFF01: case 0xFF1F: /* ，。；：！？ */
  case 0xFF5E: case 0xFF0D: case 0x3001: case 0x2026: case 0x2014: case 0x2013: /* ～－、…—– */
    return 0;
  default:
    return 1;
  }
}

/* Clears the labels of the names among n characters that hold no letter
 * of any script (~- as a place) or begin or end where no name does (~零,
 * " 零" before 零下10℃): the recogniser's guesses on symbols, which would
 * otherwise push the time or quantity they cross aside. */
static void fc_ent_drop_odd_names(fenci_tagger *t, size_t n) {
  size_t i = 0, j, k;
  while (i < n) {
    int ty = fc_ner_type(t->elab[i]), letter = 0;
    if (fc_ner_pos(t->elab[i]) != 0 && fc_ner_pos(t->elab[i]) != 3) {
      i++;
      continue;
    }
    j = i + 1;
    if (fc_ner_pos(t->elab[i]) == 0) {
      while (j < n && fc_ner_type(t->elab[j]) == ty && fc_ner_pos(t->elab[j]) == 1) j++;
      if (j < n && fc_ner_type(t->elab[j]) == ty && fc_ner_pos(t->elab[j]) == 2) j++;
    }
    for (k = i; k < j && !letter; k++) {
      int c = fc_char_class(t->ecp[k]);
      letter = c == FC_C_HAN || c == FC_C_LATIN || c == FC_C_KANA || c == FC_C_HANGUL || c == FC_C_OTHER;
    }
    if (!letter || !fc_ent_name_edge(t->ecp[i]) || !fc_ent_name_edge(t->ecp[j - 1])) memset(t->elab + i, 0, j - i);
    i = j;
  }
}

/* The end of a person's name [i, j) of the block without a title at its
 * end (at least one character is left). */
static size_t fc_ent_name_end(const fc_ent_block *b, size_t i, size_t j) {
  const fenci_tagger *t = b->t;
  size_t k;
  if (j < i + 3) return j;
  for (k = 0; fc_ent_titles[k]; k++) {
    size_t tl = strlen(fc_ent_titles[k]), s = t->eoff[j - 2], e = t->eoff[j];
    if (e - s == tl && memcmp(b->text + s, fc_ent_titles[k], tl) == 0) return j - 2;
  }
  return j;
}

/* The bracket at character k of the block (fc_punct_bracket), 0 if none. */
static int fc_ent_bracket_at(const fc_ent_block *b, size_t k) {
  const fenci_tagger *t = b->t;
  uint32_t cp;
  size_t l = t->eoff[k + 1] - t->eoff[k];
  if (l > 3 || fc_utf8_decode((const uint8_t *)b->text + t->eoff[k], l, &cp) != l) return 0;
  return fc_punct_bracket(fc_char_norm(cp));
}

/* A name holds a bracket only with its partner, as every name of the
 * MSRA test does (《两岸关系》杂志, “幸福工程”组委会): where the recogniser
 * left one out, the partner right outside the name is taken in (“东方红三
 * 号”卫星, 美国FDA（药品与食品管理局）), an unpaired bracket at an edge is
 * left out (（记者刘程） gives 刘程), and a name with one left inside is
 * dropped.  Works on characters [*s, *e) of the block, not before lo;
 * returns 0 for no name. */
static int fc_ent_pair_brackets(const fc_ent_block *b, size_t lo, size_t *s, size_t *e) {
  size_t k, guard;
  for (guard = 0; *s < *e && guard < 2 * (*e - *s) + 4; guard++) {
    int open[16], top = 0, unpaired = 0, first = 0, last = 0, kind = 0;
    size_t fpos = 0, lpos = 0;
    for (k = *s; k < *e; k++) {
      int br = fc_ent_bracket_at(b, k), bad = 0;
      if (br > 0) {
        if (top < 16) open[top++] = br;
        else bad = 1;
      } else if (br < 0) {
        if (top && open[top - 1] == -br) top--;
        else bad = 1;
      }
      if (bad) {
        if (!unpaired++) fpos = k, first = br;
        lpos = k, last = br, kind = br;
      }
    }
    if (top) { /* unclosed ones: the last of them is the last unpaired */
      int depth = 0;
      for (k = *e; k-- > *s;) {
        int br = fc_ent_bracket_at(b, k);
        if (br < 0) depth++;
        else if (br > 0 && depth) depth--;
        else if (br > 0) {
          if (!unpaired || k > lpos) lpos = k, last = br;
          if (!unpaired || k < fpos) fpos = k, first = br;
          kind = br;
          unpaired++;
        }
      }
    }
    if (!unpaired) return 1;
    if (unpaired == 1 && kind < 0 && *s > lo && fc_ent_bracket_at(b, *s - 1) == -kind) {
      (*s)--;
      continue;
    }
    if (unpaired == 1 && kind > 0 && *e < b->n && fc_ent_bracket_at(b, *e) == -kind) {
      (*e)++;
      continue;
    }
    if (fpos == *s && first) {
      (*s)++;
      continue;
    }
    if (lpos + 1 == *e && last) {
      (*e)--;
      continue;
    }
    return 0;
  }
  return 0; /* nothing left, or no pairing found in the rounds a name's length allows */
}

/* Emits the names that end at or before character limit (all when limit
 * is b->n), from b->name_at on. */
static int fc_ent_names_until(fc_ent_block *b, size_t limit) {
  fenci_tagger *t = b->t;
  size_t i = b->name_at;
  if (!t->m->ner) return 0;
  while (i < b->n) {
    unsigned l = t->elab[i];
    int ps = fc_ner_pos(l), ty = fc_ner_type(l);
    size_t j = i + 1;
    if (ps != 0 && ps != 3) {
      i++;
      continue;
    }
    if (ps == 0) {
      /* B (I)* E of one type; anything else is no entity */
      while (j < b->n && fc_ner_pos(t->elab[j]) == 1 && fc_ner_type(t->elab[j]) == ty) j++;
      if (j >= b->n || fc_ner_pos(t->elab[j]) != 2 || fc_ner_type(t->elab[j]) != ty) {
        i = j;
        continue;
      }
      j++;
    }
    if (j > limit) break;
    if (b->n_url && fc_ent_in_url(b, t->eoff[i], t->eoff[j])) {
      i = j;
      continue;
    }
    {
      fenci_entity e;
      size_t je = ty == FENCI_ENT_PER ? fc_ent_name_end(b, i, j) : j, is = i;
      /* not before the last name emitted (fc_ent_emit drops what starts there) */
      size_t lo = *b->last_end > b->base ? fc_ent_char(b, *b->last_end - b->base) : 0;
      if (!fc_ent_pair_brackets(b, lo > b->name_at ? lo : b->name_at, &is, &je)) {
        i = j;
        continue;
      }
      if (je > limit) break; /* its partner taken in: decided with the next limit */
      if (je > j) j = je;
      i = is;
      memset(&e, 0, sizeof e);
      e.type = ty; /* PER LOC ORG are 1 2 3, as FENCI_ENT_* */
      e.start = b->base + t->eoff[i];
      e.end = b->base + t->eoff[je];
      e.cstart = b->cbase + i;
      e.cend = b->cbase + je;
      e.value_text = "";
      e.unit_start = e.unit_end = e.start;
      if (fc_ent_emit(b, &e)) return 1;
    }
    i = j;
  }
  b->name_at = i;
  return 0;
}

/* The lexicon's words near byte p of the block, for the time and
 * quantity rules (fc_numex_gap_fn). */
static int fc_ent_gap(void *ctx, size_t p, fc_numex_word *w) {
  fc_ent_block *b = ctx;
  fenci_tagger *t = b->t;
  const fenci_alloc *a = &t->m->a;
  fc_gap_word g;
  if (!t->gap && !(t->gap = fc_calloc(a, 1, sizeof *t->gap))) {
    b->nomem = 1;
    return 1;
  }
  if (fc_gap_at(t->gap, t->m, (const uint8_t *)b->rtext, b->len, p, &g, a) != FENCI_OK) {
    b->nomem = 1;
    return 1;
  }
  w->cost = g.cost;
  w->start = g.start;
  w->end = g.end;
  w->set_phrase = 0;
  if (g.word != FC_GAP_NOWORD) {
    const char *tag = fenci_tag_name(t->m, fc_model_tag(t->m, g.word));
    w->set_phrase = tag && !strcmp(tag, "i");
  }
  return 0;
}

/* A time or quantity: the names before it first.  A name that crosses its
 * edges wins (it was found from more context) and the rule's entity is
 * dropped; names wholly inside it are dropped instead (日 of 6日 as a
 * place: a date's parts are no names). */
static int fc_ent_numex(void *ctx, const fc_numex *x) {
  fc_ent_block *b = ctx;
  fenci_tagger *t = b->t;
  size_t cs = fc_ent_char(b, x->s), ce = fc_ent_char(b, x->e), k;
  static const int types[] = {0, FENCI_ENT_TIME, FENCI_ENT_NUMBER, FENCI_ENT_PERCENT, FENCI_ENT_MONEY,
                              FENCI_ENT_QUANTITY};
  fenci_entity e;
  if (x->e - x->s > FC_ENT_NUMEX_MAX) return 0;
  if (fc_ent_names_until(b, cs)) return 1;
  if (b->n_url && fc_ent_in_url(b, x->s, x->e)) return 0;
  if (t->m->ner) {
    int any = 0;
    for (k = b->name_at; k < ce; k++)
      if (t->elab[k]) {
        if (k < cs) {
          /* a person's name that runs into a reign's year is the reign
           * (明洪武三年: no 明洪武): the name goes */
          size_t j = k;
          if (!x->era || fc_ner_type(t->elab[k]) != FENCI_ENT_PER) return 0;
          while (j < ce) t->elab[j++] = 0;
          while (j < b->n && (fc_ner_pos(t->elab[j]) == 1 || fc_ner_pos(t->elab[j]) == 2)) t->elab[j++] = 0;
          break;
        }
        any = 1;
      }
    if (any) {
      int on = ce < b->n ? fc_ner_pos(t->elab[ce]) : -1; /* I or E: a name runs on past the end */
      if (on == 1 || on == 2) return 0;
      for (k = cs; k < ce; k++) t->elab[k] = 0;
    }
  }
  memset(&e, 0, sizeof e);
  e.type = x->type >= 1 && x->type <= 5 ? types[x->type] : FENCI_ENT_NUMBER;
  e.flags = (x->relative ? FENCI_ENTF_RELATIVE : 0) | (x->approx ? FENCI_ENTF_APPROX : 0) |
            (x->ordinal ? FENCI_ENTF_ORDINAL : 0) | (x->duration ? FENCI_ENTF_DURATION : 0) |
            (x->weekday ? FENCI_ENTF_WEEKDAY : 0) | (x->range ? FENCI_ENTF_RANGE : 0);
  e.start = b->base + x->s;
  e.end = b->base + x->e;
  e.cstart = b->cbase + cs;
  e.cend = b->cbase + ce;
  e.has_value = x->has_value;
  e.value = x->value;
  e.value_end = x->range ? x->value_end : 0;
  e.value_text = e.type == FENCI_ENT_TIME ? x->iso : "";
  e.unit_start = b->base + (x->ue > x->us ? x->us : x->s);
  e.unit_end = b->base + (x->ue > x->us ? x->ue : x->s);
  return fc_ent_emit(b, &e);
}

/* The end of the block starting at text[0]: after the first line end, else
 * at most FC_ENT_BLOCK bytes, cut before a character start. */
static size_t fc_ent_block_end(const char *text, size_t n) {
  size_t lim = n < FC_ENT_BLOCK ? n : FC_ENT_BLOCK, i;
  const char *nl = memchr(text, '\n', lim);
  if (nl) return (size_t)(nl - text) + 1;
  if (lim == n) return n;
  for (i = lim; i > lim - 4 && i > 0; i--)
    if (((unsigned char)text[i] & 0xC0) != 0x80) return i;
  return lim;
}

/* The character start at or before offset i of text (i > 0). */
static size_t fc_ent_char_start(const char *text, size_t i) {
  size_t k;
  for (k = 0; k < 3 && i > 0 && ((unsigned char)text[i] & 0xC0) == 0x80; k++) i--;
  return i;
}

fenci_rc fenci_entities(fenci_tagger *t, const char *text, size_t len, fenci_entity_cb cb, void *ctx) {
  size_t pos = 0, cbase = 0, own = 0, last_end = 0;
  const fenci_alloc *a;
  if (!t) return FENCI_BADARG;
  t->errmsg[0] = 0;
  if ((!text && len) || !cb) {
    snprintf(t->errmsg, sizeof t->errmsg, "fenci_entities: NULL text or callback");
    return FENCI_BADARG;
  }
  a = &t->m->a;
  while (pos < len) {
    size_t bl = fc_ent_block_end(text + pos, len - pos), p = 0, n = 0;
    fc_ent_block b;
    fenci_rc rc;
    if (bl + 1 > t->ecap) {
      size_t nc = bl + 1 < FC_ENT_BLOCK + 1 ? FC_ENT_BLOCK + 1 : bl + 1;
      void *q;
      if (!(q = fc_realloc(a, t->ecp, nc * sizeof *t->ecp))) return FENCI_NOMEM;
      t->ecp = q;
      if (!(q = fc_realloc(a, t->eoff, (nc + 1) * sizeof *t->eoff))) return FENCI_NOMEM;
      t->eoff = q;
      if (!(q = fc_realloc(a, t->elab, nc))) return FENCI_NOMEM;
      t->elab = q;
      t->ecap = nc;
    }
    b.rtext = text + pos;
    while (p < bl) {
      uint32_t cp, sc;
      size_t k = fc_utf8_decode((const uint8_t *)text + pos + p, bl - p, &cp);
      t->eoff[n] = (uint32_t)p;
      t->ecp[n++] = cp == FC_BADCP ? 0xFFFD : cp;
      if (k == 3 && cp >= 0x3400 && (sc = fc_t2s_bmp_char(cp)) != cp && sc >= 0x800 && sc < 0x10000) {
        /* the rules are written in simplified characters: they read a copy
         * with each traditional character that keeps its width simplified
         * (三點五公斤, 兩個月, 下週一), offsets unchanged */
        if (b.rtext == text + pos) {
          if (bl > t->efcap) {
            void *q = fc_realloc(a, t->efold, bl);
            if (!q) return FENCI_NOMEM;
            t->efold = q;
            t->efcap = bl;
          }
          memcpy(t->efold, text + pos, bl);
          b.rtext = t->efold;
        }
        t->efold[p] = (char)(0xE0 | (sc >> 12));
        t->efold[p + 1] = (char)(0x80 | ((sc >> 6) & 0x3F));
        t->efold[p + 2] = (char)(0x80 | (sc & 0x3F));
      }
      p += k;
    }
    t->eoff[n] = (uint32_t)bl;
    {
      /* URL and e-mail spans, by the segmenter's own scanner */
      size_t q = 0, nu = 0;
      const uint8_t *floor = (const uint8_t *)text + pos, *bt = (const uint8_t *)text + pos;
      while (q < bl) {
        uint8_t kind, cls;
        uint32_t cp;
        size_t k = fc_unit_len_from(bt + q, bl - q, &kind, &cls, &cp, &floor);
        if (k == 0) k = 1;
        if (kind == FENCI_KIND_URL || kind == FENCI_KIND_EMAIL) {
          if (nu == t->ucap) {
            size_t nc = t->ucap ? t->ucap * 2 : 64;
            void *u = fc_realloc(a, t->url, nc * 2 * sizeof *t->url);
            if (!u) return FENCI_NOMEM;
            t->url = u;
            t->ucap = nc;
          }
          t->url[2 * nu] = (uint32_t)q;
          t->url[2 * nu + 1] = (uint32_t)(q + k);
          nu++;
        }
        q += k;
      }
      b.url = t->url;
      b.n_url = nu;
      b.url_at = 0;
    }
    b.t = t;
    b.text = text + pos;
    b.len = bl;
    b.nomem = 0;
    if (t->gap) t->gap->text = NULL; /* another text may sit where the last one was */
    b.base = pos;
    b.cbase = cbase;
    b.n = n;
    b.name_at = 0;
    b.cb = cb;
    b.ctx = ctx;
    b.stopped = 0;
    b.own_lo = own;
    b.last_end = &last_end;
    /* a block cut inside a line (FC_ENT_BLOCK bytes) owns what starts up to
     * FC_ENT_CTX bytes before its end; the next starts FC_ENT_CTX before that */
    b.own_hi = pos + bl;
    if (pos + bl < len && text[pos + bl - 1] != '\n' && bl > 4 * FC_ENT_CTX)
      b.own_hi = pos + fc_ent_char_start(text + pos, bl - FC_ENT_CTX);
    if (t->m->ner) {
      rc = fc_ner_tag(t->m, t->m->ner, &t->nw, t->ecp, n, t->elab, a);
      if (rc != FENCI_OK) {
        snprintf(t->errmsg, sizeof t->errmsg, "%s", fenci_rc_str(rc));
        return rc;
      }
      fc_ent_cap_names(t, n);
      fc_ent_drop_odd_names(t, n);
    }
    rc = fc_numex_scan_words(b.rtext, bl, t->m->n_words ? fc_ent_gap : NULL, &b, fc_ent_numex, &b);
    if (rc == FENCI_OK && b.nomem) rc = FENCI_NOMEM;
    if (rc == FENCI_OK) fc_ent_names_until(&b, n);
    if (b.stopped) {
      snprintf(t->errmsg, sizeof t->errmsg, "stopped by the entity callback");
      return FENCI_STOPPED;
    }
    if (rc != FENCI_OK) {
      snprintf(t->errmsg, sizeof t->errmsg, "%s", fenci_rc_str(rc));
      return rc;
    }
    if (b.own_hi < pos + bl) {
      size_t next = pos + fc_ent_char_start(text + pos, b.own_hi - pos - FC_ENT_CTX);
      cbase += fc_ent_char(&b, next - pos);
      own = b.own_hi;
      pos = next;
    } else {
      pos += bl;
      cbase += n;
      own = pos;
    }
  }
  return FENCI_OK;
}

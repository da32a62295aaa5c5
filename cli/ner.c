/* ner.c - `fenci ner`: the entities of each input line, one JSON object a
 * line ({"entities":[...]}, byte and character offsets within the line),
 * or (-f text) the line with its entities marked inline.  Lines are read
 * in batches of about NER_BATCH bytes; with -j N the lines of a batch are
 * shared among N threads, each with its own tagger, and written in input
 * order.  A batch's output is held until it is written: number-dense text
 * gives some 35 bytes of JSON per byte of input, which the batch size
 * keeps to a few MB. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chars.h"
#include "cli.h"
#include "common.h"
#include "fenci.h"

#define NER_BATCH (256u << 10)
#define NER_LOOK 4096 /* a part of a long line is cut this far before the batch's end */
#define NER_WIN (16u << 10) /* bytes read on either side of such a cut for an entity across it */

typedef struct ner_out {
  char *p;
  size_t n, cap;
  int fail;
} ner_out;

static void no_put(ner_out *o, const void *s, size_t n) {
  if (o->fail || n == 0) return;
  if (o->n + n > o->cap) {
    size_t nc = o->cap ? o->cap : 4096;
    char *p;
    while (nc < o->n + n) nc *= 2;
    if (!(p = realloc(o->p, nc))) {
      o->fail = 1;
      return;
    }
    o->p = p;
    o->cap = nc;
  }
  memcpy(o->p + o->n, s, n);
  o->n += n;
}
static void no_str(ner_out *o, const char *s) { no_put(o, s, strlen(s)); }
static void no_num(ner_out *o, size_t v) {
  char b[24];
  no_put(o, b, fc_cli_utoa(b, v));
}
static void no_put_cb(void *o, const char *s, size_t n) { no_put(o, s, n); }
static void no_json(ner_out *o, const char *s, size_t n) { fc_cli_json_body(s, n, no_put_cb, o); }

typedef struct ner_cfg {
  int text; /* -f text */
} ner_cfg;

typedef struct ner_line {
  const ner_cfg *cfg;
  ner_out *o;
  const char *line;
  size_t pos;          /* -f text: bytes of the line written so far */
  int n;               /* entities written for the line so far */
  size_t bbase, cbase; /* offsets of line[0] in the whole line (a long line comes in parts) */
  size_t emit;         /* entities ending after this are left out */
} ner_line;

/* A line longer than the batch is read and written in parts: the object
 * it opened and where its next part starts. */
typedef struct ner_part {
  int open, n;
  size_t bbase, cbase;
} ner_part;

static int ner_entity(void *ctx, const fenci_entity *e) {
  ner_line *l = ctx;
  ner_out *o = l->o;
  if (e->end > l->emit) return 0; /* past the part's end: found again with the next part */
  if (l->cfg->text) {
    /* text before it, then [entity]TYPE (value) */
    no_put(o, l->line + l->pos, e->start - l->pos);
    no_str(o, "[");
    no_put(o, l->line + e->start, e->end - e->start);
    no_str(o, "]");
    no_str(o, fenci_entity_type_name(e->type));
    l->pos = e->end;
    l->n++;
    return o->fail;
  }
  no_str(o, l->n ? ",{\"type\":\"" : "{\"type\":\"");
  no_str(o, fenci_entity_type_name(e->type));
  no_str(o, "\",\"text\":\"");
  no_json(o, l->line + e->start, e->end - e->start);
  no_str(o, "\",\"s\":");
  no_num(o, l->bbase + e->start);
  no_str(o, ",\"e\":");
  no_num(o, l->bbase + e->end);
  no_str(o, ",\"cs\":");
  no_num(o, l->cbase + e->cstart);
  no_str(o, ",\"ce\":");
  no_num(o, l->cbase + e->cend);
  if (e->has_value) {
    if (e->type == FENCI_ENT_TIME) {
      no_str(o, ",\"value\":\"");
      no_json(o, e->value_text, strlen(e->value_text));
      no_str(o, "\"");
    } else {
      char b[64];
      no_str(o, ",\"value\":");
      no_put(o, b, (size_t)snprintf(b, sizeof b, "%.15g", e->value));
      if (e->flags & FENCI_ENTF_RANGE) {
        no_str(o, ",\"value_end\":");
        no_put(o, b, (size_t)snprintf(b, sizeof b, "%.15g", e->value_end));
      }
    }
  }
  if ((e->flags & FENCI_ENTF_WEEKDAY) && !(e->flags & FENCI_ENTF_RANGE) && e->value >= 1 && e->value <= 7) {
    char b[16]; /* a weekday: its ISO number, 1 Monday .. 7 Sunday */
    no_str(o, ",\"weekday\":");
    no_put(o, b, (size_t)snprintf(b, sizeof b, "%d", (int)e->value));
  }
  if (e->unit_end > e->unit_start) {
    no_str(o, ",\"unit\":\"");
    no_json(o, l->line + e->unit_start, e->unit_end - e->unit_start);
    no_str(o, "\"");
  }
  if (e->flags & FENCI_ENTF_RELATIVE) no_str(o, ",\"relative\":true");
  if (e->flags & FENCI_ENTF_APPROX) no_str(o, ",\"approx\":true");
  if (e->flags & FENCI_ENTF_ORDINAL) no_str(o, ",\"ordinal\":true");
  if (e->flags & FENCI_ENTF_DURATION) no_str(o, ",\"duration\":true");
  if (e->flags & FENCI_ENTF_RANGE) no_str(o, ",\"range\":true");
  no_str(o, "}");
  l->n++;
  return o->fail;
}

/* The entities of line[0..n) (no newline) into o; 0 or -1 (message in the
 * tagger).  part (NULL: a whole line) carries a long line's state: with
 * final 0 this is a part of it, its object stays open, and the entities
 * are those of line[0..scan) (n <= scan: what follows is context) that
 * end by n.  cr: the line ended in CR LF (text output keeps the CR; the
 * offsets and entities are those of the line without it). */
static int ner_one(const ner_cfg *cfg, fenci_tagger *t, const char *line, size_t n, size_t scan, ner_out *o,
                   ner_part *part, int final, int cr) {
  ner_line l;
  fenci_rc rc;
  ner_part none = {0, 0, 0, 0};
  if (!part) part = &none;
  l.cfg = cfg;
  l.o = o;
  l.line = line;
  l.pos = 0;
  l.n = part->n;
  l.bbase = part->bbase;
  l.cbase = part->cbase;
  l.emit = n;
  if (!cfg->text && !part->open) no_str(o, "{\"entities\":[");
  rc = fenci_entities(t, line, final || scan < n ? n : scan, ner_entity, &l);
  if (rc != FENCI_OK) return -1;
  if (cfg->text) no_put(o, line + l.pos, n - l.pos);
  if (final) {
    if (!cfg->text) no_str(o, "]}");
    else if (cr) no_str(o, "\r");
    no_str(o, "\n");
    memset(part, 0, sizeof *part);
  } else {
    size_t p = 0;
    part->open = 1;
    part->n = l.n;
    part->bbase += n;
    while (p < n) {
      uint32_t cp;
      p += fc_utf8_decode((const uint8_t *)line + p, n - p, &cp); /* as fenci_entities counts */
      part->cbase++;
    }
  }
  return o->fail ? -1 : 0;
}

typedef struct ner_job {
  const ner_cfg *cfg;
  fenci_tagger *t;
  ner_part *part; /* job 0: the state of a long line its first line ends */
  const char *buf;
  const size_t *ls, *le; /* line starts and ends */
  size_t from, to;
  ner_out out;
  int rc;
} ner_job;

static void *ner_worker(void *arg) {
  ner_job *j = arg;
  size_t i;
  for (i = j->from; i < j->to && j->rc == 0; i++) {
    size_t n = j->le[i] - j->ls[i];
    int cr = n && j->buf[j->le[i] - 1] == '\r'; /* CR LF: the line without its CR */
    if (ner_one(j->cfg, j->t, j->buf + j->ls[i], n - (size_t)cr, n - (size_t)cr, &j->out,
                i == j->from ? j->part : NULL, 1, cr))
      j->rc = -1;
  }
  return NULL;
}

/* The entity that crosses a cut: the least start of the entities that
 * begin before it and end after it. */
typedef struct ner_cross {
  size_t cut, start;
} ner_cross;

static int ner_cross_cb(void *ctx, const fenci_entity *e) {
  ner_cross *x = ctx;
  if (e->start < x->cut && e->end > x->cut && e->start < x->start) x->start = e->start;
  return 0;
}

/* Whether a character starts at b[q] as the library reads the bytes (so
 * that the parts of a line count its characters as the whole line does):
 * b[q] is no continuation byte, or no lead byte among the three before it
 * begins a sequence that reaches q (continuation bytes past the end of a
 * sequence are invalid bytes, a character each).  It may say no at a start
 * (after an invalid lead), never yes inside a character. */
static int ner_char_start(const unsigned char *b, size_t q) {
  size_t k;
  if ((b[q] & 0xC0) != 0x80) return 1;
  for (k = 1; k <= 3 && k <= q; k++) {
    unsigned c = b[q - k], len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : c >= 0x80 ? 0 : 1;
    if (len) return len <= k; /* ASCII or a lead byte: the sequence it begins ends before q, or reaches it */
  }
  return 1;
}

/* Where the first part of a long line buf[0..have) ends (have > 2 *
 * NER_LOOK): after a sentence end (。！？；) in the NER_LOOK bytes before
 * the last NER_LOOK, where no entity goes on (whitespace is no such place:
 * a name may hold a space, 北京 大学); else before a character there,
 * moved back to the start of an entity that crosses it (unless that would
 * take it back by more than half), so that no entity is cut in two: the
 * part is scanned with the rest of buf as context and keeps the entities
 * that end by its end (ner_one).  The crossing entity is looked for in
 * NER_WIN bytes around the cut, not in the whole part, which ner_one
 * scans next. */
static size_t ner_part_end(fenci_tagger *t, const char *buf, size_t have) {
  const unsigned char *b = (const unsigned char *)buf;
  size_t hi = have - NER_LOOK, lo = hi - NER_LOOK, q, cut, w0, w1;
  ner_cross x;
  for (q = hi; q > lo; q--) {
    unsigned char c = b[q - 1];
    if ((q >= 3 && b[q - 3] == 0xE3 && b[q - 2] == 0x80 && c == 0x82) ||
        (q >= 3 && b[q - 3] == 0xEF && b[q - 2] == 0xBC && (c == 0x81 || c == 0x9F || c == 0x9B)))
      return q;
  }
  for (cut = hi; cut > lo && !ner_char_start(b, cut); cut--) {
  }
  w0 = cut > NER_WIN ? cut - NER_WIN : 0;
  while (w0 < cut && !ner_char_start(b, w0)) w0++;
  w1 = have - cut > NER_WIN ? cut + NER_WIN : have;
  while (w1 < have && !ner_char_start(b, w1)) w1++;
  x.cut = cut - w0;
  x.start = cut - w0;
  if (fenci_entities(t, buf + w0, w1 - w0, ner_cross_cb, &x) == FENCI_OK && w0 + x.start >= cut / 2)
    cut = w0 + x.start;
  return cut;
}

static void ner_usage(FILE *f) {
  fprintf(f,
          "usage: fenci ner [-m MODEL] [-f json|text] [-j N] [FILE...]\n"
          "Finds the entities of each line of each FILE (or stdin): persons, places and\n"
          "organisations (PER, LOC, ORG), and times and quantities with normalised\n"
          "values (TIME with ISO 8601, NUMBER, PERCENT, MONEY, QUANTITY with a value and\n"
          "unit).  One JSON object per input line:\n"
          "  {\"entities\":[{\"type\":\"PER\",\"text\":\"拿破仑\",\"s\":18,\"e\":27,\"cs\":10,\"ce\":13},...]}\n"
          "s/e are byte and cs/ce character offsets within the line, end exclusive;\n"
          "also value, unit, weekday (1 Monday .. 7 Sunday), relative, approx, ordinal,\n"
          "duration and range (3-5人: value 3, value_end 5; 1998年至2000年: value\n"
          "\"1998/2000\") where they apply (docs/NUMEX.md).\n"
          "  -f text   the line with its entities marked inline: [拿破仑]PER\n"
          "  -j N      N threads (output order is kept)\n"
          "  -m MODEL  the model whose lexicon file holds the recogniser (default %s)\n",
          FENCI_DEFAULT_MODEL);
}

int fc_cmd_ner(int argc, char **argv) {
  const char *model = NULL, *files[256];
  int nfiles = 0, jobs = 1, status = 0, i, k;
  ner_cfg cfg;
  fenci_model *m;
  fenci_tagger *tg[64];
  fc_opts o;
  char *buf = NULL;
  size_t cap = 0, *ls = NULL, *le = NULL, lcap = 0;
  ner_part part = {0, 0, 0, 0};
  memset(&cfg, 0, sizeof cfg);
  fc_opts_init(&o, "ner", argc, argv);
  while (fc_opts_next(&o)) {
    if (!o.is_opt) {
      if (nfiles == 256) {
        fprintf(stderr, "fenci ner: too many files\n");
        return 2;
      }
      files[nfiles++] = o.arg;
    } else if (fc_opt_flag(&o, 'h', "help")) {
      ner_usage(stdout);
      return 0;
    } else if (fc_opt_value(&o, 'm', "model")) {
      model = o.val;
    } else if (fc_opt_value(&o, 'f', "format")) {
      if (!strcmp(o.val, "json")) cfg.text = 0;
      else if (!strcmp(o.val, "text")) cfg.text = 1;
      else {
        fprintf(stderr, "fenci ner: unknown format '%s' (json or text)\n", o.val);
        return 2;
      }
    } else if (fc_opt_value(&o, 'j', "jobs")) {
      if (!fc_opt_jobs(&o, &jobs)) return 2;
    } else if (fc_opt_flag(&o, 'q', "quiet")) {
    } else {
      return fc_opt_unknown(&o);
    }
  }
  if (!nfiles) files[nfiles++] = "-";
  m = fc_cli_open_model(model);
  if (!m) return 1;
  if (!fenci_model_has_ner(m))
    fprintf(stderr, "fenci ner: note: the model has no name recogniser (NERM); only times and quantities\n");
  for (k = 0; k < jobs; k++)
    if (fenci_tagger_new(&tg[k], m, 0) != FENCI_OK) {
      fprintf(stderr, "fenci ner: out of memory\n");
      while (k-- > 0) fenci_tagger_free(tg[k]);
      fenci_model_free(m);
      return 1;
    }
  for (i = 0; i < nfiles && status < 2; i++) {
    FILE *f = strcmp(files[i], "-") ? fopen(files[i], "rb") : stdin;
    size_t have = 0;
    int eof = 0;
    if (!f) {
      fprintf(stderr, "fenci ner: cannot open %s: %s\n", files[i], strerror(errno));
      status = 1;
      continue;
    }
    while (!eof && status < 2) {
      size_t got, nl = 0, p = 0, done;
      /* fill the batch; a line longer than the batch grows it */
      if (cap - have < NER_BATCH) {
        size_t nc = have + NER_BATCH + 1;
        char *q = realloc(buf, nc);
        if (!q) {
          fprintf(stderr, "fenci ner: out of memory\n");
          status = 2;
          break;
        }
        buf = q;
        cap = nc;
      }
      got = fread(buf + have, 1, cap - have - 1, f);
      have += got;
      if (got == 0) {
        if (ferror(f)) {
          /* reported and skipped, as a file that does not open: what was
           * read before is its last line, and the next files still are read */
          fprintf(stderr, "fenci ner: %s: read error: %s\n", files[i], strerror(errno));
          if (status < 1) status = 1;
        }
        eof = 1;
      }
      /* the complete lines (all at the end of the file) */
      while (p < have) {
        char *e = memchr(buf + p, '\n', have - p);
        if (!e && !eof) break;
        if (nl == lcap) {
          size_t nc = lcap ? lcap * 2 : 4096;
          size_t *a2 = realloc(ls, nc * sizeof *a2), *b2 = a2 ? realloc(le, nc * sizeof *b2) : NULL;
          if (a2) ls = a2;
          if (!b2) {
            fprintf(stderr, "fenci ner: out of memory\n");
            status = 2;
            break;
          }
          le = b2;
          lcap = nc;
        }
        ls[nl] = p;
        le[nl] = e ? (size_t)(e - buf) : have;
        nl++;
        p = e ? (size_t)(e - buf) + 1 : have;
      }
      if (status >= 2) break;
      if (!nl && !eof && have >= NER_BATCH) {
        /* a line longer than the batch: its first part now, so memory
         * stays bounded whatever the line length */
        size_t cut = ner_part_end(tg[0], buf, have);
        ner_out po = {NULL, 0, 0, 0};
        if (ner_one(&cfg, tg[0], buf, cut, have, &po, &part, 0, 0) || po.fail) {
          fprintf(stderr, "fenci ner: %s\n", po.fail ? "out of memory" : fenci_tagger_errmsg(tg[0]));
          status = 2;
        } else if (po.n && fwrite(po.p, 1, po.n, stdout) != po.n) { /* (no part: p may be NULL) */
          fprintf(stderr, "fenci ner: write error: %s\n", strerror(errno));
          status = 2;
        }
        free(po.p);
        memmove(buf, buf + cut, have - cut);
        have -= cut;
        continue;
      }
      if (nl) {
        ner_job jb[64];
        pthread_t th[64];
        int nj = jobs < (int)nl ? jobs : (int)nl, started = 0;
        for (k = 0; k < nj; k++) {
          jb[k].cfg = &cfg;
          jb[k].t = tg[k];
          jb[k].buf = buf;
          jb[k].ls = ls;
          jb[k].le = le;
          jb[k].part = k == 0 ? &part : NULL;
          jb[k].from = nl * (size_t)k / (size_t)nj;
          jb[k].to = nl * (size_t)(k + 1) / (size_t)nj;
          memset(&jb[k].out, 0, sizeof jb[k].out);
          jb[k].rc = 0;
        }
        for (k = 1; k < nj; k++)
          if (pthread_create(&th[k], NULL, ner_worker, &jb[k]) == 0) started = k;
          else break;
        ner_worker(&jb[0]);
        for (k = 1; k <= started; k++) pthread_join(th[k], NULL);
        for (k = started + 1; k < nj; k++) ner_worker(&jb[k]); /* threads that did not start */
        for (k = 0; k < nj; k++) {
          if (jb[k].rc || jb[k].out.fail) {
            fprintf(stderr, "fenci ner: %s\n", jb[k].out.fail ? "out of memory" : fenci_tagger_errmsg(tg[k]));
            status = 2;
          } else if (jb[k].out.n && fwrite(jb[k].out.p, 1, jb[k].out.n, stdout) != jb[k].out.n) {
            fprintf(stderr, "fenci ner: write error: %s\n", strerror(errno));
            status = 2;
          }
          free(jb[k].out.p);
        }
      }
      done = p;
      memmove(buf, buf + done, have - done);
      have -= done;
    }
    if (part.open && status < 2) {
      /* the file ended right after a part of its long last line */
      fputs(cfg.text ? "\n" : "]}\n", stdout);
      memset(&part, 0, sizeof part);
    }
    if (f != stdin) fclose(f);
  }
  if (status < 2 && fflush(stdout) != 0) {
    fprintf(stderr, "fenci ner: write error: %s\n", strerror(errno));
    status = 2;
  }
  for (k = 0; k < jobs; k++) fenci_tagger_free(tg[k]);
  fenci_model_free(m);
  free(buf);
  free(ls);
  free(le);
  return status ? 1 : 0;
}

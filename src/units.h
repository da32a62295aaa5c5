/* units.h - the sequence the segmenters work on.
 *
 * A chunk of text is split into UNITS: one Han (or other) character, one
 * punctuation mark, one whitespace run, one invalid byte, or one ATOM that is
 * never split: a run of Latin letters, a number (digits with decimals,
 * thousands separators, percent), a URL or an e-mail address.  For each unit
 * the lexicon (and the user dictionary) contribute match lengths, which both
 * the lexicon lattice and the trained model use. */
#ifndef FC_UNITS_H
#define FC_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define FC_LEX_CAP 15 /* lexicon lengths (in units) are capped at this */

typedef struct fc_unit {
  uint32_t start;   /* byte offset in the chunk */
  uint32_t end;     /* byte offset one past the end */
  uint32_t cp;      /* fc_char_norm'd code point of a one-character unit; 0 for atoms */
  uint8_t cls;      /* FC_C_* class of the (first) character */
  uint8_t kind;     /* FENCI_KIND_* this unit would have as a token on its own */
  uint8_t lb;       /* longest lexicon word beginning at this unit, in units (0: none) */
  uint8_t le;       /* longest lexicon word ending at this unit */
  uint8_t lm;       /* longest lexicon word covering this unit strictly inside */
  uint8_t force;    /* 0, or 1 + FC_TAG_* forced by a forced user word */
  uint8_t h3;       /* 1: one Han character normalised to U+4E00..U+9FFF (3 bytes in nb,
                     * code point in cp), where the lexicon's per-character
                     * tables apply */
  uint8_t run;      /* number of h3 units from this one on, at most 255 (fc_scan_run) */
  uint8_t brk;      /* 1: no token joins this unit to the one before (the break rule) */
  uint8_t lat;      /* FC_TAG_* of the unit on the lexicon lattice's best path (feats
                     * scans, see below) */
  uint8_t mg;       /* bucket of the lattice margin at the boundary before the unit
                     * (0 .. FC_MG_INF; feats scans, see below) */
  uint8_t pc;       /* FC_PC_* bits: where punctuation may not stand in a word
                     * (wordpunct.h; set only when the trained model decodes) */
} fc_unit;

/* The break rule, kept by every segmenter and mode: a token never joins
 * an invalid byte, a control character (C0 or C1, other than whitespace),
 * a whitespace run, a URL or an e-mail address to anything, nor two
 * different punctuation marks
 * ("。”" is two tokens, "——" may be one).  Punctuation may join letters,
 * digits and Han characters ("１／３", "２６℃", "乔治·布什", "二○○○年"),
 * as the training corpora do. */
static inline int fc_scan_crosses_break(const fc_unit *u, size_t from, size_t to) {
  size_t k;
  for (k = from + 1; k < to; k++)
    if (u[k].brk) return 1;
  return 0;
}

/* BMES tags used by the char-tagging model and the force field. */
enum { FC_TAG_B = 0, FC_TAG_M = 1, FC_TAG_E = 2, FC_TAG_S = 3 };


#include "fenci.h"
#include "dat.h"

/* Builds the units of text[0..len) (len < 2^32) with lexicon lengths from
 * model m's lexicon and, when d is not NULL, the user dictionary d (forced
 * words also set the force field).  Appends to the growable array
 * (*units, *n, *cap) allocated with a.  FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_units_build(const fenci_model *m, const fenci_dict *d, const uint8_t *text, size_t len,
                        fc_unit **units, size_t *n, size_t *cap, const fenci_alloc *a);

/* A lexicon or user-dictionary word found over units [from, to). */
typedef struct fc_edge {
  uint32_t from;   /* first unit */
  uint32_t to;     /* one past the last unit */
  float cost;      /* -ln P(word) */
  uint16_t tag;    /* tag id or 0 */
  uint8_t user;    /* 0 lexicon; 1 user dictionary; 2 forced user word; FC_EDGE_UNK */
  uint8_t pad;
} fc_edge;

#define FC_EDGE_UNK 3 /* an unknown-word candidate proposed by the character model */

/* Scan state, reused across calls to avoid allocation in steady state. */
typedef struct fc_scan {
  fc_unit *u;       /* units */
  size_t n, cap;
  fc_edge *e;       /* edges sorted by from, then to */
  size_t ne, ecap;
  uint32_t *first;  /* first[i]..first[i+1]: edges starting at unit i (n+1 entries) */
  size_t fcap;
  uint8_t *nb;      /* the chunk with characters normalised (fc_char_norm), for lexicon lookups */
  size_t nbn, nbcap;
  uint32_t *ns;     /* ns[i]: offset of unit i in nb (n+1 entries) */
  size_t nscap;
  double *best;     /* lattice features: best[i], the cost of the best path from unit i
                     * to the end of its stretch (n+1 entries) */
  size_t bcap;
  uint32_t *pu;     /* the punctuation units, in order (npu of them; wordpunct.h) */
  size_t npu, pucap;
} fc_scan;

/* Splits text into units and finds every lexicon/user word over them.
 * With feats set, also fills the units' cp, lb/le/lm, lat and mg fields, which
 * only the trained model reads.  Replaces the previous contents of s.
 * FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_scan_run(fc_scan *s, const fenci_model *m, const fenci_dict *d, const uint8_t *text, size_t len,
                     int feats, const fenci_alloc *a);
void fc_scan_free(fc_scan *s, const fenci_alloc *a);

/* The first half of fc_scan_run: units, nb and ns only (no edges). */
fenci_rc fc_scan_units(fc_scan *s, const uint8_t *text, size_t len, int feats,
                       const fenci_alloc *a);

/* The lattice tag of a unit (fc_unit.lat, feats scans only): its B/M/E/S
 * tag on the path the lexicon mode would take (fc_lattice_best /
 * fc_lattice_scan: least total -ln P(word), a unit alone at the unknown
 * cost, ties to the longer word, forced user words cut the lattice), with
 * two differences that keep training and decoding alike: no unknown-word
 * candidates (feats scans have none), and each stretch of units between
 * whitespace units is a lattice of its own (no word crosses whitespace;
 * starting each stretch's sums at 0 makes a line's path independent of the
 * text after it, as in training, where a sentence is a line).
 *
 * The lattice margin (fc_unit.mg) says how strongly the lexicon prefers
 * the path's choice.  At each unit i the right-to-left pass has the cost of
 * the best path from i and that of the best path from i that starts with
 * another word (or the unit alone); their difference d_i >= 0 (nats) is the
 * margin of the word the best path takes at i.  Each word [i, e) of the
 * path hands it to its boundaries: those inside the word get the "joined"
 * bucket step(d_i), the one at its end (unit e's mg) the "cut" bucket
 * FC_MG_STEPS + step(d_i), where step() is 0..5 for d below 1, 2, 4, 8, 16
 * nats and above (no alternative at all: 5).  A stretch's first unit (and
 * a whitespace unit) has FC_MG_INF.  This is the forward-backward margin
 * (the best path cutting at a boundary against the best path joining there)
 * seen from the start of the path's word only: no forward pass and no
 * stored edges, and as accurate on the dev sets.  fc_scan_run finds tags
 * and margins over its edges, fc_scan_lexfeats inside its pass: the same. */
#define FC_MG_STEPS 6               /* margin steps of a sign */
#define FC_MG_INF (2 * FC_MG_STEPS) /* a stretch's first unit */
#define FC_MG_N (FC_MG_INF + 1)     /* buckets */

/* The lexicon lengths lb, le and lm of the units of a scan filled by
 * fc_scan_units with feats, without a user dictionary: what fc_scan_run
 * derives from its edges, without storing them.  With lat set, also the
 * lat and mg fields (the best path is found inside the same right-to-left
 * pass); without it they are left 0.  FENCI_OK or FENCI_NOMEM. */
fenci_rc fc_scan_lexfeats(fc_scan *s, const fenci_model *m, int lat, const fenci_alloc *a);

#define FC_MAXM 64 /* lexicon matches kept per unit */


/* Unit whose normalised bytes end at offset end of nb, looking from unit i
 * on; (uint32_t)-1 when end falls inside a unit (a match that does not end
 * on a unit boundary).  Most units are 3 bytes, so that guess is tried
 * first. */
static inline uint32_t fc_scan_unit_ending(const fc_scan *s, size_t i, size_t end) {
  size_t g = i + (end - s->ns[i]) / 3;
  if (g <= s->n && g > i && s->ns[g] == end) return (uint32_t)(g - 1);
  for (; i < s->n; i++) {
    if (s->ns[i + 1] == end) return (uint32_t)i;
    if (s->ns[i + 1] > end) break;
  }
  return (uint32_t)-1;
}

#define FC_UNK_MAX 6 /* longest unknown-word candidate, in units */

/* An unknown-word candidate over units [i, to). */
typedef struct fc_unk {
  uint32_t to;
  float cost;
} fc_unk;


/* Length in bytes of the unit (atom or character) starting at text[0]. */
size_t fc_unit_len(const uint8_t *text, size_t len, uint8_t *kind, uint8_t *cls, uint32_t *cp);
/* Same; *mail_floor (NULL: none) is where an e-mail address may start at
 * the earliest, moved on by failed scans, so that a scan over one chunk
 * stays linear.  Start it at the chunk's first byte. */
size_t fc_unit_len_from(const uint8_t *text, size_t len, uint8_t *kind, uint8_t *cls, uint32_t *cp,
                        const uint8_t **mail_floor);

#endif

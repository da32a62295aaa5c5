/*
 * fenci.h - the public C API of libfenci, a Chinese lexical-analysis engine.
 *
 * This is the only header a user includes.  Every type is opaque; every
 * fallible call returns a fenci_rc; the library never prints, exits or
 * aborts.  All offsets are BYTE offsets into the caller's UTF-8 text.
 *
 * Objects and threads:
 *   fenci_model   immutable once opened: share one among any number of threads.
 *   fenci_dict    a user dictionary: filled by one thread, then frozen when
 *                 first attached to a tagger (or by fenci_dict_freeze); any
 *                 number of threads may attach it, also at the same time,
 *                 and share it read-only.
 *   fenci_tagger  per-thread scratch state: cheap to create, never shared.
 * A model must outlive its dicts and taggers; a dict must outlive the
 * taggers it is attached to.
 */
#ifndef FENCI_H
#define FENCI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(FENCI_BUILDING_DLL)
#define FENCI_API __declspec(dllexport)
#elif defined(__GNUC__)
#define FENCI_API __attribute__((visibility("default")))
#else
#define FENCI_API
#endif

#define FENCI_VERSION_MAJOR 0
#define FENCI_VERSION_MINOR 1
#define FENCI_VERSION_PATCH 0
/* 0xMMmmpp */
#define FENCI_VERSION ((FENCI_VERSION_MAJOR << 16) | (FENCI_VERSION_MINOR << 8) | FENCI_VERSION_PATCH)

/* Status codes.  FENCI_OK is 0; everything else is a failure. */
typedef enum fenci_rc {
  FENCI_OK = 0,
  FENCI_NOMEM,      /* an allocation failed; nothing leaked, objects stay usable */
  FENCI_IO,         /* a file could not be opened, read, mapped or written */
  FENCI_BADFORMAT,  /* a model file or dictionary text is malformed or corrupt */
  FENCI_BADVERSION, /* a model file has a newer major version than this library */
  FENCI_BADARG,     /* an argument is invalid (NULL, out of range, wrong state) */
  FENCI_STOPPED,    /* a callback returned non-zero and stopped the operation */
  FENCI_TOOSMALL    /* a caller-supplied array was too small (see *_into calls) */
} fenci_rc;

/* A static, readable English description of rc; never NULL. Thread-safe. */
FENCI_API const char *fenci_rc_str(fenci_rc rc);

/* FENCI_VERSION of the linked library, and "M.m.p". Thread-safe. */
FENCI_API int fenci_version(void);
FENCI_API const char *fenci_version_string(void);

/* A realloc-style allocator with user data, like Lua's lua_Alloc:
 *   fn(ud, NULL, n)  allocates n bytes;  fn(ud, p, n) resizes p to n bytes;
 *   fn(ud, p, 0)     frees p and returns NULL.
 * A NULL fenci_alloc pointer means the C library's malloc/realloc/free.
 * The struct is copied; it must be thread-safe if objects made with it are
 * used from several threads. */
typedef struct fenci_alloc {
  void *(*fn)(void *ud, void *p, size_t n);
  void *ud;
} fenci_alloc;

/* ---------------------------------------------------------------- model */

typedef struct fenci_model fenci_model;

/* Opens a compiled model file (lexicon, and optionally trained weights);
 * the same as fenci_model_open_ex(out, path, 0, a, err, errlen): the file is
 * MAPPED (see below).
 * Every header field (with the header CRC), section offset and table size is
 * validated before use, and every trie transition and table probe at lookup,
 * so a corrupt file gives an error or wrong words, never a bad read.  The CRC
 * of the body is not computed here (over a large model it would cost more
 * than the rest of start-up); fenci_model_check verifies it.
 * A file that is not a regular file (a pipe, a device) is read into memory:
 * its container header must come first and gives the size to read, which may
 * be at most 1 GiB (50 times the largest shipped model); anything else, such
 * as /dev/zero, is refused at once.
 * On failure *out is NULL and, when err is not NULL, a NUL-terminated message
 * of at most errlen bytes is written to err.
 * Returns FENCI_IO, FENCI_BADFORMAT, FENCI_BADVERSION, FENCI_NOMEM or FENCI_BADARG.
 * Thread-safe (different out pointers). */
FENCI_API fenci_rc fenci_model_open(fenci_model **out, const char *path,
                                    const fenci_alloc *a, char *err, size_t errlen);

/* Flags for fenci_model_open_ex (bit flags; 0 = map the file). */
enum {
  FENCI_OPEN_READ = 0x1,  /* read the whole file into memory (allocated with a, 8-byte aligned)
                           * instead of mapping it: later changes to the file cannot affect the
                           * model.  Costs the file's size in memory, not shared between
                           * processes as mapped pages are, and a read at open (1-2 ms for
                           * the 16 MB default model in the page cache, against 0.4 ms to map it). */
  FENCI_OPEN_VERIFY = 0x2 /* also verify the body CRC while opening (7-11 ms for 16 MB); with
                           * FENCI_OPEN_READ this also catches a file that was being rewritten
                           * while it was read */
};

/* Opens a model file as fenci_model_open does, with flags FENCI_OPEN_*.
 *
 * A MAPPED model (flags without FENCI_OPEN_READ; mmap, MAP_PRIVATE) reads the
 * file's pages from the file itself whenever they are first touched, for as
 * long as the model lives, so the file must not change meanwhile:
 *   - truncated (truncate(1), or a copy over it with cp, which truncates
 *     first): touching a page past the new end raises SIGBUS, which kills the
 *     process unless it handles the signal;
 *   - rewritten in place (dd conv=notrunc, an editor saving in place, a
 *     partial write): the model sees the new bytes next to the old ones and
 *     gives wrong words; what it reads from the file after open (symbol
 *     ids, trie transitions, word indices) is checked where it is used, so
 *     it never reads out of bounds (tests/unit/test_model.c rewrites every
 *     shipped model at random while it is in use).
 * Replacing the file by writing a new one and renaming it over the old name
 * (as fenci compile and fenci train do, or mv) is safe: the mapping keeps the
 * old file.  Where the file may be modified in place, use FENCI_OPEN_READ;
 * such a model never reads the file again after this call returns.
 * Unknown flag bits give FENCI_BADARG.  Thread-safe (different out pointers). */
FENCI_API fenci_rc fenci_model_open_ex(fenci_model **out, const char *path, unsigned flags,
                                       const fenci_alloc *a, char *err, size_t errlen);

/* Same, from bytes in memory.  The bytes are BORROWED: they must stay
 * unchanged and alive until fenci_model_free.  buf needs 8-byte alignment
 * (any malloc'd block has it); a misaligned buffer gives FENCI_BADARG. */
FENCI_API fenci_rc fenci_model_from_buffer(fenci_model **out, const void *buf, size_t len,
                                           const fenci_alloc *a, char *err, size_t errlen);

/* Frees a model; NULL is a no-op.  Free its taggers and dicts first. */
FENCI_API void fenci_model_free(fenci_model *m);

/* Model properties.  Thread-safe. */
FENCI_API size_t fenci_model_lexicon_size(const fenci_model *m); /* number of lexicon words */
/* Whether word (len bytes of UTF-8, exactly as in the lexicon's source:
 * no normalisation) is a word of the model's lexicon: 1, with its
 * frequency in *freq (if freq is not NULL), or 0.  The frequency is read
 * back from the stored cost ln(total / freq), a float: round it (every
 * word of jieba's dictionary, the largest 318,825, comes back within 0.18
 * of its frequency); a word given frequency 0 reads 0.5, the frequency it
 * is costed with.  Thread-safe.  The lexicon
 * of a model that references one (LREF) is that file's. */
FENCI_API int fenci_model_word_freq(const fenci_model *m, const char *word, size_t len, double *freq);
/* The frequencies of the lexicon's source summed (jieba's Tokenizer.total). */
FENCI_API double fenci_model_freq_total(const fenci_model *m);
/* The IDF that keywords (FENCI_KW_TFIDF, without a fenci_kwdict of IDF
 * values) give word, from the model's table (`make models` counts it):
 * 1 with the word's value in *idf; 0 when the table has none for it, with
 * the table's median in *idf (what such a word gets); -1 when the model
 * has no table.  The word is folded as tokens are (full-width and
 * traditional forms).  Thread-safe. */
FENCI_API int fenci_model_word_idf(const fenci_model *m, const char *word, size_t len, double *idf);
FENCI_API int fenci_model_has_weights(const fenci_model *m);     /* 1 if a trained segmenter is in it */
FENCI_API int fenci_model_has_pos(const fenci_model *m);         /* 1 if a POS tagger is in it (or in its lexicon) */
FENCI_API int fenci_model_has_ner(const fenci_model *m);         /* 1 if a name recogniser is in it (or in its lexicon) */
/* The model's metadata text (key=value lines, UTF-8), or "" when absent.
 * Valid while the model lives. */
FENCI_API const char *fenci_model_meta(const fenci_model *m, size_t *len);

/* Checks a whole model file: the file size against the header's, the body
 * CRC, every section and every trie node.  The file is read into memory
 * (FENCI_OPEN_READ | FENCI_OPEN_VERIFY), so a file changed meanwhile gives
 * an error, never a signal.  Returns FENCI_OK or the first problem,
 * described in err. Thread-safe. */
FENCI_API fenci_rc fenci_model_check(const char *path, char *err, size_t errlen);

/* ----------------------------------------------------------- lexicon build */

/* Compiles lexicon source text into a model file image.
 * Source: UTF-8 lines "word [freq [tag]]", fields separated by spaces or tabs;
 * blank lines and lines starting with '#' are ignored; a missing freq is 1.
 * A malformed line (bad UTF-8, a non-numeric or negative freq, a word with
 * spaces or longer than 255 bytes, a line over 64 KiB) fails with
 * FENCI_BADFORMAT and a message naming the line number.
 * Duplicate words: frequencies add up, the first non-empty tag is kept.
 * The output is deterministic: the same source gives the same bytes.
 * On success *out_buf (allocated with a, free it with fenci_free(a, p)) holds
 * *out_len bytes.  Thread-safe. */
FENCI_API fenci_rc fenci_lexicon_compile(const char *src, size_t src_len,
                                         void **out_buf, size_t *out_len,
                                         const fenci_alloc *a, char *err, size_t errlen);

/* Same, and also counts the unknown-word character model of the lexicon
 * mode from corpus (optional; segmented text, one sentence a line, words
 * separated by whitespace).  Without it, characters the lexicon does not
 * cover stay single tokens in lexicon mode. */
FENCI_API fenci_rc fenci_lexicon_compile_ex(const char *src, size_t src_len, const char *corpus,
                                            size_t corpus_len, void **out_buf, size_t *out_len,
                                            const fenci_alloc *a, char *err, size_t errlen);

/* Frees memory the library returned to the caller (fenci_lexicon_compile). */
FENCI_API void fenci_free(const fenci_alloc *a, void *p);

/* ------------------------------------------------------ user dictionaries */

typedef struct fenci_dict fenci_dict;

/* The frequency rule for user words:
 *   - a word added WITH a frequency (freq > 0) joins the lexicon with that
 *     frequency: it takes part in the best-path choice like any lexicon word
 *     and may lose to a more probable split;
 *   - a word added WITHOUT a frequency (freq == 0) is FORCED: wherever it
 *     occurs it comes out as one token.  Where forced words overlap, the one
 *     starting first wins, and of those the longest.
 * On the trained-model path, every user word is treated as forced.
 * A word already in the model's lexicon with a frequency keeps its tag unless
 * a tag is given; the user frequency replaces the lexicon's.
 *
 * Words are matched as the segmenter sees the text: each word is normalised
 * as text is (a one-character unit traditional -> simplified and full-width
 * -> ASCII, an atom such as a Latin word or a number kept as it is), so a
 * word given in traditional characters, such as 龍貓, also matches 龙猫 and
 * mixed forms, as a simplified word matches traditional text; Ｂ站 matches
 * B站 (one letter is a one-character unit), but ＡＢＣ公司 only ＡＢＣ公司
 * (a run of letters is an atom).  Words equal after normalisation are one
 * word: the last added wins.
 *
 * Threads: fenci_dict_new, _add, _load and _load_text are for one thread at
 * a time, before the dict is frozen.  Freezing (fenci_dict_freeze, or the
 * first fenci_tagger_set_dict) builds the dict's trie; it is safe from any
 * number of threads at once (a lock inside the dict: one builds, the others
 * wait).  A frozen dict is read-only and shared; fenci_dict_size is
 * thread-safe. */
FENCI_API fenci_rc fenci_dict_new(fenci_dict **out, const fenci_model *m, const fenci_alloc *a);
/* Frees d; NULL is a no-op.  Detach it from (or free) its taggers first. */
FENCI_API void fenci_dict_free(fenci_dict *d);

/* Freezes d: builds its trie, after which it is read-only and
 * fenci_dict_add and the loads fail with FENCI_BADARG.  Idempotent.  A dict
 * is frozen anyway when first attached; calling this first, once, moves the
 * build (and its only possible failure, FENCI_NOMEM, after which d stays
 * unfrozen and may be frozen again) to a place of the caller's choosing.
 * Returns FENCI_OK, FENCI_NOMEM or FENCI_BADARG (d NULL).  Thread-safe. */
FENCI_API fenci_rc fenci_dict_freeze(fenci_dict *d);

/* Adds one word (UTF-8, 1..255 bytes, no whitespace); tag may be NULL, else
 * one of the model's tags (fenci_tag_name spells them).  FENCI_BADARG for an
 * invalid word (also one over 255 bytes once normalised: a few traditional
 * characters have a 4-byte simplified form), a tag the model does not know
 * (never dropped silently) or a frozen dict.  Not thread-safe. */
FENCI_API fenci_rc fenci_dict_add(fenci_dict *d, const char *word, size_t len,
                                  double freq, const char *tag);

/* Adds the words of a user-dictionary file, same line format as the lexicon
 * source ("word [freq [tag]]"; a missing freq means forced).  On a malformed
 * line (a tag the model does not know included) nothing from the file is
 * added, FENCI_BADFORMAT is returned and err names the file and line.  Any
 * file works (a pipe, /dev/null: no words); at
 * most 64 MiB are read (FENCI_IO beyond), and a line without its end after
 * 1 MiB is malformed, so /dev/zero fails at once.  Not thread-safe. */
FENCI_API fenci_rc fenci_dict_load(fenci_dict *d, const char *path, char *err, size_t errlen);
/* Same from text in memory. */
FENCI_API fenci_rc fenci_dict_load_text(fenci_dict *d, const char *text, size_t len,
                                        char *err, size_t errlen);
/* The number of words: as added before freezing, distinct (after
 * normalisation) once frozen. */
FENCI_API size_t fenci_dict_size(const fenci_dict *d);

/* ---------------------------------------------------------------- tagger */

typedef struct fenci_tagger fenci_tagger;

/* Options for fenci_tagger_new / fenci_tagger_set_options (bit flags). */
enum {
  FENCI_MODE_DEFAULT = 0x0, /* one segmentation */
  FENCI_MODE_SEARCH = 0x1,  /* also emit lexicon words inside long tokens (FENCI_TOK_EXTRA) */
  FENCI_MODE_ALL = 0x2,     /* also emit every lexicon word found (FENCI_TOK_EXTRA) */
  FENCI_MODE_MASK = 0x3,
  FENCI_OPT_FAST = 0x10,    /* lexicon path even when the model has trained weights */
  FENCI_OPT_POS = 0x20,     /* part-of-speech tags in context on the main tokens (the model
                             * must have a tagger: fenci_model_has_pos); extras keep the
                             * lexicon's tag */
  FENCI_OPT_BARE = 0x40     /* the words only: main tokens get neither the lexicon's tag
                             * (tag 0, unless FENCI_OPT_POS tags them) nor FENCI_TOK_OOV,
                             * which saves a lexicon lookup per token (the same tokens;
                             * FENCI_TOK_USER and FENCI_TOK_INVALID are still set) */
};

/* Token kinds (fenci_token.kind). */
enum {
  FENCI_KIND_WORD = 0,  /* Han or other script text */
  FENCI_KIND_LATIN,     /* a run of Latin letters (with inner digits, ' - _ .) */
  FENCI_KIND_NUMBER,    /* digits, decimals, thousands separators, percent */
  FENCI_KIND_URL,
  FENCI_KIND_EMAIL,
  FENCI_KIND_PUNCT,     /* ASCII, CJK or full-width punctuation and symbols */
  FENCI_KIND_SPACE,     /* whitespace, including newlines */
  FENCI_KIND_INVALID,   /* one byte that is not valid UTF-8: always a token of its own */
  FENCI_KIND_OTHER
};

/* Token flags (fenci_token.flags). */
enum {
  FENCI_TOK_OOV = 0x1,     /* not a lexicon (or user) word */
  FENCI_TOK_EXTRA = 0x2,   /* search/all mode: overlaps the main tokens; skip it to rebuild the text */
  FENCI_TOK_USER = 0x4,    /* a user-dictionary word */
  FENCI_TOK_INVALID = 0x8  /* invalid UTF-8 byte (kind is FENCI_KIND_INVALID) */
};

typedef struct fenci_token {
  size_t start;   /* byte offset of the first byte, into the text passed in */
  size_t end;     /* byte offset one past the last byte */
  uint32_t flags; /* FENCI_TOK_* */
  uint16_t kind;  /* FENCI_KIND_* */
  uint16_t tag;   /* POS tag id, 0 when none; see fenci_tag_name.  With FENCI_OPT_POS the
                   * tag in context (PKU tag set: n v nr ns ... w for punctuation, m for
                   * numbers, nx for Latin words, URLs and e-mail addresses; 0 for
                   * whitespace and invalid bytes), else the lexicon's tag of the word */
} fenci_token;

/* Creates a tagger for model m with options opts (FENCI_MODE_* | FENCI_OPT_*).
 * On failure *out is NULL.  Thread-safe (different out pointers). */
FENCI_API fenci_rc fenci_tagger_new(fenci_tagger **out, const fenci_model *m, unsigned opts);
FENCI_API void fenci_tagger_free(fenci_tagger *t);
FENCI_API fenci_rc fenci_tagger_set_options(fenci_tagger *t, unsigned opts);

/* Attaches a user dictionary (NULL detaches).  Freezes d (fenci_dict_freeze):
 * later fenci_dict_add calls fail.  d must belong to the tagger's model.
 * Taggers in different threads may attach the same d at the same time. */
FENCI_API fenci_rc fenci_tagger_set_dict(fenci_tagger *t, fenci_dict *d);

/* The message of the tagger's last failure, or "" . Valid until the next call. */
FENCI_API const char *fenci_tagger_errmsg(const fenci_tagger *t);

/* Token callback: tok describes the token; form/form_len are its bytes
 * (form == text + tok->start).  Valid only during the call.  Return 0 to go
 * on, non-zero to stop (fenci_segment then returns FENCI_STOPPED). */
typedef int (*fenci_token_cb)(void *ctx, const fenci_token *tok,
                              const char *form, size_t form_len);

/* Segments text (len bytes, any bytes; no NUL needed) and calls cb for each
 * token in input order.  Main tokens (those without FENCI_TOK_EXTRA) cover
 * the input exactly: their bytes, joined, are the input.  Any length works;
 * memory use is bounded independent of the text length, and time is linear
 * in it.  No token joins an invalid byte, a control character, whitespace,
 * a URL or an e-mail address to anything else, nor two different
 * punctuation marks; the trained path makes no word of more than 64 units.
 * Not thread-safe on one tagger; use one tagger per thread. */
FENCI_API fenci_rc fenci_segment(fenci_tagger *t, const char *text, size_t len,
                                 fenci_token_cb cb, void *ctx);

/* Same, into an array.  Writes at most cap tokens to out and the total count
 * to *n_total.  When cap is too small the first cap tokens are written and
 * FENCI_TOOSMALL is returned: call again with *n_total slots. */
FENCI_API fenci_rc fenci_segment_into(fenci_tagger *t, const char *text, size_t len,
                                      fenci_token *out, size_t cap, size_t *n_total);

/* Tags words that are already cut: words[i] (lens[i] bytes) in context,
 * tags[i] receiving the tag id as FENCI_OPT_POS gives it.  For evaluation
 * with gold words and for callers that segment elsewhere.  The model must
 * have a tagger (else FENCI_BADARG).  Not thread-safe on one tagger. */
FENCI_API fenci_rc fenci_tag_words(fenci_tagger *t, const char *const *words, const size_t *lens, size_t n,
                                   uint16_t *tags);

/* The name of a POS tag id ("n", "v", ...), or "" for 0 or an unknown id.
 * Valid while the model lives.  Thread-safe. */
FENCI_API const char *fenci_tag_name(const fenci_model *m, uint16_t tag);

/* -------------------------------------------------------------- entities */

/* Entity types (fenci_entity.type). */
enum {
  FENCI_ENT_PER = 1, /* a person's name (拿破仑, 江泽民) */
  FENCI_ENT_LOC,     /* a place (枫丹白露, 厄尔巴岛) */
  FENCI_ENT_ORG,     /* an organisation (新华社, 中国致公党) */
  FENCI_ENT_TIME,    /* a date, time of day, duration or relative time (1814年4月6日, 次日) */
  FENCI_ENT_NUMBER,  /* a number without unit (一千二百五十, 第三) */
  FENCI_ENT_PERCENT, /* 3.5%, 百分之五 */
  FENCI_ENT_MONEY,   /* a number with a currency (50万英镑, １２欧元) */
  FENCI_ENT_QUANTITY /* a number with a measure word or unit (22万发, 16000名) */
};

/* Entity flags (fenci_entity.flags). */
enum {
  FENCI_ENTF_RELATIVE = 0x1, /* TIME relative to the text's own time (次日, 三天后): no value */
  FENCI_ENTF_APPROX = 0x2,   /* a vague amount (十几, 数百, 300多): no value */
  FENCI_ENTF_ORDINAL = 0x4,  /* NUMBER: an ordinal (第三) */
  FENCI_ENTF_DURATION = 0x8, /* TIME: an amount of time (三天: value 3, value_text "P3D") */
  FENCI_ENTF_WEEKDAY = 0x10, /* TIME: a weekday (周三: value 3, its ISO number, 1 Monday .. 7 Sunday) */
  FENCI_ENTF_RANGE = 0x20    /* from value to value_end (3-5人: 3 and 5; 1998年至2000年: value_text
                              * "1998/2000", an ISO 8601 interval; ３至５年: "P3Y/P5Y", 3 and 5) */
};

typedef struct fenci_entity {
  int type;                    /* FENCI_ENT_* */
  unsigned flags;              /* FENCI_ENTF_* */
  size_t start, end;           /* byte offsets into the text, end exclusive */
  size_t cstart, cend;         /* character offsets (an invalid byte counts as one) */
  int has_value;               /* NUMBER..QUANTITY: value is the number (PERCENT as a fraction);
                                * TIME: value_text is an ISO 8601 value */
  double value;                /* see has_value; TIME: a duration's count, a weekday's ISO
                                * number (1 Monday .. 7 Sunday), else 0 */
  const char *value_text;      /* TIME: "1814-04-06", "1998", "--12-31", "T09:30", "P3D"; "" else */
  size_t unit_start, unit_end; /* byte offsets of the unit (发, 英镑); equal when there is none */
  double value_end;            /* FENCI_ENTF_RANGE: the end of the range (value its start; 0 for
                                * the points of a TIME range, whose value_text says both) */
} fenci_entity;

/* Entity callback: e (and its value_text) is valid only during the call.
 * Return 0 to go on, non-zero to stop (fenci_entities returns FENCI_STOPPED). */
typedef int (*fenci_entity_cb)(void *ctx, const fenci_entity *e);

/* Finds the entities of text (len bytes, any bytes) in order of their start,
 * never overlapping: names with the model's recogniser (its lexicon file's
 * NERM section; without one, fenci_model_has_ner is 0 and only the times and
 * quantities are found), times and quantities with their normalised values
 * by rule.  Spans are spans of characters of the text, independent of any
 * segmentation.  Text is read by line (and in pieces of at most 64 KiB of a
 * longer line), so memory is bounded and time linear.  Not thread-safe on
 * one tagger. */
FENCI_API fenci_rc fenci_entities(fenci_tagger *t, const char *text, size_t len, fenci_entity_cb cb, void *ctx);

/* "PER", "LOC", "ORG", "TIME", "NUMBER", "PERCENT", "MONEY", "QUANTITY", or "". */
FENCI_API const char *fenci_entity_type_name(int type);
/* -------------------------------------------------------------- keywords */

/* Keyword extraction (jieba.analyse's two methods) over the tokens of one
 * document.  A token is a CANDIDATE when it is a main token (not
 * FENCI_TOK_EXTRA) of kind FENCI_KIND_WORD or FENCI_KIND_LATIN (also
 * FENCI_KIND_NUMBER with FENCI_KW_NUMBERS; without it a word holding an
 * ASCII or full-width digit, such as 1814年, counts as a number and is
 * left out too), has at least two characters,
 * is no stop word, and its tag is allowed.  Candidates are grouped by their
 * bytes (and tag, with FENCI_KW_BY_TAG).
 *
 * Stop words: the model's default list (its KSTP section, built from the
 * stopwords-iso Chinese list; see docs/FORMAT.md) unless
 * FENCI_KW_NO_DEFAULT_STOP, plus those of opts->dict.  They compare after
 * folding case, width and traditional forms (FENCI_FOLD_ALL), as jieba
 * lowercases.
 *
 * FENCI_KW_TFIDF: weight = count / (candidate tokens) * idf(word), the IDF
 * from opts->dict when it has a table, else from the model's (its KIDF
 * section, counted over the corpora by `make models`; see docs/FORMAT.md);
 * a word without a value gets the table's median, as in jieba.  The words
 * are looked up folded for width and traditional forms.  A model without a
 * table and no dict table gives FENCI_BADARG.
 *
 * FENCI_KW_TEXTRANK: the candidates are nodes of an undirected graph; two
 * candidates within `window` tokens of each other (every main token counts,
 * also those that are no candidates, as in jieba: token positions i < j
 * with j - i < window) add 1 to the weight of their edge (a word next to
 * itself makes a self-loop counted twice, as in jieba).  Ranks start at
 * 1 / nodes and are updated in place `iterations` times, node by node in
 * bytewise order: r(n) = (1 - d) + d * sum over edges n-m of w(n,m) /
 * W(m) * r(m), W(m) the sum of m's edge weights; then scaled as jieba
 * does, (r - min / 10) / (max - min / 10), so the top weight is 1.  Words
 * with no edge are left out.  Defaults (jieba's): window 5, damping 0.85,
 * 10 iterations, tags "ns,n,vn,v".
 *
 * Keywords come out by weight, highest first; equal weights in the order
 * of their first occurrence, so the result is deterministic.
 * Time is linear in the text (plus sorting the distinct words); memory is
 * that of the distinct candidates (and for TextRank their distinct pairs,
 * at most window - 1 per token), never of the text. */

enum { FENCI_KW_TFIDF = 0, FENCI_KW_TEXTRANK = 1 }; /* fenci_kw_opts.method */

enum {
  FENCI_KW_BY_TAG = 0x1,          /* a word with two tags is two keywords (jieba's withFlag with allowPOS) */
  FENCI_KW_NO_DEFAULT_STOP = 0x2, /* leave out the model's stop-word list */
  FENCI_KW_NUMBERS = 0x4          /* numbers (FENCI_KIND_NUMBER) may be keywords */
};

/* Caller word lists for keyword extraction: extra stop words, and an IDF
 * table that replaces the model's.  Filled by one thread (not thread-safe
 * while being filled); afterwards read-only, and any number of threads may
 * pass it to fenci_keywords at once. */
typedef struct fenci_kwdict fenci_kwdict;

/* A new empty kwdict (NULL a: malloc).  FENCI_OK, FENCI_NOMEM or FENCI_BADARG. */
FENCI_API fenci_rc fenci_kwdict_new(fenci_kwdict **out, const fenci_alloc *a);
/* Frees d; NULL is a no-op. */
FENCI_API void fenci_kwdict_free(fenci_kwdict *d);
/* Adds one stop word (UTF-8, 1..255 bytes once folded).  FENCI_BADARG for
 * an empty, too long or invalid UTF-8 word; FENCI_NOMEM. */
FENCI_API fenci_rc fenci_kwdict_add_stop(fenci_kwdict *d, const char *word, size_t len);
/* Adds the stop words of text (one a line; spaces around a word, blank
 * lines and a UTF-8 byte-order mark are skipped).  On a bad line nothing
 * of the text is added, FENCI_BADFORMAT is returned and err names the line. */
FENCI_API fenci_rc fenci_kwdict_load_stop(fenci_kwdict *d, const char *text, size_t len, char *err,
                                          size_t errlen);
/* Adds IDF values from text in jieba's idf.txt format: "word idf" lines
 * (separated by spaces or tabs; blank lines skipped).  From then on the
 * kwdict's table replaces the model's for every word, its median (of all
 * its values, recomputed by each load) for words it lacks; a word given
 * twice keeps the last value.  On a bad line (not two fields, a value that
 * is not a finite number >= 0, a word over 255 bytes) nothing is added,
 * FENCI_BADFORMAT, err names the line. */
FENCI_API fenci_rc fenci_kwdict_load_idf(fenci_kwdict *d, const char *text, size_t len, char *err,
                                         size_t errlen);

typedef struct fenci_kw_opts {
  int method;              /* FENCI_KW_TFIDF (0) or FENCI_KW_TEXTRANK */
  size_t top_k;            /* at most this many keywords; 0: all */
  const char *pos;         /* allowed tags: names (fenci_tag_name) separated by ',' or ' ', e.g.
                            * "n,ns,vn"; NULL: the method's default (TF-IDF every tag, untagged
                            * tokens included; TextRank "ns,n,vn,v"); "": every tag.  A name the
                            * model does not have matches nothing */
  const fenci_kwdict *dict; /* extra stop words and an IDF table, or NULL */
  unsigned flags;          /* FENCI_KW_* */
  unsigned window;         /* TextRank: co-occurrence span in tokens (>= 2); 0: 5 */
  unsigned iterations;     /* TextRank: rank updates; 0: 10 */
  double damping;          /* TextRank: in (0, 1); 0: 0.85 */
} fenci_kw_opts;

typedef struct fenci_keyword {
  size_t start;   /* byte offsets of the keyword's first occurrence in the text: */
  size_t end;     /* its bytes are text[start..end) */
  double weight;  /* TF-IDF or TextRank weight (see above) */
  size_t count;   /* candidate occurrences counted */
  uint16_t tag;   /* tag id of the first counted occurrence (fenci_tag_name) */
  uint16_t kind;  /* FENCI_KIND_* of it */
} fenci_keyword;

/* Segments text (len bytes, any bytes) with tagger t (its mode, options and
 * user dictionary) and writes the document's keywords to out: at most cap,
 * *n_total the number there are (at most opts->top_k).  When cap is too
 * small the first cap are written and FENCI_TOOSMALL is returned.  opts
 * NULL: all defaults (a zeroed struct).  Errors: FENCI_BADARG (bad opts,
 * no IDF table; message in fenci_tagger_errmsg), FENCI_NOMEM.  Not
 * thread-safe on one tagger (as fenci_segment). */
FENCI_API fenci_rc fenci_keywords(fenci_tagger *t, const char *text, size_t len, const fenci_kw_opts *opts,
                                  fenci_keyword *out, size_t cap, size_t *n_total);

/* The same over tokens the caller made (ntoks tokens of text, with tags of
 * model m; main tokens in order, as fenci_segment gives them): for callers
 * that change a segmentation before extracting.  A token outside text
 * gives FENCI_BADARG.  No error message (m is shared).  Thread-safe. */
FENCI_API fenci_rc fenci_keywords_tokens(const fenci_model *m, const char *text, size_t len,
                                         const fenci_token *toks, size_t ntoks, const fenci_kw_opts *opts,
                                         fenci_keyword *out, size_t cap, size_t *n_total);

/* --------------------------------------------------------------- folding */

/* Flags for fenci_fold (bit flags). */
enum {
  FENCI_FOLD_CASE = 0x1,  /* simple case folding of Latin (ASCII, Latin-1, Latin Extended-A),
                           * basic Greek and Cyrillic capitals: A -> a, É -> é, Ÿ -> ÿ */
  FENCI_FOLD_WIDTH = 0x2, /* full-width ASCII forms U+FF01..U+FF5E to ASCII, U+3000 to a space */
  FENCI_FOLD_T2S = 0x4,   /* traditional Han characters to simplified ones (the table the
                           * segmenter normalises with: OpenCC's single characters), to
                           * the end of a chain (薴 -> 苧 -> 苎): folding is idempotent */
  FENCI_FOLD_ALL = 0x7
};

/* Folds text (len bytes, any bytes; no NUL needed) into out, cap bytes:
 * character by character, with flags FENCI_FOLD_*, so that forms a search
 * should take for the same word give the same bytes (ＡＢＣ, ABC and abc;
 * 北京大學 and 北京大学).  Bytes that are not valid UTF-8 are copied as
 * they are; flags 0 copies the text.  The result is at most 4 * len bytes
 * (today never more than len + len / 3: a few traditional characters of
 * three bytes have a simplified form of four) and is not NUL-terminated.
 * *out_len receives the length of the whole result, also when it does not
 * fit: then out holds the characters that fit, none cut in part, and
 * FENCI_TOOSMALL is returned (call again with *out_len bytes; out may be
 * NULL when cap is 0).  out must not overlap text.
 * Returns FENCI_OK, FENCI_TOOSMALL, or FENCI_BADARG (unknown flags, text
 * NULL with len > 0, out NULL with cap > 0, out_len NULL).  Thread-safe. */
FENCI_API fenci_rc fenci_fold(const char *text, size_t len, unsigned flags, char *out, size_t cap,
                              size_t *out_len);

#ifdef __cplusplus
}
#endif
#endif /* FENCI_H */

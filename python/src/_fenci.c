/*
 * _fenci.c - the CPython binding of libfenci (the C part of the `fenci`
 * package; the jieba-compatible layer is fenci/__init__.py).  Uses only
 * include/fenci.h.
 *
 * Objects:
 *   Model      one opened model (mapped: forked workers share its pages);
 *              immutable, shared by every Segmenter and thread.
 *   Segmenter  a model plus the current user-word snapshot plus a pool of
 *              taggers.  cut() releases the GIL while segmenting; cut_batch()
 *              segments on worker threads and builds the lists meanwhile.
 *
 * Threads.  All bookkeeping (the snapshot pointer and its reference counts,
 * the tagger pool) is touched only while holding the GIL, which is the lock
 * that serialises it; the segmentation itself runs without the GIL on a
 * tagger that no other thread holds, against a model and a frozen fenci_dict
 * that are immutable.  set_words() builds a NEW dict, freezes it and swaps
 * the snapshot pointer; a cut in progress keeps a reference to the snapshot
 * it started with, which is freed when its last user lets go of it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fenci.h"
#include "gilprobe.h"

#ifndef FENCI_PY_REPO_MODELS
#define FENCI_PY_REPO_MODELS ""
#endif

/* PyMem_Raw* are thread-safe and need no GIL; PyMem_RawRealloc(p, 0) does
 * not free, so size 0 frees here as fenci_alloc requires. */
static void *py_alloc(void *ud, void *p, size_t n) {
  (void)ud;
  if (n == 0) {
    PyMem_RawFree(p);
    return NULL;
  }
  return PyMem_RawRealloc(p, n);
}
static const fenci_alloc PY_ALLOC = {py_alloc, NULL};

/* ------------------------------------------------------------------ Model */

typedef struct {
  PyObject_HEAD
  fenci_model *m;
  void *buf; /* owned image for a model compiled from lexicon text, else NULL */
} ModelObject;

static void Model_dealloc(ModelObject *self) {
  fenci_model_free(self->m);
  if (self->buf) fenci_free(&PY_ALLOC, self->buf);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Model_init(ModelObject *self, PyObject *args, PyObject *kw) {
  static char *kwl[] = {(char *)"path", (char *)"lexicon_text", (char *)"read", NULL};
  PyObject *pathobj = NULL;
  const char *text = NULL;
  Py_ssize_t tlen = 0;
  int readflag = 0;
  char err[512] = "";
  fenci_rc rc;
  if (self->m) {
    PyErr_SetString(PyExc_RuntimeError, "Model already initialised");
    return -1;
  }
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O&z#p", kwl, PyUnicode_FSConverter, &pathobj, &text,
                                   &tlen, &readflag))
    return -1;
  if (pathobj) {
    const char *path = PyBytes_AS_STRING(pathobj);
    Py_BEGIN_ALLOW_THREADS
    rc = fenci_model_open_ex(&self->m, path, readflag ? FENCI_OPEN_READ : 0, &PY_ALLOC, err, sizeof err);
    Py_END_ALLOW_THREADS
    Py_DECREF(pathobj);
  } else if (text) {
    size_t blen = 0;
    rc = fenci_lexicon_compile(text, (size_t)tlen, &self->buf, &blen, &PY_ALLOC, err, sizeof err);
    if (rc == FENCI_OK) rc = fenci_model_from_buffer(&self->m, self->buf, blen, &PY_ALLOC, err, sizeof err);
  } else {
    PyErr_SetString(PyExc_TypeError, "Model() needs path or lexicon_text");
    return -1;
  }
  if (rc != FENCI_OK) {
    PyErr_Format(rc == FENCI_IO ? PyExc_OSError : PyExc_ValueError, "fenci: %s",
                 err[0] ? err : fenci_rc_str(rc));
    return -1;
  }
  return 0;
}

static PyObject *Model_has_weights(ModelObject *self, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(fenci_model_has_weights(self->m));
}
static PyObject *Model_lexicon_size(ModelObject *self, PyObject *unused) {
  (void)unused;
  return PyLong_FromSize_t(fenci_model_lexicon_size(self->m));
}
/* A word given as str or UTF-8 bytes: its bytes, 0; or -1 with an exception. */
static int word_arg(PyObject *arg, const char **s, Py_ssize_t *n) {
  if (PyUnicode_Check(arg)) return (*s = PyUnicode_AsUTF8AndSize(arg, n)) != NULL ? 0 : -1;
  if (PyBytes_Check(arg)) {
    *s = PyBytes_AS_STRING(arg);
    *n = PyBytes_GET_SIZE(arg);
    return 0;
  }
  PyErr_Format(PyExc_TypeError, "fenci: word must be str or bytes, not %.100s", Py_TYPE(arg)->tp_name);
  return -1;
}

/* word_freq(word): the lexicon frequency of word (str or UTF-8 bytes,
 * matched exactly), a float, or None when it is no lexicon word. */
static PyObject *Model_word_freq(ModelObject *self, PyObject *arg) {
  const char *s;
  Py_ssize_t n;
  double f = 0;
  if (word_arg(arg, &s, &n) < 0) return NULL;
  if (!fenci_model_word_freq(self->m, s, (size_t)n, &f)) Py_RETURN_NONE;
  return PyFloat_FromDouble(f);
}
/* word_idf(word): (1, idf) from the model's keyword table, (0, median)
 * for a word it has no value for, (-1, None) without a table. */
static PyObject *Model_word_idf(ModelObject *self, PyObject *arg) {
  const char *s;
  Py_ssize_t n;
  double v = 0;
  int r;
  if (word_arg(arg, &s, &n) < 0) return NULL;
  r = fenci_model_word_idf(self->m, s, (size_t)n, &v);
  if (r < 0) return Py_BuildValue("(iO)", r, Py_None);
  return Py_BuildValue("(id)", r, v);
}
static PyObject *Model_freq_total(ModelObject *self, PyObject *unused) {
  (void)unused;
  return PyFloat_FromDouble(fenci_model_freq_total(self->m));
}
static PyObject *Model_meta(ModelObject *self, PyObject *unused) {
  size_t n = 0;
  const char *s = fenci_model_meta(self->m, &n);
  (void)unused;
  return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace");
}

static PyObject *Model_has_pos(ModelObject *self, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(fenci_model_has_pos(self->m));
}
static PyObject *Model_has_ner(ModelObject *self, PyObject *unused) {
  (void)unused;
  return PyBool_FromLong(fenci_model_has_ner(self->m));
}

static PyMethodDef Model_methods[] = {
    {"has_weights", (PyCFunction)Model_has_weights, METH_NOARGS, "True if the model has a trained segmenter."},
    {"has_pos", (PyCFunction)Model_has_pos, METH_NOARGS, "True if the model has a part-of-speech tagger."},
    {"has_ner", (PyCFunction)Model_has_ner, METH_NOARGS, "True if the model has a name recogniser."},
    {"lexicon_size", (PyCFunction)Model_lexicon_size, METH_NOARGS, "Number of lexicon words."},
    {"meta", (PyCFunction)Model_meta, METH_NOARGS, "The model's metadata text."},
    {"word_freq", (PyCFunction)Model_word_freq, METH_O,
     "The lexicon frequency of a word (exact match), a float, or None."},
    {"freq_total", (PyCFunction)Model_freq_total, METH_NOARGS, "The lexicon's frequencies summed."},
    {"word_idf", (PyCFunction)Model_word_idf, METH_O,
     "(1, idf) from the model's keyword table, (0, its median) for a word without a value, (-1, None) without a table."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject ModelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fenci._fenci.Model",
    .tp_basicsize = sizeof(ModelObject),
    .tp_dealloc = (destructor)Model_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Model(path=None, lexicon_text=None, read=False): an opened fenci model.",
    .tp_methods = Model_methods,
    .tp_init = (initproc)Model_init,
    .tp_new = PyType_GenericNew,
};

/* -------------------------------------------------------------- Segmenter */

typedef struct snapshot {
  fenci_dict *d; /* frozen; NULL: no user words */
  Py_ssize_t refs;
} snapshot;

typedef struct pooled {
  fenci_tagger *t;
  snapshot *snap; /* the snapshot attached to t (a reference), or NULL */
  unsigned opts;
} pooled;

typedef struct {
  PyObject_HEAD
  ModelObject *model;
  snapshot *cur;
  pooled *pool;
  Py_ssize_t npool, cappool;
} SegObject;

/* Called with the GIL held. */
static void snap_decref(snapshot *s) {
  if (s && --s->refs == 0) {
    fenci_dict_free(s->d);
    PyMem_RawFree(s);
  }
}

static void Seg_dealloc(SegObject *self) {
  Py_ssize_t i;
  for (i = 0; i < self->npool; i++) {
    fenci_tagger_free(self->pool[i].t);
    snap_decref(self->pool[i].snap);
  }
  PyMem_RawFree(self->pool);
  snap_decref(self->cur);
  Py_XDECREF(self->model);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Seg_init(SegObject *self, PyObject *args, PyObject *kw) {
  static char *kwl[] = {(char *)"model", NULL};
  ModelObject *m;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O!", kwl, &ModelType, &m)) return -1;
  if (!m->m) {
    PyErr_SetString(PyExc_ValueError, "model not opened");
    return -1;
  }
  Py_XSETREF(self->model, (ModelObject *)Py_NewRef(m));
  return 0;
}

/* Takes a tagger from the pool (or makes one), set to opts and attached to
 * the current snapshot; the caller owns it until pool_put.  GIL held. */
static int pool_get(SegObject *self, unsigned opts, pooled *out) {
  fenci_rc rc;
  if (self->npool > 0) {
    *out = self->pool[--self->npool];
  } else {
    out->snap = NULL;
    out->opts = 0;
    rc = fenci_tagger_new(&out->t, self->model->m, 0);
    if (rc != FENCI_OK) {
      PyErr_Format(PyExc_MemoryError, "fenci_tagger_new: %s", fenci_rc_str(rc));
      return -1;
    }
  }
  if (out->snap != self->cur) {
    rc = fenci_tagger_set_dict(out->t, self->cur ? self->cur->d : NULL);
    if (rc != FENCI_OK) {
      PyErr_Format(PyExc_RuntimeError, "fenci: %s", fenci_tagger_errmsg(out->t));
      fenci_tagger_free(out->t);
      snap_decref(out->snap);
      return -1;
    }
    snap_decref(out->snap);
    out->snap = self->cur;
    if (out->snap) out->snap->refs++;
  }
  if (out->opts != opts) {
    rc = fenci_tagger_set_options(out->t, opts);
    if (rc != FENCI_OK) {
      PyErr_Format(PyExc_ValueError, "fenci: bad options 0x%x", opts);
      fenci_tagger_free(out->t);
      snap_decref(out->snap);
      return -1;
    }
    out->opts = opts;
  }
  return 0;
}

static void pool_put(SegObject *self, pooled *p) {
  if (self->npool == self->cappool) {
    Py_ssize_t nc = self->cappool ? 2 * self->cappool : 8;
    pooled *np = PyMem_RawRealloc(self->pool, (size_t)nc * sizeof *np);
    if (!np) {
      fenci_tagger_free(p->t);
      snap_decref(p->snap);
      return;
    }
    self->pool = np;
    self->cappool = nc;
  }
  self->pool[self->npool++] = *p;
}

/* set_words(entries): entries is a sequence of (word: str, freq: float, tag:
 * str|None); freq 0 means forced.  Builds and freezes a new dict, then swaps
 * it in.  Returns the list of words the library refused (whitespace, empty,
 * too long), which are left out. */
static PyObject *Seg_set_words(SegObject *self, PyObject *arg) {
  PyObject *seq = PySequence_Fast(arg, "set_words() needs a sequence"), *refused = NULL;
  Py_ssize_t i, n;
  fenci_dict *d = NULL;
  fenci_rc rc;
  snapshot *s;
  if (!seq) return NULL;
  refused = PyList_New(0);
  if (!refused) goto fail;
  n = PySequence_Fast_GET_SIZE(seq);
  if (n > 0) {
    rc = fenci_dict_new(&d, self->model->m, &PY_ALLOC);
    if (rc != FENCI_OK) {
      PyErr_NoMemory();
      goto fail;
    }
    for (i = 0; i < n; i++) {
      PyObject *e = PySequence_Fast_GET_ITEM(seq, i), *wo, *tago;
      const char *w, *tag = NULL;
      Py_ssize_t wl;
      double freq;
      if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 3) {
        PyErr_SetString(PyExc_TypeError, "set_words() entries are (word, freq, tag) tuples");
        goto fail;
      }
      wo = PyTuple_GET_ITEM(e, 0);
      tago = PyTuple_GET_ITEM(e, 2);
      w = PyUnicode_AsUTF8AndSize(wo, &wl);
      if (!w) goto fail;
      freq = PyFloat_AsDouble(PyTuple_GET_ITEM(e, 1));
      if (freq == -1.0 && PyErr_Occurred()) goto fail;
      if (tago != Py_None) {
        tag = PyUnicode_AsUTF8(tago);
        if (!tag) goto fail;
      }
      rc = fenci_dict_add(d, w, (size_t)wl, freq, tag);
      /* a tag the model does not know (jieba takes any): the word goes in
       * without it, and fenci.posseg gives the user's tag from its list */
      if (rc == FENCI_BADARG && tag) rc = fenci_dict_add(d, w, (size_t)wl, freq, NULL);
      if (rc == FENCI_BADARG) {
        if (PyList_Append(refused, wo) < 0) goto fail;
      } else if (rc != FENCI_OK) {
        PyErr_Format(PyExc_MemoryError, "fenci_dict_add: %s", fenci_rc_str(rc));
        goto fail;
      }
    }
    Py_BEGIN_ALLOW_THREADS
    rc = fenci_dict_freeze(d);
    Py_END_ALLOW_THREADS
    if (rc != FENCI_OK) {
      PyErr_Format(PyExc_MemoryError, "fenci_dict_freeze: %s", fenci_rc_str(rc));
      goto fail;
    }
  }
  s = NULL;
  if (d) {
    s = PyMem_RawMalloc(sizeof *s);
    if (!s) {
      PyErr_NoMemory();
      goto fail;
    }
    s->d = d;
    s->refs = 1;
  }
  snap_decref(self->cur);
  self->cur = s;
  Py_DECREF(seq);
  return refused;
fail:
  fenci_dict_free(d);
  Py_XDECREF(refused);
  Py_DECREF(seq);
  return NULL;
}

/* Before a thread that segmented without the GIL takes it back: while
 * another thread holds it, wait up to GIL_SPIN_NS, as long as a thread
 * holds it to build one line's words, instead of sleeping in CPython at
 * once (gilprobe.c says why).  Only where the probe can tell and there is
 * a second CPU for the holder to run on (gil_spin, set at import). */
#define GIL_SPIN_NS 20000
static int gil_spin;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static void gil_wait(void) {
  struct timespec t0, t;
  unsigned k;
  if (!gil_spin || fenci_gil_probe() != 1) return;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (k = 1; fenci_gil_probe() == 1; k++) {
    cpu_relax();
    if (k % 64 == 0) { /* the clock now and then: a pause takes 10 to 150 cycles */
      clock_gettime(CLOCK_MONOTONIC, &t);
      if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > GIL_SPIN_NS) return;
    }
  }
}

/* The probe with the GIL held (*with) and once this thread let go of it
 * (*without): 1 and 0 where it works (one thread running).  GIL held. */
static void gil_probe_both(int *with, int *without) {
  int w0 = fenci_gil_probe(), w1;
  Py_BEGIN_ALLOW_THREADS
  w1 = fenci_gil_probe();
  Py_END_ALLOW_THREADS
  *with = w0;
  *without = w1;
}

/* _gil_probe(): (held now, held once this thread let go of it): (True,
 * False) where the probe works (one thread), None where it cannot tell. */
static PyObject *mod_gil_probe(PyObject *mod, PyObject *unused) {
  int with, without;
  (void)mod;
  (void)unused;
  gil_probe_both(&with, &without);
  if (with < 0 || without < 0) Py_RETURN_NONE;
  return Py_BuildValue("(OO)", with ? Py_True : Py_False, without ? Py_True : Py_False);
}

/* A growable token array, filled without the GIL. */
typedef struct tokvec {
  fenci_token *v;
  size_t n, cap;
  int nomem;
} tokvec;

static int collect_cb(void *ctx, const fenci_token *tok, const char *form, size_t len) {
  tokvec *tv = ctx;
  (void)form;
  (void)len;
  if (tv->n == tv->cap) {
    size_t nc = tv->cap ? 2 * tv->cap : 64;
    fenci_token *nv = PyMem_RawRealloc(tv->v, nc * sizeof *nv);
    if (!nv) {
      tv->nomem = 1;
      return 1;
    }
    tv->v = nv;
    tv->cap = nc;
  }
  tv->v[tv->n++] = *tok;
  return 0;
}

static int tok_cmp(const void *a, const void *b) {
  const fenci_token *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  if (x->end != y->end) return x->end < y->end ? -1 : 1;
  return 0;
}

/* jieba's orders: search mode gives the words inside a long word before it;
 * all mode gives every word by start, then end (duplicates dropped). */
static void reorder(tokvec *tv, unsigned opts) {
  size_t i, j, k;
  if ((opts & FENCI_MODE_MASK) == FENCI_MODE_ALL) {
    if (tv->n > 1) qsort(tv->v, tv->n, sizeof *tv->v, tok_cmp); /* qsort wants a non-null array even for none */
    for (i = j = 0; i < tv->n; i++)
      if (j == 0 || tok_cmp(&tv->v[j - 1], &tv->v[i]) != 0) tv->v[j++] = tv->v[i];
    tv->n = j;
  } else if ((opts & FENCI_MODE_MASK) == FENCI_MODE_SEARCH) {
    for (i = 0; i < tv->n; i = j) {
      fenci_token main = tv->v[i];
      j = i + 1;
      while (j < tv->n && (tv->v[j].flags & FENCI_TOK_EXTRA)) j++;
      if (j > i + 1 && !(main.flags & FENCI_TOK_EXTRA)) {
        for (k = i; k + 1 < j; k++) tv->v[k] = tv->v[k + 1];
        tv->v[j - 1] = main;
      }
    }
  }
}

static int segment_text(fenci_tagger *t, const char *text, size_t len, unsigned opts, tokvec *tv,
                        fenci_rc *rc) {
  tv->n = 0;
  tv->nomem = 0;
  *rc = fenci_segment(t, text, len, collect_cb, tv);
  if (*rc == FENCI_STOPPED && tv->nomem) *rc = FENCI_NOMEM;
  if (*rc != FENCI_OK) return -1;
  reorder(tv, opts);
  return 0;
}

static size_t count_chars(const char *s, size_t n) {
  size_t i, c = 0;
  for (i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

/* The str of a token.  One-character tokens of two or three bytes (most Han
 * words are one or two characters) come from a cache of every BMP
 * character made so far: one str object each, shared (str is immutable).
 * ASCII characters are CPython's own cached singletons already.  Called
 * with the GIL held, which guards the cache. */
static PyObject *char_cache[0x10000];

static PyObject *token_str(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  unsigned cp;
  PyObject *o;
  if (n == 3 && (u[0] & 0xF0) == 0xE0 && (u[1] & 0xC0) == 0x80 && (u[2] & 0xC0) == 0x80)
    cp = ((unsigned)(u[0] & 0x0F) << 12) | ((unsigned)(u[1] & 0x3F) << 6) | (u[2] & 0x3Fu);
  else if (n == 2 && (u[0] & 0xE0) == 0xC0 && (u[1] & 0xC0) == 0x80)
    cp = ((unsigned)(u[0] & 0x1F) << 6) | (u[1] & 0x3Fu);
  else
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace");
  if (cp < 0x80 || (cp >= 0xD800 && cp < 0xE000) || (n == 3 && cp < 0x800))
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace"); /* overlong or a surrogate: not text */
  o = char_cache[cp];
  if (!o) {
    o = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace");
    if (!o) return NULL;
    char_cache[cp] = o; /* the cache's reference, kept for the process */
  }
  return Py_NewRef(o);
}

/* lcut's list, prepared without the GIL.  With the GIL held a thread
 * only makes the str objects, while another thread's segmentation waits
 * for it (its next call needs the GIL): the less it does there, the better
 * two threads cutting line by line scale.  So each token's characters are
 * decoded while the GIL is released, into code points with the token's
 * length and largest character; with the GIL, a one-character token is a
 * char_cache hit and any other is PyUnicode_New plus stores, instead of
 * the UTF-8 decoder.  Only for the UTF-8 of a str (valid) in the default
 * mode (the tokens do not overlap, so len code points are enough). */
typedef struct prepared {
  uint32_t *cp; /* the tokens' code points, one after another */
  uint32_t *tk; /* per token: length in characters, largest character, word_cache slot */
} prepared;

/* Words of 2..WORD_CACHE_MAXLEN characters come from a direct-mapped cache
 * of the str objects made last in each slot (text repeats its words: on
 * news text most lookups hit), so the GIL-held part of a call compares a
 * few characters instead of allocating and filling an object, and freeing
 * the list frees fewer.  The slot is hashed from the code points without
 * the GIL.  At most WORD_CACHE_SLOTS strs are kept (about 1 MB). */
#define WORD_CACHE_SLOTS 16384
#define WORD_CACHE_MAXLEN 8
static PyObject *word_cache[WORD_CACHE_SLOTS];

#define WORD_HASH0 2166136261u /* FNV-1a over the code points */
static inline uint32_t word_hash_step(uint32_t h, uint32_t c) { return (h ^ c) * 16777619u; }
static inline uint32_t word_slot(uint32_t h) { return (h ^ h >> 15) & (WORD_CACHE_SLOTS - 1); }

/* The cached str of the len code points cp in slot, or NULL (GIL held). */
static PyObject *word_cached(uint32_t slot, const uint32_t *cp, uint32_t len) {
  PyObject *o = word_cache[slot];
  int kind;
  const void *d;
  uint32_t i;
  if (!o || PyUnicode_GET_LENGTH(o) != (Py_ssize_t)len) return NULL;
  kind = PyUnicode_KIND(o);
  d = PyUnicode_DATA(o);
  for (i = 0; i < len; i++)
    if (PyUnicode_READ(kind, d, i) != cp[i]) return NULL;
  return o;
}

/* Fills p for tv's tokens of text, which has nch characters (cp holds
 * that many); 0 on success, -1 (nothing to free) when out of memory or the
 * text or tokens are not what was promised.  No GIL needed. */
static int prepare_words(prepared *p, const char *text, size_t len, size_t nch, const tokvec *tv) {
  const unsigned char *u = (const unsigned char *)text;
  size_t k, o = 0;
  p->cp = PyMem_RawMalloc((nch ? nch : 1) * sizeof *p->cp);
  p->tk = PyMem_RawMalloc((tv->n ? tv->n : 1) * 3 * sizeof *p->tk);
  if (!p->cp || !p->tk) goto fail;
  for (k = 0; k < tv->n; k++) {
    size_t i = tv->v[k].start, e = tv->v[k].end, n0 = o;
    uint32_t mx = 0, c, h = WORD_HASH0;
    if (e > len || i > e) goto fail;
    /* the UTF-8 of a str is valid and tokens end at character ends, so the
     * lead byte gives the length; a token that does not end where its last
     * sequence does is no such text */
    while (i < e) {
      unsigned b = u[i];
      if (o == nch) goto fail; /* more characters than the text has: tokens overlap */
      if (b >= 0xE0 && b < 0xF0) { /* most Chinese text */
        c = (b & 0x0Fu) << 12 | (u[i + 1] & 0x3Fu) << 6 | (u[i + 2] & 0x3Fu);
        i += 3;
      } else if (b < 0x80) {
        c = b;
        i += 1;
      } else if (b < 0xE0) {
        c = (b & 0x1Fu) << 6 | (u[i + 1] & 0x3Fu);
        i += 2;
      } else {
        c = (b & 0x07u) << 18 | (u[i + 1] & 0x3Fu) << 12 | (u[i + 2] & 0x3Fu) << 6 | (u[i + 3] & 0x3Fu);
        i += 4;
      }
      if (c > mx) mx = c;
      h = word_hash_step(h, c);
      p->cp[o++] = c;
    }
    if (i != e) goto fail;
    p->tk[3 * k] = (uint32_t)(o - n0);
    p->tk[3 * k + 1] = mx;
    p->tk[3 * k + 2] = word_slot(h);
  }
  return 0;
fail:
  PyMem_RawFree(p->cp);
  PyMem_RawFree(p->tk);
  p->cp = p->tk = NULL;
  return -1;
}

/* The list of words from p (GIL held); frees p. */
static PyObject *prepared_list(prepared *p, size_t n) {
  PyObject *out = PyList_New((Py_ssize_t)n);
  const uint32_t *cp = p->cp;
  size_t k;
  for (k = 0; out && k < n; k++) {
    uint32_t len = p->tk[3 * k], mx = p->tk[3 * k + 1], slot = p->tk[3 * k + 2], i;
    int cache = len >= 2 && len <= WORD_CACHE_MAXLEN;
    PyObject *o;
    if (len == 1 && mx < 0x10000) {
      o = char_cache[mx];
      if (!o) {
        o = PyUnicode_FromOrdinal((int)mx);
        if (o) char_cache[mx] = o; /* the cache's reference, kept for the process */
      }
      Py_XINCREF(o);
    } else if (cache && (o = word_cached(slot, cp, len)) != NULL) {
      Py_INCREF(o);
    } else {
      o = PyUnicode_New((Py_ssize_t)len, (Py_UCS4)mx);
      if (o) {
        int kind = PyUnicode_KIND(o);
        void *data = PyUnicode_DATA(o);
        for (i = 0; i < len; i++) PyUnicode_WRITE(kind, data, i, cp[i]);
        if (cache) { /* the cache's reference replaces the slot's last one */
          Py_XSETREF(word_cache[slot], Py_NewRef(o));
        }
      }
    }
    cp += len;
    if (!o) {
      Py_CLEAR(out);
      break;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)k, o);
  }
  PyMem_RawFree(p->cp);
  PyMem_RawFree(p->tk);
  return out;
}

static const char *KIND_NAMES[] = {"word", "latin", "number", "url", "email", "punct", "space", "invalid", "other"};

/* cut(text, opts, detail=False): the tokens of text (str or UTF-8 bytes):
 * a list of str, or with detail a list of tuples
 * (word, char_start, char_end, byte_start, byte_end, kind, tag, flags). */
/* entities(text): [(type, text, cs, ce, bs, be, value, unit, flags)],
 * value a float, an ISO string (TIME) or None; unit a str or None. */
typedef struct entvec {
  fenci_entity *v;
  char (*iso)[64];
  size_t n, cap;
  int nomem;
} entvec;

static int ent_collect(void *ctx, const fenci_entity *e) {
  entvec *x = ctx;
  if (x->n == x->cap) {
    size_t nc = x->cap ? x->cap * 2 : 64;
    fenci_entity *v = PyMem_RawRealloc(x->v, nc * sizeof *v);
    char (*iso)[64] = v ? PyMem_RawRealloc(x->iso, nc * sizeof *iso) : NULL;
    if (v) x->v = v;
    if (!iso) {
      x->nomem = 1;
      return 1;
    }
    x->iso = iso;
    x->cap = nc;
  }
  x->v[x->n] = *e;
  snprintf(x->iso[x->n], sizeof x->iso[0], "%s", e->value_text ? e->value_text : "");
  x->n++;
  return 0;
}

static PyObject *Seg_entities(SegObject *self, PyObject *args) {
  PyObject *textobj, *out = NULL;
  const char *text;
  Py_ssize_t len;
  pooled p;
  entvec x = {NULL, NULL, 0, 0, 0};
  fenci_rc rc;
  size_t i;
  if (!PyArg_ParseTuple(args, "O", &textobj)) return NULL;
  if (PyUnicode_Check(textobj)) {
    text = PyUnicode_AsUTF8AndSize(textobj, &len);
    if (!text) return NULL;
  } else if (PyBytes_Check(textobj)) {
    text = PyBytes_AS_STRING(textobj);
    len = PyBytes_GET_SIZE(textobj);
  } else {
    return PyErr_Format(PyExc_TypeError, "fenci: text must be str or bytes, not %.100s", Py_TYPE(textobj)->tp_name);
  }
  if (pool_get(self, FENCI_MODE_DEFAULT, &p) < 0) return NULL;
  Py_INCREF(textobj);
  Py_BEGIN_ALLOW_THREADS
  rc = fenci_entities(p.t, text, (size_t)len, ent_collect, &x);
  gil_wait();
  Py_END_ALLOW_THREADS
  pool_put(self, &p);
  if (rc != FENCI_OK) {
    PyErr_Format(x.nomem || rc == FENCI_NOMEM ? PyExc_MemoryError : PyExc_RuntimeError, "fenci_entities: %s",
                 fenci_rc_str(x.nomem ? FENCI_NOMEM : rc));
    goto done;
  }
  out = PyList_New((Py_ssize_t)x.n);
  for (i = 0; out && i < x.n; i++) {
    const fenci_entity *e = &x.v[i];
    PyObject *val, *unit, *item;
    if (!e->has_value) val = Py_NewRef(Py_None);
    else if (e->type == FENCI_ENT_TIME) val = PyUnicode_FromString(x.iso[i]);
    else if (e->flags & FENCI_ENTF_RANGE) val = Py_BuildValue("(dd)", e->value, e->value_end); /* 3-5人 */
    else val = PyFloat_FromDouble(e->value);
    unit = e->unit_end > e->unit_start ? token_str(text + e->unit_start, e->unit_end - e->unit_start)
                                       : Py_NewRef(Py_None);
    item = val && unit ? Py_BuildValue("(sNnnnnNNI)", fenci_entity_type_name(e->type),
                                       token_str(text + e->start, e->end - e->start), (Py_ssize_t)e->cstart,
                                       (Py_ssize_t)e->cend, (Py_ssize_t)e->start, (Py_ssize_t)e->end, val, unit,
                                       e->flags)
                       : NULL;
    if (!item) {
      Py_XDECREF(val);
      Py_XDECREF(unit);
      Py_CLEAR(out);
      break;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)i, item);
  }
done:
  PyMem_RawFree(x.v);
  PyMem_RawFree(x.iso);
  Py_DECREF(textobj);
  return out;
}

/* Raises for str_utf8's failure code (-1 out of memory, -2 a surrogate)
 * on the str obj; returns NULL. */
static PyObject *str_utf8_error(PyObject *obj, Py_ssize_t code) {
  if (code == -1) return PyErr_NoMemory();
  (void)PyUnicode_AsUTF8AndSize(obj, NULL); /* raises CPython's UnicodeEncodeError */
  if (!PyErr_Occurred()) PyErr_SetString(PyExc_UnicodeError, "fenci: the text is not encodable as UTF-8");
  return NULL;
}

/* The UTF-8 of n characters of a str's data (kind as PyUnicode_KIND), made
 * without the GIL (a str is immutable and the caller holds a reference)
 * into a buffer the caller frees: the encoding leaves the GIL-held part of
 * a call, so threads that cut line by line wait less for each other, and
 * the str keeps no UTF-8 copy of itself (PyUnicode_AsUTF8AndSize caches
 * one for the object's life).  Returns the length; -1 when out of memory,
 * -2 at a surrogate, which is not text (the caller raises as CPython). */
static Py_ssize_t str_utf8(int kind, const void *data, Py_ssize_t n, char **out) {
  size_t cap = (size_t)n * (kind == PyUnicode_1BYTE_KIND ? 2 : kind == PyUnicode_2BYTE_KIND ? 3 : 4);
  unsigned char *b = PyMem_RawMalloc(cap ? cap : 1), *o = b;
  Py_ssize_t i;
  if (!b) return -1;
#define STR_UTF8_PUT(c)                                     \
  if (c < 0x80) {                                           \
    *o++ = (unsigned char)c;                                \
  } else if (c < 0x800) {                                   \
    *o++ = (unsigned char)(0xC0 | c >> 6);                  \
    *o++ = (unsigned char)(0x80 | (c & 0x3F));              \
  } else if (c < 0x10000) {                                 \
    if (c >= 0xD800 && c < 0xE000) goto surrogate;          \
    *o++ = (unsigned char)(0xE0 | c >> 12);                 \
    *o++ = (unsigned char)(0x80 | (c >> 6 & 0x3F));         \
    *o++ = (unsigned char)(0x80 | (c & 0x3F));              \
  } else {                                                  \
    *o++ = (unsigned char)(0xF0 | c >> 18);                 \
    *o++ = (unsigned char)(0x80 | (c >> 12 & 0x3F));        \
    *o++ = (unsigned char)(0x80 | (c >> 6 & 0x3F));         \
    *o++ = (unsigned char)(0x80 | (c & 0x3F));              \
  }
  /* one loop per kind: the kind is not looked at per character */
  if (kind == PyUnicode_1BYTE_KIND) {
    const Py_UCS1 *d = data;
    for (i = 0; i < n; i++) {
      Py_UCS4 c = d[i];
      STR_UTF8_PUT(c)
    }
  } else if (kind == PyUnicode_2BYTE_KIND) {
    const Py_UCS2 *d = data;
    for (i = 0; i < n; i++) {
      Py_UCS4 c = d[i];
      STR_UTF8_PUT(c)
    }
  } else {
    const Py_UCS4 *d = data;
    for (i = 0; i < n; i++) {
      Py_UCS4 c = d[i];
      STR_UTF8_PUT(c)
    }
  }
#undef STR_UTF8_PUT
  *out = (char *)b;
  return (Py_ssize_t)(o - b);
surrogate:
  PyMem_RawFree(b);
  return -2;
}

/* The detail tuple of token k of text: (word, cs, ce, bs, be, kind, tag,
 * flags).  Character offsets are counted from the previous token's start
 * (*cpos at byte *bpos): search mode steps back to a long word after its
 * inner words, by at most its length, so the whole count stays linear in
 * the text. */
static PyObject *detail_item(const fenci_model *m, const char *text, const fenci_token *k, size_t *cpos,
                             size_t *bpos) {
  PyObject *w = token_str(text + k->start, k->end - k->start);
  size_t cs, ce;
  if (!w) return NULL;
  if (k->start >= *bpos) {
    *cpos += count_chars(text + *bpos, k->start - *bpos);
  } else {
    *cpos -= count_chars(text + k->start, *bpos - k->start);
  }
  *bpos = k->start;
  cs = *cpos;
  ce = cs + (size_t)PyUnicode_GET_LENGTH(w);
  if (k->kind == FENCI_KIND_INVALID) ce = cs + 1;
  return Py_BuildValue("(NnnnnssI)", w, (Py_ssize_t)cs, (Py_ssize_t)ce, (Py_ssize_t)k->start, (Py_ssize_t)k->end,
                       KIND_NAMES[k->kind < 9 ? k->kind : 8], fenci_tag_name(m, k->tag), (unsigned)k->flags);
}

typedef struct IterObject {
  PyObject_HEAD
  SegObject *seg;    /* keeps the model (tag names) */
  PyObject *textobj; /* keeps text when it points into it */
  char *enc;         /* a str's UTF-8, owned */
  const char *text;
  tokvec tv;
  size_t i, cpos, bpos;
  int words; /* words only (detail 3) */
} IterObject;
static PyTypeObject IterType;

static PyObject *Seg_cut(SegObject *self, PyObject *args) {
  PyObject *textobj, *out = NULL;
  unsigned opts;
  int detail = 0;
  const char *text;
  Py_ssize_t len;
  pooled p;
  tokvec tv = {NULL, 0, 0, 0};
  fenci_rc rc;
  int bad, prep;
  prepared pw = {NULL, NULL};
  size_t i, cpos = 0, bpos = 0;
  char *enc = NULL; /* a str's UTF-8, made by str_utf8 */
  int own = 0, kind = 0;
  const void *data = NULL;
  Py_ssize_t nch = 0, elen = 0;
  if (!PyArg_ParseTuple(args, "OI|i", &textobj, &opts, &detail)) return NULL;
  if (detail < 0 || detail > 3) return PyErr_Format(PyExc_ValueError, "fenci: detail must be 0..3, not %d", detail);
  if (!detail || detail == 3) opts |= FENCI_OPT_BARE; /* words only: no tag or OOV flag to look up */
  if (PyUnicode_Check(textobj)) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(textobj) < 0) return NULL;
#endif
    if (PyUnicode_IS_ASCII(textobj)) { /* its data is its UTF-8 */
      text = (const char *)PyUnicode_DATA(textobj);
      len = PyUnicode_GET_LENGTH(textobj);
    } else { /* encoded below, without the GIL */
      own = 1;
      kind = PyUnicode_KIND(textobj);
      data = PyUnicode_DATA(textobj);
      nch = PyUnicode_GET_LENGTH(textobj);
      text = NULL;
      len = 0;
    }
  } else if (PyBytes_Check(textobj)) {
    text = PyBytes_AS_STRING(textobj);
    len = PyBytes_GET_SIZE(textobj);
  } else {
    return PyErr_Format(PyExc_TypeError, "fenci: text must be str or bytes, not %.100s",
                        Py_TYPE(textobj)->tp_name);
  }
  prep = !detail && (opts & FENCI_MODE_MASK) == FENCI_MODE_DEFAULT && PyUnicode_Check(textobj);
  if (pool_get(self, opts, &p) < 0) return NULL;
  Py_INCREF(textobj); /* keeps text alive (a str's data is immutable) */
  Py_BEGIN_ALLOW_THREADS
  if (own && (elen = str_utf8(kind, data, nch, &enc)) >= 0) {
    text = enc;
    len = elen;
  }
  bad = elen < 0 || segment_text(p.t, text, (size_t)len, opts, &tv, &rc);
  if (!bad && prep) prep = prepare_words(&pw, text, (size_t)len, own ? (size_t)nch : (size_t)len, &tv) == 0;
  gil_wait();
  Py_END_ALLOW_THREADS
  pool_put(self, &p);
  if (elen < 0) {
    str_utf8_error(textobj, elen);
    goto done;
  }
  if (bad) {
    PyErr_Format(rc == FENCI_NOMEM ? PyExc_MemoryError : PyExc_RuntimeError, "fenci_segment: %s",
                 fenci_rc_str(rc));
    goto done;
  }
  if (prep) {
    out = prepared_list(&pw, tv.n);
    goto done;
  }
  if (detail >= 2) { /* an iterator: each token's tuple (2) or word (3) made when asked for */
    IterObject *it = PyObject_New(IterObject, &IterType);
    if (!it) goto done;
    Py_INCREF(self);
    it->seg = self;
    it->textobj = textobj; /* the reference taken above */
    it->enc = enc;
    it->text = text;
    it->tv = tv;
    it->i = it->cpos = it->bpos = 0;
    it->words = detail == 3;
    return (PyObject *)it;
  }
  out = PyList_New((Py_ssize_t)tv.n);
  if (!out) goto done;
  for (i = 0; i < tv.n; i++) {
    const fenci_token *k = &tv.v[i];
    PyObject *item;
    if (!detail) {
      item = token_str(text + k->start, k->end - k->start);
    } else {
      item = detail_item(self->model->m, text, k, &cpos, &bpos);
    }
    if (!item) goto fail;
    PyList_SET_ITEM(out, (Py_ssize_t)i, item);
  }
  goto done;
fail:
  Py_CLEAR(out);
done:
  PyMem_RawFree(tv.v);
  PyMem_RawFree(enc);
  Py_DECREF(textobj);
  return out;
}

/* The iterator of Seg_cut(text, opts, 2 or 3): the segmented text's tokens kept
 * as fenci_token (24 bytes each), each token's tuple made when it is asked
 * for, so a generator over a long line holds no list of tuples (about 400
 * bytes a token). */
static PyObject *Iter_next(IterObject *it) {
  const fenci_token *k;
  if (it->i >= it->tv.n) return NULL;
  k = &it->tv.v[it->i++];
  if (it->words) return token_str(it->text + k->start, k->end - k->start);
  return detail_item(it->seg->model->m, it->text, k, &it->cpos, &it->bpos);
}

static void Iter_dealloc(IterObject *it) {
  PyMem_RawFree(it->tv.v);
  PyMem_RawFree(it->enc);
  Py_XDECREF(it->textobj);
  Py_XDECREF(it->seg);
  PyObject_Free(it);
}

static PyTypeObject IterType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fenci._fenci.TokenIterator",
    .tp_basicsize = sizeof(IterObject),
    .tp_dealloc = (destructor)Iter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The tokens of one Segmenter.cut(text, opts, 2 or 3) call: detail tuples or words.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Iter_next,
};

/* ------------------------------------------------------------ cut_batch */

/* cut_batch segments on `threads` threads: threads - 1 workers and the
 * calling thread.  The workers never touch a Python object's fields: they
 * read a str's characters (immutable, kept alive by the batch's tuple) and
 * encode them themselves.  The calling
 * thread turns finished items into lists of str, in order, with the GIL;
 * when the next item is not finished yet it releases the GIL and segments
 * items itself (the next ones not taken) until it is, so it is never idle
 * while there is work, and building the lists overlaps the workers. */

/* cut_batch takes the GIL back once a window of this many items, or of
 * this many bytes of text, is segmented (see Seg_cut_batch). */
#define BATCH_WINDOW 1024
#define BATCH_WINDOW_BYTES (1u << 20)

typedef struct batch_item {
  const char *text; /* the UTF-8: bytes' or an ASCII str's data, or enc */
  size_t len;
  size_t est;        /* len, or for a str to encode a bound of it (fixed: the window's measure) */
  int isstr;         /* a str's: valid UTF-8 */
  int kind;          /* a str to encode (its PyUnicode_KIND), else 0 */
  const void *data;  /* ... its characters */
  Py_ssize_t nch;
  char *enc;         /* its UTF-8, made by the worker (str_utf8) */
  int badenc;        /* str_utf8 failed: -1 out of memory, -2 a surrogate; -3 over 4 GiB */
  prepared pw;       /* the words prepared (a str, default mode), or */
  uint32_t *se;      /* start, end byte pairs */
  size_t n;
  fenci_rc rc;
  int done; /* guarded by batch.mu */
} batch_item;

typedef struct batch {
  batch_item *items;
  size_t nitems;
  size_t next; /* the next item to take; guarded by mu */
  int stop;    /* the caller gave up (an error): take no more items; guarded by mu */
  pthread_mutex_t mu;
  pthread_cond_t cv; /* an item is done */
  unsigned opts;
  int prep; /* the default mode: str items' words are prepared */
} batch;

typedef struct worker {
  batch *b;
  fenci_tagger *t;
} worker;

/* Segments item i (its str encoded first) into its prepared words, or its
 * start/end pairs, and marks it done. */
static void batch_do(batch *b, fenci_tagger *t, tokvec *tv, size_t i) {
  batch_item *it = &b->items[i];
  size_t j;
  if (it->kind) {
    Py_ssize_t elen = str_utf8(it->kind, it->data, it->nch, &it->enc);
    if (elen < 0) {
      it->badenc = (int)elen;
      goto done;
    }
    if ((size_t)elen > UINT32_MAX) {
      it->badenc = -3;
      goto done;
    }
    it->text = it->enc;
    it->len = (size_t)elen;
  }
  if (segment_text(t, it->text, it->len, b->opts, tv, &it->rc) == 0) {
    it->n = tv->n;
    /* a str's words in the default mode as lcut's (prepare_words) */
    if (b->prep && it->isstr && prepare_words(&it->pw, it->text, it->len, (size_t)it->nch, tv) == 0) {
      PyMem_RawFree(it->enc); /* the words are decoded: the UTF-8 is not read again */
      it->enc = NULL;
      goto done;
    }
    it->se = PyMem_RawMalloc((tv->n ? tv->n : 1) * 2 * sizeof *it->se);
    if (!it->se) {
      it->rc = FENCI_NOMEM;
    } else {
      for (j = 0; j < tv->n; j++) {
        it->se[2 * j] = (uint32_t)tv->v[j].start;
        it->se[2 * j + 1] = (uint32_t)tv->v[j].end;
      }
    }
  }
done:
  pthread_mutex_lock(&b->mu);
  it->done = 1;
  pthread_cond_broadcast(&b->cv);
  pthread_mutex_unlock(&b->mu);
}

static void *batch_work(void *arg) {
  worker *w = arg;
  batch *b = w->b;
  tokvec tv = {NULL, 0, 0, 0};
  for (;;) {
    size_t i;
    pthread_mutex_lock(&b->mu);
    i = b->stop ? b->nitems : b->next++;
    pthread_mutex_unlock(&b->mu);
    if (i >= b->nitems) break;
    batch_do(b, w->t, &tv, i);
  }
  PyMem_RawFree(tv.v);
  return NULL;
}

/* The words of a finished item (obj is its text) as a new list, or
 * appended to flat (which is returned, borrowed); NULL with an exception
 * set. */
static PyObject *batch_list(batch_item *it, PyObject *obj, PyObject *flat) {
  PyObject *l;
  size_t j;
  if (it->badenc) {
    if (it->badenc == -3) return PyErr_Format(PyExc_ValueError, "fenci: a batch text is over 4 GiB");
    return str_utf8_error(obj, it->badenc);
  }
  if (it->rc != FENCI_OK)
    return PyErr_Format(it->rc == FENCI_NOMEM ? PyExc_MemoryError : PyExc_RuntimeError, "fenci_segment: %s",
                        fenci_rc_str(it->rc));
  if (it->pw.cp) {
    l = prepared_list(&it->pw, it->n); /* frees it->pw */
    it->pw.cp = it->pw.tk = NULL;
  } else {
    l = PyList_New((Py_ssize_t)it->n);
    for (j = 0; l && j < it->n; j++) {
      PyObject *w = token_str(it->text + it->se[2 * j], it->se[2 * j + 1] - it->se[2 * j]);
      if (!w) Py_CLEAR(l);
      else PyList_SET_ITEM(l, (Py_ssize_t)j, w);
    }
  }
  if (l && flat) { /* its words appended: one list of all the words */
    int r = PyList_SetSlice(flat, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, l);
    Py_DECREF(l);
    return r < 0 ? NULL : flat;
  }
  return l;
}

/* cut_batch(texts, opts, threads=1, flat=0): [cut(t, opts) for t in texts],
 * the texts segmented by `threads` threads at once without the GIL; with
 * flat, all their words in one list. */
static PyObject *Seg_cut_batch(SegObject *self, PyObject *args) {
  PyObject *seqarg, *seq, *out = NULL;
  unsigned opts;
  int nthreads = 0, flat = 0;
  Py_ssize_t n, i;
  batch b;
  worker *ws = NULL;
  pooled *ps = NULL;
  pthread_t *tids = NULL;
  int got = 0, started = 0, k, sync = 0;
  tokvec mytv = {NULL, 0, 0, 0};
  if (!PyArg_ParseTuple(args, "OI|ip", &seqarg, &opts, &nthreads, &flat)) return NULL;
  opts |= FENCI_OPT_BARE; /* words only */
  /* a tuple: it holds every text while the GIL is released, even if the
   * caller's list changes meanwhile */
  seq = PySequence_Fast(seqarg, "cut_batch() needs a list of str");
  if (seq) Py_SETREF(seq, PySequence_Tuple(seq));
  if (!seq) return NULL;
  n = PyTuple_GET_SIZE(seq);
  memset(&b, 0, sizeof b);
  b.opts = opts;
  b.prep = (opts & FENCI_MODE_MASK) == FENCI_MODE_DEFAULT;
  b.nitems = (size_t)n;
  b.items = PyMem_RawCalloc((size_t)(n ? n : 1), sizeof *b.items);
  if (!b.items) {
    PyErr_NoMemory();
    goto done;
  }
  for (i = 0; i < n; i++) {
    PyObject *o = PyTuple_GET_ITEM(seq, i);
    batch_item *it = &b.items[i];
    size_t l;
    if (PyUnicode_Check(o)) {
#if PY_VERSION_HEX < 0x030C0000
      if (PyUnicode_READY(o) < 0) goto done;
#endif
      it->isstr = 1;
      it->nch = PyUnicode_GET_LENGTH(o);
      if (PyUnicode_IS_ASCII(o)) { /* its data is its UTF-8 */
        it->text = (const char *)PyUnicode_DATA(o);
        l = (size_t)it->nch;
      } else { /* encoded by the worker that takes it, without the GIL */
        it->kind = PyUnicode_KIND(o);
        it->data = PyUnicode_DATA(o);
        l = (size_t)it->nch * (it->kind == PyUnicode_1BYTE_KIND ? 2 : it->kind == PyUnicode_2BYTE_KIND ? 3 : 4);
      }
    } else if (PyBytes_Check(o)) {
      it->text = PyBytes_AS_STRING(o);
      l = (size_t)PyBytes_GET_SIZE(o);
    } else {
      PyErr_Format(PyExc_TypeError, "fenci: texts must be str or bytes, not %.100s", Py_TYPE(o)->tp_name);
      goto done;
    }
    if (!it->kind && l > UINT32_MAX) { /* a str to encode is checked once encoded (batch_do) */
      PyErr_SetString(PyExc_ValueError, "fenci: a batch text is over 4 GiB");
      goto done;
    }
    it->len = it->est = l;
  }
  out = flat ? PyList_New(0) : PyList_New(n);
  if (!out || n == 0) goto done;
  if (nthreads <= 0) nthreads = 1;
  if (nthreads > 256) nthreads = 256;
  if ((Py_ssize_t)nthreads > n) nthreads = (int)n;
  ws = PyMem_RawCalloc((size_t)nthreads, sizeof *ws);
  ps = PyMem_RawCalloc((size_t)nthreads, sizeof *ps);
  tids = PyMem_RawCalloc((size_t)nthreads, sizeof *tids);
  if (!ws || !ps || !tids) {
    PyErr_NoMemory();
    goto fail;
  }
  for (got = 0; got < nthreads; got++)
    if (pool_get(self, opts, &ps[got]) < 0) goto fail;
  pthread_mutex_init(&b.mu, NULL);
  pthread_cond_init(&b.cv, NULL);
  sync = 1;
  for (k = 0; k < nthreads; k++) {
    ws[k].b = &b;
    ws[k].t = ps[k].t;
  }
  for (k = 1; k < nthreads; k++) { /* ws[0] is the calling thread's */
    if (pthread_create(&tids[k], NULL, batch_work, &ws[k]) != 0) break;
    started = k;
  }
  for (i = 0; i < n; i++) {
    batch_item *it = &b.items[i];
    PyObject *l;
    int ready;
    pthread_mutex_lock(&b.mu);
    ready = it->done;
    pthread_mutex_unlock(&b.mu);
    if (!ready) {
      /* Without the GIL until a window of items from i on is done (or the
       * batch), not item i alone: each taking of the GIL back may wait a
       * whole switch interval (5 ms) behind a busy Python thread, so one
       * round trip per item made a batch of 60,000 short lines take
       * minutes beside one. */
      size_t want = (size_t)i, bytes = 0;
      while (want < b.nitems && want - (size_t)i < BATCH_WINDOW && bytes < BATCH_WINDOW_BYTES)
        bytes += b.items[want++].est;
      Py_BEGIN_ALLOW_THREADS
      size_t c = (size_t)i; /* items i .. c - 1 are done */
      for (;;) {
        size_t j;
        pthread_mutex_lock(&b.mu);
        while (c < want && b.items[c].done) c++;
        if (c >= want) {
          pthread_mutex_unlock(&b.mu);
          break;
        }
        if (b.next < b.nitems) {
          j = b.next++;
          pthread_mutex_unlock(&b.mu);
          batch_do(&b, ws[0].t, &mytv, j);
          continue;
        }
        while (!b.items[c].done) pthread_cond_wait(&b.cv, &b.mu);
        pthread_mutex_unlock(&b.mu);
      }
      Py_END_ALLOW_THREADS
    }
    l = batch_list(it, PyTuple_GET_ITEM(seq, i), flat ? out : NULL);
    PyMem_RawFree(it->se);
    PyMem_RawFree(it->enc);
    it->se = NULL;
    it->enc = NULL;
    if (!l) goto fail;
    if (!flat) PyList_SET_ITEM(out, i, l);
  }
  goto done;
fail:
  Py_CLEAR(out);
done:
  if (sync) {
    pthread_mutex_lock(&b.mu);
    b.stop = 1;
    pthread_mutex_unlock(&b.mu);
    Py_BEGIN_ALLOW_THREADS
    for (k = 1; k <= started; k++) pthread_join(tids[k], NULL);
    Py_END_ALLOW_THREADS
    pthread_cond_destroy(&b.cv);
    pthread_mutex_destroy(&b.mu);
  }
  for (k = 0; k < got; k++) pool_put(self, &ps[k]);
  if (b.items)
    for (i = 0; i < n; i++) {
      PyMem_RawFree(b.items[i].se);
      PyMem_RawFree(b.items[i].enc);
      PyMem_RawFree(b.items[i].pw.cp);
      PyMem_RawFree(b.items[i].pw.tk);
    }
  PyMem_RawFree(b.items);
  PyMem_RawFree(ws);
  PyMem_RawFree(ps);
  PyMem_RawFree(tids);
  PyMem_RawFree(mytv.v);
  Py_DECREF(seq);
  return out;
}


/* ----------------------------------------------------------- keywords */

/* KwDict(stop_words=(), idf_text=None): a frozen fenci_kwdict (extra stop
 * words, and an IDF table in jieba's idf.txt format that replaces the
 * model's).  Immutable once made, so calls without the GIL may share it;
 * the Python layer makes a new one when its lists change. */
typedef struct {
  PyObject_HEAD
  fenci_kwdict *d;
} KwDictObject;

static void KwDict_dealloc(KwDictObject *self) {
  fenci_kwdict_free(self->d);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int KwDict_init(KwDictObject *self, PyObject *args, PyObject *kw) {
  static char *kwl[] = {(char *)"stop_words", (char *)"idf_text", NULL};
  PyObject *stops = NULL, *seq = NULL;
  const char *idf = NULL;
  Py_ssize_t idf_len = 0, i, n;
  char err[256] = "";
  fenci_rc rc;
  if (self->d) {
    PyErr_SetString(PyExc_RuntimeError, "KwDict already initialised");
    return -1;
  }
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|Oz#", kwl, &stops, &idf, &idf_len)) return -1;
  if (fenci_kwdict_new(&self->d, &PY_ALLOC) != FENCI_OK) {
    PyErr_NoMemory();
    return -1;
  }
  if (stops) {
    seq = PySequence_Fast(stops, "stop_words must be a sequence of str");
    if (!seq) return -1;
    n = PySequence_Fast_GET_SIZE(seq);
    for (i = 0; i < n; i++) {
      Py_ssize_t wl;
      const char *w = PyUnicode_AsUTF8AndSize(PySequence_Fast_GET_ITEM(seq, i), &wl);
      if (!w) {
        Py_DECREF(seq);
        return -1;
      }
      /* jieba takes any line; an empty or over-long one can match no word */
      rc = fenci_kwdict_add_stop(self->d, w, (size_t)wl);
      if (rc == FENCI_NOMEM) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
      }
    }
    Py_DECREF(seq);
  }
  if (idf) {
    rc = fenci_kwdict_load_idf(self->d, idf, (size_t)idf_len, err, sizeof err);
    if (rc != FENCI_OK) {
      PyErr_Format(rc == FENCI_NOMEM ? PyExc_MemoryError : PyExc_ValueError, "fenci: %s",
                   err[0] ? err : fenci_rc_str(rc));
      return -1;
    }
  }
  return 0;
}

static PyTypeObject KwDictType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fenci._fenci.KwDict",
    .tp_basicsize = sizeof(KwDictObject),
    .tp_dealloc = (destructor)KwDict_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "KwDict(stop_words=(), idf_text=None): extra stop words and an IDF table for keywords.",
    .tp_init = (initproc)KwDict_init,
    .tp_new = PyType_GenericNew,
};

/* The parsed keyword arguments shared by keywords() and keywords_tokens(). */
typedef struct kwargs_ {
  fenci_kw_opts o;
  PyObject *dict; /* a KwDict (borrowed) or NULL */
} kwargs_;

/* (method, top_k, pos|None, flags, kwdict|None, window, damping, iterations) */
static int kw_parse_opts(PyObject *t, kwargs_ *k) {
  PyObject *pos, *d;
  memset(k, 0, sizeof *k);
  if (!PyArg_ParseTuple(t, "inOIOIdI", &k->o.method, &k->o.top_k, &pos, &k->o.flags, &d, &k->o.window,
                        &k->o.damping, &k->o.iterations))
    return -1;
  if (pos != Py_None) {
    k->o.pos = PyUnicode_AsUTF8(pos);
    if (!k->o.pos) return -1;
  }
  if (d != Py_None) {
    if (!PyObject_TypeCheck(d, &KwDictType) || !((KwDictObject *)d)->d) {
      PyErr_SetString(PyExc_TypeError, "fenci: kwdict must be a KwDict");
      return -1;
    }
    k->dict = d;
    k->o.dict = ((KwDictObject *)d)->d;
  }
  return 0;
}

/* The keyword list: (word, weight, tag, kind, count) tuples. */
static PyObject *kw_list(const fenci_model *m, const char *text, const fenci_keyword *kw, size_t n) {
  PyObject *out = PyList_New((Py_ssize_t)n);
  size_t i;
  if (!out) return NULL;
  for (i = 0; i < n; i++) {
    PyObject *w = token_str(text + kw[i].start, kw[i].end - kw[i].start), *it;
    if (!w) {
      Py_DECREF(out);
      return NULL;
    }
    it = Py_BuildValue("(NdssN)", w, kw[i].weight, fenci_tag_name(m, kw[i].tag),
                       KIND_NAMES[kw[i].kind < 9 ? kw[i].kind : 8], PyLong_FromSize_t(kw[i].count));
    if (!it) {
      Py_DECREF(out);
      return NULL;
    }
    PyList_SET_ITEM(out, (Py_ssize_t)i, it);
  }
  return out;
}

static int kw_text(PyObject *o, const char **text, Py_ssize_t *len) {
  if (PyUnicode_Check(o)) {
    *text = PyUnicode_AsUTF8AndSize(o, len);
    return *text ? 0 : -1;
  }
  if (PyBytes_Check(o)) {
    *text = PyBytes_AS_STRING(o);
    *len = PyBytes_GET_SIZE(o);
    return 0;
  }
  PyErr_Format(PyExc_TypeError, "fenci: text must be str or bytes, not %.100s", Py_TYPE(o)->tp_name);
  return -1;
}

/* Runs the extraction twice at most: once with a guess, once with the
 * size the first call reported. */
#define KW_GUESS 64

/* keywords(text, opts, (method, top_k, pos, flags, kwdict, window, damping,
 * iterations)) -> [(word, weight, tag, kind, count)]: fenci_keywords on a
 * pooled tagger, the GIL released. */
static PyObject *Seg_keywords(SegObject *self, PyObject *args) {
  PyObject *textobj, *ko, *out = NULL;
  unsigned opts;
  const char *text;
  Py_ssize_t len;
  kwargs_ k;
  pooled p;
  fenci_keyword small[KW_GUESS], *kw = small;
  size_t n = 0, cap = KW_GUESS;
  fenci_rc rc;
  char msg[256] = "";
  if (!PyArg_ParseTuple(args, "OIO!", &textobj, &opts, &PyTuple_Type, &ko)) return NULL;
  if (kw_text(textobj, &text, &len) < 0 || kw_parse_opts(ko, &k) < 0) return NULL;
  if (pool_get(self, opts, &p) < 0) return NULL;
  Py_INCREF(textobj);
  Py_XINCREF(k.dict);
  Py_BEGIN_ALLOW_THREADS
  rc = fenci_keywords(p.t, text, (size_t)len, &k.o, kw, cap, &n);
  if (rc == FENCI_TOOSMALL) {
    kw = PyMem_RawMalloc(n * sizeof *kw);
    cap = n;
    rc = kw ? fenci_keywords(p.t, text, (size_t)len, &k.o, kw, cap, &n) : FENCI_NOMEM;
  }
  if (rc != FENCI_OK) snprintf(msg, sizeof msg, "%s", fenci_tagger_errmsg(p.t));
  gil_wait();
  Py_END_ALLOW_THREADS
  pool_put(self, &p);
  if (rc == FENCI_OK) out = kw_list(self->model->m, text, kw, n);
  else
    PyErr_Format(rc == FENCI_NOMEM ? PyExc_MemoryError : PyExc_ValueError, "fenci: %s",
                 msg[0] ? msg : fenci_rc_str(rc));
  if (kw != small) PyMem_RawFree(kw);
  Py_XDECREF(k.dict);
  Py_DECREF(textobj);
  return out;
}

/* keywords_tokens(text_bytes, [(byte_start, byte_end, kind, tag_id, flags)],
 * (options as keywords)) -> the same list: over tokens the Python layer
 * changed (deleted user words). */
static PyObject *Seg_keywords_tokens(SegObject *self, PyObject *args) {
  PyObject *textobj, *toks, *ko, *seq, *out = NULL;
  const char *text;
  Py_ssize_t len, i, nt;
  kwargs_ k;
  fenci_token *tv = NULL;
  fenci_keyword *kw = NULL;
  size_t n = 0;
  fenci_rc rc;
  if (!PyArg_ParseTuple(args, "OOO!", &textobj, &toks, &PyTuple_Type, &ko)) return NULL;
  if (kw_text(textobj, &text, &len) < 0 || kw_parse_opts(ko, &k) < 0) return NULL;
  seq = PySequence_Fast(toks, "tokens must be a sequence");
  if (!seq) return NULL;
  nt = PySequence_Fast_GET_SIZE(seq);
  tv = PyMem_RawMalloc((size_t)(nt ? nt : 1) * sizeof *tv);
  if (!tv) {
    Py_DECREF(seq);
    return PyErr_NoMemory();
  }
  for (i = 0; i < nt; i++) {
    Py_ssize_t bs, be;
    unsigned kind, tag, flags;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "nnIII", &bs, &be, &kind, &tag, &flags)) goto done;
    if (bs < 0 || be < bs || be > len) {
      PyErr_SetString(PyExc_ValueError, "fenci: a token lies outside the text");
      goto done;
    }
    tv[i].start = (size_t)bs;
    tv[i].end = (size_t)be;
    tv[i].kind = (uint16_t)kind;
    tv[i].tag = (uint16_t)tag;
    tv[i].flags = flags;
  }
  rc = fenci_keywords_tokens(self->model->m, text, (size_t)len, tv, (size_t)nt, &k.o, NULL, 0, &n);
  if (rc == FENCI_TOOSMALL) {
    kw = PyMem_RawMalloc(n * sizeof *kw);
    rc = kw ? fenci_keywords_tokens(self->model->m, text, (size_t)len, tv, (size_t)nt, &k.o, kw, n, &n)
            : FENCI_NOMEM;
  }
  if (rc == FENCI_OK) out = kw_list(self->model->m, text, kw, n);
  else
    PyErr_Format(rc == FENCI_NOMEM ? PyExc_MemoryError : PyExc_ValueError,
                 "fenci: keywords: %s (a model without an IDF table, or bad options)", fenci_rc_str(rc));
done:
  PyMem_RawFree(kw);
  PyMem_RawFree(tv);
  Py_DECREF(seq);
  return out;
}

static PyObject *Seg_tag_name(SegObject *self, PyObject *arg) {
  long id = PyLong_AsLong(arg);
  if (id == -1 && PyErr_Occurred()) return NULL;
  return PyUnicode_FromString(fenci_tag_name(self->model->m, (uint16_t)id));
}

static PyMethodDef Seg_methods[] = {
    {"set_words", (PyCFunction)Seg_set_words, METH_O,
     "set_words([(word, freq, tag), ...]) -> refused words: replace the user-word snapshot."},
    {"cut", (PyCFunction)Seg_cut, METH_VARARGS, "cut(text, opts, detail=0) -> list of words (0) or of detail tuples (1); an iterator of the tuples (2) or words (3)"},
    {"entities", (PyCFunction)Seg_entities, METH_VARARGS,
     "entities(text) -> [(type, text, cs, ce, bs, be, value, unit, flags)]"},
    {"cut_batch", (PyCFunction)Seg_cut_batch, METH_VARARGS,
     "cut_batch(texts, opts, threads=1, flat=False) -> list of lists of words, or with flat one list of all"},
    {"tag_name", (PyCFunction)Seg_tag_name, METH_O, "tag_name(id) -> str"},
    {"keywords", (PyCFunction)Seg_keywords, METH_VARARGS,
     "keywords(text, opts, (method, top_k, pos, flags, kwdict, window, damping, iterations)) -> list"},
    {"keywords_tokens", (PyCFunction)Seg_keywords_tokens, METH_VARARGS,
     "keywords_tokens(text, [(bs, be, kind, tag_id, flags)], options) -> list"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject SegType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fenci._fenci.Segmenter",
    .tp_basicsize = sizeof(SegObject),
    .tp_dealloc = (destructor)Seg_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Segmenter(model): user words and a tagger pool over a Model.",
    .tp_methods = Seg_methods,
    .tp_init = (initproc)Seg_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef mod_methods[] = {
    {"_gil_probe", mod_gil_probe, METH_NOARGS, "(GIL held now, held once released) or None: for the tests."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef fenci_module = {PyModuleDef_HEAD_INIT, "fenci._fenci",
                                          "The C binding of libfenci.", -1, mod_methods, NULL, NULL, NULL, NULL};

/* The CPUs this process may run on (at import): waiting for the GIL by
 * spinning only helps when its holder runs on another one. */
static long usable_cpus(void) {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
  return sysconf(_SC_NPROCESSORS_ONLN);
}

PyMODINIT_FUNC PyInit__fenci(void);
PyMODINIT_FUNC PyInit__fenci(void) {
  PyObject *m;
  if (PyType_Ready(&ModelType) < 0 || PyType_Ready(&SegType) < 0 || PyType_Ready(&KwDictType) < 0 ||
      PyType_Ready(&IterType) < 0)
    return NULL;
  m = PyModule_Create(&fenci_module);
  if (!m) return NULL;
  /* the probe must see the GIL held now and free once let go of, or it
   * reads what it was not built for: then nothing waits */
  {
    int with, without;
    gil_probe_both(&with, &without);
    gil_spin = with == 1 && without == 0 && usable_cpus() > 1;
  }
  if (PyModule_AddObjectRef(m, "Model", (PyObject *)&ModelType) < 0 ||
      PyModule_AddObjectRef(m, "Segmenter", (PyObject *)&SegType) < 0 ||
      PyModule_AddObjectRef(m, "KwDict", (PyObject *)&KwDictType) < 0 ||
      PyModule_AddIntConstant(m, "KW_TFIDF", FENCI_KW_TFIDF) < 0 ||
      PyModule_AddIntConstant(m, "KW_TEXTRANK", FENCI_KW_TEXTRANK) < 0 ||
      PyModule_AddIntConstant(m, "KW_BY_TAG", FENCI_KW_BY_TAG) < 0 ||
      PyModule_AddIntConstant(m, "KW_NO_DEFAULT_STOP", FENCI_KW_NO_DEFAULT_STOP) < 0 ||
      PyModule_AddIntConstant(m, "KW_NUMBERS", FENCI_KW_NUMBERS) < 0 ||
      PyModule_AddIntConstant(m, "MODE_DEFAULT", FENCI_MODE_DEFAULT) < 0 ||
      PyModule_AddIntConstant(m, "MODE_SEARCH", FENCI_MODE_SEARCH) < 0 ||
      PyModule_AddIntConstant(m, "MODE_ALL", FENCI_MODE_ALL) < 0 ||
      PyModule_AddIntConstant(m, "OPT_FAST", FENCI_OPT_FAST) < 0 ||
      PyModule_AddIntConstant(m, "OPT_POS", FENCI_OPT_POS) < 0 ||
      PyModule_AddIntConstant(m, "OPT_BARE", FENCI_OPT_BARE) < 0 ||
      PyModule_AddIntConstant(m, "TOK_OOV", FENCI_TOK_OOV) < 0 ||
      PyModule_AddIntConstant(m, "TOK_EXTRA", FENCI_TOK_EXTRA) < 0 ||
      PyModule_AddIntConstant(m, "TOK_USER", FENCI_TOK_USER) < 0 ||
      PyModule_AddStringConstant(m, "REPO_MODELS", FENCI_PY_REPO_MODELS) < 0 ||
      PyModule_AddStringConstant(m, "LIB_VERSION", fenci_version_string()) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}

"""fenci: Chinese word segmentation (libfenci) with jieba's API.

``import fenci as jieba`` runs jieba code unchanged: cut, lcut,
cut_for_search, lcut_for_search, tokenize, load_userdict, add_word,
del_word, suggest_freq, get_FREQ, set_dictionary, initialize, Tokenizer,
setLogLevel and the posseg submodule.  fenci's own additions: a model choice
(``Tokenizer(model="pku")``), ``tokens()`` (byte and character offsets, kind,
tag, flags) and ``cut_batch()`` (a list of texts segmented by several threads
at once, the GIL released).

Threads: every call is safe from any number of threads.  Segmentation runs
without the GIL, each call on a tagger of its own (from a pool), against the
shared immutable model and an immutable snapshot of the user words.
add_word/del_word/load_userdict change the word list under a lock; the next
cut that starts builds a new snapshot (copy-on-write) and swaps it in, while
cuts already running finish with the snapshot they started with.  A cut that
starts after add_word() has returned sees the word.
"""
import os
import re
import threading
import warnings
from bisect import bisect_right
from collections import namedtuple
from itertools import chain

from . import _fenci

__version__ = "0.1.0"
__all__ = ["cut", "lcut", "cut_for_search", "lcut_for_search", "tokenize", "load_userdict", "add_word",
           "del_word", "suggest_freq", "get_FREQ", "set_dictionary", "initialize", "Tokenizer", "setLogLevel",
           "tokens", "cut_batch", "Token", "find_model", "enable_parallel", "disable_parallel",
           "enable_paddle"]

DEFAULT_DICT = None
DEFAULT_MODEL = "ctb"
_log = []  # [logger, handler] once made: the logging module takes a third of a bare import
_log_lock = threading.Lock()


def _logger():
    """The 'fenci' logger with its console handler (jieba's default_logger
    and log_console), made at first use."""
    with _log_lock:
        if not _log:
            import logging
            lg = logging.getLogger("fenci")
            h = logging.StreamHandler()
            lg.addHandler(h)
            lg.setLevel(logging.WARNING)
            _log[:] = [lg, h]
    return _log[0]

_PKG_MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")


def setLogLevel(log_level):
    """Sets the level of the 'fenci' logger (jieba.setLogLevel)."""
    _logger().setLevel(log_level)


def model_dirs():
    """Where a model name is looked for, in order: $FENCI_MODEL_DIR, the
    package's models/ (a pip install copies them there), the repository's
    models/ (the source tree the module was built from)."""
    dirs = []
    env = os.environ.get("FENCI_MODEL_DIR")
    if env:
        dirs.append(env)
    dirs.append(_PKG_MODELS)
    if _fenci.REPO_MODELS:
        dirs.append(_fenci.REPO_MODELS)
    return dirs


def find_model(name=None):
    """The path of model `name` (default 'ctb'): a path to an existing file
    is used as it is; a name NAME is NAME.fenci in model_dirs()."""
    name = name or DEFAULT_MODEL
    name = os.fspath(name)
    if os.sep in name or name.endswith(".fenci"):
        if os.path.isfile(name):
            return os.path.abspath(name)
        raise FileNotFoundError("fenci: no model file %r" % name)
    for d in model_dirs():
        p = os.path.join(d, name + ".fenci")
        if os.path.isfile(p):
            return p
    raise FileNotFoundError("fenci: model %r not found in %s" % (name, ", ".join(model_dirs())))


_models = {}
_models_lock = threading.Lock()


_LEXICON_MAX = 1 << 30
_USERDICT_MAX = 64 << 20  # as fenci_dict_load: at most 64 MiB of user words
_LINE_MAX = 1 << 20  # and a line without its end after 1 MiB is malformed


def _read_capped(fh, limit, what, name):
    """All of fh (bytes or str), read a block at a time, as the C paths read
    what they take whole: more than limit, or a line longer than 1 MiB, is a
    ValueError at once, so /dev/zero or an endless pipe is refused, not read
    for ever (nor into memory first)."""
    blocks, total, line = [], 0, 0
    while True:
        b = fh.read(_LINE_MAX)
        if not b:
            break
        total += len(b)
        if total > limit:
            raise ValueError("fenci: %s: %s of more than %d MiB" % (name, what, limit >> 20))
        nl = b.rfind(b"\n" if isinstance(b, bytes) else "\n")
        line = len(b) - nl - 1 if nl >= 0 else line + len(b)
        if line > _LINE_MAX:
            raise ValueError("fenci: %s: %s with a line longer than 1 MiB" % (name, what))
        blocks.append(b)
    return blocks[0][:0].join(blocks) if blocks else b""


def _open_model(path=None, lexicon_file=None):
    """One Model per file per process (mapped: forked workers share its pages)."""
    key = ("lex", os.path.abspath(lexicon_file)) if lexicon_file else ("model", path)
    with _models_lock:
        m = _models.get(key)
        if m is None:
            if lexicon_file:
                with open(lexicon_file, "rb") as f:
                    raw = _read_capped(f, _LEXICON_MAX, "a dictionary", lexicon_file)
                text = raw.decode("utf-8").lstrip("\ufeff")
                m = _fenci.Model(lexicon_text=text)
            else:
                m = _fenci.Model(path)
            _models[key] = m
        return m


Token = namedtuple("Token", "word start end byte_start byte_end kind tag flags")
# An entity: type PER LOC ORG TIME NUMBER PERCENT MONEY QUANTITY; start/end
# in characters, byte_start/byte_end in the UTF-8 text; value a float, an
# ISO 8601 str (TIME; a range "1998/2000") or None, a (start, end) tuple of
# floats for a range of amounts (3-5人); unit a str or None; flags ENTF_* bits.
Entity = namedtuple("Entity", "type text start end byte_start byte_end value unit flags")
ENTF_RELATIVE, ENTF_APPROX, ENTF_ORDINAL, ENTF_DURATION, ENTF_WEEKDAY, ENTF_RANGE = 1, 2, 4, 8, 16, 32
Token.__doc__ = """A token: word, character offsets [start, end), byte offsets into the
UTF-8 text [byte_start, byte_end), kind ('word', 'latin', 'number', 'url',
'email', 'punct', 'space', 'invalid', 'other'), the lexicon tag ('' when
none) and flags (fenci._fenci.TOK_OOV | TOK_EXTRA | TOK_USER)."""

class _LazyRe:
    """A pattern compiled at its first use: compiling the module's patterns
    (wide Unicode classes) took 12 ms of a 30 ms import, and a plain lcut
    reads none of these."""
    __slots__ = ("_args", "_re")

    def __init__(self, *args):
        self._args = args
        self._re = None

    def __getattr__(self, name):
        r = self._re
        if r is None:
            r = self._re = re.compile(*self._args)
        return getattr(r, name)


_FREQ_RE = _LazyRe(r"^[0-9]+(\.[0-9]*)?$")
# a last field that is a tag: lower case as jieba's ([a-z]+), or a PKU
# morpheme tag (Ng, Vg, ...); "New York" is a word, not "New" tagged York
_TAG_RE = _LazyRe(r"^(?:[a-z][a-z0-9_]*|[A-Z]g)$")


def _text(sentence):
    if isinstance(sentence, str):
        return sentence
    if isinstance(sentence, (bytes, bytearray, memoryview)):
        try:
            return bytes(sentence).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError("fenci: bytes input must be UTF-8 (%s)" % e) from None
    raise TypeError("fenci: the sentence must be str or UTF-8 bytes, not %s" % type(sentence).__name__)


_PIECE = 1 << 16  # characters a generator segments at once (then the next line end)
# the library's whitespace (src/chars.c, fc_is_space): a run of it is one token
_SPACE_RUN = re.compile("[\t-\r \x85\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]*")


def _pieces(text):
    """(piece, character offset) of text cut at line ends into pieces of about
    _PIECE characters, so that the generators (cut, tokenize, posseg.cut)
    hold the tokens of one piece at a time, not of the whole text; a line is
    never cut, and a line end breaks every word, so the words are those of
    the whole text.  A cut goes past the whitespace after the line end too,
    which the library makes one token with it."""
    n, at = len(text), 0
    while at < n:
        end = text.find("\n", at + _PIECE) if n - at > _PIECE else -1
        end = n if end < 0 else _SPACE_RUN.match(text, end).end()
        yield text[at:end], at
        at = end


# Words with whitespace in them.  The library never joins whitespace into a
# token (its break rule, which its chunks and its user-word trie rely on), and
# jieba silently never matches such words; fenci matches them here, before the
# text reaches C: the text between two matches is segmented as usual, and
# each match is one token (forced: leftmost, then longest, as C's forced
# words).  A word matches only as it is written (no traditional/full-width
# folding) and never inside one of the library's units (_spaced_ok).
_SPACE = re.compile("[\t-\r \x85\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]")
_LINE_END = _LazyRe("[\n\x0b\x0c\r\x85\u2028\u2029]")
# letters and digits (chars.c): a match that starts or ends between two of
# them would cut a Latin word or a number, which the library keeps whole
_ATOM_RE = _LazyRe("[0-9A-Za-z\xc0-\xd6\xd8-\xf6\xf8-\u024f\u0370-\u052f\u1e00-\u1eff\uff10-\uff19\uff21-\uff3a"
                      "\uff41-\uff5a]")
# Han characters and whitespace (chars.c): each Han character is a unit of
# its own and whitespace ends every unit, so a match may start or end next
# to one without asking C (not so punctuation: full-width ．and ％ join a
# number, and a run of one mark, ！！, is one unit)
_UNIT_RE = _LazyRe("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3007\u2e80-\u2fdf\U00020000-\U0002fa1f"
                      "\U00030000-\U000323af\t-\r \x85\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]")
_SPACE_CLASS = "\t-\r \x85\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff"
_SPACE_RUNS = _LazyRe("[%s]+" % _SPACE_CLASS)
# from a position through the last whitespace before the end position (no backtracking: the classes are disjoint)
_THROUGH_SPACE = _LazyRe("(?:[^%s]*[%s]+)*" % (_SPACE_CLASS, _SPACE_CLASS))
# C segments the text from the last whitespace (or match) before a match to
# the first whitespace after it, to check it: no unit or user word of C
# crosses whitespace; at most this many characters on either side
_SPACED_CONTEXT = 4096


def _shown(word):
    """A user word as a warning shows it: at most 40 characters of it."""
    return repr(word) if len(word) <= 40 else "%r... (%d characters)" % (word[:40], len(word))


def _refused(word):
    """Why a user word is refused, or None."""
    if not word:
        return "it is empty"
    if _LINE_END.search(word):
        return "it has a line end, which always ends a word"
    if any((ord(c) < 0x20 and c != "\t") or 0x7F <= ord(c) <= 0x9F for c in word):
        return "it has a control character, which the segmenter never joins into a word"
    if _SPACE.match(word) or _SPACE.match(word[-1]):
        return "it starts or ends with whitespace"
    if _SPACE.search(word) and len(word.encode("utf-8")) > 255:
        return "it is over 255 bytes (as every user word)"
    return None


class _Spaced:
    """Finds the words with whitespace in a text.  A word is its head (the
    text before its first whitespace) and its rest.  A match's first
    whitespace starts a whitespace run of the text, so only the text just
    before a run is looked at (and only before runs that follow a character
    that ends some head: a regex finds those in C): the heads that end
    there, longest first (their starts ascend), then for each the word
    lengths it has, longest first.  A text without whitespace costs one
    regex search; the work at a run is bounded by the words' structure (at
    most 254 heads times 254 lengths), never by the text's length.  (One
    regex of all the words, the first version, scanned every position and
    tried its first characters one by one: with 20,000 words a MB of
    Chinese text took 11 to 32 s.)"""

    def __init__(self, words):
        self.words = set(words)
        lens = {}
        for w in words:
            i = _SPACE.search(w).start()
            lens.setdefault(w[:i], set()).add(len(w))
        self.word_lens = {h: sorted(ls, reverse=True) for h, ls in lens.items()}
        self.head_lens = sorted({len(h) for h in lens})
        ends = "".join(sorted({h[-1] for h in lens}))
        self.runs = re.compile("(?<=[%s])%s" % (re.escape(ends), _SPACE_RUNS.pattern))

    def hits(self, text, ok):
        """(start, end) of each match: leftmost, then longest, of those that
        ok(text, start, end, end of the match before or 0) accepts."""
        out, last = [], 0
        n, lens, words = len(text), self.head_lens, self.words
        for run in self.runs.finditer(text):
            p = run.start()
            # the heads that fit after the last whitespace (or match) before p
            lo = _THROUGH_SPACE.match(text, max(last, p - lens[-1]), p).end()
            for j in range(bisect_right(lens, p - lo) - 1, -1, -1):
                s = p - lens[j]
                wl = self.word_lens.get(text[s:p])
                if wl is None:
                    continue
                for L in wl:
                    e = s + L
                    if e <= n and text[s:e] in words and ok(text, s, e, last):
                        out.append((s, e))
                        last = e
                        break
                else:
                    continue
                break
        return out


class Tokenizer:
    """jieba.Tokenizer: a model plus user words of its own.

    dictionary: jieba's argument, a lexicon text file ("word [freq [tag]]"
    lines, compiled when first used; its model has no trained weights) or a
    .fenci model file.  model: fenci's, a model name ('ctb', 'pku', 'msr',
    'lexicon') or path.  Neither: the default model ('ctb')."""

    def __init__(self, dictionary=DEFAULT_DICT, model=None):
        self.dictionary = dictionary
        self.model = model
        self._lock = threading.RLock()
        self._seg = None
        self._words = {}     # word -> (freq, tag); freq 0.0 = forced
        self._deleted = {}   # word -> list of pieces it is cut into, or None (characters)
        self._spaced = {}    # word with whitespace -> (freq, tag): matched in Python (_SPACE)
        self._spaced_snap = None  # (_Spaced, {word: tag}) of the snapshot, None without such words
        self._spaced_changed = False
        self._dirty = True
        self._has_weights = False
        self._fast = None    # (segmenter, opts HMM=False, opts HMM=True, _Spaced or None)
        #                      while no word is deleted or pending
        self.tmp_dir = None     # jieba's cache settings, kept for code that sets them:
        self.cache_file = None  # a model is mapped, there is nothing to cache
        self.initialized = False

    def __repr__(self):
        return "<Tokenizer model=%r dictionary=%r>" % (self.model, self.dictionary)

    @property
    def FREQ(self):
        """jieba's Tokenizer.FREQ, read-only: FREQ.get(w, d), w in FREQ, FREQ[w]."""
        return _FreqView(self)

    def check_initialized(self):
        if not self.initialized:
            self.initialize()

    # --------------------------------------------------------------- set-up
    def initialize(self, dictionary=None):
        """Opens the model now (otherwise done by the first cut)."""
        with self._lock:
            if dictionary:
                self.dictionary = dictionary
                self._fast = None
                self.initialized = False
            if self.initialized:
                return
            d = self.dictionary
            if d and os.fspath(d).endswith(".fenci"):
                m = _open_model(path=find_model(os.fspath(d)))
            elif d:
                m = _open_model(lexicon_file=os.fspath(d))
            else:
                m = _open_model(path=find_model(self.model))
            seg = _fenci.Segmenter(m)
            self._load_words(seg)  # published with its user words, never without
            self._model = m
            self._has_weights = m.has_weights()
            self._has_pos = m.has_pos()
            self._seg = seg
            self._dirty = False
            self.initialized = True
            self._set_fast()

    def _load_words(self, seg):
        """Gives seg a new snapshot of the user words (the lock held)."""
        entries = [(w, f, t) for w, (f, t) in self._words.items()]
        for w in seg.set_words(entries):
            warnings.warn("fenci: user word %s refused by the library (empty or over 255 bytes); it is left out"
                          % _shown(w), stacklevel=5)
            self._words.pop(w, None)
        if self._spaced_changed:  # (a plain word's change keeps the finder)
            self._spaced_snap = (_Spaced(self._spaced), {w: t or "" for w, (f, t) in self._spaced.items()}) \
                if self._spaced else None
            self._spaced_changed = False

    def set_dictionary(self, dictionary_path):
        """Uses another lexicon (or .fenci model) from the next cut on; user
        words are kept."""
        with self._lock:
            path = os.path.abspath(os.fspath(dictionary_path))
            if not os.path.isfile(path):
                raise Exception("jieba: file does not exist: " + path)
            self.dictionary = path
            self._fast = None
            self.initialized = False

    def _set_fast(self):
        """Enables lcut's short path (the lock held): one C call for a str
        when the snapshot is current and no word is deleted."""
        sp = self._spaced_snap
        self._fast = None if self._deleted else (self._seg, self._opts(_fenci.MODE_DEFAULT, False),
                                                 self._opts(_fenci.MODE_DEFAULT, True), sp and sp[0])

    def _segmenter(self):
        if not self.initialized:
            self.initialize()
        if self._dirty:
            with self._lock:
                if self._dirty:
                    self._load_words(self._seg)
                    self._dirty = False
                    self._set_fast()
        return self._seg

    # ------------------------------------------------------------ user words
    def add_word(self, word, freq=None, tag=None):
        """A user word.  Without freq it is forced: it always comes out as one
        token.  With freq it joins the lexicon with that frequency and competes
        in the lexicon path (HMM=False); the trained path (HMM=True) treats
        every user word as forced.  freq 0 deletes the word (jieba's rule).
        A word with whitespace inside ("New York", "云 计算") is matched as
        written and is always forced (see _SPACE); no word may start or end
        with whitespace or hold a line end."""
        word = _text(word)
        try:
            word.encode("utf-8")
        except UnicodeEncodeError:
            # (accepted, it would make every later call fail when the words are handed to C)
            raise ValueError("fenci: user word %r is not text that UTF-8 can hold (a lone surrogate)" % word) from None
        if freq is not None:
            f = float(freq)
            if f != f or f in (float("inf"), float("-inf")) or f < 0:
                raise ValueError("fenci: freq must be a finite number >= 0, not %r" % (freq,))
            if f == 0:
                self.del_word(word)
                return
        if tag is not None and not isinstance(tag, str):
            raise TypeError("fenci: tag must be str")
        if tag is not None:
            try:
                tag.encode("utf-8")
            except UnicodeEncodeError:
                # as the word: accepted, it made every later call fail in C
                raise ValueError("fenci: tag %r is not text that UTF-8 can hold (a lone surrogate)" % tag) from None
        why = _refused(word)
        if why:
            warnings.warn("fenci: user word %s refused: %s" % (_shown(word), why), stacklevel=2)
            return
        entry = (0.0 if freq is None else float(freq), tag)
        with self._lock:
            if _SPACE.search(word):
                self._spaced[word] = entry  # matched in Python, always forced
                self._spaced_changed = True
            else:
                self._words[word] = entry
                self._deleted.pop(word, None)
            self._fast = None
            self._dirty = True

    def del_word(self, word, _pieces=None):
        """The word never comes out as one token again: a token equal to it is
        cut into characters (or into the pieces suggest_freq was given)."""
        word = _text(word)
        with self._lock:
            self._words.pop(word, None)
            if _SPACE.search(word):
                # only a user word joins whitespace: gone once it is dropped
                self._spaced.pop(word, None)
                self._spaced_changed = True
            else:
                self._deleted[word] = list(_pieces) if _pieces else None
            self._fast = None
            self._dirty = True

    def load_userdict(self, f):
        """jieba's user dictionary: a path or a file object (text or binary);
        UTF-8 lines "word [freq] [tag]" (a UTF-8 BOM is skipped).  Read from the
        right as jieba does: a last field of letters is the tag, then a number
        is the frequency; the word is the rest, spaces and all (see add_word)."""
        if isinstance(f, (str, bytes, os.PathLike)):
            name = os.fspath(f)
            with open(f, "rb") as fh:
                lines = _read_capped(fh, _USERDICT_MAX, "a user dictionary", name).splitlines()
        else:
            name = getattr(f, "name", repr(f))
            lines = _read_capped(f, _USERDICT_MAX, "a user dictionary", name).splitlines()
        entries = []
        for lineno, line in enumerate(lines, 1):
            if not isinstance(line, str):
                try:
                    line = line.decode("utf-8")
                except UnicodeDecodeError:
                    raise ValueError("dictionary file %s must be utf-8 (line %d)" % (name, lineno)) from None
            if lineno == 1:
                line = line.lstrip("\ufeff")
            line = line.strip()
            if not line:
                continue
            parts = line.split()
            tag = freq = None
            if len(parts) > 1 and _TAG_RE.match(parts[-1]) and not _FREQ_RE.match(parts[-1]):
                tag = parts.pop()
            if len(parts) > 1 and _FREQ_RE.match(parts[-1]):
                freq = parts.pop()
            # the word is the rest, its inner whitespace as written ("New York")
            word = line.rsplit(None, len(line.split()) - len(parts))[0] if len(parts) > 1 else parts[0]
            entries.append((lineno, word, None if freq is None else float(freq), tag))
        for lineno, word, freq, tag in entries:
            why = _refused(word)
            if why:
                warnings.warn("fenci: %s line %d: user word %s refused: %s" % (name, lineno, _shown(word), why),
                              stacklevel=2)
                continue
            self.add_word(word, freq, tag)

    def get_FREQ(self, k, d=None):
        """The frequency of word k, as jieba's: a user word's given frequency
        (1 for a forced one); for a word of the model's lexicon (spelt
        exactly as there) the frequency of its source, jieba's dictionary
        for the shipped models (read back from the stored cost, rounded to
        a whole number: exact); d otherwise."""
        k = _text(k)
        with self._lock:
            if k in self._deleted:
                return 0
            if k in self._words or k in self._spaced:
                f = (self._words.get(k) or self._spaced[k])[0]
                return int(f) if f >= 1 and f == int(f) else (f or 1)
        if k:
            self._segmenter()  # the model, opened
            f = self._model.word_freq(k)
            if f is not None:
                return int(f + 0.5) if f >= 0.75 else 0  # (a source frequency of 0 reads 0.5)
        return d

    @property
    def user_word_tag_tab(self):
        """jieba's Tokenizer.user_word_tag_tab: {user word: tag} for the user
        words given a tag (a copy: add_word changes it)."""
        with self._lock:
            return {w: t for d in (self._words, self._spaced) for w, (_, t) in d.items() if t}

    @property
    def total(self):
        """jieba's Tokenizer.total: the lexicon's frequencies summed, plus
        those of the user words added with one."""
        self._segmenter()
        with self._lock:
            extra = sum(f for f, _ in self._words.values() if f) + sum(v[0] for v in self._spaced.values() if v[0])
        return int(self._model.freq_total() + 0.5) + int(extra)

    def suggest_freq(self, segment, tune=False):
        """jieba's suggest_freq.  A str: the word should stay whole; with tune it
        becomes a forced user word.  A tuple/list of pieces: their join should be
        cut into them; with tune the join is deleted and cut into these pieces.
        Returns jieba's number, from the same frequencies: the frequency the
        word needs to beat the product of its lexicon-path pieces' (a str), or
        the one below which the pieces win (a tuple)."""
        total = float(self.total)
        p = 1.0
        if isinstance(segment, (str, bytes)):
            word = _text(segment)
            for w in self.cut(word, HMM=False):
                p *= self.get_FREQ(w, 1) / total
            f = max(int(p * total) + 1, self.get_FREQ(word, 1))
            if tune:
                self.add_word(word)
            return f
        pieces = [_text(s) for s in segment]
        word = "".join(pieces)
        for w in pieces:
            p *= self.get_FREQ(w, 1) / total
        f = min(int(p * total), self.get_FREQ(word, 0))
        if tune:
            self.del_word(word, _pieces=pieces)
        return f

    def get_DAG(self, sentence):
        """jieba's get_DAG: {k: [i, ...]} for each character k of sentence,
        the last characters i of the lexicon and user words of frequency
        above 0 that start at k (k itself for a one-character word), or [k]
        when none does.  (A user word with whitespace in it is not seen.)"""
        sentence = _text(sentence)
        seg = self._segmenter()
        longer = {}
        for t in seg.cut(sentence, _fenci.MODE_ALL | _fenci.OPT_FAST, True):
            if t[2] - t[1] >= 2 and not (t[7] & _fenci.TOK_OOV) and self.get_FREQ(t[0]):
                longer.setdefault(t[1], []).append(t[2] - 1)
        dag = {}
        for k, ch in enumerate(sentence):
            ends = sorted(longer.get(k, ()))
            dag[k] = [k] + ends if self.get_FREQ(ch) or not ends else ends
        return dag

    # -------------------------------------------------------------- cutting
    def _opts(self, mode, HMM):
        opts = mode
        if not HMM or not self._has_weights:
            opts |= _fenci.OPT_FAST
        if mode == _fenci.MODE_ALL:
            opts |= _fenci.OPT_FAST  # jieba's cut_all: every dictionary word
        return opts

    def _detail(self, text, mode, HMM, pos=False, lazy=False):
        """The detail tuples of text's tokens: a list, or with lazy an
        iterator that makes each tuple when it is asked for (the generators:
        a long line's tokens are then held as 24 bytes each in C, not as
        tuples of about 400)."""
        self._segmenter()
        sp = self._spaced_snap
        hits = sp[0].hits(text, self._spaced_ok(HMM)) if sp else None
        if hits:
            toks = self._detail_spaced(text, hits, sp[1], mode, HMM, pos, lazy)
            return toks if lazy else list(toks)
        return self._detail_plain(text, mode, HMM, pos, lazy)

    def _detail_plain(self, text, mode, HMM, pos, lazy):
        """_detail without words with whitespace."""
        seg = self._seg
        opts = self._opts(mode, HMM)
        if pos and self._has_pos:
            opts |= _fenci.OPT_POS  # tags in context on the main tokens
        toks = seg.cut(text, opts, 2 if lazy else 1)
        if self._deleted:
            toks = self._split_deleted(toks)
            if not lazy:
                toks = list(toks)
        return toks

    def _detail_spaced(self, text, hits, tags, mode, HMM, pos, lazy):
        """_detail of a text where words with whitespace matched (hits): the
        text between them segmented as usual, each hit one token (kind
        'word', its tag, TOK_USER); in search and all modes the hit's own
        words come before it as extras, as the lexicon words inside a long
        word do."""
        at = bat = 0
        for m in hits + [None]:
            s = m[0] if m else len(text)
            if s > at:
                end = bat
                for t in self._detail_plain(text[at:s], mode, HMM, pos, lazy):
                    yield (t[0], t[1] + at, t[2] + at, t[3] + bat, t[4] + bat) + t[5:]
                    end = max(end, t[4] + bat)  # the main tokens cover the piece: its byte length
                bat = end
            if m is None:
                return
            w = text[s:m[1]]
            if mode != _fenci.MODE_DEFAULT:
                for t in self._inner(w, mode, HMM):
                    yield (t[0], t[1] + s, t[2] + s, t[3] + bat, t[4] + bat, t[5], t[6], t[7] | _fenci.TOK_EXTRA)
            bl = len(w.encode("utf-8"))
            yield (w, s, m[1], bat, bat + bl, "word", tags[w], _fenci.TOK_USER)
            at, bat = m[1], bat + bl

    def _inner(self, w, mode, HMM):
        """The words inside a word with whitespace w that search and all
        modes give before it: C's tokens of w in that mode, without the
        whitespace and, as an inner word of a long word, without the deleted
        words."""
        dele = self._deleted
        return [t for t in self._seg.cut(w, self._opts(mode, HMM), 1) if t[5] != "space" and t[0] not in dele]

    def _split_deleted(self, toks):
        dele = self._deleted
        for t in toks:
            w = t[0]
            if w not in dele:
                yield t
                continue
            if t[7] & _fenci.TOK_EXTRA:
                continue  # an inner word in search/all mode: just gone
            pieces = dele[w] or list(w)
            cs, bs = t[1], t[3]
            for p in pieces:
                bl = len(p.encode("utf-8"))
                yield (p, cs, cs + len(p), bs, bs + bl, t[5], "", t[7] | _fenci.TOK_OOV)
                cs += len(p)
                bs += bl

    def _words_of(self, sentence, mode, HMM, lazy=False):
        text = _text(sentence)
        if _parallel > 1 and len(text) >= _PARALLEL_MIN and "\n" in text:
            pieces = _line_pieces(text, _parallel)
            if len(pieces) > 1:
                return self._batch(pieces, mode, HMM, _parallel, flat=True)
        elif not lazy and len(text) >= _SERIAL_MIN and "\n" in text:
            # a long text of many lines, as a list: in pieces of whole lines
            # on this thread, each piece's words added to the list as it is
            # done, instead of one call whose scratch arrays grow with the
            # text (about 100 bytes a word; python/README.md "fenci's own")
            pieces = _line_pieces(text, 1, _SERIAL_PIECE)
            if len(pieces) > 1:
                return self._batch(pieces, mode, HMM, 1, flat=True)
        # lazy (the generators): a long line's words are made as they are
        # taken, not held as one list (a generator's piece is whole lines)
        lazy = lazy and len(text) > 2 * _PIECE
        seg = self._segmenter()
        sp = self._spaced_snap
        hits = sp[0].hits(text, self._spaced_ok(HMM)) if sp else None
        if hits:
            words = self._words_spaced(text, hits, mode, HMM, lazy)
            return words if lazy else list(words)
        return self._words_plain(seg, text, mode, HMM, lazy)

    def _words_plain(self, seg, text, mode, HMM, lazy):
        """_words_of without words with whitespace: the C call, or with
        deleted words the detail tuples split."""
        if self._deleted:
            return (t[0] for t in self._detail_plain(text, mode, HMM, False, True)) if lazy else \
                [t[0] for t in self._detail_plain(text, mode, HMM, False, False)]
        return seg.cut(text, self._opts(mode, HMM), 3 if lazy else 0)

    def _split_spaced(self, text, hits, mode, HMM):
        """text cut at the hits of words with whitespace: (True, piece) for
        the text between them, (False, word) for each hit, preceded in
        search and all modes by its own words (_inner)."""
        at = 0
        for s, e in hits:
            if s > at:
                yield True, text[at:s]
            w = text[s:e]
            if mode != _fenci.MODE_DEFAULT:
                yield from ((False, t[0]) for t in self._inner(w, mode, HMM))
            yield False, w
            at = e
        if at < len(text):
            yield True, text[at:]

    def _words_spaced(self, text, hits, mode, HMM, lazy):
        """The words of text where words with whitespace matched (hits), as
        _detail_spaced's but without the tuples: one C call per piece
        between them."""
        for piece, x in self._split_spaced(text, hits, mode, HMM):
            if piece:
                yield from self._words_plain(self._seg, x, mode, HMM, lazy)
            else:
                yield x

    def _spaced_hit(self, text, HMM=True):
        """Whether a word with whitespace occurs in text."""
        self._segmenter()
        sp = self._spaced_snap
        return sp is not None and bool(sp[0].hits(text, self._spaced_ok(HMM)))

    def _spaced_ok(self, HMM):
        """The check of a match [s, e) of a word with whitespace in text, on
        the path HMM chooses: it stands if it neither starts nor ends inside
        one of the library's units (a Latin word, a number, a URL, an e-mail
        address, a run of kana or Hangul: the user words of C match whole
        units only), and if no user word of C starts before it and runs into
        it (the earlier word wins, as between C's forced words).  Where the
        characters at its edges do not settle it, C segments the text around
        it (from the last whitespace or match before it to the first
        whitespace after it) and its token ends and user words tell."""
        seg, opts, plain = self._seg, self._opts(_fenci.MODE_DEFAULT, HMM) | _fenci.OPT_BARE, bool(self._words)

        def ok(text, s, e, last):
            n = len(text)
            if (s and _ATOM_RE.match(text[s - 1]) and _ATOM_RE.match(text[s])) or \
                    (e < n and _ATOM_RE.match(text[e - 1]) and _ATOM_RE.match(text[e])):
                return False  # inside a Latin word or a number: no need to ask
            s_ok = s == 0 or _UNIT_RE.match(text[s - 1]) or _UNIT_RE.match(text[s])
            e_ok = e == n or _UNIT_RE.match(text[e - 1]) or _UNIT_RE.match(text[e])
            if s_ok and e_ok and not plain:
                return True
            lo = _THROUGH_SPACE.match(text, max(last, s - _SPACED_CONTEXT), s).end()
            ws = _SPACE.search(text, e, min(n, e + _SPACED_CONTEXT))
            hi = ws.start() if ws else min(n, e + _SPACED_CONTEXT)
            ends = {hi - lo}
            for t in seg.cut(text[lo:hi], opts, 1):
                if t[7] & _fenci.TOK_USER and t[1] < s - lo < t[2]:
                    return False
                ends.add(t[1])
            return bool((s_ok or s - lo in ends) and (e_ok or e - lo in ends))
        return ok

    def cut(self, sentence, cut_all=False, HMM=True, use_paddle=False):
        """A generator of the words of sentence (jieba.cut).  cut_all: every
        lexicon word, overlapping, by position; HMM=False: the lexicon path."""
        m = _fenci.MODE_ALL if cut_all else _fenci.MODE_DEFAULT
        for piece, _ in _pieces(_text(sentence)):
            yield from self._words_of(piece, m, HMM, lazy=True)

    def lcut(self, sentence, cut_all=False, HMM=True, use_paddle=False):
        """cut() as a list."""
        fast = self._fast
        if fast is not None and type(sentence) is str and not cut_all and len(sentence) < _PARALLEL_MIN \
                and (fast[3] is None or _SPACE.search(sentence) is None):
            return fast[0].cut(sentence, fast[2] if HMM else fast[1])  # the common call, kept short
        return self._words_of(sentence, _fenci.MODE_ALL if cut_all else _fenci.MODE_DEFAULT, HMM)

    def cut_for_search(self, sentence, HMM=True):
        """A generator: the words, each preceded by the lexicon words inside it."""
        for piece, _ in _pieces(_text(sentence)):
            yield from self._words_of(piece, _fenci.MODE_SEARCH, HMM, lazy=True)

    def lcut_for_search(self, sentence, HMM=True):
        return self._words_of(sentence, _fenci.MODE_SEARCH, HMM)

    def tokenize(self, unicode_sentence, mode="default", HMM=True):
        """A generator of (word, start, end), offsets in characters."""
        if not isinstance(unicode_sentence, str):
            raise ValueError("jieba: the input parameter should be unicode.")
        if mode not in ("default", "search"):
            raise ValueError("fenci: mode must be 'default' or 'search', not %r" % (mode,))
        m = _fenci.MODE_SEARCH if mode == "search" else _fenci.MODE_DEFAULT
        for piece, base in _pieces(unicode_sentence):
            for t in self._detail(piece, m, HMM, lazy=True):
                yield (t[0], t[1] + base, t[2] + base)

    # ------------------------------------------------------ fenci's own API
    def tokens(self, sentence, mode="default", HMM=True):
        """A list of Token (word, char and byte offsets, kind, tag, flags).
        mode: 'default', 'search' or 'all'.  Byte offsets refer to the UTF-8
        text (the bytes given, or the str encoded)."""
        modes = {"default": _fenci.MODE_DEFAULT, "search": _fenci.MODE_SEARCH, "all": _fenci.MODE_ALL}
        if mode not in modes:
            raise ValueError("fenci: mode must be 'default', 'search' or 'all', not %r" % (mode,))
        return [Token(*t) for t in self._detail(_text(sentence), modes[mode], HMM)]

    def tag(self, sentence, HMM=True):
        """A list of Token with the part-of-speech tag of each word in its
        context (PKU tag set: n v a nr ns ... w punctuation, m numbers, nx
        Latin words, URLs and e-mail; '' for whitespace)."""
        return [Token(*t) for t in self._detail(_text(sentence), _fenci.MODE_DEFAULT, HMM, pos=True)]

    def entities(self, sentence):
        """A list of Entity: persons, places, organisations (from the model's
        recogniser), times and quantities with normalised values."""
        self.check_initialized()
        return [Entity(*e) for e in self._segmenter().entities(_text(sentence))]

    def cut_batch(self, sentences, threads=None, cut_all=False, HMM=True, mode=None):
        """[lcut(s) for s in sentences], segmented by `threads` threads at once
        (default: the number of CPUs) with the GIL released.  mode 'search' as
        lcut_for_search."""
        if isinstance(sentences, (str, bytes)):
            raise TypeError("fenci: cut_batch() takes a list of texts, not one text")
        texts = [_text(s) for s in sentences]
        if mode == "search":
            m = _fenci.MODE_SEARCH
        elif mode in (None, "default"):
            m = _fenci.MODE_ALL if cut_all else _fenci.MODE_DEFAULT
        elif mode == "all":
            m = _fenci.MODE_ALL
        else:
            raise ValueError("fenci: mode must be 'default', 'search' or 'all', not %r" % (mode,))
        if threads is None:
            threads = os.cpu_count() or 1
        return self._batch(texts, m, HMM, int(threads))

    def _batch(self, texts, mode, HMM, threads, flat=False):
        """The words of each of texts (str), segmented on `threads` threads;
        with flat, all of them in one list."""
        self._segmenter()
        sp = self._spaced_snap
        if sp:
            out = self._batch_spaced(texts, sp[0], mode, HMM, threads)
            return list(chain.from_iterable(out)) if flat else out
        return self._batch_plain(texts, mode, HMM, threads, flat)

    def _batch_plain(self, texts, mode, HMM, threads, flat=False):
        """_batch without words with whitespace: a list of lists, or with
        flat one list of all the words (made so by the C call, as it goes)."""
        dele = self._deleted
        if dele and mode != _fenci.MODE_DEFAULT:
            # search and all modes drop a deleted inner word, which needs the
            # token flags: one text at a time
            out = [[t[0] for t in self._detail_plain(s, mode, HMM, False, False)] for s in texts]
            return list(chain.from_iterable(out)) if flat else out
        out = self._seg.cut_batch(texts, self._opts(mode, HMM), threads, flat)
        if dele:  # as _split_deleted: a token equal to a deleted word is cut into its pieces
            if flat:
                return [p for w in out for p in ((dele[w] or w) if w in dele else (w,))]
            out = [[p for w in ws for p in ((dele[w] or w) if w in dele else (w,))] for ws in out]
        return out

    def _batch_spaced(self, texts, spaced, mode, HMM, threads):
        """_batch where words with whitespace are matched: the texts between
        them go to the threads as texts of their own; in search and all modes
        each hit's own words (_inner) come before it, as in _detail_spaced."""
        parts, plan = [], []  # plan: per text, indexes into parts and words (str)
        ok = self._spaced_ok(HMM)
        for s in texts:
            p = []
            for piece, x in self._split_spaced(s, spaced.hits(s, ok), mode, HMM):
                if piece:
                    p.append(len(parts))
                    parts.append(x)
                else:
                    p.append(x)
            if not p:
                p.append(len(parts))
                parts.append(s)
            plan.append(p)
        words = self._batch_plain(parts, mode, HMM, threads)
        out = []
        for p in plan:
            ws = []
            for i in p:
                if isinstance(i, str):
                    ws.append(i)
                else:
                    ws.extend(words[i])
            out.append(ws)
        return out

    def _pos(self, sentence, HMM=True):
        return list(self._pos_iter(sentence, HMM, whole=True))

    def _pos_iter(self, sentence, HMM=True, whole=False):
        """The pairs of sentence; a piece at a time (_pieces) unless whole
        (posseg.lcut: one call, so every word has the tagger's context across
        line ends; a generator's pieces start without it, every _PIECE
        characters)."""
        from .posseg import pair, flag_of
        text = _text(sentence)
        for piece, _ in ([(text, 0)] if whole else _pieces(text)):
            for t in self._detail(piece, _fenci.MODE_DEFAULT, HMM, pos=True, lazy=not whole):
                # a user word keeps the tag it was given, known to the model or not
                u = (self._words.get(t[0]) or self._spaced.get(t[0])) if t[7] & 4 else None
                yield pair(t[0], u[1] if u and u[1] else flag_of(t))


class _FreqView:
    """A read-only view of a Tokenizer's word frequencies (see get_FREQ)."""

    def __init__(self, tok):
        self._tok = tok

    def get(self, k, d=None):
        return self._tok.get_FREQ(k, d)

    def __getitem__(self, k):
        f = self._tok.get_FREQ(k)
        if f is None:
            raise KeyError(k)
        return f

    def __contains__(self, k):
        return bool(self._tok.get_FREQ(k))


dt = Tokenizer()
_parallel = 1
_PARALLEL_MIN = 4096  # characters: a shorter text is cut on the calling thread (no thread start-up)
_SERIAL_MIN = 1 << 18  # characters: a longer text of several lines is cut in pieces (_words_of)
_SERIAL_PIECE = 1 << 17  # ... of about this many characters


def _line_pieces(text, threads, size=None):
    """text in pieces for `threads` threads, each cut at the end of a
    whitespace run that holds a line end: the library segments the text on
    either side of whitespace independently (its own chunks end at line
    ends), and no run is split, so the pieces' words are the text's words.
    Pieces of whole lines, about len/(8*threads) characters (4 Ki .. 1 Mi):
    several per thread to even out the work, few enough to cost nothing;
    or about size characters."""
    if size is None:
        size = min(1 << 20, max(1 << 12, len(text) // (8 * threads)))
    pieces, start, n = [], 0, len(text)
    while n - start > size:
        i = text.find("\n", start + size - 1)
        if i == -1:
            break
        j = _SPACE_RUN.match(text, i + 1).end()
        if j >= n:
            break
        pieces.append(text[start:j])
        start = j
    pieces.append(text[start:])
    return pieces


_PARALLEL_MAX = 1024


def enable_parallel(processnum=None):
    """jieba.enable_parallel, on threads instead of processes: cut, lcut,
    cut_for_search and lcut_for_search of a text of several lines (of at
    least 4096 characters) segment its lines on `processnum` threads
    (default: the CPUs) over the shared model, the GIL released; the words
    are the same as without it.  Applies to every Tokenizer."""
    global _parallel
    if processnum is not None and not 1 <= int(processnum) <= _PARALLEL_MAX:
        # (2**31 was taken, then every long text failed in C's int)
        raise ValueError("fenci: enable_parallel() needs 1 to %d threads" % _PARALLEL_MAX)
    _parallel = int(processnum or min(os.cpu_count() or 1, _PARALLEL_MAX))


def disable_parallel():
    """Back to cutting every text on the calling thread."""
    global _parallel
    _parallel = 1


get_FREQ = lambda k, d=None: dt.get_FREQ(k, d)  # noqa: E731 (jieba's own spelling)
add_word = dt.add_word
del_word = dt.del_word
cut = dt.cut
lcut = dt.lcut
cut_for_search = dt.cut_for_search
lcut_for_search = dt.lcut_for_search
load_userdict = dt.load_userdict
set_dictionary = dt.set_dictionary
suggest_freq = dt.suggest_freq
tokenize = dt.tokenize
get_DAG = dt.get_DAG
tokens = dt.tokens
cut_batch = dt.cut_batch
tag = dt.tag
entities = dt.entities


def initialize(dictionary=None):
    dt.initialize(dictionary)


# jieba's patterns, for code that reads or replaces them; fenci uses none of
# them (its units and user words with spaces or symbols are matched in C and
# by _SPACE, whatever these say).
re_han_default = _LazyRe("([\u4E00-\u9FD5a-zA-Z0-9+#&\\._%\\-]+)", re.U)
re_skip_default = _LazyRe("(\r\n|\\s)", re.U)
re_eng = _LazyRe("[a-zA-Z0-9]", re.U)
re_userdict = _LazyRe("^(.+?)( [0-9]+)?( [a-z]+)?$", re.U)


def enable_paddle():
    """jieba.enable_paddle: fenci has no paddle model (and installs
    nothing); cut(..., use_paddle=True) cuts as use_paddle=False does, with
    fenci's trained model."""
    _logger().info("fenci: there is no paddle mode; use_paddle=True cuts with fenci's trained model")


def __getattr__(name):
    """fenci.analyse and fenci.posseg on first use, so that `import fenci as
    jieba; jieba.analyse.extract_tags(...)` works without slowing the import."""
    if name == "user_word_tag_tab":
        return dt.user_word_tag_tab
    if name in ("default_logger", "log_console"):
        _logger()
        return _log[0] if name == "default_logger" else _log[1]
    if name in ("analyse", "posseg"):
        import importlib
        return importlib.import_module("fenci." + name)
    raise AttributeError("module 'fenci' has no attribute %r" % name)

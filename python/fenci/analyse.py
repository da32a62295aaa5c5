"""fenci.analyse: jieba.analyse's API over libfenci's keyword extraction.

extract_tags (TF-IDF) and textrank run in C (fenci_keywords) with the GIL
released, on the tokens of the tokenizer (its model and user words).

What differs from jieba:
- the IDF table is the model's (counted by `make models` over People's Daily
  1998-01, msra-ner and CTB6 training text; see docs/FORMAT.md, "KIDF"),
  not jieba's idf.txt; set_idf_path() loads a file of jieba's format instead;
- a Chinese stop-word list ships with the model (stopwords-iso, key zh, MIT)
  and always applies; STOP_WORDS / set_stop_words() add to it;  stop words
  compare case-folded, full-width and traditional forms folded;
- a word holding a digit (2020, 1814年) is no keyword (jieba keeps them);
- allowPOS matches the tokens' lexicon tags (jieba's dictionary tags); a word
  the lexicon has no tag for (an unknown word) matches no allowPOS, where
  jieba's HMM would guess one;
- TFIDF.idf_freq reads the model's table (a read-only mapping: get, [],
  in) and median_idf is its median, unless set_idf_path() gave a file, whose
  words and median they then are, as jieba's; a model without a table (a
  Tokenizer over a dict.txt compiled in memory) needs set_idf_path() for
  extract_tags, else ValueError.
"""
import os
import threading

import fenci as _f
from . import _fenci
from .posseg import pair

__all__ = ["TFIDF", "TextRank", "KeywordExtractor", "IDFLoader", "default_tfidf", "default_textrank", "extract_tags", "tfidf",
           "textrank", "set_idf_path", "set_stop_words"]

DEFAULT_TEXTRANK_POS = ("ns", "n", "vn", "v")


class KeywordExtractor:
    """The part TFIDF and TextRank share: the tokenizer, the extra stop
    words (a set: add to it freely) and the C call."""

    STOP_WORDS = set()  # jieba's English defaults are not copied; the model's Chinese list always applies

    def __init__(self, tokenizer=None):
        self.tokenizer = tokenizer if tokenizer is not None else _f.dt
        self.stop_words = self.STOP_WORDS.copy()
        self._lock = threading.Lock()
        self._idf_text = None
        self._kw = None          # the KwDict for (stop words, IDF) as last built
        self._kw_stops = None
        self._kw_idf = None

    def set_stop_words(self, stop_words_path):
        """Adds the lines of a UTF-8 file to the stop words (jieba's rule)."""
        path = os.path.abspath(os.fspath(stop_words_path))
        if not os.path.isfile(path):
            raise Exception("jieba: file does not exist: " + path)
        with open(path, "rb") as f:
            content = f.read().decode("utf-8")
        for line in content.splitlines():
            self.stop_words.add(line)

    def _kwdict(self):
        """The KwDict of the current lists, rebuilt when they changed."""
        with self._lock:
            if self._kw_stops != self.stop_words or self._kw_idf is not self._idf_text:
                stops = set(self.stop_words)
                self._kw = _fenci.KwDict(sorted(stops), self._idf_text) if stops or self._idf_text else None
                self._kw_stops = stops
                self._kw_idf = self._idf_text
            return self._kw

    def _run(self, sentence, method, topK, withWeight, allowPOS, withFlag, window=0):
        tok = self.tokenizer
        text = _f._text(sentence)
        pos = None if allowPOS is None else ",".join(allowPOS)
        flags = _fenci.KW_BY_TAG if allowPOS and withFlag else 0
        kopts = (method, int(topK or 0), pos, flags, self._kwdict(), window, 0.0, 0)
        seg = tok._segmenter()
        opts = tok._opts(_fenci.MODE_DEFAULT, True)
        if not allowPOS:
            # no tag is read (jieba's extract_tags neither): words only, and
            # no tagging, which would be most of the call's time
            opts |= _fenci.OPT_BARE
        elif tok._has_pos:
            opts |= _fenci.OPT_POS  # allowPOS filters on the tags in context
        if tok._deleted or (tok._spaced and tok._spaced_hit(text, True)):
            # the user's deletions and words with whitespace are applied in
            # Python: extract from those tokens
            toks = tok._detail(text, _fenci.MODE_DEFAULT, True, pos=bool(allowPOS))
            ids = self._tag_ids(seg)
            kinds = {k: i for i, k in enumerate(_KINDS)}
            rows = [(t[3], t[4], kinds.get(t[5], 8), ids.get(t[6], 0), t[7]) for t in toks]
            res = seg.keywords_tokens(text, rows, kopts)
        else:
            res = seg.keywords(text, opts, kopts)
        out = []
        for word, weight, tag, kind, _count in res:
            if allowPOS and withFlag:
                w = pair(word, tag)  # the tag allowPOS matched (C filters on it)
            else:
                w = word
            out.append((w, weight) if withWeight else w)
        return out

    @staticmethod
    def _tag_ids(seg):
        ids = {}
        i = 1
        while True:
            name = seg.tag_name(i)
            if not name:
                return ids
            ids[name] = i
            i += 1


_KINDS = ("word", "latin", "number", "url", "email", "punct", "space", "invalid", "other")


class _IdfView:
    """The IDF values of a tokenizer's model (its keyword table), read-only:
    get(w, d), w in view, view[w].  Words are folded as tokens are."""

    def __init__(self, tok):
        self._tok = tok

    def _value(self, k):
        self._tok._segmenter()  # the model, opened
        found, v = self._tok._model.word_idf(_f._text(k))
        return v if found == 1 else None

    def get(self, k, d=None):
        v = self._value(k)
        return d if v is None else v

    def __getitem__(self, k):
        v = self._value(k)
        if v is None:
            raise KeyError(k)
        return v

    def __contains__(self, k):
        return self._value(k) is not None


def _idf_file(text):
    """jieba's IDFLoader over the text of an idf.txt: ({word: idf}, median)."""
    freq = {}
    for line in text.lstrip("\ufeff").splitlines():
        parts = line.strip().rsplit(None, 1)
        if len(parts) == 2:
            freq[parts[0]] = float(parts[1])
    vals = sorted(freq.values())
    return freq, (vals[len(vals) // 2] if vals else 0.0)


class IDFLoader:
    """jieba.analyse.tfidf.IDFLoader for a TFIDF: get_idf() gives
    (idf_freq, median_idf); set_new_path(path) is TFIDF.set_idf_path."""

    def __init__(self, tfidf):
        self._tfidf = tfidf

    def set_new_path(self, new_idf_path):
        self._tfidf.set_idf_path(new_idf_path)

    def get_idf(self):
        return self._tfidf.idf_freq, self._tfidf.median_idf


class TFIDF(KeywordExtractor):
    """jieba.analyse.TFIDF: weight = tf * idf, tf = count / candidate tokens."""

    def __init__(self, idf_path=None, tokenizer=None):
        super().__init__(tokenizer)
        self._idf_file = None  # (text, parsed) of set_idf_path's file
        self.idf_loader = IDFLoader(self)
        if idf_path:
            self.set_idf_path(idf_path)

    def _idf_parsed(self):
        text = self._idf_text
        if self._idf_file is None or self._idf_file[0] is not text:
            self._idf_file = (text, _idf_file(text))
        return self._idf_file[1]

    @property
    def idf_freq(self):
        """word -> IDF: set_idf_path's file as a dict, else a view of the model's table."""
        if self._idf_text is not None:
            return self._idf_parsed()[0]
        return _IdfView(self.tokenizer)

    @property
    def median_idf(self):
        """The IDF of a word without one (the median; None without any table)."""
        if self._idf_text is not None:
            return self._idf_parsed()[1]
        self.tokenizer._segmenter()
        found, v = self.tokenizer._model.word_idf("")
        return v if found >= 0 else None

    def set_idf_path(self, idf_path):
        """Uses jieba's idf.txt format ("word idf" lines) instead of the model's
        table; words it lacks get its median."""
        path = os.path.abspath(os.fspath(idf_path))
        if not os.path.isfile(path):
            raise Exception("jieba: file does not exist: " + path)
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        _fenci.KwDict((), text)  # a bad file fails here, not at the next call
        self._idf_text = text

    def extract_tags(self, sentence, topK=20, withWeight=False, allowPOS=(), withFlag=False):
        """The topK keywords of sentence by TF-IDF (all when topK is 0 or
        None): words, (word, weight) with withWeight; with allowPOS only
        words of those tags, and with withFlag pair(word, flag) objects."""
        return self._run(sentence, _fenci.KW_TFIDF, topK, withWeight, tuple(allowPOS or ()), withFlag)


class TextRank(KeywordExtractor):
    """jieba.analyse.TextRank: co-occurrence within `span` tokens, damping
    0.85, 10 iterations, weights scaled so the top one is 1."""

    def __init__(self, tokenizer=None):
        super().__init__(tokenizer)
        self.pos_filt = frozenset(DEFAULT_TEXTRANK_POS)
        self.span = 5

    def textrank(self, sentence, topK=20, withWeight=False, allowPOS=DEFAULT_TEXTRANK_POS, withFlag=False):
        allowPOS = tuple(allowPOS or ())
        if not allowPOS:
            return []  # jieba: an empty allowPOS lets no word into the graph
        self.pos_filt = frozenset(allowPOS)
        return self._run(sentence, _fenci.KW_TEXTRANK, topK, withWeight, allowPOS, withFlag, int(self.span))

    extract_tags = textrank


default_tfidf = TFIDF()
default_textrank = TextRank()

extract_tags = tfidf = default_tfidf.extract_tags
set_idf_path = default_tfidf.set_idf_path
textrank = default_textrank.extract_tags


def set_stop_words(stop_words_path):
    """Adds stop words (one a line) for both extract_tags and textrank."""
    default_tfidf.set_stop_words(stop_words_path)
    default_textrank.set_stop_words(stop_words_path)

"""fenci.posseg: jieba.posseg's API.  Words get their part-of-speech tag
in context from the model's tagger (the PKU tag set of People's Daily
1998: n v a nr ns nt ... ; jieba's own names differ for a few, e.g. u for
jieba's uj/ul); a model without a tagger gives the lexicon's (jieba's)
tags.  As jieba does, tokens of kind number, latin/url/email and
punctuation or space get 'm', 'eng' and 'x'; a word without a tag 'x'."""
import fenci as _f

_KIND_FLAG = {"number": "m", "latin": "eng", "url": "eng", "email": "eng", "punct": "x", "space": "x",
              "invalid": "x", "other": "x"}


def flag_of(t):
    """The jieba flag of a token tuple (word, cs, ce, bs, be, kind, tag, flags)."""
    k = _KIND_FLAG.get(t[5])
    if k:
        return k
    return t[6] or "x"


class pair:
    """A word and its flag; unpacks as (word, flag): `for w, f in cut(s)`."""
    __slots__ = ("word", "flag")

    def __init__(self, word, flag):
        self.word = word
        self.flag = flag

    def __str__(self):
        return "%s/%s" % (self.word, self.flag)

    def __repr__(self):
        return "pair(%r, %r)" % (self.word, self.flag)

    def __iter__(self):
        return iter((self.word, self.flag))

    def __eq__(self, other):
        return isinstance(other, pair) and self.word == other.word and self.flag == other.flag

    def __lt__(self, other):
        return self.word < other.word

    def __hash__(self):
        return hash(self.word)

    def encode(self, arg):
        return str(self).encode(arg)


class POSTokenizer:
    """jieba.posseg.POSTokenizer over a fenci.Tokenizer (default: fenci.dt)."""

    def __init__(self, tokenizer=None):
        self.tokenizer = tokenizer if tokenizer is not None else _f.dt

    def __repr__(self):
        return "<POSTokenizer tokenizer=%r>" % self.tokenizer

    def __getattr__(self, name):
        if name in ("add_word", "del_word", "load_userdict", "suggest_freq", "get_FREQ", "set_dictionary",
                    "initialize"):
            return getattr(self.tokenizer, name)
        raise AttributeError(name)

    def cut(self, sentence, HMM=True, use_paddle=False):
        yield from self.tokenizer._pos_iter(sentence, HMM)

    def lcut(self, sentence, HMM=True, use_paddle=False):
        return self.tokenizer._pos(sentence, HMM)


dt = POSTokenizer(_f.dt)


def cut(sentence, HMM=True, use_paddle=False):
    """A generator of pair(word, flag)."""
    yield from dt.cut(sentence, HMM)


def lcut(sentence, HMM=True, use_paddle=False):
    return dt.lcut(sentence, HMM)

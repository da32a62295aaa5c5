"""User words with whitespace inside ("New York", "云 计算"): jieba takes them
and never matches them; fenci matches them in Python before the text
reaches C (fenci/__init__.py, _SPACE), through every call."""
import random
import re
import warnings

import pytest

import fenci
import fenci.analyse as analyse
import fenci.posseg as pseg

S = "我住在New York，喜欢云 计算。New Yorker不算，NewYork也不算。"


def tok(*words):
    t = fenci.Tokenizer()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none of these is refused
        for w in words:
            t.add_word(*w) if isinstance(w, tuple) else t.add_word(w)
    return t


def test_every_cut_call_keeps_the_word_whole():
    t = tok(("New York", None, "ns"), "云 计算")
    for words in (t.lcut(S), list(t.cut(S)), t.lcut(S, HMM=False), list(t.cut(S, HMM=False)),
                  t.cut_batch([S])[0], t.cut_batch([S], threads=2, HMM=False)[0]):
        assert words.count("New York") == 1 and words.count("云 计算") == 1, words
        assert "".join(words) == S  # lossless
        # not inside a run of letters: New Yorker and NewYork stay as they were
        assert "Yorker" in words and "NewYork" in words


def test_search_and_all_modes_put_the_inner_words_first():
    t = tok("New York", "云 计算")
    for words in (t.lcut_for_search(S), list(t.cut_for_search(S)), t.cut_batch([S], mode="search")[0]):
        i = words.index("New York")
        assert words[i - 2:i + 1] == ["New", "York", "New York"], words
        j = words.index("云 计算")
        assert words[j - 2:j + 1] == ["云", "计算", "云 计算"], words
    assert "New York" in t.lcut(S, cut_all=True) and "York" in t.lcut(S, cut_all=True)


def test_offsets_tags_and_flags():
    t = tok(("New York", None, "ns"))
    toks = t.tokens(S)
    ny = [x for x in toks if x.word == "New York"][0]
    b = S.encode("utf-8")
    assert (ny.start, ny.end) == (3, 11) and S[ny.start:ny.end] == "New York"
    assert b[ny.byte_start:ny.byte_end] == "New York".encode()
    assert ny.kind == "word" and ny.tag == "ns" and ny.flags & fenci._fenci.TOK_USER
    for x in toks:  # every token's offsets, before and after the word
        assert S[x.start:x.end] == x.word and b[x.byte_start:x.byte_end] == x.word.encode()
    assert [w for w, s, e in t.tokenize(S)] == t.lcut(S)
    for w, s, e in t.tokenize(S, mode="search"):
        assert S[s:e] == w
    assert ("New York", 3, 11) in list(t.tokenize(S, mode="search"))


def test_posseg_gives_the_users_tag_or_x():
    t = tok(("New York", None, "ns"), "云 计算")
    p = pseg.POSTokenizer(t)
    for pairs in (p.lcut(S), list(p.cut(S))):
        d = dict(tuple(x) for x in pairs)
        assert d["New York"] == "ns" and d["云 计算"] == "x"  # jieba's flag for a word without a tag
    assert [x.tag for x in t.tag(S) if x.word == "New York"] == ["ns"]


def test_keywords_see_the_word():
    t = tok(("New York", None, "ns"), ("机器 学习", None, "n"))
    s = "New York的机器 学习研究很多，New York的大学在机器 学习方面领先。"
    got = analyse.TFIDF(tokenizer=t).extract_tags(s, topK=3)
    assert "New York" in got and "机器 学习" in got
    assert "New York" in analyse.TFIDF(tokenizer=t).extract_tags(s, allowPOS=("ns",))
    assert "机器 学习" in analyse.TextRank(tokenizer=t).textrank(s, allowPOS=("n",))


def test_del_word_freq_and_tokenizers_apart():
    t, other = tok("New York"), fenci.Tokenizer()
    assert t.get_FREQ("New York") == 1 and other.get_FREQ("New York") is None
    assert "New York" not in other.lcut(S)
    t.del_word("New York")
    assert "New York" not in t.lcut(S) and t.get_FREQ("New York") is None
    assert t.lcut(S) == other.lcut(S)
    t.add_word("New York", 0)  # freq 0: jieba's way to delete
    t.suggest_freq("云 计算", tune=True)
    assert "云 计算" in t.lcut(S)


def test_with_deleted_words_and_parallel():
    t = tok("New York")
    t.del_word("喜欢")
    words = t.lcut(S)
    assert "New York" in words and "喜欢" not in words and "喜" in words
    text = "\n".join([S] * 3000)
    fenci.enable_parallel(2)
    try:
        par = t.lcut(text)
    finally:
        fenci.disable_parallel()
    assert par == t.lcut(text) == [w for line in text.splitlines(True) for w in t.lcut(line)]
    assert par.count("New York") == 3000


def test_leftmost_then_longest():
    t = tok("New York", "New York City", "York City Hall")
    assert t.lcut("在New York City Hall前")[1:3] == ["New York City", " "]
    assert t.lcut("在New York Cityzen")[1] == "New York"  # City is not whole: the shorter word
    assert t.lcut("York City Hall")[0] == "York City Hall"


def test_never_inside_one_of_the_librarys_units():
    # a number, an e-mail address, a URL, a Latin word with a hyphen and a
    # run of kana are one unit each for C, whose forced words match whole
    # units only: neither does a word with whitespace cut one
    t = tok("Python 3", "contact bob", "visit www", "3 km", "東京 タワ", "New York")
    for text in ("用Python 3.11写的", "contact bob@example.com", "visit www.example.com now", "1.3 km",
                 "東京 タワー", "New York-based公司"):
        for hmm in (True, False):
            words = t.lcut(text, HMM=hmm)
            assert not [w for w in words if w.strip() and " " in w], (text, words)
            assert "".join(words) == text
    # where the units are whole it matches
    assert t.lcut("用Python 3写的")[1] == "Python 3"
    assert t.lcut("3 km路")[0] == "3 km"
    assert t.lcut("New York, USA")[0] == "New York"


def test_units_the_edges_alone_do_not_settle():
    # (a second review) full-width ．and ％ join a number, a run of one
    # punctuation mark is one unit, a URL may begin far before the match:
    # C decides, on the text from the whitespace before to the whitespace after
    cases = [("１４ 元", "３．１４ 元", True), ("％ 折扣", "５０％ 折扣", True), ("！ 棒", "好！！ 棒", False),
             ("。 好", "完了。。。 好", False), ("foo bar", "http://example.com/" + "a" * 46 + "/foo bar", True)]
    for word, text, hmm in cases:
        t = tok(word)
        assert t.lcut(text, HMM=hmm) == fenci.Tokenizer().lcut(text, HMM=hmm), (word, text)
    # and where C's own tokens end before the word, it stands, however far the unit before began
    text = "x" + "www." + "a" * 55 + ".com/foo bar"
    assert fenci.Tokenizer().lcut(text)[-3:] == ["foo", " ", "bar"]
    assert tok("foo bar").lcut(text)[-1] == "foo bar"


def test_a_long_earlier_user_word_and_an_earlier_match():
    # a plain user word of 72 characters before the match (the lexicon
    # path: the trained one takes user words of up to 64 units)
    w = "一" * 70 + "中国"
    assert tok(w, "国 民").lcut(w + " 民", HMM=False) == [w, " ", "民"]
    # a user word that an earlier match has cut no longer counts
    assert tok("云 计", "机 器", "计算机").lcut("云 计算机 器") == ["云 计", "算", "机 器"]


def test_search_mode_drops_a_deleted_inner_word():
    # as for a plain word: an inner word that is deleted is gone, not cut up
    t = tok("云 计算")
    t.del_word("计算")
    for words in (t.lcut_for_search("云 计算"), t.cut_batch(["云 计算"], mode="search")[0],
                  [w for w, _, _ in t.tokenize("云 计算", mode="search")]):
        assert words == ["云", "云 计算"], words


def test_an_earlier_plain_forced_word_wins():
    # as between C's forced words: the one that starts first
    t = tok("人 民", "中国人")
    assert t.lcut("中国人 民")[0] == "中国人"
    assert t.lcut("我 人 民")[-1] == "人 民"
    assert [w for w, _, _ in t.tokenize("中国人 民")] == t.lcut("中国人 民")


def test_refused_words_warn_and_change_nothing():
    t = fenci.Tokenizer()
    before = t.lcut(S)
    for w, why in ((" New York", "whitespace"), ("New York ", "whitespace"), ("   ", "whitespace"),
                   ("New\nYork", "line end"), ("New\u2028York", "line end"), ("a \x01b", "control"),
                   ("云\x81 计算", "control"),
                   ("大 " * 100, "whitespace"), ("大 " * 99 + "大", "255 bytes")):
        with pytest.warns(UserWarning, match=why):
            t.add_word(w)
    # a long word is shown by its start and length (the whole of it was repeated)
    with pytest.warns(UserWarning, match=r"\(10001 characters\)") as rec:
        t.add_word("大 " * 5000 + "大")
    assert max(len(str(r.message)) for r in rec) < 200
    assert t.lcut(S) == before


def _reference(text, words, atom):
    """Leftmost, then longest, never starting or ending inside a run of atom characters."""
    out, i = [], 0
    while i < len(text):
        best = None
        for w in words:
            e = i + len(w)
            if text.startswith(w, i) and not (atom.match(w[0]) and i and atom.match(text[i - 1])) \
                    and not (atom.match(w[-1]) and e < len(text) and atom.match(text[e])):
                if best is None or len(w) > len(best):
                    best = w
        if best:
            out.append((i, best))
            i += len(best)
        else:
            i += 1
    return out


@pytest.mark.parametrize("seed", range(4))
def test_matches_equal_a_brute_force_reference(seed):
    rnd = random.Random(seed)
    alphabet = "ab 中文 x1"
    words = set()
    while len(words) < 60:
        w = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(2, 7))).strip()
        if " " in w:
            words.add(w)
    text = "".join(rnd.choice(alphabet + "，") for _ in range(5000))
    t = tok(*words)
    got = [(x.start, x.word) for x in t.tokens(text) if x.flags & fenci._fenci.TOK_USER and " " in x.word]
    assert got == _reference(text, sorted(words), re.compile("[0-9A-Za-z]"))
    assert "".join(t.lcut(text)) == text


def test_deep_prefix_chains_and_many_words():
    # each word a prefix of the next, 127 levels: the pattern's nesting is capped
    chain = ["a" + " b" * k for k in range(1, 128)]
    t = tok(*chain)
    assert t.lcut("中" + chain[-1] + "。")[1] == chain[-1]
    assert t.lcut("中" + chain[40] + "。")[1] == chain[40]
    many = ["w%d y%d" % (i, i) for i in range(20000)]
    t2 = tok(*many)
    text = " ".join(many[::97]) + "中文"
    assert [w for w in t2.lcut(text) if w.strip() and " " in w] == many[::97]

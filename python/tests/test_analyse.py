"""jieba.analyse's API through `import fenci as jieba`: extract_tags with and
without weights and allowPOS, withFlag pairs, textrank, set_stop_words,
set_idf_path, TFIDF/TextRank objects, user words, threads."""
import os
import threading

import pytest

import fenci as jieba
import fenci.analyse
from fenci.posseg import pair

HERE = os.path.dirname(os.path.abspath(__file__))
ARTICLE = open(os.path.join(HERE, "..", "..", "samples", "napoleon.txt"), encoding="utf-8").read()


def test_module_attribute():
    assert jieba.analyse is fenci.analyse
    for name in ("extract_tags", "textrank", "set_stop_words", "set_idf_path", "TFIDF", "TextRank",
                 "default_tfidf", "default_textrank", "tfidf"):
        assert hasattr(jieba.analyse, name), name


def test_extract_tags_words():
    tags = jieba.analyse.extract_tags(ARTICLE)
    assert isinstance(tags, list) and len(tags) == 20
    assert all(isinstance(w, str) and len(w) >= 2 for w in tags)
    assert tags[0] == "枫丹白露"
    assert "拿破仑" in tags[:5]
    assert len(set(tags)) == len(tags)
    assert jieba.analyse.extract_tags(ARTICLE, topK=5) == tags[:5]
    assert jieba.analyse.extract_tags(ARTICLE, 5) == tags[:5]
    everything = jieba.analyse.extract_tags(ARTICLE, topK=None)
    assert len(everything) > 20 and everything[:20] == tags
    assert jieba.analyse.extract_tags(ARTICLE, topK=0) == everything


def test_extract_tags_weights():
    tw = jieba.analyse.extract_tags(ARTICLE, topK=10, withWeight=True)
    assert all(isinstance(t, tuple) and len(t) == 2 for t in tw)
    assert [w for w, _ in tw] == jieba.analyse.extract_tags(ARTICLE, topK=10)
    weights = [x for _, x in tw]
    assert all(isinstance(x, float) and x > 0 for x in weights)
    assert weights == sorted(weights, reverse=True)
    # TF-IDF: a word seen twice as often with the same IDF has twice the weight
    tw2 = dict(jieba.analyse.extract_tags(ARTICLE + ARTICLE, topK=10, withWeight=True))
    for w, x in tw:
        assert tw2[w] == pytest.approx(x)


def test_extract_tags_allowpos():
    n = jieba.analyse.extract_tags(ARTICLE, topK=50, allowPOS=("ns",))
    assert n and "枫丹白露" in n and "伦敦" in n
    tags = {p.word: p.flag for p in jieba.posseg.cut(ARTICLE)}
    assert all(tags[w] == "ns" for w in n)
    both = jieba.analyse.extract_tags(ARTICLE, topK=100, allowPOS=["ns", "nr", "n"])
    assert set(n) <= set(both)
    assert jieba.analyse.extract_tags(ARTICLE, allowPOS=("nosuchtag",)) == []


def test_extract_tags_tagger_only_tags():
    # nx, w, Vg, ... are tags the POS tagger gives and the lexicon lacks:
    # filtering on them once corrupted the heap (the process aborted)
    text = "我们今天用iPhone和Android在北京大学研究自然语言处理工具，iPhone很好。"
    assert jieba.analyse.extract_tags(text, allowPOS=("nx",)) == ["iPhone", "Android"]
    assert "iPhone" in jieba.analyse.extract_tags(text, allowPOS=("nx", "n"))
    assert "iPhone" in jieba.analyse.textrank(text, allowPOS=("nx", "n", "v"))
    assert jieba.analyse.extract_tags(text, allowPOS=("w", "Vg", "Ag", "Bg", "Dg", "Tg")) == []


def test_extract_tags_withflag():
    pairs = jieba.analyse.extract_tags(ARTICLE, topK=5, allowPOS=("ns", "n"), withFlag=True)
    assert all(isinstance(p, pair) for p in pairs)
    assert all(p.flag in ("ns", "n") for p in pairs)
    w, f = pairs[0]
    assert (w, f) == ("枫丹白露", "ns")
    pw = jieba.analyse.extract_tags(ARTICLE, topK=5, allowPOS=("ns", "n"), withFlag=True, withWeight=True)
    assert [p for p, _ in pw] == pairs
    # without allowPOS, withFlag changes nothing (jieba's rule)
    assert jieba.analyse.extract_tags(ARTICLE, topK=5, withFlag=True) == jieba.analyse.extract_tags(ARTICLE, topK=5)


def test_textrank():
    tr = jieba.analyse.textrank(ARTICLE, topK=10, withWeight=True)
    assert len(tr) == 10
    assert tr[0][1] == pytest.approx(1.0)
    assert all(0 < x <= 1 for _, x in tr)
    assert [x for _, x in tr] == sorted((x for _, x in tr), reverse=True)
    words = jieba.analyse.textrank(ARTICLE, topK=10)
    assert words == [w for w, _ in tr]
    assert "枫丹白露" in words
    tags = {p.word: p.flag for p in jieba.posseg.cut(ARTICLE)}
    assert all(tags[w] in ("ns", "n", "vn", "v") for w in jieba.analyse.textrank(ARTICLE, topK=0))
    only_ns = jieba.analyse.textrank(ARTICLE, allowPOS=("ns",), withFlag=True)
    assert only_ns and all(isinstance(p, pair) and p.flag == "ns" for p in only_ns)
    assert jieba.analyse.textrank(ARTICLE, allowPOS=()) == []
    # deterministic
    assert jieba.analyse.textrank(ARTICLE, topK=0, withWeight=True) == jieba.analyse.textrank(
        ARTICLE, topK=0, withWeight=True)


def test_textrank_span():
    tr = jieba.analyse.TextRank()
    base = tr.textrank(ARTICLE, topK=0, withWeight=True)
    tr.span = 2
    narrow = tr.textrank(ARTICLE, topK=0, withWeight=True)
    assert narrow != base
    assert tr.extract_tags(ARTICLE, topK=0, withWeight=True) == narrow


def test_set_stop_words(tmp_path):
    p = tmp_path / "stop.txt"
    p.write_text("枫丹白露\n拿破仑\n", encoding="utf-8")
    t = jieba.analyse.TFIDF()
    before = t.extract_tags(ARTICLE, topK=10)
    assert "枫丹白露" in before
    t.set_stop_words(str(p))
    after = t.extract_tags(ARTICLE, topK=10)
    assert "枫丹白露" not in after and "拿破仑" not in after
    assert after[:3] == [w for w in before if w not in ("枫丹白露", "拿破仑")][:3]
    # the set is live: removing a word brings it back
    t.stop_words.discard("枫丹白露")
    assert "枫丹白露" in t.extract_tags(ARTICLE, topK=10)
    # other extractors are not affected
    assert jieba.analyse.TFIDF().extract_tags(ARTICLE, topK=10) == before
    tr = jieba.analyse.TextRank()
    tr.set_stop_words(str(p))
    assert "枫丹白露" not in tr.textrank(ARTICLE, topK=0)
    with pytest.raises(Exception):
        t.set_stop_words(str(tmp_path / "missing.txt"))


def test_module_set_stop_words(tmp_path):
    p = tmp_path / "stop.txt"
    p.write_text("伦敦\n", encoding="utf-8")
    saved = (set(jieba.analyse.default_tfidf.stop_words), set(jieba.analyse.default_textrank.stop_words))
    try:
        jieba.analyse.set_stop_words(str(p))
        assert "伦敦" not in jieba.analyse.extract_tags(ARTICLE, topK=0)
        assert "伦敦" not in jieba.analyse.textrank(ARTICLE, topK=0)
    finally:
        jieba.analyse.default_tfidf.stop_words = saved[0]
        jieba.analyse.default_textrank.stop_words = saved[1]
    assert "伦敦" in jieba.analyse.extract_tags(ARTICLE, topK=0)


def test_default_chinese_stop_words():
    # the shipped list (stopwords-iso zh): common function words never come out
    text = "我们认为这个问题非常重要，但是我们也可以这样做。" * 3
    tags = jieba.analyse.extract_tags(text, topK=0)
    for w in ("我们", "但是", "这个", "可以", "这样"):
        assert w not in tags
    assert "问题" in tags and "重要" in tags


def test_set_idf_path(tmp_path):
    p = tmp_path / "idf.txt"
    p.write_text("诏书 20.0\n退位 1.0\n拿破仑 1.0\n", encoding="utf-8")
    t = jieba.analyse.TFIDF(idf_path=str(p))
    tw = t.extract_tags(ARTICLE, topK=3, withWeight=True)
    assert tw[0][0] == "诏书"
    # the file's median (1.0) for the words it lacks: 枫丹白露 occurs twice
    assert tw[1][0] == "枫丹白露"
    assert tw[1][1] == pytest.approx(tw[0][1] / 20 * 2)
    bad = tmp_path / "bad.txt"
    bad.write_text("no_value_here\n", encoding="utf-8")
    with pytest.raises(ValueError):
        t.set_idf_path(str(bad))
    with pytest.raises(Exception):
        t.set_idf_path(str(tmp_path / "missing.txt"))


def test_idf_freq_and_loader(tmp_path):
    t = jieba.analyse.TFIDF()
    f = t.idf_freq  # the model's table: a read-only view
    assert "拿破仑" in f and f["拿破仑"] > f["北京"] > f["的"] > 0
    assert f.get("不是词语的串", "d") == "d" and "不是词语的串" not in f
    with pytest.raises(KeyError):
        f["不是词语的串"]
    assert t.median_idf > 0
    # a word without a value weighs the median, as extract_tags computes it
    w = dict(t.extract_tags("拿破仑拿破仑北京", withWeight=True))
    assert w["拿破仑"] == pytest.approx(2 / 3 * f["拿破仑"], rel=1e-6)
    freq, med = t.idf_loader.get_idf()
    assert med == t.median_idf and freq.get("北京") == f["北京"]
    # a file: its words and median, as jieba's IDFLoader reads them
    p = tmp_path / "idf.txt"
    p.write_text("\ufeff诏书 20.0\n退位 1.0\n拿破仑 3.0\n\n", encoding="utf-8")
    t.idf_loader.set_new_path(str(p))
    assert t.idf_freq == {"诏书": 20.0, "退位": 1.0, "拿破仑": 3.0} and t.median_idf == 3.0
    assert t.idf_loader.get_idf() == (t.idf_freq, 3.0)
    # a model without a table has no median until a file is given
    d = tmp_path / "dict.txt"
    d.write_text("北京 30 ns\n", encoding="utf-8")
    u = jieba.analyse.TFIDF(tokenizer=jieba.Tokenizer(dictionary=str(d)))
    assert u.median_idf is None and u.idf_freq.get("北京") is None


def test_input_types():
    b = ARTICLE.encode("utf-8")
    assert jieba.analyse.extract_tags(b, topK=5) == jieba.analyse.extract_tags(ARTICLE, topK=5)
    assert jieba.analyse.extract_tags("") == []
    assert jieba.analyse.textrank("") == []
    with pytest.raises(TypeError):
        jieba.analyse.extract_tags(42)
    with pytest.raises(ValueError):
        jieba.analyse.extract_tags(b"\xff\xfe")


def test_user_words_and_deleted_words():
    tk = jieba.Tokenizer()
    t = jieba.analyse.TFIDF(tokenizer=tk)
    assert "枫丹白露" in t.extract_tags(ARTICLE, topK=5)
    tk.add_word("枫丹白露宫")
    tags = t.extract_tags(ARTICLE, topK=20)
    assert "枫丹白露宫" in tags
    tk.del_word("枫丹白露宫")
    tk.del_word("枫丹白露")
    tags = t.extract_tags(ARTICLE, topK=0)
    assert "枫丹白露" not in tags and "枫丹白露宫" not in tags
    assert "拿破仑" in tags[:3]
    # the default tokenizer is untouched
    assert jieba.analyse.extract_tags(ARTICLE, topK=1) == ["枫丹白露"]


def test_threads():
    want = jieba.analyse.extract_tags(ARTICLE, topK=10, withWeight=True)
    want_tr = jieba.analyse.textrank(ARTICLE, topK=10, withWeight=True)
    errors = []

    def work():
        try:
            for _ in range(30):
                assert jieba.analyse.extract_tags(ARTICLE, topK=10, withWeight=True) == want
                assert jieba.analyse.textrank(ARTICLE, topK=10, withWeight=True) == want_tr
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for x in ts:
        x.start()
    for x in ts:
        x.join()
    assert not errors


def test_hostile_text():
    s = "北京\x00大学\ud7ff研究" + "自然语言" * 1000
    assert isinstance(jieba.analyse.extract_tags(s), list)
    assert isinstance(jieba.analyse.textrank(s), list)


def test_model_without_idf(tmp_path):
    d = tmp_path / "dict.txt"
    d.write_text("北京 30 ns\n大学 30 n\n", encoding="utf-8")
    tk = jieba.Tokenizer(dictionary=str(d))
    t = jieba.analyse.TFIDF(tokenizer=tk)
    with pytest.raises(ValueError, match="IDF"):
        t.extract_tags("北京大学")
    idf = tmp_path / "idf.txt"
    idf.write_text("北京 2.0\n", encoding="utf-8")
    t.set_idf_path(str(idf))
    assert t.extract_tags("北京大学北京", withWeight=True) == [("北京", pytest.approx(4 / 3)),
                                                             ("大学", pytest.approx(2 / 3))]
    assert set(jieba.analyse.TextRank(tokenizer=tk).textrank("北京大学北京", allowPOS=("ns", "n"))) == {"北京", "大学"}

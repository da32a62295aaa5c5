"""enable_parallel (threads over the shared model) gives the serial words,
and every call is safe while another thread changes the user words."""
import io
import threading
import types

import pytest

import fenci as jieba
import fenci.posseg as pseg

LONG = "小明硕士毕业于中国科学院计算所，后在日本京都大学深造"
S = "我来到北京清华大学"
# line ends of every kind, blank lines, lines that start or end with spaces
# (a whitespace run across a line end is one token, also in parallel)
ODD = ["", "  ", "\u3000开头是全角空格", "他说：“你好。”  ", "abc 123 4.5%", "\u2028分隔", "\ufeff带BOM",
       "http://example.com/a?b=1 邮件 a@b.cn", "\t", "末尾\r"]


def _text(n=80):
    lines = []
    for k in range(n):
        lines.append(LONG if k % 2 else S + "，" + LONG[: k % 20])
        lines.append(ODD[k % len(ODD)])
    return "\n".join(lines) + "\r\n\n  \n" + "\r\n".join(lines)


@pytest.fixture
def parallel():
    jieba.enable_parallel(2)
    yield
    jieba.disable_parallel()


def test_parallel_equals_serial(parallel):
    text = _text()
    assert len(text) > 4096
    t = jieba.Tokenizer()
    for hmm in (True, False):
        jieba.disable_parallel()
        want = {
            "lcut": t.lcut(text, HMM=hmm), "all": t.lcut(text, cut_all=True, HMM=hmm),
            "search": t.lcut_for_search(text, HMM=hmm), "bytes": t.lcut(text.encode(), HMM=hmm),
            "tok": list(t.tokenize(text, HMM=hmm)),
        }
        jieba.enable_parallel(2)
        g = t.cut(text, HMM=hmm)
        assert isinstance(g, types.GeneratorType)
        assert list(g) == want["lcut"]
        assert t.lcut(text, HMM=hmm) == want["lcut"]
        assert t.lcut(text, cut_all=True, HMM=hmm) == want["all"]
        assert list(t.cut_for_search(text, HMM=hmm)) == want["search"]
        assert t.lcut_for_search(text, HMM=hmm) == want["search"]
        assert t.lcut(text.encode(), HMM=hmm) == want["bytes"]
        assert list(t.tokenize(text, HMM=hmm)) == want["tok"]
        assert "".join(want["lcut"]) == text


def test_parallel_module_functions_and_user_words(parallel):
    text = _text()
    t = jieba.Tokenizer()
    t.add_word("京都大学深造")
    t.del_word("清华大学")
    t.suggest_freq(("计算", "所"), tune=True)
    jieba.disable_parallel()
    want = [t.lcut(text), t.lcut_for_search(text), t.lcut(text, cut_all=True)]
    assert "京都大学深造" in want[0] and "清华大学" not in want[0] and "所" in want[0]
    assert "清华大学" not in want[1]
    jieba.enable_parallel(2)
    assert [t.lcut(text), t.lcut_for_search(text), t.lcut(text, cut_all=True)] == want
    # the default Tokenizer, through the module's functions
    jieba.disable_parallel()
    want = (jieba.lcut(text), list(jieba.cut_for_search(text)))
    jieba.enable_parallel(2)
    assert (jieba.lcut(text), list(jieba.cut_for_search(text))) == want
    assert list(pseg.cut(text)) == list(pseg.cut(text))


def test_enable_parallel_arguments():
    try:
        jieba.enable_parallel()  # jieba's default: the CPUs
        assert jieba.lcut(S) == ["我", "来到", "北京", "清华大学"] or "".join(jieba.lcut(S)) == S
        jieba.enable_parallel(processnum=3)
        with pytest.raises(ValueError):
            jieba.enable_parallel(0)
    finally:
        jieba.disable_parallel()
    jieba.disable_parallel()  # twice is fine


def test_cut_in_4_threads_while_words_change():
    """4 threads cut (every entry point, and enable_parallel on half the
    time) while another thread adds, deletes and loads user words: no
    exception, every cut lossless, and a cut that starts after add_word()
    or del_word() returned sees the change."""
    t = jieba.Tokenizer()
    text = _text(30)
    lines = text.splitlines(True)
    stop = threading.Event()
    errors = []
    counts = [0] * 4
    pos = pseg.POSTokenizer(t)

    def cutter(k):
        try:
            i = 0
            while not stop.is_set():
                i += 1
                hmm = bool(i % 2)
                c = (i + k) % 6
                if c == 0:
                    assert "".join(t.lcut(text, HMM=hmm)) == text
                elif c == 1:
                    assert "".join(t.cut(LONG, HMM=hmm)) == LONG
                elif c == 2:
                    ws = t.lcut_for_search(text, HMM=hmm)
                    assert set("".join(ws)) <= set(text)
                elif c == 3:
                    toks = list(t.tokenize(text, HMM=hmm))
                    assert "".join(w for w, _, _ in toks) == text
                    assert all(text[a:b] == w for w, a, b in toks)
                elif c == 4:
                    out = t.cut_batch(lines, threads=2, HMM=hmm)
                    assert ["".join(ws) for ws in out] == lines
                else:
                    assert "".join(p.word for p in pos.lcut(text, HMM=hmm)) == text
                counts[k] += 1
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    def changer():
        try:
            words = [LONG[i:i + 3] for i in range(0, 24, 3)]
            for rep in range(100):
                if rep % 2:
                    jieba.enable_parallel(2)
                else:
                    jieba.disable_parallel()
                for w in words:
                    t.add_word(w)
                    assert w in t.lcut(LONG)
                    t.add_word("词%d" % rep, 10, "n")
                for w in words[::2]:
                    t.del_word(w)
                    assert w not in t.lcut(LONG)
                t.load_userdict(io.StringIO("北京清华 ns\n深造 3\n"))
                assert "北京清华" in t.lcut(S)
                t.suggest_freq(("北京", "清华"), tune=True)
                assert "北京清华" not in t.lcut(S)
                for w in words:
                    t.del_word(w)
        except Exception as e:  # pragma: no cover
            errors.append(e)
        finally:
            stop.set()

    ths = [threading.Thread(target=cutter, args=(k,)) for k in range(4)]
    ch = threading.Thread(target=changer)
    try:
        for th in ths:
            th.start()
        ch.start()
        ch.join(60)
        stop.set()
        for th in ths:
            th.join(60)
    finally:
        jieba.disable_parallel()
    assert not errors, errors
    assert all(c > 0 for c in counts), counts
    assert not any(w in t.lcut(LONG) for w in [LONG[i:i + 3] for i in range(0, 24, 3)])

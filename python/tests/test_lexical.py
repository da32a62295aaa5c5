"""fenci's part-of-speech tags in context and entities from Python."""
import threading

import fenci
import fenci.posseg as pseg

NAPOLEON = "1814年4月6日，拿破仑在枫丹白露宫签署了退位诏书。这一年的战役共消耗了约22万发炮弹，门票为１２欧元。"


def test_posseg_tags_in_context():
    # the same word, a verb after a pronoun and a verbal noun after 的
    a = dict((p.word, p.flag) for p in pseg.cut("我们要发展经济"))
    b = dict((p.word, p.flag) for p in pseg.cut("经济的发展很快"))
    assert a["发展"] == "v" and b["发展"] == "vn"
    assert [p.flag for p in pseg.cut("北京是中国的首都")][0] == "ns"


def test_tag_tokens_lossless_and_typed():
    toks = fenci.tag(NAPOLEON + " see http://x.cn")
    assert "".join(t.word for t in toks) == NAPOLEON + " see http://x.cn"
    tags = {t.word: t.tag for t in toks}
    assert tags["。"] == "w" and tags["http://x.cn"] == "nx" and tags["see"] == "nx"
    assert all(t.tag == "" for t in toks if t.kind == "space")


def test_entities_values_and_offsets():
    ents = fenci.entities(NAPOLEON)
    by = {e.text: e for e in ents}
    d = by["1814年4月6日"]
    assert d.type == "TIME" and d.value == "1814-04-06" and (d.start, d.end) == (0, 9) and d.byte_end == 15
    q = by["22万发"]
    assert q.type == "QUANTITY" and q.value == 220000 and q.unit == "发"
    m = by["１２欧元"]
    assert m.type == "MONEY" and m.value == 12 and m.unit == "欧元"
    for e in ents:
        assert NAPOLEON[e.start:e.end] == e.text
        assert NAPOLEON.encode()[e.byte_start:e.byte_end].decode() == e.text
    assert fenci.entities(NAPOLEON.encode()) == ents  # bytes too
    assert fenci.entities("") == []
    w = fenci.entities("周五放假，上周三开会，三天后回来")
    assert [(e.text, e.value, e.flags) for e in w] == [
        ("周五", "XXXX-WXX-5", fenci.ENTF_WEEKDAY),
        ("上周三", "XXXX-WXX-3", fenci.ENTF_WEEKDAY | fenci.ENTF_RELATIVE),
        ("三天后", None, fenci.ENTF_RELATIVE | fenci.ENTF_DURATION)]
    # ranges: one entity, the value a (start, end) tuple or an ISO 8601 interval
    r = fenci.entities("招收3-5人，预算三至五万元，1998年至2000年，判处3至5年，比分3-1")
    assert [(e.type, e.text, e.value, e.unit, e.flags & fenci.ENTF_RANGE) for e in r] == [
        ("QUANTITY", "3-5人", (3.0, 5.0), "人", fenci.ENTF_RANGE),
        ("MONEY", "三至五万元", (30000.0, 50000.0), "元", fenci.ENTF_RANGE),
        ("TIME", "1998年至2000年", "1998/2000", None, fenci.ENTF_RANGE),
        ("TIME", "3至5年", "P3Y/P5Y", "年", fenci.ENTF_RANGE),
        ("NUMBER", "3", 3.0, None, 0), ("NUMBER", "1", 1.0, None, 0)]


def test_entities_bad_input():
    import pytest
    with pytest.raises(TypeError):
        fenci.entities(12)
    # bytes that are not UTF-8: a clear error, as for cut
    with pytest.raises(ValueError):
        fenci.entities(b"\xff\xfe1998\xe5\xb9\xb4\x80 22\xe4\xb8\x87")
    # hostile but valid text: offsets in range
    s = "\u0000年年1998\u200b万万%%１２" * 500
    for e in fenci.entities(s):
        assert 0 <= e.start < e.end <= len(s) and s[e.start:e.end] == e.text


def test_entities_threads():
    want = fenci.entities(NAPOLEON)
    bad = []

    def work():
        for _ in range(50):
            if fenci.entities(NAPOLEON) != want:
                bad.append(1)

    th = [threading.Thread(target=work) for _ in range(4)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    assert not bad

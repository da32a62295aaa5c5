#!/usr/bin/python3
"""Finds overlapping-ambiguity sentences in the training parts of the corpora.

  mine.py [--data DIR] [--per-corpus N] [--seed S]      suite rows (without id and split)
  mine.py [--data DIR] --check WORD...                  agreement statistics of words

A candidate is a place where two adjacent gold words A|B are crossed by a
word W of jieba's dictionary that cuts into A or B (W starts inside A or ends
inside B), so that taking W would be an error.  The
words W cuts into become the critical words (they must come out whole) and W
the forbidden join.

So that one suite scores every standard, a critical word must be an ordinary
word that PKU (pd1998-01), MSR (msra-ner) and CTB6 all write as one word:
  - pure Han, 2 to 4 characters, not a name, place, organisation, time,
    number, idiom or abbreviation (its People's Daily tag, its MSRA tag);
  - a gold word at least MIN_COUNT times in each of the three training corpora;
  - where its characters stand between two gold word boundaries, one word in
    at least 95% of the cases, in each corpus (so no standard splits it);
  - not joined with a neighbour: neither neighbour joined with it (up to two
    words on either side) is a gold word of any corpus or a jieba word.
W must be a jieba word (frequency >= 100, not a name tag) that is itself a gold
word somewhere in the training corpora (a real word, so a real ambiguity),
and a dictionary segmenter must go wrong there: forward or backward maximum
matching over jieba's dictionary (words up to 8 characters) takes W.

Sentences of 6 to 50 characters; one candidate per W, per critical word and
per line over the whole suite; a few candidates rejected by hand (REJECT);
the choice among candidates is a fixed-seed hash order, never a model's output.
"""

import argparse
import collections
import hashlib
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpora  # noqa: E402

NAME_TAGS_PD = {"nr", "ns", "nt", "nz", "nx", "t", "m", "mq", "i", "l", "j", "Ng", "Tg", "Mg", "w", "q"}
NAME_TAGS_JIEBA = {"nr", "nrt", "nrfg", "ns", "nt", "nz", "m", "mq", "t", "i", "l", "j", "x", "eng"}
MIN_COUNT = 3
MIN_WHOLE = 0.95
MIN_W_FREQ = 100
MAXW = 4

# Candidates read and rejected by hand (file, line, W), with the reason: a
# critical word inside a name that MSR keeps whole, doubtful gold, a word
# boundary the standards do not agree on.  Rejected before the choice; the
# order of the others does not depend on them.
REJECT = {
    (corpora.PD, 7492, "生动"): "野生动物园 is part of an organisation name (秦皇岛野生动物园)",
    (corpora.PD, 9950, "路上"): "公路 is part of a road name (京石公路)",
    (corpora.PD, 5591, "行事"): "银行 is part of an organisation name (大和银行)",
    (corpora.PD, 16302, "美食"): "食品 is part of an organisation name (美食品和药物管理局)",
    (corpora.MSR, 9747, "制作"): "gold error: 体/制作/出 for 体制/作出",
    (corpora.PD, 13924, "村镇"): "a table header, not a sentence",
    (corpora.PD, 20506, "行经"): "分行 is part of an organisation name (建行北京市分行)",
    (corpora.CTB, 15388, "出事"): "garbled text (提出事件生平)",
    (corpora.PD, 11247, "合理"): "doubtful gold: 先建后联/合理/选择 reads better than 联合/理",
    (corpora.CTB, 21912, "确认"): "a typo (确 for 却) that the gold follows: 确/认为",
    (corpora.MSR, 34459, "生化"): "卫生化: the suffix 化 joins its word in some standards",
    (corpora.PD, 6228, "油价"): "汽油价: whether 价 joins its noun differs between standards",
}


def is_han(s):
    return all(0x4E00 <= ord(c) <= 0x9FFF for c in s)


def load_jieba(data):
    lex = {}
    with open(os.path.join(data, "lexicon/jieba-dict.txt"), encoding="utf-8") as f:
        for line in f:
            p = line.split()
            if len(p) >= 2:
                lex[p[0]] = (int(p[1]), p[2] if len(p) > 2 else "")
    return lex


def load(data):
    out = {}
    for name in corpora.FILES:
        out[name] = list(corpora.read(data, name))
    return out


class Stats:
    """Per corpus: gold word counts, tag counts, and for a set of words how
    often their characters stand between two gold boundaries (aligned) and
    how often they are then one word."""

    def __init__(self, corpus, words_of_interest):
        self.count = collections.Counter()
        self.tags = collections.defaultdict(collections.Counter)
        self.aligned = collections.Counter()
        maxlen = max((len(w) for w in words_of_interest), default=0)
        for _, words, tags in corpus:
            for w, t in zip(words, tags):
                self.count[w] += 1
                if t is not None:
                    self.tags[w][t] += 1
            if not words_of_interest:
                continue
            text = "".join(words)
            bounds = set()
            p = 0
            bounds.add(0)
            for w in words:
                p += len(w)
                bounds.add(p)
            for i in sorted(bounds):
                for L in range(2, maxlen + 1):
                    if i + L in bounds:
                        s = text[i:i + L]
                        if s in words_of_interest:
                            self.aligned[s] += 1

    def whole_rate(self, w):
        a = self.aligned[w]
        return self.count[w] / a if a else 0.0


def agreed(w, stats, lex):
    """Why W is not an agreed ordinary word, or None when it is."""
    if not (2 <= len(w) <= 4 and is_han(w)):
        return "not 2-4 Han characters"
    if lex.get(w, (0, ""))[1] in NAME_TAGS_JIEBA:
        return "jieba tag " + lex[w][1]
    for name, st in stats.items():
        if st.count[w] < MIN_COUNT:
            return "%s: %d times a word" % (name, st.count[w])
        if st.whole_rate(w) < MIN_WHOLE:
            return "%s: one word in %.0f%% of aligned places" % (name, 100 * st.whole_rate(w))
        if st.tags[w]:
            tag = st.tags[w].most_common(1)[0][0]
            if tag in NAME_TAGS_PD or (name == corpora.MSR and tag != "o"):
                return "%s: tag %s" % (name, tag)
    return None


def candidates(corpus, lex):
    for lineno, words, _ in corpus:
        text = "".join(words)
        if not (6 <= len(text) <= 50):
            continue
        starts = []
        p = 0
        for w in words:
            starts.append(p)
            p += len(w)
        bounds = set(starts) | {len(text)}
        owner = []  # character -> index of its word
        for k, w in enumerate(words):
            owner.extend([k] * len(w))
        for k in range(1, len(words)):
            b = starts[k]  # boundary between words k-1 and k
            for s in range(max(0, b - MAXW + 1), b):
                for e in range(b + 1, min(len(text), s + MAXW) + 1):
                    if s in bounds and e in bounds:
                        continue  # a join of whole words: combinational, not overlapping
                    W = text[s:e]
                    if W not in lex:
                        continue
                    cut = set()
                    if s not in bounds:
                        cut.add(owner[s])
                    if e not in bounds:
                        cut.add(owner[e - 1])
                    cut = sorted(cut)
                    yield lineno, words, s, e, W, cut


def max_match(text, lex, backward=False, maxlen=8):
    """Forward (or backward) maximum matching over the lexicon: the classic
    dictionary segmenter.  -> set of (start, end) of its words."""
    out, n = set(), len(text)
    if not backward:
        i = 0
        while i < n:
            L = next((L for L in range(min(maxlen, n - i), 1, -1) if text[i:i + L] in lex), 1)
            out.add((i, i + L))
            i += L
    else:
        j = n
        while j > 0:
            L = next((L for L in range(min(maxlen, j), 1, -1) if text[j - L:j] in lex), 1)
            out.add((j - L, j))
            j -= L
    return out


def joins_ok(words, k, stats, lex):
    """No neighbour join of words[k] is a gold word anywhere or a jieba word."""
    for a in range(max(0, k - 2), k + 1):
        for b in range(k + 1, min(len(words), k + 3) + 1):
            if b - a < 2:
                continue
            j = "".join(words[a:b])
            if len(j) > 8:
                continue
            if j in lex:
                return False
            if any(st.count[j] for st in stats.values()):
                return False
    return True


def occurrence(text, w, start):
    """1-based index of the occurrence of W at START among all (overlapping) ones."""
    n, i = 0, text.find(w)
    while i >= 0:
        n += 1
        if i == start:
            return n
        i = text.find(w, i + 1)
    raise ValueError(w)


def spec(text, w, start):
    total = 0
    i = text.find(w)
    while i >= 0:
        total += 1
        i = text.find(w, i + 1)
    return w if total == 1 else "%s#%d" % (w, occurrence(text, w, start))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.environ.get("DATA", "../shared/data"))
    ap.add_argument("--per-corpus", type=int, default=32)
    ap.add_argument("--seed", type=int, default=19980101)
    ap.add_argument("--check", nargs="+")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the sentences' text instead of @")
    args = ap.parse_args()
    lex = load_jieba(args.data)
    data = load(args.data)

    if args.check:
        woi = set(args.check)
        stats = {n: Stats(c, woi) for n, c in data.items()}
        for w in args.check:
            parts = ["%s=%d/%.2f/%s" % (n.split("/")[0], st.count[w], st.whole_rate(w),
                                        ",".join(t for t, _ in st.tags[w].most_common(2)))
                     for n, st in stats.items()]
            print(w, " ".join(parts), "jieba=%s" % (lex.get(w),), "->", agreed(w, stats, lex) or "agreed")
        return

    cands = {n: list(candidates(c, lex)) for n, c in data.items()}
    woi = set()
    for cl in cands.values():
        for _, words, _, _, _, cut in cl:
            woi.update(words[k] for k in cut)
    stats = {n: Stats(c, woi) for n, c in data.items()}
    agree_cache = {}

    def ok_word(w):
        if w not in agree_cache:
            agree_cache[w] = agreed(w, stats, lex) is None
        return agree_cache[w]

    used_w, used_cut, used_line = set(), set(), set()
    rows = []
    for name in corpora.FILES:
        good = []
        for lineno, words, s, e, W, cut in cands[name]:
            f, tag = lex[W]
            if f < MIN_W_FREQ or tag in NAME_TAGS_JIEBA or not is_han(W):
                continue
            if not any(st.count[W] for st in stats.values()):
                continue
            if (name, lineno, W) in REJECT:
                continue
            if not all(ok_word(words[k]) and joins_ok(words, k, stats, lex) for k in cut):
                continue
            text = "".join(words)
            if (s, e) not in max_match(text, lex) and (s, e) not in max_match(text, lex, True):
                continue
            good.append((lineno, words, s, e, W, cut))
        # A fixed-seed order that does not move when a candidate is rejected.
        good.sort(key=lambda c: hashlib.sha1(("%d:%s:%d:%d:%s" % (args.seed, name, c[0], c[2], c[4]))
                                             .encode("utf-8")).digest())
        taken = 0
        for lineno, words, s, e, W, cut in good:
            cw = tuple(words[k] for k in cut)
            if W in used_w or any(c in used_cut for c in cw) or (name, lineno) in used_line:
                continue
            used_w.add(W)
            used_line.add((name, lineno))
            used_cut.update(cw)
            text = "".join(words)
            starts = [sum(len(x) for x in words[:k]) for k in range(len(words))]
            whole = " ".join(spec(text, words[k], starts[k]) for k in cut)
            lo = max(0, min(cut) - 1)
            hi = min(len(words), max(k for k in range(len(words)) if starts[k] < e) + 2)
            note = "gold %s; %s crosses it" % ("/".join(words[lo:hi]), W)
            rows.append((name, lineno, text, whole, spec(text, W, s), note))
            taken += 1
            if taken >= args.per_corpus:
                break
        print("# %s: %d candidate places, %d pass the filters, %d taken" %
              (name, len(cands[name]), len(good), taken), file=sys.stderr)
    # Suite columns but id and split: sentence, whole, forbid, source, type,
    # note; the sentence is "@" (score.py reads it from the corpus: the
    # corpora are never committed), with -v the text too, for review.
    for name, lineno, text, whole, forbid, note in rows:
        print("%s\t%s\t%s\tcorpus:%s:%d\toverlap\t%s" % (text if args.verbose else "@", whole, forbid, name, lineno, note))


if __name__ == "__main__":
    main()

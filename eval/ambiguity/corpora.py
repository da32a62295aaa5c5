"""Readers for the training parts of the segmented corpora (standard library only).

Only the training slices are ever read here, the same slices the models are
trained on (models.mk):

  pd1998-01/199801.txt          every day but 1998-01-28..31 (those are PKU dev)
  msra-ner/train.wordtag.txt    the first 90% of the lines (the rest is MSR dev)
  ctb6/ctb6.train.seg           all of it

No test set (SIGHAN 2005 test, CTB6 test, MSRA NER test) is opened.

Each reader yields (lineno, words, tags): the 1-based line number in the
file, the gold words of the line and their tags (None where the corpus has
none).  The line's text is "".join(words).
"""

import os

PD = "pd1998-01/199801.txt"
MSR = "msra-ner/train.wordtag.txt"
CTB = "ctb6/ctb6.train.seg"
FILES = (PD, MSR, CTB)


def _split_tag(tok):
    i = tok.rfind("/")
    if i <= 0:
        return tok, None
    return tok[:i], tok[i + 1:]


def read_pd(data):
    with open(os.path.join(data, PD), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            toks = line.split()
            if len(toks) < 2:
                continue
            day = toks[0][:8]
            if "19980128" <= day <= "19980131":
                continue
            words, tags = [], []
            for t in toks[1:]:
                if t.startswith("[") and len(t) > 1:
                    t = t[1:]
                j = t.rfind("]")
                if j > 0 and t[j + 1:].isalpha() and t[:j].rfind("/") > 0:
                    t = t[:j]
                w, tag = _split_tag(t)
                if w:
                    words.append(w)
                    tags.append(tag)
            if words:
                yield n, words, tags


def read_msr(data):
    path = os.path.join(data, MSR)
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    keep = len(lines) - len(lines) // 10
    for n, line in enumerate(lines[:keep], 1):
        words, tags = [], []
        for t in line.split():
            w, tag = _split_tag(t)
            if w:
                words.append(w)
                tags.append(tag)
        if words:
            yield n, words, tags


def read_ctb(data):
    with open(os.path.join(data, CTB), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if words:
                yield n, words, [None] * len(words)


READERS = {PD: read_pd, MSR: read_msr, CTB: read_ctb}


def read(data, name):
    return READERS[name](data)


def training_line(data, name, lineno):
    """The text of line LINENO of corpus NAME, or None when that line is not
    in the training part (or is empty)."""
    for n, words, _ in read(data, name):
        if n == lineno:
            return "".join(words)
        if n > lineno:
            break
    return None

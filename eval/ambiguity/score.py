#!/usr/bin/python3
"""Scores a segmenter on the ambiguity suite (eval/ambiguity/suite.tsv).

  score.py [-m MODEL] [--fast] [--fenci PATH] [--name NAME] [-v]   run fenci cut and score it
  score.py --segmented FILE [--name NAME] [-v]                      score a segmented file
  score.py --check [--data DIR]                                     validate the suite only

Corpus sentences are stored as "@" and their source (corpus:FILE:LINE): the
text is read from the training part of the corpus in --data, as the
corpora are never committed.

A sentence is fully right when every critical span is right: each `whole`
span comes out as exactly one token, and no token covers any `forbid` span.
Each span counts one.  Figures are given for the dev part (may be tuned
on), the held part (held out) and both.  The format of the suite is in
eval/ambiguity/README.md.  Standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "suite.tsv")
FIELDS = ("id", "split", "sentence", "whole", "forbid", "source", "type", "note")
SPLITS = ("dev", "held")
TYPES = ("overlap", "combination")
CORPUS_FILES = ("pd1998-01/199801.txt", "msra-ner/train.wordtag.txt", "ctb6/ctb6.train.seg")
ID_RE = re.compile(r"^amb(\d{3,})$")
SPAN_RE = re.compile(r"^([^\s#]+)(?:#([1-9]\d*))?$")
SOURCE_RE = re.compile(r"^corpus:([^:]+):([1-9]\d*)$")


class SuiteError(Exception):
    pass


def split_of(ident):
    """The fixed split rule: every third id is held out."""
    return "held" if int(ID_RE.match(ident).group(1)) % 3 == 0 else "dev"


def occurrences(text, w):
    out, i = [], text.find(w)
    while i >= 0:
        out.append(i)
        i = text.find(w, i + 1)
    return out


def parse_span(text, spec):
    """'word' (its only occurrence) or 'word#k' (the k-th, counting
    overlapping ones) -> (start, end) character offsets."""
    m = SPAN_RE.match(spec)
    if not m:
        raise SuiteError("bad span %r" % spec)
    w, k = m.group(1), m.group(2)
    occ = occurrences(text, w)
    if not occ:
        raise SuiteError("span %r does not occur in the sentence" % w)
    if k is None:
        if len(occ) > 1:
            raise SuiteError("span %r occurs %d times: say which (%s#1 ...)" % (w, len(occ), w))
        return occ[0], occ[0] + len(w)
    k = int(k)
    if k > len(occ):
        raise SuiteError("span %r: only %d occurrences" % (spec, len(occ)))
    return occ[k - 1], occ[k - 1] + len(w)


def parse_spans(text, field):
    if field == "-":
        return []
    specs = field.split(" ")
    if any(not s for s in specs):
        raise SuiteError("spans must be separated by single spaces")
    return [(s, parse_span(text, s)) for s in specs]


class Item:
    def __init__(self, lineno, f):
        self.lineno = lineno
        self.id, self.split, self.sentence, whole, forbid, self.source, self.type, self.note = f
        if not ID_RE.match(self.id):
            raise SuiteError("bad id %r (want amb and three or more digits)" % self.id)
        if self.split not in SPLITS:
            raise SuiteError("bad split %r" % self.split)
        if self.split != split_of(self.id):
            raise SuiteError("split %s does not follow the rule (every third id is held)" % self.split)
        self.whole_field, self.forbid_field = whole, forbid
        if self.source == "textbook":
            self.corpus = None
        else:
            m = SOURCE_RE.match(self.source)
            if not m or m.group(1) not in CORPUS_FILES:
                raise SuiteError("bad source %r (textbook or corpus:FILE:LINE, FILE one of %s)"
                                 % (self.source, ", ".join(CORPUS_FILES)))
            self.corpus = (m.group(1), int(m.group(2)))
            # the corpora are never committed: a corpus sentence is "@", the
            # text of the line its source names, read by resolve()
            if self.sentence != "@":
                raise SuiteError("a corpus sentence is written @ (its text is read from the corpus)")
            self.sentence = None
        if self.type not in TYPES:
            raise SuiteError("bad type %r (%s)" % (self.type, " or ".join(TYPES)))
        if self.sentence is not None:
            self.set_sentence(self.sentence)

    def set_sentence(self, text):
        """Parses the spans against the sentence text."""
        self.sentence = text
        if not text or text != text.strip() or any(c.isspace() for c in text):
            raise SuiteError("the sentence must be non-empty, without whitespace")
        self.whole = parse_spans(text, self.whole_field)
        self.forbid = parse_spans(text, self.forbid_field)
        if not self.whole and not self.forbid:
            raise SuiteError("no critical span")
        for spec, (s, e) in self.forbid:
            if e - s < 2:
                raise SuiteError("forbidden join %r has fewer than two characters" % spec)
        for spec, (s, e) in self.whole:
            for spec2, (s2, e2) in self.forbid:
                if s <= s2 and e2 <= e:
                    raise SuiteError("whole span %r covers forbidden join %r" % (spec, spec2))

    def spans(self):
        return len(self.whole) + len(self.forbid)


def load_suite(path):
    items, ids = [], {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            try:
                if len(fields) != len(FIELDS):
                    raise SuiteError("%d fields, want %d (%s)" % (len(fields), len(FIELDS), " ".join(FIELDS)))
                it = Item(n, fields)
                if it.id in ids:
                    raise SuiteError("id %s already on line %d" % (it.id, ids[it.id]))
                ids[it.id] = n
            except SuiteError as e:
                raise SuiteError("%s:%d: %s" % (path, n, e))
            items.append(it)
    if not items:
        raise SuiteError("%s: no sentences" % path)
    return items


def resolve(items, data):
    """Reads the text of each corpus:FILE:LINE sentence from the training
    part of the corpus in data (never its dev or test part) and parses its
    spans.  Without data the corpus sentences are dropped, with a note."""
    corpus_items = [it for it in items if it.corpus]
    if not corpus_items:
        return items
    if not data or not os.path.isfile(os.path.join(data, CORPUS_FILES[2])):
        print("score.py: corpora not found (%s): the %d corpus sentences are left out"
              % (data, len(corpus_items)), file=sys.stderr)
        return [it for it in items if not it.corpus]
    sys.dont_write_bytecode = True
    sys.path.insert(0, HERE)
    import corpora
    want = {}
    for it in corpus_items:
        want.setdefault(it.corpus[0], {})[it.corpus[1]] = it
    errors = []
    for name, lines in want.items():
        found = {}
        try:
            for n, words, _ in corpora.read(data, name):
                if n in lines:
                    found[n] = "".join(words)
        except OSError as e:
            raise SuiteError("cannot read the corpus %s: %s" % (name, e))
        for n, it in sorted(lines.items()):
            if n not in found:
                errors.append("%s (%s): line %d is not in the training part of %s" % (it.id, it.source, n, name))
                continue
            try:
                it.set_sentence(found[n])
            except SuiteError as e:
                errors.append("%s (%s): %s" % (it.id, it.source, e))
    if errors:
        raise SuiteError("; ".join(errors))
    return items


def summary(items):
    by = {}
    for it in items:
        src = "textbook" if it.corpus is None else it.corpus[0].split("/")[0]
        by.setdefault(src, {"dev": 0, "held": 0})[it.split] += 1
    parts = ["%s %d (dev %d, held %d)" % (s, c["dev"] + c["held"], c["dev"], c["held"]) for s, c in by.items()]
    n_dev = sum(1 for it in items if it.split == "dev")
    return "%d sentences, dev %d, held %d, %d critical spans; %s" % (
        len(items), n_dev, len(items) - n_dev, sum(it.spans() for it in items), "; ".join(parts))


def run_fenci(fenci, items, model, fast):
    cmd = [fenci, "cut", "-q", "-f", "json"]
    if model:
        cmd += ["-m", model]
    if fast:
        cmd.append("--fast")
    text = "".join(it.sentence + "\n" for it in items)
    try:
        p = subprocess.run(cmd, input=text.encode("utf-8"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise SuiteError("cannot run %s: %s" % (fenci, e))
    if p.returncode != 0:
        raise SuiteError("%s exited with %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode("utf-8", "replace").strip()))
    lines = p.stdout.decode("utf-8").splitlines()
    if len(lines) != len(items):
        raise SuiteError("%s gave %d lines for %d sentences" % (" ".join(cmd), len(lines), len(items)))
    out = []
    for it, line in zip(items, lines):
        toks = [(t["cs"], t["ce"]) for t in json.loads(line)["tokens"]]
        out.append(toks)
    return out


def read_segmented(path, items):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if len(lines) != len(items):
        raise SuiteError("%s has %d lines for %d sentences" % (path, len(lines), len(items)))
    return [to_offsets(line.split()) for line in lines]


def to_offsets(words):
    out, p = [], 0
    for w in words:
        out.append((p, p + len(w)))
        p += len(w)
    return out


def score_item(it, toks):
    """-> (spans right, list of failure descriptions)."""
    text = it.sentence
    if toks and (toks[0][0] != 0 or toks[-1][1] != len(text) or
                 any(a[1] != b[0] for a, b in zip(toks, toks[1:]))):
        raise SuiteError("%s: the tokens do not cover the sentence" % it.id)
    exact = set(toks)
    right, fails = 0, []
    for spec, (s, e) in it.whole:
        if (s, e) in exact:
            right += 1
        else:
            fails.append("%s not whole" % spec)
    for spec, (s, e) in it.forbid:
        cover = [t for t in toks if t[0] <= s and e <= t[1]]
        if cover:
            fails.append("%s joined (%s)" % (spec, text[cover[0][0]:cover[0][1]]))
        else:
            right += 1
    return right, fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--suite", default=SUITE, help="the suite file (default: %(default)s)")
    ap.add_argument("--fenci", default="./fenci", help="the fenci binary (default: %(default)s)")
    ap.add_argument("-m", "--model", help="model name or path, passed to fenci cut -m")
    ap.add_argument("--fast", action="store_true", help="lexicon mode (fenci cut --fast)")
    ap.add_argument("--segmented", metavar="FILE",
                    help="score FILE instead of running fenci: one line a sentence, words separated by whitespace")
    ap.add_argument("--name", help="label of the output line (default: the model, or 'fast')")
    ap.add_argument("--by-source", action="store_true", help="also the textbook and the corpus sentences apart")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every sentence not fully right")
    ap.add_argument("--check", action="store_true", help="validate the suite and print its composition")
    ap.add_argument("--sentences", action="store_true",
                    help="print the suite's sentences, one a line (make models leaves them out of the bigram counts)")
    ap.add_argument("--data", default=os.path.join(HERE, "..", "..", "..", "shared", "data"),
                    help="the corpora, for the text of the corpus sentences (default: %(default)s)")
    args = ap.parse_args()

    try:
        items = load_suite(args.suite)
        n_corpus = sum(1 for it in items if it.corpus)
        if args.check and not args.data:
            print("ambiguity suite: %d sentences (%d from the corpora, not resolved)" % (len(items), n_corpus))
            return 0
        n_all = len(items)
        items = resolve(items, args.data)
        if args.sentences:
            for it in items:
                print(it.sentence)
            return 0
        if args.check:
            note = ""
            if n_corpus:
                note = ("; corpus lines read from %s" % args.data if len(items) == n_all else
                        "; the %d corpus sentences left out (no corpora at %s)" % (n_corpus, args.data))
            print("ambiguity suite: " + summary(items) + note)
            return 0
        if args.segmented:
            toks = read_segmented(args.segmented, items)
        else:
            toks = run_fenci(args.fenci, items, args.model, args.fast)
        name = args.name or ("fast" if args.fast else os.path.basename(args.model or "default").replace(".fenci", ""))
        # per group (all, textbook, corpus) and split: sentences right, sentences, spans right, spans
        tally = {g: {s: [0, 0, 0, 0] for s in SPLITS} for g in ("all", "textbook", "corpus")}
        failures = []
        for it, t in zip(items, toks):
            right, fails = score_item(it, t)
            for g in ("all", "textbook" if it.corpus is None else "corpus"):
                c = tally[g][it.split]
                c[0] += not fails
                c[1] += 1
                c[2] += right
                c[3] += it.spans()
            if fails:
                failures.append((it, t, fails))
    except SuiteError as e:
        print("score.py: %s" % e, file=sys.stderr)
        return 2

    def line(label, t):
        t = dict(t, all=[a + b for a, b in zip(t["dev"], t["held"])])
        parts = []
        for s in ("dev", "held", "all"):
            r, n, sr, sn = t[s]
            parts.append("%s %3d/%-3d sentences %5.1f%%, %3d/%-3d spans %5.1f%%" % (
                s, r, n, 100.0 * r / n if n else 0, sr, sn, 100.0 * sr / sn if sn else 0))
        return "%-5s %s" % (label, "  |  ".join(parts))

    print(line(name, tally["all"]))
    if args.by_source:
        for g in ("textbook", "corpus"):
            print(line("  " + g, tally[g]))
    if args.verbose:
        for it, t, fails in failures:
            words = " ".join(it.sentence[a:b] for a, b in t)
            print("  %s %-4s %s  ->  %s  :  %s" % (it.id, it.split, it.sentence, words, "; ".join(fails)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

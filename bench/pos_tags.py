"""Tag sets of the POS rows of `make bench`: jieba's part-of-speech tags mapped onto the
PKU tag set of pd1998-01, and the tags a tagger's output uses.

jieba (python3-jieba's posseg, @node-rs/jieba's tag()) tags with an extension of the
PKU set: sub-tags of u, nr, r, v and d, 'eng' for Latin words, 'x' for punctuation
as well as for non-morphemes, lower-case morpheme tags.  Only the mappings with one
obvious PKU counterpart are made (MAP below, and x by what the word is); every
other tag is left as it is and simply counts as wrong where PKU differs ('zg', the
tag jieba gives most rare single characters, has no PKU counterpart)."""
import unicodedata

MAP = {
    # particles: 的 了 着 过 地 得 ... are u in PKU
    'uj': 'u', 'ul': 'u', 'uz': 'u', 'ug': 'u', 'uv': 'u', 'ud': 'u',
    # transliterated and foreign person names
    'nrt': 'nr', 'nrfg': 'nr',
    # Latin words (PKU's foreign-script word)
    'eng': 'nx',
    # sub-tags of pronouns, verbs, adverbs; numeral-classifier words
    'rr': 'r', 'rz': 'r', 'vi': 'v', 'vq': 'v', 'df': 'd', 'mq': 'm',
    # morphemes: PKU spells them with a capital
    'ag': 'Ag', 'bg': 'Bg', 'dg': 'Dg', 'mg': 'Mg', 'ng': 'Ng', 'rg': 'Rg',
    'tg': 'Tg', 'vg': 'Vg', 'yg': 'Yg',
}


def is_punct(word):
    return bool(word) and all(unicodedata.category(c)[0] in 'PS' for c in word)


def map_tag(word, tag):
    # jieba gives 'x' to punctuation and also to full-width digits and letters (１９９８,
    # ＣＤ), which it tags m and eng when they are ASCII
    if tag == 'x' and word:
        if is_punct(word):
            return 'w'
        if all(unicodedata.category(c) == 'Nd' for c in word):
            return 'm'
        if all(c.isascii() or unicodedata.name(c, '').startswith('FULLWIDTH LATIN') for c in word) \
                and any(c.isalpha() for c in word):
            return 'nx'
    return MAP.get(tag, tag)


def tokens(line):
    """(word, tag) pairs of a line of word/tag tokens; tag '' when there is none."""
    out = []
    for t in line.split():
        i = t.rfind('/')
        out.append((t[:i], t[i + 1:]) if i > 0 else (t, ''))
    return out


def tag_counts(path):
    counts = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            for _, tag in tokens(line):
                counts[tag] = counts.get(tag, 0) + 1
    return counts


def map_file(src, dst):
    """Rewrite word/tag lines from src to dst with PKU tags; return {'jieba→PKU': count}
    of the tags changed."""
    changed = {}
    with open(src, encoding='utf-8') as f, open(dst, 'w', encoding='utf-8') as out:
        for line in f:
            toks = []
            for w, tag in tokens(line):
                m = map_tag(w, tag) if tag else tag
                if m != tag:
                    key = '%s→%s' % (tag, m)
                    changed[key] = changed.get(key, 0) + 1
                toks.append(w + '/' + m if m else w)
            out.write(' '.join(toks) + '\n')
    return changed

#!/usr/bin/python3
"""Writes a small synthetic People's-Daily-format corpus (id token,
word/tag) for the POS training test: words whose tag depends on the
context (发展 and 研究 are v after a pronoun or adverb, vn after 的 or
进行), unseen person names (nr), numbers (m) and punctuation (w).
Deterministic: the same bytes every run.  Usage: gen_pos.py N > FILE"""
import random, sys

rng = random.Random(20261201)
R = ['我们', '他们', '政府', '企业']
N = ['经济', '技术', '城市', '农业', '市场', '教育']
V = ['推动', '支持', '加强', '改善']
AMB = ['发展', '研究', '改革', '建设']
A = ['快', '好', '重要', '稳定']
SUR = list('王李张刘陈杨赵黄周吴')
GIV = list('明华强军平伟芳敏静丽海波')

def name():
    return rng.choice(SUR) + ''.join(rng.choice(GIV) for _ in range(rng.choice((1, 2))))

def sentence():
    k = rng.randrange(5)
    if k == 0:   # r AMB/v n w : 我们 发展 经济 。
        t = [(rng.choice(R), 'r'), (rng.choice(AMB), 'v'), (rng.choice(N), 'n')]
    elif k == 1: # n 的 AMB/vn d a w : 经济 的 发展 很 快 。
        t = [(rng.choice(N), 'n'), ('的', 'u'), (rng.choice(AMB), 'vn'), ('很', 'd'), (rng.choice(A), 'a')]
    elif k == 2: # r 进行 AMB/vn w
        t = [(rng.choice(R), 'r'), ('进行', 'v'), (rng.choice(N), 'n'), (rng.choice(AMB), 'vn')]
    elif k == 3: # nr v n : 王明 支持 农业
        t = [(name(), 'nr'), (rng.choice(V), 'v'), (rng.choice(N), 'n')]
    else:        # number + measure: 3 个 城市 AMB/v 很 快
        t = [(str(rng.randrange(2, 99)), 'm'), ('个', 'q'), (rng.choice(N), 'n'), ('都', 'd'),
             (rng.choice(AMB), 'v'), ('了', 'u')]
    t.append((rng.choice('。，！'), 'w'))
    return t

n = int(sys.argv[1])
for i in range(n):
    print('19980101-01-001-%03d/m  ' % (i % 1000) + '  '.join('%s/%s' % p for p in sentence()))

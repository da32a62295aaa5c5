#!/usr/bin/python3
"""Writes a small synthetic MSRA-NER-format corpus (word/tag, tags nr ns nt
o) for the name recogniser's training test: person names built from a
surname and one or two given-name characters (mostly unseen combinations
in the held-out part), places and organisations in a few frames.
Deterministic.  Usage: gen_ner.py N > FILE"""
import random, sys

rng = random.Random(20261202)
SUR = list('王李张刘陈杨赵黄周吴徐孙马朱胡林郭何高罗')
GIV = list('明华强军平伟芳敏静丽海波刚勇杰涛超斌')
PLACE = ['北京', '上海', '广州', '巴黎', '伦敦', '华沙', '天津', '南京', '武汉', '西安']
ORGS = ['新华社', '外交部', '国务院', '人民银行', '中国科学院', '联合国']
VERB = ['访问', '来到', '离开', '到达']

def name():
    return rng.choice(SUR) + ''.join(rng.choice(GIV) for _ in range(rng.choice((1, 2))))

def sentence():
    k = rng.randrange(4)
    if k == 0:
        t = [(name(), 'nr'), (rng.choice(VERB), 'o'), (rng.choice(PLACE), 'ns'), ('。', 'o')]
    elif k == 1:
        t = [(rng.choice(ORGS), 'nt'), ('发言人', 'o'), (name(), 'nr'), ('说', 'o'), ('，', 'o')]
    elif k == 2:
        t = [('在', 'o'), (rng.choice(PLACE), 'ns'), ('的', 'o'), (rng.choice(ORGS), 'nt'), ('工作', 'o'), ('。', 'o')]
    else:
        t = [(name(), 'nr'), ('和', 'o'), (name(), 'nr'), ('都', 'o'), ('在', 'o'), (rng.choice(PLACE), 'ns'), ('。', 'o')]
    return t

for i in range(int(sys.argv[1])):
    print(' '.join('%s/%s' % p for p in sentence()))

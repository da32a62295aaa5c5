#!/usr/bin/env python3
"""gen_corpus.py - writes the tiny synthetic corpus of tests/train/ (our own
sentences from a small grammar, so no corpus licence applies):
    python3 tests/train/gen_corpus.py
writes train.seg (400 sentences) and test.seg (60 held-out sentences),
words separated by one space.  Fixed seed: the output never changes."""
import os
import random

SUBJ = ["我们", "老师", "学生", "小王", "张三", "妈妈", "公司", "政府", "记者", "朋友们", "科学家", "工人"]
TIME = ["今天", "昨天", "明年", "上午", "晚上", "去年", "现在", "周末"]
PLACE = ["在北京", "在学校", "在工厂", "在家里", "在上海", "在医院"]
VERB = ["参观", "学习", "研究", "讨论", "发展", "建设", "介绍", "支持", "完成", "准备"]
ADV = ["认真", "积极", "努力", "已经", "正在", "一起"]
OBJ = ["新技术", "经济", "问题", "计划", "历史", "文化", "工作", "项目", "方案", "市场"]
MOD = ["重要", "新", "大", "国际", "传统", "现代"]
END = ["。", "！", "，", "；"]
NUM = ["3", "15", "2008", "一百", "五"]
CL = ["个", "次", "项", "年"]


def sentence(r):
    w = []
    if r.random() < 0.5:
        w.append(r.choice(TIME))
    w.append(r.choice(SUBJ))
    if r.random() < 0.4:
        w += r.choice(PLACE)[:1], r.choice(PLACE)[1:]
    if r.random() < 0.5:
        w.append(r.choice(ADV))
    w.append(r.choice(VERB))
    if r.random() < 0.3:
        w += [r.choice(NUM), r.choice(CL)]
    if r.random() < 0.5:
        w += [r.choice(MOD), "的"]
    w.append(r.choice(OBJ))
    w.append(r.choice(END))
    return w


def main():
    r = random.Random(20240601)
    here = os.path.dirname(os.path.abspath(__file__))
    sents = [sentence(r) for _ in range(460)]
    with open(os.path.join(here, "train.seg"), "w", encoding="utf-8") as f:
        for s in sents[:400]:
            f.write(" ".join(s) + "\n")
    with open(os.path.join(here, "test.seg"), "w", encoding="utf-8") as f:
        for s in sents[400:]:
            f.write(" ".join(s) + "\n")


if __name__ == "__main__":
    main()

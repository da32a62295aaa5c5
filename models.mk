# models.mk - the trained segmentation models and their evaluation
# (included by the Makefile).
#
#   make models   retrains models/pku.fenci, models/msr.fenci, models/ctb.fenci
#                 from $(DATA) (../shared/data) with ./fenci train
#   make eval     scores each model on its own test set (SIGHAN 2005 PKU,
#                 SIGHAN 2005 MSR, CTB6 test): P, R, F1, OOV and IV recall,
#                 and throughput; and every model and the lexicon mode on the
#                 ambiguity suite (eval/ambiguity/)
#
# Iterations are chosen on held-out data only: pd1998-01 without the
# articles of 1998-01-28..31 trains the PKU model and those days are its dev
# set; the last 10% of msra-ner train is the MSR dev set; CTB6 has its own
# dev set.  The test sets are read by `make eval` only.

MODEL_DIR   = $(BUILD)/models
MODEL_LEX   = models/lexicon.fenci
MODEL_OPTS ?= --iters 20 --patience 4 --seed 1
MODEL_NICE ?= nice
MODEL_TRAIN = $(MODEL_NICE) ./$(BIN) train --lexicon $(MODEL_LEX) $(MODEL_OPTS)

.PHONY: models eval eval-pku eval-msr eval-ctb eval-ambiguity

models: models/pku.fenci models/msr.fenci models/ctb.fenci

# People's Daily 1998-01: the id token's day (19980128..31 = dev).
$(MODEL_DIR)/pd.train $(MODEL_DIR)/pd.dev: $(DATA)/pd1998-01/199801.txt
	@mkdir -p $(MODEL_DIR)
	awk 'NF { d = substr($$1, 1, 8); if (d >= "19980128" && d <= "19980131") print > "$(MODEL_DIR)/pd.dev"; else print > "$(MODEL_DIR)/pd.train" }' $<

# msra-ner train: the last 10% of the lines are dev.
$(MODEL_DIR)/msr.train $(MODEL_DIR)/msr.dev: $(DATA)/msra-ner/train.wordtag.txt
	@mkdir -p $(MODEL_DIR)
	n=$$(wc -l < $<); k=$$((n - n / 10)); \
	head -n $$k $< > $(MODEL_DIR)/msr.train; tail -n +$$((k + 1)) $< > $(MODEL_DIR)/msr.dev

models/pku.fenci: $(BIN) $(MODEL_LEX) $(MODEL_DIR)/pd.train $(MODEL_DIR)/pd.dev
	$(MODEL_TRAIN) --train $(MODEL_DIR)/pd.train --format pd --dev $(MODEL_DIR)/pd.dev \
	  --meta model=pku --meta standard=PKU \
	  --meta corpus="pd1998-01 (People's Daily 1998-01, PKU annotation) without 1998-01-28..31" \
	  --meta dev="pd1998-01 articles of 1998-01-28..31" -o $@

# The MSR model's training-word lexicon also gets the SIGHAN 2005 MSR
# training vocabulary (msr_training_words.utf8: training data of the MSR
# standard, about twice msra-ner's size).  msra-ner's text is part of that
# corpus, so the words that occur only in the dev slice (not in its training
# 90%) are left out: dev stays clean, and dev choices stay honest.  (On dev,
# giving a model trained on half of msra-ner train the vocabulary of all of
# it gained 0.55 F1.)
$(MODEL_DIR)/msr.words: $(MODEL_DIR)/msr.train $(MODEL_DIR)/msr.dev $(DATA)/sighan2005/msr_training_words.utf8
	awk 'FNR == 1 { f++ } \
	  f == 1 { for (i = 1; i <= NF; i++) { w = $$i; sub(/\/[^\/]*$$/, "", w); tr[w] = 1 } next } \
	  f == 2 { for (i = 1; i <= NF; i++) { w = $$i; sub(/\/[^\/]*$$/, "", w); if (!(w in tr)) dv[w] = 1 } next } \
	  NF && !($$1 in dv) { print $$1 }' $^ > $@

models/msr.fenci: $(BIN) $(MODEL_LEX) $(MODEL_DIR)/msr.train $(MODEL_DIR)/msr.dev $(MODEL_DIR)/msr.words
	$(MODEL_TRAIN) --train $(MODEL_DIR)/msr.train --format msr --dev $(MODEL_DIR)/msr.dev \
	  --words $(MODEL_DIR)/msr.words \
	  --meta words="SIGHAN 2005 MSR training vocabulary (msr_training_words.utf8) without the words only in dev" \
	  --meta model=msr --meta standard=MSR \
	  --meta corpus="msra-ner train.wordtag.txt (SIGHAN 2006 MSRA NER), first 90% of lines" \
	  --meta dev="msra-ner train.wordtag.txt, last 10% of lines" -o $@

models/ctb.fenci: $(BIN) $(MODEL_LEX) $(DATA)/ctb6/ctb6.train.seg $(DATA)/ctb6/ctb6.dev.seg
	$(MODEL_TRAIN) --train $(DATA)/ctb6/ctb6.train.seg --format ctb --dev $(DATA)/ctb6/ctb6.dev.seg \
	  --meta model=ctb --meta standard=CTB6 \
	  --meta corpus="CTB6 train (ctb6.train.seg)" --meta dev="CTB6 dev (ctb6.dev.seg)" -o $@

# ------------------------------------------------------------------ eval

EVAL_DIR = $(BUILD)/eval
SIGHAN   = $(DATA)/sighan2005

# $(call fc_eval,NAME,RAW,GOLD,WORDS): segment RAW with models/NAME.fenci,
# score it, then time the segmenter on RAW repeated 20 times.
define fc_eval
	@mkdir -p $(EVAL_DIR)
	@./$(BIN) cut -q -m models/$(1).fenci $(2) > $(EVAL_DIR)/$(1).out
	@printf '%-4s ' $(1); ./$(BIN) eval $(3) $(EVAL_DIR)/$(1).out --words $(4) | head -1
	@for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat $(2); done > $(EVAL_DIR)/$(1).big
	@s=$$(date +%s.%N); ./$(BIN) cut -q -m models/$(1).fenci $(EVAL_DIR)/$(1).big > /dev/null; e=$$(date +%s.%N); \
	  b=$$(wc -c < $(EVAL_DIR)/$(1).big); c=$$(LC_ALL=C.UTF-8 wc -m < $(EVAL_DIR)/$(1).big); \
	  awk -v b=$$b -v c=$$c -v s=$$s -v e=$$e -v n=$(1) 'BEGIN { printf "%-4s throughput %.1f MB/s, %.2f M characters/s (%d bytes, %d characters in %.3f s, fenci cut end to end)\n", n, b / (e - s) / 1e6, c / (e - s) / 1e6, b, c, e - s }'
endef

$(EVAL_DIR)/ctb.raw $(EVAL_DIR)/ctb.words: $(DATA)/ctb6/ctb6.test.seg $(DATA)/ctb6/ctb6.train.seg
	@mkdir -p $(EVAL_DIR)
	sed 's/ //g' $(DATA)/ctb6/ctb6.test.seg > $(EVAL_DIR)/ctb.raw
	tr -s ' ' '\n' < $(DATA)/ctb6/ctb6.train.seg | sed '/^$$/d' | LC_ALL=C sort -u > $(EVAL_DIR)/ctb.words

eval-pku: $(BIN)
	$(call fc_eval,pku,$(SIGHAN)/pku_test.utf8,$(SIGHAN)/pku_test_gold.utf8,$(SIGHAN)/pku_training_words.utf8)

eval-msr: $(BIN)
	$(call fc_eval,msr,$(SIGHAN)/msr_test.utf8,$(SIGHAN)/msr_test_gold.utf8,$(SIGHAN)/msr_training_words.utf8)

eval-ctb: $(BIN) $(EVAL_DIR)/ctb.raw $(EVAL_DIR)/ctb.words
	$(call fc_eval,ctb,$(EVAL_DIR)/ctb.raw,$(DATA)/ctb6/ctb6.test.seg,$(EVAL_DIR)/ctb.words)

# The ambiguity suite (eval/ambiguity/README.md): sentences fully right and
# critical spans right, on its dev part, its held-out part and both, for each
# model and for the lexicon mode (--fast, the default model's lexicon).  The
# corpus sentences are checked against $(DATA) when it is there.
AMB_PY    ?= /usr/bin/python3
AMB_SCORE  = $(AMB_PY) eval/ambiguity/score.py --fenci ./$(BIN) --data $(DATA)

eval-ambiguity: $(BIN)
	@$(AMB_SCORE) --check
	@for m in ctb pku msr; do $(AMB_SCORE) -m models/$$m.fenci --name $$m || exit 1; done
	@$(AMB_SCORE) -m models/ctb.fenci --fast --name fast

eval: eval-pku eval-msr eval-ctb eval-ambiguity

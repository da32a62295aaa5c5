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
MODEL_TRAIN = $(MODEL_NICE) ./$(BIN) train --lexicon $(MODEL_LEX) --share-lexicon $(MODEL_OPTS)

.PHONY: models eval eval-pku eval-msr eval-ctb eval-ambiguity eval-pos-files

models: models/pku.fenci models/msr.fenci models/ctb.fenci

# People's Daily 1998-01: the id token's day (19980128..31 = dev).
$(MODEL_DIR)/pd.train $(MODEL_DIR)/pd.dev: $(DATA)/pd1998-01/199801.txt
	@mkdir -p $(MODEL_DIR)
	awk 'NF { d = substr($$1, 1, 8); if (d >= "19980128" && d <= "19980131") print > "$(MODEL_DIR)/pd.dev"; else print > "$(MODEL_DIR)/pd.train" }' $<

# The POS tagger (added to models/lexicon.fenci by the Makefile's lexicon
# rule): pd1998-01 articles of 01-01..24 train it, 01-25..27 are its dev
# set (iterations), 01-28..31 its test (make eval-pos only).
$(MODEL_DIR)/pos.train $(MODEL_DIR)/pos.dev $(MODEL_DIR)/pos.test: $(DATA)/pd1998-01/199801.txt
	@mkdir -p $(MODEL_DIR)
	awk 'NF { d = substr($$1, 1, 8); if (d >= "19980128" && d <= "19980131") print > "$(MODEL_DIR)/pos.test"; \
	  else if (d >= "19980125") print > "$(MODEL_DIR)/pos.dev"; else print > "$(MODEL_DIR)/pos.train" }' $<

# The POS tagger and the name recogniser are trained twice: on their
# training part, with the dev part scored after each iteration, which
# chooses the number of iterations; then on training and dev together for
# that many iterations (fc_refit).  The second run's weights are shipped; the
# dev score recorded with them is the first run's.
POS_OPTS  = --task pos --format pd --seed 1 --prune 600 --lexicon $(MODEL_DIR)/lexicon.base
POS_TRAIN = $(MODEL_NICE) ./$(BIN) train $(POS_OPTS) --train $(MODEL_DIR)/pos.train --dev $(MODEL_DIR)/pos.dev \
  --iters 15 --patience 3
POS_REFIT = $(MODEL_NICE) ./$(BIN) train $(POS_OPTS) --train $(MODEL_DIR)/pos.traindev \
  --meta pos_corpus="pd1998-01 articles of 1998-01-01..27" \
  --meta pos_dev="pd1998-01 articles of 1998-01-25..27 (chose the iterations training on 01..24, then trained on)"
$(MODEL_DIR)/pos.traindev: $(MODEL_DIR)/pos.train $(MODEL_DIR)/pos.dev
	cat $^ > $@

# $(call fc_refit,TASK,METRIC,DEV-RUN-MODEL,REFIT-COMMAND): the refit run for
# the iterations the dev run kept, recording the dev run's score.
fc_refit = it=$$(./$(BIN) dump $(3) | sed -n 's/^$(1)_iterations=//p'); \
  sc=$$(./$(BIN) dump $(3) | sed -n 's/^$(1)_dev_$(2)=//p'); \
  test -n "$$it" && test -n "$$sc" && $(4) --iters $$it --meta $(1)_dev_$(2)=$$sc

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

# The throughput input of eval-pos and eval-ner (eval-pku writes the same).
$(EVAL_DIR)/pku.big: $(SIGHAN)/pku_test.utf8
	@mkdir -p $(EVAL_DIR)
	@for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat $<; done > $@

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

# Part-of-speech tags on the held-out PD days (1998-01-28..31): accuracy with
# gold words (fenci tag --words), and segmentation+POS F1 of fenci tag with
# the pku model (whose iteration count was chosen on these days: its
# segmentation half is not strictly held out) and the default ctb model.
POS_WORDS = awk '{ o = ""; for (i = 2; i <= NF; i++) { w = $$i; sub(/^\[/, "", w); sub(/\/[^\/]*$$/, "", w); o = o (o == "" ? "" : " ") w } print o }'
POS_GOLD  = awk '{ o = ""; for (i = 2; i <= NF; i++) { w = $$i; sub(/^\[/, "", w); sub(/\][a-z]+$$/, "", w); o = o (o == "" ? "" : " ") w } print o }'
$(EVAL_DIR)/pos.words: $(MODEL_DIR)/pos.test
	@mkdir -p $(EVAL_DIR)
	@$(POS_WORDS) $< > $@
$(EVAL_DIR)/pos.gold: $(MODEL_DIR)/pos.test
	@mkdir -p $(EVAL_DIR)
	@$(POS_GOLD) $< > $@
$(EVAL_DIR)/pos.raw: $(EVAL_DIR)/pos.words
	@sed 's/ //g' $< > $@
# The held-out text and its gold (also read by make bench).
eval-pos-files: $(EVAL_DIR)/pos.words $(EVAL_DIR)/pos.gold $(EVAL_DIR)/pos.raw
eval-pos: $(BIN) eval-pos-files $(MODEL_DIR)/pos.traindev $(EVAL_DIR)/pku.big
	@./$(BIN) tag --words $(EVAL_DIR)/pos.words > $(EVAL_DIR)/pos.pred
	@printf 'pos  '; $(AMB_PY) eval/pos/score.py $(EVAL_DIR)/pos.gold $(EVAL_DIR)/pos.pred --oov $(MODEL_DIR)/pos.traindev
	@for m in pku ctb; do ./$(BIN) tag -q -m $$m $(EVAL_DIR)/pos.raw > $(EVAL_DIR)/pos.$$m; \
	  printf 'pos  fenci tag -m %s: ' $$m; $(AMB_PY) eval/pos/score.py --joint $(EVAL_DIR)/pos.gold $(EVAL_DIR)/pos.$$m; done
	@s=$$(date +%s.%N); ./$(BIN) tag -q -m pku $(EVAL_DIR)/pku.big > /dev/null; e=$$(date +%s.%N); \
	  b=$$(wc -c < $(EVAL_DIR)/pku.big); awk -v b=$$b -v s=$$s -v e=$$e 'BEGIN { printf "pos  fenci tag throughput %.1f MB/s (%d bytes, SIGHAN PKU test x20)\n", b / (e - s) / 1e6, b }'

# Names on the MSRA NER test (exact character spans, per type), and on
# People's Daily NER example.test: 3270 of its 4636 sentences are also in
# msra-ner train (the recogniser's training text), so it is scored whole
# and on the 1366 others; then the throughput of fenci ner.
NER_SCORE = $(AMB_PY) eval/ner/score.py
eval-ner: $(BIN) $(EVAL_DIR)/pku.big
	@mkdir -p $(EVAL_DIR)
	@./$(BIN) ner $(DATA)/msra-ner/test.raw.txt > $(EVAL_DIR)/msra.ner
	@printf 'ner  MSRA test: '; $(NER_SCORE) --msra $(DATA)/msra-ner/test_gold.chunktag.txt $(EVAL_DIR)/msra.ner
	@$(NER_SCORE) --bio-text $(DATA)/ner-extra/peoples-daily-ner/example.test > $(EVAL_DIR)/pdner.txt
	@./$(BIN) ner $(EVAL_DIR)/pdner.txt > $(EVAL_DIR)/pdner.ner
	@printf 'ner  People'"'"'s Daily NER test, all: '; $(NER_SCORE) --bio $(DATA)/ner-extra/peoples-daily-ner/example.test $(EVAL_DIR)/pdner.ner
	@awk '{ o = ""; for (i = 1; i <= NF; i++) { w = $$i; sub(/\/[a-z]+$$/, "", w); o = o w } print o }' $(DATA)/msra-ner/train.wordtag.txt > $(EVAL_DIR)/msra.train.txt
	@printf 'ner  People'"'"'s Daily NER test, sentences not in msra-ner train: '; \
	  $(NER_SCORE) --bio $(DATA)/ner-extra/peoples-daily-ner/example.test $(EVAL_DIR)/pdner.ner --exclude $(EVAL_DIR)/msra.train.txt
	@for part in dev test; do sed 's/ //g' $(DATA)/ctb6/ctb6.$$part.seg > $(EVAL_DIR)/ctbn.$$part.raw; \
	  ./$(BIN) cut -q $(EVAL_DIR)/ctbn.$$part.raw > $(EVAL_DIR)/ctbn.$$part.seg; \
	  ./$(BIN) ner $(EVAL_DIR)/ctbn.$$part.raw > $(EVAL_DIR)/ctbn.$$part.ner; \
	  $(AMB_PY) eval/ner/merge_names.py $(EVAL_DIR)/ctbn.$$part.seg $(EVAL_DIR)/ctbn.$$part.ner > $(EVAL_DIR)/ctbn.$$part.joined; \
	  printf 'ner  CTB6 %s, default model: ' $$part; ./$(BIN) eval $(DATA)/ctb6/ctb6.$$part.seg $(EVAL_DIR)/ctbn.$$part.seg | head -1 | awk '{ printf "F1 %s; ", $$6 }'; \
	  printf 'with the PER/LOC names found joined into one token: '; ./$(BIN) eval $(DATA)/ctb6/ctb6.$$part.seg $(EVAL_DIR)/ctbn.$$part.joined | head -1 | awk '{ print "F1 " $$6 }'; done
	@s=$$(date +%s.%N); ./$(BIN) ner $(EVAL_DIR)/pku.big > /dev/null; e=$$(date +%s.%N); \
	  b=$$(wc -c < $(EVAL_DIR)/pku.big); c=$$(LC_ALL=C.UTF-8 wc -m < $(EVAL_DIR)/pku.big); \
	  awk -v b=$$b -v c=$$c -v s=$$s -v e=$$e 'BEGIN { printf "ner  fenci ner throughput %.1f MB/s, %.2f M characters/s (SIGHAN PKU test x20)\n", b / (e - s) / 1e6, c / (e - s) / 1e6 }'

eval: eval-pku eval-msr eval-ctb eval-ambiguity eval-pos eval-ner

# ------------------------------------------------------------ keyword tables

# `fenci keywords` needs the IDF of the lexicon words (section KIDF) and the
# default stop words (section KSTP, from data/stopwords-zh.txt); `fenci idf`
# adds both to models/lexicon.fenci in place (the trained models copy them
# from it).  Documents, training parts only: the pd1998-01 articles without
# the dev days (the id's date-page-article groups the lines), and pseudo-
# documents of about 600 characters (1800 bytes, near the mean pd article)
# of consecutive lines of msra-ner train (first 90%) and CTB6 train.  Each
# document is the gold words joined, segmented again by the lexicon.
$(MODEL_DIR)/kw.docs: $(MODEL_DIR)/pd.train $(MODEL_DIR)/msr.train $(DATA)/ctb6/ctb6.train.seg
	LC_ALL=C awk 'NF { a = substr($$1, 1, 15); s = ""; \
	    for (i = 2; i <= NF; i++) { w = $$i; sub(/^\[/, "", w); sub(/\][a-z]+$$/, "", w); sub(/\/[A-Za-z]+$$/, "", w); s = s w } \
	    if (a != prev && doc != "") { print doc; doc = "" } prev = a; doc = doc s } \
	  END { if (doc != "") print doc }' $(MODEL_DIR)/pd.train > $@.tmp
	LC_ALL=C awk 'FNR == 1 && doc != "" { print doc; doc = "" } \
	  { for (i = 1; i <= NF; i++) { w = $$i; if (FILENAME ~ /msr/) sub(/\/[a-z]+$$/, "", w); doc = doc w } \
	    if (length(doc) >= 1800) { print doc; doc = "" } } \
	  END { if (doc != "") print doc }' $(MODEL_DIR)/msr.train $(DATA)/ctb6/ctb6.train.seg >> $@.tmp
	mv $@.tmp $@

# (the Makefile's lexicon rule runs it on the compiled lexicon, before the
# taggers are added)
KW_IDF = ./$(BIN) idf $(MODEL_DIR)/lexicon.base --docs $(MODEL_DIR)/kw.docs --stopwords data/stopwords-zh.txt \
  --meta idf_corpus="pd1998-01 articles without 1998-01-28..31; msra-ner train first 90% and CTB6 train in pseudo-documents of 1800 bytes" \
  --meta stopwords_source="stopwords-iso 1.1.0 (npm), key zh, MIT licence"

# The name recogniser (added to models/lexicon.fenci after the POS tagger):
# msra-ner train, first 90% (the MSR model's training part), dev its last
# 10%, then refit on all of msra-ner train (fc_refit above).  The names of
# People's Daily 1998-01 (without 01-28..31) join its gazetteer, not its
# training text (dev F1 85.04 -> 85.17; as training text they cost 4 points).
NER_OPTS  = --task ner --format msr --seed 1 --prune 500 --names pd:$(MODEL_DIR)/pd.train
NER_TRAIN = $(MODEL_NICE) ./$(BIN) train $(NER_OPTS) --train $(MODEL_DIR)/msr.train --dev $(MODEL_DIR)/msr.dev \
  --iters 40 --patience 4
NER_REFIT = $(MODEL_NICE) ./$(BIN) train $(NER_OPTS) --train $(DATA)/msra-ner/train.wordtag.txt \
  --meta ner_corpus="msra-ner train.wordtag.txt, all lines" \
  --meta ner_dev="msra-ner train.wordtag.txt, last 10% of lines (chose the iterations training on the first 90%, then trained on)"

# ------------------------------------------------- multi-criteria experiment

# Each standard's segmenter trained alone (as `make models` does) and as a
# multi-criteria model: its corpus together with the other two standards'
# (fenci train --also: weights shared by all plus one copy per standard,
# the model gets shared + its own).  Dev F1 is printed by the trainer (the
# choice is made on it); then test F1, the ambiguity suite, size and
# throughput of both.  The models go to $(MODEL_DIR)/mc/, not models/.
MC_DIR   = $(MODEL_DIR)/mc
MC_TRAIN = $(MODEL_NICE) ./$(BIN) train --lexicon $(MC_DIR)/lexicon.fenci --share-lexicon $(MODEL_OPTS)
MC_CTB   = ctb:$(DATA)/ctb6/ctb6.train.seg
MC_PD    = pd:$(MODEL_DIR)/pd.train
MC_MSR   = msr:$(MODEL_DIR)/msr.train
MC_ARGS_pku = --train $(MODEL_DIR)/pd.train --format pd --dev $(MODEL_DIR)/pd.dev
MC_ARGS_msr = --train $(MODEL_DIR)/msr.train --format msr --dev $(MODEL_DIR)/msr.dev --words $(MODEL_DIR)/msr.words
MC_ARGS_ctb = --train $(DATA)/ctb6/ctb6.train.seg --format ctb --dev $(DATA)/ctb6/ctb6.dev.seg
MC_ALSO_pku = --also $(MC_CTB) --also $(MC_MSR)
MC_ALSO_msr = --also $(MC_CTB) --also $(MC_PD)
MC_ALSO_ctb = --also $(MC_PD) --also $(MC_MSR)
MC_TEST_pku = $(SIGHAN)/pku_test.utf8 $(SIGHAN)/pku_test_gold.utf8 $(SIGHAN)/pku_training_words.utf8
MC_TEST_msr = $(SIGHAN)/msr_test.utf8 $(SIGHAN)/msr_test_gold.utf8 $(SIGHAN)/msr_training_words.utf8
MC_TEST_ctb = $(EVAL_DIR)/ctb.raw $(DATA)/ctb6/ctb6.test.seg $(EVAL_DIR)/ctb.words

.PHONY: eval-multi
eval-multi: $(BIN) $(MODEL_DIR)/pd.train $(MODEL_DIR)/pd.dev $(MODEL_DIR)/msr.train $(MODEL_DIR)/msr.dev \
    $(MODEL_DIR)/msr.words $(EVAL_DIR)/ctb.raw $(EVAL_DIR)/ctb.words $(EVAL_DIR)/pku.big | $(MODEL_LEX)
	@mkdir -p $(MC_DIR)
	@cp $(MODEL_LEX) $(MC_DIR)/lexicon.fenci
	@for m in pku msr ctb; do \
	  case $$m in pku) a="$(MC_ARGS_pku)"; x="$(MC_ALSO_pku)"; t="$(MC_TEST_pku)";; \
	    msr) a="$(MC_ARGS_msr)"; x="$(MC_ALSO_msr)"; t="$(MC_TEST_msr)";; \
	    ctb) a="$(MC_ARGS_ctb)"; x="$(MC_ALSO_ctb)"; t="$(MC_TEST_ctb)";; esac; \
	  set -- $$t; \
	  for v in alone multi; do \
	    if [ $$v = multi ]; then xa="$$x"; else xa=""; fi; \
	    $(MC_TRAIN) $$a $$xa -o $(MC_DIR)/$$m-$$v.fenci 2>&1 | tail -1 | sed "s/^fenci train: /mc   $$m $$v: /"; \
	    ./$(BIN) cut -q -m $(MC_DIR)/$$m-$$v.fenci $$1 > $(MC_DIR)/$$m-$$v.out; \
	    printf 'mc   %s %-5s test: ' $$m $$v; ./$(BIN) eval $$2 $(MC_DIR)/$$m-$$v.out --words $$3 | head -1; \
	    $(AMB_SCORE) -m $(MC_DIR)/$$m-$$v.fenci --name "mc   $$m $$v ambiguity" | sed 's/ dev .*| *all/ all/'; \
	    s=$$(date +%s.%N); ./$(BIN) cut -q -m $(MC_DIR)/$$m-$$v.fenci $(EVAL_DIR)/pku.big > /dev/null; e=$$(date +%s.%N); \
	    awk -v b=$$(wc -c < $(EVAL_DIR)/pku.big) -v s=$$s -v e=$$e -v m=$$m -v v=$$v -v z=$$(wc -c < $(MC_DIR)/$$m-$$v.fenci) \
	      'BEGIN { printf "mc   %s %-5s %.1f MB, throughput %.1f MB/s (SIGHAN PKU test x20)\n", m, v, z / 1e6, b / (e - s) / 1e6 }'; \
	  done; done

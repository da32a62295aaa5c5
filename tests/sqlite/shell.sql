-- tests/sqlite/shell.sql - the extension in the sqlite3 shell (run.sh loads it
-- with -cmd '.load ...' and compares the output with shell.expect).  The
-- model is found by name in $FENCI_MODEL_DIR.
.bail off
SELECT fenci_tokens('他在北京大學生活了一个月。ＡＢＣ', 'document', 'model sqlite_test', 1);
CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize = 'fenci model sqlite_test');
INSERT INTO docs(rowid, title, body) VALUES
  (1, '新闻', '他在北京大学生活了一个月。'),
  (2, '体育', '中华人民共和国成立了'),
  (3, '天气', '我们的大學生活很好'),
  (4, 'ＡＢＣ', 'ＡＢＣ公司的IPHONE和電腦'),
  (5, '新闻', '北京，大学，生活');
INSERT INTO docs(rowid, body) VALUES (6, CAST(x'ffe58c97e4baacc080e5a4a7e5ada6' AS TEXT));
SELECT 'word', group_concat(rowid) FROM docs WHERE docs MATCH '大学';
SELECT 'phrase', group_concat(rowid) FROM docs WHERE docs MATCH '"北京大学"';
SELECT 'two-word query', group_concat(rowid) FROM docs WHERE docs MATCH '北京大学生活';
SELECT 'prefix', group_concat(rowid) FROM docs WHERE docs MATCH '北京大*';
SELECT 'near', group_concat(rowid) FROM docs WHERE docs MATCH 'NEAR(北京 生活, 1)';
SELECT 'column', group_concat(rowid) FROM docs WHERE docs MATCH 'title:新闻';
SELECT 'fold', group_concat(rowid) FROM docs WHERE docs MATCH 'abc AND iphone AND 电脑';
SELECT 'traditional', group_concat(rowid) FROM docs WHERE docs MATCH '大學';
SELECT 'punctuation', count(*) FROM docs WHERE docs MATCH '"，"';
SELECT 'invalid', group_concat(rowid) FROM docs WHERE docs MATCH '北京' AND rowid = 6;
SELECT highlight(docs, 1, '[', ']') FROM docs WHERE docs MATCH '大学 OR abc' AND rowid < 6 ORDER BY rowid;
SELECT hex(highlight(docs, 1, '[', ']')) FROM docs WHERE docs MATCH '北京' AND rowid = 6;
SELECT snippet(docs, 1, '<', '>', '...', 2) FROM docs WHERE docs MATCH '共和国';
UPDATE docs SET body = '南京市长江大桥' WHERE rowid = 1;
DELETE FROM docs WHERE rowid = 2;
SELECT 'after update', group_concat(rowid) FROM docs WHERE docs MATCH '北京大学 OR 大桥 OR 人民';
INSERT INTO docs(docs) VALUES ('integrity-check');
-- two errors (stderr: "error in tokenizer constructor"), and why
CREATE VIRTUAL TABLE bad USING fts5(body, tokenize = 'fenci model no_such_model');
SELECT 'missing model', fenci_error() LIKE 'fenci: model ''no_such_model'' not found (tried %';
CREATE VIRTUAL TABLE bad2 USING fts5(body, tokenize = 'fenci model sqlite_test colour red');
SELECT fenci_error();

'use strict';
// Drive a node jieba for fenci's bench:
//   node jieba_node.js ENGINE FILE      (output on stdout)
// ENGINE: rs (@node-rs/jieba, no HMM), rs-hmm (@node-rs/jieba, HMM),
//         nodejieba (cppjieba, no HMM: its default), nodejieba-hmm,
//         rs-tag (@node-rs/jieba tag(), no HMM: its default), rs-tag-hmm.
// Reads FILE in chunks, segments each line on its own and writes the words joined by
// two spaces, one output line per input line (a trailing CR is dropped), so the
// output aligns with the gold line by line.  The tag engines write word/tag tokens
// joined by one space (jieba's tags; whitespace words dropped, as `fenci tag` does).
const fs = require('fs');

function nodeRs() {
  const { Jieba } = require('@node-rs/jieba');
  const { dict } = require('@node-rs/jieba/dict');
  return Jieba.withDict(dict); // `new Jieba()` has an empty dictionary in 2.x
}

// Each cutter maps one line (no newline) to its output text.
function makeCutter(engine) {
  if (engine === 'rs' || engine === 'rs-hmm') {
    const jieba = nodeRs();
    const hmm = engine === 'rs-hmm';
    return (s) => jieba.cut(s, hmm).join('  ');
  }
  if (engine === 'rs-tag' || engine === 'rs-tag-hmm') {
    const jieba = nodeRs();
    const hmm = engine === 'rs-tag-hmm';
    const space = /^\s+$/;
    return (s) => {
      const out = [];
      for (const t of jieba.tag(s, hmm)) {
        if (!space.test(t.word)) out.push(t.word + '/' + t.tag);
      }
      return out.join(' ');
    };
  }
  if (engine === 'nodejieba' || engine === 'nodejieba-hmm') {
    // nodejieba assigns the globals dict, hmmDict, userDict, idfDict, stopWordDict.
    const nodejieba = require('nodejieba');
    nodejieba.load();
    const hmm = engine === 'nodejieba-hmm';
    return (s) => nodejieba.cut(s, hmm).join('  ');
  }
  throw new Error('unknown engine ' + engine);
}

function main() {
  const [engine, file] = process.argv.slice(2);
  if (!engine || !file) {
    process.stderr.write('usage: node jieba_node.js rs|rs-hmm|nodejieba|nodejieba-hmm|rs-tag|rs-tag-hmm FILE\n');
    process.exit(2);
  }
  const cut = makeCutter(engine);
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(1 << 20);
  let carry = '';
  let out = [];
  let outLen = 0;
  const flush = () => {
    if (!out.length) return;
    const b = Buffer.from(out.join(''), 'utf8');
    for (let off = 0; off < b.length;) {
      try {
        off += fs.writeSync(1, b, off, b.length - off);
      } catch (e) {
        if (e.code !== 'EAGAIN') throw e; // stdout may be a non-blocking pipe
      }
    }
    out = [];
    outLen = 0;
  };
  const doLine = (line) => {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const s = line.length ? cut(line) + '\n' : '\n';
    out.push(s);
    outLen += s.length;
    if (outLen > (1 << 20)) flush();
  };
  const decoder = new (require('string_decoder').StringDecoder)('utf8');
  for (;;) {
    const n = fs.readSync(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    const text = carry + decoder.write(buf.subarray(0, n));
    const lines = text.split('\n');
    carry = lines.pop();
    for (const l of lines) doLine(l);
  }
  carry += decoder.end();
  if (carry.length) doLine(carry);
  flush();
  fs.closeSync(fd);
}

main();

#!/usr/bin/python3
"""fenci benchmark: accuracy, throughput, start-up time and peak RSS of fenci and its peers.

Run from the project root (make bench does):  /usr/bin/python3 bench/run.py [options]

Every tool segments the same inputs in one run:
  * accuracy: the SIGHAN 2005 PKU and MSR raw test files (unrepeated), scored against
    *_test_gold.utf8 with `fenci eval GOLD OUTPUT`;
  * throughput: bench/out/bench.txt, the PKU + MSR raw test text repeated to about 50 MB
    (python3-jieba gets the first ~5 MB of it, it is slow); wall time of the whole
    process, start-up and writing the output file included;
  * start-up: a one-line input, median of 5 runs after one warm-up run;
  * throughput and start-up runs go in rounds (every tool once per round) so that other
    load on the machine falls on all tools alike;
  * peak RSS: the child's ru_maxrss from wait4(2) (what GNU time -v reports as "Maximum
    resident set size"), the largest over its runs.
Part-of-speech tagging and entities (`--only pos`), in the same rounds:
  * POS accuracy on the held-out People's Daily days (build/eval/pos.gold, .words, .raw
    from `make eval-pos-files`): joint segmentation+POS F1 of each tagger on pos.raw
    (eval/pos/score.py --joint, jieba's tags mapped to PKU's by bench/pos_tags.py),
    and fenci's accuracy with the gold words (fenci tag --words);
  * throughput of fenci tag, fenci ner, @node-rs/jieba tag() and jieba.posseg (on the
    first --pos-py-mb MB) on the same large input, in MB/s and M characters/s.
The tables go to stdout and bench/out/results.md.
"""
import argparse
import datetime
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)  # pos_tags, also when run.py is loaded from elsewhere (python/bench.py)
import pos_tags  # noqa: E402

ROOT = os.path.dirname(BENCH)
SEP2 = '  '


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_timed(cmd, stdin_path=None, out_path=os.devnull, err_path=os.devnull, env=None):
    """Run cmd; return (exit status, wall seconds, peak RSS in KiB, CPU seconds)."""
    stdin = open(stdin_path, 'rb') if stdin_path else subprocess.DEVNULL
    with open(out_path, 'wb') as out, open(err_path, 'ab') as err:
        t0 = time.perf_counter()
        try:
            p = subprocess.Popen(cmd, stdin=stdin, stdout=out, stderr=err, env=env)
        except OSError as e:
            err.write(('bench: cannot run %s: %s\n' % (cmd[0], e)).encode())
            if stdin_path:
                stdin.close()
            return 127, 0.0, 0, 0.0
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
    if stdin_path:
        stdin.close()
    return p.returncode, wall, ru.ru_maxrss, ru.ru_utime + ru.ru_stime


def loadavg():
    try:
        return open('/proc/loadavg').read().split()[0]
    except OSError:
        return '?'


def count_lines(path):
    n = 0
    with open(path, 'rb') as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            n += b.count(b'\n')
    return n


def count_chars(path):
    """UTF-8 characters: the bytes that are not continuation bytes (10xxxxxx)."""
    n = 0
    cont = bytes(range(0x80, 0xc0))
    with open(path, 'rb') as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            n += len(b.translate(None, cont))
    return n


def write_head(block, mb, path):
    """The first mb MB of block repeated, cut at a line end, into path (if it differs)."""
    head = block * (int(mb * 1e6 // len(block)) + 1)
    head = head[:head.rfind(b'\n', 0, int(mb * 1e6)) + 1]
    if not (os.path.exists(path) and open(path, 'rb').read() == head):
        with open(path, 'wb') as f:
            f.write(head)


def build_inputs(data, out, size_mb, py_mb, pos_py_mb=2):
    sig = os.path.join(data, 'sighan2005')
    srcs = [os.path.join(sig, 'pku_test.utf8'), os.path.join(sig, 'msr_test.utf8')]
    block = b''.join(open(p, 'rb').read() for p in srcs)
    reps = max(1, round(size_mb * 1e6 / len(block)))
    big = os.path.join(out, 'bench.txt')
    if not (os.path.exists(big) and os.path.getsize(big) == reps * len(block)):
        log('bench: writing %s (%d x PKU+MSR test text)' % (big, reps))
        with open(big + '.tmp', 'wb') as f:
            for _ in range(reps):
                f.write(block)
        os.replace(big + '.tmp', big)
    # python3-jieba's slice: the first py_mb MB of bench.txt, cut at a line end.
    small = os.path.join(out, 'bench-small.txt')
    write_head(block, py_mb, small)
    # jieba.posseg's slice, smaller still: it is about 5 times slower than jieba.cut.
    possmall = os.path.join(out, 'bench-pos-small.txt')
    write_head(block, pos_py_mb, possmall)
    one = os.path.join(out, 'oneline.txt')
    first = open(srcs[0], 'rb').readline()
    with open(one, 'wb') as f:
        f.write(first)
    return {'big': big, 'small': small, 'possmall': possmall, 'one': one,
            'pku': srcs[0], 'msr': srcs[1],
            'pku_gold': os.path.join(sig, 'pku_test_gold.utf8'),
            'msr_gold': os.path.join(sig, 'msr_test_gold.utf8'),
            'reps': reps}


def tools(fenci, driver):
    """The rows: segmentation rows, then the 'pos' group (tagging and entities).  Keys:
    cmd: the command (a pos row's also runs on pos.raw, unless pos_acc is False);
    words_cmd: its run on pos.words; small / src: the throughput input; score: SIGHAN
    segmentation F1 or not; tagmap: jieba tags to map; speed: timed or not."""
    node = ['node', os.path.join(BENCH, 'jieba_node.js')]
    py = ['/usr/bin/python3', '-m', 'jieba', '-q', '-d', ' ']
    t = []
    # fenci: one thread pinned with -j 1 unless the row is about -j.
    for mode, flags in (('lexicon (--fast)', ['--fast']), ('default', [])):
        for j in (1, 2):
            t.append({'tool': 'fenci', 'mode': mode + ('' if j == 1 else ', -j 2'),
                      'fenci': True, 'jobs': j, 'score': j == 1, 'key': 'fenci%s-j%d' % (flags and '-fast' or '', j),
                      'cmd': lambda f, flags=flags, j=j: [fenci, 'cut'] + flags + ['-j', str(j), '-d', SEP2, f]})
    t.append({'tool': '@node-rs/jieba', 'mode': 'no HMM', 'key': 'noders', 'baseline': True,
              'cmd': lambda f: node + ['rs', f]})
    t.append({'tool': '@node-rs/jieba', 'mode': 'HMM', 'key': 'noders-hmm',
              'cmd': lambda f: node + ['rs-hmm', f]})
    t.append({'tool': 'nodejieba', 'mode': 'no HMM (default)', 'key': 'nodejieba',
              'cmd': lambda f: node + ['nodejieba', f]})
    t.append({'tool': 'nodejieba', 'mode': 'HMM', 'key': 'nodejieba-hmm',
              'cmd': lambda f: node + ['nodejieba-hmm', f]})
    t.append({'tool': 'jieba (python3-jieba)', 'mode': 'HMM (default)', 'key': 'pyjieba',
              'small': True, 'cmd': lambda f: py + [f]})
    t.append({'tool': 'friso', 'mode': 'complex (mmseg)', 'key': 'friso', 'lossy': True,
              'cmd': lambda f: [driver, f], 'raw_cmd': lambda f: [driver, '--raw', f]})
    tag = [fenci, 'tag', '-j', '1']
    pos = {'group': 'pos', 'score': False}
    t.append(dict(pos, tool='fenci', mode='tag, default model (ctb)', key='fenci-tag', fenci=True,
                  cmd=lambda f: tag + [f], words_cmd=lambda f: tag + ['--words', f]))
    t.append(dict(pos, tool='fenci', mode='tag -m pku', key='fenci-tag-pku', fenci=True, speed=False,
                  cmd=lambda f: tag + ['-m', 'pku', f]))
    t.append(dict(pos, tool='fenci', mode='ner (entities, JSON)', key='fenci-ner', fenci=True,
                  pos_acc=False, cmd=lambda f: [fenci, 'ner', '-j', '1', f]))
    t.append(dict(pos, tool='@node-rs/jieba', mode='tag(), no HMM (default)', key='noders-tag',
                  tagmap=True, cmd=lambda f: node + ['rs-tag', f]))
    t.append(dict(pos, tool='@node-rs/jieba', mode='tag(), HMM', key='noders-tag-hmm', tagmap=True,
                  speed=False, cmd=lambda f: node + ['rs-tag-hmm', f]))
    t.append(dict(pos, tool='jieba (python3-jieba)', mode='posseg, HMM (default)', key='pyjieba-pos',
                  tagmap=True, src='possmall', cmd=lambda f: py + ['-p', '/', f]))
    return t


# --only GROUP: 'pos' also takes @node-rs/jieba's cut(), the yardstick of fenci ner.
def only_keys(spec, rows):
    keys = set()
    for k in filter(None, spec.split(',')):
        if k == 'pos':
            keys |= {t['key'] for t in rows if t.get('group') == 'pos'} | {'noders'}
        elif k == 'seg':
            keys |= {t['key'] for t in rows if not t.get('group')}
        else:
            keys.add(k)
    unknown = keys - {t['key'] for t in rows}
    if unknown:
        sys.exit('bench: --only: unknown key(s) %s; the keys are %s, and the groups seg and pos'
                 % (', '.join(sorted(unknown)), ', '.join(t['key'] for t in rows)))
    return keys


def score_pos(gold, pred, joint):
    """(segmentation F1, segmentation+POS F1) with joint, else (POS accuracy, None); or an error."""
    cmd = [sys.executable, os.path.join(ROOT, 'eval', 'pos', 'score.py')] + (['--joint'] if joint else [])
    try:
        r = subprocess.run(cmd + [gold, pred], capture_output=True, text=True, timeout=300)
    except OSError as e:
        return None, str(e)
    m = (re.search(r'segmentation F1 ([0-9.]+), segmentation\+POS F1 ([0-9.]+)', r.stdout) if joint
         else re.search(r'POS accuracy \(gold words\): ([0-9.]+)%', r.stdout))
    if r.returncode != 0 or not m:
        return None, ((r.stderr or r.stdout).strip().splitlines()[-1:] or ['scorer failed'])[0]
    return (float(m.group(1)), float(m.group(2)) if joint else None), None


def score(scorer, gold, output):
    try:
        r = subprocess.run(scorer + [gold, output], capture_output=True, text=True, timeout=300)
    except OSError as e:
        return None, str(e)
    m = re.search(r'F1\s*[:=]?\s*([0-9.]+)', r.stdout)
    if r.returncode != 0 or not m:
        return None, (r.stderr or r.stdout).strip().splitlines()[-1:] or ['scorer failed']
    f1 = float(m.group(1))
    return (f1 * 100 if f1 <= 1.0 else f1), None


def fmt(x, spec, na='n/a'):
    return na if x is None else format(x, spec)


def versions():
    v = {}
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ''
    for pkg, path in (('@node-rs/jieba', '@node-rs/jieba'), ('nodejieba', 'nodejieba')):
        try:
            v[pkg] = json.load(open(os.path.join(BENCH, 'node_modules', path, 'package.json')))['version']
        except (OSError, ValueError, KeyError):
            v[pkg] = '?'
    v['python3-jieba'] = sh("dpkg-query -W -f='${Version}' python3-jieba")
    v['friso'] = sh("dpkg-query -W -f='${Version}' libfriso-dev")
    v['node'] = sh('node --version')
    v['python'] = sh('/usr/bin/python3 --version').replace('Python ', '')
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--fenci', default='./fenci')
    ap.add_argument('--data', default='../shared/data')
    ap.add_argument('--out', default=os.path.join(BENCH, 'out'))
    ap.add_argument('--size-mb', type=float, default=50, help='throughput input size (MB, 10^6 bytes)')
    ap.add_argument('--py-mb', type=float, default=5, help='throughput input size for python3-jieba')
    ap.add_argument('--pos-py-mb', type=float, default=2, help='throughput input size for jieba.posseg')
    ap.add_argument('--pos-dir', default=os.path.join(ROOT, 'build', 'eval'),
                    help='where pos.gold, pos.words and pos.raw are (make eval-pos-files)')
    ap.add_argument('--startup-runs', type=int, default=5)
    ap.add_argument('--runs', type=int, default=3, help='throughput runs per tool (the fastest is kept)')
    ap.add_argument('--only', default='', help='comma-separated keys of the tools to run, or the '
                    'groups seg (segmentation rows) and pos (tagging and entities, with '
                    '@node-rs/jieba cut() for comparison)')
    ap.add_argument('--keep', action='store_true', help='keep the throughput outputs')
    ap.add_argument('--command', default='make bench', help='the command line shown in the results')
    a = ap.parse_args()

    os.makedirs(a.out, exist_ok=True)
    start_load = loadavg()
    if float(start_load) > 0.5:
        log('bench: warning: load average %s: other processes compete for the CPUs, '
            'wall times will suffer' % start_load)
    scorer = shlex.split(os.environ['FENCI_EVAL']) if os.environ.get('FENCI_EVAL') else [a.fenci, 'eval']
    driver = os.path.join(BENCH, 'out', 'friso_driver')  # built by bench/setup.sh
    all_tools = tools(a.fenci, driver)
    only = only_keys(a.only, all_tools)
    inp = build_inputs(a.data, a.out, a.size_mb, a.py_mb, a.pos_py_mb)
    errlog = os.path.join(a.out, 'stderr.log')
    open(errlog, 'w').close()
    # Warm the page cache so every tool reads the input from memory.
    for k in ('big', 'small', 'possmall', 'pku', 'msr'):
        count_lines(inp[k])
    lines = {k: count_lines(inp[k]) for k in ('big', 'small', 'possmall', 'pku', 'msr', 'one')}
    size = {k: os.path.getsize(inp[k]) for k in ('big', 'small', 'possmall')}

    fenci_ok = os.access(a.fenci, os.X_OK) and run_timed(
        [a.fenci, 'cut', '-j', '1', '-d', SEP2, inp['one']], err_path=errlog)[0] == 0
    if not fenci_ok:
        log('bench: %s is missing or `fenci cut` fails: fenci rows will read n/a' % a.fenci)

    rows = []
    for t in all_tools:
        if only and t['key'] not in only:
            continue
        r = dict(t, f1={}, pos={}, mbps=None, startup=None, rss=0, notes=[], walls=[], cpus=[], starts=[])
        rows.append(r)
        if t.get('fenci') and not fenci_ok:
            r['notes'].append('fenci not built')
            r['dead'] = True
    live = lambda: [r for r in rows if not r.get('dead')]
    pos_files = {k: os.path.join(a.pos_dir, 'pos.' + k) for k in ('gold', 'words', 'raw')}
    pos_ok = all(os.path.exists(p) for p in pos_files.values())
    if not pos_ok and any(r.get('group') == 'pos' for r in rows):
        log('bench: %s missing (make eval-pos-files DATA=...): no POS accuracy' % pos_files['gold'])

    # 1. accuracy, on the unrepeated test files
    for r in live():
        if not r.get('score', True):
            continue
        log('bench: accuracy: %s, %s' % (r['tool'], r['mode']))
        for c in ('pku', 'msr'):
            o = os.path.join(a.out, '%s.%s.txt' % (r['key'], c))
            rc, _, rss, _ = run_timed(r['cmd'](inp[c]), out_path=o, err_path=errlog)
            r['rss'] = max(r['rss'], rss)
            if rc != 0:
                r['notes'].append('failed on %s (exit %d)' % (c.upper(), rc))
                continue
            n = count_lines(o)
            if n != lines[c]:
                r['notes'].append('%s: %d lines out for %d in' % (c.upper(), n, lines[c]))
            f1, err = score(scorer, inp[c + '_gold'], o)
            if f1 is None:
                r['notes'].append('%s not scored: %s' % (c.upper(), ' '.join(err)))
            r['f1'][c] = f1
            if r.get('raw_cmd'):
                o = os.path.join(a.out, '%s-raw.%s.txt' % (r['key'], c))
                rc, _, _, _ = run_timed(r['raw_cmd'](inp[c]), out_path=o, err_path=errlog)
                r.setdefault('raw_f1', {})[c] = score(scorer, inp[c + '_gold'], o)[0] if rc == 0 else None

    # 1b. POS accuracy on the held-out People's Daily days
    for r in live():
        if r.get('group') != 'pos' or not r.get('pos_acc', True) or not pos_ok:
            continue
        log('bench: POS accuracy: %s, %s' % (r['tool'], r['mode']))
        runs = [('raw', r['cmd'], True)]
        if r.get('words_cmd'):
            runs.append(('words', r['words_cmd'], False))
        for name, cmd, joint in runs:
            o = os.path.join(a.out, '%s.pos-%s.txt' % (r['key'], name))
            rc, _, rss, _ = run_timed(cmd(pos_files[name]), out_path=o, err_path=errlog)
            r['rss'] = max(r['rss'], rss)
            if rc != 0:
                r['notes'].append('failed on pos.%s (exit %d)' % (name, rc))
                continue
            if r.get('tagmap'):
                mapped = o[:-len('.txt')] + '.pku.txt'
                r['mapped'] = pos_tags.map_file(o, mapped)
                o = mapped
            if joint:
                # tags outside the gold's tag set (after the mapping) can never be right
                gold_tags = pos_tags.tag_counts(pos_files['gold'])
                r['foreign_tags'] = {t: c for t, c in pos_tags.tag_counts(o).items() if t not in gold_tags}
            res, err = score_pos(pos_files['gold'], o, joint)
            if res is None:
                r['notes'].append('pos.%s not scored: %s' % (name, err))
            elif joint:
                r['pos']['seg'], r['pos']['joint'] = res
            else:
                r['pos']['acc'] = res[0]

    # 2. throughput: rounds in which every tool runs once, so that other load on the
    #    machine falls on all tools alike; the fastest run of each tool is kept.
    timed = lambda: [r for r in live() if r.get('speed', True)]
    for rnd in range(a.runs):
        for r in timed():
            src = r.get('src') or ('small' if r.get('small') else 'big')
            o = os.path.join(a.out, '%s.big.txt' % r['key'])
            log('bench: throughput %d/%d: %s, %s' % (rnd + 1, a.runs, r['tool'], r['mode']))
            rc, wall, rss, cpu = run_timed(r['cmd'](inp[src]), out_path=o, err_path=errlog)
            r['rss'] = max(r['rss'], rss)
            if rc != 0:
                r['notes'].append('failed on the throughput input (exit %d)' % rc)
                r['dead'] = True
                continue
            r['walls'].append(wall)
            r['cpus'].append(cpu)
            r['bytes'] = size[src]
            r['src'] = src
            r['mbps'] = size[src] / 1e6 / min(r['walls'])
            if rnd == 0:
                n = count_lines(o)
                if n != lines[src]:
                    r['notes'].append('%d lines out for %d in' % (n, lines[src]))
            if not a.keep and os.path.exists(o):
                os.remove(o)

    # 3. start-up: a one-line input; one warm-up run each, then N interleaved rounds.
    log('bench: start-up times')
    for rnd in range(a.startup_runs + 1):
        for r in timed():
            rc, wall, rss, _ = run_timed(r['cmd'](inp['one']), out_path=os.devnull, err_path=errlog)
            r['rss'] = max(r['rss'], rss)
            if rc != 0:
                r['notes'].append('failed on the one-line input (exit %d)' % rc)
                r['dead'] = True
            elif rnd:
                r['starts'].append(wall)
    for r in rows:
        if r['starts']:
            r['startup'] = statistics.median(r['starts']) * 1000
        if r['pos']:
            log('bench: %-24s %-24s POS accuracy (gold words) %s, segmentation F1 %s, '
                'segmentation+POS F1 %s' % (r['tool'], r['mode'], fmt(r['pos'].get('acc'), '.2f'),
                                            fmt(r['pos'].get('seg'), '.2f'), fmt(r['pos'].get('joint'), '.2f')))
        log('bench: %-24s %-24s F1 %s / %s, %s MB/s (runs %s s wall, %s s CPU), start-up %s ms, '
            'RSS %.0f MiB %s' % (
                r['tool'], r['mode'], fmt(r['f1'].get('pku'), '.1f'), fmt(r['f1'].get('msr'), '.1f'),
                fmt(r['mbps'], '.2f'), ' '.join('%.2f' % w for w in r['walls']),
                ' '.join('%.2f' % c for c in r['cpus']), fmt(r['startup'], '.0f'), r['rss'] / 1024,
                '; '.join(r['notes'])))

    with open(os.path.join(a.out, 'results.json'), 'w') as f:
        json.dump([{k: v for k, v in r.items() if not callable(v)} for r in rows], f, indent=1)
    a.loadavg = (start_load, loadavg())
    chars = {k: count_chars(inp[k]) for k in ('big', 'possmall')}
    report = render(rows, inp, size, a, versions(), chars, pos_files)
    with open(os.path.join(a.out, 'results.md'), 'w') as f:
        f.write(report)
    sys.stdout.write(report)
    return 0


def tool_name(r, ver):
    name = r['tool']
    if name in ver:
        name += ' ' + ver[name]
    elif name.startswith('jieba'):
        name += ' ' + ver['python3-jieba']
    elif name == 'friso':
        name += ' ' + ver['friso']
    return name


def cpu_rate(r):
    return r['bytes'] / 1e6 / min(r['cpus']) if r.get('cpus') and min(r['cpus']) > 0 else None


def render_seg(seg, by, inp, size, a, ver, marks):
    """The segmentation rows and their notes."""
    base = by.get('noders')
    L = []
    L.append('| tool | mode | PKU F1 | MSR F1 | MB/s (1 thread) | MB per CPU-s | speed vs @node-rs/jieba no HMM | start-up (ms) | peak RSS (MiB) |')
    L.append('|---|---|--:|--:|--:|--:|--:|--:|--:|')
    for r in seg:
        note = ''
        if r.get('small'):
            note = ' ¹'
        if r.get('lossy'):
            note = ' ²'
        ratio = None
        if base and base.get('mbps') and r.get('mbps'):
            ratio = r['mbps'] / base['mbps']
        f1 = r['f1']
        name = tool_name(r, ver)
        L.append('| %s | %s%s | %s | %s | %s | %s | %s | %s | %s |' % (
            name, r['mode'], note,
            fmt(f1.get('pku'), '.1f', '—' if not r.get('score', True) else 'n/a'),
            fmt(f1.get('msr'), '.1f', '—' if not r.get('score', True) else 'n/a'),
            fmt(r['mbps'], '.2f'), fmt(cpu_rate(r), '.2f'), fmt(ratio, '.2f', 'n/a') + ('×' if ratio else ''),
            fmt(r['startup'], '.0f'), ('%.0f' % (r['rss'] / 1024)) if r['rss'] else 'n/a'))
        for n in r['notes']:
            marks.append('%s (%s): %s' % (r['tool'], r['mode'], n))
    L.append('')
    L.append('F1 in %%, SIGHAN 2005 test sets (%s), scored by `%s`. MB/s: 10^6 input bytes per second '
             'of wall time of the whole process (start-up and writing the output file included), one '
             'thread, on the %.1f MB file of the PKU + MSR raw test text repeated %d times; best of %d '
             'run(s). MB per CPU-s: the same bytes over the user + system CPU time of the fastest-CPU run, '
             'less sensitive to other load on the machine (node\'s GC threads count). The MSR gold differs from the raw MSR test text on 16 lines (quotes moved); `fenci eval` '
             'scores such neighbouring lines jointly (as the whole-file SIGHAN scorer does), for every tool alike. Start-up: median wall time of %d runs on a one-line input. Peak RSS: the '
             'largest ru_maxrss over all of a tool\'s runs (the same figure as GNU time -v).'
             % ('PKU %d lines, MSR %d lines' % (count_lines(inp['pku']), count_lines(inp['msr'])),
                ' '.join(shlex.split(os.environ['FENCI_EVAL'])) if os.environ.get('FENCI_EVAL')
                else 'fenci eval GOLD OUTPUT', size['big'] / 1e6, inp['reps'], a.runs, a.startup_runs))
    L.append('')
    if any(r.get('small') for r in seg):
        L.append('¹ python3-jieba is slow, so its throughput is measured on the first %.1f MB of the same '
                 'file.  ' % (size['small'] / 1e6))
    fr_raw = (by.get('friso') or {}).get('raw_f1', {})
    if 'friso' in by:
        L.append('² friso (libfriso through bench/friso_driver.c, Debian\'s /etc/friso/friso.ini, complex '
                 'mode, with synonym insertion `add_syn` and the secondary split of Latin tokens `en_sseg` '
                 'switched off) is not lossless: it drops characters it does not know (“ ” — … ○ ·) and '
                 'folds full-width letters and digits to lower-case ASCII. The driver maps its tokens back '
                 'onto the input line and writes the input\'s characters, each dropped character as a '
                 'one-character word, so the F1 shown scores friso\'s word boundaries. Its raw output '
                 '(`--raw`), whose lines no longer match the gold text, scores PKU %s / MSR %s.'
                 % (fmt(fr_raw.get('pku'), '.1f'), fmt(fr_raw.get('msr'), '.1f')))
    if L[-1]:
        L.append('')
    fr = [('fenci-fast-j1', 'noders', 'fenci --fast vs @node-rs/jieba (no HMM)'),
          ('fenci-j1', 'noders-hmm', 'fenci (default) vs @node-rs/jieba (HMM)')]
    ratios = []
    for fk, pk, label in fr:
        f, p = by.get(fk), by.get(pk)
        if not f or not p or not f.get('mbps') or not p.get('mbps'):
            continue
        parts = ['throughput %.2f×' % (f['mbps'] / p['mbps'])]
        if f.get('startup') and p.get('startup'):
            parts.append('start-up time %.2f×' % (f['startup'] / p['startup']))
        if f.get('rss') and p.get('rss'):
            parts.append('peak RSS %.2f×' % (f['rss'] / p['rss']))
        ratios.append('- %s: %s' % (label, ', '.join(parts)))
    for k1, k2, label in (('fenci-fast-j1', 'fenci-fast-j2', 'fenci --fast'), ('fenci-j1', 'fenci-j2', 'fenci (default)')):
        f1, f2 = by.get(k1), by.get(k2)
        if f1 and f2 and f1.get('mbps') and f2.get('mbps'):
            ratios.append('- %s -j 2 vs -j 1: throughput %.2f×' % (label, f2['mbps'] / f1['mbps']))
    if ratios:
        L.append('Ratios (fenci / peer):')
        L.extend(ratios)
        L.append('')
    return L


def render(rows, inp, size, a, ver, chars, pos_files):
    by = {r['key']: r for r in rows}
    seg = [r for r in rows if not r.get('group')]
    pos = [r for r in rows if r.get('group') == 'pos']
    cpu = '?'
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True,
                                text=True, cwd=os.path.dirname(BENCH)).stdout.strip()
    except OSError:
        commit = '?'
    load = a.loadavg
    now = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    L = []
    L.append('Measured %s with `%s` (fenci %s) on %d CPUs (nproc), %s; Linux %s, node %s, Python %s; '
             'load average %s at the start, %s at the end.'
             % (now, a.command + (" BENCH_FLAGS='--only %s'" % a.only if a.only else ''), commit or '?',
                os.cpu_count() or 0, cpu, os.uname().release, ver['node'], ver['python'], load[0], load[1]))
    L.append('')
    marks = []
    if seg:
        L.extend(render_seg(seg, by, inp, size, a, ver, marks))
    if pos:
        L.extend(render_pos(pos, by, inp, size, a, ver, chars, pos_files, marks))
    if marks:
        L.append('Notes from this run:')
        L.extend('- ' + m for m in marks)
        L.append('')
    L.append('<details><summary>Commands (FILE is the input; output goes to a file)</summary>')
    L.append('')
    show = lambda cmd: ' '.join(shlex.quote(os.path.relpath(c) if os.path.isabs(c) and c.startswith(BENCH)
                                            else c) for c in cmd)
    for r in rows:
        L.append('- %s, %s: `%s`' % (r['tool'], r['mode'], show(r['cmd']('FILE'))))
        if r.get('words_cmd'):
            L.append('- %s, %s, gold words: `%s`' % (r['tool'], r['mode'], show(r['words_cmd']('FILE'))))
    L.append('')
    L.append('</details>')
    L.append('')
    return '\n'.join(L)


def render_pos(pos, by, inp, size, a, ver, chars, pos_files, marks):
    """The tagging and entity rows: POS accuracy, throughput, and issue 9's speed ratios."""
    L = ['| tool | mode | POS accuracy, gold words (%) | segmentation F1 | segmentation+POS F1 '
         '| MB/s (1 thread) | M characters/s | MB per CPU-s | start-up (ms) | peak RSS (MiB) |',
         '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|']
    mchars = lambda r: (chars[r['src']] / 1e6 / min(r['walls'])) if r.get('walls') else None
    for r in pos:
        note = ''
        if r.get('tagmap'):
            note += ' ³'
        if r.get('src') == 'possmall':
            note += ' ⁴'
        if r['key'] == 'fenci-tag-pku':
            note += ' ⁵'
        p = r['pos']
        acc_na = 'n/a' if r.get('words_cmd') else '—'
        pos_na = 'n/a' if r.get('pos_acc', True) else '—'
        speed_na = 'n/a' if r.get('speed', True) else '—'
        L.append('| %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            tool_name(r, ver), r['mode'], note, fmt(p.get('acc'), '.2f', acc_na),
            fmt(p.get('seg'), '.2f', pos_na), fmt(p.get('joint'), '.2f', pos_na),
            fmt(r['mbps'], '.2f', speed_na), fmt(mchars(r), '.2f', speed_na),
            fmt(cpu_rate(r), '.2f', speed_na), fmt(r['startup'], '.0f', speed_na),
            ('%.0f' % (r['rss'] / 1024)) if r['rss'] else 'n/a'))
        for n in r['notes']:
            marks.append('%s (%s): %s' % (r['tool'], r['mode'], n))
        if r.get('foreign_tags'):
            marks.append('%s (%s): tags the gold never uses (never right): %s' % (
                r['tool'], r['mode'], ', '.join('%s %d' % kv for kv in
                                                sorted(r['foreign_tags'].items(), key=lambda kv: -kv[1]))))
    L.append('')
    gold_lines = count_lines(pos_files['gold']) if os.path.exists(pos_files['gold']) else 0
    gold_words = sum(pos_tags.tag_counts(pos_files['gold']).values()) if gold_lines else 0
    L.append('POS: the held-out People\'s Daily 1998-01 articles of 1998-01-28..31 (%d lines, %d gold '
             'words, PKU tag set; `%s` from `make eval-pos-files`), scored by eval/pos/score.py. '
             'POS accuracy with the gold words: `fenci tag --words` on pos.words (the peers have no '
             'call that tags given words in context: n/a). Segmentation F1 and segmentation+POS F1 '
             '(`score.py --joint`: a word counts when its span and its tag are both right) of the '
             'tagger cutting the raw text pos.raw itself. The PKU standard cuts person names into '
             'surname and given name (江/nr 泽民/nr) and more words finer than CTB or jieba do, which '
             'costs every row but `-m pku` segmentation (and so joint) F1. Throughput: wall time of the '
             'whole process, one thread, on the same %.1f MB (%.1f M characters) file as the '
             'segmentation rows, best of %d run(s); M characters/s: UTF-8 characters of the input per '
             'second; `fenci ner` writes one JSON object per input line. —: not measured for this row.'
             % (gold_lines, gold_words, os.path.relpath(pos_files['gold']), size['big'] / 1e6,
                chars['big'] / 1e6, a.runs))
    L.append('')
    mapped = {}
    for r in pos:
        for k, c in (r.get('mapped') or {}).items():
            mapped[k] = mapped.get(k, 0) + c
    if any(r.get('tagmap') for r in pos):
        L.append('³ jieba\'s tags mapped onto PKU\'s where the mapping is obvious (bench/pos_tags.py): '
                 'uj ul uz ug uv ud → u; nrt nrfg → nr; eng → nx; x → w for punctuation, → m for '
                 '(full-width) digits, → nx for (full-width) Latin letters (x stays x otherwise); '
                 'rr rz → r; vi vq → v; df → d; mq → m; the lower-case morpheme tags ag bg dg mg ng rg '
                 'tg vg yg → Ag Bg Dg Mg Ng Rg Tg Vg Yg. Everything else is left as it is (jieba\'s '
                 'zg has no PKU counterpart). Tags changed in this run, all mapped rows together: %s.'
                 % (', '.join('%s %d' % kv for kv in sorted(mapped.items(), key=lambda kv: -kv[1])) or 'none'))
        L.append('')
    if any(r.get('src') == 'possmall' for r in pos):
        L.append('⁴ jieba.posseg is slow, so its throughput is measured on the first %.1f MB (%.2f M '
                 'characters) of the same file (its start-up, about 1 s, is included).'
                 % (size['possmall'] / 1e6, chars['possmall'] / 1e6))
        L.append('')
    if 'fenci-tag-pku' in by:
        L.append('⁵ The segmentation half of `-m pku` had its iteration count chosen on these days (its '
                 'dev set), so its segmentation is not strictly held out here; the POS tagger\'s dev days '
                 'are 1998-01-25..27.')
        L.append('')
    checks = [('fenci-tag', 'noders-tag', '`fenci tag` vs @node-rs/jieba `tag()` (no HMM)', 2.0),
              ('fenci-ner', 'noders', '`fenci ner` vs @node-rs/jieba `cut()` (no HMM)', 0.5),
              ('fenci-tag', 'pyjieba-pos', '`fenci tag` vs jieba.posseg', None)]
    out = []
    for fk, pk, label, need in checks:
        f, p = by.get(fk), by.get(pk)
        if not f or not p or not f.get('mbps') or not p.get('mbps'):
            continue
        rf, rp = mchars(f), mchars(p)
        ratio = rf / rp  # per character: the inputs of the two may differ (posseg's slice)
        line = '- %s: %.2f vs %.2f MB/s, %.2f vs %.2f M characters/s: %.3f×' % (
            label, f['mbps'], p['mbps'], rf, rp, ratio)
        # the two in each round ran minutes apart at most, under the same load: the spread of
        # these says how far the best-of ratio can be trusted on a machine whose speed drifts
        per = [(chars[f['src']] / fw) / (chars[p['src']] / pw) for fw, pw in zip(f['walls'], p['walls']) if fw and pw]
        if len(per) > 1:
            line += ' (round by round: %s)' % ', '.join('%.3f' % x for x in per)
        if need:
            line += ' (issue 9 acceptance ≥ %g×: %s)' % (need, 'met' if ratio >= need else 'NOT met')
        out.append(line)
    if out:
        L.append('Throughput ratios, same run (fenci / peer):')
        L.extend(out)
        L.append('')
    return L


if __name__ == '__main__':
    sys.exit(main())

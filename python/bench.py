#!/usr/bin/env python3
"""python/bench.py - the Python binding's figures (README, "Python").

    PYTHONPATH=build/python /usr/bin/python3 python/bench.py FILE [--jieba-bytes N] [--reps R]
    PYTHONPATH=build/python /usr/bin/python3 python/bench.py --data ../shared/data [...]
    make bench-python                   (the second form, on make bench's text)

FILE is cut one call per line: fenci.lcut with HMM=True and False (every
line's list kept, and each dropped before the next call), then
@node-rs/jieba's cut() from node on FILE (make bench's driver, when
bench/node_modules has it), then fenci.cut_batch with 1 and 2 threads, then fenci.lcut per line from 1 and
from 2 Python threads (each thread a share of the lines; runs alternate,
best of --reps each), then lcut of the whole text with enable_parallel(2)
against without; --jieba-bytes N also times Debian's python3-jieba
(jieba.lcut per line, both ways) on the first N bytes (whole lines).  With --data DIR
instead of FILE the text is make bench's: the SIGHAN 2005 PKU + MSR test
text repeated to --size-mb MB (bench/run.py writes it to bench/out/).
Each figure is the best of --reps runs.  Import + first lcut is measured in
fresh processes (median of 11).  --only threads measures the thread
figures alone."""
import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import threading
import time

# this script's folder holds the package's sources without the extension
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]


def best(fn, reps):
    """The wall time of the fastest of reps runs; BEST_CPU gets its CPU time
    (all threads: less sensitive to other load on the machine)."""
    global BEST_CPU
    runs = []
    for _ in range(reps):
        c, t = time.process_time(), time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t, time.process_time() - c))
    w, BEST_CPU = min(runs)
    return w


BEST_CPU = 0.0
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench_text(data, size_mb):
    """make bench's throughput text (bench/run.py's build_inputs writes it)."""
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(ROOT, "bench", "run.py"))
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    out = os.path.join(ROOT, "bench", "out")
    os.makedirs(out, exist_ok=True)
    return run.build_inputs(data, out, size_mb, 5)["big"]


def _switches():
    """This thread's voluntary context switches (Linux; 0 elsewhere): a
    thread that waits for the GIL sleeps, which counts one."""
    try:
        with open("/proc/thread-self/status") as f:
            for l in f:
                if l.startswith("voluntary_ctxt_switches"):
                    return int(l.split()[1])
    except OSError:
        pass
    return 0


def drop_each(lcut, lines, hmm):
    """lcut on each line, each result dropped before the next call: a caller
    that uses the words of a line and moves on (as make bench's node driver
    does with @node-rs/jieba's cut()).  Keeping every line's list instead
    adds the cyclic collector's passes over millions of live lists, the
    same for any segmenter, to the figure."""
    for l in lines:
        lcut(l, HMM=hmm)


def lcut_threads(fenci, lines, n, hmm):
    """fenci.lcut over lines, one call per line, from n Python threads
    started together, thread k taking lines k, k+n, k+2n, ...  Returns the
    wall time, the threads' voluntary context switches (their waits for the
    GIL, as nothing else in lcut sleeps) and the largest CPU time of one
    thread."""
    parts = [lines[k::n] for k in range(n)]
    go = threading.Barrier(n + 1)
    stats = []

    def run(part):
        lcut = fenci.lcut
        go.wait()
        s, c = _switches(), time.thread_time()
        for l in part:
            lcut(l, HMM=hmm)
        stats.append((_switches() - s, time.thread_time() - c))

    ths = [threading.Thread(target=run, args=(p,)) for p in parts]
    for th in ths:
        th.start()
    go.wait()
    t = time.perf_counter()
    for th in ths:
        th.join()
    return time.perf_counter() - t, sum(x[0] for x in stats), max(x[1] for x in stats)


def cli_jobs(path, reps):
    """The C CLI's `fenci cut -j 2` against `-j 1` on the same file, alternating,
    best of reps: how much of a second CPU this machine gives at the moment
    (the other figures share the machine with whatever else runs)."""
    exe = os.path.join(ROOT, "fenci")
    if not os.access(exe, os.X_OK):
        return
    best = {1: 1e9, 2: 1e9}
    for _ in range(reps):
        for j in (1, 2):
            t = time.perf_counter()
            subprocess.run([exe, "cut", "-q", "-j", str(j), path], stdout=subprocess.DEVNULL, check=True)
            best[j] = min(best[j], time.perf_counter() - t)
    print("calibration: ./fenci cut -j 1 / -j 2 on the same file: %.2f / %.2f s: %.2fx (load average %s)"
          % (best[1], best[2], best[1] / best[2], os.getloadavg()), flush=True)


def thread_figures(fenci, lines, mb, text, reps, path):
    cli_jobs(path, reps)
    for hmm in (True, False):
        best = {1: (1e9,), 2: (1e9,)}
        for _ in range(reps):  # alternating, so that both see the same load
            for n in (1, 2):
                best[n] = min(best[n], lcut_threads(fenci, lines, n, hmm))
        print("fenci.lcut per line from 1 / 2 Python threads, HMM=%s: %.2f / %.2f MB/s: %.2fx (load average %s)"
              % (hmm, mb / best[1][0], mb / best[2][0], best[1][0] / best[2][0], os.getloadavg()), flush=True)
        print("  2 threads: %d waits for the GIL in %d calls; CPU time of the busier thread %.2f s, of the one "
              "thread %.2f s (%.2fx: the ratio if each thread had a CPU of its own)"
              % (best[2][1], len(lines), best[2][2], best[1][2], best[1][2] / best[2][2]), flush=True)
    fenci.lcut(text[:100000])
    best = {1: 1e9, 2: 1e9}
    for _ in range(reps):
        for n in (1, 2):
            fenci.enable_parallel(n)
            t = time.perf_counter()
            words = fenci.lcut(text)
            best[n] = min(best[n], time.perf_counter() - t)
            del words  # one result in memory at a time
    fenci.disable_parallel()
    print("fenci.lcut of the whole text, serial / enable_parallel(2): %.2f / %.2f MB/s: %.2fx" %
          (mb / best[1], mb / best[2], best[1] / best[2]), flush=True)


def node_figures(path, mb, reps, fenci_mbs):
    """@node-rs/jieba's cut() from node on the same file, in this run (bench's
    driver: the whole process, each line cut and written; best of reps),
    against fenci.lcut per line with each list dropped (fenci_mbs by HMM)."""
    drv = os.path.join(ROOT, "bench", "jieba_node.js")
    if not os.path.isdir(os.path.join(ROOT, "bench", "node_modules", "@node-rs", "jieba")):
        print("@node-rs/jieba: not installed (make bench installs it: bench/setup.sh); skipped")
        return
    for hmm, engine in ((True, "rs-hmm"), (False, "rs")):
        dt = 1e9
        for _ in range(reps):
            t = time.perf_counter()
            subprocess.run(["node", drv, engine, path], stdout=subprocess.DEVNULL, check=True)
            dt = min(dt, time.perf_counter() - t)
        print("@node-rs/jieba cut() from node, HMM=%s, whole process: %.2f MB/s; fenci.lcut per line, HMM=%s, "
              "each list dropped: %.2f MB/s: %.2fx (load average %s)"
              % (hmm, mb / dt, hmm, fenci_mbs[hmm], fenci_mbs[hmm] * dt / mb, os.getloadavg()), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--data", help="corpus folder (../shared/data): use make bench's text instead of FILE")
    ap.add_argument("--size-mb", type=float, default=50, help="with --data: the text's size (default 50)")
    ap.add_argument("--jieba-bytes", type=int, default=0)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", choices=["threads"], help="only the thread figures")
    a = ap.parse_args()
    if a.data:
        a.file = bench_text(a.data, a.size_mb)
    elif not a.file:
        ap.error("FILE or --data DIR is needed")
    if a.only == "threads":
        import fenci
        with open(a.file, encoding="utf-8") as f:
            text = f.read()
        lines = text.splitlines()
        mb = sum(len(l.encode()) for l in lines) / 1e6
        print("input: %s, %.2f MB, %d lines; load average %s" % (a.file, mb, len(lines), os.getloadavg()))
        thread_figures(fenci, lines, mb, text, a.reps, a.file)
        return
    code = ("import time; t = time.perf_counter(); import fenci; fenci.lcut('我来到北京清华大学'); "
            "print(time.perf_counter() - t)")
    ts = [float(subprocess.check_output([sys.executable, "-c", code], env=os.environ)) for _ in range(11)]
    print("import fenci + first lcut: %.1f ms (median of 11 fresh processes)" % (statistics.median(ts) * 1e3))

    import fenci
    with open(a.file, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines()
    mb = sum(len(l.encode()) for l in lines) / 1e6
    print("input: %s, %.2f MB, %d lines; load average %s" % (a.file, mb, len(lines), os.getloadavg()))
    dropped = {}
    for hmm in (True, False):
        dt = best(lambda: [fenci.lcut(l, HMM=hmm) for l in lines], a.reps)
        print("fenci.lcut per line, HMM=%s, every line's list kept: %.2f MB/s (%.2f MB per CPU-s)"
              % (hmm, mb / dt, mb / BEST_CPU))
        dt = best(lambda: drop_each(fenci.lcut, lines, hmm), a.reps)
        dropped[hmm] = mb / dt
        print("fenci.lcut per line, HMM=%s, each list dropped before the next call: %.2f MB/s (%.2f MB per CPU-s)"
              % (hmm, mb / dt, mb / BEST_CPU))
    node_figures(a.file, mb, a.reps, dropped)
    for hmm in (True, False):
        r = {}
        for th in (1, 2):
            dt = best(lambda: fenci.cut_batch(lines, threads=th, HMM=hmm), a.reps)
            r[th] = mb / dt
            print("fenci.cut_batch threads=%d, HMM=%s: %.2f MB/s (%.2f MB per CPU-s)" % (th, hmm, r[th], mb / BEST_CPU))
        print("  2 threads / 1 thread: %.2fx" % (r[2] / r[1]))
    thread_figures(fenci, lines, mb, text, a.reps, a.file)
    if a.jieba_bytes:
        import jieba
        jieba.setLogLevel(60)
        jieba.initialize()
        sub, n = [], 0
        for l in lines:
            n += len(l.encode()) + 1
            if n > a.jieba_bytes:
                break
            sub.append(l)
        jmb = sum(len(l.encode()) for l in sub) / 1e6
        for hmm in (True, False):
            for keep in (True, False):
                how = "every line's list kept" if keep else "each list dropped"
                if keep:
                    dt = best(lambda: [jieba.lcut(l, HMM=hmm) for l in sub], 1)
                else:
                    dt = best(lambda: drop_each(jieba.lcut, sub, hmm), 1)
                jcpu = BEST_CPU
                if keep:
                    fdt = best(lambda: [fenci.lcut(l, HMM=hmm) for l in sub], a.reps)
                else:
                    fdt = best(lambda: drop_each(fenci.lcut, sub, hmm), a.reps)
                print("jieba %s lcut per line, HMM=%s, %s, first %.2f MB: %.2f MB/s, %.2f MB per CPU-s "
                      "(fenci on the same: %.2f MB/s, %.2f MB per CPU-s; %.1fx by wall, %.1fx by CPU)"
                      % (jieba.__version__, hmm, how, jmb, jmb / dt, jmb / jcpu, jmb / fdt, jmb / BEST_CPU, dt / fdt,
                         jcpu / BEST_CPU))
    print("load average %s" % (os.getloadavg(),))


if __name__ == "__main__":
    main()

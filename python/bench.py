#!/usr/bin/env python3
"""python/bench.py - the Python binding's figures (README, "Python").

    PYTHONPATH=build/python /usr/bin/python3 python/bench.py FILE [--jieba-bytes N] [--reps R]

FILE is cut one call per line: fenci.lcut with HMM=True and False, then
fenci.cut_batch with 1 and 2 threads; --jieba-bytes N also times Debian's
python3-jieba (jieba.lcut per line) on the first N bytes (whole lines).
Each figure is the best of --reps runs.  Import + first lcut is measured in
fresh processes (median of 11)."""
import argparse
import os
import statistics
import subprocess
import sys
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--jieba-bytes", type=int, default=0)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    code = ("import time; t = time.perf_counter(); import fenci; fenci.lcut('我来到北京清华大学'); "
            "print(time.perf_counter() - t)")
    ts = [float(subprocess.check_output([sys.executable, "-c", code], env=os.environ)) for _ in range(11)]
    print("import fenci + first lcut: %.1f ms (median of 11 fresh processes)" % (statistics.median(ts) * 1e3))

    import fenci
    with open(a.file, encoding="utf-8") as f:
        lines = f.read().splitlines()
    mb = sum(len(l.encode()) for l in lines) / 1e6
    print("input: %s, %.2f MB, %d lines; load average %s" % (a.file, mb, len(lines), os.getloadavg()))
    for hmm in (True, False):
        dt = best(lambda: [fenci.lcut(l, HMM=hmm) for l in lines], a.reps)
        print("fenci.lcut per line, HMM=%s: %.2f MB/s (%.2f MB per CPU-s)" % (hmm, mb / dt, mb / BEST_CPU))
    for hmm in (True, False):
        r = {}
        for th in (1, 2):
            dt = best(lambda: fenci.cut_batch(lines, threads=th, HMM=hmm), a.reps)
            r[th] = mb / dt
            print("fenci.cut_batch threads=%d, HMM=%s: %.2f MB/s (%.2f MB per CPU-s)" % (th, hmm, r[th], mb / BEST_CPU))
        print("  2 threads / 1 thread: %.2fx" % (r[2] / r[1]))
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
            dt = best(lambda: [jieba.lcut(l, HMM=hmm) for l in sub], 1)
            jcpu = BEST_CPU
            fdt = best(lambda: [fenci.lcut(l, HMM=hmm) for l in sub], a.reps)
            print("jieba %s lcut per line, HMM=%s, first %.2f MB: %.2f MB/s, %.2f MB per CPU-s "
                  "(fenci on the same: %.2f MB/s, %.2f MB per CPU-s; %.1fx by wall, %.1fx by CPU)"
                  % (jieba.__version__, hmm, jmb, jmb / dt, jmb / jcpu, jmb / fdt, jmb / BEST_CPU, dt / fdt,
                     jcpu / BEST_CPU))
    print("load average %s" % (os.getloadavg(),))


if __name__ == "__main__":
    main()

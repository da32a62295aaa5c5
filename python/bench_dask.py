#!/usr/bin/env python3
"""python/bench_dask.py - fenci.dask throughput with 1 and with 2 workers.

    PYTHONPATH=build/python /usr/bin/python3 python/bench_dask.py FILE [--docs N] [--reps R]
    PYTHONPATH=build/python /usr/bin/python3 python/bench_dask.py --data ../shared/data
    make bench-python                       (also runs python/bench.py)

FILE (with --data DIR: make bench's text, the SIGHAN 2005 PKU + MSR test
text repeated to --size-mb MB) is split at line ends into --docs documents
in a temporary folder.  Two LocalClusters (1 and 2 worker processes, one
thread each) are started and the model opened on their workers
(fenci.dask.register); then, alternating between them, best of --reps runs:

  * cut_folder: every document read, segmented and written by a worker;
  * the bag: db.read_text(documents) through fenci.dask.cut, the words
    counted on the workers (nothing but a number comes back).

MB/s is input bytes over wall time.  Needs python3-dask and
python3-distributed."""
import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# this script's folder holds the package's sources without the extension
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != HERE]


def _bench_py():
    spec = importlib.util.spec_from_file_location("fenci_bench", os.path.join(HERE, "bench.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def split_docs(path, ndocs, folder):
    """path's lines in ndocs files of about equal size; returns their paths."""
    with open(path, "rb") as f:
        data = f.read()
    paths, start, step = [], 0, len(data) // ndocs + 1
    for k in range(ndocs):
        end = data.find(b"\n", min(len(data), start + step) - 1) + 1 or len(data)
        if k == ndocs - 1:
            end = len(data)
        p = os.path.join(folder, "doc%03d.txt" % k)
        with open(p, "wb") as f:
            f.write(data[start:end])
        paths.append(p)
        start = end
    return paths, len(data) / 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--data", help="corpus folder (../shared/data): use make bench's text instead of FILE")
    ap.add_argument("--size-mb", type=float, default=50)
    ap.add_argument("--docs", type=int, default=48)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    if a.data:
        a.file = _bench_py().bench_text(a.data, a.size_mb)
    elif not a.file:
        ap.error("FILE or --data DIR is needed")

    import dask.bag as db
    from distributed import Client, LocalCluster
    import fenci
    import fenci.dask as fd

    tmp = tempfile.mkdtemp(prefix="fenci-bench-dask-")
    try:
        src = os.path.join(tmp, "in")
        os.makedirs(src)
        docs, mb = split_docs(a.file, a.docs, src)
        print("input: %s, %.2f MB in %d documents; fenci %s, load average %s"
              % (a.file, mb, len(docs), fenci.__version__, os.getloadavg()), flush=True)
        pkg = os.path.dirname(os.path.dirname(os.path.abspath(fenci.__file__)))
        os.environ["PYTHONPATH"] = pkg + os.pathsep + os.environ.get("PYTHONPATH", "")
        clients = {}
        for n in (1, 2):
            cl = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                              local_directory=os.path.join(tmp, "dask%d" % n))
            clients[n] = Client(cl)
            fd.register(clients[n])

        def run_folder(c):
            out = os.path.join(tmp, "out")
            res = fd.cut_folder(src, out, client=c)
            shutil.rmtree(out)
            return sum(r[1] for r in res)

        def run_bag(c):
            bag = fd.cut(db.read_text(docs, blocksize=None)).map(len)
            return c.compute(bag.sum()).result()

        for name, fn in (("cut_folder (read, segment, write)", run_folder),
                         ("bag: fenci.dask.cut(db.read_text(...)), words counted", run_bag)):
            best = {1: 1e9, 2: 1e9}
            got = {}
            for _ in range(a.reps):  # alternating, so that both see the same load
                for n in (1, 2):
                    t = time.perf_counter()
                    got[n] = fn(clients[n])
                    best[n] = min(best[n], time.perf_counter() - t)
            assert got[1] == got[2], got
            print("%s: 1 worker %.2f MB/s, 2 workers %.2f MB/s: %.2fx (load average %s)"
                  % (name, mb / best[1], mb / best[2], best[1] / best[2], os.getloadavg()), flush=True)
        for c in clients.values():
            cl = c.cluster
            c.close()
            cl.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

"""fenci.dask: segmentation, tagging and keywords over Dask.

Needs Dask (Debian: ``apt-get install python3-dask python3-distributed``);
``import fenci`` does not import it.

    import dask.bag as db
    import fenci.dask as fd
    lines = db.read_text("corpus/*.txt", blocksize=None)   # a bag of lines
    words = fd.cut(lines)                                   # a bag of lists of words
    fd.cut_folder("corpus", "out", client=client)           # one segmented file per document

Each worker process opens the model once: the functions below run on the
workers through a per-process cache of Tokenizers (one per model and user
dictionary), and fenci maps each model file once per process, so the tasks
of a worker share it.  Only the model's name or path and the user
dictionary's path travel with the tasks, never the model: a worker finds a
model name in its own ``$FENCI_MODEL_DIR``, then in the package's
``models/`` (see fenci.model_dirs()).  ``register(client)`` opens the model
on every worker at once, so that a worker without it fails at once rather
than in the middle of a job.

Every partition is segmented with fenci.Tokenizer.cut_batch on one thread:
Dask's workers (processes, or threads: the GIL is released while
segmenting) are the parallelism.
"""
import glob
import os
import threading

import dask.bag as db

import fenci

__all__ = ["cut", "tag", "extract_tags", "cut_folder", "read_folder", "register", "tokenizer"]

_cache = {}
_cache_lock = threading.Lock()


def tokenizer(model=None, userdict=None):
    """This process's Tokenizer for model (a name or path; None: the default)
    with the words of userdict (a path) loaded: made and initialised on the
    first call, then reused by every task in the process."""
    key = (model, userdict)
    t = _cache.get(key)
    if t is None:
        with _cache_lock:
            t = _cache.get(key)
            if t is None:
                t = fenci.Tokenizer(model=model)
                if userdict:
                    t.load_userdict(userdict)
                t.initialize()
                t.lcut("")  # builds the user-word snapshot now, once
                _cache[key] = t
    return t


def _texts(part):
    return [fenci._text(s) for s in part]


def _cut_part(part, model, userdict, HMM, mode):
    return fenci.Tokenizer.cut_batch(tokenizer(model, userdict), _texts(part), threads=1, HMM=HMM, mode=mode)


def _tag_part(part, model, userdict, HMM):
    from fenci.posseg import POSTokenizer
    pt = POSTokenizer(tokenizer(model, userdict))
    return [[(p.word, p.flag) for p in pt.lcut(s, HMM=HMM)] for s in _texts(part)]


def _analyse():
    """fenci.analyse, or None when this fenci has no keyword extraction."""
    try:
        from fenci import analyse
    except ImportError:
        return None
    return analyse if hasattr(analyse, "extract_tags") else None


def _tags_part(part, kwargs):
    analyse = _analyse()
    if analyse is None:
        raise NotImplementedError("fenci.dask.extract_tags: this fenci has no fenci.analyse.extract_tags")
    return [analyse.extract_tags(s, **kwargs) for s in _texts(part)]


def cut(bag, model=None, userdict=None, HMM=True, mode="default"):
    """A bag of lists of words: fenci.lcut of each text (str or UTF-8 bytes)
    of bag.  mode: 'default', 'search' (lcut_for_search) or 'all'
    (cut_all=True).  model: a model name or path (None: 'ctb');
    userdict: a jieba user dictionary file, loaded on each worker."""
    return bag.map_partitions(_cut_part, model, userdict, HMM, mode)


def tag(bag, model=None, userdict=None, HMM=True):
    """A bag of lists of (word, flag) tuples: fenci.posseg.lcut of each text."""
    return bag.map_partitions(_tag_part, model, userdict, HMM)


def extract_tags(bag, topK=20, withWeight=False, allowPOS=(), withFlag=False):
    """A bag of keyword lists: fenci.analyse.extract_tags of each text, with
    jieba's arguments (the default model's TF-IDF).  Raises
    NotImplementedError when this fenci has no fenci.analyse."""
    if _analyse() is None:
        raise NotImplementedError("fenci.dask.extract_tags: this fenci has no fenci.analyse.extract_tags")
    kwargs = dict(topK=topK, withWeight=withWeight, allowPOS=tuple(allowPOS), withFlag=withFlag)
    return bag.map_partitions(_tags_part, kwargs)


# ------------------------------------------------------------ folders

def _list_folder(src, pattern):
    files = sorted(p for p in glob.glob(os.path.join(glob.escape(src), "**", pattern), recursive=True)
                   if os.path.isfile(p))
    if not files:
        raise FileNotFoundError("fenci.dask: no file matches %s" % os.path.join(src, "**", pattern))
    return files


def read_folder(src, pattern="*.txt"):
    """A bag of (path, text): every file under folder src (recursively) whose
    name matches pattern, one document per element, read on the workers
    (the folder must be visible to every worker, e.g. a shared mount)."""
    files = _list_folder(src, pattern)
    return db.from_sequence(files, partition_size=1).map(_read_doc)


def _read_doc(path):
    with open(path, "rb") as f:
        return path, f.read().decode("utf-8")


_OPS = ("cut", "tag", "keywords")


def _do_file(path, src, dst, op, model, userdict, HMM, kwargs):
    """Segments (or tags, or extracts the keywords of) one document into
    dst, as the fenci CLI writes it: the words of each line separated by
    spaces ('word/flag' when tagging); keywords: one per line.  Returns
    (path, bytes read, tokens written)."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    out = os.path.join(dst, os.path.relpath(path, src))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    t = tokenizer(model, userdict)
    lines = text.split("\n")  # line ends as the CLI's: "\n" (a "\r" before it is whitespace)
    if lines and not lines[-1]:
        lines.pop()
    rows, n = [], 0
    if op == "cut":
        for ws in t.cut_batch(lines, threads=1, HMM=HMM):
            ws = [w for w in ws if not w.isspace()]
            n += len(ws)
            rows.append(" ".join(ws))
    elif op == "tag":
        from fenci.posseg import POSTokenizer
        pt = POSTokenizer(t)
        for l in lines:
            ws = ["%s/%s" % (p.word, p.flag) for p in pt.lcut(l, HMM=HMM) if not p.word.isspace()]
            n += len(ws)
            rows.append(" ".join(ws))
    else:
        rows = [str(k) for k in _tags_part([text], kwargs)[0]]
        n = len(rows)
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        if rows:
            f.write("\n".join(rows))
            f.write("\n")
    os.replace(tmp, out)
    return path, len(text.encode("utf-8")), n


def cut_folder(src, dst, op="cut", pattern="*.txt", model=None, userdict=None, HMM=True, client=None,
               topK=20, withWeight=False, allowPOS=()):
    """Processes every document under folder src (recursively, names matching
    pattern) into the same relative path under dst, one task per document:
    op 'cut' (the words of each line, separated by spaces), 'tag' (word/flag)
    or 'keywords' (fenci.analyse.extract_tags of the whole document, one per
    line).  Runs on client (a distributed.Client) if given, else on Dask's
    current scheduler.  Returns [(path, bytes read, tokens written)] in path
    order.  src and dst must be visible to every worker."""
    if op not in _OPS:
        raise ValueError("fenci.dask: op must be one of %s, not %r" % (", ".join(_OPS), op))
    if op == "keywords" and _analyse() is None:
        raise NotImplementedError("fenci.dask: op='keywords' needs fenci.analyse.extract_tags")
    src = os.path.abspath(src)
    dst = os.path.abspath(dst)
    files = _list_folder(src, pattern)
    kwargs = dict(topK=topK, withWeight=withWeight, allowPOS=tuple(allowPOS))
    bag = db.from_sequence(files, partition_size=1).map(_do_file, src, dst, op, model, userdict, HMM, kwargs)
    if client is not None:
        return client.compute(bag).result()
    return bag.compute()


# ------------------------------------------------------------ workers

def _open_here(model, userdict):
    tokenizer(model, userdict)
    return fenci.find_model(model)


def register(client, model=None, userdict=None):
    """Opens model (with userdict) on every worker of client now, and on
    every worker that joins later (a distributed WorkerPlugin).  Returns
    {worker address: model path}; raises if a worker cannot open it."""
    from distributed.diagnostics.plugin import WorkerPlugin

    class FenciModel(WorkerPlugin):
        name = "fenci-model-%s-%s" % (model, userdict)

        def setup(self, worker):
            tokenizer(model, userdict)

    client.register_worker_plugin(FenciModel(), name=FenciModel.name)
    # a plugin's failure is only logged by the worker: ask each one
    return client.run(_open_here, model, userdict)

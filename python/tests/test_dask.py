"""fenci.dask on a LocalCluster of 2 worker processes: the results equal the
single-process ones, and each worker opens the model once."""
import os

import pytest

pytest.importorskip("dask.bag", reason="fenci.dask needs Dask: apt-get install python3-dask")
pytest.importorskip("distributed", reason="fenci.dask needs distributed: apt-get install python3-distributed")

import dask.bag as db  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import fenci  # noqa: E402
import fenci.dask as fd  # noqa: E402
import fenci.posseg as pseg  # noqa: E402

# distributed 2022.12 with Debian 12's tornado
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "samples", "napoleon.txt")


def _lines():
    with open(SAMPLE, encoding="utf-8") as f:
        base = f.read().splitlines()
    # the sample's lines, with variations, a long line, Latin text and blanks
    out = []
    for k in range(12):
        for l in base:
            out.append(l if k % 3 else l.replace("，", " ， ") + " abc%d 12.5%%" % k)
        out.append("")
    out.append("".join(base) * 3)
    return out


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # spawned workers import fenci from where this process found it
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(fenci.__file__)))
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = pkg + (os.pathsep + old if old else "")
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                           local_directory=str(tmp_path_factory.mktemp("dask")))
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()
    if old is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = old


def test_register_opens_the_model_on_every_worker(client):
    got = fd.register(client)
    assert len(got) == 2 and set(got.values()) == {fenci.find_model()}
    pids = client.run(os.getpid)
    assert len(set(pids.values())) == 2 and os.getpid() not in pids.values()


def test_cut_bag_equals_single_process(client):
    lines = _lines()
    want = [fenci.lcut(l) for l in lines]
    bag = db.from_sequence(lines, npartitions=6)
    assert client.compute(fd.cut(bag)).result() == want
    assert client.compute(fd.cut(bag, HMM=False)).result() == [fenci.lcut(l, HMM=False) for l in lines]
    assert client.compute(fd.cut(bag, mode="search")).result() == [fenci.lcut_for_search(l) for l in lines]
    # UTF-8 bytes in, the same words out
    bbag = db.from_sequence([l.encode() for l in lines], npartitions=3)
    assert client.compute(fd.cut(bbag)).result() == want
    # the model was opened once per worker, one Tokenizer each
    assert set(client.run(lambda: (len(fenci._models), len(fd._cache))).values()) == {(1, 1)}


def test_tag_bag_equals_single_process(client):
    lines = _lines()[:60]
    got = client.compute(fd.tag(db.from_sequence(lines, npartitions=4))).result()
    assert got == [[(p.word, p.flag) for p in pseg.lcut(l)] for l in lines]


def test_user_dictionary_on_the_workers(client, tmp_path):
    ud = tmp_path / "user.txt"
    ud.write_text("破仑在枫 5 n\n赶回巴黎\n", encoding="utf-8")
    lines = _lines()[:30]
    t = fenci.Tokenizer()
    t.load_userdict(str(ud))
    want = [t.lcut(l) for l in lines]
    assert any("赶回巴黎" in w for w in want)
    got = client.compute(fd.cut(db.from_sequence(lines, npartitions=3), userdict=str(ud))).result()
    assert got == want


def test_keywords_bag(client):
    lines = _lines()[:40]
    bag = db.from_sequence(lines, npartitions=4)
    try:
        from fenci import analyse
        analyse.extract_tags
    except (ImportError, AttributeError):
        with pytest.raises(NotImplementedError):
            fd.extract_tags(bag)
        pytest.skip("this fenci has no fenci.analyse.extract_tags")
    got = client.compute(fd.extract_tags(bag, topK=5, withWeight=True)).result()
    assert got == [analyse.extract_tags(l, topK=5, withWeight=True) for l in lines]


def _cli_lines(text):
    """The lines the CLI (and cut_folder) writes one output line for."""
    if not text:
        return []
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def _write_docs(root):
    lines = _lines()
    docs = {}
    for k in range(7):
        rel = os.path.join("sub" if k % 2 else "", "doc%d.txt" % k)
        text = "\n".join(lines[k * 20:(k + 1) * 20 + k]) + ("\n" if k % 3 else "")
        if k == 5:
            text = text.replace("\n", "\r\n").replace("。", "。\u2028", 1)
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        docs[str(p)] = text
    (root / "skip.dat").write_text("不是文本", encoding="utf-8")
    return docs


def test_cut_folder_equals_single_process(client, tmp_path):
    src, dst = tmp_path / "in", tmp_path / "out"
    docs = _write_docs(src)
    res = fd.cut_folder(str(src), str(dst), client=client)
    assert [r[0] for r in res] == sorted(docs)
    for path, nbytes, ntok in res:
        text = docs[path]
        want = [" ".join(w for w in fenci.lcut(l) if not w.isspace()) for l in _cli_lines(text)]
        out = dst / os.path.relpath(path, str(src))
        assert out.read_text(encoding="utf-8").splitlines() == want
        assert nbytes == len(text.encode()) and ntok == sum(len(w.split()) for w in want)
    assert not (dst / "skip.dat").exists()
    # tagging, and the bag of documents
    res = fd.cut_folder(str(src), str(tmp_path / "tag"), op="tag", client=client)
    p0 = res[0][0]
    want = [" ".join("%s/%s" % (p.word, p.flag) for p in pseg.lcut(l) if not p.word.isspace())
            for l in _cli_lines(docs[p0])]
    assert (tmp_path / "tag" / os.path.relpath(p0, str(src))).read_text(encoding="utf-8").splitlines() == want
    pairs = client.compute(fd.read_folder(str(src))).result()
    assert dict(pairs) == docs
    with pytest.raises(ValueError):
        fd.cut_folder(str(src), str(dst), op="nope")
    with pytest.raises(FileNotFoundError):
        fd.cut_folder(str(tmp_path / "none"), str(dst))

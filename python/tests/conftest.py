import importlib.util
import os
import sys

# tests/python/run.sh puts the in-tree build on PYTHONPATH; when fenci is not
# importable otherwise, fall back to $BUILD/python (default build/python) of
# this checkout.
if importlib.util.find_spec("fenci") is None:
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.abspath(os.path.join(_here, "..", "..", os.environ.get("BUILD", "build"), "python")))

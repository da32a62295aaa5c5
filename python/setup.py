# setup.py - builds the `fenci` Python package: the C extension fenci._fenci
# from python/src/*.c and the library's own sources (../src), so nothing but
# a C compiler and the Python headers is needed (Debian: python3-dev
# python3-setuptools), and nothing is downloaded.
#
#   pip install --no-build-isolation ./python     (Debian 12's pip also wants
#                                                  --break-system-packages, or use a venv)
#   make python                                   (in-tree: build/python, no models copied)
#
# A pip install copies ../models/*.fenci into the package (fenci/models/);
# FENCI_PY_NO_MODELS=1 leaves them out.
import glob
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIB_SRC = sorted(glob.glob(os.path.join(ROOT, "src", "*.c")) + glob.glob(os.path.join(ROOT, "src", "train", "*.c")))
EXT_SRC = sorted(glob.glob(os.path.join(HERE, "src", "*.c")))


class build_py_models(build_py):
    """Also copies the repository's models into the package."""

    def run(self):
        super().run()
        if os.environ.get("FENCI_PY_NO_MODELS"):
            return
        dst = os.path.join(self.build_lib, "fenci", "models")
        os.makedirs(dst, exist_ok=True)
        for f in sorted(glob.glob(os.path.join(ROOT, "models", "*.fenci"))):
            shutil.copyfile(f, os.path.join(dst, os.path.basename(f)))


ext = Extension(
    "fenci._fenci",
    sources=EXT_SRC + LIB_SRC,  # absolute: objects stay inside build_temp
    include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src")],
    define_macros=[("_POSIX_C_SOURCE", "200809L"),
                   ("FENCI_PY_REPO_MODELS", '"%s"' % os.path.join(ROOT, "models").replace("\\", "/"))],
    extra_compile_args=["-std=c11", "-O3", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wno-unused-parameter",
                        "-Wno-missing-field-initializers"],
    libraries=["m", "pthread"],
    # only PyInit__fenci is exported: the library's symbols stay private
    extra_link_args=["-Wl,--version-script=" + os.path.join(HERE, "src", "export.map")],
    depends=[os.path.join(HERE, "src", "export.map")] + sorted(glob.glob(os.path.join(HERE, "src", "*.h")))
    + sorted(glob.glob(os.path.join(ROOT, "include", "*.h")) + glob.glob(os.path.join(ROOT, "src", "*.h"))
             + glob.glob(os.path.join(ROOT, "src", "*.inc")) + glob.glob(os.path.join(ROOT, "src", "train", "*.h"))),
)

setup(
    name="fenci",
    version="0.1.0",
    description="Chinese word segmentation (libfenci) with jieba's API",
    packages=["fenci"],
    package_dir={"fenci": os.path.relpath(os.path.join(HERE, "fenci"), HERE)},
    ext_modules=[ext],
    cmdclass={"build_py": build_py_models},
    python_requires=">=3.10"  # Py_NewRef, PyModule_AddObjectRef,
)

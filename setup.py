"""Packaging beyond pyproject.toml: the compiled kernels, and the metric folders as ``amreval/_metrics/``.

``src/amreval/match/kernels/_kernels.c`` is built as the extension module ``amreval.match.kernels._ckernels`` (plain C,
no NumPy headers; called through ctypes). It is optional: where no C compiler is found the install goes
on and the alignments run in the kernels' pure-Python form, with a warning.

``metrics/docsmatch``, ``metrics/mfbeta`` and ``metrics/smatch`` (script, card, app, examples, requirements) are
copied into the built package, so that ``amreval.hub.load_metric("docsmatch")`` finds them in an installed wheel;
the app Spaces' folders (``spaces/compare``: the app, card, examples, requirements) likewise as
``amreval/_spaces/``, where ``amreval space compare`` finds them.
"""

import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

METRICS = ("docsmatch", "mfbeta", "smatch")
SPACES = ("compare",)
HERE = Path(__file__).resolve().parent


class BuildWithMetrics(build_py):
    def run(self):
        super().run()
        for name in METRICS:
            source = HERE / "metrics" / name
            target = Path(self.build_lib) / "amreval" / "_metrics" / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for name in SPACES:
            source = HERE / "spaces" / name
            if not source.is_dir():  # a tree without the Space folders (the metrics' own test builds)
                continue
            target = Path(self.build_lib) / "amreval" / "_spaces" / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


KERNELS = Extension(
    "amreval.match.kernels._ckernels",
    sources=["src/amreval/match/kernels/_kernels.c"],
    # the same floating-point operations, in the same order, as the Python kernels: no contraction into FMA
    extra_compile_args=["-O2", "-ffp-contract=off", "-fno-fast-math"] if sys.platform != "win32" else [],
    optional=True,
)

setup(cmdclass={"build_py": BuildWithMetrics}, ext_modules=[KERNELS])

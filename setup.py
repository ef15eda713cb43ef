"""Packaging beyond pyproject.toml: the metric folders go into the package as ``amreval/_metrics/``.

``metrics/docsmatch`` and ``metrics/mfbeta`` (script, card, app, examples, requirements) are copied into
the built package, so that ``amreval.hub.load_metric("docsmatch")`` finds them in an installed wheel.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

METRICS = ("docsmatch", "mfbeta")
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


setup(cmdclass={"build_py": BuildWithMetrics})

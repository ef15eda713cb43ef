"""The kernel layer: the alignment engine's inner loops, in compiled C or in plain Python.

:mod:`~amreval.match.kernels.contract` says what every kernel takes and gives (the
:class:`~amreval.match.kernels.contract.KernelBackend` protocol, the problem block's layout),
:mod:`~amreval.match.kernels.checks` checks those inputs once for both backends, and
:mod:`~amreval.match.kernels.backends` holds the two: ``_kernels.c`` through :mod:`ctypes`, and its
specification in Python (``_pool.py``, ``_climb.py``, ``_branch.py``, ``_assign.py``). Nothing here
imports the layers above (the problem, the certified search), so both backends can be tested on
plain arrays.

The rest of :mod:`amreval.match` reaches the kernels through :func:`backend` alone, so one call
decides which backend a run uses.
"""

from __future__ import annotations

from amreval.match.kernels.backends import kernels
from amreval.match.kernels.contract import KernelBackend


def backend() -> KernelBackend:
    """The kernels every search runs on: the compiled C where built, else Python
    (:func:`~amreval.match.kernels.backends.kernels`), chosen on the first call and kept."""
    return kernels()

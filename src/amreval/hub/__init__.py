"""The Hugging Face Hub side: the shipped metrics, model-card reporting and the MS-AMR → DocAMR dataset.

* :mod:`amreval.hub.metrics`: :func:`load_metric` (the ``evaluate`` metrics shipped with the package,
  by name) and :func:`write_space` (a metric's Space folder);
* :mod:`amreval.hub.modelcard`: scores as ``model-index`` metadata (extra ``hub``);
* :mod:`amreval.hub.ms_amr_rows`: the MS-AMR dataset rows, read without ``datasets``;
* :mod:`amreval.hub.ms_amr`: the ``datasets`` builder and the Parquet export (extra ``hub``).

Nothing that needs an extra is imported until used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from amreval._lazy import exports

if TYPE_CHECKING:
    from amreval.hub.metrics import METRICS, load_metric, metric_dir, write_space

__all__ = ["METRICS", "load_metric", "metric_dir", "write_space"]

__getattr__, __dir__ = exports(
    __name__,
    {
        "metrics": (
            "METRICS",
            "load_metric",
            "metric_dir",
            "write_space",
        ),
    },
)

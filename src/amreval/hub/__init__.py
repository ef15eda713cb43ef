"""The Hugging Face Hub side: the shipped metrics, model-card reporting and the MS-AMR → DocAMR dataset.

* :mod:`amreval.hub.metrics`: :func:`load_metric` (the ``evaluate`` metrics shipped with the package,
  by name) and :func:`write_space` (a metric's Space folder);
* :mod:`amreval.hub.metric_io` and :mod:`amreval.hub.metric_compute`: what the metric scripts take and
  give back, and the one call each makes (per-item scores, bootstrap intervals, the paired test);
* :mod:`amreval.hub.space_smatch`, :mod:`amreval.hub.space_docsmatch` and :mod:`amreval.hub.space_mfbeta`:
  the Space apps' pages, built from :mod:`amreval.hub.space_app` (extra ``space``);
* :mod:`amreval.hub.app_spaces` and :mod:`amreval.hub.space_compare`: the Space that compares systems
  (``spaces/compare``: :func:`~amreval.hub.app_spaces.write_app_space` writes its folder), its page and
  its tables (:mod:`amreval.hub.space_compare_parts`);
* :mod:`amreval.hub.modelcard`: scores as ``model-index`` metadata (extra ``hub``);
* :mod:`amreval.hub.ms_amr_rows`: the MS-AMR dataset rows, read without ``datasets``;
* :mod:`amreval.hub.ms_amr`: the ``datasets`` builder and the Parquet export (extra ``hub``).
* :mod:`amreval.hub.trainer`: :func:`make_compute_metrics` (``compute_metrics`` for ``Seq2SeqTrainer``:
  Smatch or DocSmatch of linearized generations, repaired and counted) and :func:`score_generations`.

Nothing that needs an extra is imported until used.
"""

from __future__ import annotations

from amreval._lazy import attach_stub

__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)

"""The metrics' flat outputs of a paired comparison of two systems on the same items.

:func:`compare_results` tests every part two Smatch, S²match or DocSmatch
results both hold, :func:`compare_mfbeta` MFβ, Meaning and Form of two
systems' MFβ items; each test (:func:`~amreval.scores.compare.paired_test`)
becomes ``compare_<key>``, ``<key>_difference``, its interval and
``<key>_p_value``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy.typing as npt

from amreval.scores.compare import paired_test, part_counts, parts_of
from amreval.scores.comparison import PairedTest
from amreval.scores.mfcounts import mf_statistics
from amreval.scores.statistic import prf_statistic

__all__ = ["compare_results", "compare_mfbeta"]


def _test_outputs(tests: Sequence[tuple[str, PairedTest]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for base, t in tests:
        out[f"compare_{base}"] = t.score_b
        out[f"{base}_difference"] = t.difference
        out[f"{base}_difference_ci_low"] = t.ci_low
        out[f"{base}_difference_ci_high"] = t.ci_high
        out[f"{base}_p_value"] = t.p_value
    return out


def compare_results(result_a: Any, result_b: Any, *, statistic: str = "f1", **kw: Any) -> dict[str, float]:
    """Flat outputs comparing two systems' results of one score on the same items (for the metrics).

    For every part both results hold (overall, the coreference parts, the
    fine-grained scores), with ``<part>`` the result's key of the statistic
    (``f1``, ``coref_f1``, ``srl_f1``, ...): ``compare_<part>`` (the second
    system's score), ``<part>_difference`` (first minus second), its interval
    ``<part>_difference_ci_low`` / ``_ci_high``, and ``<part>_p_value``.

    Args:
        kw: ``test``, ``n_resamples``, ``seed``, ``alternative``, ``confidence``
            (see :func:`~amreval.scores.compare.paired_test`).
    """
    stat = prf_statistic(statistic)
    b_parts = set(parts_of(result_b))
    tests = []
    for part in parts_of(result_a):
        if part not in b_parts:
            continue
        base = statistic if part == "overall" else f"{part}_{statistic}"
        tests.append(
            (
                base,
                paired_test(
                    part_counts(result_a.pairs, part),
                    part_counts(result_b.pairs, part),
                    statistic=stat,
                    score="docsmatch" if part == "overall" else part,
                    **kw,
                ),
            )
        )
    return _test_outputs(tests)


def compare_mfbeta(items_a: npt.ArrayLike, items_b: npt.ArrayLike, *, beta: float = 1.0, **kw: Any) -> dict[str, float]:
    """Flat outputs comparing two systems' MFβ items (see :func:`compare_results`): ``compare_mf_beta``,
    ``mf_beta_difference``, ``mf_beta_difference_ci_low``, ..., ``mf_beta_p_value``, and the same for
    ``meaning`` and ``form``."""
    return _test_outputs(
        [(name, paired_test(items_a, items_b, statistic=stat, score=name, **kw)) for name, stat in mf_statistics(beta)]
    )

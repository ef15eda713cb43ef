"""The one bootstrap: its draws, its interval, and every entry point giving the intervals it always gave."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import bootstrap as scipy_bootstrap

from amreval.mfbeta.counts import bootstrap_mfbeta, mfbeta_statistic
from amreval.scores.bootstrap import (
    bootstrap_interval,
    bootstrap_prf,
    percentile_interval,
    resample_sums,
    score_intervals,
)
from amreval.scores.compare import paired_test
from amreval.scores.f1 import bootstrap_f1
from amreval.scores.results import PairScore

# matched (graded on two items), predicted, gold per item; and a second system on the same items
A = [[3, 4, 4], [5, 5, 6], [2, 4, 3], [0.5, 2, 2], [7, 9, 8], [1, 3, 2], [4.25, 6, 5]]
B = [[2, 4, 4], [5, 6, 6], [1, 4, 3], [1.5, 2, 2], [6, 8, 8], [2, 3, 2], [3, 6, 5]]
ACCEPTABLE = [1, 0, 1, 1, 0, 1, 1]


class Result:
    """A result as the intervals read it: its pairs."""

    def __init__(self, rows):
        self.pairs = [PairScore(m, t, g, True, float(m)) for m, t, g in rows]


def test_the_draws_are_numpy_s_integers_from_the_seeded_generator():
    # one column 1, 10, 100: each resample's sum says how often it drew each item
    sums = resample_sums(np.array([[1.0], [10.0], [100.0]]), 6, seed=7)
    drawn = np.random.default_rng(7).integers(0, 3, (6, 3))
    assert sums[:, 0].tolist() == np.array([1.0, 10.0, 100.0])[drawn].sum(axis=1).tolist()
    assert all(sum(int(d) for d in f"{int(s):03d}") == 3 for s in sums[:, 0])  # three items per resample
    # every column is summed over the same items
    both = resample_sums(np.array([[1.0, 2.0], [10.0, 20.0], [100.0, 200.0]]), 6, seed=7)
    assert (both[:, 1] == 2 * both[:, 0]).all() and (both[:, 0] == sums[:, 0]).all()
    # a negative seed counts modulo 2**128
    assert (resample_sums(np.array(A), 50, seed=-3) == resample_sums(np.array(A), 50, seed=2**128 - 3)).all()


def test_the_percentile_interval_by_hand():
    low, high = percentile_interval(np.arange(101.0), 0.75)  # the 12.5% and 87.5% quantiles of 0, 1, ..., 100
    assert (float(low), float(high)) == (12.5, 87.5)
    low, high = percentile_interval(np.array([[0.0, 1.0, 2.0, 3.0, 4.0], [10.0, 10.0, 10.0, 10.0, 20.0]]), 0.5)
    assert low.tolist() == [1.0, 10.0] and high.tolist() == [3.0, 10.0]


def test_every_entry_point_gives_the_intervals_it_gave_before():
    """The values of the bootstraps these entry points ran before they shared one (same counts, same seeds)."""
    f1 = (0.5637632978723405, 0.8117647058823529)
    precision, recall = (0.519162087912088, 0.8023255813953488), (0.6125, 0.8353658536585366)
    assert bootstrap_f1(Result(A).pairs, n_resamples=999, seed=4) == f1
    assert bootstrap_f1(Result(A).pairs, n_resamples=999, seed=-4) == (0.5609756097560976, 0.821917808219178)
    assert bootstrap_prf(A, n_resamples=999, seed=4) == {"precision": precision, "recall": recall, "f1": f1}
    assert bootstrap_interval(A, "recall", n_resamples=999, seed=4) == recall
    assert score_intervals(Result(A), n_resamples=999, seed=4) == {
        "precision_ci_low": precision[0],
        "precision_ci_high": precision[1],
        "recall_ci_low": recall[0],
        "recall_ci_high": recall[1],
        "f1_ci_low": f1[0],
        "f1_ci_high": f1[1],
    }
    items = np.column_stack([np.array(A), ACCEPTABLE])
    assert bootstrap_mfbeta(items, beta=2.0, n_resamples=999, seed=4) == {
        "mf_beta_ci_low": 0.4700493662786029,
        "mf_beta_ci_high": 0.9079601990049752,
        "meaning_ci_low": f1[0],  # Meaning is F1 of the same counts, from the same resamples
        "meaning_ci_high": f1[1],
        "form_ci_low": 3 / 7,
        "form_ci_high": 1.0,
    }
    t = paired_test(A, B, test="bootstrap", n_resamples=999, seed=4)
    assert (t.ci_low, t.ci_high, t.p_value) == (-0.07834846970819928, 0.1944679849340865, 0.276)


def _prf(which):
    def stat(m, t, g, axis=-1):
        ms, ts, gs = m.sum(axis=axis), t.sum(axis=axis), g.sum(axis=axis)
        with np.errstate(divide="ignore", invalid="ignore"):
            p, r = ms / ts, ms / gs
            value = {"precision": p, "recall": r}.get(which)
            if value is None:
                value = np.where(p + r != 0, 2 * p * r / (p + r), 0.0)
        return np.where((ts > 0) & (gs > 0), value, 0.0)

    return stat


@pytest.mark.parametrize("n, seed", [(40, 3), (1500, 0)])  # 1500 items: resamples drawn in batches
def test_the_intervals_are_scipy_s_paired_percentile_bootstrap(n, seed):
    rng = np.random.default_rng(n)
    test, gold = rng.integers(1, 30, n), rng.integers(1, 30, n)
    counts = np.column_stack([np.minimum(test, gold) * rng.uniform(0.2, 1.0, n), test, gold])
    other = np.column_stack([np.minimum(test, gold) * rng.uniform(0.2, 1.0, n), test, gold])
    columns = tuple(counts[:, j] for j in range(3))
    kw = dict(paired=True, vectorized=True, n_resamples=2001, method="percentile", confidence_level=0.9)
    for which in ("f1", "precision", "recall"):
        ci = scipy_bootstrap(columns, _prf(which), rng=np.random.default_rng(seed), **kw).confidence_interval
        assert bootstrap_interval(counts, which, n_resamples=2001, confidence=0.9, seed=seed) == (ci.low, ci.high)

    def dice(m, t, g, axis=-1):
        ms, ts, gs = m.sum(axis=axis), t.sum(axis=axis), g.sum(axis=axis)
        return np.where((ts > 0) & (gs > 0), 2 * ms / (ts + gs), 0.0)

    ci = scipy_bootstrap(columns, dice, rng=np.random.default_rng(seed), **kw).confidence_interval
    pairs = [PairScore(float(m), int(t), int(g), True, 0.0) for m, t, g in counts]
    assert bootstrap_f1(pairs, n_resamples=2001, confidence=0.9, seed=seed) == (ci.low, ci.high)

    def difference(*cols, axis=-1):
        return _prf("f1")(*cols[:3], axis=axis) - _prf("f1")(*cols[3:], axis=axis)

    both = columns + tuple(other[:, j] for j in range(3))
    res = scipy_bootstrap(both, difference, rng=np.random.default_rng(seed), **kw)
    t = paired_test(counts, other, test="bootstrap", n_resamples=2001, confidence=0.9, seed=seed)
    assert (t.ci_low, t.ci_high) == (res.confidence_interval.low, res.confidence_interval.high)

    flags = (rng.uniform(size=n) < 0.6).astype(float)
    mf = mfbeta_statistic(0.5)
    res = scipy_bootstrap(
        (*columns, flags),
        lambda *cols, axis=-1: mf(np.stack([c.sum(axis=axis) for c in cols], axis=-1), n),
        rng=np.random.default_rng(seed),
        **kw,
    )
    out = bootstrap_mfbeta(np.column_stack([counts, flags]), beta=0.5, n_resamples=2001, confidence=0.9, seed=seed)
    ci = res.confidence_interval
    assert (out["mf_beta_ci_low"], out["mf_beta_ci_high"]) == (ci.low, ci.high)

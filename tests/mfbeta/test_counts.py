"""MFβ's per-item counts, statistic and comparisons (:mod:`amreval.mfbeta.counts`)."""

from __future__ import annotations

import numpy as np
import pytest

from amreval import InputError
from amreval.mfbeta.counts import compare_mfbeta_systems, mfbeta_items, mfbeta_statistic
from amreval.scores.compare import compare_systems
from amreval.scores.vectors import WordVectors


def test_mfbeta_items_from_precomputed_parts():
    from amreval.mfbeta.score import mfbeta

    vecs = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
    gold = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "(c / cat)", "(s / sleep-01)"]
    parses = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))", "(c / cat :mod (b / big))", None]
    items = mfbeta_items(parses, gold, [0.5, 0.4, 0.46], vectors=vecs)
    # go-01/go-02 earns 0.5 (another sense), the other 6 of 7 triples 1; cat and TOP of 4 and 2;
    # acceptable: prefScore at least 0.5 - 0.05
    assert items[:2].tolist() == [[6.5, 7, 7, 1], [2, 4, 2, 0]]
    # the failed parse is MFβ's one-node stand-in: 2 triples against 2
    assert items[2, 1:].tolist() == [2, 2, 1]

    class Fixed:
        def sentence_scores(self, sentences, *, progress=None):
            return np.array([{"a": 1.0, "b": 0.4, "c": 0.46}.get(s, 0.54) for s in sentences])

    r = mfbeta(
        ["a", "b", "c"], ["x", "y", "z"], reference_amrs=gold, prediction_amrs=parses, scorer=Fixed(), vectors=vecs
    )
    assert tuple(items[:, :3].sum(axis=0)) == r.meaning_counts
    assert items[:, 3].astype(bool).tolist() == r.acceptable
    stat = mfbeta_statistic(r.beta)
    assert float(stat(items.sum(axis=0), 3)) == pytest.approx(r.mf_beta)
    with pytest.raises(InputError, match="precision and recall exist for meaning only"):
        mfbeta_statistic(part="form", which="recall")


def test_compare_mfbeta_by_hand():
    vecs = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
    gold = ["(c / cat)", "(c / cat)", "(c / cat)"]
    big = "(c / cat :mod (b / big))"  # cat and TOP match: 2 of 4 against 2
    first = ["(c / cat)", big, "(c / cat)"]
    second = [big, big, "(c / cat)"]
    form = {"one": [True, True, False], "two": [True, False, False]}
    cmp = compare_mfbeta_systems({"one": first, "two": second}, gold, score="mfbeta", form=form, vectors=vecs)
    # Meaning: one (6, 8, 6): F 6/7; two (6, 10, 6): F 3/4; Form 2/3 and 1/3
    assert cmp.counts["one"].sum(axis=0).tolist() == [6, 8, 6, 2]
    m1, m2 = 6 / 7, 3 / 4
    assert cmp.scores["one"] == pytest.approx(2 * m1 * (2 / 3) / (m1 + 2 / 3))
    assert cmp.scores["two"] == pytest.approx(2 * m2 * (1 / 3) / (m2 + 1 / 3))
    by_part = {t.score: t for t in cmp.breakdown}
    assert by_part["form"].difference == pytest.approx(1 / 3)
    assert by_part["meaning"].difference == pytest.approx(6 / 7 - 3 / 4)
    # Form differs on item 2 only: every swap gives +-1/3, p = 1
    assert by_part["form"].p_value == 1.0
    # MFβ: item 3 is alike; swapping item 1 or 2 alone gives +-(MF(m2, 2/3) - MF(m1, 1/3)), smaller: 4 of 8
    assert cmp.test().exact and cmp.test().p_value == 0.5
    with pytest.raises(InputError, match="MFβ needs each system's Form"):
        compare_mfbeta_systems({"one": first, "two": second}, gold, score="form", form=None, vectors=vecs)
    with pytest.raises(InputError, match=r"form= names \['one'\] but the systems are \['one', 'two'\]"):
        compare_mfbeta_systems({"one": first, "two": second}, gold, form={"one": form["one"]}, vectors=vecs)
    # the other scores' comparison says where MFβ's is
    with pytest.raises(InputError, match="form is an MFβ score: compare it with amreval.mfbeta.counts.compare_mfbeta"):
        compare_systems({"one": first, "two": second}, gold, score="form")

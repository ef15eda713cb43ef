"""One name per setting in the Python API: ``ci`` and ``n_resamples`` for the intervals, the coreference
sub-score on by default, the old names still taken with one warning each."""

from __future__ import annotations

import warnings

import pytest

from amreval import RenamedSettingWarning, docsmatch, s2match, smatch
from amreval.scores.vectors import WordVectors

GOLD = ["(w / want-01 :ARG0 (b / boy))", "(c / cat)", "(s / sleep-01 :ARG0 (d / dog))"]
PRED = ["(w / want-01 :ARG0 (b / girl))", "(c / cat)", "(s / sleep-01 :ARG0 (d / cat))"]
DOC = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
SPLIT = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))"


@pytest.fixture
def fresh_warnings(monkeypatch):
    monkeypatch.setattr("amreval._warn._WARNED", set())


def test_bootstrap_is_ci_and_n_resamples(fresh_warnings):
    new = smatch(PRED, GOLD, ci=True, n_resamples=300)
    with pytest.warns(RenamedSettingWarning, match=r"^bootstrap=N is deprecated; use ci=True, n_resamples=N"):
        old = smatch(PRED, GOLD, bootstrap=300)
    assert old.ci == new.ci and new.ci is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per process
        assert smatch(PRED, GOLD, bootstrap=0).ci is None
        assert docsmatch([SPLIT], [DOC], bootstrap=0).ci is None
    assert smatch(PRED, GOLD).ci is None and smatch(PRED, GOLD, n_resamples=50).ci is None  # ci asks for it
    # 10000 resamples by default, as every resampling of amreval
    assert smatch(PRED, GOLD, ci=True).ci == smatch(PRED, GOLD, ci=True, n_resamples=10000).ci
    vectors = WordVectors.from_dict({"boy": [1.0, 0.0], "girl": [0.8, 0.6]})
    assert s2match(PRED, GOLD, vectors=vectors, ci=True, n_resamples=200).ci is not None


def test_coref_is_on_by_default():
    result = docsmatch([SPLIT], [DOC])
    assert result.coref is not None and result.coref.total == (0, 0, 2)
    assert result.as_dict() == docsmatch([SPLIT], [DOC], coref=True).as_dict()
    assert docsmatch([SPLIT], [DOC], coref=False).coref is None
    # SMATCH++'s readings: the sub-score reads smatch's triples, so it is off unless asked for
    assert docsmatch([SPLIT], [DOC], standardize="smatchpp-amr").coref is None


def test_items_are_indexed_from_0_and_numbered_from_1():
    from amreval.report.comparison import items_csv, summary_text
    from amreval.scores.compare import compare_counts

    cmp = compare_counts({"a": [[3, 4, 4], [1, 2, 2]], "b": [[3, 4, 4], [0, 2, 2]]}, ids=["x", "y"])
    d = cmp.differences()[0]
    assert (d.index, d.number, d.id, d.difference) == (1, 2, "y", 0.5)
    assert summary_text(cmp).splitlines()[-3:] == [
        "item  id       a       b  difference",
        "   2  y   0.5000  0.0000     +0.5000",
        "   1  x   0.7500  0.7500     +0.0000",
    ]
    assert items_csv(cmp).splitlines()[1].startswith("2,y,")
    assert cmp.as_dict()["largest_differences"][0]["index"] == 1

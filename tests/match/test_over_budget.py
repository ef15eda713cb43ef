"""Pairs over the memory budget are scored, never fatal: aligned over each node's best candidates, counted in
``n_over_budget`` and named in one warning; ``strict`` keeps the error. Identity is proven without the search."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from amreval import AmrevalWarning, docsmatch, s2match, smatch
from amreval.amr.graph import Attribute, Edge, Graph
from amreval.amr.read import loads_graph
from amreval.cli import main
from amreval.errors import TooLargeError
from amreval.match import approximate
from amreval.match import problem as problem_module
from amreval.match.alignment import align
from amreval.match.approximate import _simple_bound, identity_alignment, node_bound, restricted_problem
from amreval.match.certify.bounds import assignment_bound
from amreval.match.problem import Candidates, build_problem
from amreval.match.triples import encode_pair, graph_triples
from amreval.scores.vectors import WordVectors

# concepts swapped: both instances match with the nodes crossed, the relation and TOP only with them straight;
# so the optimum is 2 of 4 triples, and the per-key bound (x 1, y 1, TOP 1, :r 1) is 4. The node bound is 2:
# a with a earns TOP and half the relation (1.5), b with b the other half (0.5), a with b and b with a 1 each
SWAPPED = ("(a / x :r (b / y))", "(a / y :r (b / x))")
# roles swapped: the optimum is 4 of 6 (the three instances and TOP, or x, TOP and both relations with y and z
# crossed); the per-key bound is 6 (x, y, z, TOP, :r, :s), the node bound 5: a with p earns x, TOP and half
# of each relation at both ends (3), b with q and c with t a concept each (their relations' roles differ)
CROSSED = ("(a / x :r (b / y) :s (c / z))", "(p / x :s (q / y) :r (t / z))")


def one_concept_chain(n: int) -> Graph:
    return Graph(
        top="n0",
        instances={f"n{i}": "x" for i in range(n)},
        edges=[Edge(f"n{i}", "r", f"n{i + 1}", "r") for i in range(n - 1)],
    )


def random_graph(rng: np.random.Generator) -> Graph:
    n = int(rng.integers(1, 8))
    concepts = [f"c{int(x)}" for x in rng.integers(0, 3, n)]
    ends = zip(rng.integers(0, n, 2 * n), rng.integers(0, 2, 2 * n), rng.integers(0, n, 2 * n))
    edges = sorted({(int(s), f"r{int(r)}", int(t)) for s, r, t in ends})
    attrs = [Attribute(f"n{int(s)}", "polarity", "-") for s in set(rng.integers(0, n, 2).tolist())]
    return Graph(
        top="n0",
        instances={f"n{i}": concepts[i] for i in range(n)},
        edges=[Edge(f"n{s}", r, f"n{t}", r) for s, r, t in edges],
        attributes=attrs,
    )


def terms_of(p):
    ends = zip(p.pair_src[p.term_p].tolist(), p.pair_tgt[p.term_p].tolist())
    other = zip(p.pair_src[p.term_q].tolist(), p.pair_tgt[p.term_q].tolist())
    return sorted(zip(p.term_ta.tolist(), p.term_tb.tolist(), ends, other, p.term_w.tolist()))


def random_case(rng, *, attribute_weights: bool):
    """A random pair of graphs (up to 7 nodes) encoded and B's triples, with sentence groups (4 in 10), a
    concept table (3 in 10) and B's weights (3 in 10: relations', and attributes' where ``attribute_weights``)."""
    a, b = graph_triples(random_graph(rng)), graph_triples(random_graph(rng))
    groups = None
    if rng.random() < 0.4:
        pick = lambda n: [sorted(set(rng.integers(0, 3, 2).tolist())) for _ in range(n)]  # noqa: E731
        groups = Candidates.from_lists(pick(len(a.concepts)), pick(len(b.concepts)))
    table = rng.random((len(a.concepts), len(b.concepts))) if rng.random() < 0.3 else None
    bw = None
    if rng.random() < 0.3:
        attributes = rng.random(len(b.attributes)) + 0.5 if attribute_weights else None
        bw = (None, attributes, rng.random(len(b.relations)) + 0.5)
    return encode_pair(a, b), b, groups, table, bw


def test_keeping_every_candidate_gives_the_whole_problem():
    # the restricted problem over all candidates (graphs of up to 7 nodes, 32 kept a node) is the built one:
    # the same pairs with the same unary weights, the same terms; its bound is above the optimum
    rng = np.random.default_rng(0)
    for _ in range(150):
        pair, _, groups, table, bw = random_case(rng, attribute_weights=False)
        whole = build_problem(pair, allowed=groups, instance_weights=table, b_weights=bw)
        kept = restricted_problem(pair, allowed=groups, instance_weights=table, b_weights=bw)
        assert kept.restricted and kept.integral == whole.integral
        assert kept.pair_src.tolist() == whole.pair_src.tolist() and kept.pair_tgt.tolist() == whole.pair_tgt.tolist()
        assert np.allclose(kept.pair_u, whole.pair_u)
        assert [t[:4] for t in terms_of(kept)] == [t[:4] for t in terms_of(whole)]
        assert np.allclose([t[4] for t in terms_of(kept)], [t[4] for t in terms_of(whole)])
        assert kept.bound >= align(whole).score - 1e-9


def test_the_node_bound_is_the_whole_problems_assignment_bound():
    # computed without the terms, it is above the optimum always; without sentence groups it is the whole
    # problem's assignment bound (the same values over the same pairs), with them at least that (a term's far
    # end is not checked against the groups); the restricted problem's bound is the lower of it and the
    # per-key bound
    rng = np.random.default_rng(1)
    for _ in range(300):
        pair, b, groups, table, bw = random_case(rng, attribute_weights=True)
        whole = build_problem(pair, allowed=groups, instance_weights=table, b_weights=bw)
        optimum = align(whole)
        assert optimum.optimal
        found = node_bound(pair, allowed=groups, instance_weights=table, b_weights=bw)
        assert found >= optimum.score - 1e-9
        if groups is None:
            assert min(found, whole.bound) == pytest.approx(assignment_bound(whole), abs=1e-9)
        else:
            assert min(found, whole.bound) >= assignment_bound(whole) - 1e-9
        sizes = (len(b.concepts), len(b.attributes), len(b.relations))
        weights = tuple(np.ones(n) if w is None else w for w, n in zip(bw or (None,) * 3, sizes))
        kept = restricted_problem(pair, allowed=groups, instance_weights=table, b_weights=bw)
        assert kept.bound == min(found, _simple_bound(pair, table, weights))


def test_the_node_bound_by_hand(monkeypatch):
    swapped = encode_pair(*(graph_triples(loads_graph(x)) for x in SWAPPED))
    crossed = encode_pair(*(graph_triples(loads_graph(x)) for x in CROSSED))
    # the assignment of the node pairs' values: a-a 1.5 with b-b 0.5, or a-b 1 with b-a 1 (SWAPPED); a-p 3,
    # b-q 1, c-t 1 (CROSSED; b-t and c-q 0.5 each, half the relation into them)
    assert (node_bound(swapped), node_bound(crossed)) == (2.0, 5.0)
    # the restriction to sentence groups: a with b and b with a in none, so a-a and b-b are left
    groups = Candidates.from_lists([[0], [1]], [[0], [1]])
    assert node_bound(swapped, allowed=groups) == 2.0
    groups = Candidates.from_lists([[0], [0]], [[1], [1]])
    assert node_bound(swapped, allowed=groups) == 0.0
    # without the assignment, the lower of the rows' and the columns' best values: rows a 1.5 and b 1,
    # columns a 1.5 and b 1 (SWAPPED); 3 + 1 + 1 both ways (CROSSED)
    monkeypatch.setattr(approximate, "OVER_BUDGET_ASSIGNMENT_WORK", 0)
    assert (node_bound(swapped), node_bound(crossed)) == (2.5, 5.0)


def test_the_node_bound_proves_a_pair_the_per_key_bound_does_not(monkeypatch):
    # SWAPPED over the budget: the climb over one candidate a node finds 2 of 4; the per-key bound was 4 and
    # left it unproven, the node bound is 2
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    with pytest.warns(AmrevalWarning, match="1 of 1 pair was over"):
        r = smatch([SWAPPED[0]], [SWAPPED[1]])
    assert [(p.match, p.test, p.gold, p.optimal, p.bound, p.over_budget) for p in r.pairs] == [(2, 4, 4, True, 2, True)]
    assert (r.as_dict()["n_over_budget"], r.as_dict()["n_unproven"], r.gap) == (1, 0, 0.0)


def test_a_pair_over_the_budget_is_scored_as_a_lower_bound(monkeypatch):
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    with pytest.warns(AmrevalWarning) as caught:
        r = smatch(["(a / b)", CROSSED[0], "(c / d)"], ["(a / b)", CROSSED[1], "(c / e)"])
    # (a / b) against itself: identity, 2 of 2, no problem built; the crossed pair 4 of 6 under the node bound 5;
    # (c / d) against (c / e): TOP alone, 1 of 2, which reaches its bound (TOP 1, the concepts differ): proven
    assert [(p.match, p.test, p.gold, p.optimal, p.bound, p.over_budget) for p in r.pairs] == [
        (2, 2, 2, True, 2, False),
        (4, 6, 6, False, 5, True),
        (1, 2, 2, True, 1, True),
    ]
    assert (r.match, r.test, r.gold, r.n_optimal, r.over_budget, r.unproven, r.gap) == (7, 10, 10, 2, [1, 2], [1], 1.0)
    out = r.as_dict()
    assert (out["n_over_budget"], out["n_unproven"], out["gap"]) == (2, 1, 1.0)
    assert [str(w.message) for w in caught] == [
        "2 of 3 pairs were over the alignment's memory budget (0.0 GiB) and were aligned within it, scores not "
        "proven optimal (pair #2 (prediction #2, graph #1, line 1 against reference #2, "
        "graph #1, line 1); pair #3 (prediction #3, graph #1, line 1 against reference #3, graph #1, line 1)); "
        "pass strict=True (--strict) to stop at the first"
    ]
    # the certified search, within the budget, proves the same 4
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 4 * 1024**3)
    exact = smatch([CROSSED[0]], [CROSSED[1]])
    assert (exact.match, exact.n_optimal, exact.as_dict()["n_over_budget"]) == (4, 1, 0)


def test_strict_keeps_the_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    with pytest.raises(TooLargeError, match=r"^pair #1 \(prediction #1, .*: the alignment problem of 2 x 2 nodes"):
        smatch([SWAPPED[0]], [SWAPPED[1]], strict=True)
    (tmp_path / "p.amr").write_text(SWAPPED[0] + "\n")
    (tmp_path / "g.amr").write_text(SWAPPED[1] + "\n")
    for extra in ([], ["--averages"]):
        assert main(["smatch", "-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr"), "--strict", *extra]) == 1
        assert "the alignment problem of 2 x 2 nodes has 1 pairwise terms" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [[], ["--averages"], ["-j", "2"]], ids=["streamed", "whole", "workers"])
def test_the_command_line_keeps_the_pairs_before_and_after(monkeypatch, tmp_path, capsys, extra):
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    (tmp_path / "p.amr").write_text(f"(a / b)\n\n{CROSSED[0]}\n\n(c / d :r (e / f))\n")
    (tmp_path / "g.amr").write_text(f"(a / b)\n\n{CROSSED[1]}\n\n(c / d :r (e / f))\n")
    files = ["-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr")]
    assert main(["smatch", *files, "--json", *extra]) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)
    # 2 + 4 + 4 of 2 + 6 + 4: the pairs before and after the one over the budget scored in full (they are the
    # same up to names: no problem is built for them)
    assert (out["match"], out["test"], out["gold"], out["n_pairs"]) == (10, 12, 12, 3)
    assert (out["n_optimal"], out["n_unproven"], out["n_over_budget"], out["gap"]) == (2, 1, 1, 1.0)
    assert printed.err.count("over the alignment's memory budget") == 1
    assert "1 of 3 pairs was over the alignment's memory budget (0.0 GiB)" in printed.err
    assert f"pair #2 ({tmp_path / 'p.amr'}, graph #2" in printed.err  # the second pair: its graphs #2
    assert main(["smatch", *files, *extra]) == 0
    assert capsys.readouterr().out.startswith("F-score: 0.83\n")  # 10 / 12


def test_docsmatch_and_s2match_score_a_pair_over_the_budget(monkeypatch):
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    with pytest.warns(AmrevalWarning, match="1 of 1 pair was over"):
        d = docsmatch([CROSSED[0]], [CROSSED[1]], coref=True)
    assert (d.match, d.test, d.gold, d.n_optimal, d.as_dict()["n_over_budget"]) == (4, 6, 6, 0, 1)
    assert d.pairs[0].bound == 5
    vectors = WordVectors.from_dict({"x": [1.0, 0.0], "y": [0.0, 1.0]})
    with pytest.warns(AmrevalWarning, match="1 of 1 pair was over"):
        s = s2match([SWAPPED[0]], [SWAPPED[1]], vectors=vectors)
    # a budget of nothing keeps one candidate a node, the one sharing most (a with a: TOP and the :r out of
    # both), so the climb has the relation alone (TOP earns the roots' similarity, 0); within the budget, 2.0.
    # The bound is the node bound, 2.0: a with a earns half the relation (TOP earns sim(x, y) = 0), b with b
    # the other half, a with b and b with a their concepts' similarity 1 each, and 1 + 1 is the best
    # assignment (the per-key bound is 3.0: the instances' best similarities and the relation)
    assert (s.match, s.pairs[0].bound, s.n_optimal, s.as_dict()["n_over_budget"]) == (1.0, 2.0, 0, 1)
    with pytest.raises(TooLargeError):
        docsmatch([SWAPPED[0]], [SWAPPED[1]], strict=True)


def test_s2match_of_a_graph_against_itself_is_proven_without_the_search(monkeypatch, recwarn):
    # equal concepts earn 1, the most a triple earns under S²match: the identity is its optimum too, so a pair
    # the same up to names needs no problem, within the budget or over it (as Smatch's)
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    vectors = WordVectors.from_dict({"x": [1.0, 0.0], "y": [0.0, 1.0]})
    s = s2match([SWAPPED[0]], ["(p / x :r (q / y))"], vectors=vectors)
    assert (s.match, s.n_optimal, s.as_dict()["n_over_budget"], s.pairs[0].mapping.tolist()) == (4.0, 1, 0, [0, 1])
    assert not [w for w in recwarn if issubclass(w.category, AmrevalWarning)]


def test_score_generations_counts_a_generation_over_the_budget(monkeypatch):
    from amreval.hub.trainer import score_generations

    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    with pytest.warns(AmrevalWarning, match="1 of 2 pairs was over"):
        out = score_generations([CROSSED[0], "(a / b)"], [CROSSED[1], "(a / b)"])
    assert (out["smatch_match"], out["smatch_test"], out["smatch_n_over_budget"], out["smatch_n_unproven"]) == (
        6,
        8,
        1,
        1,
    )


def test_the_metric_counts_a_pair_over_the_budget(monkeypatch):
    from amreval.hub.metric_compute import docsmatch_results

    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    with pytest.warns(AmrevalWarning, match="1 of 1 pair was over"):
        out = docsmatch_results([CROSSED[0]], [CROSSED[1]])
    assert (out["match"], out["n_over_budget"], out["n_unproven"]) == (4, 1, 1)


@pytest.mark.parametrize("n", [1000, 5000])
def test_a_one_concept_chain_against_itself_is_proven_without_the_search(n, tmp_path, capsys):
    # (n - 1)^2 pairwise terms for the search (24,990,001 at 5000, far over the budget); none built
    chain = one_concept_chain(n)
    start = time.perf_counter()
    r = smatch([chain], [chain])
    assert (r.match, r.test, r.gold, r.f1, r.n_optimal, r.as_dict()["n_over_budget"]) == (
        2 * n,
        2 * n,
        2 * n,
        1.0,
        1,
        0,
    )
    # the same up to variable names
    renamed = Graph(
        top="v0",
        instances={f"v{i}": "x" for i in range(n)},
        edges=[Edge(f"v{i}", "r", f"v{i + 1}", "r") for i in range(n - 1)],
    )
    assert smatch([renamed], [chain]).n_optimal == 1
    assert time.perf_counter() - start < 10
    path = tmp_path / "chain.amr"
    path.write_text(chain.to_string() + "\n")
    assert main(["smatch", "-f", str(path), str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["f1"], out["n_optimal"], out["n_over_budget"]) == (1.0, 1, 0)
    assert time.perf_counter() - start < 30


def test_identity_needs_the_same_triples_in_the_same_order():
    a = graph_triples(one_concept_chain(3))
    assert identity_alignment(encode_pair(a, a)).score == 6.0
    # a node that may not align with itself
    assert identity_alignment(encode_pair(a, a), Candidates.from_lists([[0], [0], [1]], [[0], [1], [1]])) is None
    b = graph_triples(one_concept_chain(4))
    assert identity_alignment(encode_pair(a, b)) is None


def test_lp_bounds_over_the_budget_end_the_search_unproven(monkeypatch):
    # the build and the climbs are counted by memory_estimate (1 term, 3 entries: 1 MiB and 480 bytes), the
    # LP steps apart by lp_memory_estimate (128 MiB and more): a budget of 2 MiB holds the first, not the
    # second. The exact search and the assignment bound are kept from proving the pair, so the LP is next
    from amreval.match import alignment as alignment_module

    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 2 * 1024**2)
    monkeypatch.setattr(alignment_module, "BRANCH_MAX_PAIRS", 0)
    monkeypatch.setattr(alignment_module, "assignment_bound", lambda problem: problem.bound)
    with pytest.warns(AmrevalWarning, match="1 of 1 pair was over the alignment's memory budget"):
        r = smatch([SWAPPED[0]], [SWAPPED[1]])
    assert [(p.match, p.optimal, p.bound, p.over_budget) for p in r.pairs] == [(2, False, 4, True)]
    with pytest.raises(
        TooLargeError,
        match=r"^pair #1 \(.*\): the alignment problem of 2 x 2 nodes has 1 pairwise terms and 4 candidate "
        r"pairs; its LP bounds need about 0.1 GiB, over the budget of 0.0 GiB",
    ):
        smatch([SWAPPED[0]], [SWAPPED[1]], strict=True)
    # within the budget, the LP proves the 2
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 4 * 1024**3)
    assert smatch([SWAPPED[0]], [SWAPPED[1]]).n_optimal == 1


@pytest.mark.parametrize("extra", [[], ["--coref-subscore", "-j", "2"]], ids=["streamed", "coref-workers"])
def test_docsmatch_on_the_command_line_keeps_the_documents_before_and_after(monkeypatch, tmp_path, capsys, extra):
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    (tmp_path / "p.amr").write_text(f"(a / b)\n\n{CROSSED[0]}\n\n(c / d :r (e / f))\n")
    (tmp_path / "g.amr").write_text(f"(a / b)\n\n{CROSSED[1]}\n\n(c / d :r (e / f))\n")
    assert main(["docsmatch", "-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr"), "--json", *extra]) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)
    assert (out["match"], out["test"], out["gold"], out["n_pairs"]) == (10, 12, 12, 3)
    assert (out["n_optimal"], out["n_unproven"], out["n_over_budget"], out["gap"]) == (2, 1, 1, 1.0)
    assert "1 of 3 pairs was over the alignment's memory budget (0.0 GiB)" in printed.err


@pytest.mark.parametrize("extra", [[], ["-j", "2"]], ids=["streamed", "workers"])
def test_docsmatch_fine_grained_re_alignments_over_the_budget_are_counted(monkeypatch, tmp_path, capsys, extra):
    # the roles differ: the documents' problem has three unary entries (x, y and TOP) and no term, the
    # unlabeled graphs' four terms (every edge one label); a budget of three entries holds the first alone
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", problem_module.memory_estimate(0, 3))
    preds = ["(a / x :r (b / y) :s (c / z))", "(a / cat)"]
    golds = ["(a / x :t (b / y) :u (c / w))", "(a / cat)"]
    with pytest.warns(AmrevalWarning) as caught:
        d = docsmatch(preds, golds, fine_grained=True, coref=False)
    assert [str(w.message) for w in caught] == [
        "1 of 2 pairs was over the alignment's memory budget (0.0 GiB) in the fine-grained scores' re-alignments "
        "and was aligned within it, scores not proven optimal (pair #1); pass strict=True (--strict) to stop at "
        "the first"
    ]
    # unlabeled: x, y, TOP and both label edges of the first (5 of 6), the cat's 2 of 2
    assert (d.fine_grained_over_budget, d.over_budget, d.fine_grained["unlabeled"]) == ([0], [], [7, 8, 8])
    assert (d.as_dict()["fine_grained_n_over_budget"], d.as_dict()["n_over_budget"]) == (1, 0)
    with pytest.raises(TooLargeError, match=r"^pair #1 .*the alignment problem of 3 x 3 nodes has 4 pairwise"):
        docsmatch(preds, golds, fine_grained=True, coref=False, strict=True)
    (tmp_path / "p.amr").write_text("\n\n".join(preds) + "\n")
    (tmp_path / "g.amr").write_text("\n\n".join(golds) + "\n")
    files = ["-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr"), "--fine-grained", "--no-coref-subscore"]
    assert main(["docsmatch", *files, "--json", *extra]) == 0
    printed = capsys.readouterr()
    out = json.loads(printed.out)
    assert (out["fine_grained_n_over_budget"], out["n_over_budget"], out["unlabeled_match"]) == (1, 0, 7)
    assert f"re-alignments and was aligned within it, scores not proven optimal (pair #1 ({tmp_path / 'p.amr'}" in (
        printed.err
    )

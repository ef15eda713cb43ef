"""The coreference tie-break certified on top of the main optimum's proof (:mod:`amreval.match.certify.tiebreak`),
against the integer program: random dense-coreference documents, and parser-output documents of the
benchmarks' three chain builders."""

from __future__ import annotations

import random
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from amreval import docsmatch
from amreval.match import alignment as alignment_module
from amreval.match.certify import tiebreak as tiebreak_module
from amreval.match.certify.bounds import solve_milp
from amreval.match.certify.tiebreak import split_weights, tie_break
from amreval.match.options import SearchOptions
from amreval.match.problem import Alignment, Candidates, Problem, build_problem
from amreval.match.triples import Triples, encode_pair
from amreval.scores import docsmatch as docsmatch_module

from strategies import random_document


def coref_document(rng: random.Random) -> tuple[Problem, float, int]:
    """A random document with DocSmatch's tie-break weights: a third of the nodes in two or three sentences,
    some of B's instances and relations coreference items worth ``1 + eps``, ``eps = 1 / (2 (n + 1))`` for
    ``n`` items (with the bound ``n`` on any mapping's bonus)."""
    n_sentences = rng.randint(2, 4)
    sides = []
    for _ in range(2):
        n = rng.randint(4, 11)
        concepts = ["top"] + [rng.choice("aabbc") for _ in range(n - 1)]
        groups = [[0]] + [
            sorted(rng.sample(range(1, n_sentences + 1), rng.choice([2, 2, 3]) if n_sentences > 2 else 2))
            if rng.random() < 0.35
            else [rng.randint(1, n_sentences)]
            for _ in range(n - 1)
        ]
        relations = [("snt", 0, k) for k in range(1, n) if rng.random() < 0.3]
        for _ in range(rng.randint(n, 3 * n)):
            relations.append((rng.choice("rs"), rng.randrange(1, n), rng.randrange(1, n)))
        triples = Triples([f"v{k}" for k in range(n)], concepts, [("TOP", 0, "top")], list(dict.fromkeys(relations)))
        sides.append((triples, groups))
    (a, ga), (b, gb) = sides
    nodes = np.array([rng.random() < 0.4 for _ in b.concepts])
    edges = np.array([rng.random() < 0.4 for _ in b.relations])
    count = int(nodes.sum() + edges.sum())
    eps = 1.0 / (2 * (count + 1))
    problem = build_problem(
        encode_pair(a, b), allowed=Candidates.from_lists(ga, gb), b_weights=(1.0 + eps * nodes, None, 1.0 + eps * edges)
    )
    return problem, eps, count


def test_the_weights_split_into_the_main_ones_and_the_bonus_by_hand():
    problem, eps, _ = coref_document(random.Random(3))
    main, bonus_u, bonus_t = split_weights(problem, eps)
    assert main.integral and set(np.unique(main.pair_u)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    np.testing.assert_allclose(main.pair_u + eps * bonus_u, problem.pair_u, atol=1e-12)
    np.testing.assert_allclose(main.term_w + eps * bonus_t, problem.term_w, atol=1e-12)
    # weights of another form do not split
    assert split_weights(replace(problem, pair_u=problem.pair_u + 0.3 * eps), eps) is None


def test_the_tie_break_reaches_the_integer_programs_optimum_on_random_documents():
    """Every one proven: the graded optimum, and a main optimum."""
    for seed in range(120):
        problem, eps, count = coref_document(random.Random(seed))
        found = tie_break(problem, eps, count, SearchOptions())
        optimum = solve_milp(problem)
        main, _, _ = split_weights(problem, eps)
        main_optimum = solve_milp(main)
        assert optimum.optimal and main_optimum.optimal
        assert found.optimal and found.score == pytest.approx(optimum.score, abs=1e-9), seed
        assert problem.value(found.mapping) == pytest.approx(found.score, abs=1e-12)
        assert main.value(found.mapping) == main_optimum.score, seed


def _stop_after_the_climb(real):
    """``_search`` cut short after its first climb on the graded problem (the Lagrangian step's searches, whose
    weights are whole numbers, run whole)."""

    def search(problem, init, options, clock, enough=None):
        if problem.integral:
            return real(problem, init, options, clock, enough)
        return real(problem, init, options, clock, lambda result: True)

    return search


@pytest.mark.parametrize("stages", ["graded steps", "restarts and integer program", "after the main one's"])
def test_the_stages_after_the_lagrangian_bound_reach_the_optimum_without_searching_again(monkeypatch, stages):
    """Without the Lagrangian step (and, in the second case, with the graded search cut short after its climb),
    the later stages prove the graded optimum; the greedy start is climbed once on the main problem and at
    most once on the graded one (nothing is searched from scratch again; the random restarts aside), and the
    restarts and integer program get the best mapping found. In the third case the main problem would need its
    integer program: the graded problem's, over the pairs the main LP leaves, proves both at once."""
    monkeypatch.setattr(tiebreak_module, "LADDER", ())
    if stages == "restarts and integer program":
        monkeypatch.setattr(tiebreak_module, "_search", _stop_after_the_climb(tiebreak_module._search))
    elif stages == "after the main one's":
        # the main search's coupled and fixed searches find nothing: the main problem would go to the integer
        # program; the graded one's goes instead, over the pairs left
        monkeypatch.setattr(alignment_module, "coupled_search", lambda problem, result, **k: result)
        monkeypatch.setattr(tiebreak_module, "coupled_search", lambda problem, result, **k: result)
        monkeypatch.setattr(alignment_module, "fixed_search", lambda problem, result, lp: result)
    greedy_starts, finishes = [], []
    real_climb, real_finish = alignment_module.hill_climb, tiebreak_module.finish

    def climb(problem, **k):
        if k.get("init") is None and not k.get("restarts"):
            greedy_starts.append(problem)
        return real_climb(problem, **k)

    def finish(problem, result, priced, search, **k):
        finishes.append(result)
        return real_finish(problem, result, priced, search, **k)

    monkeypatch.setattr(alignment_module, "hill_climb", climb)
    monkeypatch.setattr(tiebreak_module, "hill_climb", climb)
    monkeypatch.setattr(tiebreak_module, "finish", finish)
    for seed in range(40):
        problem, eps, count = coref_document(random.Random(seed))
        greedy_starts.clear()
        found = tie_break(problem, eps, count, SearchOptions())
        assert found.optimal and found.score == pytest.approx(solve_milp(problem).score, abs=1e-9), seed
        # once on the main problem (the main score's first climb), then at most once on the graded one (where the
        # main problem was proven before its LP): never again
        assert greedy_starts[0] is not problem and greedy_starts[0].integral, seed
        assert greedy_starts[1:] in ([], [problem]), seed
    # cut short, the graded search leaves some documents to the restarts and the integer program; where the main
    # problem would need its integer program, the graded one's alone proves both (the main one's is never run)
    assert (len(finishes) > 0) == (stages != "graded steps")
    if stages == "after the main one's":
        # one of the 40 gets that far: one integer program, the graded one (before: the main one's, then it)
        assert [f.method for f in finishes] == ["tie-break"]


@pytest.mark.parametrize("why", ["left unproven", "over the columns"])
def test_where_the_graded_integer_program_does_not_prove_it_the_main_ones_goes_on(monkeypatch, why):
    """The graded integer program in place of the main one's, left unproven (its node limit) or not tried (the
    pairs the main LP leaves still over the integer program's columns): the main problem's integer program
    runs, then the graded one's over the pairs left against its optimum, as without the shortcut."""
    monkeypatch.setattr(tiebreak_module, "LADDER", ())
    monkeypatch.setattr(alignment_module, "coupled_search", lambda problem, result, **k: result)
    monkeypatch.setattr(tiebreak_module, "coupled_search", lambda problem, result, **k: result)
    monkeypatch.setattr(alignment_module, "fixed_search", lambda problem, result, lp: result)
    finishes = []
    real_finish = tiebreak_module.finish

    def finish(problem, result, priced, search, **k):
        finishes.append(result.method)
        if why == "left unproven" and len(finishes) == 1:
            return result  # the node limit ran out
        return real_finish(problem, result, priced, search, **k)

    monkeypatch.setattr(tiebreak_module, "finish", finish)
    if why == "over the columns":
        monkeypatch.setattr(tiebreak_module, "MILP_MAX_COLUMNS", 0)
    # the one of test_the_stages_after_the_lagrangian_bound_reach_the_optimum_without_searching_again's 40
    # documents whose main problem needs the integer program
    problem, eps, count = coref_document(random.Random(28))
    found = tie_break(problem, eps, count, SearchOptions())
    assert found.optimal and found.score == pytest.approx(solve_milp(problem).score, abs=1e-9)
    main_method = "hillclimb"  # the main search's best mapping: its first climb's
    if why == "left unproven":
        assert finishes == ["tie-break", main_method, "tie-break"]
    else:
        assert finishes == [main_method, "tie-break"]


def test_where_the_lagrangian_search_runs_its_steps_unproven_the_graded_integer_program_goes_next(monkeypatch):
    """The Lagrangian search run through all its steps (not given up) with a gap on the bonus that the graded
    LP, never below the main LP, cannot close: the graded integer program over the pairs left proves the tie-break,
    and the graded problem's own steps (step 4) are not run. The coupled and fixed searches of the tie-break find
    nothing here, so that the Lagrangian search ends at its LP."""
    monkeypatch.setattr(tiebreak_module, "coupled_search", lambda problem, result, **k: result)
    monkeypatch.setattr(tiebreak_module, "fixed_search", lambda problem, result, lp: result)
    steps: list[str] = []
    real_search, real_program = tiebreak_module._search, tiebreak_module._integer_program_left

    def search(problem, init, options, clock, enough=None):
        steps.append("lagrangian" if enough is not None else "graded")
        return real_search(problem, init, options, clock, enough)

    def program(ties, options, clock):
        steps.append("integer program")
        return real_program(ties, options, clock)

    monkeypatch.setattr(tiebreak_module, "_search", search)
    monkeypatch.setattr(tiebreak_module, "_integer_program_left", program)
    beyond = {}
    for seed in range(40):
        problem, eps, count = coref_document(random.Random(seed))
        steps.clear()
        found = tie_break(problem, eps, count, SearchOptions())
        assert found.optimal and found.score == pytest.approx(solve_milp(problem).score, abs=1e-9), seed
        if len(steps) > 1:
            beyond[seed] = list(steps)
    # 28: the Lagrangian search ran to its LP, unproven, and the integer program proved it (before: the graded
    # steps, then their restarts and integer program); 12: the Lagrangian search was given up (it found a mapping
    # worth more than every main-optimal one), and the graded steps proved it
    assert beyond == {12: ["lagrangian", "graded"], 28: ["lagrangian", "integer program"]}
    # where the pairs left are over the integer program's columns, the graded steps run as before
    monkeypatch.setattr(tiebreak_module, "MILP_MAX_COLUMNS", 0)
    problem, eps, count = coref_document(random.Random(28))
    steps.clear()
    found = tie_break(problem, eps, count, SearchOptions())
    assert steps == ["lagrangian", "graded"]
    assert found.score <= solve_milp(problem).score + 1e-9 <= found.bound + 1e-9


def test_the_tie_break_does_not_apply_where_the_bonuses_could_outweigh_a_match():
    rng = random.Random(5)
    problem, eps, count = coref_document(rng)
    assert tie_break(problem, eps, int(1 / eps), SearchOptions()) is None
    # random_document's tie-break weights give some eps whatever the items: no bound below one match
    other = random_document(random.Random(2), "whole")
    assert tie_break(other, 0.5, 1, SearchOptions()) is None


def test_without_a_proven_main_optimum_the_main_mapping_is_kept_under_the_main_bound(monkeypatch):
    """The main problem left unproven (the integer program's time limit): its mapping, climbed on the graded
    problem, never a main match less, under the main bound plus every bonus; no graded search from scratch."""
    problem, eps, count = coref_document(random.Random(11))
    main, _, _ = split_weights(problem, eps)
    empty = np.full(problem.n_a, -1, dtype=np.int64)

    def unproven(problem, search, **k):
        return Alignment(empty, 0.0, problem.bound + 0.5, False, "hillclimb", 1), None

    monkeypatch.setattr(tiebreak_module, "certified", unproven)
    # the integer program, too, leaves it unproven (its time limit)
    monkeypatch.setattr(tiebreak_module, "finish", lambda problem, result, *a, **k: result)
    found = tie_break(problem, eps, count, SearchOptions())
    assert not found.optimal
    assert found.bound == pytest.approx(np.floor(main.bound + 0.5) + eps * count, abs=1e-12)
    assert found.score == pytest.approx(problem.value(found.mapping), abs=1e-12)
    # the climb from the empty mapping found something, within the bound
    assert 0.0 < found.score <= found.bound


def test_docsmatch_counts_the_coref_subscore_under_the_tie_breaks_mapping(monkeypatch):
    # a coreference node in two sentences on both sides (its node and two :ARG0 edges: 3 coref items), a boy
    # the prediction lacks: the main optimum and the tie-break are proven without the integer program
    pred = "(d / document :snt1 (g / go-02 :ARG0 (c / coref-entity)) :snt2 (s / sleep-01 :ARG0 c))"
    gold = "(d / document :snt1 (g / go-02 :ARG0 (c / coref-entity)) :snt2 (s / sleep-01 :ARG0 c :ARG1 (b / boy)))"
    calls = []
    monkeypatch.setattr(alignment_module, "solve_milp", lambda *a, **k: calls.append(a) or solve_milp(*a, **k))
    searched = []
    real = tiebreak_module.tie_break
    monkeypatch.setattr(docsmatch_module, "tie_break", lambda *a: searched.append(real(*a)) or searched[-1])
    r = docsmatch([pred], [gold], coref=True)
    assert (r.match, r.test, r.gold) == (9, 9, 11)
    assert r.coref.total == (3, 3, 3)
    assert len(searched) == 1 and searched[0] is not None and searched[0].optimal
    assert not calls
    # the same numbers as the graded problem searched whole
    monkeypatch.setattr(docsmatch_module, "tie_break", lambda *a: None)
    whole = docsmatch([pred], [gold], coref=True)
    assert (whole.match, whole.test, whole.gold, whole.coref.total) == (9, 9, 11, (3, 3, 3))


def _builder_documents(data: Path, builder: str, start: int, size: int, rep: str, parser: str) -> tuple[str, str]:
    """Sentences ``start`` to ``start + size`` of the Little Prince parses and their gold as one document each,
    chained by one of the benchmarks' builders (tests/fixtures/), as PENMAN strings."""
    import importlib

    from amreval import read_graphs
    from amreval.docamr import convert_document

    build = importlib.import_module(f"fixtures.{builder}_chains").build_chains
    sides = []
    for name in ("gold.amr", f"{parser}_sys.amr"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            graphs = read_graphs(data / "parses" / name)[start : start + size]
        sides.append(graphs)
    gold, pred = sides
    for g, ref in zip(pred, gold):
        g.metadata["id"] = ref.id
    out = []
    for graphs in (pred, gold):
        doc = build(graphs, f"lpp_{start}")
        out.append(convert_document(doc, {g.id: g for g in graphs}, rep, strict=True).to_string())
    return out[0], out[1]


@pytest.mark.parametrize("builder", ["doc", "story", "greedy"])
def test_the_tie_break_on_the_benchmarks_chain_builders_documents_is_the_integer_programs_optimum(
    data_dir, monkeypatch, builder
):
    """Parser-output documents of 12 and 20 sentences (two stretches of the story, BART and T5, ``docamr`` and
    ``no-merge``) chained by each builder of ``bench_docparse``: every tie-break proven, at the graded
    problem's integer program optimum, on a main optimum."""
    calls = []
    real = tiebreak_module.tie_break

    def recorded(problem, eps, count, search):
        found = real(problem, eps, count, search)
        calls.append((problem, eps, found))
        return found

    monkeypatch.setattr(docsmatch_module, "tie_break", recorded)
    for start, size in ((0, 12), (40, 20)):
        for rep in ("docamr", "no-merge"):
            for parser in ("bart", "t5"):
                pred, gold = _builder_documents(data_dir, builder, start, size, rep, parser)
                calls.clear()
                docsmatch([pred], [gold], coref=True, progress=False)
                ((problem, eps, found),) = calls
                where = (builder, start, size, rep, parser)
                assert found is not None and found.optimal, where
                optimum = solve_milp(problem, time_limit=300)
                main, _, _ = split_weights(problem, eps)
                main_optimum = solve_milp(main, time_limit=300)
                assert optimum.optimal and main_optimum.optimal, where
                assert found.score == pytest.approx(optimum.score, abs=1e-9), where
                assert main.value(found.mapping) == main_optimum.score, where


def test_the_tie_break_runs_under_one_safety_net(monkeypatch):
    """The tie-break's steps (the main problem's, the Lagrangian step's, the graded ones, the integer programs)
    share one clock, the safety net: on a machine where every reading of the clock comes 30 s after the last,
    the same results as with no clock at all; where the 600 s are gone at the first reading, what the clock
    cut short is marked ``timed_out``."""
    from types import SimpleNamespace

    from amreval.match.certify import pricing as pricing_module

    # the coupled and fixed searches find nothing: the LPs, the restarts and the integer programs decide
    for module in (alignment_module, tiebreak_module):
        monkeypatch.setattr(module, "coupled_search", lambda problem, result, **kwargs: result)
        monkeypatch.setattr(module, "fixed_search", lambda problem, result, lp, **kwargs: result)
    documents = [coref_document(random.Random(seed)) for seed in range(30)]

    def run(step: float | None) -> list[Alignment]:
        if step is not None:
            now = [0.0]

            def reading() -> float:
                now[0] += step
                return now[0]

            for module in (alignment_module, pricing_module):
                monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=reading))
        return [tie_break(p, eps, n, SearchOptions(restarts=2)) for p, eps, n in documents]

    endless, slow, stopped = run(None), run(30.0), run(1000.0)
    key = [(r.mapping.tolist(), r.score, r.bound, r.optimal, r.timed_out) for r in endless]
    assert key == [(r.mapping.tolist(), r.score, r.bound, r.optimal, r.timed_out) for r in slow]
    assert all(r.optimal and not r.timed_out for r in endless)
    unproven = [r for r in stopped if not r.optimal]
    assert unproven and all(r.timed_out for r in unproven)

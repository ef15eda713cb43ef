"""The compiled kernels (C) against their specification, the same algorithm in Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import AmrevalWarning, InputError, MissingDependencyError
from amreval.amr.read import read_graphs
from amreval.match import problem as problem_module
from amreval.match.kernels import backends as kernel_module
from amreval.match.kernels.contract import Budget, GraphArrays, GroupArrays, PoolWeights, SearchSpace
from amreval.match.problem import Candidates, build_problem
from amreval.match.triples import Triples, encode_pair, graph_triples

from strategies import triples

ROOT = Path(__file__).resolve().parents[2]
FIELDS = ("pair_src", "pair_tgt", "pair_u", "term_p", "term_q", "term_ta", "term_tb", "term_w")


def c_kernels():
    try:
        return kernel_module.kernels("c")
    except ImportError as err:  # pragma: no cover - the extension is built by every install here
        pytest.fail(f"the compiled kernels are not built: {err}")


def build_both(monkeypatch, pair, **kw):
    """The problem built by the C kernels and by the Python ones."""
    built = []
    for which in ("c", "python"):
        monkeypatch.setattr(problem_module, "backend", lambda which=which: kernel_module.kernels(which))
        built.append(build_problem(pair, **kw))
    return built


def assert_same_everything(monkeypatch, pair, seeds=(0, 7, 2**62 + 3), restarts=4, **kw):
    c, py = build_both(monkeypatch, pair, **kw)
    for name in FIELDS:
        got, want = getattr(c, name), getattr(py, name)
        assert got.dtype == want.dtype and np.array_equal(got, want), name
    assert c.bound == py.bound
    ck, pk = c_kernels(), kernel_module.kernels("python")
    adj_c = ck.adjacency_kernel(c.n_pairs, c.term_p, c.term_q, c.term_w)
    adj_p = pk.adjacency_kernel(py.n_pairs, py.term_p, py.term_q, py.term_w)
    for got, want in zip(adj_c, adj_p):
        assert np.array_equal(got, want)
    assert np.array_equal(ck.row_pointers_kernel(c.n_a, c.pair_src), pk.row_pointers_kernel(py.n_a, py.pair_src))
    # what build_problem computes with the pool, in the same call, is what the kernels compute alone
    for built in (c, py):
        for got, want in zip(built.adjacency(), adj_c):
            assert got.dtype == want.dtype and np.array_equal(got, want)
        assert np.array_equal(built.rows(), ck.row_pointers_kernel(c.n_a, c.pair_src))
    space = SearchSpace(c.n_a, c.n_b, c.pair_src, c.pair_tgt, c.pair_u, adj_c)
    none = np.zeros(0, dtype=np.int64)
    starts = [none]
    if c.n_a:
        # a given start: every node's first candidate, where it has one
        rows = pk.row_pointers_kernel(c.n_a, c.pair_src)
        starts.append(np.array([rows[i] if rows[i] < rows[i + 1] else -1 for i in range(c.n_a)], dtype=np.int64))
    for seed in seeds:
        for init in starts:
            # bound: unreachable (every restart runs) and the problem's own (early stop)
            for bound in (1e18, c.bound):
                kw = {"restarts": restarts, "seed": seed, "bound": bound, "init": init}
                got = ck.hill_climb_kernel(space, **kw)
                want = pk.hill_climb_kernel(space, **kw)
                assert got.pairs.tolist() == want.pairs.tolist() and got[1:] == want[1:]
                assert type(got.score) is type(want.score) is float
    return c


# small graphs with attributes, possibly empty
GRAPHS = triples(7, "abcd", min_nodes=0, attributes=True, relations_per_node=2)


@settings(
    max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(GRAPHS, GRAPHS, st.integers(0, 3), st.data())
def test_c_and_python_kernels_agree_on_random_problems(monkeypatch, a, b, kind, data):
    pair = encode_pair(a, b)
    n_a, n_b = len(a.concepts), len(b.concepts)
    kw: dict = {}
    if kind == 1:
        # sentence groups, a node in one or two of them (DocSmatch's constraint)
        groups = st.lists(st.integers(0, 2), min_size=1, max_size=2, unique=True).map(sorted)
        kw["allowed"] = Candidates.from_lists(
            [data.draw(groups) for _ in range(n_a)], [data.draw(groups) for _ in range(n_b)]
        )
    elif kind == 2:
        # graded concept credit and weighted gold triples (S²match-like)
        weights = st.floats(0, 1, allow_nan=False, width=32)
        kw["instance_weights"] = np.array([[data.draw(weights) for _ in range(n_b)] for _ in range(n_a)]).reshape(
            n_a, n_b
        )
        kw["b_weights"] = tuple(
            np.array([data.draw(weights) for _ in range(m)]) for m in (n_b, pair.attr_b.shape[0], pair.rel_b.shape[0])
        )
    elif kind == 3:
        kw["allowed"] = np.array([[data.draw(st.booleans()) for _ in range(n_b)] for _ in range(n_a)]).reshape(n_a, n_b)
    assert_same_everything(monkeypatch, pair, **kw)


def test_c_and_python_kernels_agree_on_the_bundled_examples(monkeypatch):
    pred = read_graphs(ROOT / "examples" / "pred.amr")
    gold = read_graphs(ROOT / "examples" / "gold.amr")
    for a, b in zip(pred, gold):
        p = assert_same_everything(monkeypatch, encode_pair(graph_triples(a), graph_triples(b)))
        assert p.n_pairs > 0 and p.n_terms > 0


def test_c_and_python_kernels_agree_on_real_parser_output(monkeypatch, data_dir):
    pred = read_graphs(data_dir / "parses" / "t5_sys.amr")
    gold = read_graphs(data_dir / "parses" / "gold.amr")
    for a, b in list(zip(pred, gold))[:40]:
        assert_same_everything(monkeypatch, encode_pair(graph_triples(a), graph_triples(b)), seeds=(3,), restarts=9)


def test_import_loads_no_kernel_and_a_run_writes_nothing(tmp_path):
    code = (
        "import sys, amreval; print(sorted(m for m in sys.modules if m.startswith('amreval.match.')"
        " and ('kernel' in m or m.endswith(('_pool', '_climb')))), 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[]", "False"]
    # nothing is compiled or cached at run time: a run writes no file (a read-only install works as any other)
    package = Path(kernel_module.__file__).resolve().parent.parent
    before = {p: p.stat().st_mtime_ns for p in package.rglob("*") if "__pycache__" not in p.parts}
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), PYTHONDONTWRITEBYTECODE="1")
    env.pop(kernel_module.KERNELS_ENV, None)
    run = subprocess.run(
        [sys.executable, "-m", "amreval", "smatch", "-f", str(ROOT / "examples" / "pred.amr"),
         str(ROOT / "examples" / "gold.amr")],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("F-score: ")
    after = {p: p.stat().st_mtime_ns for p in package.rglob("*") if "__pycache__" not in p.parts}
    assert after == before
    assert list(home.rglob("*")) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home"]


def test_without_the_extension_python_kernels_run_with_a_warning(monkeypatch):
    kernel_module.kernels.cache_clear()
    monkeypatch.setitem(sys.modules, "amreval.match.kernels._ckernels", None)  # the import fails
    try:
        with pytest.warns(AmrevalWarning, match="compiled kernels are not built or out of date"):
            chosen = kernel_module.kernels()
        assert chosen.name == "python"
        with pytest.raises(MissingDependencyError, match="pip install --no-cache-dir --force-reinstall amreval"):
            kernel_module.kernels("c")
    finally:
        kernel_module.kernels.cache_clear()


def test_the_kernel_choice_is_checked(monkeypatch):
    with pytest.raises(InputError, match="AMREVAL_KERNELS must be 'c' or 'python', got 'fortran'"):
        kernel_module.kernels("fortran")
    kernel_module.kernels.cache_clear()
    monkeypatch.setenv("AMREVAL_KERNELS", "Python")
    try:
        assert kernel_module.kernels().name == "python"
    finally:
        kernel_module.kernels.cache_clear()
    monkeypatch.delenv("AMREVAL_KERNELS")
    assert kernel_module.kernels().name == "c"
    # the command line: one line naming the variable, no traceback
    env = dict(os.environ, AMREVAL_KERNELS="fortran")
    pair = [str(ROOT / "examples" / "pred.amr"), str(ROOT / "examples" / "gold.amr")]
    run = subprocess.run(
        [sys.executable, "-m", "amreval", "smatch", "-f", *pair], capture_output=True, text=True, env=env
    )
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == "amreval: error: AMREVAL_KERNELS must be 'c' or 'python', got 'fortran'\n"


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.integers(0, 8), st.integers(0, 8), st.data())
def test_the_sparse_assignment_totals_what_scipy_totals_on_the_dense_table(rows, cols, data):
    from scipy.optimize import linear_sum_assignment

    # half-integer values as the assignment bound makes, many ties and zeros; only some cells are pairs
    values = st.sampled_from([0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.5, 0.3])
    density = data.draw(st.sampled_from([0.2, 0.6, 1.0]))
    cells = [(i, j) for i in range(rows) for j in range(cols) if data.draw(st.floats(0, 1)) < density]
    value = np.array([data.draw(values) for _ in cells])
    row_ptr = np.searchsorted([i for i, _ in cells], np.arange(rows + 1)).astype(np.int64)
    col = np.array([j for _, j in cells], dtype=np.int64)
    c = c_kernels().sparse_assignment_kernel(rows, cols, row_ptr, col, value)
    py = kernel_module.kernels("python").sparse_assignment_kernel(rows, cols, row_ptr, col, value)
    assert c[0].tolist() == py[0].tolist() and c[1] == py[1]
    pairs, total = c
    # a pair of its own row per row, each column once
    chosen = [p for p in pairs.tolist() if p >= 0]
    assert all(row_ptr[i] <= p < row_ptr[i + 1] for i, p in enumerate(pairs.tolist()) if p >= 0)
    assert len({int(col[p]) for p in chosen}) == len(chosen)
    assert total == pytest.approx(float(value[chosen].sum()), abs=1e-12)
    table = np.zeros((rows, cols))
    for (i, j), x in zip(cells, value):
        table[i, j] = x
    want_r, want_c = linear_sum_assignment(table, maximize=True)
    assert total == pytest.approx(float(table[want_r, want_c].sum()), abs=1e-9)


def test_an_out_of_date_library_falls_back_with_a_warning(monkeypatch):
    def missing(self, path):
        raise AttributeError(f"{path}: undefined symbol: amr_sparse_assignment")

    kernel_module.kernels.cache_clear()
    monkeypatch.setattr(kernel_module.CKernels, "__init__", missing)
    try:
        with pytest.warns(AmrevalWarning, match="undefined symbol: amr_sparse_assignment"):
            assert kernel_module.kernels().name == "python"
    finally:
        kernel_module.kernels.cache_clear()


def test_malformed_problem_arrays_are_errors_before_any_kernel_runs():
    from amreval import InputError, loads_graph
    from amreval.match.triples import EncodedPair

    p = encode_pair(graph_triples(loads_graph("(a / x :r (b / y))")), graph_triples(loads_graph("(a / x :r (b / y))")))
    outside = EncodedPair(p.inst_a, p.attr_a, np.array([[0, 0, 5]]), p.inst_b, p.attr_b, p.rel_b)
    with pytest.raises(InputError, match="encoded graph A: a triple names node 5, the graph has 2 nodes"):
        build_problem(outside)
    negative = EncodedPair(p.inst_a, p.attr_a, p.rel_a, p.inst_b, np.array([[-1, 0]]), p.rel_b)
    with pytest.raises(InputError, match="encoded graph B: a triple names node -1, the graph has 2 nodes"):
        build_problem(negative)
    b_groups = (np.array([0, 1, 2]), np.array([0, 0]))
    unsorted = Candidates(np.array([0, 1, 3]), np.array([0, 2, 1]), *b_groups)
    with pytest.raises(InputError, match="candidate groups of A: each node's group ids must be in ascending order"):
        build_problem(p, allowed=unsorted)
    overrun = Candidates(np.array([0, 5, 3]), np.array([0, 2, 1]), *b_groups)
    with pytest.raises(InputError, match=r"candidate groups of A: ptr must rise from 0 to len\(ids\) = 3"):
        build_problem(p, allowed=overrun)
    # the same arrays written well build the problem: node 1 of A (groups 1, 2) meets no node of B
    # (group 0), so the one candidate is x -> x, worth its instance and TOP
    fine = build_problem(p, allowed=Candidates(np.array([0, 1, 3]), np.array([0, 1, 2]), *b_groups))
    assert (fine.pair_src.tolist(), fine.pair_tgt.tolist(), fine.pair_u.tolist()) == ([0], [0], [2.0])


def test_weights_ids_and_triples_that_would_break_the_search_are_errors():
    from amreval import InputError, loads_graph
    from amreval.match.alignment import hill_climb
    from amreval.match.triples import EncodedPair

    pair = encode_pair(
        graph_triples(loads_graph("(a / x :r (b / y))")), graph_triples(loads_graph("(p / x :r (q / y))"))
    )
    # negative weights would make the bounds invalid; nan and inf have no score
    for bad, shown in ((-3.0, "-3.0"), (np.nan, "nan"), (np.inf, "inf")):
        with pytest.raises(InputError, match=f"b_weights must be finite and not negative, got {shown}"):
            build_problem(pair, b_weights=(None, None, np.array([bad])))
    with pytest.raises(InputError, match="instance_weights must be finite and not negative, got nan"):
        build_problem(pair, instance_weights=np.array([[1.0, np.nan], [0.0, 1.0]]))
    # node indices that are not integers (a nan would become -2**63), vocabulary ids that would overflow
    E2 = np.zeros((0, 2))
    floats = EncodedPair(np.array([0, 0]), E2, np.array([[0, 0, np.nan]]), np.array([0, 0]), E2, np.array([[0, 0, 1]]))
    with pytest.raises(InputError, match="encoded graph A: expected integer arrays"):
        build_problem(floats)
    huge = EncodedPair(pair.inst_a, pair.attr_a, np.array([[2**62, 0, 1]]), pair.inst_b, pair.attr_b, pair.rel_b)
    with pytest.raises(InputError, match=r"encoded graph A: vocabulary ids must lie within ±2\*\*31"):
        build_problem(huge)
    # a triple listed twice would count twice in a mapping's value but once in the bound
    twice = Triples(["b"], ["x"], [("TOP", 0, "top")] * 2)
    with pytest.raises(InputError, match="triples of B: an attribute or relation is listed twice"):
        encode_pair(Triples(["a"], ["x"], [("TOP", 0, "top")]), twice)
    # weights and groups of the wrong kind
    with pytest.raises(InputError, match="b_weights must be three arrays"):
        build_problem(pair, b_weights=[np.ones(2)])
    with pytest.raises(InputError, match="b_weights must be numbers"):
        build_problem(pair, b_weights=(np.array(["x", "y"]), None, None))
    with pytest.raises(InputError, match="allowed must be Candidates or an 2 x 2 boolean array, got list"):
        build_problem(pair, allowed=[[True, False], [False, True]])
    with pytest.raises(InputError, match="candidate groups of A: ptr and ids must be integer arrays"):
        build_problem(
            pair, allowed=Candidates(np.array([0.0, 1, 2]), np.array([0, 0]), np.array([0, 1, 2]), np.array([0, 0]))
        )
    with pytest.raises(InputError, match=r"have 0 x 3 row pointers, expected one more than the nodes: 3 x 3"):
        build_problem(
            pair,
            allowed=Candidates(
                np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.array([0, 1, 2]), np.array([0, 0])
            ),
        )
    wrapped = EncodedPair(
        pair.inst_a, pair.attr_a, np.array([[0, 0, 2**64 - 1]], dtype=np.uint64), pair.inst_b, pair.attr_b, pair.rel_b
    )
    with pytest.raises(InputError, match="encoded graph A: values must lie below 2\\*\\*63"):
        build_problem(wrapped)
    problem = build_problem(pair)
    with pytest.raises(InputError, match="init must give a target .or -1. for each of the 2 nodes, got 3"):
        hill_climb(problem, init=np.array([0, 1, 2]))
    # replaced term weights are checked as built ones are, and the climb sees the new ones
    assert problem.n_terms == 1
    with pytest.raises(InputError, match=r"expected 1 term weights, got shape \(2,\)"):
        problem.set_term_weights(np.ones(2))
    with pytest.raises(InputError, match="term weights must be finite and not negative, got -1.0"):
        problem.set_term_weights(np.array([-1.0]))
    assert hill_climb(problem).score == 4.0  # 2 instances, TOP, the relation
    problem.set_term_weights(np.array([0.0]))
    assert hill_climb(problem).score == 3.0


def test_huge_weights_end_the_climb():
    # weights in the hundreds of millions: rounding made a swap and its reverse each seem to gain,
    # and the climb never ended; the least gain now grows with the bound (1e-12 of it)
    from amreval.match.alignment import align
    from amreval.match.options import SearchOptions

    a = Triples(["a0", "a1", "a2"], ["y", "x", "y"], relations=[("r", 1, 0), ("r", 2, 0)])
    b = Triples(["b0", "b1", "b2"], ["x", "y", "y"], relations=[("r", 0, 1), ("r", 2, 1)])
    weights = (np.array([30000000.7, 1.0, 1e8]), None, np.array([1e8, 30000000.7]))
    problem = build_problem(encode_pair(a, b), instance_weights=np.ones((3, 3)), b_weights=weights)
    for solver in ("hillclimb", "exact"):
        found = align(problem, SearchOptions(solver, restarts=0))
        # a1 (x) -> b0 (x) and a0, a2 (y) -> b1, b2 (y): 30000000.7 + 1 + 1e8 and both relations
        assert found.mapping.tolist() == [1, 0, 2]
        assert found.score == pytest.approx(260000002.4) and found.optimal


def test_a_problem_over_the_memory_budget_is_refused_before_it_is_built(monkeypatch):
    # 300 nodes of one concept on each side and no relation: no term, and 90,001 unary entries (every pair
    # of the concept, and the two tops' TOP), at 80 bytes each and 1 MiB besides: 8,248,656 bytes
    a = Triples([f"a{k}" for k in range(300)], ["x"] * 300, [("TOP", 0, "x")], [])
    b = Triples([f"b{k}" for k in range(300)], ["x"] * 300, [("TOP", 0, "x")], [])
    pair = encode_pair(a, b)
    assert problem_module.memory_estimate(0, 90_001) == 8_248_656
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 8_248_655)
    for which in ("c", "python"):
        monkeypatch.setattr(problem_module, "backend", lambda which=which: kernel_module.kernels(which))
        with pytest.raises(
            InputError,
            match=r"the alignment problem of 300 x 300 nodes has 0 pairwise terms and up to 90,000 candidate pairs "
            r"and needs about 0\.0 GiB, over the budget of 0\.0 GiB; split the graph",
        ):
            build_problem(pair)
    # within the budget it is built: every pair of the two concepts, the two tops' pair worth 2
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 8_248_656)
    built = build_problem(pair)
    assert built.n_pairs == 90_000 and built.pair_u.max() == 2.0


def test_both_kernels_check_their_inputs_alike_before_they_run():
    from amreval import loads_graph

    g = graph_triples(loads_graph("(a / x :r (b / y))"))
    p = build_problem(encode_pair(g, g))
    # pairs a -> a (x and TOP), b -> b (y); one term, the relation, between them
    assert (p.n_a, p.n_b, p.pair_src.tolist(), p.pair_tgt.tolist(), p.n_terms) == (2, 2, [0, 1], [0, 1], 1)
    space = p.search_space()
    climb = {"restarts": 0, "seed": 0, "bound": 3.0}
    search = {"rows": p.rows(), "init": np.array([0, 1]), "gap": 0.5, "node_limit": 10}
    graph = GraphArrays(np.array([0, 1]), np.zeros((0, 2), dtype=np.int64), np.array([[0, 0, 1]]))
    outside = graph._replace(rel=np.array([[0, 0, 5]]))
    one_group = GroupArrays(np.arange(3), np.zeros(2, dtype=np.int64), np.arange(3), np.zeros(2, dtype=np.int64), 1)
    budget = Budget(2**40, 88, 80)
    cases = [
        (lambda k: k.hill_climb_kernel(space, **climb, init=np.array([0])),
         "init must hold a pair index (or -1) for each of the 2 nodes"),
        (lambda k: k.hill_climb_kernel(space, **climb, init=np.array([0, 2])),
         "init must hold a pair index (or -1) for each of the 2 nodes"),
        (lambda k: k.hill_climb_kernel(space, **{**climb, "restarts": -1}, init=np.array([0, 1])),
         "restarts must be an integer in [0, 9223372036854775808), got -1"),
        (lambda k: k.hill_climb_kernel(space._replace(adjacency=space.adjacency._replace(ptr=np.array([0, 1, 1]))),
                                       **climb, init=np.array([0, 1])),
         "the search space: the adjacency's ptr must run from 0 to len(nbr)"),
        (lambda k: k.branch_and_bound_kernel(space._replace(pair_u=np.ones(3)), **search),
         "the search space: pair_src, pair_tgt and pair_u must hold one entry per pair, the adjacency's ptr one "
         "more, its nbr and w one per neighbour"),
        (lambda k: k.branch_and_bound_kernel(space, **{**search, "rows": np.array([0, 2])}),
         "rows must rise from 0 to the number of pairs over 3 entries"),
        (lambda k: k.exact_search_kernel(space, rows=np.array([0, 2])),
         "rows must rise from 0 to the number of pairs over 3 entries"),
        (lambda k: k.exact_search_kernel(space, rows=p.rows())(np.ones(3), np.array([0, 1]), 0.5, 10),
         "pair_u must hold one weight for each of the 2 pairs"),
        (lambda k: k.exact_search_kernel(space, rows=p.rows())(np.ones(2), np.array([0, 2]), 0.5, 10),
         "init must hold a pair index (or -1) for each of the 2 nodes"),
        (lambda k: k.adjacency_kernel(1, p.term_p, p.term_q, p.term_w), "terms must join pairs in [0, 1)"),
        (lambda k: k.row_pointers_kernel(1, p.pair_src), "pair_src must name nodes in [0, 1)"),
        (lambda k: k.sparse_assignment_kernel(2, 2, np.array([0, 1]), np.array([0]), np.array([1.0])),
         "row_ptr must rise from 0 to len(cols) over n_rows + 1 entries, value one per col"),
        (lambda k: k.build_problem_kernel(outside, graph, one_group, PoolWeights(), budget),
         "encoded graph A: a triple names node 5, the graph has 2 nodes"),
        (lambda k: k.build_problem_kernel(graph, graph, one_group._replace(n_groups=0), PoolWeights(), budget),
         "candidate groups: ids must lie in [0, 0)"),
        (lambda k: k.build_problem_kernel(graph, graph, one_group, PoolWeights(rel_b=np.ones(2)), budget),
         "expected 1 weights, got shape (2,)"),
        (lambda k: k.build_problem_kernel(graph, graph, one_group, PoolWeights(instance=np.ones((2, 2)) * -1), budget),
         "instance_weights must be finite and not negative, got -1.0"),
    ]  # fmt: skip
    for call, message in cases:
        for which in ("c", "python"):
            with pytest.raises(InputError) as err:
                call(kernel_module.kernels(which))
            assert str(err.value) == message, which
    # the same inputs, well formed, run on both alike
    for which in ("c", "python"):
        block = kernel_module.kernels(which).build_problem_kernel(graph, graph, one_group, PoolWeights(), budget)
        assert (block.pair_u.tolist(), block.term_w.tolist(), block.bound) == ([1.0, 1.0], [1.0], 3.0)
        found = kernel_module.kernels(which).branch_and_bound_kernel(space, **search)
        assert (found.pairs.tolist(), found.value, found.proven) == ([0, 1], 4.0, True)
        # the prepared search, with other unary weights: b -> b worth -3 is left out (2 + 0 against 2 - 3 + 1)
        prepared = kernel_module.kernels(which).exact_search_kernel(space, rows=p.rows())
        found = prepared(np.array([2.0, -3.0]), np.array([0, 1]), 0.0, 10)
        assert (found.pairs.tolist(), found.value, found.proven) == ([0, -1], 2.0, True)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(GRAPHS, GRAPHS, st.data())
def test_the_prepared_exact_search_is_the_exact_search_with_each_calls_weights(a, b, data):
    p = build_problem(encode_pair(a, b))
    space, rows = p.search_space(), p.rows()
    prepared = {which: kernel_module.kernels(which).exact_search_kernel(space, rows=rows) for which in ("c", "python")}
    for _ in range(3):
        # weights as a document's shares make them: any sign
        u = np.array([data.draw(st.sampled_from([-1.5, -0.5, 0.0, 0.25, 1.0, 2.0])) for _ in range(p.n_pairs)])
        init = np.full(p.n_a, -1, dtype=np.int64)
        limit = data.draw(st.sampled_from([1, 5, 1000]))
        results = []
        for which in ("c", "python"):
            direct = kernel_module.kernels(which).branch_and_bound_kernel(
                space._replace(pair_u=u), rows=rows, init=init, gap=1e-10, node_limit=limit
            )
            found = prepared[which](u, init, 1e-10, limit)
            assert found.pairs.tolist() == direct.pairs.tolist() and found[1:] == direct[1:]
            results.append((found.pairs.tolist(), *found[1:]))
        assert results[0] == results[1]

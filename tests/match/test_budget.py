"""The memory budget: problems counted from the triples without visiting node pairs (the same counts as the
build, on both kernels), refused fast, and a pair over the budget or out of memory named in a clean error."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import InputError
from amreval.amr.graph import Edge, Graph
from amreval.cli import main
from amreval.errors import OutOfMemory, TooLargeError
from amreval.match import alignment as alignment_module
from amreval.match import problem as problem_module
from amreval.match.kernels import backends as kernel_module
from amreval.match.problem import Candidates, build_problem, memory_estimate
from amreval.match.triples import Triples, encode_pair, graph_triples
from amreval.scores.harness import score_corpus
from amreval.scores.results import Config
from amreval.scores.smatch import score_smatch_pair

from strategies import triples

KERNELS = ("c", "python")


def counted(pair, which, **kw):
    """``(terms, entries)`` as the kernels ``which`` count them, and the message: a budget of nothing refuses
    every problem."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(problem_module, "MEMORY_BUDGET", 0)
        mp.setattr(problem_module, "backend", lambda: kernel_module.kernels(which))
        with pytest.raises(TooLargeError) as refused:
            build_problem(pair, **kw)
    return (refused.value.n_terms, refused.value.n_entries), str(refused.value)


def chain(n: int, prefix: str) -> Graph:
    """``(n0 / {prefix}0 :r (n1 / {prefix}1 :r ...))``, ``n`` nodes deep, built without reading PENMAN."""
    return Graph(
        top="n0",
        instances={f"n{i}": f"{prefix}{i}" for i in range(n)},
        edges=[Edge(f"n{i}", "r", f"n{i + 1}", "r") for i in range(n - 1)],
    )


def test_counts_of_small_graphs_are_the_built_problems():
    # chains of 4 and 3 nodes, distinct concepts: each :r of A with each of B, 3 x 2 = 6 terms; one unary
    # entry, the tops' TOP. The pairs: A's sources {0, 1, 2} x B's {0, 1}, and A's targets
    # {1, 2, 3} x B's {1, 2}, {1, 2} x {1} in both: 6 + 6 - 2 = 10
    pair = encode_pair(graph_triples(chain(4, "c")), graph_triples(chain(3, "d")))
    for which in KERNELS:
        counts, message = counted(pair, which)
        assert counts == (6, 1)
        assert message == (
            "the alignment problem of 4 x 3 nodes has 6 pairwise terms and up to 12 candidate pairs and needs "
            "about 0.0 GiB, over the budget of 0.0 GiB; split the graph (DocSmatch: :sntK edges restrict "
            "alignments to their sentence)"
        )
    built = build_problem(pair)
    assert (built.n_terms, built.n_pairs) == (6, 10)
    # sentence groups: A's nodes in [0], [0], [1], [0, 1] (x, y, x, z; :r 0->1, 1->3, 2->3), B's in [0], [1],
    # [0, 1] (x, x, z; :r 0->2, 1->2). Terms: 0->1 with 0->2 (0, 0 share 0; 1, 2 share 0), 1->3 with 0->2,
    # 2->3 with 1->2; 0->1 and 1->3 with 1->2, 2->3 with 0->2 start in no shared group: 3 terms. Entries:
    # x at 0 with 0 and 2 with 1 (0 with 1, 2 with 0 share no group), z at 3 with 2, TOP at 0 with 0: 4.
    a = Triples(
        ["a0", "a1", "a2", "a3"], ["x", "y", "x", "z"], [("TOP", 0, "x")], [("r", 0, 1), ("r", 1, 3), ("r", 2, 3)]
    )
    b = Triples(["b0", "b1", "b2"], ["x", "x", "z"], [("TOP", 0, "x")], [("r", 0, 2), ("r", 1, 2)])
    allowed = Candidates.from_lists([[0], [0], [1], [0, 1]], [[0], [1], [0, 1]])
    pair = encode_pair(a, b)
    for which in KERNELS:
        counts, message = counted(pair, which, allowed=allowed)
        # candidate pairs at most: 4 entries + 2 x 3 terms; 3 x 2 of group 0 and 2 x 2 of group 1
        assert counts == (3, 4) and "has 3 pairwise terms and up to 10 candidate pairs" in message
    built = build_problem(pair, allowed=allowed)
    # (0, 0) with its instance and TOP, (2, 1) and (3, 2) with theirs, (1, 2) and (1, 0) as term ends
    assert (built.n_terms, built.n_pairs) == (3, 5)
    assert list(zip(built.pair_src.tolist(), built.pair_tgt.tolist())) == [(0, 0), (1, 0), (1, 2), (2, 1), (3, 2)]
    # a dense instance table counts every cell: 12, and TOP
    for which in KERNELS:
        assert counted(pair, which, allowed=allowed, instance_weights=np.ones((4, 3)))[0] == (3, 13)


def reference_counts(pair, allowed, dense):
    """Terms and unary entries from every two triples: matching keys whose nodes share a group (a term's
    two ends each), relations from a node to itself both sides; instances every cell when ``dense``."""
    inst_a, inst_b = pair.inst_a.tolist(), pair.inst_b.tolist()

    def ok(i, j):
        if allowed is None:
            return True
        mine = allowed.a_ids[allowed.a_ptr[i] : allowed.a_ptr[i + 1]].tolist()
        return bool(set(mine) & set(allowed.b_ids[allowed.b_ptr[j] : allowed.b_ptr[j + 1]].tolist()))

    cells = itertools.product(range(len(inst_a)), range(len(inst_b)))
    entries = len(inst_a) * len(inst_b) if dense else sum(inst_a[i] == inst_b[j] and ok(i, j) for i, j in cells)
    entries += sum(x[1] == y[1] and ok(x[0], y[0]) for x in pair.attr_a.tolist() for y in pair.attr_b.tolist())
    terms = 0
    for (r, i, k), (r_b, j, l) in itertools.product(pair.rel_a.tolist(), pair.rel_b.tolist()):  # noqa: E741
        if r == r_b and ok(i, j) and i == k and j == l:
            entries += 1
        elif r == r_b and ok(i, j) and ok(k, l) and i != k and j != l:
            terms += 1
    return terms, entries


@st.composite
def problem_inputs(draw):
    """Two random graphs (the shared :func:`strategies.triples`), and sometimes sentence groups (one to three
    of 0 to 3 a node, a coreference node in several) or a dense instance table."""
    a, b = draw(triples(attributes=True)), draw(triples(attributes=True))
    allowed = None
    if draw(st.booleans()):
        groups = st.lists(st.integers(0, 3), min_size=0, max_size=3, unique=True).map(sorted)
        allowed = Candidates.from_lists([draw(groups) for _ in a.concepts], [draw(groups) for _ in b.concepts])
    dense = draw(st.booleans())
    return a, b, allowed, dense


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problem_inputs())
def test_the_counts_are_the_built_problems_on_random_graphs(inputs):
    a, b, allowed, dense = inputs
    pair = encode_pair(a, b)
    kw = {"allowed": allowed, "instance_weights": np.ones((len(a.concepts), len(b.concepts))) if dense else None}
    built = build_problem(pair, **kw)
    terms, entries = reference_counts(pair, allowed, dense)
    for which in KERNELS:
        assert counted(pair, which, **kw)[0] == (terms, entries) == (built.n_terms, entries)
    # the pairs are term ends or unary entries, and share a group
    assert built.n_pairs <= entries + 2 * terms
    assert built.n_pairs <= problem_module._node_pairs(len(a.concepts), len(b.concepts), allowed)


def test_a_pair_of_50000_node_chains_is_refused_without_visiting_node_pairs():
    # 2,500,000,000 node pairs; each :r with each: 49,999^2 terms, none visited to count them
    pair = encode_pair(graph_triples(chain(50_000, "c")), graph_triples(chain(50_000, "d")))
    for which in KERNELS:
        start = time.perf_counter()
        counts, message = counted(pair, which)
        assert counts == (2_499_900_001, 1)
        assert time.perf_counter() - start < 5.0, which  # the count of node pairs took 23 s
        assert message.startswith(
            "the alignment problem of 50000 x 50000 nodes has 2,499,900,001 pairwise terms and up to "
            "2,500,000,000 candidate pairs and needs about 558.8 GiB, over the budget of 0.0 GiB"
        )


def test_the_estimate_is_what_the_budget_refuses(monkeypatch):
    # 6 terms and one entry: 1 MiB + 6 x 240 + 80 (until issue 48: 128 MiB + 6 x 12 KiB + 1.5 KiB, the LP's
    # worst case, which is counted apart now, lp_memory_estimate)
    assert memory_estimate(6, 1) == 1_050_096
    pair = encode_pair(graph_triples(chain(4, "c")), graph_triples(chain(3, "d")))
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 1_050_096)
    assert build_problem(pair).n_terms == 6
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 1_050_095)
    with pytest.raises(InputError, match="needs about 0.0 GiB, over the budget of 0.0 GiB"):
        build_problem(pair)


def test_a_pair_over_the_budget_is_named_by_the_corpus_scores_under_strict(monkeypatch, tmp_path, capsys):
    # without strict the pair is scored over each node's best candidates (tests/match/test_over_budget.py)
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 1_050_095)
    preds, golds = ["(a / b)", chain(4, "c")], ["(a / b)", chain(3, "d")]
    for workers in (1, 2):
        with pytest.raises(TooLargeError) as refused:
            score_corpus(preds, golds, score_smatch_pair, Config("smatch"), num_workers=workers, strict=True)
        assert str(refused.value).startswith(
            "pair #2 (<string> against <string>): the alignment problem of 4 x 3 nodes has 6 pairwise terms"
        )
        assert refused.value.n_terms == 6
    (tmp_path / "p.amr").write_text("(a / b)\n\n" + chain(4, "c").to_string() + "\n")
    (tmp_path / "g.amr").write_text("(a / b)\n\n" + chain(3, "d").to_string() + "\n")
    assert main(["smatch", "-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr"), "--strict"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"amreval: error: pair #2 ({tmp_path / 'p.amr'}, graph #2, line 3 against {tmp_path / 'g.amr'}, graph #2, "
        "line 3): the alignment problem of 4 x 3 nodes"
    )
    assert "Traceback" not in err


def test_out_of_memory_in_any_step_names_the_pair(monkeypatch, tmp_path, capsys):
    def no_memory(*args, **kwargs):
        raise MemoryError("out of memory in hill climbing on 2 x 2 nodes")

    monkeypatch.setattr(alignment_module, "hill_climb", no_memory)
    # graphs the same up to names are aligned without the search: the gold graphs differ from the predictions
    preds, golds = ["(a / b)", "(a / b :r (c / d))"], ["(x / b :r (y / e))", "(x / b :r (y / e))"]
    for workers in (1, 2):  # the workers are forks: they take the patch; the error comes back pickled
        with pytest.raises(OutOfMemory) as failed:
            score_corpus(preds, golds, score_smatch_pair, Config("smatch"), num_workers=workers)
        assert str(failed.value) == (
            "pair #1 (prediction #1, graph #1, line 1 against reference #1, graph #1, line 1): out of memory "
            "scoring the pair (out of memory in hill climbing on 2 x 2 nodes); scoring a pair may take up to the "
            "alignment's memory budget, 4.0 GiB, beyond what the process holds: allow the process more memory "
            "(or run fewer workers), or split the graph"
        )
        assert isinstance(failed.value, MemoryError)
    (tmp_path / "p.amr").write_text("\n\n".join(preds) + "\n")
    (tmp_path / "g.amr").write_text("\n\n".join(golds) + "\n")
    assert main(["smatch", "-f", str(tmp_path / "p.amr"), str(tmp_path / "g.amr")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"amreval: error: pair #1 ({tmp_path / 'p.amr'}, graph #1, line 1 against ")
    assert "out of memory scoring the pair (out of memory in hill climbing on 2 x 2 nodes)" in err


CHILD = """
import resource, sys
import numpy, amreval.match.alignment, amreval.match.kernels.backends, amreval.scores.smatch  # loaded before the limit
from amreval.cli import main
size = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmSize")) * 1024
limit = size + 16 * 1024**2  # 16 MiB more address space than the process has: the problem needs ~50 MB
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.exit(main(["smatch", "-f", sys.argv[1], sys.argv[2]]))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and limits the address space")
def test_a_process_out_of_address_space_ends_with_an_error_line(tmp_path):
    # two 500-node chains: 249,001 terms, within the budget, but not within 16 MiB more address space
    (tmp_path / "p.amr").write_text(chain(500, "c").to_string() + "\n")
    (tmp_path / "g.amr").write_text(chain(500, "d").to_string() + "\n")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "p.amr"), str(tmp_path / "g.amr")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "AMREVAL_PROGRESS": "0"},
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"amreval: error: pair #1 ({tmp_path / 'p.amr'}, graph #1, line 1 against ")
    assert "out of memory scoring the pair (" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""

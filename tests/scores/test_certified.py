"""Certified scores do not depend on how the same input is written or run (real data)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amreval import docsmatch, read_graphs, smatch
from amreval.amr.graph import Attribute, Edge, Graph
from amreval.docamr.document import join_sentences

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"

# the whole Little Prince corpus, both versions
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lpp():
    base = DATA / "lpp"
    if not base.exists():
        pytest.skip(f"public AMR data not found at {base} (expected ../shared/data beside the project)")
    return read_graphs(base / "amr-bank-struct-v1.6.txt")[:120], read_graphs(base / "amr-bank-struct-v3.0.txt")[:120]


def rewrite(g: Graph, rng: random.Random) -> Graph:
    """The same graph with new variable names and its edges and attributes in another order."""
    names = list(g.instances)
    fresh = [f"v{k}" for k in range(len(names))]
    rng.shuffle(fresh)
    new = dict(zip(names, fresh))
    edges = [Edge(new[e.source], e.role, new[e.target], e.written) for e in g.edges]
    attributes = [Attribute(new[a.source], a.role, a.value) for a in g.attributes]
    rng.shuffle(edges)
    rng.shuffle(attributes)
    # the top stays first: it is the root of the written graph
    instances = {new[g.top]: g.instances[g.top]} if g.top else {}
    rest = [v for v in names if v != g.top]
    rng.shuffle(rest)
    instances.update((new[v], g.instances[v]) for v in rest)
    return Graph(new[g.top] if g.top else None, instances, edges, attributes, dict(g.metadata), g.origin)


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**31), st.integers(0, 100))
def test_sentence_scores_are_invariant(lpp, seed, start):
    a, b = lpp[0][start : start + 20], lpp[1][start : start + 20]
    base = smatch(a, b)
    assert base.n_optimal == len(a) and base.gap == 0
    rng = random.Random(seed)
    renamed = smatch([rewrite(g, rng) for g in a], [rewrite(g, rng) for g in b], seed=seed)
    assert [p.match for p in renamed.pairs] == [p.match for p in base.pairs]
    swapped = smatch(b, a, seed=seed % 7)
    assert [p.match for p in swapped.pairs] == [p.match for p in base.pairs]
    assert (swapped.precision, swapped.recall) == (base.recall, base.precision)


def test_document_scores_are_invariant(lpp):
    docs_a = [join_sentences(lpp[0][k : k + 15]) for k in range(0, 60, 15)]
    docs_b = [join_sentences(lpp[1][k : k + 15]) for k in range(0, 60, 15)]
    base = docsmatch(docs_a, docs_b, coref=True)
    assert base.n_optimal == 4 and base.gap == 0
    rng = random.Random(5)
    renamed = docsmatch([rewrite(g, rng) for g in docs_a], [rewrite(g, rng) for g in docs_b], coref=True, seed=9)
    assert (renamed.match, renamed.test, renamed.gold) == (base.match, base.test, base.gold)
    two = docsmatch(docs_a, docs_b, coref=True, num_workers=2, seed=3)
    assert [p.match for p in two.pairs] == [p.match for p in base.pairs]
    swapped = docsmatch(docs_b, docs_a)
    assert (swapped.match, swapped.precision, swapped.recall) == (base.match, base.recall, base.precision)


def test_pricing_certifies_a_long_document_as_the_whole_lp_does(lpp, monkeypatch):
    from amreval.match import alignment

    docs_a = [join_sentences(lpp[0][:120])]
    docs_b = [join_sentences(lpp[1][:120])]
    monkeypatch.setattr(alignment, "PRICED_LP_MIN_PAIRS", 10**9)
    whole = docsmatch(docs_a, docs_b, coref=True)
    monkeypatch.setattr(alignment, "PRICED_LP_MIN_PAIRS", 0)
    priced = docsmatch(docs_a, docs_b, coref=True)
    assert whole.n_optimal == priced.n_optimal == 1 and whole.gap == priced.gap == 0
    assert (priced.match, priced.test, priced.gold) == (whole.match, whole.test, whole.gold)
    assert (priced.coref_f1, priced.f1) == (whole.coref_f1, whole.f1)

"""MFβ: Meaning, Form and their combination by hand; parsers; explanations; the evaluate metric."""

from __future__ import annotations

import doctest
import os
from pathlib import Path

import pytest

from amreval import InputError, loads_graph
from amreval.mfbeta.score import mf_beta, mfbeta
from amreval.scores.vectors import WordVectors

ROOT = Path(__file__).resolve().parents[2]
V = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
GOLD = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "(s / sleep-01 :ARG0 (g / girl))"]
PARSES = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))", None]
GEN = ["the boy wants to go .", "girl sleep the"]
REF = ["the boy wants to go .", "the girl sleeps ."]


class FixedScores:
    """A stand-in language model: a fixed score per sentence."""

    def __init__(self, scores):
        self.scores = scores

    def sentence_scores(self, sentences, *, progress=None):
        import numpy as np

        return np.array([self.scores[s] for s in sentences])


LM = FixedScores({"the boy wants to go .": 0.3, "girl sleep the": 0.1, "the girl sleeps .": 0.3})


def test_mf_beta_formula():
    assert mf_beta(0.5, 0.5, 1.0) == 0.5
    assert mf_beta(1.0, 0.0, 1.0) == 0.0 and mf_beta(0.0, 0.0, 2.0) == 0.0
    assert mf_beta(0.6, 0.9, 1e-9) == pytest.approx(0.6) and mf_beta(0.6, 0.9, 1e9) == pytest.approx(0.9)
    with pytest.raises(InputError, match="beta must be a positive finite number"):
        mf_beta(0.5, 0.5, 0)


def test_meaning_form_and_mf_by_hand():
    r = mfbeta(GEN, REF, reference_amrs=GOLD, prediction_amrs=PARSES, scorer=LM, vectors=V, beta=2.0, explain=True)
    # Meaning: pair 1 earns 6 exact triples + go-01/go-02 0.5 of 7 and 7; pair 2's parse failed and is the
    # authors' dummy (er / serialization-error): 2 triples (instance, TOP) that earn nothing against 4 gold
    # triples: F = 2 * 6.5 / (9 + 11)
    assert r.meaning_counts == (6.5, 9, 11)
    assert r.meaning == pytest.approx(13 / 20)
    assert (r.parse_failures, r.failed, r.reference_parse_failures) == (1, [1], 0)
    # Form: identical sentences prefer 0.5 (acceptable); 0.1 / (0.1 + 0.3) = 0.25 is not
    assert r.pref_scores == [0.5, 0.25] and r.acceptable == [True, False] and r.form == 0.5
    m, f = 13 / 20, 0.5
    assert r.scores["mf_1"] == pytest.approx(2 * m * f / (m + f))
    assert r.scores["mf_0.5"] == pytest.approx(1.25 * m * f / (0.25 * m + f))
    assert r.mf_beta == r.scores["mf_2"] == pytest.approx(5 * m * f / (4 * m + f))
    assert r.s2match_f1 == [pytest.approx(6.5 / 7), 0.0]
    assert r.explanations[0] == {"lost": [], "added": [], "approximate": [["go-02", "go-01", 0.5]]}
    assert r.explanations[1] == {
        "lost": ["sleep-01", "girl", "sleep-01 :TOP top", "sleep-01 :arg0 girl"],
        "added": ["serialization-error", "serialization-error :TOP top"],
        "approximate": [],
    }
    d = r.as_dict(per_example=True)
    assert list(d)[:6] == ["mf_beta", "mf_1", "mf_0.5", "mf_2", "meaning", "form"]
    assert ",lm_kind=causal,clean=none," in d["config"] and r.config.as_dict()["clean"] == "none"
    assert d["config"].startswith(
        "solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=mfbeta,beta=2.0,tolerance=0.05"
    )


def test_tolerance_decides_acceptability():
    lm = FixedScores({"a b": 0.9, "b a": 1.1})
    # prefScore 0.9 / 2.0 = 0.45: acceptable at the default tolerance 0.05, not at 0.04
    kw = dict(reference_amrs=["(a / b)"], prediction_amrs=["(a / b)"], scorer=lm, vectors=V)
    assert mfbeta(["a b"], ["b a"], **kw).form == 1.0
    assert mfbeta(["a b"], ["b a"], tolerance=0.04, **kw).form == 0.0


def test_parser_callable_parses_generations_and_references():
    table = {"the boy wants to go .": GOLD[0], "girl sleep the": "(x / ???", "the girl sleeps .": GOLD[1]}
    calls = []

    def parse(sentences):
        calls.append(list(sentences))
        return [table[s] for s in sentences]

    r = mfbeta(GEN, REF, parser=parse, scorer=LM, vectors=V)
    # without gold AMRs both sides are parsed; the malformed parse of "girl sleep the" failed: its 2 dummy
    # triples stand against the 4 of the parsed reference
    assert calls == [GEN, REF]
    assert (r.parse_failures, r.reference_parse_failures) == (1, 0)
    assert r.meaning_counts == (7.0, 9, 11)


def test_empty_generated_sentence_is_scored_not_refused():
    calls = []

    def parse(sentences):
        calls.append(list(sentences))
        return [GOLD[0] for _ in sentences]

    # FixedScores has no score for "  ": it must not reach the language model either
    r = mfbeta([GEN[0], "  "], REF, reference_amrs=GOLD, parser=parse, scorer=LM, vectors=V, explain=True)
    assert calls == [[GEN[0]]]
    assert (r.parse_failures, r.failed) == (1, [1])
    # pair 1 is exact (7 of 7); pair 2 is the dummy graph (2 triples, nothing matched) against 4 gold triples
    assert r.meaning_counts == (7.0, 9, 11) and r.meaning == pytest.approx(0.7)
    assert r.s2match_f1 == [1.0, 0.0]
    assert r.explanations[1]["added"] == ["serialization-error", "serialization-error :TOP top"]
    # Form: an empty sentence scores 0, prefScore 0 / (0 + 0.3) = 0, never acceptable
    assert r.pref_scores == [0.5, 0.0] and r.acceptable == [True, False] and r.form == 0.5
    assert r.mf_beta == pytest.approx(2 * 0.7 * 0.5 / 1.2)
    # a failed parse given beforehand is the same dummy graph
    given = mfbeta([GEN[0], ""], REF, reference_amrs=GOLD, prediction_amrs=[GOLD[0], None], scorer=LM, vectors=V)
    assert given.meaning_counts == (7.0, 9, 11) and given.pref_scores == [0.5, 0.0]


def test_bad_inputs_name_the_index():
    kw = dict(scorer=LM, vectors=V)
    with pytest.raises(InputError, match=r"2 generated sentences but 1 reference"):
        mfbeta(GEN, REF[:1], reference_amrs=GOLD, prediction_amrs=PARSES, **kw)
    with pytest.raises(InputError, match=r"reference #2: empty sentence"):
        mfbeta(GEN, [REF[0], "  "], reference_amrs=GOLD, prediction_amrs=PARSES, **kw)
    with pytest.raises(InputError, match=r"reference AMR #2, graph #1, line 1: malformed PENMAN"):
        mfbeta(GEN, REF, reference_amrs=[GOLD[0], "(s / sleep-01"], prediction_amrs=PARSES, **kw)
    with pytest.raises(InputError, match=r"2 generated sentences but 1 prediction AMRs"):
        mfbeta(GEN, REF, reference_amrs=GOLD, prediction_amrs=PARSES[:1], **kw)
    with pytest.raises(InputError, match="pass parser="):
        mfbeta(GEN, REF, reference_amrs=GOLD, **kw)
    with pytest.raises(InputError, match="nothing to score"):
        mfbeta([], [], reference_amrs=[], prediction_amrs=[], **kw)


# ---------------------------------------------------------------- the evaluate metric, with a real tiny LM


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory, make_tiny_gpt2):
    return make_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"), GEN + REF)


@pytest.fixture(scope="module")
def metric():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate) is not installed")
    return evaluate.load(str(ROOT / "metrics" / "mfbeta"))


def test_metric_equals_the_core(metric, tiny_gpt2):
    from amreval.mfbeta.form import get_scorer

    kw = dict(reference_amrs=GOLD, prediction_amrs=PARSES, vectors=None)
    out = metric.compute(predictions=GEN, references=REF, lm=tiny_gpt2, per_example=True, explain=True, **kw)
    core = mfbeta(GEN, REF, scorer=get_scorer(tiny_gpt2), explain=True, **kw).as_dict(per_example=True)
    # the core's dict, with the score's name in config only (score=mfbeta); every other value a number
    assert core.pop("score") == "mfbeta" and out == core and ",score=mfbeta," in out["config"]
    lists = ("pref_scores", "acceptable", "s2match_f1", "explanations")
    assert all(isinstance(v, (int, float)) for k, v in out.items() if k not in ("config", *lists))
    # the parses may be amreval Graphs, as the core takes them
    graphs = dict(reference_amrs=[loads_graph(g) for g in GOLD], prediction_amrs=[loads_graph(PARSES[0]), None])
    assert (
        metric.compute(
            predictions=GEN, references=REF, lm=tiny_gpt2, per_example=True, explain=True, vectors=None, **graphs
        )
        == out
    )
    assert out["parse_failures"] == 1 and out["pref_scores"][0] == 0.5
    # the model is loaded once and kept; a second compute on the same sentences reuses every score
    scorer = get_scorer(tiny_gpt2)
    scored = scorer.sentences_scored
    metric.compute(predictions=GEN, references=REF, lm=tiny_gpt2, **kw)
    assert scorer.sentences_scored == scored and get_scorer(tiny_gpt2) is scorer


def test_metric_add_batch_and_add_carry_the_amrs(metric, tiny_gpt2):
    kw = dict(lm=tiny_gpt2, per_example=True, vectors=None)
    once = metric.compute(predictions=GEN, references=REF, reference_amrs=GOLD, prediction_amrs=PARSES, **kw)
    for k in range(2):  # one example per batch; the second parse (None) failed
        metric.add_batch(
            predictions=GEN[k : k + 1],
            references=REF[k : k + 1],
            reference_amrs=GOLD[k : k + 1],
            prediction_amrs=PARSES[k : k + 1],
        )
    assert metric.compute(**kw) == once
    for k in range(2):
        metric.add(prediction=GEN[k], reference=REF[k], reference_amrs=GOLD[k], prediction_amrs=PARSES[k])
    assert metric.compute(**kw) == once
    # the Meaning of test_meaning_form_and_mf_by_hand: the failed parse counts as the dummy graph
    assert once["meaning"] == pytest.approx(13 / 20) and once["parse_failures"] == 1


def test_metric_amrs_given_for_some_batches_only_is_an_error(metric, tiny_gpt2):
    metric.add_batch(predictions=GEN[:1], references=REF[:1], reference_amrs=GOLD[:1], prediction_amrs=PARSES[:1])
    metric.add_batch(predictions=GEN[1:], references=REF[1:], reference_amrs=GOLD[1:])
    with pytest.raises(ValueError, match=r"prediction_amrs were given for 1 of 2 examples: give them for every batch"):
        metric.compute(lm=tiny_gpt2, vectors=None)
    with pytest.raises(InputError, match=r"^2 predictions but 1 reference_amrs; they are paired by position$"):
        metric.add_batch(predictions=GEN, references=REF, reference_amrs=GOLD[:1], prediction_amrs=PARSES)
    metric.compute(predictions=GEN, references=REF, lm=tiny_gpt2, reference_amrs=GOLD, prediction_amrs=PARSES)


# One process of a distributed MFβ evaluation: each adds its example with its AMRs; process 0 scores both.
MF_WORKER = """
import json, sys
spec = json.loads(sys.argv[1])
import evaluate
metric = evaluate.load(spec["script"], num_process=2, process_id=spec["rank"], experiment_id=spec["experiment_id"],
                       cache_dir=spec["cache_dir"], timeout=120)
k = spec["rank"]
metric.add_batch(predictions=spec["gen"][k:k + 1], references=spec["ref"][k:k + 1],
                 reference_amrs=spec["gold"][k:k + 1], prediction_amrs=spec["parses"][k:k + 1])
print(json.dumps(metric.compute(lm=spec["lm"], vectors=None, per_example=True)))
"""


@pytest.mark.slow
def test_metric_num_process_carries_the_amrs(metric, tiny_gpt2, tmp_path):
    import json
    import subprocess
    import sys

    base = {
        "script": str(ROOT / "metrics" / "mfbeta"),
        "experiment_id": f"mf-{os.getpid()}",
        "cache_dir": str(tmp_path / "cache"),
        "gen": GEN,
        "ref": REF,
        "gold": GOLD,
        "parses": PARSES,
        "lm": tiny_gpt2,
    }
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", MF_WORKER, json.dumps(dict(base, rank=rank))],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for rank in range(2)
    ]
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-3000:]
        outs.append(json.loads(out.strip().splitlines()[-1]))
    expected = metric.compute(
        predictions=GEN,
        references=REF,
        reference_amrs=GOLD,
        prediction_amrs=PARSES,
        lm=tiny_gpt2,
        vectors=None,
        per_example=True,
    )
    assert outs[1] is None and outs[0] == json.loads(json.dumps(expected))
    assert outs[0]["parse_failures"] == 1 and outs[0]["meaning"] == pytest.approx(13 / 20)


def test_metric_bad_input_raises_value_error(metric, tiny_gpt2):
    with pytest.raises(ValueError, match=r"reference AMR #1: expected a PENMAN graph"):
        metric.compute(
            predictions=GEN, references=REF, lm=tiny_gpt2, reference_amrs=["", GOLD[1]], prediction_amrs=PARSES
        )
    with pytest.raises(ValueError, match=r"reference #1: empty sentence"):
        metric.compute(
            predictions=GEN, references=["", REF[1]], lm=tiny_gpt2, reference_amrs=GOLD, prediction_amrs=PARSES
        )


def lower_all(sentences):
    return [s.lower() for s in sentences]


def test_metric_scores_an_empty_prediction_and_passes_clean_on(metric, tiny_gpt2):
    out = metric.compute(
        predictions=["", "GIRL sleep the"],
        references=REF,
        lm=tiny_gpt2,
        reference_amrs=GOLD,
        prediction_amrs=PARSES,
        clean=lower_all,
        per_example=True,
    )
    assert out["pref_scores"][0] == 0.0 and out["acceptable"][0] is False
    # the empty generation's parse fails although a parse is given for it; the second parse is None
    assert out["parse_failures"] == 2 and ",clean=lower_all," in out["config"]
    # "GIRL sleep the" was lower-cased before Form: it scores what "girl sleep the" scores without cleaning
    plain = metric.compute(
        predictions=GEN, references=REF, lm=tiny_gpt2, reference_amrs=GOLD, prediction_amrs=PARSES, per_example=True
    )
    assert out["pref_scores"][1] == plain["pref_scores"][1] and ",clean=none," in plain["config"]


def test_metric_docstring_examples_run(metric, tiny_gpt2, monkeypatch):
    import evaluate

    monkeypatch.chdir(ROOT)
    module = __import__(type(metric).__module__, fromlist=["_KWARGS_DESCRIPTION"])
    # the example names "gpt2", which cannot be downloaded here: run it with the tiny local model
    text = module._KWARGS_DESCRIPTION.replace('lm_path = "gpt2"', f"lm_path = {tiny_gpt2!r}")
    assert text != module._KWARGS_DESCRIPTION
    test = doctest.DocTestParser().get_doctest(text, {"evaluate": evaluate}, "mfbeta", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=4)


def test_settings_are_checked_before_any_work():
    from amreval.amr.graph import Graph

    kw = dict(reference_amrs=GOLD, prediction_amrs=PARSES, scorer=LM, vectors=V)
    with pytest.raises(InputError, match=r"diffsense must be in \[0, 1\], got 3.0"):
        mfbeta(GEN, REF, diffsense=3.0, **kw)
    with pytest.raises(InputError, match="tolerance"):
        mfbeta(GEN, REF, tolerance=0.7, **kw)
    with pytest.raises(InputError, match="unknown lm_kind 'casual'"):
        mfbeta(GEN, REF, reference_amrs=GOLD, prediction_amrs=PARSES, lm_kind="casual", vectors=V)
    with pytest.raises(InputError, match="beta must be a positive finite number"):
        mfbeta(GEN, REF, beta=float("inf"), **kw)
    # an empty Graph given as a parse is a failed parse, like None
    r = mfbeta(GEN, REF, reference_amrs=GOLD, prediction_amrs=[PARSES[0], Graph.empty()], scorer=LM, vectors=V)
    assert (r.parse_failures, r.failed) == (1, [1])


# ---------------------------------------------------------------- reuse across systems, workers


def test_five_systems_score_the_references_once(make_tiny_gpt2, tmp_path):
    from amreval.mfbeta.cache import MEMORY
    from amreval.mfbeta.form import get_scorer

    path = make_tiny_gpt2(tmp_path / "lm", GEN + REF, seed=4)
    MEMORY.clear()
    systems = [[f"{g} {'!' * k}" for g in GEN] for k in range(1, 6)]
    scorer = get_scorer(path, device="cpu")
    results = []
    for k, system in enumerate(systems):
        results.append(mfbeta(system, REF, reference_amrs=GOLD, prediction_amrs=PARSES, lm=path, vectors=V))
        # the first system: its 2 sentences and the 2 references; each later one: its own 2 only
        assert scorer.sentences_scored == 4 + 2 * k
    fresh = mfbeta(systems[4], REF, reference_amrs=GOLD, prediction_amrs=PARSES, lm=path, vectors=V, cache=False)
    got, want = fresh.as_dict(per_example=True), results[4].as_dict(per_example=True)
    # the references were scored in another batch (beside the first system): the language model's float32
    # sums may differ in their last digits with the batch's shape, never more
    assert got.pop("pref_scores") == pytest.approx(want.pop("pref_scores"), rel=1e-6, abs=0)
    assert got == want


def test_parses_are_reused_when_the_parser_names_itself():
    table = {"the boy wants to go .": GOLD[0], "girl sleep the": "(x / ???", "the girl sleeps .": GOLD[1]}
    table["the boy wants to go ! ."] = GOLD[0]

    class NamedParser:
        cache_key = "test-parser:v1"

        def __init__(self):
            self.calls = []

        def parse(self, sentences):
            self.calls.append(list(sentences))
            return [table[s] for s in sentences]

    from amreval.mfbeta.cache import ResultCache

    parser, cache = NamedParser(), ResultCache()
    first = mfbeta(GEN, REF, parser=parser, scorer=LM, vectors=V, cache=cache)
    # a sentence that is both generated and a reference is parsed once
    assert parser.calls == [GEN, ["the girl sleeps ."]]
    second = mfbeta(GEN, REF, parser=parser, scorer=LM, vectors=V, cache=cache)
    assert len(parser.calls) == 2 and second.as_dict(per_example=True) == first.as_dict(per_example=True)
    assert (second.parse_failures, second.meaning_counts) == (1, (7.0, 9, 11))
    calls = []

    def plain(sentences):  # a plain function has no name to key a cache by: it is always called
        calls.append(list(sentences))
        return [table[s] for s in sentences]

    mfbeta(GEN, REF, parser=plain, scorer=LM, vectors=V, cache=cache)
    mfbeta(GEN, REF, parser=plain, scorer=LM, vectors=V, cache=cache)
    assert calls == [GEN, REF, GEN, REF]


def test_meaning_in_worker_processes_is_identical(data_dir):
    import warnings

    from amreval.amr.read import read_graphs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the parser output has undefined variables, read as constants
        gold = read_graphs(data_dir / "parses" / "gold.amr")[:12]
        bart = read_graphs(data_dir / "parses" / "bart_sys.amr")[:12]
    sentences = [g.metadata["snt"] for g in gold]
    lm = FixedScores(dict.fromkeys(sentences, 0.2))
    kw = dict(reference_amrs=gold, prediction_amrs=bart, scorer=lm, explain=True, vectors=V)
    one = mfbeta(sentences, sentences, num_workers=1, **kw).as_dict(per_example=True)
    two = mfbeta(sentences, sentences, num_workers=2, **kw).as_dict(per_example=True)
    assert one == two and len(two["explanations"]) == 12
    with pytest.raises(InputError, match="num_workers must be a positive integer"):
        mfbeta(sentences, sentences, num_workers=0, **kw)


def test_given_parses_that_cannot_be_read_or_of_blank_sentences_fail(tmp_path):
    import warnings

    from amreval.amr.read import read_graphs

    # a parse file read leniently, as `amreval mfbeta --parses` reads it: the malformed second graph
    # is a failed parse, not an error
    (tmp_path / "parses.amr").write_text(PARSES[0] + "\n\n(s / sleep-01 :ARG0 (g / girl\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parses = read_graphs(tmp_path / "parses.amr", errors=[])
    r = mfbeta(GEN, REF, reference_amrs=GOLD, prediction_amrs=parses, scorer=LM, vectors=V)
    assert (r.parse_failures, r.failed) == (1, [1])
    # a blank generation's parse fails even when a parse is given for it, as when a parser parses
    blank = mfbeta(["   ", GEN[1]], REF, reference_amrs=GOLD, prediction_amrs=[GOLD[0], GOLD[1]], scorer=LM, vectors=V)
    assert blank.failed == [0] and blank.s2match_f1[0] == 0.0


def test_meaning_with_a_vector_text_file_reads_the_graphs_words_only(tmp_path, monkeypatch):
    import amreval.mfbeta.score as score_module

    path = tmp_path / "vectors.txt"
    path.write_text("dog 0.1 0.2\ncat 1.0 0.0\nkitten 0.8 0.6\n", encoding="utf-8")
    asked = []
    real = score_module.resolve_vectors

    def spy(vectors, *, words=None):
        asked.append(set(words))
        return real(vectors, words=words)

    monkeypatch.setattr(score_module, "resolve_vectors", spy)
    kw = dict(reference_amrs=["(k / kitten)"], prediction_amrs=["(c / cat)"], scorer=LM, explain=False)
    by_file = mfbeta(["the boy wants to go ."], ["the boy wants to go ."], vectors=str(path), **kw)
    by_table = mfbeta(["the boy wants to go ."], ["the boy wants to go ."], vectors=V, **kw)
    # cat ~ kitten: cosine 0.8, earned by the instance and by the TOP triple (it names the concept): 1.6 of 2
    # and 2 (the file's vectors are float32, the table's float64)
    for r in (by_file, by_table):
        assert r.meaning_counts == (pytest.approx(1.6, abs=1e-7), 2, 2)
    assert asked[0] == {"cat", "kitten"}

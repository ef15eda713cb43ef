"""Every result is a Result: ``as_dict()`` of a small real one of each kind goes through ``json.dumps``, with
hand-checked values for Smatch, one average and the settings; TooLarge is TooLargeError under its old name."""

from __future__ import annotations

import ast
import importlib
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

import amreval
import amreval.scores
from amreval import errors
from amreval.errors import InputError, TooLarge, TooLargeError
from amreval.match.options import SearchOptions
from amreval.mfbeta.document import document_mfbeta
from amreval.mfbeta.robustness import parser_robustness
from amreval.mfbeta.score import mfbeta
from amreval.scores.aspects import aspect_scores
from amreval.scores.averages import averages
from amreval.scores.compare import compare_systems
from amreval.scores.docsmatch import docsmatch
from amreval.scores.results import Config, Result
from amreval.scores.smatch import smatch
from amreval.scores.text import plural
from amreval.scores.vectors import WordVectors

SRC = Path(__file__).resolve().parents[2] / "src" / "amreval"
PRED = ["(w / want-01 :ARG0 (b / boy))", "(s / sleep-01 :ARG0 (g / girl))"]
GOLD = ["(w / want-01 :ARG0 (g / girl))", "(s / sleep-01 :ARG0 (g / girl))"]
DOC = "(d / document :snt1 (s / sleep-01 :ARG0 (b / boy)))"
SENT = "(s / sleep-01 :ARG0 (b / boy))"
V = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})


class FixedScores:
    """A stand-in language model: the same score for every sentence."""

    def sentence_scores(self, sentences, *, progress=None):
        return np.full(len(sentences), 0.3)


def _classes_with_as_dict() -> list[type]:
    """Every class in the package that defines ``as_dict`` (but the interface itself), found in the source."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and any(
                isinstance(item, ast.FunctionDef) and item.name == "as_dict" for item in node.body
            ):
                module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
                found.append(getattr(importlib.import_module(module), node.name))
    return [cls for cls in found if cls is not Result]


def _results() -> list[Result]:
    """A small real result of every kind, scored here."""
    lm = FixedScores()
    robust = parser_robustness(
        {"A": ["the boy sleeps ."], "B": ["boy sleep"]},
        ["the boy sleeps ."],
        {"p": {"A": [GOLD[1]], "B": [PRED[1]]}, "q": {"A": [PRED[1]], "B": [GOLD[1]]}},
        reference_amrs=[GOLD[1]],
        scorer=lm,
        vectors=V,
    )
    comparison = compare_systems({"p": PRED, "g": GOLD}, GOLD, n_resamples=50)
    counts = averages([[3, 4, 4], [1, 2, 4]], n_resamples=20)
    return [
        smatch(PRED, GOLD),
        smatch(PRED, GOLD).config,
        smatch(PRED, GOLD).pairs[0],
        docsmatch([DOC], [DOC], coref=True),
        counts,
        counts.micro,
        comparison,
        comparison.tests[0],
        aspect_scores(PRED, GOLD),
        mfbeta(
            ["the boy sleeps ."],
            ["the boy sleeps ."],
            reference_amrs=[GOLD[1]],
            prediction_amrs=[PRED[1]],
            scorer=lm,
            vectors=V,
        ),
        document_mfbeta(
            ["The boy slept."], ["The boy slept."], reference_amrs=[DOC], prediction_amrs=[[SENT]], scorer=lm
        ),
        robust,
        robust.agreement[0],
    ]


def test_every_class_with_as_dict_is_a_result():
    classes = _classes_with_as_dict()
    assert len(classes) >= 11
    for cls in classes:
        assert issubclass(cls, Result), cls.__qualname__
    assert amreval.Result is amreval.scores.Result is Result


def test_a_small_real_result_of_every_kind_is_a_result_that_json_writes():
    results = _results()
    kinds = {type(r) for r in results}
    assert kinds >= set(_classes_with_as_dict())  # one of each kind (and DocsmatchResult, a subclass)
    for r in results:
        assert isinstance(r, Result), type(r).__name__
        written = json.loads(json.dumps(r.as_dict()))
        assert isinstance(written, dict) and written, type(r).__name__
    assert not isinstance(object(), Result) and not isinstance({"f1": 1.0}, Result)


def test_smatch_s_numbers_by_hand():
    # want-01 :ARG0 boy against want-01 :ARG0 girl: 3 of 4 triples (the instance of boy is not girl);
    # the sleeping girl: all 4; 7 of 8 each way
    d = smatch(PRED, GOLD).as_dict()
    config = d.pop("config")
    assert d == {
        "precision": 0.875,
        "recall": 0.875,
        "f1": 0.875,
        "match": 7,
        "test": 8,
        "gold": 8,
        "n_pairs": 2,
        "n_optimal": 2,
        "n_unreadable": 0,
        "n_unproven": 0,
        "n_over_budget": 0,
        "n_timed_out": 0,
        "gap": 0.0,
        "score": "smatch",
    }
    assert config == (
        f"solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=smatch,amreval={amreval.__version__}"
    )


def test_an_average_on_its_own_and_in_its_averages_by_hand():
    a = averages([[3, 4, 4], [1, 2, 4]], n_resamples=0)
    # micro: 4 of 6 predicted, 4 of 8 gold: F1 2 * 4 / (6 + 8)
    assert a.micro.as_dict() == {"precision": 4 / 6, "recall": 0.5, "f1": pytest.approx(4 / 7)}
    assert a.as_dict()["micro_f1"] == a.micro.as_dict()["f1"] == a.micro.as_dict("micro")["micro_f1"]
    # macro: (3/4, 3/4, 3/4) and (1/2, 1/4, 1/3)
    assert a.macro.as_dict() == pytest.approx({"precision": 5 / 8, "recall": 1 / 2, "f1": (3 / 4 + 1 / 3) / 2})
    assert json.dumps(a.micro.as_dict()) == json.dumps({"precision": 4 / 6, "recall": 0.5, "f1": a.micro.f1})


def test_the_settings_as_data_by_hand():
    config = Config("smatch", SearchOptions(restarts=2, seed=7), (("strict", True),), version="0")
    assert config.as_dict() == {
        "score": "smatch",
        "solver": "exact",
        "restarts": 2,
        "seed": 7,
        "time_limit": 600.0,
        "work_limit": 50000,
        "strict": True,
        "amreval": "0",
    }
    assert json.dumps(config.as_dict()) == (
        '{"score": "smatch", "solver": "exact", "restarts": 2, "seed": 7, "time_limit": 600.0, "work_limit": 50000, '
        '"strict": true, "amreval": "0"}'
    )


def test_too_large_is_too_large_error_under_its_old_name():
    assert TooLarge is TooLargeError and errors.TooLarge is errors.TooLargeError
    assert {"TooLarge", "TooLargeError"} <= set(errors.__all__)
    assert issubclass(TooLargeError, InputError) and TooLargeError.__name__ == "TooLargeError"
    big = TooLarge(10, 20, "pair #3: too large")
    back = pickle.loads(pickle.dumps(big))
    assert type(back) is TooLargeError and isinstance(back, TooLarge)
    assert (back.n_terms, back.n_entries, str(back)) == (10, 20, "pair #3: too large")
    plain = pickle.loads(pickle.dumps(TooLargeError(5, 6)))
    assert str(plain) == "5 pairwise terms and 6 unary entries over the memory budget"
    with pytest.raises(TooLarge):
        raise TooLargeError(1, 2)


def test_plural():
    assert [plural(n, "sentence") for n in (0, 1, 2)] == ["0 sentences", "1 sentence", "2 sentences"]

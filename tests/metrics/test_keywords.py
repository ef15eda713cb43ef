"""The metrics' ``_compute`` names every option it takes: listed, documented, the core's defaults, others refused."""

from __future__ import annotations

import inspect
import os
import re
from dataclasses import fields
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")

from amreval.match.options import SearchOptions
from amreval.mfbeta.options import FormOptions, MeaningOptions
from amreval.mfbeta.score import mfbeta
from amreval.scores.docsmatch import docsmatch
from amreval.scores.smatch import smatch

ROOT = Path(__file__).resolve().parents[2]
GOLD = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"

DOCSMATCH = {
    "coref": None,  # on, unless standardize reads otherwise than smatch
    "fine_grained": False,
    "per_document": False,
    "solver": None,  # the config name's solver, else exact
    "restarts": 19,
    "seed": 0,
    "time_limit": 600.0,
    "work_limit": 50_000,
    "num_workers": 1,
    "strict": False,
    "progress": None,
    "ci": False,
    "confidence": 0.95,
    "compare_predictions": None,
    "test": "permutation",
    "n_resamples": 10000,
    "alternative": "two-sided",
    "standardize": "smatch",
    "aspects": None,
    "frames": None,
    "averages": False,
    "zero_division": None,  # undefined scores are None (JSON null)
    "bootstrap": None,  # the old spelling of ci=True, n_resamples=N
}
SMATCH = {
    "repair": False,
    "per_sentence": False,
    "solver": None,  # the config name's solver, else exact
    "restarts": 19,
    "seed": 0,
    "time_limit": 600.0,
    "work_limit": 50_000,
    "num_workers": 1,
    "strict": False,
    "progress": None,
    "ci": False,
    "confidence": 0.95,
    "compare_predictions": None,
    "test": "permutation",
    "n_resamples": 10000,
    "alternative": "two-sided",
    "standardize": "smatch",
    "averages": False,
    "zero_division": None,
    "bootstrap": None,
}
MFBETA = {
    "reference_amrs": None,
    "prediction_amrs": None,
    "parser": None,
    "lm": None,  # the config name, else gpt2
    "lm_kind": "causal",
    "beta": 1.0,
    "tolerance": 0.05,
    "vectors": None,
    "cutoff": 0.5,
    "diffsense": 0.5,
    "solver": "exact",
    "restarts": 19,
    "seed": 0,
    "time_limit": 600.0,
    "work_limit": 50_000,
    "batch_size": None,  # the parser's own
    "device": None,
    "dtype": None,
    "max_tokens": None,
    "cache": "memory",
    "num_workers": 1,
    "clean": False,
    "explain": False,
    "progress": None,
    "dimensions": None,
    "per_example": False,
    "ci": False,
    "confidence": 0.95,
    "compare_predictions": None,
    "compare_prediction_amrs": None,
    "test": "permutation",
    "n_resamples": 10000,
    "alternative": "two-sided",
    "level": "sentence",
    "coref": None,
    "coref_format": "jsonlines",
    "window": None,
    "stride": None,
    "rep": "docamr",
    "zero_division": None,
    "bootstrap": None,
}


@pytest.fixture(scope="module", params=["docsmatch", "mfbeta", "smatch"])
def metric(request):
    return evaluate.load(str(ROOT / "metrics" / request.param))


def _documented(metric) -> set[str]:
    """The names the metric's ``Args:`` describe (``cutoff (float), diffsense (float): ...`` names two)."""
    args = metric.info.inputs_description.split("Args:")[1].split("Returns:")[0]
    names: set[str] = set()
    for line in args.splitlines():
        if re.match(r"^    \w", line):
            names.update(re.sub(r"\([^)]*\)", "", part).strip() for part in line.split(":")[0].split(","))
    return names


def test_compute_lists_every_option_with_its_default(metric):
    expected = {"docsmatch": DOCSMATCH, "mfbeta": MFBETA, "smatch": SMATCH}[metric.name]
    parameters = inspect.signature(metric._compute).parameters
    assert list(parameters) == ["predictions", "references", *expected]
    assert {name: p.default for name, p in parameters.items() if name in expected} == expected
    assert not any(p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL) for p in parameters.values())
    assert _documented(metric) == set(parameters)


def _core_defaults(name: str) -> dict[str, object]:
    """The core function's keywords and their defaults; MFβ's settings are the fields of its option values."""
    function = {"docsmatch": docsmatch, "mfbeta": mfbeta, "smatch": smatch}[name]
    core = {n: p.default for n, p in inspect.signature(function).parameters.items()}
    if name == "smatch":  # the search settings are its **search keywords
        core |= {f.name: f.default for f in fields(SearchOptions)}
    if name == "mfbeta":
        core |= {f.name: f.default for cls in (FormOptions, MeaningOptions, SearchOptions) for f in fields(cls)}
    return core


def test_the_defaults_are_the_core_s(metric):
    core = _core_defaults(metric.name)
    own = {"coref", "solver", "lm", "batch_size"}  # the metric's own default (coref) or the config name's
    shared = [name for name in inspect.signature(metric._compute).parameters if name in core and name not in own]
    assert len(shared) >= 8
    assert {n: inspect.signature(metric._compute).parameters[n].default for n in shared} == {n: core[n] for n in shared}


def test_an_unknown_keyword_is_an_error_as_evaluate_reports_it(metric):
    with pytest.raises(TypeError, match=r"_compute\(\) got an unexpected keyword argument 'restart'"):
        metric.compute(predictions=[GOLD], references=[GOLD], restart=4)

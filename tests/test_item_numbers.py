"""Items are numbered from 1 wherever a person reads them: the first prediction is ``prediction #1`` in the
Python API's warnings and errors, in the evaluate metrics, in the trainer's scores and on the command line, as
it is ``graph #1`` of its file; result attributes stay Python indices (``unreadable_predictions == [0]``)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from amreval import AmrevalWarning, DecodeError, InputError, docsmatch, s2match, smatch, smatch_pair
from amreval.cli import main
from amreval.errors import numbered
from amreval.scores.vectors import WordVectors

MALFORMED = "(a / b"  # the first prediction everywhere below
CAUSE = "malformed PENMAN: Unexpected end of input in '(a / b'"
ADVICE = "pass strict=True (--strict) to stop at the first"


def unreadable_warning(
    noun: str = "graphs", n: int = 2, first: str = f"prediction #1, graph #1, line 1: {CAUSE}"
) -> str:
    """The one warning about a corpus whose first prediction could not be read."""
    return (
        f"1 of {n} predicted {noun.removesuffix('s') if n == 1 else noun} could not be read and was scored as an "
        "empty graph "
        f"(prediction #1; the first: {first}); {ADVICE}"
    )


def caught(call) -> list[str]:
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in found if issubclass(w.category, AmrevalWarning)]


def test_numbered_counts_from_one():
    assert (numbered("prediction", 0), numbered("pair", 35), numbered("reference", None)) == (
        "prediction #1",
        "pair #36",
        "reference",
    )


def test_the_api_names_the_first_prediction_1():
    preds, refs = [MALFORMED, "(c / d)"], ["(a / b)", "(c / d)"]
    assert caught(lambda: smatch(preds, refs)) == [unreadable_warning()]
    assert smatch(preds[1:], refs[1:]).unreadable_predictions == []
    with pytest.warns(AmrevalWarning):
        assert smatch(preds, refs).unreadable_predictions == [0]  # a Python index: predictions[0]
    with pytest.raises(DecodeError) as strict:
        smatch(preds, refs, strict=True)
    assert str(strict.value) == f"prediction #1, graph #1, line 1: {CAUSE}"
    with pytest.raises(InputError) as reference:
        smatch(["(a / b)"], [""])
    assert str(reference.value) == "reference #1: empty string; expected a PENMAN graph"
    vectors = WordVectors.from_dict({"b": [1.0, 0.0], "d": [0.0, 1.0]})
    assert caught(lambda: s2match(preds, refs, vectors=vectors)) == [unreadable_warning()]
    gold = "(d / document :snt1 (a / b) :snt2 (c / d))"
    assert caught(lambda: docsmatch([[MALFORMED, "(c / d)"]], [gold])) == [
        "1 sentence of 1 of 1 predicted document could not be read and was scored as an empty sentence "
        f"(prediction #1; the first: prediction #1, sentence #1, graph #1, line 1: {CAUSE}); {ADVICE}"
    ]
    # one pair given alone has no position: its noun alone
    with pytest.raises(DecodeError) as alone:
        smatch_pair(MALFORMED, "(a / b)")
    assert str(alone.value) == f"prediction, graph #1, line 1: {CAUSE}"


def test_the_aspects_batches_and_mfbeta_name_the_first_item_1():
    from amreval.hub.batch import smatch_batch
    from amreval.mfbeta.parsers import parse_sentences
    from amreval.mfbeta.score import mfbeta
    from amreval.scores.aspects import aspect_scores

    assert caught(lambda: aspect_scores([MALFORMED], ["(a / b)"])) == [unreadable_warning(n=1)]
    with pytest.raises(InputError) as batch:
        smatch_batch({"prediction": ["(a / b)"], "reference": [""]})
    assert str(batch.value) == "reference #1: empty string; expected a PENMAN graph"

    class Scores:
        def sentence_scores(self, sentences, progress=None):
            return [0.5] * len(sentences)

    with pytest.raises(InputError) as empty:
        mfbeta(["the boy ."], [" "], reference_amrs=["(a / b)"], prediction_amrs=["(a / b)"], scorer=Scores())
    assert str(empty.value) == "reference #1: empty sentence"
    with pytest.raises(DecodeError) as gold:
        mfbeta(["the boy ."], ["the boy ."], reference_amrs=[MALFORMED], prediction_amrs=["(a / b)"], scorer=Scores())
    assert str(gold.value) == f"reference AMR #1, graph #1, line 1: {CAUSE}"
    with pytest.raises(InputError) as parsed:
        parse_sentences(lambda sentences: [3], ["the boy ."])
    assert str(parsed.value).endswith("returned a int for sentence #1, expected a PENMAN string or None")


def test_the_trainer_names_the_first_generation_1():
    from amreval.hub import score_generations

    found = caught(lambda: score_generations([MALFORMED, "(c / d)"], ["(a / b)", "(c / d)"], repair=False))
    assert found == [unreadable_warning()]


@pytest.fixture(scope="module")
def metrics():
    pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from amreval.hub import load_metric

    return {name: load_metric(name) for name in ("smatch", "docsmatch", "mfbeta")}


def test_the_metrics_name_the_first_prediction_1(metrics):
    preds, refs = [MALFORMED, "(c / d)"], ["(a / b)", "(c / d)"]
    assert caught(lambda: metrics["smatch"].compute(predictions=preds, references=refs)) == [unreadable_warning()]
    with pytest.raises(DecodeError) as strict:
        metrics["smatch"].compute(predictions=preds, references=refs, strict=True)
    assert str(strict.value) == f"prediction #1, graph #1, line 1: {CAUSE}"
    with pytest.raises(InputError) as none:
        metrics["smatch"].compute(predictions=[None], references=["(a / b)"])
    assert str(none.value) == "prediction #1: expected a PENMAN string or a Graph, got None"
    with pytest.raises(InputError) as alone:  # add() takes one example: no position to name
        metrics["smatch"].add(prediction=None, reference="(a / b)")
    assert str(alone.value) == "prediction: expected a PENMAN string or a Graph, got None"
    gold = "(d / document :snt1 (a / b))"
    assert caught(lambda: metrics["docsmatch"].compute(predictions=[MALFORMED, gold], references=[gold, gold])) == [
        unreadable_warning("documents")
    ]
    with pytest.raises(InputError) as sentence:
        metrics["docsmatch"].compute(predictions=[gold], references=[["(a / b)", 3.5]])
    assert str(sentence.value) == "reference #1, sentence #2: expected a PENMAN string or a Graph, got float"
    with pytest.raises(InputError) as mfbeta_none:
        metrics["mfbeta"].compute(predictions=[None], references=["the boy ."])
    assert str(mfbeta_none.value) == "prediction #1: expected a string, got None"
    with pytest.raises(InputError) as amrs:
        metrics["mfbeta"].compute(predictions=["the boy ."], references=["the boy ."], reference_amrs=[3])
    assert str(amrs.value) == "reference_amrs #1: expected a PENMAN string, a Graph or None, got int"


def test_the_command_line_names_the_first_prediction_1(tmp_path: Path, capsys):
    pred, gold = tmp_path / "p.amr", tmp_path / "g.amr"
    pred.write_text(f"{MALFORMED}\n\n(c / d)\n", encoding="utf-8")
    gold.write_text("(a / b)\n\n(c / d)\n", encoding="utf-8")
    first = f"{pred}, graph #1, line 1: {CAUSE}"
    for extra in ([], ["--averages"], ["-j", "2"]):  # streamed, read whole, in worker processes
        assert main(["smatch", "-f", str(pred), str(gold), *extra]) == 0
        assert capsys.readouterr().err == f"amreval: warning: {unreadable_warning(first=first)}\n"
    assert main(["docsmatch", "-f", str(pred), str(gold)]) == 0
    assert capsys.readouterr().err == f"amreval: warning: {unreadable_warning('documents', first=first)}\n"
    assert main(["smatch", "-f", str(pred), str(gold), "--strict"]) == 1
    assert capsys.readouterr().err == f"amreval: error: {first}\n"

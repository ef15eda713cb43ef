"""Streamed corpora: files read a chunk at a time, pairs scored in chunks (here and in workers), the
same counts, records and errors as reading the files whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amreval import AmrevalWarning, DecodeError, read_graphs, smatch
from amreval.amr import read as read_module
from amreval.amr.parse import split_blocks
from amreval.amr.read import loads_graph, open_blocks, read_text
from amreval.cli import main
from amreval.errors import AmrevalError
from amreval.match.options import SearchOptions
from amreval.scores.harness import pair_search
from amreval.scores.results import Config, PairScore
from amreval.scores.smatch import identical_smatch_score, score_smatch_pair
from amreval.scores.stream import CompactPairs, stream_score

PAIRS = [
    ("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))", "(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-01))"),
    ("(a / apple)", "(a / apple :mod (r / red))"),
    ("(d / dog :poss (i / i))", "(d / dog :poss (y / you))"),
    ("(s / sleep-01 :ARG0 (c / cat))", "(s / sleep-01 :ARG0 (c / cat))"),
    ("(e / eat-01 :ARG0 (p / person) :ARG1 (f / fish))", "(e / eat-01 :ARG1 (f / fish))"),
]


def write(path, graphs, ids=True):
    path.write_text(
        "".join((f"# ::id p{k}\n" if ids else "") + g + "\n\n" for k, g in enumerate(graphs)), encoding="utf-8"
    )
    return path


@pytest.fixture
def files(tmp_path):
    preds = [p for p, _ in PAIRS] * 7
    golds = [g for _, g in PAIRS] * 7
    return write(tmp_path / "pred.amr", preds), write(tmp_path / "gold.amr", golds)


def rows(result):
    return [(p.match, p.test, p.gold, p.optimal) for p in result.pairs]


@pytest.mark.parametrize("workers, chunk", [(1, 256), (1, 2), (2, 3)])
def test_counts_are_those_of_the_whole_files(files, workers, chunk):
    pred, gold = files
    whole = smatch(read_graphs(pred), read_graphs(gold))
    streamed = stream_score(pred, gold, score_smatch_pair, Config("smatch"), num_workers=workers, chunk=chunk)
    assert (streamed.match, streamed.test, streamed.gold, streamed.n_optimal) == (
        whole.match,
        whole.test,
        whole.gold,
        whole.n_optimal,
    )
    # hand-checked: per five pairs match 5 + 2 + 3 + 4 + 4, test 7 + 2 + 4 + 4 + 6, gold 6 + 4 + 4 + 4 + 4
    assert (whole.match, whole.test, whole.gold, len(whole.pairs)) == (7 * 18, 7 * 23, 7 * 22, 35)
    assert rows(streamed) == rows(whole)
    assert streamed.as_dict() == whole.as_dict()


def test_pairs_reach_the_callback_in_order_with_their_ids(files):
    pred, gold = files
    seen = []
    stream_score(pred, gold, score_smatch_pair, Config("smatch"), on_pair=seen.append, num_workers=2, chunk=4)
    assert [r[0] for r in seen] == list(range(35))
    assert [(r[2], r[3]) for r in seen[:2]] == [("p0", "p0"), ("p1", "p1")]
    assert [(r[1].match, r[1].test, r[1].gold) for r in seen[:5]] == [
        (5, 7, 6),
        (2, 2, 4),
        (3, 4, 4),
        (4, 4, 4),
        (4, 6, 4),
    ]


def test_two_graphs_in_one_block_pair_as_in_the_whole_file(tmp_path):
    # the predicted file has graphs 2 and 3 in one block: the workers' chunk is read again here
    pred = tmp_path / "p.amr"
    pred.write_text("(a / apple)\n\n(d / dog)\n(c / cat)\n\n(s / sleep-01)\n\n", encoding="utf-8")
    gold = write(tmp_path / "g.amr", ["(a / apple)", "(d / dog)", "(c / cat)", "(s / sleep-01)"], ids=False)
    whole = smatch(read_graphs(pred), read_graphs(gold))
    for workers in (1, 2):
        r = stream_score(pred, gold, score_smatch_pair, Config("smatch"), num_workers=workers, chunk=2)
        assert rows(r) == rows(whole) == [(2, 2, 2, True)] * 4


def test_different_lengths_are_found_at_the_end(tmp_path, files):
    pred, _ = files
    gold = write(tmp_path / "short.amr", [g for _, g in PAIRS])
    for workers in (1, 2):
        with pytest.raises(AmrevalError, match=r"pred.amr has 35 graphs but .*short.amr has 5; they are paired"):
            stream_score(pred, gold, score_smatch_pair, Config("smatch"), num_workers=workers, chunk=2)
    empty = tmp_path / "empty.amr"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(AmrevalError, match=r"empty.amr: no graphs found; expected PENMAN graphs"):
        stream_score(empty, empty, score_smatch_pair, Config("smatch"))


def test_an_unreadable_prediction_is_an_empty_graph_or_with_strict_an_error(tmp_path):
    pred = tmp_path / "p.amr"
    pred.write_text("(a / apple)\n\n(d / dog :ARG0 (x / )\n\n(c / cat)\n\n", encoding="utf-8")
    gold = write(tmp_path / "g.amr", ["(a / apple)", "(d / dog)", "(c / cat)"], ids=False)
    for workers in (1, 2):
        with pytest.warns(
            AmrevalWarning,
            match=r"1 of 3 predicted graphs could not be read .*\(prediction #2; the first: .*p\.amr, graph #2, "
            r"line 3: ",
        ):
            r = stream_score(pred, gold, score_smatch_pair, Config("smatch"), num_workers=workers, chunk=2)
        assert r.unreadable_predictions == [1]
        assert rows(r) == [(2, 2, 2, True), (0, 0, 2, True), (2, 2, 2, True)]
        # strict: the error of reading the file whole; the unbalanced block runs over the blank line, and
        # its part that cannot be read is named, with its own last line (not the next graph's)
        with pytest.raises(DecodeError) as whole:
            read_graphs(pred)
        assert "p.amr, graph #2, line 3: malformed PENMAN" in str(whole.value)
        with pytest.raises(DecodeError) as streamed:
            stream_score(pred, gold, score_smatch_pair, Config("smatch"), num_workers=workers, strict=True)
        assert str(streamed.value) == str(whole.value)


def test_cli_json_and_ms_are_those_of_the_whole_files(files, capsys):
    pred, gold = files
    whole = smatch(read_graphs(pred), read_graphs(gold))
    for workers in ("1", "2"):
        assert main(["smatch", "-f", str(pred), str(gold), "--json", "--no-progress", "-j", workers]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["match"] == whole.match and out["n_pairs"] == 35
        assert [(r["index"], r["id"], r["match"], r["test"], r["gold"]) for r in out["pairs"][:2]] == [
            (0, "p0", 5, 7, 6),
            (1, "p1", 2, 2, 4),
        ]
        assert [r["f1"] for r in out["pairs"]] == [p.f1 for p in whole.pairs]
    assert main(["smatch", "-f", str(pred), str(gold), "--ms", "--no-progress", "-j", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["Pair 1 (id p0):", "F-score: 0.77"]
    assert lines[-2:] == ["Pair 35 (id p34):", "F-score: 0.80"]


def test_compact_pairs_keep_the_numbers():
    from amreval.scores.results import PairScore

    pairs = CompactPairs()
    pairs.append(PairScore(3, 4, 5, True, 3))
    pairs.append(PairScore(1.5, 2, 2, False, 2.25))
    assert pairs[0] == PairScore(3, 4, 5, True, 3.0) and isinstance(pairs[0].match, int)
    assert pairs[-1] == PairScore(1.5, 2, 2, False, 2.25)
    assert [p.test for p in pairs[0:2]] == [4, 2] and len(pairs) == 2


TEXT = '\ufeff# ::id a\r\n(a / b\r\n\r\n   :ARG0 (c / "d)"))\r\n\r\n\r\n# header\n\n(x / y)\x0c(z / w)\n\n(e / f)'


@pytest.mark.parametrize("chunk", [1, 3, 7, 1 << 20])
def test_streamed_blocks_are_those_of_the_whole_text(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(read_module, "STREAM_CHUNK", chunk)
    path = tmp_path / "t.amr"
    path.write_bytes(TEXT.encode("utf-8"))
    label, blocks = open_blocks(path)
    text, _ = read_text(path)
    assert list(blocks) == list(split_blocks(text))
    assert [b.line for b in split_blocks(text)] == [1, 9, 12]
    assert label == str(path)


def test_streamed_errors_are_those_of_the_whole_file(tmp_path, monkeypatch):
    monkeypatch.setattr(read_module, "STREAM_CHUNK", 8)
    bad = tmp_path / "latin1.amr"
    bad.write_bytes(b"(a / b)\n\n(c / caf\xe9)\n")
    with pytest.raises(DecodeError, match=r"latin1.amr, line 3: not UTF-8 text \(byte 17"):
        list(open_blocks(bad)[1])
    nul = tmp_path / "nul.amr"
    nul.write_bytes(b"(a / b)\n\n(c / d\x00)\n")
    with pytest.raises(DecodeError, match=r"nul.amr, line 3: a binary file"):
        list(open_blocks(nul)[1])
    with pytest.raises(AmrevalError, match="no such file"):
        open_blocks(tmp_path / "missing.amr")
    with pytest.raises(AmrevalError, match="is a folder; expected a file of PENMAN graphs"):
        open_blocks(tmp_path)


LPP = Path(__file__).resolve().parents[3] / "shared" / "data" / "lpp" / "amr-bank-struct-v1.6.txt"


@pytest.mark.skipif(not LPP.exists(), reason="the shared Little Prince file")
def test_identical_graphs_score_as_the_certified_search_scores_them():
    graphs = read_graphs(LPP)[:300]
    for k, g in enumerate(graphs):
        full = score_smatch_pair(g, g, pair_search(SearchOptions(), k))
        fast = identical_smatch_score(g)
        assert (fast.match, fast.test, fast.gold, fast.optimal, fast.bound) == (
            full.match,
            full.test,
            full.gold,
            full.optimal,
            full.bound,
        )
        assert type(fast.match) is type(full.match) is int
    # the first graph, (c / chapter :mod 1): an instance, TOP, an attribute
    assert identical_smatch_score(graphs[0]).match == 3
    big = "(n0 / c " + "".join(f":ARG0 (n{k} / c{k} " for k in range(1, 130)) + ")" * 130
    # 130 instances, TOP, 129 relations: 260 triples, at any size (the search was once left them over 256)
    assert identical_smatch_score(loads_graph(big)) == PairScore(260, 260, 260, True, 260.0)


def test_a_file_against_itself_streams_to_the_whole_files_counts_and_warnings(tmp_path):
    graphs = [p for p, _ in PAIRS] + ["(w / want-01 :ARG0 b2)"] + [g for _, g in PAIRS]
    path = write(tmp_path / "same.amr", graphs)
    with pytest.warns(AmrevalWarning) as whole_warnings:
        whole = smatch(read_graphs(path), read_graphs(path))
    for workers in (1, 2):
        with pytest.warns(AmrevalWarning) as caught:
            r = stream_score(
                path, path, score_smatch_pair, Config("smatch"), num_workers=workers, identical=identical_smatch_score
            )
        assert r.as_dict() == whole.as_dict() and rows(r) == rows(whole)
        # the graph with the unbound b2 is read on both sides: its warning comes twice, as reading both files
        assert [str(w.message) for w in caught] == [str(w.message) for w in whole_warnings]
        assert len(caught) == 2 and "'b2' looks like a variable" in str(caught[1].message)
    assert (whole.match, whole.test, whole.gold) == (48, 48, 48)  # 23 + 3 + 22 triples (hand-counted)

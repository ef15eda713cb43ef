"""Streamed documents: ``docsmatch`` files read in step, documents scored in chunks (here and in workers),
the counts, sub-scores, records and errors of scoring the files whole, in memory bounded by the largest
document pair."""

from __future__ import annotations

import json
import random
import tracemalloc
from pathlib import Path

import pytest

from amreval import AmrevalWarning, DecodeError, docsmatch, read_graphs
from amreval.amr import read as read_module
from amreval.cli import main
from amreval.scores.docsmatch import stream_docsmatch

ROOT = Path(__file__).resolve().parents[2]
SHARED = [
    (ROOT / "examples" / "pred.docamr.amr", ROOT / "examples" / "gold.docamr.amr"),
    (
        ROOT / "metrics" / "docsmatch" / "examples" / "pred.docamr.amr",
        ROOT / "metrics/docsmatch/examples/gold.docamr.amr",
    ),
]
EVENTS = ["go-02", "sleep-01", "see-01", "want-01", "eat-01"]
THINGS = ["boy", "girl", "dog", "cat", "city"]


def random_docamr(rng: random.Random, n_sentences: int, name: str) -> str:
    """A DocAMR document: ``n_sentences`` small sentences, a coref entity shared by some of them and a named
    entity merged across two."""
    lines = [f"# ::id {name}", "(d / document"]
    entity_used = merged_used = False
    for k in range(1, n_sentences + 1):
        v = f"s{k}"
        args = []
        for j in range(rng.randint(0, 2)):
            roll = rng.random()
            if roll < 0.3:
                args.append(f":ARG{j} c" if entity_used else f":ARG{j} (c / coref-entity)")
                entity_used = True
            elif roll < 0.45:
                args.append(f":ARG{j} p" if merged_used else f':ARG{j} (p / person :name (n / name :op1 "Ann"))')
                merged_used = True
            else:
                args.append(f":ARG{j} ({v}x{j} / {rng.choice(THINGS)})")
        lines.append(f"   :snt{k} ({v} / {rng.choice(EVENTS)}" + "".join(" " + a for a in args) + ")")
    lines[-1] += ")"
    return "\n".join(lines)


def write_corpus(folder: Path, n: int, seed: int = 0) -> tuple[Path, Path]:
    rng = random.Random(seed)
    pred, gold = [], []
    for k in range(n):
        size = rng.randint(1, 4)
        pred.append(random_docamr(rng, size, f"doc{k}"))
        gold.append(random_docamr(rng, size, f"doc{k}"))
    p, g = folder / f"pred{n}.amr", folder / f"gold{n}.amr"
    p.write_text("\n\n".join(pred) + "\n", encoding="utf-8")
    g.write_text("\n\n".join(gold) + "\n", encoding="utf-8")
    return p, g


def rows(pairs):
    return [(p.match, p.test, p.gold, bool(p.optimal)) for p in pairs]


def same_as_whole(pred, gold, **kw):
    whole = docsmatch(read_graphs(pred, errors=[]), read_graphs(gold), coref=True, fine_grained=True)
    seen = []
    streamed = stream_docsmatch(pred, gold, coref=True, fine_grained=True, on_pair=seen.append, **kw)
    assert streamed.as_dict() == whole.as_dict()
    assert streamed.coref == whole.coref and streamed.fine_grained == whole.fine_grained
    assert rows(streamed.pairs) == rows(whole.pairs) == rows(r[1] for r in seen)
    assert [r[1].coref for r in seen] == [p.coref for p in whole.pairs]
    assert [r[1].fine_grained for r in seen] == [p.fine_grained for p in whole.pairs]
    assert [r[0] for r in seen] == list(range(len(whole.pairs)))
    return streamed


@pytest.mark.parametrize("workers, chunk", [(1, 4), (1, 1), (2, 3)])
def test_shared_documents_stream_to_the_whole_files_counts(workers, chunk):
    first = same_as_whole(*SHARED[0], num_workers=workers, chunk=chunk)
    # the README's example: 30 of 32 and 34 triples, coref 3 of 3 and 6
    assert (first.match, first.test, first.gold, first.coref.total) == (30, 32, 34, (3, 3, 6))
    same_as_whole(*SHARED[1], num_workers=workers, chunk=chunk)


@pytest.mark.parametrize("workers, chunk", [(1, 4), (1, 1), (2, 3)])
def test_generated_documents_stream_to_the_whole_files_counts(tmp_path, workers, chunk):
    pred, gold = write_corpus(tmp_path, 25, seed=3)
    r = same_as_whole(pred, gold, num_workers=workers, chunk=chunk)
    assert len(r.pairs) == 25 and r.coref.total[2] > 0 and 0 < r.f1 < 1


def cli(capsys, *argv):
    code = main(["docsmatch", *argv, "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_output_streams_and_workers_change_nothing(tmp_path, capsys):
    pred, gold = write_corpus(tmp_path, 12, seed=5)
    whole = docsmatch(read_graphs(pred), read_graphs(gold), coref=True, fine_grained=True)
    outputs = {}
    for j in ("1", "2"):
        for form in ("--json", "--ms"):
            code, out, _ = cli(capsys, "-f", str(pred), str(gold), "--coref-subscore", "--fine-grained", form, "-j", j)
            assert code == 0
            outputs[j, form] = out
    assert outputs["1", "--json"] == outputs["2", "--json"] and outputs["1", "--ms"] == outputs["2", "--ms"]
    data = json.loads(outputs["1", "--json"])
    assert [(d["index"], d["id"], d["match"], d["test"], d["gold"]) for d in data["documents"]] == [
        (k, f"doc{k}", p.match, p.test, p.gold) for k, p in enumerate(whole.pairs)
    ]
    assert data["coref_counts"]["named_entity"] == whole.coref.named_entity
    assert data["fine_grained_counts"] == whole.fine_grained and list(data)[-2:] == [
        "coref_counts",
        "fine_grained_counts",
    ]
    ms = outputs["1", "--ms"].splitlines()
    assert ms[:2] == ["Document 1 (id doc0):", "Overall Score:"] and ms.count("Coref Score") == 12


def peak_bytes(run) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_does_not_grow_with_the_number_of_documents(tmp_path, monkeypatch):
    monkeypatch.setattr(read_module, "STREAM_CHUNK", 4096)  # the files are read 4 KiB at a time, not 1 MiB
    one = write_corpus(tmp_path, 15, seed=1)
    small = tmp_path / "pred_x2.amr", tmp_path / "gold_x2.amr"
    large = tmp_path / "pred_x16.amr", tmp_path / "gold_x16.amr"
    for times, files in ((2, small), (16, large)):
        for path, into in zip(one, files):
            into.write_text(path.read_text(encoding="utf-8") * times, encoding="utf-8")
    stream_docsmatch(*large)  # what the first call loads and keeps
    streamed = [peak_bytes(lambda f=f: stream_docsmatch(*f)) for f in (small, large)]
    whole = [peak_bytes(lambda f=f: docsmatch(read_graphs(f[0]), read_graphs(f[1]))) for f in (small, large)]
    # the documents 2 and 16 times over (37 KiB of text): the stream's peak is that of the chunk in flight and
    # the text read, plus five numbers a document (under 10 KiB) and what NumPy's cache of small buffers holds
    # (bounded: what a stream leaves allocated levels off at about 50 KiB over 30, 240 and 960 documents, but
    # how full the cache is when the peak comes varies with the order of the calls: 25-37 KiB here); the
    # whole files' peak grows with their graphs
    assert streamed[1] - streamed[0] < 64 * 1024
    assert whole[1] - whole[0] > 512 * 1024


GOOD = "(d / document :snt1 (a / boy) :snt2 (b / go-02 :ARG0 a))"


def test_a_malformed_document_mid_stream_is_scored_empty_or_named(tmp_path, capsys):
    docs = [f"# ::id d{k}\n" + GOOD for k in range(5)]
    gold = tmp_path / "gold.amr"
    gold.write_text("\n\n".join(docs) + "\n", encoding="utf-8")
    bad = docs.copy()
    bad[2] = "# ::id d2\n(d / document :snt1 (a / boy)\n   :snt2 (b / go-02 :ARG0 a)"  # one ')' short
    pred = tmp_path / "pred.amr"
    pred.write_text("\n\n".join(bad) + "\n", encoding="utf-8")
    for workers in (1, 2):
        with pytest.warns(
            AmrevalWarning,
            match=r"1 of 5 predicted documents could not .*\(prediction #3; the first: .*, graph #3 \(id d2\)",
        ):
            r = stream_docsmatch(pred, gold, num_workers=workers, chunk=2)
        assert r.unreadable_predictions == [2]
        # 3 instances, TOP, :snt1, :snt2, :ARG0: 7 triples a document
        assert rows(r.pairs) == [(7, 7, 7, True)] * 2 + [(0, 0, 7, True)] + [(7, 7, 7, True)] * 2
        with pytest.raises(DecodeError) as whole:
            read_graphs(pred)
        # the document's own last line (line 9), not the next document's that the unclosed block ran into
        assert f"{pred}, graph #3 (id d2), line 9: malformed PENMAN" in str(whole.value)
        with pytest.raises(DecodeError) as streamed:
            stream_docsmatch(pred, gold, num_workers=workers, strict=True, chunk=2)
        assert str(streamed.value) == str(whole.value)
    # a reference that cannot be read: an error naming the file, the document and the line, after the
    # chunks before it have been printed (four documents a chunk)
    longer = tmp_path / "longer.amr"
    longer.write_text("\n\n".join(docs[:2] * 2 + bad[2:]) + "\n", encoding="utf-8")
    pred4 = tmp_path / "pred4.amr"
    pred4.write_text("\n\n".join(docs[:2] * 4) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "-f", str(pred4), str(longer), "--ms", "-j", "2")
    assert code == 1 and f"amreval: error: {longer}, graph #5 (id d2), line 15: malformed PENMAN" in err
    assert out.splitlines()[0] == "Document 1 (id d0):" and "Document 4 (id d1):" in out
    assert "Document 5" not in out
    code, out, err = cli(capsys, "-f", str(pred), str(gold), "--json")
    data = json.loads(out)
    assert (
        code == 0
        and data["n_unreadable"] == 1
        and [d["unreadable"] for d in data["documents"]]
        == [
            False,
            False,
            True,
            False,
            False,
        ]
    )
    assert err.count("1 of 5 predicted documents could not be read and was scored as an empty graph") == 1

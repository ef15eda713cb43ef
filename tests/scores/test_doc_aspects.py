"""SMATCH++'s aspect scores of documents under DocSmatch (amreval.scores.doc_aspects): a hand-checked
document pair with coreference, the errors, and documents of sentence pairs against the sentences' scores."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from amreval.amr.read import read_graphs
from amreval.amr.standardize import VAR, marked_triples
from amreval.cli import main
from amreval.docamr.document import document_graph
from amreval.errors import InputError
from amreval.scores.aspects import ASPECTS, aspect_pair, aspect_scores, aspect_subgraphs
from amreval.scores.docsmatch import docsmatch, docsmatch_pair

# b, the boy, is in both sentences (coreference); the prediction negates the wanting (sentence 1), the gold
# the girl (sentence 2); the prediction has the boy see the girl, the gold the girl see the boy
PRED = "(d / document :snt1 (w / want-01 :ARG0 (b / boy) :polarity -) :snt2 (s / see-01 :ARG0 b :ARG1 (g / girl)))"
GOLD = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (s / see-01 :ARG0 (g / girl :polarity -) :ARG1 b))"
FRAMES = "Control-01  ARG0: controller  ARG1: controlled  ARG2: instrumental, controlled with\n"


def _nonzero(counts: dict) -> dict:
    return {name: c for name, c in counts.items() if c != (0, 0, 0)}


def test_a_document_pair_with_coreference_by_hand():
    # smatchpp-amr triples, 12 a side: the root (d :root document), 5 instances, :snt1, :snt2, and
    # pred (w :arg0 b) (w :polarity -) (s :arg0 b) (s :arg1 g), gold (w :arg0 b) (s :arg0 g) (g :polarity -)
    # (s :arg1 b). DocSmatch's alignment is the identity (9: the root, the instances, :snt1, :snt2, w :arg0 b;
    # swapping b and g, which share sentence 2, gives 8)
    one = docsmatch([PRED], [GOLD], aspects="onealign").aspects
    multi = docsmatch([PRED], [GOLD], aspects="multialign").aspects
    assert one is not None and multi is not None
    assert one.main == multi.main == (9, 12, 12)
    assert _nonzero(one.counts) == {
        # pred: the two :arg0 edges and the instances of w, b, s; gold adds g and, two steps below s :arg0 g,
        # g :polarity -; under the identity s :arg0 b is no gold triple
        "AGENT": (4, 5, 7),
        "CONCEPT": (5, 5, 5),
        "FOCUS": (2, 2, 2),  # the document's root triple and instance: the sentences' tops are no roots
        # pred s :arg1 g with s, g; gold s :arg1 b with s, b: only s's instance is shared under the identity
        "PATIENT": (1, 3, 3),
        "POLARITY": (0, 2, 2),  # pred w :polarity - and w; gold g :polarity - and g
        "SRL-core": (5, 7, 8),  # w :arg0 b and the 4 instances; gold adds g :polarity - below s :arg0 g
        "REENTRANCIES": (4, 5, 5),  # the two edges into b and w, b, s: pred s :arg0 b is gold's s :arg1 b
    }
    # aligned anew, PATIENT maps g to b (both in sentence 2): s :arg1 b and s's instance; POLARITY may not map
    # w (sentence 1) to g (sentence 2), so nothing; every other aspect's optimum is the identity's count
    assert _nonzero(multi.counts) == {**_nonzero(one.counts), "PATIENT": (2, 3, 3)}
    assert one.optimal and multi.optimal and one.alignment == "onealign" and multi.standardize == "smatchpp-amr"
    # the documents scored as one graph each, without the sentence constraint, meet the negations
    assert aspect_pair(document_graph(PRED), document_graph(GOLD), "multialign").counts["POLARITY"] == (1, 2, 2)


def test_the_main_score_is_docsmatch_under_the_aspects_reading():
    main = docsmatch([PRED], [GOLD], standardize="smatchpp-amr")
    both = docsmatch([PRED], [GOLD], standardize="smatchpp-amr", aspects="onealign")
    assert (main.match, main.test, main.gold) == (both.match, both.test, both.gold) == (9, 12, 12)
    # under smatch's reading the main score has the TOP triple instead of the root; the aspects read smatchpp-amr
    plain = docsmatch([PRED], [GOLD], coref=True, aspects="multialign")
    assert plain.aspects is not None and plain.aspects.main == (9, 12, 12) and plain.coref is not None
    out = plain.as_dict()
    assert (out["aspect_patient_match"], out["aspect_patient_test"], out["aspect_patient_gold"]) == (2, 3, 3)
    assert out["aspect_patient_f1"] == pytest.approx(2 / 3) and out["aspect_main_f1"] == 0.75
    assert out["aspect_wiki_f1"] is None and out["aspect_srl_core_f1"] == pytest.approx(10 / 15)
    assert out["aspect_location_test"] == 0 and out["aspect_n_unproven"] == 0
    assert "coref=tiebreak,aspects=multialign,amreval=" in str(out["config"])
    assert "aspect_main_f1" not in docsmatch([PRED], [GOLD]).as_dict()


def test_frames_and_workers(tmp_path):
    path = tmp_path / "frames.txt"
    path.write_text(FRAMES, encoding="utf-8")
    doc = "(d / document :snt1 (c / control-01 :ARG0 (p / person) :ARG2 (r / remote)) :snt2 (s / sleep-01 :ARG0 p))"
    with_frames = docsmatch([doc, doc], [doc, doc], aspects="multialign", frames=path, num_workers=2)
    without = docsmatch([doc, doc], [doc, doc], aspects="multialign")
    assert with_frames.aspects is not None and without.aspects is not None
    # control-01 :ARG2 is instrumental: c :instrument r with the instances of c and r, in each document
    assert with_frames.aspects.counts["INSTRUMENT"] == (6, 6, 6) and with_frames.aspects.frames
    assert without.aspects.counts["INSTRUMENT"] == (0, 0, 0) and not without.aspects.frames
    assert ",aspects=multialign,frames=True,amreval=" in with_frames.config.as_string()
    one = docsmatch_pair(doc, doc, aspects="onealign", frames=path)
    assert one.aspects is not None and one.aspects.counts["INSTRUMENT"] == (3, 3, 3)


def test_bad_aspect_settings():
    with pytest.raises(InputError, match="aspects: expected None, 'onealign' or 'multialign', got 'two'"):
        docsmatch([PRED], [GOLD], aspects="two")
    with pytest.raises(InputError, match="frames: the PropBank frames rename roles for the aspect scores; pass"):
        docsmatch([PRED], [GOLD], frames="frames.txt")
    with pytest.raises(InputError, match="cannot read the frame file"):
        docsmatch([PRED], [GOLD], aspects="onealign", frames="/nowhere/frames.txt")
    with pytest.raises(InputError, match="applies to the main DocSmatch score only"):
        docsmatch([PRED], [GOLD], aspects="onealign", standardize="smatchpp-amr", coref=True)


def _documents(data_dir: Path, name: str) -> tuple[list, list]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # BART's 'z11' that looks like a variable
        pred = read_graphs(data_dir / "parses" / f"{name}_sys.amr")
    return pred, read_graphs(data_dir / "parses" / "gold.amr")


def _sentence_parts(sentences: list) -> tuple[dict[str, set], set, set]:
    """Each aspect's subgraphs of the sentences, renamed as in their document; their root triples and tops."""
    parts: dict[str, set] = {a: set() for a in ASPECTS}
    roots, tops = set(), set()
    for k, g in enumerate(sentences, 1):

        def named(x: str, k: int = k) -> str:
            return f"{VAR}s{k}.{x[len(VAR) :]}" if x.startswith(VAR) else x

        triples = marked_triples(g, "smatchpp-amr")
        roots.add((named(triples[0][0]), triples[0][1], triples[0][2]))
        tops.add(named(triples[0][0]))
        for a, sub in aspect_subgraphs(triples).items():
            parts[a] |= {(named(s), r, named(t)) for s, r, t in sub}
    return parts, roots, tops


@pytest.mark.parametrize("name", ["bart", "t5"])
def test_documents_of_sentence_pairs_score_as_their_sentences(data_dir, name):
    """20 documents of 10 parse / gold sentence pairs each (no node shared between sentences): under
    multialign each aspect counts as the sum of the sentence pairs' counts, except for the root rule (README):
    a document has one root, the document node, and an edge into each sentence's top."""
    pred, gold = _documents(data_dir, name)
    sentences = aspect_scores(pred, gold, alignment="multialign")
    docs_p = [pred[k : k + 10] for k in range(0, 200, 10)]
    docs_g = [gold[k : k + 10] for k in range(0, 200, 10)]
    documents = docsmatch(docs_p, docs_g, aspects="multialign", standardize="smatchpp-amr").aspects
    assert documents is not None and documents.optimal and sentences.optimal and len(documents.pairs) == 20
    same = differ = 0
    for d in range(20):
        pairs = sentences.pairs[d * 10 : d * 10 + 10]
        summed = {a: tuple(map(sum, zip(*(p.counts[a] for p in pairs)))) for a in ASPECTS}
        counts = documents.pairs[d].counts
        assert counts["FOCUS"] == (2, 2, 2)  # the document's root and instance
        m, t, g = summed["CONCEPT"]
        assert counts["CONCEPT"] == (m + 1, t + 1, g + 1)  # and the document's instance
        unchanged = set()
        for docs, side in ((docs_p, "pred"), (docs_g, "gold")):
            parts, roots, tops = _sentence_parts(docs[d])
            whole = aspect_subgraphs(marked_triples(document_graph(docs[d]), "smatchpp-amr"))
            for a in ASPECTS:
                if a == "FOCUS":
                    continue
                # what the document loses is sentence roots; what it adds comes from the document node (its
                # instance, the :sntK edges), or is an edge into a sentence's top with its ends' instances
                assert parts[a] - whole[a] <= roots, (side, d, a)
                added = whole[a] - parts[a]
                assert all(s == VAR + "d" or r == ":instance" or t in tops for s, r, t in added), (side, d, a)
                if parts[a] == whole[a]:
                    unchanged.add((a, side))
        for a in ASPECTS:
            if (a, "pred") in unchanged and (a, "gold") in unchanged:
                assert counts[a] == summed[a], (d, a)  # the same subgraphs: the sentence pairs' sum
                same += 1
            elif a not in ("FOCUS", "CONCEPT"):
                differ += counts[a] != summed[a]
    # of the 20 x 17 counts besides FOCUS and CONCEPT, those whose subgraphs touch no sentence top are the
    # sums (measured: BART 259, T5 264); of the other 81 and 76, all but 2 and 0 differ from the sums
    assert (same, differ) == {"bart": (259, 79), "t5": (264, 76)}[name]


def test_the_command_line(tmp_path, capsys):
    p, g, frames = tmp_path / "p.amr", tmp_path / "g.amr", tmp_path / "frames.txt"
    p.write_text(PRED + "\n", encoding="utf-8")
    g.write_text(GOLD + "\n", encoding="utf-8")
    frames.write_text(FRAMES, encoding="utf-8")
    assert main(["docsmatch", "-f", str(p), str(g), "--aspects", "multialign"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "DocSmatch aspects (multialign, smatchpp-amr, frames: no):"
    assert out[1] == "main               -> P: 0.7500, R: 0.7500, F: 0.7500  (9 of 12 test, 12 gold)"
    assert out[10] == "PATIENT            -> P: 0.6667, R: 0.6667, F: 0.6667  (2 of 3 test, 3 gold)"
    assert out[11] == "POLARITY           -> P: 0.0000, R: 0.0000, F: 0.0000  (0 of 2 test, 2 gold)"
    assert len(out) == 21
    argv = ["docsmatch", "-f", str(p), str(g), "--aspects", "onealign", "--json", "--ms", "--frames", str(frames)]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["alignment"] == "onealign" and data["frames"] is True and data["pairs"] == 1
    assert data["aspects"]["PATIENT"]["match"] == 1 and data["pair_counts"][0]["PATIENT"] == [1, 3, 3]
    assert data["pair_counts"][0]["main"] == [9, 12, 12]
    # the main score under another reading, without the aspects
    assert main(["docsmatch", "-f", str(p), str(g), "--standardize", "smatchpp-amr", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["match"], data["test"], data["gold"]) == (9, 12, 12) and "standardize=smatchpp-amr" in data["config"]
    assert main(["docsmatch", "-f", str(p), str(g), "--frames", str(frames)]) == 2
    assert "--frames: the frames rename roles for the aspect scores; give --aspects too" in capsys.readouterr().err
    assert main(["docsmatch", "-f", str(p), str(g), "--aspects", "onealign", "--coref-subscore", "--ci", "9"]) == 2
    assert "--aspects: not with --coref-subscore, --ci" in capsys.readouterr().err
    argv = ["--fine-grained", "--averages", "--svg", str(tmp_path / "x.svg")]
    assert main(["docsmatch", "-f", str(p), str(g), "--aspects", "multialign", *argv]) == 2
    assert "--aspects: not with --fine-grained, --averages, --svg" in capsys.readouterr().err
    assert main(["docsmatch", "-f", str(p), str(g), "--aspects", "onealign", "--frames", str(tmp_path / "no")]) == 1
    assert "cannot read the frame file" in capsys.readouterr().err

"""Document-level MFβ: Meaning by DocSmatch of the DocAMR built from given parses and clusters, windowed Form."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from amreval import InputError
from amreval.docamr.corefiles import CorefDocument
from amreval.errors import AmrevalWarning
from amreval.mfbeta.document import document_mfbeta, split_sentences
from amreval.scores.docsmatch import docsmatch

GEN = "The boy slept. He woke up."
REF = "The boy slept. The boy woke up early."
# the parses of the two generated sentences, aligned to their tokens (~e.N)
PARSES = [
    "# ::tok The boy slept .\n(s / sleep-01~e.2 :ARG0 (b / boy~e.1))",
    "# ::tok He woke up .\n(w / wake-up-02~e.1 :ARG0 (h / he~e.0))",
]
TOKENS = [["The", "boy", "slept", "."], ["He", "woke", "up", "."]]
# "boy" (token 1) and "He" (token 4): one cluster over document-level token offsets
CLUSTERS = [[(1, 1), (4, 4)]]
GOLD = "(d / document :snt1 (a / sleep-01 :ARG0 (b / boy)) :snt2 (c / wake-up-02 :ARG0 b :time (e / early)))"
# by hand: the pronoun's node merges into its antecedent (the DocAMR representation), sentence prefixes s1., s2.
DERIVED = "(d / document :snt1 (s1.s / sleep-01 :ARG0 (s1.b / boy)) :snt2 (s2.w / wake-up-02 :ARG0 s1.b))"


class FixedScores:
    """A stand-in language model: a fixed score per paragraph."""

    def __init__(self, scores):
        self.scores = scores

    def sentence_scores(self, sentences, *, progress=None):
        return np.array([self.scores[s] for s in sentences])


LM = FixedScores({GEN: 0.3, REF: 0.1})


def _score(**kw):
    args = dict(reference_amrs=[GOLD], prediction_amrs=[PARSES], coref=[CorefDocument("D", TOKENS, CLUSTERS)])
    args.update(kw)
    return document_mfbeta([GEN], [REF], **{"scorer": LM, **args})


def test_the_splitter_by_hand():
    assert split_sentences(GEN) == ["The boy slept.", "He woke up."]
    assert split_sentences("Mr. J. Smith came at 5 p.m. to see us.  Was he late?\nNo !") == [
        "Mr. J. Smith came at 5 p.m. to see us.",
        "Was he late?",
        "No !",
    ]
    assert split_sentences('"Go!" he said. "Now."') == ['"Go!" he said.', '"Now."']
    assert split_sentences("it costs 3.50 dollars. done") == ["it costs 3.50 dollars. done"]
    assert split_sentences("  \n ") == []
    # tokenized text: a closing mark written apart stays with the sentence it closes
    assert split_sentences('He said : " Go . " Then he left .') == ['He said : " Go . "', "Then he left ."]
    assert split_sentences('" Draw me a sheep ! " " Why ? " he asked .') == [
        '" Draw me a sheep ! "',
        '" Why ? " he asked .',
    ]
    assert split_sentences('" Go on . It is late . " He left .') == ['" Go on .', 'It is late . "', "He left ."]
    assert split_sentences('Good evening . " It is late .') == ["Good evening .", '" It is late .']
    assert split_sentences('Hi ! " he said . Fine . "') == ['Hi ! " he said .', 'Fine . "']
    assert split_sentences("He said : ' Yes ! ' And don't . ' No . '") == [
        "He said : ' Yes ! '",
        "And don't .",
        "' No . '",
    ]
    assert split_sentences("It was big ( very big . ) We left . )") == ["It was big ( very big . )", "We left . )"]
    import amreval.mfbeta.document as module

    assert doctest.testmod(module).failed == 0


def test_meaning_is_docsmatch_of_the_hand_derived_docamr():
    r = _score()
    assert r.documents[0].to_string(indent=None).splitlines()[-1] == DERIVED
    hand = docsmatch([DERIVED], [GOLD], coref=True)
    # by hand: 4 instances + 4 relations + top = 9 predicted triples, all matched; the gold has 11 (e and :time)
    assert r.meaning_counts == (9, 9, 11) and r.meaning == pytest.approx(18 / 20) == hand.f1
    assert r.coreference_counts == hand.coref.total and r.coreference == hand.coref_f1
    assert r.coreference_counts == (2, 2, 2) and r.coreference == 1.0  # the merged boy and its second :ARG0
    assert r.chains == [1] and r.unmapped_mentions == 0 and r.sentence_mismatches == 0
    assert r.sentences == [2] and r.reference_sentences == [2] and r.parse_failures == 0
    # Form with the fixed scores: 0.3 / (0.3 + 0.1) = 0.75 >= 0.45: acceptable
    assert r.pref_scores == [pytest.approx(0.75)] and r.form == 1.0
    assert r.mf_beta == pytest.approx(2 * 0.9 / 1.9) and r.scores["mf_2"] == pytest.approx(5 * 0.9 / (4 * 0.9 + 1))
    out = r.as_dict(per_example=True)
    assert out["coreference"] == 1.0 and out["docsmatch_f1"] == [pytest.approx(0.9)]
    assert ",level=document," in out["config"] and ",split=rules," in out["config"]


def test_without_coreference_the_pronoun_stays_its_own_node():
    r = _score(coref=None)
    assert r.documents[0].to_string(indent=None).splitlines()[-1] == (
        "(d / document :snt1 (s1.s / sleep-01 :ARG0 (s1.b / boy)) :snt2 (s2.w / wake-up-02 :ARG0 (s2.h / he)))"
    )
    # the gold's merged boy is a coreference item the prediction lacks: 0 of 2 found (not 0/0)
    assert r.chains == [0] and r.coreference_counts == (0, 0, 2) and r.coreference == 0.0 and r.meaning < 0.9


def test_parsed_references_and_nothing_to_score_for_coreference():
    doc = CorefDocument("D", TOKENS, CLUSTERS)
    lm = FixedScores({GEN: 0.3})
    r = document_mfbeta([GEN], [GEN], prediction_amrs=[PARSES], coref=[doc], reference_parses=[PARSES],
                        reference_coref=[doc], scorer=lm)  # fmt: skip
    assert (r.meaning, r.coreference, r.coreference_counts) == (1.0, 1.0, (2, 2, 2)) and r.reference_sentences == [2]
    assert r.pref_scores == [0.5] and r.reference_parse_failures == 0
    # neither side has coreference: the sub-score is None (0/0), its counts 0
    plain = "(d / document :snt1 (a / sleep-01 :ARG0 (b / boy)) :snt2 (c / wake-up-02 :ARG0 (h / he)))"
    r = _score(coref=None, reference_amrs=[plain])
    assert r.meaning == 1.0 and r.coreference is None and r.coreference_counts == (0, 0, 0)
    assert r.as_dict()["coreference"] is None


def test_coreference_as_a_callable_and_as_a_jsonlines_line():
    seen = []

    def system(tokens):
        seen.append(tokens)
        return CLUSTERS

    a, b = _score(coref=system), _score()
    line = (
        '{"doc_key": "D", "sentences": [["The", "boy", "slept", "."], ["He", "woke", "up", "."]], '
        '"clusters": [[[1, 1], [4, 4]]]}'
    )
    c = _score(coref=[line])
    assert seen == [TOKENS] and a.as_dict() == b.as_dict() == c.as_dict()


def test_the_parser_and_given_sentences():
    calls = []

    def parser(sentences):
        calls.append(list(sentences))
        return [PARSES[0], None]

    with pytest.warns(AmrevalWarning, match=r"cluster 0: mention \[4, 4\] 'He' maps to no node of sentence 2"):
        r = _score(prediction_amrs=None, parser=parser, sentences=[["The boy slept.", "He  woke up."]])
    assert calls == [["The boy slept.", "He woke up."]] and r.failed == [(0, 1)] and r.parse_failures == 1
    assert ",split=given," in r.config.as_string() and r.unmapped_mentions == 1 and r.chains == [0]


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory, make_tiny_gpt2):
    return make_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2-doc"), [GEN, REF])


def test_form_equals_the_hand_computed_preference(tiny_gpt2):
    import torch
    import transformers

    from amreval.mfbeta.form import LanguageModelScorer

    path = tiny_gpt2
    model = transformers.AutoModelForCausalLM.from_pretrained(path)
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    eot = tokenizer.convert_tokens_to_ids("<|endoftext|>")

    def mtp(text, window=None, stride=None):
        """By hand: [eot] + tokens + [eot]; each token's probability given the window it is scored in."""
        seq = [eot, *tokenizer(text, add_special_tokens=False)["input_ids"], eot]
        n = len(seq) - 1
        window = window or n
        probs, begin, reached = [], 0, 0
        while reached < n:
            end = min(begin + window, n)
            with torch.no_grad():
                p = torch.softmax(model(torch.tensor([seq[begin:end]])).logits[0], dim=-1)
            probs += [p[j - begin, seq[j + 1]].item() for j in range(reached, end)]
            reached, begin = end, begin + stride if stride else end
        assert len(probs) == n
        return float(np.mean(probs))

    scorer = LanguageModelScorer(path, device="cpu", cache=False)
    r = _score(scorer=scorer)
    g, ref = mtp(GEN), mtp(REF)
    assert r.pref_scores[0] == pytest.approx(g / (g + ref), abs=1e-6)
    assert r.form == float(g / (g + ref) >= 0.45) and ",window=64,stride=32," in r.config.as_string()
    # in windows of 4 inputs every 3 positions (n > 4: several windows)
    w = _score(scorer=scorer, window=4, stride=3)
    g, ref = mtp(GEN, 4, 3), mtp(REF, 4, 3)
    assert w.pref_scores[0] == pytest.approx(g / (g + ref), abs=1e-6) and ",window=4,stride=3," in w.config.as_string()
    assert w.pref_scores[0] != pytest.approx(r.pref_scores[0], abs=1e-9)
    from amreval.mfbeta.paragraph_form import paragraph_scores

    np.testing.assert_allclose(paragraph_scores(scorer, [GEN], window=4, stride=3), [mtp(GEN, 4, 3)], atol=1e-6)
    with pytest.raises(InputError, match=r"^window 65: more than the 64 tokens that .* accepts$"):
        _score(scorer=scorer, window=65)
    with pytest.raises(InputError, match=r"^stride 5 is longer than the window 4: tokens would be skipped$"):
        _score(scorer=scorer, window=4, stride=5)


def test_sentence_count_mismatches_are_scored_by_docsmatch_and_counted():
    third = "# ::tok He ate .\n(e / eat-01~e.1 :ARG0 (h / he~e.0))"
    gen = [GEN + " He ate.", "The boy slept."]
    lm = FixedScores({gen[0]: 0.2, gen[1]: 0.2, REF: 0.2})
    r = document_mfbeta(
        gen,
        [REF, REF],
        reference_amrs=[GOLD, GOLD],
        prediction_amrs=[[*PARSES, third], [PARSES[0]]],
        scorer=lm,
    )
    assert r.sentences == [3, 1] and r.reference_sentences == [2, 2]
    assert r.sentence_mismatches == 2 and r.mismatched == [0, 1]
    alone = docsmatch(r.documents, [GOLD, GOLD], coref=True)
    assert r.meaning_counts == (alone.match, alone.test, alone.gold) and r.meaning == alone.f1
    # by hand, without coreference: document 0 has 7 instances, 6 relations and the top (14 triples); its third
    # sentence (eat-01, he, :ARG0, :snt3) matches nothing, nor does its "he" (b is taken by the boy): 8 match.
    # Document 1 (d, sleep-01, boy, :snt1, :ARG0, top: 6) matches all; its missing sentence leaves gold unmatched
    assert r.meaning_counts == (14, 20, 22) and r.meaning == pytest.approx(2 / 3)


def test_bad_input_is_named():
    with pytest.raises(
        InputError, match=r"^generated paragraph #1: empty paragraph; a document needs at least one sentence$"
    ):
        document_mfbeta([" \n"], [REF], reference_amrs=[GOLD], prediction_amrs=[[]], scorer=LM)
    three = CorefDocument("D", [*TOKENS, ["Then", "."]], [[(1, 1), (8, 8)]])
    with pytest.raises(
        InputError,
        match=r"^generated paragraph #1: the coreference document 'D' has 3 sentences but the paragraph has 2; "
        r"clusters name sentences by position$",
    ):
        _score(coref=[three])
    with pytest.raises(InputError, match=r"cluster 0: span \[4, 9\] is beyond the document, which has 8 tokens"):
        _score(coref=lambda tokens: [[(1, 1), (4, 9)]])
    with pytest.raises(
        InputError, match=r"^generated paragraph #1: 2 sentences but 1 parses; give one parse per sentence"
    ):
        _score(prediction_amrs=[PARSES[:1]])
    with pytest.raises(
        InputError, match=r"^generated paragraph #1: 2 sentences but a str; give one parse per sentence"
    ):
        _score(prediction_amrs=[PARSES[0]])
    with pytest.raises(InputError, match=r"^1 generated paragraphs but 2 coreference documents; they are paired"):
        _score(coref=[CorefDocument("D", TOKENS, CLUSTERS)] * 2)
    with pytest.raises(
        InputError,
        match=r"document D, sentence 2 \(id generated-0.2\): the coreference file has 3 tokens but the AMR graph",
    ):
        _score(coref=[CorefDocument("D", [TOKENS[0], ["He", "woke", "."]], [])])
    with pytest.raises(
        InputError, match=r"^generated paragraph #1: the coreference system returned 'nonsense'; expected clusters"
    ):
        _score(coref=lambda tokens: "nonsense")
    with pytest.raises(InputError, match=r"^1 generated paragraphs but 2 references; they are paired by position$"):
        document_mfbeta([GEN], [REF, REF], reference_amrs=[GOLD], prediction_amrs=[PARSES], scorer=LM)
    with pytest.raises(InputError, match=r"^Meaning needs the sentences' AMRs: pass parser= or prediction_amrs=$"):
        document_mfbeta([GEN], [REF], reference_amrs=[GOLD], scorer=LM)
    with pytest.raises(InputError, match=r"^generated paragraph #1, sentence #2: expected a non-empty string"):
        _score(sentences=[["The boy slept.", " "]])


def test_the_metric_at_the_document_level_equals_the_core(tiny_gpt2):
    import os
    from pathlib import Path

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate) is not installed")
    from amreval.mfbeta.form import get_scorer

    metric = evaluate.load(str(Path(__file__).resolve().parents[2] / "metrics" / "mfbeta"))
    line = (
        '{"doc_key": "D", "sentences": [["The", "boy", "slept", "."], ["He", "woke", "up", "."]], '
        '"clusters": [[[1, 1], [4, 4]]]}'
    )
    kw = dict(level="document", coref=[line], lm=tiny_gpt2, per_example=True)
    out = metric.compute(predictions=[GEN], references=[REF], reference_amrs=[GOLD], prediction_amrs=[PARSES], **kw)
    core = _score(scorer=get_scorer(tiny_gpt2), coref=[line]).as_dict(per_example=True)
    assert core.pop("score") == "mfbeta" and out == core
    assert out["meaning"] == pytest.approx(0.9) and out["coreference"] == 1.0 and out["sentence_mismatches"] == 0
    # add_batch carries each paragraph's list of sentence parses
    metric.add_batch(predictions=[GEN], references=[REF], reference_amrs=[GOLD], prediction_amrs=[PARSES])
    assert metric.compute(**kw) == out
    with pytest.raises(InputError, match=r"^level must be 'sentence' or 'document', got 'paragraph'$"):
        metric.compute(predictions=[GEN], references=[REF], reference_amrs=[GOLD], lm=tiny_gpt2, level="paragraph")


def test_a_document_over_the_memory_budget_is_scored_and_counted(monkeypatch):
    from amreval.errors import TooLargeError
    from amreval.match import problem as problem_module

    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 0)
    with pytest.warns(AmrevalWarning, match=r"^1 of 1 pair was over the alignment's memory budget \(0.0 GiB\)"):
        r = _score()
    # aligned over each node's best candidates, the climb still matches every predicted triple (9 of 9 and
    # 11: test_meaning_is_docsmatch_of_the_hand_derived_docamr), counted
    assert (r.meaning_counts, r.over_budget, r.as_dict()["n_over_budget"]) == ((9, 9, 11), [0], 1)
    with pytest.raises(TooLargeError, match=r"^pair #1 .*the alignment problem of 4 x 5 nodes"):
        _score(strict=True)
    monkeypatch.setattr(problem_module, "MEMORY_BUDGET", 4 * 1024**3)
    assert _score().as_dict()["n_over_budget"] == 0

"""Form score of MFβ: language model scores checked against direct computations on tiny models."""

from __future__ import annotations

import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="Form scoring needs torch: pip install 'amreval[lm]'")
transformers = pytest.importorskip("transformers", reason="Form scoring needs transformers: pip install 'amreval[lm]'")
tokenizers = pytest.importorskip("tokenizers", reason="the tiny test models need tokenizers (comes with transformers)")

from tokenizers import decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    AutoModelForCausalLM,
    AutoModelForMaskedLM,
    BertConfig,
    BertForMaskedLM,
    GPT2Config,
    GPT2LMHeadModel,
    PreTrainedTokenizerFast,
)

from amreval.errors import InputError, MissingDependencyError
from amreval.mfbeta import lm
from amreval.mfbeta.cache import MEMORY
from amreval.mfbeta.form import (
    FormResult,
    LanguageModelScorer,
    acceptable,
    form_from_scores,
    form_score,
    get_scorer,
    pref_scores,
)

EOT = "<|endoftext|>"
GRAMMATICAL = [
    "the boy wants to go .",
    "the girl wants to go .",
    "the boy wants to sleep .",
    "the girl wants to eat .",
    "the dog wants to run .",
    "the boy wants the girl to go .",
]
GOOD = "the boy wants to go ."
SCRAMBLED = "go to wants boy the ."
# different token counts, so that batches of 2 or 3 are padded
VARIED = ["go", "the boy wants to go .", "the girl wants the dog to sleep and eat .", "boy the", "eat ."]


@pytest.fixture(autouse=True)
def fresh_scores():
    """Every test scores for itself: nothing is taken from the scores another test kept."""
    MEMORY.clear()


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """Tiny models run fastest on one thread (and do not fight other processes for cores)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _bpe(special: list[str]) -> tokenizers.Tokenizer:
    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300, special_tokens=special, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(GRAMMATICAL, trainer)
    return tok


def _train(model: GPT2LMHeadModel, tokenizer: PreTrainedTokenizerFast, steps: int) -> None:
    """Fit the model to the grammatical sentences, framed as they are scored."""
    eot = tokenizer.convert_tokens_to_ids(EOT)
    seqs = [[eot, *tokenizer(s, add_special_tokens=False)["input_ids"], eot] for s in GRAMMATICAL]
    width = max(map(len, seqs))
    ids = torch.full((len(seqs), width), eot)
    labels = torch.full((len(seqs), width), -100)
    mask = torch.zeros((len(seqs), width), dtype=torch.long)
    for b, seq in enumerate(seqs):
        ids[b, : len(seq)] = torch.tensor(seq)
        labels[b, : len(seq)] = torch.tensor(seq)
        mask[b, : len(seq)] = 1
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(steps):
        optimizer.zero_grad()
        model(input_ids=ids, attention_mask=mask, labels=labels).loss.backward()
        optimizer.step()
    model.eval()


@pytest.fixture(scope="module")
def gpt2_dir(tmp_path_factory):
    """A tiny GPT-2 trained a little on grammatical sentences, saved like a Hub model."""
    torch.manual_seed(0)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=_bpe([EOT]), bos_token=EOT, eos_token=EOT)
    eot = tokenizer.convert_tokens_to_ids(EOT)
    config = GPT2Config(
        n_layer=2, n_embd=64, n_head=2, n_positions=64, vocab_size=len(tokenizer), bos_token_id=eot, eos_token_id=eot
    )
    model = GPT2LMHeadModel(config)
    _train(model, tokenizer, steps=80)
    path = tmp_path_factory.mktemp("tiny-gpt2")
    tokenizer.save_pretrained(path)
    model.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def bos_gpt2_dir(tmp_path_factory):
    """An untrained tiny GPT-2 whose tokenizer has <s>/</s> and no <|endoftext|>."""
    torch.manual_seed(1)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=_bpe(["<s>", "</s>"]), bos_token="<s>", eos_token="</s>")
    config = GPT2Config(
        n_layer=2,
        n_embd=32,
        n_head=2,
        n_positions=64,
        vocab_size=len(tokenizer),
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
    )
    path = tmp_path_factory.mktemp("tiny-gpt2-bos")
    tokenizer.save_pretrained(path)
    GPT2LMHeadModel(config).save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory):
    """An untrained tiny BERT masked LM with a WordPiece tokenizer."""
    torch.manual_seed(2)
    tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok.train_from_iterator(GRAMMATICAL, trainers.WordPieceTrainer(vocab_size=80, special_tokens=specials))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[(t, tok.token_to_id(t)) for t in ("[CLS]", "[SEP]")]
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
    )
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id,
    )
    path = tmp_path_factory.mktemp("tiny-bert")
    tokenizer.save_pretrained(path)
    BertForMaskedLM(config).save_pretrained(path)
    return path


_DIRECT: dict = {}


def _direct_load(path, auto):
    """The model and tokenizer in ``path``, loaded here independently of amreval.mfbeta.form."""
    if (path, auto) not in _DIRECT:
        _DIRECT[path, auto] = (auto.from_pretrained(path), transformers.AutoTokenizer.from_pretrained(path))
    return _DIRECT[path, auto]


def direct_mtp(path, sentence: str, start: str = EOT, end: str = EOT) -> float:
    """mtp by hand: [start] + tokens + [end], softmax over the vocabulary, p of each next token, mean."""
    model, tokenizer = _direct_load(path, AutoModelForCausalLM)
    ids = [
        tokenizer.convert_tokens_to_ids(start),
        *tokenizer(sentence, add_special_tokens=False)["input_ids"],
        tokenizer.convert_tokens_to_ids(end),
    ]
    with torch.no_grad():
        probs = torch.softmax(model(torch.tensor([ids])).logits[0], dim=-1)  # (positions, vocabulary)
    return float(np.mean([probs[i, ids[i + 1]].item() for i in range(len(ids) - 1)]))


def direct_pseudo_likelihood(path, sentence: str) -> float:
    """Mask each sub-word in turn ([CLS]/[SEP] stay), softmax over the vocabulary, p of the true token, mean."""
    model, tokenizer = _direct_load(path, AutoModelForMaskedLM)
    ids = tokenizer(sentence)["input_ids"]
    assert tokenizer.convert_ids_to_tokens([ids[0], ids[-1]]) == ["[CLS]", "[SEP]"]
    probs = []
    for k in range(1, len(ids) - 1):
        masked = list(ids)
        masked[k] = tokenizer.mask_token_id
        with torch.no_grad():
            logits = model(torch.tensor([masked])).logits[0, k]  # (vocabulary,)
        probs.append(torch.softmax(logits, dim=0)[ids[k]].item())
    return float(np.mean(probs))


class FixedScorer:
    """A scorer that returns given scores, to test the arithmetic of Form."""

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores

    def sentence_scores(self, sentences, *, progress=None):
        return np.array([self.scores[s] for s in sentences])


# --- causal LM ------------------------------------------------------------------------------------------------------


def test_mtp_equals_direct_computation(gpt2_dir):
    scorer = LanguageModelScorer(str(gpt2_dir), device="cpu", batch_size=1)
    got = scorer.sentence_scores(VARIED)
    expected = [direct_mtp(gpt2_dir, s) for s in VARIED]
    assert got.dtype == np.float64 and got.shape == (len(VARIED),)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)


@pytest.mark.parametrize("batching", [{"batch_size": 2}, {"batch_size": 3}, {"max_tokens": 12}, {"max_tokens": 1}])
def test_mtp_batched_equals_unbatched(gpt2_dir, batching):
    one = LanguageModelScorer(str(gpt2_dir), device="cpu", batch_size=1, cache=False).sentence_scores(VARIED)
    batched = LanguageModelScorer(str(gpt2_dir), device="cpu", cache=False, **batching).sentence_scores(VARIED)
    np.testing.assert_allclose(batched, one, rtol=0, atol=1e-6)


def test_bos_and_eos_frame_when_there_is_no_endoftext(bos_gpt2_dir):
    scorer = LanguageModelScorer(str(bos_gpt2_dir), device="cpu", batch_size=2)
    got = scorer.sentence_scores(VARIED[:3])
    expected = [direct_mtp(bos_gpt2_dir, s, start="<s>", end="</s>") for s in VARIED[:3]]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)


def test_boundary_rule():
    both = PreTrainedTokenizerFast(tokenizer_object=_bpe([EOT, "<s>", "</s>"]), bos_token="<s>", eos_token="</s>")
    eot = both.convert_tokens_to_ids(EOT)
    assert eot not in (both.bos_token_id, both.eos_token_id)
    assert lm._boundary_ids(both) == (eot, eot)  # <|endoftext|> wins over BOS/EOS
    eos_only = PreTrainedTokenizerFast(tokenizer_object=_bpe(["</s>"]), eos_token="</s>")
    eos = eos_only.convert_tokens_to_ids("</s>")
    assert lm._boundary_ids(eos_only) == (eos, eos)
    with pytest.raises(InputError, match="EOS"):
        lm._boundary_ids(PreTrainedTokenizerFast(tokenizer_object=_bpe([])))


def test_trained_model_prefers_the_grammatical_sentence(gpt2_dir):
    scorer = LanguageModelScorer(str(gpt2_dir), device="cpu", batch_size=4)
    result = form_score([GOOD, SCRAMBLED], [SCRAMBLED, GOOD], scorer=scorer)
    assert isinstance(result, FormResult)
    good, bad = scorer.sentence_scores([GOOD, SCRAMBLED])
    assert result.generated_mtp == pytest.approx([good, bad], abs=1e-12)
    assert result.reference_mtp == pytest.approx([bad, good], abs=1e-12)
    assert result.pref_scores[0] == pytest.approx(good / (good + bad))
    assert result.pref_scores[0] > 0.55
    assert result.pref_scores[1] < 0.45
    assert result.pref_scores[0] + result.pref_scores[1] == pytest.approx(1.0)
    assert result.acceptable == [True, False]
    assert result.form == 0.5


def test_preference_carries_over_to_an_unseen_sentence(gpt2_dir):
    unseen, scrambled = "the girl wants to sleep .", "sleep the to girl wants ."
    assert unseen not in GRAMMATICAL
    result = form_score(
        [unseen, scrambled, GOOD], [scrambled, unseen, SCRAMBLED], scorer=get_scorer(str(gpt2_dir), "causal", "cpu", 16)
    )
    assert result.pref_scores[0] > 0.55
    assert result.acceptable == [True, False, True]
    assert result.form == pytest.approx(2 / 3)


def test_form_score_loads_through_the_cache(gpt2_dir):
    result = form_score([GOOD], [SCRAMBLED], model=str(gpt2_dir), device="cpu", batch_size=2)
    assert result.acceptable == [True]
    assert result.form == 1.0
    assert get_scorer(str(gpt2_dir), "causal", "cpu", 2) is get_scorer(gpt2_dir, "causal", "cpu", 2)


def test_model_cache_returns_the_same_objects(gpt2_dir):
    a = get_scorer(str(gpt2_dir), "causal", "cpu", 4)
    assert get_scorer(str(gpt2_dir), "causal", "cpu", 4) is a
    b = get_scorer(str(gpt2_dir), "causal", "cpu", 8)
    assert b is not a and b.batch_size == 8
    assert b.model is a.model and b.tokenizer is a.tokenizer
    assert LanguageModelScorer(str(gpt2_dir), device="cpu").model is a.model
    assert lm._MODELS[(str(gpt2_dir), "causal", "cpu", "float32")].model is a.model
    assert not a.model.training


def test_default_device(gpt2_dir):
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert LanguageModelScorer(str(gpt2_dir)).device == expected
    assert get_scorer(str(gpt2_dir)).device == expected


def test_progress_bar_when_asked(gpt2_dir, capsys):
    LanguageModelScorer(str(gpt2_dir), device="cpu", batch_size=2).sentence_scores(VARIED, progress=True)
    err = capsys.readouterr().err
    assert "form (causal LM)" in err and "5/5" in err and "sentence/s" in err


def test_too_long_sentence_is_named(gpt2_dir):
    scorer = LanguageModelScorer(str(gpt2_dir), device="cpu")
    long = " ".join(["the boy"] * 40)
    with pytest.raises(InputError, match=r"^sentence #2: \d+ tokens, more than the 64"):
        scorer.sentence_scores([GOOD, long])
    with pytest.raises(InputError, match=r"^reference #1: \d+ tokens"):
        form_score([GOOD], [long], scorer=scorer)
    # an empty generated sentence is not sent to the model: the others keep their own numbers
    with pytest.raises(InputError, match=r"^generated #3: \d+ tokens"):
        form_score([GOOD, "", long], [GOOD, GOOD, GOOD], scorer=scorer)


# --- masked LM ------------------------------------------------------------------------------------------------------


def test_pseudo_likelihood_equals_direct_computation(bert_dir):
    scorer = LanguageModelScorer(str(bert_dir), kind="masked", device="cpu", batch_size=1)
    got = scorer.sentence_scores(VARIED)
    expected = [direct_pseudo_likelihood(bert_dir, s) for s in VARIED]
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)


@pytest.mark.parametrize("batching", [{"batch_size": 2}, {"batch_size": 7}, {"max_tokens": 30}])
def test_pseudo_likelihood_batched_equals_unbatched(bert_dir, batching):
    one = LanguageModelScorer(str(bert_dir), kind="masked", device="cpu", batch_size=1, cache=False)
    batched = LanguageModelScorer(str(bert_dir), kind="masked", device="cpu", cache=False, **batching)
    np.testing.assert_allclose(batched.sentence_scores(VARIED), one.sentence_scores(VARIED), rtol=0, atol=1e-6)


def test_masked_form_score(bert_dir):
    scorer = get_scorer(str(bert_dir), "masked", "cpu", 5)
    result = form_score([GOOD, "eat ."], ["eat .", GOOD], scorer=scorer)
    good, short = (direct_pseudo_likelihood(bert_dir, s) for s in (GOOD, "eat ."))
    prefs = [good / (good + short), short / (good + short)]
    assert result.pref_scores == pytest.approx(prefs, abs=1e-6)
    assert result.acceptable == [p >= 0.45 for p in prefs]
    assert result.form == sum(p >= 0.45 for p in prefs) / 2


def test_masked_kind_needs_a_masked_model(gpt2_dir):
    scorer = LanguageModelScorer(str(gpt2_dir), kind="masked", device="cpu")
    with pytest.raises(ValueError, match="GPT2Config"):  # transformers has no masked GPT-2
        scorer.sentence_scores([GOOD])
    _, tokenizer = _direct_load(gpt2_dir, AutoModelForCausalLM)
    with pytest.raises(InputError, match="no mask token"):
        LanguageModelScorer._masked_rows([GOOD], tokenizer, str)


def test_sentence_without_tokens_is_named(bert_dir):
    scorer = LanguageModelScorer(str(bert_dir), kind="masked", device="cpu")
    assert transformers.AutoTokenizer.from_pretrained(bert_dir)("\x00")["input_ids"] == [2, 3]  # [CLS] [SEP]
    with pytest.raises(InputError, match=r"^sentence #2: no tokens to score$"):
        scorer.sentence_scores([GOOD, "\x00"])
    # a generation with nothing to score is scored 0, as an empty one; a reference with nothing to score is an error
    result = form_score(["\x00", GOOD], [SCRAMBLED, SCRAMBLED], scorer=scorer)
    assert result.generated_mtp[0] == 0.0 and result.pref_scores[0] == 0.0 and result.acceptable == [False, True]
    with pytest.raises(InputError, match=r"^reference #2: no tokens to score$"):
        form_score([GOOD, GOOD], [GOOD, "\x00"], scorer=scorer)


# --- arithmetic of Form -----------------------------------------------------------------------------------------------


def test_pref_scores_by_hand():
    assert pref_scores([0.375, 0.125, 0.2], [0.125, 0.375, 0.2]).tolist() == [0.75, 0.25, 0.5]
    assert pref_scores([0.0, 0.0, 0.4], [0.0, 0.1, 0.0]).tolist() == [0.5, 0.0, 1.0]


def test_tolerance_boundary():
    prefs = pref_scores([0.45, 0.4499, 0.5], [0.55, 0.5501, 0.5])
    assert prefs.tolist() == pytest.approx([0.45, 0.4499, 0.5], abs=1e-15)
    assert acceptable(prefs, 0.05).tolist() == [True, False, True]
    assert acceptable(prefs, 0.0).tolist() == [False, False, True]
    assert acceptable(prefs, 0.1).tolist() == [True, True, True]
    assert acceptable([0.0], 0.5).tolist() == [True]


def test_form_score_arithmetic_with_given_scores():
    scorer = FixedScorer({"a": 0.45, "b": 0.55, "c": 0.4499, "d": 0.5501, "e": 0.0, "f": 0.0})
    result = form_score(["a", "c", "e"], ["b", "d", "f"], scorer=scorer)
    assert result.generated_mtp == [0.45, 0.4499, 0.0]
    assert result.reference_mtp == [0.55, 0.5501, 0.0]
    assert result.pref_scores == pytest.approx([0.45, 0.4499, 0.5], abs=1e-15)
    assert result.acceptable == [True, False, True]
    assert result.form == pytest.approx(2 / 3)
    strict = form_score(["a", "c", "e"], ["b", "d", "f"], scorer=scorer, tolerance=0.0)
    assert strict.acceptable == [False, False, True]
    assert strict.form == pytest.approx(1 / 3)


def test_form_from_scores():
    result = form_from_scores([0.2, 0.1, 0.0, 0.45], [0.1, 0.2, 0.0, 0.55])
    assert result.acceptable == [True, False, True, True]
    assert result.form == 0.75


# --- errors -----------------------------------------------------------------------------------------------------------


def test_empty_generated_sentence_is_never_preferred():
    seen: list[list[str]] = []

    class Recording(FixedScorer):
        def sentence_scores(self, sentences, *, progress=None):
            seen.append(list(sentences))
            return super().sentence_scores(sentences)

    scorer = Recording({"a": 0.4, "b": 0.4, "c": 0.1, "d": 0.3})
    result = form_score(["a", "  ", ""], ["b", "c", "d"], scorer=scorer)
    # only the non-empty generated sentence and the references reach the model
    assert seen == [["a", "b", "c", "d"]]
    # 0.4 / (0.4 + 0.4) = 0.5; an empty sentence scores 0: 0 / (0 + 0.1) = 0 / (0 + 0.3) = 0
    assert result.generated_mtp == [0.4, 0.0, 0.0] and result.reference_mtp == [0.4, 0.1, 0.3]
    assert result.pref_scores == [0.5, 0.0, 0.0] and result.acceptable == [True, False, False]
    assert result.form == pytest.approx(1 / 3)


def test_empty_generated_sentence_with_a_real_model(gpt2_dir):
    scorer = LanguageModelScorer(str(gpt2_dir), device="cpu", batch_size=2)
    result = form_score(["", GOOD], [GOOD, SCRAMBLED], scorer=scorer)
    good, bad = scorer.sentence_scores([GOOD, SCRAMBLED])
    assert result.generated_mtp == [0.0, pytest.approx(good, abs=1e-12)]
    assert result.pref_scores == [0.0, pytest.approx(good / (good + bad))]
    assert result.acceptable == [False, True] and result.form == 0.5


def test_empty_sentences_are_named():
    scorer = FixedScorer({})
    with pytest.raises(InputError, match=r"^reference #2: empty sentence$"):
        form_score(["a", "b"], ["a", "  "], scorer=scorer)
    with pytest.raises(InputError, match=r"^generated #1: expected a string, got int$"):
        form_score([3], ["a"], scorer=scorer)
    with pytest.raises(InputError, match="single string"):
        form_score("a b", "c d", scorer=scorer)


def test_empty_sentence_in_scorer_is_named(gpt2_dir):
    with pytest.raises(InputError, match=r"^sentence #2: empty sentence$"):
        LanguageModelScorer(str(gpt2_dir), device="cpu").sentence_scores([GOOD, ""])


def test_mismatched_lengths_name_both():
    with pytest.raises(InputError, match=r"^2 generated sentences but 3 references"):
        form_score(["a", "b"], ["a", "b", "c"], scorer=FixedScorer({}))
    with pytest.raises(InputError, match=r"^2 generated scores but 1 reference scores"):
        pref_scores([0.1, 0.2], [0.1])
    with pytest.raises(InputError, match="nothing to score"):
        form_score([], [], scorer=FixedScorer({}))


def test_bad_parameters():
    with pytest.raises(InputError, match="tolerance"):
        form_score(["a"], ["b"], scorer=FixedScorer({"a": 0.1, "b": 0.1}), tolerance=0.6)
    with pytest.raises(InputError, match="tolerance"):
        acceptable([0.5], -0.01)
    with pytest.raises(InputError, match="unknown language model kind 'seq2seq'"):
        LanguageModelScorer("gpt2", kind="seq2seq")
    with pytest.raises(InputError, match="batch_size"):
        get_scorer("gpt2", "causal", "cpu", 0)
    with pytest.raises(InputError, match=r"^generated #2: scores must be finite and >= 0"):
        pref_scores([0.1, -0.2], [0.1, 0.1])
    with pytest.raises(InputError, match="returned"):
        form_score(["a"], ["b"], scorer=type("Short", (), {"sentence_scores": lambda self, s, progress=None: [0.1]})())


def test_missing_dependencies_are_reported(monkeypatch):
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(
        MissingDependencyError,
        match=r"transformers is needed for Form scoring: "
        r"pip install 'amreval\[lm\]'",
    ):
        LanguageModelScorer("gpt2")
    with pytest.raises(MissingDependencyError):
        form_score(["a"], ["b"], model="some-model-never-loaded")
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(MissingDependencyError):
        get_scorer("gpt2")

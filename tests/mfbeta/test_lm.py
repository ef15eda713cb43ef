"""MFβ's language model at scale: token budgets, the output head a few positions at a time, dtypes, reuse."""

from __future__ import annotations

import numpy as np
import pytest

from amreval.errors import InputError
from amreval.mfbeta import forward, lm
from amreval.mfbeta.cache import MEMORY, ResultCache, default_cache_dir, model_fingerprint, resolve_cache
from amreval.mfbeta.lm import LanguageModelScorer, get_scorer, resolve_dtype, token_batches

GRAMMATICAL = ["the boy wants to go .", "the girl wants to go .", "the dog wants to run ."]
VARIED = ["go", "the boy wants to go .", "the girl wants the dog to sleep and eat .", "boy the", "eat ."]


@pytest.fixture(autouse=True)
def fresh_scores():
    MEMORY.clear()


# ---------------------------------------------------------------- batching by a token budget (no model needed)


def test_token_batches_by_hand():
    # lengths 5 3 9 3 2, budget 10: 9 alone; then 5 alone and 3 3 2 (3 x 3 = 9 padded tokens): 23 in three
    # batches, where filling each batch in turn (5 3 | 3 2) pads to 25
    assert token_batches([5, 3, 9, 3, 2], 10) == [[2], [0], [1, 3, 4]]
    assert token_batches([3, 3, 3, 3, 12], 12) == [[4], [0, 1, 2, 3]]
    # a row longer than the budget gets a batch of its own; ties keep the input order
    assert token_batches([30, 4, 4, 4], 8) == [[0], [1, 2], [3]]
    assert token_batches([4, 4, 4, 4, 4], 100, max_rows=2) == [[0, 1], [2, 3], [4]]
    assert token_batches([], 10) == []


def test_dtype_names():
    assert resolve_dtype(None, "cpu") == "float32"
    assert resolve_dtype("auto", "cpu") == "float32"
    assert resolve_dtype("bf16", "cuda") == "bfloat16"
    assert resolve_dtype("half", "cpu") == "float16"
    with pytest.raises(InputError, match="unknown dtype 'int8'"):
        resolve_dtype("int8", "cpu")


# ---------------------------------------------------------------- the cache (no model needed)


def test_cache_in_memory_and_on_disk(tmp_path):
    cache = ResultCache(tmp_path)
    cache.put("ns", {"a": 0.1 + 0.2, "b": None, "c": "(x / y)"})
    again = ResultCache(tmp_path)  # a new process: nothing in memory, everything on disk
    assert len(again) == 0
    assert again.get("ns", ["a", "b", "c", "d"]) == {"a": 0.30000000000000004, "b": None, "c": "(x / y)"}
    assert len(again) == 3  # read once, then kept in memory
    assert again.get("other", ["a"]) == {}
    again.clear()
    assert ResultCache(tmp_path).get("ns", ["a"]) == {}


def test_resolve_cache(tmp_path, monkeypatch):
    assert resolve_cache(True) is MEMORY and resolve_cache("memory") is MEMORY
    assert resolve_cache(None) is None and resolve_cache(False) is None and resolve_cache("none") is None
    assert all(resolve_cache(word) is None for word in ("off", "False", " NO ")) and resolve_cache(" Memory ") is MEMORY
    folder = resolve_cache(tmp_path / "c")
    assert folder is not None and folder.path == tmp_path / "c" / "mfbeta-cache.sqlite"
    assert resolve_cache(str(tmp_path / "c")) is folder
    monkeypatch.setenv("HF_EVALUATE_CACHE", str(tmp_path / "ev"))
    assert default_cache_dir() == tmp_path / "ev" / "amreval"
    monkeypatch.delenv("HF_EVALUATE_CACHE")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    assert default_cache_dir() == tmp_path / "hf" / "evaluate" / "amreval"
    disk = resolve_cache("disk")
    assert disk is not None and disk.path == tmp_path / "hf" / "evaluate" / "amreval" / "mfbeta-cache.sqlite"
    with pytest.raises(InputError, match="cache must be"):
        resolve_cache(3)


def test_fingerprint_changes_with_the_files(tmp_path):
    (tmp_path / "config.json").write_text('{"a": 1}')
    (tmp_path / "model.safetensors").write_bytes(b"12345")
    first = model_fingerprint(tmp_path)
    assert first.startswith(str(tmp_path.resolve()) + "@") and model_fingerprint(str(tmp_path)) == first
    (tmp_path / "model.safetensors").write_bytes(b"123456")
    assert model_fingerprint(tmp_path) != first
    assert model_fingerprint("no-such-model-here") == "no-such-model-here"


# ---------------------------------------------------------------- with tiny real models

torch = pytest.importorskip("torch", reason="Form scoring needs torch: pip install 'amreval[lm]'")
transformers = pytest.importorskip("transformers", reason="Form scoring needs transformers: pip install 'amreval[lm]'")


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _tokenizer(special: list[str], **kw):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=200, special_tokens=special, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(GRAMMATICAL, trainer)
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, **kw)


@pytest.fixture(scope="module")
def gpt2_dir(tmp_path_factory, make_tiny_gpt2):
    return make_tiny_gpt2(tmp_path_factory.mktemp("lm-gpt2"), GRAMMATICAL, seed=5)


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory):
    from tokenizers import processors

    torch.manual_seed(6)
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tokenizer = _tokenizer(
        specials, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]"
    )
    tokenizer.backend_tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    config = transformers.BertConfig(
        vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64
    )
    path = tmp_path_factory.mktemp("lm-bert")
    tokenizer.save_pretrained(path)
    transformers.BertForMaskedLM(config).save_pretrained(path)
    return str(path)


def direct_mtp(path: str, sentence: str) -> float:
    """mtp by hand: the whole model, the whole vocabulary, one sentence."""
    model = transformers.AutoModelForCausalLM.from_pretrained(path).eval()
    tokenizer = transformers.AutoTokenizer.from_pretrained(path)
    eot = tokenizer.convert_tokens_to_ids("<|endoftext|>")
    seq = [eot, *tokenizer(sentence, add_special_tokens=False)["input_ids"], eot]
    with torch.no_grad():
        logits = model(input_ids=torch.tensor([seq[:-1]])).logits[0]
    probs = torch.softmax(logits.double(), dim=-1)
    return float(np.mean([probs[k, t].item() for k, t in enumerate(seq[1:])]))


def test_the_head_is_found_and_gives_the_models_numbers(gpt2_dir, bert_dir):
    causal = LanguageModelScorer(gpt2_dir, device="cpu", cache=False)
    got = causal.sentence_scores(VARIED)
    np.testing.assert_allclose(got, [direct_mtp(gpt2_dir, s) for s in VARIED], rtol=0, atol=1e-6)
    loaded = lm._MODELS[(gpt2_dir, "causal", "cpu", "float32")]
    assert loaded.checked and loaded.head is loaded.model.lm_head and loaded.body is loaded.model.transformer
    # every row starts with <|endoftext|>: its state is computed once and shared
    assert loaded.start == loaded.tokenizer.convert_tokens_to_ids("<|endoftext|>") and loaded.start_cache is not None
    masked = LanguageModelScorer(bert_dir, kind="masked", device="cpu", cache=False)
    masked.sentence_scores(VARIED[:2])
    loaded = lm._MODELS[(bert_dir, "masked", "cpu", "float32")]
    # BERT's output embeddings are only the last layer of its head: the check picks the whole head
    assert loaded.head is loaded.model.cls and loaded.head is not loaded.model.get_output_embeddings()


@pytest.mark.parametrize("kind", ["causal", "masked"])
def test_whole_model_path_and_one_position_at_a_time_agree(kind, gpt2_dir, bert_dir, monkeypatch):
    path = gpt2_dir if kind == "causal" else bert_dir
    default = LanguageModelScorer(path, kind=kind, device="cpu", cache=False).sentence_scores(VARIED)
    monkeypatch.setattr(forward, "HEAD_BUDGET", 1)  # one position's vocabulary at a time
    one_at_a_time = LanguageModelScorer(path, kind=kind, device="cpu", cache=False).sentence_scores(VARIED)
    np.testing.assert_allclose(one_at_a_time, default, rtol=0, atol=1e-7)
    loaded = lm._MODELS[(path, kind, "cpu", "float32")]
    loaded.start = None  # every row from its own start token
    own_start = LanguageModelScorer(path, kind=kind, device="cpu", cache=False).sentence_scores(VARIED)
    np.testing.assert_allclose(own_start, default, rtol=0, atol=1e-7)
    lm.clear_cache()  # reload, and this time find no head: the model runs whole
    monkeypatch.setattr(lm, "inspect_model", lambda loaded, sample, device, start: setattr(loaded, "checked", True))
    whole = LanguageModelScorer(path, kind=kind, device="cpu", cache=False).sentence_scores(VARIED)
    assert lm._MODELS[(path, kind, "cpu", "float32")].head is None
    np.testing.assert_allclose(whole, default, rtol=0, atol=1e-7)
    lm.clear_cache()


def test_bfloat16_is_close_and_kept_apart(gpt2_dir):
    full = LanguageModelScorer(gpt2_dir, device="cpu")
    half = LanguageModelScorer(gpt2_dir, device="cpu", dtype="bf16")
    assert half.dtype == "bfloat16" and half.model.dtype == torch.bfloat16
    assert full.namespace != half.namespace and ":bfloat16:cpu:" in half.namespace
    a, b = full.sentence_scores(VARIED), half.sentence_scores(VARIED)
    assert half.sentences_scored == len(VARIED)  # not taken from the float32 scores
    np.testing.assert_allclose(b, a, rtol=0.05)
    assert not np.array_equal(a, b)


def test_scores_are_reused_and_duplicates_scored_once(gpt2_dir, tmp_path):
    scorer = LanguageModelScorer(gpt2_dir, device="cpu")
    first = scorer.sentence_scores(["eat .", "go", "eat ."])
    assert (scorer.sentences_scored, scorer.sentences_reused) == (2, 1)
    assert first[0] == first[2]
    other = LanguageModelScorer(gpt2_dir, device="cpu", max_tokens=7)  # same model and dtype: same scores
    again = other.sentence_scores(["go", "boy the"])
    assert (other.sentences_scored, other.sentences_reused) == (1, 1)
    assert again[0] == first[1]
    off = LanguageModelScorer(gpt2_dir, device="cpu", cache=False)
    off.sentence_scores(["go", "go"])
    assert (off.sentences_scored, off.sentences_reused) == (1, 1)
    # on disk: a fresh cache object on the same folder (as a new process would) scores nothing again
    disk = LanguageModelScorer(gpt2_dir, device="cpu", cache=tmp_path)
    stored = disk.sentence_scores(VARIED)
    reread = LanguageModelScorer(gpt2_dir, device="cpu", cache=ResultCache(tmp_path))
    assert reread.sentence_scores(VARIED).tolist() == stored.tolist() and reread.sentences_scored == 0


def test_a_changed_model_folder_is_scored_again(gpt2_dir, tmp_path):
    import shutil

    copy = tmp_path / "model"
    shutil.copytree(gpt2_dir, copy)
    before = LanguageModelScorer(str(copy), device="cpu")
    old = before.sentence_scores(VARIED[:2])
    torch.manual_seed(99)
    config = transformers.AutoConfig.from_pretrained(copy)
    transformers.GPT2LMHeadModel(config).save_pretrained(copy)  # new weights, same path
    lm.clear_cache(scores=False)
    after = LanguageModelScorer(str(copy), device="cpu")
    assert after.namespace != before.namespace
    new = after.sentence_scores(VARIED[:2])
    assert after.sentences_scored == 2 and not np.allclose(new, old)


def test_get_scorer_keeps_one_scorer_per_setting(gpt2_dir):
    a = get_scorer(gpt2_dir, "causal", "cpu")
    assert get_scorer(gpt2_dir, device="cpu") is a and a.max_tokens == lm.DEFAULT_MAX_TOKENS == 512
    b = get_scorer(gpt2_dir, "causal", "cpu", max_tokens=64)
    assert b is not a and b.model is a.model
    assert get_scorer(gpt2_dir, "causal", "cpu", cache=False).cache is None
    with pytest.raises(InputError, match="max_tokens must be a positive integer"):
        LanguageModelScorer(gpt2_dir, max_tokens=0)


def test_auto_device_here():
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    if not torch.cuda.is_available() and getattr(torch.backends, "mps", None) and torch.backends.mps.is_available():
        expected = "mps"
    assert lm.resolve_device(None) == expected and lm.resolve_device("auto") == expected
    assert lm.resolve_device("cpu") == "cpu"


def test_odd_devices_and_an_empty_cache_name_are_errors():
    for device in ("meta", "hpu", "xpu", "gpu"):
        with pytest.raises(InputError, match=f"unknown device '{device}'"):
            lm.resolve_device(device)
    with pytest.raises(InputError, match="cache is an empty string"):
        resolve_cache("  ")


def test_a_stored_value_of_another_kind_is_an_error(tmp_path):
    import sqlite3

    cache = ResultCache(tmp_path)
    with sqlite3.connect(cache.path) as db:
        db.executemany("INSERT INTO entries VALUES (?, ?, ?)", [("form:x", "a", '"abc"'), ("form:x", "b", "not json")])
    for text in ("a", "b"):
        with pytest.raises(InputError, match="the MFβ cache cannot be used"):
            ResultCache(tmp_path).get("form:x", [text])


def test_damaged_weights_are_named(gpt2_dir, tmp_path):
    import shutil

    copy = tmp_path / "damaged"
    shutil.copytree(gpt2_dir, copy)
    (copy / "model.safetensors").write_bytes(b"\x00" * 64)
    with pytest.raises(InputError, match="damaged: cannot load it as a causal language model"):
        LanguageModelScorer(str(copy), device="cpu", cache=False).sentence_scores(["go"])

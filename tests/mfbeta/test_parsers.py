"""Tests of amreval.mfbeta.parsers: the parser interface, failure accounting, amrlib models."""

from __future__ import annotations

import importlib.util
import itertools
import json
import logging
from pathlib import Path

import pytest

from amreval.amr.read import loads_graph
from amreval.errors import AmrevalError, InputError, MissingDependencyError
from amreval.mfbeta import parsers
from amreval.mfbeta.parsers import (
    AmrlibParser,
    CallableParser,
    Parser,
    ParseResult,
    clear_parser_cache,
    get_parser,
    parse_sentences,
)

WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
SLEEP = "(s / sleep-01 :ARG0 (g / girl))"


def table_parser(table: dict[str, str | None]):
    """A parser function that looks each sentence up in ``table``."""

    def parse(sentences: list[str]) -> list[str | None]:
        return [table[s] for s in sentences]

    return parse


# --------------------------------------------------------------- callables


def test_callable_parser_returns_graphs_in_order():
    result = parse_sentences(table_parser({"a": WANT, "b": SLEEP}), ["b", "a", "b"])
    assert isinstance(result, ParseResult)
    assert result.failures == []
    assert result.penman == [SLEEP, WANT, SLEEP]
    assert [g.top for g in result.graphs] == ["s", "w", "s"]
    assert result.graphs[1].instances == {"w": "want-01", "b": "boy", "g": "go-02"}
    assert len(result.graphs[1].edges) == 3
    assert [g.metadata["snt"] for g in result.graphs] == ["b", "a", "b"]
    assert result.failure_rate == 0.0


def test_failures_get_the_dummy_graph_at_their_indices():
    table = {
        "ok1": WANT,
        "none": None,
        "empty": "",
        "blank": "  \n ",
        "malformed": "(a / b",
        "prose": "not a graph",
        "two": "(a / b) (c / d)",
        "rootless": "()",
        "ok2": SLEEP,
    }
    sentences = list(table)
    result = parse_sentences(table_parser(table), sentences)
    assert result.failures == [1, 2, 3, 4, 5, 6, 7]
    assert len(result.graphs) == len(result.penman) == 9
    for i in result.failures:
        # the MFβ authors' one-node dummy, with the sentence as ::snt
        g = result.graphs[i]
        assert (g.top, g.instances, g.edges, g.attributes) == ("er", {"er": "serialization-error"}, [], [])
        assert g.metadata == {"snt": sentences[i]}
        assert result.penman[i] is None
    assert result.graphs[0].top == "w" and result.graphs[8].top == "s"
    assert result.penman[0] == WANT and result.penman[8] == SLEEP
    assert result.failure_rate == pytest.approx(7 / 9)


def test_the_dummy_graph_is_the_authors_penman():
    from amreval.mfbeta.parsers import FAILED_PARSE, failed_parse_graph

    assert FAILED_PARSE == "(er / serialization-error)"
    dummy, decoded = failed_parse_graph(), loads_graph(FAILED_PARSE)
    assert (dummy.top, dummy.instances, dummy.edges, dummy.attributes, dummy.metadata) == (
        "er",
        decoded.instances,
        [],
        [],
        {},
    )
    assert decoded.instances == {"er": "serialization-error"}
    # each call gives a graph of its own, so that the sentence stored in one never shows in another
    assert failed_parse_graph("a") is not failed_parse_graph("a")


def test_failures_are_logged_at_debug_level(caplog):
    with caplog.at_level(logging.DEBUG, logger="amreval.mfbeta.parsers"):
        parse_sentences(lambda s: [None, "(x / y)", "(x"], ["a", "b", "c"])
    messages = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(messages) == 2
    assert messages[0] == "parse of sentence #1 failed: the parser returned None"
    assert messages[1].startswith("parse of sentence #3 failed: the output does not decode: ")
    assert "malformed PENMAN" in messages[1]


def test_unbound_variable_is_a_success_without_warning():
    # pytest turns AmrevalWarning into an error: this passes only if it is silenced
    result = parse_sentences(lambda s: ["(a / want-01 :ARG0 x)"], ["a"])
    assert result.failures == []
    assert result.graphs[0].attributes[0].value == "x"


def test_prose_naming_an_existing_path_is_a_failure_not_a_file_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "graph").write_text(WANT)
    result = parse_sentences(lambda s: ["graph", "/"], ["a", "b"])
    assert result.failures == [0, 1]


def test_length_mismatch_names_both_lengths():
    with pytest.raises(InputError, match=r"returned 1 results for 2 sentences \(expected 2\)"):
        parse_sentences(lambda s: ["(x / y)"], ["a", "b"])
    with pytest.raises(InputError, match="returned 3 results for 2 sentences"):
        CallableParser(lambda s: [None] * 3).parse(["a", "b"])


def test_a_parser_object_with_wrong_length_is_caught_too():
    class Short:
        def parse(self, sentences):
            return sentences[1:]

    with pytest.raises(
        InputError, match=r"returned 1 results for the 2 sentences of the batch starting at sentence #1"
    ):
        parse_sentences(Short(), ["(a / b)", "(c / d)"])


def test_non_string_output_is_an_input_error():
    with pytest.raises(InputError, match="returned a int for sentence #2"):
        parse_sentences(lambda s: ["(x / y)", 3], ["a", "b"])
    with pytest.raises(InputError, match="got str"):
        CallableParser(lambda s: "(x / y)").parse(["a"])


@pytest.mark.parametrize("bad, index", [(["a", "", "c"], 1), (["a", "b", "   "], 2), ([""], 0)])
def test_empty_sentence_names_its_index(bad, index):
    calls = []
    with pytest.raises(InputError, match=rf"^sentence #{index + 1} is empty$"):
        parse_sentences(lambda s: calls.append(s) or [None] * len(s), bad)
    assert calls == []


def test_single_string_is_refused():
    with pytest.raises(InputError, match="not a single string"):
        parse_sentences(lambda s: [None] * len(s), "The boy wants to go.")


def test_empty_input_gives_empty_result_without_calling_the_parser():
    calls = []
    result = parse_sentences(lambda s: calls.append(s) or [], [])
    assert result == ParseResult([], [], [])
    assert len(result) == 0 and result.failure_rate == 0.0
    assert calls == []


def test_parser_exception_is_wrapped_with_parser_and_batch_start():
    def flaky(sentences):
        if "boom" in sentences:
            raise RuntimeError("out of memory")
        return ["(x / y)"] * len(sentences)

    with pytest.raises(
        AmrevalError, match=r"flaky.*batch starting at sentence #5.*RuntimeError: out of memory"
    ) as info:
        parse_sentences(flaky, ["a", "b", "c", "d", "boom", "f"], batch_size=2)
    assert isinstance(info.value.__cause__, RuntimeError)
    assert not isinstance(info.value, InputError)


def test_batches_are_chunks_of_batch_size():
    calls: list[list[str]] = []

    def record(sentences):
        calls.append(list(sentences))
        return [f"(x / s{len(calls)})" for _ in sentences]

    sentences = [f"s{i}" for i in range(7)]
    result = parse_sentences(record, sentences, batch_size=3)
    assert calls == [["s0", "s1", "s2"], ["s3", "s4", "s5"], ["s6"]]
    assert [g.instances["x"] for g in result.graphs] == ["s1"] * 3 + ["s2"] * 3 + ["s3"]
    assert result.failures == []


def test_failure_indices_are_global_across_batches():
    sentences = [f"s{i}" for i in range(5)]
    result = parse_sentences(lambda b: [None if s in ("s1", "s4") else "(a / b)" for s in b], sentences, batch_size=2)
    assert result.failures == [1, 4]


def test_batch_size_below_one_is_refused():
    with pytest.raises(InputError, match="batch_size must be at least 1, got 0"):
        parse_sentences(lambda s: s, ["a"], batch_size=0)


def test_progress_bar_runs(capsys):
    result = parse_sentences(lambda s: ["(a / b)"] * len(s), ["x", "y", "z"], batch_size=2, progress=True)
    assert result.failures == []
    assert "parsing" in capsys.readouterr().err


def test_get_parser_dispatch():
    class Own:
        def parse(self, sentences):
            return [None] * len(sentences)

    own = Own()
    assert get_parser(own) is own
    assert isinstance(own, Parser)
    wrapped = get_parser(len)
    assert isinstance(wrapped, CallableParser) and wrapped.func is len
    assert repr(wrapped) == "CallableParser(len)"
    with pytest.raises(TypeError, match="got int"):
        get_parser(3)  # type: ignore[arg-type]


# ------------------------------------------------------------ model paths


def test_folder_without_meta_is_an_input_error(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(InputError, match=rf"{tmp_path}.*amrlib_meta\.json"):
        get_parser(tmp_path)
    with pytest.raises(InputError, match="not a directory"):
        get_parser(tmp_path / "missing")
    with pytest.raises(InputError, match="amrlib_meta.json"):
        parse_sentences(str(tmp_path), ["A sentence."])


def test_missing_amrlib_is_reported(tmp_path, monkeypatch):
    (tmp_path / "amrlib_meta.json").write_text("{}")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "amrlib" else real(name, *a))
    with pytest.raises(
        MissingDependencyError,
        match=r"amrlib is needed for parsing with an amrlib model: pip install 'amreval\[parser\]'",
    ):
        AmrlibParser(tmp_path)


def test_missing_unidecode_is_reported(tmp_path, monkeypatch):
    (tmp_path / "amrlib_meta.json").write_text("{}")
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: object() if name == "amrlib" else (None if name == "unidecode" else real(name, *a)),
    )
    with pytest.raises(
        MissingDependencyError, match=r"unidecode is needed.*does not declare it.*amreval\[parser\]"
    ) as info:
        get_parser(tmp_path, batch_size=5)
    assert info.value.name == "unidecode"


# ----------------------------------------------------------- amrlib model


def _need_amrlib() -> None:
    for module in ("amrlib", "torch", "transformers", "tokenizers", "unidecode"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install 'amreval[parser]' torch transformers)")


TOKENIZER_CORPUS = [
    "( want-01 :ARG0 ( boy ) :ARG1 ( go-02 :ARG0 boy ) )",
    "( sleep-01 :ARG0 ( girl ) :polarity - )",
    "The boy wants to go .",
    "The girl does not sleep .",
]
# the token chain the wired model emits, whatever the sentence
WIRED_CHAIN = ["</s>", "(", "sleep-01", ":polarity", "-", ")", "</s>"]


def build_amrlib_model(folder: Path, *, wired: bool) -> Path:
    """Save a tiny BART in amrlib's parse_xfm model-folder layout (no downloads).

    The model folder holds ``amrlib_meta.json`` beside what ``save_pretrained``
    writes (``config.json`` with ``task_specific_params.parse_amr``,
    ``generation_config.json``, ``model.safetensors``) and a word-level
    tokenizer trained on the spot (``tokenizer.json``, ``tokenizer_config.json``).

    With ``wired=False`` the weights are random and the output is garbage.
    With ``wired=True`` every attention and feed-forward output of the decoder
    is zeroed, so its state depends only on the previous token; one-hot
    embeddings and an output matrix mapping each token of ``WIRED_CHAIN`` to
    the next make greedy and beam search emit ``( sleep-01 :polarity - )``.
    """
    import torch
    from tokenizers import (
        Tokenizer,
        decoders,
        models,
        pre_tokenizers,
        processors,
        trainers,
    )
    from transformers import (
        BartConfig,
        BartForConditionalGeneration,
        PreTrainedTokenizerFast,
    )

    raw = Tokenizer(models.WordLevel(unk_token="<unk>"))
    raw.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    raw.train_from_iterator(
        TOKENIZER_CORPUS, trainers.WordLevelTrainer(special_tokens=["<pad>", "<s>", "</s>", "<unk>"])
    )
    raw.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 2)])
    raw.decoder = decoders.WordPiece(prefix="##")  # joins word-level tokens with spaces
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw, pad_token="<pad>", bos_token="<s>", eos_token="</s>", unk_token="<unk>"
    )
    tokenizer.save_pretrained(folder)
    vocab = len(tokenizer)
    d_model = 32
    assert vocab <= d_model  # one-hot embeddings for the wired model
    config = BartConfig(
        vocab_size=vocab,
        d_model=d_model,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
        max_position_embeddings=64,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=2,
        tie_word_embeddings=not wired,
        task_specific_params={
            "parse_amr": {
                "max_in_len": 32,
                "max_out_len": 24,
                "model_name_or_path": str(folder),
                "tok_name_or_path": str(folder),
            }
        },
    )
    torch.manual_seed(0)
    model = BartForConditionalGeneration(config)
    if wired:
        ids = tokenizer.convert_tokens_to_ids(WIRED_CHAIN)
        assert tokenizer.unk_token_id not in ids
        decoder = model.model.decoder
        with torch.no_grad():
            decoder.embed_tokens.weight.copy_(torch.eye(vocab, d_model))
            decoder.embed_positions.weight.zero_()
            for layer in decoder.layers:
                for linear in (layer.self_attn.out_proj, layer.encoder_attn.out_proj, layer.fc2):
                    linear.weight.zero_()
                    linear.bias.zero_()
            model.lm_head.weight.zero_()
            for current, following in itertools.pairwise(ids):
                model.lm_head.weight[following, current] = 10.0
            model.final_logits_bias.zero_()
    model.save_pretrained(folder)
    meta = {
        "model_type": "stog",
        "version": "0.0.1",
        "inference_module": ".parse_xfm.inference",
        "inference_class": "Inference",
        "model_fn": "model.safetensors",
        "kwargs": {"num_beams": 2},
    }
    (folder / "amrlib_meta.json").write_text(json.dumps(meta, indent=2))
    return folder


@pytest.fixture(scope="module")
def tiny_amrlib_model(tmp_path_factory) -> Path:
    """A random BART in amrlib's model-folder layout."""
    _need_amrlib()
    return build_amrlib_model(tmp_path_factory.mktemp("model_parse_random"), wired=False)


@pytest.fixture(scope="module")
def wired_amrlib_model(tmp_path_factory) -> Path:
    """A BART in amrlib's model-folder layout that always emits one fixed graph."""
    _need_amrlib()
    return build_amrlib_model(tmp_path_factory.mktemp("model_parse_wired"), wired=True)


def test_amrlib_model_parses_or_fails_cleanly(tiny_amrlib_model):
    clear_parser_cache()
    parser = get_parser(tiny_amrlib_model, device="cpu", batch_size=2)
    assert isinstance(parser, AmrlibParser)
    assert not parser.loaded
    sentences = ["The boy wants to go.", "The girl does not sleep.", "Colourless green ideas sleep furiously."]
    result = parse_sentences(tiny_amrlib_model, sentences, device="cpu", batch_size=2)
    assert parser.loaded
    n = len(sentences)
    assert len(result.graphs) == len(result.penman) == n
    assert set(result.failures) <= set(range(n))
    assert result.failures == sorted(set(result.failures))
    for i in range(n):
        assert result.graphs[i].metadata["snt"] == sentences[i]
        if i in result.failures:
            assert result.penman[i] is None and result.graphs[i].instances == {"er": "serialization-error"}
        else:
            text = result.penman[i]
            assert isinstance(text, str)
            assert loads_graph(text).top == result.graphs[i].top is not None


def test_wired_amrlib_model_gives_exact_graphs(wired_amrlib_model):
    sentences = ["The boy wants to go.", "Rain.", "The girl does not sleep."]
    result = parse_sentences(wired_amrlib_model, sentences, device="cpu", batch_size=2)
    assert result.failures == []
    assert result.penman == ["(s / sleep-01\n      :polarity -)"] * 3
    for graph, sentence in zip(result.graphs, sentences):
        assert graph.top == "s"
        assert graph.instances == {"s": "sleep-01"}
        assert [(a.source, a.role, a.value) for a in graph.attributes] == [("s", "polarity", "-")]
        assert graph.metadata == {"snt": sentence}


def test_amrlib_parser_direct_call_and_empty_list(tiny_amrlib_model):
    parser = AmrlibParser(tiny_amrlib_model, batch_size=4, device="cpu", num_beams=1)
    assert parser.parse([]) == []
    assert not parser.loaded
    out = parser.parse(["The boy sleeps."])
    assert len(out) == 1 and (out[0] is None or isinstance(out[0], str))
    assert "# ::snt" not in (out[0] or "")


def test_amrlib_parsers_are_cached_per_path_device_and_batch_size(tiny_amrlib_model):
    clear_parser_cache()
    first = get_parser(tiny_amrlib_model, device="cpu")
    assert get_parser(str(tiny_amrlib_model), device="cpu") is first
    assert get_parser(tiny_amrlib_model / ".." / tiny_amrlib_model.name, device="cpu") is first
    assert get_parser(tiny_amrlib_model, device="cpu", batch_size=3) is not first
    assert get_parser(tiny_amrlib_model) is not first
    clear_parser_cache()
    assert get_parser(tiny_amrlib_model, device="cpu") is not first


def test_broken_amrlib_folder_is_an_amreval_error(tmp_path):
    _need_amrlib()
    (tmp_path / "amrlib_meta.json").write_text(
        json.dumps({"inference_module": ".parse_xfm.inference", "inference_class": "Inference", "model_fn": "x"})
    )
    parser = AmrlibParser(tmp_path, device="cpu")
    with pytest.raises(AmrevalError, match="could not load the amrlib model"):
        parse_sentences(parser, ["A sentence."])
    assert not parser.loaded


def test_module_imports_without_heavy_dependencies():
    import subprocess
    import sys

    code = (
        "import sys, amreval.mfbeta.parsers; "
        "print(sorted(m for m in ('torch', 'transformers', 'amrlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert parsers.__all__

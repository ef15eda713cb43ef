"""compute_metrics for Seq2SeqTrainer: decoding, the repair counted, Smatch and DocSmatch, a real Trainer run."""

from __future__ import annotations

import importlib.util
import sys
import time
import warnings
from pathlib import Path

import pytest

from amreval import read_graphs, smatch
from amreval.amr.linearize import linearize
from amreval.errors import AmrevalWarning, InputError
from amreval.hub.trainer import decode_generations, make_compute_metrics, score_generations

ROOT = Path(__file__).resolve().parents[2]
WANT = "(w / want-01 :ARG0 (b / boy))"
GO = "(g / go-02 :ARG0 (g2 / girl))"
DOC = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"


def test_repair_scores_the_prefix_and_counts_it():
    generations = ["(w / want-01 :ARG0 (b / boy", "(g / go-02 :ARG0", "(("]
    references = [WANT, GO, GO]
    with pytest.warns(UserWarning, match="1 of 3 predicted graphs could not be read"):
        out = score_generations(generations, references)
    # want: 4 of 4; go: (g / go-02), 2 of the 4 gold triples; "((" nothing: 0 of 4
    assert (out["smatch_match"], out["smatch_test"], out["smatch_gold"]) == (6, 6, 12)
    assert (out["smatch_n_generations"], out["smatch_n_intact"], out["smatch_n_repaired"]) == (3, 0, 2)
    assert (out["smatch_n_unreadable"], out["smatch_n_pairs"], out["smatch_f1"]) == (1, 3, 2 * 0.5 / 1.5)
    with pytest.warns(UserWarning, match="3 of 3 predicted graphs could not be read"):
        strict = score_generations(generations, references, repair=False, prefix="dev")
    assert (strict["dev_match"], strict["dev_test"], strict["dev_gold"], strict["dev_f1"]) == (0, 0, 12, 0.0)
    assert (strict["dev_n_intact"], strict["dev_n_repaired"], strict["dev_n_unreadable"]) == (0, 0, 3)
    assert all(isinstance(v, (int, float)) for v in out.values())


def test_spring_generations_are_read_back_and_scored():
    generations = [linearize(WANT, "spring"), "( <pointer:0> go-02 :ARG0 ( <pointer:1> girl"]
    out = score_generations(generations, [WANT, GO], linearization="spring")
    assert (out["smatch_match"], out["smatch_gold"], out["smatch_n_intact"], out["smatch_n_repaired"]) == (8, 8, 1, 1)


def test_documents_score_docsmatch_with_the_coreference_sub_score():
    cut = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02"
    out = score_generations([cut], [DOC], metric="docsmatch")
    # 4 instances, snt1, snt2, ARG0 of want, TOP: 8 of the 9 gold triples; the boy of both sentences is not there
    assert (out["docsmatch_match"], out["docsmatch_test"], out["docsmatch_gold"]) == (8, 8, 9)
    assert (out["docsmatch_coref_match"], out["docsmatch_coref_test"], out["docsmatch_coref_f1"]) == (0, 0, 0.0)
    assert "docsmatch_coref_precision" not in out  # nothing to score: left out, its counts kept
    assert out["docsmatch_n_repaired"] == 1
    # a document given as its sentences: one generation a sentence, in order
    sentences = [[WANT, "(g / go-02 :ARG0 (b / boy))"]]
    out = score_generations([WANT, "(g / go-02 :ARG0"], sentences)
    # the document node, snt1, snt2, TOP, 3 + 1 of the sentences': 8 of 10
    assert (out["docsmatch_match"], out["docsmatch_gold"], out["docsmatch_n_pairs"]) == (8, 10, 1)
    assert (out["docsmatch_n_generations"], out["docsmatch_n_intact"], out["docsmatch_n_repaired"]) == (2, 1, 1)


def test_generations_that_do_not_follow_the_references_are_named():
    with pytest.raises(InputError, match="3 generations but 2 references"):
        score_generations([WANT] * 3, [WANT, GO])
    with pytest.raises(InputError, match="1 generations but 2 sentences in the reference documents"):
        score_generations([WANT], [[WANT, GO]])
    with pytest.raises(InputError, match="unknown metric 'bleu'"):
        score_generations([WANT], [WANT], metric="bleu")
    with pytest.raises(InputError, match="unknown linearization 'bfs'"):
        make_compute_metrics(None, [WANT], linearization="bfs")


class _Pieces:
    """A tokenizer of whole pieces: ``batch_decode`` joins them, leaving out the pad (id 0)."""

    pad_token_id = 0
    pieces = ["<pad>", "(w / want-01", " :ARG0", " (b / boy)", ")", "(g / go-02", " (g2 / girl)"]

    def batch_decode(self, rows, skip_special_tokens=True):
        return ["".join(self.pieces[i] for i in row if not (skip_special_tokens and i == 0)) for row in rows]


def test_decoding_reads_minus_100_as_padding_and_logits_as_their_best_tokens():
    numpy = pytest.importorskip("numpy")
    ids = [[1, 2, 3, 4, -100, -100], [5, 2, 6, 4, 0, 0]]
    assert decode_generations(_Pieces(), ids) == [WANT, GO]
    logits = numpy.eye(7)[numpy.array([[1, 2, 3, 4], [5, 2, 6, 4]])]
    assert decode_generations(_Pieces(), (logits, "extra output")) == [WANT, GO]


def test_compute_metrics_takes_an_eval_prediction_and_reads_labels_without_references():
    pytest.importorskip("numpy")
    predictions = [[1, 2, 3, -100], [5, 2, 6, 4]]  # the first cut before its last bracket
    labels = [[1, 2, 3, 4], [5, 2, 6, 4]]
    with_refs = make_compute_metrics(_Pieces(), [WANT, GO])((predictions, labels))
    from_labels = make_compute_metrics(_Pieces())((predictions, labels))
    assert with_refs == from_labels
    assert (with_refs["smatch_f1"], with_refs["smatch_n_intact"], with_refs["smatch_n_repaired"]) == (1.0, 1, 1)


# --- a real Seq2SeqTrainer ---------------------------------------------------------------------------


def _tiny_bart(texts: list[str]):
    """A tiny random BART and a byte-level BPE tokenizer trained on ``texts`` (no model hub)."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import BartConfig, BartForConditionalGeneration, PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=400,
            special_tokens=["<pad>", "<s>", "</s>", "<unk>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        ),
    )
    tok.post_processor = processors.TemplateProcessing(single="<s> $A </s>", special_tokens=[("<s>", 1), ("</s>", 2)])
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", bos_token="<s>", eos_token="</s>", unk_token="<unk>"
    )
    torch.manual_seed(0)
    config = BartConfig(
        vocab_size=len(tokenizer),
        d_model=32,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=64,
        decoder_ffn_dim=64,
        max_position_embeddings=128,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=2,
        forced_eos_token_id=2,
    )
    return BartForConditionalGeneration(config), tokenizer


def _example_module():
    spec = importlib.util.spec_from_file_location("training_loop_example", ROOT / "examples" / "training_loop.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_seq2seq_trainer_evaluates_through_compute_metrics(data_dir, tmp_path):
    for package in ("torch", "transformers", "tokenizers", "datasets"):
        pytest.importorskip(package, reason=f"{package} is not installed (extras lm and hub)")
    import torch

    started = time.perf_counter()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a tiny model: threads only contend
    try:
        _train_and_evaluate(data_dir, tmp_path)
    finally:
        torch.set_num_threads(threads)
    assert time.perf_counter() - started < 60  # about 20 s with the imports on a loaded 2-core machine


def _train_and_evaluate(data_dir, tmp_path):
    example = _example_module()
    graphs = read_graphs(data_dir / "lpp" / "amr-bank-struct-v3.0.txt")
    dev = graphs[:8]
    model, tokenizer = _tiny_bart([g.metadata["snt"] for g in graphs[:200]] + [linearize(g) for g in graphs[:200]])
    trainer = example.build_trainer(
        model,
        tokenizer,
        dev,  # trained on what it is evaluated on, so that a few steps give graphs to read
        dev,
        output_dir=str(tmp_path),
        max_length=32,
        max_steps=40,
        per_device_train_batch_size=8,
        per_device_eval_batch_size=3,  # batches of different lengths: the predictions are padded with -100
        learning_rate=1e-2,
        seed=0,
        use_cpu=True,
        save_strategy="no",
        disable_tqdm=True,
    )
    seen = []
    compute = trainer.compute_metrics
    trainer.compute_metrics = lambda p: seen.append(p) or compute(p)
    trainer.train()
    out = trainer.evaluate()
    assert trainer.state.log_history[-1] == out | {"step": 40}
    names = ["precision", "recall", "f1", "match", "test", "gold", "n_pairs", "n_optimal", "n_unreadable"]
    names += ["n_unproven", "gap", "n_over_budget", "n_timed_out", "n_generations", "n_intact", "n_repaired"]
    assert {f"eval_smatch_{n}" for n in names} <= set(out)
    assert {k for k in out if k.startswith("eval_smatch_")} == {f"eval_smatch_{n}" for n in names}
    assert out["eval_smatch_n_generations"] == out["eval_smatch_n_pairs"] == 8
    assert out["eval_smatch_n_intact"] + out["eval_smatch_n_repaired"] + out["eval_smatch_n_unreadable"] == 8
    assert out["eval_smatch_gold"] == smatch(dev, dev).gold == 145
    assert out["eval_smatch_n_optimal"] == 8 and out["eval_smatch_gap"] == 0.0
    # the same numbers from the generated ids, decoded row by row without -100 and padding
    ids = seen[-1].predictions.tolist()
    assert len(ids) == 8
    texts = [tokenizer.decode([i for i in row if i >= 0], skip_special_tokens=True) for row in ids]
    again = score_generations(texts, dev)
    assert {f"eval_{k}": v for k, v in again.items()} == {k: v for k, v in out.items() if k.startswith("eval_smatch")}
    # 40 steps: graphs cut at 32 tokens, which the repair reads and the empty-graph rule scores 0
    assert out["eval_smatch_n_repaired"] >= 1 and out["eval_smatch_match"] >= 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AmrevalWarning)
        strict = score_generations(texts, dev, repair=False)
    assert strict["smatch_n_unreadable"] == 8 - out["eval_smatch_n_intact"]
    assert strict["smatch_match"] < out["eval_smatch_match"]

"""compute_metrics in a training loop: generations cut short, repaired against the empty-graph rule, and its cost.

The 200 BART parses of ``../shared/data/parses/`` are written in a linearization
(one-line PENMAN by default) and each is cut at a random character (seeded: the
cut of generation k is ``Random(seed).randrange(1, len)`` in order), as a model
stopped by ``max_length`` writes them. They are scored against the gold graphs
by :func:`amreval.hub.trainer.score_generations` with ``repair=True`` and with
``repair=False`` (the empty-graph rule), beside the uncut parses.

The cost of one evaluation of the 200 generations (reading them back and
scoring, the certified search) is the median of ``--runs`` runs, set beside
the time a tiny random BART (the tests' size: d_model 32, one layer each side,
a byte-level BPE tokenizer of 400 pieces trained on the spot) takes to
generate 200 graphs of ``--max-length`` tokens each from the sentences
(greedy, every generation run to its full length, since a random model would
stop at once; batches of 32, one thread), when torch, transformers and
tokenizers are installed.

Run: ``python benchmarks/bench_trainer.py [--seed 0] [--runs 3] [--style penman] [--max-length 128]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import warnings
from pathlib import Path

from amreval import read_graphs
from amreval.amr.linearize import delinearize, linearize
from amreval.errors import AmrevalWarning
from amreval.hub.trainer import score_generations

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "parses"


def _cut(texts: list[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    return [t[: rng.randrange(1, len(t))] for t in texts]


def _line(name: str, out: dict[str, float | int]) -> str:
    return (
        f"{name:<28} F1 {100 * out['smatch_f1']:6.2f}  P {100 * out['smatch_precision']:6.2f}  "
        f"R {100 * out['smatch_recall']:6.2f}  match {out['smatch_match']:5d}  "
        f"repaired {out['smatch_n_repaired']:3d}  unreadable {out['smatch_n_unreadable']:3d}"
    )


def _generation_time(sentences: list[str], texts: list[str], max_length: int) -> float | None:
    try:
        import torch
        from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
        from transformers import BartConfig, BartForConditionalGeneration, PreTrainedTokenizerFast
    except ImportError:
        return None
    torch.set_num_threads(1)
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    specials = ["<pad>", "<s>", "</s>", "<unk>"]
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    tok.train_from_iterator(
        sentences + texts,
        trainers.BpeTrainer(vocab_size=400, special_tokens=specials, initial_alphabet=alphabet, show_progress=False),
    )
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
        max_position_embeddings=max(256, max_length + 2),
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        decoder_start_token_id=2,
    )
    model = BartForConditionalGeneration(config).eval()
    started = time.perf_counter()
    with torch.no_grad():
        for k in range(0, len(sentences), 32):
            batch = tokenizer(sentences[k : k + 32], return_tensors="pt", padding=True, truncation=True, max_length=128)
            model.generate(**batch, max_length=max_length, min_length=max_length, num_beams=1, do_sample=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--style", default="penman", choices=["penman", "spring", "amrlib"])
    parser.add_argument("--max-length", type=int, default=128)
    args = parser.parse_args()
    preds = read_graphs(DATA / "bart_sys.amr")
    gold = read_graphs(DATA / "gold.amr")
    texts = [linearize(g, args.style) for g in preds]
    cut = _cut(texts, args.seed)
    kept = sum(len(c) for c in cut) / sum(len(t) for t in texts)
    print(f"{len(texts)} BART parses as {args.style}, cut at random points (seed {args.seed}): {100 * kept:.1f}% kept")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AmrevalWarning)
        print(_line("uncut", score_generations(texts, gold, linearization=args.style)))
        print(_line("cut, repair=True", score_generations(cut, gold, linearization=args.style)))
        print(_line("cut, repair=False", score_generations(cut, gold, linearization=args.style, repair=False)))
        times, reading = [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            score_generations(cut, gold, linearization=args.style)
            times.append(time.perf_counter() - started)
            started = time.perf_counter()
            for c in cut:
                delinearize(c, args.style)
            reading.append(time.perf_counter() - started)
    print(
        f"one evaluation of {len(cut)} generations (repair=True, certified): {statistics.median(times):.3f} s "
        f"(reading back: {statistics.median(reading):.3f} s), median of {args.runs}"
    )
    generation = _generation_time([g.metadata.get("snt", "") for g in gold], texts, args.max_length)
    if generation is None:
        print("generation time: torch, transformers or tokenizers not installed")
    else:
        print(f"tiny BART generating {len(gold)} graphs of {args.max_length} tokens: {generation:.3f} s")


if __name__ == "__main__":
    main()

"""MFβ at scale: Form throughput and memory against the authors' scorer, reuse of references, workers.

Model: a randomly initialised GPT-2-small-sized model (12 layers, 768 wide,
12 heads, a 50,257-token vocabulary, 124M parameters) saved with
``save_pretrained``, with a byte-level BPE tokenizer trained on the Little
Prince text (``<|endoftext|>`` as BOS/EOS). Its scores mean nothing, its cost
is GPT-2's. It is built once into a temporary folder and reused.

Sentences: the 200 gold Little Prince sentences of ``parses/gold.amr`` are
the references; system A's generations are each reference with two
neighbouring words swapped, system B's with one word dropped (both seeded),
so every sentence differs from its reference. 200 + 200 sentences per system.

Each scorer runs in a fresh process, the scorers in turns, timed from
outside (start-up and model loading included) with its peak memory (GNU time
``%M`` when installed):

* **the authors' scorer**: MFscore's Form goes through ``lm-scorer`` 0.4.2,
  the version MFscore pins (``GPT2LMScorer``, one sentence at a time,
  ``reduce="mean"``), on the same 400 sentences, in its own virtual
  environment over this interpreter's torch and transformers (see
  :func:`peer_python`);
* **amreval**: :class:`amreval.mfbeta.lm.LanguageModelScorer` with the
  defaults (token budget 512 on a CPU), and with budgets of 2048 and 8192.

The two scorers' ``mtp`` values are compared sentence by sentence (they must
agree to float32 precision).

Reuse, in one process: MFβ of system A, then of system B against the same
references and gold AMRs (parses given: the BART and T5 parses of the same
sentences), each timed; the second must cost at most 55% of the first. And
Meaning's S²match pairs with 1 and 2 worker processes (identical results).

Run: ``python benchmarks/bench_mfbeta.py [--runs 3] [--budgets 512,2048,8192]
[--form-only]``; needs the ``lm`` extra, ``pip`` and the package index for the
peer's environment (built once; without it the peer is skipped), and
``../shared/data`` (skipped with a message when absent). Results are saved to
``benchmarks/results/mfbeta.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from _common import run_measured

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results"
MODEL_DIR = Path(tempfile.gettempdir()) / "amreval-bench-gpt2-124m-v2"


def sentences() -> tuple[list[str], list[str], list[str]]:
    """References and the two systems' generations (see the module docs)."""
    from amreval.amr.read import read_graphs

    refs = [g.metadata["snt"] for g in read_graphs(DATA / "parses" / "gold.amr")]
    rng = random.Random(0)
    system_a, system_b = [], []
    for s in refs:
        words = s.split()
        swapped = list(words)
        if len(words) > 1:
            k = rng.randrange(len(words) - 1)
            swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
        system_a.append(" ".join(swapped) if swapped != words else s + " indeed")
        dropped = list(words)
        if len(words) > 1:
            del dropped[rng.randrange(len(words))]
        system_b.append(" ".join(dropped) if len(words) > 1 else s + " !")
    return refs, system_a, system_b


def build_model() -> Path:
    """The random 124M GPT-2 and its tokenizer, built once."""
    if (MODEL_DIR / "config.json").exists():
        return MODEL_DIR
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    from amreval.amr.read import read_graphs

    text = [g.metadata.get("snt", "") for g in read_graphs(DATA / "lpp" / "amr-bank-struct-v3.0.txt")]
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=3000, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(text, trainer)
    # GPT-2's vocabulary size: entries that no merge produces fill the vocabulary up to 50,257, so that
    # len(tokenizer) matches the model (the authors' scorer resizes the model to its tokenizer)
    state = json.loads(tok.to_str())
    vocab = state["model"]["vocab"]
    filler = (f"<unused{k}>" for k in range(10**6))
    while len(vocab) < 50257:
        vocab.setdefault(next(filler), len(vocab))
    tok = Tokenizer.from_str(json.dumps(state))
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>"
    )
    eot = tokenizer.convert_tokens_to_ids("<|endoftext|>")
    torch.manual_seed(0)
    config = transformers.GPT2Config(
        n_layer=12, n_embd=768, n_head=12, vocab_size=50257, bos_token_id=eot, eos_token_id=eot
    )
    folder = MODEL_DIR.with_name(MODEL_DIR.name + f".tmp{os.getpid()}")
    tokenizer.save_pretrained(folder)
    transformers.GPT2LMHeadModel(config).save_pretrained(folder)
    folder.rename(MODEL_DIR)
    return MODEL_DIR


#: The version of the authors' scorer that MFscore pins, run in its own environment (see :func:`peer_python`).
PEER_VERSION = "0.4.2"
PEER_ENV = Path(tempfile.gettempdir()) / f"amreval-bench-lm-scorer-{PEER_VERSION}"

# lm-scorer 0.4.2 was written for transformers 2.x; on the transformers that amreval runs, four names it
# imports or calls are gone: they are put back, doing what they did there (the scoring code is its own)
_PEER = r"""
import json, sys, time
t0 = time.perf_counter()
from transformers import AutoTokenizer, GPT2LMHeadModel  # first: loading them can replace the module object
import transformers.tokenization_utils as legacy
from transformers.tokenization_utils_base import BatchEncoding, PreTrainedTokenizerBase
if not hasattr(sys.modules["transformers"], "GPT2_PRETRAINED_CONFIG_ARCHIVE_MAP"):
    names = ["gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl", "distilgpt2"]
    sys.modules["transformers"].GPT2_PRETRAINED_CONFIG_ARCHIVE_MAP = dict.fromkeys(names)
if "BatchEncoding" not in vars(legacy):
    legacy.BatchEncoding = BatchEncoding
if not hasattr(PreTrainedTokenizerBase, "batch_encode_plus"):
    PreTrainedTokenizerBase.batch_encode_plus = lambda self, text, **kw: self(text, **kw)
import lm_scorer
import lm_scorer.models.gpt2 as peer
from lm_scorer.models.gpt2 import GPT2LMScorer

class Tokenizers:  # transformers 2.x ignored from_pretrained(add_special_tokens=False); transformers 5 refuses it
    @staticmethod
    def from_pretrained(name, **kw):
        kw.pop("add_special_tokens", None)
        return AutoTokenizer.from_pretrained(name, **kw)

peer.AutoTokenizer = Tokenizers
sents = json.load(open(sys.argv[2]))
scorer = GPT2LMScorer(sys.argv[1], device="cpu", batch_size=1)
t1 = time.perf_counter()
scores = scorer.sentence_score(sents, reduce="mean")
print(json.dumps({"load_s": t1 - t0, "score_s": time.perf_counter() - t1, "scores": scores,
                  "version": __import__("importlib.metadata").metadata.version("lm-scorer")}))
"""


def peer_python() -> str | None:
    """An interpreter with lm-scorer 0.4.2 (MFscore's pin) over this interpreter's torch and transformers.

    A virtual environment under the temporary folder, built once: its own site-packages holds
    lm-scorer 0.4.2 (installed without its dependencies: it asks for torch < 2 and transformers < 3 on
    Python < 3.8), and a ``.pth`` line puts this interpreter's site-packages after it, so both scorers
    run the same torch and transformers. None (with a message) when it cannot be built.
    """
    import subprocess
    import sysconfig
    import venv

    python = PEER_ENV / "bin" / "python"
    site = PEER_ENV / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    if not (site / f"lm_scorer-{PEER_VERSION}.dist-info").is_dir():
        try:
            venv.EnvBuilder(clear=True, with_pip=False).create(PEER_ENV)
            (site / "_amreval_bench_base.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
            pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-requires-python"]
            subprocess.run([*pip, "--target", str(site), f"lm-scorer=={PEER_VERSION}"], check=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"lm-scorer {PEER_VERSION} could not be installed ({exc}): the peer is skipped", file=sys.stderr)
            return None
    return str(python)


_OURS = r"""
import json, sys, time
t0 = time.perf_counter()
from amreval.mfbeta.form import LanguageModelScorer
sents = json.load(open(sys.argv[2]))
scorer = LanguageModelScorer(sys.argv[1], device="cpu", max_tokens=int(sys.argv[3]), cache=False)
scorer.model
t1 = time.perf_counter()
scores = scorer.sentence_scores(sents, progress=False).tolist()
print(json.dumps({"load_s": t1 - t0, "score_s": time.perf_counter() - t1, "scores": scores}))
"""


def form_runs(model: Path, sents: list[str], runs: int, budgets: list[int]) -> list[dict]:
    """Whole-process runs of the peer and of ours at the token budgets, taking turns (one round of every
    scorer, then the next round), so that a change in the machine's load falls on all of them."""
    work = Path(tempfile.mkdtemp(prefix="amreval-bench-mf-"))
    file = work / "sentences.json"
    file.write_text(json.dumps(sents))
    tools: list[tuple[str, list[str]]] = []
    python = peer_python()
    if python is not None:
        label = f"authors' scorer (lm-scorer {PEER_VERSION}, one sentence at a time)"
        tools.append((label, [python, "-c", _PEER, str(model), str(file)]))
    for budget in budgets:
        label = f"amreval, token budget {budget}" + (" (default)" if budget == 512 else "")
        tools.append((label, [sys.executable, "-c", _OURS, str(model), str(file), str(budget)]))
    best: dict[str, Any] = {}
    peaks: dict[str, list[float]] = {label: [] for label, _ in tools}
    failed: set[str] = set()
    for _ in range(runs):
        for label, cmd in tools:
            if label in failed:
                continue
            run = run_measured(cmd)
            if run.status != "ok":
                print(f"{label}: {run.status}\n{run.stderr[-2000:]}", file=sys.stderr)
                failed.add(label)
                continue
            peaks[label].append(run.peak_mb)
            if label not in best or run.wall_s < best[label].wall_s:
                best[label] = run
    rows = []
    for label, _ in tools:
        if label in failed or label not in best:
            rows.append({"tool": label, "status": "failed"})
            continue
        run = best[label]
        out = json.loads(run.stdout.strip().splitlines()[-1])
        rows.append(
            {
                "tool": label,
                "whole_s": round(run.wall_s, 2),
                "load_s": round(out["load_s"], 2),
                "score_s": round(out["score_s"], 2),
                "peak_mb": round(max(peaks[label])),
                "peaks_mb": [round(p) for p in peaks[label]],
                "scores": out["scores"],
            }
        )
    return rows


def reuse_run(model: Path, refs: list[str], system_a: list[str], system_b: list[str]) -> dict:
    """MFβ of system A, then B against the same references, in one process; Meaning with 1 and 2 workers."""
    from amreval.amr.read import read_graphs
    from amreval.mfbeta import mfbeta
    from amreval.mfbeta.form import get_scorer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the parser output has undefined variables, read as constants
        gold = read_graphs(DATA / "parses" / "gold.amr")
        bart = read_graphs(DATA / "parses" / "bart_sys.amr")
        t5 = read_graphs(DATA / "parses" / "t5_sys.amr")
    kw = dict(reference_amrs=gold, lm=str(model), device="cpu", progress=False)
    mfbeta(["a b"], ["a b"], reference_amrs=[gold[0]], prediction_amrs=[gold[0]], lm=str(model), progress=False)
    scorer = get_scorer(str(model), device="cpu")
    from amreval.mfbeta.cache import MEMORY

    MEMORY.clear()
    before = scorer.sentences_scored
    t0 = time.perf_counter()
    first = mfbeta(system_a, refs, prediction_amrs=bart, **kw)
    t1 = time.perf_counter()
    scored_first = scorer.sentences_scored - before
    second = mfbeta(system_b, refs, prediction_amrs=t5, **kw)
    t2 = time.perf_counter()
    scored_second = scorer.sentences_scored - before - scored_first
    w1 = time.perf_counter()
    one = mfbeta(system_a, refs, prediction_amrs=bart, num_workers=1, **kw)
    w2 = time.perf_counter()
    two = mfbeta(system_a, refs, prediction_amrs=bart, num_workers=2, **kw)
    w3 = time.perf_counter()
    return {
        "first_s": round(t1 - t0, 2),
        "second_s": round(t2 - t1, 2),
        "ratio": round((t2 - t1) / (t1 - t0), 3),
        "lm_sentences_first": scored_first,
        "lm_sentences_second": scored_second,
        "mf_a": first.mf_beta,
        "mf_b": second.mf_beta,
        "workers_1_s": round(w2 - w1, 2),
        "workers_2_s": round(w3 - w2, 2),
        "workers_identical": one.as_dict(per_example=True) == two.as_dict(per_example=True),
    }


def markdown(form: list[dict], reuse: dict | None, agree: float | None, load: str = "") -> str:
    peer = next((r for r in form if r["tool"].startswith("authors") and "whole_s" in r), None)
    lines = [
        "| scorer (400 sentences, 124M random GPT-2, CPU) | whole process | scoring | peak memory | vs. authors |",
        "|---|---|---|---|---|",
    ]
    for r in form:
        if "whole_s" not in r:
            lines.append(f"| {r['tool']} | {r['status']} | | | |")
            continue
        ratio = f"{peer['whole_s'] / r['whole_s']:.2f}× faster" if peer and r is not peer else ""
        lines.append(f"| {r['tool']} | {r['whole_s']:.2f} s | {r['score_s']:.2f} s | {r['peak_mb']} MB | {ratio} |")
    lines.append("")
    ours = next((r for r in form if "(default)" in r["tool"] and "whole_s" in r), None)
    if peer and ours:
        speed, memory = peer["whole_s"] / ours["whole_s"], ours["peak_mb"] <= peer["peak_mb"]
        met = "met" if speed >= 2 and memory else "not met"
        lines.append(
            f"Target (Form ≥ 2× faster than the authors' scorer, whole process, at no more than its peak memory): "
            f"{met}: {speed:.2f}×, {ours['peak_mb']} MB against {peer['peak_mb']} MB."
        )
        lines.append("")
    if agree is not None:
        lines.append(f"Largest difference of mtp between the authors' scorer and amreval: {agree:.2e}.")
        lines.append("")
    if load:
        lines += [load, ""]
    if reuse is None:
        return "\n".join(lines).rstrip("\n")
    lines += [
        "| MFβ in one process (parses given) | time | sentences the LM scored |",
        "|---|---|---|",
        f"| system A (first) | {reuse['first_s']:.2f} s | {reuse['lm_sentences_first']} |",
        f"| system B, same references | {reuse['second_s']:.2f} s | {reuse['lm_sentences_second']} |",
        f"| second / first | {reuse['ratio']:.1%} ({'met' if reuse['ratio'] <= 0.55 else 'not met'}: ≤ 55%) | |",
        "",
        f"Meaning with 1 worker: {reuse['workers_1_s']:.2f} s; with 2: {reuse['workers_2_s']:.2f} s; "
        f"identical results: {reuse['workers_identical']}.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="whole-process runs per scorer (best is kept)")
    parser.add_argument(
        "--budgets", default="512,2048,8192", help="amreval's token budgets, comma-separated (default: %(default)s)"
    )
    parser.add_argument("--form-only", action="store_true", help="only the Form runs, not the reuse runs")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",") if b.strip()]
    if not DATA.is_dir():
        print(f"skipped: {DATA} is absent (the Little Prince data)")
        return 0
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        print("skipped: the lm extra (torch, transformers) is not installed")
        return 0
    refs, system_a, system_b = sentences()
    model = build_model()
    before = os.getloadavg()
    form = form_runs(model, system_a + refs, args.runs, budgets)
    after = os.getloadavg()
    load = (
        f"Scorers run in turns, {args.runs} runs each (best time, highest peak); load average (1, 5, 15 min) "
        f"{', '.join(f'{v:.2f}' for v in before)} before and {', '.join(f'{v:.2f}' for v in after)} after."
    )
    agree = None
    peer = next((r for r in form if r["tool"].startswith("authors") and "scores" in r), None)
    ours = next((r for r in form if "(default)" in r["tool"] and "scores" in r), None)
    if peer and ours:
        agree = max(abs(a - b) for a, b in zip(peer["scores"], ours["scores"]))
    reuse = None if args.form_only else reuse_run(model, refs, system_a, system_b)
    for r in form:
        r.pop("scores", None)
    table = markdown(form, reuse, agree, load)
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "mfbeta.json").write_text(
        json.dumps({"form": form, "reuse": reuse, "max_mtp_difference": agree}, indent=1)
    )
    (RESULTS / "mfbeta.md").write_text(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

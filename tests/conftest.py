"""Shared fixtures: the public AMR data in ../shared/data, when it is there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout; AMREVAL_SHARED names it elsewhere (for a second checkout, say)
SHARED = Path(os.environ.get("AMREVAL_SHARED") or ROOT.parent / "shared")
DATA = SHARED / "data"
REFERENCE = SHARED / "reference"


def need(path: Path) -> Path:
    """Return ``path`` or skip the test with a message saying what is missing."""
    if not path.exists():
        pytest.skip(f"public AMR data not found at {path} (expected ../shared/data beside the project)")
    return path


@pytest.fixture
def data_dir() -> Path:
    return need(DATA)


@pytest.fixture
def reference_dir() -> Path:
    return need(REFERENCE)


def build_tiny_gpt2(path: Path, texts: list[str], *, seed: int = 0, width: int = 32) -> str:
    """A tiny random GPT-2 with a byte-level BPE tokenizer trained on ``texts``, saved like a Hub model.

    Loaded through ``from_pretrained(path)`` as a user's ``gpt2`` would be. Needs the lm extra.
    """
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tok.train_from_iterator(texts, trainer)
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<|endoftext|>", eos_token="<|endoftext|>"
    )
    eot = tokenizer.convert_tokens_to_ids("<|endoftext|>")
    torch.manual_seed(seed)
    config = transformers.GPT2Config(
        n_layer=1,
        n_embd=width,
        n_head=2,
        n_positions=64,
        vocab_size=len(tokenizer),
        bos_token_id=eot,
        eos_token_id=eot,
    )
    tokenizer.save_pretrained(path)
    transformers.GPT2LMHeadModel(config).save_pretrained(path)
    return str(path)


@pytest.fixture(scope="session")
def make_tiny_gpt2():
    """:func:`build_tiny_gpt2`, for tests that need a real (tiny) causal language model."""
    pytest.importorskip("torch", reason="the lm extra (torch, transformers) is not installed")
    pytest.importorskip("transformers", reason="the lm extra (torch, transformers) is not installed")
    return build_tiny_gpt2

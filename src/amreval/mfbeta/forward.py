"""The language model's forward pass for MFβ's Form: log-probabilities of given tokens, cheaply.

:func:`target_log_probs` gives ``log p(target)`` at chosen positions of a batch
of rows (see :mod:`amreval.mfbeta.lm` for the rows of causal and masked LMs):

* **Body, then head.** The model's body (``model.base_model``) gives hidden
  states; its output head turns only the scored positions into vocabulary
  scores, at most :data:`HEAD_BUDGET` numbers at a time, each chunk reduced at
  once to ``log p(target)`` in float32 (the chunk is overwritten in place, so
  no second table of its size is made).
* **A shared start.** Every row of a causal LM begins with the same start
  token, whose hidden state and attention keys and values depend on nothing
  else. They are computed once per model and handed to each batch as the
  model's cache of past keys and values, and the vocabulary at the first
  position is reduced once: the rest of each row is computed after it.
* **Checked once per model** (:func:`inspect_model`) on a short input against
  the model's own whole forward pass: which module is the head, and whether
  the shared start gives the same numbers. What does not check out is not
  used: a model whose head is not found runs whole (its full output, reduced
  the same way), one whose cache does not fit runs each row from its start.
"""

from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass
from typing import Any

__all__ = ["HEAD_BUDGET", "LoadedModel", "Row", "inspect_model", "target_log_probs"]

#: Vocabulary scores computed at once (positions × vocabulary size); 4M floats are 16 MB (83 positions of
#: GPT-2's vocabulary). Chunks of 64 MB raised the peak resident memory of a 124M GPT-2 on a CPU by about
#: 80 MB (benchmarks/bench_mfbeta.py).
HEAD_BUDGET = 1 << 22


@dataclass
class Row:
    """One model input: the ids it reads, the positions scored and their true tokens."""

    owner: int
    ids: list[int]
    positions: list[int]
    targets: list[int]


@dataclass
class LoadedModel:
    """A loaded model and its tokenizer; once inspected, its body and head (``head`` None: run whole)
    and its shared start (``start`` None: none)."""

    model: Any
    tokenizer: Any
    checked: bool = False
    body: Any = None
    head: Any = None
    start: int | None = None
    start_state: Any = None  # the start token's log-probabilities over the vocabulary
    start_cache: Any = None  # its keys and values, batch of one
    cache_keyword: str = "past_key_values"


def _reduce(scores: Any, targets: Any) -> Any:
    """``log p(target)`` per row of a fresh (rows × vocabulary) table of scores, in float32.

    The table is overwritten (``exp`` in place): no second table of its size is made.
    """
    scores = scores.float()
    picked = scores.gather(1, targets[:, None])[:, 0]
    top = scores.amax(dim=-1, keepdim=True)
    scores.sub_(top).exp_()
    return picked - top[:, 0] - scores.sum(dim=-1).log()


def _close(a: Any, b: Any, exact: bool) -> bool:
    tolerance = (1e-4 if exact else 2e-2) * max(1.0, float(b.abs().max()))
    return a.shape == b.shape and bool(((a.float() - b.float()).abs() <= tolerance).all())


def inspect_model(loaded: LoadedModel, sample: list[int], device: str, start: int | None) -> None:
    """Find the head, and (``start``: the start token of a causal LM) set up the shared start; checked on ``sample``."""
    import torch

    loaded.checked = True
    model = loaded.model
    body = getattr(model, "base_model", None)
    if body is None or body is model:
        return
    candidates: list[Any] = []
    for head in (model.get_output_embeddings(), getattr(model, "cls", None), getattr(model, "lm_head", None)):
        if head is not None and callable(head) and all(head is not c for c in candidates):
            candidates.append(head)
    ids = torch.tensor([sample[:16]], dtype=torch.long, device=device)
    full = model(input_ids=ids).logits[0].float()
    hidden = body(input_ids=ids)[0][0]
    exact = next(model.parameters()).dtype == torch.float32
    for head in candidates:
        try:
            out = head(hidden)
        except Exception:  # a module that does not take hidden states is not the head
            continue
        if _close(out, full, exact):
            loaded.body, loaded.head = body, head
            break
    if loaded.head is None or start is None or len(ids[0]) < 2 or int(ids[0, 0]) != start:
        return
    try:
        _set_start(loaded, start, device)
        shared = target_log_probs(loaded, [Row(0, sample[:16], list(range(len(ids[0]))), [0] * len(ids[0]))], 0, device)
        plain = _reduce(full, torch.zeros(len(ids[0]), dtype=torch.long, device=device))
        if not _close(shared, plain, exact):
            raise ValueError("the shared start changes the numbers")
    except Exception:  # a model whose cache does not work this way: each row from its start
        loaded.start = loaded.start_state = loaded.start_cache = None


def _set_start(loaded: LoadedModel, start: int, device: str) -> None:
    import torch

    parameters = inspect.signature(loaded.body.forward).parameters
    loaded.cache_keyword = "cache" if "cache" in parameters else "past_key_values"
    out = loaded.body(input_ids=torch.tensor([[start]], device=device), use_cache=True)
    cache = getattr(out, "cache", None) if "cache" in out else getattr(out, "past_key_values", None)
    if cache is None or not hasattr(cache, "batch_repeat_interleave"):
        raise ValueError("no cache to share")
    logits = loaded.head(out[0][0]).float()
    loaded.start_state = torch.log_softmax(logits, dim=-1)[0]
    loaded.start_cache, loaded.start = cache, start


def target_log_probs(loaded: LoadedModel, rows: list[Row], pad: int, device: str) -> Any:
    """``log p`` of the rows' targets at their positions, flattened in row order (a float32 tensor)."""
    import torch

    width = max(len(r.ids) for r in rows)
    ids = torch.tensor([r.ids + [pad] * (width - len(r.ids)) for r in rows], dtype=torch.long, device=device)
    attention: Any = None  # no padding: the model's own (causal) attention, unmasked
    if any(len(r.ids) < width for r in rows):
        attention = torch.tensor(
            [[1] * len(r.ids) + [0] * (width - len(r.ids)) for r in rows], dtype=torch.long, device=device
        )
    rows_of = torch.tensor([b for b, r in enumerate(rows) for _ in r.positions], dtype=torch.long, device=device)
    positions = torch.tensor([p for r in rows for p in r.positions], dtype=torch.long, device=device)
    targets = torch.tensor([t for r in rows for t in r.targets], dtype=torch.long, device=device)
    out = torch.empty(len(targets), dtype=torch.float32, device=device)
    keep: Any = slice(None)  # the positions the head reduces (all but the shared first ones)
    shared = loaded.start is not None and width > 1 and all(r.ids[0] == loaded.start for r in rows)
    if shared:
        first = positions == 0
        out[first] = loaded.start_state[targets[first]]
        keep = ~first
        cache = copy.deepcopy(loaded.start_cache)
        cache.batch_repeat_interleave(len(rows))
        rest = loaded.body(
            input_ids=ids[:, 1:], attention_mask=attention, use_cache=True, **{loaded.cache_keyword: cache}
        )[0]
        states, project = rest[rows_of[keep], positions[keep] - 1], loaded.head
    elif loaded.head is not None:
        states = loaded.body(input_ids=ids, attention_mask=attention)[0][rows_of, positions]
        project = loaded.head
    else:
        states = loaded.model(input_ids=ids, attention_mask=attention).logits[rows_of, positions]

        def project(x: Any) -> Any:
            return x

    chosen = targets[keep]
    vocabulary = int(loaded.model.config.vocab_size or 1)
    step = max(1, HEAD_BUDGET // vocabulary)
    parts = [_reduce(project(states[s : s + step]), chosen[s : s + step]) for s in range(0, len(chosen), step)]
    out[keep] = torch.cat(parts) if parts else out[keep]
    return out

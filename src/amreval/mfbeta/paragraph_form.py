"""The Form of a paragraph: a causal language model's mean token probability over long inputs, in windows.

Document-level MFβ (:mod:`amreval.mfbeta.document`) compares a generated
paragraph with its reference document as wholes: the preference is
``mtp(p') / (mtp(p') + mtp(p))`` with ``mtp`` the mean token probability of
the whole paragraph, framed as a sentence is (:mod:`amreval.mfbeta.lm`): the
model reads ``[start] + tokens`` and is asked for ``tokens + [end]``.

**Windows.** A paragraph whose ``L = len(tokens) + 1`` scored positions fit
in ``window`` tokens is one model input, exactly as a sentence is (its score
is the sentence score of the same text, and shares its cache entries). A
longer one is read in windows of ``window`` inputs starting every ``stride``
positions (0, stride, 2·stride, ...; the last one ends at ``L``): each window
scores only the positions the windows before it did not reach, with the rest
of the window as left context, so every token is scored once, with at least
``window - stride`` tokens of context past the first window. ``window``
defaults to the longest input the model accepts (1024 for GPT-2), ``stride``
to half the window. Both are recorded in the config.

Any scorer with ``sentence_scores`` (not a
:class:`~amreval.mfbeta.lm.LanguageModelScorer`) is handed the whole
paragraphs; a masked language model is refused (its pseudo-likelihood is not
defined over windows here).

Example:
    >>> windows(10, window=4, stride=2)
    [(0, 4, 0), (2, 6, 4), (4, 8, 6), (6, 10, 8)]
    >>> windows(3, window=4, stride=2)
    [(0, 3, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from amreval._progress import progress_counter
from amreval.errors import InputError, numbered
from amreval.mfbeta.forward import LoadedModel, Row, inspect_model, target_log_probs
from amreval.mfbeta.lm import END_OF_TEXT, LanguageModelScorer, SentenceScorer, token_batches
from amreval.scores.text import plural

__all__ = ["DEFAULT_STRIDE_SHARE", "input_limit", "paragraph_scores", "resolve_window", "windows"]

#: The default stride, as a share of the window.
DEFAULT_STRIDE_SHARE = 0.5
#: The window when the model states no limit.
FALLBACK_WINDOW = 1024
# a loaded model -> its inspected twin (the head, the shared start), kept per model object
_INSPECTED: dict[int, tuple[Any, LoadedModel]] = {}


def windows(length: int, *, window: int, stride: int) -> list[tuple[int, int, int]]:
    """The windows over ``length`` positions: ``(begin, end, first scored)``, end exclusive.

    Window k covers ``[k·stride, min(k·stride + window, length))`` and scores its positions from the end
    of window k - 1 on; the last window is the first to reach ``length``.
    """
    out: list[tuple[int, int, int]] = []
    begin, reached = 0, 0
    while reached < length:
        end = min(begin + window, length)
        out.append((begin, end, reached))
        reached = end
        begin += stride
    return out


def input_limit(scorer: LanguageModelScorer) -> int | None:
    """The longest input the scorer's model accepts, when its config or tokenizer says so."""
    limits = [
        getattr(scorer.model.config, "max_position_embeddings", None),
        getattr(scorer.tokenizer, "model_max_length", None),
    ]
    sizes = [int(v) for v in limits if isinstance(v, int) and 0 < v < 1_000_000]
    return min(sizes) if sizes else None


def resolve_window(scorer: Any, window: int | None, stride: int | None) -> tuple[int | None, int | None]:
    """The window and stride to use (None, None for a scorer that is not a language model scorer).

    Raises:
        InputError: a window below 2 or above the model's limit, a stride outside ``[1, window]``,
            or a masked language model.
    """
    for name, value in (("window", window), ("stride", stride)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise InputError(f"{name} must be a positive integer, got {value!r}")
    if not isinstance(scorer, LanguageModelScorer):
        return None, None
    if scorer.kind != "causal":
        raise InputError("document-level Form reads paragraphs in windows of a causal language model; got a masked one")
    limit = input_limit(scorer)
    if window is None:
        window = limit or FALLBACK_WINDOW
    if window < 2:
        raise InputError(f"window must be at least 2 tokens, got {window}")
    if limit is not None and window > limit:
        raise InputError(f"window {window}: more than the {limit} tokens that {scorer.name_or_path} accepts")
    if stride is None:
        stride = max(1, int(window * DEFAULT_STRIDE_SHARE))
    if stride > window:
        raise InputError(f"stride {stride} is longer than the window {window}: tokens would be skipped")
    return window, stride


def _inspected(scorer: LanguageModelScorer, start: int) -> LoadedModel:
    model, tokenizer = scorer.model, scorer.tokenizer
    kept = _INSPECTED.get(id(model))
    if kept is None or kept[0] is not model:
        loaded = LoadedModel(model, tokenizer)
        kept = _INSPECTED[id(model)] = (model, loaded)
    loaded = kept[1]
    if not loaded.checked:
        import torch

        with torch.inference_mode():
            inspect_model(
                loaded, [start, *tokenizer("the", add_special_tokens=False)["input_ids"]], scorer.device, start
            )
    return loaded


def _boundaries(tokenizer: Any) -> tuple[int, int]:
    """Start and end ids, the rule of :mod:`amreval.mfbeta.lm`."""
    eot = tokenizer.get_vocab().get(END_OF_TEXT)
    if eot is not None:
        return int(eot), int(eot)
    bos, eos = tokenizer.bos_token_id, tokenizer.eos_token_id
    if eos is None:
        raise InputError(f"the tokenizer has neither {END_OF_TEXT} nor an EOS token; a causal LM needs one")
    return int(bos if bos is not None else eos), int(eos)


def _windowed(
    scorer: LanguageModelScorer, texts: list[str], window: int, stride: int, progress: bool | None
) -> list[float]:
    """mtp of texts longer than one window."""
    import torch

    tokenizer = scorer.tokenizer
    start, end = _boundaries(tokenizer)
    rows: list[Row] = []
    lengths = []
    for owner, ids in enumerate(tokenizer(texts, add_special_tokens=False)["input_ids"]):
        seq = [start, *ids, end]
        inputs, targets = seq[:-1], seq[1:]
        lengths.append(len(inputs))
        for begin, stop, first in windows(len(inputs), window=window, stride=stride):
            rows.append(Row(owner, inputs[begin:stop], list(range(first - begin, stop - begin)), targets[first:stop]))
    loaded = _inspected(scorer, start)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else end
    sums = np.zeros(len(texts), dtype=np.float64)
    with (
        torch.inference_mode(),
        progress_counter(len(rows), enable=progress, desc="form (windows)", unit="window") as bar,
    ):
        for batch in token_batches([len(r.ids) for r in rows], scorer.max_tokens, scorer.batch_size):
            chunk = [rows[k] for k in batch]
            probs = target_log_probs(loaded, chunk, int(pad), scorer.device).double().exp().cpu().numpy()
            np.add.at(sums, np.repeat([r.owner for r in chunk], [len(r.positions) for r in chunk]), probs)
            bar.update(len(chunk))
    return (sums / np.asarray(lengths, dtype=np.float64)).tolist()


def paragraph_scores(
    scorer: LanguageModelScorer | SentenceScorer,
    paragraphs: Sequence[str],
    *,
    window: int | None = None,
    stride: int | None = None,
    label: str = "paragraph",
    progress: bool | None = None,
) -> np.ndarray:
    """The mtp of each paragraph, long ones in windows (see the module docs).

    Args:
        scorer: a :class:`~amreval.mfbeta.lm.LanguageModelScorer` (causal), or any object with
            ``sentence_scores`` (handed the whole paragraphs).
        paragraphs: non-blank strings.
        window, stride: model inputs per window and the step between windows (default: the model's limit
            and half of it).
        label: how messages name a paragraph (``reference #2``).
        progress: progress bars (default: on a terminal only).

    Returns:
        A float64 array, one score in [0, 1] per paragraph.

    Raises:
        InputError: a blank paragraph, a bad window or stride, a masked model, a paragraph with nothing to score.
    """
    texts = list(paragraphs)
    for k, p in enumerate(texts):
        if not isinstance(p, str) or not p.strip():
            raise InputError(f"{numbered(label, k)}: expected a non-empty paragraph, got {p!r:.40}")
    window, stride = resolve_window(scorer, window, stride)
    if not isinstance(scorer, LanguageModelScorer) or window is None or stride is None:
        out = np.asarray(scorer.sentence_scores(texts, progress=progress), dtype=np.float64)
        if out.shape != (len(texts),):
            raise InputError(f"the scorer returned {out.shape} scores for {plural(len(texts), 'paragraph')}")
        return out
    tokenizer = scorer.tokenizer
    lengths = [len(ids) + 1 for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]]
    short = [k for k, n in enumerate(lengths) if n <= window]
    long = [k for k, n in enumerate(lengths) if n > window]
    out = np.zeros(len(texts), dtype=np.float64)
    if short:  # one input each: the sentence scores, and their cache
        out[short] = scorer.scores([texts[k] for k in short], lambda j: numbered(label, short[j]), progress)
    if long:
        namespace = f"{scorer.namespace}:window={window},stride={stride}"
        wanted = {texts[k]: k for k in long}
        known = scorer.cache.get(namespace, wanted) if scorer.cache is not None else {}
        todo = [t for t in wanted if t not in known]
        if todo:
            computed = dict(zip(todo, _windowed(scorer, todo, window, stride, progress)))
            if scorer.cache is not None:
                scorer.cache.put(namespace, computed)
            known = {**known, **computed}
        out[long] = [known[texts[k]] for k in long]
    if np.isnan(out).any():
        raise InputError(f"{numbered(label, int(np.flatnonzero(np.isnan(out))[0]))}: no tokens to score")
    return out

"""Language model scores for MFβ's Form: a token budget, one position's vocabulary at a time, reuse.

What a sentence's score is (see :mod:`amreval.mfbeta.form` for how Form uses it):

* A **causal** LM gives ``mtp(s)``, the mean probability of its tokens, each
  given its left context: the model reads ``[start] + tokens(s)`` and is asked
  for ``tokens(s) + [end]`` (probabilities, not log-probabilities). Start and
  end are ``<|endoftext|>`` when the tokenizer has it (GPT-2 and its kin);
  otherwise start is the BOS token (EOS without BOS) and end the EOS token.
* A **masked** LM gives the mean pseudo-likelihood probability: each sub-word
  token is masked in turn and the probability of the true token is read at
  that position; special tokens (``[CLS]``, ``<s>``, ...) are context only.

How it is computed:

* **Token budget.** Model inputs are sorted by length and packed into
  batches of at most ``max_tokens`` padded tokens (rows × longest row), so
  padding and peak memory stay bounded whatever the sentence lengths;
  ``batch_size`` can cap the rows of a batch as well. Padding is on the right
  under an attention mask and only real positions are read, so a sentence's
  score does not depend on the batch it falls in.
* **The vocabulary a few positions at a time, a shared start.** The model's
  body gives hidden states and its output head turns only the scored
  positions into vocabulary scores, in chunks reduced at once to
  ``log p(target)``; the full ``batch × length × vocabulary`` table is never
  made. The start token that begins every row of a causal LM is computed once
  and shared. Both are checked once per model against the model's own output
  (:mod:`amreval.mfbeta.forward`); what does not check out is not used.
* **Inference mode**, the model's own fast attention (``sdpa`` when the model
  supports it), on a chosen ``device`` (``cpu``, ``cuda``, ``cuda:1``,
  ``mps``; default: CUDA, else MPS, else CPU) in a chosen ``dtype``
  (``float32``, the default everywhere; ``bfloat16``; ``float16``; ``auto`` =
  bfloat16 on a CUDA device that supports it, float16 on other CUDA devices,
  float32 elsewhere). The vocabulary scores are reduced in float32 whatever
  the dtype.
* **Reuse.** Scores are kept in a :class:`~amreval.mfbeta.cache.ResultCache`
  (in memory by default, on disk when asked), keyed by the model's
  fingerprint, kind, dtype, device type and the sentence, so reference
  sentences are scored once for every system and epoch; a sentence that
  occurs twice in one call is scored once. ``sentences_scored`` and
  ``sentences_reused`` count both.

Models are loaded on first use and kept in a module-level table keyed by
``(name_or_path, kind, device, dtype)``; :func:`clear_cache` empties it.
torch and transformers are imported only when a model is needed
(``pip install 'amreval[lm]'``).

Example:
    >>> token_batches([5, 3, 9, 3, 2], max_tokens=10)
    [[2], [0], [1, 3, 4]]
    >>> resolve_dtype("bf16", "cpu"), resolve_dtype(None, "cuda")
    ('bfloat16', 'float32')
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from amreval._hub_access import cached_file, hub_load_options
from amreval._progress import progress_counter, progress_enabled
from amreval.errors import InputError, MissingDependencyError, numbered
from amreval.mfbeta.cache import MEMORY, CacheLike, ResultCache, model_fingerprint, resolve_cache
from amreval.mfbeta.forward import HEAD_BUDGET, LoadedModel, Row, inspect_model, target_log_probs

__all__ = [
    "DEFAULT_KIND",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MAX_TOKENS_GPU",
    "DEFAULT_MODEL",
    "DTYPES",
    "HEAD_BUDGET",
    "KINDS",
    "LanguageModelScorer",
    "SentenceScorer",
    "check_sentences",
    "clear_cache",
    "get_scorer",
    "resolve_device",
    "resolve_dtype",
    "token_batches",
]

#: The language model of the paper.
DEFAULT_MODEL = "gpt2"
#: The default kind of language model.
DEFAULT_KIND = "causal"
#: The kinds of language model: ``"causal"`` (mtp) or ``"masked"`` (pseudo-likelihood).
KINDS = ("causal", "masked")
#: Padded tokens per forward pass (rows × longest row) on a CPU, where small batches keep the
#: activations in the processor's cache (512 was fastest for GPT-2 small on the benchmark machine).
DEFAULT_MAX_TOKENS = 512
#: Padded tokens per forward pass on a GPU (CUDA, MPS), where larger batches pay off.
DEFAULT_MAX_TOKENS_GPU = 4096
#: Rows per batch at most, whatever the token budget.
MAX_ROWS = 1024
#: What one more forward pass costs, in padded tokens, when batches are cut (see :func:`token_batches`).
BATCH_COST = 24
#: The dtypes by name, with their aliases.
DTYPES = {
    "float32": "float32",
    "fp32": "float32",
    "float": "float32",
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "float16": "float16",
    "fp16": "float16",
    "half": "float16",
}
END_OF_TEXT = "<|endoftext|>"
#: Bumped when the definition of a score changes, so that old cache entries are not read.
_SCORE_VERSION = "mtp1"


class SentenceScorer(Protocol):
    """Anything that gives each sentence a score in [0, 1] (what Form needs)."""

    def sentence_scores(self, sentences: Sequence[str], *, progress: bool | None = None) -> np.ndarray:
        """One score per sentence."""
        ...  # pragma: no cover


def _import_torch() -> Any:
    """Import torch and transformers, or explain how to install them."""
    try:
        import torch
        import transformers  # noqa: F401
    except ImportError as exc:
        raise MissingDependencyError("transformers", "lm", "Form scoring") from exc
    return torch


def resolve_device(device: str | None, torch: Any = None) -> str:
    """``None`` or ``"auto"``: ``"cuda"`` when available, else ``"mps"`` when available, else ``"cpu"``.

    Raises:
        InputError: a device torch does not know, or one this machine does not have.
    """
    torch = torch or _import_torch()
    mps = getattr(torch.backends, "mps", None)
    has_mps = mps is not None and mps.is_available()
    if device is None or device == "auto":
        return "cuda" if torch.cuda.is_available() else "mps" if has_mps else "cpu"
    try:
        kind = torch.device(str(device)).type
    except (RuntimeError, TypeError, ValueError):
        kind = None
    if kind not in ("cpu", "cuda", "mps"):
        raise InputError(f"unknown device {device!r}; expected cpu, cuda, cuda:N, mps or auto")
    if (kind == "cuda" and not torch.cuda.is_available()) or (kind == "mps" and not has_mps):
        raise InputError(f"device {device!r}: this machine (torch {torch.__version__}) has no {kind}; use cpu or auto")
    return str(device)


def resolve_dtype(dtype: Any, device: str) -> str:
    """The dtype's name: ``None`` is ``float32``; ``"auto"`` depends on the device (see the module docs).

    Raises:
        InputError: an unknown name.
    """
    if dtype is None:
        return "float32"
    name = str(dtype).removeprefix("torch.")
    if name == "auto":
        if not device.startswith("cuda"):
            return "float32"
        torch = _import_torch()
        return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
    if name not in DTYPES:
        raise InputError(f"unknown dtype {dtype!r}; expected auto, float32, bfloat16 or float16")
    return DTYPES[name]


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise InputError(f"unknown language model kind {kind!r}; expected one of {', '.join(KINDS)}")


def _check_count(name: str, value: Any, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{name} must be a positive integer, got {value!r}")


def check_sentences(sentences: Sequence[str], label: str, *, allow_empty: bool = False) -> list[str]:
    """The sentences as a list; each must be a string, and non-blank unless ``allow_empty``."""
    if isinstance(sentences, str):
        raise InputError(f"{label}: expected a list of sentences, got a single string")
    out = list(sentences)
    for index, s in enumerate(out):
        if not isinstance(s, str):
            raise InputError(f"{numbered(label, index)}: expected a string, got {type(s).__name__}")
        if not allow_empty and not s.strip():
            raise InputError(f"{numbered(label, index)}: empty sentence")
    return out


def token_batches(lengths: Sequence[int], max_tokens: int, max_rows: int | None = None) -> list[list[int]]:
    """Rows sorted longest first, cut into batches of at most ``max_tokens`` padded tokens.

    A batch costs its rows times its longest row, and holds at most
    ``max_rows`` rows (never more than :data:`MAX_ROWS`). The cuts minimise the padded
    tokens of all batches plus :data:`BATCH_COST` for each batch (fewer,
    fuller batches, but not at the price of much padding); a row longer than
    the budget gets a batch of its own. Ties keep the input order.
    """
    order = sorted(range(len(lengths)), key=lambda k: (-lengths[k], k))
    n = len(order)
    max_rows = min(max_rows or MAX_ROWS, MAX_ROWS)
    cost = [0.0] + [float("inf")] * n  # cost[i]: the best cuts of the first i rows
    cut = [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i - 1, -1, -1):  # the last batch holds rows j .. i-1; its longest is row j
            rows = i - j
            width = lengths[order[j]]
            if rows > 1 and (rows * width > max_tokens or rows > max_rows):
                break
            total = cost[j] + rows * width + BATCH_COST
            if total < cost[i]:
                cost[i], cut[i] = total, j
    batches: list[list[int]] = []
    i = n
    while i > 0:
        batches.append(order[cut[i] : i])
        i = cut[i]
    return batches[::-1]


def _boundary_ids(tokenizer: Any) -> tuple[int, int]:
    """The start (first context) and end (scored) token ids of a causal LM's tokenizer."""
    eot = tokenizer.get_vocab().get(END_OF_TEXT)
    if eot is not None:
        return int(eot), int(eot)
    bos, eos = tokenizer.bos_token_id, tokenizer.eos_token_id
    if eos is None:
        raise InputError(
            f"the tokenizer has neither {END_OF_TEXT} nor an EOS token; a causal LM needs one "
            "to score the end of a sentence"
        )
    return int(bos if bos is not None else eos), int(eos)


def _max_length(model: Any, tokenizer: Any) -> int | None:
    """The longest input the model accepts, when it says so."""
    limits = [getattr(model.config, "max_position_embeddings", None), getattr(tokenizer, "model_max_length", None)]
    sizes = [int(v) for v in limits if isinstance(v, int) and 0 < v < 1_000_000]
    return min(sizes) if sizes else None


# (name_or_path, kind, device, dtype) -> loaded model
_MODELS: dict[tuple[str, str, str, str], LoadedModel] = {}
_SCORERS: dict[tuple[Any, ...], LanguageModelScorer] = {}
_LOCK = threading.RLock()


def _hub_options(name: str, kind: str) -> dict[str, Any]:
    """``from_pretrained``'s keywords for a Hub name (:func:`amreval._hub_access.hub_load_options`): the cache
    only when the Hub does not answer and the model is cached; not cached, an InputError with the recipe."""
    return hub_load_options(
        name,
        f"{kind} language model",
        f"a local model folder instead (--lm ./FOLDER, lm=FOLDER: a folder written by save_pretrained, or "
        f"downloaded with `hf download {name} --local-dir ./FOLDER`)",
        lambda: cached_file(name, "config.json"),
    )


def _load(name: str, kind: str, device: str, dtype: str) -> LoadedModel:
    """The model and tokenizer for a key, loaded once and kept."""
    key = (name, kind, device, dtype)
    with _LOCK:
        cached = _MODELS.get(key)
        if cached is not None:
            return cached
        torch = _import_torch()
        from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer
        from transformers.utils import logging as transformers_logging

        if name.startswith((".", "/", "~")) and not os.path.isdir(os.path.expanduser(name)):
            raise InputError(
                f"{name}: no such folder; expected a language model folder (save_pretrained) or a Hub model name"
            )
        quiet = not progress_enabled(None) and transformers_logging.is_progress_bar_enabled()
        if quiet:  # transformers' own loading bars only on a terminal, as ours
            transformers_logging.disable_progress_bar()
        auto: Any = AutoModelForCausalLM if kind == "causal" else AutoModelForMaskedLM
        # a Hub name: fail at once, with the offline recipe, where the Hub does not answer (no retries)
        hub = {} if os.path.exists(os.path.expanduser(name)) else _hub_options(name, kind)
        try:
            tokenizer = AutoTokenizer.from_pretrained(name, **hub)
            try:
                model = auto.from_pretrained(name, dtype=getattr(torch, dtype), attn_implementation="sdpa", **hub)
            except (ValueError, ImportError) as exc:  # a model without sdpa: its default attention
                if "sdpa" not in str(exc).lower() and "attention" not in str(exc).lower():
                    raise
                model = auto.from_pretrained(name, dtype=getattr(torch, dtype), **hub)
        except Exception as exc:  # what the model's files or classes make transformers raise, damaged weights too
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise InputError(f"{name}: cannot load it as a {kind} language model: {message}") from exc
        finally:
            if quiet:
                transformers_logging.enable_progress_bar()
        model.to(device)
        model.eval()
        loaded = _MODELS[key] = LoadedModel(model, tokenizer)
        return loaded


def clear_cache(scores: bool = True) -> None:
    """Forget every loaded model and scorer, and (``scores``) the in-memory scores and parses."""
    with _LOCK:
        _MODELS.clear()
        _SCORERS.clear()
    if scores:
        MEMORY.clear()


class LanguageModelScorer:
    """Scores sentences with a Hugging Face causal or masked language model (see the module docs).

    Args:
        model: a model name on the Hugging Face Hub or a local folder
            (default ``"gpt2"``, the paper's model).
        kind: ``"causal"`` (mean token probability given the left context) or
            ``"masked"`` (mean pseudo-likelihood probability).
        device: ``"cpu"``, ``"cuda"``, ``"cuda:1"``, ``"mps"``; ``None`` or
            ``"auto"``: CUDA, else MPS, else CPU.
        dtype: ``"float32"`` (``None``, the default), ``"bfloat16"``,
            ``"float16"`` or ``"auto"``.
        max_tokens: padded tokens per forward pass (``None``:
            :data:`DEFAULT_MAX_TOKENS` on a CPU, :data:`DEFAULT_MAX_TOKENS_GPU`
            on a GPU).
        batch_size: at most this many rows per forward pass as well (``None``:
            only the token budget). For a masked LM every sentence gives one
            row per scored token.
        cache: where scores are kept: ``"memory"`` (default, the process-wide
            cache), ``"disk"``, a folder, a
            :class:`~amreval.mfbeta.cache.ResultCache`, or ``False``.

    Raises:
        MissingDependencyError: torch or transformers is not installed.
        InputError: unknown ``kind`` or ``dtype``, or a count below 1.

    Example:
        A sketch (loads GPT-2 from the Hub or its local cache)::

            scorer = LanguageModelScorer(DEFAULT_MODEL)
            scorer.sentence_scores(["The boy wants to go.", "Go to wants boy the."])
    """

    def __init__(
        self,
        model: str | os.PathLike[str] = DEFAULT_MODEL,
        *,
        kind: str = DEFAULT_KIND,
        device: str | None = None,
        dtype: Any = None,
        max_tokens: int | None = None,
        batch_size: int | None = None,
        cache: CacheLike = "memory",
    ) -> None:
        _check_kind(kind)
        _check_count("max_tokens", max_tokens, allow_none=True)
        _check_count("batch_size", batch_size, allow_none=True)
        torch = _import_torch()
        self.name_or_path = os.fspath(model)
        self.kind = kind
        self.device = resolve_device(device, torch)
        self.dtype = resolve_dtype(dtype, self.device)
        self.max_tokens = max_tokens or (DEFAULT_MAX_TOKENS if self.device == "cpu" else DEFAULT_MAX_TOKENS_GPU)
        self.batch_size = batch_size
        self.cache: ResultCache | None = resolve_cache(cache)
        self.sentences_scored = 0
        self.sentences_reused = 0
        self._namespace: str | None = None

    def __repr__(self) -> str:
        return (
            f"LanguageModelScorer({self.name_or_path!r}, kind={self.kind!r}, device={self.device!r}, "
            f"dtype={self.dtype!r}, max_tokens={self.max_tokens}, batch_size={self.batch_size})"
        )

    @property
    def model(self) -> Any:
        """The transformers model (loaded and kept on first access)."""
        return _load(self.name_or_path, self.kind, self.device, self.dtype).model

    @property
    def tokenizer(self) -> Any:
        """The model's tokenizer (loaded and kept on first access)."""
        return _load(self.name_or_path, self.kind, self.device, self.dtype).tokenizer

    @property
    def namespace(self) -> str:
        """The cache key of this model and its settings (the sentence completes a key)."""
        if self._namespace is None:
            device_type = self.device.split(":")[0]
            self._namespace = (
                f"form:{_SCORE_VERSION}:{self.kind}:{self.dtype}:{device_type}:{model_fingerprint(self.name_or_path)}"
            )
        return self._namespace

    def sentence_scores(self, sentences: Sequence[str], *, progress: bool | None = None) -> np.ndarray:
        """Score sentences: ``mtp`` for a causal LM, mean pseudo-likelihood probability for a masked one.

        Args:
            sentences: non-blank strings.
            progress: show a progress bar with sentences per second (default: only on a terminal).

        Returns:
            A float64 array with one score in [0, 1] per sentence.

        Raises:
            InputError: a sentence is blank or not a string (named by its
                position counted from 1: ``sentence #1`` is the first), or longer than the model accepts.
        """
        out = self.scores(check_sentences(sentences, "sentence"), lambda k: numbered("sentence", k), progress)
        empty = np.flatnonzero(np.isnan(out))
        if empty.size:
            raise InputError(f"{numbered('sentence', int(empty[0]))}: no tokens to score")
        return out

    def scores(self, sentences: list[str], name: Callable[[int], str], progress: bool | None = None) -> np.ndarray:
        """Scores of checked sentences; ``name(k)`` names sentence ``k`` in an error. A sentence a masked
        LM finds nothing to score in (its tokenizer keeps no token of it) scores NaN."""
        first: dict[str, int] = {}
        for k, s in enumerate(sentences):
            first.setdefault(s, k)
        known = self.cache.get(self.namespace, first) if self.cache is not None else {}
        todo = [s for s in first if s not in known]
        if todo:
            values = self._compute(todo, lambda j: name(first[todo[j]]), progress)
            computed = dict(zip(todo, values.tolist()))
            if self.cache is not None:
                self.cache.put(self.namespace, computed)
            known = {**known, **computed}
        self.sentences_scored += len(todo)
        self.sentences_reused += len(sentences) - len(todo)
        return np.array([known[s] for s in sentences], dtype=np.float64)

    def _compute(self, sentences: list[str], name: Callable[[int], str], progress: bool | None) -> np.ndarray:
        loaded = _load(self.name_or_path, self.kind, self.device, self.dtype)
        tokenizer = loaded.tokenizer
        rows = (
            self._causal_rows(sentences, tokenizer)
            if self.kind == "causal"
            else self._masked_rows(sentences, tokenizer, name)
        )
        limit = _max_length(loaded.model, tokenizer)
        if limit is not None:
            for row in rows:
                if len(row.ids) > limit:
                    raise InputError(
                        f"{name(row.owner)}: {len(row.ids)} tokens, more than the {limit} "
                        f"that {self.name_or_path} accepts"
                    )
        pad = tokenizer.pad_token_id
        if pad is None:
            pad = tokenizer.eos_token_id if tokenizer.eos_token_id is not None else 0
        return self._run(loaded, rows, len(sentences), int(pad), progress)

    @staticmethod
    def _causal_rows(sentences: list[str], tokenizer: Any) -> list[Row]:
        start, end = _boundary_ids(tokenizer)
        encoded = tokenizer(sentences, add_special_tokens=False)["input_ids"]
        rows = []
        for owner, ids in enumerate(encoded):
            seq = [start, *ids, end]
            rows.append(Row(owner, seq[:-1], list(range(len(seq) - 1)), seq[1:]))
        return rows

    @staticmethod
    def _masked_rows(sentences: list[str], tokenizer: Any, name: Callable[[int], str]) -> list[Row]:
        mask = tokenizer.mask_token_id
        if mask is None:
            raise InputError("the tokenizer has no mask token; kind='masked' needs a masked LM")
        encoded = tokenizer(sentences, return_special_tokens_mask=True)
        rows = []
        for owner, (ids, special) in enumerate(zip(encoded["input_ids"], encoded["special_tokens_mask"])):
            scored = [k for k, flag in enumerate(special) if not flag]
            for k in scored:  # a sentence with no tokens to score has no rows: its score is NaN
                masked = list(ids)
                masked[k] = mask
                rows.append(Row(owner, masked, [k], [ids[k]]))
        return rows

    def _run(self, loaded: LoadedModel, rows: list[Row], n: int, pad: int, progress: bool | None) -> np.ndarray:
        """Forward the rows in token-budget batches; average the probabilities per sentence."""
        import torch

        per_owner = np.bincount([r.owner for r in rows], minlength=n)
        batches = token_batches([len(r.ids) for r in rows], self.max_tokens, self.batch_size)
        sums = np.zeros(n, dtype=np.float64)
        counts = np.zeros(n, dtype=np.int64)
        done, shown = 0.0, 0
        desc = "form (causal LM)" if self.kind == "causal" else "form (masked LM)"
        with torch.inference_mode(), progress_counter(n, enable=progress, desc=desc, unit="sentence") as bar:
            if rows and not loaded.checked:
                with _LOCK:
                    if not loaded.checked:
                        start = _boundary_ids(loaded.tokenizer)[0] if self.kind == "causal" else None
                        inspect_model(loaded, rows[0].ids, self.device, start)
            for batch in batches:
                chunk = [rows[k] for k in batch]
                probs = target_log_probs(loaded, chunk, pad, self.device).double().exp().cpu().numpy()
                owners = np.repeat([r.owner for r in chunk], [len(r.positions) for r in chunk])
                np.add.at(sums, owners, probs)
                np.add.at(counts, owners, 1)
                done += sum(1 / per_owner[r.owner] for r in chunk)  # a masked LM's sentence has many rows
                step = int(round(done, 6)) - shown
                if step:
                    bar.update(step)
                    shown += step
        with np.errstate(invalid="ignore"):
            return sums / counts  # NaN where a sentence had nothing to score


def get_scorer(
    model: str | os.PathLike[str] = DEFAULT_MODEL,
    kind: str = DEFAULT_KIND,
    device: str | None = None,
    batch_size: int | None = None,
    *,
    dtype: Any = None,
    max_tokens: int | None = None,
    cache: CacheLike = "memory",
) -> LanguageModelScorer:
    """A kept :class:`LanguageModelScorer`; the model itself is loaded on first use.

    The same arguments give the same scorer; scorers that differ only in
    ``batch_size``, ``max_tokens`` or ``cache`` share the loaded model.

    Raises:
        MissingDependencyError: torch or transformers is not installed.
        InputError: unknown ``kind`` or ``dtype``, or a count below 1.
    """
    _check_kind(kind)
    torch = _import_torch()
    resolved = resolve_device(device, torch)
    kept_cache = resolve_cache(cache)
    key = (os.fspath(model), kind, resolved, resolve_dtype(dtype, resolved), batch_size, max_tokens, id(kept_cache))
    with _LOCK:
        scorer = _SCORERS.get(key)
        if scorer is None or scorer.cache is not kept_cache:
            scorer = _SCORERS[key] = LanguageModelScorer(
                key[0],
                kind=kind,
                device=resolved,
                dtype=key[3],
                max_tokens=max_tokens,
                batch_size=batch_size,
                cache=kept_cache,
            )
    return scorer

"""The Form score of MFβ (Opitz & Frank 2021): is a generated sentence as fluent as its reference?

A language model gives every sentence a score, the mean probability of its
tokens (``mtp``). For a causal LM, each token is scored given its left
context, the first context being a start token and the end-of-text token
being scored too: the model reads ``[start] + tokens(s)`` and is asked for
``tokens(s) + [end]``, and ``mtp(s)`` is the mean of those probabilities
(probabilities, not log-probabilities). The start and end tokens are
``<|endoftext|>`` when the tokenizer has it (GPT-2 and its kin); otherwise the
start token is the tokenizer's BOS token (its EOS token when it has no BOS)
and the end token is its EOS token.

A masked LM (BERT, RoBERTa, ...) scores a sentence by pseudo-likelihood: each
sub-word token is masked in turn and the probability of the true token is
read from the softmax over the vocabulary at that position; special tokens
(``[CLS]``, ``[SEP]``, ``<s>``, ...) are context and are not scored. The
sentence score is the mean of those probabilities, so that it plays the same
role as ``mtp``.

The preference for the generated sentence ``s'`` over the reference ``s`` is
``prefScore = mtp(s') / (mtp(s') + mtp(s))`` (0.5 when both are 0). The pair
is acceptable when ``prefScore >= 0.5 - tolerance`` (default tolerance 0.05),
and Form is the share of acceptable pairs.

An empty (or blank) generated sentence is scored, not refused: it is not sent
to the language model, its score is 0, so its prefScore is 0 and it is never
acceptable (the authors' scripts score the empty line too, and it is not
preferred). A reference sentence must not be empty.

Models are loaded on first use and kept in a module-level cache keyed by
``(name_or_path, kind, device)``; :func:`clear_cache` empties it. torch and
transformers are imported only when a model is needed
(``pip install 'amreval[lm]'``).

Example:
    >>> pref_scores([0.375, 0.125, 0.0], [0.125, 0.375, 0.0]).tolist()
    [0.75, 0.25, 0.5]
    >>> result = form_from_scores([0.375, 0.125, 0.45], [0.125, 0.375, 0.55])
    >>> result.acceptable, result.form
    ([True, False, True], 0.6666666666666666)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from amreval._progress import progress_bar
from amreval.errors import InputError, MissingDependencyError

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_TOLERANCE",
    "KINDS",
    "FormResult",
    "LanguageModelScorer",
    "SentenceScorer",
    "acceptable",
    "clear_cache",
    "form_from_scores",
    "form_score",
    "get_scorer",
    "pref_scores",
]

#: The language model of the paper.
DEFAULT_MODEL = "gpt2"
#: The default kind of language model.
DEFAULT_KIND = "causal"
#: Sentences per batch, for the language model and the parser.
DEFAULT_BATCH_SIZE = 16
#: How far below 0.5 a preference score may fall and still be acceptable.
DEFAULT_TOLERANCE = 0.05
#: The kinds of language model: ``"causal"`` (mtp) or ``"masked"`` (pseudo-likelihood).
KINDS = ("causal", "masked")
END_OF_TEXT = "<|endoftext|>"

# (name_or_path, kind, device) -> (model, tokenizer)
_MODELS: dict[tuple[str, str, str], tuple[Any, Any]] = {}
# (name_or_path, kind, device, batch_size) -> scorer
_SCORERS: dict[tuple[str, str, str, int], LanguageModelScorer] = {}


class SentenceScorer(Protocol):
    """Anything that gives each sentence a score in [0, 1] (what :func:`form_score` needs)."""

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


def _resolve_device(device: str | None, torch: Any) -> str:
    if device is None:
        return "cuda" if torch.cuda.is_available() else "cpu"
    return str(device)


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise InputError(f"unknown language model kind {kind!r}; expected one of {', '.join(KINDS)}")


def _check_batch_size(batch_size: int) -> None:
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise InputError(f"batch_size must be a positive integer, got {batch_size!r}")


def check_sentences(sentences: Sequence[str], label: str, *, allow_empty: bool = False) -> list[str]:
    """The sentences as a list; each must be a string, and non-blank unless ``allow_empty``."""
    if isinstance(sentences, str):
        raise InputError(f"{label}: expected a list of sentences, got a single string")
    out = list(sentences)
    for index, s in enumerate(out):
        if not isinstance(s, str):
            raise InputError(f"{label} #{index}: expected a string, got {type(s).__name__}")
        if not allow_empty and not s.strip():
            raise InputError(f"{label} #{index}: empty sentence")
    return out


def _load(name: str, kind: str, device: str) -> tuple[Any, Any]:
    """The model and tokenizer for a key, loaded once and cached."""
    key = (name, kind, device)
    cached = _MODELS.get(key)
    if cached is not None:
        return cached
    _import_torch()
    from transformers import AutoModelForCausalLM, AutoModelForMaskedLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(name)
    auto = AutoModelForCausalLM if kind == "causal" else AutoModelForMaskedLM
    model = auto.from_pretrained(name)  # type: ignore[arg-type]
    model.to(device)  # type: ignore[arg-type]
    model.eval()
    _MODELS[key] = (model, tokenizer)
    return model, tokenizer


def clear_cache() -> None:
    """Forget every cached model and scorer (their memory is freed once unreferenced)."""
    _MODELS.clear()
    _SCORERS.clear()


def _boundary_ids(tokenizer: Any) -> tuple[int, int]:
    """The start (first context) and end (scored) token ids of a causal LM's tokenizer.

    ``<|endoftext|>`` for both when the vocabulary has it; otherwise BOS (EOS
    when there is no BOS) to start and EOS to end.
    """
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


@dataclass
class _Row:
    """One model input: the ids it reads, the positions scored and their true tokens."""

    owner: int
    ids: list[int]
    positions: list[int]
    targets: list[int]


class LanguageModelScorer:
    """Scores sentences with a Hugging Face causal or masked language model.

    The model is loaded on first use (see :func:`get_scorer` for a cached
    scorer). Sentences are scored in batches padded on the right, with an
    attention mask; only real positions are read, so a sentence's score does
    not depend on the batch it falls in.

    Args:
        model: a model name on the Hugging Face Hub or a local folder
            (default ``"gpt2"``, the paper's model).
        kind: ``"causal"`` (mean token probability given the left context) or
            ``"masked"`` (mean pseudo-likelihood probability).
        device: ``"cpu"``, ``"cuda"``, ``"cuda:1"``, ...; ``None`` means
            ``"cuda"`` when available, else ``"cpu"``.
        batch_size: sequences per forward pass. For a masked LM every
            sentence gives one sequence per scored token.

    Raises:
        MissingDependencyError: torch or transformers is not installed.
        InputError: unknown ``kind`` or a batch size below 1.

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
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        _check_kind(kind)
        _check_batch_size(batch_size)
        torch = _import_torch()
        self.name_or_path = os.fspath(model)
        self.kind = kind
        self.device = _resolve_device(device, torch)
        self.batch_size = batch_size

    def __repr__(self) -> str:
        return (
            f"LanguageModelScorer({self.name_or_path!r}, kind={self.kind!r}, device={self.device!r}, "
            f"batch_size={self.batch_size})"
        )

    @property
    def model(self) -> Any:
        """The transformers model (loaded and cached on first access)."""
        return _load(self.name_or_path, self.kind, self.device)[0]

    @property
    def tokenizer(self) -> Any:
        """The model's tokenizer (loaded and cached on first access)."""
        return _load(self.name_or_path, self.kind, self.device)[1]

    def sentence_scores(self, sentences: Sequence[str], *, progress: bool | None = None) -> np.ndarray:
        """Score sentences: ``mtp`` for a causal LM, mean pseudo-likelihood probability for a masked one.

        Args:
            sentences: non-blank strings.
            progress: show a progress bar over batches (default: only on a terminal).

        Returns:
            A float64 array with one score in [0, 1] per sentence.

        Raises:
            InputError: a sentence is blank or not a string (named by its
                0-based position), or longer than the model accepts.
        """
        return self._scores(check_sentences(sentences, "sentence"), lambda k: f"sentence #{k}", progress)

    def _scores(self, sentences: list[str], name: Callable[[int], str], progress: bool | None) -> np.ndarray:
        if not sentences:
            return np.zeros(0, dtype=np.float64)
        model, tokenizer = _load(self.name_or_path, self.kind, self.device)
        rows = (
            self._causal_rows(sentences, tokenizer)
            if self.kind == "causal"
            else self._masked_rows(sentences, tokenizer, name)
        )
        limit = _max_length(model, tokenizer)
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
        return self._run(model, rows, len(sentences), int(pad), progress)

    @staticmethod
    def _causal_rows(sentences: list[str], tokenizer: Any) -> list[_Row]:
        start, end = _boundary_ids(tokenizer)
        encoded = tokenizer(sentences, add_special_tokens=False)["input_ids"]
        rows = []
        for owner, ids in enumerate(encoded):
            seq = [start, *ids, end]
            rows.append(_Row(owner, seq[:-1], list(range(len(seq) - 1)), seq[1:]))
        return rows

    @staticmethod
    def _masked_rows(sentences: list[str], tokenizer: Any, name: Callable[[int], str]) -> list[_Row]:
        mask = tokenizer.mask_token_id
        if mask is None:
            raise InputError("the tokenizer has no mask token; kind='masked' needs a masked LM")
        encoded = tokenizer(sentences, return_special_tokens_mask=True)
        rows = []
        for owner, (ids, special) in enumerate(zip(encoded["input_ids"], encoded["special_tokens_mask"])):
            scored = [k for k, flag in enumerate(special) if not flag]
            if not scored:
                raise InputError(f"{name(owner)}: no tokens to score")
            for k in scored:
                masked = list(ids)
                masked[k] = mask
                rows.append(_Row(owner, masked, [k], [ids[k]]))
        return rows

    def _run(self, model: Any, rows: list[_Row], n: int, pad: int, progress: bool | None) -> np.ndarray:
        """Forward the rows in length-sorted batches; average the probabilities per sentence."""
        import torch

        order = sorted(range(len(rows)), key=lambda k: -len(rows[k].ids))
        batches = [order[i : i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        sums = np.zeros(n, dtype=np.float64)
        counts = np.zeros(n, dtype=np.int64)
        desc = "form (causal LM)" if self.kind == "causal" else "form (masked LM)"
        with torch.inference_mode():
            for batch in progress_bar(batches, enable=progress, desc=desc, unit="batch", total=len(batches)):
                chunk = [rows[k] for k in batch]
                probs = _batch_probabilities(model, chunk, pad, self.device)
                owners = np.repeat([r.owner for r in chunk], [len(r.positions) for r in chunk])
                np.add.at(sums, owners, probs)
                np.add.at(counts, owners, 1)
        return sums / counts


def _batch_probabilities(model: Any, rows: list[_Row], pad: int, device: str) -> np.ndarray:
    """The probabilities of the rows' targets at their positions, flattened in row order."""
    import torch

    width = max(len(r.ids) for r in rows)
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    attention = torch.zeros((len(rows), width), dtype=torch.long)
    for b, r in enumerate(rows):
        ids[b, : len(r.ids)] = torch.tensor(r.ids, dtype=torch.long)
        attention[b, : len(r.ids)] = 1
    batch_index = torch.tensor([b for b, r in enumerate(rows) for _ in r.positions], dtype=torch.long)
    positions = torch.tensor([p for r in rows for p in r.positions], dtype=torch.long)
    targets = torch.tensor([t for r in rows for t in r.targets], dtype=torch.long)
    logits = model(input_ids=ids.to(device), attention_mask=attention.to(device)).logits
    picked = logits[batch_index.to(device), positions.to(device)].float()  # (tokens, vocabulary)
    logp = torch.log_softmax(picked, dim=-1).gather(1, targets.to(device)[:, None])[:, 0]
    return logp.exp().double().cpu().numpy()


def get_scorer(
    model: str | os.PathLike[str] = DEFAULT_MODEL,
    kind: str = DEFAULT_KIND,
    device: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> LanguageModelScorer:
    """A cached :class:`LanguageModelScorer`; the model itself is loaded on first use.

    The same arguments give the same scorer; scorers that differ only in
    ``batch_size`` share the loaded model.

    Args:
        model: a model name on the Hugging Face Hub or a local folder.
        kind: ``"causal"`` or ``"masked"``.
        device: as in :class:`LanguageModelScorer` (``None`` = ``"cuda"`` when available, else ``"cpu"``).
        batch_size: sequences per forward pass.

    Returns:
        The scorer.

    Raises:
        MissingDependencyError: torch or transformers is not installed.
        InputError: unknown ``kind`` or a batch size below 1.
    """
    _check_kind(kind)
    _check_batch_size(batch_size)
    torch = _import_torch()
    key = (os.fspath(model), kind, _resolve_device(device, torch), batch_size)
    scorer = _SCORERS.get(key)
    if scorer is None:
        scorer = _SCORERS[key] = LanguageModelScorer(key[0], kind=kind, device=key[2], batch_size=batch_size)
    return scorer


def _as_scores(values: npt.ArrayLike, label: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1:
        raise InputError(f"{label}: expected a 1-D list of scores, got shape {arr.shape}")
    bad = np.flatnonzero(~np.isfinite(arr) | (arr < 0))
    if bad.size:
        raise InputError(f"{label} #{bad[0]}: scores must be finite and >= 0, got {arr[bad[0]]}")
    return arr


def pref_scores(generated_scores: npt.ArrayLike, reference_scores: npt.ArrayLike) -> np.ndarray:
    """Preference for each generated sentence over its reference: ``g / (g + r)``.

    Args:
        generated_scores: language model scores (``mtp``) of the generated sentences.
        reference_scores: those of the references, paired by position.

    Returns:
        A float64 array in [0, 1]; 0.5 where both scores are 0 (no preference).

    Raises:
        InputError: the lists differ in length, are not 1-D, or hold a
            negative or non-finite score.

    Example:
        >>> pref_scores([0.2, 0.0], [0.6, 0.0]).tolist()
        [0.25, 0.5]
    """
    g = _as_scores(generated_scores, "generated")
    r = _as_scores(reference_scores, "reference")
    if g.shape != r.shape:
        raise InputError(f"{g.size} generated scores but {r.size} reference scores; they are paired by position")
    total = g + r
    out = np.full(g.shape, 0.5)
    np.divide(g, total, out=out, where=total > 0)
    return out


def check_tolerance(tolerance: float) -> float:
    if not 0.0 <= tolerance <= 0.5:
        raise InputError(f"tolerance must be in [0, 0.5], got {tolerance}")
    return float(tolerance)


def acceptable(preferences: npt.ArrayLike, tolerance: float = DEFAULT_TOLERANCE) -> np.ndarray:
    """Which preference scores are acceptable: ``prefScore >= 0.5 - tolerance``.

    Args:
        preferences: preference scores (see :func:`pref_scores`).
        tolerance: in [0, 0.5]; 0 accepts only sentences at least as likely as their reference.

    Returns:
        A boolean array.

    Raises:
        InputError: the tolerance is outside [0, 0.5].

    Example:
        >>> acceptable([0.5, 0.45, 0.4499], tolerance=0.05).tolist()
        [True, True, False]
    """
    return np.asarray(preferences, dtype=np.float64) >= 0.5 - check_tolerance(tolerance)


@dataclass
class FormResult:
    """The Form score of a corpus and its parts.

    Attributes:
        form: the share of acceptable sentences, in [0, 1].
        pref_scores: per pair, the preference for the generated sentence.
        acceptable: per pair, whether ``pref_score >= 0.5 - tolerance``.
        generated_mtp: per pair, the language model score of the generated sentence.
        reference_mtp: per pair, that of the reference.
    """

    form: float
    pref_scores: list[float]
    acceptable: list[bool]
    generated_mtp: list[float]
    reference_mtp: list[float]


def form_from_scores(
    generated_scores: npt.ArrayLike,
    reference_scores: npt.ArrayLike,
    tolerance: float = DEFAULT_TOLERANCE,
) -> FormResult:
    """Form from language model scores computed beforehand.

    Args:
        generated_scores: scores (``mtp``) of the generated sentences.
        reference_scores: scores of the references, paired by position.
        tolerance: how far below 0.5 a preference may fall and still be acceptable.

    Returns:
        A :class:`FormResult`.

    Raises:
        InputError: the lists differ in length or are empty, a score is
            negative or not finite, or the tolerance is outside [0, 0.5].

    Example:
        >>> form_from_scores([0.2, 0.1], [0.1, 0.2]).form
        0.5
    """
    tol = check_tolerance(tolerance)
    prefs = pref_scores(generated_scores, reference_scores)
    if prefs.size == 0:
        raise InputError("nothing to score: generated and reference sentences are empty")
    ok = acceptable(prefs, tol)
    return FormResult(
        form=float(ok.mean()),
        pref_scores=prefs.tolist(),
        acceptable=ok.tolist(),
        generated_mtp=np.asarray(generated_scores, dtype=np.float64).tolist(),
        reference_mtp=np.asarray(reference_scores, dtype=np.float64).tolist(),
    )


def form_score(
    generated: Sequence[str],
    references: Sequence[str],
    *,
    scorer: LanguageModelScorer | SentenceScorer | None = None,
    model: str | os.PathLike[str] = DEFAULT_MODEL,
    kind: str = DEFAULT_KIND,
    tolerance: float = DEFAULT_TOLERANCE,
    batch_size: int = DEFAULT_BATCH_SIZE,
    device: str | None = None,
    progress: bool | None = None,
) -> FormResult:
    """The Form score of generated sentences against reference sentences.

    Both lists are scored in one pass of the language model, then compared
    pair by pair (see the module documentation).

    Args:
        generated: the generated sentences; an empty one scores 0 (prefScore
            0, never acceptable) without reaching the language model.
        references: the reference sentences, paired by position.
        scorer: the scorer to use; when given, ``model``, ``kind``,
            ``batch_size`` and ``device`` are ignored. Any object with a
            ``sentence_scores(sentences, *, progress=None)`` method works.
        model: a Hugging Face model name or local folder (default ``"gpt2"``),
            loaded through :func:`get_scorer`.
        kind: ``"causal"`` or ``"masked"``.
        tolerance: how far below 0.5 a preference may fall and still be acceptable.
        batch_size: sequences per forward pass.
        device: ``None`` = ``"cuda"`` when available, else ``"cpu"``.
        progress: show a progress bar (default: only on a terminal).

    Returns:
        A :class:`FormResult`.

    Raises:
        InputError: the lists differ in length or are empty, a reference is
            blank, a sentence is not a string (named by list and 0-based
            position, e.g. ``reference #3: empty sentence``), or the tolerance
            is outside [0, 0.5].
        MissingDependencyError: no scorer was given and torch or transformers
            is not installed.
    """
    gen = check_sentences(generated, "generated", allow_empty=True)
    ref = check_sentences(references, "reference")
    if len(gen) != len(ref):
        raise InputError(f"{len(gen)} generated sentences but {len(ref)} references; they are paired by position")
    if not gen:
        raise InputError("nothing to score: generated and reference sentences are empty")
    tol = check_tolerance(tolerance)
    if scorer is None:
        scorer = get_scorer(model, kind, device, batch_size)
    kept = [k for k, s in enumerate(gen) if s.strip()]
    to_score = [gen[k] for k in kept] + ref
    m = len(kept)
    if isinstance(scorer, LanguageModelScorer):
        scores = scorer._scores(
            to_score, lambda k: f"generated #{kept[k]}" if k < m else f"reference #{k - m}", progress
        )
    else:
        scores = np.asarray(scorer.sentence_scores(to_score, progress=progress), dtype=np.float64)
    if scores.shape != (len(to_score),):
        raise InputError(f"the scorer returned {scores.shape} scores for {len(to_score)} sentences")
    generated_scores = np.zeros(len(gen), dtype=np.float64)  # an empty sentence scores 0
    generated_scores[kept] = scores[:m]
    return form_from_scores(generated_scores, scores[m:], tol)

"""Smatch and DocSmatch inside a training loop: ``compute_metrics`` for ``transformers``' ``Seq2SeqTrainer``.

:func:`make_compute_metrics` takes the tokenizer and the development set's
gold graphs and gives the function ``Seq2SeqTrainer(compute_metrics=...)``
calls after each evaluation (with ``predict_with_generate=True``): it
decodes the generated token ids (``-100``, with which ``Trainer`` pads
labels and the predictions of batches of different lengths, read as
padding), reads each generation back from its linearization
(:mod:`amreval.amr.linearize`), scores the corpus with
:func:`amreval.smatch` (sentence graphs) or :func:`amreval.docsmatch`
(documents, with the coreference sub-score), and returns flat numbers named
``<prefix>_<name>``, which ``Trainer`` logs as ``eval_<prefix>_<name>``.
:func:`score_generations` is the same for text, in a loop of one's own.

Nothing here imports ``transformers``: the tokenizer is used through its
``batch_decode`` and ``pad_token_id`` only.

Example:
    >>> gold = ["(w / want-01 :ARG0 (b / boy))", "(g / go-02 :ARG0 (g2 / girl))"]
    >>> out = score_generations(["(w / want-01 :ARG0 (b / boy", "(g / go-02 :ARG0"], gold)
    >>> out["smatch_f1"], out["smatch_n_repaired"], out["smatch_n_unreadable"]
    (0.8571428571428571, 2, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from amreval.amr.linearize import STYLES, delinearize
from amreval.errors import InputError

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.match.options import SearchKeywords

__all__ = ["make_compute_metrics", "score_generations", "decode_generations", "METRIC_NAMES"]

#: The scores ``compute_metrics`` can give.
METRIC_NAMES = ("smatch", "docsmatch")


def _is_document_list(item: object) -> bool:
    return isinstance(item, (list, tuple))


def _metric_of(references: Sequence[object], metric: str | None) -> str:
    if metric is None:
        return "docsmatch" if any(_is_document_list(r) for r in references) else "smatch"
    if metric not in METRIC_NAMES:
        raise InputError(f"unknown metric {metric!r}: expected one of {', '.join(METRIC_NAMES)}")
    return metric


def _group(texts: list[str], references: Sequence[object], metric: str) -> list[Any]:
    """The generations as the scorer pairs them: one a reference, or a reference document's sentences in a row."""
    sizes = [len(r) if _is_document_list(r) else 1 for r in references]  # type: ignore[arg-type]
    if len(texts) != sum(sizes):
        what = "sentences in the reference documents" if metric == "docsmatch" else "references"
        raise InputError(
            f"{len(texts)} generations but {sum(sizes)} {what}: the generations must follow the references in order"
        )
    out: list[Any] = []
    start = 0
    for ref, size in zip(references, sizes):
        out.append(texts[start : start + size] if _is_document_list(ref) else texts[start])
        start += size
    return out


def score_generations(
    generations: Sequence[str],
    references: Sequence[object],
    *,
    linearization: str = "penman",
    repair: bool = True,
    metric: str | None = None,
    prefix: str | None = None,
    coref: bool | None = None,
    num_workers: int = 1,
    **search: Unpack[SearchKeywords],
) -> dict[str, float | int]:
    """Score generated linearized graphs against gold graphs: flat numbers with a prefix.

    Args:
        generations: the generated texts, in the order of the references (for documents given as
            lists of sentences, one generation a sentence, the documents' sentences in a row).
        references: gold sentence graphs (PENMAN or :class:`~amreval.amr.Graph`), or gold documents
            (DocAMR strings with ``metric="docsmatch"``, or lists of sentence graphs).
        linearization: ``"penman"``, ``"spring"`` or ``"amrlib"`` (:mod:`amreval.amr.linearize`).
        repair: score a malformed generation's readable prefix (:mod:`amreval.amr.repair`), counted in
            ``n_repaired``; False: the empty-graph rule (``n_unreadable``).
        metric: ``"smatch"`` or ``"docsmatch"`` (default: DocSmatch when a reference is a list of
            sentences, Smatch otherwise).
        prefix: what every name starts with (default: the metric's name).
        coref: DocSmatch's coreference sub-score (``coref_f1`` and its parts); default on, as everywhere
            (:func:`~amreval.scores.docsmatch.coref_setting`).
        num_workers: DocSmatch: documents scored in that many processes.
        **search: the search settings of :func:`amreval.smatch` (``solver``, ``restarts``, ``seed``,
            ``time_limit``, ``work_limit``).

    Returns:
        The score's numbers (``precision``, ``recall``, ``f1``, ``match``, ``test``, ``gold``,
        ``n_pairs``, ``n_optimal``, ``n_unproven``, ``gap``; DocSmatch's ``coref_*``; a sub-score
        with nothing to score is left out) and the generations' counts ``n_generations`` =
        ``n_intact`` + ``n_repaired`` + ``n_unreadable``, each named ``<prefix>_<name>``.

    Raises:
        InputError: an unknown linearization or metric, or generations that do not match the references.
    """
    if linearization not in STYLES:
        raise InputError(f"unknown linearization {linearization!r}: expected one of {', '.join(STYLES)}")
    refs = list(references)
    name = _metric_of(refs, metric)
    read = [delinearize(text, linearization, repair=repair) for text in generations]
    grouped = _group([d.penman for d in read], refs, name)
    if name == "docsmatch":
        from amreval.scores.docsmatch import docsmatch

        result: Any = docsmatch(grouped, refs, coref=coref, num_workers=num_workers, progress=False, **search)
    else:
        from amreval.scores.smatch import smatch

        result = smatch(grouped, refs, progress=False, **search)  # type: ignore[arg-type]  # checked there
    numbers = {k: v for k, v in result.as_dict().items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    unreadable = sum(d.status == "unreadable" for d in read)
    if name == "docsmatch":
        numbers["n_unreadable_documents"] = numbers["n_unreadable"]
    numbers.update(
        n_generations=len(read),
        n_intact=sum(d.status == "intact" for d in read),
        n_repaired=sum(d.status == "repaired" for d in read),
        n_unreadable=unreadable,
    )
    head = name if prefix is None else prefix
    return {f"{head}_{k}" if head else k: v for k, v in numbers.items()}


def decode_generations(tokenizer: Any, ids: Any, *, skip_special_tokens: bool = True) -> list[str]:
    """Token ids (a batch, padded with the tokenizer's pad id or ``-100``) decoded to text, one string a row.

    Logits (a 3-dimensional array, ``predict_with_generate=False``) are read as their most likely tokens.
    """
    import numpy as np

    if isinstance(ids, (tuple, list)) and ids and not np.isscalar(ids[0]) and np.ndim(ids[0]) >= 2:
        ids = ids[0]  # a model's extra outputs after the tokens
    array = np.asarray(ids)
    if array.ndim == 3:
        array = array.argmax(-1)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    array = np.where(array < 0, pad, array)
    texts = tokenizer.batch_decode(array.tolist(), skip_special_tokens=skip_special_tokens)
    return [" ".join(t.split()) for t in texts]


def make_compute_metrics(
    tokenizer: Any,
    references: Sequence[object] | None = None,
    *,
    linearization: str = "penman",
    repair: bool = True,
    metric: str | None = None,
    prefix: str | None = None,
    coref: bool | None = None,
    skip_special_tokens: bool = True,
    num_workers: int = 1,
    **search: Unpack[SearchKeywords],
) -> Callable[[Any], dict[str, float | int]]:
    """``compute_metrics`` for ``Seq2SeqTrainer`` (``predict_with_generate=True``): Smatch or DocSmatch.

    Args:
        tokenizer: the model's tokenizer (``batch_decode`` and ``pad_token_id`` are used).
        references: the evaluation set's gold graphs in its order (see :func:`score_generations`);
            None: the labels, decoded and read back from the linearization, are the references.
        linearization, repair, metric, prefix, coref, num_workers, search: as for
            :func:`score_generations` (``repair=True`` by default: a generation cut short scores
            its readable prefix and is counted in ``n_repaired``).
        skip_special_tokens: leave special tokens out when decoding (keep them when the
            linearization's own tokens, SPRING's ``<pointer:N>`` say, were added as special tokens).

    Returns:
        ``compute_metrics(eval_prediction)``: takes an ``EvalPrediction`` (or a
        ``(predictions, label_ids)`` pair) and returns the flat numbers of
        :func:`score_generations`.

    Under ``accelerate`` or ``torch.distributed`` with several processes, ``Trainer``
    gathers every process's predictions (in the evaluation set's order, the
    padding of the last batch left out) before it calls ``compute_metrics``,
    which then scores the whole set in every process, with the same result.
    """
    if linearization not in STYLES:
        raise InputError(f"unknown linearization {linearization!r}: expected one of {', '.join(STYLES)}")
    refs = None if references is None else list(references)
    if refs is not None:
        _metric_of(refs, metric)

    def compute_metrics(eval_prediction: Any) -> dict[str, float | int]:
        if isinstance(eval_prediction, tuple):
            predictions, labels = eval_prediction[0], eval_prediction[1]
        else:
            predictions, labels = eval_prediction.predictions, eval_prediction.label_ids
        generations = decode_generations(tokenizer, predictions, skip_special_tokens=skip_special_tokens)
        gold: Sequence[object]
        if refs is not None:
            gold = refs
        elif labels is None:
            raise InputError("no references given and no labels to read them from")
        else:
            texts = decode_generations(tokenizer, labels, skip_special_tokens=skip_special_tokens)
            gold = [delinearize(t, linearization, repair=False).penman for t in texts]
        return score_generations(
            generations,
            gold,
            linearization=linearization,
            repair=repair,
            metric=metric,
            prefix=prefix,
            coref=coref,
            num_workers=num_workers,
            **search,
        )

    return compute_metrics

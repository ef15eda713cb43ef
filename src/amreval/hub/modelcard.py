"""Model-card reporting: scores as ``model-index`` metadata of a Hugging Face model card.

A model card is a ``README.md`` whose YAML front matter carries, under
``model-index``, the evaluation results the Hub shows (and leaderboards read):
for each task and dataset, a list of metrics with a type, a name and a value.
:func:`eval_results` turns a DocSmatch, Smatch, S²match or MFβ result (the
result object, or the flat dict of its ``as_dict()`` or of an ``evaluate``
metric's ``compute``) into ``huggingface_hub.EvalResult`` entries, one per
reported number (rounded to 4 decimals unless ``digits`` says otherwise);
:func:`write_model_card` writes them into a card file, creating it or updating
the entries of an existing one in place.

Each entry has ``metric_type`` the metric (``"docsmatch"``, ``"smatch"``,
``"s2match"`` or ``"mfbeta"``), ``metric_name`` a readable name such as
``"DocSmatch F1"`` or ``"DocSmatch coref F1"``, the value as a Python float
(an int for counts), the dataset MS-AMR for DocSmatch and AMR 3.0 (``ldc2020t02``) for the sentence
metrics unless given, and ``metric_config`` the result's ``config`` string (solver, restarts, seed,
score and amreval version, plus ``unproven=N,gap=G`` when N pairs were not proven optimal within
their time limit), so a reported number says how it was computed and whether it is certified.
Everything runs locally: nothing is read from or sent to the Hub (publish the
card with ``huggingface_hub`` yourself when you want to).

``evaluate.save`` is the other record of a run: it writes the numbers and the
config to a JSON file, adding the time, the git commit of the working
directory and the Python and ``evaluate`` versions (keys ``_timestamp``,
``_git_commit_hash``, ``_evaluate_version``, ``_python_version``,
``_interpreter_path``). Given a directory it names the file
``result-<date>-<time>.json``; the numbers read back with ``json.load`` equal
the computed ones, and the same dict feeds :func:`eval_results`::

    import evaluate
    docsmatch = evaluate.load("metrics/docsmatch")
    results = docsmatch.compute(predictions=preds, references=golds)
    evaluate.save("results/docsmatch.json", **results, model="my-parser")
    card = write_model_card("my-parser/README.md", eval_results(results), model_name="my-parser")

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> from amreval.scores.docsmatch import docsmatch
    >>> gold = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))"
    >>> pred = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01))"
    >>> result = docsmatch([pred], [gold], coref=True)
    >>> entries = eval_results(result, dataset_config="docamr", keys=("f1", "coref_f1"))
    >>> [(e.metric_type, e.metric_name, e.metric_value) for e in entries]
    [('docsmatch', 'DocSmatch F1', 0.9412), ('docsmatch', 'DocSmatch coref F1', 0.8)]
    >>> path = Path(tempfile.mkdtemp()) / "README.md"
    >>> card = write_model_card(path, entries, model_name="my-parser", text="# my-parser\\n")
    >>> print(path.read_text())  # doctest: +ELLIPSIS
    ---
    model-index:
    - name: my-parser
      results:
      - task:
          type: text2text-generation
          name: AMR parsing
        dataset:
          name: MS-AMR (test)
          type: ms_amr
          config: docamr
          split: test
        metrics:
        - type: docsmatch
          value: 0.9412
          name: DocSmatch F1
          config: solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=docsmatch,coref=...,amreval=...
        - type: docsmatch
          value: 0.8
          name: DocSmatch coref F1
          config: solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=docsmatch,coref=...,amreval=...
    ---
    # my-parser
    <BLANKLINE>
    >>> import shutil; shutil.rmtree(path.parent)
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from amreval.errors import InputError, MissingDependencyError

if TYPE_CHECKING:
    from huggingface_hub import EvalResult, ModelCard

    from amreval.scores.results import Result

__all__ = [
    "DATASET_LABELS",
    "DEFAULT_DATASETS",
    "DEFAULT_KEYS",
    "METRIC_LABELS",
    "eval_results",
    "merge_eval_results",
    "write_model_card",
]

#: Readable metric names, used as the prefix of each ``metric_name``.
METRIC_LABELS: dict[str, str] = {
    "docsmatch": "DocSmatch",
    "smatch": "Smatch",
    "s2match": "S²match",
    "mfbeta": "MFβ",
}

#: The numbers reported by default, per metric (those missing from a result are left out).
DEFAULT_KEYS: dict[str, tuple[str, ...]] = {
    "docsmatch": ("precision", "recall", "f1", "coref_precision", "coref_recall", "coref_f1"),
    "smatch": ("precision", "recall", "f1"),
    "s2match": ("precision", "recall", "f1"),
    "mfbeta": ("mf_beta", "mf_1", "mf_0.5", "mf_2", "meaning", "form"),
}

# (task_type, task_name) when not given: AMR parsing (graphs written as text, a Hub task id), or
# AMR-to-text generation for MFβ
_TASKS: dict[str, tuple[str, str]] = {"mfbeta": ("text-generation", "AMR-to-text generation")}
_PARSING = ("text2text-generation", "AMR parsing")

#: The dataset reported when none is given, per metric: DocSmatch scores documents of MS-AMR, the
#: sentence metrics the AMR 3.0 release (LDC2020T02).
DEFAULT_DATASETS: dict[str, str] = {
    "docsmatch": "ms_amr",
    "smatch": "ldc2020t02",
    "s2match": "ldc2020t02",
    "mfbeta": "ldc2020t02",
}
#: Readable names of the dataset ids, used for the dataset's name (with the split) when none is given.
DATASET_LABELS: dict[str, str] = {"ms_amr": "MS-AMR", "ldc2020t02": "AMR 3.0"}

_MEASURES = {"precision": "precision", "recall": "recall", "f1": "F1"}
_GROUPS = {
    "coref": "coref",
    "coref_named_entity": "coref named-entity",
    "coref_bridging": "coref bridging",
    "coref_other": "coref other",
    "noncoref": "non-coref",
    "unlabeled": "unlabeled",
    "no_wsd": "no-WSD",
    "concepts": "concepts",
    "named_ent": "named entities",
    "negations": "negations",
    "wikification": "wikification",
    "reentrancies": "reentrancies",
    "srl": "SRL",
}

# the fields the model-index stores once per (task, dataset) group
_SHARED_FIELDS = ("task_name", "dataset_name", "dataset_args", "source_name", "source_url")


def _hub() -> Any:
    """Import huggingface_hub, or explain how to install it."""
    try:
        import huggingface_hub
    except ImportError:
        raise MissingDependencyError("huggingface_hub", "hub", "model-card reporting") from None
    return huggingface_hub


def _flat(result: Mapping[str, Any] | Result) -> dict[str, Any]:
    if isinstance(result, Mapping):
        return dict(result)
    as_dict = getattr(result, "as_dict", None)
    if callable(as_dict):
        return dict(as_dict())
    raise InputError(
        f"expected a result with as_dict() (SmatchResult, DocsmatchResult, MFResult) or a mapping, "
        f"got {type(result).__name__}"
    )


def _infer_metric(values: Mapping[str, Any]) -> str:
    score = values.get("score")
    if isinstance(score, str) and score:
        return score
    config = values.get("config")  # an evaluate metric's results: the score's name is in config
    named = re.search(r"(?:^|,)score=([^,]+)", config) if isinstance(config, str) else None
    if named:
        return named.group(1)
    if "mf_beta" in values:
        return "mfbeta"
    if "f1" in values:
        return "smatch"
    raise InputError("cannot tell which metric the result comes from; pass metric=")


def _metric_name(metric: str, key: str, values: Mapping[str, Any]) -> str:
    label = METRIC_LABELS.get(metric, metric)
    if metric == "mfbeta":
        if key == "mf_beta" and isinstance(values.get("beta"), numbers.Real):
            return f"{label} (β={float(values['beta']):g})"
        if key.startswith("mf_"):
            try:
                return f"{label} (β={float(key[3:]):g})"
            except ValueError:
                pass
        if key in ("meaning", "form"):
            return f"{label} {key} ({key[0].upper()})"
    if key in ("f1_ci_low", "f1_ci_high"):
        return f"{label} F1 CI {key.rsplit('_', 1)[1]}"
    group, _, measure = key.rpartition("_")
    if key in _MEASURES:
        return f"{label} {_MEASURES[key]}"
    if measure in _MEASURES and group:
        return f"{label} {_GROUPS.get(group, group.replace('_', ' '))} {_MEASURES[measure]}"
    return f"{label} {key.replace('_', ' ')}"


def _scored(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _number(key: str, value: Any) -> float | int:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{key!r} is not a number ({type(value).__name__}); only numbers can be reported")
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value)


def eval_results(
    result: Mapping[str, Any] | Result,
    *,
    metric: str | None = None,
    keys: Sequence[str] | None = None,
    task_type: str | None = None,
    task_name: str | None = None,
    dataset_type: str | None = None,
    dataset_name: str | None = None,
    dataset_config: str | None = None,
    dataset_split: str | None = "test",
    dataset_revision: str | None = None,
    metric_args: Mapping[str, Any] | None = None,
    source_name: str | None = None,
    source_url: str | None = None,
    digits: int | None = 4,
) -> list[EvalResult]:
    """Turn a score into ``huggingface_hub.EvalResult`` entries, one per reported number.

    Args:
        result: a :class:`~amreval.scores.docsmatch.DocsmatchResult`,
            :class:`~amreval.scores.results.SmatchResult` (Smatch or S²match),
            :class:`~amreval.mfbeta.score.MFResult`, or the flat dict of their
            ``as_dict()`` or of an ``evaluate`` metric's ``compute``.
        metric: the ``metric_type``: ``"docsmatch"``, ``"smatch"``,
            ``"s2match"``, ``"mfbeta"`` or any metric id. By default the
            result's ``score`` entry (every amreval result and metric output
            has one), else ``"mfbeta"`` when there is an ``mf_beta`` key,
            else ``"smatch"``.
        keys: the numbers to report, in order. By default those of
            :data:`DEFAULT_KEYS` for the metric that the result has (so the
            coref sub-score appears only when it was computed); keys named
            here must be in the result.
        task_type, task_name: the task (``task_type`` a Hub task id); by default
            ``"text2text-generation"`` / ``"AMR parsing"``, and
            ``"text-generation"`` / ``"AMR-to-text generation"`` for MFβ.
        dataset_type, dataset_name, dataset_config, dataset_split,
            dataset_revision: the dataset (its id, a readable name, the config
            given to ``load_dataset``, the split and the revision). The id
            defaults to the metric's (:data:`DEFAULT_DATASETS`: ``"ms_amr"``
            for DocSmatch, ``"ldc2020t02"``, AMR 3.0, for Smatch, S²match and
            MFβ); the name defaults to the id's readable name followed by the
            split, e.g. ``"MS-AMR (validation)"``.
        metric_args: the arguments given to ``compute``, when worth recording.
        source_name, source_url: where the numbers come from (a name needs a URL).
        digits: round the values to this many decimals (default 4; ``None``
            reports them exactly). Counts stay integers.

    Returns:
        One entry per number, ``metric_config`` holding the result's
        ``config`` string. Keys that give the same name (``mf_beta`` and
        ``mf_1`` when β = 1) are reported once.

    Raises:
        InputError: a named key is missing or not a number, or the metric
            cannot be told.
        MissingDependencyError: huggingface_hub is not installed.

    Example:
        >>> from amreval.scores.smatch import smatch
        >>> r = smatch(["(w / want-01 :ARG0 (b / boy))"], ["(w / want-01 :ARG0 (g / girl))"])
        >>> entries = eval_results(r, dataset_split="validation")
        >>> [(e.metric_name, e.metric_value) for e in entries]
        [('Smatch precision', 0.75), ('Smatch recall', 0.75), ('Smatch F1', 0.75)]
        >>> entries[0].dataset_type, entries[0].dataset_name, entries[0].dataset_split
        ('ldc2020t02', 'AMR 3.0 (validation)', 'validation')
    """
    hub = _hub()
    values = _flat(result)
    metric = metric or _infer_metric(values)
    if keys is None:
        # a sub-score with nothing to score (None, or NaN in a metric's results) is not reported
        chosen = [k for k in DEFAULT_KEYS.get(metric, ("precision", "recall", "f1")) if _scored(values.get(k))]
        if not chosen:
            raise InputError(f"the result has none of the default {metric} keys; pass keys=")
    else:
        chosen = list(keys)
        missing = [k for k in chosen if k not in values]
        if missing:
            raise InputError(f"not in the result: {', '.join(map(repr, missing))} (it has {', '.join(values)})")
    default_task = _TASKS.get(metric, _PARSING)
    if dataset_type is None:
        dataset_type = DEFAULT_DATASETS.get(metric, DEFAULT_DATASETS["smatch"])
    if dataset_name is None:
        label = DATASET_LABELS.get(dataset_type, dataset_type)
        dataset_name = f"{label} ({dataset_split})" if dataset_split else label
    config = values.get("config")
    if isinstance(config, str) and config and isinstance(values.get("n_unproven"), int) and values["n_unproven"]:
        # a score that is not certified says so wherever it is reported
        config += f",unproven={values['n_unproven']},gap={values.get('gap', 0):g}"
    if isinstance(config, str) and config and isinstance(values.get("n_timed_out"), int) and values["n_timed_out"]:
        # and one that the clock (the search's safety net) stopped, whose numbers can depend on the machine
        config += f",timed_out={values['n_timed_out']}"
    entries: list[EvalResult] = []
    seen: set[str] = set()
    for key in chosen:
        value = _number(key, values[key])
        if digits is not None:
            value = round(value, digits)
        name = _metric_name(metric, key, values)
        if name in seen:
            continue
        seen.add(name)
        entries.append(
            hub.EvalResult(
                task_type=task_type or default_task[0],
                task_name=task_name or (default_task[1] if task_type is None else None),
                dataset_type=dataset_type,
                dataset_name=dataset_name,
                dataset_config=dataset_config,
                dataset_split=dataset_split,
                dataset_revision=dataset_revision,
                metric_type=metric,
                metric_name=name,
                metric_value=value,
                metric_config=config if isinstance(config, str) and config else None,
                metric_args=dict(metric_args) if metric_args else None,
                source_name=source_name,
                source_url=source_url,
            )
        )
    return entries


def _entry_key(entry: EvalResult) -> tuple:
    return (*entry.unique_identifier, entry.metric_type, entry.metric_name)


def merge_eval_results(old: Iterable[EvalResult], new: Iterable[EvalResult]) -> list[EvalResult]:
    """Entries of ``old`` with those of ``new`` merged in.

    An entry of ``new`` replaces, in place, the entry of ``old`` with the same
    task, dataset (id, config, split, revision), ``metric_type`` and
    ``metric_name``; the others are appended. The model-index stores the task
    and dataset names, the dataset arguments and the source once per task and
    dataset, so those of the new entries are given to the old entries of the
    same task and dataset (what is written is then what is held).

    Example:
        >>> from huggingface_hub import EvalResult
        >>> def entry(name, value):
        ...     return EvalResult(task_type="text2text-generation", dataset_type="ms_amr", dataset_name="MS-AMR",
        ...                       metric_type="docsmatch", metric_name=name, metric_value=value)
        >>> merged = merge_eval_results([entry("F1", 0.5), entry("P", 0.6)], [entry("F1", 0.7), entry("R", 0.8)])
        >>> [(e.metric_name, e.metric_value) for e in merged]
        [('F1', 0.7), ('P', 0.6), ('R', 0.8)]
    """
    merged = [dataclasses.replace(e) for e in old]
    where = {_entry_key(e): k for k, e in enumerate(merged)}
    shared: dict[tuple, dict[str, Any]] = {}
    for entry in new:
        key = _entry_key(entry)
        if key in where:
            merged[where[key]] = dataclasses.replace(entry)
        else:
            where[key] = len(merged)
            merged.append(dataclasses.replace(entry))
        shared[entry.unique_identifier] = {f: getattr(entry, f) for f in _SHARED_FIELDS}
    for entry in merged:
        for field, value in shared.get(entry.unique_identifier, {}).items():
            setattr(entry, field, value)
    return merged


def write_model_card(
    path: str | Path,
    results: Sequence[EvalResult],
    *,
    model_name: str,
    update: bool = True,
    text: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> ModelCard:
    """Write evaluation results into a model card (a README.md with YAML front matter).

    Args:
        path: the card file, or a directory (its ``README.md``).
        results: entries from :func:`eval_results` (or any ``EvalResult``).
        model_name: the model's name in the ``model-index``.
        update: when the card exists, keep its metadata, other results and
            body, and replace the results for the same task, dataset,
            ``metric_type`` and ``metric_name`` (see :func:`merge_eval_results`).
            ``False`` writes a new card over it.
        text: the Markdown body of a new card (default: a heading with the
            model name); an existing card keeps its body.
        metadata: other front-matter fields to set, such as ``license``,
            ``language``, ``tags`` or ``base_model``.

    Returns:
        The card as written (``huggingface_hub.ModelCard``).

    Raises:
        MissingDependencyError: huggingface_hub is not installed.

    Example:
        >>> import tempfile
        >>> from pathlib import Path
        >>> from huggingface_hub import ModelCard
        >>> from amreval.scores.docsmatch import docsmatch
        >>> doc = "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))"
        >>> folder = Path(tempfile.mkdtemp())
        >>> _ = write_model_card(folder, eval_results(docsmatch([doc], [doc], coref=True)),
        ...                      model_name="my-parser", metadata={"license": "apache-2.0"})
        >>> card = ModelCard.load(folder / "README.md")
        >>> card.data.license, [(e.metric_name, e.metric_value) for e in card.data.eval_results][-1]
        ('apache-2.0', ('DocSmatch coref F1', 1.0))
        >>> import shutil; shutil.rmtree(folder)
    """
    hub = _hub()
    path = Path(path)
    if path.is_dir():
        path = path / "README.md"
    results = list(results)
    if update and path.is_file():
        card = hub.ModelCard.load(path)
        card.data.eval_results = merge_eval_results(card.data.eval_results or [], results)
    else:
        body = text if text is not None else f"# {model_name}\n"
        card = hub.ModelCard(f"---\n\n---\n{body}")
        card.data.eval_results = merge_eval_results([], results)
    if card.data.eval_results:
        card.data.model_name = model_name
    else:
        card.data.eval_results = None
    for field, value in (metadata or {}).items():
        card.data[field] = value
    card.save(path)
    return card

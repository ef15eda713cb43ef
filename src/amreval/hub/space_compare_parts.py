"""The comparison Space's tables and model-index entries: a :class:`~amreval.scores.comparison_results.Comparison`
laid out as HTML (each number's cell keeps its exact value in ``data-value``, as the other Spaces' tables do),
and each system's score as the ``model-index`` entry of its model card (:mod:`amreval.hub.modelcard`).

Nothing here computes a score: the comparison is :func:`amreval.scores.compare.compare_systems`'s.

Example:
    >>> from amreval.scores.compare import compare_counts
    >>> cmp = compare_counts({"A": [[3, 4, 4], [5, 5, 6]], "B": [[2, 4, 4], [5, 6, 6]]}, n_resamples=10,
    ...                      score="smatch")
    >>> model_values(cmp, "A")["f1"] == cmp.scores["A"]
    True
    >>> item_choices(cmp, "A", "B")
    ['1. 1 (A 0.7500, B 0.5000)', '2. 2 (A 0.9091, B 0.8333)']
"""

from __future__ import annotations

import html
from typing import Any

from amreval.hub.space_app import note, score_cell
from amreval.report.comparison import test_runs
from amreval.scores.comparison_results import Comparison

__all__ = [
    "ranking_html",
    "pairwise_tests_html",
    "breakdown_html",
    "differences_html",
    "item_choices",
    "model_values",
    "model_index_yaml",
    "TOP_ITEMS",
]

#: The items listed (and offered for pictures) per pair, the largest differences first.
TOP_ITEMS = 20
_PARTS = ("precision", "recall", "f1")
_DOC_PARTS = ("coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref")


def _esc(text: Any) -> str:
    return html.escape(str(text))


def ranking_html(cmp: Comparison) -> str:
    """The systems ranked by their corpus score, with the paired bootstrap interval and the counts summed."""
    pct = f"{100 * cmp.tests[0].confidence:g} %"
    t = cmp.tests[0]
    head = (
        f"<p>{_esc(cmp.score)} {_esc(cmp.statistic)} of <b data-key='n_items'>{cmp.n_items}</b> items; "
        f"{_esc(t.test)} test ({_esc(t.alternative)}, {test_runs(t, cmp.n_items)}, seed {t.seed}); intervals: "
        f"{pct} paired bootstrap.</p>"
    )
    rows = "".join(
        f"<tr data-system='{_esc(name)}'><td>{rank}</td><th scope='row'>{_esc(name)}</th>"
        + score_cell(f"score:{name}", cmp.scores[name])
        + score_cell(f"ci_low:{name}", cmp.intervals[name][0])
        + score_cell(f"ci_high:{name}", cmp.intervals[name][1])
        + f"<td>{' / '.join(_count(x) for x in cmp.counts[name].sum(axis=0))}</td></tr>"
        for rank, name in enumerate(cmp.ranking(), start=1)
    )
    config = f"<p><small>config: <code data-key='config'>{_esc(cmp.config)}</code></small></p>"
    return (
        head + "<table id='ranking-table'><thead><tr><th>Rank</th><th>System</th>"
        f"<th>{_esc(cmp.statistic)}</th><th>{pct} CI low</th><th>CI high</th><th>Counts summed</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>" + config
    )


def _count(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{float(x):.2f}"


def pairwise_tests_html(cmp: Comparison) -> str:
    """Every pairwise test: the difference, its interval, the p-value and (more than two systems) Holm's."""
    holm = len(cmp.names) > 2
    rows = ""
    for t in cmp.tests:
        key = f"{t.a}|{t.b}"
        rows += (
            f"<tr><th scope='row'>{_esc(t.a)} − {_esc(t.b)}</th>"
            + score_cell(f"difference:{key}", t.difference)
            + score_cell(f"diff_low:{key}", t.ci_low)
            + score_cell(f"diff_high:{key}", t.ci_high)
            + score_cell(f"p:{key}", t.p_value)
            + (score_cell(f"p_holm:{key}", t.p_holm) if holm else "")
            + "</tr>"
        )
    return (
        "<table id='tests-table'><thead><tr><th>Pair</th><th>Difference</th><th>CI low</th><th>CI high</th><th>p</th>"
        + ("<th>p (Holm)</th>" if holm else "")
        + f"</tr></thead><tbody>{rows}</tbody></table>"
    )


def breakdown_html(cmp: Comparison, svg: str) -> str:
    """The breakdown of the first two systems by score part: the plot ``svg`` and its numbers, or a note that
    the score has no parts."""
    if not cmp.breakdown:
        return note(
            f"The {cmp.score} score has no parts to break down: choose DocSmatch (the coreference parts; tick the "
            "fine-grained breakdown for Damonte's measures) or a SMATCH++ aspect score."
        )
    a, b = cmp.names[0], cmp.names[1]
    rows = "".join(
        f"<tr><th scope='row'>{_esc(t.score)}</th>"
        + score_cell(f"part:{t.score}:a", t.score_a)
        + score_cell(f"part:{t.score}:b", t.score_b)
        + score_cell(f"part:{t.score}:difference", t.difference)
        + score_cell(f"part:{t.score}:low", t.ci_low)
        + score_cell(f"part:{t.score}:high", t.ci_high)
        + score_cell(f"part:{t.score}:p", t.p_value)
        + "</tr>"
        for t in cmp.breakdown
    )
    table = (
        f"<table id='breakdown-table'><thead><tr><th>Part</th><th>{_esc(a)}</th><th>{_esc(b)}</th><th>Difference</th>"
        f"<th>CI low</th><th>CI high</th><th>p</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    return f"<div class='svg-box' style='overflow:auto'>{svg}</div>" + table


def differences_html(cmp: Comparison, a: str, b: str, top: int = TOP_ITEMS) -> str:
    """The ``top`` items whose scores under ``a`` and ``b`` differ most (each item's score of its own counts)."""
    rows = "".join(
        f"<tr><td>{d.index + 1}</td><td>{_esc(d.id)}</td>"
        + score_cell(f"item_a:{d.index + 1}", d.score_a)
        + score_cell(f"item_b:{d.index + 1}", d.score_b)
        + score_cell(f"item_difference:{d.index + 1}", d.difference)
        + "</tr>"
        for d in cmp.differences(a, b)[:top]
    )
    return (
        f"<table id='differences-table'><thead><tr><th>#</th><th>Id</th><th>{_esc(a)}</th><th>{_esc(b)}</th>"
        f"<th>Difference</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def item_choices(cmp: Comparison, a: str, b: str, top: int = TOP_ITEMS) -> list[str]:
    """The items offered for pictures: the ``top`` that differ most, as ``"<position>. <id> (a …, b …)"``."""
    return [f"{d.index + 1}. {d.id} ({a} {d.score_a:.4f}, {b} {d.score_b:.4f})" for d in cmp.differences(a, b)[:top]]


def _metric(cmp: Comparison) -> tuple[str, str]:
    """The model-index ``metric_type`` of a comparison's score and the prefix of its keys."""
    if cmp.score in ("smatch", "s2match", "docsmatch"):
        return cmp.score, ""
    if cmp.score in _DOC_PARTS:
        return "docsmatch", f"{cmp.score}_"
    if cmp.score.startswith("aspects-"):
        return "smatchpp", f"{cmp.score}_"
    return "smatch", f"{cmp.score}_"  # a fine-grained measure


def model_values(cmp: Comparison, name: str) -> dict[str, Any]:
    """A system's numbers as a flat result for :func:`amreval.hub.modelcard.eval_results`: precision, recall
    and F1 of its summed counts (the statistic's function, so the compared statistic's value is the ranking's),
    the interval of the compared statistic, the config and the score."""
    from amreval.scores.corpus_statistics import prf_values

    metric, prefix = _metric(cmp)
    sums = cmp.counts[name].sum(axis=0)
    values: dict[str, Any] = {"score": metric, "config": cmp.config}
    for part in _PARTS:
        values[f"{prefix}{part}"] = float(prf_values(sums, part))
    values[f"{prefix}{cmp.statistic}_ci_low"] = cmp.intervals[name][0]
    values[f"{prefix}{cmp.statistic}_ci_high"] = cmp.intervals[name][1]
    return values


def model_index_yaml(cmp: Comparison, name: str, *, dataset: str | None = None, split: str | None = "test") -> str:
    """The ``model-index`` entry of a system (YAML for the front matter of its model card): its precision,
    recall and F1 and the interval of the compared statistic, the config, and the interval's settings."""
    from huggingface_hub import ModelCardData

    from amreval.hub.modelcard import eval_results

    metric, prefix = _metric(cmp)
    values = model_values(cmp, name)
    t = cmp.tests[0]
    keys = [f"{prefix}{part}" for part in _PARTS] + [f"{prefix}{cmp.statistic}_ci_{end}" for end in ("low", "high")]
    entries = eval_results(
        values,
        metric=metric,
        keys=keys,
        dataset_type=dataset or None,
        dataset_split=split or None,
        metric_args={"interval": "paired bootstrap", "confidence": t.confidence, "n_resamples": t.n_resamples},
    )
    return ModelCardData(model_name=name, eval_results=entries).to_yaml() + "\n"

"""How much MFβ depends on the parser: the same systems scored under several parser settings.

Opitz & Frank (2021) score the same generation systems with several AMR
parsers (GSII, GPLA, TTSA) and with the gold AMR replaced by a parse of the
reference sentence, and compare the systems' rankings.
:func:`parser_robustness` does that in one call:

* each system's Meaning, Form and MFβ under each **parser setting**: a set of
  parses given beforehand (system → parses of its generated sentences) or a
  parser (anything :func:`~amreval.mfbeta.parsers.get_parser` accepts) that
  parses every system's sentences;
* the **gold-ablation setting** of a parser setting, named ``<setting>/ref``:
  Meaning against the parse of the reference sentence (given, or made by the
  setting's parser) instead of the gold AMR;
* for every two settings and for Meaning and MFβ, the **rank agreement**
  over the systems (Spearman's ρ, Kendall's τ-b, Pearson's r of the scores:
  :func:`spearman`, :func:`kendall`, :func:`pearson`, ties handled as
  ``scipy.stats`` handles them) and the **rank switches**: the pairs of
  systems the two settings order oppositely (:func:`rank_switches`; a tie in
  either setting is no switch).

Form does not depend on the parser: it is computed once per system (the
language model scores each distinct sentence once, and its cache keeps them)
and is the same in every setting, so its rankings always agree and are not
compared. Each setting's scores are those :func:`~amreval.mfbeta.score.mfbeta`
gives for the same parses.

Example:
    >>> round(spearman([0.2, 0.5, 0.4], [0.1, 0.3, 0.35]), 4), kendall([1, 2, 3], [3, 2, 1])
    (0.5, -1.0)
    >>> rank_switches(["A", "B", "C"], [0.2, 0.5, 0.4], [0.1, 0.3, 0.35])
    [('B', 'C')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from amreval.amr.graph import Graph
from amreval.errors import InputError
from amreval.match.options import SearchOptions
from amreval.mfbeta.clean import CleanLike, clean_sentences, cleaner_name, get_cleaner
from amreval.mfbeta.combine import mf_beta
from amreval.mfbeta.form import DEFAULT_KIND, DEFAULT_MODEL, SentenceScorer, check_sentences, form_score, get_scorer
from amreval.mfbeta.graphs import given_parses, gold_graphs
from amreval.mfbeta.options import FormOptions, MeaningOptions, mfbeta_options
from amreval.mfbeta.parsers import ParserLike, get_parser, parse_sentences
from amreval.mfbeta.score import MFResult, mfbeta
from amreval.scores.results import Result
from amreval.scores.text import plural

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from amreval.mfbeta.options import MFBetaKeywords

__all__ = [
    "ABLATION_SUFFIX",
    "COMPARED_SCORES",
    "RankAgreement",
    "RobustnessResult",
    "agreements",
    "average_ranks",
    "kendall",
    "parser_robustness",
    "pearson",
    "rank_switches",
    "spearman",
]

#: The name of a setting's gold-ablation setting is the setting's name and this.
ABLATION_SUFFIX = "/ref"
#: The scores whose rankings are compared (Form is the same in every setting).
COMPARED_SCORES = ("meaning", "mf_beta")


def _scores(values: npt.ArrayLike, label: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1 or arr.size < 2:
        raise InputError(f"{label}: expected at least two scores in a 1-D list, got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise InputError(f"{label}: scores must be finite")
    return arr


def _pair(x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    a, b = _scores(x, "x"), _scores(y, "y")
    if a.shape != b.shape:
        raise InputError(f"{a.size} scores against {b.size}; they are paired by position")
    return a, b


def average_ranks(values: npt.ArrayLike) -> np.ndarray:
    """Ranks from 1, tied values sharing the mean of their ranks (``scipy.stats.rankdata``'s ``average``).

    Example:
        >>> average_ranks([0.3, 0.1, 0.3, 0.2]).tolist()
        [3.5, 1.0, 3.5, 2.0]
    """
    arr = np.asarray(values, dtype=np.float64)
    order = np.argsort(arr, kind="stable")
    ranks = np.empty(arr.size, dtype=np.float64)
    ranks[order] = np.arange(1, arr.size + 1, dtype=np.float64)
    for value in np.unique(arr):
        tied = arr == value
        if tied.sum() > 1:
            ranks[tied] = ranks[tied].mean()
    return ranks


def pearson(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Pearson's r of two lists of scores (NaN when either is constant, as ``scipy.stats.pearsonr``).

    Raises:
        InputError: fewer than two scores, lengths that differ, or a score that is not finite.
    """
    a, b = _pair(x, y)
    da, db = a - a.mean(), b - b.mean()
    na, nb = float(np.linalg.norm(da)), float(np.linalg.norm(db))
    if na == 0 or nb == 0:
        return float("nan")
    return float(np.clip(np.dot(da / na, db / nb), -1.0, 1.0))


def spearman(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Spearman's ρ: Pearson's r of the average ranks (``scipy.stats.spearmanr``; NaN when either is constant)."""
    a, b = _pair(x, y)
    return pearson(average_ranks(a), average_ranks(b))


def kendall(x: npt.ArrayLike, y: npt.ArrayLike) -> float:
    """Kendall's τ-b, ``(P - Q) / sqrt((P + Q + T)(P + Q + U))`` over the pairs of positions: P ordered alike,
    Q oppositely, T tied in ``x`` only, U tied in ``y`` only (``scipy.stats.kendalltau``'s default; NaN when
    either is constant)."""
    a, b = _pair(x, y)
    i, j = np.triu_indices(a.size, k=1)
    sa, sb = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
    concordant = int(np.sum(sa * sb > 0))
    discordant = int(np.sum(sa * sb < 0))
    only_x = int(np.sum((sa == 0) & (sb != 0)))
    only_y = int(np.sum((sb == 0) & (sa != 0)))
    denominator = float(concordant + discordant + only_x) * float(concordant + discordant + only_y)
    if denominator == 0:
        return float("nan")
    return float(np.clip((concordant - discordant) / np.sqrt(denominator), -1.0, 1.0))


def rank_switches(systems: Sequence[str], x: npt.ArrayLike, y: npt.ArrayLike) -> list[tuple[str, str]]:
    """The pairs of systems that ``x`` and ``y`` order oppositely, each as ``(ahead in x, ahead in y)``, in
    the systems' order; a tie in either is no switch.

    Raises:
        InputError: the number of systems and of scores differ.
    """
    a, b = _pair(x, y)
    if len(systems) != a.size:
        raise InputError(f"{plural(len(systems), 'system')} but {a.size} scores")
    out = []
    for i, j in combinations(range(a.size), 2):
        if (a[i] - a[j]) * (b[i] - b[j]) < 0:
            out.append((systems[i], systems[j]) if a[i] > a[j] else (systems[j], systems[i]))
    return out


@dataclass
class RankAgreement(Result):
    """How two settings rank the systems by one score.

    Attributes:
        a, b: the two settings; ``score``: ``meaning`` or ``mf_beta``.
        spearman, kendall, pearson: ρ, τ-b and r over the systems (NaN when a setting gives every system
            the same score).
        switches: the pairs of systems ordered oppositely, ``(ahead in a, ahead in b)``.
    """

    a: str
    b: str
    score: str
    spearman: float
    kendall: float
    pearson: float
    switches: list[tuple[str, str]]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: NaN becomes None, a switch a two-item list."""
        return {
            "a": self.a,
            "b": self.b,
            "score": self.score,
            **{k: _number(getattr(self, k)) for k in ("spearman", "kendall", "pearson")},
            "switches": [list(s) for s in self.switches],
        }


def _number(value: float) -> float | None:
    return None if value != value else value


@dataclass
class RobustnessResult(Result):
    """MFβ of several systems under several parser settings and how the settings agree.

    Attributes:
        systems: the systems' names; ``settings`` the settings' names, each parser setting followed by its
            gold-ablation setting (``<setting>/ref``) when there is one.
        results: setting → system → :class:`~amreval.mfbeta.score.MFResult`.
        form: system → Form (the same in every setting).
        agreement: for every two settings (in the settings' order) and each of :data:`COMPARED_SCORES`.
        ablation: the gold-ablation settings' names.
    """

    systems: list[str]
    settings: list[str]
    results: dict[str, dict[str, MFResult]]
    form: dict[str, float]
    agreement: list[RankAgreement]
    ablation: list[str] = field(default_factory=list)

    def scores(self, score: str = "mf_beta") -> dict[str, dict[str, float]]:
        """Setting → system → ``meaning``, ``form`` or ``mf_beta``."""
        if score not in ("meaning", "form", "mf_beta"):
            raise InputError(f"unknown score {score!r}; expected meaning, form or mf_beta")
        return {s: {n: float(getattr(r, score)) for n, r in by.items()} for s, by in self.results.items()}

    def agreement_of(self, a: str, b: str, score: str = "mf_beta") -> RankAgreement:
        """The agreement of settings ``a`` and ``b`` (either order) by ``score``.

        Raises:
            InputError: no such pair of settings or score.
        """
        for item in self.agreement:
            if item.score == score and {item.a, item.b} == {a, b} and a != b:
                return item
        raise InputError(f"no agreement of settings {a!r} and {b!r} by {score!r}")

    def as_dict(self) -> dict[str, Any]:
        """The scores (setting → system → meaning, form, mf_beta, parse failures), Form, the agreements."""
        return {
            "systems": list(self.systems),
            "settings": list(self.settings),
            "ablation": list(self.ablation),
            "scores": {
                s: {
                    n: {
                        "meaning": r.meaning,
                        "form": r.form,
                        "mf_beta": r.mf_beta,
                        "parse_failures": r.parse_failures,
                        "reference_parse_failures": r.reference_parse_failures,
                    }
                    for n, r in by.items()
                }
                for s, by in self.results.items()
            },
            "form": dict(self.form),
            "agreement": [a.as_dict() for a in self.agreement],
            "config": next(iter(next(iter(self.results.values())).values())).config.as_string(),
        }

    def table(self, digits: int = 4) -> str:
        """A readable report: per score a table of systems × settings, then the agreements of every two settings."""
        width = max(len(s) for s in self.settings) + 2
        first = max(8, *(len(n) + 2 for n in self.systems))
        lines: list[str] = []
        beta = next(iter(next(iter(self.results.values())).values())).beta
        names = {"meaning": "Meaning", "mf_beta": f"MF_{beta:g}"}
        for score in COMPARED_SCORES:
            lines.append(names[score].ljust(first) + "".join(s.rjust(max(width, digits + 4)) for s in self.settings))
            for n in self.systems:
                cells = (f"{getattr(self.results[s][n], score):.{digits}f}" for s in self.settings)
                lines.append(n.ljust(first) + "".join(c.rjust(max(width, digits + 4)) for c in cells))
            lines.append("")
        lines.append("Form (every setting): " + ", ".join(f"{n} {self.form[n]:.{digits}f}" for n in self.systems))
        failures = [
            f"{s} {sum(r.parse_failures for r in self.results[s].values())}"
            + (
                f" (references {next(iter(self.results[s].values())).reference_parse_failures})"
                if s in self.ablation
                else ""
            )
            for s in self.settings
        ]
        lines.append("Parse failures: " + ", ".join(failures))
        for score in COMPARED_SCORES:
            pairs = [a for a in self.agreement if a.score == score]
            if not pairs:
                continue
            header = f"Rank agreement by {names[score]}"
            label = max(len(header), *(len(f"{a.a} vs {a.b}") for a in pairs)) + 2
            lines.append("")
            lines.append(
                header.ljust(label)
                + "".join(h.rjust(digits + 5) for h in ("rho", "tau", "r"))
                + "  switches (ahead in first > ahead in second)"
            )
            for a in pairs:
                values = (f"{v:.{digits}f}" if v == v else "nan" for v in (a.spearman, a.kendall, a.pearson))
                switches = ", ".join(f"{x}>{y}" for x, y in a.switches) or "none"
                lines.append(
                    f"{a.a} vs {a.b}".ljust(label) + "".join(v.rjust(digits + 5) for v in values) + "  " + switches
                )
        return "\n".join(lines) + "\n"


class _KnownScores:
    """The language model scores already computed, looked up by sentence (Form is computed once)."""

    def __init__(self, scores: dict[str, float], like: SentenceScorer) -> None:
        self.table = scores
        self.name_or_path = getattr(like, "name_or_path", None) or DEFAULT_MODEL
        self.kind = getattr(like, "kind", DEFAULT_KIND)
        self.dtype = getattr(like, "dtype", "float32")

    def sentence_scores(self, sentences: Sequence[str], *, progress: bool | None = None) -> np.ndarray:
        return np.asarray([self.table[s] for s in sentences], dtype=np.float64)


def _parse_all(
    parser: ParserLike, groups: list[list[str]], meaning: MeaningOptions, progress: bool | None
) -> list[list[Graph | None]]:
    """Each group's sentences parsed in one run of the parser (with Meaning's batches, device and cache);
    None where a parse failed or the sentence is blank."""
    kept = [(g, k) for g, group in enumerate(groups) for k, s in enumerate(group) if s.strip()]
    out: list[list[Graph | None]] = [[None] * len(group) for group in groups]
    if kept:
        result = parse_sentences(
            get_parser(parser, batch_size=meaning.batch_size, device=meaning.device),
            [groups[g][k] for g, k in kept],
            batch_size=meaning.batch_size,
            device=meaning.device,
            progress=progress,
            cache=meaning.cache,
        )
        failures = set(result.failures)
        for j, (g, k) in enumerate(kept):
            out[g][k] = None if j in failures else result.graphs[j]
    return out


def _setting_parses(name: str, value: Any, systems: Sequence[str], n: int) -> Mapping[str, Sequence[Any]] | None:
    """A given parse set (system → parses), checked to name the systems, a parse per sentence; None for a parser."""
    if not isinstance(value, Mapping):
        return None
    if set(value) != set(systems):
        raise InputError(f"parse set {name!r} names systems {sorted(value)} but the systems are {sorted(systems)}")
    for system in systems:
        if len(value[system]) != n:
            raise InputError(
                f"parse set {name!r}, system {system!r}: {len(value[system])} parses but {plural(n, 'reference')}; "
                "they are paired by position"
            )
    return value


def _check_names(parses: Mapping[str, object], ref_given: Mapping[str, object]) -> None:
    """Reference parses name parser settings, and no setting is named like a gold-ablation setting."""
    for name in (*parses, *ref_given):
        if name not in parses:
            raise InputError(f"reference parses for {name!r}, which is not a parser setting")
        if name.endswith(ABLATION_SUFFIX):
            raise InputError(f"setting {name!r}: a name ending in {ABLATION_SUFFIX!r} is a gold-ablation setting's")


def _ablated(
    given: Mapping[str, Mapping[str, Sequence[Any]] | None],
    ref_given: Mapping[str, Any],
    gold: bool,
    ablation: bool | None,
) -> list[str]:
    """The settings that get a gold-ablation setting; a given parse set needs its reference parses for one."""
    out = []
    for name, parse_set in given.items():
        if not (not gold or ablation is True or (ablation is None and name in ref_given)):
            continue
        if parse_set is not None and name not in ref_given:
            why = "no gold AMRs" if not gold else "ablation=True"
            raise InputError(
                f"setting {name!r} needs the parses of the reference sentences ({why}): "
                f"pass reference_parses={{{name!r}: [...]}}"
            )
        out.append(name)
    return out


def _forms(
    gens: Mapping[str, list[str]], refs: list[str], scorer: SentenceScorer, tolerance: float, progress: bool | None
) -> tuple[dict[str, float], dict[str, float]]:
    """Each system's Form, and the language model score of every sentence scored for it."""
    known: dict[str, float] = {}
    form: dict[str, float] = {}
    for name, gen in gens.items():
        result = form_score(gen, refs, scorer=scorer, tolerance=tolerance, progress=progress)
        form[name] = result.form
        known.update(zip(gen, result.generated_mtp))
        known.update(zip(refs, result.reference_mtp))
    return form, known


def agreements(
    systems: Sequence[str], settings: Sequence[str], results: Mapping[str, Mapping[str, Any]]
) -> list[RankAgreement]:
    """The rank agreement of every two settings (in their order) by each of :data:`COMPARED_SCORES`.

    Args:
        results: setting → system → an object with ``meaning`` and ``mf_beta`` (an
            :class:`~amreval.mfbeta.score.MFResult`).
    """
    out = []
    for a, b in combinations(settings, 2):
        for score in COMPARED_SCORES:
            x = [getattr(results[a][s], score) for s in systems]
            y = [getattr(results[b][s], score) for s in systems]
            out.append(
                RankAgreement(a, b, score, spearman(x, y), kendall(x, y), pearson(x, y), rank_switches(systems, x, y))
            )
    return out


def parser_robustness(
    generated: Mapping[str, Sequence[str]],
    references: Sequence[str],
    parses: Mapping[str, Mapping[str, Sequence[str | Graph | None]] | ParserLike],
    *,
    reference_amrs: Sequence[str | Graph] | None = None,
    reference_parses: Mapping[str, Sequence[str | Graph | None]] | None = None,
    ablation: bool | None = None,
    form: FormOptions | None = None,
    meaning: MeaningOptions | None = None,
    search: SearchOptions | None = None,
    beta: float = 1.0,
    clean: CleanLike = False,
    progress: bool | None = None,
    **shortcuts: Unpack[MFBetaKeywords],
) -> RobustnessResult:
    """MFβ of several systems under several parser settings, and the settings' rank agreement (module docs).

    Args:
        generated: system → its generated sentences, each list paired with ``references`` by position.
        references: the reference sentences.
        parses: setting → either a parse set (system → the parses of its generated sentences, as
            ``prediction_amrs`` of :func:`~amreval.mfbeta.score.mfbeta`: None or an unreadable graph is a
            failed parse) or a parser (an amrlib model folder, a callable, an object with ``parse``).
        reference_amrs: the gold AMRs; without them every setting is a gold-ablation setting.
        reference_parses: setting → the parses of the reference sentences, for the gold-ablation settings
            of given parse sets (a failed parse is the one-node dummy graph and is counted).
        ablation: ``None`` (default): a gold-ablation setting for each setting whose reference parses are
            given; ``True``: for every setting (a parser setting parses the references); ``False``: none.
        form, meaning, search, beta, clean, progress, **shortcuts: as for :func:`~amreval.mfbeta.score.mfbeta`;
            Meaning's ``batch_size``, ``device`` and ``cache`` are those of the parser settings' parsers, which
            ``parses`` names: Meaning has no ``parser`` here (``parser=`` is not taken).

    Returns:
        A :class:`RobustnessResult`.

    Raises:
        InputError: fewer than two systems or no setting, lists of other lengths than ``references``, a parse
            set that names other systems, reference parses for an unknown setting, a setting that needs
            reference parses and has none (``ablation=True``, or no gold AMRs), a setting named like a
            gold-ablation setting, a Meaning with a parser, or a setting of
            :func:`~amreval.mfbeta.score.mfbeta` that is wrong.
    """
    form, meaning, search = mfbeta_options(form, meaning, search, shortcuts, refused=("parser",))
    if meaning.parser is not None:
        raise InputError("parser robustness takes its parsers from parses= (setting → parser): meaning has a parser")
    systems = list(generated)
    if len(systems) < 2:
        raise InputError(f"rank agreement needs at least two systems, got {len(systems)}")
    if not parses:
        raise InputError("no parser settings: pass parses= (setting → parse set or parser)")
    refs = check_sentences(references, "reference")
    n = len(refs)
    gens = {name: check_sentences(generated[name], f"{name}: generated", allow_empty=True) for name in systems}
    for name, gen in gens.items():
        if len(gen) != n:
            raise InputError(
                f"{name}: {len(gen)} generated sentences but {plural(n, 'reference')}; they are paired by position"
            )
    mf_beta(1.0, 1.0, beta)  # validates beta before any work
    ref_given = dict(reference_parses or {})
    _check_names(parses, ref_given)
    given = {name: _setting_parses(name, value, systems, n) for name, value in parses.items()}
    for name, given_refs in ref_given.items():
        if len(given_refs) != n:
            raise InputError(
                f"setting {name!r}: {len(given_refs)} reference parses but {plural(n, 'reference')}; "
                "they are paired by position"
            )
    gold = gold_graphs(reference_amrs, n) if reference_amrs is not None else None
    ablated = _ablated(given, ref_given, gold is not None, ablation)
    cleaner = get_cleaner(clean)
    if cleaner is not None:
        gens = {name: clean_sentences(cleaner, gen, f"{name}: generated") for name, gen in gens.items()}
        refs = check_sentences(clean_sentences(cleaner, refs, "reference"), "cleaned reference")

    # Form: once per system; every setting looks its language model scores up
    scorer = form.scorer
    if scorer is None:
        scorer = get_scorer(
            form.lm, form.lm_kind, form.device, dtype=form.dtype, max_tokens=form.max_tokens, cache=form.cache
        )
    forms, known = _forms(gens, refs, scorer, form.tolerance, progress)
    looked_up = FormOptions(scorer=_KnownScores(known, scorer), tolerance=form.tolerance)

    settings: list[str] = []
    results: dict[str, dict[str, MFResult]] = {}
    for name, value in parses.items():
        preds = given[name]
        ref_preds: Sequence[Any] | None = ref_given.get(name)
        if preds is None:  # a parser: every system's sentences (and the references, when asked) in one run
            assert not isinstance(value, Mapping)
            groups = [gens[s] for s in systems] + ([refs] if name in ablated and ref_preds is None else [])
            parsed = _parse_all(value, groups, meaning, progress)
            preds = dict(zip(systems, parsed))
            if len(parsed) > len(systems):
                ref_preds = parsed[-1]
        targets: list[tuple[str, Sequence[Graph], int]] = []
        if gold is not None:
            targets.append((name, gold, 0))
        if name in ablated:
            assert ref_preds is not None
            ref_graphs, ref_failed = given_parses(ref_preds, refs)
            targets.append((name + ABLATION_SUFFIX, ref_graphs, len(ref_failed)))
        for setting, golds, ref_failures in targets:
            by_system: dict[str, MFResult] = {}
            for system in systems:
                result = mfbeta(
                    gens[system],
                    refs,
                    reference_amrs=golds,
                    prediction_amrs=preds[system],
                    form=looked_up,
                    meaning=meaning,
                    search=search,
                    beta=beta,
                    progress=progress,
                )
                result.reference_parse_failures = ref_failures
                if cleaner is not None:  # cleaned here, before Form: the config says how
                    result.config = dataclasses.replace(
                        result.config,
                        options=tuple(
                            (k, cleaner_name(cleaner) if k == "clean" else v) for k, v in result.config.options
                        ),
                    )
                by_system[system] = result
            settings.append(setting)
            results[setting] = by_system

    return RobustnessResult(
        systems=systems,
        settings=settings,
        results=results,
        form=forms,
        agreement=agreements(systems, settings, results),
        ablation=[name + ABLATION_SUFFIX for name in ablated],
    )

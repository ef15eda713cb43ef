"""The comparison Space's page: is parser A better than parser B, and where? In the browser.

A user uploads a gold file (sentence AMRs or DocAMR documents) and 2 to 10 system files, chooses the score,
and gets what ``amreval compare`` prints: the ranking with intervals, every pairwise paired test
(Holm-corrected with more than two systems, as a matrix picture), the breakdown by score part, the items
that differ most (with both systems' alignment pictures against gold), and the downloads: the items as CSV,
the whole comparison as JSON, and each system's ``model-index`` entry for its model card.

Every number comes from :func:`amreval.scores.compare.compare_systems`, called once as the command line
calls it; the page reads the files, checks the Space's limits (:class:`Limits`) and lays the
:class:`~amreval.scores.comparison_results.Comparison` out. ``spaces/compare/app.py`` builds the page with
the folder's examples. gradio is imported when the page is built (:func:`~amreval.hub.space_app.gradio`).

A system's graph that cannot be read is scored as an empty graph and counted (a note says which), as
everywhere in amreval; a gold graph that cannot be read, a file that is not UTF-8 text, files of different
lengths and files over the limits are errors whose message names the file.

Example:
    >>> names_from_files(["/tmp/x/bart.amr", "/tmp/y/t5.sys.amr", "/tmp/z/bart.txt"])
    ['bart', 't5', 'bart (2)']
    >>> parse_names("bart\\n t5 \\n", 2)
    ['bart', 't5']
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from amreval.errors import AmrevalError, AmrevalWarning, InputError
from amreval.hub.space_app import STYLE, gradio, note, notes_html, picture_box, show_results_js, svg_picture
from amreval.hub.space_compare_parts import (
    breakdown_html,
    differences_html,
    item_choices,
    model_index_yaml,
    pairwise_tests_html,
    ranking_html,
)
from amreval.hub.space_files import DELETE_CACHE, AppFolder
from amreval.scores.text import plural

if TYPE_CHECKING:
    import gradio as gr

    from amreval.scores.comparison_results import Comparison

__all__ = [
    "Limits",
    "AppFolder",
    "SCORE_LABELS",
    "names_from_files",
    "parse_names",
    "read_inputs",
    "compare_inputs",
    "check_resampling",
    "downloads",
    "item_pictures",
    "warm_up",
    "compare_demo",
]

#: The scores offered, by :data:`amreval.scores.compare.SCORES` value: what the choice reads.
SCORE_LABELS: dict[str, str] = {
    "smatch": "Smatch (certified)",
    "docsmatch": "DocSmatch with the coreference sub-score",
    "s2match": "S²match (GloVe 6B 50-d)",
    "aspects-onealign": "SMATCH++ aspects (one alignment)",
    "aspects-multialign": "SMATCH++ aspects (an alignment per aspect)",
    "coref": "DocSmatch: coreference",
    "coref_named_entity": "DocSmatch: coreference, named entities",
    "coref_bridging": "DocSmatch: coreference, bridging",
    "coref_other": "DocSmatch: coreference, other",
    "noncoref": "DocSmatch: non-coreference remainder",
    "unlabeled": "Fine-grained (Damonte): unlabeled",
    "no_wsd": "Fine-grained (Damonte): no WSD",
    "concepts": "Fine-grained (Damonte): concepts",
    "named_ent": "Fine-grained (Damonte): named entities",
    "negations": "Fine-grained (Damonte): negations",
    "wikification": "Fine-grained (Damonte): wikification",
    "reentrancies": "Fine-grained (Damonte): reentrancies",
    "srl": "Fine-grained (Damonte): SRL",
}
#: The scores read from documents (the others from sentence graphs; DocSmatch's on sentence graphs is Smatch's).
DOCUMENT_SCORES = ("docsmatch", "coref", "coref_named_entity", "coref_bridging", "coref_other", "noncoref")

INTRO = """\
# Compare AMR parsers
Is parser A better than parser B, and where? Upload a gold file (PENMAN: sentence AMRs, or DocAMR documents) and
2 to 10 system files with the same graphs in the same order, choose the score and press **Compare**, or load an
example below. Each system is scored once against the gold graphs; every pair is then tested with a paired test
over items (sentences or documents; Holm-corrected with more than two systems), with 95 % paired bootstrap
intervals: the numbers of `amreval compare`. A system's graph that cannot be read is scored as an empty graph
and counted.
"""

NO_PICTURE_YET = "Compare some systems, then choose an item to see its alignments."


@dataclass(frozen=True)
class Limits:
    """What one comparison may hold on the Space (a free Space: 2 vCPU, 16 GB; see the card's measured times).

    Attributes:
        systems: system files at most (and 2 at least).
        items: graphs (sentence scores) or documents (DocSmatch scores) per file.
        sentences: sentences of the gold documents in all, for the DocSmatch scores (``:sntN`` edges).
        megabytes: size of each file.
        resampling: items × pairs of systems × resamples at most: the paired tests and intervals resample
            every pair's counts (about 2 s per 10,000 resamples of 1,000 items, a pair, measured).
    """

    systems: int = 10
    items: int = 2000
    sentences: int = 1000
    megabytes: float = 20.0
    resampling: float = 2e8


def check_resampling(n_items: int, n_systems: int, n_resamples: int, limits: Limits) -> None:
    """Check that the paired tests of every pair of systems fit the Space's time.

    Raises:
        InputError: more than ``limits.resampling`` items × pairs × resamples; the message says how many
            resamples would fit.
    """
    pairs = n_systems * (n_systems - 1) // 2
    work = n_items * pairs * n_resamples
    if work > limits.resampling:
        fits = int(limits.resampling // max(n_items * pairs, 1))
        raise InputError(
            f"{plural(n_items, 'item')} × {plural(pairs, 'pair')} of systems × {n_resamples} resamples "
            "is over this Space's limit of "
            f"{limits.resampling:.0e} resamples of an item: use at most {fits} resamples (Test settings), or fewer "
            "systems, or run `amreval compare` on your machine"
        )


def names_from_files(paths: list[str] | None) -> list[str]:
    """The systems' names from their file names: up to the first dot, a repeated name numbered."""
    names: list[str] = []
    for path in paths or []:
        file = Path(path).name
        base = file.split(".")[0] or file
        name, k = base, 1
        while name in names:
            k += 1
            name = f"{base} ({k})"
        names.append(name)
    return names


def parse_names(text: str | None, n: int) -> list[str]:
    """The names typed in the names box (one a line, blank lines skipped), checked against ``n`` systems.

    Raises:
        InputError: not ``n`` names, or two alike.
    """
    names = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if len(names) != n:
        raise InputError(f"{len(names)} system name(s) for {n} system file(s): give one name a line, in file order")
    if len(set(names)) < n:
        raise InputError(f"the systems' names must differ: {', '.join(names)}")
    return names


def _read(path: str, label: str, limits: Limits, errors: list[InputError] | None) -> list:
    """The graphs of one uploaded file (``errors``: leniently, an unreadable graph kept as an empty one)."""
    from amreval.amr.read import read_graphs

    file = Path(path)
    size = file.stat().st_size / 1e6
    if size > limits.megabytes:
        raise InputError(f"{label}: {size:.1f} MB, over this Space's limit of {limits.megabytes:g} MB a file")
    graphs = read_graphs(file, name=label, errors=errors)
    if not graphs:
        raise InputError(f"{label}: no PENMAN graph found (expected graphs separated by blank lines)")
    if len(graphs) > limits.items:
        raise InputError(
            f"{label}: {plural(len(graphs), 'graph')}, over this Space's limit of {limits.items} a file "
            "(run `amreval compare` on your machine for more)"
        )
    return graphs


def read_inputs(
    gold_path: str | None, system_paths: list[str] | None, names_text: str | None, score: str, limits: Limits
) -> tuple[list, dict[str, list], list[str]]:
    """The gold graphs, the systems' graphs by name and notes (each unreadable prediction, and the warnings
    of reading, such as a role pointing to an undefined variable), from the uploads.

    Raises:
        InputError: a missing file, too few or too many systems, names that do not fit, a file that is
            not UTF-8 text or over the limits, a gold graph that cannot be read, or a system file whose
            number of graphs is not the gold file's (the files are paired by position).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AmrevalWarning)
        gold, systems, notes = _read_inputs(gold_path, system_paths, names_text, score, limits)
    warned = [str(w.message) for w in caught if issubclass(w.category, AmrevalWarning)]
    return gold, systems, list(dict.fromkeys([*warned, *notes]))


def _read_inputs(
    gold_path: str | None, system_paths: list[str] | None, names_text: str | None, score: str, limits: Limits
) -> tuple[list, dict[str, list], list[str]]:
    if not gold_path:
        raise InputError("upload the gold file")
    paths = list(system_paths or [])
    if not 2 <= len(paths) <= limits.systems:
        raise InputError(f"upload 2 to {limits.systems} system files; got {len(paths)}")
    names = parse_names(names_text, len(paths))
    gold_name = Path(gold_path).name
    gold = _read(gold_path, f"{gold_name} (gold)", limits, None)
    if score in DOCUMENT_SCORES:
        text = Path(gold_path).read_text(encoding="utf-8")
        sentences = len(re.findall(r":snt\d+\b", text)) or len(gold)
        if sentences > limits.sentences:
            raise InputError(
                f"{gold_name} (gold): {plural(sentences, 'sentence')} in its documents, over this Space's limit of "
                f"{limits.sentences} for the DocSmatch scores (run `amreval compare` on your machine for more)"
            )
    systems: dict[str, list] = {}
    notes: list[str] = []
    for name, path in zip(names, paths):
        label = f"{Path(path).name} (system {name})"
        errors: list[InputError] = []
        graphs = _read(path, label, limits, errors)
        if len(graphs) != len(gold):
            raise InputError(
                f"{label} has {plural(len(graphs), 'graph')} but the gold file {gold_name} has {len(gold)}: "
                "the files are paired by position, graph by graph"
            )
        notes += [f"{error} — scored as an empty graph" for error in errors]
        systems[name] = graphs
    return gold, systems, notes


def compare_inputs(gold: list, systems: dict[str, list], options: dict[str, Any]) -> tuple[Comparison, list[str]]:
    """:func:`~amreval.scores.compare.compare_systems` of the systems against the gold graphs with
    ``options`` (its keywords), and the messages of the amreval warnings it gave, each once."""
    from amreval.scores.compare import compare_systems

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AmrevalWarning)
        cmp = compare_systems(systems, gold, **options)
    return cmp, list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, AmrevalWarning)))


def compare_options(
    score: str,
    statistic: str,
    standardize: str,
    fine_grained: Any,
    test: str,
    n_resamples: Any,
    seed: Any,
    alternative: str,
) -> dict[str, Any]:
    """``compare_systems``' keywords from the page's controls (the reading of triples for Smatch and the aspects
    only; the fine-grained breakdown for the DocSmatch scores only), as ``amreval compare`` passes them."""
    options: dict[str, Any] = dict(
        score=score,
        statistic=statistic,
        test=test,
        n_resamples=int(n_resamples),
        seed=int(seed),
        alternative=alternative,
        confidence=0.95,
    )
    if score in ("smatch", "aspects-onealign", "aspects-multialign") and standardize != "smatch":
        options["standardize"] = standardize
    if score not in ("smatch", "s2match", "aspects-onealign", "aspects-multialign"):
        options["fine_grained"] = bool(fine_grained)
    return options


def downloads(cmp: Comparison, folder: Path, a: str, b: str, dataset: str | None, split: str | None) -> list[str]:
    """The files a user takes away, written to ``folder``: the items of ``a`` and ``b`` as CSV (what
    ``amreval compare --csv`` writes), the whole comparison as JSON (``--json``), and a ``model-index`` entry
    per system (YAML for the front matter of its model card)."""
    from amreval.report.comparison import items_csv

    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / "comparison-items.csv", folder / "comparison.json"]
    files[0].write_text(items_csv(cmp, a, b), encoding="utf-8")
    files[1].write_text(json.dumps(cmp.as_dict(), indent=2) + "\n", encoding="utf-8")
    for name in cmp.names:
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "system"
        path = folder / f"{safe}.model-index.yaml"
        path.write_text(model_index_yaml(cmp, name, dataset=dataset, split=split), encoding="utf-8")
        files.append(path)
    return [str(f) for f in files]


def item_pictures(state: dict | None, a: str | None, b: str | None, choice: str | None) -> tuple[str, str]:
    """Both systems' alignment pictures against gold for the chosen item (searched again for the pair alone,
    with the scoring's search settings; the certified search finds an optimal alignment, of the score shown)."""
    if not state or not choice:
        return note(NO_PICTURE_YET), note(NO_PICTURE_YET)
    cmp = state["cmp"]
    try:
        k = int(choice.split(".", 1)[0]) - 1
    except ValueError:
        return note(NO_PICTURE_YET), note(NO_PICTURE_YET)
    gold = state["gold"][k]
    out = []
    for name in (a, b):
        if name not in state["systems"]:
            out.append(note(f"No picture: no system {name!r}"))
            continue
        pred = state["systems"][name][k]
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{name}-{cmp.ids[k]}").strip("_")
        title = f"{name} against gold, item {k + 1} ({cmp.ids[k]})"

        def draw(drawing: Any, pred: Any = pred, title: str = title) -> str:
            return drawing.alignment_svg(pred, gold, doc=state["doc"], title=title, **state["search"])

        out.append(svg_picture(draw, f"alignment-{safe}.svg"))
    return out[0], out[1]


# the start-up comparison: two one-node systems
def warm_up() -> float:
    """One tiny comparison, so that the kernels are loaded and amreval's modules imported when the app is
    built rather than on the first visitor's request; returns the first system's score (1.0)."""
    from amreval.scores.compare import compare_systems

    gold = ["(b / boy)", "(g / girl)"]
    cmp = compare_systems({"a": gold, "b": ["(b / boy)", "(b / boy)"]}, gold, n_resamples=10, progress=False)
    score = cmp.scores["a"]
    assert score is not None  # two graphs scored: defined
    return score


def _pair(cmp: Comparison, a: str | None, b: str | None) -> tuple[str, str]:
    """The pair shown in the item views: ``a`` and ``b`` when both are systems and differ, else the first two."""
    if a in cmp.names and b in cmp.names and a != b:
        return str(a), str(b)
    return cmp.names[0], cmp.names[1]


def make_comparer(limits: Limits, folder: AppFolder) -> Any:
    """The event handler: read the uploads, compare, lay the comparison out; the downloads are written to
    ``folder``, replacing those of the session's previous comparison."""
    gr = gradio()

    def compare(
        gold_path,
        system_paths,
        names_text,
        score,
        statistic,
        standardize,
        fine_grained,
        test,
        n_resamples,
        seed,
        alternative,
        dataset,
        split,
        progress=gr.Progress(track_tqdm=True),
        request=None,
    ):
        progress(0, desc="Reading the files")
        try:
            gold, systems, notes = read_inputs(gold_path, system_paths, names_text, score, limits)
            options = compare_options(score, statistic, standardize, fine_grained, test, n_resamples, seed, alternative)
            check_resampling(len(gold), len(systems), options["n_resamples"], limits)
            progress(0.05, desc=f"Scoring {plural(len(systems), 'system')} on {plural(len(gold), 'item')}")
            cmp, warned = compare_inputs(gold, systems, {**options, "progress": True})
        except (AmrevalError, ValueError) as exc:
            raise gr.Error(str(exc)) from None
        a, b = cmp.names[0], cmp.names[1]
        from amreval.report.comparison import comparison_svg
        from amreval.report.comparison_plots import breakdown_svg, pairwise_svg

        state = {
            "cmp": cmp,
            "gold": gold,
            "systems": systems,
            "doc": score in DOCUMENT_SCORES,
            "search": {"seed": options["seed"]},
        }
        choices = item_choices(cmp, a, b)
        yamls = "\n".join(model_index_yaml(cmp, name, dataset=dataset, split=split) for name in cmp.names)
        return (
            ranking_html(cmp) + notes_html([*notes, *warned]),
            pairwise_tests_html(cmp),
            f"<div class='svg-box' style='overflow:auto'>{pairwise_svg(cmp)}</div>",
            breakdown_html(cmp, breakdown_svg(cmp)),
            gr.update(choices=cmp.names, value=a),
            gr.update(choices=cmp.names, value=b),
            differences_html(cmp, a, b),
            f"<div class='svg-box' style='overflow:auto'>{comparison_svg(cmp, a, b)}</div>",
            gr.update(choices=choices, value=choices[0] if choices else None),
            downloads(
                cmp, folder.downloads(getattr(request, "session_hash", None)), a, b, dataset or None, split or None
            ),
            yamls,
            state,
        )

    compare.__annotations__ = {"request": gr.Request}  # gradio passes the session's request by this annotation
    return compare


def make_pair_view() -> Any:
    """The handler of another pair chosen: its items, its picture of differences, the first item."""

    def pair_view(state, a, b):
        gr = gradio()
        if not state:
            return "", "", gr.update(choices=[], value=None)
        from amreval.report.comparison import comparison_svg

        cmp = state["cmp"]
        a, b = _pair(cmp, a, b)
        choices = item_choices(cmp, a, b)
        return (
            differences_html(cmp, a, b),
            f"<div class='svg-box' style='overflow:auto'>{comparison_svg(cmp, a, b)}</div>",
            gr.update(choices=choices, value=choices[0] if choices else None),
        )

    return pair_view


def cleared() -> tuple:
    """Empty outputs, shown while comparing, so that an error never leaves an earlier comparison on the page."""
    gr = gradio()
    empty = note(NO_PICTURE_YET)
    return (
        "",
        "",
        "",
        "",
        gr.update(choices=[], value=None),
        gr.update(choices=[], value=None),
        "",
        "",
        gr.update(choices=[], value=None),
        None,
        "",
        None,
        empty,
        empty,
    )


EXAMPLES = {
    "sentences": (
        "Three sentence parsers (Smatch)",
        "gold.amr",
        ["parser_a.amr", "parser_b.amr", "parser_c.amr"],
        "smatch",
    ),
    "documents": (
        "Two DocAMR systems (DocSmatch with coreference)",
        "gold.docamr.amr",
        ["pred.docamr.amr", "pred2.docamr.amr"],
        "docsmatch",
    ),
}


def example_inputs(examples: Path, which: str, folder: AppFolder) -> tuple[str, list[str], str, str]:
    """An example's files, copied once into ``folder`` (the system's temporary folder, where gradio may read;
    the examples' own folder need not be), its names and its score."""
    _, gold, systems, _ = EXAMPLES[which]
    copies = [str(c) for c in folder.example(examples, which, (gold, *systems))]
    return copies[0], copies[1:], "\n".join(names_from_files(copies[1:])), EXAMPLES[which][3]


def compare_demo(examples: Path, limits: Limits | None = None) -> gr.Blocks:
    """The comparison page, with the example files of the folder ``examples`` and the Space's ``limits``.

    The files it serves are written to one :class:`AppFolder` (the Blocks' ``app_folder``), removed with the
    page; gradio's copies of them and of the uploads are removed as :data:`DELETE_CACHE` says."""
    from amreval.amr.standardize import STANDARDIZATIONS
    from amreval.scores.compare import SCORES
    from amreval.scores.corpus_statistics import STATISTICS
    from amreval.scores.paired_tests import ALTERNATIVES, DEFAULT_RESAMPLES, TESTS

    gr = gradio()
    limits = limits or Limits()
    examples = Path(examples)
    folder = AppFolder()
    with gr.Blocks(title="Compare AMR parsers", delete_cache=DELETE_CACHE) as demo:
        gr.HTML(STYLE, container=False, padding=False, elem_id="style")
        gr.Markdown(INTRO)
        with gr.Row():
            gold_file = gr.File(label="Gold file (PENMAN)", file_count="single", type="filepath", elem_id="gold-file")
            system_files = gr.File(
                label=f"System files (2 to {limits.systems})",
                file_count="multiple",
                type="filepath",
                elem_id="system-files",
            )
            names = gr.Textbox(
                label="System names (one a line, in file order; from the file names, editable)",
                lines=4,
                elem_id="names",
            )
        system_files.upload(lambda paths: "\n".join(names_from_files(paths)), system_files, names, queue=False)
        with gr.Row():
            score = gr.Dropdown(
                [(SCORE_LABELS.get(s, s), s) for s in SCORES], value="smatch", label="Score", elem_id="score"
            )
            statistic = gr.Radio(list(STATISTICS), value="f1", label="Statistic", elem_id="statistic")
            standardize = gr.Dropdown(
                list(STANDARDIZATIONS),
                value="smatch",
                label="Reading of the triples (Smatch, aspects; smatchpp-amr: SMATCH++'s)",
                elem_id="standardize",
            )
            fine_grained = gr.Checkbox(
                value=False, label="Fine-grained breakdown (DocSmatch scores)", elem_id="fine-grained"
            )
        with gr.Accordion("Test settings", open=False):
            with gr.Row():
                test = gr.Radio(list(TESTS), value="permutation", label="Paired test", elem_id="test")
                n_resamples = gr.Number(value=DEFAULT_RESAMPLES, precision=0, label="Resamples", elem_id="resamples")
                seed = gr.Number(value=0, precision=0, label="Seed", elem_id="seed")
                alternative = gr.Radio(list(ALTERNATIVES), value="two-sided", label="Alternative", elem_id="alt")
            with gr.Row():
                dataset = gr.Textbox(
                    label="Dataset id of the model-index entries (empty: AMR 3.0, or MS-AMR for DocSmatch)",
                    elem_id="dataset",
                )
                split = gr.Textbox(value="test", label="Split", elem_id="split")
        button = gr.Button("Compare", variant="primary", elem_id="compare")
        with gr.Row():
            example_buttons = {
                which: gr.Button(f"Example: {label}", size="sm", elem_id=f"example-{which}")
                for which, (label, *_) in EXAMPLES.items()
            }

        gr.Markdown("## Ranking", elem_id="results-heading")
        ranking = gr.HTML(elem_id="ranking")
        gr.Markdown("## Pairwise tests")
        with gr.Row():
            tests = gr.HTML(elem_id="tests")
            matrix = gr.HTML(elem_id="matrix")
        gr.Markdown("## Breakdown by part (the first two systems)")
        breakdown = gr.HTML(elem_id="breakdown")
        gr.Markdown("## Items that differ most")
        with gr.Row():
            pair_a = gr.Dropdown(choices=[], label="System", interactive=True, elem_id="pair-a")
            pair_b = gr.Dropdown(choices=[], label="against", interactive=True, elem_id="pair-b")
        differences = gr.HTML(elem_id="differences")
        differences_picture = gr.HTML(elem_id="differences-picture")
        item = gr.Dropdown(choices=[], label="Item (its alignments below)", interactive=True, elem_id="item")
        with gr.Row():
            picture_a = picture_box(note(NO_PICTURE_YET), "picture-a")
            picture_b = picture_box(note(NO_PICTURE_YET), "picture-b")
        gr.Markdown("## Downloads")
        files = gr.File(
            label="CSV, JSON and model-index entries", file_count="multiple", interactive=False, elem_id="downloads"
        )
        with gr.Accordion("model-index entries (YAML for the front matter of each system's model card)", open=False):
            model_index = gr.Code(language="yaml", max_lines=40, elem_id="yaml")
        state = gr.State()

        inputs = [gold_file, system_files, names, score, statistic, standardize, fine_grained, test, n_resamples]
        inputs += [seed, alternative, dataset, split]
        outputs = [ranking, tests, matrix, breakdown, pair_a, pair_b, differences, differences_picture, item]
        outputs += [files, model_index, state]
        pictures = [picture_a, picture_b]
        compare = make_comparer(limits, folder)

        def run(event: Any) -> None:
            event.then(compare, inputs, outputs, concurrency_id="compare").success(
                None, None, None, js=show_results_js("results-heading")
            ).then(item_pictures, [state, pair_a, pair_b, item], pictures, concurrency_id="picture")

        run(button.click(cleared, None, [*outputs, *pictures], queue=False))
        for which, example_button in example_buttons.items():

            def load(which: str = which) -> tuple:
                return example_inputs(examples, which, folder)

            run(
                example_button.click(load, None, [gold_file, system_files, names, score], queue=False).then(
                    cleared, None, [*outputs, *pictures], queue=False
                )
            )
        pair_view = make_pair_view()
        for box in (pair_a, pair_b):
            box.input(pair_view, [state, pair_a, pair_b], [differences, differences_picture, item]).then(
                item_pictures, [state, pair_a, pair_b, item], pictures, concurrency_id="picture"
            )
        item.input(item_pictures, [state, pair_a, pair_b, item], pictures, concurrency_id="picture")

        def end_session(request: Any = None) -> None:
            folder.end_session(getattr(request, "session_hash", None))

        end_session.__annotations__ = {"request": gr.Request}
        demo.unload(end_session)
    demo.app_folder = folder  # type: ignore[attr-defined]
    return demo

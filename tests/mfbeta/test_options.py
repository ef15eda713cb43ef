"""MFβ's option values: checked when made, the shortcuts the same settings, a shortcut beside its value refused."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from amreval import FormOptions, InputError, MeaningOptions, SearchOptions
from amreval.docamr.corefiles import CorefDocument
from amreval.mfbeta.cache import ResultCache
from amreval.mfbeta.document import document_mfbeta
from amreval.mfbeta.options import SHORTCUTS, MFBetaKeywords, mfbeta_options
from amreval.mfbeta.robustness import parser_robustness
from amreval.mfbeta.score import mfbeta
from amreval.scores.vectors import WordVectors

V = WordVectors.from_dict({"cat": [1.0, 0.0], "kitten": [0.8, 0.6]})
GOLD = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "(s / sleep-01 :ARG0 (g / girl))"]
PARSES = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))", None]
GEN = ["the boy wants to go .", "girl sleep the"]
REF = ["the boy wants to go .", "the girl sleeps ."]


class FixedScores:
    """A stand-in language model: a fixed score per sentence."""

    def __init__(self, scores):
        self.scores = scores

    def sentence_scores(self, sentences, *, progress=None):
        return np.array([self.scores[s] for s in sentences])


LM = FixedScores({"the boy wants to go .": 0.3, "girl sleep the": 0.1, "the girl sleeps .": 0.3})


def test_the_defaults():
    assert dataclasses.asdict(FormOptions()) == {
        "lm": "gpt2",
        "lm_kind": "causal",
        "scorer": None,
        "tolerance": 0.05,
        "device": None,
        "dtype": None,
        "max_tokens": None,
        "cache": "memory",
    }
    assert dataclasses.asdict(MeaningOptions()) == {
        "parser": None,
        "batch_size": 16,
        "device": None,
        "cache": "memory",
        "vectors": None,
        "cutoff": 0.5,
        "diffsense": 0.5,
        "num_workers": 1,
    }


def test_values_are_kept_as_their_canonical_form():
    from pathlib import Path

    form = FormOptions(lm=Path("models/tiny"), dtype="bf16", max_tokens=np.int64(256))
    assert (form.lm, form.dtype, form.max_tokens, type(form.max_tokens)) == ("models/tiny", "bfloat16", 256, int)
    assert FormOptions(dtype="auto").dtype == "auto" and FormOptions(dtype="half").dtype == "float16"
    meaning = MeaningOptions(batch_size=np.int32(4), num_workers=2, cutoff=0, vectors="glove-6b-100d")
    assert (meaning.batch_size, meaning.num_workers, meaning.cutoff, meaning.vectors) == (4, 2, 0, "glove-6b-100d")
    with pytest.raises(dataclasses.FrozenInstanceError):
        form.tolerance = 0.1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: FormOptions(lm=""), "lm must be a language model's name or folder, got ''"),
        (lambda: FormOptions(lm=3), "lm must be a language model's name or folder, got 3"),
        (lambda: FormOptions(lm_kind="casual"), "unknown lm_kind 'casual'; expected one of causal, masked"),
        (lambda: FormOptions(scorer=3), "scorer must have a sentence_scores(sentences, *, progress=None) method"),
        (lambda: FormOptions(tolerance=0.7), "tolerance must be in [0, 0.5], got 0.7"),
        (lambda: FormOptions(tolerance="0.1"), "tolerance must be a number, got '0.1'"),
        (lambda: FormOptions(tolerance=True), "tolerance must be a number, got True"),
        (lambda: FormOptions(dtype="int8"), "unknown dtype 'int8'; expected auto, float32, bfloat16 or float16"),
        (lambda: FormOptions(max_tokens=0), "max_tokens must be a positive integer, got 0"),
        (lambda: FormOptions(max_tokens=2.5), "max_tokens must be a positive integer, got 2.5"),
        (lambda: FormOptions(device=""), "device must be a device name (cpu, cuda, cuda:1, mps, auto) or None"),
        (lambda: FormOptions(cache=" "), "cache is an empty string; expected memory, disk, none or a folder"),
        (lambda: FormOptions(cache=3), "cache must be 'memory', 'disk', a folder, False or a ResultCache, got 3"),
        (lambda: MeaningOptions(parser=3), "parser must be an amrlib model folder, a callable or an object with"),
        (lambda: MeaningOptions(batch_size=0), "batch_size must be a positive integer, got 0"),
        (lambda: MeaningOptions(batch_size=True), "batch_size must be a positive integer, got True"),
        (lambda: MeaningOptions(num_workers=0), "num_workers must be a positive integer, got 0"),
        (lambda: MeaningOptions(cutoff=1.0), "cutoff must be in [0, 1), got 1.0"),
        (lambda: MeaningOptions(diffsense=3.0), "diffsense must be in [0, 1], got 3.0"),
        (lambda: MeaningOptions(cutoff=None), "cutoff must be a number, got None"),
        (lambda: MeaningOptions(vectors=[1.0]), "vectors must be word vectors, a GloVe text file, a name such as"),
        (lambda: MeaningOptions(device=0), "device must be a device name (cpu, cuda, cuda:1, mps, auto) or None"),
    ],
)
def test_a_wrong_setting_is_named(make, message):
    with pytest.raises(InputError) as error:
        make()
    assert str(error.value).startswith(message)


def test_shortcuts_are_the_fields_of_the_option_values():
    fields = [f.name for cls in (FormOptions, MeaningOptions, SearchOptions) for f in dataclasses.fields(cls)]
    assert set(SHORTCUTS) == set(fields) and len(SHORTCUTS) == len(set(fields)) == 19
    assert MFBetaKeywords.__optional_keys__ == frozenset(SHORTCUTS)
    assert not MFBetaKeywords.__required_keys__


def test_shortcuts_make_the_option_values():
    cache = ResultCache()
    form, meaning, search = mfbeta_options(
        shortcuts={"tolerance": 0.1, "cutoff": 0.3, "restarts": 4, "device": "cpu", "cache": cache}
    )
    assert form == FormOptions(tolerance=0.1, device="cpu", cache=cache)
    assert meaning == MeaningOptions(cutoff=0.3, device="cpu", cache=cache)
    assert search == SearchOptions(restarts=4)
    given = (FormOptions(lm="distilgpt2"), MeaningOptions(num_workers=2), SearchOptions(seed=3))
    assert mfbeta_options(*given) == given
    assert mfbeta_options(*given)[0] is given[0]
    assert mfbeta_options() == (FormOptions(), MeaningOptions(), SearchOptions())


def test_a_shortcut_beside_its_option_value_names_both():
    with pytest.raises(InputError) as error:
        mfbeta_options(form=FormOptions(), shortcuts={"tolerance": 0.1})
    assert str(error.value) == (
        "tolerance= and form= given together: tolerance is a field of form; "
        "set it in the FormOptions (or drop form= and give tolerance= alone)"
    )
    with pytest.raises(InputError, match=r"^device= and meaning= given together: device is a field of meaning; "):
        mfbeta_options(meaning=MeaningOptions(), shortcuts={"device": "cpu"})
    with pytest.raises(InputError, match=r"^seed= and search= given together: seed is a field of search; "):
        mfbeta_options(search=SearchOptions(), shortcuts={"seed": 1})
    # a shortcut of another option value is no conflict
    form, meaning, _ = mfbeta_options(form=FormOptions(tolerance=0.25), shortcuts={"cutoff": 0.4})
    assert (form.tolerance, meaning.cutoff) == (0.25, 0.4)


def test_an_unknown_or_refused_keyword_and_an_option_value_of_the_wrong_class():
    with pytest.raises(TypeError) as error:
        mfbeta_options(shortcuts={"restart": 4})
    assert str(error.value) == (
        "unexpected keyword argument 'restart' (search settings: solver, restarts, seed, time_limit, work_limit; "
        "MFβ settings: lm, lm_kind, scorer, tolerance, device, dtype, max_tokens, cache, parser, batch_size, vectors, "
        "cutoff, diffsense, num_workers)"
    )
    with pytest.raises(TypeError, match=r"^unexpected keyword argument 'vectors' \(search settings: .*batch_size, "):
        mfbeta_options(shortcuts={"vectors": V}, refused=("vectors",))
    with pytest.raises(TypeError, match=r"MFβ settings: .*, batch_size, diffsense, num_workers\)$"):
        mfbeta_options(shortcuts={"vectors": V}, refused=("vectors", "cutoff"))
    with pytest.raises(InputError, match=r"^form must be a FormOptions, got MeaningOptions$"):
        mfbeta_options(form=MeaningOptions())  # type: ignore[arg-type]


def test_mfbeta_the_same_by_shortcuts_and_by_option_values():
    flat = mfbeta(
        GEN, REF, reference_amrs=GOLD, prediction_amrs=PARSES, scorer=LM, vectors=V, tolerance=0.25, cutoff=0.6,
        diffsense=0.4, restarts=3, seed=7, beta=2.0,
    )  # fmt: skip
    options = mfbeta(
        GEN,
        REF,
        reference_amrs=GOLD,
        prediction_amrs=PARSES,
        form=FormOptions(scorer=LM, tolerance=0.25),
        meaning=MeaningOptions(vectors=V, cutoff=0.6, diffsense=0.4),
        search=SearchOptions(restarts=3, seed=7),
        beta=2.0,
    )
    assert flat.as_dict(per_example=True) == options.as_dict(per_example=True)
    # go-01 against go-02: diffsense 0.4; Form: 0.1 / 0.4 = 0.25 >= 0.5 - 0.25 is acceptable
    assert options.meaning_counts == (6.4, 9, 11) and options.acceptable == [True, True] and options.form == 1.0
    assert options.mf_beta == pytest.approx(5 * 0.64 / (4 * 0.64 + 1))  # Meaning 2 * 6.4 / 20, β = 2
    assert options.config.as_string().split(",amreval=")[0] == (
        "solver=exact,restarts=3,seed=7,time_limit=600,work_limit=50000,score=mfbeta,beta=2.0,tolerance=0.25,lm=gpt2,"
        "lm_kind=causal,clean=none,cutoff=0.6,diffsense=0.4,top=graded,vectors=<dict>"
    )
    with pytest.raises(InputError, match=r"^cutoff= and meaning= given together: cutoff is a field of meaning; "):
        mfbeta(GEN, REF, reference_amrs=GOLD, prediction_amrs=PARSES, meaning=MeaningOptions(), cutoff=0.6)
    with pytest.raises(TypeError, match=r"^unexpected keyword argument 'restart'"):
        mfbeta(GEN, REF, reference_amrs=GOLD, prediction_amrs=PARSES, scorer=LM, restart=4)  # type: ignore[call-arg]


def test_parser_robustness_the_same_by_shortcuts_and_by_option_values():
    generated = {"A": GEN, "B": REF}
    parses = {"given": {"A": PARSES, "B": GOLD}}
    flat = parser_robustness(generated, REF, parses, reference_amrs=GOLD, scorer=LM, vectors=V, tolerance=0.25)
    options = parser_robustness(
        generated, REF, parses, reference_amrs=GOLD, form=FormOptions(scorer=LM, tolerance=0.25),
        meaning=MeaningOptions(vectors=V),
    )  # fmt: skip
    assert flat.as_dict() == options.as_dict()
    assert options.scores("meaning") == {"given": {"A": 2 * 6.5 / 20, "B": 1.0}}
    assert options.form == {"A": 1.0, "B": 1.0}  # A's second sentence: 0.1 / 0.4 = 0.25 >= 0.5 - 0.25
    with pytest.raises(TypeError, match=r"^unexpected keyword argument 'parser'"):
        parser_robustness(generated, REF, parses, reference_amrs=GOLD, scorer=LM, parser=lambda s: s)
    with pytest.raises(InputError, match=r"^parser robustness takes its parsers from parses= "):
        parser_robustness(generated, REF, parses, reference_amrs=GOLD, scorer=LM, meaning=MeaningOptions(parser=len))


def test_document_mfbeta_the_same_by_shortcuts_and_by_option_values():
    text, ref = "The boy slept. He woke up.", "The boy slept. The boy woke up early."
    parses = [
        "# ::tok The boy slept .\n(s / sleep-01~e.2 :ARG0 (b / boy~e.1))",
        "# ::tok He woke up .\n(w / wake-up-02~e.1 :ARG0 (h / he~e.0))",
    ]
    gold = "(d / document :snt1 (a / sleep-01 :ARG0 (b / boy)) :snt2 (c / wake-up-02 :ARG0 b :time (e / early)))"
    coref = [CorefDocument("D", [["The", "boy", "slept", "."], ["He", "woke", "up", "."]], [[(1, 1), (4, 4)]])]
    lm = FixedScores({text: 0.1, ref: 0.3})
    args = dict(reference_amrs=[gold], prediction_amrs=[parses], coref=coref)
    flat = document_mfbeta([text], [ref], scorer=lm, tolerance=0.25, seed=2, **args)
    options = document_mfbeta(
        [text], [ref], form=FormOptions(scorer=lm, tolerance=0.25), search=SearchOptions(seed=2), **args
    )
    assert flat.as_dict(per_example=True) == options.as_dict(per_example=True)
    # 0.1 / 0.4 = 0.25 >= 0.5 - 0.25: acceptable
    assert (options.pref_scores, options.acceptable, options.form) == ([0.25], [True], 1.0)
    assert options.config.as_string().split(",amreval=")[0] == (
        "solver=exact,restarts=19,seed=2,time_limit=600,work_limit=50000,score=mfbeta,level=document,beta=1.0,tolerance=0.25,"
        "lm=gpt2,lm_kind=causal,window=none,stride=none,split=rules,rep=docamr,meaning=docsmatch"
    )
    with pytest.raises(TypeError, match=r"^unexpected keyword argument 'vectors'"):
        document_mfbeta([text], [ref], scorer=lm, vectors=V, **args)
    with pytest.raises(InputError, match=r"^document-level Meaning is DocSmatch: meaning's vectors, cutoff and "):
        document_mfbeta([text], [ref], scorer=lm, meaning=MeaningOptions(cutoff=0.3), **args)

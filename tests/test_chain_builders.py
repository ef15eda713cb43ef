"""The benchmarks' chain builders beside ``doc_chains.py`` (tests/fixtures/): the story builder chains the
narrator and the story's entities with no gap limit, the greedy one over-merges by surface form."""

from __future__ import annotations

from fixtures import doc_chains, greedy_chains, story_chains

from amreval import loads_graph

SENTENCES = [
    "(s / see-01 :ARG0 (i / i) :ARG1 (p / prince))",
    "(g / go-02 :ARG0 (h / he))",
    "(l / like-01 :ARG0 (t / thing) :ARG1 (r / rose))",
    "(s / sleep-01)",
    "(s / sleep-01)",
    "(s / sleep-01)",
    "(s / sleep-01)",
    "(w / want-01 :ARG0 (i / i) :ARG1 (t / thing) :ARG2 (h / he))",
    "(w / want-01 :ARG0 (w2 / we) :ARG1 (t / thorn))",
]


def _graphs():
    graphs = []
    for k, text in enumerate(SENTENCES):
        g = loads_graph(text)
        g.metadata["id"] = f"s{k + 1}"
        graphs.append(g)
    return graphs


def _chains(doc):
    return [[(m.sentence_id, m.variable) for m in c.mentions] for c in doc.chains]


def test_the_story_builder_keeps_the_narrators_chain_open_to_the_end():
    doc = story_chains.build_chains(_graphs(), "d")
    # i in sentences 1 and 8 (a gap of 7: doc_chains ends the chain after 5); he of sentence 8 finds the
    # prince of sentence 1 through he of sentence 2; the thorn is the rose's part; we the set of i (no you)
    assert _chains(doc) == [[("s1", "i"), ("s8", "i")], [("s1", "p"), ("s2", "h"), ("s8", "h")]]
    assert [(s.relation_id, [(m.sentence_id, m.variable) for m in s.mentions]) for s in doc.singletons] == [
        ("rel-2", [("s3", "r")]),
        ("rel-3", [("s9", "w2")]),
        ("rel-4", [("s9", "t")]),
    ]
    assert [(b.kind, b.head, b.members) for b in doc.bridges] == [
        ("part-whole", "rel-2", ["rel-4"]),
        ("set-member", "rel-3", ["rel-0"]),
    ]
    # the windowed builder splits the narrator's mentions and finds no antecedent beyond the window
    assert [("s1", "i"), ("s8", "i")] not in _chains(doc_chains.build_chains(_graphs(), "d"))


def test_the_greedy_builder_chains_every_pronoun_form_and_head_noun():
    doc = greedy_chains.build_chains(_graphs(), "d")
    # i, he and thing each one chain; prince, rose, we and thorn occur once; frames are never mentions
    assert _chains(doc) == [[("s1", "i"), ("s8", "i")], [("s2", "h"), ("s8", "h")], [("s3", "t"), ("s8", "t")]]
    assert doc.singletons == [] and doc.bridges == []

"""Distributed evaluation with the `docsmatch` metric: evaluate's num_process / process_id mode.

Two real processes each load the metric with the same ``experiment_id`` and ``cache_dir``, add
their shard and call ``compute``; process 0 reads every shard (in process order) and returns the
result, the others return None. The result must equal one ``compute`` over the documents in that
order, to the last digit.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
if importlib.util.find_spec("evaluate") is None:
    pytest.skip("the hub extra (evaluate, datasets) is not installed", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "metrics" / "docsmatch"
WORLD = 2

# real processes sharing the metric's cache
pytestmark = pytest.mark.slow

# (prediction, reference) documents with merged nodes, coref nodes, a named entity and bridging
DOCS = [
    (
        "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))",
        "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))",
    ),
    (
        "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01))",
        "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))",
    ),
    (
        (
            '(d / document :snt1 (s / say-01 :ARG0 (c / coref-entity :name (n / name :op1 "Kim")))'
            ' :snt2 (l / leave-11 :ARG0 (p / person :name (n2 / name :op1 "Kim"))))'
        ),
        (
            '(d / document :snt1 (s / say-01 :ARG0 (c / coref-entity :name (n / name :op1 "Kim")))'
            " :snt2 (l / leave-11 :ARG0 c))"
        ),
    ),
    (
        "(d / document :snt1 (a / see-01 :ARG1 (t / team)) :snt2 (b / win-01 :ARG0 (x / coref-entity)))",
        "(d / document :snt1 (a / see-01 :ARG1 (t / team :part (x / coref-entity))) :snt2 (b / win-01 :ARG0 x))",
    ),
    (
        (
            "(d / document :snt1 (r / rain-01) :snt2 (s / stay-01 :ARG1 (w / we) :location (h / home))"
            " :snt3 (r2 / read-01 :ARG0 w))"
        ),
        (
            "(d / document :snt1 (r / rain-01) :snt2 (s / stay-01 :ARG1 (w / we) :location (h / home))"
            " :snt3 (r2 / read-01 :ARG0 w))"
        ),
    ),
    (
        "(d / document :snt1 (c / cat :mod (b / black)) :snt2 (s / sleep-01 :ARG0 (d2 / dog)))",
        "(d / document :snt1 (c / cat :mod (w / white)) :snt2 (s / sleep-01 :ARG0 c))",
    ),
]

# Each run: how the documents are split over the processes, the add_batch size, compute's keywords.
RUNS = {
    # rank k takes the k-th contiguous block, one document per add_batch: the original order
    "contiguous": {"shards": [[0, 1, 2], [3, 4, 5]], "batch_size": 1, "kwargs": {}},
    # uneven shards, several documents per add_batch
    "uneven": {"shards": [[0], [1, 2, 3, 4, 5]], "batch_size": 2, "kwargs": {}},
    # rank k takes documents k, k + 2, ...: process 0 sees 0, 2, 4, 1, 3, 5; keywords reach process 0
    "strided": {
        "shards": [[0, 2, 4], [1, 3, 5]],
        "batch_size": 2,
        "kwargs": {"fine_grained": True, "per_document": True, "restarts": 5, "seed": 3},
    },
}

# One process of the distributed evaluation: every run, then the results (None off process 0) as JSON.
WORKER = """
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    spec = json.load(f)
import evaluate
results = {}
for run in spec["runs"]:
    metric = evaluate.load(spec["script"], num_process=spec["num_process"], process_id=spec["process_id"],
                           experiment_id=run["experiment_id"], cache_dir=spec["cache_dir"], timeout=spec["timeout"])
    preds, refs, size = run["predictions"], run["references"], run["batch_size"]
    for start in range(0, len(preds), size):
        metric.add_batch(predictions=preds[start:start + size], references=refs[start:start + size])
    results[run["experiment_id"]] = metric.compute(**run["kwargs"])
with open(spec["out"], "w", encoding="utf-8") as f:
    json.dump(results, f)
"""


def in_process_order(shards: list[list[int]]) -> list[int]:
    return [k for shard in shards for k in shard]


@pytest.fixture(scope="module")
def distributed(tmp_path_factory):
    """Start the processes; the test collects their results (they run while the metric loads here)."""
    base = tmp_path_factory.mktemp("distributed")
    cache_dir = base / "cache"  # shared by every process: the shards and the locks live here
    procs = []
    for rank in range(WORLD):
        runs = [
            {
                "experiment_id": f"{name}-{os.getpid()}",
                "batch_size": run["batch_size"],
                "kwargs": run["kwargs"],
                "predictions": [DOCS[k][0] for k in run["shards"][rank]],
                "references": [DOCS[k][1] for k in run["shards"][rank]],
            }
            for name, run in RUNS.items()
        ]
        spec = {
            "script": str(SCRIPT),
            "num_process": WORLD,
            "process_id": rank,
            "cache_dir": str(cache_dir),
            "timeout": 120,
            "runs": runs,
            "out": str(base / f"rank{rank}.json"),
        }
        (base / f"spec{rank}.json").write_text(json.dumps(spec), encoding="utf-8")
        env = dict(os.environ, HF_HUB_OFFLINE="1")
        procs.append(
            subprocess.Popen(
                [sys.executable, "-c", WORKER, str(base / f"spec{rank}.json")],
                env=env,
                cwd=base,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )

    def collect() -> list[dict[str, dict | None]]:
        out = []
        for rank, proc in enumerate(procs):
            _, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, f"process {rank} failed:\n{err[-3000:]}"
            with open(base / f"rank{rank}.json", encoding="utf-8") as f:
                results = json.load(f)
            out.append({name.rsplit("-", 1)[0]: value for name, value in results.items()})
        return out

    yield collect
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def metric():
    import evaluate

    return evaluate.load(str(SCRIPT))


def test_two_processes_equal_one_compute(distributed, metric):
    expected = {}
    for name, run in RUNS.items():
        order = in_process_order(run["shards"])
        expected[name] = metric.compute(
            predictions=[DOCS[k][0] for k in order], references=[DOCS[k][1] for k in order], **run["kwargs"]
        )
    rank0, rank1 = distributed()
    assert rank1 == {name: None for name in RUNS}
    for name in RUNS:  # as JSON text (a 0/0 sub-score is null)
        assert json.dumps(rank0[name]) == json.dumps(expected[name]), name
    # the contiguous split is the plain evaluation of all documents in their order
    everything = expected["contiguous"]
    assert json.dumps(rank0["uneven"]) == json.dumps(everything)
    assert (everything["n_pairs"], everything["match"], everything["test"], everything["gold"]) == (6, 57, 67, 63)
    assert everything["config"] == rank0["contiguous"]["config"]
    assert everything["config"].startswith(
        "solver=exact,restarts=19,seed=0,time_limit=600,work_limit=50000,score=docsmatch,coref=tiebreak,"
    )
    strided = rank0["strided"]
    assert strided["config"].startswith(
        "solver=exact,restarts=5,seed=3,time_limit=600,work_limit=50000,score=docsmatch,coref=tiebreak,fine_grained=True,"
    )
    assert len(strided["per_document_f1"]) == 6 and "srl_f1" in strided


def test_num_workers_does_not_change_the_result(metric):
    preds, refs = [p for p, _ in DOCS], [g for _, g in DOCS]
    one = metric.compute(predictions=preds, references=refs, num_workers=1)
    assert metric.compute(predictions=preds, references=refs, num_workers=2) == one
    kwargs = {"fine_grained": True, "per_document": True}
    one = metric.compute(predictions=preds, references=refs, num_workers=1, **kwargs)
    assert metric.compute(predictions=preds, references=refs, num_workers=2, **kwargs) == one
    assert one["n_pairs"] == 6 and len(one["per_document_f1"]) == 6

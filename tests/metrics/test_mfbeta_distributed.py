"""MFβ in several processes: `accelerate launch` with 2 CPU processes, each adding its shard to the metric.

Process 0 gathers every shard (in process order) and scores them once: its result equals one process's to
the last digit, the other process returns None and scores nothing, and no sentence reaches the language
model twice (sentences that recur are scored once).
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
for _module, _extra in (("evaluate", "hub"), ("accelerate", "distributed"), ("torch", "lm")):
    if importlib.util.find_spec(_module) is None:
        pytest.skip(f"{_module} is not installed (the {_extra} extra)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]

# accelerate launch: real processes
pytestmark = pytest.mark.slow

GOLD = [
    "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))",
    "(s / sleep-01 :ARG0 (g / girl))",
    "(e / eat-01 :ARG0 (d / dog))",
    "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))",
    "(r / run-02 :ARG0 (c / cat))",
]
PARSES = [
    "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))",
    None,
    "(e / eat-01 :ARG0 (c / cat))",
    "(w / want-01 :ARG0 (b / boy))",
    "(r / run-02 :ARG0 (c / cat))",
]
GENERATED = ["the boy wants to go .", "girl sleep the", "the cat eats .", "the boy wants .", "the cat runs ."]
# the first and the fourth reference are the same sentence, and a generation equals a reference
REFERENCES = ["the boy wants to go .", "the girl sleeps .", "the dog eats .", "the boy wants to go .", "a cat runs ."]
SHARDS = [[0, 1], [2, 3, 4]]

SCRIPT = """
import json, sys
from accelerate import Accelerator
import evaluate
from amreval.mfbeta.form import get_scorer
spec = json.loads(open(sys.argv[1]).read())
accelerator = Accelerator(cpu=True)
rank = accelerator.process_index
metric = evaluate.load(spec["script"], num_process=accelerator.num_processes, process_id=rank,
                       experiment_id=spec["experiment_id"], cache_dir=spec["cache_dir"], timeout=120)
shard = spec["shards"][rank]
metric.add_batch(**{name: [spec[name][k] for k in shard] for name in
                    ("predictions", "references", "reference_amrs", "prediction_amrs")})
result = metric.compute(lm=spec["lm"], device="cpu", vectors=None, per_example=True)
scorer = get_scorer(spec["lm"], device="cpu")
with open(spec["out"] % rank, "w") as f:
    json.dump({"world": accelerator.num_processes, "result": result, "scored": scorer.sentences_scored}, f)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lm_dir(make_tiny_gpt2, tmp_path_factory):
    return make_tiny_gpt2(tmp_path_factory.mktemp("mf-dist-gpt2"), GENERATED + REFERENCES, seed=3)


def test_accelerate_launch_two_cpu_processes_equal_one(lm_dir, tmp_path):
    import evaluate

    spec = {
        "script": str(ROOT / "metrics" / "mfbeta"),
        "experiment_id": f"mf-accelerate-{os.getpid()}",
        "cache_dir": str(tmp_path / "cache"),
        "lm": lm_dir,
        "shards": SHARDS,
        "predictions": GENERATED,
        "references": REFERENCES,
        "reference_amrs": GOLD,
        "prediction_amrs": PARSES,
        "out": str(tmp_path / "rank%d.json"),
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    (tmp_path / "run.py").write_text(SCRIPT)
    launch = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2"]
    launch += ["--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no"]
    launch += ["--main_process_port", str(_free_port()), str(tmp_path / "run.py"), str(tmp_path / "spec.json")]
    env = dict(os.environ, HF_HUB_OFFLINE="1", OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="")
    done = subprocess.run(launch, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    ranks = [json.loads((tmp_path / f"rank{k}.json").read_text()) for k in range(2)]
    assert [r["world"] for r in ranks] == [2, 2]
    metric = evaluate.load(str(ROOT / "metrics" / "mfbeta"))
    one = metric.compute(
        predictions=GENERATED,
        references=REFERENCES,
        reference_amrs=GOLD,
        prediction_amrs=PARSES,
        lm=lm_dir,
        device="cpu",
        vectors=None,
        per_example=True,
    )
    assert ranks[1]["result"] is None and ranks[0]["result"] == json.loads(json.dumps(one))
    # 10 sentences, 8 distinct (a repeated reference; a generation equal to its reference): each scored once,
    # by process 0 only
    assert len(set(GENERATED + REFERENCES)) == 8
    assert (ranks[0]["scored"], ranks[1]["scored"]) == (8, 0)
    assert one["parse_failures"] == 1

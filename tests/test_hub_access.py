"""A name that needs the Hub fails at once, with the offline recipe, when the Hub cannot be reached.

Nothing here touches the network: the Hub's endpoint is a closed port on 127.0.0.1 (``HF_ENDPOINT``, which
huggingface_hub reads when imported), set in a subprocess with an empty Hugging Face cache.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

import amreval._hub_access as hub_access
from amreval.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
RECIPE = (
    r"the Hugging Face Hub cannot be reached \(http://127\.0\.0\.1:\d+ gave no answer within 2 s\) and the local "
    r"Hugging Face cache holds no {what} of that name\. To work offline: download it once where there is network "
    r"access \(it is then cached, and read from the cache with HF_HUB_OFFLINE=1 set on the machine without "
    r"network, so that nothing is tried\), or give "
)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def offline_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HUB_CACHE")}
    env.update(
        HF_ENDPOINT=f"http://127.0.0.1:{closed_port()}",
        HF_HOME=str(tmp_path / "hf"),
        PYTHONPATH=str(ROOT / "src"),
        AMREVAL_PROGRESS="0",
    )
    return env


def timed(code: str, env: dict[str, str]) -> dict:
    """Run ``code`` (which defines ``load()``) in a subprocess: the seconds ``load()`` took and its error."""
    script = (
        "import json, time\n" + code + "\nt = time.monotonic()\n"
        "try:\n    load()\n    error = None\nexcept Exception as exc:\n    error = [type(exc).__name__, str(exc)]\n"
        "print(json.dumps({'seconds': time.monotonic() - t, 'error': error}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_named_vectors_fail_at_once_with_the_recipe(tmp_path):
    pytest.importorskip("huggingface_hub", reason="huggingface_hub is not installed")
    out = timed(
        "from amreval.scores.vectors import named_vectors\ndef load():\n    named_vectors('glove-6b-100d')",
        offline_env(tmp_path),
    )
    assert out["seconds"] < 5, out
    kind, message = out["error"]
    assert kind == "InputError"
    expected = "stanfordnlp/glove/glove.6B.zip: " + RECIPE.format(what="word vectors") + r"a GloVe text file instead"
    assert re.match(expected, message), message
    assert "(--vectors FILE, vectors=FILE: e.g. glove.6B.100d.txt from the GloVe archive)" in message


def test_a_language_model_name_fails_at_once_with_the_recipe(tmp_path):
    pytest.importorskip("torch", reason="the lm extra (torch) is not installed")
    pytest.importorskip("transformers", reason="the lm extra (transformers) is not installed")
    out = timed(
        "import torch, transformers\nfrom amreval.mfbeta.lm import LanguageModelScorer\n"
        "def load():\n    LanguageModelScorer('gpt2').model",
        offline_env(tmp_path),
    )
    assert out["seconds"] < 5, out
    kind, message = out["error"]
    assert kind == "InputError"
    assert re.match("gpt2: " + RECIPE.format(what="causal language model"), message), message
    assert message.endswith(
        "a local model folder instead (--lm ./FOLDER, lm=FOLDER: a folder written by save_pretrained, or "
        "downloaded with `hf download gpt2 --local-dir ./FOLDER`)"
    )


def test_the_command_line_says_it_too(tmp_path):
    pytest.importorskip("huggingface_hub", reason="huggingface_hub is not installed")
    graph = tmp_path / "g.amr"
    graph.write_text("(k / kitten)\n")
    done = subprocess.run(
        [sys.executable, "-m", "amreval", "s2match", "--vectors", "glove-6b-100d", "-f", str(graph), str(graph)],
        env=offline_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("amreval: error: stanfordnlp/glove/glove.6B.zip: the Hugging Face Hub cannot be")
    assert "HF_HUB_OFFLINE=1" in done.stderr and "--vectors FILE" in done.stderr


def test_a_cached_name_is_read_from_the_cache_when_the_hub_does_not_answer(tmp_path):
    """Without HF_HUB_OFFLINE: the probe fails, the archive is in the cache, it is read from there at once."""
    pytest.importorskip("huggingface_hub", reason="huggingface_hub is not installed")
    commit = "0" * 40
    repo = tmp_path / "hf" / "hub" / "models--stanfordnlp--glove"
    (repo / "snapshots" / commit).mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    with zipfile.ZipFile(repo / "snapshots" / commit / "glove.6B.zip", "w") as archive:
        archive.writestr("glove.6B.100d.txt", "cat 1 0\nkitten 0.8 0.6\n")
    out = timed(
        "from amreval.scores.vectors import named_vectors\n"
        "def load():\n    v = named_vectors('glove-6b-100d')\n    assert (len(v), v.dim) == (2, 2), (len(v), v.dim)",
        offline_env(tmp_path),
    )
    assert out["error"] is None and out["seconds"] < 5, out


def test_the_probe_is_made_once_and_not_at_all_offline(monkeypatch):
    calls = []

    def refused(request, timeout):
        calls.append((request.get_method(), request.full_url, timeout))
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(urllib.request, "urlopen", refused)
    monkeypatch.setattr(hub_access, "_REACHABLE", {})
    monkeypatch.setattr(hub_access, "hub_endpoint", lambda: "http://127.0.0.1:9")
    for variable in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(variable, raising=False)
    constants = pytest.importorskip("huggingface_hub.constants", reason="huggingface_hub is not installed")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    assert hub_access.hub_load_options("x", "model", "a folder", lambda: True) == {"local_files_only": True}
    with pytest.raises(InputError, match=r"^y: the Hugging Face Hub cannot be reached"):
        hub_access.hub_load_options("y", "model", "a folder", lambda: False)
    assert calls == [("HEAD", "http://127.0.0.1:9/", 2.0)]  # asked once for the process
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(hub_access, "_REACHABLE", {})
    assert hub_access.hub_load_options("y", "model", "a folder", lambda: False) == {}  # the library reads its cache
    assert len(calls) == 1

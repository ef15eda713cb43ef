"""The metrics shipped with the package: loaded by name, packaged in the wheel, written as a Space folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HOME", tempfile.mkdtemp(prefix="amreval-hf-"))

from amreval import __version__
from amreval.cli import main
from amreval.errors import InputError
from amreval.hub import METRICS, load_metric, metric_dir, write_space
from amreval.hub.metrics import space_readme, space_requirements

ROOT = Path(__file__).resolve().parents[2]
GOLD = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
PRED = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))"


def test_metric_dir_is_the_source_folder_here():
    assert METRICS == ("docsmatch", "mfbeta")
    assert metric_dir("docsmatch") == ROOT / "metrics" / "docsmatch"
    assert metric_dir("mfbeta") == ROOT / "metrics" / "mfbeta"
    with pytest.raises(InputError, match=r"unknown metric 'bleu'; amreval ships docsmatch, mfbeta"):
        metric_dir("bleu")


def test_load_metric_computes_what_the_core_computes():
    pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")
    from amreval.scores.docsmatch import docsmatch

    metric = load_metric("docsmatch")
    assert type(metric).__name__ == "Docsmatch" and metric.name == "docsmatch"
    out = metric.compute(predictions=[PRED], references=[GOLD], zero_division=0.0)
    core = docsmatch([PRED], [GOLD], coref=True).as_dict()
    # the score's name is in config only; a 0/0 sub-score (None in the core's dict) is zero_division
    assert core.pop("score") == "docsmatch" and out == {k: 0.0 if v is None else v for k, v in core.items()}
    # 8 of 10 predicted and 9 gold triples: F1 = 16/19
    assert (out["match"], out["test"], out["gold"]) == (8, 10, 9) and out["f1"] == pytest.approx(16 / 19)
    fast = load_metric("docsmatch", "hillclimb")
    assert fast.compute(predictions=[PRED], references=[GOLD])["config"].startswith("solver=hillclimb,")


def test_the_wheel_ships_the_metric_folders(tmp_path):
    """A wheel built from the project holds amreval/_metrics/<name>/ and metric_dir finds it there."""
    pytest.importorskip("setuptools", minversion="70.1", reason="building a wheel here needs setuptools >= 70.1")
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copyfile(ROOT / name, project / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(ROOT / "src", project / "src", ignore=ignore)
    shutil.copytree(ROOT / "metrics", project / "metrics", ignore=ignore)
    build = "from setuptools import build_meta; print(build_meta.build_wheel('dist'))"
    done = subprocess.run([sys.executable, "-c", build], cwd=project, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    wheel = project / "dist" / done.stdout.strip().splitlines()[-1]
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in METRICS:
        for file in (f"{name}.py", "app.py", "README.md", "requirements.txt", "packages.txt"):
            assert f"amreval/_metrics/{name}/{file}" in names
    assert "amreval/_metrics/docsmatch/examples/gold.docamr.amr" in names
    assert "amreval/_metrics/mfbeta/examples/gold.amr" in names
    zipfile.ZipFile(wheel).extractall(tmp_path / "installed")
    where = "from amreval.hub import metric_dir; print(metric_dir('docsmatch'))"
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "installed"))
    done = subprocess.run([sys.executable, "-c", where], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert Path(done.stdout.strip()) == tmp_path / "installed" / "amreval" / "_metrics" / "docsmatch"


def test_space_folder_files_and_contents(tmp_path):
    out = tmp_path / "space"
    written = write_space("docsmatch", out, hub_id="someone/docsmatch", gradio_version="6.31.0")
    assert [p.as_posix() for p in written] == [
        "README.md",
        "app.py",
        "docsmatch.py",
        "examples/gold.docamr.amr",
        "examples/gold.sentences.amr",
        "examples/pred.docamr.amr",
        "examples/pred.sentences.amr",
        "examples/pred2.docamr.amr",
        "packages.txt",
        "requirements.txt",
        "space.py",
    ]
    source = ROOT / "metrics" / "docsmatch"
    for same in ("app.py", "docsmatch.py", "packages.txt", "examples/gold.docamr.amr"):
        assert (out / same).read_bytes() == (source / same).read_bytes()
    assert (out / "requirements.txt").read_text() == (
        f"amreval[hub]=={__version__}\nevaluate>=0.4.6\ndatasets>=4\ngraphviz>=0.20\n"
    )
    card = (out / "README.md").read_text()
    assert card.startswith("---\ntitle: DocSmatch\nemoji: 📄\ncolorFrom: blue\ncolorTo: green\nsdk: gradio\n")
    assert "\nsdk: gradio\nsdk_version: 6.31.0\napp_file: app.py\n" in card
    assert (
        'docsmatch = evaluate.load("someone/docsmatch")  # this Space; a copy of its folder loads by its path, '
        "under any name"
        in card
        and "the folder of this card" not in card
    )
    assert 'evaluate.load("someone/docsmatch", "hillclimb")' in card and "metrics/docsmatch" not in card
    # the rest of the card is the metric card
    original = (source / "README.md").read_text()
    assert card.split("\n---\n", 1)[1] == original.split("\n---\n", 1)[1].replace(
        "the folder of this card", "this Space; a copy of its folder loads by its path, under any name"
    ).replace("metrics/docsmatch", "someone/docsmatch")
    # a Space named otherwise: evaluate.load("USER/NAME") reads NAME.py, the app its metric's script
    # (and evaluate.load(folder) reads <folder>.py)
    other = write_space("docsmatch", tmp_path / "app", hub_id="someone/amr-doc", gradio_version="6.31.0")
    scripts = [p.as_posix() for p in other if p.suffix == ".py"]
    assert scripts == ["amr-doc.py", "app.py", "docsmatch.py"]
    assert (tmp_path / "app" / "amr-doc.py").read_bytes() == (source / "docsmatch.py").read_bytes()
    assert (tmp_path / "app" / "app.py").read_bytes() == (source / "app.py").read_bytes()  # not the script
    with pytest.raises(InputError, match=r"is not empty \(pass overwrite=True, --force"):
        write_space("docsmatch", out, hub_id="someone/docsmatch", gradio_version="6.31.0")
    with pytest.raises(InputError, match=r"--hub-id must be USER/NAME"):
        write_space("docsmatch", tmp_path / "other", hub_id="docsmatch", gradio_version="6.31.0")


def test_a_space_folder_loads_from_its_folder_and_by_its_script(tmp_path):
    evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")
    out = tmp_path / "my-bundle"
    write_space("docsmatch", out, hub_id="someone/amr-doc", gradio_version="6.31.0")
    assert (out / "my-bundle.py").read_bytes() == (ROOT / "metrics" / "docsmatch" / "docsmatch.py").read_bytes()
    # evaluate.load(folder) reads <folder>.py; a folder renamed after it was written loads by a script's path
    loaded = [evaluate.load(str(out))]
    renamed = out.rename(tmp_path / "renamed")
    loaded.append(evaluate.load(str(renamed / "docsmatch.py")))
    for metric in loaded:
        results = metric.compute(predictions=[PRED], references=[GOLD])
        assert (results["match"], results["test"], results["gold"]) == (8, 10, 9)


def test_space_helpers():
    assert (
        space_requirements("amreval[hub,lm]\ntorch>=2.1\ngradio>=5\n", "1.2.3")
        == "amreval[hub,lm]==1.2.3\ntorch>=2.1\n"
    )
    card = '---\ntitle: X\nsdk: streamlit\nsdk_version: 1.0\n---\nevaluate.load("metrics/x")\n'
    assert space_readme(card, hub_id="u/x", gradio_version="6.0", name="x") == (
        '---\ntitle: X\nsdk: gradio\nsdk_version: 6.0\n---\nevaluate.load("u/x")\n'
    )
    with pytest.raises(InputError, match="the x card has no front matter"):
        space_readme("# X\n", hub_id="u/x", gradio_version="6.0", name="x")


def test_space_command(tmp_path, capsys):
    gradio = pytest.importorskip("gradio", reason="the space extra (gradio) is not installed")
    from importlib import metadata

    out = tmp_path / "mf"
    assert main(["space", "mfbeta", str(out), "--hub-id", "someone/mfbeta"]) == 0
    printed = capsys.readouterr().out
    assert f"mfbeta Space written to {out}: README.md, app.py, examples/generated.txt" in printed
    assert f"api.upload_folder(folder_path={str(out)!r}, repo_id='someone/mfbeta', repo_type='space')" in printed
    card = (out / "README.md").read_text()
    assert f"\nsdk: gradio\nsdk_version: {metadata.version('gradio')}\n" in card and gradio is not None
    assert (out / "requirements.txt").read_text() == (
        f"amreval[hub,lm,parser,s2match]=={__version__}\nevaluate>=0.4.6\ntorch>=2.1\ntransformers>=5\ngraphviz>=0.20\n"
    )
    assert main(["space", "mfbeta", str(out), "--hub-id", "someone/mfbeta"]) == 1
    assert "is not empty" in capsys.readouterr().err
    assert main(["space", "mfbeta", str(out), "--hub-id", "someone/mfbeta", "--force"]) == 0

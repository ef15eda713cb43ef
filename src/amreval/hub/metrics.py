"""The ``evaluate`` metrics shipped with amreval, loaded by name, and their Hub Space folders.

The metric folders (``docsmatch``, ``mfbeta``: the metric script, its card, the Gradio app, examples,
``requirements.txt`` and ``packages.txt``) are installed with the package, in ``amreval/_metrics/``
(in a source checkout they are read from the top-level ``metrics/`` folder). :func:`load_metric`
loads one with ``evaluate.load`` from that folder, without the Hub; :func:`write_space` copies one
into a self-contained Hugging Face Space folder (``amreval space NAME OUT --hub-id USER/NAME``).

Example:
    >>> metric_dir("docsmatch").name
    'docsmatch'
    >>> metric_dir("bleu")
    Traceback (most recent call last):
    ...
    amreval.errors.InputError: unknown metric 'bleu'; amreval ships docsmatch, mfbeta
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Union

from amreval.errors import InputError, MissingDependencyError
from amreval.hub.space_package import amreval_dependencies, bundle_package, package_requires, with_bootstrap

__all__ = ["METRICS", "metric_dir", "load_metric", "write_space", "space_readme", "space_requirements"]

PathLike = Union[str, "os.PathLike[str]"]

#: The metrics shipped with the package (folder names, as ``evaluate`` names the modules).
METRICS: tuple[str, ...] = ("docsmatch", "mfbeta")

_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")


def metric_dir(name: str) -> Path:
    """The folder of a shipped metric: ``amreval/_metrics/<name>`` when installed from a wheel, else
    ``metrics/<name>`` of the source tree the package runs from.

    Raises:
        InputError: an unknown metric, or its folder is missing from this installation.
    """
    if name not in METRICS:
        raise InputError(f"unknown metric {name!r}; amreval ships {', '.join(METRICS)}")
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "_metrics" / name, package.parents[1] / "metrics" / name):
        if (folder / f"{name}.py").is_file():
            return folder
    raise InputError(f"the {name} metric folder is not part of this installation of amreval (looked in {package})")


def load_metric(name: str, config_name: str | None = None, **kwargs: Any) -> Any:
    """``evaluate.load`` of a shipped metric's folder: no Hub access, the installed amreval's code.

    Args:
        name: ``"docsmatch"`` or ``"mfbeta"``.
        config_name: the metric's config name (DocSmatch: the default solver; MFβ: the language model).
        kwargs: given to ``evaluate.load`` (``num_process``, ``process_id``, ``experiment_id``,
            ``cache_dir``, ...).

    Raises:
        InputError: an unknown metric.
        MissingDependencyError: evaluate is not installed.
    """
    folder = metric_dir(name)
    try:
        import evaluate
    except ImportError:
        raise MissingDependencyError("evaluate", "hub", "the evaluate metrics") from None
    return evaluate.load(str(folder), config_name, **kwargs)


def space_readme(card: str, *, hub_id: str, gradio_version: str, name: str, package: str | None = None) -> str:
    """The metric card as a Space card, through ``huggingface_hub.SpaceCard``: ``sdk: gradio`` with
    ``sdk_version``, ``python_version`` (this Python's), the usage by Hub id (the metric card's checkout
    path and its comment replaced), and, with ``package`` (the file name of the amreval the folder
    installs), a note on what the folder holds.

    Raises:
        InputError: the card has no front matter.
        MissingDependencyError: huggingface_hub is not installed.
    """
    try:
        from huggingface_hub import SpaceCard, SpaceCardData
    except ImportError:
        raise MissingDependencyError("huggingface_hub", "hub", "writing a Space card") from None
    if not card.startswith("---\n") or "\n---\n" not in card[4:]:
        raise InputError(f"the {name} card has no front matter")
    space = SpaceCard(card)
    data = SpaceCardData(**space.data.to_dict())
    data.sdk = "gradio"
    data.sdk_version = gradio_version
    # the Python the folder was written with (a Space's default, 3.10, has no GloVe package for S²match)
    data.python_version = f"{sys.version_info.major}.{sys.version_info.minor}"
    space.data = data
    body = space.text.replace(
        f'evaluate.load("metrics/{name}")  # in a checkout; installed: amreval.hub.load_metric("{name}")',
        f'evaluate.load("{hub_id}")  # this Space; a local copy of its folder: evaluate.load("FOLDER/{name}.py")',
    )
    body = body.replace(f'evaluate.load("metrics/{name}"', f'evaluate.load("{hub_id}"')
    if package is not None:
        note = (
            f"\nThis Space runs `app.py` on the metric script `{name}.py`; its `requirements.txt` installs "
            f"amreval's dependencies, and `app.py` and `{name}.py` install amreval itself from `{package}`, in "
            "this folder, when they start.\n"
        )
        title = re.search(r"(?m)^# .*\n", body)
        at = title.end() if title else 0
        body = body[:at] + note + body[at:]
    space.text = body
    return str(space)


def space_requirements(text: str, requires: list[str]) -> str:
    """``requirements.txt`` of a Space: the ``amreval[extras]`` line replaced by what it installs besides
    amreval, from amreval's ``Requires-Dist`` lines ``requires`` (see
    :func:`~amreval.hub.space_package.amreval_dependencies`; no file of the folder is named, as the Space's
    builder installs this file before the folder is there); a line given twice is kept once; gradio left
    out, the Space installs the card's ``sdk_version``.

    Raises:
        InputError: an amreval line that is not a plain ``amreval[extras]``.
    """
    out: list[str] = []
    for line in text.splitlines():
        if re.match(r"^\s*amreval\b", line):
            found = amreval_dependencies(line, requires)
        else:
            found = [line.strip()]
        out.extend(f for f in found if f and f not in out and not re.match(r"^gradio\b", f))
    return "\n".join(out) + "\n"


def _amreval_requires(package: Path) -> list[str]:
    """amreval's ``Requires-Dist`` lines: the installed amreval's, else those of the package file."""
    try:
        return metadata.requires("amreval") or []
    except metadata.PackageNotFoundError:
        return package_requires(package)


def _gradio_version() -> str:
    try:
        return metadata.version("gradio")
    except metadata.PackageNotFoundError:
        raise MissingDependencyError("gradio", "space", "writing a Space (its sdk_version)") from None


def write_space(
    name: str,
    out_dir: PathLike,
    *,
    hub_id: str,
    gradio_version: str | None = None,
    overwrite: bool = False,
    package: PathLike | None = None,
) -> list[Path]:
    """Write a self-contained Hugging Face Space folder for a shipped metric: the folder alone builds the
    Space, with the amreval it installs inside it: ``app.py`` and the metric scripts start by installing
    amreval from that package file when ``import amreval`` fails or gives another version
    (:func:`~amreval.hub.space_package.bootstrap_code`).

    The folder holds the metric script (as ``NAME.py`` for a Space ``USER/NAME``, which
    ``evaluate.load(hub_id)`` reads once it is uploaded; as ``<folder>.py``, which ``evaluate.load(out_dir)``
    reads before; and as ``<metric>.py``, which the app reads, and by which a folder renamed later loads,
    ``evaluate.load("<folder>/<metric>.py")``), the Gradio ``app.py``, the examples, ``packages.txt``
    (Debian packages: Graphviz), the amreval package file (by default the sdist built from the checkout
    this amreval runs from, see :mod:`amreval.hub.space_package`), ``requirements.txt`` listing what the
    metric's ``amreval[extras]`` needs (amreval's dependencies: a Space's builder installs this file before
    the folder is copied in, so it names no file of the folder), and the card ``README.md`` (a
    ``huggingface_hub.SpaceCard``) with ``sdk: gradio``, ``sdk_version`` (the installed gradio's unless given)
    and the usage written with ``hub_id``.

    Args:
        name: ``"docsmatch"`` or ``"mfbeta"``.
        out_dir: the folder to write; it must be missing or empty unless ``overwrite``.
        hub_id: the Space's id on the Hub, ``USER/NAME``.
        gradio_version: the card's ``sdk_version`` (default: the installed gradio's).
        overwrite: write into a folder that has files (those of the Space are replaced).
        package: an sdist or wheel of this amreval version to ship (default: the sdist of the checkout;
            needed when amreval is installed from a wheel).

    Returns:
        The files written, relative to ``out_dir``, sorted.

    Raises:
        InputError: an unknown metric, a malformed ``hub_id``, a Space or folder name with a ``.`` (evaluate
            cannot load its script), ``out_dir`` is not empty, ``package`` is not an amreval file of this
            version, or there is no source to build the sdist from.
        MissingDependencyError: no ``gradio_version`` and gradio is not installed; huggingface_hub is not
            installed.
    """
    folder = metric_dir(name)
    if not _HUB_ID.match(hub_id):
        raise InputError(f"--hub-id must be USER/NAME (letters, digits, '-', '_', '.'), got {hub_id!r}")
    out = Path(out_dir)
    for what, script in (("--hub-id NAME", hub_id.split("/", 1)[1]), ("the folder's name", out.resolve().name)):
        if "." in script:  # evaluate imports NAME.py as a module: a dot makes it a package path
            raise InputError(f"{what} {script!r} has a '.', so evaluate.load could not load {script}.py: drop it")
    version = gradio_version or _gradio_version()
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} is not a folder")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise InputError(f"{out} is not empty (pass overwrite=True to write into it)")
    card = space_readme(
        (folder / "README.md").read_text(encoding="utf-8"), hub_id=hub_id, gradio_version=version, name=name
    )  # fails early without huggingface_hub
    bundled = bundle_package(out, package)  # checked (or built) before the folder is made
    shipped = bundled.name
    shutil.copyfile(folder / "packages.txt", out / "packages.txt")
    metric_script = with_bootstrap((folder / f"{name}.py").read_text(encoding="utf-8"), shipped)
    app = with_bootstrap((folder / "app.py").read_text(encoding="utf-8"), shipped)
    (out / "app.py").write_text(app, encoding="utf-8")
    # evaluate.load("USER/NAME") reads NAME.py, evaluate.load(out_dir) <folder>.py; the app reads <metric>.py
    for script in dict.fromkeys((name, hub_id.split("/", 1)[1], out.resolve().name)):
        if script != "app":  # a folder named app keeps its app.py (then load <metric>.py)
            (out / f"{script}.py").write_text(metric_script, encoding="utf-8")
    examples = folder / "examples"
    for example in sorted(examples.iterdir()) if examples.is_dir() else []:
        if example.is_file():
            (out / "examples").mkdir(exist_ok=True)
            shutil.copyfile(example, out / "examples" / example.name)
    card = space_readme(
        (folder / "README.md").read_text(encoding="utf-8"),
        hub_id=hub_id,
        gradio_version=version,
        name=name,
        package=shipped,
    )
    (out / "README.md").write_text(card, encoding="utf-8")
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8")
    (out / "requirements.txt").write_text(
        space_requirements(requirements, _amreval_requires(bundled)), encoding="utf-8"
    )
    return sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())

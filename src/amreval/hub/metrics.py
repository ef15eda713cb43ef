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
from importlib import metadata
from pathlib import Path
from typing import Any, Union

from amreval._version import __version__
from amreval.errors import InputError, MissingDependencyError

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


def space_readme(card: str, *, hub_id: str, gradio_version: str, name: str) -> str:
    """The metric card as a Space card: ``sdk: gradio`` with ``sdk_version``, and usage by Hub id
    (where the metric card says "the folder of this card", the Space card names the Space and its folder)."""
    if not card.startswith("---\n") or "\n---\n" not in card[4:]:
        raise InputError(f"the {name} card has no front matter")
    end = card.index("\n---\n", 4)
    lines = [line for line in card[4:end].split("\n") if not line.startswith("sdk_version:")]
    sdk = [k for k, line in enumerate(lines) if line.startswith("sdk:")]
    at = sdk[0] if sdk else 0
    lines[at : at + len(sdk[:1])] = ["sdk: gradio", f"sdk_version: {gradio_version}"]
    body = card[end + 5 :].replace(
        f'evaluate.load("metrics/{name}")  # the folder of this card',
        f'evaluate.load("{hub_id}")  # this Space; a copy of its folder loads by its path, under any name',
    )
    body = body.replace(f'evaluate.load("metrics/{name}"', f'evaluate.load("{hub_id}"')
    return "---\n" + "\n".join(lines) + f"\n---\n{body}"


def space_requirements(text: str, version: str = __version__) -> str:
    """``requirements.txt`` of a Space: amreval pinned to ``version`` (its extras kept); gradio left
    out, the Space installs the card's ``sdk_version``."""
    out = []
    for line in text.splitlines():
        requirement = re.match(r"^\s*(amreval(\[[^\]]*\])?)", line)
        if requirement:
            out.append(f"{requirement.group(1)}=={version}")
        elif not re.match(r"^\s*gradio\b", line):
            out.append(line)
    return "\n".join(out) + "\n"


def _gradio_version() -> str:
    try:
        return metadata.version("gradio")
    except metadata.PackageNotFoundError:
        raise MissingDependencyError("gradio", "space", "writing a Space (its sdk_version)") from None


def write_space(
    name: str, out_dir: PathLike, *, hub_id: str, gradio_version: str | None = None, overwrite: bool = False
) -> list[Path]:
    """Write a self-contained Hugging Face Space folder for a shipped metric.

    The folder holds the metric script (so ``evaluate.load(hub_id)`` works once it is uploaded and
    ``evaluate.load(out_dir)`` before: as ``evaluate`` reads it, ``NAME.py`` for a Space ``USER/NAME``,
    ``<folder>.py`` for the folder written, and as ``<metric>.py`` for the app; a folder renamed later
    loads with ``evaluate.load("<folder>/<metric>.py")``), the
    Gradio ``app.py``, the examples, ``packages.txt`` (Debian packages: Graphviz), ``requirements.txt``
    with this amreval version, and the card ``README.md`` with ``sdk: gradio``, ``sdk_version`` (the
    installed gradio's unless given) and the usage written with ``hub_id``.

    Args:
        name: ``"docsmatch"`` or ``"mfbeta"``.
        out_dir: the folder to write; it must be missing or empty unless ``overwrite``.
        hub_id: the Space's id on the Hub, ``USER/NAME``.
        gradio_version: the card's ``sdk_version`` (default: the installed gradio's).
        overwrite: write into a folder that has files (those of the Space are replaced).

    Returns:
        The files written, relative to ``out_dir``, sorted.

    Raises:
        InputError: an unknown metric, a malformed ``hub_id``, or ``out_dir`` is not empty.
        MissingDependencyError: no ``gradio_version`` and gradio is not installed.
    """
    folder = metric_dir(name)
    if not _HUB_ID.match(hub_id):
        raise InputError(f"--hub-id must be USER/NAME (letters, digits, '-', '_', '.'), got {hub_id!r}")
    version = gradio_version or _gradio_version()
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} is not a folder")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise InputError(f"{out} is not empty (pass overwrite=True, --force, to write into it)")
    out.mkdir(parents=True, exist_ok=True)
    for file in (f"{name}.py", "app.py", "packages.txt"):
        shutil.copyfile(folder / file, out / file)
    # evaluate.load("USER/NAME") reads NAME.py, evaluate.load(out_dir) <folder>.py; the app reads <metric>.py
    for script in dict.fromkeys((hub_id.split("/", 1)[1], out.resolve().name)):
        if script not in (name, "app"):  # a folder named app keeps its app.py (then load <metric>.py)
            shutil.copyfile(folder / f"{name}.py", out / f"{script}.py")
    examples = folder / "examples"
    for example in sorted(examples.iterdir()) if examples.is_dir() else []:
        if example.is_file():
            (out / "examples").mkdir(exist_ok=True)
            shutil.copyfile(example, out / "examples" / example.name)
    card = (folder / "README.md").read_text(encoding="utf-8")
    (out / "README.md").write_text(space_readme(card, hub_id=hub_id, gradio_version=version, name=name), "utf-8")
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8")
    (out / "requirements.txt").write_text(space_requirements(requirements), encoding="utf-8")
    return sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())

"""The ``evaluate`` metrics shipped with amreval, loaded by name, and their Hub Space folders.

The metric folders (``smatch``, ``docsmatch``, ``mfbeta``: the metric script, its card, the Gradio app, examples,
``requirements.txt`` and ``packages.txt``) are installed with the package, in ``amreval/_metrics/``
(in a source checkout they are read from the top-level ``metrics/`` folder). :func:`load_metric`
loads one with ``evaluate.load`` from that folder, without the Hub, from any working directory (the folder
path ``evaluate.load("metrics/docsmatch")`` is relative: it works from a checkout's root only, and
elsewhere ``evaluate`` raises its ``FileNotFoundError`` before any of amreval's code runs);
:func:`write_space` copies one into a self-contained Hugging Face Space folder
(``amreval space NAME OUT --hub-id USER/NAME``).

Example:
    >>> metric_dir("docsmatch").name
    'docsmatch'
    >>> metric_dir("bleu")
    Traceback (most recent call last):
    ...
    amreval.errors.InputError: unknown metric 'bleu'; amreval ships docsmatch, mfbeta, smatch (load_metric(NAME))
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

__all__ = [
    "METRICS",
    "metric_dir",
    "metric_source",
    "load_metric",
    "write_space",
    "space_readme",
    "space_requirements",
    "check_hub_id",
    "amreval_requires",
    "installed_gradio_version",
    "check_space_folder",
]

PathLike = Union[str, "os.PathLike[str]"]

#: The metrics shipped with the package (folder names, as ``evaluate`` names the modules).
METRICS: tuple[str, ...] = ("docsmatch", "mfbeta", "smatch")

_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$")


def metric_dir(name: str) -> Path:
    """The folder of a shipped metric: ``amreval/_metrics/<name>`` when installed from a wheel, else
    ``metrics/<name>`` of the source tree the package runs from.

    Raises:
        InputError: an unknown metric, or its folder is missing from this installation.
    """
    if name not in METRICS:
        raise InputError(f"unknown metric {name!r}; amreval ships {', '.join(METRICS)} (load_metric(NAME))")
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "_metrics" / name, package.parents[1] / "metrics" / name):
        if (folder / f"{name}.py").is_file():
            return folder
    raise InputError(f"the {name} metric folder is not part of this installation of amreval (looked in {package})")


def metric_source(name: PathLike) -> Path:
    """What :func:`load_metric` gives ``evaluate.load`` for ``name``: a shipped metric's folder for its name
    (``"smatch"``) or for a path that ends in it and does not exist from here (``"metrics/smatch"``, the
    checkout's path, typed in another directory; ``"metrics/smatch/smatch.py"``); an existing folder or
    script as it is (a copy of one, a Space folder written by :func:`write_space`).

    Example:
        >>> metric_source("/elsewhere/metrics/smatch/") == metric_source("smatch") == metric_dir("smatch")
        True

    Raises:
        InputError: neither a shipped metric nor an existing metric folder or script. The message names
            what was given (a path: where it was looked for, from which directory) and lists the shipped
            metrics, which ``load_metric(NAME)`` loads from any directory.
    """
    text = os.fspath(name)
    if text in METRICS:
        return metric_dir(text)
    path = Path(text).expanduser()
    if path.is_file() and path.suffix == ".py":
        return path
    if path.is_dir() and (path / f"{path.resolve().name}.py").is_file():
        return path
    stem = path.stem if path.suffix == ".py" else path.name
    if stem in METRICS and not path.exists():
        return metric_dir(stem)
    raise InputError(f"{_not_a_metric(text, path)}; {_SHIPPED}")


#: What every error of :func:`metric_source` ends with: the shipped metrics and how to load one from anywhere.
_SHIPPED = (
    f"amreval ships the metrics {', '.join(METRICS)}, each loaded by its name from any directory: "
    f'amreval.hub.load_metric("{METRICS[0]}")'
)


def _not_a_metric(text: str, path: Path) -> str:
    """Why ``text`` names no metric: a name that is not shipped, a path that does not exist (with the folder it
    was taken from: a relative path is taken from the current directory), or one that holds no metric."""
    if not text.strip():
        return "an empty metric name"
    if path.is_dir():
        return f"{text!r} is not a metric folder: {path.resolve()} holds no {path.resolve().name}.py"
    if path.exists():
        return f"{text!r} is not a metric folder or script: {path.resolve()} is neither a folder nor a .py file"
    if text and (os.sep in text or (os.altsep or os.sep) in text or text.startswith(".") or path.suffix == ".py"):
        relative = "" if path.is_absolute() else f" (a relative path is taken from the current directory, {Path.cwd()})"
        return f"no metric at {text!r}: {path.resolve()} does not exist{relative}"
    return f"unknown metric {text!r}"


def load_metric(name: PathLike, config_name: str | None = None, **kwargs: Any) -> Any:
    """``evaluate.load`` of a shipped metric's folder: no Hub access, the installed amreval's code, from any
    working directory.

    Args:
        name: ``"smatch"``, ``"docsmatch"`` or ``"mfbeta"``; or a path: ``"metrics/docsmatch"`` (the
            checkout's folder, found from any directory), a metric folder or script of one's own
            (:func:`metric_source`).
        config_name: the metric's config name (DocSmatch: the default solver; MFβ: the language model).
        kwargs: given to ``evaluate.load`` (``num_process``, ``process_id``, ``experiment_id``,
            ``cache_dir``, ...).

    Raises:
        InputError: an unknown metric, a path that does not exist or holds no metric (the message names
            it, the folder a relative path was taken from, and the shipped metrics).
        MissingDependencyError: evaluate is not installed.
    """
    folder = metric_source(name)
    try:
        import evaluate
    except ImportError:
        raise MissingDependencyError("evaluate", "hub", "the evaluate metrics") from None
    return evaluate.load(str(folder), config_name, **kwargs)


def check_hub_id(hub_id: str) -> None:
    """Check a Space's id on the Hub, ``USER/NAME``.

    Raises:
        InputError: a malformed id.
    """
    if not _HUB_ID.match(hub_id):
        raise InputError(f"--hub-id must be USER/NAME (letters, digits, '-', '_', '.'), got {hub_id!r}")


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
        f'evaluate.load("metrics/{name}")  # checkout root only; anywhere: amreval.hub.load_metric("{name}")',
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


def amreval_requires(package: Path) -> list[str]:
    """amreval's ``Requires-Dist`` lines: the installed amreval's, else those of the package file."""
    try:
        return metadata.requires("amreval") or []
    except metadata.PackageNotFoundError:
        return package_requires(package)


def check_space_folder(out: Path, overwrite: bool) -> None:
    """A Space is written into ``out`` (resolved by the caller: ``missing/..`` is the folder it names) only
    when it is missing or empty, or with ``overwrite``.

    Raises:
        InputError: ``out`` is a file, or a folder with files and no ``overwrite``.
    """
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} is not a folder")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise InputError(f"{out} is not empty (pass overwrite=True to write into it)")


def installed_gradio_version() -> str:
    """The installed gradio's version (a Space card's ``sdk_version``).

    Raises:
        MissingDependencyError: gradio is not installed.
    """
    try:
        return metadata.version("gradio")
    except metadata.PackageNotFoundError:
        raise MissingDependencyError("gradio", "space", "writing a Space (its sdk_version)") from None


#: What a Space imports besides the standard library: amreval, its dependencies and the Space's own.
_SPACE_IMPORTS = frozenset(
    {"amreval", "gradio", "evaluate", "datasets", "huggingface_hub", "numpy", "scipy", "penman", "pandas", "torch"}
)


def shadows_a_module(name: str) -> bool:
    """Whether a script ``name.py`` in a Space's folder would shadow a module: the folder of ``app.py`` is first
    on ``sys.path``, so a script named as a module of the standard library, of the Space's requirements or
    of this environment is imported in that module's place (``amreval.py``, ``gradio.py``, ``numpy.py``)."""
    import importlib.util

    if name in _SPACE_IMPORTS or name in sys.stdlib_module_names or name in sys.builtin_module_names:
        return True
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    # a folder without __init__.py (a namespace package: the Space's own folder seen from its parent) is no module
    return spec is not None and spec.origin not in (None, "namespace")


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
        name: ``"smatch"``, ``"docsmatch"`` or ``"mfbeta"``.
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
            cannot load its script) or that would shadow a module (:func:`shadows_a_module`), ``out_dir``
            (resolved: ``missing/..`` is the folder it names) is not empty, ``package`` is not an amreval file of this
            version, or there is no source to build the sdist from.
        MissingDependencyError: no ``gradio_version`` and gradio is not installed; huggingface_hub is not
            installed.
    """
    folder = metric_dir(name)
    check_hub_id(hub_id)
    # the folder as the files will be written there: ``missing/..`` is the folder it names, not a new one
    out = Path(out_dir).resolve()
    for what, script in (("--hub-id NAME", hub_id.split("/", 1)[1]), ("the folder's name", out.name)):
        if "." in script:  # evaluate imports NAME.py as a module: a dot makes it a package path
            raise InputError(f"{what} {script!r} has a '.', so evaluate.load could not load {script}.py: drop it")
        if script not in ("app", name) and shadows_a_module(script):  # the metric's own script is name.py
            raise InputError(
                f"{what} {script!r} is the name of a module the Space imports (or could): {script}.py in the "
                f"Space's folder, which comes first on sys.path, would be imported in its place; choose another"
            )
    version = gradio_version or installed_gradio_version()
    check_space_folder(out, overwrite)
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
    (out / "requirements.txt").write_text(space_requirements(requirements, amreval_requires(bundled)), encoding="utf-8")
    return sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())

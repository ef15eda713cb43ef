"""The Spaces shipped with amreval that are apps, not ``evaluate`` metrics, and their Space folders.

``compare`` (upload a gold file and several systems, get the ranking with paired tests, the breakdown, the
pictures and the model-card entries; its page is :mod:`amreval.hub.space_compare`) lives in the top-level
``spaces/compare/`` folder of a checkout (``app.py``, the card, examples, ``requirements.txt``,
``packages.txt``) and is installed with the package as ``amreval/_spaces/compare/`` (``setup.py``).
:func:`write_app_space` copies it into a Hugging Face Space folder that builds from itself, as
:func:`amreval.hub.metrics.write_space` does for a metric: the amreval it runs is a package file in the
folder, which ``app.py`` installs when it starts (:func:`~amreval.hub.space_package.bootstrap_code`).

Example:
    >>> app_space_dir("compare").name
    'compare'
    >>> app_space_dir("leaderboard")
    Traceback (most recent call last):
    ...
    amreval.errors.InputError: unknown Space 'leaderboard'; amreval ships compare
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Union

from amreval.errors import InputError
from amreval.hub.metrics import (
    amreval_requires,
    check_hub_id,
    check_space_folder,
    installed_gradio_version,
    space_readme,
    space_requirements,
)
from amreval.hub.space_package import bundle_package, with_bootstrap

__all__ = ["APP_SPACES", "app_space_dir", "write_app_space"]

PathLike = Union[str, "os.PathLike[str]"]

#: The app Spaces shipped with the package (folder names).
APP_SPACES: tuple[str, ...] = ("compare",)


def app_space_dir(name: str) -> Path:
    """The folder of a shipped app Space: ``amreval/_spaces/<name>`` when installed from a wheel, else
    ``spaces/<name>`` of the source tree the package runs from.

    Raises:
        InputError: an unknown Space, or its folder is missing from this installation.
    """
    if name not in APP_SPACES:
        raise InputError(f"unknown Space {name!r}; amreval ships {', '.join(APP_SPACES)}")
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "_spaces" / name, package.parents[1] / "spaces" / name):
        if (folder / "app.py").is_file():
            return folder
    raise InputError(f"the {name} Space folder is not part of this installation of amreval (looked in {package})")


def write_app_space(
    name: str,
    out_dir: PathLike,
    *,
    hub_id: str,
    gradio_version: str | None = None,
    overwrite: bool = False,
    package: PathLike | None = None,
) -> list[Path]:
    """Write a self-contained Hugging Face Space folder for a shipped app Space: ``app.py`` (starting by
    installing amreval from the package file beside it when ``import amreval`` fails or gives another
    version), the examples, ``packages.txt`` (Debian packages: Graphviz), the amreval package file (by
    default the sdist built from the checkout this amreval runs from), ``requirements.txt`` listing what the
    app's ``amreval[extras]`` needs (no file of the folder: a Space's builder installs it alone), and the
    card ``README.md`` with ``sdk: gradio``, ``sdk_version`` (the installed gradio's unless given) and
    ``python_version`` (this Python's).

    Args:
        name: ``"compare"``.
        out_dir: the folder to write; it must be missing or empty unless ``overwrite``.
        hub_id: the Space's id on the Hub, ``USER/NAME``.
        gradio_version: the card's ``sdk_version`` (default: the installed gradio's).
        overwrite: write into a folder that has files (those of the Space are replaced).
        package: an sdist or wheel of this amreval version to ship (default: the sdist of the checkout).

    Returns:
        The files written, relative to ``out_dir``, sorted.

    Raises:
        InputError: an unknown Space, a malformed ``hub_id``, ``out_dir`` is not empty, ``package`` is not an
            amreval file of this version, or there is no source to build the sdist from.
        MissingDependencyError: no ``gradio_version`` and gradio is not installed; huggingface_hub is not
            installed.
    """
    folder = app_space_dir(name)
    check_hub_id(hub_id)
    out = Path(out_dir).resolve()  # ``missing/..`` is the folder it names, not a new one
    version = gradio_version or installed_gradio_version()
    check_space_folder(out, overwrite)
    card = space_readme(
        (folder / "README.md").read_text(encoding="utf-8"), hub_id=hub_id, gradio_version=version, name=name
    )  # fails early without huggingface_hub
    bundled = bundle_package(out, package)  # checked (or built) before the folder is made
    note = (
        f"\nThis Space runs `app.py`; its `requirements.txt` installs amreval's dependencies, and `app.py` "
        f"installs amreval itself from `{bundled.name}`, in this folder, when it starts.\n"
    )
    title = re.search(r"(?m)^# .*\n", card)
    at = title.end() if title else len(card)
    (out / "README.md").write_text(card[:at] + note + card[at:], encoding="utf-8")
    shutil.copyfile(folder / "packages.txt", out / "packages.txt")
    app = with_bootstrap((folder / "app.py").read_text(encoding="utf-8"), bundled.name)
    (out / "app.py").write_text(app, encoding="utf-8")
    examples = folder / "examples"
    for example in sorted(examples.iterdir()) if examples.is_dir() else []:
        if example.is_file():
            (out / "examples").mkdir(exist_ok=True)
            shutil.copyfile(example, out / "examples" / example.name)
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8")
    (out / "requirements.txt").write_text(space_requirements(requirements, amreval_requires(bundled)), encoding="utf-8")
    return sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())

"""The amreval that a Space folder installs: a source distribution (or a wheel) inside the folder itself.

A Space runs ``pip install -r requirements.txt`` in its folder, so :func:`~amreval.hub.metrics.write_space`
copies the package file into the folder and names it in ``requirements.txt`` by a relative path
(``./amreval-0.1.0.tar.gz[hub]``): the folder alone builds the Space, before and after a PyPI release.

The file is, in this order: the one given (``--sdist PATH`` or ``--wheel PATH``: an sdist or a wheel of
this amreval version), or the sdist built from the checkout the running amreval comes from (an editable
install, or ``PYTHONPATH=src``), with setuptools' own build backend. An amreval installed from a wheel has
no source to build from: then the file must be given (``make dist`` builds both in ``dist/``).

The sdist builds anywhere: the C kernels are an optional extension (``setup.py``), so where the Space's
builder has no C compiler the install still succeeds and the alignments run in the pure-Python kernels
(the same numbers, slower). A wheel holds the kernels compiled for one platform and Python version, so it
suits a Space only when it matches the Space's.

Example:
    >>> requirement_line("amreval[hub,lm]", "amreval-1.2.3.tar.gz")
    './amreval-1.2.3.tar.gz[hub,lm]'
    >>> requirement_line("amreval", "amreval-1.2.3-py3-none-any.whl")
    './amreval-1.2.3-py3-none-any.whl'
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from email.parser import HeaderParser
from pathlib import Path
from typing import Union

from amreval._version import __version__
from amreval.errors import InputError

__all__ = ["source_checkout", "build_sdist", "package_version", "bundle_package", "requirement_line"]

PathLike = Union[str, "os.PathLike[str]"]

_REQUIREMENT = re.compile(r"^\s*amreval(\[[^\]]*\])?\s*$")


def source_checkout() -> Path | None:
    """The source tree the running amreval comes from (``src/amreval`` under a folder holding the
    project's ``pyproject.toml`` and ``setup.py``), or None for an installed wheel."""
    package = Path(__file__).resolve().parents[1]
    root = package.parents[1]
    if package.parent.name != "src" or not (root / "setup.py").is_file():
        return None
    project = root / "pyproject.toml"
    if not project.is_file() or not re.search(r'(?m)^name = "amreval"$', project.read_text(encoding="utf-8")):
        return None
    return root


def build_sdist(out_dir: PathLike, root: PathLike | None = None) -> Path:
    """Build the sdist of the checkout ``root`` (default: :func:`source_checkout`) into ``out_dir``.

    It runs setuptools' build backend in the checkout, in this interpreter (no download; the
    setuptools installed here must read the project's ``pyproject.toml``).

    Raises:
        InputError: no checkout (amreval installed from a wheel), or the build failed; the message
            says to pass the file instead.
    """
    source = Path(root) if root is not None else source_checkout()
    if source is None:
        raise InputError(
            "this amreval is installed without its source, so no sdist can be built from it; pass --sdist PATH "
            f"(or --wheel PATH): amreval {__version__} built with `make dist` in a checkout"
        )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    script = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    done = subprocess.run(
        [sys.executable, "-c", script, str(out.resolve())], cwd=source, capture_output=True, text=True
    )
    if done.returncode != 0 or not done.stdout.strip():
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        raise InputError(
            f"building the sdist of {source} failed (setuptools' build backend in {sys.executable}):\n{tail}\n"
            "pass --sdist PATH (`make dist` builds one) instead"
        )
    return out / done.stdout.strip().splitlines()[-1]


def _metadata(path: Path) -> str:
    """The core metadata text of an sdist (``PKG-INFO``) or a wheel (``*.dist-info/METADATA``)."""
    try:
        if path.name.endswith(".whl"):
            with zipfile.ZipFile(path) as wheel:
                names = [n for n in wheel.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
                if names:
                    return wheel.read(names[0]).decode("utf-8")
        elif path.name.endswith(".tar.gz"):
            with tarfile.open(path, "r:gz") as sdist:
                for member in sdist.getmembers():
                    if re.fullmatch(r"[^/]+/PKG-INFO", member.name):
                        data = sdist.extractfile(member)
                        if data is not None:
                            return data.read().decode("utf-8")
    except (OSError, zipfile.BadZipFile, tarfile.TarError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: not a readable package file ({exc})") from None
    raise InputError(f"{path}: no package metadata (PKG-INFO of an sdist, METADATA of a wheel)")


def package_version(path: PathLike) -> str:
    """The version of an amreval sdist (``.tar.gz``) or wheel (``.whl``), read from its metadata.

    Raises:
        InputError: the file is missing, of another kind, not amreval's, or unreadable.
    """
    file = Path(path)
    if not file.is_file():
        raise InputError(f"{file}: no such file")
    if not file.name.endswith((".tar.gz", ".whl")):
        raise InputError(f"{file}: expected an sdist (.tar.gz) or a wheel (.whl) of amreval")
    headers = HeaderParser().parsestr(_metadata(file))
    if (headers.get("Name") or "").lower() != "amreval":
        raise InputError(f"{file}: a package of {headers.get('Name')!r}, not amreval")
    return str(headers.get("Version"))


def bundle_package(out_dir: PathLike, package: PathLike | None = None) -> Path:
    """Put the amreval package file a Space installs into ``out_dir`` (made when it is checked) and return
    its path there.

    ``package``: an sdist or wheel of this amreval version; default: the sdist built from the checkout
    (:func:`build_sdist`). An older amreval file in ``out_dir`` is removed, so that the folder names
    one.

    Raises:
        InputError: ``package`` is not an amreval file of this version, or no sdist can be built.
    """
    out = Path(out_dir)
    if package is None:
        with tempfile.TemporaryDirectory(prefix="amreval-sdist-") as work:
            return bundle_package(out, build_sdist(work))
    source = Path(package)
    version = package_version(source)
    if version != __version__:
        raise InputError(
            f"{source}: amreval {version}, but this is amreval {__version__} (the bundle's metric script and app "
            "are this version's): pass a file of the same version"
        )
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("amreval-*"):
        if old.is_file() and old.name.endswith((".tar.gz", ".whl")):
            old.unlink()
    target = out / source.name
    shutil.copyfile(source, target)
    return target


def requirement_line(requirement: str, file_name: str) -> str:
    """The ``requirements.txt`` line that installs the package file ``file_name`` of the folder, with the
    extras of ``requirement`` (``amreval[hub]`` -> ``./amreval-0.1.0.tar.gz[hub]``).

    Raises:
        InputError: ``requirement`` is not a plain ``amreval[extras]`` requirement.
    """
    match = _REQUIREMENT.match(requirement)
    if not match:
        raise InputError(f"expected amreval or amreval[extras], got {requirement!r}")
    return f"./{file_name}{match.group(1) or ''}"

"""The amreval that a Space folder installs: a source distribution (or a wheel) inside the folder itself.

A Space's builder runs ``pip install -r requirements.txt`` with only that file mounted, before the rest of
the folder is copied in, so ``requirements.txt`` cannot name a file of the folder. It lists amreval's own
dependencies instead (:func:`amreval_dependencies`, from amreval's metadata), and the folder's ``app.py``
and metric script start with a short bootstrap (:func:`bootstrap_code`, put in by :func:`with_bootstrap`)
that installs amreval from the package file beside them (``pip install --no-deps``) when ``import amreval``
fails or gives another version: the folder alone builds the Space, before and after a PyPI release.

The file is, in this order: the one given (``--sdist PATH`` or ``--wheel PATH``: an sdist or a wheel of
this amreval version), or the sdist built from the checkout the running amreval comes from (an editable
install, or ``PYTHONPATH=src``), with setuptools' own build backend. An amreval installed from a wheel has
no source to build from: then the file must be given (``make dist`` builds both in ``dist/``).

The sdist builds anywhere: the C kernels are an optional extension (``setup.py``), so where the Space's
builder has no C compiler the install still succeeds and the alignments run in the pure-Python kernels
(the same numbers, slower). A wheel holds the kernels compiled for one platform and Python version, so it
suits a Space only when it matches the Space's.

Example:
    >>> requires = ["penman>=1.3", 'torch>=2.1; extra == "lm"', 'glove; python_version >= "3.11" and extra == "s2"']
    >>> amreval_dependencies("amreval[s2]", requires)
    ['penman>=1.3', 'glove; python_version >= "3.11"']
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from email.parser import HeaderParser
from pathlib import Path
from typing import Union

from amreval._version import __version__
from amreval.errors import InputError

__all__ = [
    "source_checkout",
    "build_sdist",
    "package_version",
    "bundle_package",
    "package_requires",
    "amreval_dependencies",
    "bootstrap_code",
    "with_bootstrap",
]

PathLike = Union[str, "os.PathLike[str]"]

_REQUIREMENT = re.compile(r"^\s*amreval(\[[^\]]*\])?\s*$")
_EXTRA = re.compile(r'\s*(?:\band\s+)?\bextra\s*==\s*"([^"]+)"')


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


@contextlib.contextmanager
def _one_build_at_a_time(source: Path) -> Iterator[None]:
    """Builds of one checkout take turns: setuptools lays the sdist's tree out in the checkout itself
    (``amreval-VERSION/``, the ``egg-info``), so two at once (two ``amreval space`` runs, two test processes)
    remove each other's files. An exclusive lock on a file named after the checkout, where ``fcntl`` exists."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock
        yield
        return
    digest = hashlib.sha256(str(source.resolve()).encode("utf-8")).hexdigest()[:16]
    with open(Path(tempfile.gettempdir()) / f"amreval-sdist-{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


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
    with _one_build_at_a_time(source):
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


def package_requires(path: PathLike) -> list[str]:
    """The ``Requires-Dist`` lines of an amreval sdist or wheel (what ``importlib.metadata.requires`` gives
    for it once installed).

    Raises:
        InputError: the file has no readable package metadata.
    """
    return HeaderParser().parsestr(_metadata(Path(path))).get_all("Requires-Dist") or []


def amreval_dependencies(requirement: str, requires: list[str]) -> list[str]:
    """What ``requirement`` (``amreval`` or ``amreval[extras]``) installs besides amreval itself, from amreval's
    ``Requires-Dist`` lines ``requires``: the lines without an ``extra`` marker and those of the extras named
    (amreval's own extras followed), with the ``extra`` clause dropped and the other markers and the bounds kept.

    Raises:
        InputError: ``requirement`` is not a plain ``amreval[extras]`` requirement.
    """
    match = _REQUIREMENT.match(requirement)
    if not match:
        raise InputError(f"expected amreval or amreval[extras], got {requirement!r}")
    wanted = {e.strip().lower().replace("_", "-") for e in (match.group(1) or "[]")[1:-1].split(",") if e.strip()}
    out: list[str] = []
    for line in requires:
        spec, _, marker = line.partition(";")
        extras = _EXTRA.findall(marker)
        if extras and not wanted & {e.lower().replace("_", "-") for e in extras}:
            continue
        rest = _EXTRA.sub("", marker).strip()
        rest = re.sub(r"^and\s+", "", rest)
        if re.match(r"^\s*amreval\b", spec):  # an extra that names others of amreval's extras
            found = amreval_dependencies(spec.strip(), requires)
        else:
            found = [f"{spec.strip()}; {rest}" if rest else spec.strip()]
        out.extend(f for f in found if f not in out)
    return out


# the bootstrap a Space folder's app.py and metric script start with (see bootstrap_code)
_BOOTSTRAP = """\
# amreval from the package file in this folder: a Space installs requirements.txt (amreval's dependencies)
# before the folder is copied in, so this installs amreval itself (written by `amreval space`)
import importlib as _importlib
import json as _json
import subprocess as _subprocess
import sys as _sys
from pathlib import Path as _Path

_AMREVAL_FILE = {file!r}
_AMREVAL_VERSION = {version!r}


def _install_bundled_amreval() -> None:
    try:
        import amreval

        found = getattr(amreval, "__version__", None)
    except ImportError:
        found = None
    if found == _AMREVAL_VERSION:
        return
    here = _Path(__file__).resolve()
    package = here.with_name(_AMREVAL_FILE)
    if not package.is_file():  # evaluate.load runs a copy of this script; the json beside it names the original
        try:
            original = _json.loads(here.with_suffix(".json").read_text(encoding="utf-8"))["original file path"]
            package = _Path(original).with_name(_AMREVAL_FILE)
        except (OSError, ValueError, KeyError, TypeError):
            pass
    if not package.is_file():
        if found is not None:
            return  # another amreval version and no package file: run on it
        raise ImportError(
            f"amreval is not installed and {{_AMREVAL_FILE}} is not beside {{here}}: "
            f"`pip install amreval`, or put {{_AMREVAL_FILE}} beside this file"
        )
    print(
        f"installing amreval {{_AMREVAL_VERSION}} from {{package}} (found: {{found or 'no amreval'}})",
        file=_sys.stderr,
        flush=True,
    )
    _subprocess.check_call([_sys.executable, "-m", "pip", "install", "--no-deps", str(package)])
    _importlib.invalidate_caches()
    for name in [n for n in _sys.modules if n == "amreval" or n.startswith("amreval.")]:
        del _sys.modules[name]


_install_bundled_amreval()

"""


def bootstrap_code(file_name: str, version: str = __version__) -> str:
    """The code a Space folder's ``app.py`` and metric script start with: when ``import amreval`` fails or
    gives another version than ``version``, install the package file ``file_name`` beside the script
    (``pip install --no-deps``; for a metric script that ``evaluate.load`` copied, beside the original);
    without the file and without amreval, an ``ImportError`` saying ``pip install amreval``."""
    return _BOOTSTRAP.format(file=file_name, version=version)


def with_bootstrap(source: str, file_name: str, version: str = __version__) -> str:
    """``source`` (a Python module) with :func:`bootstrap_code` put after its docstring and its
    ``from __future__`` imports, before its first other statement."""
    body = ast.parse(source).body
    at = 0
    while at < len(body) and (
        (at == 0 and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant))
        or (isinstance(body[at], ast.ImportFrom) and getattr(body[at], "module", None) == "__future__")
    ):
        at += 1
    if at == len(body):
        return source.rstrip("\n") + "\n\n" + bootstrap_code(file_name, version)
    lines = source.splitlines(keepends=True)
    first = body[at].lineno - 1
    return "".join(lines[:first]) + bootstrap_code(file_name, version) + "".join(lines[first:])

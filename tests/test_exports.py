"""The packages' names load their modules on first use: every name resolves, to the one object; the stub a type
checker reads names what each package exports; every module is a module, under its dotted name."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import amreval
from amreval._lazy import read_stub
from amreval.errors import MissingDependencyError

PACKAGES = [
    "amreval",
    "amreval.amr",
    "amreval.docamr",
    "amreval.match",
    "amreval.mfbeta",
    "amreval.scores",
    "amreval.hub",
]


def _stub_path(module: types.ModuleType) -> Path | None:
    path = Path(module.__file__ or "")
    stub = path.with_suffix(".pyi")
    return stub if path.name == "__init__.py" and stub.exists() else None


def _stub(module: types.ModuleType) -> list[tuple[str, str]]:
    """``(name, module it comes from)`` for every re-export of the package's stub, read as a type checker reads it."""
    stub = _stub_path(module)
    assert stub is not None, module.__name__
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    for node in tree.body:  # nothing but explicit re-exports, which type checkers take as the package's names
        assert isinstance(node, ast.ImportFrom) and node.level == 0, ast.dump(node)
        assert all(alias.asname == alias.name for alias in node.names), ast.dump(node)
    return [(alias.name, node.module or "") for node in tree.body for alias in node.names]


def _definition(module: str, name: str) -> str:
    """The module that defines ``name``, following it through the stubs of the packages that pass it on."""
    imported = importlib.import_module(module)
    if _stub_path(imported) is None:
        return module
    return _definition(dict(_stub(imported))[name], name)


def _packages() -> list[types.ModuleType]:
    found = [amreval]
    for info in pkgutil.walk_packages(amreval.__path__, "amreval."):
        if info.ispkg:
            found.append(importlib.import_module(info.name))
    return found


@pytest.mark.parametrize("name", PACKAGES)
def test_every_exported_name_resolves_and_is_listed(name):
    package = importlib.import_module(name)
    for export in package.__all__:
        value = getattr(package, export)
        assert value is not None, export
        assert export in dir(package)
        # the same object its own module holds (not a module that happens to share the name)
        home = getattr(value, "__module__", None)
        if callable(value) and home and home.startswith("amreval."):
            assert getattr(importlib.import_module(home), export) is value, export
    with pytest.raises(AttributeError, match=f"module '{name}' has no attribute 'no_such_name'"):
        package.no_such_name  # noqa: B018


@pytest.mark.parametrize("name", PACKAGES)
def test_what_the_type_checker_reads_is_what_the_package_exports(name):
    package = importlib.import_module(name)
    stub = _stub(package)
    assert [n for n, _ in stub] == package.__all__
    assert len(set(package.__all__)) == len(package.__all__)
    listed = dir(package)
    assert [n for n in listed if not isinstance(getattr(package, n), types.ModuleType)] == sorted(package.__all__)
    # what else is listed: the package's modules loaded so far
    assert all(f"{name}.{n}" in sys.modules for n in listed if n not in package.__all__)
    for export, module in stub:
        value = getattr(package, export)
        assert value is getattr(importlib.import_module(module), export), export
        home = _definition(module, export)
        assert export in vars(importlib.import_module(home)), (export, home)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert value.__module__ == home, (export, home)


def test_the_packages_with_names_are_the_packages_with_stubs():
    with_stub = sorted(p.__name__ for p in _packages() if _stub_path(p) is not None)
    assert with_stub == sorted(PACKAGES)
    for package in _packages():
        assert hasattr(package, "__all__") == (package.__name__ in PACKAGES), package.__name__


def test_no_package_exports_a_name_of_one_of_its_modules():
    packages = _packages()
    assert {p.__name__ for p in packages} >= {*PACKAGES, "amreval.report"}
    for package in packages:
        modules = {m.name for m in pkgutil.iter_modules(package.__path__)}
        assert not modules & set(getattr(package, "__all__", ())), package.__name__
    assert "smatch" not in amreval.scores.__all__ and "mfbeta" not in amreval.__all__


def test_every_module_imports_by_its_dotted_name_as_the_module():
    found, skipped = [], []
    for info in pkgutil.walk_packages(amreval.__path__, "amreval."):
        try:
            module = importlib.import_module(info.name)
        except MissingDependencyError as error:  # a module of an extra that is not installed
            assert "pip install 'amreval[" in str(error), info.name
            skipped.append(info.name)
            continue
        found.append(info.name)
        assert isinstance(module, types.ModuleType) and module.__name__ == info.name
        assert sys.modules[info.name] is module
        parent, _, last = info.name.rpartition(".")
        assert getattr(sys.modules[parent], last) is module, info.name
    assert {"amreval.scores.smatch", "amreval.mfbeta.score", "amreval.match.kernels._ckernels", "amreval.__main__"} <= {
        *found,
        *skipped,
    }
    assert len(found) + len(skipped) == len(set(found + skipped)) > 60


def _fresh(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize("first", ["functions", "modules"])
def test_a_module_is_the_module_and_a_function_the_function_whichever_is_imported_first(first):
    functions = "from amreval import smatch, docsmatch, s2match\nfrom amreval.mfbeta import mfbeta\n"
    modules = (
        "import amreval.scores.smatch as m1, amreval.scores.docsmatch as m2, amreval.scores.s2match as m3\n"
        "import amreval.mfbeta.score as s\n"
        "import amreval.mfbeta as p\n"
    )
    code = (functions + modules if first == "functions" else modules + functions) + (
        "import amreval, amreval.scores\n"
        "from amreval.scores import smatch as m4\n"
        "print(*(type(x).__name__ for x in (m1, m2, m3, m4, s, p, amreval.scores.smatch, amreval.mfbeta)))\n"
        "print(*(type(x).__name__ for x in (smatch, docsmatch, s2match, mfbeta, amreval.smatch, p.mfbeta)))\n"
        "print(smatch is m1.smatch, docsmatch is m2.docsmatch, s2match is m3.s2match, mfbeta is s.mfbeta, m4 is m1)"
    )
    assert _fresh(code).splitlines() == [
        " ".join(["module"] * 8),
        " ".join(["function"] * 6),
        "True True True True True",
    ]


def test_a_stub_names_each_export_once_from_an_absolute_module(tmp_path):
    stub = tmp_path / "__init__.pyi"
    stub.write_text('"""Names."""\n\n# the readers\nfrom pkg.b import y as y\nfrom pkg.a import x as x, z as z\n')
    assert read_stub(str(stub)) == {"y": "pkg.b", "x": "pkg.a", "z": "pkg.a"}
    assert list(read_stub(str(stub))) == ["y", "x", "z"]


@pytest.mark.parametrize(
    "line",
    [
        "x = 1",
        "import pkg.a",
        "from pkg.a import x",
        "from pkg.a import x as y",
        "from .a import x as x",
        "from pkg.a import *",
        "def f() -> None: ...",
    ],
)
def test_a_stub_with_anything_but_re_exports_is_an_import_error(tmp_path, line):
    stub = tmp_path / "__init__.pyi"
    stub.write_text(f"from pkg.b import y as y\n{line}\n")
    with pytest.raises(ImportError, match=r"__init__\.pyi, line 2: a package stub holds only re-exports"):
        read_stub(str(stub))


def test_a_name_a_stub_gives_twice_is_an_import_error(tmp_path):
    stub = tmp_path / "__init__.pyi"
    stub.write_text("from pkg.a import x as x\nfrom pkg.b import y as y, x as x\n")
    with pytest.raises(ImportError, match=r"__init__\.pyi, line 2: 'x' is named twice"):
        read_stub(str(stub))


def test_a_package_s_names_and_modules_load_when_first_used(tmp_path):
    package = tmp_path / "pkgx"
    package.mkdir()
    (package / "__init__.py").write_text(
        '"""A package."""\n\nfrom amreval._lazy import attach_stub\n\n'
        "__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)\n"
    )
    (package / "__init__.pyi").write_text(
        "from pkgx.heavy import VALUE as VALUE\nfrom pkgx.heavy import twice as twice\n"
    )
    (package / "heavy.py").write_text("VALUE = 21\n\n\ndef twice(x):\n    return 2 * x\n")
    (package / "plain.py").write_text("X = 1\n")
    (package / "needs.py").write_text("import no_such_dependency_of_pkgx\n")
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "import pkgx\n"
        "print('pkgx.heavy' in sys.modules, pkgx.__all__, dir(pkgx))\n"
        "print(pkgx.twice(pkgx.VALUE), 'pkgx.heavy' in sys.modules, 'VALUE' in vars(pkgx))\n"
        "print(type(pkgx.plain).__name__, dir(pkgx))\n"
        "try:\n    pkgx.nothing\nexcept AttributeError as error:\n    print(error)\n"
        "try:\n    pkgx.needs\nexcept ModuleNotFoundError as error:\n    print(error.name)\n"
    )
    assert _fresh(code).splitlines() == [
        "False ['VALUE', 'twice'] ['VALUE', 'twice']",
        "42 True True",
        "module ['VALUE', 'heavy', 'plain', 'twice']",
        "module 'pkgx' has no attribute 'nothing'",
        "no_such_dependency_of_pkgx",
    ]


def test_import_amreval_loads_no_score_reader_or_solver():
    code = "import sys, amreval; print(' '.join(sorted(sys.modules)))"
    loaded = set(_fresh(code).split())
    for module in ("amreval.scores", "amreval.docamr", "amreval.mfbeta.score", "amreval.match.alignment"):
        assert module not in loaded
    for module in ("penman", "highspy", "sqlite3", "xml.etree.ElementTree", "multiprocessing", "numpy"):
        assert module not in loaded


def test_import_amreval_reads_its_names_without_loading_typing_or_its_modules():
    code = "import sys; before = set(sys.modules); import amreval; print(*sorted(set(sys.modules) - before))"
    loaded = _fresh(code).split()
    assert "amreval" in loaded and "ast" in loaded
    assert [m for m in loaded if m.startswith("amreval")] == ["amreval", "amreval._lazy"]
    assert "typing" not in loaded


def test_listing_shows_the_exports_not_the_machinery_and_subpackages_load_when_asked():
    code = (
        "import amreval\n"
        "names = dir(amreval)\n"
        "print(all(n in names for n in amreval.__all__), [n for n in ('attach_stub', 'exports', 'shadow',"
        " 'TYPE_CHECKING', 'annotations') if n in names])\n"
        "print(type(amreval.report).__name__, type(amreval.scores.compare_systems).__name__)"
    )
    assert _fresh(code).splitlines() == ["True []", "module function"]


def test_the_smatch_command_loads_only_what_it_runs():
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "examples"
    code = (
        "import io, sys, contextlib\n"
        "from amreval.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['smatch', '-f', {str(examples / 'pred.amr')!r}, {str(examples / 'gold.amr')!r}])\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    loaded = set(_fresh(code).split())
    assert "amreval.scores.smatch" in loaded and "amreval.match.certify.exact" in loaded
    for module in (
        "amreval.match.certify.blocks",  # a document's search, not a sentence's
        "amreval.match.certify.coupling",
        "amreval.docamr",
        "amreval.mfbeta",
        "amreval.scores.compare",
        "amreval.scores.s2match",
        "amreval.scores.docsmatch",
        "penman",
        "highspy",
        "scipy",
    ):
        assert module not in loaded, module


def test_the_command_list_is_the_parser_s():
    from amreval.cli import COMMANDS, build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    assert tuple(commands.choices) == tuple(COMMANDS)


def test_a_name_that_is_no_module_is_an_attribute_error():
    import amreval

    assert not hasattr(amreval, "nope.x") and not hasattr(amreval, "nope")

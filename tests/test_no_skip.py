"""``AMREVAL_NO_SKIP``: in the environment it names, a skip off the allow-list of the root conftest fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TESTS = {
    "test_allowed.py": (
        "import pytest\n\n\ndef test_a():\n"
        "    pytest.skip('public AMR data not found at /nowhere (expected ../shared/data beside the project)')\n"
    ),
    "test_test_level.py": "import pytest\n\n\ndef test_b():\n    pytest.skip('the lm extra is not installed')\n",
    "test_module_level.py": "import pytest\n\npytest.skip('no gradio here', allow_module_level=True)\n",
    "test_xfail.py": "import pytest\n\n\n@pytest.mark.xfail(reason='known')\ndef test_c():\n    assert False\n",
}


def run(folder: Path, no_skip: str | None, *files: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "AMREVAL_NO_SKIP"}
    if no_skip is not None:
        env["AMREVAL_NO_SKIP"] = no_skip
    command = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-W", "ignore", *files]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_skips_off_the_allow_list_fail_only_in_the_named_environment(tmp_path):
    shutil.copyfile(ROOT / "conftest.py", tmp_path / "conftest.py")
    for name, text in TESTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    plain = run(tmp_path, None, ".")
    assert plain.returncode == 0, plain.stdout
    assert plain.stdout.strip().splitlines()[-1].startswith("3 skipped, 1 xfailed")
    elsewhere = run(tmp_path, str(tmp_path), "test_module_level.py")  # another environment's prefix: no effect
    assert elsewhere.stdout.strip().splitlines()[-1].startswith("1 skipped")
    strict = run(tmp_path, sys.prefix, "test_allowed.py", "test_test_level.py", "test_xfail.py")
    assert strict.returncode == 1
    assert strict.stdout.strip().splitlines()[-1].startswith("1 failed, 1 skipped, 1 xfailed"), strict.stdout
    assert "skipped (the lm extra is not installed), but AMREVAL_NO_SKIP says" in strict.stdout
    assert "test_allowed.py:5: public AMR data not found at /nowhere" in strict.stdout
    # a module skipped as a whole: a collection error, which stops the run
    module = run(tmp_path, sys.prefix, "test_module_level.py")
    assert module.returncode == 2 and "skipped (no gradio here), but AMREVAL_NO_SKIP says" in module.stdout

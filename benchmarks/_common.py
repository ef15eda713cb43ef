"""What the benchmarks share: the paths, the measured child processes, the peer's program and the files of
documents they write.

The benchmarks are scripts (``python benchmarks/bench_x.py``), so their own folder is first on
``sys.path`` and ``from _common import ...`` finds this module. Whole-process figures are only
comparable with Python's bytecode caches present or absent in both runs: :func:`bytecode_caches`
says which, and every benchmark that times whole processes prints it.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ROOT",
    "DATA",
    "RESULTS",
    "Run",
    "run_measured",
    "best_run",
    "find_peer",
    "write_documents",
    "amreval_command",
    "bytecode_caches",
    "build_chains",
    "chain_stats",
]

ROOT = Path(__file__).resolve().parents[1]
#: the shared data (../shared/data beside the checkout): the Little Prince corpus and parser outputs
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results"

# the generators of test fixtures (tests/fixtures/: the deterministic coreference chains) are shared with
# the tests, where the tests folder is on pytest's pythonpath
sys.path.insert(0, str(ROOT / "tests"))

from fixtures.doc_chains import build_chains, chain_stats  # noqa: E402


def amreval_command() -> list[str]:
    """The command line that runs ``amreval`` in a child process: the ``amreval`` program beside this
    Python (as users run it; it honours ``PYTHONPATH``), else its ``main`` through ``python -c``."""
    entry = Path(sys.executable).parent / "amreval"
    if entry.exists():
        return [str(entry)]
    return [sys.executable, "-c", "import sys; from amreval.cli import main; sys.exit(main())"]


def bytecode_caches() -> str:
    """Whether the modules a whole process imports have bytecode caches (``present``, ``absent`` or
    ``partial``): without them every process compiles every module it imports, a fixed cost of about a
    third of a second on these machines, which a measurement must name."""
    names = ("amreval.cli", "amreval.scores.smatch", "numpy", "penman")
    found = []
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        found.append(os.path.exists(importlib.util.cache_from_source(spec.origin)))
    if found and all(found):
        return "present"
    return "absent" if not any(found) else "partial"


def write_documents(path: Path, graphs) -> None:
    path.write_text("\n\n".join(g.to_string() for g in graphs) + "\n", encoding="utf-8")


# -- measured runs -------------------------------------------------------------


@dataclass
class Run:
    """One tool run in a child process."""

    status: str  # "ok", "timeout", "out of memory", or "crash: ..."
    wall_s: float
    peak_mb: float
    stdout: str
    stderr: str


_GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
# killed (directly, or under GNU time, which exits with 128 + the signal)
_KILLED = {
    sign * k + off for sign, off in ((-1, 0), (1, 128)) for k in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT)
}


def run_measured(
    cmd: list[str],
    mem_limit_gb: float | None = None,
    time_limit: float | None = None,
    env: dict[str, str] | None = None,
) -> Run:
    """Run ``cmd`` in a new session; wall time, peak RSS and status.

    Peak RSS comes from GNU time (``%M``) when it is installed: a process
    forked from this one carries this process's resident size into its peak
    (the peak survives ``exec``), while GNU time's own child starts small.
    Without GNU time, ``wait4``'s usage is used, an overestimate by up to the
    size of this process.
    """
    rss_file = tempfile.NamedTemporaryFile(suffix=".rss", delete=False) if _GNU_TIME else None
    if rss_file is not None:
        rss_file.close()
        cmd = [_GNU_TIME, "-f", "%M", "-o", rss_file.name, *cmd]

    def cap_memory() -> None:
        if mem_limit_gb:
            limit = int(mem_limit_gb * 1024**3)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    timed_out = threading.Event()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        # no other thread runs at this point (the timer starts after the spawn)
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, preexec_fn=cap_memory, start_new_session=True, env=env)

        def kill() -> None:
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(time_limit, kill) if time_limit else None
        if timer:
            timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        except BaseException:
            kill()
            raise
        finally:
            if timer:
                timer.cancel()
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    peak_mb = usage.ru_maxrss / 1024  # KiB on Linux
    if rss_file is not None:
        lines = Path(rss_file.name).read_text().split()
        os.unlink(rss_file.name)
        if lines and lines[-1].isdigit():
            peak_mb = int(lines[-1]) / 1024
    if timed_out.is_set():
        state = "timeout"
    elif proc.returncode == 0:
        state = "ok"
    elif "MemoryError" in stderr or proc.returncode in _KILLED:
        state = "out of memory"
    else:
        last = [line for line in stderr.splitlines() if line.strip()][-1:] or [f"exit code {proc.returncode}"]
        state = f"crash: {last[0][:120]}"
    return Run(state, wall, peak_mb, stdout, stderr)


#: The environment variable naming the peer's ``doc-smatch`` (kept in a venv of its own, as its pins clash with
#: ours: ``python3 -m venv PEERS/docamr && PEERS/docamr/bin/pip install docAMR==0.1.1 smatch==1.0.4``).
PEER_VARIABLE = "AMREVAL_PEER_DOC_SMATCH"


def find_peer(given: str | None = None) -> str | None:
    """The peer's ``doc-smatch``: ``given`` (a path), else :data:`PEER_VARIABLE`'s, else one beside this Python,
    else on the PATH; None where none is found.

    Raises:
        SystemExit: a path given (or in the variable) that is not an executable file.
    """
    named = given or os.environ.get(PEER_VARIABLE)
    if named:
        path = Path(named).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise SystemExit(f"doc-smatch not found at {path} (--peer or {PEER_VARIABLE}): expected an executable")
        return str(path)
    local = Path(sys.executable).parent / "doc-smatch"
    return str(local) if local.exists() else shutil.which("doc-smatch")


def best_run(cmd: list[str], runs: int, mem_limit_gb: float | None = None, time_limit: float | None = None):
    """Best wall time of up to ``runs`` runs (stopping at the first that fails), largest peak memory."""
    best, peaks, walls = None, [], []
    for _ in range(runs):
        run = run_measured(cmd, mem_limit_gb, time_limit)
        walls.append(run.wall_s)
        peaks.append(run.peak_mb)
        if run.status != "ok":
            return run, walls
        if best is None or run.wall_s < best.wall_s:
            best = run
    best.peak_mb = max(peaks)
    return best, walls

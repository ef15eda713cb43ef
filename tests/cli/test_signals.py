"""Runs end cleanly: Ctrl-C stops a long alignment at once, workers die with their parent."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from amreval import smatch

AMREVAL = [sys.executable, "-c", "import sys; from amreval.cli import main; sys.exit(main())"]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _big_graph(n: int, seed: int) -> str:
    """A graph of ``n`` nodes with few concepts and many reentrancies: slow to align."""
    rnd = random.Random(seed)
    children = "".join(f" :ARG{rnd.randint(0, 3)} (n{i} / x{rnd.randint(0, 3)})" for i in range(1, n))
    extra = "".join(f" :mod n{rnd.randint(1, n - 1)}" for _ in range(n))
    return f"(n0 / x{children}{extra})\n"


@pytest.fixture(scope="module")
def warm() -> None:
    # compile (or load) the kernels here so that the runs below spend their time aligning
    smatch(["(a / b :ARG0 (c / d))"], ["(a / b :ARG0 (c / e))"])


def _interrupt(tmp_path: Path, n: int, *flags: str, wait: float) -> tuple[int, float, str]:
    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    pred.write_text(_big_graph(n, 1))
    gold.write_text(_big_graph(n, 2))
    proc = subprocess.Popen(
        [*AMREVAL, "smatch", "-f", str(pred), str(gold), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(wait)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    return proc.returncode, time.monotonic() - start, err.decode()


def test_ctrl_c_stops_hill_climbing_within_a_second(tmp_path, warm):
    # 150 nodes and 100000 restarts: minutes of hill climbing inside one compiled call
    code, took, err = _interrupt(tmp_path, 150, "-r", "100000", "--solver", "hillclimb", wait=4)
    assert (code, err) == (130, "amreval: interrupted\n")
    assert took < 1.0


def test_ctrl_c_stops_the_integer_program_within_a_second(tmp_path, warm):
    # 400 nodes: HiGHS works up to its 60 s time limit
    code, took, err = _interrupt(tmp_path, 400, "-r", "0", "--solver", "exact", "--time-limit", "60", wait=6)
    assert (code, err) == (130, "amreval: interrupted\n")
    assert took < 1.0


_WORKERS = textwrap.dedent(
    """
    import multiprocessing, os, sys, time
    from amreval.amr.graph import Graph
    from amreval.scores.harness import score_corpus
    from amreval.scores.results import Config, PairScore

    def slow(pred, gold, search):
        with open(os.path.join(sys.argv[1], str(os.getpid())), "w"):
            pass
        time.sleep(120)
        return PairScore(0, 0, 0, True, 0.0)

    if __name__ == "__main__":
        multiprocessing.set_start_method(sys.argv[2])
        print(os.getpid(), flush=True)
        score_corpus(["(a / b)"] * 4, ["(a / b)"] * 4, slow, Config("smatch"), num_workers=2)
    """
)


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")  # a zombie waits only for its new parent to reap it


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    "sig, method", [(signal.SIGKILL, "fork"), (signal.SIGTERM, "fork"), (signal.SIGKILL, "forkserver")]
)
def test_workers_die_with_their_parent(tmp_path, sig, method):
    # forkserver (Python 3.14's default on Linux): the workers are children of the fork server, not of
    # the scoring process, so the kernel's parent-death signal cannot be used; a thread watches instead
    script = tmp_path / "run.py"
    script.write_text(_WORKERS)
    marks = tmp_path / "workers"
    marks.mkdir()
    proc = subprocess.Popen([sys.executable, str(script), str(marks), method], stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(os.listdir(marks)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = [int(name) for name in os.listdir(marks)]
        assert len(workers) == 2
        proc.send_signal(sig)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while not all(_gone(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_gone(pid) for pid in workers)
        # nothing holds the parent's stdout open any more: a reader sees its end (`amreval ... -j 2 | cat`)
        assert proc.stdout is not None and proc.stdout.read().strip().isdigit()
    finally:
        proc.kill()
        for name in os.listdir(marks):
            try:
                os.kill(int(name), signal.SIGKILL)
            except ProcessLookupError:
                pass


def test_ctrl_c_stops_a_run_with_workers_and_its_workers(tmp_path, warm):
    docs = [f"(d / document :snt1 {_big_graph(150, seed).strip()})\n" for seed in (1, 2)]
    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    pred.write_text("\n".join(docs))
    gold.write_text("\n".join(reversed(docs)))
    proc = subprocess.Popen(
        [*AMREVAL, "docsmatch", "-f", str(pred), str(gold), "-r", "100000", "--solver", "hillclimb", "-j", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(5)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        # the pipes close only when the workers, which hold them too, are gone
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (130, b"", b"amreval: interrupted\n")
    assert time.monotonic() - start < 1.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_ends_the_workers_with_the_parent_not_after_it(tmp_path, warm):
    # forkserver (Python 3.14's default on Linux): the workers are no children of the run, so neither the
    # kernel's parent-death signal nor the pipes end them at once; the run kills them before it ends
    docs = [f"(d / document :snt1 {_big_graph(150, seed).strip()})\n" for seed in (1, 2)]
    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    pred.write_text("\n".join(docs))
    gold.write_text("\n".join(reversed(docs)))
    run = "import multiprocessing, sys; multiprocessing.set_start_method('forkserver'); " + AMREVAL[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", run, "docsmatch", "-f", str(pred), str(gold), "-r", "100000", "--solver", "hillclimb"]
        + ["-j", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while not workers and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = _workers_of(proc.pid)
        time.sleep(2)  # into the alignment (the pool starts its workers as the documents come)
        workers = _workers_of(proc.pid)
        assert workers and proc.poll() is None
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        time.sleep(0.1)  # the kill is sent before the run ends; the kernel takes a moment to carry it out
        assert [pid for pid in workers if not _gone(pid)] == []
        assert proc.returncode == 130
    finally:
        proc.kill()
        for pid in _workers_of(proc.pid) if proc.poll() is None else []:
            os.kill(pid, signal.SIGKILL)


def _workers_of(pid: int) -> list[int]:
    """The workers of the run at ``pid``: the children of its children (the fork server's children; the
    fork server and the resource tracker are the run's own)."""
    parent_of = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                parent_of[int(name)] = int(Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    children = {p for p, pp in parent_of.items() if pp == pid}
    return [p for p, pp in parent_of.items() if pp in children]

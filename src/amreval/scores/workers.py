"""Pairs scored in order or in worker processes that end with the process that started them.

:func:`map_pairs` is the loop over pairs of the corpus scores, :func:`start_workers`
the pool a streamed score keeps across its chunks, and :func:`score_named` one pair
scored as the loop scores it. The workers end when this process ends, however it
ends (Ctrl-C twice, SIGKILL, the OOM killer), so that none is left behind holding a
pair's memory; and a pair that fails for lack of memory is named in its error,
wherever it was scored: "out of memory" alone, for one pair in ten thousand, leaves
the user nothing to split.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from amreval._progress import progress_bar
from amreval.errors import OutOfMemory, TooLargeError, numbered

T = TypeVar("T")

__all__ = [
    "map_pairs",
    "pair_name",
    "score_named",
    "start_workers",
    "end_workers",
]


def _die_with_parent(parent: int) -> None:
    """Initializer of worker processes: a worker ends when the process that started it ends.

    On Linux, in a child of that process (the fork and spawn start methods), the
    kernel kills it (``PR_SET_PDEATHSIG``), however the parent ended (a
    signal, SIGKILL, the OOM killer); elsewhere, and in a child of a fork
    server (the forkserver start method, Python 3.14's default on Linux), a
    thread checks every half second that the process is still there.
    """
    try:
        signal.set_wakeup_fd(-1)  # a signal to this worker alone does not wake its parent's handler
    except ValueError:  # pragma: no cover - not the worker's main thread
        pass
    if sys.platform.startswith("linux") and os.getppid() == parent:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent ended before the call
                    os._exit(1)
                return
        except (OSError, AttributeError):  # pragma: no cover - Linux without a usable libc
            pass
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def end_workers() -> None:
    """Kill every worker process this process started, at once, without waiting for them: what a process
    that is about to end (Ctrl-C) does first, so that no worker outlives it by the moment the kernel's
    parent-death signal or the watching thread takes (a worker of a fork server is no child of this
    process, and its watch looks twice a second)."""
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is None:  # no worker was ever started
        return
    try:
        children = multiprocessing.active_children()
    except Exception:  # pragma: no cover - the pool was being changed by another thread as the process ends
        return
    for child in children:
        try:
            child.kill()
        except (OSError, ValueError):  # pragma: no cover - gone already, or closed
            pass


def _watch_parent(parent: int) -> None:
    """End this process as soon as ``parent`` is gone (the watch where the kernel cannot be asked to)."""
    while True:
        if not _alive(parent):
            os._exit(1)
        time.sleep(0.5)


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` is there (signal 0 checks without sending anything)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - there, but another user's (the id was reused)
        return True
    return True


def map_pairs(
    func: Callable[..., T],
    *columns: Sequence[Any],
    num_workers: int = 1,
    progress: bool | None = None,
    desc: str = "scoring",
    unit: str = "pair",
) -> list[T]:
    """``[func(*row) for row in zip(*columns)]``, in this process or in ``num_workers`` worker processes.

    With workers, ``func`` must be picklable (a module-level function or a
    ``functools.partial`` of one) and so must the columns' items; results come
    back in order, and the workers end when this process ends.

    Raises:
        TooLargeError: a pair's alignment problem is over the memory budget (the message names the pair first).
        OutOfMemory: scoring a pair ran out of memory (a ``MemoryError``; the message names the pair).
    """
    n = len(columns[0]) if columns else 0
    one = _OnePair(func)
    if num_workers > 1 and n > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        chunk = max(1, n // (num_workers * 8))
        with ProcessPoolExecutor(
            max_workers=min(num_workers, n),
            mp_context=multiprocessing.get_context(),
            initializer=_die_with_parent,
            initargs=(os.getpid(),),
        ) as pool:
            results = pool.map(one, range(n), *columns, chunksize=chunk)
            return list(progress_bar(results, enable=progress, desc=desc, unit=unit, total=n))
    rows = progress_bar(zip(range(n), *columns), enable=progress, desc=desc, unit=unit, total=n)
    return [one(*row) for row in rows]


def score_named(func: Callable[..., T], index: int, *row: Any) -> T:
    """``func(*row)`` for the pair at ``index``, its memory errors naming the pair as :func:`map_pairs`'s do."""
    return _OnePair(func)(index, *row)


def start_workers(num_workers: int) -> Any:
    """A pool of ``num_workers`` worker processes (a :class:`~concurrent.futures.ProcessPoolExecutor`) that
    end when this process ends, as :func:`map_pairs` starts them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=num_workers,
        mp_context=multiprocessing.get_context(),
        initializer=_die_with_parent,
        initargs=(os.getpid(),),
    )


class _OnePair:
    """``func`` on the pair at an index (picklable where ``func`` is, for the workers): a pair over the
    memory budget (:class:`~amreval.errors.TooLargeError`) or one whose scoring runs out of memory
    (``MemoryError``, from the kernels, NumPy or HiGHS) raises an error that names it."""

    def __init__(self, func: Callable[..., Any]) -> None:
        self.func = func

    def __call__(self, index: int, *row: Any) -> Any:
        try:
            return self.func(*row)
        except TooLargeError as exc:
            raise TooLargeError(exc.n_terms, exc.n_entries, f"{pair_name(index, row)}: {exc}") from None
        except OutOfMemory:
            raise
        except MemoryError as exc:
            detail = str(exc) or "no memory left"
        # out of the handler, the failed call's frames (and the arrays they held) are released
        from amreval.match.problem import MEMORY_BUDGET

        raise OutOfMemory(
            f"{pair_name(index, row)}: out of memory scoring the pair ({detail}); scoring a pair may take up "
            f"to the alignment's memory budget, {MEMORY_BUDGET / 1024**3:.1f} GiB, beyond what the process "
            "holds: allow the process more memory (or run fewer workers), or split the graph"
        )


def pair_name(index: int, row: Sequence[Any]) -> str:
    """The pair at the 0-based ``index`` as messages name it: ``pair #N`` counted from 1 (the first pair is
    ``pair #1``), and where its first two items are graphs read from somewhere, where they came from.

    Example:
        >>> from amreval.amr.read import as_graph
        >>> pair_name(3, (as_graph("(a / b)", "prediction", 3), as_graph("(c / d)", "reference", 3)))
        'pair #4 (prediction #4, graph #1, line 1 against reference #4, graph #1, line 1)'
        >>> pair_name(0, ("x", "y"))
        'pair #1'
    """
    name = numbered("pair", index)
    origins = [getattr(x, "origin", None) for x in row[:2]]
    if len(origins) == 2 and all(isinstance(o, str) for o in origins):
        return f"{name} ({origins[0]} against {origins[1]})"
    return name

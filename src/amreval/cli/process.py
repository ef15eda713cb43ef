"""What the ``amreval`` process does around a command: Ctrl-C that ends the run at once (status 130), a
closed output pipe that ends it quietly, warnings and log messages printed once to standard error."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from typing import Any

__all__ = ["EXIT_INTERRUPTED", "show_warning", "exit_on_interrupt", "quiet_broken_pipe", "log_to_stderr"]

#: Exit status after Ctrl-C (128 + SIGINT).
EXIT_INTERRUPTED = 130


def show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"amreval: warning: {message}", file=sys.stderr)


def exit_on_interrupt() -> None:
    """Ctrl-C ends the run within a moment, even inside compiled code, with one line and status 130.

    Python runs its signal handlers in the main thread between two bytecodes,
    which never come while a compiled kernel or the MILP solver runs. So the
    signal's byte goes to a wakeup socket (written by the C-level handler, in
    whichever thread the signal lands) and a thread of its own ends the
    process; it runs while the kernels run because they release the GIL.
    """
    if threading.current_thread() is not threading.main_thread():
        return  # pragma: no cover - signal handlers can only be set from the main thread
    import socket

    reader, writer = socket.socketpair()
    writer.setblocking(False)
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)

    def wait() -> None:
        while True:
            data = reader.recv(64)
            if not data or signal.SIGINT in data:
                break
        from amreval.scores.workers import end_workers

        end_workers()  # the workers end with this process, not a moment after it
        os.write(2, b"amreval: interrupted\n")
        os._exit(EXIT_INTERRUPTED)

    threading.Thread(target=wait, name="amreval-interrupt", daemon=True).start()
    _keep_alive.extend((reader, writer))


_keep_alive: list[Any] = []


def quiet_broken_pipe() -> int:
    """The reader of our output went away (``| head``): stop without a message."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing more reaches the closed pipe, not even at exit
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass
    return 0


class _NotPrintedElsewhere(logging.Filter):
    """Lets through what no handler of the record's own library prints (huggingface_hub, transformers and
    datasets print their messages themselves and pass them on too, which would print them twice); a
    ``NullHandler`` (urllib3's, requests') prints nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        log: logging.Logger | None = logging.getLogger(record.name)
        while log is not None and log is not logging.root:
            if any(not isinstance(h, logging.NullHandler) and record.levelno >= h.level for h in log.handlers):
                return False
            if not log.propagate:
                break
            log = log.parent
        return True


def log_to_stderr(verbose: bool) -> None:
    """Log messages to stderr as ``LEVEL: message`` (INFO and up with ``-v``, else WARNING and up), each once."""
    root = logging.getLogger()
    fresh = not root.handlers
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s: %(message)s")
    if fresh:
        for handler in root.handlers:
            handler.addFilter(_NotPrintedElsewhere())

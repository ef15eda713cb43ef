"""Progress bars: tqdm on a terminal, silent elsewhere or when asked."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any, TypeVar

T = TypeVar("T")


def progress_enabled(enable: bool | None) -> bool:
    """Decide whether to show progress.

    ``None`` means: only when standard error is a terminal and the environment
    variable ``AMREVAL_PROGRESS`` is not ``0``.
    """
    if enable is not None:
        return bool(enable)
    if os.environ.get("AMREVAL_PROGRESS", "") == "0":
        return False
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def progress_bar(iterable: Iterable[T], *, enable: bool | None = None, **kwargs) -> Iterable[T]:
    """Wrap ``iterable`` in a tqdm bar when progress is enabled."""
    if not progress_enabled(enable):
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, **kwargs)


class _Silent:
    """What :func:`progress_counter` gives when progress is off."""

    def update(self, n: float = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress_counter(total: float, *, enable: bool | None = None, **kwargs) -> Any:
    """A tqdm bar updated by hand (``update(n)``, ``close()``, a context manager); a silent one when off."""
    if not progress_enabled(enable):
        return _Silent()
    from tqdm.auto import tqdm

    return tqdm(total=total, **kwargs)

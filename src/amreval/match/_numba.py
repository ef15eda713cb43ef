"""Numba, set up for amreval's compiled kernels.

Numba caches compiled code beside the source or in the user's cache folder;
when neither can be written (a read-only install without a writable home) it
refuses to run. Then a folder under the user's cache or the temporary folder
is used. Importing this module imports Numba: the kernels import it, and they
are imported on the first alignment, not with the package.
"""

from __future__ import annotations

import os
import tempfile


def _cache_dir() -> str | None:
    """Where compiled kernels are cached when the installed package's folder is read-only (else None)."""
    if os.environ.get("NUMBA_CACHE_DIR") or os.access(os.path.dirname(os.path.abspath(__file__)), os.W_OK):
        return None
    for base in (os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), tempfile.gettempdir()):
        path = os.path.join(base, f"amreval-numba-{os.getuid() if hasattr(os, 'getuid') else 'user'}")
        try:
            os.makedirs(path, exist_ok=True)
        except OSError:
            continue
        if os.access(path, os.W_OK):
            return path
    return None


_CACHE = _cache_dir()
if _CACHE:
    os.environ["NUMBA_CACHE_DIR"] = _CACHE

from numba import njit  # noqa: E402

__all__ = ["njit"]

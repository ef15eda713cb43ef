"""The files a comparison page serves: one temporary folder per page (:class:`AppFolder`), and how long gradio
keeps its own copies (:data:`DELETE_CACHE`). A long-running Space so holds a bounded number of files, whatever
its number of visitors.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

__all__ = ["AppFolder", "DELETE_CACHE"]


def _session_key(session: str | None) -> str:
    """A gradio session hash as a folder name (None: a session without one)."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", session or "local")[:64]


class AppFolder:
    """The one temporary folder of a comparison page, for the files gradio serves from it: each session's
    downloads and the examples' copies. gradio copies every file a handler returns into its own cache as it
    sends the result (``gr.File`` outputs), so a folder here only has to outlive that copy: made when first
    needed (``amreval-compare-*`` in the system's temporary folder, where gradio may read), each comparison's
    downloads replace the previous ones of the same session, a session's are removed when it ends (the
    page's ``unload``) and the oldest sessions' beyond ``sessions``, the examples are copied once, and the
    whole folder is removed by :meth:`close`, when this object is collected, or when the process ends. A
    long-running Space so holds at most ``sessions`` comparisons' downloads here, whatever its number of
    visitors (gradio's own copies are removed by the page's ``delete_cache``, :data:`DELETE_CACHE`).

    Example:
        >>> folder = AppFolder(sessions=2)
        >>> first = folder.downloads("a"); (first / "x.csv").write_text("1"); folder.downloads("a") == first
        1
        True
        >>> sorted(p.name for p in first.iterdir()), [folder.downloads(s).name for s in ("b", "c")]
        ([], ['session-b', 'session-c'])
        >>> sorted(p.name for p in (folder.root / "downloads").iterdir())  # two sessions kept: a's removed
        ['session-b', 'session-c']
        >>> root = folder.root; folder.close(); root.exists()
        False
    """

    def __init__(self, sessions: int = 32) -> None:
        self.sessions = sessions
        self._root: Path | None = None
        self._written: OrderedDict[str, Path] = OrderedDict()  # session -> its downloads, oldest first
        self._lock = threading.Lock()
        self._remove: weakref.finalize | None = None

    @property
    def root(self) -> Path:
        """The folder, made on first use."""
        with self._lock:
            if self._root is None:
                self._root = Path(tempfile.mkdtemp(prefix="amreval-compare-"))
                self._remove = weakref.finalize(self, shutil.rmtree, str(self._root), ignore_errors=True)
            return self._root

    def downloads(self, session: str | None) -> Path:
        """An empty folder for a comparison's downloads in ``session`` (a gradio session hash; None: one
        without), replacing that session's previous ones; the oldest sessions' beyond ``sessions`` are removed."""
        key = _session_key(session)
        folder = self.root / "downloads" / f"session-{key}"
        with self._lock:
            self._written.pop(key, None)
            self._written[key] = folder
            old = [self._written.popitem(last=False)[1] for _ in range(len(self._written) - self.sessions)]
        for path in old:
            shutil.rmtree(path, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder

    def end_session(self, session: str | None) -> None:
        """Remove a session's downloads (it has ended: gradio has its copies, or the user left)."""
        with self._lock:
            folder = self._written.pop(_session_key(session), None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def example(self, examples: Path, which: str, names: Sequence[str]) -> list[Path]:
        """The copies of the example ``which``'s files ``names`` (in the folder ``examples``), made once."""
        folder = self.root / "examples" / which
        copies = [folder / name for name in names]
        with self._lock:
            if not all(c.is_file() for c in copies):
                folder.mkdir(parents=True, exist_ok=True)
                for name, copy in zip(names, copies):
                    copy.write_bytes((examples / name).read_bytes())
        return copies

    def close(self) -> None:
        """Remove the folder now (a later use makes a new one)."""
        with self._lock:
            remove, self._remove, self._root = self._remove, None, None
            self._written.clear()
        if remove is not None:
            remove()


#: gradio's ``delete_cache`` of the page: every hour, the files gradio keeps for it (the uploads, its copies
#: of the downloads) that are over a day old are removed, and all of them when the server stops.
DELETE_CACHE = (3600, 86400)

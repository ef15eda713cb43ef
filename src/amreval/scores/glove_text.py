"""Reading GloVe text: the checks and messages of the readers, and the scan of a file for some words.

:func:`~amreval.scores.vectors.read_vectors` reads a GloVe text file whole (through
:func:`~amreval.scores.vectors.loads_vectors`) or, given the words S²match will look up, with
:func:`scan_words`: the file is streamed a block of lines at a time, and NumPy finds the few lines
that must be read as the whole-file reader reads them (those of the wanted words, and any line that
is not plainly ``word v1 ... vDIM``); the others are checked and skipped without parsing a number.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from amreval.errors import DecodeError, InputError

__all__ = [
    "scan_words",
    "index_file",
    "header_dim",
    "not_utf8",
    "not_number",
    "other_count",
    "INDEX_ENV",
    "LINES",
    "NOT_FINITE",
    "NUL",
]

LINES = "expected lines 'word v1 v2 ...' (GloVe text)"
NUL = "a binary file, not GloVe text (a NUL byte)"
NOT_FINITE = "a value that is not a finite float32 number (nan, inf, or beyond ±3.4e38); expected GloVe vectors"


def not_utf8(raw: bytes, exc: UnicodeDecodeError, label: str, n: int) -> DecodeError:
    """Line ``n`` of ``label`` is not UTF-8 (``exc``: the error decoding ``raw``)."""
    return DecodeError(
        f"not UTF-8 text (byte {raw[exc.start : exc.start + 1]!r}); expected a GloVe text file", source=label, line=n
    )


def not_number(value: str, label: str, n: int) -> DecodeError:
    """``value`` on line ``n`` of ``label`` is not a number."""
    return DecodeError(f"{value[:40]!r} is not a number; {LINES}", source=label, line=n)


def other_count(count: int, first: str, label: str, n: int) -> DecodeError:
    """Line ``n`` has ``count`` values; ``first``: the number that the first line (or the header) set, and where."""
    return DecodeError(f"lines have different numbers of values: {count} here, {first}; {LINES}", source=label, line=n)


def header_dim(word: str, values: Sequence[str]) -> int | None:
    """The DIM of a line ``N DIM`` that may be a word2vec header (DIM ≥ 2; it is one when the next line has DIM
    values)."""
    if word.isascii() and word.isdigit() and len(values) == 1 and values[0].isascii() and values[0].isdigit():
        dim = int(values[0])
        return dim if dim >= 2 else None
    return None


#: Bytes read at a time by :func:`scan_words`.
_BLOCK = 1 << 18
#: The first bytes of a line searched for the end of its word.
_SPAN = np.arange(16)


def _keys(words: Iterable[bytes]) -> np.ndarray:
    """Each word's key: its first 8 bytes (0 after its end) as a number, its length mixed in (sorted; one more, 0)."""
    chosen = list(words)
    head = np.zeros((len(chosen) + 1, 8), dtype=np.uint8)  # one row more: never an empty array
    size = np.zeros(len(chosen) + 1, dtype=np.uint64)
    for k, word in enumerate(chosen):
        head[k, : min(8, len(word))] = np.frombuffer(word[:8], dtype=np.uint8)
        size[k] = len(word)
    return np.sort(head.view(np.uint64).ravel() ^ size)


class _Scan:
    """The scan of :func:`scan_words`.

    The lines are scanned a block at a time with NumPy: a line whose word is not wanted and that has the
    number of values of the first line, one space between values, and only characters of numbers after its
    word (a word in UTF-8 without NUL) is skipped unparsed; every other line is read as
    :func:`~amreval.scores.vectors.loads_vectors` reads it (decoded, split, its numbers parsed and checked),
    and kept when its word is wanted.
    """

    def __init__(self, label: str, words: Iterable[str]) -> None:
        self.label = label
        self.wanted = set(words)
        self.ascii = {w.encode("ascii") for w in self.wanted if w.isascii()}
        self.keys = _keys(self.ascii)
        # with an index to write: the first lines (read one at a time) and each later line's key, offset, number
        self.first_lines: list[tuple[int, int]] | None = None
        self.lines: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.flags = np.empty((4, 0), dtype=bool)
        self.scratch = np.empty(0, dtype=np.uint8)
        self.found: dict[str, np.ndarray] = {}
        self.dim: int | None = None
        self.first = ""  # the number of values of the first line (or the header) and where, for messages
        self.header: tuple[int, str, list[str]] | None = None  # line 1 when it may be a header: DIM, word, values

    def read(self, fh: BinaryIO) -> tuple[list[str], np.ndarray]:
        """The wanted words found in ``fh`` (opened in binary mode) and their vectors (rows of a float32 matrix)."""
        n = 0  # lines read
        offset = 0  # where the block starts in the file
        while True:
            block = fh.read(_BLOCK)
            if not block:
                break
            if not block.endswith(b"\n"):  # whole lines: up to the end of the last one
                block += fh.readline()
            following = offset + len(block)
            if offset == 0 and block.startswith(b"\xef\xbb\xbf"):
                block, offset = block[3:], 3
            if not block.endswith(b"\n"):  # the end of the file, without a newline
                block += b"\n"
            n = self._block(block, n, offset)
            offset = following
        return self._result()

    def reread(self, fh: BinaryIO, index: Mapping[str, np.ndarray]) -> tuple[list[str], np.ndarray]:
        """As :meth:`read`, with the index that a scan of the same file wrote: its first lines, and the lines
        whose key is a wanted word's, are read (as the scan reads them); no other line is looked at."""
        for offset, n in index["first"].tolist():
            fh.seek(offset)
            self._line(fh.readline(), n)
        keys = _keys(w.encode("utf-8", "surrogatepass") for w in self.wanted)
        at = np.minimum(np.searchsorted(keys, index["keys"]), keys.size - 1)
        hit = keys[at] == index["keys"]
        for offset, n in zip(index["offsets"][hit].tolist(), index["numbers"][hit].tolist()):
            fh.seek(offset)
            self._line(fh.readline(), n)
        return self._result()

    def _result(self) -> tuple[list[str], np.ndarray]:
        if self.header is not None:  # a file of one line 'N DIM': a word and one value
            self._first_row(1, *self.header[1:])
        if self.dim is None:
            raise InputError(f"{self.label}: no word vectors found; expected lines 'word v1 v2 ...'")
        matrix = np.array(list(self.found.values()), dtype=np.float32).reshape(len(self.found), self.dim)
        return list(self.found), matrix

    def _block(self, block: bytes, n: int, offset: int) -> int:
        """Read the lines of ``block`` (whole lines, after ``n`` lines, from byte ``offset`` of the file); the
        number of lines read so far."""
        if self.dim is None:  # one line at a time until the number of values is known
            pos = 0
            while self.dim is None and pos < len(block):
                end = block.index(b"\n", pos) + 1
                n += 1
                if self.first_lines is not None:
                    self.first_lines.append((offset + pos, n))
                self._line(block[pos:end], n)
                pos = end
            block, offset = block[pos:], offset + pos
            if not block:
                return n
        arr = np.frombuffer(block, dtype=np.uint8)
        size = arr.size
        if self.flags.shape[1] < size:  # the flags of the bytes, kept from block to block
            self.flags = np.empty((4, size + _BLOCK), dtype=bool)
            self.scratch = np.empty(size + _BLOCK, dtype=np.uint8)
        newline, space, ok, other_flag = (row[:size] for row in self.flags)
        scratch = self.scratch[:size]
        ends = np.flatnonzero(np.equal(arr, 10, out=newline))
        starts = np.concatenate(([0], ends[:-1] + 1))
        lines = np.arange(ends.size)
        # each line's word ends at its first space: among its first bytes, else found by bytes.find
        head = arr[np.minimum(starts[:, None] + _SPAN, size - 1)]
        first = np.argmax(head == 32, axis=1)
        word_end = starts + first
        lost = np.flatnonzero((head[lines, first] != 32) | (word_end > ends))
        if lost.size:
            found = [block.find(b" ", s, e) for s, e in zip(starts[lost].tolist(), ends[lost].tolist())]
            word_end[lost] = [e if f < 0 else f for f, e in zip(found, ends[lost].tolist())]
        length = word_end - starts
        # the words that may be wanted: the same first 8 bytes and length as one
        head = np.ascontiguousarray(head[:, :8])
        head[np.arange(8) >= length[:, None]] = 0
        keys = head.view(np.uint64).ravel() ^ length.astype(np.uint64)
        at = np.minimum(np.searchsorted(self.keys, keys), self.keys.size - 1)
        maybe = self.keys[at] == keys
        if self.first_lines is not None:
            self.lines.append((keys, starts + offset, np.arange(n + 1, n + 1 + ends.size)))
        # the spaces of each line (at most 65535: longer lines are read in full)
        np.equal(arr, 32, out=space)
        count = np.add.reduceat(space.view(np.uint8), starts, dtype=np.uint16)
        # the characters of numbers: + , - . / 0-9 but for , and /; e E; space, newline, carriage return
        np.less_equal(np.subtract(arr, 43, out=scratch), 14, out=ok)
        ok &= np.not_equal(arr, 44, out=other_flag)
        ok &= np.not_equal(arr, 47, out=other_flag)
        ok |= np.equal(np.bitwise_or(arr, 32, out=scratch), 101, out=other_flag)
        ok |= space
        ok |= newline
        carriage = b"\r" in block
        if carriage:
            ok |= np.equal(arr, 13, out=other_flag)
        bounds = np.empty(2 * ends.size, dtype=np.intp)
        bounds[0::2], bounds[1::2] = starts, word_end
        numbers = np.logical_and.reduceat(ok, bounds)[1::2]
        # a word with a byte that is not ASCII, or NUL
        other = (np.maximum.reduceat(arr, bounds)[0::2] >= 128) | (np.minimum.reduceat(arr, bounds)[0::2] == 0)
        # the lines read in full: another number of values, an empty value (a space after a space or at the
        # end of the line), a character that cannot be in a number after the word, a carriage return within
        # the line, a line too long to count its spaces
        slow = (count != self.dim) | ~numbers | (ends - starts > 65535)
        odd = np.logical_and(space[:-1], np.logical_or(space[1:], newline[1:], out=other_flag[:-1]), out=ok[:-1])
        if carriage:
            carriage_at = np.equal(arr, 13, out=other_flag)
            odd |= (space[:-1] & carriage_at[1:]) | (carriage_at[:-1] & ~newline[1:])
        if odd.any():
            slow[np.searchsorted(ends, np.flatnonzero(odd))] = True
        wanted = self.ascii
        for k in np.flatnonzero(slow | maybe | other).tolist():
            start, stop = int(starts[k]), int(word_end[k])
            if not slow[k]:
                word = block[start:stop]
                if not other[k]:
                    if word not in wanted:
                        continue
                else:
                    try:
                        text = word.decode("utf-8")
                    except UnicodeDecodeError:
                        text = "\0"
                    if "\0" not in text and text not in self.wanted:
                        continue
            self._line(block[start : int(ends[k]) + 1], n + k + 1)
        return n + ends.size

    def _line(self, raw: bytes, n: int) -> None:
        """Read one line as :func:`~amreval.scores.vectors.loads_vectors` does: check it, and keep its vector
        when its word is wanted."""
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise not_utf8(raw, exc, self.label, n) from None
        if "\0" in line:
            raise DecodeError(NUL, source=self.label, line=n)
        word, _, rest = line.rstrip("\r\n").partition(" ")
        if not rest:
            return
        values = rest.split()
        if self.dim is None:
            if self.header is None:
                dim = header_dim(word, values) if n == 1 else None
                if dim is not None:
                    self.header = (dim, word, values)
                else:
                    self._first_row(n, word, values)
                return
            dim, header_word, header_values = self.header
            if len(values) == dim:
                self.dim, self.first, self.header = dim, f"{dim} in the header on line 1", None
            else:  # line 1 was a word and its one value
                self._first_row(1, header_word, header_values)
        self._row(n, word, values)

    def _first_row(self, n: int, word: str, values: list[str]) -> None:
        self.dim, self.first, self.header = len(values), f"{len(values)} on line {n}", None
        self._row(n, word, values)

    def _row(self, n: int, word: str, values: list[str]) -> None:
        """Parse and check one line's values (the errors in the order of
        :func:`~amreval.scores.vectors.loads_vectors`)."""
        try:
            with np.errstate(over="ignore"):
                vector = np.array(values, dtype=np.float32)
        except ValueError:
            for value in values:
                try:
                    float(value)
                except ValueError:
                    raise not_number(value, self.label, n) from None
            raise  # pragma: no cover - numpy refused what float() accepts
        if len(values) != self.dim:
            raise other_count(len(values), self.first, self.label, n)
        if not np.isfinite(vector).all():
            raise DecodeError(NOT_FINITE, source=self.label, line=n)
        if word in self.wanted:
            self.found[word] = vector


def scan_words(
    fh: BinaryIO, label: str, words: Iterable[str], index: str | os.PathLike[str] | None = None
) -> tuple[list[str], np.ndarray]:
    """The vectors of ``words`` in the GloVe text of ``fh`` (a binary file), as the whole-file reader gives them.

    Args:
        fh, label: the open file and its name in messages.
        words: the words wanted.
        index: a file that keeps an index of ``fh``'s lines (each line's offset and the key of its word),
            written by a first scan of the whole file; while the file keeps its size, time stamp and inode,
            a later call reads from it only the lines of the words wanted (``fh`` must be seekable).

    Returns:
        The words found (each once: the last line of a word counts) and their vectors, the rows of a float32
        matrix (one column per value, ``(0, DIM)`` when none is found).

    Raises:
        InputError: no vectors in the text.
        DecodeError: the first line that the whole-file reader refuses too, named by ``label`` and its
            number (see :func:`~amreval.scores.vectors.read_vectors` for the one kind it may miss).
    """
    scan = _Scan(label, words)
    if index is None:
        return scan.read(fh)
    info = os.fstat(fh.fileno())
    stamp = np.array([_INDEX_VERSION, info.st_size, info.st_mtime_ns, info.st_ino], dtype=np.int64)
    kept = _load_index(index, stamp)
    if kept is not None:
        return scan.reread(fh, kept)
    scan.first_lines = []
    found = scan.read(fh)  # the whole file checked: an index of it is worth keeping
    parts = list(zip(*scan.lines)) or [[np.zeros(0, np.uint64)], [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]]
    arrays = {
        "stamp": stamp,
        "first": np.array(scan.first_lines, dtype=np.int64).reshape(-1, 2),
        "keys": np.concatenate(parts[0]),
        "offsets": np.concatenate(parts[1]).astype(np.int64),
        "numbers": np.concatenate(parts[2]).astype(np.int64),
    }
    _save_index(index, arrays)
    return found


#: The index format (a new one when the keys or the scan change).
_INDEX_VERSION = 1
#: The folder of the indexes that :func:`index_file` names: the environment variable that sets it.
INDEX_ENV = "AMREVAL_VECTORS_INDEX"


def index_file(path: str | os.PathLike[str]) -> Path | None:
    """Where the index of the text file ``path`` is kept: in the folder ``$AMREVAL_VECTORS_INDEX`` (a file
    named by a hash of the absolute path), or None when that variable is not set (no index: every read scans)."""
    import hashlib  # here, as the other modules an index needs: reading without one does not

    folder = os.environ.get(INDEX_ENV, "").strip()
    if not folder:
        return None
    name = hashlib.sha256(os.path.abspath(os.fspath(path)).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return Path(folder).expanduser() / f"{name}.npz"


def _load_index(index: str | os.PathLike[str], stamp: np.ndarray) -> dict[str, np.ndarray] | None:
    """The arrays of an index written for a file with this stamp; None when there is none (or it is damaged)."""
    import zipfile

    try:
        with np.load(index, allow_pickle=False) as kept:
            arrays = {key: kept[key] for key in ("stamp", "first", "keys", "offsets", "numbers")}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    return arrays if np.array_equal(arrays["stamp"], stamp) else None


def _save_index(index: str | os.PathLike[str], arrays: dict[str, Any]) -> None:
    """Write an index (whole, or not at all: a folder that cannot be written leaves none)."""
    import tempfile

    path = Path(index)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez(out, **arrays)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass

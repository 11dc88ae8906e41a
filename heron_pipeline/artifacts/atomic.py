"""The one atomic write: a temporary file in the target's folder, flushed to disk, renamed into place.

Every file heron writes under the artifact root (and its few caches elsewhere) goes through here, so
a reader sees the old file or the whole new one, never half of one; a killed or failed write leaves
no temporary file behind; and a full disk is one line naming the file and the bytes it needed,
never a traceback. Content-addressed artifacts (named by the sha256 of their bytes) are written
once: an existing one is never rewritten.

Only this module renames files into place, so a later storage other than a local folder (object
storage has no rename) changes one module, not every writer.
"""

from __future__ import annotations

import errno
import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any, BinaryIO, Callable, Union

#: What a write is given: the bytes themselves, or a function that streams them into a binary file.
Payload = Union[bytes, Callable[[BinaryIO], Any]]

#: Mode of every file written (``mkstemp`` creates 0600; artifacts are meant to be read by others).
FILE_MODE = 0o644


class ArtifactWriteError(OSError):
    """A file could not be written (disk full, no permission, …); the message is one line naming
    the file and, for a full disk, the bytes it needed. An ``OSError``, so callers that tolerate
    an unwritable cache keep doing so."""

    def __init__(self, path: Path, err: OSError, needed: int | None = None, written: int | None = None):
        self.path = Path(path)
        self.needed = needed
        reason = os.strerror(err.errno).lower() if err.errno else (str(err) or type(err).__name__)
        if err.errno == errno.ENOSPC:
            size = (f"needed {needed:,} bytes" if needed is not None
                    else f"full after {written:,} bytes" if written is not None else "needed more space")
            message = f"cannot write {self.path}: no space left on device ({size}); free space there and rerun"
        else:
            message = f"cannot write {self.path}: {reason}"
        super().__init__(err.errno, message)

    def __str__(self) -> str:
        return str(self.strerror)

    def __reduce__(self) -> tuple:
        # OSError's own reduce would call __init__ with (errno, message): keep the parts instead
        return _restore_write_error, (self.errno, self.strerror, str(self.path), self.needed)


def _restore_write_error(code: int | None, message: str, path: str, needed: int | None) -> ArtifactWriteError:
    err = ArtifactWriteError.__new__(ArtifactWriteError)
    OSError.__init__(err, code, message)
    err.path, err.needed = Path(path), needed
    return err


def _write_all(fd: int, payload: bytes) -> None:
    """Every byte of ``payload`` to ``fd`` (``os.write`` may write fewer than asked)."""
    view = memoryview(payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def write_atomic(path: Path, payload: Payload) -> Path:
    """Replace ``path`` by ``payload`` atomically (its folder created if needed); the path.

    Raises ArtifactWriteError (no temporary file left) when anything fails on the way."""
    path = Path(path)
    needed = len(payload) if isinstance(payload, (bytes, bytearray)) else None
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        if needed is not None:
            try:
                _write_all(fd, bytes(payload))  # type: ignore[arg-type]
                os.fsync(fd)
            finally:
                os.close(fd)
        else:
            with os.fdopen(fd, "wb") as handle:
                payload(handle)  # type: ignore[operator]
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
        tmp = None
    except OSError as err:
        if isinstance(err, ArtifactWriteError):
            raise
        written = None
        if tmp is not None and needed is None:
            try:
                written = os.path.getsize(tmp)
            except OSError:
                pass
        raise ArtifactWriteError(path, err, needed, written) from err
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
    return path


def write_text_atomic(path: Path, text: str) -> Path:
    """``text`` as UTF-8 at ``path``, atomically."""
    return write_atomic(path, text.encode("utf-8"))


def write_content_addressed(directory: Path, payload: bytes, suffix: str = ".jsonl") -> tuple[Path, str]:
    """``payload`` as ``directory/<sha256><suffix>`` unless that file exists; (path, digest).

    The name is the content hash, so a good file is never rewritten: the same bytes land on the same
    file, other bytes on a new one beside it. A file of that name whose bytes do not hash to it
    (corrupted on disk, or pulled damaged) is replaced by the right bytes: the step that makes an
    artifact is also the one that repairs it."""
    digest = hashlib.sha256(payload).hexdigest()
    path = Path(directory) / f"{digest}{suffix}"
    if not _holds(path, digest):
        write_atomic(path, payload)
    return path, digest


def _holds(path: Path, digest: str) -> bool:
    """Whether ``path`` exists and its bytes hash to ``digest``."""
    try:
        with path.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest() == digest
    except OSError:
        return False

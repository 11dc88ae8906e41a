"""Reading a submission's files without trusting them: regular files only, bounded in size and nesting.

A submission folder comes from a stranger's pull request, so its files may be anything git or a
local copy can hold: a symbolic link to ``/dev/zero`` or to a file outside the folder, a FIFO that
never ends, a 50 MB line, JSON nested 100,000 deep. Every byte heron reads from a submission comes
through ``read_submission_file``: the file is opened relative to the folder with ``O_NOFOLLOW`` (a
symbolic link is refused, never followed) and ``O_NONBLOCK`` (opening a FIFO cannot wait for a
writer), ``fstat`` must show a regular file within its size limit, and no more than the limit is
ever read. A refusal is a ``FileRefused`` with one line saying what the file is and what to commit
instead; the schema turns it into a ``malformed`` problem of that file.

The limits are part of the submission format (docs/METHODOLOGY.md, section 13): a real submission
is far below each (the committed ones: meta.json 1.5 KB, predictions.jsonl 80 KB for 100 records).
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

KIB, MIB = 1024, 1024 * 1024

#: Bytes each file may hold; predictions.jsonl also has a per-line and a line-count bound.
FILE_LIMITS = {"meta.json": 64 * KIB, "predictions.jsonl": 32 * MIB, "claims.json": 64 * KIB}
MAX_LINE_BYTES = 1 * MIB
MAX_PREDICTION_LINES = 50_000
#: How deep arrays and objects may nest in any JSON value of a submission (meta.json needs 4).
MAX_JSON_DEPTH = 32

#: The one pattern for every submitted name that becomes part of a path (the tool, the scale and
#: the question mode name folders under the artifacts): one path component, never ``.`` or ``..``.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
NAME_RULE = ("must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit "
             "(it names a folder of heron's artifacts)")


class FileRefused(ValueError):
    """A submission file heron will not read (link, device, FIFO, too large, too deep); one line."""


def read_submission_file(folder: Path, name: str, limit: int | None = None) -> bytes:
    """The bytes of ``folder/name`` if it is a regular file of at most ``limit`` bytes (default: its
    ``FILE_LIMITS`` entry). FileNotFoundError when absent; FileRefused for anything else."""
    limit = FILE_LIMITS[name] if limit is None else limit
    try:
        folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as err:
        link = os.path.islink(folder)  # O_DIRECTORY reports a link as "not a directory"
        raise FileRefused(_open_refusal(errno.ELOOP if link else err.errno, err, "the submission folder")) from None
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder_fd)
    except FileNotFoundError:
        raise
    except OSError as err:
        raise FileRefused(_open_refusal(err.errno, err, "the file")) from None
    finally:
        os.close(folder_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("is not a regular file (a device, FIFO, socket or folder); commit the file itself")
        if info.st_size > limit:
            raise FileRefused(f"is {info.st_size:,} bytes; a submission's {name} may hold at most {limit:,}")
        chunks, left = [], limit + 1  # one byte more than allowed tells a file that grew while read
        while left > 0:
            chunk = os.read(fd, min(left, MIB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileRefused(f"is over {limit:,} bytes; a submission's {name} may hold at most {limit:,}")
    return data


def _open_refusal(code: int | None, err: OSError, what: str) -> str:
    if code == errno.ELOOP:
        return f"{what} is a symbolic link; commit the file itself, not a link"
    if code == errno.ENOTDIR:
        return f"{what} is not a folder"
    return f"{what} cannot be opened ({err.strerror or err})"


def json_depth(doc: Any) -> int:
    """How deep arrays and objects nest in ``doc`` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def bounded_json(text: str) -> Any:
    """``json.loads(text)`` that refuses nesting deeper than ``MAX_JSON_DEPTH`` and integers too long
    to convert (FileRefused); json.JSONDecodeError as usual for text that is not JSON."""
    try:
        doc = json.loads(text)
    except RecursionError:
        raise FileRefused(f"nests arrays or objects deeper than {MAX_JSON_DEPTH} levels") from None
    except json.JSONDecodeError:
        raise
    except ValueError as err:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise FileRefused(f"holds a number heron does not read ({' '.join(str(err).split())[:120]})") from None
    if json_depth(doc) > MAX_JSON_DEPTH:
        raise FileRefused(f"nests arrays or objects deeper than {MAX_JSON_DEPTH} levels")
    return doc


def valid_name(name: Any) -> bool:
    """Whether ``name`` may become one component of a path under heron's artifacts."""
    return isinstance(name, str) and NAME_PATTERN.fullmatch(name) is not None


def stays_inside(root: Path, name: str) -> bool:
    """Whether ``root/name`` resolves to a path strictly inside ``root`` (the second guard behind
    ``NAME_PATTERN``: a name that passed the pattern can still not climb out)."""
    base = Path(root).resolve()
    target = (base / name).resolve()
    return target != base and base in target.parents

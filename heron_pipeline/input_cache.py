"""Results of pure functions of heron's own inputs, kept on disk under ``.heron/cache``.

Parsing the 211-table DDL with sqlglot costs ~2 s, the build inputs and the trap-mutant table
seconds more, and every ``heron`` process (predict, audit, score, each Dagster step) used to pay
them again. Each of those results is a pure function of some input files (DDL, profiles, the
questions' gold SQL), of the code that reads them and of library versions. So it is stored under
a key that digests exactly those: a changed input gives a new name, never a stale value; nothing
is invalidated, and deleting the folder costs one parse per entry.

This is not an artifact store: nothing here is published, content-addressed or read across
machines, and a cache that cannot be written (a read-only checkout) only makes a process slower.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from heron_pipeline.artifacts.atomic import write_atomic
from heron_pipeline.config import PROJECT_ROOT

#: Where the entries are kept; a cache only.
CACHE_DIR = PROJECT_ROOT / ".heron" / "cache"

#: The package folder; code entries of a key are named relative to it (``"catalog"``,
#: ``"seeding/prepared.py"``).
PACKAGE = Path(__file__).resolve().parent

T = TypeVar("T")


def code_digest(entries: Iterable[str], digest: "hashlib._Hash | None" = None) -> "hashlib._Hash":
    """``digest`` (a new sha256 when None) updated with the name and bytes of every ``.py`` file of
    ``entries`` (folders recursively, in sorted order): the code a cached value depends on."""
    digest = digest if digest is not None else hashlib.sha256()
    for entry in entries:
        path = PACKAGE / entry
        for file in (sorted(path.rglob("*.py")) if path.is_dir() else [path]):
            digest.update(str(file.relative_to(PACKAGE)).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest


def python_and_sqlglot() -> str:
    """The interpreter and parser versions, part of every key whose value sqlglot made (a new
    sqlglot may parse the same text into a different tree; a new Python may pickle differently)."""
    import sqlglot

    return f"python={sys.version_info[:3]} sqlglot={sqlglot.__version__}"


def pickled(name: str, key: str, make: Callable[[], T], kind: type,
            cache_dir: Path | None = None) -> T:
    """The value cached as ``<name>-<key[:32]>.pickle``, or ``make()`` stored there when no file
    reads back as a ``kind`` (missing, truncated, from a renamed class). Write-then-rename, so a
    concurrent reader never sees half a file."""
    path = (cache_dir if cache_dir is not None else CACHE_DIR) / f"{name}-{key[:32]}.pickle"
    try:
        with path.open("rb") as handle:
            value = pickle.load(handle)
        if isinstance(value, kind):
            return value
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError):
        pass
    value = make()
    try:
        write_atomic(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass  # a read-only checkout still works, it just makes the value every time
    return value

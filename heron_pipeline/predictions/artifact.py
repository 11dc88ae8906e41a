"""Immutable JSON-lines artifacts named by the sha256 of their bytes.

Every stage after the gold results (predictions, scores) writes one file per partition whose name
is its own content hash: re-running a stage that produces the same records is a no-op, a changed
result is a new file beside the old one, and the digest in Dagster metadata ties every number on
the leaderboard to the exact bytes it came from. JSON lines because DuckDB reads them directly and
no Parquet engine is installed.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Iterator


def canonical_jsonl(records: Iterable[dict[str, Any]]) -> bytes:
    """One JSON object per line, keys sorted, no whitespace: same records → same bytes."""
    lines = [json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True) for r in records]
    return ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")


def write_artifact(directory: Path, payload: bytes, suffix: str = ".jsonl") -> tuple[Path, str]:
    """Write ``payload`` as ``directory/<sha256><suffix>`` unless it already exists; (path, digest).

    The write goes to a temporary file that is renamed into place, so a reader never sees a
    half-written artifact and an existing one is never rewritten.
    """
    digest = hashlib.sha256(payload).hexdigest()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{digest}{suffix}"
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return path, digest


def write_jsonl_artifact(directory: Path, records: Iterable[dict[str, Any]]) -> tuple[Path, str]:
    """Canonical JSON lines of ``records`` stored by content hash under ``directory``."""
    return write_artifact(directory, canonical_jsonl(records))


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON-lines artifact, in file order."""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)

"""A disk cache of model calls keyed by sha256 of (model, messages, parameters incl. sample index).

Re-making predictions must never re-bill a question that was already answered, and must give the
same records: the key is the exact request, so a changed prompt, model or temperature is a new
request, and the sample index is a parameter so that n samples are n distinct entries. Failures
at the provider are entries too (``outcome`` names their class): a rerun then makes zero requests
and writes the same artifact, and only ``retry_failed`` asks them again. One JSON file per key,
written atomically (a killed run leaves whole entries or none); a corrupt entry is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def request_key(model: str, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of the request."""
    doc = {"model": model, "messages": messages, "params": params}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class ResponseCache:
    """Entries under ``directory/<key[:2]>/<key>.json``."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, sort_keys=True)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def __len__(self) -> int:
        return sum(1 for _ in self.directory.glob("*/*.json")) if self.directory.is_dir() else 0

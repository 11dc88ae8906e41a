"""A disk cache of model responses keyed by sha256 of (model, messages, parameters).

Re-materializing predictions must never re-bill a question that was already answered: the key is
the exact request, so a changed prompt, model or temperature is a new request, and the sample index
is a parameter so that n samples at temperature > 0 are n distinct entries. One JSON file per key,
written atomically; a corrupt entry is treated as a miss.
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
    """Responses under ``directory/<key[:2]>/<key>.json``."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(entry, handle, sort_keys=True)
        os.replace(tmp, path)

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
from pathlib import Path
from typing import Any

from heron_pipeline.artifacts.atomic import write_text_atomic
from heron_pipeline.artifacts.layout import llm_cache_entry


def request_key(model: str, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of the request."""
    doc = {"model": model, "messages": messages, "params": params}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class ResponseCache:
    """Entries under ``directory/<key[:2]>/<key>.json``."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def _path(self, key: str) -> Path:
        return llm_cache_entry(self.directory, key)

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        write_text_atomic(self._path(key), json.dumps(entry, sort_keys=True))

    def __len__(self) -> int:
        return sum(1 for _ in self.directory.glob("*/*.json")) if self.directory.is_dir() else 0

"""Artifacts by identity: a path and the sha256 of its bytes, checked on every read.

Every step of the bench core returns the identity of what it wrote, and the next step reads exactly
that file — never "the newest file of a folder". A reference whose bytes no longer hash to its
digest is refused, so a step can never silently read something other than what its upstream wrote.
The canonical encodings live here too: the same document always gives the same bytes, hence the
same identity.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from heron_pipeline.artifacts.atomic import write_content_addressed


class ArtifactMismatch(ValueError):
    """A referenced artifact is missing or its bytes do not hash to the recorded digest."""


@dataclass(frozen=True)
class ArtifactRef:
    """Where an artifact is and what its bytes hash to."""

    path: Path
    digest: str

    def read_bytes(self) -> bytes:
        try:
            payload = Path(self.path).read_bytes()
        except FileNotFoundError:
            raise ArtifactMismatch(f"artifact {self.path} is missing (expected sha256 {self.digest[:16]}…); "
                                   f"re-run the step that wrote it") from None
        actual = hashlib.sha256(payload).hexdigest()
        if actual != self.digest:
            raise ArtifactMismatch(f"artifact {self.path} has sha256 {actual[:16]}…, expected {self.digest[:16]}…; "
                                   f"re-run the step that wrote it")
        return payload

    def read_json(self) -> Any:
        return json.loads(self.read_bytes())

    def to_json(self, root: Path | str | None = None) -> dict[str, str]:
        """{path, digest}; with ``root`` (the artifact root the document is written under), the path
        relative to it, so the document means the same file wherever the root is copied or moved."""
        from heron_pipeline.artifacts.layout import relative_to_root

        return {"path": relative_to_root(self.path, root) if root is not None else str(self.path),
                "digest": self.digest}

    @classmethod
    def from_json(cls, doc: dict[str, Any], root: Path | str | None = None) -> "ArtifactRef":
        """The ref ``to_json`` wrote; with ``root``, its path read under that root
        (``layout.anchored``: relative paths, and absolute ones of an older or another root)."""
        from heron_pipeline.artifacts.layout import anchored

        path = anchored(doc["path"], root) if root is not None else Path(doc["path"])
        return cls(path, str(doc["digest"]))


def canonical_json(document: Any) -> bytes:
    """Sorted keys, fixed separators, UTF-8: the same document always gives the same bytes."""
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=True).encode("utf-8")


def canonical_jsonl(records: Iterable[dict[str, Any]]) -> bytes:
    """One JSON object per line, keys sorted, no whitespace: same records → same bytes."""
    lines = [json.dumps(r, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True) for r in records]
    return ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8")


def write_document(directory: Path, document: Any) -> ArtifactRef:
    """Store a JSON document as ``directory/<sha256>.json``; its identity."""
    path, digest = write_content_addressed(Path(directory), canonical_json(document), suffix=".json")
    return ArtifactRef(path, digest)


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON-lines artifact, in file order."""
    with Path(path).open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def write_jsonl_artifact(directory: Path, records: Iterable[dict[str, Any]]) -> tuple[Path, str]:
    """Canonical JSON lines of ``records`` stored by content hash under ``directory``; (path, digest)."""
    return write_content_addressed(Path(directory), canonical_jsonl(records))

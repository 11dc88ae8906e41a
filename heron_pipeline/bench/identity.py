"""Artifacts by identity: a path and the sha256 of its bytes, checked on every read.

Every step of the bench core returns the identity of what it wrote, and the next step reads exactly
that file — never "the newest file of a folder". A reference whose bytes no longer hash to its
digest is refused, so a step can never silently read something other than what its upstream wrote.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from heron_pipeline.predictions.artifact import write_artifact


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

    def to_json(self) -> dict[str, str]:
        return {"path": str(self.path), "digest": self.digest}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "ArtifactRef":
        return cls(Path(doc["path"]), str(doc["digest"]))


def canonical_json(document: Any) -> bytes:
    """Sorted keys, fixed separators, UTF-8: the same document always gives the same bytes."""
    return json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=True).encode("utf-8")


def write_document(directory: Path, document: Any) -> ArtifactRef:
    """Store a JSON document as ``directory/<sha256>.json``; its identity."""
    path, digest = write_artifact(Path(directory), canonical_json(document), suffix=".json")
    return ArtifactRef(path, digest)


@lru_cache(maxsize=1)
def harness_version() -> str:
    """heron's package version plus the git commit of the checkout (``+dirty`` when it has changes),
    so every artifact says which code computed it."""
    from importlib.metadata import PackageNotFoundError, version

    from heron_pipeline.config import PROJECT_ROOT

    try:
        package = version("heron")
    except PackageNotFoundError:
        package = "0+unknown"
    try:
        commit = subprocess.run(["git", "-C", str(PROJECT_ROOT), "rev-parse", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(PROJECT_ROOT), "status", "--porcelain", "--untracked-files=no",
                                "--", "heron_pipeline", "questions", "schema_ddl"],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
        return f"{package}+g{commit[:12]}" + (".dirty" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return f"{package}+nogit"

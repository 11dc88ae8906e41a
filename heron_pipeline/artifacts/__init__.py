"""Artifacts: where each one lives (``layout``), how it is written (``atomic``) and named by its bytes (``ref``).

No other module decides a path under the artifact root or writes a file by hand; see ``layout``.
"""

from heron_pipeline.artifacts.atomic import ArtifactWriteError, write_atomic, write_content_addressed, write_text_atomic
from heron_pipeline.artifacts.layout import KINDS, ArtifactLayout, Kind
from heron_pipeline.artifacts.ref import (ArtifactMismatch, ArtifactRef, canonical_json, canonical_jsonl, read_jsonl,
                                          write_document, write_jsonl_artifact)

__all__ = ["KINDS", "ArtifactLayout", "ArtifactMismatch", "ArtifactRef", "ArtifactWriteError", "Kind",
           "canonical_json", "canonical_jsonl", "read_jsonl", "write_atomic", "write_content_addressed",
           "write_document", "write_jsonl_artifact", "write_text_atomic"]

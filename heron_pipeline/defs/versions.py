"""Code versions of the assets: digests of exactly what determines each asset's output.

Computed from file bytes at import (cheap: no parsing), so the graph is the same wherever it is
loaded and Dagster can tell when an asset is stale because its inputs' code changed.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from heron_pipeline.config import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "heron_pipeline"


def digest_of(*paths: Path) -> str:
    """sha256 over the names and bytes of every file under ``paths`` (sorted), first 16 hex digits."""
    h = hashlib.sha256()
    for root in paths:
        files = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if root.is_dir() else [root]
        for path in files:
            h.update(str(path.relative_to(PROJECT_ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _join(*parts: str) -> str:
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
def ddl_version() -> str:
    return digest_of(PROJECT_ROOT / "schema_ddl")


@lru_cache(maxsize=1)
def questions_version() -> str:
    return digest_of(PROJECT_ROOT / "questions")


@lru_cache(maxsize=1)
def state_version() -> str:
    """Generator version, DDL, profiles and the generator's code."""
    from heron_pipeline.seeding import GENERATOR_VERSION

    return _join(GENERATOR_VERSION, ddl_version(), digest_of(PACKAGE / "seeding", PACKAGE / "database"))


@lru_cache(maxsize=1)
def gold_version() -> str:
    """The questions and the code that runs and judges them."""
    return _join(questions_version(), digest_of(PACKAGE / "questions", PACKAGE / "results", PACKAGE / "bench"))


def predictions_version(tool: str) -> str:
    """The questions, the tool's name and the adapter code (its conditions come from the run's settings)."""
    llm = PACKAGE / "llm"
    return _join(tool, questions_version(), ddl_version(),
                 digest_of(PACKAGE / "adapters", PACKAGE / "predictions", *([llm] if llm.is_dir() else [])))


@lru_cache(maxsize=1)
def scoring_version() -> str:
    """The harness that executes and scores: sandbox, comparator, metrics, standings."""
    return _join(questions_version(), digest_of(PACKAGE / "harness", PACKAGE / "scoring", PACKAGE / "sandbox",
                                                PACKAGE / "bench"))


@lru_cache(maxsize=1)
def leaderboard_version() -> str:
    return _join(scoring_version(), digest_of(PACKAGE / "leaderboard"))

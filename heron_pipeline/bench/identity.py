"""The identity of the code that ran the bench: heron's version and the git commit of the checkout.

Artifacts themselves (``ArtifactRef``, canonical bytes, content-addressed writes) live in
``heron_pipeline.artifacts``; this is what every result records as its ``harness_version``.
"""

from __future__ import annotations

import subprocess
from functools import lru_cache


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

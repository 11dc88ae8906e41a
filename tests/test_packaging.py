"""Installing heron prints nothing but pip's own lines (issue 30): the package's metadata is built by the
build backend pyproject.toml names, in pip's isolated build environment, as `make install` builds it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_backend_reads_the_metadata_without_a_warning(tmp_path: Path) -> None:
    """Before: setuptools warned that ``project.license`` as a TOML table is deprecated, on every install.
    The license is an SPDX expression now, which setuptools reads from 77 on (the build requires it)."""
    source = tmp_path / "heron"  # a copy: the build writes its egg-info beside the sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "heron_pipeline", source / "heron_pipeline",
                    ignore=shutil.ignore_patterns("__pycache__"))
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--ignore-installed",
                           "--quiet", "--report", str(report), str(source)],
                          capture_output=True, text=True, timeout=300)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "deprecat" not in said.lower() and "BuildBackendWarning" not in said, said
    [install] = json.loads(report.read_text())["install"]
    assert install["metadata"]["name"] == "heron"
    assert install["metadata"].get("license_expression") == "Apache-2.0"

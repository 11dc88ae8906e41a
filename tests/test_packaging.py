"""Installing heron prints nothing but pip's own lines (issue 30): `make install` runs
`pip install --quiet -e .`, whose build runs the backend pyproject.toml names in pip's isolated build
environment; here the same install, of a copy of the sources, into a fresh virtualenv."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_an_editable_install_says_nothing_and_records_the_license(tmp_path: Path) -> None:
    """Before: setuptools warned that ``project.license`` as a TOML table is deprecated, and that an editable
    install uses a meta path finder ("be careful with folders …"), on every install. The license is an SPDX
    expression now (setuptools reads it from 77 on, which the build requires) and the flat layout is
    declared (``package-dir``), so the editable install is a plain path entry."""
    source = tmp_path / "heron"  # a copy: the build writes its egg-info beside the sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "heron_pipeline", source / "heron_pipeline", ignore=shutil.ignore_patterns("__pycache__"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # this environment's pip (the one `make install` upgraded to), installing into the fresh virtualenv
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                           "-e", str(source)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "deprecat" not in said.lower() and "BuildBackendWarning" not in said, said
    where = subprocess.run([str(python), "-c", "import importlib.util as u; print(u.find_spec('heron_pipeline').origin)"],
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout.strip()
    assert where == str(source / "heron_pipeline" / "__init__.py")  # editable: the sources themselves
    [metadata] = (venv / "lib").glob("python3*/site-packages/heron-0.1.0.dist-info/METADATA")
    assert "License-Expression: Apache-2.0" in metadata.read_text().splitlines()

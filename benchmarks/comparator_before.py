"""The comparator as it was at a git ref, importable next to the current one.

``load_compare(ref)`` copies ``heron_pipeline/scoring/{comparator,comparator_typed,order_spec}.py``
from ``ref`` (``git show``) into a temporary package and returns its ``compare``. The benchmarks
use it to time the previous comparator in the same process as the current one, and to check that
both give the same verdicts; nothing in heron imports it.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("comparator", "comparator_typed", "order_spec")


def load_compare(ref: str) -> Callable:
    """``compare`` of the comparator at git ``ref`` of this repository."""
    folder = Path(tempfile.mkdtemp(prefix="heron-comparator-"))
    package = folder / "comparator_at_ref"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name in MODULES:
        source = subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:heron_pipeline/scoring/{name}.py"],
                                capture_output=True, text=True, check=True).stdout
        (package / f"{name}.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module("comparator_at_ref.comparator").compare
    finally:
        sys.path.remove(str(folder))

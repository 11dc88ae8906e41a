"""The benchmark's conventions note: the rules every question is read under, given to every tool.

Without it "the last 90 days" has no meaning (which "now"?), and a deleted row or a cross-tenant
join is a matter of taste. It is one versioned text kept with the questions
(``questions/conventions.txt``), part of the questions digest, and handed to every adapter in its
context — the ``cli`` adapter passes it on to external tools. Format: a first line
``version: <n>``, a blank line, then paragraphs; a paragraph's lines are joined with single spaces
(the file is wrapped for reading, the prompt is not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CONVENTIONS_FILE = "conventions.txt"
_VERSION = re.compile(r"^version:\s*(\S+)\s*$")


class ConventionsError(ValueError):
    """The conventions file is missing or malformed; the message names the file."""


@dataclass(frozen=True)
class Conventions:
    version: str
    text: str  # paragraphs separated by one blank line, each on one line


def conventions_path(directory: Path) -> Path:
    return Path(directory) / CONVENTIONS_FILE


def parse_conventions(raw: str, where: str = CONVENTIONS_FILE) -> Conventions:
    """The note in ``raw`` (see module docstring); ConventionsError naming ``where`` otherwise."""
    lines = raw.splitlines()
    match = _VERSION.match(lines[0]) if lines else None
    if not match:
        raise ConventionsError(f"{where}: the first line must be 'version: <n>'")
    paragraphs, current = [], []
    for line in lines[1:]:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    if not paragraphs:
        raise ConventionsError(f"{where}: no text after the version line")
    return Conventions(version=match.group(1), text="\n\n".join(paragraphs))


def load_conventions(directory: Path) -> Conventions:
    """The conventions note kept beside the question files of ``directory``."""
    path = conventions_path(directory)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConventionsError(f"{path}: missing (every question set needs its conventions note)") from None
    return parse_conventions(raw, str(path))

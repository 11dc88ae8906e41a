"""The question set of a run, loaded once per content.

Every Dagster step of a run needs the questions; parsing 100 YAML questions costs a few hundred
milliseconds, which a run of thirty small steps paid thirty times. The set is cached by the digest
of its files, so a changed file is always re-read and an unchanged one never is.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any


@lru_cache(maxsize=4)
def _load(directory: str, digest: str) -> tuple[Any, ...]:
    from heron_pipeline.questions import load_questions

    return tuple(load_questions(Path(directory)))


def question_set(directory: Path) -> tuple[list[Any], str]:
    """(questions, questions digest) of ``directory``."""
    from heron_pipeline.questions import questions_digest

    digest = questions_digest(Path(directory))
    return list(_load(str(Path(directory).resolve()), digest)), digest

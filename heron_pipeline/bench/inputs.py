"""The question set of a run, loaded once per content — the public set or one instance set.

Every Dagster step of a run needs the questions; parsing 100 YAML questions costs a few hundred
milliseconds, which a run of thirty small steps paid thirty times. The set is cached by the digest
of its files, so a changed file is always re-read and an unchanged one never is.

This is the one step that knows about slots and instance seeds (``questions.instances``): every step
after it consumes a list of questions and the digest that names exactly those texts and SQL.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping


@lru_cache(maxsize=4)
def _load(directory: str, digest: str) -> tuple[Any, ...]:
    from heron_pipeline.questions import load_questions

    return tuple(load_questions(Path(directory)))


@lru_cache(maxsize=4)
def _slots(directory: str, digest: str, slots_digest: str) -> dict:
    from heron_pipeline.questions.slots import load_slots

    return load_slots(Path(directory), _load(directory, digest))


def instance_set(directory: Path, instance_seed: int = 0, attempts: Mapping[str, int] | None = None,
                 withheld: tuple[str, ...] = ()) -> Any:
    """The ``InstanceSet`` of ``directory``'s questions under ``instance_seed`` (0: the public set), less
    the questions ``withheld``."""
    from heron_pipeline.questions import questions_digest
    from heron_pipeline.questions.instances import draw_instances
    from heron_pipeline.questions.slots import slots_digest

    where = str(Path(directory).resolve())
    digest = questions_digest(Path(directory))
    slots_hash = slots_digest(Path(directory))
    slots = _slots(where, digest, slots_hash) if instance_seed else {}
    return draw_instances(_load(where, digest), slots, instance_seed, base_digest=digest, slots_digest=slots_hash,
                          attempts=attempts, withheld=withheld)


def question_set(directory: Path, instance_seed: int = 0,
                 attempts: Mapping[str, int] | None = None) -> tuple[list[Any], str]:
    """(questions, questions digest) of ``directory`` under ``instance_seed`` (0, the default: the
    public set and the digest of its files)."""
    drawn = instance_set(directory, instance_seed, attempts)
    return list(drawn.questions), drawn.digest

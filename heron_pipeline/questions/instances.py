"""Instance sets: every question drawn anew from an instance seed.

An instance set is a pure function of (the question files, the slots file, the instance seed, and a
redraw counter per question): for every question its texts, gold SQL, alt SQL and slot values.
Instance seed 0 is the public set — the question files exactly as written, under the questions
digest they have always had — so committed submissions and the published board keep their meaning.

Each slot's value comes from its own stream, keyed by (instance seed, question id, slot name, redraw
counter) through sha256, so adding a question or a slot moves nothing else, and a redraw (an instance
that failed an audit rule) changes only the question that failed. A draw never returns a slot's
public value: every varying question of a non-public draw differs from the public one in every slot.

What this protects against: a model or a submission that memorised the public SQL (its constants are
wrong on another draw). What it does not: a tool engineered against the public templates (the shape
of each question is public) — METHODOLOGY says so.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from heron_pipeline.questions.model import Question
from heron_pipeline.questions.slots import Slot, render_sql, render_text

#: How many times one question may be redrawn before the audit gives up on it (and fails, naming it).
REDRAW_BUDGET = 12


def draw_index(instance_seed: int, question_id: str, slot: str, attempt: int, size: int) -> int:
    """A value in ``range(size)`` from the stream of (instance seed, question, slot, attempt)."""
    key = f"heron-instance\0{instance_seed}\0{question_id}\0{slot}\0{attempt}".encode("utf-8")
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") % size


def draw_values(slots: Iterable[Slot], instance_seed: int, attempt: int = 0) -> dict[str, Any]:
    """Slot name → value for one question: the public values under instance seed 0."""
    if instance_seed == 0:
        return {s.name: s.public for s in slots}
    return {s.name: s.values[draw_index(instance_seed, s.question_id, s.name, attempt, len(s.values))] for s in slots}


def instance_of(question: Question, slots: Iterable[Slot], values: Mapping[str, Any]) -> Question:
    """``question`` with every slot set to ``values`` (the question itself when all are public)."""
    slots = [s for s in slots if values[s.name] != s.public]
    if not slots:
        return question
    texts = {"question": question.question, "natural": question.natural, "gold_sql": question.gold_sql,
             "alt_sql": question.alt_sql}
    for slot in slots:
        sub = slot.substitution(values[slot.name])
        for key in ("question", "natural"):
            if texts[key] is not None:
                texts[key] = render_text(texts[key], sub)
        for key in ("gold_sql", "alt_sql"):
            if texts[key] is not None:
                texts[key] = render_sql(texts[key], sub)
    return replace(question, **texts)


@dataclass(frozen=True)
class InstanceSet:
    """The questions of one draw, with what identifies it."""

    instance_seed: int
    questions: tuple[Question, ...]
    values: Mapping[str, Mapping[str, Any]]  # question id → slot name → value
    attempts: Mapping[str, int] = field(default_factory=dict)  # question id → redraws (0 when none)
    digest: str = ""
    withheld: tuple[str, ...] = ()  # ids left out: no redraw of them passed the audit (hidden draws only)

    @property
    def varying(self) -> list[str]:
        """Ids of the questions that have slots."""
        return [qid for qid, v in self.values.items() if v]

    def lines(self) -> list[dict[str, Any]]:
        """One JSON-ready object per question (``heron instances``' output)."""
        return [{"id": q.id, "instance_seed": self.instance_seed, "question": q.question, "natural": q.natural,
                 "gold_sql": q.gold_sql, "alt_sql": q.alt_sql, "slots": _jsonable(self.values.get(q.id, {})),
                 "redraws": self.attempts.get(q.id, 0)} for q in self.questions]


def _jsonable(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (v if isinstance(v, (int, str)) else str(v)) for k, v in values.items()}


def instance_digest(base_digest: str, slots_digest: str, instance_seed: int, questions: Iterable[Question],
                    values: Mapping[str, Mapping[str, Any]]) -> str:
    """The public set's digest under instance seed 0; else sha256 over what the draw produced."""
    if instance_seed == 0:
        return base_digest
    digest = hashlib.sha256(f"heron-instance-set\0{base_digest}\0{slots_digest}\0{instance_seed}\0".encode())
    for q in questions:
        doc = {"id": q.id, "question": q.question, "natural": q.natural, "gold_sql": q.gold_sql, "alt_sql": q.alt_sql,
               "slots": _jsonable(values.get(q.id, {}))}
        digest.update(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()


def draw_instances(questions: Iterable[Question], slots: Mapping[str, tuple[Slot, ...]], instance_seed: int, *,
                   base_digest: str, slots_digest: str, attempts: Mapping[str, int] | None = None,
                   withheld: Iterable[str] = ()) -> InstanceSet:
    """The instance set of ``instance_seed`` (``attempts``: the redraw counter of each question; ``withheld``:
    questions left out, so the digest covers only the questions drawn)."""
    if not isinstance(instance_seed, int) or isinstance(instance_seed, bool) or not 0 <= instance_seed < 2**63:
        raise ValueError(f"--instance-seed must be an integer in 0..2^63-1, got {instance_seed!r}")
    attempts = dict(attempts or {})
    withheld = tuple(sorted(set(withheld)))
    drawn, values = [], {}
    for q in questions:
        if q.id in withheld:
            continue
        own = slots.get(q.id, ())
        values[q.id] = draw_values(own, instance_seed, attempts.get(q.id, 0)) if own else {}
        drawn.append(instance_of(q, own, values[q.id]) if own else q)
    used = {qid: n for qid, n in attempts.items() if n and qid not in withheld}
    digest = instance_digest(base_digest, slots_digest, instance_seed, drawn, values)
    if withheld and instance_seed == 0:
        raise ValueError("the public set withholds no question")
    return InstanceSet(instance_seed, tuple(drawn), values, used, digest, withheld)

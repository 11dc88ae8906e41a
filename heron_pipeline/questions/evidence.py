"""What the audit rules read and what they report, and the small readings several rules share.

This module sits below the rules (``questions.audit``), as sqlglot's ``optimizer/scope.py`` sits
below its optimizer rules: the rules import it, it imports no rule. ``Evidence`` is everything a
rule may look at (the scale, each state's runs, the trap proofs); ``Problem`` is one finding and
``Outcome`` a rule's verdict — passed, failed with its problems, or not judged with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

from heron_pipeline.questions import sql_facts

if TYPE_CHECKING:
    from heron_pipeline.mutants.liveness import TrapProof
    from heron_pipeline.questions.gold import QuestionRun
    from heron_pipeline.questions.model import Question

States = Mapping[str, Mapping[str, "QuestionRun"]]  # state label ("tiny_42") -> question id -> run
Proofs = Mapping[str, "list[TrapProof]"]  # question id -> one proof per trap tag (mutants.liveness)

PASSED, FAILED, NOT_JUDGED = "passed", "failed", "not judged"


@dataclass(frozen=True)
class Problem:
    """One finding of a rule."""

    rule: str
    question_id: str | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "question_id": self.question_id, "message": self.message}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> "Problem":
        return cls(doc["rule"], doc.get("question_id"), doc["message"])


@dataclass(frozen=True)
class Outcome:
    """One rule's verdict: passed, failed (with its problems) or not judged (with the reason)."""

    rule: str
    status: str
    problems: tuple[Problem, ...] = ()
    reason: str | None = None

    @property
    def failed(self) -> bool:
        return self.status == FAILED

    @property
    def judged(self) -> bool:
        return self.status != NOT_JUDGED

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "problems": [p.to_json() for p in self.problems]}

    @classmethod
    def from_json(cls, rule: str, doc: Mapping[str, Any]) -> "Outcome":
        return cls(rule, doc["status"], tuple(Problem.from_json(p) for p in doc.get("problems", [])), doc.get("reason"))


def outcome_of(rule: str, problems: Iterable[Problem]) -> Outcome:
    """Passed without problems, failed with them."""
    problems = tuple(problems)
    return Outcome(rule, FAILED if problems else PASSED, problems)


def combined_outcome(rule: str, outcomes: Iterable[Outcome]) -> Outcome:
    """One rule's verdicts on several states as one: failed if it failed anywhere (every problem kept),
    passed if it passed everywhere, otherwise not judged (with each distinct reason)."""
    outcomes = list(outcomes)
    problems = tuple(p for o in outcomes for p in o.problems)
    if any(o.failed for o in outcomes):
        return Outcome(rule, FAILED, problems)
    if outcomes and all(o.status == PASSED for o in outcomes):
        return Outcome(rule, PASSED)
    reasons = list(dict.fromkeys(o.reason for o in outcomes if o.reason)) or ["no state was run"]
    return Outcome(rule, NOT_JUDGED, reason="; ".join(reasons))


@dataclass
class Evidence:
    """What the rules of one audit may look at.

    ``prove`` makes the trap proofs (mutants run on the states); it is called at most once, and only
    when a rule that needs proofs is judged, so an audit that does not judge ``trap-live`` never
    runs a mutant."""

    scale: str
    states: States = field(default_factory=dict)
    prove: Callable[[], Proofs] | None = None

    @cached_property
    def proofs(self) -> Proofs | None:
        return self.prove() if self.prove is not None else None


# -- readings several rules share --------------------------------------------------------------------


def parsable(sql: str | None) -> bool:
    """Whether ``sql`` is one PostgreSQL statement sqlglot can parse (rules skip what ``parses`` reports)."""
    if sql is None:
        return False
    try:
        sql_facts.parse(sql)
    except sql_facts.SQLParseError:
        return False
    return True


def normalised_text(text: str) -> str:
    """Lower case, punctuation as spaces, single spaces: two texts that differ only so are duplicates."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def table_mismatch(read: set[str], declared: set[str]) -> str | None:
    """How the tables a query reads differ from those it declares, or None when they agree."""
    if read == declared:
        return None
    parts = []
    if read - declared:
        parts.append(f"read but not declared: {', '.join(sorted(read - declared))}")
    if declared - read:
        parts.append(f"declared but not read: {', '.join(sorted(declared - read))}")
    return "; ".join(parts)


def runs_of(questions: Iterable["Question"], runs: Mapping[str, "QuestionRun"]) -> Iterator[tuple["Question", "QuestionRun"]]:
    """(question, run) for every question that ran on the state (a missing run is ``executes``' finding)."""
    for q in questions:
        if q.id in runs:
            yield q, runs[q.id]

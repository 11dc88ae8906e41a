"""The answers of every question's trap mutants on one state, stored once so scoring can name a trap.

A wrong prediction is ``trap:<tag>`` (``diagnosis.causes``) when its answer equals, on the state it
ran on, the answer of a near-miss mutant of the gold whose operator removes that trap's handling
(:mod:`.traps`). Those mutants are the audit's: the same generator (:func:`.generate.mutants` with
the catalog), without the ones set aside as equivalent by contract (:mod:`.equivalence`), and only
those that remove some trap's handling. Their answers are computed once per state, next to the gold
(``bench.gold``), and stored as one content-addressed artifact, so scoring a tool never runs a
mutant: it reads the rows and compares them with the comparator that decides EX.

Rows are stored, not a digest of them: the comparator's equality is tolerant (numbers within a
tolerance, columns in any order, the order gold leaves open ignored, extra columns in natural
mode), so equality to a mutant cannot be decided from a hash of one canonical form. What keeps the
artifact small:

- a mutant whose answer the comparator finds equal to gold's on this state is not stored: it cannot
  be what a wrong answer here equals (a prediction equal to it would be right);
- equal answers (the same typed rows) are stored once, and mutants point at them by index;
- a mutant that fails, times out or returns more than ``MAX_ROWS`` rows is listed without rows
  (``not_stored``, with the reason): a prediction that large is matched by no trap.

Document (canonical JSON: sorted keys, no spaces)::

    {"format": 1, "answers": [<results.codec document>, ...],
     "questions": {"q001": [{"operator", "description", "traps": [...], "answer": 0}, ...]},
     "not_stored": {"q001": [{"operator", "description", "traps", "reason"}]},
     "same_as_gold": {"q001": 2}}

Mutants of a question keep the generator's order (the fixed order the diagnosis chooses in).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, MutableMapping, Sequence

from heron_pipeline.mutants.generate import Mutant, mutants
from heron_pipeline.results import ResultSet, decode, encode
from heron_pipeline.scoring import canonical_rows, compare, order_spec

FORMAT = 1
#: A mutant answer with more rows than this is not stored (a dropped filter can return a table).
MAX_ROWS = 10_000


@dataclass(frozen=True)
class MutantAnswer:
    """One trap mutant of a question and its answer on one state (rows as the comparator reads them)."""

    operator: str
    description: str
    traps: tuple[str, ...]
    rows: list[tuple]


def trap_candidates(gold_sql: str, catalog: Any) -> list[Mutant]:
    """The mutants of ``gold_sql`` that remove some trap's handling, equivalent by contract or not (the
    trap-liveness proofs count the equivalent ones as set aside), in the generator's order."""
    return [m for m in mutants(gold_sql, catalog) if m.traps]


def trap_mutants(gold_sql: str, catalog: Any) -> list[Mutant]:
    """The mutants of ``gold_sql`` that remove some trap's handling and are not set aside as
    equivalent by contract (what ``trap:<tag>`` is decided against), in the generator's order."""
    return [m for m in trap_candidates(gold_sql, catalog) if m.equivalent is None]


def trap_mutant_table(questions: Iterable[Any], catalog: Any) -> dict[str, list[Mutant]]:
    """question id -> ``trap_mutants`` of its gold. It depends on the questions and the catalog only,
    not the state, and generating it costs more than running the mutants at tiny (about 20 s for
    100 questions): a run over several states makes it once and passes it to each."""
    return {q.id: trap_mutants(q.gold_sql, catalog) for q in questions}


def _one_line(err: BaseException) -> str:
    text = str(err).strip()
    return (text.splitlines()[0] if text else type(err).__name__)[:200]


@dataclass(frozen=True)
class QuestionAnswers:
    """One question's trap mutants run on one state: each stored mutant with its encoded answer, the
    ones that did not run, and how many answered like the gold. A pure function of the state and the
    gold SQL (its rows and its mutants follow from both), so an audit loop keeps it per gold SQL."""

    stored: tuple[tuple[dict, Any], ...]
    not_stored: tuple[dict, ...]
    same: int


def question_answers(question: Any, gold: Sequence[tuple], execute: Callable[[str], ResultSet],
                     found: Sequence[Mutant]) -> QuestionAnswers:
    """``found`` (one question's trap mutants) run with ``execute`` and compared with ``gold``."""
    stored: list[tuple[dict, Any]] = []
    not_stored: list[dict] = []
    same = 0
    spec = order_spec(question.gold_sql)
    for mutant in found:
        about = {"operator": mutant.operator, "description": mutant.description, "traps": list(mutant.traps)}
        try:
            result = execute(mutant.sql)
        except Exception as err:  # noqa: BLE001 — a mutant that does not run matches no prediction
            not_stored.append({**about, "reason": _one_line(err)})
            continue
        if compare(question.gold_sql, list(gold), result.rows):
            same += 1
            continue
        stored.append((about, encode(ResultSet(result.columns, canonical_rows(result.rows, spec)))))
    return QuestionAnswers(tuple(stored), tuple(not_stored), same)


def mutant_answers_document(questions: Iterable[Any], gold_rows: Mapping[str, Sequence[tuple]],
                            execute: Callable[[str], ResultSet],
                            table: Mapping[str, Sequence[Mutant]],
                            reuse: MutableMapping[str, QuestionAnswers] | None = None) -> dict[str, Any]:
    """Every question's trap mutants (``table``, from ``trap_mutant_table``) run with ``execute``
    (trusted SQL on one state; raises on a failure, ``ResultTooLarge`` past ``MAX_ROWS``) and
    stored as the module docstring says. Questions without a gold result here are skipped (scoring
    refuses them anyway). ``reuse`` (gold SQL -> ``QuestionAnswers`` of this state) is read before a
    question's mutants are run and filled after: a redrawn instance set runs only the new golds'."""
    answers: list[dict] = []
    index: dict[str, int] = {}
    stored: dict[str, list[dict]] = {}
    not_stored: dict[str, list[dict]] = {}
    same: dict[str, int] = {}
    for question in questions:
        if question.id not in gold_rows:
            continue
        found = reuse.get(question.gold_sql) if reuse is not None else None
        if found is None:
            found = question_answers(question, gold_rows[question.id], execute, table.get(question.id, ()))
            if reuse is not None:
                reuse[question.gold_sql] = found
        for about, encoded in found.stored:
            key = json.dumps(encoded, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            if key not in index:
                index[key] = len(answers)
                answers.append(encoded)
            stored.setdefault(question.id, []).append({**about, "answer": index[key]})
        if found.not_stored:
            not_stored[question.id] = [dict(x) for x in found.not_stored]
        if found.same:
            same[question.id] = found.same
    return {"format": FORMAT, "answers": answers, "questions": stored, "not_stored": not_stored,
            "same_as_gold": same}


def mutant_answers_bytes(document: Mapping[str, Any]) -> bytes:
    """The canonical bytes of a document (what its digest is the sha256 of)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def parse_mutant_answers(document: Mapping[str, Any]) -> dict[str, tuple[MutantAnswer, ...]]:
    """question id -> its stored trap mutants with their rows, in the generator's order."""
    if document.get("format") != FORMAT:
        raise ValueError(f"mutant answers of format {document.get('format')!r}, this heron reads {FORMAT}")
    rows = [decode(a).rows for a in document["answers"]]
    return {qid: tuple(MutantAnswer(m["operator"], m["description"], tuple(m["traps"]), rows[m["answer"]])
                       for m in found) for qid, found in document["questions"].items()}


def read_mutant_answers(path: Path) -> dict[str, tuple[MutantAnswer, ...]]:
    """A stored mutant answers artifact, parsed (``parse_mutant_answers``); the caller checks its digest."""
    return parse_mutant_answers(json.loads(Path(path).read_text(encoding="utf-8")))

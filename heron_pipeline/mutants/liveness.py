"""Prove that each trap tag of a question can bite: a mutant that removes the handling is killed.

For every tag of a question, the candidates are the gold's mutants that remove that trap's handling
(:mod:`heron_pipeline.mutants.traps`). Those equivalent by contract are set aside (they cannot
change the answer on any state the generator builds); the others run on the audited states in order
until one returns a different answer. The first such kill proves the tag, and nothing more runs for
it — the audit needs one witness per tag, not a kill rate (``heron audit --mutants`` gives that).

A mutant that fails on a state (error, timeout) proves nothing there; one whose result passes the
fetch cap is a kill, as in :mod:`heron_pipeline.mutants.run` (the gold's result is small).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from heron_pipeline.mutants.generate import Mutant, mutants
from heron_pipeline.mutants.run import Execute
from heron_pipeline.results import ResultTooLarge
from heron_pipeline.scoring import compare

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog
    from heron_pipeline.questions.model import Question


@dataclass(frozen=True)
class TrapProof:
    """Whether one trap tag of one question is proved live on the audited states, and by what."""

    question_id: str
    trap: str
    candidates: int  # mutants that remove the trap's handling
    set_aside: tuple[str, ...] = ()  # the equivalence rule of each candidate set aside by contract
    killed_by: str | None = None  # description of the first killed candidate
    state: str | None = None  # the state that killed it
    failed: int = 0  # candidates that did not execute on some state they were tried on

    @property
    def live(self) -> bool:
        return self.killed_by is not None

    def reason(self) -> str:
        """One line: what proved the tag, or why nothing did."""
        if self.live:
            return f"killed on {self.state}: {self.killed_by}"
        if not self.candidates:
            return "no mutant removes its handling (the gold has nothing for the trap's operators to undo)"
        ran = self.candidates - len(self.set_aside)
        rules = ", ".join(sorted(set(self.set_aside)))
        if not ran:
            return f"all {self.candidates} mutant(s) that remove it are equivalent by contract ({rules})"
        tail = f"; {len(self.set_aside)} set aside ({rules})" if self.set_aside else ""
        failed = f", {self.failed} failed to execute" if self.failed else ""
        return f"{ran} mutant(s) remove it and none changes the answer on any audited state{failed}{tail}"


def prove_question(question_id: str, gold_sql: str, traps: Iterable[str], gold_rows: Mapping[str, Sequence[tuple]],
                   execute: Execute, catalog: "Catalog | None" = None,
                   generate: "Callable[[str], Sequence[Mutant]] | None" = None) -> list[TrapProof]:
    """One proof per tag in ``traps``; ``gold_rows`` maps state → gold rows, tried in that order.
    ``generate`` (gold SQL → mutants, at least every one that removes a trap, in the generator's order)
    replaces ``mutants(gold_sql, catalog)``: the audit passes its cached trap candidates."""
    generated = generate(gold_sql) if generate is not None else mutants(gold_sql, catalog)
    proofs = []
    for trap in traps:
        candidates = [m for m in generated if trap in m.traps]
        set_aside = tuple(m.equivalent.split(":")[0] for m in candidates if m.equivalent is not None)
        killed_by = state_killed = None
        failed = 0
        for mutant in (m for m in candidates if m.equivalent is None):
            for state, rows in gold_rows.items():
                try:
                    predicted = execute(state, mutant.sql)
                except ResultTooLarge:
                    killed_by, state_killed = mutant.description, state
                    break
                except Exception:  # noqa: BLE001 - a failure proves nothing on that state
                    failed += 1
                    break
                if not compare(gold_sql, list(rows), list(predicted)):
                    killed_by, state_killed = mutant.description, state
                    break
            if killed_by is not None:
                break
        proofs.append(TrapProof(question_id, trap, len(candidates), set_aside, killed_by, state_killed, failed))
    return proofs


def prove_questions(questions: Sequence["Question"], states: Mapping[str, Mapping[str, object]], execute: Execute,
                    catalog: "Catalog | None" = None,
                    generate: "Callable[[str], Sequence[Mutant]] | None" = None) -> dict[str, list[TrapProof]]:
    """Proofs for every tag of every question whose gold ran on every state (``states``: state label →
    question id → ``gold.QuestionRun``). A question whose gold failed somewhere is left out: the
    audit already reports it, and there is no answer to differ from."""
    proofs = {}
    for q in questions:
        runs = [runs.get(q.id) for runs in states.values()]
        if not q.traps or any(run is None or not run.gold.ok for run in runs):
            continue
        gold_rows = {state: runs[q.id].gold.result.rows for state, runs in states.items()}
        proofs[q.id] = prove_question(q.id, q.gold_sql, [t.value for t in q.traps], gold_rows, execute, catalog,
                                       generate)
    return proofs

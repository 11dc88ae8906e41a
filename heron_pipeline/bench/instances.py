"""An instance set audited like the public set, with deterministic redraws.

The public set (instance seed 0) is audited once and either passes or fails. A drawn set is audited
by the same rules table; where a question with slots fails a rule that failed the audit, its redraw
counter goes up by one (its next value comes from the next element of its own stream, so no other
question moves) and the audit runs again. A question still failing after ``REDRAW_BUDGET`` redraws —
or one without slots — stays in the verdict, named, and fails the audit: nothing is dropped from a
draw anyone can reproduce. Every redraw is reported (question, rules, counter) and the final counters
travel with the instance set. A hidden draw (``withhold``) is the one exception: a question no redraw
can fix is left out and named, and the rest must pass (METHODOLOGY §16).

``heron audit`` and ``heron bench`` both run this loop; ``audit_once`` is how each of them audits
one candidate set (the bench reuses a recorded verdict of the same set and states).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.bench.inputs import instance_set
from heron_pipeline.questions.instances import REDRAW_BUDGET, InstanceSet

Say = Callable[[str], None]
#: (questions, questions digest) -> (AuditResult, golds by seed)
AuditOnce = Callable[[list[Any], str], tuple[Any, Any]]


def state_audit(server: Any, artifacts: Path, scale: str, states: dict[int, Any], *, liveness: bool = False,
                on_gold: Callable[[Any, Any, float, int], None] | None = None,
                memos: dict[int, Any] | None = None) -> AuditOnce:
    """The ``AuditOnce`` of ``states`` (seed → ``StateResult``): every state's gold and per-state rules
    (``compute_gold``, the trap mutants made once per candidate set), then every other rule
    (``audit_states``). ``on_gold(state, gold, seconds, questions)`` is told of each state's gold as it is made."""
    from heron_pipeline.bench.audit import audit_states
    from heron_pipeline.bench.gold import StateMemo, compute_gold, trap_table

    # what earlier rounds of this loop ran, per state (``gold.StateMemo``; a caller that makes one
    # AuditOnce per round passes its own, kept across the rounds)
    memos = memos if memos is not None else {}
    for seed in states:
        memos.setdefault(seed, StateMemo())

    def audit_once(questions: list[Any], digest: str) -> tuple[Any, list[Any]]:
        table = trap_table(questions)
        golds = []
        for seed, state in sorted(states.items()):
            started = time.perf_counter()
            gold = compute_gold(server, artifacts, state, questions, digest, table, memos[seed])
            if on_gold is not None:
                on_gold(state, gold, time.perf_counter() - started, len(questions))
            golds.append(gold)
        return audit_states(artifacts, scale, golds, questions, digest, server=server, liveness=liveness), golds

    return audit_once


def redraw_targets(audit: Any, drawn: InstanceSet, attempts: dict[str, int]) -> dict[str, list[str]]:
    """Question id → the failed rules it broke, for the questions that may still be redrawn."""
    failed = set(audit.failed_rules)
    targets: dict[str, list[str]] = {}
    for problem in audit.problems:
        qid = problem.get("question_id")
        if problem.get("rule") in failed and qid in drawn.varying and attempts.get(qid, 0) < REDRAW_BUDGET:
            targets.setdefault(qid, [])
            if problem["rule"] not in targets[qid]:
                targets[qid].append(problem["rule"])
    return targets


def unfixable(audit: Any) -> list[str] | None:
    """Ids of the questions behind every failed rule of ``audit`` (once no redraw is left), or None when a
    failed rule names no question (a failure of the set or the states, which leaving questions out
    cannot fix)."""
    failed = set(audit.failed_rules)
    named = [p for p in audit.problems if p.get("rule") in failed]
    if not failed or any(not p.get("question_id") for p in named):
        return None
    ids = sorted({p["question_id"] for p in named})
    return ids or None


def audited_instances(questions_dir: Path, instance_seed: int, audit_once: AuditOnce, *,
                      say: Say = lambda _m: None, label: str | None = None,
                      withhold: bool = False) -> tuple[InstanceSet, Any, Any]:
    """(the instance set, its audit, its golds): redrawn until the audit passes or no failing question
    can be redrawn any more. ``label`` names the draw in messages (default "instance seed N"; a hidden
    draw passes its own label, so its seed is never printed).

    ``withhold`` (hidden draws only): a question that still fails after its redraws is left out of the
    draw and the rest is audited again, so one template whose traps cannot bite on the hidden states
    does not cost the whole night; the instance set names what it withheld. A public draw never
    withholds: its audit fails, naming the question."""
    name = label or f"instance seed {instance_seed}"
    attempts: dict[str, int] = {}
    withheld: tuple[str, ...] = ()
    while True:
        drawn = instance_set(Path(questions_dir), instance_seed, attempts, withheld)
        if not drawn.questions:
            raise ValueError(f"no questions in {questions_dir}" + (" left to draw" if withheld else ""))
        audit, golds = audit_once(list(drawn.questions), drawn.digest)
        if instance_seed == 0 or audit.passed:
            break
        targets = redraw_targets(audit, drawn, attempts)
        if not targets:
            left_out = unfixable(audit) if withhold else None
            if not left_out:
                break
            withheld = tuple(sorted(set(withheld) | set(left_out)))
            say(f"{name}: {', '.join(left_out)} withheld from the draw: failed "
                f"{', '.join(audit.failed_rules)} after every redraw")
            continue
        for qid, broken in sorted(targets.items()):
            attempts[qid] = attempts.get(qid, 0) + 1
            say(f"{name}: {qid} redrawn (#{attempts[qid]}): failed {', '.join(broken)}")
    if instance_seed:
        redraws = sum(drawn.attempts.values())
        say(f"{name}: {len(drawn.varying)} questions drawn, {redraws} redraws"
            + (f" ({', '.join(f'{q} {n}' for q, n in sorted(drawn.attempts.items()))})" if redraws else "")
            + (f", {len(drawn.withheld)} withheld" if drawn.withheld else "")
            + f"; instance set {drawn.digest[:12]}…")
    return drawn, audit, golds

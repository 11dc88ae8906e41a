"""The audit: every rule a program can check about the questions, as one table looped over once.

Each rule is declared once in ``RULES`` — its name, its scope, its function, whether it blocks, the
scales it is judged at and its description — and ``judge`` is the one loop that applies them
(the shape of sqlglot's ``optimizer.RULES``). A rule's scope says what it reads and so how the loop
calls it:

==============  ================================================  =================================
scope           the function is called as                         judged when
==============  ================================================  =================================
static          ``check(questions)``                              always (no database)
state           ``check(questions, runs, state)`` per state       at least one state was run
cross-seed      ``check(questions, states)``                      at least two states were run
trap            ``check(questions, proofs)``                      trap proofs can be made
==============  ================================================  =================================

and a rule with ``scales`` is judged only on those scales. A rule that is not judged is reported as
such with its reason — never as a pass. Everything the rules read and report (``Evidence``,
``Problem``, ``Outcome``) and the readings several rules share sit below them, in
``questions.evidence``. Nothing here connects to a database: ``gold.run_state`` produced the runs and
``mutants.liveness`` the proofs, so a test can feed a rule hand-made runs and the bench core, the CLI
and the Dagster asset checks all judge through the same loop.

The training set of ``questions/train/`` (examples for retrieval-augmented tools, never evaluated)
has rules of its own, ``TRAINING_RULES``, checked by ``check_training_set``: its SQL parses and
declares its tables, executes and is non-empty on every state, and no pair shares its question text
or its normalised SQL with an evaluation question.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from sqlglot import exp

from heron_pipeline.database.names import SCALES
from heron_pipeline.questions import sql_facts
from heron_pipeline.questions.evidence import (NOT_JUDGED, Evidence, Outcome, Problem, Proofs, States, normalised_text,
                                               outcome_of, parsable, runs_of, table_mismatch)
from heron_pipeline.questions.model import Question, Retrieval, Shape, Trap

if TYPE_CHECKING:
    from heron_pipeline.questions.gold import Execution, QuestionRun
    from heron_pipeline.questions.train import TrainingPair
    from heron_pipeline.questions.vocabulary import Vocabulary

MEDIAN_LATENCY_MS, MAX_LATENCY_MS = 100.0, 2000.0
#: The scales the latency budget covers: the larger ones hold more rows than a 100 ms median allows.
LATENCY_SCALES = frozenset({"tiny", "small"})
#: Scales on which a tag that cannot bite fails the audit: the evaluation scale (small) and up. Tiny
#: states are too thin for some traps (a wrong time zone moves the first hours of a month, and tiny
#: has few rows there; a few tables have no deleted row in a question's slice), so at tiny the
#: rule is not judged — tags claim what the scored states show.
TRAP_LIVE_SCALES = frozenset({"small", "bench", "large"})
MIN_VARYING_SHARE = 0.90
MIN_PER_SHAPE, MIN_PER_RETRIEVAL, MIN_PER_TRAP = 20, 15, 5
MIN_WINDOW_OR_CTE, MIN_THREE_DOMAINS, PROBES = 10, 10, (2, 4)


def _compare(gold_sql: str, gold_rows, other_rows) -> bool:
    """``scoring.compare``, imported when a rule first compares (the scoring package is heavy to
    import, and the Dagster definitions import this module for the rule table alone)."""
    from heron_pipeline.scoring import compare

    return compare(gold_sql, gold_rows, other_rows)


# -- static: per question, no database ---------------------------------------------------------------


def check_alt_present(questions: Iterable[Question]) -> list[Problem]:
    return [Problem("question-file", q.id, "alt_sql is missing") for q in questions if not q.alt_sql]


def check_parses(questions: Iterable[Question]) -> list[Problem]:
    problems = []
    for q in questions:
        for which, sql in (("gold", q.gold_sql), ("alt", q.alt_sql)):
            if sql is None:
                continue
            try:
                sql_facts.parse(sql)
            except sql_facts.SQLParseError as err:
                problems.append(Problem("parses", q.id, f"{which}_sql {err}"))
    return problems


def check_gold_tables(questions: Iterable[Question]) -> list[Problem]:
    problems = []
    for q in questions:
        if parsable(q.gold_sql):
            mismatch = table_mismatch(sql_facts.tables_read(q.gold_sql), set(q.gold_tables))
            if mismatch:
                problems.append(Problem("gold-tables", q.id, mismatch))
    return problems


def check_volatile(questions: Iterable[Question]) -> list[Problem]:
    problems = []
    for q in questions:
        for which, sql in (("gold", q.gold_sql), ("alt", q.alt_sql)):
            if parsable(sql):
                for name in sql_facts.volatile_functions(sql):
                    problems.append(Problem("volatile", q.id, f"{which}_sql calls {name}"))
    return problems


def check_literals(questions: Iterable[Question], vocabulary: "Vocabulary | None" = None) -> list[Problem]:
    from heron_pipeline.questions.vocabulary import literal_problem, load_vocabulary

    vocabulary = vocabulary or load_vocabulary()
    problems = []
    for q in questions:
        if not parsable(q.gold_sql):
            continue
        seen = set()
        for literal in sql_facts.literals(q.gold_sql):
            reason = literal_problem(literal, q.question, vocabulary)
            if reason and reason not in seen:
                seen.add(reason)
                problems.append(Problem("literals", q.id, reason))
    return problems


def check_duplicates(questions: Iterable[Question]) -> list[Problem]:
    problems = []
    by_text: dict[str, str] = {}
    by_sql: dict[str, str] = {}
    for q in questions:
        text = normalised_text(q.question)
        if text in by_text:
            problems.append(Problem("duplicates", q.id, f"same question text as {by_text[text]}"))
        by_text.setdefault(text, q.id)
        sql = sql_facts.normalized_sql(q.gold_sql)
        if sql in by_sql:
            problems.append(Problem("duplicates", q.id, f"same gold SQL as {by_sql[sql]}"))
        by_sql.setdefault(sql, q.id)
    return problems


def check_natural(questions: Iterable[Question]) -> list[Problem]:
    """Every question has a `natural` text that obeys the natural rules (issue 12): at most 25 words, no
    snake_case or schema-qualified identifier, no SQL keyword or phrase (``questions.natural_rules``)."""
    from heron_pipeline.questions.natural_rules import natural_problems

    problems = []
    for q in questions:
        if not q.natural:
            problems.append(Problem("natural", q.id, "no natural text: add `natural:` (questions/README.md)"))
            continue
        problems += [Problem("natural", q.id, f"natural text breaks the {p.rule} rule: {p.detail}") for p in natural_problems(q.natural)]
    return problems


# -- state: per question, on one state -----------------------------------------------------------------


def check_executes(questions: Iterable[Question], runs: Mapping[str, "QuestionRun"], state: str) -> list[Problem]:
    problems = []
    for q in questions:
        run = runs.get(q.id)
        if run is None:
            problems.append(Problem("executes", q.id, f"{state}: not run"))
            continue
        if not run.gold.ok:
            problems.append(Problem("executes", q.id, f"{state}: gold fails: {run.gold.error}"))
        if run.alt is not None and not run.alt.ok:
            problems.append(Problem("executes", q.id, f"{state}: alt fails: {run.alt.error}"))
    return problems


def check_non_empty(questions: Iterable[Question], runs: Mapping[str, "QuestionRun"], state: str) -> list[Problem]:
    problems = []
    for q, run in runs_of(questions, runs):
        if not run.gold.ok:
            continue
        rows = len(run.gold.result.rows)
        if q.empty_probe and rows:
            problems.append(Problem("non-empty", q.id, f"{state}: empty probe returns {rows} row(s)"))
        if not q.empty_probe and not rows:
            problems.append(Problem("non-empty", q.id, f"{state}: gold is empty (not an empty probe)"))
    return problems


def check_alt_agrees(questions: Iterable[Question], runs: Mapping[str, "QuestionRun"], state: str) -> list[Problem]:
    problems = []
    for q, run in runs_of(questions, runs):
        if not run.gold.ok or run.alt is None or not run.alt.ok:
            continue
        if not _compare(q.gold_sql, run.gold.result.rows, run.alt.result.rows):
            problems.append(Problem("alt-agrees", q.id, f"{state}: alt returns {len(run.alt.result.rows)} row(s) that "
                                                        f"differ from the gold's {len(run.gold.result.rows)}"))
    return problems


def check_repeatable(questions: Iterable[Question], runs: Mapping[str, "QuestionRun"], state: str) -> list[Problem]:
    problems = []
    for q, run in runs_of(questions, runs):
        if not run.gold.ok or run.gold_repeat is None:
            continue
        if not run.gold_repeat.ok:
            problems.append(Problem("repeatable", q.id, f"{state}: second gold run fails: {run.gold_repeat.error}"))
            continue
        same_columns = run.gold.result.columns == run.gold_repeat.result.columns
        if not (same_columns and _compare(q.gold_sql, run.gold.result.rows, run.gold_repeat.result.rows)):
            problems.append(Problem("repeatable", q.id, f"{state}: two runs of the gold return different answers"))
    return problems


def _keys(row: tuple, columns: tuple[int, ...]) -> tuple:
    return tuple(row[i] for i in columns)


def _ties_of(q: Question, run: "QuestionRun", state: str) -> list[Problem]:
    """One question's tie findings on one state (see ``check_ties``)."""
    if not parsable(q.gold_sql):
        return []
    if sql_facts.limit_of(q.gold_sql) is not None and not sql_facts.order_of(q.gold_sql).ordered:
        return [Problem("ties", q.id, f"{state}: LIMIT without an outermost ORDER BY returns arbitrary rows")]
    probe = run.probe
    if probe is None:  # an unordered gold (or a run made without the audit's extra queries)
        return []
    if probe.error:
        return [Problem("ties", q.id, f"{state}: tie probe failed: {probe.error}")]
    spec = sql_facts.order_of(q.gold_sql)
    returned = probe.rows[:probe.limit] if probe.limit is not None else probe.rows
    problems = []
    if probe.unavailable:
        if len(returned) > 1:
            problems.append(Problem("ties", q.id, f"{state}: {probe.unavailable}; ties cannot be checked"))
        return problems
    if spec.positional:
        counts = Counter(_keys(r, probe.key_columns) for r in returned)
        tied = sum(n for n in counts.values() if n > 1)
        if tied:
            problems.append(Problem("ties", q.id, f"{state}: {tied} returned rows tie on the ORDER BY keys, and a "
                                                   f"sort key is not an output column"))
    if probe.limit is not None and probe.limit >= 1 and len(probe.rows) > probe.limit:
        if _keys(probe.rows[probe.limit - 1], probe.key_columns) == _keys(probe.rows[probe.limit], probe.key_columns):
            problems.append(Problem("ties", q.id, f"{state}: LIMIT {probe.limit} cuts through rows tied on the "
                                                   f"ORDER BY keys"))
    return problems


def check_ties(questions: Iterable[Question], runs: Mapping[str, "QuestionRun"], state: str) -> list[Problem]:
    """Ties among the returned rows need every sort key to be an output column; a LIMIT must not
    end inside a group of tied rows (the probe fetched limit + 1 rows to see the next one), and a
    LIMIT without an outermost ORDER BY picks arbitrary rows."""
    return [p for q, run in runs_of(questions, runs) if run.gold.ok for p in _ties_of(q, run, state)]


def check_latency(questions: Iterable[Question], runs: Mapping[str, "QuestionRun"], state: str) -> list[Problem]:
    """The latency budget of the state: every gold that ran, each and their median (``questions`` is
    unused: the budget is about the runs, whichever questions they answer)."""
    times = {qid: run.latency_seconds * 1000 for qid, run in runs.items() if run.gold.ok}
    problems = [Problem("latency", qid, f"{state}: gold takes {ms:.0f} ms (limit {MAX_LATENCY_MS:.0f} ms)")
                for qid, ms in sorted(times.items()) if ms > MAX_LATENCY_MS]
    if times and statistics.median(times.values()) > MEDIAN_LATENCY_MS:
        problems.append(Problem("latency", None, f"{state}: median gold latency {statistics.median(times.values()):.0f} ms "
                                                 f"> {MEDIAN_LATENCY_MS:.0f} ms"))
    return problems


# -- cross-seed: across the states ----------------------------------------------------------------------


def check_shape_stable(questions: Iterable[Question], states: States) -> list[Problem]:
    problems = []
    for q in questions:
        shapes = {}
        for state, runs in states.items():
            run = runs.get(q.id)
            if run is not None and run.gold.ok:
                shapes[state] = tuple(c.type for c in run.gold.result.columns)
        if len(set(shapes.values())) > 1:
            detail = "; ".join(f"{s}: {len(t)} cols ({', '.join(t)})" for s, t in shapes.items())
            problems.append(Problem("shape-stable", q.id, f"result shape differs across states: {detail}"))
    return problems


def constant_answers(questions: Iterable[Question], states: States) -> tuple[list[str], int]:
    """Non-probe questions whose gold is the same answer on every audited state, and how many
    non-probe questions could be judged (gold ran on at least two states)."""
    constant, judged = [], 0
    for q in questions:
        if q.empty_probe:
            continue
        results = [runs[q.id].gold.result for runs in states.values() if q.id in runs and runs[q.id].gold.ok]
        if len(results) < 2:
            continue
        judged += 1
        if all(a.columns == b.columns and _compare(q.gold_sql, a.rows, b.rows) for a, b in combinations(results, 2)):
            constant.append(q.id)
    return constant, judged


def check_varies(questions: Iterable[Question], states: States) -> list[Problem]:
    constant, judged = constant_answers(questions, states)
    if not judged:
        return []
    share = 1 - len(constant) / judged
    if share >= MIN_VARYING_SHARE:
        return []
    return [Problem("varies", None, f"only {share:.0%} of non-probe golds differ across seeds (need "
                                    f"{MIN_VARYING_SHARE:.0%}); same on every seed: {', '.join(constant)}")]


# -- static: the set as a whole --------------------------------------------------------------------------


def uses_window_or_cte(sql: str) -> bool:
    tree = sql_facts.parse(sql)
    return tree.find(exp.Window) is not None or tree.find(exp.CTE) is not None


@dataclass
class Balance:
    """Counts the balance rule judges, kept for the report."""

    shape_by_retrieval: dict[tuple[str, str], int] = field(default_factory=dict)
    shapes: dict[str, int] = field(default_factory=dict)
    retrievals: dict[str, int] = field(default_factory=dict)
    traps: dict[str, int] = field(default_factory=dict)
    window_or_cte: int = 0
    three_domains: int = 0
    probes: int = 0


def balance_of(questions: Iterable[Question]) -> Balance:
    questions = list(questions)
    b = Balance()
    b.shapes = {s.value: sum(q.shape is s for q in questions) for s in Shape}
    b.retrievals = {r.value: sum(q.retrieval is r for q in questions) for r in Retrieval}
    b.traps = {t.value: sum(t in q.traps for q in questions) for t in Trap}
    b.shape_by_retrieval = {(s.value, r.value): sum(q.shape is s and q.retrieval is r for q in questions)
                            for s in Shape for r in Retrieval}
    b.window_or_cte = sum(q.shape is Shape.ANALYTICAL and parsable(q.gold_sql) and uses_window_or_cte(q.gold_sql)
                          for q in questions)
    b.three_domains = sum(parsable(q.gold_sql) and len(sql_facts.schemas_read(q.gold_sql)) >= 3 for q in questions)
    b.probes = sum(q.empty_probe for q in questions)
    return b


def check_balance(questions: Iterable[Question]) -> list[Problem]:
    b = balance_of(questions)
    problems = [Problem("balance", None, f"shape {s}: {n} questions (need {MIN_PER_SHAPE})")
                for s, n in b.shapes.items() if n < MIN_PER_SHAPE]
    problems += [Problem("balance", None, f"retrieval {r}: {n} questions (need {MIN_PER_RETRIEVAL})")
                 for r, n in b.retrievals.items() if n < MIN_PER_RETRIEVAL]
    problems += [Problem("balance", None, f"trap {t}: {n} questions (need {MIN_PER_TRAP})")
                 for t, n in b.traps.items() if n < MIN_PER_TRAP]
    if b.window_or_cte < MIN_WINDOW_OR_CTE:
        problems.append(Problem("balance", None, f"{b.window_or_cte} analytical questions use a window function or "
                                                 f"CTE (need {MIN_WINDOW_OR_CTE})"))
    if b.three_domains < MIN_THREE_DOMAINS:
        problems.append(Problem("balance", None, f"{b.three_domains} questions span three or more domains "
                                                 f"(need {MIN_THREE_DOMAINS})"))
    if not PROBES[0] <= b.probes <= PROBES[1]:
        problems.append(Problem("balance", None, f"{b.probes} empty probes (need {PROBES[0]}–{PROBES[1]})"))
    return problems


# -- trap: tags proved by mutants --------------------------------------------------------------------------


def check_trap_live(questions: Iterable[Question], proofs: Proofs) -> list[Problem]:
    """A trap tag is a claim that mishandling the trap changes the answer; every tag needs a proof.
    A question without proofs (its gold failed on a state) is left to the ``executes`` rule."""
    problems = []
    for q in questions:
        if q.id not in proofs:
            continue
        by_trap = {proof.trap: proof for proof in proofs[q.id]}
        for trap in q.traps:
            proof = by_trap.get(trap.value)
            if proof is None:
                problems.append(Problem("trap-live", q.id, f"trap {trap.value} cannot bite: no proof was run for it"))
            elif not proof.live:
                problems.append(Problem("trap-live", q.id, f"trap {trap.value} cannot bite: {proof.reason()}"))
    return problems


def trap_liveness(questions: Iterable[Question], proofs: Proofs) -> dict[str, dict[str, int]]:
    """Per trap tag: how many questions carry it (``tagged``) and on how many it is proved live
    (``live``). Every tag of the vocabulary appears, in declared order; a tagged question without a
    proof counts as not live. Pure: the leaderboard's per-trap breakdown shows the same numbers."""
    questions = list(questions)
    live = {(p.question_id, p.trap) for ps in proofs.values() for p in ps if p.live}
    return {t.value: {"tagged": sum(t in q.traps for q in questions),
                      "live": sum(t in q.traps and (q.id, t.value) in live for q in questions)} for t in Trap}


# -- the table ---------------------------------------------------------------------------------------------


class Scope(StrEnum):
    """What a rule reads, and so how ``judge`` calls it (see the module docstring)."""

    STATIC = "static"
    STATE = "state"
    CROSS_SEED = "cross-seed"
    TRAP = "trap"


def scale_list(scales: Iterable[str]) -> str:
    """Scales in their own order (tiny, small, bench, large), comma-separated."""
    return ", ".join(s for s in SCALES if s in set(scales))


@dataclass(frozen=True)
class Rule:
    """One audit rule, declared once: everything the loop, the report and the Dagster checks need."""

    name: str
    scope: Scope
    check: Callable[..., list[Problem]]
    description: str
    blocking: bool = True  # a failure fails the audit (False: reported as a warning)
    scales: frozenset[str] | None = None  # judged only at these scales (None: at every scale)

    @property
    def check_name(self) -> str:
        """The rule's name as a Dagster asset check name (``trap-live`` → ``trap_live``)."""
        return self.name.replace("-", "_")

    @property
    def summary(self) -> str:
        """The description with where the rule is judged, for a check's description and the report."""
        where = f" (judged at {scale_list(self.scales)})" if self.scales is not None else ""
        return f"{self.description}{where}" + ("" if self.blocking else " — a warning, never a block")

    def not_judged_reason(self, evidence: Evidence) -> str | None:
        """Why the rule cannot be judged on ``evidence``, or None when it can."""
        if self.scales is not None and evidence.scale not in self.scales:
            return f"judged at {scale_list(self.scales)} only; this audit is at {evidence.scale}"
        states = len(evidence.states)
        if self.scope is Scope.STATE and not states:
            return "no state was run"
        if self.scope is Scope.CROSS_SEED and states < 2:
            labels = f" ({', '.join(evidence.states)})" if states else ""
            return f"needs at least two seeds; {states} state{'s' if states != 1 else ''} audited{labels}"
        if self.scope is Scope.TRAP and evidence.prove is None:
            return "no trap proofs: the mutants run on the audited states, and this audit was given no server"
        return None

    def apply(self, questions: list[Question], evidence: Evidence) -> list[Problem]:
        """The rule's problems on ``evidence`` (call only when ``not_judged_reason`` is None)."""
        if self.scope is Scope.STATIC:
            return self.check(questions)
        if self.scope is Scope.STATE:
            return [p for state, runs in evidence.states.items() for p in self.check(questions, runs, state)]
        if self.scope is Scope.CROSS_SEED:
            return self.check(questions, evidence.states)
        return self.check(questions, evidence.proofs)


#: Every audit rule, in report order. Adding a rule is one line here (and its function above): the
#: bench core, ``heron audit``, ``heron verify`` and the Dagster asset checks all derive from this table.
RULES: tuple[Rule, ...] = (
    Rule("question-file", Scope.STATIC, check_alt_present,
         "alt_sql is present (it may be missing at load time, never at release)"),
    Rule("parses", Scope.STATIC, check_parses, "gold and alt parse as one PostgreSQL statement"),
    Rule("gold-tables", Scope.STATIC, check_gold_tables, "gold_tables equals the tables gold_sql reads (CTE names excluded)"),
    Rule("volatile", Scope.STATIC, check_volatile, "no now()/current_date/random()/... in gold or alt"),
    Rule("literals", Scope.STATIC, check_literals, "every literal of the gold is allowed by the vocabulary"),
    Rule("duplicates", Scope.STATIC, check_duplicates,
         "no two questions with the same normalised text or the same normalised gold"),
    Rule("natural", Scope.STATIC, check_natural, "a natural text of at most 25 words, no schema identifier, no SQL syntax"),
    Rule("executes", Scope.STATE, check_executes, "every gold and alt query runs without error on every state"),
    Rule("non-empty", Scope.STATE, check_non_empty,
         "non-empty on every state, except empty probes, which are empty on every state"),
    Rule("alt-agrees", Scope.STATE, check_alt_agrees, "the alt SQL returns the gold's answer on every state"),
    Rule("repeatable", Scope.STATE, check_repeatable, "two runs of the gold return the same answer"),
    Rule("ties", Scope.STATE, check_ties,
         "tied rows only where every sort key is an output column; no LIMIT cuts a tie or picks unordered rows"),
    Rule("latency", Scope.STATE, check_latency,
         f"median gold latency <= {MEDIAN_LATENCY_MS:.0f} ms and every gold <= {MAX_LATENCY_MS / 1000:.0f} s",
         scales=LATENCY_SCALES),
    Rule("shape-stable", Scope.CROSS_SEED, check_shape_stable, "column count and types identical across states"),
    Rule("varies", Scope.CROSS_SEED, check_varies,
         f">= {MIN_VARYING_SHARE:.0%} of non-probe golds differ between at least two seeds"),
    Rule("balance", Scope.STATIC, check_balance,
         "the mix of shapes, retrieval levels, traps, analytics, domains and probes"),
    Rule("trap-live", Scope.TRAP, check_trap_live,
         "every trap tag is proved: a mutant removing that trap's handling, not equivalent by contract, "
         "changes the answer on some audited state", scales=TRAP_LIVE_SCALES),
)
RULE_NAMES = tuple(rule.name for rule in RULES)


def rules_in(*scopes: Scope) -> tuple[Rule, ...]:
    """The rules of the given scopes, in table order."""
    return tuple(rule for rule in RULES if rule.scope in scopes)


def judge(questions: Iterable[Question], evidence: Evidence, rules: Iterable[Rule] = RULES) -> dict[str, Outcome]:
    """The one loop: every rule of ``rules`` judged on ``evidence``; rule name -> passed, failed
    (with its problems) or not judged (with the reason), in table order."""
    questions = list(questions)
    outcomes = {}
    for rule in rules:
        reason = rule.not_judged_reason(evidence)
        outcomes[rule.name] = (Outcome(rule.name, NOT_JUDGED, reason=reason) if reason is not None
                               else outcome_of(rule.name, rule.apply(questions, evidence)))
    return outcomes


def blocking_failures(outcomes: Mapping[str, Outcome], rules: Iterable[Rule] = RULES) -> list[str]:
    """The rules that failed and block: a verdict passes exactly when this is empty."""
    blocking = {rule.name for rule in rules if rule.blocking}
    return [name for name, outcome in outcomes.items() if outcome.failed and name in blocking]


# -- the report ----------------------------------------------------------------------------------------------


@dataclass
class AuditReport:
    """Every rule's outcome over one scale's states, with the counts the report prints."""

    scale: str
    outcomes: dict[str, Outcome]
    balance: Balance
    constant: list[str]
    judged: int
    latency_ms: dict[str, dict[str, float]]  # state -> {"median_ms", "max_ms", "total_ms"}
    questions: int
    #: trap tag -> {"tagged", "live"}; None when no trap proofs were made
    liveness: dict[str, dict[str, int]] | None = None

    @property
    def problems(self) -> list[Problem]:
        return [p for outcome in self.outcomes.values() for p in outcome.problems]

    @property
    def ok(self) -> bool:
        return not blocking_failures(self.outcomes)

    def by_rule(self) -> dict[str, int]:
        """Problems per rule, every rule of the table listed."""
        return {name: len(self.outcomes[name].problems) if name in self.outcomes else 0 for name in RULE_NAMES}

    @property
    def not_judged(self) -> dict[str, str]:
        """Rule name -> why it was not judged."""
        return {name: o.reason or "" for name, o in self.outcomes.items() if not o.judged}

    @property
    def traps_judged(self) -> bool:
        outcome = self.outcomes.get("trap-live")
        return outcome is not None and outcome.judged

    @property
    def varying_share(self) -> float:
        return 1 - len(self.constant) / self.judged if self.judged else 0.0


def audit_report(questions: list[Question], evidence: Evidence, outcomes: dict[str, Outcome],
                 latency_ms: dict[str, dict[str, float]], *, liveness: bool = False) -> AuditReport:
    """The report of ``outcomes`` (from ``judge``): balance counts, the answers that never change,
    and per-trap liveness where ``trap-live`` was judged — or, with ``liveness``, wherever proofs
    can be made (reported, not judged)."""
    constant, judged = constant_answers(questions, evidence.states) if len(evidence.states) >= 2 else ([], 0)
    traps = outcomes.get("trap-live")
    shown = evidence.prove is not None and (liveness or (traps is not None and traps.judged))
    return AuditReport(scale=evidence.scale, outcomes=outcomes, balance=balance_of(questions), constant=constant,
                       judged=judged, latency_ms=latency_ms, questions=len(questions),
                       liveness=trap_liveness(questions, evidence.proofs) if shown else None)


def run_audit(questions: list[Question], states: States, *, scale: str, trap_proofs: Proofs | None = None,
              rules: Iterable[Rule] = RULES) -> AuditReport:
    """Every rule of ``rules`` over questions and their in-memory runs on the audited states of one
    scale (``trap_proofs``: ``mutants.liveness.prove_questions`` on the same states; their liveness
    is reported even where ``trap-live`` is not judged)."""
    from heron_pipeline.questions.gold import latency_summary

    evidence = Evidence(scale, states, (lambda: trap_proofs) if trap_proofs is not None else None)
    return audit_report(questions, evidence, judge(questions, evidence, rules),
                        {s: latency_summary(r) for s, r in states.items()}, liveness=trap_proofs is not None)


def format_liveness(liveness: Mapping[str, Mapping[str, int]] | None, judged: bool = True) -> str:
    """``trap liveness: tenant-isolation 27/27 live, …`` (tags in use only), or that it was not run."""
    if liveness is None:
        return "trap liveness: not run (no trap proofs)"
    used = [f"{tag} {n['live']}/{n['tagged']} live" for tag, n in liveness.items() if n["tagged"]]
    note = "" if judged else f" (reported, not judged: trap-live is judged at {scale_list(TRAP_LIVE_SCALES)})"
    return "trap liveness: " + (", ".join(used) if used else "no trap tags") + note


def format_outcome(outcome: Outcome) -> str:
    """``passed`` · ``FAILED (3 problems)`` · ``not judged: <reason>``."""
    if outcome.failed:
        return f"FAILED ({len(outcome.problems)} problem{'s' if len(outcome.problems) != 1 else ''})"
    return outcome.status if outcome.judged else f"not judged: {outcome.reason}"


def format_report(report: AuditReport, questions: list[Question] | None = None) -> str:
    """Plain-text report: every rule's outcome, then every problem grouped by question file."""
    source = {q.id: q.source for q in questions or []}
    unjudged = len(report.not_judged)
    lines = [f"audit of {report.questions} questions at scale {report.scale}: "
             + ("PASS" if report.ok else f"FAIL ({len(report.problems)} problems)")
             + (f"; {unjudged} rule{'s' if unjudged != 1 else ''} not judged" if unjudged else "")]
    lines += [f"  {name:<14} {format_outcome(outcome)}" for name, outcome in report.outcomes.items()]
    if report.judged:
        lines.append(f"answers differing across seeds: {report.varying_share:.0%} of {report.judged}"
                     + (f" (same on every seed: {', '.join(report.constant)})" if report.constant else ""))
    for state, t in report.latency_ms.items():
        lines.append(f"latency {state}: median {t['median_ms']} ms, max {t['max_ms']} ms, total {t['total_ms']} ms")
    lines.append(format_liveness(report.liveness, report.traps_judged))
    for p in sorted(report.problems, key=lambda p: (source.get(p.question_id or "", ""), p.question_id or "", p.rule)):
        where = f"{source.get(p.question_id, '')} {p.question_id}".strip() if p.question_id else "(set)"
        lines.append(f"[{p.rule}] {where}: {p.message}")
    return "\n".join(lines)


# -- the training set (questions/train/) --------------------------------------------------------------

#: The rules of ``check_training_set``, kept apart from ``RULES``: the training set is not evaluated,
#: so its findings are reported beside the evaluation audit, not counted in it.
TRAINING_RULES = ("train-parses", "train-tables", "train-disjoint", "train-executes", "train-non-empty")


def check_training_static(pairs: Iterable["TrainingPair"], questions: Iterable[Question]) -> list[Problem]:
    """The training rules that need no database: each SQL parses, declares exactly the tables it
    reads, and shares neither its question text nor its normalised SQL (``sql_facts.normalized_sql``:
    sqlglot parse and canonical generation) with any evaluation question's text, gold or alt."""
    questions = list(questions)
    texts = {normalised_text(q.question): q.id for q in questions}
    sqls: dict[str, str] = {}
    for q in questions:
        for which, sql in (("gold", q.gold_sql), ("alt", q.alt_sql)):
            if sql:
                sqls.setdefault(sql_facts.normalized_sql(sql), f"{q.id} {which}_sql")
    problems = []
    for pair in pairs:
        try:
            sql_facts.parse(pair.sql)
        except sql_facts.SQLParseError as err:
            problems.append(Problem("train-parses", pair.id, f"sql {err}"))
            continue
        mismatch = table_mismatch(sql_facts.tables_read(pair.sql), set(pair.tables))
        if mismatch:
            problems.append(Problem("train-tables", pair.id, mismatch))
        text = normalised_text(pair.question)
        if text in texts:
            problems.append(Problem("train-disjoint", pair.id, f"same question text as evaluation question {texts[text]}"))
        sql = sql_facts.normalized_sql(pair.sql)
        if sql in sqls:
            problems.append(Problem("train-disjoint", pair.id, f"same SQL as {sqls[sql]}"))
    return problems


def check_training_runs(pairs: Iterable["TrainingPair"], states: Mapping[str, Mapping[str, "Execution"]]) -> list[Problem]:
    """Each pair's SQL runs without error and returns at least one row on every state given
    (state label → pair id → ``gold.Execution``, from ``train.run_training_pairs``): an example that
    fails or answers nothing teaches a retrieval-augmented tool nothing."""
    problems = []
    for pair in pairs:
        for state, runs in states.items():
            run = runs.get(pair.id)
            if run is None:
                problems.append(Problem("train-executes", pair.id, f"{state}: not run"))
            elif not run.ok:
                problems.append(Problem("train-executes", pair.id, f"{state}: fails: {run.error}"))
            elif not run.result.rows:
                problems.append(Problem("train-non-empty", pair.id, f"{state}: returns no rows"))
    return problems


def check_training_set(pairs: Iterable["TrainingPair"], questions: Iterable[Question],
                       states: Mapping[str, Mapping[str, "Execution"]]) -> list[Problem]:
    """Every training rule (``TRAINING_RULES``) over the pairs, the evaluation questions and the
    pairs' runs on the audited states."""
    pairs = list(pairs)
    return check_training_static(pairs, questions) + check_training_runs(pairs, states)


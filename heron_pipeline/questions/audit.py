"""The audit: every rule a program can check about the questions, as small pure functions.

Each rule takes loaded questions and, where it needs them, per-state runs (``gold.QuestionRun``)
and returns ``Problem`` records; ``run_audit`` gathers them all. Nothing here connects to a
database: ``gold.run_state`` produced the runs, so a test can feed a rule a hand-made run and a
Dagster asset check can call the same function the CLI calls.

The rules (names as reported):

==================  ===========================================================================
question-file       alt_sql is present (it may be missing at load time, never at release)
parses              gold and alt parse as one PostgreSQL statement
gold-tables         gold_tables equals the tables gold_sql reads (CTE names excluded)
volatile            no now()/current_date/random()/... in gold or alt
literals            every literal of the gold is allowed by ``vocabulary.literal_problem``
duplicates          no two questions with the same normalised text or the same normalised gold
natural             a natural text of at most 25 words, no schema identifier, no SQL syntax
executes            gold and alt run without error on every state
non-empty           non-empty on every state, except empty probes, which are empty on every state
alt-agrees          alt returns the gold's answer on every state (``scoring.compare``)
repeatable          two runs of the gold return the same answer
ties                tied rows only where every sort key is an output column; no LIMIT cuts a tie
latency             on the latency scales, median gold latency <= 100 ms and every gold <= 2 s
shape-stable        column count and types identical across states
varies              >= 90 % of non-probe golds differ between at least two seeds
balance             the mix of shapes, retrieval levels, traps, analytics, domains and probes
trap-live           every trap tag is proved: a mutant removing that trap's handling, not
                    equivalent by contract, changes the answer on some state
                    (``mutants.liveness``; the audit runs it on the same states as the golds);
                    judged from the evaluation scale up, reported at tiny
==================  ===========================================================================

The training set of ``questions/train/`` (examples for retrieval-augmented tools, never evaluated)
has rules of its own, ``TRAINING_RULES``, checked by ``check_training_set``: its SQL parses and
declares its tables, executes and is non-empty on every state, and no pair shares its question text
or its normalised SQL with an evaluation question.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Iterable, Mapping

from sqlglot import exp

from heron_pipeline.mutants.liveness import TrapProof
from heron_pipeline.questions import sql_facts
from heron_pipeline.questions.gold import Execution, QuestionRun
from heron_pipeline.questions.model import Question, Retrieval, Shape, Trap
from heron_pipeline.questions.vocabulary import Vocabulary, literal_problem, load_vocabulary
from heron_pipeline.scoring import compare

if TYPE_CHECKING:
    from heron_pipeline.questions.train import TrainingPair

RULES = ("question-file", "parses", "gold-tables", "volatile", "literals", "duplicates", "natural", "executes",
         "non-empty", "alt-agrees", "repeatable", "ties", "latency", "shape-stable", "varies", "balance", "trap-live")

MEDIAN_LATENCY_MS, MAX_LATENCY_MS = 100.0, 2000.0
LATENCY_SCALES = frozenset({"tiny", "small"})
#: Scales on which a tag that cannot bite fails the audit: the evaluation scale (small) and up. Tiny
#: states are too thin for some traps (a wrong time zone moves the first hours of a month, and tiny
#: has few rows there; a few tables have no deleted row in a question's slice), so at tiny the
#: liveness is printed, not judged — tags claim what the scored states show.
TRAP_LIVE_SCALES = frozenset({"small", "bench", "large"})
MIN_VARYING_SHARE = 0.90
MIN_PER_SHAPE, MIN_PER_RETRIEVAL, MIN_PER_TRAP = 20, 15, 5
MIN_WINDOW_OR_CTE, MIN_THREE_DOMAINS, PROBES = 10, 10, (2, 4)

States = Mapping[str, Mapping[str, QuestionRun]]  # state label ("tiny_42") -> question id -> run


@dataclass(frozen=True)
class Problem:
    """One finding that fails the audit."""

    rule: str
    question_id: str | None
    message: str


# -- per question, no database ----------------------------------------------------------------------


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


def _parsable(sql: str | None) -> bool:
    if sql is None:
        return False
    try:
        sql_facts.parse(sql)
    except sql_facts.SQLParseError:
        return False
    return True


def check_gold_tables(questions: Iterable[Question]) -> list[Problem]:
    problems = []
    for q in questions:
        if not _parsable(q.gold_sql):
            continue
        read = sql_facts.tables_read(q.gold_sql)
        declared = set(q.gold_tables)
        if read != declared:
            parts = []
            if read - declared:
                parts.append(f"read but not declared: {', '.join(sorted(read - declared))}")
            if declared - read:
                parts.append(f"declared but not read: {', '.join(sorted(declared - read))}")
            problems.append(Problem("gold-tables", q.id, "; ".join(parts)))
    return problems


def check_volatile(questions: Iterable[Question]) -> list[Problem]:
    problems = []
    for q in questions:
        for which, sql in (("gold", q.gold_sql), ("alt", q.alt_sql)):
            if _parsable(sql):
                for name in sql_facts.volatile_functions(sql):
                    problems.append(Problem("volatile", q.id, f"{which}_sql calls {name}"))
    return problems


def check_literals(questions: Iterable[Question], vocabulary: Vocabulary | None = None) -> list[Problem]:
    vocabulary = vocabulary or load_vocabulary()
    problems = []
    for q in questions:
        if not _parsable(q.gold_sql):
            continue
        seen = set()
        for literal in sql_facts.literals(q.gold_sql):
            reason = literal_problem(literal, q.question, vocabulary)
            if reason and reason not in seen:
                seen.add(reason)
                problems.append(Problem("literals", q.id, reason))
    return problems


def _normalised_text(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def check_duplicates(questions: Iterable[Question]) -> list[Problem]:
    problems = []
    by_text: dict[str, str] = {}
    by_sql: dict[str, str] = {}
    for q in questions:
        text = _normalised_text(q.question)
        if text in by_text:
            problems.append(Problem("duplicates", q.id, f"same question text as {by_text[text]}"))
        by_text.setdefault(text, q.id)
        sql = sql_facts.normalized_sql(q.gold_sql)
        if sql in by_sql:
            problems.append(Problem("duplicates", q.id, f"same gold SQL as {by_sql[sql]}"))
        by_sql.setdefault(sql, q.id)
    return problems


def check_limit_needs_order(questions: Iterable[Question]) -> list[Problem]:
    return [Problem("ties", q.id, "LIMIT without an outermost ORDER BY returns arbitrary rows")
            for q in questions if _parsable(q.gold_sql)
            and sql_facts.limit_of(q.gold_sql) is not None and not sql_facts.order_of(q.gold_sql).ordered]


# -- per question, one state -------------------------------------------------------------------------


def check_executes(q: Question, run: QuestionRun, state: str) -> list[Problem]:
    problems = []
    if not run.gold.ok:
        problems.append(Problem("executes", q.id, f"{state}: gold fails: {run.gold.error}"))
    if run.alt is not None and not run.alt.ok:
        problems.append(Problem("executes", q.id, f"{state}: alt fails: {run.alt.error}"))
    return problems


def check_non_empty(q: Question, run: QuestionRun, state: str) -> list[Problem]:
    if not run.gold.ok:
        return []
    rows = len(run.gold.result.rows)
    if q.empty_probe and rows:
        return [Problem("non-empty", q.id, f"{state}: empty probe returns {rows} row(s)")]
    if not q.empty_probe and not rows:
        return [Problem("non-empty", q.id, f"{state}: gold is empty (not an empty probe)")]
    return []


def check_alt_agrees(q: Question, run: QuestionRun, state: str) -> list[Problem]:
    if not run.gold.ok or run.alt is None or not run.alt.ok:
        return []
    if compare(q.gold_sql, run.gold.result.rows, run.alt.result.rows):
        return []
    return [Problem("alt-agrees", q.id, f"{state}: alt returns {len(run.alt.result.rows)} row(s) that differ from "
                                         f"the gold's {len(run.gold.result.rows)}")]


def check_repeatable(q: Question, run: QuestionRun, state: str) -> list[Problem]:
    if not run.gold.ok or run.gold_repeat is None:
        return []
    if not run.gold_repeat.ok:
        return [Problem("repeatable", q.id, f"{state}: second gold run fails: {run.gold_repeat.error}")]
    same_columns = run.gold.result.columns == run.gold_repeat.result.columns
    if same_columns and compare(q.gold_sql, run.gold.result.rows, run.gold_repeat.result.rows):
        return []
    return [Problem("repeatable", q.id, f"{state}: two runs of the gold return different answers")]


def _keys(row: tuple, columns: tuple[int, ...]) -> tuple:
    return tuple(row[i] for i in columns)


def check_ties(q: Question, run: QuestionRun, state: str) -> list[Problem]:
    """Ties among the returned rows need every sort key to be an output column; a LIMIT must not
    end inside a group of tied rows (the probe fetched limit + 1 rows to see the next one)."""
    probe = run.probe
    if probe is None or not run.gold.ok:
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


PER_STATE_CHECKS = (check_executes, check_non_empty, check_alt_agrees, check_repeatable, check_ties)


def check_state(questions: Iterable[Question], runs: Mapping[str, QuestionRun], state: str,
                checks=PER_STATE_CHECKS) -> list[Problem]:
    """The per-question rules on one state (what the gold_results asset checks run)."""
    problems = []
    for q in questions:
        run = runs.get(q.id)
        if run is None:
            problems.append(Problem("executes", q.id, f"{state}: not run"))
            continue
        for check in checks:
            problems.extend(check(q, run, state))
    return problems


def check_latency(runs: Mapping[str, QuestionRun], state: str) -> list[Problem]:
    times = {qid: r.latency_seconds * 1000 for qid, r in runs.items() if r.gold.ok}
    problems = [Problem("latency", qid, f"{state}: gold takes {ms:.0f} ms (limit {MAX_LATENCY_MS:.0f} ms)")
                for qid, ms in sorted(times.items()) if ms > MAX_LATENCY_MS]
    if times and statistics.median(times.values()) > MEDIAN_LATENCY_MS:
        problems.append(Problem("latency", None, f"{state}: median gold latency {statistics.median(times.values()):.0f} ms "
                                                 f"> {MEDIAN_LATENCY_MS:.0f} ms"))
    return problems


# -- across states -----------------------------------------------------------------------------------


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
        if all(a.columns == b.columns and compare(q.gold_sql, a.rows, b.rows) for a, b in combinations(results, 2)):
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


# -- the set -----------------------------------------------------------------------------------------


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
    b.window_or_cte = sum(q.shape is Shape.ANALYTICAL and _parsable(q.gold_sql) and uses_window_or_cte(q.gold_sql)
                          for q in questions)
    b.three_domains = sum(_parsable(q.gold_sql) and len(sql_facts.schemas_read(q.gold_sql)) >= 3 for q in questions)
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


# -- the training set (questions/train/) --------------------------------------------------------------

#: The rules of ``check_training_set``, kept apart from ``RULES``: the training set is not evaluated,
#: so its findings are reported beside the evaluation audit, not counted in it.
TRAINING_RULES = ("train-parses", "train-tables", "train-disjoint", "train-executes", "train-non-empty")


def check_training_static(pairs: Iterable["TrainingPair"], questions: Iterable[Question]) -> list[Problem]:
    """The training rules that need no database: each SQL parses, declares exactly the tables it
    reads, and shares neither its question text nor its normalised SQL (``sql_facts.normalized_sql``:
    sqlglot parse and canonical generation) with any evaluation question's text, gold or alt."""
    questions = list(questions)
    texts = {_normalised_text(q.question): q.id for q in questions}
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
        read, declared = sql_facts.tables_read(pair.sql), set(pair.tables)
        if read != declared:
            parts = []
            if read - declared:
                parts.append(f"read but not declared: {', '.join(sorted(read - declared))}")
            if declared - read:
                parts.append(f"declared but not read: {', '.join(sorted(declared - read))}")
            problems.append(Problem("train-tables", pair.id, "; ".join(parts)))
        text = _normalised_text(pair.question)
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

# -- trap tags ---------------------------------------------------------------------------------------

Proofs = Mapping[str, "list[TrapProof]"]  # question id -> one proof per trap tag (mutants.liveness)


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


# -- everything --------------------------------------------------------------------------------------


@dataclass
class AuditReport:
    scale: str
    problems: list[Problem]
    balance: Balance
    constant: list[str]
    judged: int
    latency_ms: dict[str, dict[str, float]]  # state -> {"median_ms", "max_ms", "total_ms"}
    questions: int
    #: trap tag -> {"tagged", "live"}; None when the audit ran without trap proofs (rule not run)
    liveness: dict[str, dict[str, int]] | None = None
    #: whether tags that cannot bite were problems (TRAP_LIVE_SCALES) or only reported
    traps_judged: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def by_rule(self) -> dict[str, int]:
        counts = Counter(p.rule for p in self.problems)
        return {rule: counts.get(rule, 0) for rule in RULES}

    @property
    def varying_share(self) -> float:
        return 1 - len(self.constant) / self.judged if self.judged else 0.0


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


def static_problems(questions: list[Question], *, vocabulary: Vocabulary | None = None) -> list[Problem]:
    """The rules that need no database."""
    return (check_alt_present(questions) + check_parses(questions) + check_gold_tables(questions)
            + check_volatile(questions) + check_literals(questions, vocabulary) + check_duplicates(questions)
            + check_limit_needs_order(questions) + check_natural(questions))


def run_audit(questions: list[Question], states: States, *, scale: str, balance: bool = True,
              vocabulary: Vocabulary | None = None, trap_proofs: Proofs | None = None,
              judge_traps: bool | None = None) -> AuditReport:
    """Every rule over the questions and their runs on the audited states of one scale.

    ``trap_proofs`` (``mutants.liveness.prove_questions`` on the same states) feeds ``trap-live``;
    without it that rule is not run and the report says so (``liveness`` None). Tags that cannot
    bite are problems when ``judge_traps`` (default: the scale is in ``TRAP_LIVE_SCALES``)."""
    from heron_pipeline.questions.gold import latency_summary

    problems = static_problems(questions, vocabulary=vocabulary)
    for state, runs in states.items():
        problems += check_state(questions, runs, state)
        if scale in LATENCY_SCALES:
            problems += check_latency(runs, state)
    problems += check_shape_stable(questions, states)
    problems += check_varies(questions, states)
    if balance:
        problems += check_balance(questions)
    liveness = None
    traps_judged = scale in TRAP_LIVE_SCALES if judge_traps is None else judge_traps
    if trap_proofs is not None:
        if traps_judged:
            problems += check_trap_live(questions, trap_proofs)
        liveness = trap_liveness(questions, trap_proofs)
    constant, judged = constant_answers(questions, states)
    return AuditReport(scale=scale, problems=problems, balance=balance_of(questions), constant=constant,
                       judged=judged, latency_ms={s: latency_summary(r) for s, r in states.items()},
                       questions=len(questions), liveness=liveness, traps_judged=traps_judged and liveness is not None)


def format_liveness(liveness: Mapping[str, Mapping[str, int]] | None, judged: bool = True) -> str:
    """``trap liveness: tenant-isolation 27/27 live, …`` (tags in use only), or that it was not run."""
    if liveness is None:
        return "trap liveness: not run (no trap proofs)"
    used = [f"{tag} {n['live']}/{n['tagged']} live" for tag, n in liveness.items() if n["tagged"]]
    note = "" if judged else f" (reported, not judged: trap-live is judged at {', '.join(sorted(TRAP_LIVE_SCALES))})"
    return "trap liveness: " + (", ".join(used) if used else "no trap tags") + note


def format_report(report: AuditReport, questions: list[Question] | None = None) -> str:
    """Plain-text report: per-rule counts, then every problem grouped by question file."""
    source = {q.id: q.source for q in questions or []}
    lines = [f"audit of {report.questions} questions at scale {report.scale}: "
             + ("PASS" if report.ok else f"FAIL ({len(report.problems)} problems)")]
    lines += [f"  {rule:<14} {n}" for rule, n in report.by_rule().items()]
    lines.append(f"answers differing across seeds: {report.varying_share:.0%} of {report.judged}"
                 + (f" (same on every seed: {', '.join(report.constant)})" if report.constant else ""))
    for state, t in report.latency_ms.items():
        lines.append(f"latency {state}: median {t['median_ms']} ms, max {t['max_ms']} ms, total {t['total_ms']} ms")
    lines.append(format_liveness(report.liveness, report.traps_judged))
    for p in sorted(report.problems, key=lambda p: (source.get(p.question_id or "", ""), p.question_id or "", p.rule)):
        where = f"{source.get(p.question_id, '')} {p.question_id}".strip() if p.question_id else "(set)"
        lines.append(f"[{p.rule}] {where}: {p.message}")
    return "\n".join(lines)

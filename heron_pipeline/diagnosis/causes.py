"""One cause per wrong prediction, decided by a fixed precedence; the diagnosis never changes EX.

A prediction the comparator judged wrong gets exactly one cause, the first of these that applies:

1. **its failure class** — ``no_sql``, the prediction's own provider class, or a sandbox class
   (``rejected``, ``timeout``, ``limit``, ``error``): the score record's ``error_class``;
2. ``schema-linking`` — the predicted SQL does not read every table gold reads (the tables are read
   with ``questions.sql_facts.tables_read``, the same function the audit checks ``gold_tables``
   with, so CTE names are not tables); the missing gold tables and the extra tables are named;
3. ``trap:<tag>`` — the answer equals, on this state, the stored answer of a near-miss mutant of the
   gold whose operator removes that trap's handling (``mutants.answers``: the audit's mutants, none
   set aside as equivalent), by the comparator that decides EX (``scoring.compare``, the mutant's
   rows in gold's place). Every matching mutant is reported; the cause is chosen by a fixed rule:
   mutants removing a trap the question is tagged with first, then the generator's order; the tag
   is the chosen mutant's first trap the question carries, else its first;
4. ``shape`` — the answer has a different number of columns than gold (in both question modes:
   the comparator wants exactly gold's width), or it holds gold's rows and only their order
   differs where gold orders;
5. ``values`` — everything else, with the rows gold has that the answer lacks and the rows the
   answer has that gold lacks (multisets, with the comparator's value rules).

Rows carry no column names, so the number of columns is known only when both results have rows;
an empty side goes straight to ``values``. Columns are paired before rows are counted (each gold
column with the predicted column sharing most of its values), because the comparator lets columns
come in any order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from heron_pipeline.questions.sql_facts import SQLParseError, tables_read
from heron_pipeline.scoring import compare, count_matching_rows, order_spec, values_equal
from heron_pipeline.scoring.comparator import value_key

SCHEMA_LINKING, SHAPE, VALUES = "schema-linking", "shape", "values"
TRAP_PREFIX = "trap:"
#: The causes after a prediction's failure class, in precedence order (``trap:<tag>`` sits between
#: schema-linking and shape: ``cause_rank``).
CAUSE_ORDER = (SCHEMA_LINKING, SHAPE, VALUES)


def cause_rank(cause: str) -> tuple[float, str]:
    """Sort key of a cause: failure classes first (by name), then the causes in precedence order,
    ``trap:<tag>`` between schema-linking and shape."""
    if cause in CAUSE_ORDER:
        return (1 + CAUSE_ORDER.index(cause), cause)
    if cause.startswith(TRAP_PREFIX):
        return (1.5 + CAUSE_ORDER.index(SCHEMA_LINKING), cause)
    return (0, cause)


@dataclass(frozen=True)
class Diagnosis:
    """The one cause of a wrong prediction, and what it is about.

    ``detail`` says it in words (``"2 columns, gold has 3"``, ``"row order"``); the tables are
    sorted; the row counts are set for ``values`` (and for the row-order case of ``shape``, 0 and 0);
    ``trap_mutants`` lists every mutant whose answer the prediction's equals (``trap_label``), the
    chosen one first — set for a ``trap:<tag>`` cause only.
    """

    cause: str
    detail: str | None = None
    missing_tables: tuple[str, ...] = ()
    extra_tables: tuple[str, ...] = ()
    rows_missing: int | None = None
    rows_extra: int | None = None
    trap_mutants: tuple[str, ...] = ()


def trap_label(mutant: Any) -> str:
    """``tenant-isolation: drop the tenant filter in WHERE`` — a stored mutant's traps and description."""
    return f"{','.join(mutant.traps)}: {mutant.description}"


def trap_matches(gold_sql: str, pred_rows: Sequence[tuple], mutant_answers: Iterable[Any],
                 question_traps: Iterable[str] = ()) -> list[Any]:
    """The stored trap mutant answers (``mutants.answers.MutantAnswer``) equal to ``pred_rows`` by the
    comparator that decides EX (the mutant's rows in gold's place, gold's order rule), in the fixed
    order the cause is chosen in: mutants of a trap the question is tagged with first, then the
    generator's order (the stored order)."""
    tagged = set(question_traps)
    found = [m for m in mutant_answers if compare(gold_sql, m.rows, pred_rows)]
    return sorted(found, key=lambda m: not tagged & set(m.traps))  # stable: generator order within


def trap_cause(mutant: Any, question_traps: Iterable[str] = ()) -> str:
    """``trap:<tag>`` of a matching mutant: its first trap the question carries, else its first."""
    tagged = set(question_traps)
    return TRAP_PREFIX + next((t for t in mutant.traps if t in tagged), mutant.traps[0])


@dataclass(frozen=True)
class RowDiff:
    """Gold rows the answer lacks and answer rows gold lacks, as counts and the first few of each.

    ``columns`` is the predicted column paired with each gold column (the answer's rows are
    compared as that projection)."""

    rows_missing: int
    rows_extra: int
    missing: tuple[tuple, ...]
    extra: tuple[tuple, ...]
    columns: tuple[int, ...]


def predicted_tables(sql: str | None) -> set[str] | None:
    """The tables ``sql`` reads (``sql_facts.tables_read``); None when there is no SQL or it does not
    parse as one PostgreSQL statement (then nothing can be said about its tables)."""
    if sql is None:
        return None
    try:
        return tables_read(sql)
    except SQLParseError:
        return None


def table_linking(sql: str | None, gold_tables: Iterable[str], *,
                  ran: bool = True) -> tuple[float | None, float | None]:
    """(recall, precision) in [0, 1] of the tables ``sql`` reads against ``gold_tables``.

    A prediction that did not run (``ran=False``: rejected, timed out, failed) scores (0, 0) whatever
    its text — no score without a right answer. No SQL reads no table: recall 0, precision undefined
    (None). SQL that does not parse, or a question without gold tables: (None, None). A query that
    reads no table (``SELECT 1``) has recall 0 and precision None."""
    gold = {t.lower() for t in gold_tables}
    if not gold:
        return None, None
    if not ran:
        return 0.0, 0.0
    if sql is None:
        return 0.0, None
    read = predicted_tables(sql)
    if read is None:
        return None, None
    hit = len(read & gold)
    return hit / len(gold), (hit / len(read) if read else None)


def _column_counts(rows: Sequence[tuple], width: int) -> list[Counter]:
    counts = [Counter() for _ in range(width)]
    for row in rows:
        for i, value in enumerate(row[:width]):
            counts[i][value_key(value)] += 1
    return counts


def paired_columns(gold_rows: Sequence[tuple], pred_rows: Sequence[tuple]) -> tuple[int, ...]:
    """For each gold column, the distinct predicted column sharing most of its values (greedy, gold
    column by column; on a tie the predicted column at the same position, then the leftmost).
    Needs at least as many predicted columns as gold ones, and rows on both sides."""
    width, pred_width = len(gold_rows[0]), len(pred_rows[0])
    gold_counts, pred_counts = _column_counts(gold_rows, width), _column_counts(pred_rows, pred_width)
    free = list(range(pred_width))
    chosen = []
    for j in range(width):
        def overlap(k: int) -> tuple[int, bool, int]:
            shared = sum(min(n, pred_counts[k][key]) for key, n in gold_counts[j].items())
            return shared, k == j, -k
        best = max(free, key=overlap)
        free.remove(best)
        chosen.append(best)
    return tuple(chosen)


def _first_unmatched(rows: Sequence[tuple], others: Sequence[tuple], count: int, limit: int) -> tuple[tuple, ...]:
    """Up to ``limit`` rows of ``rows`` left over once each is paired with an equal row of ``others``
    (exact keys first, then the comparator's tolerant value equality)."""
    if count == 0 or limit == 0:
        return ()
    pool = Counter(tuple(value_key(v) for v in r) for r in others)
    leftover_others = []
    left = []
    for row in rows:
        key = tuple(value_key(v) for v in row)
        if pool[key]:
            pool[key] -= 1
        else:
            left.append(row)
    for key, n in pool.items():
        leftover_others += [key] * n
    out = []
    for row in left:
        keys = tuple(value_key(v) for v in row)
        partner = next((i for i, o in enumerate(leftover_others)
                        if len(o) == len(keys) and all(map(values_equal, keys, o))), None)
        if partner is None:
            out.append(row)
            if len(out) == limit:
                break
        else:
            leftover_others.pop(partner)
    return tuple(out)


def row_diff(gold_rows: Sequence[tuple], pred_rows: Sequence[tuple], *, examples: int = 0) -> RowDiff:
    """The multiset difference of two results under the comparator's value rules, with the predicted
    columns paired to gold's first (``paired_columns``) when both have rows. ``examples`` > 0 also
    lists up to that many rows of each side (slower: for ``heron explain``, not the scorer)."""
    if gold_rows and pred_rows and len(pred_rows[0]) >= len(gold_rows[0]):
        columns = paired_columns(gold_rows, pred_rows)
        projected = [tuple(row[k] for k in columns) for row in pred_rows]
    else:
        columns, projected = (), list(pred_rows)
    matched = count_matching_rows(gold_rows, projected) if gold_rows and projected else 0
    missing, extra = len(gold_rows) - matched, len(projected) - matched
    return RowDiff(missing, extra, _first_unmatched(gold_rows, projected, missing, examples),
                   _first_unmatched(projected, gold_rows, extra, examples), columns)


def diagnose(*, correct: bool, error_class: str | None, pred_sql: str | None, gold_sql: str,
             gold_tables: Iterable[str], gold_rows: Sequence[tuple], pred_rows: Sequence[tuple] | None,
             mutant_answers: Iterable[Any] = (),
             question_traps: Iterable[str] = ()) -> Diagnosis | None:
    """The one cause of a wrong prediction (None for a correct one); see the module docstring.

    ``mutant_answers`` are the question's stored trap mutant answers on this state
    (``mutants.answers``), ``question_traps`` its trap tags (they order the matches)."""
    if correct:
        return None
    if error_class is not None or pred_rows is None:
        return Diagnosis(error_class or "no_sql")
    gold = {t.lower() for t in gold_tables}
    read = predicted_tables(pred_sql)
    if read is not None and gold - read:
        return Diagnosis(SCHEMA_LINKING, "misses " + ", ".join(sorted(gold - read)),
                         tuple(sorted(gold - read)), tuple(sorted(read - gold)))
    extra_tables = tuple(sorted(read - gold)) if read is not None else ()
    matches = trap_matches(gold_sql, pred_rows, mutant_answers, question_traps)
    if matches:
        more = f" (and {len(matches) - 1} more)" if len(matches) > 1 else ""
        return Diagnosis(trap_cause(matches[0], question_traps), f"equals mutant: {matches[0].description}{more}",
                         extra_tables=extra_tables, trap_mutants=tuple(trap_label(m) for m in matches))
    if gold_rows and pred_rows:
        width, pred_width = len(gold_rows[0]), len(pred_rows[0])
        if pred_width != width:
            return Diagnosis(SHAPE, f"{pred_width} columns, gold has {width}", extra_tables=extra_tables)
    diff = row_diff(gold_rows, pred_rows)
    if diff.rows_missing == 0 and diff.rows_extra == 0:
        # the same rows, judged different: the order gold asks for (or a column pairing the
        # comparator's exact search and this greedy pairing see differently)
        detail = "row order" if order_spec(gold_sql).ordered else "column alignment"
        return Diagnosis(SHAPE, detail, extra_tables=extra_tables, rows_missing=0, rows_extra=0)
    return Diagnosis(VALUES, f"{diff.rows_missing} rows missing, {diff.rows_extra} extra",
                     extra_tables=extra_tables, rows_missing=diff.rows_missing, rows_extra=diff.rows_extra)

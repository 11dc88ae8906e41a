"""The cause of a wrong prediction, and table linking: tables of hand-checked cases (no database)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from heron_pipeline.diagnosis import CAUSE_ORDER, Diagnosis, cause_rank, diagnose, row_diff, table_linking

GOLD = "SELECT a.id, a.name FROM crm.accounts a JOIN tenancy.tenants t ON t.id = a.tenant_id WHERE a.deleted_at IS NULL"
GOLD_ORDERED = GOLD + " ORDER BY a.id"
TABLES = ("crm.accounts", "tenancy.tenants")
ROWS = [(1, "a"), (2, "b"), (3, "c")]


def case(pred_sql, pred_rows, *, gold_sql=GOLD, gold_rows=ROWS, error_class=None, correct=False):
    return diagnose(correct=correct, error_class=error_class, pred_sql=pred_sql, gold_sql=gold_sql,
                    gold_tables=TABLES, gold_rows=gold_rows, pred_rows=pred_rows)


SAME_TABLES = "SELECT a.id, a.name FROM crm.accounts a JOIN tenancy.tenants t ON t.id = a.tenant_id"

CASES = [
    # (what, diagnosis given, expected)
    ("correct: no cause", case(GOLD, ROWS, correct=True), None),
    ("no SQL", case(None, None, error_class="no_sql"), Diagnosis("no_sql")),
    ("provider class kept", case(None, None, error_class="provider_timeout"), Diagnosis("provider_timeout")),
    ("sandbox error wins over tables", case("SELEC 1 FROM crm.leads", None, error_class="error"), Diagnosis("error")),
    ("timeout", case(SAME_TABLES, None, error_class="timeout"), Diagnosis("timeout")),
    ("a look-alike table: missing and extra named",
     case("SELECT l.id, l.name FROM crm.leads l JOIN tenancy.tenants t ON t.id = l.tenant_id", ROWS[:2]),
     Diagnosis("schema-linking", "misses crm.accounts", ("crm.accounts",), ("crm.leads",))),
    ("a CTE named like a gold table is not that table",
     case("WITH accounts AS (SELECT 1 AS id, 'a' AS name) SELECT id, name FROM accounts JOIN tenancy.tenants t "
          "ON true", ROWS[:1]),
     Diagnosis("schema-linking", "misses crm.accounts", ("crm.accounts",), ())),
    ("schema-linking before shape", case("SELECT t.id FROM tenancy.tenants t", [(1,), (2,)]),
     Diagnosis("schema-linking", "misses crm.accounts", ("crm.accounts",), ())),
    ("one column too few", case(SAME_TABLES.replace("a.id, a.name", "a.id"), [(1,), (2,), (3,)]),
     Diagnosis("shape", "1 columns, gold has 2")),
    ("one column too many, full mode", case(SAME_TABLES.replace("a.name", "a.name, a.id"), [(1, "a", 1)]),
     Diagnosis("shape", "3 columns, gold has 2")),
    ("one column too many whose projection is gold's rows: shape in both question modes (issue 33)",
     case(SAME_TABLES.replace("a.name", "a.name, a.id"), [(1, "a", 1), (2, "b", 2), (3, "c", 3)]),
     Diagnosis("shape", "3 columns, gold has 2")),
    ("only the order differs where gold orders",
     case(SAME_TABLES, list(reversed(ROWS)), gold_sql=GOLD_ORDERED),
     Diagnosis("shape", "row order", rows_missing=0, rows_extra=0)),
    ("soft-deleted rows kept: extra rows",
     case(SAME_TABLES, ROWS + [(4, "d"), (5, "e")]),
     Diagnosis("values", "0 rows missing, 2 extra", rows_missing=0, rows_extra=2)),
    ("columns permuted, one value wrong: one missing, one extra",
     case(SAME_TABLES, [("a", 1), ("b", 2), ("x", 3)]),
     Diagnosis("values", "1 rows missing, 1 extra", rows_missing=1, rows_extra=1)),
    ("an extra table beside every gold one is noted, not the cause",
     case(SAME_TABLES + " JOIN crm.leads l ON true", [(1, "a")]),
     Diagnosis("values", "2 rows missing, 0 extra", extra_tables=("crm.leads",), rows_missing=2, rows_extra=0)),
    ("an empty answer: every gold row missing", case(SAME_TABLES, []),
     Diagnosis("values", "3 rows missing, 0 extra", rows_missing=3, rows_extra=0)),
    ("SQL sqlglot cannot parse: tables unknown, rows still judged",
     case("SELECT a.id, a.name FROM crm.accounts a WHERE a.x OPERATOR(pg_catalog.===) 1 ((", [(1, "a")]),
     Diagnosis("values", "2 rows missing, 0 extra", rows_missing=2, rows_extra=0)),
]


@pytest.mark.parametrize("found,expected", [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_one_cause(found, expected) -> None:
    assert found == expected


def test_tolerance_and_decimals_follow_the_comparator() -> None:
    gold = [(1, Decimal("0.1")), (2, Decimal("2.50"))]
    pred = [(1, 0.1000000000001), (2, 2.5), (3, 1.0)]
    diff = row_diff(gold, pred, examples=5)
    assert (diff.rows_missing, diff.rows_extra, diff.extra) == (0, 1, ((3, 1.0),))


def test_row_diff_lists_the_first_rows_of_each_side() -> None:
    diff = row_diff([(1, "a"), (2, "b"), (2, "b")], [(2, "b"), (9, "z")], examples=1)
    assert (diff.rows_missing, diff.rows_extra) == (2, 1)
    assert diff.missing == ((1, "a"),) and diff.extra == ((9, "z"),)


LINKING = [
    # (sql, gold tables, (recall, precision))
    ("SELECT 1 FROM crm.accounts a JOIN tenancy.tenants t ON true", TABLES, (1.0, 1.0)),
    ("SELECT 1 FROM crm.accounts", TABLES, (0.5, 1.0)),
    ("SELECT 1 FROM crm.accounts JOIN crm.leads ON true JOIN crm.contacts ON true", TABLES, (0.5, 1 / 3)),
    ("WITH tenants AS (SELECT 1) SELECT 1 FROM tenants JOIN crm.accounts ON true", TABLES, (0.5, 1.0)),
    ("SELECT 1", TABLES, (0.0, None)),
    (None, TABLES, (0.0, None)),
    ("SELECT (", TABLES, (None, None)),
    ("SELECT 1 FROM crm.accounts", (), (None, None)),
    ("SELECT 1 FROM CRM.Accounts", ("crm.accounts",), (1.0, 1.0)),
]


@pytest.mark.parametrize("sql,gold,expected", LINKING)
def test_table_linking(sql, gold, expected) -> None:
    assert table_linking(sql, gold) == pytest.approx(expected)


def test_failure_classes_sort_before_the_causes_and_traps_slot_after_schema_linking() -> None:
    causes = ["values", "trap:soft-delete", "shape", "error", "schema-linking", "no_sql"]
    assert sorted(causes, key=cause_rank) == ["error", "no_sql", "schema-linking", "trap:soft-delete", "shape",
                                              "values"]
    assert CAUSE_ORDER == ("schema-linking", "shape", "values")


from hypothesis import given, settings, strategies as st  # noqa: E402

ROW = st.tuples(st.integers(0, 3), st.sampled_from(["a", "b", None]))


@settings(max_examples=200, deadline=None)
@given(st.lists(ROW, max_size=6), st.lists(ROW, max_size=6), st.randoms())
def test_row_diff_is_a_multiset_difference(gold, pred, rnd) -> None:
    diff = row_diff(gold, pred, examples=10)
    assert diff.rows_missing - diff.rows_extra == len(gold) - len(pred)
    assert (diff.rows_missing, diff.rows_extra) == (len(diff.missing), len(diff.extra))
    shuffled = list(gold)
    rnd.shuffle(shuffled)
    same = row_diff(gold, shuffled)
    assert (same.rows_missing, same.rows_extra) == (0, 0)  # order never counts here
    swapped = row_diff(gold, [(name, n) for n, name in shuffled])
    assert (swapped.rows_missing, swapped.rows_extra) == (0, 0)  # nor does the order of the columns


# --- trap:<tag>: the answer equals a stored trap mutant's answer on this state ------------------------

from heron_pipeline.mutants.answers import MutantAnswer  # noqa: E402

SOFT = MutantAnswer("drop-soft-delete-filter", "drop the soft-delete filter in WHERE", ("soft-delete",),
                    ROWS + [(4, "d"), (5, "e")])
TENANT = MutantAnswer("drop-tenant-filter", "drop the tenant filter in ON of tenancy.tenants AS t",
                      ("tenant-isolation",), ROWS + [(9, "z")])
STATUS_TOO = MutantAnswer("drop-where-conjunct", "drop WHERE conjunct `a.status = 'x'`",
                          ("status-semantics", "soft-delete"), ROWS + [(4, "d"), (5, "e")])
NUMBERS = MutantAnswer("drop-fx-conversion", "drop the exchange rate", ("currency",), [(1, Decimal("10.50"))])


def trap_case(pred_sql, pred_rows, answers, *, traps=(), gold_rows=ROWS, error_class=None):
    return diagnose(correct=False, error_class=error_class, pred_sql=pred_sql, gold_sql=GOLD, gold_tables=TABLES,
                    gold_rows=gold_rows, pred_rows=pred_rows, mutant_answers=answers, question_traps=traps)


TRAP_CASES = [
    ("the soft-delete mutant's rows, in another order and with the columns swapped",
     trap_case(SAME_TABLES, [("e", 5), ("a", 1), ("d", 4), ("c", 3), ("b", 2)], (TENANT, SOFT)),
     Diagnosis("trap:soft-delete", "equals mutant: drop the soft-delete filter in WHERE",
               trap_mutants=("soft-delete: drop the soft-delete filter in WHERE",))),
    ("two mutants match: both reported, generator order when no tag is the question's",
     trap_case(SAME_TABLES, ROWS + [(4, "d"), (5, "e")], (STATUS_TOO, SOFT)),
     Diagnosis("trap:status-semantics", "equals mutant: drop WHERE conjunct `a.status = 'x'` (and 1 more)",
               trap_mutants=("status-semantics,soft-delete: drop WHERE conjunct `a.status = 'x'`",
                             "soft-delete: drop the soft-delete filter in WHERE"))),
    ("two mutants match: the question's own tag chooses (mutant and tag)",
     trap_case(SAME_TABLES, ROWS + [(4, "d"), (5, "e")], (STATUS_TOO, TENANT, SOFT), traps=("soft-delete",)),
     Diagnosis("trap:soft-delete", "equals mutant: drop WHERE conjunct `a.status = 'x'` (and 1 more)",
               trap_mutants=("status-semantics,soft-delete: drop WHERE conjunct `a.status = 'x'`",
                             "soft-delete: drop the soft-delete filter in WHERE"))),
    ("the comparator's tolerance: a float equal to the mutant's numeric",
     trap_case(SAME_TABLES, [(1, 10.5000000001)], (NUMBERS,), gold_rows=[(1, Decimal("12.00"))]),
     Diagnosis("trap:currency", "equals mutant: drop the exchange rate",
               trap_mutants=("currency: drop the exchange rate",))),
    ("near the mutant is not the mutant: values", trap_case(SAME_TABLES, ROWS + [(4, "d")], (SOFT,)),
     Diagnosis("values", "0 rows missing, 1 extra", rows_missing=0, rows_extra=1)),
    ("schema-linking before trap", trap_case("SELECT l.id, l.name FROM crm.leads l", ROWS + [(4, "d"), (5, "e")],
                                              (SOFT,)),
     Diagnosis("schema-linking", "misses crm.accounts, tenancy.tenants", ("crm.accounts", "tenancy.tenants"),
               ("crm.leads",))),
    ("a failure class before trap", trap_case(SAME_TABLES, None, (SOFT,), error_class="timeout"), Diagnosis("timeout")),
    ("a wider answer whose projection is the mutant's is no trap match: shape (one width rule, issue 33)",
     trap_case(SAME_TABLES, [(0, n, s) for n, s in SOFT.rows], (SOFT,)),
     Diagnosis("shape", "3 columns, gold has 2")),
    ("the same wider answer, the extra column last: shape", trap_case(SAME_TABLES, [(n, s, 0) for n, s in SOFT.rows],
                                                                    (SOFT,)),
     Diagnosis("shape", "3 columns, gold has 2")),
]


@pytest.mark.parametrize("found,expected", [(c[1], c[2]) for c in TRAP_CASES], ids=[c[0] for c in TRAP_CASES])
def test_trap_cause(found, expected) -> None:
    assert found == expected

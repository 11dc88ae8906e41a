"""The trap operators make the mistake they name, and every mutant says which trap's handling it removes.

Each case is a gold, an operator and the one mutant SQL it must make (hand-checked), so the table
reads as the operators' spec. The classification table below it checks which traps the general
operators' mutants count for (the ``trap-live`` audit rule proves tags with them).
"""

from __future__ import annotations

import pytest

from heron_pipeline.catalog.ddl import load_catalog
from heron_pipeline.mutants import OPERATORS, mutants
from heron_pipeline.mutants.liveness import TrapProof, prove_question

CATALOG = load_catalog()
FX = ("FROM orders.orders AS o JOIN tenancy.exchange_rates AS er ON er.currency_code = o.currency_code "
      "AND er.rate_date = CAST(o.placed_at AS DATE)")
EVENTS = "comms.message_events AS e"
LATEST = ("WITH l AS (SELECT h.account_id, ROW_NUMBER() OVER (PARTITION BY h.account_id ORDER BY h.scored_on DESC) "
          "AS rn FROM crm.account_health_scores AS h) SELECT COUNT(*) FROM crm.accounts AS a LEFT JOIN l "
          "ON l.account_id = a.id")

# (operator, gold, the mutant that operator must make)
CASES = [
    ("drop-fx-conversion", f"SELECT SUM(o.total_amount * er.rate_to_usd) AS usd {FX}",
     f"SELECT SUM(o.total_amount) AS usd {FX}"),
    ("drop-fx-conversion", f"SELECT SUM(er.rate_to_usd * o.total_amount) AS usd {FX}",
     f"SELECT SUM(o.total_amount) AS usd {FX}"),
    ("merge-currencies", "SELECT o.currency_code, SUM(o.total_amount) AS total FROM orders.orders AS o "
                         "GROUP BY o.currency_code ORDER BY o.currency_code",
     "SELECT SUM(o.total_amount) AS total FROM orders.orders AS o"),
    ("merge-currencies", "SELECT o.status, o.currency_code AS cur, COUNT(*) FROM orders.orders AS o "
                         "GROUP BY o.status, o.currency_code ORDER BY cur, o.status",
     "SELECT o.status, COUNT(*) FROM orders.orders AS o GROUP BY o.status ORDER BY o.status"),
    ("shift-bucket-zone", "SELECT DATE_TRUNC('MONTH', o.placed_at AT TIME ZONE 'UTC') AS m FROM orders.orders AS o",
     "SELECT DATE_TRUNC('MONTH', o.placed_at AT TIME ZONE 'America/New_York') AS m FROM orders.orders AS o"),
    ("shift-bucket-zone", "SELECT DATE_TRUNC('MONTH', o.placed_at) AS m FROM orders.orders AS o",
     "SELECT DATE_TRUNC('MONTH', o.placed_at AT TIME ZONE 'America/New_York') AS m FROM orders.orders AS o"),
    ("shift-week-start", "SELECT DATE_TRUNC('WEEK', o.placed_at) AS w FROM orders.orders AS o",
     "SELECT (DATE_TRUNC('WEEK', (o.placed_at) + INTERVAL '1 day') - INTERVAL '1 day') AS w FROM orders.orders AS o"),
    ("drop-status-condition", "SELECT COUNT(*) FILTER(WHERE c.status = 'abandoned') AS a FROM orders.carts AS c",
     "SELECT COUNT(*) AS a FROM orders.carts AS c"),
    ("drop-status-condition", "SELECT COUNT(*) FILTER(WHERE c.status = 'abandoned' AND c.x) AS a FROM orders.carts AS c",
     "SELECT COUNT(*) FILTER(WHERE c.x) AS a FROM orders.carts AS c"),
    ("drop-status-condition", "SELECT COUNT(c.id) FROM s.a AS a LEFT JOIN s.c AS c ON c.a_id = a.id AND c.status = 'open'",
     "SELECT COUNT(c.id) FROM s.a AS a LEFT JOIN s.c AS c ON c.a_id = a.id"),
    ("narrow-status-set", "SELECT COUNT(*) FROM billing.invoices AS i WHERE NOT i.status IN ('draft', 'void')",
     "SELECT COUNT(*) FROM billing.invoices AS i WHERE NOT i.status IN ('void')"),
    ("exists-to-join", f"SELECT m.id, EXISTS(SELECT 1 FROM {EVENTS} WHERE e.message_id = m.id) AS opened "
                       "FROM comms.messages AS m",
     f"SELECT m.id, (e.id IS NOT NULL) AS opened FROM comms.messages AS m LEFT JOIN {EVENTS} ON e.message_id = m.id"),
    ("exists-to-join", f"SELECT COUNT(*) FROM comms.messages AS m WHERE m.x AND EXISTS(SELECT 1 FROM {EVENTS} "
                       "WHERE e.message_id = m.id)",
     f"SELECT COUNT(*) FROM comms.messages AS m JOIN {EVENTS} ON e.message_id = m.id WHERE m.x"),
    ("drop-first-row-filter", f"{LATEST} AND l.rn = 1", LATEST),
    ("null-as-zero", "SELECT AVG(s.rating) FROM inventory.suppliers AS s",
     "SELECT AVG(COALESCE(s.rating, 0)) FROM inventory.suppliers AS s"),
    ("null-as-zero", "SELECT AVG(o.total_amount) FROM crm.accounts AS a LEFT JOIN orders.orders AS o ON o.account_id = a.id",
     "SELECT AVG(COALESCE(o.total_amount, 0)) FROM crm.accounts AS a LEFT JOIN orders.orders AS o "
     "ON o.account_id = a.id"),
]


@pytest.mark.parametrize("operator, gold, expected", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_trap_operator_makes_its_mistake(operator: str, gold: str, expected: str) -> None:
    made = [m.sql for m in mutants(gold, CATALOG) if m.operator == operator]
    assert expected in made, made


def test_every_trap_operator_has_a_case() -> None:
    trap_operators = set(OPERATORS) - {"drop-tenant-filter", "drop-soft-delete-filter", "drop-where-conjunct",
                                       "flip-comparison", "swap-aggregate", "drop-distinct", "join-side",
                                       "change-limit", "flip-order"}
    assert trap_operators == {c[0] for c in CASES}


@pytest.mark.parametrize("gold", [
    "SELECT DATE_TRUNC('MONTH', i.issued_on) AS m FROM billing.invoices AS i",  # a date: no zone to get wrong
    "SELECT DATE_TRUNC('MONTH', x.placed_at) AS m FROM (SELECT * FROM orders.orders) AS x",  # type unknown
    "SELECT o.currency_code, COUNT(*) FROM orders.orders AS o GROUP BY 1",  # positional: would renumber
    "SELECT SUM(o.total_amount * o.tax_amount) FROM orders.orders AS o",  # not an exchange rate
    "SELECT COUNT(*) FROM billing.invoices AS i WHERE i.status IN ('open')",  # one label: nothing to narrow
    "SELECT AVG(o.total_amount) FROM orders.orders AS o",  # NOT NULL: coalesce would change nothing
    "WITH p AS (SELECT o.total_amount AS x FROM orders.orders AS o) SELECT AVG(p.x) FROM p",  # unknown: not made
])
def test_trap_operators_stay_away_from_what_is_not_their_trap(gold: str) -> None:
    operators = {m.operator for m in mutants(gold, CATALOG)}
    assert not operators & {"shift-bucket-zone", "merge-currencies", "drop-fx-conversion", "narrow-status-set",
                            "null-as-zero"}


# gold, operator, traps its mutant removes (every mutant of that operator on the gold)
CLASSIFIED = [
    ("SELECT id FROM s.t WHERE tenant_id = 1", "drop-tenant-filter", ("tenant-isolation",)),
    ("SELECT id FROM s.t AS t WHERE t.deleted_at IS NULL", "drop-soft-delete-filter", ("soft-delete",)),
    ("SELECT id FROM s.t AS t WHERE t.status = 'active'", "drop-where-conjunct", ("status-semantics",)),
    ("SELECT id FROM s.t AS t WHERE t.payment_status <> 'paid'", "drop-where-conjunct", ("status-semantics",)),
    ("SELECT id FROM s.t AS t WHERE t.currency_code = 'GBP'", "drop-where-conjunct", ("currency",)),
    ("SELECT id FROM s.t AS t WHERE t.amount > 5", "drop-where-conjunct", ()),
    ("SELECT count(t.x) FROM s.t AS t WHERE t.x IS NOT NULL", "drop-where-conjunct", ("null-aggregate",)),
    ("SELECT count(*) FROM s.t AS t WHERE t.x IS NOT NULL", "drop-where-conjunct", ()),
    ("SELECT count(t.x) FROM s.t AS t", "swap-aggregate", ("null-aggregate",)),
    ("SELECT count(DISTINCT t.x) FROM s.t AS t", "swap-aggregate", ("duplicate-join",)),
    ("SELECT DISTINCT t.x FROM s.t AS t", "drop-distinct", ("duplicate-join",)),
    ("SELECT a.x FROM s.a AS a LEFT JOIN s.b AS b ON b.id = a.b_id", "join-side", ("nullable-join",)),
    ("SELECT a.x FROM s.a AS a JOIN s.b AS b ON b.id = a.b_id", "join-side", ()),
    ("WITH m AS (SELECT CAST(generate_series(DATE '2025-01-01', DATE '2025-12-01', INTERVAL '1 month') AS DATE) AS d) "
     "SELECT m.d, c.n FROM m LEFT JOIN c ON c.d = m.d", "join-side", ("nullable-join", "time-bucket")),
    ("SELECT id FROM s.t AS t WHERE t.x = 1 ORDER BY t.x", "flip-order", ()),
]


@pytest.mark.parametrize("gold, operator, traps", CLASSIFIED)
def test_mutants_name_the_traps_whose_handling_they_remove(gold: str, operator: str, traps: tuple) -> None:
    made = [m for m in mutants(gold) if m.operator == operator]
    assert made and {m.traps for m in made} == {traps}


def test_a_trap_is_proved_by_the_first_killed_mutant_and_nothing_runs_after_it() -> None:
    gold = "SELECT count(*) FROM s.t AS t WHERE t.status IN ('a', 'b') AND t.deleted_at IS NULL"
    ran: list[tuple[str, str]] = []

    def execute(state: str, sql: str) -> list[tuple]:
        ran.append((state, sql))
        if state == "y" and "'b'" in sql and "'a'" not in sql:
            return [(1,)]  # leaving label a out changes the answer, on y only
        return [(5,)]

    rows = {"x": [(5,)], "y": [(5,)]}
    status, soft = prove_question("q1", gold, ["status-semantics", "soft-delete"], rows, execute)
    assert status.live and status.state == "y" and "leave 'a' out" in status.killed_by
    assert not soft.live and soft.candidates == 1
    assert "none changes the answer" in soft.reason()
    dropped = "SELECT COUNT(*) FROM s.t AS t WHERE t.deleted_at IS NULL"
    narrowed = "SELECT COUNT(*) FROM s.t AS t WHERE t.status IN ('b') AND t.deleted_at IS NULL"
    assert ran[:4] == [("x", dropped), ("y", dropped), ("x", narrowed), ("y", narrowed)]  # then it stops
    assert not any("IN ('a')" in sql for _, sql in ran)


def test_reasons_say_why_a_tag_cannot_bite() -> None:
    assert "no mutant removes" in TrapProof("q", "currency", 0).reason()
    assert "equivalent by contract (id-implies-tenant)" in TrapProof(
        "q", "tenant-isolation", 1, ("id-implies-tenant",)).reason()
    assert TrapProof("q", "currency", 2, (), "drop x", "small_42").reason() == "killed on small_42: drop x"


def test_a_failing_mutant_proves_nothing_and_an_oversized_one_kills() -> None:
    from heron_pipeline.results import ResultTooLarge

    gold = "SELECT t.id FROM s.t AS t WHERE t.deleted_at IS NULL"

    def fails(state: str, sql: str) -> list[tuple]:
        raise RuntimeError("statement timeout")

    def too_large(state: str, sql: str) -> list[tuple]:
        raise ResultTooLarge("over the row cap", kind="rows")

    (failed,) = prove_question("q", gold, ["soft-delete"], {"x": [(1,)]}, fails)
    assert not failed.live and failed.failed == 1 and "failed to execute" in failed.reason()
    (killed,) = prove_question("q", gold, ["soft-delete"], {"x": [(1,)]}, too_large)
    assert killed.live

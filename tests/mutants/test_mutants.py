"""Each mutation operator makes exactly the near miss it names, and the kill counts add up."""

from __future__ import annotations

import pytest
import sqlglot

from heron_pipeline.mutants import OPERATORS, evaluate, mutants, summarize

GOLD = """
SELECT t.name, count(DISTINCT o.id) AS orders, sum(o.total_amount) AS total
FROM tenancy.tenants t
JOIN orders.orders o ON o.tenant_id = t.id AND o.deleted_at IS NULL
LEFT JOIN crm.accounts a ON a.tenant_id = o.tenant_id AND a.id = o.account_id
WHERE t.name = 'Halyard Outfitters' AND o.placed_at >= DATE '2026-01-01' AND o.status <> 'cancelled'
GROUP BY t.name
ORDER BY orders DESC, t.name
LIMIT 5
"""


def _by(operator: str) -> list[str]:
    return [m.sql for m in mutants(GOLD) if m.operator == operator]


def test_every_operator_fires_on_a_query_that_has_its_target():
    produced = {m.operator for m in mutants(GOLD)}
    # the trap operators have their own golds (tests/mutants/test_trap_operators.py)
    general = {"drop-tenant-filter", "drop-soft-delete-filter", "drop-where-conjunct", "flip-comparison",
               "swap-aggregate", "drop-distinct", "join-side", "change-limit", "flip-order"}
    assert general <= set(OPERATORS)
    assert produced == general - {"drop-distinct"}
    assert [m.operator for m in mutants("SELECT DISTINCT a FROM s.t")] == ["drop-distinct"]


def test_mutants_are_single_changes_that_parse_and_differ_from_gold():
    gold = sqlglot.parse_one(GOLD, read="postgres").sql(dialect="postgres")
    texts = [m.sql for m in mutants(GOLD)]
    assert len(texts) == len(set(texts)) and gold not in texts
    for text in texts:
        sqlglot.parse_one(text, read="postgres")


def test_drop_where_conjunct_removes_one_conjunct_each():
    dropped = _by("drop-where-conjunct")
    assert len(dropped) == 3
    assert sum("Halyard" not in sql for sql in dropped) == 1
    assert all(sql.count(" AND ") == GOLD.count(" AND ") - 1 for sql in dropped)


def test_flip_comparison_mirrors_the_operator():
    flipped = _by("flip-comparison")
    assert any("o.placed_at <= CAST('2026-01-01' AS DATE)" in sql for sql in flipped)
    assert any("o.status = 'cancelled'" in sql for sql in flipped)
    assert any("t.name <> 'Halyard Outfitters'" in sql for sql in flipped)


def test_aggregate_swaps_and_distinct_drop():
    swapped = _by("swap-aggregate")
    assert any("AVG(o.total_amount)" in sql for sql in swapped)
    assert any("COUNT(o.id)" in sql for sql in swapped)
    assert mutants("SELECT min(x), count(y) FROM s.t")[0].sql == "SELECT MAX(x), COUNT(y) FROM s.t"
    assert mutants("SELECT min(x), count(y) FROM s.t")[1].sql == "SELECT MIN(x), COUNT(*) FROM s.t"


def test_join_side_goes_both_ways():
    sides = _by("join-side")
    assert any("LEFT JOIN orders.orders" in sql for sql in sides)
    assert any("JOIN crm.accounts" in sql and "LEFT JOIN crm.accounts" not in sql for sql in sides)


def test_tenant_and_soft_delete_filters_are_dropped_where_they_are():
    tenant = _by("drop-tenant-filter")
    assert sorted(sql.count("tenant_id") for sql in tenant) == [1, 2]  # gold mentions it 3 times
    soft = _by("drop-soft-delete-filter")
    assert soft == [s for s in soft if "deleted_at" not in s] and len(soft) == 1
    where_only = mutants("SELECT id FROM s.t WHERE deleted_at IS NULL")
    assert [m.sql for m in where_only if m.operator == "drop-soft-delete-filter"] == ["SELECT id FROM s.t"]


def test_limit_and_outer_order_changes_but_not_window_order():
    assert sorted(sql.rsplit("LIMIT", 1)[1].strip() for sql in _by("change-limit")) == ["4", "6"]
    flips = _by("flip-order")
    assert len(flips) == 2 and any("ORDER BY orders ASC" in sql for sql in flips)
    windowed = "SELECT id, row_number() OVER (ORDER BY id) AS r FROM s.t ORDER BY id"
    assert len([m for m in mutants(windowed) if m.operator == "flip-order"]) == 1


def test_evaluate_counts_kills_per_state_and_skips_failures():
    gold = "SELECT x FROM s.t WHERE x > 1"
    states = {"a": [(2,), (3,)], "b": [(2,), (5,)]}
    data = {"a": [1, 2, 3], "b": [2, 5, 5]}

    def execute(state: str, sql: str) -> list[tuple]:
        if "<=" in sql:
            raise RuntimeError("boom")
        if "x < 1" in sql:
            return [(v,) for v in data[state] if v < 1]
        return [(v,) for v in data[state]]  # the dropped conjunct

    outcomes = {o.mutant.operator: o for o in evaluate("q1", gold, states, execute, primary="a")}
    dropped = outcomes["drop-where-conjunct"]
    # On "a" dropping the filter adds the row 1 (killed); on "b" it adds a duplicate 5 (killed too).
    assert dropped.executed and dropped.killed_single and dropped.killed_multi
    flipped = outcomes["flip-comparison"]
    assert flipped.executed and flipped.killed_single
    overall, per_question = summarize(list(outcomes.values()))
    assert overall.generated == 2 and overall.executed == 2 and overall.killed_multi == 2
    assert per_question["q1"].multi_rate == 100.0


def test_a_mutant_killed_only_by_a_second_state_counts_as_multi_only():
    gold = "SELECT x FROM s.t WHERE x > 1"
    states = {"a": [(2,)], "b": [(2,)]}

    def execute(state: str, sql: str) -> list[tuple]:
        if state == "b" and "x > 1" not in sql:
            return [(2,), (0,)]
        return [(2,)]

    outcomes = evaluate("q1", gold, states, execute, primary="a")
    summary, _ = summarize(outcomes)
    assert summary.executed == 2 and summary.killed_single == 0 and summary.killed_multi == 2
    assert summary.single_rate == 0.0 and summary.multi_rate == 100.0


def test_unknown_primary_state_is_an_error():
    with pytest.raises(ValueError, match="primary"):
        evaluate("q1", "SELECT 1", {"a": [(1,)]}, lambda s, q: [(1,)], primary="z")


def test_a_mutant_that_leaves_its_connection_failed_does_not_fail_the_next_ones(server) -> None:
    """A timeout that lands during the forced rollback leaves the connection in a failed
    transaction; the executor must roll it back, or every later mutant on that state "errors"."""
    import psycopg

    from heron_pipeline.mutants.run import ComparisonTimedOut, database_executor

    with server.connect("postgres", autocommit=False) as conn:
        execute = database_executor({"s": conn}, timeout_ms=100, retry_ms=100)
        with pytest.raises(ComparisonTimedOut):
            execute("s", "SELECT pg_sleep(2)")
        with pytest.raises(psycopg.errors.DivisionByZero):
            conn.execute("SELECT 1 / 0")  # what a rollback interrupted by the timeout leaves behind
        assert execute("s", "SELECT 41 + 1") == [(42,)]


def test_a_comparison_the_bound_cancels_is_retried_under_a_longer_bound(server) -> None:
    """0.6 s of sleep is past the 200 ms bound but inside the 2 s retry: the rows come back."""
    from heron_pipeline.mutants.run import ComparisonTimedOut, database_executor

    with server.connect("postgres", autocommit=False) as conn:
        same_bound_again = database_executor({"s": conn}, timeout_ms=200, retry_ms=200)
        with pytest.raises(ComparisonTimedOut):  # the bound does cancel this query
            same_bound_again("s", "SELECT 7 FROM pg_sleep(0.6)")
        execute = database_executor({"s": conn}, timeout_ms=200, retry_ms=2_000)
        assert execute("s", "SELECT 7 FROM pg_sleep(0.6)") == [(7,)]


def test_the_retry_is_under_the_bound_every_prediction_is_scored_under() -> None:
    from heron_pipeline.mutants.run import SCORING_BOUND_MS
    from heron_pipeline.sandbox.limits import Limits

    assert SCORING_BOUND_MS == Limits().statement_timeout_s * 1000 == 30_000


def test_a_comparison_that_times_out_twice_names_its_state_and_both_bounds(server) -> None:
    from heron_pipeline.mutants.run import ComparisonTimedOut, database_executor

    with server.connect("postgres", autocommit=False) as conn:
        execute = database_executor({"small_42": conn}, timeout_ms=100, retry_ms=400)
        with pytest.raises(ComparisonTimedOut, match="small_42: timed out at 100 ms, then 400 ms") as raised:
            execute("small_42", "SELECT pg_sleep(3)")
        assert raised.value.bounds_ms == (100, 400)
        assert execute("small_42", "SELECT 1") == [(1,)]  # the connection is usable again


GOLD_X = "SELECT x FROM s.t WHERE x > 1"


def _slow_flip(slow_states: set[str], calls: list[tuple[str, str]]):
    """An executor where the flipped comparison runs past the scoring bound on ``slow_states`` and
    returns the gold's rows elsewhere (so only the bound can kill it); other mutants differ."""
    from heron_pipeline.mutants.run import ComparisonTimedOut

    def execute(state: str, sql: str) -> list[tuple]:
        calls.append((state, sql))
        if "x < 1" in sql or "x <= 1" in sql:
            if state in slow_states:
                raise ComparisonTimedOut(state, (5_000, 30_000))
            return [(2,)]
        return [(2,)] if "x > 1" in sql else [(0,), (2,)]

    return execute


def test_a_mutant_past_the_scoring_bound_is_killed_on_that_state_and_listed() -> None:
    """Submitted as a prediction it would be cancelled and scored wrong there: a kill, named."""
    from heron_pipeline.mutants.report import format_report

    calls: list[tuple[str, str]] = []
    outcomes = evaluate("q1", GOLD_X, {"a": [(2,)], "b": [(2,)]}, _slow_flip({"b"}, calls), primary="a")
    flipped = next(o for o in outcomes if o.mutant.operator == "flip-comparison")
    assert flipped.executed and flipped.timed_out
    assert not flipped.killed_single and flipped.killed_multi  # the primary returned gold's rows
    assert "b: timed out at 5000 ms, then 30000 ms" in flipped.error
    summary, per_question = summarize(outcomes)
    assert flipped in summary.killed_by_bound and flipped not in summary.survivors
    assert not summary.unjudged and per_question["q1"].killed_by_bound == [flipped]
    report = format_report(outcomes, ["a", "b"], "a")
    assert ("killed by the scoring bound (ran past the 30 s statement timeout every prediction is scored "
            "under): 1") in report
    assert "q1 [flip-comparison]" in report and "unjudged comparisons (equivalent by contract" in report
    assert "did not execute (error)" not in report


def test_a_mutant_past_the_bound_on_the_primary_runs_on_no_other_state() -> None:
    """Each further state would cost the whole bound again, and both verdicts are already decided."""
    calls: list[tuple[str, str]] = []
    outcomes = evaluate("q1", GOLD_X, {"b": [(2,)], "a": [(2,)]}, _slow_flip({"a", "b"}, calls), primary="a")
    flipped = next(o for o in outcomes if o.mutant.operator == "flip-comparison")
    assert flipped.killed_single and flipped.killed_multi
    assert [state for state, sql in calls if sql == flipped.mutant.sql] == ["a"]  # primary first, then stop


def test_an_equivalent_mutant_past_the_bound_is_unjudged_never_dropped_silently(monkeypatch) -> None:
    """A mutant set aside by contract is not counted; a timeout leaves its proof unchecked: unjudged."""
    from dataclasses import replace

    from heron_pipeline.mutants.report import format_report
    from heron_pipeline.mutants.run import MutantOutcome

    calls: list[tuple[str, str]] = []
    plain = evaluate("q1", GOLD_X, {"a": [(2,)]}, _slow_flip({"a"}, calls), primary="a")
    flipped = next(o for o in plain if o.mutant.operator == "flip-comparison")
    contract = replace(flipped.mutant, equivalent="made-up-contract: for this test")
    monkeypatch.setattr("heron_pipeline.mutants.run.mutants", lambda sql, catalog=None: [contract])
    outcomes = evaluate("q1", GOLD_X, {"a": [(2,)]}, _slow_flip({"a"}, calls), primary="a")
    assert outcomes == [MutantOutcome("q1", contract, False, False, False, outcomes[0].error, True)]
    summary, _ = summarize(outcomes)
    assert summary.unjudged == outcomes and not summary.killed_by_bound and summary.executed == 0
    assert "unjudged comparisons (equivalent by contract, ran past the scoring bound): 1" in format_report(
        outcomes, ["a"], "a")


def test_a_report_with_every_comparison_judged_says_zero_unjudged() -> None:
    from heron_pipeline.mutants.report import format_report

    outcomes = evaluate("q1", "SELECT x FROM s.t WHERE x > 1", {"a": [(2,)]}, lambda s, q: [(2,)], primary="a")
    report = format_report(outcomes, ["a"], "a")
    assert "unjudged comparisons (equivalent by contract, ran past the scoring bound): 0" in report
    assert "killed by the scoring bound (ran past the 30 s statement timeout every prediction is scored under): 0" in report

"""Every audit rule fires on a deliberately broken question, and the good fixture passes them all.

The states are tiny/42 and tiny/43 built once for the module on the session's test server. Each
broken question is the good fixture's f001/f002 with one thing wrong; rules that need no database
(latency, result shape) are also fed hand-made runs.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from heron_pipeline.catalog.ddl import load_catalog
from heron_pipeline.database.server import Server
from heron_pipeline.mutants.liveness import TrapProof, prove_questions
from heron_pipeline.mutants.run import database_executor
from heron_pipeline.questions.audit import (RULES, check_balance, check_latency, check_shape_stable, check_trap_live,
                                            format_report, run_audit, trap_liveness)
from heron_pipeline.questions.gold import Execution, QuestionRun, read_gold_artifact, run_state, write_gold_artifact
from heron_pipeline.questions.model import Question, Trap, load_questions
from heron_pipeline.results import Column, ResultSet
from heron_pipeline.seeding.build import build

GOOD_DIR = Path(__file__).parent / "fixtures" / "good"
SEEDS = (42, 43)


@pytest.fixture(scope="module")
def tiny(server: Server) -> Server:
    for seed in SEEDS:
        if not server.database_exists(f"heron_tiny_{seed}"):
            build(server, "tiny", seed)
    return server


@pytest.fixture(scope="module")
def good() -> list[Question]:
    return load_questions(GOOD_DIR)


def _states(server: Server, questions: list[Question]) -> dict:
    states = {}
    for seed in SEEDS:
        with server.connect(f"heron_tiny_{seed}") as conn:
            states[f"tiny_{seed}"] = run_state(conn, questions)
    return states


def _proofs(server: Server, questions: list[Question], states: dict) -> dict:
    with server.connect(f"heron_tiny_{SEEDS[0]}") as first, server.connect(f"heron_tiny_{SEEDS[1]}") as second:
        execute = database_executor({f"tiny_{SEEDS[0]}": first, f"tiny_{SEEDS[1]}": second})
        return prove_questions(questions, states, execute, load_catalog())


def _audit(server: Server, questions: list[Question]):
    states = _states(server, questions)
    # trap-live is judged from small up (audit.TRAP_LIVE_SCALES); these fixtures bite on tiny, so judge them here
    return run_audit(questions, states, scale="tiny", balance=False, trap_proofs=_proofs(server, questions, states),
                     judge_traps=True)


def test_the_good_fixture_passes_every_rule_but_balance(tiny: Server, good: list[Question]) -> None:
    report = _audit(tiny, good)
    assert report.problems == []
    assert report.varying_share == 1.0 and report.judged == 2


def _by_id(questions: list[Question], qid: str) -> Question:
    return next(q for q in questions if q.id == qid)


def _broken(good: list[Question], qid: str, **changes) -> Question:
    return replace(_by_id(good, qid), id="b001", question=_by_id(good, qid).question + " (broken)", **changes)


F001_SQL = _by_id(load_questions(GOOD_DIR), "f001").gold_sql
F002_SQL = _by_id(load_questions(GOOD_DIR), "f002").gold_sql

# rule -> changes that break a copy of f001 (or f002 when the key says so) in exactly that way
BROKEN = {
    "question-file": ("f001", {"alt_sql": None}),
    "parses": ("f001", {"gold_sql": "SELEC count(*) FROM orders.orders", "alt_sql": None}),
    "gold-tables": ("f001", {"gold_tables": ("orders.orders",)}),
    "volatile": ("f001", {"gold_sql": F001_SQL.replace("o.deleted_at IS NULL", "o.placed_at < now()")}),
    "literals": ("f001", {"gold_sql": F001_SQL.replace("'2025-01-01 00:00:00+00'", "'2025-01-09 00:00:00+00'")}),
    "executes": ("f001", {"gold_sql": F001_SQL.replace("o.status,", "o.no_such_column,")}),
    "non-empty": ("f001", {"gold_sql": F001_SQL.replace("'2025-01-01 00:00:00+00'", "'2026-07-01 00:00:00+00'")}),
    "alt-agrees": ("f001", {"alt_sql": F001_SQL.replace("o.deleted_at IS NULL", "true")}),
    "repeatable": ("f001", {"gold_sql": "SELECT (random() * 1000000000)::bigint AS r FROM tenancy.tenants AS t "
                                        "WHERE t.name = 'Halyard Outfitters'", "gold_tables": ("tenancy.tenants",),
                            "alt_sql": None}),
    "ties": ("f002", {"gold_sql": F002_SQL.replace("o.id, o.currency_code, o.total_amount", "o.currency_code")
                      .replace("ORDER BY o.total_amount DESC, o.id", "ORDER BY o.currency_code"), "alt_sql": None}),
    "natural": ("f001", {"natural": "SELECT status, count(*) of orders.orders per order_status"}),
    "varies": ("f001", {"gold_sql": "SELECT t.name FROM tenancy.tenants AS t WHERE t.name = 'Halyard Outfitters'",
                        "gold_tables": ("tenancy.tenants",), "alt_sql": None}),
    # f001 converts nothing, so nothing undoes a currency handling: the tag cannot bite
    "trap-live": ("f001", {"traps": (Trap.TENANT_ISOLATION, Trap.SOFT_DELETE, Trap.CURRENCY)}),
}


@pytest.mark.parametrize("rule", sorted(BROKEN))
def test_each_rule_fires_on_its_broken_question(tiny: Server, good: list[Question], rule: str) -> None:
    base, changes = BROKEN[rule]
    broken = _broken(good, base, **changes)
    questions = [broken] if rule == "varies" else [*good, broken]
    report = _audit(tiny, questions)
    fired = {p.rule for p in report.problems}
    assert rule in fired, report.problems
    if rule != "varies":
        assert {p.question_id for p in report.problems if p.rule == rule} == {"b001"}


def test_ties_also_fire_when_a_sort_key_is_not_an_output_column(tiny: Server, good: list[Question]) -> None:
    sql = ("SELECT o.id FROM orders.orders AS o JOIN tenancy.tenants AS t ON t.id = o.tenant_id "
           "WHERE t.name = 'Halyard Outfitters' ORDER BY o.currency_code")
    report = _audit(tiny, [_broken(good, "f001", gold_sql=sql, alt_sql=None)])
    assert any(p.rule == "ties" and "not an output column" in p.message for p in report.problems), report.problems


def test_the_good_fixture_prints_its_trap_liveness(tiny: Server, good: list[Question]) -> None:
    report = _audit(tiny, good)
    assert report.liveness["tenant-isolation"] == {"tagged": 2, "live": 2}
    assert report.liveness["soft-delete"] == {"tagged": 2, "live": 2}
    assert report.liveness["currency"] == {"tagged": 0, "live": 0}
    assert "trap liveness: tenant-isolation 2/2 live, soft-delete 2/2 live" in format_report(report, good)


def test_trap_live_fires_on_a_tenant_tag_beside_an_id_join(tiny: Server, good: list[Question]) -> None:
    """Ids are globally unique (DECISIONS, trap liveness): a tenant equality beside an id equality to a
    tenant-safe key is set aside by id-implies-tenant, so that tenant-isolation tag cannot bite."""
    sql = ("SELECT a.status, count(*) AS contacts FROM crm.contacts AS c JOIN crm.accounts AS a "
           "ON a.tenant_id = c.tenant_id AND a.id = c.account_id WHERE c.deleted_at IS NULL "
           "AND a.deleted_at IS NULL GROUP BY a.status")
    broken = _broken(good, "f001", gold_sql=sql, alt_sql=None, gold_tables=("crm.accounts", "crm.contacts"),
                     traps=(Trap.TENANT_ISOLATION, Trap.SOFT_DELETE))
    report = _audit(tiny, [broken])
    messages = [p.message for p in report.problems if p.rule == "trap-live"]
    assert messages == ["trap tenant-isolation cannot bite: all 1 mutant(s) that remove it are equivalent by "
                        "contract (id-implies-tenant)"], report.problems
    assert report.liveness["tenant-isolation"] == {"tagged": 1, "live": 0}


def test_at_tiny_a_tag_that_cannot_bite_is_reported_not_judged(tiny: Server, good: list[Question]) -> None:
    broken = _broken(good, "f001", traps=(Trap.TENANT_ISOLATION, Trap.SOFT_DELETE, Trap.CURRENCY))
    questions = [*good, broken]
    states = _states(tiny, questions)
    proofs = _proofs(tiny, questions, states)
    report = run_audit(questions, states, scale="tiny", balance=False, trap_proofs=proofs)
    assert not any(p.rule == "trap-live" for p in report.problems) and not report.traps_judged
    assert report.liveness["currency"] == {"tagged": 1, "live": 0}
    assert "(reported, not judged: trap-live is judged at bench, large, small)" in format_report(report, questions)
    judged = run_audit(questions, states, scale="small", balance=False, trap_proofs=proofs)
    assert [p.question_id for p in judged.problems if p.rule == "trap-live"] == ["b001"] and judged.traps_judged


def test_without_trap_proofs_the_rule_is_reported_not_run(good: list[Question]) -> None:
    report = run_audit(good, {}, scale="tiny", balance=False)
    assert report.liveness is None and "trap liveness: not run" in format_report(report, good)


def test_trap_liveness_counts_tagged_and_proved_questions(good: list[Question]) -> None:
    f001, f002 = _by_id(good, "f001"), _by_id(good, "f002")
    proofs = {"f001": [TrapProof("f001", "tenant-isolation", 1, (), "drop it", "tiny_42"),
                       TrapProof("f001", "soft-delete", 1)],
              "f002": [TrapProof("f002", "tenant-isolation", 1, ("id-implies-tenant",))]}
    liveness = trap_liveness([f001, f002], proofs)
    assert list(liveness) == [t.value for t in Trap]
    assert liveness["tenant-isolation"] == {"tagged": 2, "live": 1}
    assert liveness["soft-delete"] == {"tagged": 2, "live": 0}  # f002 has no proof for it: not live
    assert [(p.question_id, p.message.split(":")[0]) for p in check_trap_live([f001, f002], proofs)] == [
        ("f001", "trap soft-delete cannot bite"), ("f002", "trap tenant-isolation cannot bite"),
        ("f002", "trap soft-delete cannot bite")]


def test_duplicates_fire_on_same_text_and_same_sql(good: list[Question]) -> None:
    f001 = _by_id(good, "f001")
    same_text = replace(f001, id="b001", gold_sql=F002_SQL)
    same_sql = replace(f001, id="b002", question="Another wording", gold_sql=F001_SQL.replace("\n", "  \n").upper()
                       .replace("'HALYARD OUTFITTERS'", "'Halyard Outfitters'"))
    report = run_audit([f001, same_text, same_sql], {}, scale="tiny", balance=False)
    messages = {(p.question_id, p.message) for p in report.problems if p.rule == "duplicates"}
    assert ("b001", "same question text as f001") in messages
    assert ("b002", "same gold SQL as f001") in messages


def _run(types: tuple[str, ...], rows: list[tuple], seconds: float = 0.001) -> QuestionRun:
    rs = ResultSet(columns=tuple(Column(f"c{i}", t) for i, t in enumerate(types)), rows=rows)
    return QuestionRun(gold=Execution(rs, None, seconds))


def test_latency_fires_on_a_slow_gold_and_a_slow_median() -> None:
    runs = {"q1": _run(("bigint",), [(1,)], 2.5), **{f"q{i}": _run(("bigint",), [(1,)], 0.001) for i in (2, 3, 4)}}
    assert [p.question_id for p in check_latency(runs, "small_42")] == ["q1"]
    slow = {f"q{i}": _run(("bigint",), [(1,)], 0.2) for i in range(3)}
    assert [p.question_id for p in check_latency(slow, "small_42")] == [None]


def test_shape_stable_fires_when_types_differ_across_states(good: list[Question]) -> None:
    states = {"tiny_42": {"f001": _run(("text", "bigint"), [("a", 1)])},
              "tiny_43": {"f001": _run(("text", "numeric"), [("a", 1)])}}
    problems = check_shape_stable([_by_id(good, "f001")], states)
    assert [p.rule for p in problems] == ["shape-stable"]


def test_balance_fires_on_a_small_set(good: list[Question]) -> None:
    messages = [p.message for p in check_balance(good)]
    assert "shape single: 0 questions (need 20)" in messages
    assert "1 empty probes (need 2–4)" in messages


def test_a_question_without_a_natural_text_fails_the_natural_rule(good: list[Question]) -> None:
    from heron_pipeline.questions.audit import check_natural

    assert [p.question_id for p in check_natural([*good, _broken(good, "f001", natural=None)])] == ["b001"]
    assert check_natural(good) == []


def test_every_rule_has_a_fixture() -> None:
    covered = set(BROKEN) | {"duplicates", "latency", "shape-stable", "balance"}
    assert covered == set(RULES)


def test_gold_artifact_round_trips_and_is_content_addressed(tiny: Server, good: list[Question], tmp_path) -> None:
    runs = _states(tiny, good)["tiny_42"]
    path, digest = write_gold_artifact(tmp_path, "tiny", 42, runs)
    assert path == tmp_path / "gold" / "tiny_42" / f"{digest}.json"
    assert write_gold_artifact(tmp_path, "tiny", 42, runs) == (path, digest)
    stored = read_gold_artifact(path)
    for qid, run in runs.items():
        result, latency, error = stored[qid]
        assert error is None and latency >= 0
        assert result.columns == run.gold.result.columns and result.rows == run.gold.result.rows

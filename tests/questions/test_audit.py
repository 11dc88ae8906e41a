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
from heron_pipeline.questions.audit import (RULE_NAMES, RULES, check_balance, check_latency, check_shape_stable,
                                            check_trap_live, format_report, run_audit, trap_liveness)
from heron_pipeline.questions.gold import Execution, QuestionRun, read_gold_artifact, run_state, write_gold_artifact
from heron_pipeline.questions.model import Question, Trap, load_questions
from heron_pipeline.results import Column, ResultSet
from heron_pipeline.seeding.build import build

GOOD_DIR = Path(__file__).parent / "fixtures" / "good"
SEEDS = (42, 43)
#: Three questions cannot meet the balance rule: every test judges the other rules.
NO_BALANCE = tuple(rule for rule in RULES if rule.name != "balance")
#: trap-live is judged from small up (audit.TRAP_LIVE_SCALES); these fixtures bite on tiny, so judge them here.
TRAPS_AT_EVERY_SCALE = tuple(replace(rule, scales=None) if rule.name == "trap-live" else rule for rule in NO_BALANCE)


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
    return run_audit(questions, states, scale="tiny", trap_proofs=_proofs(server, questions, states),
                     rules=TRAPS_AT_EVERY_SCALE)


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
    report = run_audit(questions, states, scale="tiny", trap_proofs=proofs, rules=NO_BALANCE)
    assert not any(p.rule == "trap-live" for p in report.problems) and not report.traps_judged
    assert {p.rule for p in report.problems} == {"duplicates"}  # b001 is f001 retagged: only the copy is found
    assert report.not_judged == {"trap-live": "judged at small, bench, large only; this audit is at tiny"}
    assert report.liveness["currency"] == {"tagged": 1, "live": 0}
    text = format_report(report, questions)
    assert "(reported, not judged: trap-live is judged at small, bench, large)" in text
    assert "trap-live      not judged: judged at small, bench, large only; this audit is at tiny" in text
    judged = run_audit(questions, states, scale="small", trap_proofs=proofs, rules=NO_BALANCE)
    assert [p.question_id for p in judged.problems if p.rule == "trap-live"] == ["b001"] and judged.traps_judged


def test_without_trap_proofs_the_rule_is_reported_not_run(good: list[Question]) -> None:
    report = run_audit(good, {}, scale="small", rules=NO_BALANCE)
    assert report.liveness is None and "trap liveness: not run" in format_report(report, good)
    assert report.not_judged["trap-live"].startswith("no trap proofs")


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
    report = run_audit([f001, same_text, same_sql], {}, scale="tiny", rules=NO_BALANCE)
    messages = {(p.question_id, p.message) for p in report.problems if p.rule == "duplicates"}
    assert ("b001", "same question text as f001") in messages
    assert ("b002", "same gold SQL as f001") in messages


def _run(types: tuple[str, ...], rows: list[tuple], seconds: float = 0.001) -> QuestionRun:
    rs = ResultSet(columns=tuple(Column(f"c{i}", t) for i, t in enumerate(types)), rows=rows)
    return QuestionRun(gold=Execution(rs, None, seconds))


def test_latency_fires_on_a_slow_gold_and_a_slow_median() -> None:
    runs = {"q1": _run(("bigint",), [(1,)], 2.5), **{f"q{i}": _run(("bigint",), [(1,)], 0.001) for i in (2, 3, 4)}}
    assert [p.question_id for p in check_latency([], runs, "small_42")] == ["q1"]
    slow = {f"q{i}": _run(("bigint",), [(1,)], 0.2) for i in range(3)}
    assert [p.question_id for p in check_latency([], slow, "small_42")] == [None]


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
    assert covered == set(RULE_NAMES)


def test_gold_artifact_round_trips_and_is_content_addressed(tiny: Server, good: list[Question], tmp_path) -> None:
    runs = _states(tiny, good)["tiny_42"]
    path, digest = write_gold_artifact(tmp_path, "tiny", 42, runs)
    assert path == tmp_path / "gold" / "tiny_42" / f"{digest}.json"
    assert write_gold_artifact(tmp_path, "tiny", 42, runs) == (path, digest)
    stored = read_gold_artifact(path)
    for qid, run in runs.items():
        result, error = stored[qid]
        assert error is None
        assert result.columns == run.gold.result.columns and result.rows == run.gold.result.rows
    assert "latency" not in path.read_text()  # a timing would make two runs of one state differ


# -- the table and its loop ---------------------------------------------------------------------------


def test_the_table_declares_each_rule_once_with_a_check_name() -> None:
    assert len(RULE_NAMES) == len(set(RULE_NAMES)) == len({r.check_name for r in RULES})
    assert {r.name: sorted(r.scales) for r in RULES if r.scales is not None} == {
        "latency": ["small", "tiny"], "trap-live": ["bench", "large", "small"]}
    assert next(r for r in RULES if r.name == "trap-live").check_name == "trap_live"
    assert all(r.description and r.blocking for r in RULES)


def _good_runs(good: list[Question], seed: int) -> dict:
    """Hand-made runs of the good fixture: each answer differs by seed, so every rule can pass."""
    return {q.id: _run(("bigint",), [] if q.empty_probe else [(seed,)]) for q in good}


def _judged(good: list[Question], scale: str, seeds: tuple[int, ...], prove=None) -> dict:
    from heron_pipeline.questions.audit import judge
    from heron_pipeline.questions.evidence import Evidence

    states = {f"{scale}_{s}": _good_runs(good, s) for s in seeds}
    return judge(good, Evidence(scale, states, prove), NO_BALANCE)


# (scale, seeds, with proofs?) -> rule -> why it is not judged; every other rule is judged
NOT_JUDGED_CASES = [
    ("tiny", (42, 43, 44), True, {"trap-live": "judged at small, bench, large only; this audit is at tiny"}),
    ("tiny", (42,), True, {"shape-stable": "needs at least two seeds; 1 state audited (tiny_42)",
                           "varies": "needs at least two seeds; 1 state audited (tiny_42)",
                           "trap-live": "judged at small, bench, large only; this audit is at tiny"}),
    ("small", (42, 43), True, {}),
    ("small", (42, 43), False, {"trap-live": "no trap proofs: the mutants run on the audited states, and this "
                                             "audit was given no server"}),
    ("bench", (42, 43), True, {"latency": "judged at tiny, small only; this audit is at bench"}),
    ("small", (), True, {rule: "no state was run" for rule in ("executes", "non-empty", "alt-agrees", "repeatable",
                                                               "ties", "latency")}
     | {"shape-stable": "needs at least two seeds; 0 states audited", "varies": "needs at least two seeds; 0 states "
                                                                                "audited"}),
]


@pytest.mark.parametrize("scale, seeds, proofs, expected", NOT_JUDGED_CASES)
def test_each_rule_not_judged_is_reported_under_its_own_name_and_reason(good, scale, seeds, proofs, expected) -> None:
    outcomes = _judged(good, scale, seeds, (lambda: {}) if proofs else None)
    assert list(outcomes) == list(RULE_NAMES[:RULE_NAMES.index("balance")]) + ["trap-live"]
    assert {name: o.reason for name, o in outcomes.items() if not o.judged} == expected
    assert {name for name, o in outcomes.items() if o.judged and o.status != "passed"} == set()


def test_trap_proofs_are_made_only_where_trap_live_is_judged(good: list[Question]) -> None:
    calls = []
    _judged(good, "tiny", (42, 43), lambda: calls.append("tiny") or {})
    _judged(good, "small", (42, 43), lambda: calls.append("small") or {})
    assert calls == ["small"]


def test_ties_fire_on_a_limit_without_order_by_on_every_state(good: list[Question]) -> None:
    from heron_pipeline.questions.audit import check_ties

    sql = "SELECT o.id FROM orders.orders AS o LIMIT 3"
    limited = _broken(good, "f001", gold_sql=sql, alt_sql=None, gold_tables=("orders.orders",))
    runs = {"b001": _run(("bigint",), [(1,), (2,), (3,)])}  # unordered: the gold step made no tie probe
    assert [p.message for p in check_ties([limited], runs, "tiny_42")] == [
        "tiny_42: LIMIT without an outermost ORDER BY returns arbitrary rows"]
    assert check_ties([_by_id(good, "f001")], {"f001": runs["b001"]}, "tiny_42") == []


# (gold SQL, rows as fetched, rows as stored): sorted where the query leaves the order open
CANONICAL_CASES = [
    ("SELECT x FROM t", [(3,), (1,), (2,)], [(1,), (2,), (3,)]),
    ("SELECT x, y FROM t ORDER BY x", [(1, "b"), (1, "a"), (0, "z")], [(1, "a"), (1, "b"), (0, "z")]),
    ("SELECT x FROM t ORDER BY x DESC", [(3,), (2,), (1,)], [(3,), (2,), (1,)]),
    ("SELECT x FROM t ORDER BY y", [(2,), (1,)], [(2,), (1,)]),  # a hidden sort key: kept as fetched
]


@pytest.mark.parametrize("sql, fetched, stored", CANONICAL_CASES)
def test_the_gold_is_kept_in_canonical_order_where_the_query_leaves_it_open(sql, fetched, stored) -> None:
    from heron_pipeline.questions.gold import in_canonical_order

    types = ("bigint", "text")[:len(fetched[0])]
    run = in_canonical_order(_run(types, fetched).gold, sql)
    assert run.result.rows == stored and run.result.columns == _run(types, fetched).gold.result.columns

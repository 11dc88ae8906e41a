"""Question instances: slots, the draw, literal safety and the public set (issue 28)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from heron_pipeline.bench.inputs import instance_set
from heron_pipeline.questions import QUESTIONS_DIR, QuestionError, load_questions, questions_digest
from heron_pipeline.questions.instances import REDRAW_BUDGET, draw_instances
from heron_pipeline.questions.natural_rules import natural_problems
from heron_pipeline.questions.slots import Substitution, load_slots, parse_slot, render_sql, render_text, sql_literal

QUESTIONS = load_questions(QUESTIONS_DIR)
BY_ID = {q.id: q for q in QUESTIONS}
SLOTS = load_slots(QUESTIONS_DIR, QUESTIONS)
DIGEST = questions_digest(QUESTIONS_DIR)


def draw(seed: int, attempts=None, slots=None, questions=None):
    return draw_instances(questions or QUESTIONS, SLOTS if slots is None else slots, seed, base_digest=DIGEST,
                          slots_digest="s", attempts=attempts)


# --- hand-checked rendering cases ------------------------------------------------------------------

SQL_CASES = [
    # (sql, substitution, expected)
    ("SELECT 1 FROM t WHERE name = 'Halyard Outfitters'", Substitution(strings={"Halyard Outfitters": "O'Brien"}),
     "SELECT 1 FROM t WHERE name = 'O''Brien'"),
    ("SELECT 1 FROM t WHERE name = 'a' -- 'a' in a comment stays\n", Substitution(strings={"a": "b"}),
     "SELECT 1 FROM t WHERE name = 'b' -- 'a' in a comment stays\n"),
    ('SELECT "a" FROM t WHERE x = \'a\'', Substitution(strings={"a": "b"}), 'SELECT "a" FROM t WHERE x = \'b\''),
    ("SELECT x FROM t ORDER BY x LIMIT 5", Substitution(numbers={"5": 7}), "SELECT x FROM t ORDER BY x LIMIT 7"),
    ("SELECT x FROM t WHERE y > 15 LIMIT 5", Substitution(numbers={"5": 7}), "SELECT x FROM t WHERE y > 15 LIMIT 7"),
    ("WHERE d >= DATE '2025-01-01' AND d < TIMESTAMPTZ '2026-01-01 00:00:00+00'", Substitution(year_shift=-1),
     "WHERE d >= DATE '2024-01-01' AND d < TIMESTAMPTZ '2025-01-01 00:00:00+00'"),
    ("WHERE d >= DATE '2025-01-01' AND d < DATE '2026-07-01'",
     Substitution(year_shift=-2, fixed_dates=("2026-07-01",)), "WHERE d >= DATE '2023-01-01' AND d < DATE '2026-07-01'"),
    ("WHERE d >= DATE '2026-06-30' - 89", Substitution(numbers={"89": 29}), "WHERE d >= DATE '2026-06-30' - 29"),
    ("WHERE d >= TIMESTAMPTZ '2026-04-02 00:00:00+00'", Substitution(dates={"2026-04-02": "2026-06-01"}),
     "WHERE d >= TIMESTAMPTZ '2026-06-01 00:00:00+00'"),
    ("WHERE name = 'x'", Substitution(strings={"x": "back\\slash"}), "WHERE name = 'back\\slash'"),
]


@pytest.mark.parametrize("sql, sub, expected", SQL_CASES)
def test_render_sql_cases(sql: str, sub: Substitution, expected: str) -> None:
    assert render_sql(sql, sub) == expected


TEXT_CASES = [
    ("Won deals closed in 2025 per currency", Substitution(year_shift=-1), "Won deals closed in 2024 per currency"),
    ("January versus December 2024", Substitution(year_shift=-1), "January versus December 2023"),
    ("overdue at 2026-06-30, since 2025", Substitution(year_shift=-1, fixed_dates=("2026-06-30",)),
     "overdue at 2026-06-30, since 2024"),
    ("trials started 2024–2025", Substitution(year_shift=-1), "trials started 2023–2024"),
    ("Closed chats; closed ones", Substitution(words={"closed": "open"}), "Open chats; open ones"),
    ("top 5 agents, 15 tickets", Substitution(words={"5": "8"}), "top 8 agents, 15 tickets"),
    ("Active products with 8+ SKUs", Substitution(words={"8": "6"}), "Active products with 6+ SKUs"),
    ("Halyard Outfitters carts", Substitution(words={"Halyard Outfitters": "Orchard & Vine Hospitality"}),
     "Orchard & Vine Hospitality carts"),
]


@pytest.mark.parametrize("text, sub, expected", TEXT_CASES)
def test_render_text_cases(text: str, sub: Substitution, expected: str) -> None:
    assert render_text(text, sub) == expected


# --- literal safety ----------------------------------------------------------------------------------

@given(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), max_size=40))
def test_a_string_value_is_always_one_literal(value: str) -> None:
    from sqlglot.dialects.postgres import Postgres
    from sqlglot.tokens import TokenType

    sql = render_sql("SELECT 1 WHERE name = 'Halyard Outfitters' AND 1 = 1",
                     Substitution(strings={"Halyard Outfitters": value}))
    tokens = Postgres().tokenize(sql)
    strings = [t for t in tokens if t.token_type is TokenType.STRING]
    assert [t.text for t in strings] == [value]
    # nothing after the literal changed: the statement still ends with the same tokens
    assert [t.text for t in tokens][-4:] == ["AND", "1", "=", "1"]


def test_sql_literal_refuses_what_it_cannot_render() -> None:
    for bad in (None, True, 1.5, "nul\x00"):
        with pytest.raises(ValueError):
            sql_literal(bad)
    assert sql_literal(dt.date(2025, 1, 1)) == "'2025-01-01'"


def test_quotes_and_backslashes_survive_postgres(tiny42) -> None:
    """A value with a quote and a backslash, rendered by sql_literal, is that value in PostgreSQL."""
    for value in ("O'Brien & Co", "back\\slash", "''", "\\'; DROP TABLE x; --"):
        with tiny42.connect("heron_tiny_42") as conn:
            assert conn.execute(f"SELECT {sql_literal(value)}").fetchone()[0] == value


# --- the public set and the draw ---------------------------------------------------------------------

def test_instance_seed_zero_is_the_public_set_byte_for_byte() -> None:
    public = instance_set(QUESTIONS_DIR, 0)
    assert public.digest == DIGEST
    assert list(public.questions) == QUESTIONS  # texts, SQL and every other field as in the YAML
    assert draw(0).questions == tuple(QUESTIONS)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=1, max_value=2**62))
def test_a_draw_is_deterministic(seed: int) -> None:
    first, second = draw(seed), draw(seed)
    assert json.dumps(first.lines()) == json.dumps(second.lines())
    assert first.digest == second.digest != DIGEST


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=1, max_value=2**62), st.sampled_from(sorted(SLOTS)))
def test_a_new_question_or_slot_does_not_move_the_others(seed: int, removed: str) -> None:
    full = draw(seed)
    fewer_slots = draw(seed, slots={k: v for k, v in SLOTS.items() if k != removed})
    fewer_questions = draw(seed, questions=[q for q in QUESTIONS if q.id != removed])
    for drawn in (fewer_slots, fewer_questions):
        others = {q.id: q for q in drawn.questions if q.id != removed}
        assert others == {q.id: q for q in full.questions if q.id != removed}
    # and a slot of its own moves only its question: the first slot dropped leaves the others' values
    if len(SLOTS[removed]) > 1:
        one_less = draw(seed, slots={**SLOTS, removed: SLOTS[removed][1:]})
        assert one_less.values[removed] == {k: v for k, v in full.values[removed].items()
                                            if k != SLOTS[removed][0].name}


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=1, max_value=2**62))
def test_a_draw_never_returns_a_public_value_and_changes_every_text(seed: int) -> None:
    drawn = draw(seed)
    for q in drawn.questions:
        for slot in SLOTS.get(q.id, ()):
            assert drawn.values[q.id][slot.name] != slot.public
        if q.id in SLOTS:
            public = BY_ID[q.id]
            assert q.natural != public.natural and q.question != public.question
            assert q.gold_sql != public.gold_sql and q.alt_sql != public.alt_sql


def test_a_redraw_moves_only_its_question() -> None:
    first, again = draw(7), draw(7, attempts={"q007": 1})
    changed = [a.id for a, b in zip(first.questions, again.questions) if a != b]
    assert changed in (["q007"], [])  # [] only when the stream repeats the value
    assert again.attempts == {"q007": 1} and again.digest != first.digest or changed == []


def test_every_draw_passes_the_natural_rules_within_its_redraw_budget() -> None:
    """For 40 draws, every question's natural text passes the natural rules at redraw 0 or at a later one
    (the audit redraws it); at redraw 0, at most 2 % of the drawn texts need one."""
    first_try_failures, total = 0, 0
    for seed in range(1, 41):
        drawn = draw(seed)
        for q in drawn.questions:
            if q.id not in SLOTS:
                continue
            total += 1
            if not natural_problems(q.natural):
                continue
            first_try_failures += 1
            assert any(not natural_problems(BY_ID_DRAWN(seed, q.id, n).natural) for n in range(1, REDRAW_BUDGET + 1)), \
                f"{q.id} under instance seed {seed}: no redraw passes the natural rules"
    assert first_try_failures <= 0.02 * total


def BY_ID_DRAWN(seed: int, qid: str, attempt: int):  # noqa: N802 - a lookup helper for the test above
    return {q.id: q for q in draw(seed, attempts={qid: attempt}).questions}[qid]


def test_at_least_80_questions_vary_and_texts_differ_across_draws() -> None:
    texts: dict[str, set[str]] = {q.id: {q.natural} for q in QUESTIONS}  # the public text, then 30 draws
    for seed in range(1, 31):
        for q in draw(seed).questions:
            texts.setdefault(q.id, set()).add(q.natural)
    varying = [qid for qid, seen in texts.items() if len(seen) > 1]
    assert len(varying) >= 80
    assert set(varying) == set(SLOTS)


# --- the slots file refuses what would make a wrong question ------------------------------------------

def test_a_slot_whose_value_is_not_in_the_texts_is_refused() -> None:
    q = BY_ID["q007"]
    with pytest.raises(QuestionError, match="q007 slot tenant: the natural text does not mention"):
        parse_slot(replace(q, natural="How many active customers per customer tier?"), "tenant",
                   {"kind": "tenant", "public": "Kestrel Foodservice"}, "slots.yaml")
    with pytest.raises(QuestionError, match="gold_sql holds no literal"):
        parse_slot(q, "top", {"kind": "number", "public": 5, "values": [3, 4]}, "slots.yaml")
    with pytest.raises(QuestionError, match="kind one of"):
        parse_slot(q, "tenant", {"kind": "planet"}, "slots.yaml")


def test_a_years_slot_keeps_dates_inside_the_data() -> None:
    slot = parse_slot(BY_ID["q011"], "period", {"kind": "years", "values": [-1, 1, 2, 5]}, "slots.yaml")
    assert slot.values == (1, 2)  # 2023 has no earlier year of data; +5 leaves it


def test_instances_cli_writes_the_contract_lines(tmp_path: Path) -> None:
    from heron_pipeline.cli import main

    out = tmp_path / "i.jsonl"
    assert main(["instances", "--instance-seed", "0", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(d["id"], d["question"], d["natural"], d["gold_sql"], d["alt_sql"]) for d in lines] == \
        [(q.id, q.question, q.natural, q.gold_sql, q.alt_sql) for q in QUESTIONS]
    assert main(["instances", "--instance-seed", "9", "--out", str(out)]) == 0
    drawn = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {d["id"] for d in drawn if d["slots"]} == set(SLOTS)
    assert all(set(d) >= {"id", "question", "natural", "gold_sql", "alt_sql", "slots"} for d in drawn)


class _Audit:
    """An audit verdict as ``audited_instances`` reads it: failed rules and problems naming questions."""

    def __init__(self, problems: list[dict]) -> None:
        self.problems = problems
        self.failed_rules = sorted({p["rule"] for p in problems})
        self.passed = not problems


def _audit_failing(always: set[str], set_rule: bool = False):
    """An ``audit_once`` under which the questions ``always`` fail trap-live whatever their values (a trap
    that cannot bite on the states), and optionally a rule of the whole set fails too."""
    seen: list[tuple[str, ...]] = []

    def audit_once(questions, digest):
        seen.append(tuple(q.id for q in questions))
        problems = [{"rule": "trap-live", "question_id": q.id} for q in questions if q.id in always]
        if set_rule:
            problems.append({"rule": "cross-seed", "question_id": None})
        return _Audit(problems), {}
    return audit_once, seen


def test_a_hidden_draw_withholds_a_question_no_redraw_fixes_and_names_it() -> None:
    from heron_pipeline.bench.instances import audited_instances

    varying = next(q.id for q in QUESTIONS if SLOTS.get(q.id))
    fixed = next(q.id for q in QUESTIONS if not SLOTS.get(q.id))  # no slots: no redraw at all
    audit_once, seen = _audit_failing({varying, fixed})
    said: list[str] = []
    drawn, audit, _ = audited_instances(QUESTIONS_DIR, 7, audit_once, say=said.append, label="night", withhold=True)
    assert audit.passed and drawn.withheld == tuple(sorted({varying, fixed}))
    assert {q.id for q in drawn.questions} == {q.id for q in QUESTIONS} - {varying, fixed}
    assert len(seen) == REDRAW_BUDGET + 2  # the first audit, a redraw per budget step, the audit without them
    assert any("withheld from the draw" in m and varying in m and fixed in m for m in said)
    full = instance_set(QUESTIONS_DIR, 7, {varying: REDRAW_BUDGET})
    assert drawn.digest != full.digest  # a draw with questions withheld is another draw
    again, _, _ = audited_instances(QUESTIONS_DIR, 7, _audit_failing({varying, fixed})[0], withhold=True)
    assert again.digest == drawn.digest  # and the same one every time (a retired night recomputes it)


def test_a_public_or_unwithheld_draw_fails_and_a_set_rule_is_never_withheld() -> None:
    from heron_pipeline.bench.instances import audited_instances

    fixed = next(q.id for q in QUESTIONS if not SLOTS.get(q.id))
    drawn, audit, _ = audited_instances(QUESTIONS_DIR, 7, _audit_failing({fixed})[0])  # withhold off
    assert not audit.passed and drawn.withheld == () and fixed in {q.id for q in drawn.questions}
    drawn, audit, _ = audited_instances(QUESTIONS_DIR, 7, _audit_failing({fixed}, set_rule=True)[0], withhold=True)
    assert not audit.passed and drawn.withheld == ()  # leaving questions out cannot fix a rule of the set
    with pytest.raises(ValueError, match="public set withholds"):
        instance_set(QUESTIONS_DIR, 0, None, (fixed,))

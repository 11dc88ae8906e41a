"""The training set of questions/train/: strictly loaded, disjoint from the evaluation set, and
every example executes and answers something on the tiny states.

The disjointness is proved on the real files (no shared question text, no training SQL equal to a
gold or alt SQL after sqlglot normalisation), and each training rule is shown to fire on a pair
broken in exactly its way.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from heron_pipeline.database.server import Server
from heron_pipeline.questions import QUESTIONS_DIR, load_questions
from heron_pipeline.questions.audit import (TRAINING_RULES, check_training_runs,
                                            check_training_set, check_training_static)
from heron_pipeline.questions.evidence import normalised_text
from heron_pipeline.questions.gold import Execution
from heron_pipeline.questions.model import QuestionError
from heron_pipeline.questions.sql_facts import normalized_sql
from heron_pipeline.questions.train import (TRAIN_DIR, load_training_pairs, run_training_pairs, training_digest)
from heron_pipeline.results import Column, ResultSet
from heron_pipeline.seeding.build import build

SEEDS = (42, 43)


@pytest.fixture(scope="module")
def pairs():
    return load_training_pairs()


@pytest.fixture(scope="module")
def questions():
    return load_questions(QUESTIONS_DIR)


def test_the_training_set_has_at_least_30_pairs_in_its_own_folder(pairs, questions) -> None:
    assert len(pairs) >= 30
    assert len({p.id for p in pairs}) == len(pairs)
    assert TRAIN_DIR.parent == QUESTIONS_DIR
    # the evaluation loader never sees them
    assert not {p.id for p in pairs} & {q.id for q in questions}
    assert all(q.source != "train" and not q.id.startswith("t") for q in questions)
    # many domains: at least 12 of the 14 schemas are read by some pair
    assert len({t.split(".")[0] for p in pairs for t in p.tables}) >= 12


def test_no_training_pair_shares_text_or_sql_with_an_evaluation_question(pairs, questions) -> None:
    eval_texts = {normalised_text(q.question) for q in questions}
    eval_sql = {normalized_sql(s) for q in questions for s in (q.gold_sql, q.alt_sql) if s}
    assert not {normalised_text(p.question) for p in pairs} & eval_texts
    assert not {normalized_sql(p.sql) for p in pairs} & eval_sql
    assert check_training_static(pairs, questions) == []


def test_static_rules_fire_on_broken_pairs(pairs, questions) -> None:
    base = pairs[0]
    q = questions[0]
    broken = [
        replace(base, id="t901", question=q.question.upper() + " "),  # same text, other case/space
        replace(base, id="t902", question="Another question entirely",
                sql=q.gold_sql.replace("\n", "\n  ").lower()),  # the gold reformatted
        replace(base, id="t903", question="Yet another question", sql=base.sql,
                tables=(*base.tables, "crm.accounts")),
        replace(base, id="t904", question="A fourth question", sql="SELEC 1 FRM x"),
    ]
    found = {(p.rule, p.question_id) for p in check_training_static(broken, questions)}
    assert ("train-disjoint", "t901") in found
    assert ("train-disjoint", "t902") in found
    assert ("train-tables", "t903") in found
    assert ("train-parses", "t904") in found
    assert {rule for rule, _ in found} <= set(TRAINING_RULES)


def _rows(n: int) -> Execution:
    return Execution(ResultSet(columns=(Column("c", "int8"),), rows=[(i,) for i in range(n)]), None, 0.01)


def test_run_rules_fire_on_errors_empty_results_and_missing_runs(pairs) -> None:
    a, b, c = pairs[:3]
    states = {"tiny_42": {a.id: _rows(2), b.id: _rows(0), c.id: Execution(None, "UndefinedColumn: x", 0.0)},
              "tiny_43": {a.id: _rows(1), b.id: _rows(3)}}
    found = {(p.rule, p.question_id, p.message.split(":")[0]) for p in check_training_runs([a, b, c], states)}
    assert found == {("train-non-empty", b.id, "tiny_42"), ("train-executes", c.id, "tiny_42"),
                     ("train-executes", c.id, "tiny_43")}


@pytest.fixture(scope="module")
def tiny(server: Server) -> Server:
    for seed in SEEDS:
        if not server.database_exists(f"heron_tiny_{seed}"):
            build(server, "tiny", seed)
    return server


def test_every_pair_executes_and_is_non_empty_on_the_tiny_states(tiny: Server, pairs, questions) -> None:
    states = {}
    for seed in SEEDS:
        with tiny.connect(f"heron_tiny_{seed}") as conn:
            states[f"tiny_{seed}"] = run_training_pairs(conn, pairs)
    problems = check_training_set(pairs, questions, states)
    assert problems == [], "\n".join(f"[{p.rule}] {p.question_id}: {p.message}" for p in problems)
    # and the check is not vacuous: a pair answering nothing on these states is caught
    empty = replace(pairs[0], id="t999", sql="SELECT p.code FROM tenancy.plans p WHERE p.code = 'no-such-plan'",
                    tables=("tenancy.plans",))
    with tiny.connect("heron_tiny_42") as conn:
        runs = {"tiny_42": run_training_pairs(conn, [empty])}
    assert [p.rule for p in check_training_runs([empty], runs)] == ["train-non-empty"]


def _write(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "01_x.yaml").write_text(text, encoding="utf-8")
    return directory


GOOD = "- id: t001\n  question: How many plans?\n  sql: SELECT count(*) FROM tenancy.plans\n  tables: [tenancy.plans]\n"


@pytest.mark.parametrize("text, message", [
    (GOOD + "  extra: 1\n", "unknown key(s) extra"),
    ("- id: t001\n  question: q\n  sql: SELECT 1\n", "missing field(s) tables"),
    (GOOD.replace("t001", "q001"), "t followed by three digits"),
    (GOOD.replace("[tenancy.plans]", "[plans]"), "schema-qualified"),
    (GOOD + GOOD.replace("How many plans?", "Other?"), "duplicate id"),
    ("id: t001\n", "YAML list"),
    ("- [unclosed\n", "not valid YAML"),
])
def test_the_loader_refuses_malformed_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(QuestionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_training_pairs(_write(tmp_path / "train", text))


def test_digest_follows_the_bytes(tmp_path: Path) -> None:
    directory = _write(tmp_path / "train", GOOD)
    first = training_digest(directory)
    [pair] = load_training_pairs(directory)
    assert pair.tables == ("tenancy.plans",) and pair.source == "01_x.yaml"
    (directory / "01_x.yaml").write_text(GOOD.replace("How many", "How many platform"), encoding="utf-8")
    assert training_digest(directory) != first

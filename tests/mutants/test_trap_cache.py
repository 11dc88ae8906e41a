"""The trap-mutant table read back from disk is the table made, and any changed input makes it again."""

from __future__ import annotations

from types import SimpleNamespace

from heron_pipeline.mutants.answers import trap_mutant_table
from heron_pipeline.mutants.trap_cache import cached_table, table_key

GOLD = ("SELECT t.name, count(*) FROM crm.accounts a JOIN tenancy.tenants t ON t.id = a.tenant_id "
        "WHERE a.deleted_at IS NULL AND a.tenant_id = 3 GROUP BY t.name ORDER BY 2 DESC, t.name")


def _questions(gold: str = GOLD) -> list[SimpleNamespace]:
    return [SimpleNamespace(id="q001", gold_sql=gold), SimpleNamespace(id="q002", gold_sql="SELECT 1")]


def _counting(questions):
    calls = []

    def make():
        calls.append(1)
        return trap_mutant_table(questions, None)

    return make, calls


def test_the_table_read_back_equals_the_table_made_and_is_not_made_twice(tmp_path) -> None:
    questions = _questions()
    make, calls = _counting(questions)
    first = cached_table(questions, "inputs-a", tmp_path, make)
    second = cached_table(questions, "inputs-a", tmp_path, make)
    assert calls == [1]
    assert first == second == trap_mutant_table(questions, None)
    assert any(first["q001"]) and first["q002"] == []  # a real table: q001 has trap mutants
    assert all(m.traps for m in first["q001"])


def test_a_changed_gold_or_input_key_makes_the_table_again(tmp_path) -> None:
    questions = _questions()
    make, calls = _counting(questions)
    cached_table(questions, "inputs-a", tmp_path, make)
    cached_table(questions, "inputs-b", tmp_path, make)  # DDL, profiles or a library changed
    changed = _questions(GOLD.replace("a.tenant_id = 3", "a.tenant_id = 4"))
    make_changed, calls_changed = _counting(changed)
    table = cached_table(changed, "inputs-a", tmp_path, make_changed)
    assert calls == [1, 1] and calls_changed == [1]
    assert any("4" in m.sql for m in table["q001"])
    assert table_key(questions, "x") != table_key(changed, "x") != table_key(changed, "y")


def test_a_damaged_or_foreign_cache_file_is_made_again_not_trusted(tmp_path) -> None:
    questions = _questions()
    make, calls = _counting(questions)
    cached_table(questions, "inputs-a", tmp_path, make)
    [path] = list(tmp_path.glob("trap-mutants-*.json"))
    for damage in (b"{not json", b'{"format": 1, "table": {"q001": []}}', b'{"format": 99, "table": {}}'):
        path.write_bytes(damage)
        assert cached_table(questions, "inputs-a", tmp_path, make) == trap_mutant_table(questions, None)
    assert calls == [1, 1, 1, 1]

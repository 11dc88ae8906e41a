"""Each gold's trap candidates read back from disk are the ones made, a changed gold or input makes
them again (and only that gold's), and a damaged file is made again, never trusted."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from heron_pipeline.mutants import trap_cache
from heron_pipeline.mutants.answers import trap_candidates, trap_mutant_table
from heron_pipeline.mutants.trap_cache import cached_candidates, cached_table, question_key, source_key

GOLD = ("SELECT t.name, count(*) FROM crm.accounts a JOIN tenancy.tenants t ON t.id = a.tenant_id "
        "WHERE a.deleted_at IS NULL AND a.tenant_id = 3 GROUP BY t.name ORDER BY 2 DESC, t.name")


@pytest.fixture(autouse=True)
def _no_memory(monkeypatch):
    """Each test starts with an empty in-process memory (the disk is each test's own tmp_path)."""
    monkeypatch.setattr(trap_cache, "_MEMORY", {})


def _questions(gold: str = GOLD) -> list[SimpleNamespace]:
    return [SimpleNamespace(id="q001", gold_sql=gold), SimpleNamespace(id="q002", gold_sql="SELECT 1")]


def _counting():
    calls: list[str] = []

    def make(sql):
        calls.append(sql)
        return trap_candidates(sql, None)

    return make, calls


def test_the_table_read_back_equals_the_table_made_and_each_gold_is_made_once(tmp_path) -> None:
    questions = _questions()
    make, calls = _counting()
    first = cached_table(questions, "source-a", tmp_path, make)
    trap_cache._MEMORY.clear()  # a new process: read from disk
    second = cached_table(questions, "source-a", tmp_path, make)
    assert calls == [GOLD, "SELECT 1"]
    assert first == second == trap_mutant_table(questions, None)
    assert any(first["q001"]) and first["q002"] == []  # a real table: q001 has trap mutants
    assert all(m.traps and m.equivalent is None for m in first["q001"])


def test_the_candidates_keep_the_equivalent_ones_the_table_drops(tmp_path) -> None:
    make, _calls = _counting()
    candidates = cached_candidates(GOLD, "source-a", tmp_path, make)
    assert candidates == trap_candidates(GOLD, None) and all(m.traps for m in candidates)
    assert [m for m in candidates if m.equivalent is None] == cached_table(_questions(), "source-a", tmp_path,
                                                                           make)["q001"]


def test_a_redrawn_gold_makes_only_its_own_mutants(tmp_path) -> None:
    """A redraw changes one question's gold: the other question's mutants are not made again."""
    make, calls = _counting()
    cached_table(_questions(), "source-a", tmp_path, make)
    changed = _questions(GOLD.replace("a.tenant_id = 3", "a.tenant_id = 4"))
    table = cached_table(changed, "source-a", tmp_path, make)
    assert calls == [GOLD, "SELECT 1", changed[0].gold_sql]
    assert any("4" in m.sql for m in table["q001"]) and not any("= 3" in m.sql for m in table["q001"])


def test_a_changed_input_key_makes_them_again(tmp_path) -> None:
    make, calls = _counting()
    cached_table(_questions(), "source-a", tmp_path, make)
    cached_table(_questions(), "source-b", tmp_path, make)  # DDL, profiles, a library or the code changed
    assert calls == [GOLD, "SELECT 1"] * 2
    assert question_key(GOLD, "a") != question_key(GOLD, "b") != question_key("SELECT 1", "b")
    assert source_key("inputs-a") != source_key("inputs-b")


def test_a_damaged_or_foreign_cache_file_is_made_again_not_trusted(tmp_path) -> None:
    make, calls = _counting()
    cached_candidates(GOLD, "source-a", tmp_path, make)
    [path] = list((tmp_path / "trap-mutants").glob("*.json"))
    good = path.read_bytes()
    foreign = good.replace(b"tenant_id = 3", b"tenant_id = 5")  # another gold's file under this key
    for damage in (b"{not json", b'{"format": 2, "mutants": []}', b'{"format": 99}', foreign):
        path.write_bytes(damage)
        trap_cache._MEMORY.clear()
        assert cached_candidates(GOLD, "source-a", tmp_path, make) == trap_candidates(GOLD, None)
    assert len(calls) == 5

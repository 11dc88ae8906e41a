"""Dagster builds a state in two steps (``load_state_tables``, then ``finish_state``), maybe in two
processes: the row digests the load step takes travel to the finish step under the build
database's OID, so the fingerprint there reads only the structure, and is the same as the
standalone pass's."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import heron_pipeline.database.fingerprint as fingerprint_module
from heron_pipeline.artifacts import ArtifactLayout
from heron_pipeline.bench.states import finish_state, load_state_tables, stored_row_digests
from heron_pipeline.database.fingerprint import RowDigest, fingerprint_database
from heron_pipeline.database.server import Server
from heron_pipeline.seeding.build import build_oid

SCALE, SEED = "tiny", 48


def test_the_finish_step_fingerprints_with_the_load_steps_row_digests(server: Server, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rows = load_state_tables(server, tmp_path, SCALE, SEED)
    oid = build_oid(server, SCALE, SEED)
    stored = ArtifactLayout.of(tmp_path).build_row_digests(SCALE, SEED, oid)
    document = json.loads(stored.read_text())
    assert document["build_oid"] == oid and sorted(document["tables"]) == sorted(rows)

    hashed_here: list[str] = []
    table_digest = fingerprint_module._table_digest

    def counting(dsn: str, schema: str, table: str, keys: list[str]) -> tuple[str, str]:
        hashed_here.append(f"{schema}.{table}")
        return table_digest(dsn, schema, table, keys)

    monkeypatch.setattr(fingerprint_module, "_table_digest", counting)
    state, build = finish_state(server, tmp_path, SCALE, SEED)
    assert hashed_here == [] and build["row_digests_reused"] == len(rows) == 211
    monkeypatch.undo()
    assert state.fingerprint == fingerprint_database(server.benchmark_dsn(SCALE, SEED)).digest  # the standalone pass
    assert not stored.exists()  # used up: the next build has another OID
    server.drop_database(f"heron_{SCALE}_{SEED}")


def test_in_a_daemonic_process_the_finish_step_hashes_the_rows(server: Server, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A Celery prefork worker runs each step in a daemonic process, which may not start the digest
    process: the load step then stores nothing and the finish step takes the standalone pass."""
    import heron_pipeline.bench.states as states

    monkeypatch.setattr(states.multiprocessing, "current_process", lambda: SimpleNamespace(daemon=True))
    rows = load_state_tables(server, tmp_path, SCALE, SEED)
    assert not list(tmp_path.rglob("row_digests/*.json"))
    state, build = finish_state(server, tmp_path, SCALE, SEED)
    assert build["row_digests_reused"] == 0 and len(rows) == 211
    assert state.fingerprint == fingerprint_database(server.benchmark_dsn(SCALE, SEED)).digest
    server.drop_database(f"heron_{SCALE}_{SEED}")


def test_stored_row_digests_are_read_only_for_their_own_build(tmp_path: Path) -> None:
    layout = ArtifactLayout.of(tmp_path)
    path = layout.build_row_digests(SCALE, SEED, 1234)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"build_oid": 1234, "tables": {"crm.accounts": {"keys": ["id"], "digest": "ab"}}}))
    assert stored_row_digests(tmp_path, SCALE, SEED, 1234) == {"crm.accounts": RowDigest(("id",), "ab")}
    assert stored_row_digests(tmp_path, SCALE, SEED, 1235) == {}  # another build database
    assert stored_row_digests(tmp_path, SCALE, SEED, None) == {}  # no build database at all
    path.write_text(json.dumps({"build_oid": 999, "tables": {}}))  # a file under the wrong name
    assert stored_row_digests(tmp_path, SCALE, SEED, 1234) == {}
    for damaged in ("{", "[]", json.dumps({"build_oid": 1234, "tables": {"t": {"keys": ["id"]}}})):
        path.write_text(damaged)
        assert stored_row_digests(tmp_path, SCALE, SEED, 1234) == {}

"""A state's fingerprint record is a copy: the database it describes is the authority (issue 34).

A record rewritten by hand (in the working copy or in the shared store) with the right build label
and another fingerprint is named in one line and replaced — locally and, at the next push, in the
store — and the state keeps the fingerprint of its database, against the real embedded PostgreSQL
and a real S3-compatible server (moto in server mode)."""

from __future__ import annotations

import json

from heron_pipeline.artifacts import ArtifactLayout
from heron_pipeline.artifacts.store import ObjectStore, ObjectStoreURL, synchronised
from heron_pipeline.bench.states import build_state, existing_state
from heron_pipeline.database.fingerprint import fingerprint_database

BAD = "0" * 61 + "bad"


def _tamper(path) -> None:
    doc = json.loads(path.read_text())
    path.write_text(json.dumps({**doc, "fingerprint": BAD}, sort_keys=True))


def test_a_tampered_local_record_is_named_and_replaced(tiny42, tmp_path) -> None:
    truth = fingerprint_database(tiny42.benchmark_dsn("tiny", 42)).digest
    first = existing_state(tiny42, tmp_path, "tiny", 42)
    assert first.fingerprint == truth
    record = ArtifactLayout(tmp_path).state_fingerprint("tiny", 42, first.build_label)
    _tamper(record)
    said: list[str] = []
    again = build_state(tiny42, tmp_path, "tiny", 42, say=said.append)
    assert again.fingerprint == truth
    assert json.loads(record.read_text())["fingerprint"] == truth
    (line,) = [s for s in said if "fingerprint" in s]
    assert str(record) in line and BAD[:16] in line and truth[:16] in line and "\n" not in line


def test_a_tampered_store_record_is_not_propagated_and_is_repaired(tiny42, tmp_path, s3_server, s3_bucket) -> None:
    truth = fingerprint_database(tiny42.benchmark_dsn("tiny", 42)).digest
    url = ObjectStoreURL.parse(f"s3://{s3_bucket}/team", s3_server)
    writer, reader = tmp_path / "writer", tmp_path / "reader"
    with synchronised(url, writer):
        state = existing_state(tiny42, writer, "tiny", 42)
    relative = ArtifactLayout(".").state_fingerprint("tiny", 42, state.build_label).as_posix().removeprefix("./")
    store = ObjectStore(url)
    doc = json.loads(store.get(relative))
    store.put(relative, json.dumps({**doc, "fingerprint": BAD}, sort_keys=True).encode())

    for root in (writer, reader):  # the machine that held the good record, and a fresh one
        with synchronised(url, root):
            assert existing_state(tiny42, root, "tiny", 42).fingerprint == truth
        assert json.loads((root / relative).read_text())["fingerprint"] == truth
        assert json.loads(store.get(relative))["fingerprint"] == truth
        store.put(relative, json.dumps({**doc, "fingerprint": BAD}, sort_keys=True).encode())

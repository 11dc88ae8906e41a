"""`heron dump`: the same (scale, seed) built twice gives a byte-identical dump.

Two independent builds of tiny 42 — one loading with one thread, one with two worker processes,
so tables land in a different order — must give the same ``.sql.gz`` digest; seed 43 must not. The gzip header and the
``\\restrict`` key are checked directly, since either alone would make every dump differ.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from heron_pipeline.database.dump import dump_database, restrict_key
from heron_pipeline.database.server import Server
from heron_pipeline.seeding.build import build


def _dump(server: Server, seed: int, workers: int, out: Path, processes: bool = False):
    build(server, "tiny", seed, workers=workers, processes=processes)
    return dump_database(server, "tiny", seed, out)


@pytest.fixture(scope="module")
def dumps(server: Server, tmp_path_factory: pytest.TempPathFactory):
    base = tmp_path_factory.mktemp("dumps")
    first = _dump(server, 42, 1, base / "a")
    second = _dump(server, 42, 2, base / "b", processes=True)  # the loader `bench` and larger use
    other = _dump(server, 43, 2, base / "c")
    return first, second, other


def test_two_builds_give_identical_dumps(dumps) -> None:
    first, second, _ = dumps
    assert first.path.read_bytes() == second.path.read_bytes()
    assert first.sha256 == second.sha256


def test_another_seed_gives_another_dump(dumps) -> None:
    first, _, other = dumps
    assert other.sha256 != first.sha256


def test_sha256_file_matches_the_dump(dumps) -> None:
    first, _, _ = dumps
    line = first.path.with_name(first.path.name + ".sha256").read_text()
    assert line == f"{hashlib.sha256(first.path.read_bytes()).hexdigest()}  heron_tiny_42.sql.gz\n"
    assert not list(first.path.parent.glob(".*")), "no temporary files left behind"


def test_gzip_header_has_no_time_and_no_name(dumps) -> None:
    first, _, _ = dumps
    header = first.path.read_bytes()[:10]
    assert header[:3] == b"\x1f\x8b\x08"
    assert header[3] == 0, "no FNAME/FCOMMENT/FEXTRA flags"
    assert header[4:8] == b"\0\0\0\0", "mtime 0"


def test_dump_is_a_complete_plain_script_with_a_fixed_restrict_key(dumps) -> None:
    first, _, _ = dumps
    with gzip.open(first.path, "rt", encoding="utf-8") as handle:
        text = handle.read()
    key = restrict_key("tiny", 42)
    assert f"\\restrict {key}\n" in text and text.rstrip().endswith(f"\\unrestrict {key}")
    assert "PostgreSQL database dump complete" in text
    assert "COPY tenancy.tenants " in text and "Halyard Outfitters" in text
    assert "OWNER TO" not in text and "GRANT " not in text
    assert "pg_restore_relation_stats" not in text, "ANALYZE's sampled statistics must stay out"
    assert restrict_key("tiny", 43) != key and key.isalnum()

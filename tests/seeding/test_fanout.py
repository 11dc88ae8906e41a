"""Block fan-out (seeding/fanout.py): the same bytes and the same fingerprint whatever the worker
count, a bounded window, a load that stops instead of hanging when a loader fails; and the dry
run's projection from the measured throughput (seeding/throughput.py)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from heron_pipeline.cli import main
from heron_pipeline.database.server import Server
from heron_pipeline.seeding.build import build, load_order
from heron_pipeline.seeding.fanout import BlockFanout, FanoutAbandoned
from heron_pipeline.seeding.generate import Generator
from heron_pipeline.seeding.throughput import Throughput, load_throughput, projection_lines

ROOT = Path(__file__).resolve().parents[2]


def test_fanned_out_chunks_are_the_generators_bytes_in_copy_order_on_tiny() -> None:
    """Every table of tiny 42, through 2 workers with a window of 2 chunks, byte for byte what one
    process makes, chunk for chunk (the window forces the loader to wait for the pool)."""
    generator = Generator.for_state("tiny", 42)
    tables = load_order(generator, list(generator.plan.tables))
    with BlockFanout(generator, 2, tables, batch_blocks=1, in_flight=2) as fanout:
        fanned = {table: list(fanout.table_copy(table, 1)) for table in tables}
    assert fanned == {table: list(generator.table_copy(table)) for table in tables}
    assert sum(len(chunk) for chunks in fanned.values() for chunk in chunks) > 30_000_000


def test_a_table_of_several_chunks_keeps_its_order_through_the_pool() -> None:
    """At small a few tables span several blocks; one block per chunk, three workers: the chunks
    come back in block order even when a later one is made first."""
    generator = Generator.for_state("small", 42)
    table = next(t for t in sorted(generator.plan.tables) if len(generator.blocks(t)) == 3)
    with BlockFanout(generator, 3, [table], batch_blocks=1) as fanout:
        fanned = list(fanout.table_copy(table, 1))
    assert len(fanned) == 3
    assert b"".join(fanned) == b"".join(generator.table_copy(table))


def test_a_loader_waiting_for_a_chunk_is_released_when_the_load_is_abandoned() -> None:
    """With a window of one chunk, asking for the second table before the first is written waits;
    abandoning the fan-out (what a failed loader does) makes that wait raise instead of hang."""
    generator = Generator.for_state("tiny", 42)
    first, second = load_order(generator, list(generator.plan.tables))[:2]
    raised: list[BaseException] = []
    with BlockFanout(generator, 2, [first, second], batch_blocks=1, in_flight=1) as fanout:
        def take_second() -> None:
            try:
                list(fanout.table_copy(second, 1))
            except BaseException as err:  # noqa: BLE001 - the test inspects it
                raised.append(err)

        waiting = threading.Thread(target=take_second)
        waiting.start()
        waiting.join(2.0)
        assert waiting.is_alive(), "the second table's chunk was made beyond the window"
        fanout.abandon()
        waiting.join(10.0)
    assert not waiting.is_alive() and len(raised) == 1 and isinstance(raised[0], FanoutAbandoned)


def test_fanned_out_build_has_the_committed_fingerprint(server: Server) -> None:
    """tiny 42 built with 2 generate workers has the fingerprint committed for one process."""
    expected = json.loads((ROOT / "submissions" / "expected_fingerprints.json").read_text(encoding="utf-8"))
    assert build(server, "tiny", 42, generate_workers=2).fingerprint == expected["states"]["tiny"]["42"]


def test_projection_line_from_a_measured_throughput() -> None:
    measured = Throughput(machine="test box", date="2026-12-02", scale="small", seed=42, rows=4_500_000,
                          seconds=45.0, bytes_on_disk=1_000_000_000, generate_workers=1, loader_workers=2)
    lines = projection_lines(430_000_000, measured)
    # 430 M rows at 100,000 rows/s = 4,300 s; 222.2 bytes/row = 95.6 GB
    assert lines[0] == "projected: 430,000,000 rows, 95.6 GB, ~1.19 hours at the throughput measured on small (2026-12-02)"
    assert "100,000 rows/s" in lines[1] and "222 bytes/row" in lines[1]


def test_missing_throughput_file_is_one_line_naming_it_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"nowhere\.json does not exist; measure one with .*bench_fanout\.py"):
        load_throughput(tmp_path / "nowhere.json")


def test_dry_run_prints_counts_and_the_projection(capsys: pytest.CaptureFixture[str]) -> None:
    """The committed throughput.json is readable and the dry run projects the scale's rows from it."""
    assert main(["seed", "--scale", "tiny", "--seed", "42", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    total = Generator.for_state("tiny", 42).plan.total_rows
    assert f"total\t{total}" in out
    measured = load_throughput()
    assert [line for line in out if line.startswith(("projected:", "measured:"))] == projection_lines(total, measured)
    assert out[-2].startswith(f"projected: {total:,} rows, ") and f"measured on {measured.scale} (" in out[-2]


def test_generate_workers_flag_refuses_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["seed", "--scale", "tiny", "--seed", "42", "--generate-workers", "0", "--dry-run"])
    assert "--generate-workers: '0' is not a worker count" in capsys.readouterr().err

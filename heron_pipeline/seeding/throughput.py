"""A build's measured throughput, and the projection of a scale's size and time from it.

``throughput.json`` beside this module is written by ``benchmarks/bench_fanout.py
--write-throughput`` from a real build (rows, seconds and bytes on disk of ``heron seed``), with
the machine and the date it was measured on; ``heron seed --dry-run`` reads it to say what a scale
would take. The projection is linear in rows, which a larger scale does not quite follow (index
builds grow as n log n, and a database larger than RAM reads back from disk), so it is a floor to
plan with, not a promise; docs/SCALING.md says how far it held.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

#: The committed measurement (see the module docstring).
THROUGHPUT_FILE = Path(__file__).resolve().with_name("throughput.json")


@dataclass(frozen=True)
class Throughput:
    """One measured build: what was built, how long the whole ``heron seed`` took, and where."""

    machine: str  # e.g. "2 cores, 23 GB RAM, shared (load ~6)"
    date: str  # ISO date of the measurement
    scale: str
    seed: int
    rows: int
    seconds: float  # the build's own wall time (plan excluded): generate, copy, keys, fingerprint
    bytes_on_disk: int  # pg_database_size of the finished database
    generate_workers: int
    loader_workers: int
    #: CPU seconds of the build (the heron process tree, and the server's backends): unlike the
    #: wall time they hardly depend on what else the machine runs, so they size a bigger machine.
    client_cpu_seconds: float = 0.0
    server_cpu_seconds: float = 0.0

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds

    @property
    def bytes_per_row(self) -> float:
        return self.bytes_on_disk / self.rows

    @property
    def bytes_per_second(self) -> float:
        return self.bytes_on_disk / self.seconds


def load_throughput(path: Path = THROUGHPUT_FILE) -> Throughput:
    """The measurement in ``path``; ValueError with one line naming the file and the fix when it is
    missing or unreadable."""
    fix = "measure one with `python benchmarks/bench_fanout.py --scale small --write-throughput`"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Throughput(**data)
    except FileNotFoundError:
        raise ValueError(f"{path} does not exist; {fix}") from None
    except (json.JSONDecodeError, TypeError) as err:
        raise ValueError(f"{path} is not a throughput measurement ({err}); {fix}") from None


def write_throughput(throughput: Throughput, path: Path = THROUGHPUT_FILE) -> None:
    """Store a measurement (sorted keys, one field a line, so a change reads as a small diff)."""
    path.write_text(json.dumps(throughput.__dict__, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def projection_lines(rows: int, throughput: Throughput) -> list[str]:
    """What a build of ``rows`` rows projects to at ``throughput``: the contract line
    ("projected: N rows, X GB, ~H hours at the throughput measured on <scale> (<date>)") and the
    measurement it rests on."""
    size = rows * throughput.bytes_per_row
    hours = rows / throughput.rows_per_second / 3600
    return [
        f"projected: {rows:,} rows, {size / 1e9:,.1f} GB, ~{hours:,.2f} hours at the throughput measured on "
        f"{throughput.scale} ({throughput.date})",
        f"measured: {throughput.scale} seed {throughput.seed}, {throughput.rows:,} rows in {throughput.seconds:,.1f} s "
        f"= {throughput.rows_per_second:,.0f} rows/s, {throughput.bytes_per_row:,.0f} bytes/row on disk "
        f"({throughput.bytes_per_second / 1e6:,.1f} MB/s), {throughput.loader_workers} loader connections, "
        f"generate workers {throughput.generate_workers}, on {throughput.machine}",
    ]

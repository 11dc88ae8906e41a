"""Reserved database names and DSN arithmetic.

One PostgreSQL server holds every heron database, so names carry the meaning: ``heron_<S>_<N>`` is
a finished benchmark database, ``heron_build_<S>_<N>`` one being built (never read by scoring),
``heron_dagster`` Dagster's own storage, ``heron_schema`` a schema-only load for inspection.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

SCALES = ("tiny", "small", "bench", "large")
DAGSTER_DATABASE = "heron_dagster"
SCHEMA_DATABASE = "heron_schema"

_SEED_RANGE = range(0, 2**31)

#: ``application_name`` of each kind of connection a build opens, as pg_stat_activity shows it, so an
#: operator sees what each backend of ``heron_build_<S>_<N>`` does and
#: benchmarks/bench_seed_build.py ``--roles`` can sum the server's CPU per kind: the loaders (COPY,
#: each table's keys, indexes and ANALYZE), the foreign keys added while the load goes on, the row
#: digests of the fingerprint, and the rest (schemas, the keys left for after the load, the label).
BUILD_LOADER = "heron build: loader"
BUILD_FOREIGN_KEYS = "heron build: foreign keys"
BUILD_ROW_DIGESTS = "heron build: row digests"
BUILD_OTHER = "heron build"


def _check(scale: str, seed: int) -> None:
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; expected one of {', '.join(SCALES)}")
    if seed not in _SEED_RANGE:
        raise ValueError(f"seed must be an integer in 0..2^31-1, got {seed!r}")


def benchmark_database(scale: str, seed: int) -> str:
    """Name of the finished database of (scale, seed)."""
    _check(scale, seed)
    return f"heron_{scale}_{seed}"


def build_database(scale: str, seed: int) -> str:
    """Name of the database of (scale, seed) while it is being built."""
    _check(scale, seed)
    return f"heron_build_{scale}_{seed}"


_BENCHMARK_NAME = re.compile(r"^heron_(build_)?(" + "|".join(SCALES) + r")_(\d+)$")


def parse_benchmark_database(name: str) -> tuple[str, int, bool] | None:
    """(scale, seed, is_build) for a reserved benchmark name, else None."""
    match = _BENCHMARK_NAME.match(name)
    if not match:
        return None
    return match.group(2), int(match.group(3)), match.group(1) is not None


def with_database(dsn: str, database: str) -> str:
    """The same server DSN pointed at another database (URL or key=value form)."""
    if "://" in dsn:
        parts = urlsplit(dsn)
        return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))
    pairs = [p for p in dsn.split() if not p.startswith("dbname=")]
    return " ".join([*pairs, f"dbname={database}"])


def database_of(dsn: str) -> str:
    """The database part of a DSN (``postgres`` when it names none)."""
    if "://" in dsn:
        path = urlsplit(dsn).path.lstrip("/")
        return path or "postgres"
    for pair in dsn.split():
        if pair.startswith("dbname="):
            return pair.split("=", 1)[1]
    return "postgres"

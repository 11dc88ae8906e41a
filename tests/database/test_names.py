"""Reserved database names and DSN arithmetic."""

import pytest

from heron_pipeline.database.names import (
    benchmark_database,
    build_database,
    database_of,
    parse_benchmark_database,
    with_database,
)


@pytest.mark.parametrize(
    ("scale", "seed", "final", "building"),
    [("tiny", 42, "heron_tiny_42", "heron_build_tiny_42"), ("large", 0, "heron_large_0", "heron_build_large_0")],
)
def test_reserved_names(scale: str, seed: int, final: str, building: str) -> None:
    assert benchmark_database(scale, seed) == final
    assert build_database(scale, seed) == building
    assert parse_benchmark_database(final) == (scale, seed, False)
    assert parse_benchmark_database(building) == (scale, seed, True)


@pytest.mark.parametrize("name", ["heron_dagster", "heron_huge_1", "heron_tiny_x", "postgres"])
def test_other_names_are_not_benchmark_databases(name: str) -> None:
    assert parse_benchmark_database(name) is None


@pytest.mark.parametrize(("scale", "seed"), [("medium", 1), ("tiny", -1), ("tiny", 2**31)])
def test_invalid_scale_or_seed(scale: str, seed: int) -> None:
    with pytest.raises(ValueError):
        benchmark_database(scale, seed)


@pytest.mark.parametrize(
    ("dsn", "db", "expected"),
    [
        ("postgresql://postgres@127.0.0.1:5/postgres", "heron_tiny_42", "postgresql://postgres@127.0.0.1:5/heron_tiny_42"),
        ("postgresql://u:p@h:5/maint?sslmode=disable", "x", "postgresql://u:p@h:5/x?sslmode=disable"),
        ("host=h port=5 dbname=maint user=u", "x", "host=h port=5 user=u dbname=x"),
    ],
)
def test_with_database(dsn: str, db: str, expected: str) -> None:
    assert with_database(dsn, db) == expected
    assert database_of(expected) == db

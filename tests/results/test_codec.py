"""The stored-result format gives back exactly what PostgreSQL returned, type for type."""

from __future__ import annotations

import datetime as dt
import math
import uuid
from decimal import Decimal

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from heron_pipeline.results import Column, ResultSet, ResultTooLarge, decode, dumps, encode, execute_readonly, loads

EVERY_TYPE_SQL = """
SELECT 1::smallint AS i2, 2147483647::int AS i4, 9223372036854775807::bigint AS i8,
       12.50::numeric(12,2) AS amount, 'NaN'::numeric AS nan_numeric, 1e-30::numeric AS tiny_numeric,
       0.1::float8 AS f8, 'NaN'::float8 AS nan_f8, '-Infinity'::float4 AS neg_inf,
       true AS flag, 'Zoë "quoted" \\ back'::text AS t, 'x'::varchar(5) AS v, 'ab'::char(4) AS c,
       DATE '2026-06-30' AS d, TIMESTAMPTZ '2026-06-30 23:59:59.123456+00' AS ts,
       TIMESTAMP '2024-02-29 12:00:00' AS tsn, TIME '13:14:15.5' AS tm, INTERVAL '1 day 02:03:04.5' AS iv,
       '6f1c1c44-2b0c-4c5e-9d3b-2a3c4d5e6f70'::uuid AS u,
       '{"a": [1, 2.5, null, "x"], "b": {"c": true}}'::jsonb AS jb, '[1, "two"]'::json AS j,
       ARRAY[1, NULL, 3]::int[] AS ints, ARRAY[['a','b'],['c',NULL]]::text[] AS texts,
       ARRAY[1.10, 2.000]::numeric[] AS nums, '\\xdeadbeef'::bytea AS raw, NULL::numeric AS nothing
"""


def test_every_type_round_trips_through_a_live_database(server, schema_db):
    with server.connect(schema_db) as conn:
        result = execute_readonly(conn, EVERY_TYPE_SQL)
    again = loads(dumps(result))
    assert again.columns == result.columns
    assert len(again.rows) == 1
    for name, want, got in zip((c.name for c in result.columns), result.rows[0], again.rows[0]):
        if isinstance(want, float) and math.isnan(want):
            assert math.isnan(got), name
            continue
        if isinstance(want, Decimal) and want.is_nan():
            assert got.is_nan(), name
            continue
        assert type(got) is type(want), name
        assert got == want, name
    amount = again.rows[0][[c.name for c in result.columns].index("amount")]
    assert str(amount) == "12.50"  # scale kept, not just the value
    types = dict((c.name, c.type) for c in result.columns)
    assert types["ts"] == "timestamp with time zone" and types["ints"] == "integer[]" and types["jb"] == "jsonb"


def test_execute_readonly_refuses_writes_and_leaves_nothing(server, schema_db):
    import psycopg

    with server.connect(schema_db) as conn:
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            execute_readonly(conn, "CREATE TABLE public.should_not_exist (x int)")
        with conn.cursor() as cursor:
            cursor.execute("SELECT to_regclass('public.should_not_exist')")
            assert cursor.fetchone()[0] is None


def test_canonical_text_is_stable_and_sorted():
    result = ResultSet((Column("b", "integer"), Column("a", "text")), [(1, "x"), (None, "ü")])
    assert dumps(result) == '{"columns":[{"name":"b","type":"integer"},{"name":"a","type":"text"}],"rows":[[1,"x"],[null,"ü"]]}'
    assert dumps(loads(dumps(result))) == dumps(result)


@pytest.mark.parametrize("document, message", [
    ({"columns": []}, "exactly the keys"),
    ({"columns": [{"name": "a"}], "rows": []}, "bad 'columns'"),
    ({"columns": [{"name": "a", "type": "integer"}], "rows": [[1, 2]]}, "row 0"),
])
def test_malformed_documents_are_rejected_with_a_reason(document, message):
    with pytest.raises(ValueError, match=message):
        decode(document)


def test_fetch_caps_raise_with_the_kind(server, schema_db):
    from heron_pipeline.results import fetch_result

    with server.connect(schema_db) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT g FROM generate_series(1, 25000) g")
        with pytest.raises(ResultTooLarge) as rows:
            fetch_result(cursor, max_rows=20_000)
        cursor.execute("SELECT repeat('x', 1000) FROM generate_series(1, 50)")
        with pytest.raises(ResultTooLarge) as size:
            fetch_result(cursor, max_bytes=10_000)
    assert rows.value.kind == "rows" and size.value.kind == "bytes"


_values = {
    "bigint": st.integers(-(2**63), 2**63 - 1),
    "numeric": st.decimals(allow_nan=False, allow_infinity=False, places=4),
    "double precision": st.floats(allow_nan=True, allow_infinity=True),
    "text": st.text(),
    "boolean": st.booleans(),
    "date": st.dates(),
    "timestamp with time zone": st.datetimes(timezones=st.just(dt.timezone.utc)),
    "uuid": st.uuids(),
    "interval": st.timedeltas(),
    "integer[]": st.lists(st.one_of(st.none(), st.integers(-(2**31), 2**31 - 1)), max_size=4),
}


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(_values)), min_size=1, max_size=6, unique=True).flatmap(
    lambda types: st.tuples(st.just(types), st.lists(st.tuples(*[st.one_of(st.none(), _values[t]) for t in types]),
                                                     max_size=5))))
def test_any_result_round_trips(case):
    types, rows = case
    result = ResultSet(tuple(Column(f"c{i}", t) for i, t in enumerate(types)), rows)
    again = loads(dumps(result))
    for want_row, got_row in zip(result.rows, again.rows, strict=True):
        for want, got in zip(want_row, got_row, strict=True):
            if isinstance(want, float) and math.isnan(want):
                assert math.isnan(got)
            else:
                assert got == want and type(got) is type(want)
    assert again.columns == result.columns
    assert encode(again) == encode(result)

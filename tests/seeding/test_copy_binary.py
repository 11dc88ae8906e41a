"""The binary COPY encoder against the text path it replaced: the same frame loaded both ways must
store the same values (the server's own text output compared), for every column kind the schema
uses; hand-checked bytes for one value of each fixed-width kind; a clear refusal for every value
whose stored form could differ."""

from __future__ import annotations

import datetime as dt
import io

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from heron_pipeline.catalog.model import Column
from heron_pipeline.database.server import Server
from heron_pipeline.seeding.copy_binary import SIGNATURE, TRAILER, NotEncodable, encode_rows


def _column(name: str, type_sql: str, kind: str, **extra) -> Column:
    return Column(name, type_sql, kind, True, None, None, **extra)


COLUMNS = [
    _column("id", "bigint", "int", int_bits=64),
    _column("small", "smallint", "int", int_bits=16),
    _column("count", "integer", "int", int_bits=32),
    _column("flag", "boolean", "bool"),
    _column("day", "date", "date"),
    _column("at", "timestamptz", "timestamptz"),
    _column("money", "numeric(14,2)", "numeric", precision=14, scale=2),
    _column("share", "numeric(5,4)", "numeric", precision=5, scale=4),
    _column("rate", "numeric(18,8)", "numeric", precision=18, scale=8),
    _column("weight", "numeric(7,3)", "numeric", precision=7, scale=3),
    _column("note", "text", "text"),
    _column("code", "char(3)", "text", length=3),
    _column("label", "varchar(8)", "text", length=8),
    _column("state", "copy_test.state", "enum"),
    _column("doc", "jsonb", "jsonb"),
    _column("tags", "text[]", "text[]"),
    _column("key", "uuid", "uuid"),
    _column("address", "inet", "inet"),
]
TABLE_SQL = ", ".join(f"{c.name} {c.type_sql}" for c in COLUMNS)
STATES = ("open", "won", "lost")


@pytest.fixture(scope="module")
def database(server: Server) -> str:
    name = "heron_test_copy_binary"
    server.create_database(name, replace=True)
    with server.connect(name) as conn:
        conn.execute("CREATE SCHEMA copy_test")
        conn.execute(f"CREATE TYPE copy_test.state AS ENUM ({', '.join(repr(s) for s in STATES)})")
        for table in ("from_text", "from_binary"):
            conn.execute(f"CREATE TABLE copy_test.{table} ({TABLE_SQL})")
    return name


def _stored(conn, table: str, frame: pl.DataFrame, data: bytes, form: str) -> bytes:
    conn.execute(f"TRUNCATE copy_test.{table}")
    with conn.cursor().copy(f"COPY copy_test.{table} FROM STDIN (FORMAT {form})") as copy:
        copy.write(data)
    out = io.BytesIO()
    with conn.cursor().copy(f"COPY (SELECT * FROM copy_test.{table} ORDER BY id) TO STDOUT") as copy:
        for block in copy:
            out.write(block)
    return out.getvalue()


def _text_path(frame: pl.DataFrame) -> bytes:
    """What the build sent before the binary format: polars' CSV with the build's options."""
    buffer = io.BytesIO()
    frame.write_csv(buffer, include_header=False, null_value="", datetime_format="%Y-%m-%d %H:%M:%S%.6f+00")
    return buffer.getvalue()


def _assert_same_as_text(server: Server, database: str, frame: pl.DataFrame) -> None:
    with server.connect(database) as conn:
        text = _stored(conn, "from_text", frame, _text_path(frame), "csv")
        binary = _stored(conn, "from_binary", frame, SIGNATURE + bytes(encode_rows(frame, COLUMNS)) + TRAILER, "binary")
    assert binary == text
    assert text.count(b"\n") == frame.height


# a bare NULL element is NULL, not a word: refused by the encoder (tested below), so not drawn here
words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=8).filter(lambda w: w != "null")
# CSV writes an empty string as a NULL field unless quoted; polars quotes it, so "" round-trips
notes = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)


def _units(scale: int, digits: int):
    return st.integers(-(10 ** digits) + 1, 10 ** digits - 1).map(lambda u: u / 10**scale)


@st.composite
def rows(draw, n: int) -> pl.DataFrame:
    def maybe(strategy):
        return st.one_of(st.none(), strategy) if draw(st.booleans()) else strategy

    def column(strategy):
        return [draw(strategy) for _ in range(n)]

    octets = st.tuples(*[st.integers(0, 255)] * 4).map(lambda o: ".".join(map(str, o)))
    return pl.DataFrame({
        "id": pl.Series(range(n), dtype=pl.Int64),
        "small": pl.Series(column(maybe(st.integers(-32768, 32767))), dtype=pl.Int64),
        "count": pl.Series(column(maybe(st.integers(-2**31, 2**31 - 1))), dtype=pl.Int64),
        "flag": pl.Series(column(maybe(st.booleans())), dtype=pl.Boolean),
        "day": pl.Series(column(maybe(st.dates(dt.date(1900, 1, 1), dt.date(2100, 12, 31)))), dtype=pl.Date),
        "at": pl.Series(column(maybe(st.datetimes(dt.datetime(1970, 1, 1), dt.datetime(2100, 1, 1)))),
                        dtype=pl.Datetime("us")).dt.replace_time_zone("UTC"),
        "money": pl.Series(column(maybe(_units(2, 14))), dtype=pl.Float64),
        "share": pl.Series(column(maybe(_units(4, 5))), dtype=pl.Float64),
        "rate": pl.Series(column(maybe(_units(8, 15))), dtype=pl.Float64),
        "weight": pl.Series(column(maybe(_units(3, 7))), dtype=pl.Float64),
        "note": pl.Series(column(maybe(notes)), dtype=pl.String),
        "code": pl.Series(column(maybe(st.text("ABCXYZ ", min_size=0, max_size=3))), dtype=pl.String),
        "label": pl.Series(column(maybe(st.text("abcé€ ", max_size=8))), dtype=pl.String),
        "state": pl.Series(column(maybe(st.sampled_from(STATES))), dtype=pl.String),
        "doc": pl.Series(column(maybe(st.builds(lambda k, v: f'{{"{k}": {v}, "x": [1, "é"]}}', words,
                                                   st.integers()))), dtype=pl.String),
        "tags": pl.Series(column(maybe(st.lists(words, max_size=4).map(lambda w: "{" + ",".join(w) + "}"))),
                          dtype=pl.String),
        "key": pl.Series(column(maybe(st.uuids().map(str))), dtype=pl.String),
        "address": pl.Series(column(maybe(octets)), dtype=pl.String),
    })


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(frame=st.integers(1, 12).flatmap(rows))
def test_every_kind_stores_what_the_text_path_stored(server: Server, database: str, frame: pl.DataFrame) -> None:
    _assert_same_as_text(server, database, frame)


def test_a_column_null_throughout_and_extreme_values(server: Server, database: str) -> None:
    frame = pl.DataFrame({c.name: pl.Series([None, None], dtype=pl.Null) for c in COLUMNS}).with_columns(
        pl.Series("id", [1, 2], dtype=pl.Int64),
        pl.Series("small", [-32768, 32767], dtype=pl.Int64),
        pl.Series("count", [-2**31, 2**31 - 1], dtype=pl.Int64),
        pl.Series("money", [-999999999999.99, 0.0], dtype=pl.Float64),
        pl.Series("rate", [9999999.99999999, -0.00000001], dtype=pl.Float64),
        pl.Series("note", ["", "tab\tnew\nline \"quoted\", comma\\"], dtype=pl.String),
        pl.Series("tags", ["{}", "{a}"], dtype=pl.String),
    )
    _assert_same_as_text(server, database, frame)


def _one(column: Column, series: pl.Series) -> bytes:
    return bytes(encode_rows(pl.DataFrame({column.name: series}), [column]))


@pytest.mark.parametrize(("column", "series", "expected"), [
    (COLUMNS[0], pl.Series([1], dtype=pl.Int64), "0001" "00000008" "0000000000000001"),
    (COLUMNS[1], pl.Series([-2], dtype=pl.Int64), "0001" "00000002" "fffe"),
    (COLUMNS[3], pl.Series([True]), "0001" "00000001" "01"),
    (COLUMNS[4], pl.Series([dt.date(2000, 1, 2)]), "0001" "00000004" "00000001"),
    (COLUMNS[5], pl.Series([dt.datetime(2000, 1, 1, 0, 0, 1)]).dt.replace_time_zone("UTC"),
     "0001" "00000008" "00000000000f4240"),
    # 12.34 at scale 2: 123400 ten-thousandths, digits 12 | 3400 after three leading zero groups, weight 3
    (COLUMNS[6], pl.Series([12.34]), "0001" "00000012" "0005" "0003" "0000" "0002" "000000000000" "000c" "0d48"),
    (COLUMNS[6], pl.Series([-0.5]), "0001" "00000012" "0005" "0003" "4000" "0002" "0000000000000000" "1388"),
    (COLUMNS[10], pl.Series(["hé"]), "0001" "00000003" "68c3a9"),
    (COLUMNS[10], pl.Series([None], dtype=pl.String), "0001" "ffffffff"),
    (COLUMNS[14], pl.Series(['{"a": 1}']), "0001" "00000009" "01" + b'{"a": 1}'.hex()),
    (COLUMNS[15], pl.Series(["{ab,c}"]), "0001" "0000001f" "00000001" "00000000" "00000019" "00000002" "00000001"
     "00000002" "6162" "00000001" "63"),
    (COLUMNS[16], pl.Series(["00112233-4455-6677-8899-aabbccddeeff"]),
     "0001" "00000010" "00112233445566778899aabbccddeeff"),
    (COLUMNS[17], pl.Series(["10.0.0.255"]), "0001" "00000008" "02200004" "0a0000ff"),
])
def test_hand_checked_bytes(column: Column, series: pl.Series, expected: str) -> None:
    assert _one(column, series.rename(column.name)).hex() == expected


@pytest.mark.parametrize(("column", "value", "message"), [
    (COLUMNS[6], 0.125, "not a whole number of 10**-2"),
    (COLUMNS[6], float("nan"), "not a whole number"),
    (COLUMNS[6], [None, float("nan")], "not a whole number"),  # a NaN is refused beside a NULL too
    (COLUMNS[8], 2.0**52, "below 2**50"),
    (COLUMNS[1], 40_000, "small"),
    (COLUMNS[17], "10.0.0.1/24", "inet"),
    (COLUMNS[17], "10.0.0.01", "canonical"),
    (COLUMNS[16], "001122334-455-6677-8899-aabbccddeeff", "8-4-4-4-12"),
    (COLUMNS[16], "00112233-4455-6677-8899-aabbccddeegg", "hex digit"),
    (COLUMNS[15], '{"a b"}', "plain words"),
    (COLUMNS[15], "{a,NULL}", "plain words"),
    (COLUMNS[15], "{a, b}", "plain words"),
])
def test_a_value_whose_stored_form_could_differ_is_refused(column: Column, value, message: str) -> None:
    with pytest.raises(NotEncodable, match=message.replace("*", r"\*")) as refused:
        _one(column, pl.Series(column.name, value if isinstance(value, list) else [value]))
    assert str(refused.value).startswith(f"column {column.name} ({column.type_sql}): ")  # names what to fix


def test_the_frame_must_have_the_tables_columns_in_order() -> None:
    frame = pl.DataFrame({"b": [1], "a": [2]})
    with pytest.raises(ValueError, match="are not the table's"):
        encode_rows(frame, [_column("a", "bigint", "int", int_bits=64), _column("b", "bigint", "int", int_bits=64)])


def test_rows_keep_their_order_and_lengths() -> None:
    column = COLUMNS[10]
    values = ["", "a", None, "abc" * 20, "é"]
    encoded = _one(column, pl.Series(values, dtype=pl.String))
    expected = b"".join(b"\x00\x01" + (b"\xff\xff\xff\xff" if v is None else len(v.encode()).to_bytes(4, "big") + v.encode())
                        for v in values)
    assert encoded == expected
    assert np.frombuffer(encoded, np.uint8).size == len(expected)

"""The generator's frames in PostgreSQL's binary COPY format, encoded a column at a time.

Why binary: with CSV the server parses every field with the column type's text input function
(timestamps, numerics and integers dominate) and splits every line; with the binary format it
reads each field's length and calls the type's receive function, which for these types copies
the value. Measured on the eight largest tables of small 42 (1.5 M rows), the server's COPY took
2.0 s against 3.6 s for the same rows as CSV (benchmarks/bench_seed_build.py gives the whole build).

Why it is exact: every value is checked to have exactly one binary form equal to what the text
path stored, or the build stops naming the column (``NotEncodable``); the fingerprint of every
committed state is the proof (tests/seeding). What the server stores per type:

* integers, booleans, dates, ``timestamptz`` (microseconds from 2000-01-01 UTC), uuid, inet: the
  value itself, as the text input would have parsed it;
* ``numeric(p, s)``: the generator's floats are whole units of ``10**-s``; the CSV text of such a
  float (its shortest round-trip form) rounds to those units, so the units are sent, with the
  column's scale. Checked per value: ``x * 10**s`` within 0.25 of an integer below 2**50;
* text, ``varchar(n)``, ``char(n)`` (padded by the server as from text), enums (by label), jsonb
  (version 1 and its text, parsed by the same parser) and ``text[]`` of plain words.

The row *order* is the frame's, as with CSV; the heap's page layout is not the CSV load's (the
server flushes its insert batches by input bytes for text formats, by row count for binary), so a
state loaded by a CSV-era heron has the same fingerprint but another dump: the build label names
the load format (``build.LOAD_FORMAT``) so such a state is rebuilt, not reused.

Rows are assembled without a Python loop: each column becomes segments, an ``n × width`` byte
matrix of which row ``i`` keeps the first ``lengths[i]`` bytes (all of them for a fixed-width
segment); the matrices side by side, filtered by the mask of kept bytes, are the rows in order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from heron_pipeline.catalog.model import Column

#: The binary COPY header: signature, flags (no OIDs), no header extension.
SIGNATURE = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
#: The end of a binary COPY: a row count of -1.
TRAILER = b"\xff\xff"

_NULL = -1
_EPOCH_DAYS = 10_957  # 2000-01-01 in days from 1970-01-01
_EPOCH_US = _EPOCH_DAYS * 86_400 * 1_000_000
_TEXT_OID = 25
_INET_FAMILY = 2  # PGSQL_AF_INET
_NUMERIC_GROUPS = 5  # base-10000 digits: enough for 2**50 units times 10**3 of alignment
_NUMERIC_LIMIT = 2**50
_WORD_ARRAY = r"^\{([A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*)?\}$"


class NotEncodable(ValueError):
    """A value whose binary form could differ from what the text path would have stored."""


@dataclass(frozen=True)
class Segment:
    """One part of every row: one value per row (a typed big-endian number, a record, or raw
    bytes as ``V<width>``), of which row ``i`` keeps the first ``lengths[i]`` bytes, all of them
    when ``lengths`` is None."""

    values: np.ndarray
    lengths: np.ndarray | None = None


def encode_rows(frame: pl.DataFrame, columns: list[Column]) -> np.ndarray:
    """The rows of ``frame`` as binary COPY tuples (no header, no trailer), as a byte array (it
    supports the buffer protocol: ``bytes(...)`` or ``b"".join``), its columns typed by ``columns``
    (the table's, in the frame's order)."""
    if [c.name for c in columns] != frame.columns:
        raise ValueError(f"the frame's columns {frame.columns} are not the table's {[c.name for c in columns]}")
    segments = [Segment(np.full(frame.height, len(columns), dtype=">i2"))]
    for column in columns:
        try:
            segments += _column_segments(frame.get_column(column.name), column)
        except (pl.exceptions.PolarsError, OverflowError) as error:
            raise NotEncodable(f"column {column.name} ({column.type_sql}): {error}") from None
    return _rows([s for s in segments if s.values.dtype.itemsize], frame.height)


def _rows(segments: list[Segment], n: int) -> np.ndarray:
    """The segments side by side in one packed record per row, less the bytes rows do not keep.

    Filled field by field with typed copies (an 8-byte integer per row, not eight 1-byte
    columns); the mask of kept bytes is built only over the variable segments."""
    offsets = np.cumsum([0] + [s.values.dtype.itemsize for s in segments])
    layout = np.dtype({"names": [f"s{i}" for i in range(len(segments))],
                       "formats": [s.values.dtype for s in segments], "offsets": offsets[:-1].tolist(),
                       "itemsize": int(offsets[-1])})
    records = np.empty(n, dtype=layout)
    for i, segment in enumerate(segments):
        records[f"s{i}"] = segment.values
    matrix = records.view(np.uint8).reshape(n, int(offsets[-1]))
    if all(s.lengths is None for s in segments):
        return matrix.reshape(-1)
    keep = np.ones(matrix.shape, dtype=bool)
    for i, segment in enumerate(segments):
        if segment.lengths is not None:
            width = segment.values.dtype.itemsize
            keep[:, offsets[i]:offsets[i] + width] = np.arange(width) < segment.lengths[:, None]
    return matrix[keep]


def _bytes(matrix: np.ndarray) -> np.ndarray:
    """A rows × width byte matrix as one ``V<width>`` value per row."""
    return np.ascontiguousarray(matrix).view(f"V{matrix.shape[1]}").reshape(len(matrix))


def _field(payload: np.ndarray, nulls: np.ndarray | None) -> list[Segment]:
    """A fixed-width field: its length word and ``payload`` (one value per row), or -1 and nothing
    for a NULL."""
    width = payload.dtype.itemsize
    header = np.full(len(payload), width, dtype=">i4")
    if nulls is None:
        return [Segment(header), Segment(payload)]
    header[nulls] = _NULL
    return [Segment(header), Segment(payload, np.where(nulls, 0, width))]


def _nulls(series: pl.Series) -> np.ndarray | None:
    return series.is_null().to_numpy() if series.null_count() else None


def _column_segments(series: pl.Series, column: Column) -> list[Segment]:
    kind, nulls = column.kind, _nulls(series)
    if nulls is not None and nulls.all():  # a block where the column is NULL throughout (any dtype)
        return [Segment(np.full(len(series), _NULL, dtype=">i4"))]
    if kind == "int":
        bits = column.int_bits or 32
        values = series.cast({16: pl.Int16, 32: pl.Int32, 64: pl.Int64}[bits], strict=True).fill_null(0)
        return _field(values.to_numpy().astype(f">i{bits // 8}"), nulls)
    if kind == "bool":
        return _field(series.fill_null(False).to_numpy().astype(np.uint8), nulls)
    if kind == "date":
        days = series.cast(pl.Date, strict=True).cast(pl.Int32).fill_null(0).to_numpy().astype(np.int64) - _EPOCH_DAYS
        return _field(days.astype(">i4"), nulls)
    if kind == "timestamptz":
        if not isinstance(series.dtype, pl.Datetime):
            raise NotEncodable(f"column {column.name}: timestamptz from {series.dtype}, not a Datetime")
        micros = series.dt.epoch("us").fill_null(0).to_numpy() - _EPOCH_US
        return _field(micros.astype(">i8"), nulls)
    if kind == "numeric":
        return _field(_numeric(series, column), nulls)
    if kind == "uuid":
        return _field(_uuid(series), nulls)
    if kind == "inet":
        return _field(_inet(series), nulls)
    if kind in ("text", "enum"):
        return _variable(series, nulls)
    if kind == "jsonb":
        return _variable(series, nulls, prefix=b"\x01")  # jsonb's binary format version
    if kind == "text[]":
        return _word_array(series, nulls)
    raise NotEncodable(f"column {column.name}: no binary encoding for {column.type_sql}")


def _numeric(series: pl.Series, column: Column) -> np.ndarray:
    """numeric(p, s) of whole units of ``10**-s``: weight, sign, scale and five base-10000 digits
    (the server strips the zero digits and applies the column's scale, as for text input)."""
    scale = column.scale or 0
    x = series.cast(pl.Float64).fill_null(0.0).to_numpy()
    scaled = x * 10.0**scale
    units = np.rint(scaled)
    exact = (np.abs(units) < _NUMERIC_LIMIT) & (np.abs(scaled - units) <= 0.25)
    if not exact.all():
        bad = x[~exact][0]
        raise NotEncodable(f"column {column.name} ({column.type_sql}): {bad!r} is not a whole number of "
                           f"10**-{scale} below 2**50 units, so its stored value would depend on its text")
    units = units.astype(np.int64)
    aligned = -(-scale // 4) * 4  # the scale rounded up to whole base-10000 digits
    magnitude = np.abs(units) * 10 ** (aligned - scale)
    record = np.empty(len(x), dtype=[("ndigits", ">i2"), ("weight", ">i2"), ("sign", ">u2"), ("dscale", ">i2"),
                                     ("digits", ">i2", (_NUMERIC_GROUPS,))])
    record["ndigits"] = _NUMERIC_GROUPS
    record["weight"] = _NUMERIC_GROUPS - 1 - aligned // 4
    record["sign"] = np.where(units < 0, 0x4000, 0)
    record["dscale"] = scale
    for group in range(_NUMERIC_GROUPS):
        record["digits"][:, _NUMERIC_GROUPS - 1 - group] = (magnitude // 10_000**group) % 10_000
    return record


def _fixed_text(series: pl.Series, width: int, what: str) -> np.ndarray:
    """Strings of exactly ``width`` ASCII bytes as a rows × width matrix."""
    text = series.fill_null("?" * width)
    if not (text.str.len_bytes() == width).all():
        raise NotEncodable(f"{what}: a value is not {width} bytes long")
    joined = pl.select(pl.lit(text).str.join("")).item().encode()
    return np.frombuffer(joined, dtype=np.uint8).reshape(len(series), width)


_HEX = np.full(256, 255, dtype=np.uint8)
_HEX[np.frombuffer(b"0123456789abcdef", np.uint8)] = np.arange(16)
_HEX[np.frombuffer(b"ABCDEF", np.uint8)] = np.arange(10, 16)
_UUID_DIGITS = np.r_[0:8, 9:13, 14:18, 19:23, 24:36]


def _uuid(series: pl.Series) -> np.ndarray:
    """A canonical 8-4-4-4-12 UUID as its 16 bytes."""
    chars = _fixed_text(series.fill_null("00000000-0000-0000-0000-000000000000"), 36, "uuid")
    if not (chars[:, [8, 13, 18, 23]] == ord("-")).all():
        raise NotEncodable("uuid: a value is not in the 8-4-4-4-12 form")
    nibbles = _HEX[chars[:, _UUID_DIGITS]]
    if (nibbles == 255).any():
        raise NotEncodable("uuid: a value has a character that is not a hex digit")
    return _bytes((nibbles[:, 0::2] << 4) | nibbles[:, 1::2])


def _inet(series: pl.Series) -> np.ndarray:
    """A dotted IPv4 host address (no mask) as family, bits (32), not cidr, 4 and its octets."""
    text = series.fill_null("0.0.0.0")
    parts = text.str.split_exact(".", 3).struct.unnest()
    octets = [parts.to_series(i).cast(pl.UInt8, strict=True) for i in range(4)]
    canonical = octets[0].cast(pl.String)
    for octet in octets[1:]:
        canonical = canonical + "." + octet.cast(pl.String)
    if not (canonical == text).all():
        raise NotEncodable("inet: a value is not a dotted IPv4 address in canonical form")
    out = np.empty((len(series), 8), dtype=np.uint8)
    out[:, :4] = (_INET_FAMILY, 32, 0, 4)
    for i, octet in enumerate(octets):
        out[:, 4 + i] = octet.to_numpy()
    return _bytes(out)


def _padded(text: pl.Series) -> tuple[np.ndarray, np.ndarray]:
    """Strings as one ``V<longest in bytes>`` value per row, each padded with NULs, and their
    lengths."""
    lengths = text.str.len_bytes().to_numpy().astype(np.int64)
    width = int(lengths.max()) if len(lengths) else 0
    if width == 0:
        return np.empty(len(text), dtype="V0"), lengths
    padded = pl.select((pl.lit(text) + pl.lit("\0" * width).str.slice(0, width - pl.lit(text).str.len_bytes()))
                       .str.join("")).item().encode()
    return np.frombuffer(padded, dtype=f"V{width}"), lengths


def _variable(series: pl.Series, nulls: np.ndarray | None, prefix: bytes = b"") -> list[Segment]:
    """A field of the string's bytes after ``prefix``, or -1 and nothing for a NULL."""
    text = series.cast(pl.String).fill_null("")
    data, lengths = _padded(text)
    header = (lengths + len(prefix)).astype(">i4")
    segments = [Segment(header)]
    if prefix:
        segments.append(Segment(np.full(len(text), prefix, dtype=f"V{len(prefix)}"),
                                None if nulls is None else np.where(nulls, 0, len(prefix))))
    segments.append(Segment(data, lengths))
    if nulls is not None:
        header[nulls] = _NULL
    return segments


def _word_array(series: pl.Series, nulls: np.ndarray | None) -> list[Segment]:
    """A one-dimensional text[] written ``{a,b}`` with plain words (no quotes, spaces, NULL
    elements), or ``{}``: header, dimensions, then each element as a field."""
    text = series.fill_null("{}")
    if not text.str.contains(_WORD_ARRAY).all() or text.str.to_lowercase().str.contains(r"[{,]null[,}]").any():
        raise NotEncodable("text[]: a value is not {} or {word,...} of plain words")
    elements = text.str.strip_prefix("{").str.strip_suffix("}").str.split(",")
    counts = np.where(text.to_numpy() == "{}", 0, elements.list.len().to_numpy()).astype(np.int64)
    words = [_padded(elements.list.get(j, null_on_oob=True).fill_null("")) for j in range(int(counts.max(initial=0)))]
    total = 12 + np.where(counts > 0, 8, 0)
    for j, (_, lengths) in enumerate(words):
        total += np.where(counts > j, 4 + lengths, 0)
    n = len(text)
    head = np.empty(n, dtype=[("length", ">i4"), ("ndim", ">i4"), ("flags", ">i4"), ("oid", ">i4"),
                              ("dim", ">i4"), ("lower", ">i4")])
    head["length"], head["ndim"], head["flags"], head["oid"] = total, (counts > 0), 0, _TEXT_OID
    head["dim"], head["lower"] = counts, 1
    kept = np.where(counts > 0, 24, 16)
    if nulls is not None:
        head["length"][nulls] = _NULL
        kept[nulls] = 4
    segments = [Segment(head, kept)]
    for j, (data, lengths) in enumerate(words):
        present = counts > j
        segments.append(Segment(lengths.astype(">i4"), np.where(present, 4, 0)))
        segments.append(Segment(data, np.where(present, lengths, 0)))
    return segments

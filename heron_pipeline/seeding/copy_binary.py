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
server's insert batches end at other rows for the two inputs), so a state loaded by a CSV-era
heron has the same fingerprint but another dump: the build label names the load format
(``build.LOAD_FORMAT``) so such a state is rebuilt, not reused.

Rows are assembled without a Python loop: each column becomes segments (a field's length word,
its payload), laid side by side in one packed record per row, a variable segment as wide as its
longest value; a mask of the bytes each row keeps drops the padding, leaving the rows in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

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
    """One part of every row. Fixed: one value per row (a typed big-endian number, a record, or
    raw bytes as ``V<width>``), or a single value every row shares, of which row ``i`` keeps the
    first ``lengths[i]`` bytes, all of them when ``lengths`` is None. Variable: ``values`` is the
    rows' bytes end to end, row ``i`` holding ``lengths[i]`` of them."""

    values: np.ndarray
    lengths: np.ndarray | None = None
    variable: bool = False

    @property
    def width(self) -> int:
        return int(self.lengths.max(initial=0)) if self.variable else self.values.dtype.itemsize


def encode_rows(frame: pl.DataFrame, columns: list[Column]) -> np.ndarray:
    """The rows of ``frame`` as binary COPY tuples (no header, no trailer), as a byte array (it
    supports the buffer protocol: ``bytes(...)`` or ``b"".join``), its columns typed by ``columns``
    (the table's, in the frame's order)."""
    if [c.name for c in columns] != frame.columns:
        raise ValueError(f"the frame's columns {frame.columns} are not the table's {[c.name for c in columns]}")
    segments = [Segment(np.array([len(columns)], dtype=">i2"))]
    for column in columns:
        try:
            segments += _column_segments(frame.get_column(column.name), column)
        except (NotEncodable, pl.exceptions.PolarsError, OverflowError) as error:
            raise NotEncodable(f"column {column.name} ({column.type_sql}): {error}") from None
    return _rows(segments, frame.height)


def _rows(segments: list[Segment], n: int) -> np.ndarray:
    """The segments side by side in one packed record per row (a variable segment as wide as
    its longest value), less the bytes rows do not keep.

    Fixed segments are filled field by field, each value copied as ``V<width>`` (raw bytes: a
    third of the time numpy takes to copy an unaligned big-endian integer field as a number); a
    variable one is padded to its width in a block of its own, by the same mask that later keeps
    its bytes. Segments of no bytes (a variable one of empty strings only) are left out."""
    segments, widths = zip(*[(s, w) for s in segments if (w := s.width)])
    offsets = np.cumsum((0, *widths))
    layout = np.dtype({"names": [f"s{i}" for i in range(len(segments))],
                       "formats": [f"V{w}" for w in widths],
                       "offsets": offsets[:-1].tolist(), "itemsize": int(offsets[-1])})
    records = np.empty(n, dtype=layout)
    matrix = records.view(np.uint8).reshape(n, int(offsets[-1]))
    keep = None if all(s.lengths is None for s in segments) else np.ones(matrix.shape, dtype=bool)
    for i, (segment, width) in enumerate(zip(segments, widths)):
        columns = slice(offsets[i], offsets[i] + width)
        if segment.lengths is None:
            records[f"s{i}"] = _raw(segment.values, n)
            continue
        kept = np.take(_prefixes(width), segment.lengths, axis=0)  # a row's first lengths[i] bytes
        if segment.variable:  # rows padded to the width in a contiguous block first: much faster
            padded = np.empty((n, width), dtype=np.uint8)  # than scattering into the strided columns
            padded[kept] = segment.values
            records[f"s{i}"] = padded.view(f"V{width}").reshape(n)
        else:
            records[f"s{i}"] = _raw(segment.values, n)
        keep[:, columns] = kept
    return matrix.reshape(-1) if keep is None else matrix[keep]


def _raw(values: np.ndarray, n: int) -> np.ndarray:
    """One value per row as raw bytes; a shared value repeated first (numpy copies a contiguous
    ``V4`` array into a field four times faster than it broadcasts one ``V4`` scalar)."""
    return np.ascontiguousarray(np.broadcast_to(values, n)).view(f"V{values.dtype.itemsize}")


@lru_cache(maxsize=1024)
def _prefixes(width: int) -> np.ndarray:
    """Row ``k`` keeps the first ``k`` of ``width`` bytes: a row's mask is looked up, not computed
    (ten times faster than comparing every byte's position with its row's length)."""
    table = np.arange(width) < np.arange(width + 1)[:, None]
    table.flags.writeable = False
    return table


def _bytes(matrix: np.ndarray) -> np.ndarray:
    """A rows × width byte matrix as one ``V<width>`` value per row."""
    return np.ascontiguousarray(matrix).view(f"V{matrix.shape[1]}").reshape(len(matrix))


def _field(payload: np.ndarray, nulls: np.ndarray | None) -> list[Segment]:
    """A fixed-width field: its length word and ``payload`` (one value per row), or -1 and nothing
    for a NULL."""
    width = payload.dtype.itemsize
    if nulls is None:
        return [Segment(np.array([width], dtype=">i4")), Segment(payload)]
    header = np.full(len(payload), width, dtype=">i4")
    header[nulls] = _NULL
    return [Segment(header), Segment(payload, np.where(nulls, 0, width))]


def _physical(series: pl.Series, nulls: np.ndarray | None) -> np.ndarray:
    """The column's stored numbers (days for a date, the unit's count for a datetime, 0 where
    NULL), without a copy when it has no NULL. numpy does the rest: polars' expression calls
    cost ~25 µs each whatever the size (most of the time at tiny, where blocks are small), and
    its thread pool spent more CPU than the work on a block of 65,536 rows."""
    if series.dtype.is_temporal():  # datetime64 (NaT where NULL) viewed as its int64 count
        values = series.to_numpy().view(np.int64)
        return values if nulls is None else np.where(nulls, 0, values)
    if nulls is None:
        return series.to_numpy()
    return series.fill_null(False if series.dtype == pl.Boolean else 0).to_numpy()


def _integers(series: pl.Series, column: Column, nulls: np.ndarray | None) -> np.ndarray:
    bits = column.int_bits or 32
    if not series.dtype.is_integer():
        raise NotEncodable(f"integers from {series.dtype}")
    values = _physical(series, nulls)
    low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    if len(values) and (values.min() < low or values.max() > high):
        bad = values[(values < low) | (values > high)][0]
        raise NotEncodable(f"{bad} is out of its range")
    return values.astype(f">i{bits // 8}")


def _nulls(series: pl.Series) -> np.ndarray | None:
    return series.is_null().to_numpy() if series.null_count() else None


def _column_segments(series: pl.Series, column: Column) -> list[Segment]:
    kind, nulls = column.kind, _nulls(series)
    if nulls is not None and nulls.all():  # a block where the column is NULL throughout (any dtype)
        return [Segment(np.full(len(series), _NULL, dtype=">i4"))]
    if kind == "int":
        return _field(_integers(series, column, nulls), nulls)
    if kind == "bool":
        return _field(_physical(series, nulls).astype(np.uint8), nulls)
    if kind == "date":
        days = _physical(series if series.dtype == pl.Date else series.cast(pl.Date, strict=True), nulls) - _EPOCH_DAYS
        return _field(days.astype(">i4"), nulls)
    if kind == "timestamptz":
        if not isinstance(series.dtype, pl.Datetime):
            raise NotEncodable(f"timestamptz from {series.dtype}, not a Datetime")
        micros = _physical(series if series.dtype.time_unit == "us" else series.dt.cast_time_unit("us"), nulls) - _EPOCH_US
        return _field(micros.astype(">i8"), nulls)
    if kind == "numeric":
        return _field(_numeric(series, column, nulls), nulls)
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
    raise NotEncodable("no binary encoding for this type")


def _numeric(series: pl.Series, column: Column, nulls: np.ndarray | None) -> np.ndarray:
    """numeric(p, s) of whole units of ``10**-s``: weight, sign, scale and five base-10000 digits
    (the server strips the zero digits and applies the column's scale, as for text input)."""
    scale = column.scale or 0
    x = series.cast(pl.Float64).to_numpy()  # NaN where NULL
    x = x if nulls is None else np.where(nulls, 0.0, x)
    scaled = x * 10.0**scale
    units = np.rint(scaled)
    exact = (np.abs(units) < _NUMERIC_LIMIT) & (np.abs(scaled - units) <= 0.25)
    if not exact.all():
        bad = x[~exact][0]
        raise NotEncodable(f"{bad!r} is not a whole number of 10**-{scale} below 2**50 units, so its stored "
                           "value would depend on its text")
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
    """Strings (no NULLs) of exactly ``width`` bytes as a rows × width matrix."""
    text = _strings(series)
    if (text.lengths != width).any():
        raise NotEncodable(f"{what}: a value is not {width} bytes long")
    return text.values.reshape(len(series), width)


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
    canonical = pl.select(pl.concat_str([pl.lit(o.cast(pl.String)) for o in octets], separator=".")).to_series()
    if not (canonical == text).all():
        raise NotEncodable("inet: a value is not a dotted IPv4 address in canonical form")
    out = np.empty((len(series), 8), dtype=np.uint8)
    out[:, :4] = (_INET_FAMILY, 32, 0, 4)
    for i, octet in enumerate(octets):
        out[:, 4 + i] = octet.to_numpy()
    return _bytes(out)


def _strings(text: pl.Series) -> Segment:
    """Strings (no NULLs) as a variable segment: their UTF-8 bytes end to end."""
    lengths = text.str.len_bytes().to_numpy().astype(np.int64)
    joined = text.str.join("").item().encode() if len(text) else b""
    return Segment(np.frombuffer(joined, dtype=np.uint8), lengths, variable=True)


def _variable(series: pl.Series, nulls: np.ndarray | None, prefix: bytes = b"") -> list[Segment]:
    """A field of the string's bytes after ``prefix``, or -1 and nothing for a NULL."""
    text = series.cast(pl.String)
    data = _strings(text if nulls is None else text.fill_null(""))
    header = (data.lengths + len(prefix)).astype(">i4")
    segments = [Segment(header)]
    if prefix:
        shared = np.array([prefix], dtype=f"V{len(prefix)}")
        segments.append(Segment(shared) if nulls is None else Segment(np.repeat(shared, len(text)),
                                                                      np.where(nulls, 0, len(prefix))))
    segments.append(data)
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
    words = [_strings(elements.list.get(j, null_on_oob=True).fill_null("")) for j in range(int(counts.max(initial=0)))]
    total = 12 + np.where(counts > 0, 8, 0)
    for j, word in enumerate(words):
        total += np.where(counts > j, 4 + word.lengths, 0)
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
    for j, word in enumerate(words):
        present = counts > j
        segments.append(Segment(word.lengths.astype(">i4"), np.where(present, 4, 0)))
        segments.append(word)  # an element beyond a row's count is "" there: no bytes
    return segments

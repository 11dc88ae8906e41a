"""Result comparator: is a predicted result set the same answer as the gold one?

Strict on data, lenient on shape:

* rows form a multiset (multiplicity matters); order matters only as the gold
  query's outermost ORDER BY demands (see `order_spec`);
* columns may come in any order, but rows stay aligned; names are ignored;
* the prediction has exactly the gold's number of columns, in both question
  modes (issue 33: a prediction whose columns merely *contain* the gold's lets a
  tool hedge, two readings zipped side by side; docs/DECISIONS.md 2026-12-05);
* values follow fixed rules (`values_equal`): numbers by value across
  int/float/Decimal with a small tolerance unless both are integral, NULL only
  equals NULL, booleans are not numbers, strings are exact, JSON/arrays are
  compared structurally.

Design, because results can have a million rows:

1. Every value gets a hashable *key* such that equal keys imply equal values
   under the rules (sound, not complete: 0.1 and 0.1000000001 get different
   keys).  Python's own int/float/Decimal equality is exact and hash-consistent,
   so most columns are used as they are; only bools, NaN, JSON, arrays and
   Decimal-vs-float mixes need rewriting.
2. Exact path: per-column hash arrays (numpy) give column signatures; a column
   mapping is searched only among columns with equal signatures, pruned by
   pair signatures; each candidate mapping is checked by sorting 64-bit row
   hashes (packed with the row index, one plain sort per side) and then
   confirming the paired rows value by value.  That confirmation is what makes
   the verdict exact - hashes collide, and Python's int hash (x mod 2**61-1)
   can be made to collide on purpose - so it must be cheap: int, date, float
   and str columns get lossless typed views (`comparator_typed`) compared as
   arrays; only the rest (Decimal, JSON, ...) are compared as objects, in
   cache-sized chunks.  Pairs that differ only send the rows sharing their
   hash to an exact count, so a collision costs a recount of those rows only.
3. Tolerant path (only when inexact numbers are present and the exact path
   failed): rows are bucketed by a *coarse* key in which every finite number is
   a wildcard; within a bucket, rows are matched with a maximum bipartite
   matching whose edges are the tolerant row equality.  The tolerance relation
   is not transitive, so a matching (not greedy pairing) is what decides.
4. Bounded: every comparison runs under a work budget (`_Budget`: candidate
   column mappings and the rows each one costs to check, search steps, tolerant
   matchings).  A comparison that would overrun it - a same-width prediction
   built so that many column mappings pass every signature - stops with
   `ComparatorBudgetExceeded`; `verdict` names that outcome (`BUDGET`) and
   `compare` counts it as no match, so a comparison can never stall a run.
"""

from __future__ import annotations

import datetime as _dt
import math
import operator
import uuid
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from decimal import Decimal
from typing import Iterator, Literal, Sequence

import numpy as np

from .comparator_typed import (
    TypedColumn,
    cells_differ,
    comparable,
    guessed_column,
    null_mask,
    raw_hashes,
    runs_differ,
    sort_u64,
    typed_column,
)
from .order_spec import OrderSpec, order_spec

REL_TOL = 1e-9
ABS_TOL = 1e-6

#: The work a comparison may do (`_Budget`), in units of about one row check each: this base, plus
#: `BUDGET_PER_ROW` units per result row, so a large honest result can always try a few mappings.
WORK_BUDGET = 2_000_000
BUDGET_PER_ROW = 32
#: The fixed cost, in work units, charged on top of the rows for each candidate mapping checked.
_MAPPING_OVERHEAD = 64

MATCH, DIFFERENT, BUDGET = "match", "different", "comparator-budget"
Verdict = Literal["match", "different", "comparator-budget"]


class ComparatorBudgetExceeded(Exception):
    """A comparison ran past its work budget (`_Budget`) before reaching a verdict."""

    def __init__(self, spent: int, budget: int) -> None:
        self.spent, self.budget = spent, budget
        super().__init__(f"comparator work budget exceeded: {spent:,} units spent, budget {budget:,}")


class _Budget:
    """A counter of the comparator's work: candidate column mappings (each charged its rows plus a fixed
    overhead), steps of the mapping search, pair signatures and tolerant-matching edges. `spend` raises
    `ComparatorBudgetExceeded` once the total passes `limit` (None: unbounded)."""

    __slots__ = ("limit", "spent")

    def __init__(self, limit: int | None) -> None:
        self.limit, self.spent = limit, 0

    def spend(self, units: int) -> None:
        self.spent += units
        if self.limit is not None and self.spent > self.limit:
            raise ComparatorBudgetExceeded(self.spent, self.limit)


_UNBOUNDED = _Budget(None)


def work_budget(rows: int) -> int:
    """The default budget of a comparison of results with `rows` rows."""
    return WORK_BUDGET + BUDGET_PER_ROW * rows

# --------------------------------------------------------------------------- #
# Value keys
# --------------------------------------------------------------------------- #


class _Marker:
    """A unique, identity-hashed stand-in for values Python would confuse (True vs 1)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<{self.name}>"


_TRUE = _Marker("true")
_FALSE = _Marker("false")
_NAN = _Marker("nan")
_NUM = _Marker("finite-number")
_LIST = _Marker("list")
_DICT = _Marker("dict")
_OTHER = _Marker("other")

_NUMBER_TYPES = (int, float, Decimal)
# Types whose native == and hash already obey the value rules, and which never
# compare equal across one another except exactly-equal numbers.
_NATIVE_SAFE = frozenset(
    {type(None), int, float, Decimal, str, bytes, _dt.date, _dt.datetime, _dt.time, _dt.timedelta, uuid.UUID}
)
_FLOAT_EXACT_LIMIT = 2.0**53  # below this every integer is an exact float


def _decimal_key(d: Decimal, to_float: bool) -> object:
    """Key of a Decimal; as a float when floats are around, so 0.1 (numeric) meets 0.1 (float8).

    float(d) is used only where it cannot merge values the rules keep apart:
    below 2**53 two different integers stay different floats, and two
    non-integral values that round to one float differ by far less than the
    tolerance.
    """
    if d.is_nan():
        return _NAN
    if not to_float:
        return d
    f = float(d)
    return f if -_FLOAT_EXACT_LIMIT < f < _FLOAT_EXACT_LIMIT or math.isinf(f) else d


def value_key(value: object, decimals_as_float: bool = True) -> object:
    """Hashable key of one value; equal keys imply equal values under the rules."""
    t = type(value)
    if value is None or t is str or t is int or t is bytes:
        return value
    if t is bool:
        return _TRUE if value else _FALSE
    if t is float:
        return _NAN if value != value else value
    if t is Decimal:
        return _decimal_key(value, decimals_as_float)
    if t is list or t is tuple:
        return (_LIST, tuple(value_key(v, decimals_as_float) for v in value))
    if t is dict:
        items = sorted(value.items(), key=lambda kv: (type(kv[0]).__name__, str(kv[0])))
        return (_DICT, tuple((k, value_key(v, decimals_as_float)) for k, v in items))
    if t is memoryview or t is bytearray:
        return bytes(value)
    try:
        hash(value)
    except TypeError:
        return (_OTHER, repr(value))
    return value


def _column_keys(column: Sequence, types: set, decimals_as_float: bool) -> Sequence:
    """Keys for a whole column, reusing the column untouched when it is already safe."""
    if types <= _NATIVE_SAFE and not (decimals_as_float and Decimal in types):
        return column
    return [value_key(v, decimals_as_float) for v in column]


# --------------------------------------------------------------------------- #
# Tolerant value equality
# --------------------------------------------------------------------------- #


def _is_nan(x: object) -> bool:
    return x is _NAN or (type(x) is float and x != x) or (type(x) is Decimal and x.is_nan())


def _is_integral(x: object) -> bool:
    if type(x) is int:
        return True
    if type(x) is float:
        return x.is_integer()
    return x.is_finite() and x == x.to_integral_value()


def _as_float(x: object) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.copysign(math.inf, x)


def _numbers_close(a: object, b: object) -> bool:
    """Both integral: exact.  Otherwise math.isclose with the module tolerances."""
    nan_a, nan_b = _is_nan(a), _is_nan(b)
    if nan_a or nan_b:
        return nan_a and nan_b
    if _is_integral(a) and _is_integral(b):
        return a == b
    try:
        return math.isclose(float(a), float(b), rel_tol=REL_TOL, abs_tol=ABS_TOL)
    except OverflowError:
        return False


def _keys_close(a: object, b: object) -> bool:
    """The value rules, applied to two keys."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    a_num = ta in _NUMBER_TYPES or a is _NAN
    b_num = tb in _NUMBER_TYPES or b is _NAN
    if a_num or b_num:
        return a_num and b_num and _numbers_close(a, b)
    if ta is tuple and tb is tuple:
        return len(a) == len(b) and all(map(_keys_close, a, b))
    return a == b


def values_equal(a: object, b: object) -> bool:
    """Whether two raw values are equal under the comparator's value rules."""
    return _keys_close(value_key(a), value_key(b))


def _rows_close(g: tuple, p: tuple) -> bool:
    return len(g) == len(p) and all(map(_keys_close, g, p))


# --------------------------------------------------------------------------- #
# Hashing helpers (numpy, wrapping uint64 arithmetic)
# --------------------------------------------------------------------------- #

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_ROW_PRIME = np.uint64(0x100000001B3)


def _mix_inplace(h: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser, overwriting `h`: spreads Python's structured hashes (hash(5) == 5).

    In place with one scratch array: fresh million-element temporaries cost
    page faults, several times the arithmetic itself.
    """
    tmp = h >> np.uint64(30)
    h ^= tmp
    h *= _M1
    h ^= np.right_shift(h, np.uint64(27), out=tmp)
    h *= _M2
    h ^= np.right_shift(h, np.uint64(31), out=tmp)
    return h


def _mix(h: np.ndarray) -> np.ndarray:
    return _mix_inplace(h.copy())


def _column_hashes(column: Sequence, typed: TypedColumn | None = None, str_hashes: bool = False) -> np.ndarray:
    """Mixed 64-bit hash per cell: equal keys give equal hashes.

    Typed int/date columns are hashed by numpy (see `comparator_typed`);
    float columns use Python's hash but give every NaN one hash, since NaN
    equals NaN here while Python hashes each NaN object apart.
    """
    raw = raw_hashes(typed, str_hashes) if typed is not None else None
    if raw is None:
        raw = np.fromiter(map(hash, column), dtype=np.int64, count=len(column))
        if typed is not None and typed.domain == "float":
            raw[np.isnan(typed.values)] = hash(_NAN)
    if not raw.flags.writeable:
        raw = raw.copy()
    return _mix_inplace(raw.view(np.uint64))


def _multiset_signature(hashes: np.ndarray) -> tuple[int, int]:
    """Order-independent fingerprint of a column's value multiset (sums of h and h*h, wrapping)."""
    return int(hashes.sum()), int(np.multiply(hashes, hashes).sum())


def _row_hashes(column_hashes: Sequence[np.ndarray]) -> np.ndarray:
    rows = np.zeros(len(column_hashes[0]), dtype=np.uint64)
    for h in column_hashes:
        rows *= _ROW_PRIME
        rows ^= h
    return rows


# --------------------------------------------------------------------------- #
# Column mapping search
# --------------------------------------------------------------------------- #


def _content_classes(columns: Sequence[Sequence], hashes: Sequence[np.ndarray]) -> list[int]:
    """Class id per column; identical columns share one, so swapping them is never retried."""
    classes: list[int] = []
    for k, col in enumerate(columns):
        same = next(
            (
                classes[i]
                for i in range(k)
                if np.array_equal(hashes[i], hashes[k]) and list(columns[i]) == list(col)
            ),
            None,
        )
        classes.append(k if same is None else same)
    return classes


def _mappings(
    candidates: list[list[int]],
    pred_class: list[int],
    consistent,
    budget: _Budget = _UNBOUNDED,
) -> Iterator[tuple[int, ...]]:
    """All injective gold→pred column assignments drawn from `candidates`.

    Gold columns with fewer candidates are placed first; at each step only one
    predicted column per content class is tried, and `consistent(j, k, chosen)`
    can veto a choice early.
    """
    width = len(candidates)
    order = sorted(range(width), key=lambda j: len(candidates[j]))
    chosen: dict[int, int] = {}
    used: set[int] = set()

    def place(depth: int) -> Iterator[tuple[int, ...]]:
        if depth == width:
            yield tuple(chosen[j] for j in range(width))
            return
        j = order[depth]
        tried_classes: set[int] = set()
        for k in candidates[j]:
            if k in used or pred_class[k] in tried_classes:
                continue
            tried_classes.add(pred_class[k])
            budget.spend(1 + len(chosen))  # one step: a pair check against each column placed
            if not consistent(j, k, chosen):
                continue
            chosen[j] = k
            used.add(k)
            yield from place(depth + 1)
            del chosen[j]
            used.discard(k)

    yield from place(0)


def _signatures_fit(g_sigs, p_sigs) -> bool:
    """Gold's column signatures equal the prediction's as multisets (same width, same columns)."""
    return Counter(g_sigs) == Counter(p_sigs)


def _exact_mappings(g_hashes: list[np.ndarray], p_hashes: list[np.ndarray], p_keys,
                    budget: _Budget = _UNBOUNDED) -> Iterator[tuple[int, ...]]:
    """Gold→pred column bijections whose columns have equal multiset signatures and pair signatures."""
    g_sigs = [_multiset_signature(h) for h in g_hashes]
    p_sigs = [_multiset_signature(h) for h in p_hashes]
    if not _signatures_fit(g_sigs, p_sigs):
        return iter(())
    candidates = [[k for k, s in enumerate(p_sigs) if s == g] for g in g_sigs]
    pair_cache: dict[tuple[str, int, int], tuple[int, int]] = {}

    def pair_sig(side: str, hashes, a: int, b: int) -> tuple[int, int]:
        key = (side, a, b)
        if key not in pair_cache:
            budget.spend(len(hashes[a]))
            pair_cache[key] = _multiset_signature(_mix(hashes[a] * _ROW_PRIME ^ hashes[b]))
        return pair_cache[key]

    def consistent(j: int, k: int, chosen: dict[int, int]) -> bool:
        # Only ambiguous columns need the pair check; against every column already placed, so a
        # decoy (same values as a gold column, other rows) fails here for the price of one hash
        # pass instead of a full row match.
        if len(candidates[j]) == 1:
            return True
        return all(pair_sig("g", g_hashes, j2, j) == pair_sig("p", p_hashes, k2, k) for j2, k2 in chosen.items())

    return _mappings(candidates, _content_classes(p_keys, p_hashes), consistent, budget)


# --------------------------------------------------------------------------- #
# Exact multiset / ordered check under a mapping
# --------------------------------------------------------------------------- #


def _as_objects(column: Sequence) -> np.ndarray:
    return np.fromiter(column, dtype=object, count=len(column))


def _tagged(row_hashes: np.ndarray, tags) -> np.ndarray:
    """Fold tie-group ids into row hashes so rows only pair within their group."""
    if tags is None or isinstance(tags, str):
        return row_hashes
    return _mix(row_hashes ^ _mix(tags.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)))


def _index_bits(n: int) -> np.uint64:
    """Mask of the low bits that can hold a row index below n."""
    return np.uint64((1 << max(1, (n - 1).bit_length())) - 1)


def _sorted_by_hash(row_hashes: np.ndarray) -> np.ndarray:
    """Row hash prefix and row index packed in one uint64, sorted.

    One plain sort of packed words is about twice as fast as an argsort; the
    price is that the sort sees only the hash's high bits (see `_partner_by_hash`).
    """
    low = _index_bits(len(row_hashes))
    packed = row_hashes & ~low
    packed |= np.arange(len(row_hashes), dtype=np.uint64)
    return sort_u64(packed)


def _partner_by_hash(g_rows: np.ndarray, p_rows: np.ndarray, positional: bool) -> np.ndarray | None:
    """For each gold row, the index of a predicted row with the same hash prefix; None if
    the hash multisets (or sequences, when positional) differ."""
    if positional:
        return np.arange(len(g_rows)) if np.array_equal(g_rows, p_rows) else None
    low = _index_bits(len(g_rows))
    g_sorted, p_sorted = _sorted_by_hash(g_rows), _sorted_by_hash(p_rows)
    if not np.array_equal(g_sorted & ~low, p_sorted & ~low):
        return None
    g_order, p_order = (g_sorted & low).astype(np.intp), (p_sorted & low).astype(np.intp)
    if not np.array_equal(g_rows[g_order], p_rows[p_order]):
        # Different full hashes share a prefix (about n**2 / 2**(65 - index bits):
        # a few percent of million-row results); pair by full hashes instead.
        g_order, p_order = np.argsort(g_rows, kind="stable"), np.argsort(p_rows, kind="stable")
        if not np.array_equal(g_rows[g_order], p_rows[p_order]):
            return None
    partner = np.empty(len(g_rows), dtype=np.intp)
    partner[g_order] = p_order
    return partner


def _pair_mismatches(g_keys, p_keys, g_index, p_index, tags, g_typed=None, p_typed=None) -> np.ndarray:
    """Mask over pairs: gold row g_index[i] differs from predicted row p_index[i] (key or tag).

    Columns with typed views on both sides are compared as numpy arrays, the
    cheap and exact case; the others cell by cell as Python objects.
    """
    width = len(g_keys)
    g_typed = g_typed or [None] * width
    p_typed = p_typed or [None] * width
    differ = None
    if tags is not None and not isinstance(tags, str):
        differ = tags[g_index] != tags[p_index]
    for j in range(width):
        if comparable(g_typed[j], p_typed[j]):
            bad = cells_differ(g_typed[j], p_typed[j], g_index, p_index)
        else:
            bad = _objects_differ(g_keys[j], p_keys[j], g_index, p_index)
        differ = bad if differ is None else (differ | bad)
    return differ


_CHUNK = 1024


def _objects_differ(g_column, p_column, g_index, p_index) -> np.ndarray:
    """Mask: g_column[g_index[i]] != p_column[p_index[i]], compared as Python objects.

    Done in chunks: gathering objects increments their reference counts, the
    comparison reads them, freeing the gathered array decrements them again.
    Chunked, all three hit the same cached objects; a million at once, each
    is a cache miss of its own (measured: ~40% of the time saved).
    """
    g_all, p_all = _as_objects(g_column), _as_objects(p_column)
    g_index = np.arange(len(g_all)) if isinstance(g_index, slice) else g_index
    p_index = np.arange(len(p_all)) if isinstance(p_index, slice) else p_index
    differ = np.empty(len(g_index), dtype=bool)
    for start in range(0, len(g_index), _CHUNK):
        stop = start + _CHUNK
        np.not_equal(g_all[g_index[start:stop]], p_all[p_index[start:stop]], out=differ[start:stop])
    return differ


def _pairs_identical(g_keys, p_keys, g_index, p_index, tags, g_typed=None, p_typed=None) -> bool:
    """Gold row g_index[i] equals predicted row p_index[i] key for key (and tag for tag)."""
    return not _pair_mismatches(g_keys, p_keys, g_index, p_index, tags, g_typed, p_typed).any()


def _rows_with_hash(row_hashes: np.ndarray, hashes: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.isin(row_hashes, hashes))


def _exact_match(g_keys, p_keys, g_hashes, p_hashes, mapping, tags, g_typed, p_typed) -> bool:
    """Rows equal key-for-key under `mapping`, honouring `tags` (None, "positional", or tie-group ids)."""
    p_keys = [p_keys[k] for k in mapping]
    p_typed = [p_typed[k] for k in mapping]
    g_rows = _tagged(_row_hashes(g_hashes), tags)
    p_rows = _tagged(_row_hashes([p_hashes[k] for k in mapping]), tags)
    positional = isinstance(tags, str)
    partner = _partner_by_hash(g_rows, p_rows, positional)
    if partner is None:
        return False
    differ = _pair_mismatches(g_keys, p_keys, slice(None), partner, tags, g_typed, p_typed)
    if not differ.any():
        return True
    if positional:
        return False  # row i against row i: nothing left to re-pair
    # Equal hashes but different rows: a collision scrambled the pairing (or
    # NaN objects, which never == each other).  Only rows sharing a hash with a
    # mismatched pair can be affected; settle those by counting.
    suspects = np.unique(g_rows[differ])
    g_idx, p_idx = _rows_with_hash(g_rows, suspects), _rows_with_hash(p_rows, suspects)
    return _counted_equal(g_keys, p_keys, g_idx, p_idx, tags)


def _counted_equal(g_keys, p_keys, g_idx: np.ndarray, p_idx: np.ndarray, tags) -> bool:
    """Exact multiset equality of the selected rows (with their tie-group tags)."""
    if len(g_idx) != len(p_idx):
        return False
    g_tags = [None] * len(g_idx) if tags is None else tags[g_idx].tolist()
    p_tags = [None] * len(p_idx) if tags is None else tags[p_idx].tolist()
    return Counter(zip(g_tags, *_columns_at(g_keys, g_idx))) == Counter(zip(p_tags, *_columns_at(p_keys, p_idx)))


def _columns_at(columns: Sequence[Sequence], index: np.ndarray) -> list[list]:
    return [_as_objects(c)[index].tolist() for c in columns]


# --------------------------------------------------------------------------- #
# Tolerant path
# --------------------------------------------------------------------------- #


def _coarse_key(key: object) -> object:
    """Key with every finite number replaced by a wildcard: values that may be
    equal under the tolerance always share a coarse key."""
    t = type(key)
    if t in _NUMBER_TYPES:
        if _is_nan(key):
            return _NAN
        if t is float and math.isinf(key):
            return key
        if t is Decimal and key.is_infinite():
            return float(key)
        return _NUM
    if t is tuple:
        return tuple(map(_coarse_key, key))
    return key


def _finite_numbers(key: object, out: list) -> list:
    t = type(key)
    if t in _NUMBER_TYPES:
        if _coarse_key(key) is _NUM:
            out.append(key)
    elif t is tuple:
        for item in key:
            _finite_numbers(item, out)
    return out


def _may_need_tolerance(types: list[set]) -> bool:
    """Tolerance can only change the verdict if an inexact or nested value exists."""
    inexact = {float, Decimal, list, tuple, dict}
    return any(t & inexact for t in types)


_FLATTENABLE = {int, float, Decimal, type(None)}


def _numeric_floats(keys: Sequence, types: set, typed: TypedColumn | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """(mask of non-NULL cells, their float values) for a flat numeric column; None otherwise.

    Typed int/float columns convert in numpy (rounding ints beyond 2**53 is
    harmless: these floats only classify cells and bound column sums).
    """
    if not types <= _FLATTENABLE or not types & {int, float, Decimal}:
        return None
    if typed is not None and typed.domain in ("int", "float"):
        present = np.ones(len(keys), dtype=bool) if typed.nulls is None else ~typed.nulls
        return present, typed.values[present].astype(np.float64)
    objects = _as_objects(keys)
    # `is None`, not `== None`: Decimal == None asks numbers.Rational (an ABC) every time.
    present = ~null_mask(keys)
    numbers = objects[present]
    try:
        values = np.fromiter(map(float, numbers), dtype=float, count=len(numbers))
    except (OverflowError, TypeError, ValueError):
        return None
    if (int in types or Decimal in types) and np.isinf(values).any():
        return None  # a huge finite int/Decimal overflowed; let the exact code decide
    return present, values


def _column_number_bounds(keys: Sequence, flat, types: set) -> tuple[int, float, float] | None:
    """(count, sum, sum of |x|) of a column's top-level finite numbers, None if not summable."""
    if not types & {int, float, Decimal}:
        return 0, 0.0, 0.0  # no top-level number at all: skip the scan
    if flat is not None:
        values = flat[1]
        values = values[np.isfinite(values)]
        return len(values), float(values.sum()), float(np.abs(values).sum())
    numbers = [k for k in keys if type(k) in _NUMBER_TYPES and _coarse_key(k) is _NUM]
    try:
        floats = [float(x) for x in numbers]
    except OverflowError:
        return None
    return len(floats), math.fsum(floats), math.fsum(map(abs, floats))


def _sums_compatible(a, b) -> bool:
    """Necessary condition for two numeric columns to be equal multisets under the
    tolerance: each matched pair differs by at most ABS_TOL + REL_TOL(|x|+|y|)."""
    if a is None or b is None:
        return True
    (n_a, s_a, abs_a), (n_b, s_b, abs_b) = a, b
    if n_a != n_b:
        return False
    # 1e-12 relative covers float conversion and summation rounding.
    slack = n_a * ABS_TOL + (REL_TOL * 1.001 + 1e-12) * (abs_a + abs_b)
    return abs(s_a - s_b) <= slack * 1.000001 + 1e-300


_COARSE_HASH = {
    "none": hash(None),
    "num": hash(_NUM),
    "nan": hash(_NAN),
    "+inf": hash(math.inf),
    "-inf": hash(-math.inf),
}


def _coarse_column_hashes(keys: Sequence, types: set, exact_hashes: np.ndarray, flat) -> np.ndarray:
    """Hashes of coarse keys; a column without numbers or nesting is its own coarse column.

    Flat numeric columns are classified with numpy (NULL / finite / NaN / ±inf)
    instead of one Python call per cell.
    """
    if not types & {int, float, Decimal, list, tuple, dict}:
        return exact_hashes
    if flat is None:
        return _column_hashes([_coarse_key(k) for k in keys])
    present, values = flat
    raw = np.full(len(keys), _COARSE_HASH["none"], dtype=np.int64)
    category = np.full(len(values), _COARSE_HASH["num"], dtype=np.int64)
    category[np.isnan(values)] = _COARSE_HASH["nan"]
    category[values == math.inf] = _COARSE_HASH["+inf"]
    category[values == -math.inf] = _COARSE_HASH["-inf"]
    raw[present] = category
    return _mix(raw.view(np.uint64))


def _is_flat_exact(types: set) -> bool:
    """Columns whose values can only ever equal identical keys (no numbers, no nesting)."""
    return not types & {int, float, Decimal, list, tuple, dict, _Marker}


def _tolerant_mappings(g_keys, p_keys, g_flat, p_flat, g_coarse, p_coarse, p_hashes, g_types, p_types,
                       budget: _Budget = _UNBOUNDED) -> Iterator[tuple[int, ...]]:
    """Column mappings allowed by coarse signatures and numeric sum bounds."""
    g_sigs = [_multiset_signature(h) for h in g_coarse]
    p_sigs = [_multiset_signature(h) for h in p_coarse]
    if not _signatures_fit(g_sigs, p_sigs):
        return iter(())
    g_bounds = [_column_number_bounds(*args) for args in zip(g_keys, g_flat, g_types)]
    p_bounds = [_column_number_bounds(*args) for args in zip(p_keys, p_flat, p_types)]
    candidates = [
        [k for k in range(len(p_keys)) if p_sigs[k] == g_sigs[j] and _sums_compatible(g_bounds[j], p_bounds[k])]
        for j in range(len(g_keys))
    ]
    if any(not c for c in candidates):
        return iter(())
    return _mappings(candidates, _content_classes(p_keys, p_hashes), lambda j, k, chosen: True, budget)


def _max_matching(gold: list[tuple], pred: list[tuple], budget: _Budget = _UNBOUNDED) -> int:
    """Size of a maximum matching between two row lists under tolerant row equality.

    Rows here share one coarse key, so they differ only in finite numbers.
    Candidate edges come from a window on the first number (sorted + bisect);
    Kuhn's augmenting paths then give the maximum, starting from identical-key
    pairs so that the common case needs no search.
    """
    numbers_g = [_finite_numbers(r, []) for r in gold]
    numbers_p = [_finite_numbers(r, []) for r in pred]
    if not gold or not pred:
        return 0
    if not numbers_g[0]:
        return min(len(gold), len(pred))  # same coarse key and no numbers: identical rows
    firsts = sorted((_as_float(nums[0]), k) for k, nums in enumerate(numbers_p))
    first_values = [f for f, _ in firsts]

    def neighbours(i: int) -> list[int]:
        a = _as_float(numbers_g[i][0])
        if math.isinf(a):
            window = range(len(firsts))
        else:
            width = max(ABS_TOL, 2 * REL_TOL * abs(a)) * 1.001
            window = range(bisect_left(first_values, a - width), bisect_right(first_values, a + width))
        return [firsts[w][1] for w in window if _rows_close(gold[i], pred[firsts[w][1]])]

    edges = [neighbours(i) for i in range(len(gold))]
    budget.spend(len(gold) + len(pred) + sum(map(len, edges)))
    match_of_pred: dict[int, int] = {}
    match_of_gold: dict[int, int] = {}
    free_pred = defaultdict(list)
    for k, row in enumerate(pred):
        free_pred[row].append(k)
    for i, row in enumerate(gold):  # seed with identical rows
        if free_pred.get(row):
            k = free_pred[row].pop()
            match_of_pred[k], match_of_gold[i] = i, k

    for root in range(len(gold)):
        if root in match_of_gold:
            continue
        _augment(root, edges, match_of_pred, match_of_gold)
    return len(match_of_gold)


def _augment(root: int, edges: list[list[int]], match_of_pred: dict, match_of_gold: dict) -> bool:
    """One iterative DFS for an augmenting path from an unmatched gold row."""
    parent_pred: dict[int, int] = {}  # pred -> gold that reached it
    stack = [(root, iter(edges[root]))]
    seen: set[int] = set()
    while stack:
        gold_i, it = stack[-1]
        advanced = False
        for k in it:
            if k in seen:
                continue
            seen.add(k)
            parent_pred[k] = gold_i
            owner = match_of_pred.get(k)
            if owner is None:
                # flip the path back to the root
                while True:
                    g = parent_pred[k]
                    previous = match_of_gold.get(g)
                    match_of_pred[k], match_of_gold[g] = g, k
                    if g == root:
                        return True
                    k = previous
            stack.append((owner, iter(edges[owner])))
            advanced = True
            break
        if not advanced:
            stack.pop()
    return False


def _group_by_coarse_key(rows: Sequence[tuple], tags: Sequence | None) -> dict:
    groups: dict = defaultdict(list)
    for i, row in enumerate(rows):
        groups[(None if tags is None else tags[i], tuple(map(_coarse_key, row)))].append(row)
    return groups


def count_matching_rows(gold_rows: Sequence[tuple], pred_rows: Sequence[tuple], tags: Sequence | None = None) -> int:
    """Largest number of gold rows that can be paired one-to-one with equal predicted rows.

    Columns are compared positionally (no permutation).  With `tags`, rows may
    only pair with rows carrying the same tag.
    """
    gold = [tuple(value_key(v) for v in r) for r in gold_rows]
    pred = [tuple(value_key(v) for v in r) for r in pred_rows]
    return _matching_over_groups(gold, pred, tags, tags)


def _matching_over_groups(gold, pred, g_tags, p_tags, budget: _Budget = _UNBOUNDED) -> int:
    g_groups, p_groups = _group_by_coarse_key(gold, g_tags), _group_by_coarse_key(pred, p_tags)
    total = 0
    for key, g_rows in g_groups.items():
        p_rows = p_groups.get(key)
        if not p_rows:
            continue
        if Counter(g_rows) == Counter(p_rows):
            total += len(g_rows)
        else:
            total += _max_matching(g_rows, p_rows, budget)
    return total


def _rows_at(columns: Sequence[Sequence], index: np.ndarray) -> list[tuple]:
    return list(zip(*[_as_objects(c)[index].tolist() for c in columns]))


def _unbalanced(g_hashes: np.ndarray, p_hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Masks of gold / predicted rows whose hash occurs a different number of times on each side."""
    both = np.concatenate([g_hashes, p_hashes])
    uniq, inverse = np.unique(both, return_inverse=True)
    sign = np.concatenate([np.ones(len(g_hashes)), -np.ones(len(p_hashes))])
    off = np.bincount(inverse, weights=sign, minlength=len(uniq)) != 0
    mask = off[inverse]
    return mask[: len(g_hashes)], mask[len(g_hashes) :]


def _tolerant_positional(g_keys, p_keys, g_exact, p_exact, g_typed=None, p_typed=None) -> bool:
    """Row i against row i; only rows whose exact hashes differ need the tolerant rule."""
    same = g_exact == p_exact
    idx_same = np.flatnonzero(same)
    if not _pairs_identical(g_keys, p_keys, idx_same, idx_same, None, g_typed, p_typed):
        idx_diff = np.arange(len(same))  # collision: check everything the slow way
    else:
        idx_diff = np.flatnonzero(~same)
    return all(map(_rows_close, _rows_at(g_keys, idx_diff), _rows_at(p_keys, idx_diff)))


def _tolerant_multiset(g_keys, p_keys, g_exact, p_exact, g_coarse_rows, p_coarse_rows, tags, g_typed=None, p_typed=None,
                       budget: _Budget = _UNBOUNDED) -> bool:
    """Multiset equality under the tolerance, working row by row only where needed.

    Rows whose exact hash is balanced across sides *and* whose coarse group holds
    no unbalanced row are confirmed by exact pairing; the rest are matched.
    """
    g_off, p_off = _unbalanced(g_exact, p_exact)
    dirty = np.unique(np.concatenate([g_coarse_rows[g_off], p_coarse_rows[p_off]]))
    g_dirty, p_dirty = np.isin(g_coarse_rows, dirty), np.isin(p_coarse_rows, dirty)
    g_clean, p_clean = np.flatnonzero(~g_dirty), np.flatnonzero(~p_dirty)
    partner = _partner_by_hash(g_exact[g_clean], p_exact[p_clean], positional=False)
    if partner is None or not _pairs_identical(g_keys, p_keys, g_clean, p_clean[partner], tags, g_typed, p_typed):
        g_dirty[:], p_dirty[:] = True, True  # collision: match everything
    g_idx, p_idx = np.flatnonzero(g_dirty), np.flatnonzero(p_dirty)
    if len(g_idx) != len(p_idx):
        return False
    g_tags = None if tags is None else tags[g_idx].tolist()
    p_tags = None if tags is None else tags[p_idx].tolist()
    gold, pred = _rows_at(g_keys, g_idx), _rows_at(p_keys, p_idx)
    return _matching_over_groups(gold, pred, g_tags, p_tags, budget) == len(gold)


def _tolerant_match(g_keys, p_keys, g_types, p_types, g_hashes, p_hashes, tags, g_typed, p_typed,
                    budget: _Budget = _UNBOUNDED) -> bool:
    """Search column mappings and rows under the numeric tolerance (the slow, rare path)."""
    # Columns without numbers must still match exactly: a cheap early rejection.
    g_flat = [_multiset_signature(h) for h, t in zip(g_hashes, g_types) if _is_flat_exact(t)]
    p_flat = [_multiset_signature(h) for h, t in zip(p_hashes, p_types) if _is_flat_exact(t)]
    if not _signatures_fit(g_flat, p_flat):
        return False
    g_nums = [_numeric_floats(*args) for args in zip(g_keys, g_types, g_typed)]
    p_nums = [_numeric_floats(*args) for args in zip(p_keys, p_types, p_typed)]
    g_coarse = [_coarse_column_hashes(*args) for args in zip(g_keys, g_types, g_hashes, g_nums)]
    p_coarse = [_coarse_column_hashes(*args) for args in zip(p_keys, p_types, p_hashes, p_nums)]
    positional = isinstance(tags, str)
    g_exact = _tagged(_row_hashes(g_hashes), tags)
    g_coarse_rows = _tagged(_row_hashes(g_coarse), tags)
    for mapping in _tolerant_mappings(g_keys, p_keys, g_nums, p_nums, g_coarse, p_coarse, p_hashes, g_types, p_types,
                                      budget):
        budget.spend(len(g_keys[0]) + _MAPPING_OVERHEAD)
        mapped = [p_keys[k] for k in mapping]
        mapped_typed = [p_typed[k] for k in mapping]
        p_coarse_rows = _tagged(_row_hashes([p_coarse[k] for k in mapping]), tags)
        if _partner_by_hash(g_coarse_rows, p_coarse_rows, positional) is None:
            continue
        p_exact = _tagged(_row_hashes([p_hashes[k] for k in mapping]), tags)
        if positional:
            ok = _tolerant_positional(g_keys, mapped, g_exact, p_exact, g_typed, mapped_typed)
        else:
            ok = _tolerant_multiset(
                g_keys, mapped, g_exact, p_exact, g_coarse_rows, p_coarse_rows, tags, g_typed, mapped_typed, budget
            )
        if ok:
            return True
    return False


# --------------------------------------------------------------------------- #
# Order tags
# --------------------------------------------------------------------------- #


def _tie_group_ids(g_keys, g_types: list[set], key_columns: tuple[int, ...], g_typed=None) -> np.ndarray:
    """Group id per gold row: consecutive rows with identical sort-key values share one.

    Ties are exact on the gold keys (the database decided them); NaN ties NaN.
    Typed key columns are compared with numpy, the rest as Python objects.
    """
    n = len(g_keys[0])
    if n < 2:
        return np.zeros(n, dtype=np.int64)
    g_typed = g_typed or [None] * len(g_keys)
    changes = np.zeros(n - 1, dtype=bool)
    untyped = [j for j in key_columns if g_typed[j] is None]
    for j in key_columns:
        if g_typed[j] is not None:
            changes |= runs_differ(g_typed[j])
    if untyped:
        sort_keys = [
            [_NAN if _is_nan(v) else v for v in g_keys[j]] if g_types[j] & {float, Decimal} else g_keys[j]
            for j in untyped
        ]
        sort_keys = list(zip(*sort_keys))
        changes |= np.fromiter(map(operator.ne, sort_keys[1:], sort_keys[:-1]), dtype=bool, count=n - 1)
    return np.concatenate(([0], np.cumsum(changes, dtype=np.int64)))


def _order_tags(spec: OrderSpec, g_keys, g_types: list[set], width: int, g_typed=None):
    if not spec.ordered:
        return None
    if spec.positional or any(j >= width for j in spec.key_columns):
        return "positional"
    return _tie_group_ids(g_keys, g_types, spec.key_columns, g_typed)


# --------------------------------------------------------------------------- #
# Public entry points
# --------------------------------------------------------------------------- #


def _all_str_columns_typed(types: list[set], typed: list[TypedColumn | None]) -> bool:
    """Whether every str-only column (both sides) has a typed view, so polars may hash them all."""
    return all(t is not None for ts, t in zip(types, typed) if str in ts and ts <= {str, type(None)})


def _columns(rows: Sequence[tuple], width: int) -> list[Sequence]:
    """The rows' columns.  One itemgetter pass per column is ~30% faster than
    zip(*rows), which allocates an iterator per row; ragged rows fall back to zip."""
    try:
        return [list(map(operator.itemgetter(j), rows)) for j in range(width)]
    except IndexError:
        return list(zip(*rows))


def _typed_columns(columns: list[Sequence]) -> tuple[list[set], list[TypedColumn | None]]:
    """Type set and typed view (or None) per column; int and str columns skip the type pass."""
    types, typed = [], []
    for column in columns:
        guessed = guessed_column(column)
        if guessed is None:
            column_types = set(map(type, column))
            guessed = column_types, typed_column(column, column_types)
        types.append(guessed[0])
        typed.append(guessed[1])
    return types, typed


def results_match(gold_rows: Sequence[tuple], pred_rows: Sequence[tuple] | None, spec: OrderSpec, *,
                  budget: int | None = None) -> bool:
    """Compare two result sets given an explicit ordering spec (see module docstring).

    The search runs under a work budget (`work_budget(rows)` unless `budget` is given); past it,
    `ComparatorBudgetExceeded` is raised (`verdict` and `compare` turn it into an outcome)."""
    if pred_rows is None:
        return False
    if len(gold_rows) != len(pred_rows):
        return False
    if not gold_rows:
        return True
    width, pred_width = len(gold_rows[0]), len(pred_rows[0])
    if pred_width != width:
        return False  # decided before any column is read: a wide prediction costs nothing
    if width == 0:
        return True

    g_cols, p_cols = _columns(gold_rows, width), _columns(pred_rows, pred_width)
    if len(p_cols) != pred_width:
        return False
    work = _Budget(work_budget(len(gold_rows)) if budget is None else budget)
    g_types, g_typed = _typed_columns(g_cols)
    p_types, p_typed = _typed_columns(p_cols)
    all_types = set().union(*g_types, *p_types)
    decimals_as_float = Decimal in all_types and float in all_types
    g_keys = [_column_keys(c, t, decimals_as_float) for c, t in zip(g_cols, g_types)]
    p_keys = [_column_keys(c, t, decimals_as_float) for c, t in zip(p_cols, p_types)]
    tags = _order_tags(spec, g_keys, g_types, width, g_typed)

    str_hashes = _all_str_columns_typed(g_types + p_types, g_typed + p_typed)
    g_hashes = [_column_hashes(c, t, str_hashes) for c, t in zip(g_keys, g_typed)]
    p_hashes = [_column_hashes(c, t, str_hashes) for c, t in zip(p_keys, p_typed)]
    for mapping in _exact_mappings(g_hashes, p_hashes, p_keys, work):
        work.spend(len(gold_rows) + _MAPPING_OVERHEAD)
        if _exact_match(g_keys, p_keys, g_hashes, p_hashes, mapping, tags, g_typed, p_typed):
            return True
    if not _may_need_tolerance(g_types + p_types):
        return False
    return _tolerant_match(g_keys, p_keys, g_types, p_types, g_hashes, p_hashes, tags, g_typed, p_typed, work)


def verdict(gold_sql: str, gold_rows: Sequence[tuple], pred_rows: Sequence[tuple] | None, *,
            budget: int | None = None) -> Verdict:
    """`MATCH` when `pred_rows` is the same answer as `gold_rows` for the gold query `gold_sql`,
    `DIFFERENT` when it is not (or `pred_rows` is None: the prediction failed to execute), and
    `BUDGET` when the comparison ran past its work budget (`work_budget`, or `budget` units) before
    deciding - a named outcome the scorer counts wrong and lists, never a stall or an exception.

    The prediction must have exactly the gold's number of columns (in any order, rows aligned),
    under every value rule above, in both question modes (issue 33)."""
    if pred_rows is None:
        return DIFFERENT
    try:
        return MATCH if results_match(gold_rows, pred_rows, order_spec(gold_sql), budget=budget) else DIFFERENT
    except ComparatorBudgetExceeded:
        return BUDGET


def compare(gold_sql: str, gold_rows: Sequence[tuple], pred_rows: Sequence[tuple] | None, *,
            budget: int | None = None) -> bool:
    """Whether `pred_rows` is the same answer as `gold_rows` for the gold query `gold_sql`
    (`verdict` is `MATCH`). `pred_rows` is None when the prediction failed to execute; that never
    matches, and neither does a comparison that overran its work budget (`verdict` names that one).
    """
    return verdict(gold_sql, gold_rows, pred_rows, budget=budget) == MATCH

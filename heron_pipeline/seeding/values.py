"""Column values for one block of one table, vectorised across the tenants the block spans.

Each column gets a value source inferred from the catalog (type, name, nullability, FK, CHECKs,
unique keys) and refined by the table's profile. Numbers come from numpy, text is composed with
polars from the vocabulary, so no per-row Python objects are made. Everything random is drawn
from the block's own stream; everything another table needs to recompute (ids, creation times,
parents) is a pure function of the plan.

A block is a run of rows in id order, so it may span several tenants (ids are laid out tenant after
tenant). Random draws are made once for the whole block; what depends on the tenant (its id range
in a parent table, its signup day, its parents' layout) is looked up per row from the plan, and
the few pure plan functions that take one tenant run once per tenant segment of the block.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np
import polars as pl

from heron_pipeline.catalog.model import Column, Table
from heron_pipeline.seeding import vocabulary as V
from heron_pipeline.seeding.block import Block
from heron_pipeline.seeding.checks import Bound, Relation, table_rules
from heron_pipeline.seeding.profiles import TableProfile
from heron_pipeline.seeding.rows import alive_counts, row_times
from heron_pipeline.seeding.special import special_values
from heron_pipeline.seeding.streams import BLOCK_ROWS, fixed_stream, stable_key
from heron_pipeline.seeding.ties import balanced, balanced_parents, filter_mask
from heron_pipeline.seeding.timeline import AS_OF_US, US_PER_DAY, WINDOW_START_DAY, unit_hash

ISO_KEYS = {"tenancy.countries": "code", "tenancy.currencies": "code", "tenancy.languages": "code",
            "tenancy.timezones": "name"}
FUTURE_WORDS = ("expires", "valid_until", "valid_to", "due", "period_end", "scheduled", "next_", "renews",
                "trial_end", "ends", "expected", "target", "effective_to")
MONEY_MEDIANS = (("unit_price", 45.0), ("price", 45.0), ("unit_cost", 30.0), ("cost", 60.0),
                 ("tax", 40.0), ("discount", 25.0), ("shipping", 18.0), ("fee", 6.0), ("mrr", 650.0),
                 ("budget", 8000.0), ("spend", 150.0), ("limit", 25000.0), ("revenue", 2_000_000.0),
                 ("subtotal", 420.0), ("total", 480.0), ("amount", 380.0), ("balance", 900.0))


def generate_block(block: Block) -> pl.DataFrame:
    """All columns of one block, in the table's column order."""
    table = block.table
    bounds, relations = table_rules(block.catalog.ddl_hash, table.qualified, table)
    order = _column_order(table, block.profile, relations)
    for name in order:
        column = table.column(name)
        block.values[name] = _column_values(block, column, bounds.get(name), relations)
    for name in order:
        _apply_conditional_nulls(block, table.column(name))
        _apply_zero_when(block, table.column(name))
    if block.profile.tie:
        _apply_tie(block, block.profile.tie)
    series = [_to_series(name, block.values[name], table.column(name)) for name in (c.name for c in table.columns)]
    return pl.DataFrame(series)


def _apply_tie(block: Block, spec: dict[str, Any]) -> None:
    """The profile's ``tie`` (seeding/ties.py): last, once every column the filter reads is final."""
    table = block.table
    columns = {name: _to_series(name, block.values[name], table.column(name)) for name in spec["where"]}
    kept = filter_mask(columns, spec["where"])
    category = spec["column"]
    if spec.get("of"):
        block.values[category] = _tied_parents(block, spec, kept)
        return
    block.values[category] = balanced(_to_series(category, block.values[category], table.column(category)), kept,
                                      tuple(spec["between"]), spec["spill"])


def _tied_parents(block: Block, spec: dict[str, Any], kept: np.ndarray) -> np.ndarray:
    """A parent-side tie: the FK ``spec["column"]`` re-pointed so the kept rows count as many
    parents with ``spec["of"] = a`` as with ``= b``. The parents' values come from their own blocks,
    made again here (the same bytes as in the parent table: a block is a pure function of the
    plan), for the tenants of the kept rows only (none: nothing is made)."""
    fk = block.table.foreign_key_of(spec["column"])
    parent_tp = block.plan.tables[fk.ref_table]
    values = block.values[spec["column"]]
    missing = np.ma.getmaskarray(values)  # a nullable FK: rows without a parent are not counted
    kept = kept & ~missing
    if not kept.any():
        return values
    tenants = block.tenants[kept]
    offsets = parent_tp.offsets
    lo, frame = _tenant_rows(block, fk.ref_table, int(tenants.min()), int(tenants.max()))
    original = np.asarray(np.ma.getdata(values), dtype=np.int64)
    ids = np.where(kept, original, lo + 1)  # the other rows point anywhere in range; they never move
    eligible = _passes(frame, spec.get("parent_where"))
    hop, _, column = spec["of"].rpartition(".")
    if hop:  # the category sits one row further up (an order's sales channel's kind)
        up = block.catalog.tables[fk.ref_table].foreign_key_of(hop).ref_table
        up_lo, up_frame = _tenant_rows(block, up, int(tenants.min()), int(tenants.max()))
        up_ids = frame[hop]
        known = up_ids.is_not_null().to_numpy()
        at = np.where(known, up_ids.fill_null(up_lo + 1).to_numpy() - 1 - up_lo, 0)
        category = np.where(known, up_frame[column].cast(pl.String).to_numpy()[at], None)
        eligible = eligible & known & _passes(up_frame, spec.get("of_where"))[at]
    else:
        category = frame[column].cast(pl.String).to_numpy()
    alive = block.per_tenant(lambda t, s: alive_counts(block.plan, parent_tp, t, block.created[s]))
    first_alive = offsets[block.tenants] - lo
    end_alive = first_alive + np.minimum(alive, parent_tp.counts[block.tenants])
    pick = unit_hash(block.ids, stable_key("tie", block.table.qualified, spec["column"], str(block.plan.seed)))
    moved = balanced_parents(ids - 1 - lo, kept, category, eligible, first_alive, end_alive, pick,
                             tuple(spec["between"]), spec["spill"])
    moved = np.where(kept, moved + 1 + lo, original)
    return np.ma.array(moved, mask=missing) if missing.any() else moved


def _tenant_rows(block: Block, table: str, first: int, last: int) -> tuple[int, pl.DataFrame]:
    """The rows of ``table`` of tenants ``first`` to ``last`` (indexes), and the position of the first."""
    tp = block.plan.tables[table]
    lo = int(tp.offsets[first])
    return lo, _parent_rows(block, table, lo, int(tp.offsets[last] + tp.counts[last]))


def _passes(frame: pl.DataFrame, where: dict[str, Any] | None) -> np.ndarray:
    return filter_mask({c: frame[c] for c in where}, where) if where else np.ones(frame.height, dtype=bool)


def _parent_rows(block: Block, table: str, lo: int, hi: int) -> pl.DataFrame:
    """Rows ``lo`` to ``hi`` (0-based positions) of ``table``, made from their blocks."""
    frames = [_parent_block(block, table, number)
              for number in range(lo // BLOCK_ROWS, (max(hi, lo + 1) - 1) // BLOCK_ROWS + 1)]
    frame = frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical_relaxed")
    start = (lo // BLOCK_ROWS) * BLOCK_ROWS
    return frame.slice(lo - start, hi - lo)


#: (plan, table, block) -> frame: the parent blocks a parent-side tie made last (one process makes
#: a child table's blocks in a row, and they share their parents' blocks).
_PARENT_BLOCKS: dict[tuple[int, str, int], tuple[Any, pl.DataFrame]] = {}


def forget_parent_blocks() -> None:
    """Drop the kept parent blocks (a benchmark times a table's blocks cold)."""
    _PARENT_BLOCKS.clear()


def _parent_block(block: Block, table: str, number: int) -> pl.DataFrame:
    key = (id(block.plan), table, number)
    cached = _PARENT_BLOCKS.get(key)
    if cached is not None and cached[0] is block.plan:
        return cached[1]
    frame = generate_block(Block.numbered(block.catalog, block.plan, table, number, block.profiles, block.reference))
    if len(_PARENT_BLOCKS) >= 8:
        _PARENT_BLOCKS.clear()
    _PARENT_BLOCKS[key] = (block.plan, frame)
    return frame


def _column_order(table: Table, profile: TableProfile, relations: tuple[Relation, ...]) -> list[str]:
    """Columns in an order where each comes after the columns its value is derived from."""
    deps: dict[str, set[str]] = {c.name: set() for c in table.columns}
    for rel in relations:
        deps[rel.column].add(rel.other)
    for name, rule in profile.columns.items():
        if rule.get("after"):
            deps[name].add(rule["after"])
        deps[name].update(rule.get("difference") or ())
        if rule.get("share_of"):
            deps[name].update((rule["share_of"]["of"], rule["share_of"]["by"]))
    order: list[str] = []
    seen: set[str] = set()

    def visit(name: str, stack: tuple[str, ...]) -> None:
        if name in seen:
            return
        if name in stack:  # a cycle of relations: leave the rest to clamping
            return
        for dep in sorted(deps[name]):
            if dep in deps:
                visit(dep, (*stack, name))
        seen.add(name)
        order.append(name)

    for column in table.columns:
        visit(column.name, ())
    return order


#: Below this many rows a call's fixed cost (a polars query plan, ~0.3 ms) outweighs per-row work.
_SMALL_BLOCK = 2048


def _apply_conditional_nulls(block: Block, column: Column) -> None:
    rule = block.profile.rule(column.name)
    for key, keep_when_match in (("null_unless", True), ("null_when", False)):
        condition = rule.get(key)
        if not condition:
            continue
        (other, allowed), = condition.items()
        shares = allowed if isinstance(allowed, dict) else None
        allowed = list(shares) if shares is not None else allowed
        other_values = block.values[other]
        if isinstance(other_values, pl.Series):
            text, labels = other_values.cast(pl.String), [str(v) for v in allowed]
            if len(text) < _SMALL_BLOCK:  # numpy skips a query plan; NULL matches nothing either way
                matches = np.isin(text.to_numpy(), labels)
            else:  # polars' kernel is faster once the block is large
                matches = text.is_in(labels).fill_null(False).to_numpy()
        else:
            matches = np.isin(np.ma.filled(np.ma.asarray(other_values), -1), allowed)
        if shares is not None:
            matches = matches & _share_draw(block, column.name, other_values, shares)
        to_null = ~matches if keep_when_match else matches
        block.values[column.name] = _with_nulls(block.values[column.name], to_null)


def _share_draw(block: Block, column: str, other_values: Any, shares: dict[Any, float]) -> np.ndarray:
    """Per row: does a ``{value: share}`` condition hold here? True on ``share`` of the rows whose
    other column has ``value``. The uniforms are hashed from the row id (not drawn from the
    block's stream), so adding such a rule leaves every other column of the table unchanged."""
    u = unit_hash(block.ids, stable_key("share", block.table.qualified, column, str(block.plan.seed)))
    if isinstance(other_values, pl.Series):
        keys = {str(k).lower() if isinstance(k, bool) else str(k): float(v) for k, v in shares.items()}
        share = (other_values.cast(pl.String).replace_strict(keys, default=0.0, return_dtype=pl.Float64)
                 .fill_null(0.0).to_numpy())
    else:
        raw = np.ma.filled(np.ma.asarray(other_values), -1)
        share = np.zeros(len(raw))
        for value, rate in shares.items():
            share[raw == value] = float(rate)
    return u < share


def _with_nulls(values: Any, mask: np.ndarray) -> Any:
    if isinstance(values, pl.Series):
        return _null_where(values, mask)
    if isinstance(values, np.ma.MaskedArray):
        return np.ma.array(values.data, mask=np.ma.getmaskarray(values) | mask)
    return np.ma.array(values, mask=mask)


def _null_where(series: pl.Series, mask: np.ndarray) -> pl.Series:
    """``series`` with NULL where ``mask`` holds. Same result as ``when(mask).then(None)`` but a
    direct kernel call: the expression route costs a query plan per call, thousands per build.
    The NULL side is one value, broadcast: a Series of ``len(series)`` NULLs built from a Python
    list cost 1.3-1.9 ms a block of 65,536 rows (polars scans the list), the broadcast ~35 µs."""
    if not mask.any():
        return series
    return series.zip_with(pl.Series(~mask), pl.Series([None], dtype=series.dtype))


def _lit(text: str) -> pl.Series:
    """A one-element string Series: ``_lit("a") + s`` broadcasts like ``"a" + s`` but skips the
    expression engine that ``str.__radd__`` goes through."""
    return pl.Series("", [text], dtype=pl.String)


def _concat(*parts: pl.Series | str, separator: str = "") -> pl.Series:
    """The parts (Series of one block's rows, or text every row shares) joined row by row, in one
    pass: the same strings as chaining ``+`` (NULL if a part is NULL), without a new column per
    ``+``."""
    return pl.select(pl.concat_str([pl.lit(p) for p in parts], separator=separator)).to_series()


def _null_rate(block: Block, column: Column) -> float:
    if not column.nullable:
        return 0.0
    rule = block.profile.rule(column.name)
    if "null_rate" in rule:
        return float(rule["null_rate"])
    if "null_unless" in rule or "null_when" in rule:
        return 0.0
    if column.name == "deleted_at":
        return 1.0 - (block.profile.soft_delete if block.profile.soft_delete is not None
                      else 0.02 + 0.08 * _fixed_random("soft-delete", block.table.qualified))
    return 0.05 + 0.30 * _fixed_random("null-rate", block.table.qualified, column.name)


@lru_cache(maxsize=None)
def _fixed_random(purpose: str, *parts: str) -> float:
    """The first uniform of a seed-independent stream (a pure function, so cached)."""
    return float(fixed_stream(purpose, *parts).random())


def _maybe_null(block: Block, column: Column, values: Any) -> Any:
    rate = _null_rate(block, column)
    if rate <= 0:
        return values
    if column.name == "deleted_at":
        # The soft-deleted share is a trap the questions and verify-data rely on: exactly its
        # rate in each block (random rows), not a binomial draw. With blocks across tenants a
        # 300-row table is one block, and a draw fell to 0.6 % where 2.7 % was meant.
        deleted = block.rng.choice(block.n, int(round(block.n * (1.0 - rate))), replace=False)
        mask = np.ones(block.n, dtype=bool)
        mask[deleted] = False
        return _with_nulls(values, mask)
    mask = block.rng.random(block.n) < rate
    return _with_nulls(values, mask)


# -- dispatch --------------------------------------------------------------------------------------------


def _column_values(block: Block, column: Column, bound: Bound | None, relations: tuple[Relation, ...]) -> Any:
    name, rule = column.name, block.profile.rule(column.name)
    table = block.table
    if name == "id":
        return block.ids
    if name == "tenant_id":
        return block.tenants + 1
    special = special_values(block, column, lambda: _to_series(name, _generated_values(block, column, bound, relations),
                                                               column))
    if special is not None:
        return special
    fixed = _fixed_value(block, column)
    if fixed is not None and fixed[1].all():
        values = fixed[0]
    else:
        values = _generated_values(block, column, bound, relations)
    if fixed is not None and fixed[1].any() and not fixed[1].all():
        generated = _to_series(name, values, column)
        values = fixed[0].cast(generated.dtype).zip_with(pl.Series(fixed[1]), generated)
    if rule.get("pin"):
        values = _pinned(block, column, values, rule["pin"])
    return values


def _pinned(block: Block, column: Column, values: Any, pins: list[dict[str, Any]]) -> Any:
    """``values`` with the profile's pinned rows overwritten: a question's guard needs a shape in
    every seed (one of Halyard's sales channels deleted), which a random share cannot promise for
    one tenant. A pin names its tenant by id and its row by position among the tenant's rows, so
    any block can tell whether it holds the row without looking at the others."""
    if not block.tp.tenant_scoped:
        raise ValueError(f"{block.table.qualified}.{column.name}: pin is for tenant-scoped tables")
    hit = np.zeros(block.n, dtype=bool)
    picked: list[Any] = [None] * block.n
    for pin in pins:
        tenant = int(pin["tenant"]) - 1
        count = int(block.tp.counts[tenant]) if 0 <= tenant < len(block.tp.counts) else 0
        row = int(pin["row"]) + (count if int(pin["row"]) < 0 else 0)
        if not 0 <= row < count:
            continue  # the tenant has too few rows at this scale: nothing to pin
        for i in np.flatnonzero((block.tenants == tenant) & (block.ordinals == row)):
            hit[i], picked[int(i)] = True, pin["value"]
    if not hit.any():
        return values
    generated = _to_series(column.name, values, column)
    return _series_of(column, picked).cast(generated.dtype).zip_with(pl.Series(hit), generated)


def _generated_values(block: Block, column: Column, bound: Bound | None, relations: tuple[Relation, ...]) -> Any:
    name, rule = column.name, block.profile.rule(column.name)
    table = block.table
    if "value" in rule:
        return _constant(block, column, rule["value"])
    if "difference" in rule:
        return _difference(block, column, bound, *rule["difference"])
    if "share_of" in rule:
        return _share_of(block, column, bound, rule["share_of"])
    fk = table.foreign_key_of(name)
    if fk is not None and not fk.is_back_reference:
        return _maybe_null(block, column, _foreign_key_values(block, column, fk))
    if fk is not None:  # back-reference (tenant owner): the first user of the tenant
        return _foreign_owner(block, column, fk)
    relation = next((r for r in relations if r.column == name), None)
    kind = column.kind
    if kind in ("timestamptz", "date"):
        values = _time_values(block, column, relation)
    elif kind == "int":
        values = _int_values(block, column, bound, relation)
    elif kind == "numeric":
        values = _numeric_values(block, column, bound, relation)
    elif kind == "bool":
        values = block.rng.random(block.n) < _true_rate(block, column)
    elif kind == "enum":
        values = _enum_values(block, column)
    elif kind == "text":
        values = _text_values(block, column, bound)
    elif kind == "jsonb":
        values = _json_values(block, column)
    elif kind == "text[]":
        values = _array_values(block)
    elif kind == "uuid":
        values = _uuid_values(block)
    elif kind == "inet":
        values = _ip_values(block)
    else:
        raise ValueError(f"{table.qualified}.{name}: no generator for type {column.type_sql}")
    if name == "deleted_at" or kind not in ("timestamptz", "date") or relation is None:
        return _maybe_null(block, column, values)
    return values


def _difference(block: Block, column: Column, bound: Bound | None, first: str, second: str) -> np.ndarray:
    """``first − second`` of the same row (an invoice's amount due is its total less what was paid),
    rounded to the column's scale; a NULL operand counts as 0. The profile keeps the operands in a
    range where the column's CHECK holds; clamping is the last resort, not the rule."""
    scale = column.scale if column.scale is not None else 2
    a, b = (np.ma.filled(np.ma.asarray(_numbers(block.values[c]), dtype=np.float64), 0.0) for c in (first, second))
    units = np.rint(a * 10**scale).astype(np.int64) - np.rint(b * 10**scale).astype(np.int64)
    values = units / 10**scale
    return _bounded(values, bound) if column.kind == "numeric" else np.rint(_bounded(values, bound)).astype(np.int64)


def _share_of(block: Block, column: Column, bound: Bound | None, spec: dict[str, Any]) -> np.ndarray:
    """A share of another amount of the row, by status: ``{of: total_amount, by: status, shares:
    {paid: [1, 1], partially_paid: [0.1, 0.9]}}`` pays a paid invoice in full, a partly paid one
    10–90 %, and leaves the other statuses at 0. The share is hashed from the row id."""
    scale = column.scale if column.scale is not None else 2
    base = np.ma.filled(np.ma.asarray(_numbers(block.values[spec["of"]]), dtype=np.float64), 0.0)
    by = block.values[spec["by"]]
    labels = by.cast(pl.String).fill_null("").to_numpy() if isinstance(by, pl.Series) else np.asarray(by).astype(str)
    u = unit_hash(block.ids, stable_key("share-of", block.table.qualified, column.name, str(block.plan.seed)))
    share = np.zeros(block.n)
    for label, (low, high) in spec["shares"].items():
        hit = labels == str(label)
        share[hit] = float(low) + (float(high) - float(low)) * u[hit]
    return _bounded(np.rint(base * share * 10**scale) / 10**scale, bound)


def _apply_zero_when(block: Block, column: Column) -> None:
    """``zero_when: {status: [..]}``: 0 on those rows (a NOT NULL amount that a status settles:
    nothing is due on a paid, void or written-off invoice)."""
    condition = block.profile.rule(column.name).get("zero_when")
    if not condition:
        return
    (other, allowed), = condition.items()
    by = block.values[other]
    labels = by.cast(pl.String).fill_null("").to_numpy() if isinstance(by, pl.Series) else np.asarray(by).astype(str)
    values = block.values[column.name]
    block.values[column.name] = np.where(np.isin(labels, [str(v) for v in allowed]), 0, values)


def _numbers(values: Any) -> Any:
    if isinstance(values, pl.Series):
        return np.ma.array(values.fill_null(0).cast(pl.Float64).to_numpy(), mask=values.is_null().to_numpy())
    return values


def _fixed_value(block: Block, column: Column) -> tuple[pl.Series, np.ndarray] | None:
    """Values the profile gives explicitly (fixed_rows / data) and which rows give one."""
    rows = block.profile.fixed_rows if block.tp.tenant_scoped else block.profile.data
    if not rows or not any(column.name in r for r in rows):
        return None
    picked = [rows[i].get(column.name) if i < len(rows) else None for i in block.ordinals]
    given = np.array([v is not None for v in picked])
    return _series_of(column, picked), given


def _series_of(column: Column, values: list[Any]) -> pl.Series:
    kind = column.kind
    if kind == "int":
        return pl.Series(values, dtype=pl.Int64)
    if kind == "numeric":
        return pl.Series([None if v is None else float(v) for v in values], dtype=pl.Float64)
    if kind == "bool":
        return pl.Series(values, dtype=pl.Boolean)
    if kind == "text[]":
        return pl.Series(["{" + ",".join(v) + "}" if isinstance(v, list) else v for v in values], dtype=pl.String)
    if kind == "jsonb":
        import json

        return pl.Series([v if isinstance(v, str) or v is None else json.dumps(v, sort_keys=True) for v in values],
                         dtype=pl.String)
    text = pl.Series([None if v is None else str(v) for v in values], dtype=pl.String)
    if kind == "timestamptz":
        return text.str.to_datetime(time_zone="UTC", time_unit="us")
    if kind == "date":
        return text.str.to_date()
    return text


def _constant(block: Block, column: Column, value: Any) -> Any:
    return _series_of(column, [value] * block.n)


# -- foreign keys ----------------------------------------------------------------------------------------


def _global_keys(block: Block, target: str) -> list[Any]:
    key = ISO_KEYS.get(target)
    rows = block.reference.get(target)
    count = block.plan.tables[target].total
    if key is None:
        return list(range(1, count + 1))
    if not rows:
        raise ValueError(f"{target} needs `data` in its profile: {block.table.qualified} references it")
    return [r[key] for r in rows]


def _foreign_key_values(block: Block, column: Column, fk) -> Any:
    target = fk.ref_table
    rule = block.profile.rule(column.name)
    if target == "tenancy.tenants":
        return block.tenants + 1
    target_tp = block.plan.tables[target]
    dim = block.tp.unique_dim
    is_dim = dim is not None and dim.kind == "fk" and dim.column == column.name and block.siblings is not None
    if not target_tp.tenant_scoped:
        keys = _global_keys(block, target)
        weights = rule.get("weights")
        if is_dim:  # distinct keys under each parent
            idx = (_hash_start(block, len(keys)) + block.siblings) % len(keys)
        elif weights:
            p = np.array([float(weights.get(str(k), 0.0)) for k in keys])
            if p.sum() <= 0:
                raise ValueError(f"{block.table.qualified}.{column.name}: weights match no key of {target}")
            idx = block.rng.choice(len(keys), block.n, p=p / p.sum())
        else:
            skew = float(rule.get("skew", 1.5))
            idx = np.minimum((len(keys) * block.rng.random(block.n) ** skew).astype(np.int64), len(keys) - 1)
        if isinstance(keys[0], str):
            return _vocab(tuple(keys))[idx]
        return np.asarray(keys, dtype=np.int64)[idx]

    count = target_tp.counts[block.tenants]  # per row: the target's rows in the row's tenant
    offset = target_tp.offsets[block.tenants]
    empty = count == 0  # a tenant without target rows gets NULL (only nullable columns, by the plan)
    if column.name == block.tp.parent and block.parents is not None:
        values = offset + block.parents + 1
    elif is_dim:
        size = np.maximum(count, 1)
        values = offset + (_hash_start(block, size) + block.siblings) % size + 1
    elif target == block.table.qualified:  # self-reference: an earlier row of the same table
        earlier = np.floor(block.ordinals * block.rng.random(block.n)).astype(np.int64)
        values = offset + earlier + 1
        if column.nullable:
            empty = empty | (block.ordinals == 0)
    else:
        alive = block.per_tenant(lambda t, s: alive_counts(block.plan, target_tp, t, block.created[s]))
        skew = float(rule.get("skew", 1.0))
        picks = np.floor(alive * block.rng.random(block.n) ** skew).astype(np.int64)
        values = offset + np.minimum(picks, count - 1) + 1
    return np.ma.array(values, mask=empty) if empty.any() else values


def _hash_start(block: Block, size: int | np.ndarray) -> np.ndarray:
    from heron_pipeline.seeding.streams import stable_key
    from heron_pipeline.seeding.timeline import mix64

    assert block.parents is not None
    hashed = mix64(block.parents, stable_key("dim", block.table.qualified, str(block.plan.seed)))
    return (hashed % np.maximum(np.asarray(size), 1).astype(np.uint64)).astype(np.int64)


def _foreign_owner(block: Block, column: Column, fk) -> Any:
    """tenancy.tenants.owner_user_id: the first user of each tenant (ids are laid out per tenant)."""
    users = block.plan.tables[fk.ref_table]
    tenants = block.ordinals
    ids = users.offsets[tenants] + 1
    return np.ma.array(ids, mask=users.counts[tenants] == 0)


# -- scalars ---------------------------------------------------------------------------------------------


def _time_values(block: Block, column: Column, relation: Relation | None) -> Any:
    name, rule = column.name, block.profile.rule(column.name)
    rng, base = block.rng, block.created
    dim = block.tp.unique_dim
    if dim is not None and dim.column == name and block.siblings is not None:
        # One row per parent per day: consecutive days from the parent's (or tenant's) first day.
        if block.tp.parent == "tenant":
            first = (block.plan.tenant_start_days[block.tenants] + WINDOW_START_DAY) * US_PER_DAY
        else:
            parent_tp, parents = block.plan.tables[block.tp.parent_table], block.parents
            first = block.per_tenant(lambda t, s: row_times(block.plan, parent_tp, t, parents[s]))
            first = first // US_PER_DAY * US_PER_DAY
        return _from_us(first + block.siblings * US_PER_DAY, column.kind)
    if relation is not None and relation.other in block.values:
        anchor = _as_us(block.values[relation.other], block.table.column(relation.other).kind)
        delay = _delay(block, rule, default_days=(0.0, 20.0))
        if relation.op in (">=", ">"):
            values = anchor + delay + (US_PER_DAY if relation.op == ">" and column.kind == "date" else 1)
        else:
            values = anchor - delay - (US_PER_DAY if relation.op == "<" and column.kind == "date" else 1)
        values = np.ma.array(values, mask=np.ma.getmaskarray(anchor))
        if _status_decides(rule) and not _is_future_name(name) and relation.op in (">=", ">"):
            gap = 1 if relation.op == ">" else 0
            values = np.ma.array(_fit_before_as_of(block, name, np.ma.getdata(values), np.ma.getdata(anchor), gap),
                                 mask=np.ma.getmaskarray(values))
        elif column.nullable and not _is_future_name(name):
            values = np.ma.array(values, mask=np.ma.getmaskarray(values) | (values > AS_OF_US))
        if column.nullable:
            mask = rng.random(block.n) < _null_rate(block, column)
            values = np.ma.array(values, mask=np.ma.getmaskarray(values) | mask)
        elif np.ma.isMaskedArray(values):
            values = values.filled(int(AS_OF_US))
        return _from_us(values, column.kind)
    if name == "created_at":
        values = base
    elif name == "updated_at":
        values = np.minimum(base + (rng.exponential(20.0, block.n) * US_PER_DAY).astype(np.int64), AS_OF_US)
    elif "after" in rule and rule["after"] in block.values:
        anchor = _as_us(block.values[rule["after"]], block.table.column(rule["after"]).kind)
        values = anchor + _delay(block, rule, default_days=(0.0, 5.0))
        if not _is_future_name(name):
            values = np.ma.array(_fit_before_as_of(block, name, np.ma.getdata(values), np.ma.getdata(anchor)),
                                 mask=np.ma.getmaskarray(values))
    elif name == "deleted_at":
        values = np.minimum(base + (rng.exponential(60.0, block.n) * US_PER_DAY).astype(np.int64), AS_OF_US)
    elif _is_future_name(name):
        values = base + _delay(block, rule, default_days=(20.0, 365.0))
    elif column.nullable:
        values = base + _delay(block, rule, default_days=(0.0, 6.0))
        if _status_decides(rule):
            values = _fit_before_as_of(block, name, values, base)
        else:
            values = np.ma.array(values, mask=values > AS_OF_US)
    elif column.kind == "date":
        values = base
    else:
        values = np.minimum(base + (rng.random(block.n) * 600_000_000).astype(np.int64), AS_OF_US)
    return _from_us(values, column.kind)


def _status_decides(rule: dict[str, Any]) -> bool:
    """Does another column (a status) decide whether this timestamp is set? Then a row whose
    status says it happened must have it: an accepted invitation has accepted_at."""
    return bool(rule.get("null_unless") or rule.get("null_when"))


def _fit_before_as_of(block: Block, name: str, values: np.ndarray, anchor: np.ndarray, gap: int = 0) -> np.ndarray:
    """Past events that a delay pushed beyond the as-of time, moved to a hashed point between
    their anchor (plus ``gap`` µs, for a strict ``>`` CHECK) and the as-of time. Leaving them NULL
    (1.x, 2.0) gave accepted invitations without accepted_at; clamping would pile them on the last
    microsecond. An anchor already past the as-of second (a creation time in the day's last second)
    keeps the event at the anchor, so no value reaches the next day. Earlier events keep their place."""
    late = values > AS_OF_US
    if not late.any():
        return values
    u = unit_hash(block.ids, stable_key("before-as-of", block.table.qualified, name, str(block.plan.seed)))
    room = np.maximum(AS_OF_US - anchor - gap, 0)
    fitted = anchor + gap + (room * u).astype(np.int64)
    return np.where(late, fitted, values)


def _is_future_name(name: str) -> bool:
    return any(word in name for word in FUTURE_WORDS)


#: Past-event columns that can still pass the as-of time, because their anchor may lie in the future
#: (a trial converted at its planned end, a breach after its future target, a device or session
#: "last seen" after a future-dated start): a realism gap listed in docs/DATA.md.
LATE_EVENT_COLUMNS = frozenset({"last_seen_at", "converted_at", "breached_at"})


def may_pass_as_of(column_name: str) -> bool:
    """The generator's contract on time columns: only these may hold values after the as-of time.

    Every other date or timestamp column (by name, in any table) ends at or before it; the mutant
    rule *window-end* rests on this and a test on a built state checks it."""
    return _is_future_name(column_name) or column_name in LATE_EVENT_COLUMNS


def _delay(block: Block, rule: dict[str, Any], default_days: tuple[float, float]) -> np.ndarray:
    low, high = rule.get("delay_days", default_days)
    days = low + (high - low) * block.rng.random(block.n) ** 2  # most events happen soon after
    return (days * US_PER_DAY).astype(np.int64)


def _as_us(values: Any, kind: str) -> np.ndarray:
    if isinstance(values, pl.Series):
        if kind == "date":
            raw = values.cast(pl.Int64).to_numpy() * US_PER_DAY
        else:
            raw = values.dt.epoch("us").to_numpy()
        return np.ma.array(np.nan_to_num(raw).astype(np.int64), mask=values.is_null().to_numpy())
    if kind == "date":
        return np.ma.asarray(values) * US_PER_DAY
    return np.ma.asarray(values)


def _from_us(values: Any, kind: str) -> Any:
    if kind == "date":
        return np.ma.array(np.ma.getdata(values) // US_PER_DAY, mask=np.ma.getmaskarray(values)) \
            if np.ma.isMaskedArray(values) else values // US_PER_DAY
    return values


def _bounded(values: np.ndarray, bound: Bound | None, low: float | None = None, high: float | None = None) -> np.ndarray:
    lo = bound.low if bound and bound.low is not None else low
    hi = bound.high if bound and bound.high is not None else high
    if lo is not None or hi is not None:
        values = np.clip(values, lo if lo is not None else -np.inf, hi if hi is not None else np.inf)
    return values


_INT_LIMITS = {16: 32_767, 32: 2_147_483_647, 64: 9_000_000_000_000_000}


def _int_values(block: Block, column: Column, bound: Bound | None, relation: Relation | None) -> np.ndarray:
    name, rule, rng, n = column.name, block.profile.rule(column.name), block.rng, block.n
    if bound and bound.values:
        return rng.choice(np.array([int(v) for v in bound.values]), n)
    if relation is not None and relation.other in block.values:
        anchor = np.ma.filled(np.ma.asarray(block.values[relation.other]), 0).astype(np.int64)
        span = np.maximum(np.abs(anchor) // 2, 1)
        step = rng.integers(0, span + 1)
        values = anchor + step if relation.op in (">=", ">") else anchor - step
        if relation.op == ">":
            values = np.maximum(values, anchor + 1)
        if relation.op == "<":
            values = np.minimum(values, anchor - 1)
        return _bounded(values, bound).astype(np.int64)
    if "min" in rule or "max" in rule:
        lo, hi = int(rule.get("min", 0)), int(rule.get("max", 1000))
        values = lo + np.floor((hi - lo + 1) * rng.random(n) ** float(rule.get("skew", 1.0))).astype(np.int64)
    elif "median" in rule:
        values = np.rint(rng.lognormal(np.log(rule["median"]), rule.get("sigma", 0.8), n)).astype(np.int64)
    elif name in ("line_number", "position", "sort_order", "rank", "step_number", "attempt_number", "sequence"):
        values = (block.siblings if block.siblings is not None else block.ordinals) + 1
    elif "quantity" in name or name.endswith("_qty"):
        values = 1 + np.floor(rng.lognormal(1.2, 0.9, n)).astype(np.int64)
    elif name.endswith("_ms"):
        values = np.rint(rng.lognormal(np.log(180), 1.0, n)).astype(np.int64)
    elif "byte" in name or name.endswith("_size"):
        values = np.rint(rng.lognormal(np.log(60_000), 1.5, n)).astype(np.int64)
    elif name.endswith("_minutes"):
        values = np.rint(rng.lognormal(np.log(240), 1.0, n)).astype(np.int64)
    elif name.endswith("_days"):
        values = rng.choice(np.array([0, 7, 14, 15, 30, 45, 60, 90]), n)
    elif "percent" in name or name.endswith("_pct"):
        values = rng.integers(0, 101, n)
    elif "status_code" in name:
        values = rng.choice(np.array([200, 201, 204, 400, 401, 404, 409, 422, 429, 500, 503]), n,
                            p=np.array([62, 8, 5, 5, 3, 6, 1, 3, 3, 3, 1]) / 100)
    elif name.endswith("_count") or name.startswith(("num_", "count")):
        values = np.floor(rng.lognormal(2.0, 1.2, n)).astype(np.int64)
    elif "points" in name:
        values = np.rint(rng.lognormal(np.log(120), 1.0, n)).astype(np.int64)
    elif name.endswith("_year") or name == "year":
        values = rng.integers(2018, 2027, n)
    else:
        values = np.floor(rng.lognormal(3.0, 1.3, n)).astype(np.int64)
    limit = _INT_LIMITS.get(column.int_bits or 64, _INT_LIMITS[64])
    if bound is not None:  # integer bounds: "> 0" means at least 1
        bound = Bound(None if bound.low is None else float(np.ceil(bound.low)),
                      None if bound.high is None else float(np.floor(bound.high)), bound.values)
    return _bounded(values, bound, -limit, limit).astype(np.int64)


def _numeric_values(block: Block, column: Column, bound: Bound | None, relation: Relation | None) -> np.ndarray:
    name, rule, rng, n = column.name, block.profile.rule(column.name), block.rng, block.n
    scale = column.scale if column.scale is not None else 2
    precision = column.precision or 18
    top = 10.0 ** (precision - scale) - 10.0 ** -scale
    if relation is not None and relation.other in block.values:
        anchor = np.ma.filled(np.ma.asarray(block.values[relation.other], dtype=np.float64), 0.0)
        factor = rng.random(n)
        values = anchor * (1 + factor) if relation.op in (">=", ">") else anchor * factor
    elif "median" in rule:
        values = rng.lognormal(np.log(float(rule["median"])), float(rule.get("sigma", 0.9)), n)
    elif "min" in rule or "max" in rule:
        lo, hi = float(rule.get("min", 0)), float(rule.get("max", 100))
        values = lo + (hi - lo) * rng.random(n)
    elif precision - scale <= 1:  # numeric(5,4) and the like: a share or weight in [0, 1)
        values = rng.random(n)
    elif "rate" in name and "percent" not in name:
        values = rng.lognormal(0.0, 0.6, n)
    elif "percent" in name or "probability" in name:
        values = 100 * rng.random(n) ** 1.5
    elif "quantity" in name:
        values = rng.lognormal(2.0, 1.0, n)
    elif "weight" in name:
        values = rng.lognormal(1.0, 0.8, n)
    else:
        median = next((m for word, m in MONEY_MEDIANS if word in name), 120.0)
        values = rng.lognormal(np.log(median), 0.95, n)
    values = _bounded(values, bound, -top, top)
    if bound and bound.low is not None and bound.low > 0:
        values = np.maximum(values, 10.0 ** -scale)
    # Round in integer units of the column's scale so the CSV text is exact (no binary noise).
    units = np.rint(values * 10**scale).astype(np.int64)
    return units / 10**scale


def _true_rate(block: Block, column: Column) -> float:
    rule = block.profile.rule(column.name)
    if "true_rate" in rule:
        return float(rule["true_rate"])
    name = column.name
    for word, rate in (("is_active", 0.88), ("is_enabled", 0.8), ("is_default", 0.12), ("is_test", 0.02),
                       ("is_primary", 0.35), ("is_verified", 0.82), ("is_internal", 0.15), ("is_deleted", 0.03),
                       ("is_archived", 0.08), ("is_read", 0.6), ("is_bounce", 0.38), ("is_control", 0.5)):
        if name.startswith(word):
            return rate
    return 0.1 + 0.8 * _fixed_random("bool-rate", block.table.qualified, name)


def _enum_values(block: Block, column: Column) -> pl.Series:
    labels = block.catalog.enums[column.type_sql]
    rule = block.profile.rule(column.name)
    if "weights" in rule:
        p = np.array([float(rule["weights"].get(label, 0.0)) for label in labels])
    else:
        p = _fixed_lognormal("enum", block.table.qualified, column.name, len(labels))
    dim = block.tp.unique_dim
    opening = block.profile.opens_with
    if dim is not None and dim.column == column.name and block.siblings is not None:
        idx = (_hash_start(block, len(labels)) + block.siblings) % len(labels)
    elif opening is not None and opening["column"] == column.name and block.siblings is not None:
        # The first row under each parent opens its lifecycle; the others never repeat it.
        first = labels.index(opening["value"])
        later = np.where(np.arange(len(labels)) == first, 0.0, p)
        drawn = block.rng.choice(len(labels), block.n, p=later / later.sum())
        idx = np.where(block.siblings == 0, first, drawn)
    else:
        idx = block.rng.choice(len(labels), block.n, p=p / p.sum())
    return _vocab(tuple(labels))[idx]


@lru_cache(maxsize=None)
def _fixed_lognormal(purpose: str, table: str, column: str, size: int) -> np.ndarray:
    values = fixed_stream(purpose, table, column).lognormal(0.0, 1.0, size)
    values.flags.writeable = False
    return values


# -- text ------------------------------------------------------------------------------------------------


_VOCAB_SERIES: dict[tuple[str, ...], pl.Series] = {}


def _vocab(words: tuple[str, ...]) -> pl.Series:
    series = _VOCAB_SERIES.get(words)
    if series is None:
        series = _VOCAB_SERIES[words] = pl.Series(list(words), dtype=pl.String)
    return series


@lru_cache(maxsize=None)
def _vocab_cased(words: tuple[str, ...], case: str) -> pl.Series:
    series = _vocab(words)
    return series.str.to_lowercase() if case == "lower" else series.str.to_titlecase()


def _pick(block: Block, words: tuple[str, ...], n: int | None = None, *, lower: bool = False,
          title: bool = False) -> pl.Series:
    """Random words; ``lower``/``title`` pick from the vocabulary already re-cased (the same as
    re-casing the picks, since case mapping is per word)."""
    idx = block.rng.integers(0, len(words), n or block.n)
    vocab = _vocab_cased(words, "lower") if lower else _vocab_cased(words, "title") if title else _vocab(words)
    return vocab[idx]


def _ids_str(block: Block) -> pl.Series:
    return pl.Series(block.ids).cast(pl.String)


def _is_unique_text(block: Block, column: Column) -> bool:
    return any(column.name in u.columns for u in block.table.uniques)


_PERSON_TABLES = ("users", "contacts", "leads", "supplier_contacts", "agent_profiles")
_COMPANY_TABLES = ("accounts", "suppliers", "brands", "tenants", "carriers", "payment_gateways", "integrations")


def _text_values(block: Block, column: Column, bound: Bound | None) -> pl.Series:
    name, rule, table = column.name, block.profile.rule(column.name), block.table
    if bound and bound.values:
        values = _pick(block, bound.values)
    elif "values" in rule:
        values = _pick(block, tuple(str(v) for v in rule["values"]))
    elif "weights" in rule:
        labels = list(rule["weights"])
        p = np.array([float(rule["weights"][k]) for k in labels])
        values = _vocab(tuple(labels))[block.rng.choice(len(labels), block.n, p=p / p.sum())]
    else:
        values = _text_by_name(block, column, rule.get("text"))
    if column.length is not None:
        if column.type_sql.startswith("char"):
            values = values.str.slice(0, column.length).str.pad_end(column.length, "X")
        else:
            values = values.str.slice(0, column.length)
    return values


def _text_by_name(block: Block, column: Column, kind: str | None) -> pl.Series:
    name, table = column.name, block.table
    unique = _is_unique_text(block, column)
    kind = kind or _infer_text_kind(name, table.name, column)
    ids = _ids_str(block)
    prefix = block.profile.rule(name).get("prefix")
    if kind == "email":
        # Lower-casing the (ASCII) words before joining them gives the same text, in one lookup.
        return _concat(_pick(block, V.FIRST_NAMES, lower=True), ".", _pick(block, V.LAST_NAMES, lower=True), ".", ids,
                       "@", _pick(block, V.DOMAINS))
    if kind == "first_name":
        return _pick(block, V.FIRST_NAMES)
    if kind == "last_name":
        return _pick(block, V.LAST_NAMES)
    if kind == "person":
        values = _concat(_pick(block, V.FIRST_NAMES), _pick(block, V.LAST_NAMES), separator=" ")
    elif kind == "company":
        parts = [_pick(block, V.COMPANY_HEADS), _pick(block, V.COMPANY_TAILS)]
        if "legal" in name:
            parts.append(_pick(block, V.COMPANY_SUFFIXES))
        values = _concat(*parts, separator=" ")
    elif kind == "product":
        values = _concat(_pick(block, V.PRODUCT_ADJECTIVES), _pick(block, V.PRODUCT_MATERIALS),
                         _pick(block, V.PRODUCT_NOUNS), separator=" ")
    elif kind == "subject":
        values = _pick(block, V.SUBJECT_TEMPLATES)
    elif kind == "sentence":
        values = _sentence(block, 6, 14)
    elif kind == "code":
        head = prefix or _code_prefix(block.table.name, name)
        return _lit(head + "-") + ids.str.pad_start(6, "0")
    elif kind == "slug":
        return _concat(_pick(block, V.WORDS), _pick(block, V.WORDS), ids, separator="-")
    elif kind == "url":
        return _concat("https://", _pick(block, V.DOMAINS), "/", _pick(block, V.WORDS), "/", ids)
    elif kind == "path":
        return _concat("/", _pick(block, V.WORDS), "/", _pick(block, V.WORDS))
    elif kind == "phone":
        return _lit("+1555") + pl.Series(block.rng.integers(1_000_000, 9_999_999, block.n)).cast(pl.String)
    elif kind == "city":
        values = _pick(block, V.CITIES)
    elif kind == "street":
        values = _concat(pl.Series(block.rng.integers(1, 240, block.n)).cast(pl.String), _pick(block, V.STREETS),
                         separator=" ")
    elif kind == "postal":
        values = pl.Series(block.rng.integers(10000, 99999, block.n)).cast(pl.String)
    elif kind == "hex":
        values = _hex(block, 16)
    elif kind == "ip":
        values = _ip_values(block)
    elif kind == "user_agent":
        values = _pick(block, ("Mozilla/5.0 (Windows NT 10.0; Win64; x64)", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)",
                               "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4)", "Mozilla/5.0 (X11; Linux x86_64)",
                               "heron-sdk/2.3 python", "okhttp/4.12"))
    elif kind == "tag":
        values = _pick(block, V.TAGS)
    elif kind == "word":
        values = _pick(block, V.WORDS)
    else:  # a short label
        values = _concat(_pick(block, V.PRODUCT_ADJECTIVES), _pick(block, V.WORDS), separator=" ")
    if unique:
        values = _concat(values, ids, separator=" ")
    return values


def _infer_text_kind(name: str, table: str, column: Column) -> str:
    if "email" in name:
        return "email"
    if name in ("first_name", "given_name"):
        return "first_name"
    if name in ("last_name", "family_name"):
        return "last_name"
    if name in ("full_name", "display_name", "contact_name", "author_name", "recipient_name", "owner_name"):
        return "person"
    if name in ("name", "legal_name", "company_name", "trading_name"):
        if table in _COMPANY_TABLES:
            return "company"
        if table in _PERSON_TABLES:
            return "person"
        if table in ("products", "product_variants", "bundles"):
            return "product"
        return "label"
    if name == "title" and table in ("products", "product_variants"):
        return "product"
    if name in ("subject", "title") and table in ("cases", "messages", "templates", "broadcasts"):
        return "subject"
    if name in ("sku", "barcode") or name.endswith(("_number", "_code", "_ref", "_reference")) or name in ("code", "number", "key"):
        return "code"
    if name == "slug" or name.endswith("_slug"):
        return "slug"
    if "url" in name or name in ("website", "domain", "hostname", "host") or name.endswith("_host"):
        return "url" if "url" in name or name == "website" else "word"
    if name.endswith("path") or name == "route":
        return "path"
    if "phone" in name or name in ("e164", "msisdn"):
        return "phone"
    if name == "city":
        return "city"
    if name in ("line1", "address_line1", "street", "line_1"):
        return "street"
    if name in ("postal_code", "zip", "postcode"):
        return "postal"
    if name.endswith(("_id", "token", "hash", "fingerprint", "secret", "hint", "key_prefix", "external_id")):
        return "hex"
    if name in ("ip", "ip_address"):
        return "ip"
    if "user_agent" in name:
        return "user_agent"
    if name in ("tag", "label", "color", "colour", "region", "state", "source", "medium", "category", "industry"):
        return "word" if name not in ("tag",) else "tag"
    if column.length is not None and column.length <= 8:
        return "code"
    if name in ("title", "headline", "summary", "subject"):
        return "label"
    return "sentence"


def _code_prefix(table: str, column: str) -> str:
    words = [w for w in (column.replace("_number", "").replace("_code", "").split("_")) if w and w not in ("code", "number")]
    source = words or table.split("_")
    return "".join(w[0] for w in source).upper()[:4] or "X"


def _sentence(block: Block, low: int, high: int) -> pl.Series:
    return _concat(_concat(*[_pick(block, V.WORDS, title=(i == 0)) for i in range(low)], separator=" "), ".")


def _hex_chars(block: Block, nbytes: int) -> np.ndarray:
    raw = block.rng.integers(0, 256, (block.n, nbytes), dtype=np.uint8)
    digits = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
    chars = np.empty((block.n, nbytes * 2), dtype=np.uint8)
    chars[:, 0::2] = digits[raw >> 4]
    chars[:, 1::2] = digits[raw & 15]
    return chars


def _text_of(chars: np.ndarray) -> pl.Series:
    """Rows of ASCII bytes (an n x width uint8 matrix) as a String Series."""
    return pl.Series(np.ascontiguousarray(chars).view(f"S{chars.shape[1]}").ravel()).cast(pl.String)


def _hex(block: Block, nbytes: int) -> pl.Series:
    return _text_of(_hex_chars(block, nbytes))


#: Where the 32 hex digits go in a UUID's 36 characters (8-4-4-4-12); the rest is fixed text.
_UUID_SLOTS = np.r_[0:8, 9:13, 15:18, 20:23, 24:36]
_UUID_HEX = np.r_[0:8, 8:12, 13:16, 17:20, 20:32]


def _uuid_values(block: Block) -> pl.Series:
    """A version-4-looking UUID from 16 random bytes: digits 12 and 16 become '4' and 'a'
    (built in numpy: the same text as slicing and joining the hex string)."""
    h = _hex_chars(block, 16)
    out = np.empty((block.n, 36), dtype=np.uint8)
    out[:, _UUID_SLOTS] = h[:, _UUID_HEX]
    out[:, [8, 13, 18, 23]] = ord("-")
    out[:, 14], out[:, 19] = ord("4"), ord("a")
    return _text_of(out)


def _ip_values(block: Block) -> pl.Series:
    octets = [pl.Series(block.rng.integers(low, 255, block.n)).cast(pl.String) for low in (11, 0, 0, 1)]
    return _concat(*octets, separator=".")


def _array_values(block: Block) -> pl.Series:
    return _concat("{", _pick(block, V.TAGS), ",", _pick(block, V.TAGS), "}")


def _json_values(block: Block, column: Column) -> pl.Series:
    name = column.name
    n = block.n
    if name in ("properties", "payload", "event_properties"):
        value = pl.Series(np.rint(block.rng.lognormal(3, 1, n) * 100) / 100).cast(pl.String)
        return _concat('{"source": "', _pick(block, ("web", "mobile", "api", "import")), '", "item": "',
                       _pick(block, V.WORDS), '", "value": ', value, "}")
    if name in ("settings", "config", "preferences", "configuration", "options"):
        flag = _vocab(("false", "true"))[(block.rng.random(n) < 0.5).astype(np.int64)]  # = bool cast to text
        return _concat('{"locale": "', _pick(block, ("en", "de", "fr", "es", "pt", "nl")), '", "notifications": ', flag,
                       ', "theme": "', _pick(block, ("light", "dark", "system")), '"}')
    if name in ("changes", "diff"):
        return _concat('{"field": "', _pick(block, V.WORDS), '", "from": "', _pick(block, V.WORDS), '", "to": "',
                       _pick(block, V.WORDS), '"}')
    count = pl.Series(block.rng.integers(1, 12, n)).cast(pl.String)
    return _concat('{"kind": "', _pick(block, V.WORDS), '", "count": ', count, "}")


# -- output ----------------------------------------------------------------------------------------------


def _to_series(name: str, values: Any, column: Column) -> pl.Series:
    if isinstance(values, pl.Series):
        series = values.rename(name)
    else:
        mask = np.ma.getmaskarray(values) if np.ma.isMaskedArray(values) else None
        data = np.ma.getdata(values)
        series = pl.Series(name, data)
        if mask is not None and mask.any():
            series = _null_where(series, mask).rename(name)
    kind = column.kind
    if kind == "timestamptz" and series.dtype.is_integer():
        series = series.cast(pl.Datetime("us", "UTC"))
    elif kind == "date" and series.dtype.is_integer():
        series = series.cast(pl.Int32).cast(pl.Date)
    elif kind == "date" and series.dtype == pl.String:
        series = series.str.to_date()
    return series

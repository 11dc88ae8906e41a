"""Per-table generation profiles: what the DDL cannot say about the data.

Profiles live next to the schema (``schema_ddl/profiles/NN_<domain>.yaml``) so a reviewer reads
the rules beside the tables they shape. Everything a profile omits is inferred from the catalog
(types, names, nullability, FKs, CHECKs, unique keys), so a profile only states row counts and the
distributions that matter for questions: skewed statuses, NULL rates, which FK drives a child.

A table entry may hold:

``rows``         total rows at scale ``small``; multiplied by the scale factor, split over tenants
                 by their (Zipf) size
``per_tenant``   mean rows per tenant, the same at every scale (configuration: roles, warehouses)
``per_parent``   mean rows per row of ``parent`` (order lines per order)
``parent``       the FK column whose parent row drives this one (``tenant`` for per-tenant-per-day)
``fixed_rows``   rows every tenant has, as a list of column → value maps (pipeline stages…)
``data``         the exact rows of a global reference table
``soft_delete``  share of rows with ``deleted_at`` set (default 2–10 %, fixed per table)
``empty_share``  per-parent tables: share of parents given no rows at all (a promotion without products)
``extra_share``  per-parent tables: share of the parents that have rows given one more (a user's
                 second security key; with ``per_parent`` below 1 the only way to get two)
``quiet``        [{tenant: id, from: date, to: date}]: the tenant creates no rows of this table on
                 the days [from, to) — its rows land on the other days (a table sized by ``rows``);
                 for a question that must show an empty month in every seed (docs/DATA.md)
``opens_with``   {column: c, value: v} (per-parent tables): the first row under each parent has
                 ``c = v`` and comes first, within minutes of the parent; no later row has ``v``
                 (a subscription starts once, with its "started" event)
``tie``          {column: c, between: [a, b], spill: s, where: {column: condition}} (generator 2.3):
                 among the rows that pass ``where`` (each condition a list of values, ``null``,
                 ``true``/``false`` or a time window {from, to}), ``c = a`` and ``c = b`` are counted
                 equally, balanced per block (seeding/ties.py), an odd row going to ``s``: the tie
                 a question's tie-breaker needs in every seed. With ``of: <parent column>`` (or
                 ``of: <parent FK>.<column>``, one row further up) ``column`` is a foreign key and
                 the rows are re-pointed to parents of the other value instead; ``parent_where`` and
                 ``of_where`` filter the parent and the row holding the category
``columns``      column → rule, with keys:
    ``null_rate`` · ``weights`` {label: weight} · ``values`` [..] · ``value`` (constant)
    ``min`` / ``max`` · ``median`` + ``sigma`` (log-normal) · ``true_rate`` · ``text`` (a text kind)
    ``skew`` (FK picks: 1 uniform, >1 favours early parents) · ``after`` + ``delay_days`` [lo, hi]
    ``null_unless`` {column: [values]} · ``null_when`` {column: [values]} · ``prefix`` (codes)
    ``null_unless`` / ``null_when`` {column: {value: share}}: the rule holds on that share of the
    matching rows only (``null_when: {status: {new: 1, open: 0.1}}``: new tickets and 10 % of
    open ones have no assignee); rows matching no listed value are treated as with a list
    ``pin`` [{tenant: id, row: n, value: v}]: the value of one row of one tenant (``row`` counts
    the tenant's rows from 0 in id order, negative from the end), for a shape a question needs in
    every seed (one of the anchor tenant's sales channels soft-deleted)
    ``difference`` [a, b]: the column is ``a − b`` of the same row (an invoice's amount due)
    ``share_of`` {of: a, by: status, shares: {value: [lo, hi]}}: a share of amount ``a`` by status,
    0 for statuses not listed (what was paid of an invoice) · ``zero_when`` {column: [values]}: 0
    on those rows (a NOT NULL amount a status settles)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from heron_pipeline import yaml_text
from heron_pipeline.catalog.model import Catalog, Table
from heron_pipeline.config import PROJECT_ROOT

PROFILE_DIR = PROJECT_ROOT / "schema_ddl" / "profiles"

TABLE_KEYS = {"rows", "per_tenant", "per_parent", "parent", "fixed_rows", "data", "soft_delete", "columns", "note",
              "empty_share", "extra_share", "quiet", "opens_with", "tie"}
COLUMN_KEYS = {
    "null_rate", "weights", "values", "value", "min", "max", "median", "sigma", "true_rate", "text", "skew",
    "after", "delay_days", "null_unless", "null_when", "prefix", "note", "pin", "difference", "share_of",
    "zero_when",
}


class ProfileError(ValueError):
    """A profile names something the catalog does not have, or a rule it cannot apply."""


@dataclass
class TableProfile:
    table: str
    rows: float | None = None
    per_tenant: float | None = None
    per_parent: float | None = None
    parent: str | None = None
    fixed_rows: list[dict[str, Any]] | None = None
    data: list[dict[str, Any]] | None = None
    soft_delete: float | None = None
    empty_share: float | None = None
    extra_share: float | None = None
    quiet: list[dict[str, Any]] | None = None
    opens_with: dict[str, Any] | None = None
    tie: dict[str, Any] | None = None
    columns: dict[str, dict[str, Any]] = field(default_factory=dict)

    def rule(self, column: str) -> dict[str, Any]:
        return self.columns.get(column, {})


def _validate(catalog: Catalog, name: str, entry: dict[str, Any], source: Path) -> TableProfile:
    where = f"{source.name}: {name}"
    if name not in catalog.tables:
        raise ProfileError(f"{where}: no such table in the catalog")
    unknown = set(entry) - TABLE_KEYS
    if unknown:
        raise ProfileError(f"{where}: unknown keys {sorted(unknown)}")
    table = catalog.tables[name]
    columns = entry.get("columns") or {}
    for column, rule in columns.items():
        if not table.has_column(column):
            raise ProfileError(f"{where}: no column {column!r}")
        bad = set(rule) - COLUMN_KEYS
        if bad:
            raise ProfileError(f"{where}.{column}: unknown rule keys {sorted(bad)}")
        for other in rule.get("difference") or []:
            if not table.has_column(other):
                raise ProfileError(f"{where}.{column}: difference names no column {other!r}")
        labels = catalog.enums.get(table.column(column).type_sql)
        if labels and "weights" in rule and set(rule["weights"]) - set(labels):
            raise ProfileError(f"{where}.{column}: weights name labels not in the enum: "
                               f"{sorted(set(rule['weights']) - set(labels))}")
    for share in ("empty_share", "extra_share"):
        if entry.get(share) is not None and not 0 <= float(entry[share]) <= 1:
            raise ProfileError(f"{where}: {share} is a share between 0 and 1")
    for spell in entry.get("quiet") or []:
        if set(spell) != {"tenant", "from", "to"} or entry.get("rows") is None or not table.is_tenant_scoped:
            raise ProfileError(f"{where}: quiet is a list of {{tenant, from, to}} on a tenant table sized by rows")
    opens_with = entry.get("opens_with")
    if opens_with is not None:
        column = table.column(opens_with.get("column", "")) if table.has_column(opens_with.get("column", "")) else None
        labels = catalog.enums.get(column.type_sql) if column is not None else None
        if entry.get("per_parent") is None or not labels or opens_with.get("value") not in labels:
            raise ProfileError(f"{where}: opens_with needs per_parent and {{column: an enum column, value: one of "
                               f"its labels}}")
    if entry.get("tie") is not None:
        _validate_tie(catalog, table, columns, entry["tie"], where)
    parent = entry.get("parent")
    if parent and parent != "tenant" and table.foreign_key_of(parent) is None:
        raise ProfileError(f"{where}: parent {parent!r} is not a foreign-key column")
    if table.is_tenant_scoped and entry.get("data"):
        raise ProfileError(f"{where}: `data` is for global tables; tenant tables use `fixed_rows`")
    sizing = [k for k in ("rows", "per_tenant", "per_parent", "fixed_rows", "data") if entry.get(k) is not None]
    if len(sizing) > 1:
        raise ProfileError(f"{where}: give one of rows / per_tenant / per_parent / fixed_rows / data, not {sizing}")
    for rows_key in ("fixed_rows", "data"):
        for row in entry.get(rows_key) or []:
            missing = [c for c in row if not table.has_column(c)]
            if missing:
                raise ProfileError(f"{where}: {rows_key} names unknown columns {missing}")
    return TableProfile(
        table=name,
        rows=entry.get("rows"),
        per_tenant=entry.get("per_tenant"),
        per_parent=entry.get("per_parent"),
        parent=parent,
        fixed_rows=entry.get("fixed_rows"),
        data=entry.get("data"),
        soft_delete=entry.get("soft_delete"),
        empty_share=entry.get("empty_share"),
        extra_share=entry.get("extra_share"),
        quiet=entry.get("quiet"),
        opens_with=opens_with,
        tie=entry.get("tie"),
        columns=columns,
    )


def _validate_tie(catalog: Catalog, table: Table, columns: dict[str, dict[str, Any]], tie: Any, where: str) -> None:
    """A ``tie`` rewrites its column after every other column is made, so nothing may be derived
    from that column, and its values must be ones the column can hold."""
    shape = ("tie is {column, between: [a, b], spill: c, where: {column: [values] | null | true | {from, to}}}, "
             "or on a foreign-key column with `of: <parent column>` or `of: <parent FK>.<column>` (and optionally "
             "parent_where, of_where)")
    if not isinstance(tie, dict) or not {"column", "between", "spill", "where"} <= set(tie) \
            or set(tie) - {"column", "between", "spill", "where", "of", "parent_where", "of_where"}:
        raise ProfileError(f"{where}: {shape}")
    name, between, spill, condition = tie["column"], tie["between"], tie["spill"], tie["where"]
    if not table.has_column(name) or not isinstance(between, list) or len(set(between)) != 2 or spill in between:
        raise ProfileError(f"{where}: {shape} (a column of the table, two different values and a third)")
    _validate_condition(table, condition, name, f"{where}: tie.where")
    derived = [c for c, rule in columns.items() if c != name and any(
        name in (rule.get(k) or {}) for k in ("null_unless", "null_when", "zero_when"))
        or name in (rule.get("difference") or []) or name in (rule.get("share_of") or {}).values()]
    if derived:
        raise ProfileError(f"{where}: tie rewrites {name!r}, which {derived} are derived from")
    if tie.get("of") is None:
        if "parent_where" in tie or "of_where" in tie:
            raise ProfileError(f"{where}: tie.parent_where and tie.of_where need `of` (a column of the parent row)")
        labels = catalog.enums.get(table.column(name).type_sql) or list((columns.get(name) or {}).get("weights") or [])
        holder = repr(name)
    else:
        path = _tie_path(catalog, table, tie)
        if path is None:
            raise ProfileError(f"{where}: tie with `of` re-points a foreign key to a tenant table that has the "
                               f"column `of` names (or `hop.column`: a column one foreign key further up)")
        parent, holder_table, column = path
        if tie.get("parent_where"):
            _validate_condition(parent, tie["parent_where"], "", f"{where}: tie.parent_where")
        if tie.get("of_where"):
            if holder_table is parent:
                raise ProfileError(f"{where}: tie.of_where is for a two-step `of` (hop.column)")
            _validate_condition(holder_table, tie["of_where"], column, f"{where}: tie.of_where")
        labels = catalog.enums.get(holder_table.column(column).type_sql)
        if labels is None:
            return  # a text column: its weights are in that table's profile (load_profiles checks them)
        holder = f"{holder_table.qualified}.{column}"
    if not labels or any(v not in labels for v in (*between, spill)):
        raise ProfileError(f"{where}: tie values {[*between, spill]} are not all labels of {holder} "
                           f"(an enum, or a column with weights)")


def _validate_condition(table: Table, condition: Any, tied: str, where: str) -> None:
    """A filter of a tie: ``{column: condition}`` on columns of ``table`` other than the tied one."""
    if not isinstance(condition, dict) or not condition or tied in condition \
            or any(not table.has_column(c) for c in condition):
        raise ProfileError(f"{where} filters on other columns of {table.qualified}, not on {tied!r}")
    for other, cond in condition.items():
        if isinstance(cond, dict) and set(cond) != {"from", "to"}:
            raise ProfileError(f"{where}.{other}: a time window is {{from, to}}")


def load_profiles(catalog: Catalog, profile_dir: Path = PROFILE_DIR) -> dict[str, TableProfile]:
    """Every table's profile; tables without an entry get an empty one (all defaults)."""
    profiles = {name: TableProfile(name) for name in catalog.tables}
    for path in sorted(profile_dir.glob("*.yaml")):
        document = yaml_text.safe_load(path.read_text()) or {}
        if not isinstance(document, dict):
            raise ProfileError(f"{path.name}: a profile file maps table names to entries")
        for name, entry in document.items():
            profiles[name] = _validate(catalog, name, entry or {}, path)
    for name, profile in profiles.items():
        tie = profile.tie or {}
        path = _tie_path(catalog, catalog.tables[name], tie) if tie.get("of") else None
        if path and not catalog.enums.get(path[1].column(path[2]).type_sql):
            labels = profiles[path[1].qualified].rule(path[2]).get("weights") or {}
            if any(v not in labels for v in (*tie["between"], tie["spill"])):
                raise ProfileError(f"{name}: tie values {[*tie['between'], tie['spill']]} are not all weighted "
                                   f"labels of {path[1].qualified}.{path[2]}")
    return profiles


def _tie_path(catalog: Catalog, table: Table, tie: dict[str, Any]) -> tuple[Table, Table, str] | None:
    """(parent table, table holding the category, its column) of a parent-side tie, or None."""
    fk = table.foreign_key_of(tie["column"])
    if fk is None or fk.ref_table not in catalog.tables or not catalog.tables[fk.ref_table].is_tenant_scoped:
        return None
    parent = holder = catalog.tables[fk.ref_table]
    hop, _, column = str(tie["of"]).rpartition(".")
    if hop:
        up = parent.foreign_key_of(hop)
        if up is None or up.ref_table not in catalog.tables or not catalog.tables[up.ref_table].is_tenant_scoped:
            return None
        holder = catalog.tables[up.ref_table]
    return (parent, holder, column) if holder.has_column(column) else None


def profile_hash(profile_dir: Path = PROFILE_DIR) -> str:
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(profile_dir.glob("*.yaml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()

"""The typed model of heron's schema: what the DDL declares, nothing more.

The generator, the audit and the retrieval adapters all read this model, so it is the single
source of truth for structure. It is built by ``heron_pipeline.catalog.ddl`` from the files in
``schema_ddl/`` and never from a live database (tests compare the two).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sqlglot.expressions as exp

#: How a column's declared type behaves, coarse enough for the generator to pick a value source.
TYPE_KINDS = ("int", "numeric", "text", "bool", "date", "timestamptz", "jsonb", "text[]", "uuid", "inet", "enum")


@dataclass(frozen=True)
class Column:
    name: str
    type_sql: str  # as PostgreSQL spells it, lower case: "bigint", "numeric(14,2)", "orders.order_status"
    kind: str  # one of TYPE_KINDS
    nullable: bool
    default_sql: str | None
    comment: str | None
    length: int | None = None  # varchar(n) / char(n)
    precision: int | None = None  # numeric(p, s)
    scale: int | None = None
    int_bits: int | None = None  # 16 / 32 / 64 for smallint / integer / bigint


@dataclass(frozen=True)
class Check:
    name: str
    expression: exp.Expression = field(compare=False, hash=False)
    sql: str = ""


@dataclass(frozen=True)
class ForeignKey:
    name: str
    table: str  # qualified "schema.table"
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]
    back_reference: str | None = None  # the declared reason, when this FK points up the domain order

    @property
    def is_back_reference(self) -> bool:
        return self.back_reference is not None

    @property
    def own_column(self) -> str:
        """The referencing column that does not carry the tenant (the one a generator must fill):
        the one matched to a referenced column other than ``tenant_id``."""
        for own, ref in zip(self.columns, self.ref_columns):
            if ref != "tenant_id":
                return own
        return self.columns[0]


@dataclass(frozen=True)
class UniqueKey:
    name: str
    columns: tuple[str, ...]


@dataclass(frozen=True)
class Index:
    name: str
    table: str
    columns: tuple[str, ...]
    unique: bool


@dataclass
class Table:
    schema: str
    name: str
    domain_number: int
    columns: list[Column]
    checks: list[Check]
    comment: str | None = None
    primary_key: tuple[str, ...] = ()
    primary_key_name: str | None = None
    uniques: list[UniqueKey] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    indexes: list[Index] = field(default_factory=list)

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"

    @property
    def is_tenant_scoped(self) -> bool:
        return any(c.name == "tenant_id" for c in self.columns)

    @property
    def is_soft_deletable(self) -> bool:
        return any(c.name == "deleted_at" for c in self.columns)

    def column(self, name: str) -> Column:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.qualified} has no column {name!r}")

    def has_column(self, name: str) -> bool:
        return any(c.name == name for c in self.columns)

    def foreign_key_of(self, column: str) -> ForeignKey | None:
        """The FK whose own (non-tenant) column is ``column``."""
        for fk in self.foreign_keys:
            if fk.own_column == column and column in fk.columns:
                return fk
        return None


@dataclass
class Catalog:
    """Every schema, table and type the DDL declares, in dependency order."""

    domains: list[str]  # the 14 domain schemas, in dependency order
    tables: dict[str, Table]  # qualified name -> table, in file order
    enums: dict[str, tuple[str, ...]]  # qualified type name -> labels in declared order
    ddl_hash: str
    type_schemas: list[str] = field(default_factory=list)  # schemas that hold only types ("shared")

    @property
    def foreign_keys(self) -> list[ForeignKey]:
        return [fk for table in self.tables.values() for fk in table.foreign_keys]

    def table(self, qualified: str) -> Table:
        try:
            return self.tables[qualified]
        except KeyError:
            raise KeyError(f"no table {qualified!r} in the catalog") from None

    def tables_of(self, domain: str) -> list[Table]:
        return [t for t in self.tables.values() if t.schema == domain]

    def domain_number(self, domain: str) -> int:
        return self.domains.index(domain) + 1

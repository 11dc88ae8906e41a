"""One retrieval document per table, built from the catalog and kept in separate fields.

A table is findable by what its schema says about it: its name (schema and table), its column
names, the comments on the table and its columns, and the labels of the enum types its columns use
("churned", "refunded", "in_transit" live only there). Optionally, the reference values the
database holds for it (anchor tenant names, currency and country names, plan codes...): a question
that names "Halyard Outfitters" points at the table whose rows carry that name, which is how
value-aware schema linkers (BRIDGE, CHESS) find tables a question never names.

Fields stay apart so the scorer can weight them (a word in a table's name says more than the same
word in one of 30 column comments); ``FIELDS`` lists them in a fixed order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from heron_pipeline.catalog import Catalog, Table
from heron_pipeline.retrieval.tokens import tokenize

FIELDS = ("name", "columns", "comments", "enums", "values")

#: Columns nearly every table has; they say nothing about what the table holds.
COMMON_COLUMNS = frozenset({"id", "tenant_id", "created_at", "updated_at", "deleted_at"})


@dataclass(frozen=True)
class TableDocument:
    """The tokens of one table, field by field (``FIELDS``)."""

    table: str  # qualified "schema.table"
    fields: Mapping[str, tuple[str, ...]]

    def tokens(self, field: str) -> tuple[str, ...]:
        return self.fields.get(field, ())


def enum_labels(table: Table, catalog: Catalog) -> list[str]:
    """The labels of the enum types the table's columns are declared with, in column order."""
    labels: list[str] = []
    for column in table.columns:
        if column.kind == "enum":
            labels.extend(catalog.enums.get(column.type_sql, ()))
    return labels


def field_texts(table: Table, catalog: Catalog, values: Sequence[str] = ()) -> dict[str, str]:
    """The raw text of each field of ``table`` (before tokenisation)."""
    comments = [table.comment or ""] + [c.comment or "" for c in table.columns]
    return {
        "name": f"{table.schema} {table.name}",
        "columns": " ".join(c.name for c in table.columns if c.name not in COMMON_COLUMNS),
        "comments": " ".join(comments),
        "enums": " ".join(enum_labels(table, catalog)),
        "values": " ".join(values),
    }


def table_documents(catalog: Catalog, values: Mapping[str, Sequence[str]] | None = None, *,
                    stem: bool = True) -> list[TableDocument]:
    """One document per table of ``catalog``, in catalog order. ``values`` maps a qualified table
    name to strings its rows hold (see ``heron_pipeline.retrieval.values``); None leaves the
    ``values`` field empty."""
    values = values or {}
    return [
        TableDocument(name, {f: tuple(tokenize(text, stem=stem))
                             for f, text in field_texts(table, catalog, values.get(name, ())).items()})
        for name, table in catalog.tables.items()
    ]

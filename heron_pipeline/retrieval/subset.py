"""A catalog restricted to some tables, for prompts that show only what was retrieved.

Rather than a second DDL renderer, the subset is a ``Catalog`` of its own: any renderer of a
catalog (``adapters.prompt.render_schema``) renders it, so a retrieval prompt shows the chosen
tables exactly as the full-schema prompt shows every table. Foreign keys to tables outside the
subset are kept (the column still says where it points); enum types are kept only when a kept
column uses them.
"""

from __future__ import annotations

from typing import Iterable

from heron_pipeline.catalog import Catalog


def subset_catalog(catalog: Catalog, tables: Iterable[str]) -> Catalog:
    """``catalog`` with only ``tables`` (in the order given; unknown names raise KeyError)."""
    chosen = [catalog.table(name) for name in dict.fromkeys(tables)]
    used_types = {c.type_sql for t in chosen for c in t.columns if c.kind == "enum"}
    return Catalog(domains=[d for d in catalog.domains if any(t.schema == d for t in chosen)],
                   tables={t.qualified: t for t in chosen},
                   enums={name: labels for name, labels in catalog.enums.items() if name in used_types},
                   ddl_hash=catalog.ddl_hash, type_schemas=list(catalog.type_schemas))

"""The foreign-key graph and the domain graph derived from it.

With declared back-references set aside, the domain graph must be acyclic: later issues turn it
into Dagster asset dependencies, and the generator relies on parents' key ranges being known.
"""

from __future__ import annotations

from graphlib import CycleError, TopologicalSorter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from heron_pipeline.catalog.model import Catalog


def table_dependencies(catalog: Catalog, *, include_back_references: bool = False) -> dict[str, set[str]]:
    """table -> the tables it references (self-references dropped)."""
    deps: dict[str, set[str]] = {name: set() for name in catalog.tables}
    for fk in catalog.foreign_keys:
        if fk.is_back_reference and not include_back_references:
            continue
        if fk.ref_table != fk.table:
            deps[fk.table].add(fk.ref_table)
    return deps


def domain_dependencies(catalog: Catalog, *, include_back_references: bool = False) -> dict[str, set[str]]:
    """domain -> the other domains its tables reference."""
    deps: dict[str, set[str]] = {d: set() for d in catalog.domains}
    for table, refs in table_dependencies(catalog, include_back_references=include_back_references).items():
        source = table.split(".")[0]
        deps[source].update(r.split(".")[0] for r in refs if r.split(".")[0] != source)
    return deps


def domain_order(catalog: Catalog) -> list[str]:
    """Domains in an order where every domain comes after those it depends on.

    Raises ``graphlib.CycleError`` when the domain graph has a cycle that is not declared.
    """
    return list(TopologicalSorter(domain_dependencies(catalog)).static_order())


def required_dependencies(catalog: Catalog) -> dict[str, set[str]]:
    """table -> the tables its NOT NULL references point at. Optional references may form cycles
    inside a domain (an experiment's winning variant points back at the experiment's variants)."""
    deps: dict[str, set[str]] = {name: set() for name in catalog.tables}
    for fk in catalog.foreign_keys:
        table = catalog.tables[fk.table]
        if fk.is_back_reference or fk.ref_table == fk.table or table.column(fk.own_column).nullable:
            continue
        deps[fk.table].add(fk.ref_table)
    return deps


def table_order(catalog: Catalog) -> list[str]:
    """Tables parents-first along their required references (back-references set aside)."""
    return list(TopologicalSorter(required_dependencies(catalog)).static_order())


def is_acyclic(deps: dict[str, set[str]]) -> bool:
    try:
        tuple(TopologicalSorter(deps).static_order())
    except CycleError:
        return False
    return True


def cached_domain_graph(key: str, cache_dir: Path | None = None) -> tuple[list[str], dict[str, list[str]]]:
    """(domain order, domain -> the domains it depends on) of the current DDL, without parsing it when
    a graph for ``key`` (a digest of the DDL files) is cached: the Dagster definitions need the
    graph at import, and parsing 211 tables there cost seconds in every step's process."""
    import json
    from pathlib import Path

    from heron_pipeline.artifacts.atomic import write_text_atomic
    from heron_pipeline.input_cache import CACHE_DIR

    folder = Path(cache_dir) if cache_dir is not None else CACHE_DIR
    path = folder / f"domain-graph-{key}.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return list(doc["order"]), {k: list(v) for k, v in doc["deps"].items()}
    except (OSError, ValueError, KeyError):
        pass
    from heron_pipeline.catalog.ddl import load_catalog

    catalog = load_catalog()
    order = domain_order(catalog)
    deps = {d: sorted(v) for d, v in domain_dependencies(catalog).items()}
    try:
        write_text_atomic(path, json.dumps({"order": order, "deps": deps}, sort_keys=True))
    except OSError:
        pass  # a read-only checkout parses at every import
    return order, deps

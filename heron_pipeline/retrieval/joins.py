"""Join paths between retrieved tables on the foreign-key graph, and the expansion that adds them.

A question about "tickets of customers in Germany" names two or three tables; the SQL also needs
the tables in between (``support.cases`` → ``crm.accounts`` → ``tenancy.countries``). Lexical
retrieval rarely ranks such bridge tables high, because the question never mentions them, but the
schema knows them: they lie on the shortest foreign-key path between the tables it did retrieve.

The graph is undirected (a join works both ways) over every declared foreign key, back-references
included. Two kinds of edge would make every pair of tables look adjacent and are kept out of
paths' interiors:

* the tenant key: every tenant table references ``tenancy.tenants`` by ``tenant_id`` alone, so
  through the tenants table any two tables are two hops apart, yet joining two tables "through
  their tenant" is a cross product per tenant, never a join path;
* hubs in general: a path through ``auth.users`` (referenced 177 times as created_by, owner...) or
  ``tenancy.currencies`` is rarely the intended one. Passing *through* a table costs
  1 + log2(1 + degree) instead of 1, so a path via a hub is taken only when no other is near.

Endpoints are never penalised: a retrieved hub still joins to its neighbours directly.
"""

from __future__ import annotations

import heapq
import math
from typing import Iterable, Sequence

from heron_pipeline.catalog import Catalog
from heron_pipeline.catalog.graph import table_dependencies

#: How many of the top-ranked tables are joined up by default, and the longest bridge accepted.
DEFAULT_SEEDS = 4
DEFAULT_MAX_HOPS = 3


class JoinGraph:
    """The undirected FK graph of a catalog without tenant-key edges, with hub costs."""

    def __init__(self, catalog: Catalog):
        neighbours: dict[str, set[str]] = {name: set() for name in catalog.tables}
        for fk in catalog.foreign_keys:
            if fk.ref_table == fk.table or tuple(fk.columns) == ("tenant_id",):
                continue
            neighbours[fk.table].add(fk.ref_table)
            neighbours[fk.ref_table].add(fk.table)
        # a tenant-scoped table reaches tenancy.tenants through its tenant key: a real join, but
        # only as a path's end (see the module docstring)
        self.tenant_edges = {fk.table for fk in catalog.foreign_keys
                             if tuple(fk.columns) == ("tenant_id",) and fk.ref_table != fk.table}
        self.tenants = next((fk.ref_table for fk in catalog.foreign_keys if tuple(fk.columns) == ("tenant_id",)),
                            None)
        self.neighbours = {name: frozenset(n) for name, n in neighbours.items()}
        self.through_cost = {name: 1.0 + math.log2(1 + len(n)) for name, n in self.neighbours.items()}

    def _adjacent(self, table: str, target: str) -> bool:
        if target in self.neighbours.get(table, ()):
            return True
        return (target == self.tenants and table in self.tenant_edges) or (
            table == self.tenants and target in self.tenant_edges)

    def path(self, source: str, targets: Iterable[str], max_hops: int = DEFAULT_MAX_HOPS) -> list[str] | None:
        """The cheapest path from ``source`` to the nearest of ``targets`` (both ends included), at
        most ``max_hops`` edges; None when there is none. Ties go to the lexicographically first path,
        so the result is deterministic."""
        goals = set(targets) - {source}
        if not goals:
            return None
        direct = sorted(t for t in goals if self._adjacent(source, t))
        if direct:
            return [source, direct[0]]
        # Dijkstra over (cost, path); interior nodes cost their through_cost, edges 1.
        heap: list[tuple[float, list[str]]] = [(0.0, [source])]
        best: dict[str, float] = {source: 0.0}
        while heap:
            cost, path = heapq.heappop(heap)
            node = path[-1]
            if node in goals:
                return path
            if len(path) - 1 >= max_hops or cost > best.get(node, math.inf):
                continue
            step = 1.0 + (self.through_cost[node] if len(path) > 1 else 0.0)
            for nxt in sorted(self.neighbours.get(node, ())):
                if nxt in path:
                    continue
                new = cost + step
                if new < best.get(nxt, math.inf):
                    best[nxt] = new
                    heapq.heappush(heap, (new, [*path, nxt]))
            for goal in sorted(goals):  # the tenant key as the last edge
                if self._adjacent(node, goal) and goal not in self.neighbours.get(node, ()):
                    new = cost + step
                    if new < best.get(goal, math.inf):
                        best[goal] = new
                        heapq.heappush(heap, (new, [*path, goal]))
        return None


_GRAPHS: dict[int, tuple[Catalog, JoinGraph]] = {}


def join_graph(catalog: Catalog) -> JoinGraph:
    """The catalog's JoinGraph, built once per catalog object (a Catalog is mutable, hence keyed by
    identity; the catalog is kept with its graph so that its id cannot be reused)."""
    cached = _GRAPHS.get(id(catalog))
    if cached is None or cached[0] is not catalog:
        if len(_GRAPHS) >= 8:
            _GRAPHS.clear()
        cached = _GRAPHS[id(catalog)] = (catalog, JoinGraph(catalog))
    return cached[1]


def join_path(catalog: Catalog, source: str, target: str, max_hops: int = DEFAULT_MAX_HOPS) -> list[str] | None:
    """The cheapest join path from ``source`` to ``target`` (both included), or None."""
    return join_graph(catalog).path(source, [target], max_hops)


def expand_with_join_paths(ranked: Sequence[str], catalog: Catalog, limit: int | None = None, *,
                           seeds: int = DEFAULT_SEEDS, max_hops: int = DEFAULT_MAX_HOPS) -> list[str]:
    """``ranked`` with the join paths between its top ``seeds`` tables inserted, at most ``limit``.

    The seeds are taken in rank order; each is joined to the nearest table already placed, and
    the tables on that path are placed right before it (bridges rank just above the seed that
    needed them, so a bridge to a strong seed outranks a weak lexical match). Then the rest of
    ``ranked`` follows in its own order. No table appears twice; tables of ``ranked`` that are not
    in the catalog are kept in place but never bridged.
    """
    graph = join_graph(catalog)
    out: list[str] = []
    placed: set[str] = set()

    def place(table: str) -> None:
        if table not in placed:
            placed.add(table)
            out.append(table)

    for table in ranked[:seeds]:
        if table in placed:
            continue
        if table in graph.neighbours and placed:
            path = graph.path(table, [p for p in out if p in graph.neighbours], max_hops)
            if path:
                for bridge in reversed(path[1:-1]):
                    place(bridge)
        place(table)
    for table in ranked[seeds:]:
        place(table)
    return out if limit is None else out[:limit]

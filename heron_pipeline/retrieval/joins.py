"""Join paths between retrieved tables on the foreign-key graph, and the expansion that adds them.

A question about "tickets of customers in Germany" names two or three tables; the SQL also needs
the tables in between (``support.cases`` → ``crm.accounts`` → ``tenancy.countries``). Lexical
retrieval rarely ranks such bridge tables high, because the question never mentions them, but the
schema knows them: they lie on the shortest foreign-key path between the tables it did retrieve.

The graph is undirected (a join works both ways) over every declared foreign key, back-references
included. Two kinds of table would make every pair of tables look two hops apart and are kept out
of paths' interiors (they may still end a path: a retrieved hub joins its neighbours directly):

* the tenants table: every tenant table references ``tenancy.tenants`` by ``tenant_id`` alone, and
  joining two tables "through their tenant" is a cross product per tenant, never a join path;
* hubs: tables referenced by a quarter or more of all tables (``HUB_SHARE``) — in heron
  ``auth.users`` (created_by, owner, assignee... on 177 tables) and ``tenancy.currencies``. Two
  invoices are not related because the same user created them.

Measured against the join paths the gold queries take (pairs of gold tables that are not adjacent,
docs/DECISIONS.md issue 9): with both rules 18 of 21 shortest paths run through gold tables only;
with no hub rule 10 of 35. Two alternatives measured worse and are off by default: a
log-degree cost for passing through a table, and treating tables that share a code key (a currency
code) as adjacent.
"""

from __future__ import annotations

import heapq
import math
from typing import Iterable, Sequence

from heron_pipeline.catalog import Catalog

#: How many of the top-ranked tables are joined up by default, and the longest bridge accepted.
DEFAULT_SEEDS = 4
DEFAULT_MAX_HOPS = 3


#: A table that a quarter or more of all tables reference (auth.users: created_by, owner...;
#: tenancy.currencies) joins "anything to anything" and is never a path's interior.
HUB_SHARE = 0.25


class JoinGraph:
    """The undirected FK graph of a catalog, with the rules of the module docstring.

    ``hub_share``: tables referenced by at least this share of all tables are path ends only
    (None: no such rule). ``hub_penalty``: passing through a table costs 1 + log2(1 + degree)
    instead of 1. ``shared_keys``: two tables that reference the same natural key (a currency or
    country code) join directly on it, with no bridge.
    """

    def __init__(self, catalog: Catalog, *, hub_share: float | None = HUB_SHARE, hub_penalty: bool = False,
                 shared_keys: bool = False):
        neighbours: dict[str, set[str]] = {name: set() for name in catalog.tables}
        referenced_by: dict[str, set[str]] = {name: set() for name in catalog.tables}
        natural_keys: dict[str, set[str]] = {name: set() for name in catalog.tables}
        self.tenant_edges: set[str] = set()
        self.tenants: str | None = None
        for fk in catalog.foreign_keys:
            if fk.ref_table == fk.table:
                continue
            if tuple(fk.columns) == ("tenant_id",):
                # a tenant-scoped table reaches tenancy.tenants through its tenant key: a real join,
                # but only as a path's end (see the module docstring)
                self.tenant_edges.add(fk.table)
                self.tenants = fk.ref_table
                continue
            neighbours[fk.table].add(fk.ref_table)
            neighbours[fk.ref_table].add(fk.table)
            referenced_by[fk.ref_table].add(fk.table)
            if shared_keys and "id" not in fk.ref_columns:
                natural_keys[fk.table].add(fk.ref_table)
        self.neighbours = {name: frozenset(n) for name, n in neighbours.items()}
        self.natural_keys = {name: frozenset(n) for name, n in natural_keys.items()}
        limit = None if hub_share is None else hub_share * len(catalog.tables)
        self.hubs = frozenset(t for t, refs in referenced_by.items() if limit is not None and len(refs) >= limit)
        self.through_cost = {name: (1.0 + math.log2(1 + len(n)) if hub_penalty else 1.0)
                             for name, n in self.neighbours.items()}

    def adjacent(self, table: str, target: str) -> bool:
        """Whether two tables join directly: an FK between them, the tenant key, or a shared code."""
        if target in self.neighbours.get(table, ()):
            return True
        if (target == self.tenants and table in self.tenant_edges) or (
                table == self.tenants and target in self.tenant_edges):
            return True
        return bool(self.natural_keys.get(table, frozenset()) & self.natural_keys.get(target, frozenset()))

    def path(self, source: str, targets: Iterable[str], max_hops: int = DEFAULT_MAX_HOPS) -> list[str] | None:
        """The cheapest path from ``source`` to the nearest of ``targets`` (both ends included), at
        most ``max_hops`` edges; None when there is none. Ties go to the lexicographically first path,
        so the result is deterministic."""
        goals = set(targets) - {source}
        if not goals:
            return None
        direct = sorted(t for t in goals if self.adjacent(source, t))
        if direct:
            return [source, direct[0]]
        # Dijkstra over (cost, path): an edge costs 1 plus the through-cost of the node it leaves,
        # except the source; hubs are never left (they may only end a path).
        heap: list[tuple[float, list[str]]] = [(0.0, [source])]
        best: dict[str, float] = {source: 0.0}
        while heap:
            cost, path = heapq.heappop(heap)
            node = path[-1]
            if node in goals:
                return path
            if len(path) - 1 >= max_hops or cost > best.get(node, math.inf):
                continue
            interior = len(path) > 1
            if interior and node in self.hubs:
                continue
            step = 1.0 + (self.through_cost[node] - 1.0 if interior else 0.0)
            nexts = set(self.neighbours.get(node, ())) | {g for g in goals if self.adjacent(node, g)}
            for nxt in sorted(nexts):
                if nxt in path:
                    continue
                new = cost + step
                if new < best.get(nxt, math.inf):
                    best[nxt] = new
                    heapq.heappush(heap, (new, [*path, nxt]))
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


def join_path(catalog: Catalog, source: str, target: str, max_hops: int = DEFAULT_MAX_HOPS, *,
              graph: JoinGraph | None = None) -> list[str] | None:
    """The cheapest join path from ``source`` to ``target`` (both included), or None. ``graph``
    overrides the catalog's default JoinGraph."""
    return (graph or join_graph(catalog)).path(source, [target], max_hops)


def expand_with_join_paths(ranked: Sequence[str], catalog: Catalog, limit: int | None = None, *,
                           seeds: int = DEFAULT_SEEDS, max_hops: int = DEFAULT_MAX_HOPS,
                           graph: JoinGraph | None = None) -> list[str]:
    """``ranked`` with the join paths between its top ``seeds`` tables inserted, at most ``limit``.

    The seeds are taken in rank order; each is joined to the nearest table already placed, and
    the tables on that path are placed right before it (bridges rank just above the seed that
    needed them, so a bridge to a strong seed outranks a weak lexical match). Then the rest of
    ``ranked`` follows in its own order. No table appears twice; tables of ``ranked`` that are not
    in the catalog are kept in place but never bridged. ``graph`` overrides the catalog's default
    JoinGraph.
    """
    graph = graph or join_graph(catalog)
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

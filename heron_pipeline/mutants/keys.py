"""count-distinct-unique: when ``COUNT(DISTINCT a.x)`` cannot see a duplicate, DISTINCT is a no-op.

Within one group, two joined rows with the same ``a.x`` are the same combination of base rows when
``a.x`` — together with the group's keys and the constants the WHERE fixes — determines a unique
key (PRIMARY KEY or UNIQUE, NOT NULL columns, read from the catalog) of every table in the join.
Base tables hold no duplicate rows (every table has a primary key), and an inner join yields each
combination of base rows at most once, so no value of ``a.x`` repeats in a group and COUNT(DISTINCT)
equals COUNT. The proof is functional-dependency closure over equalities (column = column, column
= literal) in the WHERE and inner-join ONs; anything else (outer joins, subqueries, CTEs as
sources, ROLLUP) makes it give up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from heron_pipeline.mutants.conditions import conjuncts
from heron_pipeline.mutants.scope import Ref, column_ref, group_refs, input_columns

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog

def _is_constant(node: exp.Expression) -> bool:
    if isinstance(node, exp.Cast):
        return _is_constant(node.this)
    return isinstance(node, exp.Literal)


def distinct_is_unique(count: exp.Count, catalog: "Catalog") -> str | None:
    """The reason dropping DISTINCT in ``count`` changes nothing, or None when that is not proven."""
    if not isinstance(count.this, exp.Distinct) or len(count.this.expressions) != 1:
        return None
    counted = column_ref(count.this.expressions[0])
    select = count.find_ancestor(exp.Select)
    if counted is None or select is None or count.find_ancestor(exp.Window) is not None:
        return None
    source = select.args.get("from") or select.args.get("from_")
    joins = select.args.get("joins") or []
    tables: dict[str, str] = {}
    for node in [source.this if source is not None else None] + [j.this for j in joins]:
        if not isinstance(node, exp.Table) or not node.db:
            return None
        tables[node.alias_or_name] = f"{node.db}.{node.name}"
    if len(tables) != 1 + len(joins) or any(t not in catalog.tables for t in tables.values()):
        return None
    conditions = conjuncts(select.args["where"].this) if select.args.get("where") else []
    for join in joins:
        if (join.side or "") or (join.kind or "").upper() not in ("", "INNER", "CROSS"):
            return None
        conditions += conjuncts(join.args.get("on"))
    known = group_refs(select, input_columns(tables, catalog))
    if known is None:
        return None
    known.add(counted)
    pairs = _equalities(conditions, known)
    if _determined(tables, pairs, known, catalog) == set(tables):
        return ("count-distinct-unique: the counted column, the group keys and the WHERE constants "
                "determine a unique key of every joined table, so no value repeats in a group")
    return None


def _equalities(conditions: list[exp.Expression], known: set[Ref]) -> list[tuple[Ref, Ref]]:
    """Column = column pairs; columns equal to a constant are added to ``known``."""
    pairs: list[tuple[Ref, Ref]] = []
    for condition in conditions:
        if not isinstance(condition, exp.EQ):
            continue
        left, right = column_ref(condition.this), column_ref(condition.expression)
        if left and right:
            pairs.append((left, right))
        elif left and _is_constant(condition.expression):
            known.add(left)
        elif right and _is_constant(condition.this):
            known.add(right)
    return pairs


def _determined(tables: dict[str, str], pairs: list[tuple[Ref, Ref]], known: set[Ref],
                catalog: "Catalog") -> set[str]:
    """The aliases whose row the ``known`` columns fix (functional-dependency closure)."""
    keys = {alias: _unique_keys(catalog, table) for alias, table in tables.items()}
    determined: set[str] = set()
    changed = True
    while changed:
        changed = False
        for left, right in pairs:
            for a, b in ((left, right), (right, left)):
                if a in known and b not in known:
                    known.add(b)
                    changed = True
        for alias, table in tables.items():
            if alias in determined:
                continue
            if any(all((alias, c) in known for c in key) for key in keys[alias]):
                determined.add(alias)
                known.update((alias, c.name) for c in catalog.tables[table].columns)
                changed = True
    return determined


def having_singleton(join: exp.Join, catalog: "Catalog") -> str | None:
    """An inner join turned LEFT, as the last join of a grouped SELECT whose group keys fix every
    earlier table's row and whose HAVING demands ``count(*) >= k`` with k ≥ 2: a NULL-extended row
    stands for an earlier row without a match, so it is alone in its group (count 1) and HAVING
    drops it; every other group keeps exactly its rows."""
    select = join.parent
    if not isinstance(select, exp.Select) or not isinstance(join.this, exp.Table):
        return None
    joins = select.args.get("joins") or []
    if not joins or joins[-1] is not join or not _needs_two_rows(select.args.get("having")):
        return None
    source = select.args.get("from") or select.args.get("from_")
    tables: dict[str, str] = {}
    for node in [source.this if source is not None else None] + [j.this for j in joins[:-1]]:
        if not isinstance(node, exp.Table) or not node.db or f"{node.db}.{node.name}" not in catalog.tables:
            return None
        tables[node.alias_or_name] = f"{node.db}.{node.name}"
    if any((j.side or "") or (j.kind or "").upper() not in ("", "INNER", "CROSS") for j in joins[:-1]):
        return None
    joined_table = catalog.tables.get(f"{join.this.db}.{join.this.name}")
    if joined_table is None:
        return None
    known = group_refs(select, input_columns(tables, catalog) | {c.name for c in joined_table.columns})
    if known is None or select.args.get("group") is None:
        return None
    joined = join.this.alias_or_name
    conditions = conjuncts(select.args["where"].this) if select.args.get("where") else []
    for earlier in joins[:-1]:
        conditions += conjuncts(earlier.args.get("on"))
    conditions = [c for c in conditions if all(col.table != joined for col in c.find_all(exp.Column))]
    if _determined(tables, _equalities(conditions, known), known, catalog) != set(tables):
        return None
    return "having-singleton: a NULL-extended row is alone in its group and HAVING count(*) >= k (k ≥ 2) drops it"


def _needs_two_rows(having: exp.Expression | None) -> bool:
    """Does the HAVING have a conjunct ``count(*) >= k`` (k ≥ 2) or ``count(*) > k`` (k ≥ 1)?"""
    if having is None:
        return False
    for condition in conjuncts(having.this):
        if isinstance(condition, (exp.GTE, exp.GT)):
            count, value = condition.this, condition.expression
        elif isinstance(condition, (exp.LTE, exp.LT)):
            count, value = condition.expression, condition.this
        else:
            continue
        if not (isinstance(count, exp.Count) and isinstance(count.this, exp.Star)):
            continue
        if isinstance(value, exp.Literal) and not value.is_string and value.this.isdigit():
            threshold = int(value.this) + (1 if isinstance(condition, (exp.GT, exp.LT)) else 0)
            if threshold >= 2:
                return True
    return False


def _unique_keys(catalog: "Catalog", table_name: str) -> list[tuple[str, ...]]:
    """PRIMARY KEY and UNIQUE constraints whose columns are all NOT NULL (NULLs may repeat)."""
    table = catalog.tables[table_name]
    keys = [tuple(table.primary_key)] if table.primary_key else []
    keys += [tuple(u.columns) for u in table.uniques]
    return [k for k in keys if k and not any(table.column(c).nullable for c in k)]


def count_not_null(count: exp.Count, catalog: "Catalog") -> str | None:
    """``COUNT(x.c)`` → ``COUNT(*)`` changes nothing when ``x.c`` is NOT NULL in the catalog and no
    counted row NULL-extends ``x``: ``x`` is in FROM or inner-joined, or a LEFT-joined ``x`` is
    matched on every counted row because the aggregate's FILTER, the WHERE or an inner join's ON
    rejects NULL in its columns — or because a LEFT join of an already-matched table equates one of
    its ON columns with a column of ``x`` (a match there means that column of ``x`` is set)."""
    from heron_pipeline.mutants.nulls import column_target, rejects_null

    column = column_ref(count.this) if count.this is not None else None
    select = count.find_ancestor(exp.Select)
    if column is None or select is None:
        return None
    source = select.args.get("from") or select.args.get("from_")
    joins = select.args.get("joins") or []
    if source is None or any((j.side or "").upper() in ("RIGHT", "FULL") for j in joins):
        return None
    tables = {}
    for node in [source.this] + [j.this for j in joins]:
        if isinstance(node, exp.Table) and node.db:
            tables[node.alias_or_name] = f"{node.db}.{node.name}"
    alias, name = column
    table = catalog.tables.get(tables.get(alias, ""))
    if table is None or not table.has_column(name) or table.column(name).nullable:
        return None
    outer = {j.this.alias_or_name: j for j in joins if (j.side or "").upper() == "LEFT"}
    conditions = conjuncts(select.args["where"].this) if select.args.get("where") else []
    for join in joins:
        if join.this.alias_or_name not in outer:
            conditions += conjuncts(join.args.get("on"))
    if isinstance(count.parent, exp.Filter):
        conditions += conjuncts(count.parent.expression.this if isinstance(count.parent.expression, exp.Where)
                                else count.parent.expression)
    matched = {a for a in tables if a not in outer} | {a for a in outer if any(
        rejects_null(c, column_target(a)) for c in conditions)}
    changed = True
    while changed:
        changed = False
        for other in list(matched):
            join = outer.get(other)
            if join is None:
                continue
            for condition in conjuncts(join.args.get("on")):
                if not isinstance(condition, exp.EQ):
                    continue
                refs = [column_ref(side) for side in (condition.this, condition.expression)]
                if None in refs or other not in {r[0] for r in refs}:
                    continue
                for ref in refs:
                    if ref[0] != other and ref[0] in outer and ref[0] not in matched:
                        matched.add(ref[0])
                        changed = True
    if alias in matched:
        return f"count-not-null: {alias}.{name} is NOT NULL and no counted row NULL-extends {alias}"
    return None

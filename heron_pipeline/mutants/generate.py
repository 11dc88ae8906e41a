"""Near-miss mutants of a gold query: the wrong answers a text-to-SQL tool is most likely to give.

A benchmark is only as sharp as its ability to tell a near miss from the right answer. Each
operator below rewrites one spot of the gold's syntax tree (sqlglot) into a plausible mistake —
a forgotten filter, a mirrored comparison, the wrong aggregate, an inner join where a left one was
needed. Scoring the mutants like predictions shows which questions and which database states can
tell them apart (single-state vs multi-state comparison).

Mutants are generated deterministically (tree walk order), one change each, and deduplicated by
their SQL text; a mutant whose text equals the gold's is dropped. The operators that undo one
trap's handling (exchange rates, time zones, status labels, semi-joins…) live in
:mod:`.trap_operators`; each mutant records the traps whose handling it removes
(:mod:`.traps`), which is what the audit's ``trap-live`` rule proves tags with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

import sqlglot
from sqlglot import exp

from heron_pipeline.mutants import trap_operators as traps_ops
from heron_pipeline.mutants.conditions import (and_all, conjuncts, is_soft_delete_condition,
                                               is_tenant_condition, remove_conjuncts)
from heron_pipeline.mutants.traps import traps_removed

DIALECT = "postgres"

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog

#: Mirrored comparison: a "flip" reverses the direction of the test.
_FLIPPED: dict[type, type] = {exp.LT: exp.GT, exp.GT: exp.LT, exp.LTE: exp.GTE, exp.GTE: exp.LTE,
                              exp.EQ: exp.NEQ, exp.NEQ: exp.EQ}

#: The aggregate a hurried author writes instead.
_SWAPPED_AGGREGATE: dict[type, type] = {exp.Sum: exp.Avg, exp.Avg: exp.Sum, exp.Min: exp.Max, exp.Max: exp.Min}


@dataclass(frozen=True)
class Mutant:
    operator: str
    description: str
    sql: str
    #: Why this mutant returns the gold's answer on every state by a documented contract, if it does
    #: (see :mod:`heron_pipeline.mutants.equivalence`); such mutants are reported, not counted.
    equivalent: str | None = None
    #: The trap tags whose handling this mutant removes (:mod:`heron_pipeline.mutants.traps`): a
    #: killed one proves the tag can bite.
    traps: tuple[str, ...] = ()


# -- operators: each yields (description, mutate) where mutate edits the k-th node of a fresh copy --


def _drop_where_conjunct(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
    if isinstance(node, exp.Where):
        for index, part in enumerate(conjuncts(node.this)):
            def mutate(target: exp.Expression, index: int = index) -> bool:
                parent = target.parent
                parts = conjuncts(target.this)
                rebuilt = and_all([p.copy() for i, p in enumerate(parts) if i != index])
                parent.set("where", exp.Where(this=rebuilt) if rebuilt is not None else None)
                return True
            yield f"drop WHERE conjunct `{part.sql(dialect=DIALECT)}`", mutate, [part]


def _flip_comparison(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
    flipped = _FLIPPED.get(type(node))
    if flipped is not None:
        def mutate(target: exp.Expression) -> bool:
            target.replace(flipped(this=target.this.copy(), expression=target.expression.copy()))
            return True
        yield f"flip `{node.sql(dialect=DIALECT)}`", mutate, None


def _swap_aggregate(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
    swapped = _SWAPPED_AGGREGATE.get(type(node))
    if swapped is not None:
        def mutate(target: exp.Expression) -> bool:
            target.replace(swapped(this=target.this.copy()))
            return True
        yield f"swap aggregate `{node.sql(dialect=DIALECT)}` → {swapped.__name__.upper()}", mutate, None
    elif isinstance(node, exp.Count) and isinstance(node.this, exp.Distinct):
        def mutate(target: exp.Expression) -> bool:
            target.set("this", target.this.expressions[0].copy())
            return True
        yield f"drop DISTINCT in `{node.sql(dialect=DIALECT)}`", mutate, node
    elif isinstance(node, exp.Count) and not isinstance(node.this, exp.Star) and node.this is not None:
        def mutate(target: exp.Expression) -> bool:
            target.set("this", exp.Star())
            return True
        yield f"count rows instead of `{node.sql(dialect=DIALECT)}`", mutate, node


def _drop_distinct(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
    if isinstance(node, exp.Select) and node.args.get("distinct") is not None:
        def mutate(target: exp.Expression) -> bool:
            target.set("distinct", None)
            return True
        yield "drop SELECT DISTINCT", mutate, None


def _join_side(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
    if isinstance(node, exp.Join) and node.args.get("on") is not None:
        side = (node.side or "").upper()
        if side in ("", "INNER") and (node.kind or "").upper() in ("", "INNER"):
            def mutate(target: exp.Expression) -> bool:
                target.set("kind", None)
                target.set("side", "LEFT")
                return True
            yield f"inner → LEFT JOIN {node.this.sql(dialect=DIALECT)}", mutate, node
        elif side == "LEFT":
            def mutate(target: exp.Expression) -> bool:
                target.set("side", None)
                target.set("kind", None)
                return True
            yield f"LEFT → inner JOIN {node.this.sql(dialect=DIALECT)}", mutate, None


def _drop_filter(predicate: Callable[[exp.Expression], bool], label: str):
    def operator(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
        holders = []
        if isinstance(node, exp.Select) and node.args.get("where") is not None:
            holders.append("where")
        if isinstance(node, exp.Join) and node.args.get("on") is not None:
            holders.append("on")
        for key in holders:
            condition = node.args[key].this if key == "where" else node.args[key]
            if any(predicate(part) for part in conjuncts(condition)):
                def mutate(target: exp.Expression, key: str = key) -> bool:
                    return remove_conjuncts(target, key, lambda part: not predicate(part))
                where = "WHERE" if key == "where" else f"ON of {node.this.sql(dialect=DIALECT)}"
                yield f"drop the {label} in {where}", mutate, [p for p in conjuncts(condition) if predicate(p)]
    return operator


def _change_limit(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
    if isinstance(node, exp.Limit) and isinstance(node.expression, exp.Literal) and not node.expression.is_string:
        value = int(node.expression.this)
        for changed in (value + 1, value - 1):
            if changed < 0:
                continue
            def mutate(target: exp.Expression, changed: int = changed) -> bool:
                target.set("expression", exp.Literal.number(changed))
                return True
            yield f"LIMIT {value} → {changed}", mutate, None


def _flip_order(node: exp.Expression) -> Iterator[tuple[str, Callable[[exp.Expression], bool], object]]:
    if isinstance(node, exp.Ordered) and isinstance(node.parent, exp.Order) and not node.find_ancestor(exp.Window):
        def mutate(target: exp.Expression) -> bool:
            descending = not target.args.get("desc")
            target.set("desc", descending)
            target.set("nulls_first", descending)  # PostgreSQL's default null placement for the new direction
            return True
        yield f"flip the direction of ORDER BY `{node.this.sql(dialect=DIALECT)}`", mutate, None


def operator_table(catalog: "Catalog | None" = None) -> dict[str, Callable]:
    """Operator name -> operator. Specific operators first: a mutant two operators produce is
    reported under the more telling name. Three trap operators read column types and keys from the
    catalog; without one they fire only where the syntax alone decides."""
    return {
        "drop-tenant-filter": _drop_filter(is_tenant_condition, "tenant filter"),
        "drop-soft-delete-filter": _drop_filter(is_soft_delete_condition, "soft-delete filter"),
        "drop-where-conjunct": _drop_where_conjunct,
        "flip-comparison": _flip_comparison,
        "swap-aggregate": _swap_aggregate,
        "drop-distinct": _drop_distinct,
        "join-side": _join_side,
        "change-limit": _change_limit,
        "flip-order": _flip_order,
        "drop-fx-conversion": traps_ops.drop_fx_conversion,
        "merge-currencies": traps_ops.merge_currencies,
        "shift-bucket-zone": traps_ops.shift_bucket_zone(catalog),
        "shift-week-start": traps_ops.shift_week_start,
        "drop-status-condition": traps_ops.drop_status_condition,
        "narrow-status-set": traps_ops.narrow_status_set,
        "exists-to-join": traps_ops.exists_to_join(catalog),
        "drop-first-row-filter": traps_ops.drop_first_row_filter,
        "null-as-zero": traps_ops.null_as_zero(catalog),
    }


OPERATORS: dict[str, Callable] = operator_table()


def mutants(sql: str, catalog: "Catalog | None" = None) -> list[Mutant]:
    """Every single-change mutant of ``sql``, in a stable order, without duplicates.

    With a ``catalog``, mutants that are equivalent to the gold by a documented contract carry the
    reason in :attr:`Mutant.equivalent`.
    """
    from heron_pipeline.mutants.equivalence import equivalence_reason

    tree = sqlglot.parse_one(sql, read=DIALECT)
    original = tree.sql(dialect=DIALECT)
    seen = {original}
    result: list[Mutant] = []
    nodes = list(tree.walk())
    for name, operator in operator_table(catalog).items():
        for index, node in enumerate(nodes):
            for description, mutate, subject in operator(node):
                copy = tree.copy()
                target = list(copy.walk())[index]
                if not mutate(target):
                    continue
                text = copy.sql(dialect=DIALECT)
                if text in seen:
                    continue
                seen.add(text)
                reason = equivalence_reason(name, subject, catalog) if catalog is not None else None
                result.append(Mutant(name, description, text, reason, traps_removed(name, node, subject)))
    return result

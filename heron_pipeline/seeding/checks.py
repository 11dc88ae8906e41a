"""What a table's CHECK constraints ask of its columns, as the generator reads them.

Shared by the value generator (seeding/values.py draws inside the bounds and keeps the relations
between columns) and the mutant rules (mutants/window.py: a time column derived backwards from
another is not floored at the window start), so it sits below both.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlglot.expressions as exp

from heron_pipeline.catalog.model import Table


@dataclass(frozen=True)
class Bound:
    """What a CHECK allows one column: a numeric range, or a list of values."""

    low: float | None = None
    high: float | None = None
    values: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Relation:
    """``column op other`` between two columns of the same row."""

    column: str
    op: str  # ">=", ">", "<=", "<"
    other: str


_FLIP = {">=": "<=", ">": "<", "<=": ">=", "<": ">"}
_OPS = {exp.GTE: ">=", exp.GT: ">", exp.LTE: "<=", exp.LT: "<", exp.EQ: "=", exp.NEQ: "<>"}


def _literal_number(node: exp.Expression) -> float | None:
    if isinstance(node, exp.Neg):
        inner = _literal_number(node.this)
        return None if inner is None else -inner
    if isinstance(node, exp.Literal) and not node.is_string:
        return float(node.this)
    if isinstance(node, exp.Cast):
        return _literal_number(node.this)
    return None


_RULES: dict[tuple[str, str], tuple[dict[str, Bound], tuple[Relation, ...]]] = {}


def table_rules(catalog_hash: str, qualified: str, table: Table) -> tuple[dict[str, Bound], tuple[Relation, ...]]:
    """Bounds and column relations read from the table's CHECK constraints (cached per DDL)."""
    key = (catalog_hash, qualified)
    if key not in _RULES:
        _RULES[key] = read_checks(table)
    return _RULES[key]


def read_checks(table: Table) -> tuple[dict[str, Bound], tuple[Relation, ...]]:
    """The bounds (``col BETWEEN``, ``col IN``, ``col >= 0``…) and the relations between two columns
    (``ended_at >= started_at``) that ``table``'s CHECK constraints state, as far as the generator
    follows them; any other CHECK is left out."""
    bounds: dict[str, Bound] = {}
    relations: list[Relation] = []
    for check in table.checks:
        node = check.expression
        if isinstance(node, exp.Paren):
            node = node.this
        if isinstance(node, exp.Or):  # "x IS NULL OR <comparison>"
            node = node.expression
            if isinstance(node, exp.Paren):
                node = node.this
        if isinstance(node, exp.Between) and isinstance(node.this, exp.Column):
            low, high = _literal_number(node.args["low"]), _literal_number(node.args["high"])
            bounds[node.this.name] = _merge(bounds.get(node.this.name), Bound(low, high))
        elif isinstance(node, exp.In) and isinstance(node.this, exp.Column):
            bounds[node.this.name] = Bound(values=tuple(e.name for e in node.expressions))
        elif type(node) in _OPS:
            op = _OPS[type(node)]
            left, right = node.this, node.expression
            if isinstance(left, exp.Column) and isinstance(right, exp.Column):
                if op in _FLIP:
                    relations.append(Relation(left.name, op, right.name))
                continue
            if not isinstance(left, exp.Column):
                left, right, op = right, left, _FLIP.get(op, op)
            value = _literal_number(right)
            if isinstance(left, exp.Column) and value is not None:
                bound = {">": Bound(low=value + 1e-9), ">=": Bound(low=value), "<": Bound(high=value - 1e-9),
                         "<=": Bound(high=value), "=": Bound(value, value)}.get(op)
                if bound is not None:
                    bounds[left.name] = _merge(bounds.get(left.name), bound)
    return bounds, tuple(relations)


def _merge(a: Bound | None, b: Bound) -> Bound:
    if a is None:
        return b
    low = b.low if a.low is None else (a.low if b.low is None else max(a.low, b.low))
    high = b.high if a.high is None else (a.high if b.high is None else min(a.high, b.high))
    return Bound(low, high, a.values or b.values)

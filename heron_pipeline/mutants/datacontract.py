"""Equivalences that rest on the generator's contract, not on SQL alone.

These hold on every state the generator can build, because the generator enforces them as a last
step (not as a statistical tendency of one seed):

- **null-unless-status** — a profile rule ``col: {null_unless: {status: [v…]}}`` makes the
  generator set ``col`` to NULL on every row whose ``status`` is not one of ``v…``
  (heron_pipeline/seeding/values.py ``_apply_conditional_nulls``, applied after every other value
  of the row). So wherever the same query also throws away rows with ``col`` NULL — a WHERE
  conjunct that rejects NULL, or an inner join equality on ``col`` — the surviving rows all have
  ``status`` in ``v…``, and a conjunct ``status = 'v'`` / ``status IN (…)`` that admits at least
  those values removes nothing.

The rules here read the profiles at run time, so a profile change moves the proof with it; a
state seeded from an older profile that breaks the contract shows up as a contradiction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from heron_pipeline.mutants.conditions import conjuncts
from heron_pipeline.mutants.nulls import column_target, rejects_null
from heron_pipeline.mutants.scope import tables_by_alias

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog
    from heron_pipeline.seeding.profiles import TableProfile

_PROFILES: dict[int, tuple["Catalog", dict[str, "TableProfile"]]] = {}


def profiles_for(catalog: "Catalog") -> dict[str, "TableProfile"]:
    """The generation profiles, loaded once per catalog object."""
    cached = _PROFILES.get(id(catalog))
    if cached is None or cached[0] is not catalog:
        import yaml

        from heron_pipeline.seeding.profiles import ProfileError, load_profiles

        try:
            profiles = load_profiles(catalog)
        except (ProfileError, OSError, ValueError, yaml.YAMLError):  # an unreadable profile proves nothing
            profiles = {}
        cached = (catalog, profiles)
        _PROFILES[id(catalog)] = cached
    return cached[1]


def _status_test(condition: exp.Expression) -> tuple[exp.Column, set[str]] | None:
    """``col = 'v'`` or ``col IN ('v', …)`` (string literals only): the column and the admitted values."""
    if isinstance(condition, exp.EQ):
        column, value = condition.this, condition.expression
        if isinstance(value, exp.Column) and isinstance(column, exp.Literal):
            column, value = value, column
        if isinstance(column, exp.Column) and isinstance(value, exp.Literal) and value.is_string:
            return column, {value.this}
        return None
    if isinstance(condition, exp.In) and isinstance(condition.this, exp.Column) and condition.expressions \
            and not condition.args.get("query"):
        values = condition.expressions
        if all(isinstance(v, exp.Literal) and v.is_string for v in values):
            return condition.this, {v.this for v in values}
    return None


def _rejected_in_select(select: exp.Select, holder_where: list[exp.Expression], removed: exp.Expression,
                        alias: str, column: str) -> bool:
    """Does the rest of ``select`` drop every row where ``alias.column`` is NULL?"""
    target = column_target(alias, column)
    if any(c is not removed and rejects_null(c, target) for c in holder_where):
        return True
    for join in select.args.get("joins") or []:
        if (join.side or "").upper() in ("", "INNER") and (join.kind or "").upper() in ("", "INNER") \
                and any(rejects_null(c, target) for c in conjuncts(join.args.get("on"))):
            return True
    return False


def null_unless_status(removed: list[exp.Expression], catalog: "Catalog") -> str | None:
    """The dropped WHERE conjunct is ``status = 'v'`` (or IN) and the rest of the query keeps only
    rows whose column ``col`` is set, where the profile says ``col`` is NULL unless status is in a
    subset of the admitted values."""
    if len(removed) != 1:
        return None
    condition = removed[0]
    test = _status_test(condition)
    if test is None:
        return None
    status, admitted = test
    where = condition.parent
    while isinstance(where, (exp.And, exp.Paren)):
        where = where.parent
    if not isinstance(where, exp.Where) or not isinstance(where.parent, exp.Select):
        return None
    select = where.parent
    if any((j.side or "").upper() in ("RIGHT", "FULL") for j in select.args.get("joins") or []):
        return None
    table = tables_by_alias(select).get(status.table) if status.table else None
    if table is None:
        return None
    profile = profiles_for(catalog).get(table)
    if profile is None:
        return None
    for column, rule in profile.columns.items():
        condition_rule: Any = rule.get("null_unless")
        if not isinstance(condition_rule, dict) or set(condition_rule) != {status.name}:
            continue
        allowed = {str(v) for v in condition_rule[status.name]}
        if allowed <= admitted and _rejected_in_select(select, conjuncts(where.this), condition,
                                                       status.table, column):
            return (f"null-unless-status: {table}.{column} is NULL unless {status.name} is in "
                    f"{sorted(allowed)} (generator contract, profile null_unless), and the query drops NULL "
                    f"{column}")
    return None

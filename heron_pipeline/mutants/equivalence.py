"""Mutants that cannot change the answer, and the contract that proves it.

A surviving mutant is either a real equivalent or a sign that the question or the data needs
work. Some kinds are equivalent by a rule we can state and check, so they are set aside with the
rule named (and still executed: a "proven equivalent" that some state kills is a bug here). SQL
rules hold on any data the DDL admits; contract rules hold on every state the generator builds.

Here (the others live in the helpers named):

- **id-implies-tenant / fk-implies-tenant** (contract) — dropping ``a.tenant_id = b.tenant_id``
  beside ``a.x = b.y`` where the catalog ties both sides to one parent row (``x`` is the parent's
  ``id`` and ``(tenant_id, y)`` an FK to it, or both are FKs to the same parent): ids are unique
  per table across tenants (docs/DECISIONS.md session 1, 5; kept on purpose by "trap liveness and
  the tenant design", issue 13) and composite FKs are tenant-safe. These mutants are why a question
  whose only tenant conditions sit beside such id equalities carries no ``tenant-isolation`` tag
  (audit rule ``trap-live``). Were ids ever numbered per tenant, both rules would have to go and
  their mutants would count (benchmarks/tenant_ids_emulation.py measures what they would do).
- **null-rejected / fk-parent** (SQL) — an inner join turned LEFT where the outer WHERE or a later
  inner join rejects NULL in a column of the joined table (:mod:`.nulls`), or where the join
  follows a NOT NULL foreign key to its parent's primary key with nothing else in ON (also through
  CTEs that pass the key columns through bare, as GROUP BY keys or by ``x.*``).
- **having-singleton** (SQL, :mod:`.keys`) — the same, last join, where HAVING count(*) >= k ≥ 2
  drops the lone NULL-extended row of each group.
- **count-distinct-unique** (SQL, :mod:`.keys`) — DISTINCT dropped where keys make it a no-op;
  **count-not-null** (SQL, :mod:`.keys`) — ``COUNT(x.c)`` → ``COUNT(*)`` where ``x.c`` is never NULL.
- **not-null-implied** (SQL, :mod:`.passthrough`), **series-spine** (SQL, :mod:`.spine`),
  **null-group-dropped** (SQL, :mod:`.nullgroups`).
- **fx-complete** (contract) — an inner join to ``tenancy.exchange_rates`` turned LEFT: the table
  holds a rate for every currency on every calendar day of the window, so no row loses its match.
- **window-end** (contract) — dropping an upper bound at or after the end of the as-of date
  (``col < DATE '2026-07-01'``) on a column the generator keeps at or before the as-of time (every
  time column but expiry/due/planned dates and a few late events: ``seeding.values.may_pass_as_of``),
  so the bound only states the question's window. **window-start** (:mod:`.window`) is its mirror.
- **anchor-never-deleted** (contract) — dropping ``deleted_at IS NULL`` on ``tenancy.tenants`` where
  the same WHERE selects anchor tenants by name: anchors are live in every seed (docs/DATA.md).
- **null-unless-status** (contract, :mod:`.datacontract`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from sqlglot import exp

from heron_pipeline.mutants.conditions import conjuncts
from heron_pipeline.mutants.datacontract import null_unless_status
from heron_pipeline.mutants.keys import count_not_null, distinct_is_unique, having_singleton
from heron_pipeline.mutants.nullgroups import null_group_dropped
from heron_pipeline.mutants.nulls import column_target, rejects_null
from heron_pipeline.mutants.passthrough import redundant_not_null
from heron_pipeline.mutants.scope import tables_by_alias
from heron_pipeline.mutants.spine import spine_bound
from heron_pipeline.mutants.window import window_end, window_start
from heron_pipeline.seeding.special import ANCHOR_TENANTS

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Catalog

_ANCHOR_NAMES = {anchor[0] for anchor in ANCHOR_TENANTS}


def _aliases(node: exp.Expression) -> set[str]:
    return {column.table for column in node.find_all(exp.Column) if column.table}


def _holderconjuncts(node: exp.Expression) -> list[exp.Expression]:
    """All conjuncts of the ON or WHERE the node is a conjunct of."""
    holder = node.parent
    while holder is not None and isinstance(holder, (exp.And, exp.Paren)):
        holder = holder.parent
    if isinstance(holder, exp.Where):
        return conjuncts(holder.this)
    if isinstance(holder, exp.Join):
        return conjuncts(holder.args.get("on"))
    return []


def _tenant_implied(removed: list[exp.Expression], catalog: "Catalog") -> str | None:
    """Dropping ``a.tenant_id = b.tenant_id`` is a no-op when the same ON/WHERE equates ``a.x = b.y``
    and the catalog ties both to one parent row: ``x`` is the parent's ``id`` and ``(tenant_id, y)``
    a foreign key to it (id-implies-tenant), or both ``(tenant_id, x)`` and ``(tenant_id, y)`` are
    foreign keys to the same parent (fk-implies-tenant). Ids are unique per table across tenants
    (DECISIONS 5), so equal ids name one parent row, and a composite tenant-safe FK puts its row in
    that parent's tenant. Aliases of CTEs (and outer aliases of a correlated subquery) are followed
    to their base table when they pass the columns through unchanged."""
    names = set()
    for conjunct in removed:
        aliases = _aliases(conjunct)
        sides = (conjunct.this, conjunct.expression) if isinstance(conjunct, exp.EQ) else ()
        if len(aliases) != 2 or not sides or not all(isinstance(side, exp.Column) and side.name == "tenant_id"
                                                     for side in sides):
            return None
        others = [c for c in _holderconjuncts(conjunct) if c is not conjunct and c not in removed]
        name = next((n for n in (_same_row_link(c, aliases, conjunct, catalog) for c in others) if n), None)
        if name is None:
            return None
        names.add(name)
    if names == {"id-implies-tenant"}:
        return "id-implies-tenant: ids are unique per table across tenants (DECISIONS 5)"
    return ("fk-implies-tenant: both columns are tenant-safe FKs to one parent with globally unique ids "
            "(DECISIONS 5)")


def _resolve(node: exp.Expression, alias: str, columns: list[str]) -> tuple[str, dict[str, str]] | None:
    """The base table and columns behind ``alias`` as seen from ``node`` (its SELECT, or an
    enclosing one for a correlated reference)."""
    select = node.find_ancestor(exp.Select)
    while select is not None:
        in_scope = any(t.find_ancestor(exp.Select) is select and t.alias_or_name == alias
                       for t in select.find_all(exp.Table))
        if in_scope:
            return _base_columns(select, alias, columns, depth=0)
        select = select.find_ancestor(exp.Select)
    return None


def _same_row_link(condition: exp.Expression, aliases: set[str], tenant: exp.Expression,
                   catalog: "Catalog") -> str | None:
    if not (isinstance(condition, exp.EQ) and isinstance(condition.this, exp.Column)
            and isinstance(condition.expression, exp.Column)):
        return None
    sides = (condition.this, condition.expression)
    if {side.table for side in sides} != aliases:
        return None
    resolved = []
    for side in sides:
        found = _resolve(tenant, side.table, ["tenant_id", side.name])
        if found is None or found[0] not in catalog.tables or found[1]["tenant_id"] != "tenant_id":
            return None
        resolved.append((catalog.tables[found[0]], found[1][side.name]))
    targets = []
    for table, column in resolved:
        fk = next((fk for fk in table.foreign_keys if fk.columns == ("tenant_id", column)
                   and fk.ref_columns == ("tenant_id", "id")), None)
        targets.append((fk.ref_table, "fk") if fk else (table.qualified, "id") if column == "id" else None)
    if None in targets or targets[0][0] != targets[1][0]:
        return None
    return "fk-implies-tenant" if targets[0][1] == targets[1][1] == "fk" else "id-implies-tenant"


def _is_column_of(node: exp.Expression, alias: str) -> bool:
    return isinstance(node, exp.Column) and node.table == alias


def _null_rejects(condition: exp.Expression, alias: str) -> bool:
    """True when a conjunct filters out every row whose columns of ``alias`` are all NULL."""
    return rejects_null(condition, column_target(alias))


def _left_join_equivalent(join: exp.Join, catalog: "Catalog") -> str | None:
    select = join.parent
    if not isinstance(select, exp.Select):
        return None
    alias = join.this.alias_or_name if isinstance(join.this, exp.Table) else None
    if alias is None:
        return None
    where = select.args.get("where")
    if any(_null_rejects(c, alias) for c in conjuncts(where.this if where else None)):
        return "null-rejected: the WHERE compares a column of the joined table"
    joins = select.args.get("joins") or []
    later = joins[joins.index(join) + 1:] if join in joins else []
    for other in later:
        if (other.side or "").upper() in ("", "INNER") and any(
                _null_rejects(c, alias) for c in conjuncts(other.args.get("on"))):
            return "null-rejected: a later inner join compares a column of the joined table"
    return (_fk_parent(join, alias, select, catalog) or having_singleton(join, catalog)
            or null_group_dropped(join, catalog))


def _fk_parent(join: exp.Join, alias: str, select: exp.Select, catalog: "Catalog") -> str | None:
    tables = tables_by_alias(select)
    parent_name = tables.get(alias)
    if parent_name == "tenancy.exchange_rates":
        return "fx-complete: exchange_rates has every currency on every day of the window"
    if parent_name is None or parent_name not in catalog.tables:
        return None
    pairs: dict[str, tuple[str, str]] = {}  # parent column -> (child alias, child column)
    for conjunct in conjuncts(join.args.get("on")):
        if not (isinstance(conjunct, exp.EQ) and isinstance(conjunct.this, exp.Column)
                and isinstance(conjunct.expression, exp.Column)):
            return None
        a, b = conjunct.this, conjunct.expression
        if a.table == alias and b.table != alias:
            pairs[a.name] = (b.table, b.name)
        elif b.table == alias and a.table != alias:
            pairs[b.name] = (a.table, a.name)
        else:
            return None
    children = {child for child, _ in pairs.values()}
    if len(children) != 1:
        return None
    child_alias = children.pop()
    resolved = _base_columns(select, child_alias, [column for _, column in pairs.values()], depth=0)
    if resolved is None:
        return None
    child_name, base = resolved
    if child_name not in catalog.tables:
        return None
    pairs = {p: (child_alias, base[c]) for p, (_, c) in pairs.items()}
    parent, child = catalog.tables[parent_name], catalog.tables[child_name]
    if set(pairs) != set(parent.primary_key):
        return None
    for fk in child.foreign_keys:
        if fk.ref_table != parent_name:
            continue
        mapping = dict(zip(fk.ref_columns, fk.columns))
        if all(mapping.get(p) == c for p, (_, c) in pairs.items()) and \
                not any(child.column(column).nullable for column in fk.columns):
            return f"fk-parent: {fk.name} is NOT NULL, so every row has its parent"
    return None


def _base_columns(select: exp.Select, alias: str, columns: list[str], *, depth: int) -> tuple[str, dict[str, str]] | None:
    """The base table behind ``alias`` in ``select`` and, for each column, its column there.

    A base table maps columns to themselves. A CTE is followed through its SELECT list when every
    column is passed through bare from one table that no outer join can NULL-extend (and, under a
    GROUP BY, is a grouping key), so the CTE's rows carry the base table's NOT NULL values.
    """
    tables = tables_by_alias(select)
    if alias in tables:
        return tables[alias], {c: c for c in columns}
    if depth > 4:
        return None
    reference = next((t for t in select.find_all(exp.Table)
                      if t.find_ancestor(exp.Select) is select and t.alias_or_name == alias and not t.db), None)
    if reference is None:
        return None
    cte = next((c for c in select.root().find_all(exp.CTE) if c.alias == reference.name), None)
    inner = cte.this if cte is not None else None
    if not isinstance(inner, exp.Select):
        return None
    joins = inner.args.get("joins") or []
    if any((j.side or "").upper() in ("RIGHT", "FULL") for j in joins):
        return None
    outer_joined = {j.this.alias_or_name for j in joins if (j.side or "").upper() == "LEFT"}
    group = inner.args.get("group")
    keys = {k.sql() for k in group.expressions} if group is not None else None
    projections = {p.alias_or_name: p for p in inner.expressions}
    sources: set[str] = set()
    names: dict[str, str] = {}
    stars = [p.table for p in inner.expressions if isinstance(p, exp.Column) and isinstance(p.this, exp.Star)]
    for column in columns:
        projection = projections.get(column)
        if projection is None and len(stars) == 1 and keys is None:
            projection = exp.column(column, table=stars[0])  # ``x.*`` passes x's columns through by name
        source = projection.this if isinstance(projection, exp.Alias) else projection
        if not isinstance(source, exp.Column) or not source.table or source.table in outer_joined:
            return None
        if keys is not None and source.sql() not in keys:
            return None
        sources.add(source.table)
        names[column] = source.name
    if len(sources) != 1:
        return None
    resolved = _base_columns(inner, sources.pop(), list(names.values()), depth=depth + 1)
    if resolved is None:
        return None
    table, base = resolved
    return table, {column: base[name] for column, name in names.items()}


def _anchor_never_deleted(removed: list[exp.Expression]) -> str | None:
    for conjunct in removed:
        if not (isinstance(conjunct, exp.Is) and not conjunct.args.get("negate")
                and isinstance(conjunct.this, exp.Column) and conjunct.this.name == "deleted_at"):
            return None
        alias = conjunct.this.table
        select = conjunct.find_ancestor(exp.Select)
        if select is None or tables_by_alias(select).get(alias) != "tenancy.tenants":
            return None
        if not any(_selects_anchor(c, alias) for c in _holderconjuncts(conjunct)):
            return None
    return "anchor-never-deleted: anchor tenants are live in every seed (docs/DATA.md)"


def _selects_anchor(condition: exp.Expression, alias: str) -> bool:
    column = condition.this if isinstance(condition, (exp.EQ, exp.In)) else None
    if not (isinstance(column, exp.Column) and column.table == alias and column.name == "name"):
        return False
    values = [condition.expression] if isinstance(condition, exp.EQ) else condition.expressions
    return bool(values) and all(isinstance(v, exp.Literal) and v.this in _ANCHOR_NAMES for v in values)


# -- the rules, tried in order ----------------------------------------------------------------------


class Rule(NamedTuple):
    """One way a mutant of ``operator`` can be proven equivalent: when ``applies(subject)``,
    ``reason(subject, catalog)`` is the stated rule, or None when it does not hold here."""

    operator: str
    applies: Callable[[Any], bool]
    reason: Callable[[Any, "Catalog"], str | None]


def _removed(subject: Any) -> bool:
    return bool(subject)  # the conjuncts a drop-* operator removed


def _join(subject: Any) -> bool:
    return isinstance(subject, exp.Join)


def _count_distinct(subject: Any) -> bool:
    return isinstance(subject, exp.Count) and isinstance(subject.this, exp.Distinct)


def _count_column(subject: Any) -> bool:
    return isinstance(subject, exp.Count) and not isinstance(subject.this, exp.Distinct)


#: Every rule, in the order they are tried; a mutant's reason is the first that holds. The rules
#: live in the modules named in this module's docstring; none of them imports this table or the
#: generator above it.
RULES: tuple[Rule, ...] = (
    Rule("drop-tenant-filter", _removed, _tenant_implied),
    Rule("join-side", _join, _left_join_equivalent),
    Rule("drop-soft-delete-filter", _removed, lambda removed, _catalog: _anchor_never_deleted(removed)),
    Rule("drop-where-conjunct", _removed, lambda removed, _catalog: _anchor_never_deleted(removed)),
    Rule("drop-where-conjunct", _removed, lambda removed, _catalog: window_end(removed)),
    Rule("drop-where-conjunct", _removed, window_start),
    Rule("drop-where-conjunct", _removed, null_unless_status),
    Rule("drop-where-conjunct", _removed, redundant_not_null),
    Rule("drop-where-conjunct", _removed, lambda removed, _catalog: spine_bound(removed)),
    Rule("swap-aggregate", _count_distinct, distinct_is_unique),
    Rule("swap-aggregate", _count_column, count_not_null),
)


def equivalence_reason(operator: str, subject: object, catalog: "Catalog") -> str | None:
    """Why the mutant ``operator`` made of ``subject`` returns the gold's answer on every state (the
    first rule of ``RULES`` that holds), or None: then it counts like any mutant."""
    for rule in RULES:
        if rule.operator == operator and rule.applies(subject):
            reason = rule.reason(subject, catalog)
            if reason:
                return reason
    return None

"""Issue 33, measured: does hedging through extra columns pay, what do honest variants get, and is
the comparator bounded?

1. **Hedges.** Every near-miss mutant of every gold (``heron_pipeline.mutants``, the audit's
   generator; empty probes left out as ``heron audit --mutants`` leaves them out) is run on every
   state; a mutant that executes everywhere, is not set aside as equivalent and is wrong on some
   state (*killed*, by the comparator, as the audit counts it) is zipped with the gold reading
   exactly as the issue describes::

       SELECT * FROM (SELECT row_number() OVER () rn_a, a.* FROM (<mutant>) a) x
       FULL JOIN (SELECT row_number() OVER () rn_b, b.* FROM (<gold>) b) y ON rn_a = rn_b
       ORDER BY coalesce(rn_b, rn_a)

   and the zip is scored against the gold on every state, under the old rule (the comparator at
   ``--old-ref`` with ``extra_columns=True``, natural mode before issue 33) and the new one (this
   checkout's ``compare``: exactly the gold's columns). A hedge *passes* when it is correct on every
   state (multi-state EX).
2. **Honest variants**, the cost side, old rule and new: the gold's columns permuted (every question,
   rows as the database returned them, columns rotated); an identifying key column beside them
   (``key_beside``: a primary key put first, and into the GROUP BY of a grouped query); a name column
   for an id (``name_for_id``: a projected primary or foreign key replaced by the identified row's
   ``name``/``title``/``label``). Only outermost SELECTs without DISTINCT or set operations qualify.
3. **Comparator bounds** (no database): 1,600 decoy columns (shuffled copies of gold float
   columns, 20 rows, 3 gold columns) decided in under a second; a same-width adversarial case (many
   columns of identical signatures whose every pair agrees, rows not) ends in the named
   ``comparator-budget`` verdict, with its time.

Run: .venv/bin/python benchmarks/attack_hedges.py [--scale tiny] [--seeds 42,43,44] [--sample N]
     [--old-ref e2d959f] [--skip-db]
(the states must exist on heron's configured server: ``heron seed``; ``heron db up``).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from comparator_before import load_compare  # noqa: E402

from heron_pipeline.scoring.comparator import BUDGET, compare, verdict  # noqa: E402

#: The last commit whose comparator had the natural-mode ``extra_columns`` rule.
OLD_REF = "e2d959f"

ZIP = ("SELECT * FROM (SELECT row_number() OVER () rn_a, a.* FROM ({mutant}) a) x "
       "FULL JOIN (SELECT row_number() OVER () rn_b, b.* FROM ({gold}) b) y ON rn_a = rn_b "
       "ORDER BY coalesce(rn_b, rn_a)")
LABELS = ("name", "title", "label")


def _bare(sql: str) -> str:
    return sql.strip().rstrip(";").strip()


def zipped(mutant_sql: str, gold_sql: str) -> str:
    return ZIP.format(mutant=_bare(mutant_sql), gold=_bare(gold_sql))


def _plain_outer_select(sql: str, grouped: bool = False):
    """The outermost SELECT of ``sql`` when it is a plain projection, or with ``grouped`` a GROUP BY
    (None otherwise: DISTINCT, a set operation, aggregates without GROUP BY)."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(_bare(sql), read="postgres")
    if not isinstance(tree, exp.Select) or tree.args.get("distinct"):
        return None
    if tree.args.get("group"):
        return tree if grouped else None
    if any(p.find(exp.AggFunc) is not None for p in tree.expressions):
        return None
    return tree


def _outer_tables(tree) -> list:
    """(alias or name, qualified name) of the tables in the outermost FROM and JOINs, in order."""
    from sqlglot import exp

    out = []
    for source in [tree.args.get("from")] + list(tree.args.get("joins") or []):
        table = source.this if source is not None else None
        if isinstance(table, exp.Table) and table.db:
            out.append((table.alias_or_name, f"{table.db}.{table.name}".lower()))
    return out


def key_beside(sql: str, catalog) -> str | None:
    """``sql`` with an identifying key put before its columns: a plain projection gets its first
    table's primary key; a grouped one the primary key of the table of its first GROUP BY column,
    added to the GROUP BY too (``id, name, count(*) ... GROUP BY id, name``)."""
    from sqlglot import exp

    tree = _plain_outer_select(sql, grouped=True)
    if tree is None:
        return None
    tables = dict(_outer_tables(tree))
    group = tree.args.get("group")
    if group is None:
        alias = next(iter(tables), None)
    else:
        alias = next((e.table for e in group.expressions if isinstance(e, exp.Column) and e.table in tables), None)
    if alias is None or tables[alias] not in catalog.tables:
        return None
    key = catalog.tables[tables[alias]].primary_key
    if len(key) != 1:
        return None
    column = exp.column(key[0], table=alias)
    if group is not None:
        if any(isinstance(e, exp.Column) and e.table == alias and e.name == key[0] for e in group.expressions):
            return None  # the key is grouped already: most likely projected too
        group.set("expressions", list(group.expressions) + [column.copy()])
    tree.set("expressions", [exp.alias_(column, "heron_key")] + list(tree.expressions))
    return tree.sql(dialect="postgres")


def name_for_id(sql: str, catalog) -> str | None:
    """``sql`` with the first id of its outermost projection (a table's primary key, or a foreign key
    column) replaced by the name of the row it identifies (the table's ``name``/``title``/``label``,
    through a scalar subquery for a foreign key)."""
    from sqlglot import exp

    tree = _plain_outer_select(sql, grouped=True)
    if tree is None:
        return None
    by_alias = dict(_outer_tables(tree))
    for i, item in enumerate(tree.expressions):
        column = item.this if isinstance(item, exp.Alias) else item
        if not isinstance(column, exp.Column) or column.table not in by_alias:
            continue
        table = catalog.tables.get(by_alias[column.table])
        if table is None:
            continue
        if table.primary_key == (column.name,):
            label = next((c for c in LABELS if table.has_column(c)), None)
            replacement = exp.column(label, table=column.table) if label else None
        else:
            fk = table.foreign_key_of(column.name)
            target = catalog.tables.get(fk.ref_table) if fk is not None and len(fk.ref_columns) >= 1 else None
            label = next((c for c in LABELS if target is not None and target.has_column(c)), None)
            replacement = None
            if label is not None:
                ref = fk.ref_columns[list(fk.columns).index(column.name)]
                replacement = exp.Subquery(this=sqlglot_select(
                    f"SELECT heron_t.{label} FROM {fk.ref_table} heron_t WHERE heron_t.{ref} = "
                    f"{column.sql(dialect='postgres')}"))
        if replacement is None:
            continue
        items = list(tree.expressions)
        items[i] = exp.alias_(replacement, item.alias_or_name)
        tree.set("expressions", items)
        return tree.sql(dialect="postgres")
    return None


def sqlglot_select(sql: str):
    import sqlglot

    return sqlglot.parse_one(sql, read="postgres")


def _rate(part: int, whole: int) -> str:
    return f"{part:,}/{whole:,} = {100 * part / whole:.1f} %" if whole else f"{part}/0"


def measure_states(args) -> None:
    from heron_pipeline.catalog.ddl import load_catalog
    from heron_pipeline.config import load_settings
    from heron_pipeline.database.names import benchmark_database
    from heron_pipeline.database.server import Server
    from heron_pipeline.mutants.run import database_executor
    from heron_pipeline.questions import QUESTIONS_DIR, load_questions

    old_compare = load_compare(args.old_ref)
    catalog = load_catalog()
    questions = load_questions(QUESTIONS_DIR)
    if args.sample:
        questions = sorted(random.Random(args.sample_seed).sample(questions, min(args.sample, len(questions))),
                           key=lambda q: q.id)
    seeds = [int(s) for s in args.seeds.split(",")]
    server = Server(load_settings())
    server.up()
    labels = [benchmark_database(args.scale, s) for s in seeds]
    with contextlib.ExitStack() as stack:
        execute = database_executor({label: stack.enter_context(server.connect(label)) for label in labels})
        _measure(args, questions, labels, execute, catalog, old_compare)


def _measure(args, questions, labels, execute, catalog, old_compare) -> None:
    from heron_pipeline.mutants import evaluate


    def run_all(sql: str) -> dict[str, list[tuple]] | None:
        try:
            return {label: list(execute(label, sql)) for label in labels}
        except Exception as err:  # noqa: BLE001 - a variant that does not run is counted apart
            if args.verbose:
                print(f"  did not run: {' '.join(str(err).split())[:160]}")
            return None

    started = time.perf_counter()
    gold = {}
    for q in questions:
        gold[q.id] = run_all(q.gold_sql)
    # 1. hedges
    killed = hedged_old = hedged_new = zip_failed = 0
    by_question: Counter = Counter()
    passing_old: list[str] = []
    for q in questions:
        if q.empty_probe or gold[q.id] is None:
            continue
        for outcome in evaluate(q.id, q.gold_sql, gold[q.id], execute, primary=labels[0], catalog=catalog):
            if not (outcome.executed and outcome.mutant.equivalent is None and outcome.killed_multi):
                continue
            killed += 1
            by_question[q.id] += 1
            rows = run_all(zipped(outcome.mutant.sql, q.gold_sql))
            if rows is None:
                zip_failed += 1
                continue
            if all(old_compare(q.gold_sql, gold[q.id][s], rows[s], extra_columns=True) for s in labels):
                hedged_old += 1
                passing_old.append(f"{q.id}:{outcome.mutant.operator}")
            if all(compare(q.gold_sql, gold[q.id][s], rows[s]) for s in labels):
                hedged_new += 1
    hedge_s = time.perf_counter() - started
    print(f"hedges at {args.scale} {args.seeds} ({len(questions)} questions"
          f"{f', a sample of {args.sample} (seed {args.sample_seed})' if args.sample else ''}): "
          f"{killed:,} killed near-miss mutants on {len(by_question)} questions, {zip_failed} zips failed to run")
    print(f"  zipped with the gold reading, correct on every state: old rule {_rate(hedged_old, killed)}, "
          f"new rule {_rate(hedged_new, killed)}  ({hedge_s:.0f} s)")

    # 2. honest variants
    permuted = permuted_old = permuted_new = 0
    # per honest variant ("key": a key column beside gold's, "name": a name for an id): questions, failed, old, new
    variants = {kind: {"n": 0, "failed": 0, "old": 0, "new": 0} for kind in ("key", "name")}
    for q in questions:
        g = gold[q.id]
        if g is None:
            continue
        width = next((len(r[0]) for r in g.values() if r), 0)
        if width >= 2:
            permuted += 1
            rotated = {s: [r[1:] + r[:1] for r in rows] for s, rows in g.items()}
            permuted_old += all(old_compare(q.gold_sql, g[s], rotated[s], extra_columns=True) for s in labels)
            permuted_new += all(compare(q.gold_sql, g[s], rotated[s]) for s in labels)
        for sql, kind in ((key_beside(q.gold_sql, catalog), "key"), (name_for_id(q.gold_sql, catalog), "name")):
            if sql is None:
                continue
            rows, tally = run_all(sql), variants[kind]
            tally["n"] += 1
            if rows is None:
                tally["failed"] += 1
                continue
            tally["old"] += all(old_compare(q.gold_sql, g[s], rows[s], extra_columns=True) for s in labels)
            tally["new"] += all(compare(q.gold_sql, g[s], rows[s]) for s in labels)
    keyed, named = variants["key"], variants["name"]
    print("honest variants, accepted on every state (old rule -> new rule):")
    print(f"  gold's columns permuted (questions of >= 2 columns): {_rate(permuted_old, permuted)} -> "
          f"{_rate(permuted_new, permuted)}")
    print(f"  a primary key column beside gold's columns ({keyed['n']} questions qualify, "
          f"{keyed['failed']} failed to run): {_rate(keyed['old'], keyed['n'])} -> {_rate(keyed['new'], keyed['n'])}")
    print(f"  a name column for an id ({named['n']} questions, {named['failed']} failed to run): "
          f"{_rate(named['old'], named['n'])} -> {_rate(named['new'], named['n'])}")
    print(f"(states and variants took {time.perf_counter() - started:.0f} s)")


def decoys(n_decoys: int = 1600, rows: int = 20, seed: int = 7) -> tuple[list[tuple], list[tuple]]:
    """A 3-column gold (int, float, float) and a prediction with ``n_decoys`` shuffled copies of its
    float columns before the gold's own (so a column search meets the decoys first)."""
    rng = random.Random(seed)
    gold = [(i, rng.random() * 100, rng.random() * 1000) for i in range(rows)]
    columns = list(zip(*gold))
    extra = []
    for d in range(n_decoys):
        col = list(columns[1 + d % 2])
        rng.shuffle(col)
        extra.append(col)
    pred = [tuple(col[i] for col in extra) + tuple(row) for i, row in enumerate(gold)]
    return gold, pred


def budget_case(bits: int = 9) -> tuple[list[tuple], list[tuple]]:
    """Same width, every column the same multiset and every pair of columns the same joint multiset,
    the rows not: gold's columns are ``bits`` independent bits of the row number (every vector once),
    the prediction's are the first ``bits - 1`` of them and their parity. Every one of the ``bits!``
    column mappings passes the signature and pair checks; none matches."""
    gold = [tuple((x >> b) & 1 for b in range(bits)) for x in range(1 << bits)]
    pred = [r[:-1] + (sum(r[:-1]) % 2,) for r in gold]
    return gold, pred


def measure_bounds(args) -> None:
    gold, pred = decoys(args.decoys)
    started = time.perf_counter()
    ok = compare("SELECT 1", gold, pred)
    took = time.perf_counter() - started
    print(f"decoys: {args.decoys:,} decoy columns before a 20-row, 3-column gold's: correct={ok}, "
          f"{took * 1000:.2f} ms")
    if args.old_decoys:
        old_compare = load_compare(args.old_ref)
        small_gold, small_pred = decoys(args.old_decoys)
        started = time.perf_counter()
        old_ok = old_compare("SELECT 1", small_gold, small_pred, extra_columns=True)
        print(f"  old rule at {args.old_ref}, {args.old_decoys} decoys: correct={old_ok}, "
              f"{time.perf_counter() - started:.1f} s")
    for bits in args.budget_bits:
        gold, pred = budget_case(bits)
        started = time.perf_counter()
        outcome = verdict("SELECT 1", gold, pred)
        took = time.perf_counter() - started
        print(f"budget: {bits} columns of identical signatures, {len(gold)} rows: verdict {outcome!r}"
              f"{' (named, counted wrong)' if outcome == BUDGET else ''}, {took:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="tiny")
    parser.add_argument("--seeds", default="42,43,44")
    parser.add_argument("--sample", type=int, default=0, help="questions to sample (0: every question)")
    parser.add_argument("--sample-seed", type=int, default=1)
    parser.add_argument("--old-ref", default=OLD_REF, help="git ref of the comparator with the extra_columns rule")
    parser.add_argument("--skip-db", action="store_true", help="only the comparator bounds (no database)")
    parser.add_argument("--decoys", type=int, default=1600)
    parser.add_argument("--old-decoys", type=int, default=0,
                        help="also time the old rule on this many decoys (120: about 20 s on the issue's machine)")
    parser.add_argument("--budget-bits", type=int, nargs="*", default=[8, 10])
    parser.add_argument("--verbose", action="store_true", help="print every variant that failed to run")
    args = parser.parse_args()
    measure_bounds(args)
    if not args.skip_db:
        measure_states(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The current comparator against the one at a git ref, on random result pairs: same verdicts?

Each case is a gold result and a prediction derived from it (rows shuffled, columns permuted,
a cell changed or retyped, a row duplicated or dropped, numbers nudged inside and outside the
tolerance, extra columns, hash-colliding ints), under an unordered, an ordered-by-a-tied-key and
a positional ORDER BY query. Both sides are called with the one width rule (exactly the gold's
columns: ``extra_columns`` is gone, issue 33); a ref older than that is called without it, which was
its strict rule. Sizes run from empty to a few
thousand rows, so the typed views, their chunking and the collision settling are all reached.
Exits non-zero on the first disagreement, printing the case.

Run: .venv/bin/python benchmarks/comparator_verdicts.py [--ref main] [--cases 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from comparator_before import load_compare  # noqa: E402

from heron_pipeline.scoring.comparator import compare  # noqa: E402

P = (1 << 61) - 1
QUERIES = ("SELECT a, b, c FROM t", "SELECT a, b, c FROM t ORDER BY 1", "SELECT a, b, c FROM t ORDER BY 1, 2, 3, 4, 5")
KINDS = ("int", "bigint", "bool", "float", "decimal", "str", "date", "datetime", "mixed_num", "nested", "int_null")


def value(rng: random.Random, kind: str, small: bool) -> object:
    """One cell of a column of ``kind``; ``small`` draws from few values so rows tie and repeat."""
    span = 4 if small else 10**6
    if rng.random() < 0.08:
        return None
    if kind == "int":
        return rng.choice([rng.randint(-span, span), rng.randint(0, 1), 2**63 - 1, -(2**63), -1, -2])
    if kind == "bigint":
        return rng.choice([2**63 + rng.randint(0, span), rng.randint(0, span) + P, rng.randint(0, span)])
    if kind == "int_null":
        return rng.randint(0, span)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "float":
        return rng.choice([rng.randint(-span, span) / 7, float("nan"), math.inf, -0.0, 0.1, 1e300,
                           float(rng.randint(0, span))])
    if kind == "decimal":
        return rng.choice([Decimal(rng.randint(-span, span)) / 100, Decimal("1.10"), Decimal("1.1"),
                           Decimal("NaN"), Decimal(rng.randint(0, span)), Decimal("1E+2")])
    if kind == "str":
        return rng.choice([f"s{rng.randint(0, span)}", "", "a\x00", "\ud800", "é", "1"])
    if kind == "date":
        return dt.date(2020, 1, 1) + dt.timedelta(days=rng.randint(0, span % 3000 + 3))
    if kind == "datetime":
        return dt.datetime(2020, 1, 1) + dt.timedelta(seconds=rng.randint(0, span))
    if kind == "mixed_num":
        return rng.choice([rng.randint(0, span), float(rng.randint(0, span)), Decimal(rng.randint(0, span)),
                           rng.randint(0, span) / 3])
    return rng.choice([[rng.randint(0, span), "x"], {"k": rng.randint(0, span)}, [1.5, None], []])


def retyped(rng: random.Random, v: object) -> object:
    """An equal-looking value of another type, or a slightly different number."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return rng.choice([float(v), Decimal(v), v + P, v + 1, bool(v % 2)])
    if isinstance(v, float):
        return rng.choice([v * (1 + 1e-12), v + 1e-3, Decimal(repr(v)) if math.isfinite(v) else v, v])
    if isinstance(v, Decimal):
        return rng.choice([float(v) if v.is_finite() else v, v + Decimal("0.01"), v.normalize() if v.is_finite() else v])
    if isinstance(v, str):
        return v + rng.choice(["", " ", "\x00"])
    if isinstance(v, dt.datetime):
        return v.date()
    if isinstance(v, dt.date):
        return dt.datetime(v.year, v.month, v.day)
    return None if v is not None else 0


def case(rng: random.Random) -> tuple[str, list[tuple], list[tuple], bool]:
    n = rng.choice([0, 1, 2, 3, 5, 8, 30, 70, rng.randint(100, 3000)])
    width = rng.randint(1, 5)
    small = rng.random() < 0.5
    kinds = [rng.choice(KINDS) for _ in range(width)]
    gold = [tuple(value(rng, k, small) for k in kinds) for _ in range(n)]
    pred = [list(r) for r in gold]
    for _ in range(rng.choice([0, 0, 1, 2])):
        action = rng.randrange(6)
        if action == 0 and pred:
            i, j = rng.randrange(len(pred)), rng.randrange(width)
            pred[i][j] = retyped(rng, pred[i][j])
        elif action == 1 and pred:
            pred.append(list(pred[rng.randrange(len(pred))]))
        elif action == 2 and pred:
            pred.pop(rng.randrange(len(pred)))
        elif action == 3 and pred:
            j = rng.randrange(width)
            for row in pred:
                row[j] = retyped(rng, row[j])
        elif action == 4 and pred:
            i, j = rng.randrange(len(pred)), rng.randrange(width)
            pred[i][j] = value(rng, kinds[j], small)
        elif action == 5 and len(pred) > 1:
            i, k = rng.randrange(len(pred)), rng.randrange(len(pred))
            pred[i], pred[k] = pred[k], pred[i]
    query = rng.choice(QUERIES)
    if rng.random() < 0.7:
        rng.shuffle(pred)
    elif rng.random() < 0.5:  # reverse runs of equal first values: still ordered by column 1
        pred.sort(key=lambda r: (str(type(r[0])), str(r[0])))
    order = list(range(width))
    if rng.random() < 0.6:
        rng.shuffle(order)
    extra = rng.random() < 0.25
    rows = [tuple(r[j] for j in order) for r in pred]
    if extra and width:
        rows = [r + (value(rng, rng.choice(KINDS), small),) for r in rows]
        if rng.random() < 0.5 and rows:  # a decoy: a gold column's values in other rows
            decoy = [r[0] for r in rows]
            rng.shuffle(decoy)
            rows = [(d,) + r for d, r in zip(decoy, rows)]
    return query, gold, rows, extra


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="main", help="git ref of the comparator to compare with")
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    before = load_compare(args.ref)
    rng = random.Random(args.seed)
    started, verdicts = time.perf_counter(), {True: 0, False: 0}
    for number in range(args.cases):
        query, gold, pred, extra = case(rng)
        old, new = before(query, gold, pred), compare(query, gold, pred)
        if old != new:
            print(f"case {number}: {args.ref} says {old}, this checkout says {new}\n"
                  f"query={query!r} extra columns={extra}\ngold={gold!r}\npred={pred!r}")
            raise SystemExit(1)
        verdicts[new] += 1
    print(f"{args.cases:,} cases (seed {args.seed}): identical verdicts against {args.ref} "
          f"({verdicts[True]:,} equal, {verdicts[False]:,} not), {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

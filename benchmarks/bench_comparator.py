"""Time the result comparator on a large result pair, next to a naive baseline.

The baseline is what an exact, order-blind, column-order-sensitive comparator
costs: `Counter(gold) == Counter(pred)` over the raw tuples.  Both are timed in
the same process on the same data so the ratio is meaningful across machines.

A prediction with two more columns (one a decoy with a gold column's values in another row
order) is timed too: since 2026-12-05 one width rule holds in both question modes, so it is
rejected before any column is read (METHODOLOGY §15).

With ``--before REF`` the comparator at git ``REF`` (loaded by ``comparator_before.py``) is timed
on the same pair in the same process, runs interleaved with the current one, so a speed change
is a same-run ratio too.

Run: .venv/bin/python benchmarks/bench_comparator.py [rows] [--before main] [--repeats 3]
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import random
import sys
import time
from collections import Counter
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from heron_pipeline.scoring.comparator import compare  # noqa: E402

UNORDERED_SQL = "SELECT id, amount, label, day, qty FROM facts"
ORDERED_SQL = "SELECT id, amount, label, day, qty FROM facts ORDER BY day"


def make_rows(n: int, seed: int = 7) -> list[tuple]:
    """Mixed int / Decimal / str / date / NULL-able int rows, like a typical fact query."""
    rng = random.Random(seed)
    start = dt.date(2020, 1, 1)
    return [
        (
            i,
            Decimal(rng.randint(0, 10**7)) / 100,
            f"label-{rng.randint(0, 50_000)}",
            start + dt.timedelta(days=rng.randint(0, 3000)),
            None if rng.random() < 0.3 else rng.randint(0, 100),
        )
        for i in range(n)
    ]


def _fresh(value: object) -> object:
    """An equal value in a newly allocated object, as a second database fetch would return."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value + 1) - 1
    if isinstance(value, Decimal):
        return value.copy_abs() if value >= 0 else -value.copy_abs()
    if isinstance(value, str):
        return value[:1] + value[1:]
    if isinstance(value, dt.date):
        return dt.date.fromordinal(value.toordinal())
    return value


def shuffled_and_permuted(rows: list[tuple], seed: int = 11) -> list[tuple]:
    """Same answer, rows shuffled and columns reordered (3, 0, 4, 1, 2).

    Values are fresh objects allocated in the shuffled order, like a real second
    fetch: sharing the gold's objects would let both comparators win on identity
    checks and would scatter memory access in a way no real run does.
    """
    rng = random.Random(seed)
    out = rows[:]
    rng.shuffle(out)
    return [(_fresh(r[3]), _fresh(r[0]), _fresh(r[4]), _fresh(r[1]), _fresh(r[2])) for r in out]


def with_extra_columns(pred: list[tuple], seed: int = 13) -> list[tuple]:
    """`pred` with two more columns: a decoy (the qty column, rows shuffled) first, a label last."""
    rng = random.Random(seed)
    decoy = [r[2] for r in pred]
    rng.shuffle(decoy)
    return [(d, *r, f"extra-{i % 977}") for i, (d, r) in enumerate(zip(decoy, pred))]


def best_time(fn, repeats: int = 3) -> tuple[float, object]:
    """Fastest of `repeats` runs, with the cyclic GC paused as a service would after warm-up."""
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
        gc.enable()
    return best, result


def interleaved(fns: dict[str, object], repeats: int) -> dict[str, float]:
    """Best time of each function, the functions run in turn ``repeats`` times: on a shared machine
    a busy spell then slows every contender alike instead of one of them."""
    best = {name: float("inf") for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            seconds, result = best_time(fn, repeats=1)
            # the naive Counter is column-order-sensitive: it says False on the permuted columns
            assert name == "naive" or result is True, f"{name} rejected an equal result"
            best[name] = min(best[name], seconds)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="?", type=int, default=1_000_000)
    parser.add_argument("--before", help="also time the comparator at this git ref")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n = args.rows
    gold = make_rows(n)
    pred = shuffled_and_permuted(gold)
    gc.freeze()  # the inputs are long-lived; keep them out of collections

    contenders = {"naive": lambda: Counter(gold) == Counter(pred), "comparator": lambda: compare(UNORDERED_SQL, gold, pred)}
    if args.before:
        from comparator_before import load_compare

        compare_before = load_compare(args.before)
        contenders[args.before] = lambda: compare_before(UNORDERED_SQL, gold, pred)
    times = interleaved(contenders, args.repeats)
    t_naive, t_cmp = times["naive"], times["comparator"]
    print(f"rows={n:,} cols=5 (int, Decimal, str, date, int|NULL), shuffled + columns permuted, "
          f"best of {args.repeats} interleaved")
    print(f"comparator {t_cmp:.2f} s, naive Counter {t_naive:.2f} s, ratio {t_cmp / t_naive:.2f}x")
    if args.before:
        t_before = times[args.before]
        print(f"comparator at {args.before} {t_before:.2f} s (ratio to naive {t_before / t_naive:.2f}x); "
              f"this / {args.before} = {t_cmp / t_before:.2f}")

    wide = with_extra_columns(pred)
    t_strict, ok = best_time(lambda: compare(UNORDERED_SQL, gold, pred))
    assert ok is True
    t_extra, ok = best_time(lambda: compare(UNORDERED_SQL, gold, wide))
    assert ok is False, "a wider prediction was accepted: the comparator wants exactly the gold's columns"
    print(f"extra columns (7 predicted for 5 gold, one a misaligned decoy): rejected in {t_extra:.4f} s, "
          f"strict 5-column {t_strict:.2f} s in the same run")

    wrong = pred[:]
    wrong[n // 2] = (wrong[n // 2][0], wrong[n // 2][1], wrong[n // 2][2], Decimal("-1"), wrong[n // 2][4])
    t_wrong, verdict = best_time(lambda: compare(UNORDERED_SQL, gold, wrong), repeats=1)
    assert verdict is False
    print(f"one changed cell (rejected): {t_wrong:.2f} s")

    ordered_gold = [tuple(map(_fresh, r)) for r in sorted(gold, key=lambda r: r[3])]
    # within each day the prediction lists rows in reverse: still correct
    ordered_pred = [
        (_fresh(r[3]), _fresh(r[0]), _fresh(r[4]), _fresh(r[1]), _fresh(r[2]))
        for r in sorted(gold, key=lambda r: (r[3], -r[0]))
    ]
    t_ord, ok = best_time(lambda: compare(ORDERED_SQL, ordered_gold, ordered_pred), repeats=1)
    assert ok is True
    print(f"ordered by a tied key (ORDER BY day): {t_ord:.2f} s")

    float_gold = [(r[0], float(r[1]) / 3) for r in gold[: n // 10]]
    float_pred = [(r[1] * (1 + 1e-12), r[0]) for r in reversed(float_gold)]
    t_tol, ok = best_time(lambda: compare(UNORDERED_SQL, float_gold, float_pred), repeats=1)
    assert ok is True
    print(f"tolerant path, {len(float_gold):,} rows with every float off by 1e-12 relative: {t_tol:.2f} s")


if __name__ == "__main__":
    main()

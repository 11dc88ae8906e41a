"""What the 2.3 ``tie`` shapes cost the generator: each tied table's blocks made with its tie and
without it, interleaved in one process on one plan, so the ratio holds on a busy machine.

A column tie (comms.messages …) rebalances one column per block; a parent-side tie (job runs,
web sessions, support cases) also makes the parent's blocks again (seeding/values.py keeps them
per process while a table's blocks are made). Every block is timed cold: the kept parent blocks
are dropped before each run, as a fan-out worker starting on the table would find them.

Run: .venv/bin/python benchmarks/bench_ties.py [--scale small] [--seed 42] [--repeats 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import time

from heron_pipeline.seeding.generate import Generator
from heron_pipeline.seeding.values import forget_parent_blocks


def _time_table(generator: Generator, table: str) -> float:
    forget_parent_blocks()
    start = time.perf_counter()
    for number in generator.blocks(table):
        generator.block_frame(table, number)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", default="small")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    tied = Generator.for_state(args.scale, args.seed)
    plain = Generator(tied.catalog, {name: (dataclasses.replace(p, tie=None) if p.tie else p)
                                     for name, p in tied.profiles.items()}, tied.plan)
    tables = sorted(name for name, p in tied.profiles.items() if p.tie)
    total_tied = total_plain = 0.0
    print(f"{args.scale}/{args.seed}, best of {args.repeats} (interleaved), seconds")
    for table in tables:
        with_tie, without = [], []
        for _ in range(args.repeats):
            without.append(_time_table(plain, table))
            with_tie.append(_time_table(tied, table))
        best_tied, best_plain = min(with_tie), min(without)
        total_tied, total_plain = total_tied + best_tied, total_plain + best_plain
        kind = "parent" if tied.profiles[table].tie.get("of") else "column"
        print(f"{table:28s} {kind:6s} rows {tied.plan.tables[table].total:>9,}  without {best_plain:7.3f}  "
              f"with {best_tied:7.3f}  ratio {best_tied / best_plain:5.2f}")
    print(f"{'all tied tables':28s} {'':6s} {'':14s}  without {total_plain:7.3f}  with {total_tied:7.3f}  "
          f"ratio {total_tied / total_plain:5.2f}")


if __name__ == "__main__":
    main()

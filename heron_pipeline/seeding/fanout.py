"""Block generation fanned out over worker processes, the loader still writing in COPY order.

Since generator 2.0 a block depends only on the plan and its own stream (seeding/generate.py), so
any process can make any chunk of blocks; ``BlockFanout`` keeps a pool of spawned processes, each
holding the ``Generator`` of one (scale, seed), and hands a loader a table's chunks in the fixed
COPY order. The bytes of every table are therefore the same whatever the worker count: only who
makes a chunk changes, never which rows it holds or where they go.

Memory stays bounded: each table's stream keeps at most ``in_flight`` chunks submitted and not
yet written (by default twice the worker count), so a build holds at most ``loaders ×
in_flight`` chunks of ``batch_blocks × BLOCK_ROWS`` rows, whatever the scale. A worker count of 1
means no pool at all: the loader makes its chunks itself, as before this module existed.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Iterator

from heron_pipeline.seeding.generate import Generator

#: Generation workers when nothing asks for another count. Measured on the 2-core development
#: machine (benchmarks/bench_fanout.py, see docs/SCALING.md): there the two loader threads
#: already keep both cores busy with the server, so the pool is for machines with cores to spare.
DEFAULT_GENERATE_WORKERS = 1

#: A worker process's generator, made once by the pool's initializer (a plan costs ~1 s at small).
_WORKER_GENERATOR: dict[str, Generator] = {}


def _start_worker(scale: str, seed: int) -> None:
    _WORKER_GENERATOR["generator"] = Generator.for_state(scale, seed)


def _make_chunk(table: str, blocks: range) -> bytes:
    return _WORKER_GENERATOR["generator"].chunk_csv(table, blocks)


class BlockFanout:
    """A pool of ``workers`` spawned processes making the CSV chunks of (scale, seed).

    Use as a context manager; ``table_csv`` may be iterated by several loader threads at once
    (each table its own stream). Spawned, not forked: polars' thread pool and open connections do
    not survive a fork, so a script using it needs the usual ``if __name__ == "__main__":`` guard."""

    def __init__(self, generator: Generator, workers: int, in_flight: int | None = None):
        if workers < 2:
            raise ValueError(f"a fan-out needs at least 2 workers, not {workers}; use the generator itself for 1")
        self.generator, self.workers = generator, workers
        self.in_flight = max(1, in_flight if in_flight is not None else 2 * workers)
        plan = generator.plan
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_start_worker, initargs=(plan.scale.name, plan.seed))

    def __enter__(self) -> "BlockFanout":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the workers; chunks not yet made are dropped (a failed load stops at once)."""
        self.pool.shutdown(wait=True, cancel_futures=True)

    def table_csv(self, table: str, batch_blocks: int = 4) -> Iterator[bytes]:
        """The table's CSV chunks in COPY order, the same bytes as ``Generator.table_csv(table,
        batch_blocks)``, at most ``in_flight`` of them made ahead of the writer."""
        waiting: deque[Future[bytes]] = deque()
        chunks = iter(self.generator.chunks(table, batch_blocks))
        try:
            for blocks in chunks:
                waiting.append(self.pool.submit(_make_chunk, table, blocks))
                if len(waiting) >= self.in_flight:
                    yield waiting.popleft().result()
            while waiting:
                yield waiting.popleft().result()
        finally:
            for future in waiting:  # the writer stopped early (a failed COPY): drop what is queued
                future.cancel()

"""Block generation fanned out over worker processes, the loaders still writing in COPY order.

Since generator 2.0 a block depends only on the plan and its own stream (seeding/generate.py), so
any process can make any chunk of blocks. ``BlockFanout`` keeps a pool of spawned processes, each
holding the ``Generator`` of one (scale, seed), and makes the chunks of every table of a load in
the load's order (``build.load_order``): table after table, each table's chunks in COPY order.
A loader asking for a table gets its chunks (``Generator.chunk_copy``) in COPY order: the bytes
``Generator.table_copy`` gives a block at a time, so every table's bytes are the same whatever
the worker count: only who makes a chunk changes, never which rows it holds or where they go.
The pool works across tables, not only within one: at ``tiny`` every table is a single block,
at ``small`` only 23 of 211 tables have two or more.

Memory stays bounded: at most ``in_flight`` chunks (default three per worker) are submitted and
not yet handed to a loader, so a build holds at most that many chunks of ``batch_blocks ×
BLOCK_ROWS`` rows besides the ones being written, whatever the scale. It cannot deadlock: chunks
are submitted in load order and loaders take tables in that order, so every chunk holding the
window belongs to a table some loader has already taken and will write. A worker count of 1 means
no pool at all: each loader makes its chunks itself, as before this module existed.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Iterator

from heron_pipeline.seeding.generate import Generator

#: Generation workers when nothing asks for another count. Measured on the 2-core development
#: machine (benchmarks/bench_fanout.py, see docs/SCALING.md): there the two loader threads and
#: the server already keep both cores busy, so the pool is for machines with cores to spare.
DEFAULT_GENERATE_WORKERS = 1

#: A worker process's generator, made once by the pool's initializer (a plan costs ~1 s at small).
_WORKER_GENERATOR: dict[str, Generator] = {}


def _start_worker(scale: str, seed: int) -> None:
    _WORKER_GENERATOR["generator"] = Generator.for_state(scale, seed)


def _make_chunk(table: str, blocks: range) -> bytes:
    return _WORKER_GENERATOR["generator"].chunk_copy(table, blocks)


class FanoutAbandoned(RuntimeError):
    """Another loader of the same load failed, so the chunk asked for will never be made."""


class BlockFanout:
    """A pool of ``workers`` spawned processes making the binary COPY chunks of ``tables`` (in
    that order) of one (scale, seed), ``batch_blocks`` blocks per chunk.

    Use as a context manager; ``table_copy`` is called by the loader threads, each table once.
    Spawned, not forked: polars' thread pool and open connections do not survive a fork, so a
    script using it needs the usual ``if __name__ == "__main__":`` guard."""

    def __init__(self, generator: Generator, workers: int, tables: list[str], batch_blocks: int = 4,
                 in_flight: int | None = None):
        if workers < 2:
            raise ValueError(f"a fan-out needs at least 2 workers, not {workers}; use the generator itself for 1")
        self.generator, self.workers, self.batch_blocks = generator, workers, batch_blocks
        self.in_flight = max(1, in_flight if in_flight is not None else 3 * workers)
        self.jobs = deque((table, index, blocks) for table in tables
                          for index, blocks in enumerate(generator.chunks(table, batch_blocks)))
        self.made: dict[tuple[str, int], Future[bytes]] = {}
        self.outstanding = 0  # submitted and not yet handed to a loader
        self.abandoned = False
        self.changed = threading.Condition()
        plan = generator.plan
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_start_worker, initargs=(plan.scale.name, plan.seed))
        with self.changed:
            self._top_up()

    def __enter__(self) -> "BlockFanout":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _top_up(self) -> None:
        """Submit the next chunks in load order while the window has room (called holding the lock)."""
        while self.jobs and self.outstanding < self.in_flight and not self.abandoned:
            table, index, blocks = self.jobs.popleft()
            self.made[(table, index)] = self.pool.submit(_make_chunk, table, blocks)
            self.outstanding += 1
        self.changed.notify_all()

    def abandon(self) -> None:
        """A loader failed: make nothing more, and wake the loaders waiting for a chunk (they raise
        ``FanoutAbandoned``) so the load stops instead of waiting for ever."""
        with self.changed:
            self.abandoned = True
            for future in self.made.values():
                future.cancel()
            self.changed.notify_all()

    def close(self) -> None:
        """Stop the workers; chunks not yet made are dropped."""
        self.abandon()
        self.pool.shutdown(wait=True, cancel_futures=True)

    def table_copy(self, table: str, batch_blocks: int = 4) -> Iterator[bytes]:
        """The table's chunks in COPY order: the same bytes as ``Generator.table_copy(table)``,
        ``batch_blocks`` blocks a chunk, made by the pool ahead of the writer."""
        if batch_blocks != self.batch_blocks:
            raise ValueError(f"this fan-out makes chunks of {self.batch_blocks} blocks, not {batch_blocks}")
        finished = False
        try:
            for index in range(len(self.generator.chunks(table, batch_blocks))):
                with self.changed:
                    while (table, index) not in self.made and not self.abandoned:
                        self.changed.wait()
                    if self.abandoned:
                        raise FanoutAbandoned(f"the load stopped before {table} was written")
                    future = self.made.pop((table, index))
                chunk = future.result()
                with self.changed:
                    self.outstanding -= 1
                    self._top_up()
                yield chunk
            finished = True
        finally:
            if not finished:  # the COPY failed or the writer stopped: the other loaders must not wait
                self.abandon()

"""Turn the plan into rows: blocks of one table, as binary COPY rows (seeding/copy_binary.py).

``blocks`` lists every block of a table in the order COPY must receive them (id order: a block is
``BLOCK_ROWS`` consecutive rows of the table, spanning tenants), so the physical row order — and
thus a plain dump — is the same on every run, whatever the worker count or the batch size. Any
block can be made alone, from the plan and its own stream, by any worker or machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

import numpy as np
import polars as pl

from heron_pipeline.catalog import Catalog
from heron_pipeline.seeding.copy_binary import NotEncodable, encode_rows
from heron_pipeline.seeding.plan import Plan, build_plan
from heron_pipeline.seeding.profiles import TableProfile
from heron_pipeline.seeding.scales import get_scale
from heron_pipeline.seeding.streams import BLOCK_ROWS
from heron_pipeline.seeding.values import Block, generate_block


@dataclass
class Generator:
    """Everything needed to produce any block of any table for one (scale, seed)."""

    catalog: Catalog
    profiles: dict[str, TableProfile]
    plan: Plan

    @classmethod
    def for_state(cls, scale: str, seed: int) -> "Generator":
        from heron_pipeline.seeding.prepared import load_prepared

        prepared = load_prepared()
        catalog, profiles = prepared.catalog, prepared.profiles
        return cls(catalog, profiles, build_plan(catalog, profiles, get_scale(scale), seed))

    @cached_property
    def reference(self) -> dict[str, list[dict]]:
        return {name: p.data for name, p in self.profiles.items() if p.data}

    def blocks(self, table: str) -> range:
        """Block numbers of ``table``, in COPY order."""
        return range(-(-self.plan.tables[table].total // BLOCK_ROWS))

    def block_frame(self, table: str, block: int) -> pl.DataFrame:
        """Rows ``block * BLOCK_ROWS`` up to the next block (ids ``+ 1``) of ``table``, whichever
        tenants they belong to."""
        return generate_block(Block.numbered(self.catalog, self.plan, table, block, self.profiles, self.reference))

    def chunks(self, table: str, batch_blocks: int = 4) -> list[range]:
        """The table's blocks cut into runs of ``batch_blocks``, in COPY order: the unit a loader
        writes at once and a fan-out worker (seeding/fanout.py) makes at once."""
        blocks = self.blocks(table)
        step = max(1, batch_blocks)
        return [blocks[i:i + step] for i in range(0, len(blocks), step)]

    def block_copy(self, table: str, block: int) -> np.ndarray:
        """The binary COPY rows of one block of ``table`` (no header or trailer) as bytes in a
        numpy array, made from the plan alone: the same bytes in whichever process or machine
        they are made."""
        frame = self.block_frame(table, block)
        columns = [self.catalog.table(table).column(name) for name in frame.columns]
        try:
            return encode_rows(frame, columns)
        except NotEncodable as error:
            raise NotEncodable(f"{table}, block {block}: {error}") from None

    def chunk_copy(self, table: str, blocks: range) -> bytes:
        """The binary COPY rows of consecutive ``blocks`` of ``table`` as one bytes object: what a
        fan-out worker (seeding/fanout.py) sends back, one message per chunk."""
        return b"".join([self.block_copy(table, block) for block in blocks])

    def table_copy(self, table: str) -> Iterator[memoryview]:
        """The table's binary COPY rows, a block at a time, each a view of the array it was
        encoded into: writing the views costs no copy, where joining blocks into chunks and the
        COPY's cutting of a bytes chunk into 128 kB messages copied every byte twice (0.65
        CPU-seconds a GB, measured). The writes' sizes change nothing but the writes."""
        for block in self.blocks(table):
            yield memoryview(self.block_copy(table, block))

"""Generator properties that need no database: chunking, streams, plan shape."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from heron_pipeline.seeding.generate import Generator
from heron_pipeline.seeding.row_plan import children_per_parent
from heron_pipeline.seeding.streams import stable_key, stream


def test_copy_bytes_do_not_depend_on_batch_size() -> None:
    """The loaders write a table a block at a time, fan-out workers send chunks of several blocks:
    the same bytes either way, in block order. At tiny every table is one block, so a small table
    of three blocks, cut into chunks of 1, 2 (a short last one) and 9 blocks."""
    generator = Generator.for_state("small", 42)
    table = next(t for t in sorted(generator.plan.tables) if len(generator.blocks(t)) == 3)
    views = list(generator.table_copy(table))
    assert len(views) == 3 and all(isinstance(view, memoryview) for view in views)
    blocks = b"".join(views)
    assert blocks == b"".join(bytes(generator.block_copy(table, block)) for block in (0, 1, 2))
    for batch in (1, 2, 9):
        chunks = [generator.chunk_copy(table, run) for run in generator.chunks(table, batch)]
        assert len(chunks) == -(-3 // batch) and b"".join(chunks) == blocks, batch


def test_blocks_do_not_depend_on_generation_order() -> None:
    first = Generator.for_state("tiny", 42)
    second = Generator.for_state("tiny", 42)
    forward = [first.block_frame("orders.order_lines", b).to_dicts() for b in first.blocks("orders.order_lines")]
    backward = [second.block_frame("orders.order_lines", b).to_dicts()
                for b in reversed(second.blocks("orders.order_lines"))]
    assert forward == list(reversed(backward))


def test_stable_key_is_not_python_hash() -> None:
    assert stable_key("orders.orders") == stable_key("orders.orders")
    assert 0 < stable_key("orders.orders") < 2**63 and stable_key("a", "b") != stable_key("a\x1fb", "")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), block=st.integers(0, 20))
def test_streams_are_reproducible_and_distinct(seed: int, block: int) -> None:
    a = stream(seed, "rows", "t", block).random(4)
    assert np.array_equal(a, stream(seed, "rows", "t", block).random(4))
    assert not np.array_equal(a, stream(seed, "rows", "t", block + 1).random(4))
    assert not np.array_equal(a, stream(seed + 1, "rows", "t", block).random(4))
    assert not np.array_equal(a, stream(seed, "rows", "u", block).random(4))


@settings(max_examples=25, deadline=None)
@given(mean=st.floats(0.1, 12), parents=st.integers(1, 3000), cap=st.none() | st.integers(1, 5))
def test_children_per_parent_respects_mean_and_cap(mean: float, parents: int, cap: int | None) -> None:
    counts = children_per_parent(7, "t", mean, parents, cap, 0)
    assert len(counts) == parents and counts.min() >= 0
    if cap is not None:
        assert counts.max() <= cap
    if cap is None and parents >= 2000:
        assert abs(counts.mean() - mean) < 0.15 * mean + 0.05


def test_plans_vary_between_seeds_but_stay_close() -> None:
    a, b = Generator.for_state("small", 42).plan, Generator.for_state("small", 43).plan
    assert a.total_rows != b.total_rows
    assert abs(a.total_rows - b.total_rows) / a.total_rows < 0.08


def test_children_layout_cache_never_serves_a_dead_plans_layout() -> None:
    """Plans of different seeds built one after another in one process may get the same id();
    the layout cache must not hand the second plan the first one's (an IndexError in CI once)."""
    import gc

    from heron_pipeline.seeding import rows
    from heron_pipeline.seeding.generate import Generator

    plan = Generator.for_state("tiny", 42).plan
    table = next(name for name, tp in plan.tables.items() if tp.parent_table and tp.tenant_scoped)
    stale = rows.children_layout(plan, plan.tables[table], 0)
    dead_entry = rows._LAYOUTS[(id(plan), table, 0)]
    other = Generator.for_state("tiny", 43).plan
    # Simulate the id reuse that happened in CI: the dead plan's entry filed under the live plan's id.
    rows._LAYOUTS[(id(other), table, 0)] = dead_entry
    del plan, dead_entry
    gc.collect()
    fresh = rows.children_layout(other, other.tables[table], 0)
    assert fresh[0] is not stale[0]
    rows._LAYOUTS.clear()
    assert (rows.children_layout(other, other.tables[table], 0)[0] == fresh[0]).all()

"""Independent random streams, one per (seed, purpose, table, block).

Every stream is derived from the root seed through numpy's ``SeedSequence`` with a spawn key made
of stable integers: table keys come from sha256 of the table name, never from ``hash()`` (salted
per process) or dict order. So a block's values do not depend on which worker makes it, in which
order, or how many blocks a COPY batch holds.
"""

from __future__ import annotations

import hashlib

import numpy as np

#: Rows per block: the unit of randomness. A block is a run of a table's rows in id order, across
#: tenants (generator 2.0; it used to be one tenant's rows, which made ~8,000 blocks of a few rows
#: each at ``small`` and a per-block Python cost that dominated the build). Fixed forever (changing
#: it changes every database); the loader's batch size is a separate, free parameter.
BLOCK_ROWS = 65_536


def stable_key(*parts: str) -> int:
    """A 63-bit integer from text, identical on every machine and Python process."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def stream(seed: int, purpose: str, table: str = "", block: int = 0) -> np.random.Generator:
    """The random generator for one block of one table (or of one planning purpose).

    The spawn key keeps a constant middle slot where generator 1.x put the tenant, so the planning
    streams (block 0) — tenant sizes, per-table jitter, FX walks — and thus every row count are
    the same as in 1.x; only the row streams changed layout."""
    sequence = np.random.SeedSequence(entropy=seed, spawn_key=(stable_key(purpose, table), 0, block))
    return np.random.Generator(np.random.PCG64(sequence))


def fixed_stream(purpose: str, *parts: str) -> np.random.Generator:
    """A stream that does not depend on the seed: for shapes that must stay the same across seeds
    (which status is common, how skewed a column is), so that seeds vary data, not distributions."""
    return np.random.Generator(np.random.PCG64(stable_key(purpose, *parts)))

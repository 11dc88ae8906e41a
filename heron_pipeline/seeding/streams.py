"""Independent random streams, one per (seed, purpose, table, tenant, block).

Every stream is derived from the root seed through numpy's ``SeedSequence`` with a spawn key made
of stable integers: table keys come from sha256 of the table name, never from ``hash()`` (salted
per process) or dict order. So a block's values do not depend on which worker makes it, in which
order, or how many blocks a COPY batch holds.
"""

from __future__ import annotations

import hashlib

import numpy as np

#: Rows per block: the unit of randomness. Fixed forever (changing it changes every database);
#: the loader's batch size is a separate, free parameter.
BLOCK_ROWS = 65_536


def stable_key(*parts: str) -> int:
    """A 63-bit integer from text, identical on every machine and Python process."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def stream(seed: int, purpose: str, table: str = "", tenant: int = 0, block: int = 0) -> np.random.Generator:
    """The random generator for one block of one table of one tenant."""
    sequence = np.random.SeedSequence(entropy=seed, spawn_key=(stable_key(purpose, table), tenant, block))
    return np.random.Generator(np.random.PCG64(sequence))


def fixed_stream(purpose: str, *parts: str) -> np.random.Generator:
    """A stream that does not depend on the seed: for shapes that must stay the same across seeds
    (which status is common, how skewed a column is), so that seeds vary data, not distributions."""
    return np.random.Generator(np.random.PCG64(stable_key(purpose, *parts)))

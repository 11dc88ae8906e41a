"""The deterministic data generator and its COPY loader (Dagster-free).

A database is a pure function of (scale, seed): every value comes from a random stream derived
from the root seed and the (table, tenant, block) it belongs to, and every id from a plan of row
counts computed before any row exists. See docs/DATA.md for the distributions it produces.
"""

GENERATOR_VERSION = "1.0.0"

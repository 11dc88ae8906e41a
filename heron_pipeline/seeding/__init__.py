"""The deterministic data generator and its COPY loader (Dagster-free).

A database is a pure function of (scale, seed): every value comes from a random stream derived
from the root seed and the (table, block) it belongs to — a block is a fixed run of a table's rows,
across tenants — and every id from a plan of row counts computed before any row exists. See docs/DATA.md for the distributions it produces.
"""

#: 2.0: one random stream per (table, block of the whole table) instead of per (table, tenant, block);
#: 2.0.1: exact soft-deleted share per block, tenant rows follow the CHECKs (see docs/DECISIONS.md);
#: 2.1.0: rarer shapes (childless parents, second children, pinned rows, shared conditional NULLs),
#: status-decided timestamps always set, support SLA due dates near opening (docs/DATA.md).
#: 2.2.0: seed-independent shapes that near-miss mutants need (quiet months, a subscription that
#: starts once, ...; docs/DATA.md "Shapes for the mutant audit").
#: 2.3.0: ties that questions' tie-breakers need (two categories counted equally under a filter,
#: balanced per block; two help articles pinned to the same top view count; docs/DATA.md).
GENERATOR_VERSION = "2.3.0"

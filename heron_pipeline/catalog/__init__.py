"""heron's schema as a typed model parsed from ``schema_ddl/`` (Dagster-free).

The names are imported on first use: the Dagster definitions import ``catalog.graph`` at load time
and must not pay for sqlglot's import (let alone a parse) there.
"""

from typing import Any

_EXPORTS = {
    "DDLError": "heron_pipeline.catalog.ddl", "build_catalog": "heron_pipeline.catalog.ddl",
    "ddl_files": "heron_pipeline.catalog.ddl", "load_catalog": "heron_pipeline.catalog.ddl",
    "Catalog": "heron_pipeline.catalog.model", "Column": "heron_pipeline.catalog.model",
    "ForeignKey": "heron_pipeline.catalog.model", "Table": "heron_pipeline.catalog.model",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'heron_pipeline.catalog' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)

"""heron's schema as a typed model parsed from ``schema_ddl/`` (Dagster-free)."""

from heron_pipeline.catalog.ddl import DDLError, build_catalog, ddl_files, load_catalog
from heron_pipeline.catalog.model import Catalog, Column, ForeignKey, Table

__all__ = ["Catalog", "Column", "DDLError", "ForeignKey", "Table", "build_catalog", "ddl_files", "load_catalog"]

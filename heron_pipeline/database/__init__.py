"""Server lifecycle, database names and schema loading (Dagster-free)."""

"""heron: a reproducible text-to-SQL benchmark on a production-shaped PostgreSQL schema."""

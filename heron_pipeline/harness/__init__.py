"""The scoring harness: execute predictions on each state, score them, aggregate standings (no Dagster)."""

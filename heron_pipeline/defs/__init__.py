"""The Dagster layer: partitions, resources, assets and checks. It wires the pure core into
Dagster and computes nothing itself."""

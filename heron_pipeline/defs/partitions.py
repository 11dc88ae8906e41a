"""Partitions every stage uses: scale (static) × seed (dynamic, added as states are requested)."""

from dagster import DynamicPartitionsDefinition, MultiPartitionKey, MultiPartitionsDefinition, StaticPartitionsDefinition

from heron_pipeline.database.names import SCALES

scale_partitions = StaticPartitionsDefinition(list(SCALES))
seed_partitions = DynamicPartitionsDefinition(name="seed")
state_partitions = MultiPartitionsDefinition({"scale": scale_partitions, "seed": seed_partitions})


def state_of(partition_key: MultiPartitionKey) -> tuple[str, int]:
    """(scale, seed) of a scale × seed partition key."""
    keys = partition_key.keys_by_dimension
    return keys["scale"], int(keys["seed"])

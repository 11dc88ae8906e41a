"""Partitions every stage uses: scale (static) × seed (dynamic, registered by the seeds sensor)."""

from dagster import DynamicPartitionsDefinition, MultiPartitionKey, MultiPartitionsDefinition, StaticPartitionsDefinition

from heron_pipeline.database.names import SCALES

scale_partitions = StaticPartitionsDefinition(list(SCALES))
seed_partitions = DynamicPartitionsDefinition(name="seed")
state_partitions = MultiPartitionsDefinition({"scale": scale_partitions, "seed": seed_partitions})


class BadSeedPartition(ValueError):
    """A seed partition whose name is not an integer seed."""


def seed_of(text: str) -> int:
    """The integer seed a partition name stands for; one clear error otherwise."""
    try:
        seed = int(text)
    except (TypeError, ValueError):
        raise BadSeedPartition(f"seed partition {text!r} is not an integer seed: delete it on the asset's Partitions "
                               f"page and add an integer (or list it under `seeds` in heron.toml)") from None
    if not 0 <= seed < 2**31:
        raise BadSeedPartition(f"seed partition {text!r} is outside 0..2147483647 (the largest seed a database "
                               f"name allows)")
    return seed


def state_of(partition_key: MultiPartitionKey | str) -> tuple[str, int]:
    """(scale, seed) of a scale × seed partition key (or its string form ``<scale>|<seed>``)."""
    if isinstance(partition_key, MultiPartitionKey):
        keys = partition_key.keys_by_dimension
        return keys["scale"], seed_of(keys["seed"])
    scale, _, seed = str(partition_key).partition("|")
    return scale, seed_of(seed)


def state_of_run(partition_key: MultiPartitionKey | str) -> tuple[str, int]:
    """``state_of`` for an asset body: a bad seed becomes a Dagster ``Failure`` whose description is
    the one line above (the UI shows it without a traceback)."""
    from dagster import Failure

    try:
        return state_of(partition_key)
    except BadSeedPartition as err:
        raise Failure(description=str(err)) from None


def state_key(scale: str, seed: int) -> MultiPartitionKey:
    return MultiPartitionKey({"scale": scale, "seed": str(seed)})

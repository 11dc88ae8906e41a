"""Why a prediction is wrong: one cause per wrong prediction, and the tables its SQL reads (no Dagster)."""

from heron_pipeline.diagnosis.causes import (CAUSE_ORDER, SCHEMA_LINKING, SHAPE, TRAP_PREFIX, VALUES, Diagnosis, RowDiff,
                                             cause_rank, diagnose, predicted_tables, row_diff, table_linking,
                                             trap_cause, trap_label, trap_matches)

__all__ = ["CAUSE_ORDER", "SCHEMA_LINKING", "SHAPE", "TRAP_PREFIX", "VALUES", "Diagnosis", "RowDiff", "cause_rank",
           "diagnose", "predicted_tables", "row_diff", "table_linking", "trap_cause", "trap_label", "trap_matches"]

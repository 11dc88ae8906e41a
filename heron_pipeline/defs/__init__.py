"""The Dagster layer: partitions, resources, assets and checks. It wires the pure core into
Dagster and computes nothing itself.

The one place where Dagster's preview and beta warnings about features heron chose knowingly are
silenced (issue 34: 755 warnings in 45 minutes of `heron dev`, 638 of them the first below, hid the ones
that concern a user). Each is named by its message, so any other preview, beta or deprecation warning
still shows. Every process that loads the definitions (code server, daemon, run workers) imports this
package first.
"""

import warnings

from dagster import BetaWarning, PreviewWarning

#: (warning class, start of its message, why heron uses the feature anyway).
CHOSEN = (
    (PreviewWarning, "Specifying a partitions_def on an AssetCheckSpec",
     "a check of a partitioned asset needs partitions_def= to be reported per partition (DESIGN: "
     "measured); without it every partition's checks share one status"),
    (BetaWarning, "Function `observable_source_asset`",
     "questions and schema_catalog are observable sources whose data version is their files' digest "
     "(DECISIONS, issue 8 point 4)"),
    (BetaWarning, "Class `MultiToSingleDimensionPartitionMapping`",
     "gold_audit, predictions and standings (per scale) read every seed of their scale (issue 8)"),
)

for category, message, _reason in CHOSEN:
    warnings.filterwarnings("ignore", category=category, message=message)

"""The bench core: the one place heron's steps are put together (no Dagster).

build a state → compute its gold → audit the scale → predict per tool → score per tool × state →
standings → local leaderboard. Each step takes the artifacts it reads by identity (path + sha256)
and returns a typed result naming what it wrote. ``heron bench`` (``run_bench``) loops over the
steps; every Dagster asset calls exactly one of them.
"""

from heron_pipeline.artifacts.ref import ArtifactMismatch, ArtifactRef
from heron_pipeline.bench.audit import AuditGateError, AuditResult, audit_states, recorded_audit, require_passed
from heron_pipeline.bench.gold import GoldResult, compute_gold
from heron_pipeline.bench.identity import harness_version
from heron_pipeline.bench.options import BenchOptions, default_tools
from heron_pipeline.bench.predict import PredictionsResult, predict
from heron_pipeline.bench.run import BenchResult, audited_golds, run_bench
from heron_pipeline.bench.score import ScoresResult, score
from heron_pipeline.bench.standings import StandingsResult, compute_scale_standings, publish_local
from heron_pipeline.bench.states import StateResult, build_state, existing_state, finish_state, load_state_tables

__all__ = ["ArtifactMismatch", "ArtifactRef", "AuditGateError", "AuditResult", "BenchOptions", "BenchResult",
           "GoldResult", "PredictionsResult", "ScoresResult", "StandingsResult", "StateResult", "audit_states",
           "audited_golds", "build_state", "compute_gold", "compute_scale_standings", "default_tools",
           "existing_state", "finish_state", "harness_version", "load_state_tables", "predict", "publish_local",
           "recorded_audit", "require_passed", "run_bench", "score"]

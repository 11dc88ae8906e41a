"""The published leaderboard asset and the sensor that watches submissions/ (see README.md)."""

from heron_pipeline.defs.submissions.assets import PublishConfig, published_leaderboard, published_leaderboard_job
from heron_pipeline.defs.submissions.sensors import submissions_state, submissions_watch

__all__ = ["PublishConfig", "published_leaderboard", "published_leaderboard_job", "submissions_state",
           "submissions_watch"]

"""The leaderboard files (json / csv / md) with conditions next to every number (no Dagster)."""

from heron_pipeline.leaderboard.write import local_results_dir, render_csv, render_markdown, write_leaderboard

__all__ = ["local_results_dir", "render_csv", "render_markdown", "write_leaderboard"]

"""The leaderboard files (json / csv / md / svg) with conditions next to every number (no Dagster)."""

from heron_pipeline.leaderboard.svg import render_svg
from heron_pipeline.leaderboard.write import render_csv, render_markdown, write_leaderboard

__all__ = ["render_csv", "render_markdown", "render_svg", "write_leaderboard"]

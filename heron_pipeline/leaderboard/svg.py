"""The leaderboard as a self-contained SVG chart: the headline with its uncertainty, at a glance.

One horizontal bar per tool and scale: the bar is multi-state EX@1 (0–100 %), the whisker its 95 %
bootstrap interval, and the label repeats the conditions (model, temperature, n, seeds, mode) so a
cropped screenshot still says what the number means. Written by hand, with no plotting library, so
the bytes depend only on the standings (a chart that changed without its numbers changing would
be noise in review) and nothing new has to be installed.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping
from xml.sax.saxutils import escape

from heron_pipeline.leaderboard.rows import leaderboard_rows

WIDTH = 900
LABEL_WIDTH = 360
PLOT_WIDTH = WIDTH - LABEL_WIDTH - 60
BAR_HEIGHT = 22
ROW_GAP = 14
HEADER = 56
FOOTER = 34


def _x(percent: float) -> float:
    """Horizontal position of a percentage on the 0–100 axis."""
    return LABEL_WIDTH + PLOT_WIDTH * max(0.0, min(100.0, percent)) / 100.0


def _conditions(row: Mapping[str, Any]) -> str:
    model = row["model"] or "no model"
    temperature = "—" if row["temperature"] is None else row["temperature"]
    return f"{model}, T={temperature}, n={row['n']} · {row['scale']} seeds {row['seeds']} ({row['mode']})"


def render_svg(standings: Iterable[Mapping[str, Any]]) -> str:
    """SVG text: bars sorted as the standings are (best first), one group per (scale, tool)."""
    rows = leaderboard_rows(standings)
    height = HEADER + len(rows) * (BAR_HEIGHT + ROW_GAP) + FOOTER
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">',
        '<title>heron leaderboard: multi-state EX@1 with 95 % bootstrap CI</title>',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        '<text x="12" y="24" font-size="16" font-weight="bold">heron leaderboard</text>',
        '<text x="12" y="44" fill="#444">multi-state EX@1 (correct on every seeded state), '
        'whiskers: 95 % bootstrap CI</text>',
    ]
    for i, row in enumerate(rows):
        top = HEADER + i * (BAR_HEIGHT + ROW_GAP)
        middle = top + BAR_HEIGHT / 2
        value = row["multi_state_ex1"] or 0.0
        low, high = row["multi_state_ex1_ci_low"], row["multi_state_ex1_ci_high"]
        out.append(f'<g class="tool" data-tool="{escape(str(row["tool"]), {chr(34): "&quot;"})}" '
                   f'data-scale="{escape(str(row["scale"]))}" data-value="{value}">')
        out.append(f'<text x="12" y="{middle - 2:.1f}" font-weight="bold">{escape(str(row["tool"]))}</text>')
        out.append(f'<text x="12" y="{middle + 11:.1f}" fill="#555" font-size="10">{escape(_conditions(row))}</text>')
        out.append(f'<rect class="bar" x="{LABEL_WIDTH}" y="{top}" width="{_x(value) - LABEL_WIDTH:.2f}" '
                   f'height="{BAR_HEIGHT}" fill="#3b6ea5"/>')
        if low is not None and high is not None:
            out.append(f'<line class="ci" x1="{_x(low):.2f}" x2="{_x(high):.2f}" y1="{middle}" y2="{middle}" '
                       'stroke="black" stroke-width="1.5"/>')
        out.append(f'<text x="{_x(value) + 6:.2f}" y="{middle + 4:.1f}">{value:.2f} %</text>')
        out.append("</g>")
    axis_y = height - FOOTER + 8
    out.append(f'<line x1="{LABEL_WIDTH}" x2="{LABEL_WIDTH + PLOT_WIDTH}" y1="{axis_y}" y2="{axis_y}" stroke="#888"/>')
    for tick in range(0, 101, 25):
        out.append(f'<text x="{_x(tick):.2f}" y="{axis_y + 16}" text-anchor="middle" fill="#555">{tick}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"

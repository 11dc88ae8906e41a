"""The per-bucket breakdown chart: where each tool wins and loses, as a self-contained SVG grid.

One column per (scale, tool) of the published standings, one row per bucket: every SQL shape ×
retrieval difficulty cell, then every trap. A cell shows multi-state EX@1 of the tool on the
questions of that bucket, shaded by value, with the bucket's question count in the row label (a
bucket of three questions moves in steps of 33 points, which the reader must be able to see).
Hand-written like ``svg.py``, so its bytes depend on the numbers only.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping
from xml.sax.saxutils import escape

LABEL_WIDTH = 300
CELL_WIDTH = 96
CELL_HEIGHT = 20
HEADER = 78


def _shade(value: float) -> str:
    """White (0 %) to the headline blue (100 %)."""
    t = max(0.0, min(100.0, value)) / 100.0
    r, g, b = (int(round(255 + (c - 255) * t)) for c in (59, 110, 165))
    return f"#{r:02x}{g:02x}{b:02x}"


def _attr(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def render_breakdown_svg(standings: Iterable[Mapping[str, Any]]) -> str:
    """SVG text of the grid (buckets × tools)."""
    columns = [(board["scale"], row) for board in standings for row in board["tools"]]
    buckets: dict[str, int] = {}
    for _scale, row in columns:
        for label, cell in (row.get("breakdown_cells") or {}).items():
            buckets.setdefault(label, cell["n"])
    labels = sorted(buckets, key=lambda b: (b.startswith("trap:"), b))
    width = LABEL_WIDTH + CELL_WIDTH * max(1, len(columns)) + 20
    height = HEADER + CELL_HEIGHT * max(1, len(labels)) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11" id="breakdown-chart">',
           '<title>heron breakdown: multi-state EX@1 per SQL shape × retrieval difficulty and per trap</title>',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           '<text x="12" y="22" font-size="15" font-weight="bold">Breakdown by bucket</text>',
           '<text x="12" y="40" fill="#444">multi-state EX@1 (%) per SQL shape × retrieval difficulty, then per '
           'trap; n = questions in the bucket</text>']
    for i, (scale, row) in enumerate(columns):
        x = LABEL_WIDTH + i * CELL_WIDTH + CELL_WIDTH / 2
        out.append(f'<text x="{x:.1f}" y="{HEADER - 18}" text-anchor="middle" font-weight="bold">'
                   f'{escape(str(row["tool"]))}</text>')
        model = row["conditions"].get("model") or "no model"
        out.append(f'<text x="{x:.1f}" y="{HEADER - 6}" text-anchor="middle" fill="#555" font-size="9">'
                   f'{escape(f"{scale} · {model}")}</text>')
    if not labels:
        out.append(f'<text x="12" y="{HEADER + 14}" fill="#555">no accepted submission with a breakdown</text>')
    for j, label in enumerate(labels):
        y = HEADER + j * CELL_HEIGHT
        out.append(f'<text x="12" y="{y + 14}">{escape(label)} (n={buckets[label]})</text>')
        for i, (scale, row) in enumerate(columns):
            cell = (row.get("breakdown_cells") or {}).get(label)
            x = LABEL_WIDTH + i * CELL_WIDTH
            if cell is None:
                out.append(f'<rect x="{x}" y="{y}" width="{CELL_WIDTH - 2}" height="{CELL_HEIGHT - 2}" fill="#eee"/>')
                continue
            value = float(cell["ex"])
            out.append(f'<g class="cell" data-tool="{_attr(str(row["tool"]))}" data-bucket="{_attr(label)}" '
                       f'data-value="{value:.2f}"><rect x="{x}" y="{y}" width="{CELL_WIDTH - 2}" '
                       f'height="{CELL_HEIGHT - 2}" fill="{_shade(value)}"/>'
                       f'<text x="{x + CELL_WIDTH / 2 - 1:.1f}" y="{y + 13}" text-anchor="middle" '
                       f'fill="{"white" if value > 60 else "black"}">{value:.0f}</text></g>')
    out.append("</svg>")
    return "\n".join(out) + "\n"

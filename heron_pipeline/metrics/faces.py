"""The registry read by the code that renders: which columns each face shows, in which order, how.

A metric that declares nothing for a face gets the plain column: its standings key under its label
(CLI: one decimal; flat row: two; HTML: two, sorted by the raw value). An empty tuple hides it there.
"""

from __future__ import annotations

from heron_pipeline.metrics.cells import cli_text, html_cell, rounded
from heron_pipeline.metrics.registry import Cell, Column, Metric, metrics


def _columns(m: Metric) -> tuple[Column, ...]:
    return m.columns if m.columns is not None else (Column(m.name, lambda t, k, name=m.name: rounded(t[name])),)


def flat_columns() -> tuple[Column, ...]:
    """The metric columns of the flat leaderboard row (CSV), in registration order."""
    return tuple(c for m in metrics() for c in _columns(m))


def cli_cells(*, headline_only: bool = False) -> tuple[Cell, ...]:
    """The metric columns of the ``heron bench`` table; ``render(standing_row) -> text``. ``headline_only``:
    those of the metrics declared ``headline`` (the table printed by default)."""
    return tuple(c for m in metrics() if m.headline or not headline_only for c in (
        m.cli if m.cli is not None else (Cell(m.label, lambda t, name=m.name: cli_text(t.get(name))),)))


def markdown_cells() -> tuple[Cell, ...]:
    """The metric columns of the Markdown table; ``render(flat_row) -> value``. The default cell is
    the metric's first flat column."""
    out = []
    for m in metrics():
        if m.markdown is not None:
            out += m.markdown
        elif _columns(m):
            out.append(Cell(m.label, lambda r, key=_columns(m)[0].key: r[key]))
    return tuple(out)


def html_cells() -> tuple[Cell, ...]:
    """The metric columns of the HTML standings table; ``render(standing_row, board) -> <td>``."""
    return tuple(c for m in metrics() for c in (
        m.html if m.html is not None else (Cell(m.label, lambda t, b, name=m.name: html_cell(t.get(name))),)))

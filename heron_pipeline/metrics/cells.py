"""How a figure is written on each face: the formatting primitives the declarations and the renderers share.

They sit below both the metric declarations and the leaderboard modules, so a declaration can say
"two digits in the HTML cell, sorted by the raw value" without importing a renderer.
"""

from __future__ import annotations

from html import escape
from typing import Any


def rounded(value: Any, digits: int = 2) -> Any:
    """A float rounded for the flat row (CSV, Markdown); anything else as it is."""
    return round(value, digits) if isinstance(value, float) else value


def cli_text(value: Any, digits: int = 1) -> str:
    """A CLI table cell: ``—`` for None, floats to ``digits`` places."""
    return "—" if value is None else f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def html_text(value: Any, digits: int = 2) -> str:
    """An HTML cell's text: ``—`` for None, floats to ``digits`` places, anything else escaped."""
    return "—" if value is None else f"{value:.{digits}f}" if isinstance(value, float) else escape(str(value))


def html_cell(value: Any, text: str | None = None, *, klass: str = "") -> str:
    """A ``<td>`` carrying its sort key (the raw value) and its text (default ``html_text(value)``)."""
    sort = "" if value is None else (f"{value:.6f}" if isinstance(value, float) else str(value))
    cls = f' class="{klass}"' if klass else ""
    return f'<td{cls} data-sort="{escape(sort)}">{text if text is not None else html_text(value)}</td>'


def md_text(value: Any) -> str:
    """A Markdown cell: ``—`` for None, anything else as ``str`` (the flat row is already rounded)."""
    return "—" if value is None else str(value)

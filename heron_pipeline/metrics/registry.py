"""The metric registry: every figure heron reports is declared once, here, and read everywhere else.

A ``Metric`` says what a figure is (name, label, unit, which way is better), how it is computed
(a per-record function run when a prediction is scored, stored in the score record, with what a
prediction that did not run scores instead; an aggregate over one tool's records across states; or
a figure computed from a row's other figures, like the Grade), whether
a submission may claim it and within which tolerance, and how it is shown on each face (the CLI
table, the flat CSV row, the Markdown and HTML tables). The scorer, the standings, the leaderboard
files and the submission checks loop over the registry instead of naming metrics, so adding one is
one declaration. Like lm-evaluation-harness's registries, ``register`` refuses a second metric of
the same name; ``registered`` adds one for the length of a ``with`` block (a test's throwaway
metric) and restores the registry after it.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

#: The submission classes a figure may be claimed for.
EX_CLASSES = ("sql", "reference")
DEFAULT_TOLERANCE = 2.0


@dataclass(frozen=True)
class RecordField:
    """One field a per-record function writes into every score record (DuckDB type for the standings'
    reader; ``default`` where a record built without it is read)."""

    name: str
    sql_type: str
    default: Any = None


@dataclass(frozen=True)
class Claim:
    """A figure a submission may state in claims.json, as a percentage, and verification recomputes.

    ``key`` is the figure's key in the recomputed figures (the standings row, or the retrieval
    figures for class retrieval); a claim more than ``tolerance`` points above the recomputed value
    is a ``claim_gap``. ``required`` lists the classes that must claim it."""

    key: str
    classes: tuple[str, ...] = EX_CLASSES
    tolerance: float = DEFAULT_TOLERANCE
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class Column:
    """One column of the flat leaderboard row (CSV, and the source of the Markdown cells):
    ``value(standing_row, n)`` -> the cell's value."""

    key: str
    value: Callable[[Mapping[str, Any], int], Any]


@dataclass(frozen=True)
class Cell:
    """One column of a rendered table. ``header`` is text, or a function of the board (HTML headers
    that count states); ``render`` takes the surface's row: the standings row for the CLI (returns
    text), the flat row for Markdown (returns the value, formatted by the writer), the standings row
    and its board for HTML (returns a whole ``<td>``). ``klass`` is the HTML header's class."""

    header: str | Callable[[Mapping[str, Any]], str]
    render: Callable[..., Any]
    klass: str = ""

    def title(self, board: Mapping[str, Any]) -> str:
        return self.header(board) if callable(self.header) else self.header


@dataclass(frozen=True)
class Metric:
    """One declared figure.

    ``record(scored) -> {field: value}`` runs when a prediction is scored (``scored`` is a
    ``metrics.scores.Scored``) and writes ``fields``; ``failed(scored) -> {field: value}`` is what a
    prediction that did not run (no SQL, a provider failure, rejected, timed out, over a limit, an
    error) writes instead — no score without a right answer, so 0 wherever the figure is defined;
    None only for a record that is not a score (the diagnosis, which names the failure), computed by
    ``record`` for every prediction. ``aggregate(tool_scores) -> {standings key: value}`` runs over
    one tool's records (``metrics.scores.ToolScores``); ``field(rows) -> values`` runs over every
    row of one board, after the aggregates, each value from its own row's figures (the Grade).
    ``reads`` names the score-record fields the aggregate reads. ``columns``, ``cli``, ``markdown``
    and ``html`` are the faces; ``None`` means the default single column of ``name`` under
    ``label``, an empty tuple means not shown there. ``headline``: shown in the default ``heron bench``
    table (the others only with ``--all-columns``).
    """

    name: str
    label: str
    reads: tuple[str, ...] = ()
    fields: tuple[RecordField, ...] = ()
    record: Callable[[Any], Mapping[str, Any]] | None = None
    failed: Callable[[Any], Mapping[str, Any]] | None = None
    aggregate: Callable[[Any], Mapping[str, Any]] | None = None
    field: Callable[[list[Mapping[str, Any]]], list[Any]] | None = None
    unit: str = "%"
    higher_is_better: bool = True
    claims: tuple[Claim, ...] = ()
    columns: tuple[Column, ...] | None = None
    cli: tuple[Cell, ...] | None = None
    markdown: tuple[Cell, ...] | None = None
    html: tuple[Cell, ...] | None = None
    description: str = ""
    #: one of the headline figures ``heron bench`` prints by default (``--all-columns`` prints every
    #: metric's CLI cells); the published page leads with the same figures in its chart
    headline: bool = False

    def __post_init__(self) -> None:
        if bool(self.record) != bool(self.fields):
            raise ValueError(f"metric {self.name!r}: a per-record function and the fields it writes go together")
        if self.failed is not None and self.record is None:
            raise ValueError(f"metric {self.name!r}: a failed prediction's values need a per-record function")
        if not (self.record or self.aggregate or self.field):
            raise ValueError(f"metric {self.name!r} computes nothing: give it a record, aggregate or field function")


_REGISTRY: dict[str, Metric] = {}


def register(metric: Metric) -> Metric:
    """Add ``metric`` to the registry (after every metric already there: the faces show metrics in
    registration order). A second metric of the same name, or a record field or claim key another
    metric already writes, is refused (ValueError)."""
    if metric.name in _REGISTRY:
        raise ValueError(f"metric {metric.name!r} is already registered")
    taken_fields = {f.name for m in _REGISTRY.values() for f in m.fields}
    taken_claims = {c.key for m in _REGISTRY.values() for c in m.claims}
    clash = [f.name for f in metric.fields if f.name in taken_fields] + \
        [c.key for c in metric.claims if c.key in taken_claims]
    if clash:
        raise ValueError(f"metric {metric.name!r} would write {', '.join(clash)}, which another metric writes")
    _REGISTRY[metric.name] = metric
    return metric


@contextmanager
def registered(metric: Metric) -> Iterator[Metric]:
    """``metric`` registered for the length of the block, the registry restored after it."""
    register(metric)
    try:
        yield metric
    finally:
        del _REGISTRY[metric.name]


def metrics() -> tuple[Metric, ...]:
    """Every registered metric, in registration order."""
    return tuple(_REGISTRY.values())


def get(name: str) -> Metric:
    """The metric registered under ``name`` (KeyError naming the registered ones)."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no metric {name!r}; registered: {', '.join(_REGISTRY)}") from None

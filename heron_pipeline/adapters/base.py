"""What a tool adapter is: something that turns a question into n predicted SQL strings.

The protocol is deliberately small so that reference tools, LLM tools and (later) retrieval or
agent tools all fit: the pipeline hands over the question and a context (the schema, the primary
state's DSN for tools that look at data, the number of samples) and stores whatever comes back.
An adapter must not raise for a bad answer — a failure is a record with ``error`` set — so one
question can never stop a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

from heron_pipeline.predictions.record import PredictionRecord


@dataclass(frozen=True)
class PredictionContext:
    """Everything a tool may look at besides the question.

    ``catalog`` is the parsed schema (heron_pipeline.catalog.Catalog) or None for tools that do not
    need it; ``primary_dsn`` is the state tools may query while predicting (seed 42 by default; the
    admin's DSN, never handed to a tool) and ``reader_dsn`` the same state for the sandbox's
    read-only role (what tools that look at data get; ``predict_tool`` fills it in when missing);
    ``n`` is the number of samples per question (pass@k needs n ≥ k); ``conventions`` is the
    benchmark's conventions note (heron_pipeline.questions.conventions) every tool must receive;
    ``question_mode`` selects the question text (``question_text``).
    """

    scale: str
    n: int = 1
    catalog: Any = None
    primary_dsn: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    conventions: str = ""
    question_mode: str = "full"
    reader_dsn: str | None = None
    #: the reader role's password on a server that asks for one (HERON_READER_PASSWORD); used to
    #: fill in ``reader_dsn``, never handed to a tool on its own
    reader_password: str | None = None

    def text_of(self, question: Any) -> str:
        """The question's text in this run's question mode."""
        from heron_pipeline.questions.model import question_text

        return question_text(question, self.question_mode)

    def schema(self) -> Any:
        """The catalog (loaded from the DDL when the caller gave none)."""
        if self.catalog is None:
            from heron_pipeline.catalog import load_catalog

            object.__setattr__(self, "catalog", load_catalog())
        return self.catalog


@runtime_checkable
class Adapter(Protocol):
    """A tool under test. ``conditions`` are printed next to its numbers on the leaderboard."""

    name: str

    def predict(self, question: Any, context: PredictionContext) -> list[PredictionRecord]:
        """``context.n`` records for ``question`` (samples 0..n-1); never raises for a bad answer."""
        ...

    def conditions(self) -> dict[str, Any]:
        """Model, temperature and other settings that make its numbers comparable (or not)."""
        ...


AdapterFactory = Callable[..., Adapter]

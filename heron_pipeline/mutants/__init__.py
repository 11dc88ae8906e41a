"""Near-miss mutants of gold SQL and their kill rates (`heron audit --mutants`)."""

from .generate import OPERATORS, Mutant, mutants
from .run import KillSummary, MutantOutcome, evaluate, summarize

__all__ = ["OPERATORS", "KillSummary", "Mutant", "MutantOutcome", "evaluate", "mutants", "summarize"]

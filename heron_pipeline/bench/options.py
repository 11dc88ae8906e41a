"""What a bench run is asked to do, defined once for the CLI and the Dagster layer.

The tool list, the primary seed, the questions folder, the question mode, the adapter switches and
the VES switch live here and nowhere else: ``heron bench`` fills a ``BenchOptions`` from its flags,
the Dagster resources fill one from run configuration, and both hand it to the same steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from heron_pipeline.config import PROJECT_ROOT

#: The reference rows: gold (the gold SQL itself) and alt (the independently written SQL).
REFERENCE_TOOLS = ("gold", "alt")
#: Tools that need no model endpoint and no key (run by `make bench` on a fresh machine).
OFFLINE_TOOLS = ("bm25", "bm25-fk")
#: Tools that call an OpenAI-compatible endpoint; skipped (with a line saying so) when none is configured.
LLM_TOOLS = ("raw-llm", "retrieval", "rag", "mac-sql", "din-sql")
#: The external-command tool: runs only when a command is configured.
CLI_TOOL = "cli"
#: Every tool the Dagster graph has an asset pair for, in board order.
ALL_TOOLS = (*REFERENCE_TOOLS, *OFFLINE_TOOLS, *LLM_TOOLS, CLI_TOOL)
#: Deprecated names and what they resolve to (for artifacts and rows).
ALIASES = {"llm": "raw-llm"}

PRIMARY_SEED = 42
QUESTIONS_DIR = PROJECT_ROOT / "questions"
QUESTION_MODES = ("full", "natural")


def canonical_tool(name: str) -> str:
    """The name a tool's artifacts and rows carry (aliases resolved)."""
    return ALIASES.get(name, name)


@dataclass(frozen=True)
class BenchOptions:
    """One bench run: which states, which tools, how predictions are made and scored."""

    scale: str = "tiny"
    seeds: tuple[int, ...] = (42, 43, 44)
    tools: tuple[str, ...] = ()  # empty: the default tools (see default_tools)
    n: int = 1
    primary_seed: int = PRIMARY_SEED
    questions_dir: Path = QUESTIONS_DIR
    question_mode: str = "full"
    time_ves: bool = False
    retry_failed: bool = False
    offline: bool = False
    cli_command: str | None = None
    cli_name: str | None = None
    schema: str = "full"  # raw-llm's schema rendering: full | compact
    seed_missing: bool = True
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.question_mode not in QUESTION_MODES:
            raise ValueError(f"--question-mode must be one of {', '.join(QUESTION_MODES)}, got {self.question_mode!r}")
        if self.n < 1:
            raise ValueError(f"--n must be at least 1, got {self.n}")
        if not self.seeds:
            raise ValueError("--seeds needs at least one seed")
        if self.schema not in ("full", "compact"):
            raise ValueError(f"--schema must be full or compact, got {self.schema!r}")

    @property
    def states(self) -> tuple[int, ...]:
        """Every seed the run needs built: the scored seeds and the primary one."""
        return tuple(sorted({*self.seeds, self.primary_seed}))

    def with_tools(self, tools: tuple[str, ...]) -> "BenchOptions":
        return replace(self, tools=tools)


def default_tools() -> tuple[str, ...]:
    """Every tool, as in the Dagster graph: one that cannot run here (an LLM tool without an endpoint,
    ``cli`` without a command) is recorded as skipped, so the CLI's and Dagster's standings agree."""
    return ALL_TOOLS

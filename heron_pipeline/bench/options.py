"""What a bench run is asked to do, declared once for the CLI, the Dagster layer and the run manifest.

Every option is one field of ``BenchOptions`` whose metadata (an ``Option``) says how it appears
elsewhere: the ``heron bench`` flag (name, help, choices, the flag's text default), whether it is a
field of Dagster's ``BenchConfig`` resource (run configuration), and whether the run manifest records
it. ``cli_bench.add_arguments`` builds the flags, ``defs.resources.BenchConfig`` its fields and
``manifest_options`` the manifest's ``options`` from these declarations and nothing else, so an option
is added, renamed or documented in exactly one place. The tool list is the adapter registry's.
"""

from __future__ import annotations

import os
from dataclasses import MISSING, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable

from heron_pipeline.adapters.registry import ALIASES, adapter_spec, tool_names
from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.database.names import SCALES
from heron_pipeline.questions.model import QUESTION_MODES

#: Every tool the Dagster graph has an asset pair for, in board order: the registry's list when the
#: definitions are imported (the built-ins; a tool registered later is run by ``heron bench --tools``).
ALL_TOOLS = tool_names()
#: The reference rows: gold (the gold SQL itself) and alt (the independently written SQL).
REFERENCE_TOOLS = tuple(t for t in ALL_TOOLS if adapter_spec(t).kind == "reference")
#: Tools that rank tables instead of writing SQL (the retrieval board); they need no endpoint and no key.
OFFLINE_TOOLS = tuple(t for t in ALL_TOOLS if adapter_spec(t).kind == "retrieval")
#: Tools that call an OpenAI-compatible endpoint; skipped (with a line saying so) when none is configured.
LLM_TOOLS = tuple(t for t in ALL_TOOLS if adapter_spec(t).needs_llm)
#: Tools that produce SQL and therefore have scores (every tool but the retrievers).
SCORED_TOOLS = tuple(t for t in ALL_TOOLS if adapter_spec(t).kind != "retrieval")

PRIMARY_SEED = 42
#: EX pass: tool × state pairs scored at once, each executing ``harness.scorer.score_state``'s 3
#: predictions at a time. 2 × 3 connections stay within the reader role's connection limit (7 on a
#: 2-core machine, DECISIONS "the sandbox under concurrency" 3); measured in benchmarks/bench_overlap.py.
SCORE_WORKERS = 2
QUESTIONS_DIR = PROJECT_ROOT / "questions"
SCHEMA_RENDERINGS = ("full", "compact")


def canonical_tool(name: str) -> str:
    """The name a tool's artifacts and rows carry (aliases resolved)."""
    return ALIASES.get(name, name)


def seeds_from_text(text: str) -> tuple[int, ...]:
    """``42,43,44`` → (42, 43, 44); at least one seed, each an integer in 0..2^31-1 (ValueError naming
    ``--seeds`` otherwise)."""
    seeds = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if not part.isdecimal() or int(part) >= 2**31:
            raise ValueError(f"--seeds {text!r}: {part!r} is not a seed; give comma-separated integers "
                             f"in 0..2147483647, e.g. --seeds 42,43,44")
        seeds.append(int(part))
    if not seeds:
        raise ValueError("--seeds is empty; give at least one seed, e.g. --seeds 42,43,44")
    return tuple(seeds)


def _tools_from_text(text: str) -> tuple[str, ...]:
    return tuple(t.strip() for t in text.split(",") if t.strip()) if text else ()


def _none_if_empty(text: str | None) -> str | None:
    return text or None


def _environ(name: str) -> Callable[[], str]:
    def read() -> str:  # read when the parser is built, never when this module is imported
        return os.environ.get(name, "")
    return read


@dataclass(frozen=True)
class Option:
    """How one ``BenchOptions`` field appears outside the core.

    ``flag``: the ``heron bench`` flag (None: none); a bool field is a switch. ``flag_default``: the
    flag's default when it is not the field's own (a text form, or a callable read when the parser is
    built). ``from_flag``: the flag's text → the field's value. ``config``: a field of Dagster's
    ``BenchConfig`` (None there means the field's default), named ``config_name`` when the option's own
    name is taken by the resource class (``schema``). ``recorded``: in the run manifest."""

    flag: str | None = None
    help: str | None = None
    choices: tuple[str, ...] | None = None
    flag_default: Any = None  # None: the field's default
    from_flag: Callable[[Any], Any] | None = None
    config: bool = False
    config_name: str | None = None  # the run-config field's name when it is not the option's own
    recorded: bool = True


def option(default: Any = MISSING, *, default_factory: Any = MISSING, **spec: Any) -> Any:
    """A ``BenchOptions`` field with its ``Option`` declaration as metadata."""
    return field(default=default, default_factory=default_factory, metadata={"heron": Option(**spec)})


@dataclass(frozen=True)
class BenchOptions:
    """One bench run: which states, which tools, how predictions are made and scored."""

    scale: str = option("tiny", flag="--scale", choices=SCALES)
    seeds: tuple[int, ...] = option((42, 43, 44), flag="--seeds", flag_default="42,43,44", from_flag=seeds_from_text)
    tools: tuple[str, ...] = option(  # empty: the default tools (see default_tools)
        (), flag="--tools", flag_default="", from_flag=_tools_from_text,
        help="comma-separated tools (default: gold, alt, the offline retrievers, and the LLM tools when an "
             "endpoint is configured)")
    n: int = option(1, flag="--n", help="samples per question (pass@k needs n ≥ k)", config=True)
    primary_seed: int = option(PRIMARY_SEED, flag="--primary-seed", config=True,
                               help="the state tools may look at while predicting")
    questions_dir: Path = option(QUESTIONS_DIR, flag="--questions", flag_default=str(QUESTIONS_DIR), from_flag=Path,
                                 help="the question files' folder", config=True)
    instance_seed: int = option(0, flag="--instance-seed", from_flag=int, config=True,
                                help="the question draw: 0 (the default) is the public set; any other seed draws "
                                     "every question with slots anew (audited, redrawn where a rule fails)")
    time_ves: bool = option(False, flag="--ves", help="also time gold and prediction for VES / R-VES", config=True)
    score_workers: int = option(SCORE_WORKERS, flag="--score-workers",
                                help="tool × state pairs whose predictions are executed at once (EX); VES "
                                     "timing runs after them, one query at a time")
    question_mode: str = option("natural", flag="--question-mode", choices=QUESTION_MODES, config=True,
                                help="which question text the tools see (default: natural, the headline; full "
                                     "states every convention: the told-everything upper bound)")
    retry_failed: bool = option(False, flag="--retry-failed", config=True,
                                help="re-ask the model only where a cached call failed")
    offline: bool = option(False, flag="--offline", config=True,
                           help="answer from the response cache only (a miss is an error)")
    cli_command: str | None = option(None, flag="--cli-command", flag_default=_environ("HERON_CLI_COMMAND"),
                                     from_flag=_none_if_empty, config=True,
                                     help="the external command of the `cli` tool (HERON_CLI_COMMAND)")
    cli_name: str | None = option(None, flag="--cli-name", flag_default=_environ("HERON_CLI_NAME"),
                                  from_flag=_none_if_empty, config=True,
                                  help="the `cli` tool's name on the board (HERON_CLI_NAME, default cli)")
    cli_cwd: str | None = option(None, flag="--cli-cwd", flag_default=_environ("HERON_CLI_CWD"),
                                 from_flag=_none_if_empty, config=True,
                                 help="the `cli` tool's working directory (HERON_CLI_CWD; default: heron's own)")
    schema: str = option("full", flag="--schema", choices=SCHEMA_RENDERINGS, config=True,  # raw-llm's rendering
                         config_name="schema_rendering",  # `schema` is an attribute of Dagster's resource class
                         help="raw-llm's schema prompt: the full rendering or the compact one (default full)")
    seed_missing: bool = option(True)  # build a state that does not exist (the CLI always does)
    extra: dict = option(default_factory=dict)

    def __post_init__(self) -> None:
        if self.question_mode not in QUESTION_MODES:
            raise ValueError(f"--question-mode must be one of {', '.join(QUESTION_MODES)}, got {self.question_mode!r}")
        if self.n < 1:
            raise ValueError(f"--n must be at least 1, got {self.n}")
        if not 0 <= self.instance_seed < 2**63:
            raise ValueError(f"--instance-seed must be an integer in 0..2^63-1, got {self.instance_seed}")
        if self.score_workers < 1:
            raise ValueError(f"--score-workers must be at least 1, got {self.score_workers}")
        if not self.seeds:
            raise ValueError("--seeds needs at least one seed")
        if self.schema not in SCHEMA_RENDERINGS:
            raise ValueError(f"--schema must be full or compact, got {self.schema!r}")

    @property
    def states(self) -> tuple[int, ...]:
        """Every seed the run needs built: the scored seeds and the primary one."""
        return tuple(sorted({*self.seeds, self.primary_seed}))

    def with_tools(self, tools: tuple[str, ...]) -> "BenchOptions":
        return replace(self, tools=tools)


@dataclass(frozen=True)
class OptionField:
    """One declared option: the field's name, type annotation, default and its ``Option``."""

    name: str
    annotation: str
    default: Any
    spec: Option

    @property
    def flag_default(self) -> Any:
        given = self.spec.flag_default
        if given is None:
            return self.default
        return given() if callable(given) else given

    @property
    def config_name(self) -> str:
        """The field's name in Dagster's ``BenchConfig``."""
        return self.spec.config_name or self.name

    def value_from_flag(self, value: Any) -> Any:
        return self.spec.from_flag(value) if self.spec.from_flag is not None else value


def option_fields() -> tuple[OptionField, ...]:
    """Every option of ``BenchOptions`` in declaration order (the flags' order in ``--help``)."""
    out = []
    for f in fields(BenchOptions):
        default = f.default if f.default is not MISSING else f.default_factory()  # type: ignore[misc]
        out.append(OptionField(f.name, str(f.type), default, f.metadata["heron"]))
    return tuple(out)


def manifest_options(options: BenchOptions) -> dict[str, Any]:
    """The ``options`` a run manifest records: every recorded option as JSON (paths as text, tuples as
    lists, tool names canonical)."""
    out: dict[str, Any] = {}
    for f in option_fields():
        if not f.spec.recorded:
            continue
        value = getattr(options, f.name)
        out[f.name] = str(value) if isinstance(value, Path) else list(value) if isinstance(value, tuple) else value
    out["tools"] = [canonical_tool(t) for t in out.get("tools", [])]
    return out


def default_tools() -> tuple[str, ...]:
    """Every registered tool, as in the Dagster graph: one that cannot run here (an LLM tool without an
    endpoint, ``cli`` without a command) is recorded as skipped, so the CLI's and Dagster's standings agree."""
    return tool_names()

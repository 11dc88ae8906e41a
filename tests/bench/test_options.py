"""The run options are declared once (``BenchOptions`` fields with an ``Option`` each): the flags of
``heron bench``, Dagster's run configuration and the manifest's options are generated from them, and
the flags are a contract — names, defaults, help and choices exactly as before."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from pathlib import Path

import pytest

from heron_pipeline.bench.options import QUESTIONS_DIR, BenchOptions, canonical_tool, manifest_options, option_fields

#: (flag, default, help, choices, how it parses): the contract of `heron bench`, written out by hand.
FLAGS = (
    ("--scale", "tiny", None, ("tiny", "small", "bench", "large"), "text"),
    ("--seeds", "42,43,44", None, None, "text"),
    ("--tools", "", "comma-separated tools (default: gold, alt, the offline retrievers, and the LLM tools when an "
                    "endpoint is configured)", None, "text"),
    ("--n", 1, "samples per question (pass@k needs n ≥ k)", None, "int"),
    ("--primary-seed", 42, "the state tools may look at while predicting", None, "int"),
    ("--questions", str(QUESTIONS_DIR), "the question files' folder", None, "text"),
    ("--instance-seed", 0, "the question draw: 0 (the default) is the public set; any other seed draws every "
     "question with slots anew (audited, redrawn where a rule fails)", None, "int"),
    ("--ves", False, "also time gold and prediction for VES / R-VES", None, "switch"),
    ("--score-workers", 2, "tool × state pairs whose predictions are executed at once (EX); VES timing runs after "
                           "them, one query at a time", None, "int"),
    ("--question-mode", "natural", "which question text the tools see (default: natural, the headline; full "
     "states every convention: the told-everything upper bound)", ("full", "natural"), "text"),
    ("--retry-failed", False, "re-ask the model only where a cached call failed", None, "switch"),
    ("--offline", False, "answer from the response cache only (a miss is an error)", None, "switch"),
    ("--cli-command", "", "the external command of the `cli` tool (HERON_CLI_COMMAND)", None, "text"),
    ("--cli-name", "", "the `cli` tool's name on the board (HERON_CLI_NAME, default cli)", None, "text"),
    # issue 29: a runnable submission's tool runs in its own folder
    ("--cli-cwd", "", "the `cli` tool's working directory (HERON_CLI_CWD; default: heron's own)", None, "text"),
    ("--schema", "full", "raw-llm's schema prompt: the full rendering or the compact one (default full)",
     ("full", "compact"), "text"),
    # how the standings are printed, not what is run (issue 30): not a run option
    ("--all-columns", False, "print every column of the standings (default: the headline figures; every column "
                             "is also in the leaderboard files)", None, "switch"),
)


def _parser() -> argparse.ArgumentParser:
    from heron_pipeline.cli_bench import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser


def _how(action: argparse.Action) -> str:
    if isinstance(action, argparse._StoreTrueAction):
        return "switch"
    return "int" if action.type is int else "text"


def test_the_flags_are_exactly_the_contract(monkeypatch) -> None:
    monkeypatch.delenv("HERON_CLI_COMMAND", raising=False)
    monkeypatch.delenv("HERON_CLI_NAME", raising=False)
    monkeypatch.delenv("HERON_CLI_CWD", raising=False)
    actions = [a for a in _parser()._actions if a.option_strings and a.dest != "help"]
    got = tuple((a.option_strings[0], a.default, a.help, tuple(a.choices) if a.choices else None, _how(a))
                for a in actions)
    assert got == FLAGS


def test_the_cli_flags_default_to_their_variables_when_the_parser_is_built(monkeypatch) -> None:
    monkeypatch.setenv("HERON_CLI_COMMAND", "/usr/bin/my-tool")
    monkeypatch.setenv("HERON_CLI_NAME", "mine")
    args = _parser().parse_args([])
    assert (args.cli_command, args.cli_name) == ("/usr/bin/my-tool", "mine")


@pytest.mark.parametrize("argv, expected", [
    ([], BenchOptions()),
    (["--scale", "small", "--seeds", "7, 8", "--tools", "gold,,bm25 ", "--n", "3", "--ves", "--offline"],
     BenchOptions(scale="small", seeds=(7, 8), tools=("gold", "bm25"), n=3, time_ves=True, offline=True)),
    (["--questions", "/tmp/q", "--question-mode", "full", "--retry-failed", "--schema", "compact",
      "--primary-seed", "43", "--cli-command", "echo", "--cli-name", "x"],
     BenchOptions(questions_dir=Path("/tmp/q"), question_mode="full", retry_failed=True, schema="compact",
                  primary_seed=43, cli_command="echo", cli_name="x")),
    (["--cli-command", "", "--cli-name", ""], BenchOptions(cli_command=None, cli_name=None)),
])
def test_flags_become_the_options(argv, expected, monkeypatch) -> None:
    from heron_pipeline.cli_bench import bench_options

    monkeypatch.delenv("HERON_CLI_COMMAND", raising=False)
    monkeypatch.delenv("HERON_CLI_NAME", raising=False)
    assert bench_options(_parser().parse_args(argv)) == expected


@pytest.mark.parametrize("seeds", ["", "42,x", "-1", "2147483648"])
def test_a_bad_seeds_flag_is_a_usage_error_naming_the_flag(seeds) -> None:
    from heron_pipeline.cli import UsageError
    from heron_pipeline.cli_bench import bench_options

    with pytest.raises(UsageError, match="--seeds"):
        bench_options(_parser().parse_args(["--seeds", seeds]))


def test_the_manifest_records_every_option_as_before() -> None:
    """What the manifest recorded before the declarations (every field, JSON-shaped, tools canonical)."""
    options = BenchOptions(tools=("llm", "gold"), cli_command="x", n=2, seeds=(43, 42))
    before = {k: (str(v) if isinstance(v, Path) else list(v) if isinstance(v, tuple) else v)
              for k, v in asdict(options).items()}
    before["tools"] = [canonical_tool(t) for t in before["tools"]]
    assert manifest_options(options) == before
    assert manifest_options(options)["tools"] == ["raw-llm", "gold"]


def test_every_field_is_declared_and_the_run_configuration_is_the_documented_set() -> None:
    names = [f.name for f in option_fields()]
    assert names == list(BenchOptions.__dataclass_fields__)
    assert [f.name for f in option_fields() if f.spec.config] == [
        "n", "primary_seed", "questions_dir", "instance_seed", "time_ves", "question_mode", "retry_failed", "offline",
        "cli_command",
        "cli_name", "cli_cwd", "schema"]

"""The registry is the one tool list, and it refuses a second registration of any name — a built-in one
included, whenever the attempt is made (before the built-ins were loaded too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BOARD_ORDER = ("gold", "alt", "bm25", "bm25-fk", "raw-llm", "retrieval", "rag", "mac-sql", "din-sql", "cli")


def _fresh(code: str) -> subprocess.CompletedProcess:
    """``code`` in a new interpreter: the registry exactly as a first use finds it."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", ["gold", "bm25", "raw-llm", "cli", "llm"])
def test_a_builtin_name_is_refused_even_as_the_first_registration(name) -> None:
    done = _fresh("from heron_pipeline.adapters.registry import register\n"
                  "try:\n"
                  f"    register({name!r}, object)\n"
                  "except ValueError as err:\n"
                  "    print('refused:', err)\n"
                  "else:\n"
                  "    print('accepted')\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"refused: adapter {name!r} is already registered"


def test_a_second_registration_of_a_new_name_is_refused() -> None:
    from heron_pipeline.adapters.registry import _REGISTRY, register

    register("twice-test", object)
    try:
        with pytest.raises(ValueError, match="'twice-test' is already registered"):
            register("twice-test", object, kind="retrieval")
        assert _REGISTRY["twice-test"].kind == "sql"  # the first registration stands
    finally:
        _REGISTRY.pop("twice-test")


def test_the_tool_list_is_the_registry_in_board_order() -> None:
    from heron_pipeline.adapters.registry import tool_names
    from heron_pipeline.bench.options import ALL_TOOLS, LLM_TOOLS, OFFLINE_TOOLS, REFERENCE_TOOLS, SCORED_TOOLS

    assert tool_names()[:len(BOARD_ORDER)] == ALL_TOOLS == BOARD_ORDER
    assert REFERENCE_TOOLS == ("gold", "alt")
    assert OFFLINE_TOOLS == ("bm25", "bm25-fk")
    assert LLM_TOOLS == ("raw-llm", "retrieval", "rag", "mac-sql", "din-sql")
    assert SCORED_TOOLS == ("gold", "alt", "raw-llm", "retrieval", "rag", "mac-sql", "din-sql", "cli")


def test_a_registered_tool_joins_the_default_tools_after_the_builtins() -> None:
    from heron_pipeline.adapters.registry import _REGISTRY, register
    from heron_pipeline.bench.options import default_tools

    register("later-test", object)
    try:
        assert default_tools() == (*BOARD_ORDER, "later-test")
    finally:
        _REGISTRY.pop("later-test")


def test_importing_the_tool_list_imports_no_adapter() -> None:
    done = _fresh("import sys; import heron_pipeline.bench.options\n"
                  "print(sorted(m for m in sys.modules if m.startswith('heron_pipeline.adapters.') "
                  "and m not in ('heron_pipeline.adapters.base', 'heron_pipeline.adapters.registry', "
                  "'heron_pipeline.adapters.reference')), 'openai' in sys.modules)")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[] False"

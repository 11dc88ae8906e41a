"""Name → adapter: the one list of tools. Looked up by the name used in CLI flags, artifacts and asset keys.

One registry for every tool, which refuses a second registration of a name (lm-evaluation-harness'
rule: two tools must never share artifacts or rows); the built-in tools are registered through the
same ``register`` as any other, in board order, the first time the registry is used. Each entry says
what kind of tool it is — ``reference`` (gold, alt), ``sql`` (predicts SQL) or ``retrieval`` (ranked
tables, no SQL) — and whether it needs an LLM endpoint, an external command or the primary state's
data, so the orchestration can skip a tool that cannot run here with one line instead of failing
half-way. ``tool_names()`` (registration order) is the tool list the bench core and the Dagster graph
use. ``llm`` is a deprecated alias of ``raw-llm``: it prints one deprecation line and resolves to
``raw-llm`` for artifacts and rows.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from heron_pipeline.adapters.base import Adapter, AdapterFactory

KINDS = ("reference", "sql", "retrieval")

#: deprecated name → current name
ALIASES = {"llm": "raw-llm"}


@dataclass(frozen=True)
class AdapterSpec:
    name: str
    factory: AdapterFactory
    kind: str = "sql"
    needs_llm: bool = False  # an LLMClient is passed as ``llm=``
    needs_data: bool = False  # looks at the primary state through the sandbox's reader role
    needs_command: bool = False  # runs an external command (skipped when none is configured)


_REGISTRY: dict[str, AdapterSpec] = {}
_WARNED: set[str] = set()


def register(name: str, factory: AdapterFactory, *, kind: str = "sql", needs_llm: bool = False,
             needs_data: bool = False, needs_command: bool = False) -> None:
    """Make ``factory`` available as ``name``; a second registration of a name (a built-in one included,
    whenever it is attempted) is an error."""
    _load_builtins()
    _add(AdapterSpec(name, factory, kind, needs_llm, needs_data, needs_command))


def _add(spec: AdapterSpec) -> None:
    name = spec.name
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"adapter name must be alphanumeric (with - or _), got {name!r}")
    if spec.kind not in KINDS:
        raise ValueError(f"adapter kind must be one of {', '.join(KINDS)}, got {spec.kind!r}")
    if name in _REGISTRY or name in ALIASES:
        raise ValueError(f"adapter {name!r} is already registered")
    _REGISTRY[name] = spec


def tool_names() -> tuple[str, ...]:
    """Every registered tool in registration order: the built-ins in board order (reference, offline
    retrievers, LLM tools, the external command), then any registered later."""
    _load_builtins()
    return tuple(_REGISTRY)


def resolve_name(name: str) -> str:
    """The current name of ``name`` (an alias prints one deprecation line per process, on stderr)."""
    if name in ALIASES:
        current = ALIASES[name]
        if name not in _WARNED:
            _WARNED.add(name)
            print(f"warning: tool '{name}' is deprecated; use '{current}' (artifacts and rows are named "
                  f"'{current}')", file=sys.stderr)
        return current
    return name


def adapter_names() -> list[str]:
    """Registered adapter names (aliases not included), sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def adapter_spec(name: str) -> AdapterSpec:
    """The registry entry of ``name`` (aliases resolved); ValueError naming the known tools."""
    _load_builtins()
    current = resolve_name(name)
    try:
        return _REGISTRY[current]
    except KeyError:
        raise ValueError(f"unknown tool {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def create_adapter(name: str, **options: Any) -> Adapter:
    """A new adapter instance by name (options go to its factory)."""
    return adapter_spec(name).factory(**options)


_BUILTINS_LOADED = False


def _llm_client(options: dict[str, Any]) -> Any:
    """The LLMClient given as ``llm=``, or one built from ``settings=`` / the environment (the
    pre-bench callers pass ``cache_dir=`` and nothing else)."""
    client = options.pop("llm", None)
    settings = options.pop("settings", None)
    cache_dir = options.pop("cache_dir", None)
    if client is not None:
        return client
    from heron_pipeline.llm import LLMClient, LLMSettings

    return LLMClient(settings or LLMSettings.from_environ(), cache_dir=cache_dir)


def _lazy(module: str, attribute: str, *, llm: bool = False) -> AdapterFactory:
    """A factory that imports its adapter only when a tool is created (registering reads no module, so
    importing the tool list imports neither openai nor the retrievers)."""
    def factory(**options: Any) -> Adapter:
        import importlib

        made = getattr(importlib.import_module(module), attribute)
        return made(_llm_client(options), **options) if llm else made(**options)
    return factory


#: The built-in tools in board order: (name, factory, kind, needs_llm, needs_data, needs_command).
BUILTINS: tuple[tuple[str, AdapterFactory, str, bool, bool, bool], ...] = (
    ("gold", _lazy("heron_pipeline.adapters.reference", "GoldAdapter"), "reference", False, False, False),
    ("alt", _lazy("heron_pipeline.adapters.reference", "AltAdapter"), "reference", False, False, False),
    ("bm25", _lazy("heron_pipeline.adapters.bm25", "bm25"), "retrieval", False, False, False),
    ("bm25-fk", _lazy("heron_pipeline.adapters.bm25", "bm25_fk"), "retrieval", False, False, False),
    ("raw-llm", _lazy("heron_pipeline.adapters.raw_llm", "RawLLMAdapter", llm=True), "sql", True, False, False),
    ("retrieval", _lazy("heron_pipeline.adapters.retrieval_llm", "RetrievalAdapter", llm=True), "sql", True, False,
     False),
    ("rag", _lazy("heron_pipeline.adapters.rag", "RagAdapter", llm=True), "sql", True, False, False),
    ("mac-sql", _lazy("heron_pipeline.adapters.mac_sql", "MacSQLAdapter", llm=True), "sql", True, True, False),
    ("din-sql", _lazy("heron_pipeline.adapters.din_sql", "DinSQLAdapter", llm=True), "sql", True, False, False),
    ("cli", _lazy("heron_pipeline.adapters.command", "CommandAdapter"), "sql", False, True, True),
)


def _load_builtins() -> None:
    # On first use, through the same duplicate check as every other registration.
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    for name, factory, kind, needs_llm, needs_data, needs_command in BUILTINS:
        _add(AdapterSpec(name, factory, kind, needs_llm, needs_data, needs_command))

"""Name → adapter. Tools are looked up by the name used in CLI flags, artifacts and asset keys.

One registry for every tool, which refuses a second registration of a name (lm-evaluation-harness'
rule: two tools must never share artifacts or rows). Each entry says what kind of tool it is —
``reference`` (gold, alt), ``sql`` (predicts SQL) or ``retrieval`` (ranked tables, no SQL) — and
whether it needs an LLM endpoint or the primary state's data, so the orchestration can skip a tool
that cannot run here with one line instead of failing half-way. ``llm`` is a deprecated alias of
``raw-llm``: it prints one deprecation line and resolves to ``raw-llm`` for artifacts and rows.
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


_REGISTRY: dict[str, AdapterSpec] = {}
_WARNED: set[str] = set()


def register(name: str, factory: AdapterFactory, *, kind: str = "sql", needs_llm: bool = False,
             needs_data: bool = False, replace: bool = False) -> None:
    """Make ``factory`` available as ``name``; a second registration of a name is an error."""
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"adapter name must be alphanumeric (with - or _), got {name!r}")
    if kind not in KINDS:
        raise ValueError(f"adapter kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if (name in _REGISTRY or name in ALIASES) and not replace:
        raise ValueError(f"adapter {name!r} is already registered")
    _REGISTRY[name] = AdapterSpec(name, factory, kind, needs_llm, needs_data)


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


def _load_builtins() -> None:
    # Imported lazily so that importing the registry does not import the openai client.
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    from heron_pipeline.adapters.reference import AltAdapter, GoldAdapter

    def llm_factory(module: str, cls: str):
        def factory(**options: Any) -> Adapter:
            import importlib

            adapter_cls = getattr(importlib.import_module(module), cls)
            return adapter_cls(_llm_client(options), **options)
        return factory

    def cli_factory(**options: Any) -> Adapter:
        from heron_pipeline.adapters.command import CommandAdapter

        return CommandAdapter(**options)

    def bm25_factory(*, expand: bool):
        def factory(**options: Any) -> Adapter:
            from heron_pipeline.adapters.bm25 import bm25, bm25_fk

            return (bm25_fk if expand else bm25)(**options)
        return factory

    builtins = [
        ("gold", GoldAdapter, "reference", False, False),
        ("alt", AltAdapter, "reference", False, False),
        ("raw-llm", llm_factory("heron_pipeline.adapters.raw_llm", "RawLLMAdapter"), "sql", True, False),
        ("retrieval", llm_factory("heron_pipeline.adapters.retrieval_llm", "RetrievalAdapter"), "sql", True, False),
        ("rag", llm_factory("heron_pipeline.adapters.rag", "RagAdapter"), "sql", True, False),
        ("mac-sql", llm_factory("heron_pipeline.adapters.mac_sql", "MacSQLAdapter"), "sql", True, True),
        ("din-sql", llm_factory("heron_pipeline.adapters.din_sql", "DinSQLAdapter"), "sql", True, False),
        ("cli", cli_factory, "sql", False, True),
        ("bm25", bm25_factory(expand=False), "retrieval", False, False),
        ("bm25-fk", bm25_factory(expand=True), "retrieval", False, False),
    ]
    for name, factory, kind, needs_llm, needs_data in builtins:
        if name not in _REGISTRY:
            _REGISTRY[name] = AdapterSpec(name, factory, kind, needs_llm, needs_data)

"""Name → adapter factory. Tools are looked up by the name used in CLI flags and asset keys."""

from __future__ import annotations

from typing import Any

from heron_pipeline.adapters.base import Adapter, AdapterFactory

_REGISTRY: dict[str, AdapterFactory] = {}


def register(name: str, factory: AdapterFactory, *, replace: bool = False) -> None:
    """Make ``factory`` available as ``name``; a second registration of a name is an error."""
    if not name or not name.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"adapter name must be alphanumeric (with - or _), got {name!r}")
    if name in _REGISTRY and not replace:
        raise ValueError(f"adapter {name!r} is already registered")
    _REGISTRY[name] = factory


def adapter_names() -> list[str]:
    """Registered adapter names, sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def create_adapter(name: str, **options: Any) -> Adapter:
    """A new adapter instance by name (options go to its factory)."""
    _load_builtins()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown adapter {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None
    return factory(**options)


_BUILTINS_LOADED = False


def _load_builtins() -> None:
    # Imported lazily so that importing the registry does not import the openai client.
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    _BUILTINS_LOADED = True
    from heron_pipeline.adapters.reference import AltAdapter, GoldAdapter

    def _llm(**options: Any) -> Adapter:
        from heron_pipeline.adapters.llm import LLMAdapter, LLMSettings

        settings = options.pop("settings", None) or LLMSettings.from_environ()
        return LLMAdapter(settings, **options)

    from heron_pipeline.adapters.bm25 import bm25, bm25_fk

    for name, factory in (("gold", GoldAdapter), ("alt", AltAdapter), ("llm", _llm), ("bm25", bm25),
                          ("bm25-fk", bm25_fk)):
        _REGISTRY.setdefault(name, factory)

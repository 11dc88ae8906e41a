"""What the multi-step adapters share: table lists from model replies, prompts of a table subset.

A model asked for a JSON list of tables may answer with prose, invent tables, or spell them
without their schema. ``tables_from_reply`` keeps only the catalog's own names (an unqualified
name that is unique in the catalog is qualified), in the order given, and says what it dropped,
so the step's record line can tell "fell back" from "trimmed two invented names".
"""

from __future__ import annotations

import threading
from typing import Any, Iterable

from heron_pipeline.adapters.extract import extract_json
from heron_pipeline.adapters.prompt import render_schema


def known_tables(names: Iterable[Any], catalog: Any) -> tuple[list[str], list[str]]:
    """(catalog tables among ``names`` in order, without duplicates; the names that are not tables)."""
    by_bare: dict[str, list[str]] = {}
    for qualified in catalog.tables:
        by_bare.setdefault(qualified.split(".", 1)[1], []).append(qualified)
    kept: list[str] = []
    dropped: list[str] = []
    for raw in names:
        name = str(raw).strip().strip('"').lower() if isinstance(raw, str) else None
        if not name:
            dropped.append(str(raw))
            continue
        if name not in catalog.tables and len(by_bare.get(name, [])) == 1:
            name = by_bare[name][0]
        if name in catalog.tables:
            if name not in kept:
                kept.append(name)
        else:
            dropped.append(name)
    return kept, dropped


def tables_from_reply(reply: str | None, catalog: Any, key: str = "tables") -> tuple[list[str], str]:
    """The tables a reply's JSON object lists under ``key`` and a note; ([], why) when unusable."""
    doc = extract_json(reply)
    if doc is None:
        return [], "no JSON object in the reply"
    listed = doc.get(key)
    if not isinstance(listed, list):
        return [], f"the JSON object has no '{key}' list"
    kept, dropped = known_tables(listed, catalog)
    if not kept:
        return [], f"none of the {len(listed)} listed names is a table"
    note = f"{len(kept)} tables" + (f" (dropped unknown: {', '.join(dropped[:5])})" if dropped else "")
    return kept, note


def render_tables(catalog: Any, tables: Iterable[str], style: str = "full") -> str:
    """The schema prompt of only ``tables`` (and the enum types they use)."""
    return render_schema(catalog, style, tables=list(tables))


def retrieved_fallback(catalog: Any, text: str, limit: int = 20) -> list[str]:
    """Tables for a step whose model reply was unusable: the lexical retriever's ranking with FK
    join paths (heron_pipeline.retrieval), or [] when that library is not available."""
    try:
        from heron_pipeline.retrieval import TableRetriever, expand_with_join_paths
    except ImportError:
        return []
    return list(expand_with_join_paths(retriever_for(catalog).rank(text), catalog, limit=limit))


_RETRIEVERS: dict[int, tuple[Any, Any]] = {}
_RETRIEVERS_LOCK = threading.Lock()


def retriever_for(catalog: Any) -> Any:
    """One TableRetriever per catalog object (building the BM25 index takes a moment; the worker
    threads of a run share it)."""
    from heron_pipeline.retrieval import TableRetriever

    with _RETRIEVERS_LOCK:
        held = _RETRIEVERS.get(id(catalog))
        if held is None or held[0] is not catalog:  # an id() can be reused by a later catalog
            held = (catalog, TableRetriever(catalog))
            _RETRIEVERS[id(catalog)] = held
        return held[1]

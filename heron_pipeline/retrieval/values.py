"""Reference values per table: the strings every seeded state holds, from the generation profiles.

A question names things by their values ("Halyard Outfitters", "Euro", "Germany", a plan code)
more often than by their table. The values here are the ones the generator writes into every seed
(the anchor tenants of ``seeding/special.py`` and the ``data`` / ``fixed_rows`` of
``schema_ddl/profiles/*.yaml``), i.e. what any tool could read from the primary state with
``SELECT DISTINCT``; reading them from the profiles keeps the retriever offline and identical for
every seed. No question, gold SQL or gold table list is read here.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Mapping, Sequence

from heron_pipeline import yaml_text
from heron_pipeline.config import PROJECT_ROOT

PROFILE_DIR = PROJECT_ROOT / "schema_ddl" / "profiles"


def _strings(value: object, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, out)


@lru_cache(maxsize=4)
def _profile_values(profile_dir: str) -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for path in sorted(Path(profile_dir).glob("*.yaml")):
        document = yaml_text.safe_load(path.read_text(encoding="utf-8")) or {}
        for table, entry in document.items():
            if isinstance(entry, dict) and "." in str(table):
                out = found.setdefault(str(table), [])
                for key in ("data", "fixed_rows"):
                    _strings(entry.get(key, []), out)
    return {table: tuple(dict.fromkeys(v)) for table, v in found.items() if v}


def reference_values(profile_dir: Path = PROFILE_DIR) -> dict[str, tuple[str, ...]]:
    """qualified table → the distinct reference strings its rows hold in every seed."""
    from heron_pipeline.seeding.special import ANCHOR_TENANTS

    values = dict(_profile_values(str(profile_dir)))
    anchors = tuple(name for name, *_ in ANCHOR_TENANTS)
    values["tenancy.tenants"] = tuple(dict.fromkeys((*values.get("tenancy.tenants", ()), *anchors)))
    return values


#: A value links its table only when it spans at least this many tokens: single words ("active",
#: "Europe", "email") are too common in questions to say which table a query reads.
MIN_LINK_TOKENS = 2


class ValueLinker:
    """Exact phrase matching of reference values in a text (value-based schema linking).

    ``tables(text)`` lists the tables that hold a value of at least ``MIN_LINK_TOKENS`` tokens
    occurring in ``text`` as a contiguous run of tokens (same tokenisation as the documents), in
    order of first mention. A question that says "For Halyard Outfitters" needs the table that
    holds that name, however little else of its wording matches that table.
    """

    def __init__(self, values: Mapping[str, Sequence[str]], *, stem: bool = True,
                 min_tokens: int = MIN_LINK_TOKENS):
        from heron_pipeline.retrieval.tokens import tokenize

        self._tokenize = lambda text: tokenize(text, stem=stem)
        self.phrases: dict[tuple[str, ...], list[str]] = {}
        for table, strings in values.items():
            for string in strings:
                phrase = tuple(self._tokenize(string))
                if len(phrase) >= min_tokens and table not in self.phrases.setdefault(phrase, []):
                    self.phrases[phrase].append(table)
        self._longest = max((len(p) for p in self.phrases), default=0)

    def tables(self, text: str) -> list[str]:
        tokens = self._tokenize(text)
        found: list[str] = []
        for start in range(len(tokens)):
            for size in range(min(self._longest, len(tokens) - start), 0, -1):
                for table in self.phrases.get(tuple(tokens[start:start + size]), ()):
                    if table not in found:
                        found.append(table)
        return found

"""The parsed inputs of every build — catalog, profiles, phase-2 steps — cached on disk.

Parsing the 211-table DDL with sqlglot and the YAML profiles costs several seconds per process,
more than generating the whole ``tiny`` scale, and a build used to parse the DDL three times
(catalog, phase-2 steps, the table of each phase-2 statement). The parse is a pure function of
the DDL and profile bytes and of the code that reads them, so its result is pickled under a key
made of exactly those (``input_cache``); a changed file or parser gives a new key, never a stale
catalog.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from heron_pipeline.catalog.model import Catalog
from heron_pipeline.seeding.profiles import PROFILE_DIR, TableProfile

#: The code whose behaviour the cached objects depend on.
_CODE = ("catalog", "seeding/profiles.py", "seeding/prepared.py", "database/schema_load.py")


@dataclass(frozen=True)
class Prepared:
    catalog: Catalog
    profiles: dict[str, TableProfile]
    steps: dict[str, list[str]]  # phase-2 statements by step (see schema_load.STEPS)
    statement_table: dict[str, str]  # phase-2 statement -> qualified table it alters
    fk_parent: dict[str, str]  # FK statement -> qualified table it references
    prelude: str  # phase-1 statements that create no table (schemas, types, their comments)
    table_ddl: dict[str, str]  # qualified table -> its CREATE TABLE and comments, as one script


_REFERENCES = re.compile(r"\bREFERENCES\s+(\w+\.\w+)", re.IGNORECASE)
#: Phase-1 statements that belong to one table: ``CREATE TABLE t``, ``COMMENT ON TABLE t``,
#: ``COMMENT ON COLUMN t.c`` and ``COMMENT ON CONSTRAINT c ON t`` (leading ``--`` lines skipped).
_TABLE_STATEMENT = re.compile(
    r"^(?:CREATE\s+TABLE\s+(?P<create>\w+\.\w+)"
    r"|COMMENT\s+ON\s+TABLE\s+(?P<table>\w+\.\w+)"
    r"|COMMENT\s+ON\s+COLUMN\s+(?P<column>\w+\.\w+)\.\w+"
    r"|COMMENT\s+ON\s+CONSTRAINT\s+\w+\s+ON\s+(?P<constraint>\w+\.\w+))\b",
    re.IGNORECASE,
)


def split_phase_one(texts: list[str]) -> tuple[str, dict[str, str]]:
    """(prelude, per-table script) of the phase-1 files' texts, in file order. The loader creates
    each table in the transaction that copies its rows, so only the prelude runs when the build
    database is created (see ``build._copy_tables``)."""
    from heron_pipeline.catalog.ddl import split_statements

    prelude: list[str] = []
    tables: dict[str, list[str]] = {}
    for text in texts:
        for statement in split_statements(text):
            body = "\n".join(line for line in statement.splitlines() if not line.lstrip().startswith("--")).strip()
            match = _TABLE_STATEMENT.match(body)
            if match is None:
                prelude.append(body)
                continue
            table = next(name for name in match.groups() if name)
            if match.group("create") is None and table not in tables:
                raise ValueError(f"phase-1 statement before its table's CREATE TABLE: {body[:120]}")
            tables.setdefault(table, []).append(body)
    return ";\n".join(prelude) + ";\n", {t: ";\n".join(s) + ";\n" for t, s in tables.items()}


def cache_key() -> str:
    """sha256 of every input of the parse: DDL and profile files, the parsing code, versions."""
    import yaml

    from heron_pipeline.catalog.ddl import ddl_files, ddl_hash
    from heron_pipeline.input_cache import code_digest, python_and_sqlglot
    from heron_pipeline.seeding.profiles import profile_hash

    digest = hashlib.sha256(f"{python_and_sqlglot()} yaml={yaml.__version__}\0".encode())
    digest.update(ddl_hash(ddl_files()).encode() + b"\0" + profile_hash(PROFILE_DIR).encode() + b"\0")
    return code_digest(_CODE, digest).hexdigest()


def _parse() -> Prepared:
    import sqlglot
    import sqlglot.expressions as exp

    from heron_pipeline.catalog import load_catalog
    from heron_pipeline.catalog.ddl import ddl_files
    from heron_pipeline.database.schema_load import phase_two_steps
    from heron_pipeline.seeding.profiles import load_profiles

    catalog = load_catalog()
    steps = phase_two_steps()
    statement_table: dict[str, str] = {}
    for step, statements in steps.items():
        if step == "comment":
            continue
        for statement in statements:
            parsed = sqlglot.parse_one(statement, read="postgres")
            target = parsed.this if isinstance(parsed, exp.Alter) else parsed.this.args["table"]
            statement_table[statement] = f"{target.db}.{target.name}"
    fk_parent = {statement: _REFERENCES.search(statement).group(1)  # type: ignore[union-attr]
                 for statement in steps["foreign_key"]}
    prelude, table_ddl = split_phase_one([path.read_text() for path in ddl_files().phase_one])
    return Prepared(catalog, load_profiles(catalog), steps, statement_table, fk_parent, prelude, table_ddl)


@lru_cache(maxsize=2)
def _load(key: str) -> Prepared:
    from heron_pipeline.input_cache import pickled

    return pickled("prepared", key, _parse, Prepared)


def load_prepared() -> Prepared:
    """The catalog, profiles and phase-2 steps of the current DDL, parsed at most once per input."""
    return _load(cache_key())

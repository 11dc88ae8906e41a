"""Parse ``schema_ddl/`` with sqlglot into the typed catalog.

Statements are split with sqlglot's tokenizer (so a ``;`` inside a string or comment never splits a
statement) and each is parsed on its own. The one statement sqlglot cannot parse,
``COMMENT ON CONSTRAINT``, is recognised from its tokens: heron uses it only to declare
back-references, and its grammar is fixed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import sqlglot
import sqlglot.expressions as exp
from sqlglot.tokens import TokenType

from heron_pipeline.catalog.model import Catalog, Check, Column, ForeignKey, Index, Table, UniqueKey
from heron_pipeline.config import PROJECT_ROOT

DDL_DIR = PROJECT_ROOT / "schema_ddl"
BASE_FILE = "00_base.sql"
_DOMAIN_FILE = re.compile(r"^(\d\d)_([a-z_]+)\.sql$")
BACK_REFERENCE_PREFIX = "back-reference:"


class DDLError(ValueError):
    """The DDL breaks a structural assumption the catalog relies on; the message says where."""


@dataclass(frozen=True)
class Statement:
    """One DDL statement with where it came from (file, phase) and its parsed form."""

    file: str
    phase: int  # 1 = tables, 2 = keys
    sql: str
    expression: exp.Expression | None  # None for COMMENT ON CONSTRAINT
    constraint_comment: tuple[str, str, str] | None = None  # (constraint, qualified table, text)


@dataclass(frozen=True)
class DDLFiles:
    """The schema's files in load order."""

    base: Path
    tables: tuple[Path, ...]
    keys: tuple[Path, ...]

    @property
    def phase_one(self) -> tuple[Path, ...]:
        return (self.base, *self.tables)

    @property
    def phase_two(self) -> tuple[Path, ...]:
        return self.keys

    @property
    def all(self) -> tuple[Path, ...]:
        return (*self.phase_one, *self.phase_two)

    def domains(self) -> list[str]:
        return [_DOMAIN_FILE.match(p.name).group(2) for p in self.tables]  # type: ignore[union-attr]


def ddl_files(ddl_dir: Path = DDL_DIR) -> DDLFiles:
    tables = tuple(sorted((ddl_dir / "tables").glob("*.sql")))
    keys = tuple(sorted((ddl_dir / "keys").glob("*.sql")))
    for path in (*tables, *keys):
        if not _DOMAIN_FILE.match(path.name):
            raise DDLError(f"{path}: DDL files are named NN_<domain>.sql")
    if [p.name for p in tables] != [p.name for p in keys]:
        raise DDLError("schema_ddl/tables and schema_ddl/keys must hold the same NN_<domain>.sql files")
    return DDLFiles(base=ddl_dir / BASE_FILE, tables=tables, keys=keys)


def ddl_hash(files: DDLFiles) -> str:
    """sha256 over the DDL files' names and bytes: the catalog asset's code version."""
    digest = hashlib.sha256()
    for path in files.all:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def split_statements(text: str) -> list[str]:
    """Statement texts of a SQL file, split at top-level semicolons found by the tokenizer."""
    statements, start = [], 0
    for token in sqlglot.tokenize(text, read="postgres"):
        if token.token_type == TokenType.SEMICOLON:
            chunk = text[start : token.start].strip()
            if chunk:
                statements.append(chunk)
            start = token.end + 1
    tail = text[start:].strip()
    if tail and sqlglot.tokenize(tail, read="postgres"):
        statements.append(tail)
    return statements


def _constraint_comment(sql_text: str) -> tuple[str, str, str] | None:
    tokens = sqlglot.tokenize(sql_text, read="postgres")
    words = [t.text.upper() for t in tokens[:3]]
    if words != ["COMMENT", "ON", "CONSTRAINT"]:
        return None
    # COMMENT ON CONSTRAINT name ON schema . table IS 'text'
    texts = [t.text for t in tokens]
    try:
        name, on, schema, dot, table, is_, literal = texts[3:10]
    except ValueError:
        raise DDLError(f"cannot read constraint comment: {sql_text[:120]}") from None
    if on.upper() != "ON" or dot != "." or is_.upper() != "IS" or tokens[9].token_type != TokenType.STRING:
        raise DDLError(f"cannot read constraint comment: {sql_text[:120]}")
    return name, f"{schema}.{table}", literal


def read_statements(files: DDLFiles) -> list[Statement]:
    out = []
    for phase, paths in ((1, files.phase_one), (2, files.phase_two)):
        for path in paths:
            for text in split_statements(path.read_text()):
                comment = _constraint_comment(text)
                if comment is not None:
                    out.append(Statement(path.name, phase, text, None, comment))
                    continue
                try:
                    expression = sqlglot.parse_one(text, read="postgres")
                except sqlglot.errors.ParseError as err:
                    raise DDLError(f"{path}: cannot parse statement: {err}") from None
                out.append(Statement(path.name, phase, text, expression))
    return out


# -- expression helpers ------------------------------------------------------------------------------


def _qualified(table: exp.Table) -> str:
    return f"{table.db}.{table.name}" if table.db else table.name


def _names(expressions: list[exp.Expression]) -> tuple[str, ...]:
    return tuple(e.name for e in expressions)


_KINDS = {
    exp.DataType.Type.BIGINT: ("int", 64),
    exp.DataType.Type.INT: ("int", 32),
    exp.DataType.Type.SMALLINT: ("int", 16),
    exp.DataType.Type.DECIMAL: ("numeric", None),
    exp.DataType.Type.TEXT: ("text", None),
    exp.DataType.Type.VARCHAR: ("text", None),
    exp.DataType.Type.CHAR: ("text", None),
    exp.DataType.Type.BOOLEAN: ("bool", None),
    exp.DataType.Type.DATE: ("date", None),
    exp.DataType.Type.TIMESTAMPTZ: ("timestamptz", None),
    exp.DataType.Type.JSONB: ("jsonb", None),
    exp.DataType.Type.UUID: ("uuid", None),
    exp.DataType.Type.INET: ("inet", None),
}


def _column(defn: exp.ColumnDef) -> Column:
    dtype: exp.DataType = defn.args["kind"]
    type_sql = dtype.sql(dialect="postgres").lower().replace(", ", ",")
    params = [int(e.name) for e in dtype.expressions if isinstance(e, exp.DataTypeParam) or e.is_int]
    length = precision = scale = bits = None
    if dtype.this == exp.DataType.Type.ARRAY and dtype.expressions[0].this == exp.DataType.Type.TEXT:
        kind = "text[]"
    elif dtype.this == exp.DataType.Type.USERDEFINED:
        kind = "enum"
    elif dtype.this in _KINDS:
        kind, bits = _KINDS[dtype.this]
        if dtype.this in (exp.DataType.Type.VARCHAR, exp.DataType.Type.CHAR) and params:
            length = params[0]
        if dtype.this == exp.DataType.Type.DECIMAL and params:
            precision, scale = params[0], (params[1] if len(params) > 1 else 0)
    else:
        kind = "unsupported:" + type_sql
    nullable, default = True, None
    for constraint in defn.args.get("constraints") or []:
        if isinstance(constraint.kind, exp.NotNullColumnConstraint) and not constraint.kind.args.get("allow_null"):
            nullable = False
        elif isinstance(constraint.kind, exp.DefaultColumnConstraint):
            default = constraint.kind.this.sql(dialect="postgres")
    return Column(defn.name, type_sql, kind, nullable, default, None, length, precision, scale, bits)


def _create_table(statement: Statement, domain_numbers: dict[str, int]) -> Table:
    schema_expr: exp.Schema = statement.expression.this  # type: ignore[union-attr]
    table_expr: exp.Table = schema_expr.this
    columns, checks = [], []
    for item in schema_expr.expressions:
        if isinstance(item, exp.ColumnDef):
            columns.append(_column(item))
        elif isinstance(item, exp.Constraint) and isinstance(item.expressions[0], exp.CheckColumnConstraint):
            check_expr = item.expressions[0].this
            checks.append(Check(item.name, check_expr, check_expr.sql(dialect="postgres")))
        else:
            raise DDLError(f"{statement.file}: {table_expr.sql()} declares {item.sql()[:80]!r} in phase 1; "
                           "keys belong in phase 2 and CHECKs must be named")
    schema = table_expr.db
    return Table(schema, table_expr.name, domain_numbers.get(schema, 0), columns, checks)


def build_catalog(files: DDLFiles | None = None) -> Catalog:
    """Parse the DDL files into a catalog (no database needed)."""
    files = files or ddl_files()
    domains = files.domains()
    numbers = {d: i + 1 for i, d in enumerate(domains)}
    statements = read_statements(files)
    tables: dict[str, Table] = {}
    enums: dict[str, tuple[str, ...]] = {}
    type_schemas: list[str] = []
    comments: dict[tuple[str, str | None], str] = {}
    back_refs: dict[tuple[str, str], str] = {}

    for st in statements:
        e = st.expression
        if st.constraint_comment:
            name, table, text = st.constraint_comment
            if text.startswith(BACK_REFERENCE_PREFIX):
                back_refs[(table, name)] = text[len(BACK_REFERENCE_PREFIX):].strip()
        elif isinstance(e, exp.Create) and e.args.get("kind") == "TABLE":
            table = _create_table(st, numbers)
            tables[table.qualified] = table
        elif isinstance(e, exp.Create) and e.args.get("kind") == "TYPE":
            enums[_qualified(e.this)] = tuple(lit.name for lit in e.args["expression"].expressions)
        elif isinstance(e, exp.Create) and e.args.get("kind") == "SCHEMA":
            name = e.this.db or e.this.name
            if name not in domains:
                type_schemas.append(name)
        elif isinstance(e, exp.Comment):
            kind = e.args.get("kind")
            target = e.this
            text = e.args["expression"].name
            if kind == "TABLE":
                comments[(_qualified(target), None)] = text
            elif kind == "COLUMN":
                comments[(f"{target.args['db'].name}.{target.table}", target.name)] = text
        elif isinstance(e, exp.Alter):
            _apply_alter(tables, e, st)
        elif isinstance(e, exp.Create) and e.args.get("kind") == "INDEX":
            index = e.this
            qualified = _qualified(index.args["table"])
            cols = tuple(o.this.name for o in index.args["params"].args["columns"])
            tables[qualified].indexes.append(Index(index.name, qualified, cols, bool(e.args.get("unique"))))

    for (qualified, column), text in comments.items():
        if qualified not in tables:
            raise DDLError(f"comment on unknown table {qualified}")
        table = tables[qualified]
        if column is None:
            table.comment = text
        else:
            idx = [c.name for c in table.columns].index(column)
            old = table.columns[idx]
            table.columns[idx] = Column(old.name, old.type_sql, old.kind, old.nullable, old.default_sql, text,
                                        old.length, old.precision, old.scale, old.int_bits)
    for (qualified, name), reason in back_refs.items():
        table = tables[qualified]
        table.foreign_keys = [
            ForeignKey(fk.name, fk.table, fk.columns, fk.ref_table, fk.ref_columns, reason) if fk.name == name else fk
            for fk in table.foreign_keys
        ]
    return Catalog(domains=domains, tables=tables, enums=enums, ddl_hash=ddl_hash(files), type_schemas=type_schemas)


def _apply_alter(tables: dict[str, Table], alter: exp.Alter, st: Statement) -> None:
    qualified = _qualified(alter.this)
    table = tables.get(qualified)
    if table is None:
        raise DDLError(f"{st.file}: ALTER of unknown table {qualified}")
    for action in alter.args.get("actions") or []:
        if not isinstance(action, exp.AddConstraint):
            raise DDLError(f"{st.file}: only ADD CONSTRAINT is allowed in phase 2, got {action.sql()[:80]}")
        for constraint in action.expressions:
            name = constraint.name
            body = constraint.expressions[0]
            if isinstance(body, exp.PrimaryKey):
                table.primary_key = _names(body.expressions)
                table.primary_key_name = name
            elif isinstance(body, exp.UniqueColumnConstraint):
                table.uniques.append(UniqueKey(name, _names(body.this.expressions)))
            elif isinstance(body, exp.ForeignKey):
                ref = body.args["reference"].this
                table.foreign_keys.append(
                    ForeignKey(name, qualified, _names(body.expressions), _qualified(ref.this), _names(ref.expressions))
                )
                # sqlglot keeps ON DELETE / ON UPDATE / MATCH as reference options (older versions used
                # the delete/update args): none is allowed, the contract's FKs are plain.
                options = body.args["reference"].args.get("options") or []
                if body.args.get("delete") or body.args.get("update") or options:
                    raise DDLError(f"{st.file}: {name}: foreign keys take no ON DELETE/UPDATE action or MATCH "
                                   f"clause, got {' '.join(map(str, options))}")
            else:
                raise DDLError(f"{st.file}: unsupported constraint {constraint.sql()[:80]}")


#: The code a parsed catalog depends on (``input_cache`` keys name it).
_CATALOG_CODE = ("catalog",)


def catalog_key(files: DDLFiles) -> str:
    """sha256 of every input of ``build_catalog(files)``: the DDL bytes, this package's code and
    the Python and sqlglot versions."""
    from heron_pipeline.input_cache import code_digest, python_and_sqlglot

    digest = hashlib.sha256(f"{python_and_sqlglot()}\0{ddl_hash(files)}\0".encode())
    return code_digest(_CATALOG_CODE, digest).hexdigest()


@lru_cache(maxsize=4)
def _cached(ddl_dir: str, key: str) -> Catalog:
    from heron_pipeline.input_cache import pickled

    return pickled("catalog", key, lambda: build_catalog(ddl_files(Path(ddl_dir))), Catalog)


def load_catalog(ddl_dir: Path = DDL_DIR) -> Catalog:
    """The catalog of ``ddl_dir``, parsed once per input: in memory per process, and on disk
    (``input_cache``) across processes, where the parse cost ~2 s in every one that needed it."""
    return _cached(str(ddl_dir), catalog_key(ddl_files(ddl_dir)))

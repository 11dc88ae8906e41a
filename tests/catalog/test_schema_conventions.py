"""The schema contract (schema_ddl/CONVENTIONS.md), enforced on the DDL without a database.

Every rule CONVENTIONS.md marks **[tested]** has a test here. The DDL is parsed once through
``heron_pipeline.catalog`` (sqlglot underneath); statement-level rules (phases, qualification) read
``read_statements`` directly. Tests are parametrized over tables or files so a failure names the
offender; the assertion message lists every offending column / constraint of that table.
"""

from __future__ import annotations

import os
import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest
import sqlglot
import sqlglot.expressions as exp

from heron_pipeline.catalog import DDLError, build_catalog, ddl_files, load_catalog
from heron_pipeline.catalog.ddl import DDL_DIR, read_statements
from heron_pipeline.catalog.graph import domain_dependencies, is_acyclic
from heron_pipeline.catalog.model import TYPE_KINDS, Table

# -- the contract's constants ----------------------------------------------------------------------

DOMAINS = [
    "tenancy", "auth", "crm", "catalog", "pricing", "inventory", "orders",
    "subscriptions", "billing", "support", "marketing", "comms", "analytics", "ops",
]
TABLE_COUNT = 211
ISO_TABLES = {
    "tenancy.countries": ("code",),
    "tenancy.currencies": ("code",),
    "tenancy.languages": ("code",),
    "tenancy.timezones": ("name",),
}
#: Declared back-references (FKs pointing up the domain order): keep this set small.
EXPECTED_BACK_REFERENCES = {"tenancy.tenants.tenants_owner_user_id_fkey"}
MAX_BACK_REFERENCES = 3
#: The one global unique key with more than one column.
GLOBAL_COMPOSITE_UNIQUES = {("tenancy.exchange_rates", ("currency_code", "rate_date"))}

UNCOMMENTED_COLUMNS = {"id", "tenant_id", "created_at", "updated_at"}
BOOLEAN_PREFIXES = ("is_", "has_", "can_", "allows_")
FK_CODE_COLUMNS = re.compile(r"^((\w+_)?currency_code|(\w+_)?country_code|language_code|timezone_name)$")
MONEY_WORDS = ("amount", "price", "total", "cost", "fee", "balance", "subtotal")
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
MAX_IDENTIFIER_BYTES = 63

#: The DDL under test; HERON_TEST_DDL_DIR points the suite at a modified copy (to check that it fails).
SCHEMA_DIR = Path(os.environ.get("HERON_TEST_DDL_DIR") or DDL_DIR)
CATALOG = load_catalog(SCHEMA_DIR)
TABLES: list[Table] = list(CATALOG.tables.values())
TABLE_IDS = [t.qualified for t in TABLES]
TENANT_TABLES = [t for t in TABLES if t.is_tenant_scoped]
FILES = ddl_files(SCHEMA_DIR)
STATEMENTS = read_statements(FILES)
PHASE_ONE_FILES = [p.name for p in FILES.tables]
PHASE_TWO_FILES = [p.name for p in FILES.keys]

by_table = pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)


def _statements_of(phase: int, file: str):
    return [s for s in STATEMENTS if s.phase == phase and s.file == file]


# -- README.md: the table list ----------------------------------------------------------------------

_HEADING = re.compile(r"^###\s+(\d\d)\s+([a-z_]+)\b.*\((\d+)\)\s*$")
_ROW = re.compile(r"^\|\s*([a-z0-9_]+)\s*\|\s*(G?)\s*\|")


def parse_readme(path: Path = SCHEMA_DIR / "README.md") -> list[tuple[int, str, int, dict[str, bool]]]:
    """(number, domain, announced count, {table: is_global}) per ``### NN domain`` section."""
    sections: list[tuple[int, str, int, dict[str, bool]]] = []
    rows: dict[str, bool] | None = None  # the rows of the section being read, None outside one
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            heading = _HEADING.match(line)
            rows = {} if heading else None
            if heading:
                sections.append((int(heading.group(1)), heading.group(2), int(heading.group(3)), rows))
            continue
        row = _ROW.match(line)
        if row and rows is not None and row.group(1) != "table":
            rows[row.group(1)] = row.group(2) == "G"
    return sections


README = parse_readme()
README_BY_DOMAIN = {domain: (number, count, rows) for number, domain, count, rows in README}


# -- 1. schemas and files ---------------------------------------------------------------------------


def test_table_count() -> None:
    assert len(CATALOG.tables) == TABLE_COUNT


def test_domains_in_dependency_order() -> None:
    assert CATALOG.domains == DOMAINS
    assert [domain for _, domain, _, _ in README] == DOMAINS
    assert [number for number, _, _, _ in README] == list(range(1, len(DOMAINS) + 1))


def test_tables_only_in_domain_schemas() -> None:
    stray = sorted(name for name, t in CATALOG.tables.items() if t.schema not in DOMAINS)
    assert not stray, f"tables outside the 14 domain schemas: {stray}"


def test_shared_holds_only_types_and_public_nothing() -> None:
    assert CATALOG.type_schemas == ["shared"]
    created = [s.expression.this.db or s.expression.this.name for s in STATEMENTS
               if isinstance(s.expression, exp.Create) and s.expression.args.get("kind") == "SCHEMA"]
    assert created == [*DOMAINS, "shared"]
    assert not [t for t in TABLES if t.schema in ("shared", "public")]
    assert all(name.split(".")[0] in (*DOMAINS, "shared") for name in CATALOG.enums), sorted(CATALOG.enums)


def test_shared_types_are_used_by_several_domains() -> None:
    users: dict[str, set[str]] = defaultdict(set)
    for table in TABLES:
        for column in table.columns:
            if column.kind == "enum":
                users[column.type_sql].add(table.schema)
    lonely = {name: sorted(users[name]) for name in CATALOG.enums if name.startswith("shared.") and len(users[name]) < 2}
    assert not lonely, f"shared types used by fewer than two domains: {lonely}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_readme_lists_exactly_the_domain_tables(domain: str) -> None:
    assert domain in README_BY_DOMAIN, f"README.md has no '### NN {domain}' section"
    number, count, rows = README_BY_DOMAIN[domain]
    assert number == CATALOG.domain_number(domain)
    readme = {f"{domain}.{name}" for name in rows}
    ddl = {t.qualified for t in CATALOG.tables_of(domain)}
    assert readme == ddl, f"only in README: {sorted(readme - ddl)}; only in DDL: {sorted(ddl - readme)}"
    assert len(rows) == count, f"heading announces {count} tables, the list has {len(rows)}"


def test_readme_global_marks_match_tables_without_tenant_id() -> None:
    marked = {f"{domain}.{name}" for _, domain, _, rows in README for name, is_global in rows.items() if is_global}
    global_tables = {t.qualified for t in TABLES if not t.is_tenant_scoped}
    assert marked == global_tables, (
        f"G in README but tenant-scoped: {sorted(marked - global_tables)}; "
        f"global but not marked G: {sorted(global_tables - marked)}"
    )


def test_file_names_follow_the_dependency_order() -> None:
    expected = [f"{i:02d}_{domain}.sql" for i, domain in enumerate(DOMAINS, start=1)]
    assert PHASE_ONE_FILES == expected
    assert PHASE_TWO_FILES == expected
    assert FILES.base.name == "00_base.sql"
    assert sorted(p.name for p in SCHEMA_DIR.glob("*.sql")) == ["00_base.sql"]


@pytest.mark.parametrize("file", PHASE_ONE_FILES + PHASE_TWO_FILES)
def test_each_file_touches_only_its_own_domain(file: str) -> None:
    domain = re.match(r"^\d\d_([a-z_]+)\.sql$", file).group(1)
    foreign = []
    for st in (s for s in STATEMENTS if s.file == file):
        if st.constraint_comment is not None:
            targets = [st.constraint_comment[1]]
        elif isinstance(st.expression, exp.Create) and st.expression.args.get("kind") == "INDEX":
            targets = [f"{st.expression.this.args['table'].db}.{st.expression.this.args['table'].name}"]
        elif isinstance(st.expression, (exp.Create, exp.Alter)):
            target = st.expression.this.this if isinstance(st.expression.this, exp.Schema) else st.expression.this
            targets = [f"{target.db}.{target.name}"]
        elif isinstance(st.expression, exp.Comment):
            target = st.expression.this
            targets = [f"{target.args['db'].name}.{target.table}" if isinstance(target, exp.Column)
                       else f"{target.db}.{target.name}"]
        else:
            targets = []
        foreign += [t for t in targets if t.split(".")[0] != domain]
    assert not foreign, f"{file} declares objects of other schemas: {sorted(set(foreign))}"


# -- size and comments ------------------------------------------------------------------------------


def test_average_width_and_linkage() -> None:
    columns = sum(len(t.columns) for t in TABLES)
    fks = len(CATALOG.foreign_keys)
    assert columns / len(TABLES) >= 10, f"{columns / len(TABLES):.2f} columns per table"
    assert fks >= 500, f"only {fks} foreign keys"


@by_table
def test_table_has_comment(table: Table) -> None:
    assert table.comment and table.comment.strip(), f"{table.qualified} has no COMMENT ON TABLE"


@by_table
def test_columns_have_comments(table: Table) -> None:
    missing = [c.name for c in table.columns if c.name not in UNCOMMENTED_COLUMNS and not (c.comment or "").strip()]
    assert not missing, f"{table.qualified}: columns without COMMENT: {missing}"


# -- phases and qualification -----------------------------------------------------------------------


def _describe(st) -> str:
    return st.sql.splitlines()[0][:100]


def test_base_file_creates_only_schemas_and_types() -> None:
    bad = [_describe(s) for s in _statements_of(1, "00_base.sql")
           if not (isinstance(s.expression, (exp.Create, exp.Comment)) and s.expression.args.get("kind") in ("SCHEMA", "TYPE"))]
    assert not bad, bad


@pytest.mark.parametrize("file", PHASE_ONE_FILES)
def test_phase_one_holds_only_types_tables_and_comments(file: str) -> None:
    bad = []
    for st in _statements_of(1, file):
        e = st.expression
        if isinstance(e, exp.Create) and e.args.get("kind") in ("TABLE", "TYPE"):
            if e.args.get("exists") or e.args.get("replace") or e.args.get("properties"):
                bad.append(f"{_describe(st)}: IF NOT EXISTS / OR REPLACE / table properties")
            if e.args.get("kind") == "TYPE" and not (isinstance(e.args.get("expression"), exp.DataType)
                                                     and e.args["expression"].this == exp.DataType.Type.ENUM):
                bad.append(f"{_describe(st)}: only enum types")
        elif isinstance(e, exp.Comment) and e.args.get("kind") in ("TABLE", "COLUMN", "TYPE"):
            pass
        else:
            bad.append(_describe(st))
    assert not bad, f"{file}: not allowed in phase 1: {bad}"


@pytest.mark.parametrize("file", PHASE_ONE_FILES)
def test_create_table_holds_only_columns_not_null_default_and_named_checks(file: str) -> None:
    bad = []
    for st in _statements_of(1, file):
        e = st.expression
        if not (isinstance(e, exp.Create) and e.args.get("kind") == "TABLE"):
            continue
        table = e.this.this.name
        for item in e.this.expressions:
            if isinstance(item, exp.ColumnDef):
                for constraint in item.args.get("constraints") or []:
                    if not isinstance(constraint.kind, (exp.NotNullColumnConstraint, exp.DefaultColumnConstraint)):
                        bad.append(f"{table}.{item.name}: {constraint.sql(dialect='postgres')}")
                    elif isinstance(constraint.kind, exp.NotNullColumnConstraint) and constraint.kind.args.get("allow_null"):
                        bad.append(f"{table}.{item.name}: explicit NULL")
            elif not (isinstance(item, exp.Constraint) and item.name
                      and len(item.expressions) == 1 and isinstance(item.expressions[0], exp.CheckColumnConstraint)):
                bad.append(f"{table}: {item.sql(dialect='postgres')[:80]}")
    assert not bad, f"{file}: phase-1 tables may hold only columns, NOT NULL, DEFAULT and named CHECKs: {bad}"


@pytest.mark.parametrize("file", PHASE_TWO_FILES)
def test_phase_two_holds_only_keys_indexes_and_constraint_comments(file: str) -> None:
    bad = []
    for st in _statements_of(2, file):
        e = st.expression
        if st.constraint_comment is not None:
            continue
        if isinstance(e, exp.Alter) and e.args.get("kind") == "TABLE":
            actions = e.args.get("actions") or []
            if len(actions) != 1 or not isinstance(actions[0], exp.AddConstraint) or len(actions[0].expressions) != 1:
                bad.append(f"{_describe(st)}: one ADD CONSTRAINT per ALTER TABLE")
                continue
            constraint = actions[0].expressions[0]
            body = constraint.expressions[0] if constraint.expressions else None
            if not constraint.name or not isinstance(body, (exp.PrimaryKey, exp.UniqueColumnConstraint, exp.ForeignKey)):
                bad.append(f"{_describe(st)}: only named PRIMARY KEY / UNIQUE / FOREIGN KEY")
            elif isinstance(body, exp.ForeignKey):
                options = [*(body.args.get("options") or []), *(body.args["reference"].args.get("options") or [])]
                if options or body.args.get("delete") or body.args.get("update"):
                    bad.append(f"{_describe(st)}: foreign-key options {options}")
            if e.args.get("exists") or e.args.get("only") or e.args.get("not_valid"):
                bad.append(f"{_describe(st)}: IF EXISTS / ONLY / NOT VALID")
        elif isinstance(e, exp.Create) and e.args.get("kind") == "INDEX":
            params = e.this.args.get("params")
            columns = params.args.get("columns") or [] if params else []
            if e.args.get("unique"):
                bad.append(f"{_describe(st)}: unique indexes are not allowed (use a UNIQUE constraint)")
            if params is None or params.args.get("where") or params.args.get("using") or params.args.get("include"):
                bad.append(f"{_describe(st)}: partial / USING / INCLUDE index")
            if not columns or not all(isinstance(o, exp.Ordered) and isinstance(o.this, exp.Column) for o in columns):
                bad.append(f"{_describe(st)}: expression index")
            if e.args.get("exists") or e.args.get("concurrently"):
                bad.append(f"{_describe(st)}: IF NOT EXISTS / CONCURRENTLY")
        else:
            bad.append(_describe(st))
    assert not bad, f"{file}: not allowed in phase 2: {bad}"


def test_constraint_comments_only_in_phase_two_and_name_existing_foreign_keys() -> None:
    comments = [s for s in STATEMENTS if s.constraint_comment is not None]
    assert all(s.phase == 2 for s in comments)
    fks = {(fk.table, fk.name) for fk in CATALOG.foreign_keys}
    dangling = [s.constraint_comment[:2] for s in comments if (s.constraint_comment[1], s.constraint_comment[0]) not in fks]
    assert not dangling, f"COMMENT ON CONSTRAINT names no foreign key: {dangling}"


@pytest.mark.parametrize("file", ["00_base.sql", *PHASE_ONE_FILES, *(f"keys/{f}" for f in PHASE_TWO_FILES)])
def test_every_name_is_schema_qualified(file: str) -> None:
    phase = 2 if file.startswith("keys/") else 1
    name = file.removeprefix("keys/")
    bad = []
    for st in _statements_of(phase, name):
        e = st.expression
        if e is None:
            if "." not in st.constraint_comment[1]:
                bad.append(_describe(st))
            continue
        if isinstance(e, (exp.Create, exp.Comment)) and e.args.get("kind") == "SCHEMA":
            continue  # a schema name is the qualifier itself
        for table in e.find_all(exp.Table):
            if not table.db:
                bad.append(f"{table.sql()} in {_describe(st)}")
        if isinstance(e, exp.Comment) and e.args.get("kind") == "COLUMN" and not e.this.args.get("db"):
            bad.append(f"column {e.this.sql()} in {_describe(st)}")
        for dtype in e.find_all(exp.DataType):
            if dtype.this == exp.DataType.Type.USERDEFINED and "." not in dtype.sql(dialect="postgres"):
                bad.append(f"type {dtype.sql(dialect='postgres')} in {_describe(st)}")
    assert not bad, f"{file}: unqualified names: {bad}"


# -- 2. names ---------------------------------------------------------------------------------------


def _bad_identifier(name: str) -> bool:
    return not SNAKE_CASE.match(name) or not name.isascii() or len(name.encode()) > MAX_IDENTIFIER_BYTES


def _constraint_names(table: Table) -> list[str]:
    names = [n for n in (table.primary_key_name,) if n]
    names += [u.name for u in table.uniques] + [fk.name for fk in table.foreign_keys]
    names += [c.name for c in table.checks] + [i.name for i in table.indexes]
    return names


@by_table
def test_identifiers_are_short_ascii_snake_case(table: Table) -> None:
    names = [table.schema, table.name, *(c.name for c in table.columns), *_constraint_names(table)]
    bad = [n for n in names if _bad_identifier(n)]
    assert not bad, f"{table.qualified}: not snake_case ASCII <= 63 bytes: {bad}"


def test_type_names_are_short_ascii_snake_case() -> None:
    bad = [name for name in CATALOG.enums if any(_bad_identifier(part) for part in name.split("."))]
    assert not bad, bad


def test_constraint_and_index_names_are_unique() -> None:
    seen: dict[str, list[str]] = defaultdict(list)
    for table in TABLES:
        for name in _constraint_names(table):
            seen[f"{table.schema}.{name}"].append(table.qualified)
    duplicates = {name: tables for name, tables in seen.items() if len(tables) > 1}
    assert not duplicates, duplicates


@by_table
def test_constraint_name_suffixes(table: Table) -> None:
    prefix = table.name + "_"
    bad = []
    if table.primary_key_name != f"{table.name}_pkey":
        bad.append(f"primary key {table.primary_key_name}")
    bad += [f"unique {u.name}" for u in table.uniques if not (u.name.startswith(prefix) and u.name.endswith("_key"))]
    bad += [f"foreign key {fk.name}" for fk in table.foreign_keys if not (fk.name.startswith(prefix) and fk.name.endswith("_fkey"))]
    bad += [f"check {c.name}" for c in table.checks if not (c.name.startswith(prefix) and re.search(r"_check\d*$", c.name))]
    bad += [f"index {i.name}" for i in table.indexes if not (i.name.startswith(prefix) and i.name.endswith("_idx"))]
    assert not bad, f"{table.qualified}: names not <table>_..._pkey/_key/_fkey/_check/_idx: {bad}"


@by_table
def test_constraint_names_mention_their_columns(table: Table) -> None:
    """``<table>_<cols>_key`` / ``<table>_<col>_fkey`` (tenant_id may be left out of a name)."""

    def spelled(columns: tuple[str, ...], suffix: str) -> set[str]:
        rest = tuple(c for c in columns if c != "tenant_id") or columns
        return {f"{table.name}_{'_'.join(columns)}_{suffix}", f"{table.name}_{'_'.join(rest)}_{suffix}"}

    bad = [u.name for u in table.uniques if u.name not in spelled(u.columns, "key")]
    bad += [fk.name for fk in table.foreign_keys
            if fk.name not in {f"{table.name}_{c}_fkey" for c in fk.columns} | spelled(fk.columns, "fkey")]
    bad += [i.name for i in table.indexes if i.name not in spelled(i.columns, "idx")]
    assert not bad, f"{table.qualified}: constraint names that do not spell their columns: {bad}"


@by_table
def test_boolean_prefixes(table: Table) -> None:
    bad = [c.name for c in table.columns if c.kind == "bool" and not c.name.startswith(BOOLEAN_PREFIXES)]
    assert not bad, f"{table.qualified}: booleans not named is_/has_/can_/allows_: {bad}"


@by_table
def test_foreign_key_column_names(table: Table) -> None:
    bad = sorted({c for fk in table.foreign_keys for c in fk.columns
                  if not c.endswith("_id") and not FK_CODE_COLUMNS.match(c) and not (c == "id" and fk.is_back_reference)})
    assert not bad, f"{table.qualified}: foreign-key columns not named *_id or an ISO code column: {bad}"


# -- 3. keys and tenancy ----------------------------------------------------------------------------


@by_table
def test_every_table_has_a_primary_key_on_existing_columns(table: Table) -> None:
    assert table.primary_key, f"{table.qualified} has no primary key"
    missing = [c for c in table.primary_key if not table.has_column(c)]
    assert not missing, f"{table.qualified}: primary-key columns that do not exist: {missing}"


def test_iso_tables_are_keyed_by_their_code() -> None:
    actual = {name: CATALOG.table(name).primary_key for name in ISO_TABLES}
    assert actual == ISO_TABLES
    assert all(not CATALOG.table(name).is_tenant_scoped for name in ISO_TABLES)


@pytest.mark.parametrize("table", [t for t in TABLES if t.qualified not in ISO_TABLES],
                         ids=[t.qualified for t in TABLES if t.qualified not in ISO_TABLES])
def test_first_column_is_plain_bigint_id(table: Table) -> None:
    first = table.columns[0]
    assert (first.name, first.type_sql, first.nullable, first.default_sql) == ("id", "bigint", False, None), first
    expected_pk = ("tenant_id", "id") if table.is_tenant_scoped else ("id",)
    assert table.primary_key == expected_pk


@by_table
def test_no_sequences_or_identities(table: Table) -> None:
    bad = [c.name for c in table.columns if c.default_sql and re.search(r"nextval|identity|serial", c.default_sql, re.I)]
    bad += [c.name for c in table.columns if c.kind.startswith("unsupported:") and "serial" in c.kind]
    assert not bad, f"{table.qualified}: {bad}"


@pytest.mark.parametrize("table", TENANT_TABLES, ids=[t.qualified for t in TENANT_TABLES])
def test_tenant_scoped_layout(table: Table) -> None:
    second = table.columns[1]
    assert (second.name, second.type_sql, second.nullable) == ("tenant_id", "bigint", False), second
    assert table.primary_key == ("tenant_id", "id")
    tenant_fks = [fk for fk in table.foreign_keys if fk.columns == ("tenant_id",)]
    assert [(fk.ref_table, fk.ref_columns) for fk in tenant_fks] == [("tenancy.tenants", ("id",))], tenant_fks


@by_table
def test_foreign_keys_are_tenant_safe(table: Table) -> None:
    bad = []
    for fk in table.foreign_keys:
        target = CATALOG.table(fk.ref_table)
        if fk.ref_columns != target.primary_key:
            bad.append(f"{fk.name}: references {fk.ref_columns}, not the primary key {target.primary_key}")
        if target.is_tenant_scoped:
            if table.is_tenant_scoped and (len(fk.columns) != 2 or fk.columns[0] != "tenant_id"
                                           or fk.ref_columns != ("tenant_id", "id")):
                bad.append(f"{fk.name}: {fk.columns} -> {fk.ref_table}{fk.ref_columns} is not (tenant_id, x_id) -> (tenant_id, id)")
            if not table.is_tenant_scoped and not fk.is_back_reference:
                bad.append(f"{fk.name}: global table references tenant-scoped {fk.ref_table}")
        elif len(fk.columns) != 1:
            bad.append(f"{fk.name}: foreign key to global {fk.ref_table} must be single-column, got {fk.columns}")
    assert not bad, f"{table.qualified}: " + "; ".join(bad)


@by_table
def test_foreign_key_columns_exist_and_match_types(table: Table) -> None:
    bad = []
    for fk in table.foreign_keys:
        target = CATALOG.tables.get(fk.ref_table)
        if target is None:
            bad.append(f"{fk.name}: unknown table {fk.ref_table}")
            continue
        if len(fk.columns) != len(fk.ref_columns):
            bad.append(f"{fk.name}: column count differs")
        for own, ref in zip(fk.columns, fk.ref_columns):
            if not table.has_column(own) or not target.has_column(ref):
                bad.append(f"{fk.name}: missing column {own} or {fk.ref_table}.{ref}")
            elif table.column(own).type_sql != target.column(ref).type_sql:
                bad.append(f"{fk.name}: {own} {table.column(own).type_sql} vs {ref} {target.column(ref).type_sql}")
    assert not bad, f"{table.qualified}: " + "; ".join(bad)


def _with_on_delete(tmp_path: Path, clause: str) -> Path:
    copy = tmp_path / "schema_ddl"
    shutil.copytree(SCHEMA_DIR, copy)
    keys = copy / "keys" / "03_crm.sql"
    text, n = re.subn(r"(FOREIGN KEY \([^)]*\) REFERENCES [a-z_.]+ \([^)]*\));", rf"\1 {clause};", keys.read_text(), count=1)
    assert n == 1
    keys.write_text(text)
    return copy


def test_unmodified_copy_builds(tmp_path: Path) -> None:
    copy = tmp_path / "schema_ddl"
    shutil.copytree(SCHEMA_DIR, copy)
    assert len(build_catalog(ddl_files(copy)).tables) == TABLE_COUNT


@pytest.mark.parametrize(
    "clause",
    [
        "ON DELETE CASCADE",
        "ON DELETE SET NULL",
        "ON UPDATE CASCADE",
        "MATCH FULL",
    ],
)
def test_build_catalog_rejects_referential_actions(tmp_path: Path, clause: str) -> None:
    copy = _with_on_delete(tmp_path, clause)
    with pytest.raises(DDLError, match="ON DELETE/UPDATE"):
        build_catalog(ddl_files(copy))


# -- dependency order -------------------------------------------------------------------------------


@by_table
def test_foreign_keys_point_down_the_domain_order(table: Table) -> None:
    up = [f"{fk.name} -> {fk.ref_table}" for fk in table.foreign_keys
          if CATALOG.table(fk.ref_table).domain_number > table.domain_number and not fk.is_back_reference]
    assert not up, f"{table.qualified}: undeclared references to higher-numbered domains: {up}"


def test_back_references_are_few_declared_and_point_up() -> None:
    declared = {f"{fk.table}.{fk.name}": fk for fk in CATALOG.foreign_keys if fk.is_back_reference}
    assert set(declared) == EXPECTED_BACK_REFERENCES
    assert len(declared) <= MAX_BACK_REFERENCES
    for name, fk in declared.items():
        assert fk.back_reference, f"{name}: the back-reference comment gives no reason"
        assert CATALOG.table(fk.ref_table).domain_number > CATALOG.table(fk.table).domain_number, (
            f"{name} points to the same or a lower domain: no need to declare it a back-reference")


def test_domain_graph_is_acyclic_only_without_back_references() -> None:
    assert is_acyclic(domain_dependencies(CATALOG))
    assert not is_acyclic(domain_dependencies(CATALOG, include_back_references=True))


# -- 4. columns and types ---------------------------------------------------------------------------


@by_table
def test_types_are_from_the_allowed_set(table: Table) -> None:
    bad = [f"{c.name} {c.type_sql}" for c in table.columns if c.kind not in TYPE_KINDS]
    bad += [f"{c.name} {c.type_sql}" for c in table.columns
            if re.search(r"\b(money|real|double|float\d*|json|timestamp|interval|serial\d*)\b", c.type_sql)]
    assert not bad, f"{table.qualified}: disallowed types: {bad}"


@by_table
def test_no_timestamp_without_time_zone_and_created_at(table: Table) -> None:
    naive = [c.name for c in table.columns if c.type_sql.startswith("timestamp") and c.type_sql != "timestamptz"]
    assert not naive, f"{table.qualified}: timestamp without time zone: {naive}"
    assert table.has_column("created_at"), f"{table.qualified} has no created_at"
    created = table.column("created_at")
    assert (created.type_sql, created.nullable) == ("timestamptz", False), created
    if table.has_column("updated_at"):
        updated = table.column("updated_at")
        assert (updated.type_sql, updated.nullable) == ("timestamptz", False), updated


SOFT_DELETE_TABLES = [t for t in TABLES if t.is_soft_deletable]


@pytest.mark.parametrize("table", SOFT_DELETE_TABLES, ids=[t.qualified for t in SOFT_DELETE_TABLES])
def test_soft_delete(table: Table) -> None:
    deleted = table.column("deleted_at")
    assert (deleted.type_sql, deleted.nullable) == ("timestamptz", True), deleted
    assert "soft-deleted" in (table.comment or ""), f"{table.qualified}: table comment does not say rows are soft-deleted"


def test_some_tables_are_soft_deletable() -> None:
    assert len(SOFT_DELETE_TABLES) >= 20, len(SOFT_DELETE_TABLES)


def _is_money_name(name: str) -> bool:
    return not name.endswith("_id") and any(word in name for word in MONEY_WORDS)


def _currency_columns(table: Table) -> list[str]:
    return [c.name for c in table.columns if c.name == "currency_code" or c.name.endswith("_currency_code")]


@by_table
def test_money_is_numeric_with_a_currency(table: Table) -> None:
    money = [c for c in table.columns if _is_money_name(c.name)]
    not_numeric = [f"{c.name} {c.type_sql}" for c in money if c.kind != "numeric" or c.precision is None]
    assert not not_numeric, f"{table.qualified}: money columns not numeric(p,s): {not_numeric}"
    if money:
        currency = [name for name in _currency_columns(table)
                    if (fk := table.foreign_key_of(name)) and (fk.ref_table, fk.ref_columns) == ("tenancy.currencies", ("code",))]
        assert currency, (f"{table.qualified} has money columns {[c.name for c in money]} but no currency_code "
                          "referencing tenancy.currencies (code)")


@by_table
def test_currency_columns_reference_currencies(table: Table) -> None:
    bad = []
    for name in _currency_columns(table):
        fk = table.foreign_key_of(name)
        if table.column(name).type_sql != "char(3)" or fk is None or fk.ref_table != "tenancy.currencies":
            bad.append(name)
    assert not bad, f"{table.qualified}: currency columns not char(3) -> tenancy.currencies: {bad}"


@by_table
def test_enum_columns_use_declared_qualified_types(table: Table) -> None:
    bad = [f"{c.name} {c.type_sql}" for c in table.columns
           if c.kind == "enum" and (c.type_sql not in CATALOG.enums or c.type_sql.startswith("public."))]
    assert not bad, f"{table.qualified}: enum columns whose type is not declared in a domain/shared schema: {bad}"


def test_no_enum_in_public() -> None:
    assert not [name for name in CATALOG.enums if "." not in name or name.startswith("public.")]


def test_enums_have_labels() -> None:
    bad = {name: labels for name, labels in CATALOG.enums.items() if len(labels) < 2 or len(set(labels)) != len(labels)}
    assert not bad, bad


# -- CHECK constraints ------------------------------------------------------------------------------

_COMPARISONS = (exp.GT, exp.GTE, exp.LT, exp.LTE, exp.EQ, exp.NEQ)


def _unparen(e: exp.Expression) -> exp.Expression:
    while isinstance(e, exp.Paren):
        e = e.this
    return e


def _is_column(e: exp.Expression | None) -> bool:
    return isinstance(e, exp.Column) and not e.table


def _number(e: exp.Expression | None) -> float | None:
    e = _unparen(e) if e is not None else None
    sign = 1
    if isinstance(e, exp.Neg):
        sign, e = -1, _unparen(e.this)
    if isinstance(e, exp.Literal) and not e.is_string:
        return sign * float(e.this)
    return None


def _simple_check(e: exp.Expression) -> str | None:
    e = _unparen(e)
    if isinstance(e, _COMPARISONS) and _is_column(e.this):
        if _number(e.expression) is not None:
            return "column-literal"
        if _is_column(e.expression) and e.expression.name != e.this.name:
            return "column-column"
    if isinstance(e, exp.Between) and _is_column(e.this):
        low, high = _number(e.args.get("low")), _number(e.args.get("high"))
        if low is not None and high is not None and low <= high:
            return "between"
    if (isinstance(e, exp.In) and _is_column(e.this) and not e.args.get("query") and e.expressions
            and all(isinstance(x, exp.Literal) and x.is_string for x in e.expressions)):
        return "in-list"
    return None


def classify_check(e: exp.Expression) -> str | None:
    """The form of a CHECK expression in the generator's vocabulary, or None if it has none.

    Forms: ``column-literal`` (col op number), ``between`` (col BETWEEN n AND m), ``column-column``
    (col op other col), ``in-list`` (col IN ('a', ...)), and ``nullable <form>`` for
    ``x IS NULL OR <form>`` where ``x`` is a column the form uses.
    """
    e = _unparen(e)
    if isinstance(e, exp.Or):
        left, right = _unparen(e.this), _unparen(e.expression)
        if (isinstance(left, exp.Is) and not left.args.get("negate") and _is_column(left.this)
                and isinstance(left.expression, exp.Null)):
            inner = _simple_check(right)
            if inner is not None and left.this.name in {c.name for c in right.find_all(exp.Column)}:
                return f"nullable {inner}"
        return None
    return _simple_check(e)


@pytest.mark.parametrize(
    ("sql", "form"),
    [
        ("quantity > 0", "column-literal"),
        ("(quantity >= 0)", "column-literal"),
        ("discount_percent <= 100", "column-literal"),
        ("latitude >= -90", "column-literal"),
        ("version <> 0", "column-literal"),
        ("rating BETWEEN 1 AND 5", "between"),
        ("ends_at >= starts_at", "column-column"),
        ("ends_at IS NULL OR ends_at >= starts_at", "nullable column-column"),
        ("max_quantity IS NULL OR max_quantity > 0", "nullable column-literal"),
        ("method IN ('GET', 'POST')", "in-list"),
        # not in the vocabulary
        ("quantity > 0 AND quantity < 10", None),
        ("0 < quantity", None),
        ("quantity > price * 2", None),
        ("lower(code) = code", None),
        ("rating BETWEEN 5 AND 1", None),
        ("rating BETWEEN low AND high", None),
        ("status IN (1, 2)", None),
        ("status NOT IN ('a', 'b')", None),
        ("code ~ '^[A-Z]+$'", None),
        ("a IS NULL OR b >= c", None),
        ("a IS NOT NULL OR a >= b", None),
        ("a >= b OR a IS NULL", None),
        ("a = a", None),
        ("t.a > 0", None),
        ("length(code) = 3", None),
        ("name <> ''", None),
    ],
)
def test_check_classifier(sql: str, form: str | None) -> None:
    assert classify_check(sqlglot.parse_one(sql, read="postgres")) == form


@by_table
def test_checks_use_the_generator_vocabulary(table: Table) -> None:
    bad = []
    for check in table.checks:
        form = classify_check(check.expression)
        columns = [c.name for c in check.expression.find_all(exp.Column)]
        missing = [c for c in columns if not table.has_column(c)]
        if form is None:
            bad.append(f"{check.name}: unsupported form {check.sql!r}")
        elif missing:
            bad.append(f"{check.name}: unknown columns {missing}")
        elif form.endswith("column-column"):
            kinds = {table.column(c).kind for c in columns}
            if len(kinds) != 1:
                bad.append(f"{check.name}: compares columns of different kinds {sorted(kinds)}")
        elif form.endswith(("column-literal", "between")):
            if table.column(columns[-1]).kind not in ("int", "numeric"):
                bad.append(f"{check.name}: numeric comparison on a {table.column(columns[-1]).kind} column")
        elif form.endswith("in-list") and table.column(columns[-1]).kind != "text":
            bad.append(f"{check.name}: IN list on a {table.column(columns[-1]).kind} column")
    names = [c.name for c in table.checks]
    if len(names) != len(set(names)):
        bad.append(f"duplicate check names {names}")
    assert not bad, f"{table.qualified}: " + "; ".join(bad)


# -- unique keys and indexes ------------------------------------------------------------------------


def _unique_shape(table: Table, columns: tuple[str, ...]) -> tuple[str, ...]:
    shape = []
    for column in columns:
        if column == "tenant_id":
            shape.append("tenant")
        elif table.foreign_key_of(column) is not None:
            shape.append("fk")
        elif table.has_column(column):
            shape.append(table.column(column).kind)
        else:
            shape.append("missing")
    return tuple(shape)


ALLOWED_TENANT_UNIQUES = {
    ("tenant", "text"),  # (tenant_id, business key): sku, email, invoice number, slug, code
    ("tenant", "fk"),  # one-to-one
    ("tenant", "fk", "fk"),  # link table
    ("tenant", "fk", "date"),  # one row per parent per day
    ("tenant", "fk", "enum"),  # one row per parent and kind (an order's ship-to and bill-to address)
    ("tenant", "date"),  # one row per tenant per day (the tenant is the parent)
}


@by_table
def test_unique_keys_use_allowed_column_sets(table: Table) -> None:
    bad = []
    for unique in table.uniques:
        shape = _unique_shape(table, unique.columns)
        if "missing" in shape:
            bad.append(f"{unique.name}: unknown columns in {unique.columns}")
        elif table.is_tenant_scoped:
            if shape not in ALLOWED_TENANT_UNIQUES:
                bad.append(f"{unique.name} {unique.columns}: shape {shape}")
        elif (table.qualified, unique.columns) not in GLOBAL_COMPOSITE_UNIQUES and (
                len(unique.columns) != 1 or shape[0] not in ("text", "int")):
            bad.append(f"{unique.name} {unique.columns}: a global unique key is one natural-key column")
    assert not bad, f"{table.qualified}: unique keys outside the allowed column sets: " + "; ".join(bad)


@by_table
def test_index_columns_exist_and_lead_with_tenant(table: Table) -> None:
    bad = [f"{i.name} {i.columns}" for i in table.indexes if not all(table.has_column(c) for c in i.columns)]
    if table.is_tenant_scoped:
        bad += [f"{i.name} {i.columns}: does not lead with tenant_id" for i in table.indexes if i.columns[0] != "tenant_id"]
    assert not bad, f"{table.qualified}: {bad}"

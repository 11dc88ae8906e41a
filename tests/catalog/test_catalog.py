"""The catalog model and the DDL reader behind it (no database needed)."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from heron_pipeline.catalog import Catalog, DDLError, build_catalog, ddl_files, load_catalog
from heron_pipeline.catalog.ddl import DDL_DIR, _constraint_comment, ddl_hash, read_statements, split_statements
from heron_pipeline.catalog.graph import required_dependencies, domain_order, table_dependencies, table_order
from heron_pipeline.catalog.model import TYPE_KINDS

#: Tables per domain as README.md announces them (211 in all).
EXPECTED_COUNTS = {
    "tenancy": 15, "auth": 16, "crm": 16, "catalog": 15, "pricing": 14, "inventory": 15, "orders": 16,
    "subscriptions": 14, "billing": 15, "support": 15, "marketing": 15, "comms": 14, "analytics": 15, "ops": 16,
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def ddl_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "schema_ddl"
    shutil.copytree(DDL_DIR, copy)
    return copy


# -- the model --------------------------------------------------------------------------------------


def test_counts_by_domain(catalog: Catalog) -> None:
    counts = dict(Counter(t.schema for t in catalog.tables.values()))
    assert counts == EXPECTED_COUNTS, f"tables per domain: {counts}"
    assert sum(counts.values()) == 211
    assert {d: len(catalog.tables_of(d)) for d in catalog.domains} == EXPECTED_COUNTS


def test_domain_numbers_follow_the_file_order(catalog: Catalog) -> None:
    assert list(catalog.domains) == list(EXPECTED_COUNTS)
    for i, domain in enumerate(catalog.domains, start=1):
        assert catalog.domain_number(domain) == i
        assert all(t.domain_number == i for t in catalog.tables_of(domain))


def test_tables_are_in_file_order(catalog: Catalog) -> None:
    numbers = [t.domain_number for t in catalog.tables.values()]
    assert numbers == sorted(numbers)


def test_lookup_errors_name_the_missing_thing(catalog: Catalog) -> None:
    with pytest.raises(KeyError, match="crm.customers"):
        catalog.table("crm.customers")
    with pytest.raises(KeyError, match="no_such_column"):
        catalog.table("crm.accounts").column("no_such_column")


def test_is_tenant_scoped_and_soft_deletable(catalog: Catalog) -> None:
    assert not catalog.table("tenancy.tenants").is_tenant_scoped
    assert not catalog.table("tenancy.currencies").is_tenant_scoped
    assert catalog.table("crm.accounts").is_tenant_scoped
    assert catalog.table("orders.order_lines").is_tenant_scoped
    soft = [t for t in catalog.tables.values() if t.is_soft_deletable]
    assert soft and all(t.has_column("deleted_at") for t in soft)
    assert not catalog.table("ops.audit_log").is_soft_deletable


def test_foreign_key_of(catalog: Catalog) -> None:
    workspaces = catalog.table("tenancy.workspaces")
    parent = workspaces.foreign_key_of("parent_workspace_id")
    assert parent is not None
    assert parent.name == "workspaces_parent_workspace_id_fkey"
    assert parent.columns == ("tenant_id", "parent_workspace_id")
    assert parent.ref_table == "tenancy.workspaces" and parent.ref_columns == ("tenant_id", "id")
    assert parent.own_column == "parent_workspace_id"
    tenant = workspaces.foreign_key_of("tenant_id")
    assert tenant is not None and tenant.name == "workspaces_tenant_id_fkey" and tenant.columns == ("tenant_id",)
    currency = workspaces.foreign_key_of("default_currency_code")
    assert currency is not None and currency.ref_table == "tenancy.currencies"
    assert workspaces.foreign_key_of("name") is None
    assert workspaces.foreign_key_of("id") is None


def test_back_reference_is_attached_to_its_foreign_key(catalog: Catalog) -> None:
    fk = next(fk for fk in catalog.table("tenancy.tenants").foreign_keys if fk.name == "tenants_owner_user_id_fkey")
    assert fk.is_back_reference and fk.back_reference  # the reason, without the "back-reference:" prefix
    assert not fk.back_reference.startswith("back-reference:")
    assert fk.ref_table == "auth.users"
    assert "owner_user_id" in fk.columns
    others = [f for f in catalog.foreign_keys if f is not fk]
    assert not any(f.is_back_reference for f in others)


def test_columns_are_typed(catalog: Catalog) -> None:
    invoices = catalog.table("billing.invoices")
    total = invoices.column("total_amount")
    assert (total.kind, total.precision, total.scale, total.nullable) == ("numeric", 14, 2, False)
    currency = catalog.table("tenancy.currencies").column("code")
    assert (currency.kind, currency.type_sql, currency.length) == ("text", "char(3)", 3)
    assert catalog.table("crm.accounts").column("id").int_bits == 64
    assert catalog.table("tenancy.currencies").column("minor_units").int_bits == 16
    created = invoices.column("created_at")
    assert created.kind == "timestamptz" and created.default_sql  # DEFAULT now(), as sqlglot renders it
    kinds = {c.kind for t in catalog.tables.values() for c in t.columns}
    assert kinds <= set(TYPE_KINDS), kinds - set(TYPE_KINDS)


def test_comments_are_attached(catalog: Catalog) -> None:
    currencies = catalog.table("tenancy.currencies")
    assert currencies.comment and currencies.comment.startswith("ISO 4217")
    assert currencies.column("code").comment.startswith("ISO 4217 alphabetic")
    assert catalog.table("crm.accounts").column("id").comment is None


def test_keys_and_indexes_are_attached(catalog: Catalog) -> None:
    accounts = catalog.table("crm.accounts")
    assert accounts.primary_key == ("tenant_id", "id") and accounts.primary_key_name == "accounts_pkey"
    assert accounts.uniques and all(u.columns[0] == "tenant_id" for u in accounts.uniques)
    indexes = [i for t in catalog.tables.values() for i in t.indexes]
    assert indexes and all(i.table in catalog.tables and not i.unique for i in indexes)
    assert catalog.foreign_keys == [fk for t in catalog.tables.values() for fk in t.foreign_keys]
    assert all(fk.table in catalog.tables for fk in catalog.foreign_keys)


def test_checks_are_parsed(catalog: Catalog) -> None:
    check = next(c for c in catalog.table("tenancy.currencies").checks if c.name == "currencies_minor_units_check")
    assert check.sql == "minor_units >= 0"
    assert check.expression is not None


def test_enums_and_type_schemas(catalog: Catalog) -> None:
    assert catalog.type_schemas == ["shared"]
    assert catalog.enums["shared.billing_interval"] == ("day", "week", "month", "quarter", "year")
    assert catalog.enums["tenancy.tenant_status"][0] == "trial"


def test_domain_order(catalog: Catalog) -> None:
    order = domain_order(catalog)
    assert sorted(order) == sorted(catalog.domains)
    position = {domain: i for i, domain in enumerate(order)}
    for fk in catalog.foreign_keys:
        source, target = fk.table.split(".")[0], fk.ref_table.split(".")[0]
        if source != target and not fk.is_back_reference:
            assert position[target] < position[source], fk.name


def test_back_references_are_left_out_of_the_table_graph(catalog: Catalog) -> None:
    assert "auth.users" in table_dependencies(catalog, include_back_references=True)["tenancy.tenants"]
    assert "auth.users" not in table_dependencies(catalog)["tenancy.tenants"]


def test_table_order_is_parents_first(catalog: Catalog) -> None:
    # Only optional (nullable) references may form cycles, and only inside one domain.
    all_deps = table_dependencies(catalog)
    mutual = sorted((a, b) for a, refs in all_deps.items() for b in refs if a < b and a in all_deps[b])
    assert all(a.split(".")[0] == b.split(".")[0] for a, b in mutual), mutual
    deps = required_dependencies(catalog)
    tables = table_order(catalog)
    position = {name: i for i, name in enumerate(tables)}
    assert len(tables) == len(catalog.tables)
    for table, refs in deps.items():
        assert all(position[ref] < position[table] for ref in refs), table


# -- loading, caching, hashing ----------------------------------------------------------------------


def test_load_catalog_is_cached() -> None:
    assert load_catalog() is load_catalog()
    assert load_catalog(DDL_DIR) is load_catalog()


def test_ddl_hash_follows_the_content(ddl_copy: Path, tmp_path: Path, monkeypatch) -> None:
    import heron_pipeline.input_cache as input_cache

    monkeypatch.setattr(input_cache, "CACHE_DIR", tmp_path / "cache")  # an edited DDL's catalog stays here
    original = load_catalog()
    copy = load_catalog(ddl_copy)
    assert copy.ddl_hash == original.ddl_hash == ddl_hash(ddl_files())  # names and bytes, not the path
    target = ddl_copy / "tables" / "03_crm.sql"
    target.write_text(target.read_text() + "\n-- an edit\n")
    changed = load_catalog(ddl_copy)
    assert changed.ddl_hash != original.ddl_hash
    assert changed is not copy  # re-parsed, not served from the cache
    assert load_catalog(ddl_copy) is changed


def test_a_catalog_read_back_from_disk_equals_a_fresh_parse(tmp_path: Path, monkeypatch) -> None:
    import heron_pipeline.input_cache as input_cache
    from heron_pipeline.catalog import ddl

    monkeypatch.setattr(input_cache, "CACHE_DIR", tmp_path)
    ddl._cached.cache_clear()
    made = load_catalog()
    [stored] = tmp_path.glob("catalog-*.pickle")
    assert stored.name == f"catalog-{ddl.catalog_key(ddl_files())[:32]}.pickle"
    ddl._cached.cache_clear()
    read = load_catalog()
    assert read is not made  # a second process's view: unpickled, not this process's object
    assert read == made == build_catalog(ddl_files())
    stored.write_bytes(stored.read_bytes()[:100])  # truncated (a killed writer cannot leave this,
    ddl._cached.cache_clear()                      # but a full disk or a hand edit can)
    assert load_catalog() == made
    assert stored.stat().st_size > 100  # made again and stored whole
    ddl._cached.cache_clear()


def test_the_catalog_key_follows_the_ddl_bytes_not_the_path(ddl_copy: Path) -> None:
    from heron_pipeline.catalog.ddl import catalog_key

    assert catalog_key(ddl_files(ddl_copy)) == catalog_key(ddl_files())
    target = ddl_copy / "keys" / "05_pricing.sql"
    target.write_text(target.read_text() + "\n")
    assert catalog_key(ddl_files(ddl_copy)) != catalog_key(ddl_files())


def test_ddl_files_are_in_load_order() -> None:
    files = ddl_files()
    assert files.phase_one[0].name == "00_base.sql"
    assert files.all == (*files.phase_one, *files.phase_two)
    assert files.domains() == list(EXPECTED_COUNTS)


def test_ddl_files_rejects_a_misnamed_file(ddl_copy: Path) -> None:
    (ddl_copy / "keys" / "Extra.sql").write_text("")
    with pytest.raises(DDLError, match="NN_<domain>"):
        ddl_files(ddl_copy)


def test_ddl_files_rejects_unpaired_files(ddl_copy: Path) -> None:
    (ddl_copy / "keys" / "14_ops.sql").unlink()
    with pytest.raises(DDLError, match="same NN_<domain>.sql"):
        ddl_files(ddl_copy)


def test_build_catalog_rejects_a_comment_on_an_unknown_table(ddl_copy: Path) -> None:
    target = ddl_copy / "tables" / "03_crm.sql"
    target.write_text(target.read_text() + "\nCOMMENT ON TABLE crm.no_such_table IS 'x';\n")
    with pytest.raises(DDLError, match="crm.no_such_table"):
        build_catalog(ddl_files(ddl_copy))


def test_build_catalog_rejects_keys_in_phase_one(ddl_copy: Path) -> None:
    target = ddl_copy / "tables" / "03_crm.sql"
    target.write_text(target.read_text() + "\nCREATE TABLE crm.extra (id bigint NOT NULL, PRIMARY KEY (id));\n")
    with pytest.raises(DDLError, match="phase 2"):
        build_catalog(ddl_files(ddl_copy))


def test_read_statements_tags_phases_and_constraint_comments() -> None:
    statements = read_statements(ddl_files())
    assert {s.phase for s in statements} == {1, 2}
    assert all(s.phase == 1 for s in statements if s.file == "00_base.sql")
    comments = [s for s in statements if s.constraint_comment is not None]
    assert comments and all(s.expression is None and s.phase == 2 for s in comments)
    assert all(s.expression is not None for s in statements if s.constraint_comment is None)
    name, table, text = comments[0].constraint_comment
    assert (name, table) == ("tenants_owner_user_id_fkey", "tenancy.tenants")
    assert text.startswith("back-reference:")


# -- statement splitting ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SELECT 1; SELECT 2;", ["SELECT 1", "SELECT 2"]),
        ("SELECT 1; SELECT 2", ["SELECT 1", "SELECT 2"]),
        ("SELECT 'a;b'; SELECT 2", ["SELECT 'a;b'", "SELECT 2"]),
        ("COMMENT ON TABLE s.t IS 'it''s; fine';", ["COMMENT ON TABLE s.t IS 'it''s; fine'"]),
        ('SELECT "a;b" FROM s.t; SELECT 2', ['SELECT "a;b" FROM s.t', "SELECT 2"]),
        ("SELECT $$a;b$$; SELECT 2", ["SELECT $$a;b$$", "SELECT 2"]),
        ("-- a; b\nSELECT 1;", ["-- a; b\nSELECT 1"]),
        ("/* x; y */ SELECT 1; SELECT 2", ["/* x; y */ SELECT 1", "SELECT 2"]),
        ("SELECT 1;\n-- trailing; comment\n", ["SELECT 1"]),
        ("SELECT 1 /* inner; */ + 1;", ["SELECT 1 /* inner; */ + 1"]),
        ("", []),
        (";;", []),
        ("  \n-- only a comment; really\n", []),
    ],
)
def test_split_statements(text: str, expected: list[str]) -> None:
    assert split_statements(text) == expected


# -- COMMENT ON CONSTRAINT --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("COMMENT ON CONSTRAINT t_a_fkey ON s.t IS 'back-reference: why'", ("t_a_fkey", "s.t", "back-reference: why")),
        ("comment on constraint t_a_fkey on s.t is 'a; b'", ("t_a_fkey", "s.t", "a; b")),
        ("COMMENT ON CONSTRAINT t_a_fkey ON s.t IS 'it''s'", ("t_a_fkey", "s.t", "it's")),
        ("COMMENT ON TABLE s.t IS 'x'", None),
        ("COMMENT ON COLUMN s.t.c IS 'x'", None),
        ("ALTER TABLE s.t ADD CONSTRAINT t_pkey PRIMARY KEY (id)", None),
    ],
)
def test_constraint_comment(sql: str, expected: tuple[str, str, str] | None) -> None:
    assert _constraint_comment(sql) == expected


@pytest.mark.parametrize(
    "sql",
    [
        "COMMENT ON CONSTRAINT t_a_fkey ON t IS 'unqualified table'",
        "COMMENT ON CONSTRAINT t_a_fkey ON s.t IS NULL",
        "COMMENT ON CONSTRAINT t_a_fkey IS 'no table'",
        "COMMENT ON CONSTRAINT t_a_fkey ON s.t AS 'x'",
    ],
)
def test_malformed_constraint_comment(sql: str) -> None:
    with pytest.raises(DDLError, match="constraint comment"):
        _constraint_comment(sql)

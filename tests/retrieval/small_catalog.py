"""A hand-made catalog of a few tables, small enough that every expected ranking and join path
can be checked by reading it."""

from __future__ import annotations

from heron_pipeline.catalog import Catalog, Column, ForeignKey, Table


def _col(name: str, comment: str | None = None, type_sql: str = "bigint", kind: str = "int") -> Column:
    return Column(name, type_sql, kind, True, None, comment)


def _ref_columns(cols: tuple[str, ...]) -> tuple[str, ...]:
    if cols == ("tenant_id",):
        return ("id",)
    if cols[-1].endswith("_code"):
        return ("code",)  # a natural key (country, currency)
    return ("tenant_id", "id")


def _table(qualified: str, comment: str, columns: list[Column], fks: list[tuple[tuple[str, ...], str]]) -> Table:
    schema, name = qualified.split(".")
    table = Table(schema, name, 1, [_col("id"), *columns], [], comment, ("id",))
    table.foreign_keys = [ForeignKey(f"{name}_{'_'.join(cols)}_fkey", qualified, cols, ref, _ref_columns(cols))
                          for cols, ref in fks]
    return table


def small_catalog() -> Catalog:
    """tenants ← every tenant table; users is a hub; cases → accounts → countries; cases → users;
    invoices → accounts and currencies; exchange rates → currencies; messages and sessions → users
    only."""
    tenant = ("tenant_id",)
    tables = [
        _table("tenancy.tenants", "Customers of the platform.", [_col("name", "Tenant name.", "text", "text")], []),
        _table("tenancy.countries", "Countries (ISO 3166).", [_col("code", None, "char(2)", "text")], []),
        _table("auth.users", "Staff users who log in.", [_col("tenant_id"), _col("email", None, "text", "text")],
               [(tenant, "tenancy.tenants")]),
        _table("crm.accounts", "Business customers of a tenant.",
               [_col("tenant_id"), _col("country_code", "Country of the account."), _col("owner_user_id")],
               [(tenant, "tenancy.tenants"), (("country_code",), "tenancy.countries"),
                (("tenant_id", "owner_user_id"), "auth.users")]),
        _table("support.cases", "Support tickets raised by customers.",
               [_col("tenant_id"), _col("account_id"), _col("assignee_user_id"),
                _col("status", "Ticket state.", "support.case_status", "enum")],
               [(tenant, "tenancy.tenants"), (("tenant_id", "account_id"), "crm.accounts"),
                (("tenant_id", "assignee_user_id"), "auth.users")]),
        _table("billing.invoices", "Invoices sent to accounts.", [_col("tenant_id"), _col("account_id"),
                                                                 _col("created_by_user_id"), _col("currency_code")],
               [(tenant, "tenancy.tenants"), (("tenant_id", "account_id"), "crm.accounts"),
                (("tenant_id", "created_by_user_id"), "auth.users"), (("currency_code",), "tenancy.currencies")]),
        _table("tenancy.currencies", "Currencies (ISO 4217).", [_col("code", None, "char(3)", "text")], []),
        _table("tenancy.exchange_rates", "Daily rates to USD.", [_col("currency_code")],
               [(("currency_code",), "tenancy.currencies")]),
        _table("comms.messages", "Messages sent by staff users.", [_col("tenant_id"), _col("sender_user_id")],
               [(tenant, "tenancy.tenants"), (("tenant_id", "sender_user_id"), "auth.users")]),
        _table("auth.sessions", "Log-in sessions of staff users.", [_col("tenant_id"), _col("user_id")],
               [(tenant, "tenancy.tenants"), (("tenant_id", "user_id"), "auth.users")]),
    ]
    return Catalog(domains=["tenancy", "auth", "crm", "support", "billing", "comms"],
                   tables={t.qualified: t for t in tables},
                   enums={"support.case_status": ("open", "escalated", "solved"),
                          "billing.invoice_status": ("draft", "paid")},
                   ddl_hash="test")

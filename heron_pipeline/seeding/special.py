"""The few tables whose values are not column-by-column: the named anchor tenants and the
exchange-rate history. Questions mention anchors by name, so they exist in every seed, with the
rest of their data generated per seed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np
import polars as pl

from heron_pipeline.seeding.streams import stream
from heron_pipeline.seeding.timeline import WINDOW_DAYS, WINDOW_START_DAY

if TYPE_CHECKING:
    from heron_pipeline.catalog.model import Column
    from heron_pipeline.seeding.block import Block

#: The five largest tenants, by name, in every seed (rank 1 is the largest).
ANCHOR_TENANTS = (
    ("Halyard Outfitters", "halyard-outfitters", "US", "USD"),
    ("Kestrel Foodservice", "kestrel-foodservice", "GB", "GBP"),
    ("Brightwater Medical Supply", "brightwater-medical", "DE", "EUR"),
    ("Tamarack Industrial", "tamarack-industrial", "CA", "CAD"),
    ("Orchard & Vine Hospitality", "orchard-vine", "AU", "AUD"),
)

#: Approximate USD value of one unit at the start of the window; the walk goes from here.
USD_PER_UNIT = {"USD": 1.0, "EUR": 1.07, "GBP": 1.21, "CAD": 0.74, "AUD": 0.68, "JPY": 0.0076, "CHF": 1.09,
                "SEK": 0.096, "NOK": 0.1, "DKK": 0.144, "INR": 0.0121, "BRL": 0.19, "MXN": 0.052, "CNY": 0.145,
                "SGD": 0.75, "NZD": 0.63, "PLN": 0.23, "ZAR": 0.058, "KRW": 0.00078, "HKD": 0.128}


def special_values(block: "Block", column: "Column", generated: Callable[[], pl.Series]) -> Any:
    """The values of ``column`` in ``block`` when its table is one of the special ones, else None.

    ``generated()`` is the column as the value generator would make it (seeding/values.py passes
    it down, so this module needs nothing above it): the non-anchor tenants get those values."""
    table = block.table.qualified
    if table == "tenancy.tenants":
        return _tenant_values(block, column, generated)
    if table == "tenancy.exchange_rates":
        return _exchange_rate_values(block, column)
    return None


#: Anchors are live, real customers of the platform in every seed.
_ANCHOR_FIXED = {"status": "active", "is_test": False, "deleted_at": None, "churned_at": None}


def _tenant_values(block: "Block", column: "Column", generated_values: Callable[[], pl.Series]) -> Any:
    index = {"name": 0, "slug": 1, "country_code": 2, "default_currency_code": 3}.get(column.name)
    if index is None and column.name not in _ANCHOR_FIXED:
        return None
    # The non-anchor rows follow the table's CHECKs like any column (``generated_values`` draws
    # within them): without them a churned_at could precede signed_up_at (1.x did, for 12 of
    # bench's 400 tenants, and the COPY failed).
    generated = generated_values()
    if index is not None:
        anchors = [ANCHOR_TENANTS[o][index] if o < len(ANCHOR_TENANTS) else None for o in block.ordinals]
    else:
        anchors = [_ANCHOR_FIXED[column.name]] * block.n
    is_anchor = pl.Series([o < len(ANCHOR_TENANTS) for o in block.ordinals])
    anchor_values = pl.Series(anchors, dtype=generated.dtype if generated.dtype != pl.Null else pl.String)
    return pl.select(pl.when(is_anchor).then(anchor_values).otherwise(generated)).to_series()


def exchange_rate_layout(currencies: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(currency index, day index) of each exchange-rate ordinal: one row per currency per day."""
    total = len(currencies) * WINDOW_DAYS
    ordinals = np.arange(total)
    return ordinals // WINDOW_DAYS, ordinals % WINDOW_DAYS


def _exchange_rate_values(block: "Block", column: "Column") -> Any:
    currencies = [row["code"] for row in block.reference["tenancy.currencies"]]
    cur, day = block.ordinals // WINDOW_DAYS, block.ordinals % WINDOW_DAYS
    if column.name == "currency_code":
        return pl.Series(currencies, dtype=pl.String).gather(cur)
    if column.name == "rate_date":
        return (WINDOW_START_DAY + day).astype(np.int64)
    if column.name in ("rate_to_usd", "rate_from_usd"):
        rates = np.empty(len(currencies) * WINDOW_DAYS)
        for i, code in enumerate(currencies):
            if code == "USD":
                walk = np.ones(WINDOW_DAYS)
            else:
                steps = stream(block.plan.seed, "fx", code).normal(0.0, 0.004, WINDOW_DAYS)
                walk = np.exp(np.cumsum(steps) - steps[0])
            rates[i * WINDOW_DAYS:(i + 1) * WINDOW_DAYS] = USD_PER_UNIT.get(code, 1.0) * walk
        picked = rates[block.ordinals]
        return np.round(picked if column.name == "rate_to_usd" else 1.0 / picked, 8)
    return None

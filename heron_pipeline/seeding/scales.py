"""The four scales and the fixed time window every seed shares.

Volume tables scale with the factor; reference tables and per-tenant configuration keep real-world
sizes. The time window ends on a published as-of date so that nothing depends on ``now()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone

#: The last day of data. Questions say "the last 30 days" relative to this date, never to now().
AS_OF_DATE = date(2026, 6, 30)
WINDOW_START = date(2023, 1, 1)
AS_OF = datetime(2026, 6, 30, 23, 59, 59, tzinfo=timezone.utc)
WINDOW_START_TS = datetime(2023, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Scale:
    name: str
    factor: float  # multiplier of the `rows` given in profiles (which are written for `small`)
    tenants: int  # number of tenants (the first few are the named anchors)
    target_rows: tuple[int, int]  # the accepted band for total rows


SCALES: dict[str, Scale] = {
    "tiny": Scale("tiny", 0.042, 8, (150_000, 250_000)),
    "small": Scale("small", 1.0, 40, (4_200_000, 4_600_000)),
    "bench": Scale("bench", 20.0, 400, (84_000_000, 92_000_000)),
    "large": Scale("large", 98.0, 1600, (410_000_000, 450_000_000)),
}


def get_scale(name: str) -> Scale:
    try:
        return SCALES[name]
    except KeyError:
        raise ValueError(f"unknown scale {name!r}; expected one of {', '.join(SCALES)}") from None

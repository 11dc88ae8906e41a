"""The committed page's hidden side in real headless Chromium: the copycat row flagged, SQL-only rows
"public draw only — not checked", a trend plot per runnable row, and the paired comparisons — all from
the committed submissions and the committed evaluation records (docs/leaderboard/index.html)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.submissions.test_index_page import page  # noqa: F401 — the Chromium fixture

pytestmark = pytest.mark.e2e  # the UI in Chromium

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = ROOT / "docs" / "leaderboard"


def test_committed_page_shows_hidden_gap_flag_history_and_comparisons(page) -> None:  # noqa: F811
    doc = json.loads((PUBLISHED / "leaderboard.json").read_text(encoding="utf-8"))
    page.goto((PUBLISHED / "index.html").as_uri())
    rows = page.eval_on_selector_all("#hidden-board tbody tr.hidden-row",
                                     "rows => rows.map(r => [r.dataset.tool, r.dataset.status])")
    expected = [[r["tool"], r["hidden_status"]] for b in doc["standings"] for r in b["tools"]]
    assert rows == expected
    statuses = dict((tool, status) for tool, status in rows)
    assert statuses["copycat"] == "flagged" and statuses["keyword"] == "checked"
    assert statuses["gold"] == "public draw only — not checked"
    flagged = page.locator('#hidden-board tr[data-tool="copycat"] td.flagged')
    assert flagged.is_visible() and "public answers not reproduced on a hidden draw" in flagged.inner_text()
    assert page.locator('#hidden-board tr[data-tool="keyword"] svg.trend').count() >= 1
    assert page.locator("#paired-comparisons li.comparison").count() >= 1
    assert page.locator("#evaluations tbody tr").count() == len(doc["evaluations"]) >= 2
    assert all(url.startswith("file:") for url in page.requests)  # nothing fetched from a network

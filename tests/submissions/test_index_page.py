"""index.html in real headless Chromium (Debian's chromium driven by Playwright): every standings row
renders, a header click reorders the rows, the rejected list and the breakdown chart are there.

Skipped when Chromium or Playwright is absent, unless HERON_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def _unavailable(why: str) -> None:
    if os.environ.get("HERON_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HERON_REQUIRE_BROWSER=1 but {why}")
    pytest.skip(why)


@pytest.fixture
def page():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        _unavailable("no Chromium (apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                                     args=ARGS, headless=True)
        context = browser.new_context(offline=True)  # the page must need no network at all
        requests: list[str] = []
        context.on("request", lambda r: requests.append(r.url))
        tab = context.new_page()
        tab.requests = requests  # type: ignore[attr-defined]
        yield tab
        browser.close()


def _tools(page) -> list[str]:
    return page.eval_on_selector_all("table.standings tbody tr.standing", "rows => rows.map(r => r.dataset.tool)")


def test_index_page_renders_sorts_and_lists_rejections(published, page, tmp_path) -> None:
    out, doc = published
    page.goto((out / "index.html").as_uri())
    expected = [t["tool"] for board in doc["standings"] for t in board["tools"]]
    assert _tools(page) == expected and len(expected) == 2
    assert all(page.is_visible(f'tr.standing[data-tool="{tool}"]') for tool in expected)
    header = page.locator("table.standings thead th").nth(0)  # the tool column
    header.click()
    ascending = _tools(page)
    assert ascending == sorted(expected)
    header.click()
    assert _tools(page) == sorted(expected, reverse=True)
    grade = page.locator("table.standings thead th").nth(3)
    grade.click()  # Grade ascending: the weaker tool first
    assert _tools(page)[0] == "weak-sql"
    rejected = page.eval_on_selector_all("#rejected-list li.rejected", "items => items.map(i => i.dataset.folder)")
    assert sorted(rejected) == sorted(r["folder"] for r in doc["rejected"]) and len(rejected) == 6
    assert page.locator("#rejected-list").inner_text().count("claim_gap") >= 1
    assert page.locator("#breakdown svg#breakdown-chart g.cell").count() > 0
    assert page.locator("#headline-chart svg g.tool").count() == 2
    shot = tmp_path / "index.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    print(f"screenshot: {shot}")
    assert [u for u in page.requests if not u.startswith("file://")] == []

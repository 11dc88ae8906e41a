"""The Dagster UI, rendered by a real headless Chromium: every stage of the asset graph is there and
an asset's page shows its lineage.

The webserver runs the project's own workspace.yaml with a throwaway DAGSTER_HOME (SQLite storage),
so the test needs no PostgreSQL and never touches a user's `heron_dagster`. Chromium comes from the
distribution (`.ci/run` installs it); without it the test is skipped, unless HERON_REQUIRE_BROWSER=1
(set by CI) turns the skip into a failure.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("catalog", "seeded", "database", "questions", "gold_results", "gold_audit", "predictions", "scores",
          "standings", "leaderboard")


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("HERON_REQUIRE_BROWSER") == "1":
        pytest.fail("HERON_REQUIRE_BROWSER=1 but no Chromium on PATH")
    pytest.skip("no Chromium on PATH (apt-get install chromium)")


@pytest.fixture(scope="module")
def webserver(free_port):
    _chromium()
    home = Path(tempfile.mkdtemp(prefix="heron-dagster-home-"))
    port = free_port()
    env = {**os.environ, "DAGSTER_HOME": str(home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "dagster_webserver", "-w", str(ROOT / "workspace.yaml"), "-h", "127.0.0.1",
         "-p", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, "dagster-webserver exited during start-up"
            try:
                with urllib.request.urlopen(f"{url}/server_info", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "dagster-webserver did not answer within 180 s"
            time.sleep(0.5)
        yield url
    finally:
        # Stop by process group: the webserver's children would otherwise outlive it.
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(home, ignore_errors=True)


def _rendered_text(url: str) -> str:
    """The page's visible text after its JavaScript ran (headless Chromium, --dump-dom)."""
    profile = tempfile.mkdtemp(prefix="heron-chromium-")
    try:
        out = subprocess.run(
            [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--virtual-time-budget=20000", "--dump-dom", url],
            capture_output=True, text=True, timeout=120, check=True).stdout
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    out = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", out, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", out)))


def _wait_for(url: str, needles: tuple[str, ...], attempts: int = 3) -> str:
    """Render until every needle shows (the first render can race the code location's load)."""
    text = ""
    for _ in range(attempts):
        text = _rendered_text(url)
        if all(needle in text for needle in needles):
            return text
    return text


def test_asset_catalog_shows_every_stage_of_the_pipeline(webserver):
    text = _wait_for(f"{webserver}/assets", STAGES)
    missing = [stage for stage in STAGES if stage not in text]
    assert not missing, f"asset catalog page lacks {missing}"


def test_an_asset_page_shows_its_description_and_upstream_lineage(webserver):
    text = _wait_for(f"{webserver}/assets/gold_audit", ("Upstream assets", "gold_results"))
    assert "Upstream assets" in text and "gold_results" in text
    assert "release gate" in text  # the asset's docstring is its description in the UI

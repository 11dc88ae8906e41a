"""Fixtures of the Dagster tests: resources pointed at the session's test server, never the user's."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))  # dagster_jobs: the jobs in dependency order
warnings.filterwarnings("ignore", category=Warning, module="dagster")


@pytest.fixture
def heron_resource(settings):
    from heron_pipeline.defs.resources import HeronServer

    return HeronServer(dsn=settings.dsn or "", data_dir=str(settings.data_dir), port=settings.port)


@pytest.fixture
def run_config(settings):
    from dagster_jobs import resources_config

    return resources_config(str(settings.data_dir), settings.port, settings.dsn or "")

"""The files for users with Docker and for `dagster dev` are well-formed (no Docker engine here:
their structure is checked, they are not run)."""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_compose_has_postgres16_webserver_and_daemon() -> None:
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    assert services["postgres"]["image"] == "postgres:16"
    assert "timezone=UTC" in services["postgres"]["command"]
    for name in ("dagster-webserver", "dagster-daemon"):
        service = services[name]
        assert (ROOT / service["build"]["context"].replace("..", ".") / service["build"]["dockerfile"]).exists() or \
            (ROOT / service["build"]["dockerfile"]).exists()
        assert service["environment"]["HERON_DSN"].startswith("postgresql://")
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["dagster-webserver"]["ports"] == ["3000:3000"]


def test_dockerfile_copies_what_the_code_location_needs() -> None:
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    for path in ("heron_pipeline", "schema_ddl", "dagster.yaml", "workspace.yaml", "constraints.txt"):
        assert path in dockerfile


def test_dagster_yaml_keeps_storage_in_heron_dagster_with_psycopg2_scheme() -> None:
    config = yaml.safe_load((ROOT / "dagster.yaml").read_text())
    db = config["storage"]["postgres"]["postgres_db"]
    assert db["db_name"] == "heron_dagster"
    assert db["scheme"] == "postgresql+psycopg2"


def test_workspace_points_at_the_definitions_module() -> None:
    workspace = yaml.safe_load((ROOT / "workspace.yaml").read_text())
    assert workspace["load_from"][0]["python_module"]["module_name"] == "heron_pipeline.definitions"

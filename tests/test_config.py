"""The one typed configuration: defaults, file, environment, in that order."""

from pathlib import Path

import pytest

from heron_pipeline.config import DEFAULT_PORT, Settings, load_settings


def test_defaults_point_at_the_embedded_server(tmp_path: Path) -> None:
    settings = load_settings(environ={}, config_file=tmp_path / "missing.toml")
    assert settings.is_embedded and settings.port == DEFAULT_PORT
    assert settings.pgdata == settings.data_dir / "pgdata"
    assert settings.artifacts == settings.data_dir / "artifacts"


def test_default_port_is_outside_the_ephemeral_range() -> None:
    """A port in the range the kernel gives outgoing connections can be held by any client's
    socket (the old default 54817 was: ``heron db up`` failed with "already in use")."""
    low, high = 32768, 60999  # Linux's default; macOS and Windows use 49152-65535
    local = Path("/proc/sys/net/ipv4/ip_local_port_range")
    if local.exists():
        low, high = (int(v) for v in local.read_text().split())
    assert not low <= DEFAULT_PORT <= high
    assert not 32768 <= DEFAULT_PORT <= 65535 and DEFAULT_PORT > 1024
    services = Path("/etc/services")
    if services.exists():  # no well-known service's port
        assert f"\t{DEFAULT_PORT}/tcp" not in services.read_text()


def test_environment_overrides_file(tmp_path: Path) -> None:
    config = tmp_path / "heron.toml"
    config.write_text(f'port = 60001\ndata_dir = "{tmp_path / "d"}"\n')
    settings = load_settings(environ={"HERON_PORT": "60002"}, config_file=config)
    assert settings.port == 60002
    assert settings.data_dir == (tmp_path / "d").resolve()


def test_dsn_switches_to_external_server() -> None:
    settings = load_settings(environ={"HERON_DSN": "postgresql://u@db:5432/postgres"}, config_file=Path("/nonexistent"))
    assert not settings.is_embedded and settings.dsn == "postgresql://u@db:5432/postgres"


@pytest.mark.parametrize("bad", ["abc", "80", "70000"])
def test_bad_port_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ValueError, match="port"):
        load_settings(environ={"HERON_PORT": bad}, config_file=Path("/nonexistent"))


def test_unknown_key_in_file_is_rejected(tmp_path: Path) -> None:
    config = tmp_path / "heron.toml"
    config.write_text("prot = 1\n")
    with pytest.raises(ValueError, match="unknown keys"):
        load_settings(environ={}, config_file=config)


def test_settings_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Settings().port = 1  # type: ignore[misc]

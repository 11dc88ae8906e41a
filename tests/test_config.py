"""The one typed configuration: defaults, file, environment, in that order."""

from pathlib import Path

import pytest

from heron_pipeline.config import DEFAULT_PORT, ConfigError, Settings, load_settings


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


#: heron.toml values of the wrong kind: the one line names the file and line, the key, and the fix
#: (seeds/scales named only "heron config"; data_dir = 5 became a folder called "5").
BAD_FILE_VALUES = [
    ("data_dir = 5", 1, "data_dir must be a folder path in quotes, got 5", 'data_dir = "/srv/heron"'),
    ('artifact_dir = ["a"]', 1, "artifact_dir must be a folder path in quotes, got ['a']", "artifact_dir = \""),
    ('data_dir = ""', 1, "data_dir must be a folder path in quotes", 'data_dir = "'),
    ('# seeds\n\nseeds = ["x"]', 3, "seeds must be integers in 0..2147483647 ('x' is not)", "seeds = [42, 43, 44]"),
    ("seeds = [42, 4.5]", 1, "(4.5 is not)", "seeds = [42, 43, 44]"),
    ("seeds = []", 1, "seeds must be a list holding at least one seed", "seeds = [42, 43, 44]"),
    ('scales = ["huge"]', 1, "scales must be among tiny, small", 'scales = ["tiny", "small"]'),
    ("scales = 5", 1, "scales must be a list of scales", 'scales = ["tiny", "small"]'),
    ("port = 5432.5", 1, "port must be an integer in 1024..65535, got 5432.5", "port = 24817"),
    ("port = true", 1, "port must be an integer", "port = 24817"),
    ("dsn = 5", 1, "dsn must be text in quotes", 'dsn = "postgresql://'),
]


@pytest.mark.parametrize(("body", "line", "says", "fix"), BAD_FILE_VALUES)
def test_a_bad_value_in_the_file_names_file_line_key_and_fix(tmp_path: Path, body: str, line: int, says: str,
                                                             fix: str) -> None:
    config = tmp_path / "heron.toml"
    config.write_text(body + "\n")
    with pytest.raises(ConfigError) as raised:
        load_settings(environ={}, config_file=config)
    message = str(raised.value)
    assert message.startswith(f"{config}:{line}: ") and "\n" not in message
    assert says in message and f"write it as {fix}" in message


@pytest.mark.parametrize(("var", "value", "says"), [("HERON_SEEDS", "42,x", "HERON_SEEDS: seeds must be integers"),
                                                    ("HERON_SCALES", "huge", "HERON_SCALES: scales must be among"),
                                                    ("HERON_PORT", "80", "HERON_PORT: port must be in 1024..65535")])
def test_a_bad_variable_names_the_variable(var: str, value: str, says: str) -> None:
    with pytest.raises(ConfigError, match=says):
        load_settings(environ={var: value}, config_file=Path("/nonexistent"))


def test_good_file_values_still_read(tmp_path: Path) -> None:
    config = tmp_path / "heron.toml"
    config.write_text(f'seeds = "42,43"\nscales = ["tiny", "small"]\nport = 24900\ndata_dir = "{tmp_path}"\n')
    settings = load_settings(environ={}, config_file=config)
    assert settings.seeds == (42, 43) and settings.scales == ("tiny", "small") and settings.port == 24900
    assert settings.data_dir == tmp_path.resolve()

"""The one resource: the PostgreSQL server heron uses, from the typed configuration."""

from dagster import ConfigurableResource

from heron_pipeline.config import Settings, load_settings
from heron_pipeline.database.server import Server


class HeronServer(ConfigurableResource):
    """heron's server. Empty fields mean: read the usual configuration (HERON_* variables)."""

    dsn: str = ""
    data_dir: str = ""
    port: int = 0

    def settings(self) -> Settings:
        from dataclasses import replace
        from pathlib import Path

        settings = load_settings()
        overrides = {}
        if self.dsn:
            overrides["dsn"] = self.dsn
        if self.data_dir:
            overrides["data_dir"] = Path(self.data_dir)
        if self.port:
            overrides["port"] = self.port
        return replace(settings, **overrides)

    def server(self) -> Server:
        server = Server(self.settings())
        server.up()
        return server

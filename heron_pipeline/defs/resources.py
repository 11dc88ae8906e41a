"""Resources: where the server is, how predictions are made, which model endpoint — resolved when a
run starts, never when the definitions are imported.

Every field left at None means "today's default": the typed settings (heron.toml, HERON_* variables)
for the server, the HERON_LLM_* variables for the endpoint, the bench core's defaults for the rest.
An unconfigured endpoint is not an error: the LLM tools then materialize as ``skipped``.
"""

from __future__ import annotations

from typing import Any, Optional

from dagster import ConfigurableResource
from pydantic import Field

from heron_pipeline.config import Settings, artifact_root_setting, load_settings


class HeronServer(ConfigurableResource):
    """heron's PostgreSQL server and artifact folder. Empty fields: the usual configuration."""

    dsn: str = ""
    data_dir: str = ""
    port: int = 0
    artifact_dir: str = ""

    def settings(self) -> Settings:
        from dataclasses import replace
        from pathlib import Path

        settings = load_settings()
        overrides: dict[str, Any] = {}
        if self.dsn:
            overrides["dsn"] = self.dsn
        if self.data_dir:
            overrides["data_dir"] = Path(self.data_dir)
        if self.port:
            overrides["port"] = self.port
        if self.artifact_dir:
            overrides["artifact_dir"] = artifact_root_setting(self.artifact_dir)
        return replace(settings, **overrides)

    def server(self) -> Any:
        from heron_pipeline.database.server import Server

        server = Server(self.settings())
        server.up()
        return server


class _BenchConfigMethods:
    """What ``BenchConfig`` does with its fields (the fields themselves come from the declarations)."""

    def question_set(self) -> tuple[list, str]:
        """(questions, digest) of the configured questions folder under the configured instance seed
        (None or 0: the public set), loaded once per content. Dagster draws without redraws: a drawn
        question that fails a rule fails ``gold_audit``'s check, named; ``heron audit --instance-seed``
        runs the redraw loop (DECISIONS 2026-12-05, question instances)."""
        from pathlib import Path

        from heron_pipeline.bench.inputs import question_set
        from heron_pipeline.bench.options import QUESTIONS_DIR

        return question_set(Path(self.questions_dir) if self.questions_dir else QUESTIONS_DIR,
                            int(getattr(self, "instance_seed", None) or 0))

    def options(self, scale: str, seeds: tuple[int, ...]) -> Any:
        """The bench core's options for one scale and its seeds: every configured field, None meaning
        the declared default."""
        from heron_pipeline.bench import BenchOptions

        values: dict[str, Any] = {}
        for f in config_fields():
            value = getattr(self, f.config_name)
            if value is None:
                continue
            values[f.name] = f.value_from_flag(value) if f.annotation in ("Path", "str | None") else value
        return BenchOptions(scale=scale, seeds=seeds, **values)


def config_fields() -> tuple[Any, ...]:
    """The options declared as run configuration (``Option.config``) in ``bench.options``."""
    from heron_pipeline.bench.options import option_fields

    return tuple(f for f in option_fields() if f.spec.config)


#: The run configuration type of each declared annotation (a path is its text; None: the default).
_CONFIG_TYPES = {"str": str, "int": int, "bool": bool, "str | None": Optional[str], "Path": Optional[str]}


def _bench_config_class() -> type:
    """``BenchConfig``: one field per option declared with ``config=True``, its help as the field's
    description in the launchpad, its default the declared one (a path's default is None: the declared
    folder, so the graph is the same on every machine)."""
    annotations: dict[str, Any] = {}
    namespace: dict[str, Any] = {}
    for f in config_fields():
        annotations[f.config_name] = _CONFIG_TYPES[f.annotation]
        default = None if f.annotation == "Path" else f.default
        namespace[f.config_name] = Field(default=default, description=f.spec.help)
    namespace.update(__annotations__=annotations, __module__=__name__,
                     __doc__="How predictions are made and scored: the options of ``heron bench`` declared as run "
                             "configuration in ``bench.options`` (question mode, retry-failed, offline, cli "
                             "command/name, schema, VES, n, primary seed, questions folder).")
    return type("BenchConfig", (_BenchConfigMethods, ConfigurableResource), namespace)


BenchConfig = _bench_config_class()


class LLMEndpoint(ConfigurableResource):
    """The OpenAI-compatible endpoint of the LLM tools; None fields come from HERON_LLM_* at run time."""

    model: Optional[str] = None
    base_url: Optional[str] = None
    api_key: Optional[str] = None

    def settings(self) -> Any:
        from dataclasses import replace

        from heron_pipeline.llm.settings import LLMSettings

        base = LLMSettings.from_environ()
        overrides = {k: v for k, v in (("model", self.model), ("base_url", self.base_url),
                                       ("api_key", self.api_key)) if v}
        return replace(base, **overrides)

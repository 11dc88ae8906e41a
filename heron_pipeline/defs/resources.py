"""Resources: where the server is, how predictions are made, which model endpoint — resolved when a
run starts, never when the definitions are imported.

Every field left at None means "today's default": the typed settings (heron.toml, HERON_* variables)
for the server, the HERON_LLM_* variables for the endpoint, the bench core's defaults for the rest.
An unconfigured endpoint is not an error: the LLM tools then materialize as ``skipped``.
"""

from __future__ import annotations

from typing import Any, Optional

from dagster import ConfigurableResource

from heron_pipeline.config import Settings, load_settings



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
            overrides["artifact_dir"] = Path(self.artifact_dir)
        return replace(settings, **overrides)

    def server(self) -> Any:
        from heron_pipeline.database.server import Server

        server = Server(self.settings())
        server.up()
        return server


class BenchConfig(ConfigurableResource):
    """How predictions are made and scored (the same switches as ``heron bench``'s flags)."""

    question_mode: str = "full"
    n: int = 1
    primary_seed: int = 42
    time_ves: bool = False
    retry_failed: bool = False
    offline: bool = False
    cli_command: Optional[str] = None
    cli_name: Optional[str] = None
    questions_dir: Optional[str] = None  # None: the repository's questions/
    schema: str = "full"  # raw-llm's schema prompt: full | compact

    def question_set(self) -> tuple[list, str]:
        """(questions, digest) of the configured questions folder, loaded once per content."""
        from pathlib import Path

        from heron_pipeline.bench.inputs import question_set
        from heron_pipeline.bench.options import QUESTIONS_DIR

        return question_set(Path(self.questions_dir) if self.questions_dir else QUESTIONS_DIR)

    def options(self, scale: str, seeds: tuple[int, ...]) -> Any:
        from pathlib import Path

        from heron_pipeline.bench import BenchOptions
        from heron_pipeline.bench.options import QUESTIONS_DIR

        return BenchOptions(scale=scale, seeds=seeds, n=self.n, primary_seed=self.primary_seed,
                            questions_dir=Path(self.questions_dir) if self.questions_dir else QUESTIONS_DIR,
                            question_mode=self.question_mode, time_ves=self.time_ves, retry_failed=self.retry_failed,
                            offline=self.offline, cli_command=self.cli_command or None,
                            cli_name=self.cli_name or None, schema=self.schema)


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

"""The Dagster graph: its shape is snapshotted, it is the same under any environment, it imports
without parsing the DDL, and its seeding follows the catalog's domain graph."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = Path(__file__).parent / "graph_snapshot.json"

GRAPH_SIGNATURE = r"""
import json, warnings
warnings.filterwarnings("ignore")
from heron_pipeline.definitions import defs
graph = defs.resolve_asset_graph()
out = {}
for key in sorted(graph.get_all_asset_keys(), key=lambda k: k.to_user_string()):
    node = graph.get(key)
    pd = node.partitions_def
    out[key.to_user_string()] = {
        "deps": sorted(k.to_user_string() for k in node.parent_keys),
        "partitions": None if pd is None else type(pd).__name__ + (
            ":" + ",".join(d.name for d in pd.partitions_defs) if hasattr(pd, "partitions_defs") else ""),
        "group": node.group_name,
        "code_version_set": node.code_version is not None,
        "code_version": node.code_version,
        "automation": None if node.automation_condition is None else node.automation_condition.get_label()
                      or type(node.automation_condition).__name__,
        "checks": sorted(c.name for c in node.check_keys),
        "observable": node.is_observable,
    }
jobs = sorted(j.name for j in defs.resolve_all_job_defs() if not j.name.startswith("__"))
print(json.dumps({"assets": out, "jobs": jobs,
                  "schedules": sorted(s.name for s in defs.schedules),
                  "sensors": sorted(s.name for s in defs.sensors)}, sort_keys=True))
"""


def _signature(env: dict[str, str]) -> dict:
    done = subprocess.run([sys.executable, "-c", GRAPH_SIGNATURE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _shape(signature: dict) -> dict:
    """The snapshot leaves out the code-version digests themselves (they change with every edit of the
    code they cover); which assets carry one is part of the shape."""
    return {**signature, "assets": {k: {f: v for f, v in a.items() if f != "code_version"}
                                    for k, a in signature["assets"].items()}}


@pytest.fixture(scope="module")
def signatures() -> tuple[dict, dict]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("HERON_")}
    plain = _signature(base)
    configured = _signature({**base, "HERON_LLM_MODEL": "gpt-4o", "HERON_LLM_BASE_URL": "http://127.0.0.1:9/v1",
                             "HERON_DSN": "postgresql://nobody@127.0.0.1:9/postgres", "HERON_SEEDS": "7,8",
                             "HERON_CLI_COMMAND": "/bin/false"})
    return plain, configured


def test_the_graph_is_the_same_under_any_environment(signatures) -> None:
    plain, configured = signatures
    assert plain == configured  # code versions included: nothing read from the environment


def test_the_graph_matches_its_snapshot(signatures) -> None:
    shape = _shape(signatures[0])
    if os.environ.get("HERON_UPDATE_SNAPSHOT") == "1":
        SNAPSHOT.write_text(json.dumps(shape, indent=1, sort_keys=True) + "\n")
    expected = json.loads(SNAPSHOT.read_text())
    assert shape == expected, ("the asset graph changed; if on purpose, regenerate the snapshot with "
                               "HERON_UPDATE_SNAPSHOT=1 .venv/bin/python -m pytest tests/defs/test_definitions.py")


def test_every_asset_label_is_unique_and_every_asset_has_a_code_version(signatures) -> None:
    assets = signatures[0]["assets"]
    labels = [key.split("/")[-1] for key in assets]
    assert len(labels) == len(set(labels)), sorted(label for label in labels if labels.count(label) > 1)
    assert all(a["code_version_set"] or a["observable"] for a in assets.values())


def test_the_launch_roots_share_one_partitions_definition(signatures) -> None:
    """A backfill over scale × seed starts at the seeded domains: every materializable asset of the
    pipeline without a materializable parent is scale × seed partitioned. (The published leaderboard,
    built from the submissions folder, is its own root: materialized alone or by its sensor.)"""
    assets = signatures[0]["assets"]
    roots = [k for k, a in assets.items() if not a["observable"] and a["group"] != "published"
             and not any(not assets[d]["observable"] for d in a["deps"])]
    assert roots and {assets[k]["partitions"] for k in roots} == {"MultiPartitionsDefinition:scale,seed"}


def test_scoring_is_downstream_of_the_audit(signatures) -> None:
    assets = signatures[0]["assets"]
    assert "gold_audit" in assets["gold_predictions"]["deps"]
    assert {"gold_predictions", "gold_results", "gold_audit"} <= set(assets["gold_scores"]["deps"])
    assert "audit_passes" in assets["gold_audit"]["checks"]


def test_importing_the_definitions_parses_no_ddl() -> None:
    """The domain graph comes from its cache: sqlglot's parser never runs at import."""
    probe = ("import sys, warnings; warnings.filterwarnings('ignore'); import heron_pipeline.definitions; "
             "print(int('heron_pipeline.catalog.ddl' in sys.modules), int('openai' in sys.modules))")
    subprocess.run([sys.executable, "-c", "import heron_pipeline.definitions"], cwd=ROOT, check=True,
                   capture_output=True)  # warms the domain-graph cache
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "0"]


def test_cached_domain_graph_equals_the_parsed_one(tmp_path) -> None:
    from heron_pipeline.catalog import load_catalog
    from heron_pipeline.catalog.graph import cached_domain_graph, domain_dependencies, domain_order

    catalog = load_catalog()
    cold = cached_domain_graph("k", cache_dir=tmp_path)
    warm = cached_domain_graph("k", cache_dir=tmp_path)
    assert cold == warm == (domain_order(catalog), {d: sorted(v) for d, v in domain_dependencies(catalog).items()})
    assert (tmp_path / "domain-graph-k.json").is_file()


#: The run configuration of `resources.bench.config` (README, "The Dagster UI"): key → default.
RUN_CONFIG = {"n": 1, "primary_seed": 42, "questions_dir": None, "instance_seed": 0, "time_ves": False,
              "question_mode": "natural",
              "retry_failed": False, "offline": False, "cli_command": None, "cli_name": None, "cli_cwd": None,
              "schema_rendering": "full"}  # not `schema`: that name shadows an attribute of Dagster's resource class


def test_the_run_configuration_is_generated_from_the_option_declarations() -> None:
    from heron_pipeline.defs.resources import BenchConfig

    fields = BenchConfig.model_fields
    assert {name: f.default for name, f in fields.items()} == RUN_CONFIG
    assert fields["question_mode"].description.startswith("which question text the tools see (default: natural")


@pytest.mark.parametrize("config, expected", [
    ({}, {}),
    ({"cli_command": "", "cli_name": ""}, {}),  # empty text is the default (no command)
    ({"questions_dir": "/tmp/q", "n": 2, "time_ves": True, "question_mode": "natural", "schema_rendering": "compact"},
     {"questions_dir": Path("/tmp/q"), "n": 2, "time_ves": True, "question_mode": "natural", "schema": "compact"}),
    ({"cli_command": "echo", "cli_name": "mine", "retry_failed": True, "offline": True, "primary_seed": 43},
     {"cli_command": "echo", "cli_name": "mine", "retry_failed": True, "offline": True, "primary_seed": 43}),
    ({"instance_seed": 7}, {"instance_seed": 7}),  # a question draw reaches Dagster through the same option
])
def test_the_run_configuration_becomes_the_same_options_as_the_flags(config, expected) -> None:
    from heron_pipeline.bench import BenchOptions
    from heron_pipeline.defs.resources import BenchConfig

    assert BenchConfig(**config).options("small", (7, 8)) == BenchOptions(scale="small", seeds=(7, 8), **expected)


def test_bench_job_shows_its_seeds_in_the_launchpad() -> None:
    """Issue 34: the launchpad hid `seeds` while the scaffolded `primary_seed: 42` looked like the seed setting."""
    from heron_pipeline.definitions import defs

    config = defs.resolve_job_def("bench_job").run_config
    assert config["ops"]["run_pipeline"]["config"] == {"scale": "tiny", "seeds": []}


def test_loading_the_definitions_warns_of_nothing_heron_chose_knowingly() -> None:
    """Issue 34: 755 warnings in 45 minutes of `heron dev` (PreviewWarnings for partitioned check specs,
    BetaWarnings, 'Field name "schema" shadows an attribute'). Loaded in a fresh interpreter that shows
    every warning once per place: none of those is left, and a warning heron did not choose still shows."""
    import subprocess
    import sys

    code = ("import warnings\n"
            "from heron_pipeline.definitions import defs\n"
            "defs.get_repository_def().get_all_jobs()\n"
            "from dagster import PreviewWarning\n"
            "warnings.warn('another preview feature', PreviewWarning)\n")
    done = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    for chosen in ("partitions_def on an AssetCheckSpec", "observable_source_asset",
                   "MultiToSingleDimensionPartitionMapping", "shadows an attribute"):
        assert chosen not in done.stderr, done.stderr[-2000:]
    assert "another preview feature" in done.stderr

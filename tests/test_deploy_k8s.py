"""deploy/k8s is a configuration Dagster and dagster-k8s accept (no cluster runs here, issue 18): the
instance file passes Dagster's instance schema, its run launcher's block passes K8sRunLauncher's own
schema and builds a launcher (from a kubeconfig naming an unreachable cluster, never contacted),
whose run-worker Job runs heron's image with the instance and the shared data volume; the launch
file passes `bench_job`'s run-config validation; the workers listen on the broker the run sends to."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "k8s"


def _documents(name: str) -> dict[tuple[str, str], dict]:
    return {(d["kind"], d["metadata"]["name"]): d for d in yaml.safe_load_all((K8S / name).read_text()) if d}


@pytest.fixture
def k8s_environment(monkeypatch):
    """The variables the pods get from heron-env/heron-secrets, set from those files."""
    env = _documents("heron-env.yaml")
    for key, value in {**env[("ConfigMap", "heron-env")]["data"], **env[("Secret", "heron-secrets")]["stringData"]}.items():
        monkeypatch.setenv(key, value)


def test_instance_file_passes_dagsters_and_the_k8s_run_launchers_schemas(tmp_path, k8s_environment) -> None:
    from dagster._config import process_config
    from dagster._core.instance.config import dagster_instance_config
    from dagster_k8s import K8sRunLauncher

    config, _ = dagster_instance_config(str(K8S), "dagster.yaml")  # raises on a schema error
    launcher = config["run_launcher"]
    assert (launcher["module"], launcher["class"]) == ("dagster_k8s", "K8sRunLauncher")
    processed = process_config(K8sRunLauncher.config_type(), launcher["config"])
    assert processed.success, [e.message for e in processed.errors]
    assert config["storage"]["postgres"]["postgres_db"]["db_name"] == "heron_dagster"

    # build it for real, only pointed at a kubeconfig of our own instead of the in-cluster account
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "none",
        "clusters": [{"name": "none", "cluster": {"server": "https://127.0.0.1:1"}}],
        "contexts": [{"name": "none", "context": {"cluster": "none", "user": "none"}}],
        "users": [{"name": "none", "user": {"token": "unused"}}]}))
    values = {**processed.value, "load_incluster_config": False, "kubeconfig_file": str(kubeconfig)}
    built = K8sRunLauncher(**values)
    assert built.job_namespace == "heron" and built.dagster_home == "/opt/dagster/dagster_home"
    assert built.instance_config_map == "heron-dagster-instance"
    assert built.env_config_maps == ["heron-env"] and built.env_secrets == ["heron-secrets"]
    mounts = {m["name"]: m["mountPath"] for m in built.volume_mounts}
    env = _documents("heron-env.yaml")[("ConfigMap", "heron-env")]["data"]
    assert mounts["heron-data"] == env["HERON_DATA_DIR"]  # artifacts pass by path: the same folder everywhere


def test_launch_file_is_valid_run_config_of_bench_job(k8s_environment) -> None:
    from dagster import validate_run_config

    from heron_pipeline.definitions import defs

    run_config = yaml.safe_load((K8S / "run_config.yaml").read_text())
    validated = validate_run_config(defs.resolve_job_def("bench_job"), run_config)
    [(executor, execution)] = validated["execution"].items()
    assert executor == "in_process_passing_execution_on"
    assert execution["celery"]["broker"] == os.environ["HERON_CELERY_BROKER"]  # the {env: ...} resolved
    # a stage job accepts the same block (bench_job passes it on)
    validate_run_config(defs.resolve_job_def("scores_job"), {"execution": run_config["execution"]})


def test_workers_listen_on_the_broker_the_runs_send_to_with_the_runs_instance_and_volume(k8s_environment) -> None:
    from dagster._config import process_config
    from dagster_celery import celery_executor

    docs = _documents("celery-workers.yaml")
    worker_file = yaml.safe_load(docs[("ConfigMap", "heron-celery")]["data"]["celery.yaml"])
    block = worker_file["execution"]["config"]
    assert process_config(celery_executor.config_schema.config_type, block).success  # what `worker start -y` checks
    assert block["broker"] == os.environ["HERON_CELERY_BROKER"] and block["backend"] == os.environ["HERON_CELERY_BACKEND"]
    service = docs[("Service", "heron-broker")]
    assert f"redis://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}/0" == block["broker"]

    workers = docs[("Deployment", "heron-celery-workers")]
    assert workers["spec"]["replicas"] >= 2
    [container] = workers["spec"]["template"]["spec"]["containers"]
    command = container["command"]
    assert command[:5] == ["dagster-celery", "worker", "start", "-A", "dagster_celery.app"]
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in workers["spec"]["template"]["spec"]["volumes"]}
    assert command[command.index("-y") + 1] == f"{mounts['celery']}/celery.yaml"
    assert volumes["celery"]["configMap"]["name"] == "heron-celery"
    launcher = yaml.safe_load((K8S / "dagster.yaml").read_text())["run_launcher"]["config"]
    assert volumes["instance"]["configMap"]["name"] == launcher["instance_config_map"]
    assert mounts["instance"] == launcher["dagster_home"] == {e["name"]: e["value"] for e in container["env"]}["DAGSTER_HOME"]
    assert mounts["heron-data"] == json.loads(json.dumps(launcher["volume_mounts"]))[0]["mountPath"]
    assert container["image"] == launcher["job_image"]

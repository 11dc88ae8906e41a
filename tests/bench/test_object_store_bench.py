"""`heron bench` with its artifact root on a real S3-compatible server (moto in server mode, the
``s3_server`` fixture) gives the standings of a local-folder run; every artifact its run manifest
names is in the store under the digest the manifest records.

"The same standings" is the same standings digest: a score record holds no wall time (without
``--ves``), so two runs over the same states and predictions write the same score files, and the
standings, whose provenance names those files by digest, are the same bytes. The score files and
the leaderboard CSV and Markdown are compared byte for byte too."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef
from heron_pipeline.artifacts.store import ObjectStore, ObjectStoreURL
from heron_pipeline.config import Settings

BENCH = ["bench", "--scale", "tiny", "--seeds", "42,43,44"]


def _heron(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "heron_pipeline.cli", *argv], env=env, capture_output=True,
                          text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _refs(document: Any) -> Iterator[dict[str, str]]:
    """Every {path, digest} a run manifest names, at any depth."""
    if isinstance(document, dict):
        if isinstance(document.get("path"), str) and isinstance(document.get("digest"), str):
            yield document
        for value in document.values():
            yield from _refs(value)
    elif isinstance(document, list):
        for value in document:
            yield from _refs(value)


@pytest.mark.e2e
@pytest.mark.timeout(1800)
def test_bench_on_the_s3_store_reproduces_the_local_standings(server, settings, s3_server, s3_bucket,
                                                              tmp_path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HERON_DATA_DIR": str(settings.data_dir), "HERON_PORT": str(settings.port)}
    if settings.dsn:
        env["HERON_DSN"] = settings.dsn
    local_root = tmp_path / "local"
    _heron({**env, "HERON_ARTIFACT_DIR": str(local_root)}, *BENCH)

    url = ObjectStoreURL.parse(f"s3://{s3_bucket}/team/heron", s3_server)
    aws = {"AWS_ENDPOINT_URL": s3_server, "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1"}
    _heron({**env, **aws, "HERON_ARTIFACT_DIR": str(url)}, *BENCH)

    store = ObjectStore(url)
    listing = store.listing()
    remote_runs = [r for r in listing if r.startswith("runs/")]
    assert len(remote_runs) == 1, remote_runs
    remote_manifest = json.loads(store.get(remote_runs[0], Path(remote_runs[0]).stem))
    (local_manifest_path,) = (local_root / "runs").glob("*.json")
    local_manifest = json.loads(local_manifest_path.read_text())

    # the standings: same digest, same bytes (read from the store, checked against the digest)
    working_copy = Settings(data_dir=settings.data_dir, artifact_dir=url).artifacts
    remote_ref, local_ref = remote_manifest["standings"]["standings"], local_manifest["standings"]["standings"]
    remote_standings = store.get(Path(remote_ref["path"]).relative_to(working_copy).as_posix(), remote_ref["digest"])
    local_standings = ArtifactRef.from_json(local_ref).read_bytes()
    remote_doc = json.loads(remote_standings)
    assert len(remote_doc["tools"]) >= 2 and remote_doc["tools"][0]["multi_state_ex1"] is not None
    # (both runs see one commit: harness_version, in the provenance, names it)
    assert remote_ref["digest"] == local_ref["digest"] == hashlib.sha256(remote_standings).hexdigest()
    assert remote_standings == local_standings

    # every score file of every tool and state, byte for byte
    relative_layout = ArtifactLayout(Path())
    remote_tools, local_tools = (json.loads(d)["provenance"]["tools"] for d in (remote_standings, local_standings))
    for tool, provenance in remote_tools.items():
        for seed, digest in provenance["scores"].items():
            folder = relative_layout.scores(tool, "tiny", int(seed), remote_doc["question_mode"])
            remote_scores = store.get(f"{folder.as_posix()}/{digest}.jsonl", digest)
            local_digest = local_tools[tool]["scores"][seed]
            local_scores = ArtifactRef(local_root / folder / f"{local_digest}.jsonl", local_digest).read_bytes()
            assert local_digest == digest and remote_scores == local_scores, (tool, seed)

    # the leaderboard files the two runs wrote: byte for byte
    for suffix in ("csv", "md"):
        remote_board = remote_manifest["leaderboard"][suffix]
        remote_bytes = store.get(Path(remote_board["path"]).relative_to(working_copy).as_posix(), remote_board["digest"])
        assert remote_bytes == ArtifactRef.from_json(local_manifest["leaderboard"][suffix]).read_bytes(), suffix

    # every artifact the remote run's manifest names is in the store with the recorded digest
    named = list(_refs(remote_manifest))
    assert len(named) > 10
    for ref in named:
        # a record under the root names its files relative to it (the audit's golds, issue 34); the
        # manifest's own refs are still absolute paths in the working copy
        path = Path(ref["path"])
        relative = path.relative_to(working_copy).as_posix() if path.is_absolute() else path.as_posix()
        assert relative in listing, relative
        store.get(relative, ref["digest"])

"""The object-store artifact root, against a real S3-compatible server (moto in server mode, see the
``s3_server`` fixture): whole-object puts, content-addressed names checked both ways, pointers only
after their object, listing, one clear line for a missing object, bucket or endpoint."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from heron_pipeline.artifacts import ArtifactMismatch, ArtifactLayout, write_document, write_text_atomic
from heron_pipeline.artifacts.store import (ObjectStore, ObjectStoreError, ObjectStoreURL, local_files, pull, push,
                                            synchronised)
from heron_pipeline.config import ConfigError, Settings, load_settings


def _store(endpoint: str, bucket: str, prefix: str = "heron") -> ObjectStore:
    return ObjectStore(ObjectStoreURL.parse(f"s3://{bucket}/{prefix}", endpoint))


class RecordingFilesystem:
    """The real s3fs filesystem, passed through, noting the keys of each batch ``pipe`` puts (a spy
    on real calls, not a mock: every call reaches the server)."""

    def __init__(self, fs):
        self.fs, self.batches = fs, []

    def pipe(self, batch, *args, **kwargs):
        self.batches.append(sorted(batch))
        return self.fs.pipe(batch, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.fs, name)


def test_put_replaces_the_whole_object_and_leaves_nothing_else(s3_server, s3_bucket) -> None:
    store = _store(s3_server, s3_bucket)
    store.put("results/leaderboard.md", b"first")
    store.put("results/leaderboard.md", b"second, longer")
    assert store.get("results/leaderboard.md") == b"second, longer"
    assert store.listing() == {"results/leaderboard.md": hashlib.md5(b"second, longer").hexdigest()}


def test_content_addressed_objects_are_named_by_their_digest_and_written_once(s3_server, s3_bucket) -> None:
    store = _store(s3_server, s3_bucket)
    first = store.put_content_addressed("runs", b'{"a":1}')
    again = store.put_content_addressed("runs", b'{"a":1}')
    other = store.put_content_addressed("runs", b'{"a":2}')
    digest = hashlib.sha256(b'{"a":1}').hexdigest()
    assert first == again == (f"runs/{digest}.json", digest)
    assert other[1] != digest and sorted(store.listing()) == sorted([first[0], other[0]])
    assert store.get(first[0], digest) == b'{"a":1}'


def test_a_pointer_is_refused_before_its_object_and_written_after(s3_server, s3_bucket) -> None:
    store = _store(s3_server, s3_bucket)
    payload = b'{"passed":true}'
    target = f"audits/tiny/{hashlib.sha256(payload).hexdigest()}.json"
    with pytest.raises(ObjectStoreError, match="write the object first"):
        store.put_pointer("audits/tiny/key.ref.json", b"{}", target)
    assert store.listing() == {}
    store.put_content_addressed("audits/tiny", payload)
    store.put_pointer("audits/tiny/key.ref.json", target.encode(), target)
    assert store.get("audits/tiny/key.ref.json") == target.encode()


def test_reads_check_the_digest_and_a_missing_object_is_one_line(s3_server, s3_bucket) -> None:
    store = _store(s3_server, s3_bucket)
    relative, digest = store.put_content_addressed("gold/tiny_42", b"gold")
    with pytest.raises(ArtifactMismatch, match="expected"):
        store.get(relative, hashlib.sha256(b"other").hexdigest())
    with pytest.raises(ObjectStoreError) as missing:
        store.get("gold/tiny_42/absent.json")
    assert "no object gold/tiny_42/absent.json" in str(missing.value) and "\n" not in str(missing.value)


def test_listing_is_relative_to_the_prefix(s3_server, s3_bucket) -> None:
    store, neighbour = _store(s3_server, s3_bucket, "team/a"), _store(s3_server, s3_bucket, "team/b")
    store.put("states/tiny_42/x.json", b"1")
    neighbour.put("states/tiny_42/y.json", b"2")
    assert list(store.listing()) == ["states/tiny_42/x.json"]
    assert list(neighbour.listing()) == ["states/tiny_42/y.json"]


def test_a_missing_bucket_and_an_unreachable_endpoint_are_one_line(s3_server, free_port) -> None:
    with pytest.raises(ObjectStoreError) as missing:
        _store(s3_server, "no-such-bucket").check()
    assert "bucket 'no-such-bucket' does not exist" in str(missing.value) and not missing.value.unreachable
    with pytest.raises(ObjectStoreError) as unreachable:
        _store(f"http://127.0.0.1:{free_port()}", "heron").check()
    assert "cannot reach the artifact store" in str(unreachable.value) and unreachable.value.unreachable
    assert "\n" not in str(unreachable.value)


def _working_copy_with_a_run(root: Path) -> dict[str, str]:
    """A few artifacts the way the steps write them: two content-addressed, a pointer to one of them,
    and the friendly leaderboard file. relative path -> text."""
    layout = ArtifactLayout(root)
    audit = write_document(layout.audits("tiny"), {"passed": True})
    standings = write_document(layout.standings("tiny", "natural"), {"tools": ["gold"]})
    write_text_atomic(layout.audit_pointer("tiny", "k" * 64), audit.path.name)
    write_text_atomic(layout.leaderboard("md"), "| gold | 100 |\n")
    return {p.relative_to(root).as_posix(): p.read_text() for p in [audit.path, standings.path,
                                                                   layout.audit_pointer("tiny", "k" * 64),
                                                                   layout.leaderboard("md")]}


def test_push_puts_the_objects_before_what_points_to_them(s3_server, s3_bucket, tmp_path) -> None:
    written = _working_copy_with_a_run(tmp_path)
    store = _store(s3_server, s3_bucket)
    store.fs = RecordingFilesystem(store.fs)
    counts = push(tmp_path, store)
    addressed, others = store.fs.batches
    assert addressed == sorted(store.object_key(r) for r in written if r.startswith(("audits/tiny/", "standings/"))
                               and not r.endswith(".ref.json"))
    assert others == sorted(store.object_key(r) for r in ["audits/tiny/" + "k" * 64 + ".ref.json", "results/leaderboard.md"])
    assert counts.moved == 4 and sorted(store.listing()) == sorted(written)
    again = push(tmp_path, store, local_files(tmp_path))
    assert (again.moved, again.in_place) == (0, 4) and len(store.fs.batches) == 2


def test_an_installed_tool_stays_on_its_machine(s3_server, s3_bucket, tmp_path) -> None:
    """A runnable submission's venv (interpreter paths of this machine, thousands of files) is never
    pushed: the store gets the run's artifacts only."""
    written = _working_copy_with_a_run(tmp_path)
    marker = ArtifactLayout(tmp_path).tool_install("a" * 24) / ".installed"
    marker.parent.mkdir(parents=True)
    marker.write_text("")
    (marker.parent / "venv" / "bin").mkdir(parents=True)
    (marker.parent / "venv" / "bin" / "python").write_text("#!/machine/local\n")
    assert set(local_files(tmp_path)) == set(written)
    store = _store(s3_server, s3_bucket)
    assert push(tmp_path, store).moved == 4 and sorted(store.listing()) == sorted(written)


def test_a_working_copy_pulled_elsewhere_holds_the_same_bytes(s3_server, s3_bucket, tmp_path) -> None:
    written = _working_copy_with_a_run(tmp_path / "a")
    store = _store(s3_server, s3_bucket)
    push(tmp_path / "a", store)
    counts = pull(store, tmp_path / "b")
    assert counts.moved == 4
    assert {r: (tmp_path / "b" / r).read_text() for r in written} == written
    # a changed friendly file is pushed again; the other copy's next pull keeps its own (a pull only
    # adds: what a machine made is never replaced by the store's copy, issue 34) and a fresh copy
    # takes the new bytes
    write_text_atomic(ArtifactLayout(tmp_path / "a").leaderboard("md"), "| gold | 99 |\n")
    snapshot = local_files(tmp_path / "a")
    write_text_atomic(ArtifactLayout(tmp_path / "a").leaderboard("md"), "| gold | 98 |\n")
    assert push(tmp_path / "a", store, snapshot).moved == 1
    again = pull(store, tmp_path / "b")
    assert (again.moved, again.kept, (tmp_path / "b/results/leaderboard.md").read_text()) == (0, 1, "| gold | 100 |\n")
    assert (pull(store, tmp_path / "c").moved, (tmp_path / "c/results/leaderboard.md").read_text()) == (4, "| gold | 98 |\n")


def test_a_pull_refuses_an_object_that_does_not_hash_to_its_name(s3_server, s3_bucket, tmp_path) -> None:
    store = _store(s3_server, s3_bucket)
    forged = f"standings/tiny/natural/{hashlib.sha256(b'real').hexdigest()}.json"
    store.put(forged, b"forged")
    counts = pull(store, tmp_path)  # not pulled, named in one line; the step that needs it re-makes it (issue 34)
    (line,) = counts.corrupt
    assert forged in line and "does not hash to its name" in line and "\n" not in line
    assert counts.moved == 0 and not (tmp_path / forged).exists()


def test_synchronised_pushes_what_a_failed_command_finished(s3_server, s3_bucket, tmp_path) -> None:
    url = ObjectStoreURL.parse(f"s3://{s3_bucket}/heron", s3_server)
    with pytest.raises(RuntimeError):
        with synchronised(url, tmp_path):
            written = _working_copy_with_a_run(tmp_path)
            raise RuntimeError("the step after these failed")
    assert sorted(ObjectStore(url).listing()) == sorted(written)


# -- the setting ------------------------------------------------------------------------------------
def test_the_artifact_root_setting_accepts_an_s3_url(tmp_path) -> None:
    env = {"HERON_DATA_DIR": str(tmp_path), "HERON_ARTIFACT_DIR": "s3://shared-bucket/team/heron",
           "AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "HERON_CONFIG": ""}
    settings = load_settings(env, config_file=tmp_path / "absent.toml")
    assert settings.artifact_store == ObjectStoreURL("shared-bucket", "team/heron", "http://127.0.0.1:9000")
    assert settings.artifacts == tmp_path / "artifact-cache" / "127.0.0.1_9000" / "shared-bucket" / "team" / "heron"
    local = load_settings({"HERON_ARTIFACT_DIR": str(tmp_path / "a")}, config_file=tmp_path / "absent.toml")
    assert local.artifact_store is None and local.artifacts == tmp_path / "a"
    assert Settings(data_dir=tmp_path).artifacts == tmp_path / "artifacts"


@pytest.mark.parametrize("url, says", [
    ("gs://bucket/x", "must start with s3://"),
    ("s3://", "does not name a valid S3 bucket"),
    ("s3://Bad_Bucket/x", "does not name a valid S3 bucket"),
    ("s3://bucket/a//b", "empty, '.' or '..' folder"),
    ("s3://bucket/x?versionId=1", "query or fragment"),
])
def test_a_bad_store_url_is_one_line_naming_the_variable(url, says, tmp_path) -> None:
    with pytest.raises(ConfigError) as err:
        load_settings({"HERON_ARTIFACT_DIR": url}, config_file=tmp_path / "absent.toml")
    assert str(err.value).startswith("HERON_ARTIFACT_DIR: artifact_dir") and says in str(err.value)


def _heron(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "heron_pipeline.cli", *argv], env=env, capture_output=True,
                          text=True, timeout=120)


def test_the_cli_names_a_missing_bucket_or_a_silent_endpoint_in_one_line(s3_server, free_port, tmp_path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HERON_DATA_DIR": str(tmp_path), "HERON_PORT": str(free_port()),
           "HERON_ARTIFACT_DIR": "s3://no-such-bucket/heron", "AWS_ENDPOINT_URL": s3_server,
           "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1"}
    missing = _heron(env, "bench", "--scale", "tiny", "--seeds", "42")
    assert missing.returncode == 1, missing.stderr
    assert missing.stderr.strip().splitlines() == [
        f"error: the artifact store s3://no-such-bucket/heron at {s3_server}: bucket 'no-such-bucket' does not "
        "exist; create it (aws s3 mb s3://no-such-bucket) or fix HERON_ARTIFACT_DIR"]
    silent = _heron({**env, "AWS_ENDPOINT_URL": f"http://127.0.0.1:{free_port()}"}, "bench", "--scale", "tiny")
    assert silent.returncode == 7 and len(silent.stderr.strip().splitlines()) == 1, silent.stderr
    assert "cannot reach the artifact store s3://no-such-bucket/heron" in silent.stderr
    bad = _heron({**env, "HERON_ARTIFACT_DIR": "s3://x"}, "bench", "--scale", "tiny")
    assert bad.returncode == 2 and bad.stderr.startswith("error: HERON_ARTIFACT_DIR: artifact_dir: ")


def test_the_dagster_resource_reads_an_s3_artifact_dir_as_a_store(tmp_path, monkeypatch) -> None:
    """Not a folder named ``s3:``: the resource's ``artifact_dir`` goes through the same parsing."""
    from heron_pipeline.defs.resources import HeronServer

    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9000")
    settings = HeronServer(data_dir=str(tmp_path), artifact_dir="s3://shared-bucket/dagster").settings()
    assert settings.artifact_store == ObjectStoreURL("shared-bucket", "dagster", "http://127.0.0.1:9000")
    assert settings.artifacts.is_relative_to(tmp_path / "artifact-cache")
    assert HeronServer(artifact_dir=str(tmp_path / "a")).settings().artifacts == tmp_path / "a"

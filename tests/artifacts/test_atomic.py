"""The one atomic write: no partial file is ever visible, a failure leaves nothing behind, a full
disk is one line naming the file and the bytes."""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

import pytest

from heron_pipeline.artifacts import (ArtifactWriteError, write_atomic, write_content_addressed, write_document,
                                      write_jsonl_artifact, write_text_atomic)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") or p.suffix == ".tmp")


def test_the_target_holds_the_old_bytes_until_the_new_ones_are_whole(tmp_path: Path) -> None:
    target = tmp_path / "board.json"
    target.write_text("old")
    seen = []

    def stream(handle) -> None:
        handle.write(b"new, first half")
        handle.flush()
        seen.append((target.read_text(), leftovers(tmp_path)))  # mid-write, as a reader sees it
        handle.write(b" and second half")

    write_atomic(target, stream)
    [(during, temporary)] = seen
    assert during == "old" and len(temporary) == 1 and temporary[0].startswith(".board.json.")
    assert target.read_text() == "new, first half and second half" and leftovers(tmp_path) == []
    assert oct(target.stat().st_mode & 0o777) == oct(0o644)


def test_a_folder_is_created_and_text_is_utf8(tmp_path: Path) -> None:
    path = write_text_atomic(tmp_path / "a" / "b" / "x.md", "Grade — ü\n")
    assert path.read_bytes() == "Grade — ü\n".encode("utf-8")


def _disk_full_after(monkeypatch: pytest.MonkeyPatch, allowed: int) -> None:
    """``os.write`` writes ``allowed`` bytes in all, then fails as a full disk does."""
    real_write, budget = os.write, [allowed]

    def write(fd: int, data) -> int:
        if budget[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = real_write(fd, bytes(data[:budget[0]]))
        budget[0] -= n
        return n

    monkeypatch.setattr(os, "write", write)


def test_a_full_disk_leaves_no_partial_file_and_names_the_path_and_bytes(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "scores" / "s.jsonl"
    target.parent.mkdir()
    target.write_bytes(b"previous")
    _disk_full_after(monkeypatch, 1000)
    with pytest.raises(ArtifactWriteError) as caught:
        write_atomic(target, b"x" * 5000)
    message = str(caught.value)
    assert message == (f"cannot write {target}: no space left on device (needed 5,000 bytes); "
                       f"free space there and rerun")
    assert "\n" not in message and caught.value.errno == errno.ENOSPC and caught.value.needed == 5000
    assert isinstance(caught.value, OSError)  # callers tolerating an unwritable cache still do
    assert target.read_bytes() == b"previous" and leftovers(target.parent) == []


def test_a_full_disk_in_a_content_addressed_write_leaves_no_artifact(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _disk_full_after(monkeypatch, 0)
    with pytest.raises(ArtifactWriteError, match=r"no space left on device \(needed 19 bytes\)"):
        write_jsonl_artifact(tmp_path / "p", [{"sql": "SELECT 1"}])
    assert list((tmp_path / "p").iterdir()) == []


def test_a_full_disk_while_streaming_says_how_far_it_got(tmp_path: Path) -> None:
    def stream(handle) -> None:
        handle.write(b"y" * 300)
        handle.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(ArtifactWriteError, match=r"dump\.sql\.gz: no space left on device \(full after 300 bytes\)"):
        write_atomic(tmp_path / "dump.sql.gz", stream)
    assert list(tmp_path.iterdir()) == []


def test_any_other_failure_is_one_line_too_and_not_a_disk_full_claim(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()  # a folder where the file should go: the rename fails
    (tmp_path / "taken" / "child").write_text("keep")
    with pytest.raises(ArtifactWriteError) as caught:
        write_atomic(tmp_path / "taken", b"data")
    assert str(caught.value).startswith(f"cannot write {tmp_path / 'taken'}: ") and "space" not in str(caught.value)
    assert leftovers(tmp_path) == []


def test_a_failing_stream_that_is_no_os_error_propagates_unchanged(tmp_path: Path) -> None:
    def stream(handle) -> None:
        handle.write(b"half")
        raise RuntimeError("pg_dump failed")

    with pytest.raises(RuntimeError, match="pg_dump failed"):
        write_atomic(tmp_path / "d.gz", stream)
    assert list(tmp_path.iterdir()) == []


def test_the_error_survives_a_trip_to_another_process() -> None:
    import pickle

    err = ArtifactWriteError(Path("/a/b.json"), OSError(errno.ENOSPC, "No space left on device"), 7)
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), str(back), back.errno, back.path, back.needed) == (
        ArtifactWriteError, str(err), errno.ENOSPC, Path("/a/b.json"), 7)


def test_the_cli_prints_a_full_disk_as_one_line(tmp_path: Path) -> None:
    from heron_pipeline.cli import EXIT_FAIL, explain_failure

    err = ArtifactWriteError(tmp_path / "x.json", OSError(errno.ENOSPC, "No space left on device"), 12345)
    line, code = explain_failure(err, None, "bench")
    assert line == f"error: cannot write {tmp_path / 'x.json'}: no space left on device (needed 12,345 bytes); " \
                   f"free space there and rerun" and code == EXIT_FAIL


def test_content_addressed_names_are_the_digest_and_never_rewritten(tmp_path: Path) -> None:
    payload = b'{"a":1}\n'
    path, digest = write_content_addressed(tmp_path, payload)
    assert digest == hashlib.sha256(payload).hexdigest() == path.stem and path.suffix == ".jsonl"
    before = path.stat()
    assert write_content_addressed(tmp_path, payload) == (path, digest)
    assert path.stat().st_ino == before.st_ino and path.stat().st_mtime_ns == before.st_mtime_ns


@pytest.mark.parametrize("records, digest", [
    ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),  # sha256 of no bytes
    ([{"b": 2, "a": 1}], hashlib.sha256(b'{"a":1,"b":2}\n').hexdigest()),
    ([{"sql": "SELECT 'é'"}], hashlib.sha256('{"sql":"SELECT \'é\'"}\n'.encode()).hexdigest()),
])
def test_jsonl_digests_are_stable(tmp_path: Path, records, digest: str) -> None:
    assert write_jsonl_artifact(tmp_path, records)[1] == digest


def test_document_digest_is_stable(tmp_path: Path) -> None:
    ref = write_document(tmp_path, {"z": [1, 2], "a": "x"})
    assert ref.path.read_bytes() == b'{\n "a": "x",\n "z": [\n  1,\n  2\n ]\n}'
    assert ref.digest == hashlib.sha256(ref.path.read_bytes()).hexdigest() and ref.path.name == f"{ref.digest}.json"

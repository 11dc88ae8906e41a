"""The working copy and the shared store (moto in server mode): a pull only adds, boards merge as
a set of content-addressed entries, and corrupt copies are repaired from good bytes (issue 34)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from heron_pipeline.artifacts import ArtifactLayout, ArtifactRef, write_document
from heron_pipeline.artifacts.atomic import write_content_addressed
from heron_pipeline.artifacts.store import ObjectStore, ObjectStoreURL, local_files, pull, push, synchronised
from heron_pipeline.bench.standings import StandingsResult, board_entries, current_boards, write_local_leaderboard


def _url(endpoint: str, bucket: str) -> ObjectStoreURL:
    return ObjectStoreURL.parse(f"s3://{bucket}/team", endpoint)


def _standings(root: Path, mode: str, tools: list[str]) -> StandingsResult:
    """A standings document of tiny/<mode> as the leaderboard renders it (no tool rows needed)."""
    doc = {"scale": "tiny", "seeds": [42], "mode": "single-state", "tools": [], "question_mode": mode,
           "excluded": [], "retrieval": [], "ci": {"level": 0.95, "resamples": 1000, "seed": 0}, "names": tools}
    return StandingsResult("tiny", mode, write_document(ArtifactLayout(root).standings("tiny", mode), doc))


def _boards(root: Path) -> set[str]:
    return set(json.loads(ArtifactLayout(root).boards_index().read_text()))


# -- boards -------------------------------------------------------------------------------------------
def test_two_machines_publishing_at_once_both_keep_their_board(s3_server, s3_bucket, tmp_path) -> None:
    url = _url(s3_server, s3_bucket)
    natural, full, third = tmp_path / "natural", tmp_path / "full", tmp_path / "third"
    with synchronised(url, natural):  # both pull before either pushes: the race of the issue
        with synchronised(url, full):
            write_local_leaderboard(natural, [_standings(natural, "natural", ["gold"])])
            write_local_leaderboard(full, [_standings(full, "full", ["gold"])])
    with synchronised(url, third):  # a third machine publishes a board of its own
        write_local_leaderboard(third, [_standings(third, "natural", ["gold", "llm"])])
    assert _boards(third) == {"tiny/natural", "tiny/full"}
    shown, apart = current_boards(board_entries(third))
    assert sorted(shown) == ["tiny/full", "tiny/natural"] and apart == []
    assert shown["tiny/natural"].standings.load()["names"] == ["gold", "llm"]
    with synchronised(url, full):  # and the machine that pushed first sees it all at its next publish
        write_local_leaderboard(full, [_standings(full, "full", ["gold"])])
    assert _boards(full) == {"tiny/natural", "tiny/full"}


def test_a_board_made_while_the_store_was_down_survives_the_next_pull(s3_server, s3_bucket, tmp_path) -> None:
    url, root = _url(s3_server, s3_bucket), tmp_path / "wc"
    with synchronised(url, root):
        write_local_leaderboard(root, [_standings(root, "full", ["gold"])])
    # the store is down: the run finishes locally and its push never happens
    write_local_leaderboard(root, [_standings(root, "natural", ["gold"])])
    before = ArtifactLayout(root).leaderboard("md").read_text()
    with synchronised(url, root):  # the store is back: the pull must not take the board away
        assert ArtifactLayout(root).leaderboard("md").read_text() == before
        assert _boards(root) == {"tiny/full", "tiny/natural"}
        write_local_leaderboard(root, [_standings(root, "full", ["gold"])])
    assert _boards(root) == {"tiny/full", "tiny/natural"}
    fresh = tmp_path / "fresh"
    pull(ObjectStore(url), fresh)
    assert sorted(current_boards(board_entries(fresh))[0]) == ["tiny/full", "tiny/natural"]


def test_one_board_published_apart_on_two_machines_keeps_both_and_says_which_shows(s3_server, s3_bucket,
                                                                                  tmp_path, caplog) -> None:
    url = _url(s3_server, s3_bucket)
    a, b = tmp_path / "a", tmp_path / "b"
    with synchronised(url, a):
        with synchronised(url, b):
            write_local_leaderboard(a, [_standings(a, "natural", ["gold"])])
            later = write_local_leaderboard(b, [_standings(b, "natural", ["gold", "llm"])])
    assert later.apart == ()
    with synchronised(url, a):
        shown, apart = current_boards(board_entries(a))
    (line,) = apart
    assert "tiny/natural" in line and "published apart 2 times" in line and "\n" not in line
    assert shown["tiny/natural"].standings.load()["names"] == ["gold", "llm"]  # the later publish
    assert len(board_entries(a)) == 2  # neither is lost


# -- repair ---------------------------------------------------------------------------------------------
def _one_object(root: Path) -> tuple[str, bytes]:
    ref = write_document(ArtifactLayout(root).gold("tiny", 42), {"rows": [[1]]})
    return ref.path.relative_to(root).as_posix(), ref.path.read_bytes()


def test_a_machine_holding_the_good_bytes_repairs_the_stores_corrupt_copy(s3_server, s3_bucket, tmp_path) -> None:
    store = ObjectStore(_url(s3_server, s3_bucket))
    relative, good = _one_object(tmp_path)
    push(tmp_path, store)
    store.put(relative, b"corrupt")
    counts = pull(store, tmp_path)
    assert counts.repaired == 1
    assert store.get(relative, hashlib.sha256(good).hexdigest()) == good


def test_a_corrupt_local_copy_is_replaced_by_the_stores_good_bytes(s3_server, s3_bucket, tmp_path) -> None:
    store = ObjectStore(_url(s3_server, s3_bucket))
    relative, good = _one_object(tmp_path)
    push(tmp_path, store)
    (tmp_path / relative).write_bytes(b"corrupt")
    assert pull(store, tmp_path).repaired == 1 and (tmp_path / relative).read_bytes() == good


def test_a_corrupt_object_nobody_holds_is_remade_by_its_step_and_the_push_repairs_the_store(
        s3_server, s3_bucket, tmp_path) -> None:
    store = ObjectStore(_url(s3_server, s3_bucket))
    relative, good = _one_object(tmp_path / "maker")
    push(tmp_path / "maker", store)
    store.put(relative, b"corrupt")
    root = tmp_path / "other"
    counts = pull(store, root)
    assert len(counts.corrupt) == 1 and not (root / relative).exists()
    snapshot = local_files(root)
    write_content_addressed((root / relative).parent, good, suffix=".json")  # the step makes it again
    assert push(root, store, snapshot).repaired == 1
    assert store.get(relative, hashlib.sha256(good).hexdigest()) == good


def test_the_step_that_makes_an_artifact_replaces_a_corrupt_local_file(tmp_path) -> None:
    path, digest = write_content_addressed(tmp_path, b"right bytes", suffix=".json")
    path.write_bytes(b"wrong bytes")
    assert write_content_addressed(tmp_path, b"right bytes", suffix=".json") == (path, digest)
    assert path.read_bytes() == b"right bytes"


# -- references relative to the root -------------------------------------------------------------------
def test_a_copied_root_reads_its_own_files_and_old_absolute_refs_still_read(tmp_path) -> None:
    original = tmp_path / "original"
    ref = write_document(ArtifactLayout(original).gold("tiny", 42), {"rows": [[1]]})
    relative = ref.to_json(original)
    assert relative["path"] == ref.path.relative_to(original).as_posix()
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    (copy / relative["path"]).write_bytes(b"changed in the copy")
    for recorded in (relative, ref.to_json()):  # a relative ref, and an absolute one of an older root
        again = ArtifactRef.from_json(recorded, copy)
        assert again.path == copy / relative["path"]  # never the original's file
    assert ArtifactRef.from_json(ref.to_json(), original).read_bytes() == ref.path.read_bytes()

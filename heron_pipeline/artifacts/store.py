"""The artifact root on an S3-compatible object store: a local working copy synchronised by identity.

Why a working copy and not an object-store path handed to every step: the steps read and write
their artifacts as local files (``ArtifactRef`` reads bytes, DuckDB reads score files, ``heron dump``
streams into a file), and a store behind every one of those calls would teach each step about the
store. Instead a command that runs with an ``s3://bucket/prefix`` root works in a local folder that
mirrors the store (``Settings.artifacts``), pulled before the command and pushed after it; every
step is unchanged and the local-folder default is untouched.

The two rules of the issue hold across the store:

- *named by identity*: an object whose kind is content-addressed (``{digest}`` in its ``KINDS``
  pattern) is checked against its name when it is pulled (a different object is refused, never
  written locally) and when it is pushed; it is put only when the store lacks it (never rewritten).
- *written atomically*: an object store has no rename, but a PUT is all-or-nothing (a reader sees
  the old object or the whole new one), so each file is one PUT of its whole bytes; and the push
  puts every content-addressed object *before* any other (pointers, verdicts, the friendly
  leaderboard files, the boards index, run-independent caches), so a reader of the store never
  sees a pointer to an object that is not there yet.

s3fs (an fsspec filesystem, the optional ``heron[distributed]`` extra) is imported only when a store
is used. Endpoint and credentials are the standard AWS variables botocore reads
(``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_DEFAULT_REGION``);
every failure to reach or use the store is an ``ObjectStoreError`` whose message is one line.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

from heron_pipeline.artifacts.atomic import write_atomic
from heron_pipeline.artifacts.layout import MACHINE_LOCAL, kind_of

log = logging.getLogger(__name__)

#: S3's bucket naming rules (3-63 characters: lower-case letters, digits, dots and hyphens).
BUCKET_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
SUPPORTED_SCHEMES = ("s3",)


class ObjectStoreError(OSError):
    """The artifact store cannot be used (bad URL, endpoint unreachable, bucket missing, no
    credentials, object missing); the message is one line naming the store and the fix.
    ``unreachable`` says the endpoint did not answer at all (the CLI's "server unavailable" code)."""

    def __init__(self, message: str, unreachable: bool = False):
        super().__init__(message)
        self.unreachable = unreachable

    def __str__(self) -> str:
        return str(self.args[0])


def is_store_url(text: str) -> bool:
    """Whether an artifact-root setting is a URL (``scheme://...``) rather than a folder."""
    return bool(URL_SCHEME.match(text.strip()))


@dataclass(frozen=True)
class ObjectStoreURL:
    """Where the artifact root lives in an object store: ``s3://bucket/prefix`` and the endpoint
    (``AWS_ENDPOINT_URL``; ``None`` means AWS itself)."""

    bucket: str
    prefix: str = ""
    endpoint: str | None = None

    @classmethod
    def parse(cls, text: str, endpoint: str | None = None) -> "ObjectStoreURL":
        """``s3://bucket[/prefix]``; anything else is a ``ValueError`` saying what is accepted."""
        parts = urlsplit(text.strip())
        if parts.scheme not in SUPPORTED_SCHEMES:
            raise ValueError(f"an object-store URL must start with s3:// (got {parts.scheme}://); "
                             "write it as s3://bucket/prefix, or give a folder path")
        if not BUCKET_NAME.match(parts.netloc) or ".." in parts.netloc:
            raise ValueError(f"{text!r} does not name a valid S3 bucket ({parts.netloc!r}: 3-63 lower-case "
                             "letters, digits, dots, hyphens); write it as s3://bucket/prefix")
        if parts.query or parts.fragment:
            raise ValueError(f"{text!r} has a query or fragment; write it as s3://bucket/prefix")
        prefix = parts.path.strip("/")
        if any(segment in ("", ".", "..") for segment in prefix.split("/")) and prefix:
            raise ValueError(f"{text!r} has an empty, '.' or '..' folder in its prefix; write it as s3://bucket/prefix")
        return cls(parts.netloc, prefix, endpoint.rstrip("/") if endpoint else None)

    def __str__(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}" if self.prefix else f"s3://{self.bucket}"

    @property
    def where(self) -> str:
        """The store and its endpoint, as an error names them."""
        return f"{self} at {self.endpoint or 'AWS'}"

    @property
    def working_copy_name(self) -> str:
        """The local working copy's folder, relative to the data folder's ``artifact-cache``: one per
        endpoint, bucket and prefix, so two stores never share (and cross-push) a working copy."""
        host = urlsplit(self.endpoint).netloc.replace(":", "_") if self.endpoint else "aws"
        return "/".join(part for part in (host, self.bucket, self.prefix) if part)


def _explain(url: ObjectStoreURL, err: BaseException, doing: str) -> ObjectStoreError:
    """One line for an exception s3fs/botocore raised while ``doing`` something with the store."""
    name = type(err).__name__
    text = " ".join(str(err).split()) or name
    if name in ("EndpointConnectionError", "ConnectTimeoutError", "ClientConnectorError",
                "ServerDisconnectedError", "ConnectionClosedError") or isinstance(err, ConnectionError):
        return ObjectStoreError(f"cannot reach the artifact store {url.where} while {doing}: {text}; start the "
                                "server or fix AWS_ENDPOINT_URL", unreachable=True)
    if name in ("NoCredentialsError", "PartialCredentialsError"):
        return ObjectStoreError(f"no credentials for the artifact store {url.where}; set AWS_ACCESS_KEY_ID and "
                                "AWS_SECRET_ACCESS_KEY (or an AWS profile)")
    if isinstance(err, PermissionError):
        return ObjectStoreError(f"the artifact store {url.where} refused {doing}: {text}; check the credentials "
                                "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) and the bucket's policy")
    return ObjectStoreError(f"the artifact store {url.where} failed while {doing}: {name}: {text}")


class ObjectStore:
    """The objects under one ``s3://bucket/prefix``, named by their path relative to the prefix
    (the same relative path as under a local artifact root)."""

    def __init__(self, url: ObjectStoreURL, filesystem: Any = None):
        self.url = url
        self.fs = filesystem if filesystem is not None else self._connect(url)
        self.base = f"{url.bucket}/{url.prefix}".rstrip("/")

    @staticmethod
    def _connect(url: ObjectStoreURL) -> Any:
        try:
            import s3fs
        except ImportError:
            raise ObjectStoreError(f"the artifact root {url} needs s3fs; install it with "
                                   "pip install 'heron[distributed]' (or use a folder path)") from None
        # One connection attempt, short timeouts: a wrong endpoint is one line within seconds, not
        # minutes of botocore's retries. s3fs retries throttling by itself.
        config = {"connect_timeout": 5, "read_timeout": 60, "retries": {"max_attempts": 2, "mode": "standard"}}
        return s3fs.S3FileSystem(endpoint_url=url.endpoint, config_kwargs=config, skip_instance_cache=True,
                                 default_fill_cache=False, use_listings_cache=False)

    def object_key(self, relative: str) -> str:
        """The full key (``bucket/prefix/relative``) of the object named by a path under the root."""
        return f"{self.base}/{relative}"

    def _call(self, doing: str, function: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except ObjectStoreError:
            raise
        except FileNotFoundError:
            raise
        except Exception as err:  # noqa: BLE001 - botocore/aiohttp raise many types; each becomes one line
            raise _explain(self.url, err, doing) from err

    def check(self) -> None:
        """Raise ``ObjectStoreError`` unless the endpoint answers and the bucket exists."""
        try:
            self._call(f"opening bucket {self.url.bucket}", self.fs.ls, self.url.bucket, refresh=True)
        except FileNotFoundError:
            raise ObjectStoreError(f"the artifact store {self.url.where}: bucket {self.url.bucket!r} does not exist; "
                                   f"create it (aws s3 mb s3://{self.url.bucket}) or fix HERON_ARTIFACT_DIR") from None

    # -- objects ------------------------------------------------------------------------------------
    def put(self, relative: str, payload: bytes) -> None:
        """One whole-object PUT: a reader sees the old object or all of ``payload``, never part."""
        self._call(f"writing {relative}", self.fs.pipe_file, self.object_key(relative), bytes(payload))

    def put_content_addressed(self, folder: str, payload: bytes, suffix: str = ".json") -> tuple[str, str]:
        """``payload`` as ``folder/<sha256><suffix>`` unless the store has it; (relative path, digest)."""
        digest = hashlib.sha256(payload).hexdigest()
        relative = f"{folder.rstrip('/')}/{digest}{suffix}"
        if not self.exists(relative):
            self.put(relative, payload)
        return relative, digest

    def put_pointer(self, relative: str, payload: bytes, target: str) -> None:
        """A small mutable object that names ``target``: refused unless ``target`` is in the store
        (the pointer is always written after the object it points to)."""
        if not self.exists(target):
            raise ObjectStoreError(f"refusing to write {relative} in {self.url}: it points to {target}, which the "
                                   "store does not hold; write the object first")
        self.put(relative, payload)

    def exists(self, relative: str) -> bool:
        return bool(self._call(f"looking for {relative}", self.fs.exists, self.object_key(relative)))

    def get(self, relative: str, digest: str | None = None) -> bytes:
        """The bytes of an object; with ``digest``, refused (``ArtifactMismatch``) unless they hash
        to it. A missing object is an ``ObjectStoreError`` naming it."""
        from heron_pipeline.artifacts.ref import ArtifactMismatch

        try:
            payload = self._call(f"reading {relative}", self.fs.cat_file, self.object_key(relative))
        except FileNotFoundError:
            raise ObjectStoreError(f"the artifact store {self.url.where} has no object {relative}; re-run the step "
                                   "that writes it (or check HERON_ARTIFACT_DIR's prefix)") from None
        if digest is not None and hashlib.sha256(payload).hexdigest() != digest:
            actual = hashlib.sha256(payload).hexdigest()
            raise ArtifactMismatch(f"object {relative} in {self.url} has sha256 {actual[:16]}…, expected "
                                   f"{digest[:16]}…; re-run the step that wrote it")
        return payload

    def listing(self) -> dict[str, str]:
        """relative path -> ETag (the MD5 of a single-PUT object) of every object under the prefix."""
        found = self._call(f"listing {self}", self.fs.find, self.base, detail=True) if self.base else {}
        start = len(self.base) + 1
        return {key[start:]: str(info.get("ETag", "")).strip('"') for key, info in found.items()
                if info.get("type", "file") == "file" and key.startswith(self.base + "/")}

    def __str__(self) -> str:
        return str(self.url)


# -- the working copy ------------------------------------------------------------------------------
def _is_temporary(path: Path) -> bool:
    """A write in progress of ``artifacts.atomic`` (``.<name>.<random>.tmp``): never synchronised."""
    return path.name.startswith(".") and path.name.endswith(".tmp")


def local_files(root: Path) -> dict[str, tuple[int, int]]:
    """relative path -> (size, mtime_ns) of every finished file under a local artifact root that a
    store may share (not the machine-local folders: an installed tool's venv)."""
    root = Path(root)
    if not root.is_dir():
        return {}
    return {relative.as_posix(): (stat.st_size, stat.st_mtime_ns)
            for path in root.rglob("*") if path.is_file() and not _is_temporary(path)
            for relative in (path.relative_to(root),) if relative.parts[0] not in MACHINE_LOCAL
            for stat in (path.stat(),)}


def _expected_digest(relative: str) -> str | None:
    """The sha256 an artifact's name promises (content-addressed kinds), else None."""
    found = kind_of(relative)
    return found[1].get("digest") if found else None


def _md5(payload: bytes) -> str:
    return hashlib.md5(payload, usedforsecurity=False).hexdigest()


@dataclass
class SyncCounts:
    """What one pull or push moved (and what it found already in place, kept, or repaired)."""

    moved: int = 0
    in_place: int = 0
    #: files the working copy holds that the store holds other bytes of: kept (never overwritten)
    kept: int = 0
    #: corrupt copies replaced by good bytes (the store's by the working copy's, or the other way)
    repaired: int = 0
    #: one line per corrupt store object nobody here holds good bytes of (left for its step to re-make)
    corrupt: list[str] = field(default_factory=list)


def _holds_digest(payload: bytes, relative: str) -> bool:
    digest = _expected_digest(relative)
    return digest is None or hashlib.sha256(payload).hexdigest() == digest


def _single_put_etag(etag: str) -> bool:
    """Whether an ETag is the MD5 of the object (one PUT); a multipart ETag (``…-N``) is not."""
    return bool(re.fullmatch(r"[0-9a-f]{32}", etag))


def pull(store: ObjectStore, root: Path) -> SyncCounts:
    """Bring every object of the store the working copy lacks into ``root``; never overwrite a file
    the working copy holds.

    The pull only adds: a run that finished while the store was away, or another machine's
    different record of the same thing, is never replaced by the store's copy (``push`` sends what
    this machine made). Content-addressed objects are checked against their names both ways: a
    local file whose bytes do not match its ETag is hashed, and either the store's copy is corrupt
    (the good local bytes repair it at once) or the local one is (the store's good bytes replace
    it). A corrupt store object nobody here holds is not pulled: one line says so and the step that
    needs it makes it again (the push then repairs the store). Each file is written atomically."""
    root = Path(root)
    counts = SyncCounts()
    wanted = []
    for relative, etag in sorted(store.listing().items()):
        target = root / relative
        if not target.is_file():
            wanted.append(relative)
            continue
        if _expected_digest(relative) is None:
            payload = target.read_bytes()
            if _md5(payload) == etag:
                counts.in_place += 1
            else:
                counts.kept += 1
            continue
        if not _single_put_etag(etag):
            counts.in_place += 1  # a multipart upload: its ETag is no MD5; the name was checked on the way in
            continue
        payload = target.read_bytes()
        if _md5(payload) == etag:
            counts.in_place += 1
        elif _holds_digest(payload, relative):
            store.put(relative, payload)  # the store's copy is corrupt: these are the right bytes
            log.warning("artifact store %s: object %s was corrupt; repaired it from %s", store.url, relative, target)
            counts.repaired += 1
        else:
            wanted.append(relative)  # the local copy is corrupt: the store's (checked below) replaces it
    if wanted:
        fetched = store._call(f"reading {len(wanted)} objects", store.fs.cat, [store.object_key(r) for r in wanted],
                              on_error="return")
        for relative in wanted:
            payload = fetched.get(store.object_key(relative))
            if isinstance(payload, BaseException):
                if isinstance(payload, FileNotFoundError):  # deleted since the listing: nothing to copy
                    continue
                raise _explain(store.url, payload, f"reading {relative}")
            if not _holds_digest(payload, relative):
                counts.corrupt.append(f"object {relative} in {store.url} does not hash to its name: not pulled; the "
                                      "step that needs it makes it again and the push repairs the store")
                log.warning("artifact store %s", counts.corrupt[-1])
                continue
            repairing = (root / relative).is_file()
            write_atomic(root / relative, payload)
            if repairing:
                counts.repaired += 1
            else:
                counts.moved += 1
    return counts


def push(root: Path, store: ObjectStore, since: dict[str, tuple[int, int]] | None = None) -> SyncCounts:
    """Put every file of ``root`` the store lacks, or that changed since the ``since`` snapshot
    (``local_files`` right after the pull), into the store.

    Content-addressed files first (checked against their names; put when the store lacks them or
    holds a corrupt copy), then everything else: records and pointers name objects that are
    already there. A content-addressed object is never overwritten by other bytes; a board or a run
    is a content-addressed object, so two machines pushing at once both keep theirs."""
    from heron_pipeline.artifacts.ref import ArtifactMismatch

    root = Path(root)
    since = since or {}
    present = store.listing()
    now = local_files(root)
    addressed: dict[str, bytes] = {}
    others: dict[str, bytes] = {}
    counts = SyncCounts()
    for relative, stat in sorted(now.items()):
        digest = _expected_digest(relative)
        if relative in present and since.get(relative) == stat:
            counts.in_place += 1  # unchanged since the pull, which compared it with the store
            continue
        payload = (root / relative).read_bytes()
        if present.get(relative) == _md5(payload):
            counts.in_place += 1
            continue
        if digest is not None:
            if hashlib.sha256(payload).hexdigest() != digest:
                raise ArtifactMismatch(f"{root / relative} does not hash to its name; not pushed to {store.url} "
                                       "(delete it and re-run the step that writes it)")
            if relative in present and not _single_put_etag(present[relative]):
                counts.in_place += 1
                continue
            if relative in present:
                counts.repaired += 1
            addressed[relative] = payload
        else:
            others[relative] = payload
    for batch in (addressed, others):  # the objects, then what points to them
        if batch:
            store._call(f"writing {len(batch)} objects", store.fs.pipe,
                        {store.object_key(relative): payload for relative, payload in batch.items()})
            counts.moved += len(batch)
    return counts


@contextlib.contextmanager
def synchronised(url: ObjectStoreURL | None, root: Path) -> Iterator[None]:
    """Run a command against the working copy ``root`` of the store ``url``: pull before, push after
    (also after a failure: what the command finished is a complete artifact). ``url`` None (a local
    artifact root) does nothing."""
    if url is None:
        yield
        return
    store = ObjectStore(url)
    store.check()
    pulled = pull(store, root)
    snapshot = local_files(root)
    log.info("artifact store %s: %d objects pulled into %s, %d already there", url, pulled.moved, root,
             pulled.in_place)
    if pulled.kept:
        log.info("artifact store %s: kept %d local files the store holds other bytes of (pushed if this command "
                 "rewrites them)", url, pulled.kept)
    try:
        yield
    except BaseException:
        try:
            push(root, store, snapshot)
        except Exception as err:  # noqa: BLE001 - the command's own failure is the line to show
            log.warning("artifact store %s: could not push after the failure: %s", url, err)
        raise
    pushed = push(root, store, snapshot)
    log.info("artifact store %s: %d objects pushed, %d already there", url, pushed.moved, pushed.in_place)

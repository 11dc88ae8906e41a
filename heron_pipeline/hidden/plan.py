"""The maintainer's hidden plan: hidden data seeds, a hidden instance seed, the nightly secret.

The hidden file (``HERON_HIDDEN_SEEDS_FILE`` / ``--hidden-seeds-file``) has always been a list of
hidden data seeds; it may now also be a small TOML document naming the hidden draw::

    seeds = [1234567891, 1987654321]     # hidden data seeds (10^9 .. 2^31-1)
    instance_seed = 8077142201553349371  # the hidden question draw (2^32 .. 2^63-1)
    secret = "…"                          # the nightly draws' key (16+ characters)

A file of bare integers (the old format) still reads: seeds only, no hidden draw. Why the ranges:
a hidden value must not be guessable by enumerating small numbers against a published digest, so
hidden data seeds stay above every public seed and a hidden instance seed needs 32 bits or more.

Nothing here ever prints a seed or the secret: errors name the file and the key, the ``HiddenPlan``'s
``repr`` hides its values, and what leaves the maintainer's machine is the draw's digest (the
instance set's sha256, which commits to the seed without revealing it) until the draw is retired.

A night's draw is derived, not stored: HMAC-SHA256(secret, "heron-night", scale, date) gives the
instance seed and the data seeds, so a nightly run twice on one date draws the same questions and
states, two dates never share a draw, and retiring a night publishes that night's values only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from heron_pipeline.submissions.verify import HIDDEN_SEED_MAX, HIDDEN_SEED_MIN, read_hidden_seeds

#: A hidden instance seed is at least this large (32 bits of choice at the very least).
HIDDEN_INSTANCE_MIN, HIDDEN_INSTANCE_MAX = 2**32, 2**63 - 1
MIN_SECRET_CHARS = 16
#: Hidden data states per night (the multi-state EX of a night is over this many states).
NIGHT_STATES = 2


@dataclass(frozen=True)
class HiddenPlan:
    """One hidden evaluation's values. ``label`` is what messages and records call it ("hidden draw",
    "night 2026-12-05"); the values themselves never reach a message (``repr`` hides them)."""

    seeds: tuple[int, ...]
    instance_seed: int | None = field(default=None)
    secret: str | None = field(default=None)
    label: str = "hidden draw"

    def __repr__(self) -> str:  # a plan printed by accident must not print the draw
        return (f"HiddenPlan({self.label!r}, {len(self.seeds)} hidden state(s), "
                f"draw {'set' if self.instance_seed else 'none'}, secret {'set' if self.secret else 'none'})")

    @property
    def has_draw(self) -> bool:
        return bool(self.instance_seed)


def _in_range(path: Path, key: str, value: object, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"--hidden-seeds-file {path}: {key} must be an integer between {low} and {high} "
                         f"(the value is not shown)")
    return value


def read_hidden_plan(path: Path) -> HiddenPlan:
    """The plan of a hidden file, TOML or bare integers. ValueError naming the file and key, never a value."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"--hidden-seeds-file {path}: cannot read it (not UTF-8 text)") from None
    except OSError as err:
        raise ValueError(f"--hidden-seeds-file {path}: cannot read it ({err.strerror or err})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return HiddenPlan(tuple(read_hidden_seeds(path)))  # the old format: integers only
    unknown = sorted(set(doc) - {"seeds", "instance_seed", "secret"})
    if unknown:
        raise ValueError(f"--hidden-seeds-file {path}: unknown key(s) {', '.join(unknown)}; "
                         f"the keys are seeds, instance_seed, secret")
    seeds = doc.get("seeds", [])
    if not isinstance(seeds, list) or not seeds:
        raise ValueError(f"--hidden-seeds-file {path}: seeds must be a non-empty list of integers")
    seeds = tuple(sorted({_in_range(path, "every seed in seeds", s, HIDDEN_SEED_MIN, HIDDEN_SEED_MAX) for s in seeds}))
    instance = doc.get("instance_seed")
    if instance is not None:
        instance = _in_range(path, "instance_seed", instance, HIDDEN_INSTANCE_MIN, HIDDEN_INSTANCE_MAX)
    secret = doc.get("secret")
    if secret is not None and (not isinstance(secret, str) or len(secret) < MIN_SECRET_CHARS):
        raise ValueError(f"--hidden-seeds-file {path}: secret must be a string of at least {MIN_SECRET_CHARS} "
                         f"characters (e.g. the output of `python -c 'import secrets; print(secrets.token_hex(32))'`)")
    return HiddenPlan(seeds, instance, secret)


def _stream(secret: str, *parts: str) -> bytes:
    return hmac.new(secret.encode("utf-8"), "\0".join(("heron-night", *parts)).encode("utf-8"),
                    hashlib.sha256).digest()


def night_plan(secret: str, scale: str, date: dt.date, states: int = NIGHT_STATES) -> HiddenPlan:
    """The draw of the night ``date`` at ``scale``: instance seed and data seeds from HMAC(secret, …)."""
    if not secret or len(secret) < MIN_SECRET_CHARS:
        raise ValueError(f"the nightly draw needs `secret` (at least {MIN_SECRET_CHARS} characters) in the hidden "
                         f"file (HERON_HIDDEN_SEEDS_FILE)")
    day = date.isoformat()
    span = HIDDEN_INSTANCE_MAX - HIDDEN_INSTANCE_MIN + 1
    instance = HIDDEN_INSTANCE_MIN + int.from_bytes(_stream(secret, scale, day, "instance")[:8], "big") % span
    seeds: list[int] = []
    counter = 0
    while len(seeds) < states:  # distinct seeds; a collision (≈1e-9) takes the next element of the stream
        raw = int.from_bytes(_stream(secret, scale, day, "seed", str(counter))[:8], "big")
        seed = HIDDEN_SEED_MIN + raw % (HIDDEN_SEED_MAX - HIDDEN_SEED_MIN + 1)
        if seed not in seeds:
            seeds.append(seed)
        counter += 1
    return HiddenPlan(tuple(sorted(seeds)), instance, None, label=f"night {day}")

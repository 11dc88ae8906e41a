"""Drawn question sets pass the audit like the public set (issue 28): draws 1–5 at tiny, one at small.

Each draw runs the core's redraw loop (``bench.instances.audited_instances``) over the real gold and
audit steps on three states; a draw passes when the audit passes after at most ``REDRAW_BUDGET``
redraws of the questions that failed, and every redraw is reported.
"""

from __future__ import annotations

import pytest

from heron_pipeline.bench import existing_state
from heron_pipeline.bench.instances import audited_instances, state_audit
from heron_pipeline.questions import QUESTIONS_DIR
from heron_pipeline.questions.instances import REDRAW_BUDGET

SEEDS = (42, 43, 44)


def _states(server, artifacts, scale: str) -> dict:
    from heron_pipeline.seeding.build import build

    states = {}
    for seed in SEEDS:
        if not server.database_exists(f"heron_{scale}_{seed}"):
            build(server, scale, seed)
        states[seed] = existing_state(server, artifacts, scale, seed)
    return states


def _audit(server, artifacts, scale: str, instance_seed: int):
    states = _states(server, artifacts, scale)
    said: list[str] = []

    drawn, audit, _golds = audited_instances(QUESTIONS_DIR, instance_seed, state_audit(server, artifacts, scale, states),
                                             say=said.append)
    return drawn, audit, said


@pytest.mark.parametrize("instance_seed", [1, 2, 3, 4, 5])
def test_draws_pass_the_audit_at_tiny(tiny42, tmp_path_factory, instance_seed: int) -> None:
    artifacts = tmp_path_factory.mktemp("instances")
    drawn, audit, said = _audit(tiny42, artifacts, "tiny", instance_seed)
    assert audit.passed, audit.report
    assert drawn.instance_seed == instance_seed and len(drawn.varying) >= 75
    assert all(0 < n <= REDRAW_BUDGET for n in drawn.attempts.values())
    # every redraw is reported, one line per redraw, and the summary names the counters
    assert sum(drawn.attempts.values()) == sum(" redrawn (#" in line for line in said)
    assert said[-1].startswith(f"instance seed {instance_seed}: {len(drawn.varying)} questions drawn")


@pytest.mark.e2e
def test_a_draw_passes_the_audit_at_small(server, tmp_path_factory) -> None:
    """The evaluation scale judges trap-live too: a draw's trap tags must still bite."""
    artifacts = tmp_path_factory.mktemp("instances-small")
    drawn, audit, _said = _audit(server, artifacts, "small", 1)
    assert audit.passed, audit.report
    assert audit.outcomes["trap-live"]["status"] == "passed"

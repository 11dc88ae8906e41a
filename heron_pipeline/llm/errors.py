"""The classes a tool's answer can fail with, kept apart because they mean different things.

``provider_http`` (the endpoint answered with an HTTP error), ``provider_timeout`` (no answer in
time), ``provider_connection`` (no connection at all) and ``malformed_reply`` (an answer that cannot
be decoded) are the provider's failures: they count towards the outage rule and are re-asked by
``retry_failed``. ``no_sql`` is a decoded reply without SQL — the model's own answer, scored as
wrong. ``budget`` and ``cache_miss`` are heron's own refusals (the run's budget is spent; offline
and not in the cache); they are never cached, because they say nothing about the model.
``tool_failed`` / ``tool_timeout`` are an external command's non-zero exit and timeout (``cli``),
the provider failures of a tool that is not an HTTP endpoint.
"""

from __future__ import annotations

PROVIDER_HTTP = "provider_http"
PROVIDER_TIMEOUT = "provider_timeout"
PROVIDER_CONNECTION = "provider_connection"
MALFORMED_REPLY = "malformed_reply"
NO_SQL = "no_sql"
BUDGET = "budget"
CACHE_MISS = "cache_miss"
TOOL_FAILED = "tool_failed"
TOOL_TIMEOUT = "tool_timeout"

#: Every class a PredictionRecord's ``error_class`` may hold (None = the tool produced SQL).
ERROR_CLASSES = (PROVIDER_HTTP, PROVIDER_TIMEOUT, PROVIDER_CONNECTION, MALFORMED_REPLY, NO_SQL, BUDGET, CACHE_MISS,
                 TOOL_FAILED, TOOL_TIMEOUT, "reference_missing", "adapter_error")

#: Failures at the provider: the outage rule counts these (and cache misses, which leave a question
#: just as unanswered) among a tool's calls.
PROVIDER_FAILURES = frozenset({PROVIDER_HTTP, PROVIDER_TIMEOUT, PROVIDER_CONNECTION, MALFORMED_REPLY, TOOL_FAILED,
                               TOOL_TIMEOUT})

#: Outcomes written to the response cache besides a good reply; ``retry_failed`` re-asks exactly these.
CACHED_FAILURES = frozenset({PROVIDER_HTTP, PROVIDER_TIMEOUT, PROVIDER_CONNECTION, MALFORMED_REPLY})

#: More than this share of a tool's calls failing at the provider marks its predictions incomplete.
OUTAGE_SHARE = 0.20


class LLMSettingsError(ValueError):
    """A ``HERON_LLM_*`` value that cannot be used; the message names the variable and the fix."""

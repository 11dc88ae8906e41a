"""Grade: one 0–100 number per tool that ranks answers, not silence (docs/METHODOLOGY.md §8).

Weights (the product spec's): EX 0.45, efficiency 0.20, token economy 0.15, reliability 0.10,
latency 0.10. Since 2026-12-05 (issue 33) two things hold by construction:

- **A row's Grade depends only on its own measured figures and fixed reference points.** Token
  economy and latency are measured against ``REFERENCE_TOKENS_PER_QUESTION`` and
  ``REFERENCE_LATENCY_S``, never against the board's best row, so adding or removing another row
  never moves a Grade.
- **Every dimension other than EX is earned only by right answers.** Each one has a rate
  s ∈ [0, 100] (how fast, how lean, how reliable the tool is) and contributes s × EX / 100, so

      Grade = Σ wᵢ·dᵢ / Σ wᵢ,  d_EX = EX,  dⱼ = EX · sⱼ / 100   ⇒   Grade = EX · Σ wᵢ·sᵢ / (100 · Σ wᵢ) ≤ EX

  (s_EX = 100). A tool that answers nothing right grades 0; one that answers a share right
  grades at most that share, with equality only when every exposed rate is 100.

A dimension the tool does not expose drops out with its weight. Tokens and latency a tool merely
*claims* (a ``cli`` reply's usage, a submission's records) count as not exposed: only figures heron
measured itself (billed usage metered by heron's LLM client, heron's own clock around a tool call)
enter the Grade, so a claim neither helps nor hurts.
"""

from __future__ import annotations

from dataclasses import dataclass

WEIGHTS = {"ex": 0.45, "efficiency": 0.20, "reliability": 0.10, "tokens": 0.15, "latency": 0.10}

#: Token economy is 100 at or below this many tokens per question: the leanest tool on the product
#: spec's board (2,000 tokens/q; the board runs 2,000–16,343), so on that board the dimension is
#: what the field-relative rule gave, and a full-schema dump (~15,300 tokens/q) earns ~13.
REFERENCE_TOKENS_PER_QUESTION = 2000.0
#: Latency is 100 at or below this mean time to answer: one gpt-4o call on a prompt of
#: ``REFERENCE_TOKENS_PER_QUESTION`` tokens with a short SQL reply (a choice, not measured here).
REFERENCE_LATENCY_S = 2.0

#: How a tool's tokens or latency were obtained (``conditions["telemetry"]`` of a standings row).
MEASURED, CLAIMED = "measured", "claimed"


def telemetry(tokens: str = MEASURED, latency: str = MEASURED) -> dict[str, str]:
    """The ``telemetry`` condition of a tool: for tokens and latency, ``measured`` or ``claimed``."""
    for value in (tokens, latency):
        if value not in (MEASURED, CLAIMED):
            raise ValueError(f"telemetry is {MEASURED!r} or {CLAIMED!r}, not {value!r}")
    return {"tokens": tokens, "latency": latency}


@dataclass(frozen=True)
class ToolDims:
    """Raw figures for one tool.

    ex: EX in percent (multi-state EX when ≥ 2 seeds; the caller chooses) — required.
    ves: VES in percent, averaged over states; ex_timed: EX@1 in percent averaged over the same
    states (VES ÷ ex_timed is the mean reward of a right answer); None: ``ex`` is used.
    errors / n: failed questions out of n.
    tokens_per_question, mean_latency_s: None or ≤ 0 means not exposed; ``tokens_measured`` /
    ``latency_measured`` False means claimed by the tool, which is not exposed either.
    """

    ex: float | None = None
    ves: float | None = None
    errors: int | None = None
    n: int | None = None
    tokens_per_question: float | None = None
    mean_latency_s: float | None = None
    ex_timed: float | None = None
    tokens_measured: bool = True
    latency_measured: bool = True


def _positive(x: float | None) -> float | None:
    return x if x is not None and x > 0 else None


def _clamp(x: float, low: float = 0.0, high: float = 100.0) -> float:
    return max(low, min(high, x))


def dimension_rates(tool: ToolDims) -> dict[str, float]:
    """The rate sⱼ ∈ [0, 100] of each exposed non-EX dimension, before it is earned by EX.

    efficiency: 100 × the mean VES reward of a right answer (VES ÷ EX@1 over the timed states),
    capped at 100; reliability: 100 × (1 − errors ÷ n); tokens: 100 × min(1, R_tokens ÷ tokens per
    question); latency: 100 × min(1, R_seconds ÷ mean latency)."""
    rates: dict[str, float] = {}
    if tool.ves is not None:
        timed_ex = tool.ex if tool.ex_timed is None else tool.ex_timed
        rates["efficiency"] = _clamp(100.0 * tool.ves / timed_ex) if timed_ex and timed_ex > 0 else 0.0
    if tool.errors is not None and tool.n:
        rates["reliability"] = _clamp(100.0 * (1 - tool.errors / tool.n))
    tokens = _positive(tool.tokens_per_question) if tool.tokens_measured else None
    if tokens is not None:
        rates["tokens"] = _clamp(100.0 * REFERENCE_TOKENS_PER_QUESTION / tokens)
    latency = _positive(tool.mean_latency_s) if tool.latency_measured else None
    if latency is not None:
        rates["latency"] = _clamp(100.0 * REFERENCE_LATENCY_S / latency)
    return rates


def dimension_scores(tool: ToolDims) -> dict[str, float]:
    """Each exposed dimension of ``tool`` as it enters the Grade: EX itself, every other dimension
    its rate × EX ÷ 100 (earned only by right answers). ValueError without EX."""
    if tool.ex is None:
        raise ValueError("the Grade needs EX: every other dimension is earned by right answers")
    ex = _clamp(float(tool.ex))
    return {"ex": ex, **{d: ex * s / 100.0 for d, s in dimension_rates(tool).items()}}


def grade(tool_dims: ToolDims) -> float:
    """Σ wᵢ·dimᵢ ÷ Σ wᵢ over the dimensions ``tool_dims`` exposes; ≤ its EX (see module docstring)."""
    ex = dimension_scores(tool_dims)["ex"]  # ValueError without EX
    rates = {"ex": 100.0, **dimension_rates(tool_dims)}
    # Grade = EX × Σ wᵢ·(sᵢ/100) ÷ Σ wᵢ, the same as Σ wᵢ·dimᵢ ÷ Σ wᵢ. The factor is ≤ 1 by
    # construction (exactly 1 when every rate is 100: both sums are taken in the same order) and
    # clamped so float rounding cannot lift a Grade above its EX.
    factor = min(1.0, sum(WEIGHTS[d] * (s / 100.0) for d, s in rates.items()) / sum(WEIGHTS[d] for d in rates))
    return ex * factor

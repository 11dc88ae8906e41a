"""Scoring for heron: the result comparator and the benchmark metrics (no Dagster, no database)."""

from .comparator import compare, count_matching_rows, results_match, values_equal
from .confidence import bootstrap_ci, breakdown
from .efficiency import TimedResult, best_of, r_ves, r_ves_reward, ves, ves_reward
from .exact_match import exact_set_match
from .execution import ex, ex_at_k, multi_state_ex, pass_at_k
from .grade import WEIGHTS, ToolDims, dimension_scores, grade
from .order_spec import OrderSpec, order_spec
from .partial_credit import row_multiset_f1, soft_f1
from .retrieval import set_recall_at_k
from .row_order import canonical_pair, canonical_rows

__all__ = [
    "WEIGHTS",
    "OrderSpec",
    "TimedResult",
    "ToolDims",
    "best_of",
    "bootstrap_ci",
    "breakdown",
    "canonical_pair",
    "canonical_rows",
    "compare",
    "count_matching_rows",
    "dimension_scores",
    "ex",
    "ex_at_k",
    "exact_set_match",
    "grade",
    "multi_state_ex",
    "order_spec",
    "pass_at_k",
    "r_ves",
    "r_ves_reward",
    "results_match",
    "row_multiset_f1",
    "set_recall_at_k",
    "soft_f1",
    "values_equal",
    "ves",
    "ves_reward",
]

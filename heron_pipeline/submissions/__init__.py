"""Submissions: a folder per tool, packaged from a run (``heron submit``), recomputed and judged
(``heron verify``) on the public states, and published only through ``heron leaderboard``. No Dagster."""

from heron_pipeline.submissions.package import PackageError, find_manifest, package
from heron_pipeline.submissions.schema import Problem, Submission, load_submission
from heron_pipeline.submissions.verify import (BoardRules, HarnessUnavailable, Verdict, hidden_figure,
                                               load_expected_fingerprints, read_hidden_seeds, submission_digest,
                                               verify)

__all__ = ["BoardRules", "HarnessUnavailable", "PackageError", "Problem", "Submission", "Verdict", "find_manifest",
           "hidden_figure", "load_expected_fingerprints", "load_submission", "package", "read_hidden_seeds",
           "submission_digest", "verify"]

"""The benchmark questions: loading, SQL facts, gold answers and the audit (no Dagster)."""

from heron_pipeline.config import PROJECT_ROOT
from heron_pipeline.questions.model import (Question, QuestionError, Retrieval, Shape, Trap, load_questions,
                                            questions_digest)

QUESTIONS_DIR = PROJECT_ROOT / "questions"

__all__ = ["QUESTIONS_DIR", "Question", "QuestionError", "Retrieval", "Shape", "Trap", "load_questions",
           "questions_digest"]

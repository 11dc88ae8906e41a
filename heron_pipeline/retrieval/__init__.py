"""Schema retrieval for heron's retrieval-based tools: which tables does a question need?

Dagster-free, catalog-only (no database), deterministic. The pieces, bottom up:

* ``tokens.tokenize(text)`` — identifier-aware tokens (snake_case, ``schema.table`` and camelCase
  split; English function words dropped; light plural stemming). Documents and queries share it.
* ``documents.table_documents(catalog, values)`` — one document per table with the fields
  ``name``, ``columns``, ``comments``, ``enums`` (labels of the enum types its columns use) and
  ``values`` (reference strings its rows hold).
* ``values.reference_values()`` / ``values.ValueLinker`` — the strings every seed holds per table
  (generation profiles + anchor tenants), and exact phrase matching of them in a question.
* ``lexical.TableRetriever(catalog, *, values=None, config=None)`` — BM25 (the ``bm25s`` library)
  per field, weighted sum, value links merged in:
  ``.rank(text, k=None) -> list[str]`` qualified names best first;
  ``.scored(text, k=None) -> list[(str, float)]`` the lexical scores;
  ``.linked(text) -> list[str]`` the value-linked tables.
* ``joins.expand_with_join_paths(ranked, catalog, limit=None, *, seeds=4, max_hops=3) -> list[str]``
  — the ranking with the shortest FK join paths between its top tables inserted;
  ``joins.join_path(catalog, a, b)`` one path.
* ``examples.ExampleRetriever(pairs).rank(text, k=3)`` — the training pairs
  (``questions.train.load_training_pairs()``) most similar to a question, for retrieval-augmented
  prompts.
* ``subset.subset_catalog(catalog, tables) -> Catalog`` — the catalog cut down to some tables, to
  render a prompt of only those (``adapters.prompt.render_schema(subset_catalog(...))``).

Typical use (what the ``bm25`` / ``bm25-fk`` adapters do)::

    retriever = TableRetriever(catalog)
    ranked = retriever.rank(question_text)
    tables = expand_with_join_paths(ranked, catalog, limit=20)
"""

from heron_pipeline.retrieval.documents import FIELDS, TableDocument, table_documents
from heron_pipeline.retrieval.examples import ExampleRetriever
from heron_pipeline.retrieval.joins import JoinGraph, expand_with_join_paths, join_graph, join_path
from heron_pipeline.retrieval.lexical import DEFAULT_WEIGHTS, RetrieverConfig, TableRetriever
from heron_pipeline.retrieval.subset import subset_catalog
from heron_pipeline.retrieval.tokens import s_stem, split_identifier, tokenize
from heron_pipeline.retrieval.values import ValueLinker, reference_values

__all__ = [
    "DEFAULT_WEIGHTS", "ExampleRetriever", "FIELDS", "JoinGraph", "RetrieverConfig", "TableDocument", "TableRetriever", "ValueLinker",
    "expand_with_join_paths", "join_graph", "join_path", "reference_values", "s_stem", "split_identifier",
    "subset_catalog", "table_documents", "tokenize",
]

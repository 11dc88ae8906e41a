"""mac-sql (with its refiner on a real tiny state) and retrieval, step by step against the scripted server."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from heron_pipeline.adapters import PredictionContext
from heron_pipeline.adapters.mac_sql import DECOMPOSER, REFINER, SELECTOR
from heron_pipeline.adapters.prompt import SYSTEM_PROMPT
from heron_pipeline.adapters.retrieval_llm import ranked_tables
from heron_pipeline.catalog import load_catalog
from heron_pipeline.llm import LLMSettings
from heron_pipeline.predictions.make import PredictOptions, predict_tool

from tests.llm.fake_openai import FakeOpenAI, Reply

Q = SimpleNamespace(id="q001", question="How many support tickets did each tenant open?")
CONVENTIONS = "The data ends on the as-of date 2026-06-30 (UTC)."


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


def step_of(body: dict) -> str:
    system = body["messages"][0]["content"]
    for name, prefix in (("select", SELECTOR), ("decompose", DECOMPOSER), ("refine", REFINER),
                         ("generate", SYSTEM_PROMPT)):
        if system.startswith(prefix):
            return name
    raise AssertionError(system[:80])


class Script:
    def __init__(self, **replies):
        self.replies = {k: list(v) if isinstance(v, list) else [v] for k, v in replies.items()}
        self.seen: list[tuple[str, dict]] = []

    def __call__(self, body):
        step = step_of(body)
        self.seen.append((step, body))
        queue = self.replies[step]
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def bodies(self, step):
        return [b for s, b in self.seen if s == step]


def sql_reply(sql: str) -> Reply:
    return Reply(content=f"Step 1: … Step 2: …\n```sql\n{sql}\n```")


def run(fake, tmp_path, tool, context, script):
    fake.responder = script
    llm = LLMSettings(model="m", base_url=fake.url(), timeout_s=5, max_retries=0)
    return predict_tool(tool, [Q], context, PredictOptions(llm=llm, cache_dir=tmp_path))


@pytest.fixture(scope="module")
def state_context(tiny42, catalog):
    return PredictionContext(scale="tiny", catalog=catalog, conventions=CONVENTIONS,
                             primary_dsn=tiny42.benchmark_dsn("tiny", 42))


def test_mac_sql_selector_decomposer_and_refiner_with_the_sandboxs_errors(fake, tmp_path, state_context) -> None:
    script = Script(
        select=Reply(content='{"tables": ["support.cases", "tenancy.tenants"]}'),
        decompose=sql_reply("SELECT no_such_column FROM tenancy.tenants"),
        refine=[sql_reply("SELECT id FROM tenancy.tenants WHERE false"), sql_reply("SELECT id FROM tenancy.tenants")],
    )
    [record] = run(fake, tmp_path, "mac-sql", state_context, script).records
    catalog = state_context.catalog
    select = script.bodies("select")[0]["messages"][0]["content"]
    shortlist = ranked_tables(catalog, Q.question, 30)
    assert all(f"\n{t} " in select for t in shortlist) and sum(f"\n{t} " in select for t in catalog.tables) == 30
    decompose = script.bodies("decompose")[0]["messages"][0]["content"]
    assert "CREATE TABLE support.cases (" in decompose and "CREATE TABLE tenancy.tenants (" in decompose
    assert decompose.count("CREATE TABLE ") == 2 and CONVENTIONS in decompose
    first, second = [b["messages"][1]["content"] for b in script.bodies("refine")]
    assert "no_such_column" in first and "does not exist" in first and "error:" in first
    assert "WHERE false" in second and "returned no rows" in second
    assert record.sql == "SELECT id FROM tenancy.tenants" and record.error_class is None
    assert record.retrieved_tables == ("support.cases", "tenancy.tenants")
    assert record.steps[-1] == "refine: the query runs and returns rows after 2 round(s)"
    assert fake.calls() == 4


def test_mac_sql_refines_at_most_three_rounds(fake, tmp_path, state_context) -> None:
    script = Script(select=Reply(content='{"tables": ["tenancy.tenants"]}'),
                    decompose=sql_reply("SELECT nope FROM tenancy.tenants"),
                    refine=[sql_reply(f"SELECT nope_{i} FROM tenancy.tenants") for i in range(1, 6)])
    [record] = run(fake, tmp_path, "mac-sql", state_context, script).records
    assert len(script.bodies("refine")) == 3 and record.sql == "SELECT nope_3 FROM tenancy.tenants"
    assert "nope_2" in script.bodies("refine")[2]["messages"][1]["content"]


def test_mac_sql_stops_when_the_refiner_keeps_the_query(fake, tmp_path, state_context) -> None:
    script = Script(select=Reply(content='{"tables": ["tenancy.tenants"]}'),
                    decompose=sql_reply("SELECT id FROM tenancy.tenants WHERE false"),
                    refine=sql_reply("SELECT id FROM tenancy.tenants WHERE false"))
    [record] = run(fake, tmp_path, "mac-sql", state_context, script).records
    assert len(script.bodies("refine")) == 1 and record.steps[-1] == "refine: the refiner kept the query as it is"


def test_mac_sql_falls_back_when_the_selector_ignores_the_format(fake, tmp_path, state_context) -> None:
    script = Script(select=Reply(content="You will want the tickets table."),
                    decompose=sql_reply("SELECT id FROM tenancy.tenants"), refine=Reply(content="no sql"))
    [record] = run(fake, tmp_path, "mac-sql", state_context, script).records
    fallback = ranked_tables(state_context.catalog, Q.question, 30)[:10]
    assert record.retrieved_tables == tuple(fallback)
    assert "select: unusable (no JSON object in the reply); fallback: the 10 best retrieved tables" in record.steps
    assert script.bodies("decompose")[0]["messages"][0]["content"].count("CREATE TABLE ") == 10
    assert record.sql == "SELECT id FROM tenancy.tenants" and not script.bodies("refine")


def test_mac_sql_keeps_its_sql_when_the_refiner_answers_without_sql(fake, tmp_path, state_context) -> None:
    script = Script(select=Reply(content='{"tables": ["tenancy.tenants"]}'),
                    decompose=sql_reply("SELECT nope FROM tenancy.tenants"), refine=Reply(content="Hmm."))
    [record] = run(fake, tmp_path, "mac-sql", state_context, script).records
    assert record.sql == "SELECT nope FROM tenancy.tenants" and len(script.bodies("refine")) == 1
    assert record.steps[-1] == "refine: unusable reply; fallback: the SQL it already has"


def test_mac_sql_decomposer_failure_is_the_questions_error(fake, tmp_path, state_context) -> None:
    script = Script(select=Reply(content='{"tables": ["tenancy.tenants"]}'), decompose=Reply(status=502),
                    refine=Reply())
    [record] = run(fake, tmp_path, "mac-sql", state_context, script).records
    assert record.error_class == "provider_http" and record.error.startswith("decompose: HTTP 502")


def test_retrieval_prompts_with_the_ranked_subset(fake, tmp_path, catalog) -> None:
    context = PredictionContext(scale="tiny", catalog=catalog, conventions=CONVENTIONS)
    script = Script(generate=sql_reply("SELECT count(*) FROM support.cases"))
    result = run(fake, tmp_path, "retrieval", context, script)
    [record] = result.records
    expected = ranked_tables(catalog, Q.question, 10)
    assert record.retrieved_tables == tuple(expected) and "support.cases" in expected
    system = script.bodies("generate")[0]["messages"][0]["content"]
    assert system.count("CREATE TABLE ") == 10 and all(f"CREATE TABLE {t} (" in system for t in expected)
    assert CONVENTIONS in system and "Only the tables most relevant" in system
    assert record.sql == "SELECT count(*) FROM support.cases" and result.conditions["tables"] == 10


def test_retrieval_failure_keeps_its_ranking(fake, tmp_path, catalog) -> None:
    context = PredictionContext(scale="tiny", catalog=catalog, conventions=CONVENTIONS)
    [record] = run(fake, tmp_path, "retrieval", context, Script(generate=Reply(status=500))).records
    assert record.error_class == "provider_http" and len(record.retrieved_tables) == 10


EXAMPLES = [SimpleNamespace(question="How many support cases are open per queue?",
                            sql="SELECT q.name, count(*) FROM support.cases c JOIN support.queues q ON q.id = c.queue_id "
                                "GROUP BY q.name"),
            SimpleNamespace(question="How many products are active?",
                            sql="SELECT count(*) FROM catalog.products WHERE status = 'active'"),
            SimpleNamespace(question="Which warehouses hold stock?", sql="SELECT id FROM inventory.warehouses")]


def test_rag_prompt_holds_similar_ddl_documentation_and_examples(fake, tmp_path, catalog) -> None:
    from heron_pipeline.adapters.rag import RagAdapter
    from heron_pipeline.llm import LLMClient

    context = PredictionContext(scale="tiny", catalog=catalog, conventions=CONVENTIONS)
    fake.responder = lambda body: sql_reply("SELECT count(*) FROM support.cases")
    llm = LLMClient(LLMSettings(model="m", base_url=fake.url(), timeout_s=5, max_retries=0), cache_dir=tmp_path)
    adapter = RagAdapter(llm, examples=EXAMPLES, shots=2)
    [record] = adapter.predict(Q, context)
    [(_path, body)] = fake.requests
    messages = body["messages"]
    system = messages[0]["content"]
    assert "===Tables" in system and "===Additional context" in system and CONVENTIONS in system
    assert "CREATE TABLE support.cases (" in system and system.count("CREATE TABLE ") == 8
    assert record.retrieved_tables[0] in system and len(record.retrieved_tables) == 8
    # the two most similar examples as user/assistant turns, the closest right before the question
    assert [m["role"] for m in messages[1:]] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[3]["content"] == EXAMPLES[0].question and EXAMPLES[0].sql in messages[4]["content"]
    assert messages[-1]["content"] == Q.question
    assert record.sql == "SELECT count(*) FROM support.cases"
    assert record.steps[0] == "retrieve: 8 DDL, 5 documentation, 2 examples"

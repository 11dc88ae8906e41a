"""The rarely exercised shapes questions guard against exist in a built database (generator 2.1).

Each query below is the shape a question's near-miss mutant needs to be told apart from the gold
SQL (see the question notes): without it the guard in the question is never tested by the data.
One tiny/42 build serves them all; the pure plan rule behind most of them is tested first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from heron_pipeline.catalog import load_catalog
from heron_pipeline.database.server import Server
from heron_pipeline.questions import QUESTIONS_DIR, load_questions
from heron_pipeline.seeding.build import build
from heron_pipeline.seeding.row_plan import children_per_parent
from heron_pipeline.seeding.profiles import ProfileError, load_profiles


def test_empty_and_extra_shares_reshape_the_counts_and_nothing_else() -> None:
    plain = children_per_parent(7, "t", 3.0, 5000, None, 0)
    assert plain.min() >= 1, "a mean of at least 1 gives every parent a row"
    emptied = children_per_parent(7, "t", 3.0, 5000, None, 0, (0.1, 0.0))
    zero = emptied == 0
    assert 0.08 < zero.mean() < 0.12
    assert np.array_equal(emptied[~zero], plain[~zero]), "the other parents keep their counts"
    rare = children_per_parent(7, "t", 0.5, 5000, None, 0)
    assert rare.max() == 1, "a mean below 1 gives none or one"
    extra = children_per_parent(7, "t", 0.5, 5000, None, 0, (0.0, 0.2))
    assert np.array_equal(extra > 0, rare > 0) and 0.15 < (extra == 2).sum() / (rare == 1).sum() < 0.25
    assert children_per_parent(7, "t", 0.5, 5000, 1, 0, (0.0, 0.9)).max() == 1, "the cap still wins"


def test_late_events_fold_back_before_the_as_of_time_and_keep_their_check() -> None:
    from types import SimpleNamespace

    from heron_pipeline.seeding.timeline import AS_OF_US, US_PER_DAY
    from heron_pipeline.seeding.values import _fit_before_as_of

    block = SimpleNamespace(ids=np.arange(1, 5), table=SimpleNamespace(qualified="t.t"), plan=SimpleNamespace(seed=1))
    day_end = (AS_OF_US // US_PER_DAY + 1) * US_PER_DAY - 1  # a creation time can sit in the last second
    anchor = np.array([AS_OF_US - 10 * US_PER_DAY, AS_OF_US - 5, day_end, AS_OF_US - 3 * US_PER_DAY])
    values = np.array([AS_OF_US + US_PER_DAY, AS_OF_US + 7, day_end + 1, AS_OF_US - US_PER_DAY])
    fitted = _fit_before_as_of(block, "c", values, anchor)
    assert (fitted >= anchor).all() and (fitted[:2] <= AS_OF_US).all() and fitted[2] == day_end
    assert fitted[3] == values[3], "events before the as-of time keep their place"
    strict = _fit_before_as_of(block, "c", values, anchor, gap=1)
    assert (strict[:2] > anchor[:2]).all()


def test_profiles_reject_a_share_outside_0_1(tmp_path) -> None:
    (tmp_path / "x.yaml").write_text(yaml.safe_dump({"auth.mfa_factors": {"parent": "user_id", "per_parent": 0.5,
                                                                          "extra_share": 1.5}}))
    with pytest.raises(ProfileError, match="extra_share"):
        load_profiles(load_catalog(), tmp_path)


def test_a_quiet_spell_moves_the_tenants_rows_to_other_days_in_creation_order() -> None:
    from heron_pipeline.seeding.timeline import US_PER_DAY, WINDOW_START_DAY, creation_times

    ordinals = np.arange(4000)
    plain = creation_times(ordinals, 4000, 10, 99)
    quiet = creation_times(ordinals, 4000, 10, 99, (900, 931))
    days = quiet // US_PER_DAY - WINDOW_START_DAY
    assert ((plain // US_PER_DAY - WINDOW_START_DAY >= 900) & (plain // US_PER_DAY - WINDOW_START_DAY < 931)).sum() > 50
    assert not ((days >= 900) & (days < 931)).any(), "no row is created in the spell"
    assert (np.diff(days) >= 0).all(), "ids still grow with time"
    assert len(quiet) == len(plain) and ((days >= 870) & (days < 900)).sum() > 50, "the days around stay busy"


@pytest.mark.parametrize("entry, message", [
    ({"parent": "user_id", "per_parent": 0.5, "quiet": [{"tenant": 1, "from": "2025-08-01", "to": "2025-09-01"}]},
     "quiet"),
    ({"rows": 100, "quiet": [{"tenant": 1, "from": "2025-08-01"}]}, "quiet"),
    ({"parent": "user_id", "per_parent": 0.5, "opens_with": {"column": "factor_type", "value": "no-such-label"}},
     "opens_with"),
])
def test_profiles_reject_a_quiet_spell_or_an_opening_they_cannot_apply(tmp_path, entry, message) -> None:
    (tmp_path / "x.yaml").write_text(yaml.safe_dump({"auth.mfa_factors": entry}))
    with pytest.raises(ProfileError, match=message):
        load_profiles(load_catalog(), tmp_path)


@pytest.fixture(scope="module")
def tiny42(server: Server) -> str:
    if not server.database_exists("heron_tiny_42"):
        build(server, "tiny", 42)
    return "heron_tiny_42"


def _one(server: Server, db: str, sql: str) -> int:
    with server.connect(db) as conn:
        return int(conn.execute(sql).fetchone()[0])


def test_no_public_tiny_state_has_a_test_tenant_as_the_data_notes_say(server: Server, tiny42: str) -> None:
    """Issue 30: the schema describes is_test tenants ("exclude from business reporting") but no public
    state has one; docs/DATA.md and docs/CONVENTIONS.md say so (they used to say nothing), and the data
    agrees: no test tenant, while test orders (which the gold drops) exist."""
    root = Path(__file__).resolve().parents[2]
    data = " ".join((root / "docs" / "DATA.md").read_text().split())
    assert "No public state has a test tenant" in data and "`tenancy.tenants.is_test` is false" in data
    conventions = " ".join((root / "docs" / "CONVENTIONS.md").read_text().split())
    assert "No gold filters `tenancy.tenants.is_test`" in conventions
    assert _one(server, tiny42, "SELECT count(*) FROM tenancy.tenants WHERE is_test") == 0
    assert _one(server, tiny42, "SELECT count(*) FROM tenancy.tenants") == 8
    assert _one(server, tiny42, "SELECT count(*) FROM orders.orders WHERE is_test") > 0
    from heron_pipeline.seeding.generate import Generator

    for seed in (42, 43, 44):  # the small states from the generator alone (no build): none either
        generator = Generator.for_state("small", seed)
        flags = [int(generator.block_frame("tenancy.tenants", b)["is_test"].sum())
                 for b in generator.blocks("tenancy.tenants")]
        assert sum(flags) == 0, seed
    golds = " ".join(q.gold_sql for q in load_questions(QUESTIONS_DIR))
    assert "t.is_test" not in golds and "tenants.is_test" not in golds


SHAPES = {
    "an SSO session that recorded no SSO connection (q016's LEFT join, generator 2.3)":
        "SELECT count(*) FROM auth.sessions WHERE auth_method = 'sso' AND sso_connection_id IS NULL",
    "a user with two factors of one type (q012)":
        "SELECT count(*) FROM (SELECT 1 FROM auth.mfa_factors GROUP BY tenant_id, user_id, factor_type "
        "HAVING count(*) > 1) d",
    "a ticket escalated twice (q090)":
        "SELECT count(*) FROM (SELECT 1 FROM support.escalations GROUP BY tenant_id, case_id HAVING count(*) > 1) d",
    "an account never scored (q023)":
        "SELECT count(*) FROM crm.accounts a WHERE NOT EXISTS (SELECT 1 FROM crm.account_health_scores h "
        "WHERE h.tenant_id = a.tenant_id AND h.account_id = a.id)",
    "a promotion without products (q043)":
        "SELECT count(*) FROM pricing.promotions p WHERE NOT EXISTS (SELECT 1 FROM pricing.promotion_products x "
        "WHERE x.tenant_id = p.tenant_id AND x.promotion_id = p.id)",
    "a non-cancelled goods receipt without lines (q048)":
        "SELECT count(*) FROM inventory.goods_receipts g WHERE g.status <> 'cancelled' AND NOT EXISTS "
        "(SELECT 1 FROM inventory.goods_receipt_lines l WHERE l.tenant_id = g.tenant_id AND l.goods_receipt_id = g.id)",
    "a deleted sales channel of Halyard (q092)":
        "SELECT count(*) FROM orders.sales_channels WHERE tenant_id = 1 AND deleted_at IS NOT NULL AND NOT is_active",
    "a deleted active promotion of Halyard (q043)":
        "SELECT count(*) FROM pricing.promotions WHERE tenant_id = 1 AND status = 'active' AND deleted_at IS NOT NULL",
    "an open ticket without assignee (q082)":
        "SELECT count(*) FROM support.cases WHERE status = 'open' AND assignee_user_id IS NULL",
    "a closed ticket without assignee (q082)":
        "SELECT count(*) FROM support.cases WHERE status = 'closed' AND assignee_user_id IS NULL",
    "a granted consent later revoked (q081)":
        "SELECT count(*) FROM marketing.consents WHERE is_granted AND revoked_at IS NOT NULL",
    "a Halyard broadcast still sending, sent in 2026 (q018)":
        "SELECT count(*) FROM comms.broadcasts WHERE tenant_id = 1 AND status = 'sending' "
        "AND sent_at >= '2026-01-01' AND sent_at < '2026-07-01'",
    "the first accounts of Halyard and Tamarack soft-deleted (q063, q090, generator 2.2)":
        "SELECT count(*) - 1 FROM crm.accounts a WHERE a.tenant_id IN (1, 4) AND a.deleted_at IS NOT NULL "
        "AND a.id = (SELECT min(id) FROM crm.accounts x WHERE x.tenant_id = a.tenant_id)",
    "Halyard's soft-deleted second user closed chats (q010, generator 2.2)":
        "SELECT count(*) FROM comms.conversations c JOIN auth.users u ON u.tenant_id = c.tenant_id "
        "AND u.id = c.assigned_user_id WHERE u.tenant_id = 1 AND u.deleted_at IS NOT NULL AND c.status = 'closed' "
        "AND u.id = (SELECT min(id) + 1 FROM auth.users x WHERE x.tenant_id = 1)",
    "a deleted public help article that would be third in q079's top 5 (q079 soft-delete, generator 2.3)":
        "SELECT count(*) FROM (SELECT deleted_at, row_number() OVER (ORDER BY view_count DESC, id) AS r "
        "FROM support.kb_articles WHERE status = 'published' AND NOT is_internal) t WHERE r = 3 "
        "AND deleted_at IS NOT NULL",
    "pending refunds requested at one instant, in one tenant and across tenants (q055, generator 2.2)":
        "SELECT count(*) FROM (SELECT requested_at FROM billing.refunds WHERE status = 'pending' "
        "AND requested_at < '2026-06-01' GROUP BY 1 HAVING count(*) > count(DISTINCT tenant_id) "
        "AND count(DISTINCT tenant_id) > 1) d",
    "Halyard's active subscriptions cancelling at one cycle end (q058, generator 2.2)":
        "SELECT count(*) FROM (SELECT current_period_end FROM subscriptions.subscriptions WHERE tenant_id = 1 "
        "AND status = 'active' AND is_cancel_at_period_end AND deleted_at IS NULL GROUP BY 1 HAVING count(*) > 1) d",
}




def _tied_groups(grouped: str, key: str, pair: tuple[str, str], count: str = "n") -> str:
    """Whether the rows ``pair`` of ``grouped`` exist and are equal on ``count`` (a question's first
    ORDER BY key): a flipped tie-breaker returns them the other way round. The pair is the one the
    shape ties, so a tie that happens by chance elsewhere (tiny states have small counts) does not
    pass for the shape."""
    return (f"SELECT count(*) FROM ({grouped}) a JOIN ({grouped}) b ON a.{count} = b.{count} "
            f"AND a.{key}::text = '{pair[0]}' AND b.{key}::text = '{pair[1]}'")


#: Generator 2.3: a tie on the first ORDER BY key among the rows each question returns (the gold's
#: own filter and LIMIT), so the flip of its tie-breaker changes the answer.
TIES = {
    "two providers with as many undelivered June messages (q005)": _tied_groups(
        "SELECT provider AS k, count(*) AS n FROM comms.messages WHERE status IN ('bounced', 'failed') "
        "AND queued_at >= DATE '2026-06-01' AND queued_at < DATE '2026-07-01' GROUP BY provider", "k", ("ses", "sendgrid")),
    "two reasons with as many 2025 opt-outs (q006)": _tied_groups(
        "SELECT reason::text AS k, count(*) AS n FROM comms.unsubscribes WHERE unsubscribed_at >= DATE '2025-01-01' "
        "AND unsubscribed_at < DATE '2026-01-01' AND reason IS NOT NULL GROUP BY reason", "k", ("too_frequent", "not_relevant")),
    "two channels with as many consents in force (q081)": _tied_groups(
        "SELECT channel::text AS k, count(*) AS n FROM marketing.consents WHERE is_granted AND revoked_at IS NULL "
        "GROUP BY channel", "k", ("push", "whatsapp")),
    "two device kinds with as many non-bot June visits (q083)": _tied_groups(
        "SELECT d.kind::text AS k, count(*) AS n FROM analytics.web_sessions s JOIN analytics.devices d "
        "ON d.tenant_id = s.tenant_id AND d.id = s.device_id WHERE s.started_at >= DATE '2026-06-01' "
        "AND s.started_at < DATE '2026-07-01' AND d.kind <> 'bot' GROUP BY d.kind", "k", ("desktop", "mobile")),
    "two job types with as many failed runs of live jobs (q087)": _tied_groups(
        "SELECT j.job_type AS k, count(*) AS n FROM ops.job_runs r JOIN ops.background_jobs j "
        "ON j.tenant_id = r.tenant_id AND j.id = r.background_job_id WHERE j.deleted_at IS NULL "
        "AND r.status IN ('failed', 'timed_out') GROUP BY j.job_type", "k", ("invoice_run", "report_delivery")),
    "two sales-channel kinds with as many Halyard 2025 tickets (q092)": _tied_groups(
        "SELECT sc.kind::text AS k, count(*) AS n FROM support.cases c JOIN orders.orders o "
        "ON o.tenant_id = c.tenant_id AND o.id = c.order_id JOIN orders.sales_channels sc "
        "ON sc.tenant_id = o.tenant_id AND sc.id = o.sales_channel_id WHERE c.tenant_id = 1 "
        "AND c.deleted_at IS NULL AND o.deleted_at IS NULL AND sc.deleted_at IS NULL "
        "AND c.opened_at >= DATE '2025-01-01' AND c.opened_at < DATE '2026-01-01' GROUP BY sc.kind", "k", ("web_store", "sales_rep")),
    "the first help articles of Halyard and Kestrel, tied at the top of the top 5 (q079)":
        "SELECT count(*) FROM (SELECT tenant_id, view_count, row_number() OVER (ORDER BY view_count DESC, id) AS r "
        "FROM support.kb_articles WHERE deleted_at IS NULL AND status = 'published' AND NOT is_internal) t "
        "WHERE r <= 2 GROUP BY () HAVING min(view_count) = max(view_count) AND min(tenant_id) = 1 AND max(tenant_id) = 2",
}


@pytest.mark.parametrize("tie", TIES)
def test_tie_breaker_has_a_tie_to_break(server: Server, tiny42: str, tie: str) -> None:
    assert _one(server, tiny42, TIES[tie]) > 0, tie


def test_a_tie_balances_the_filtered_rows_and_touches_nothing_else() -> None:
    import polars as pl

    from heron_pipeline.seeding.ties import balanced, filter_mask

    status = pl.Series(["x", "x", "x", "x", "x", "x", "y", "x", "x", "x"])
    provider = pl.Series("provider", ["a", "a", "a", "a", "b", "c", "a", "a", None, "b"])
    kept = filter_mask({"status": status}, {"status": ["x"]})
    assert kept.tolist() == [True] * 6 + [False] + [True] * 3
    out = balanced(provider, kept, ("a", "b"), "c")
    # kept: a ×5 (rows 0-3, 7), b ×2 -> gap 3: the last a (row 7) and the one before (row 3) move,
    # the first of them (row 3) to the spill, row 7 to b.
    assert out.to_list() == ["a", "a", "a", "c", "b", "c", "a", "b", None, "b"]
    counts = out.filter(pl.Series(kept)).value_counts()
    assert dict(zip(counts["provider"], counts["count"]))["a"] == dict(zip(counts["provider"], counts["count"]))["b"]
    even = balanced(provider, kept, ("b", "a"), "c")  # either order of the pair gives the same tie
    assert (even.filter(pl.Series(kept)) == "a").sum() == (even.filter(pl.Series(kept)) == "b").sum() == 3
    assert balanced(out, kept, ("a", "b"), "c").to_list() == out.to_list(), "a tied block is left as it is"


def test_a_parent_side_tie_repoints_rows_to_parents_alive_in_their_tenant() -> None:
    from heron_pipeline.seeding.ties import balanced_parents

    # parents 0-3 belong to one tenant, 4-5 to another; parent 2 fails the parent filter
    category = np.array(["a", "b", "b", "c", "a", "b"], dtype=object)
    eligible = np.array([True, True, False, True, True, True])
    parent_of = np.array([0, 0, 0, 0, 2, 4, 4, 4])
    kept = np.array([True, True, True, True, True, True, True, False])
    first = np.array([0, 0, 0, 0, 0, 4, 4, 4])
    end = np.array([4, 4, 4, 1, 4, 6, 5, 6])  # row 3 came when only parent 0 existed; row 6 before parent 5
    pick = np.full(8, 0.5)
    out = balanced_parents(parent_of, kept, category, eligible, first, end, pick, ("a", "b"), "c")
    # counted a: rows 0-3 and 5-6 (six); b: none (row 4's parent fails the filter) -> gap 6, three
    # rows move to b, last first: row 6 has no b alive (skipped), then rows 5, 3 (no b alive at
    # its time: skipped), 2, 1.
    assert out.tolist() == [0, 1, 1, 0, 2, 5, 4, 4]
    counted = kept & eligible[out]
    assert (counted & (category[out] == "a")).sum() == (counted & (category[out] == "b")).sum() == 3
    assert all(first[r] <= out[r] < end[r] for r in range(8) if out[r] != parent_of[r]), "moves stay alive"


def test_a_time_window_and_null_and_boolean_conditions_filter_like_sql() -> None:
    import datetime as dt

    import polars as pl

    from heron_pipeline.seeding.ties import filter_mask

    utc = dt.timezone.utc
    at = pl.Series([dt.datetime(2026, 5, 31, 23, 59, tzinfo=utc), dt.datetime(2026, 6, 1, tzinfo=utc),
                    dt.datetime(2026, 6, 30, 23, 59, tzinfo=utc), dt.datetime(2026, 7, 1, tzinfo=utc), None])
    window = filter_mask({"t": at}, {"t": {"from": dt.date(2026, 6, 1), "to": dt.date(2026, 7, 1)}})
    assert window.tolist() == [False, True, True, False, False]
    flags, revoked = pl.Series([True, True, False, None]), pl.Series([None, 5, None, None])
    assert filter_mask({"g": flags, "r": revoked}, {"g": True, "r": None}).tolist() == [True, False, False, False]


@pytest.mark.parametrize("tie, message", [
    ({"column": "channel", "between": ["push", "pager"], "spill": "in_app", "where": {"is_granted": True}},
     "not all labels"),
    ({"column": "channel", "between": ["push", "sms"], "spill": "sms", "where": {"is_granted": True}}, "third"),
    ({"column": "channel", "between": ["push", "sms"], "spill": "in_app", "where": {"channel": ["sms"]}},
     "other columns"),
    ({"column": "is_granted", "between": ["push", "sms"], "spill": "in_app", "where": {"channel": ["sms"]}},
     "derived from"),
    ({"column": "contact_id", "of": "no_such_column", "between": ["a", "b"], "spill": "c",
      "where": {"is_granted": True}}, "re-points a foreign key"),
    ({"column": "contact_id", "of": "status", "between": ["active", "not-a-status"], "spill": "inactive",
      "where": {"is_granted": True}}, "not all"),
    ({"column": "channel", "between": ["push", "sms"], "spill": "in_app", "where": {"is_granted": True},
      "parent_where": {"deleted_at": None}}, "need `of`"),
])
def test_profiles_reject_a_tie_they_cannot_apply(tmp_path, tie, message) -> None:
    entry = {"rows": 100, "tie": tie, "columns": {"revoked_at": {"null_unless": {"is_granted": {True: 0.1}}},
                                                  "is_granted": {"weights": {"push": 1, "sms": 1, "in_app": 1}}}}
    (tmp_path / "x.yaml").write_text(yaml.safe_dump({"marketing.consents": entry}))
    with pytest.raises(ProfileError, match=message):
        load_profiles(load_catalog(), tmp_path)


@pytest.mark.parametrize("shape", SHAPES)
def test_shape_exists(server: Server, tiny42: str, shape: str) -> None:
    assert _one(server, tiny42, SHAPES[shape]) > 0, shape


BROKEN = {
    "new ticket with an assignee": "SELECT count(*) FROM support.cases WHERE status = 'new' AND assignee_user_id IS NOT NULL",
    "opt-out with revoked_at": "SELECT count(*) FROM marketing.consents WHERE NOT is_granted AND revoked_at IS NOT NULL",
    "accepted invitation without accepted_at":
        "SELECT count(*) FROM auth.invitations WHERE status = 'accepted' AND accepted_at IS NULL",
    "won or lost deal without closed_at":
        "SELECT count(*) FROM crm.opportunities WHERE status IN ('won', 'lost') AND closed_at IS NULL",
    "rewarded referral without rewarded_at":
        "SELECT count(*) FROM marketing.referrals WHERE status = 'rewarded' AND rewarded_at IS NULL",
    "a past event after the as-of date":
        "SELECT (SELECT count(*) FROM support.cases WHERE closed_at >= '2026-07-01' OR solved_at >= '2026-07-01')"
        " + (SELECT count(*) FROM comms.messages WHERE sent_at >= '2026-07-01')",
    "a subscription with no or several started events (q069, generator 2.2)":
        "SELECT count(*) FROM subscriptions.subscriptions s WHERE (SELECT count(*) FROM "
        "subscriptions.subscription_events e WHERE e.tenant_id = s.tenant_id AND e.subscription_id = s.id "
        "AND e.event_type = 'started') <> 1",
    "an event of a subscription before its started event (q069, generator 2.2)":
        "SELECT count(*) FROM subscriptions.subscription_events e JOIN subscriptions.subscription_events f "
        "ON f.tenant_id = e.tenant_id AND f.subscription_id = e.subscription_id AND f.event_type = 'started' "
        "WHERE e.event_type <> 'started' AND e.occurred_at <= f.occurred_at",
    "a Halyard account won in August 2025 (q019's empty month, generator 2.2)":
        "SELECT count(*) FROM crm.accounts WHERE tenant_id = 1 AND became_customer_at >= '2025-08-01' "
        "AND became_customer_at < '2025-09-01'",
    "a Halyard form submission in August 2025 (q098's empty month, generator 2.2)":
        "SELECT count(*) FROM marketing.form_submissions WHERE tenant_id = 1 AND submitted_at >= '2025-08-01' "
        "AND submitted_at < '2025-09-01'",
    "a Kestrel order placed in August 2025 (q047's empty month, generator 2.2)":
        "SELECT count(*) FROM orders.orders WHERE tenant_id = 2 AND placed_at >= '2025-08-01' "
        "AND placed_at < '2025-09-01'",
    "a session that is not SSO with an SSO connection (null_unless still wins over q016's null share)":
        "SELECT count(*) FROM auth.sessions WHERE auth_method <> 'sso' AND sso_connection_id IS NOT NULL",
    "an SLA due date more than 10 days after opening":
        "SELECT count(*) FROM support.cases WHERE resolution_due_at > opened_at + interval '10 days' "
        "OR first_response_due_at > opened_at + interval '2 days'",
}


@pytest.mark.parametrize("defect", BROKEN)
def test_defect_is_gone(server: Server, tiny42: str, defect: str) -> None:
    assert _one(server, tiny42, BROKEN[defect]) == 0, defect


def test_only_planned_dates_and_the_listed_late_events_pass_the_as_of_time(server: Server, tiny42: str) -> None:
    """The contract the mutant rule window-end rests on (`values.may_pass_as_of`), on a real state:
    every other date or timestamp column of every table ends at or before the as-of time."""
    from heron_pipeline.seeding.values import may_pass_as_of

    with server.connect(tiny42) as conn:
        columns = conn.execute(
            "SELECT table_schema, table_name, column_name FROM information_schema.columns "
            "WHERE table_schema NOT IN ('pg_catalog', 'information_schema', 'public') "
            "AND data_type IN ('date', 'timestamp with time zone', 'timestamp without time zone')").fetchall()
        late = [f"{s}.{t}.{c}" for s, t, c in columns if not may_pass_as_of(c) and conn.execute(
            f'SELECT EXISTS (SELECT 1 FROM "{s}"."{t}" WHERE "{c}" >= DATE \'2026-07-01\')').fetchone()[0]]
    assert len(columns) > 300 and late == []

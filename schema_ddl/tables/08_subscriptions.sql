-- heron phase 1, domain 08 subscriptions: the recurring offerings a tenant sells to its own
-- business customers (plans, prices, add-ons, usage meters) and the lifecycle of each customer
-- subscription: trials, pauses, usage, billing periods, renewals, churn and MRR movements.
-- Not to be confused with tenancy.plans / tenancy.tenant_subscriptions (what the platform sells to tenants).

CREATE TYPE subscriptions.meter_aggregation AS ENUM ('sum', 'max', 'last');
COMMENT ON TYPE subscriptions.meter_aggregation IS 'How the usage records of a billing period are combined into one billable quantity.';
CREATE TYPE subscriptions.subscription_status AS ENUM ('trialing', 'active', 'past_due', 'paused', 'cancelled', 'expired');
COMMENT ON TYPE subscriptions.subscription_status IS 'Lifecycle state of a customer subscription.';
CREATE TYPE subscriptions.item_kind AS ENUM ('plan', 'addon');
COMMENT ON TYPE subscriptions.item_kind IS 'Whether a subscription item is the base plan or an add-on.';
CREATE TYPE subscriptions.subscription_event_type AS ENUM ('started', 'upgraded', 'downgraded', 'quantity_changed', 'paused', 'resumed', 'cancelled', 'reactivated');
COMMENT ON TYPE subscriptions.subscription_event_type IS 'Kind of lifecycle event recorded on a subscription.';
CREATE TYPE subscriptions.trial_outcome AS ENUM ('in_progress', 'converted', 'cancelled', 'expired');
COMMENT ON TYPE subscriptions.trial_outcome IS 'How a trial period ended (or that it is still running).';
CREATE TYPE subscriptions.pause_collection AS ENUM ('skip_billing', 'keep_as_draft', 'mark_uncollectible');
COMMENT ON TYPE subscriptions.pause_collection IS 'What happens to charges that fall due while a subscription is paused.';
CREATE TYPE subscriptions.churn_category AS ENUM ('price', 'product_fit', 'competitor', 'business_closed', 'support_experience', 'other');
COMMENT ON TYPE subscriptions.churn_category IS 'Broad grouping of cancellation (churn) reasons for reporting.';
CREATE TYPE subscriptions.billing_period_status AS ENUM ('upcoming', 'open', 'invoiced', 'paid', 'void');
COMMENT ON TYPE subscriptions.billing_period_status IS 'State of one billing period of a subscription.';
CREATE TYPE subscriptions.entitlement_source AS ENUM ('plan', 'addon', 'manual');
COMMENT ON TYPE subscriptions.entitlement_source IS 'What grants an entitlement: the plan, an add-on, or a manual grant by staff.';
CREATE TYPE subscriptions.renewal_outcome AS ENUM ('renewed', 'churned', 'downgraded', 'upgraded');
COMMENT ON TYPE subscriptions.renewal_outcome IS 'Result of a renewal decision at the end of a subscription term.';

-- catalogue of recurring offerings ---------------------------------------------------------------

CREATE TABLE subscriptions.plans (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    description text,
    workspace_id bigint NOT NULL,
    product_id bigint,
    tax_category_id bigint NOT NULL,
    created_by_user_id bigint NOT NULL,
    trial_days smallint NOT NULL DEFAULT 0,
    is_active boolean NOT NULL DEFAULT true,
    is_public boolean NOT NULL DEFAULT true,
    sort_order smallint NOT NULL DEFAULT 0,
    metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE subscriptions.plans IS 'The tenant''s own recurring offerings (subscription plans, service tiers, memberships, maintenance contracts) sold to its business customers. NOT the platform''s plans: those are tenancy.plans, what tenants pay the platform. Prices per currency and interval are in subscriptions.plan_prices. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN subscriptions.plans.code IS 'Short plan code, unique within the tenant, e.g. support_gold, saas_pro, coffee_monthly.';
COMMENT ON COLUMN subscriptions.plans.name IS 'Plan name shown to customers, e.g. "Gold support".';
COMMENT ON COLUMN subscriptions.plans.description IS 'Marketing description of the plan; NULL if none.';
COMMENT ON COLUMN subscriptions.plans.workspace_id IS 'Brand or business unit (tenancy.workspaces) that sells the plan.';
COMMENT ON COLUMN subscriptions.plans.product_id IS 'Catalogue product the plan delivers or is sold as; NULL for pure service plans not tied to a catalogue product.';
COMMENT ON COLUMN subscriptions.plans.tax_category_id IS 'Tax class applied to charges of this plan.';
COMMENT ON COLUMN subscriptions.plans.created_by_user_id IS 'Staff user who created the plan.';
COMMENT ON COLUMN subscriptions.plans.trial_days IS 'Length of the free trial new subscribers get, in days; 0 = no trial.';
COMMENT ON COLUMN subscriptions.plans.is_active IS 'False when the plan can no longer be sold to new subscribers (existing ones keep it).';
COMMENT ON COLUMN subscriptions.plans.is_public IS 'True when listed on the storefront; false for plans offered only by sales reps.';
COMMENT ON COLUMN subscriptions.plans.sort_order IS 'Display position on the pricing page, lowest first.';
COMMENT ON COLUMN subscriptions.plans.metadata IS 'Free-form attributes used by integrations.';
COMMENT ON COLUMN subscriptions.plans.deleted_at IS 'When the plan was deleted in the back office; NULL = live.';

CREATE TABLE subscriptions.plan_prices (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    plan_id bigint NOT NULL,
    created_by_user_id bigint NOT NULL,
    nickname text,
    currency_code char(3) NOT NULL,
    billing_interval shared.billing_interval NOT NULL,
    interval_count smallint NOT NULL DEFAULT 1,
    unit_amount numeric(14,2) NOT NULL,
    setup_fee numeric(14,2) NOT NULL DEFAULT 0,
    is_active boolean NOT NULL DEFAULT true,
    valid_from date NOT NULL,
    valid_until date,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT plan_prices_interval_count_check CHECK (interval_count > 0),
    CONSTRAINT plan_prices_valid_until_check CHECK (valid_until IS NULL OR valid_until >= valid_from)
);
COMMENT ON TABLE subscriptions.plan_prices IS 'Price points of a plan: the recurring charge per currency and billing interval (e.g. 49.00 EUR per month, 490.00 EUR per year). A plan usually has several prices.';
COMMENT ON COLUMN subscriptions.plan_prices.plan_id IS 'Plan this price belongs to.';
COMMENT ON COLUMN subscriptions.plan_prices.created_by_user_id IS 'Staff user who created the price.';
COMMENT ON COLUMN subscriptions.plan_prices.nickname IS 'Internal label for the price, e.g. "EU annual 2024"; NULL if none.';
COMMENT ON COLUMN subscriptions.plan_prices.currency_code IS 'Currency of unit_amount and setup_fee (ISO 4217).';
COMMENT ON COLUMN subscriptions.plan_prices.billing_interval IS 'Recurrence unit: day, week, month, quarter or year.';
COMMENT ON COLUMN subscriptions.plan_prices.interval_count IS 'Number of billing_interval units per billing cycle, e.g. 6 with month = billed every six months.';
COMMENT ON COLUMN subscriptions.plan_prices.unit_amount IS 'Recurring charge per unit (seat, licence, box) per billing cycle, in currency_code.';
COMMENT ON COLUMN subscriptions.plan_prices.setup_fee IS 'One-off charge at the start of a subscription, in currency_code; 0 if none.';
COMMENT ON COLUMN subscriptions.plan_prices.is_active IS 'False when the price is no longer offered to new subscribers.';
COMMENT ON COLUMN subscriptions.plan_prices.valid_from IS 'First day the price can be chosen.';
COMMENT ON COLUMN subscriptions.plan_prices.valid_until IS 'Last day the price can be chosen; NULL = open-ended.';

CREATE TABLE subscriptions.addons (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    description text,
    plan_id bigint,
    meter_id bigint,
    created_by_user_id bigint NOT NULL,
    billing_interval shared.billing_interval NOT NULL,
    unit_amount numeric(14,4) NOT NULL,
    currency_code char(3) NOT NULL,
    is_metered boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE subscriptions.addons IS 'Add-ons (extras, options, upsells) a subscriber can attach to a plan, such as extra seats, premium support or overage usage. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN subscriptions.addons.code IS 'Short add-on code, unique within the tenant, e.g. extra_seat, priority_support.';
COMMENT ON COLUMN subscriptions.addons.name IS 'Add-on name shown to customers.';
COMMENT ON COLUMN subscriptions.addons.description IS 'What the add-on provides; NULL if not described.';
COMMENT ON COLUMN subscriptions.addons.plan_id IS 'Only plan the add-on can be bought with; NULL = available with every plan.';
COMMENT ON COLUMN subscriptions.addons.meter_id IS 'Usage meter that drives the charge for a metered add-on; NULL for fixed-price add-ons.';
COMMENT ON COLUMN subscriptions.addons.created_by_user_id IS 'Staff user who created the add-on.';
COMMENT ON COLUMN subscriptions.addons.billing_interval IS 'How often the add-on is charged: day, week, month, quarter or year.';
COMMENT ON COLUMN subscriptions.addons.unit_amount IS 'Price per unit per interval (per metered unit for metered add-ons), in currency_code.';
COMMENT ON COLUMN subscriptions.addons.currency_code IS 'Currency of unit_amount (ISO 4217).';
COMMENT ON COLUMN subscriptions.addons.is_metered IS 'True when billed by recorded usage rather than a fixed quantity.';
COMMENT ON COLUMN subscriptions.addons.is_active IS 'False when the add-on can no longer be added to subscriptions.';
COMMENT ON COLUMN subscriptions.addons.deleted_at IS 'When the add-on was deleted in the back office; NULL = live.';

CREATE TABLE subscriptions.meters (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    description text,
    unit_label text NOT NULL,
    aggregation subscriptions.meter_aggregation NOT NULL DEFAULT 'sum',
    event_name text,
    created_by_user_id bigint NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE subscriptions.meters IS 'Usage meters for metered (usage-based, pay-as-you-go) billing: what is counted, in which unit, and how readings roll up per period. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN subscriptions.meters.code IS 'Short meter code, unique within the tenant, e.g. api_calls, storage_gb, shipments.';
COMMENT ON COLUMN subscriptions.meters.name IS 'Display name of the meter.';
COMMENT ON COLUMN subscriptions.meters.description IS 'Explanation of what is measured; NULL if none.';
COMMENT ON COLUMN subscriptions.meters.unit_label IS 'Unit a usage quantity is in, e.g. call, GB, hour, unit.';
COMMENT ON COLUMN subscriptions.meters.aggregation IS 'How a period''s usage records combine: sum (add up), max (peak value) or last (latest reading).';
COMMENT ON COLUMN subscriptions.meters.event_name IS 'Name of the integration event that feeds the meter; NULL when usage is entered manually.';
COMMENT ON COLUMN subscriptions.meters.created_by_user_id IS 'Staff user who defined the meter.';
COMMENT ON COLUMN subscriptions.meters.is_active IS 'False when the meter no longer accepts usage.';
COMMENT ON COLUMN subscriptions.meters.deleted_at IS 'When the meter was deleted in the back office; NULL = live.';

CREATE TABLE subscriptions.cancellation_reasons (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    label text NOT NULL,
    description text,
    category subscriptions.churn_category NOT NULL,
    created_by_user_id bigint NOT NULL,
    sort_order smallint NOT NULL DEFAULT 0,
    is_comment_required boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE subscriptions.cancellation_reasons IS 'The tenant''s list of churn reasons (cancellation reasons) customers or staff pick when a subscription is cancelled. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.code IS 'Short reason code, unique within the tenant, e.g. too_expensive, missing_feature, switched_vendor.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.label IS 'Text shown in the cancellation form.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.description IS 'Internal guidance on when to use the reason; NULL if none.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.category IS 'Reporting group: price, product_fit, competitor, business_closed, support_experience, other.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.created_by_user_id IS 'Staff user who added the reason.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.sort_order IS 'Position in the pick list, lowest first.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.is_comment_required IS 'True when the canceller must add a free-text comment.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.is_active IS 'False when the reason is hidden from the pick list.';
COMMENT ON COLUMN subscriptions.cancellation_reasons.deleted_at IS 'When the reason was deleted in the back office; NULL = live.';

-- customer subscriptions -------------------------------------------------------------------------

CREATE TABLE subscriptions.subscriptions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_number varchar(32) NOT NULL,
    account_id bigint NOT NULL,
    contact_id bigint,
    plan_id bigint NOT NULL,
    plan_price_id bigint NOT NULL,
    sales_channel_id bigint NOT NULL,
    order_id bigint,
    coupon_id bigint,
    owner_user_id bigint,
    cancellation_reason_id bigint,
    status subscriptions.subscription_status NOT NULL,
    quantity integer NOT NULL DEFAULT 1,
    currency_code char(3) NOT NULL,
    mrr_amount numeric(14,2) NOT NULL,
    started_at timestamptz NOT NULL,
    current_period_start timestamptz NOT NULL,
    current_period_end timestamptz NOT NULL,
    is_cancel_at_period_end boolean NOT NULL DEFAULT false,
    cancelled_at timestamptz,
    ended_at timestamptz,
    cancellation_comment text,
    external_reference text,
    metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT subscriptions_quantity_check CHECK (quantity > 0),
    CONSTRAINT subscriptions_current_period_end_check CHECK (current_period_end > current_period_start),
    CONSTRAINT subscriptions_cancelled_at_check CHECK (cancelled_at IS NULL OR cancelled_at >= started_at),
    CONSTRAINT subscriptions_ended_at_check CHECK (ended_at IS NULL OR ended_at >= started_at)
);
COMMENT ON TABLE subscriptions.subscriptions IS 'Customer subscriptions (recurring contracts, memberships): one business customer subscribed to one of the tenant''s plans at one price. Carries the current status and monthly recurring revenue (MRR). Rows are soft-deleted: deleted_at is set instead of removing the row (subscriptions deleted in the back office, e.g. created by mistake).';
COMMENT ON COLUMN subscriptions.subscriptions.subscription_number IS 'Human-readable subscription reference shown to the customer, unique within the tenant, e.g. SUB-000812.';
COMMENT ON COLUMN subscriptions.subscriptions.account_id IS 'Business customer (crm.accounts) that subscribes and pays.';
COMMENT ON COLUMN subscriptions.subscriptions.contact_id IS 'Primary contact person for the subscription; NULL when none was named.';
COMMENT ON COLUMN subscriptions.subscriptions.plan_id IS 'Current plan (subscriptions.plans, the tenant''s offering).';
COMMENT ON COLUMN subscriptions.subscriptions.plan_price_id IS 'Current price point (currency and billing interval) the subscription is billed at.';
COMMENT ON COLUMN subscriptions.subscriptions.sales_channel_id IS 'Sales channel the subscription was sold through (web store, sales rep, marketplace…).';
COMMENT ON COLUMN subscriptions.subscriptions.order_id IS 'Order whose checkout created the subscription; NULL when created directly by staff or via the API.';
COMMENT ON COLUMN subscriptions.subscriptions.coupon_id IS 'Coupon applied at sign-up; NULL if none.';
COMMENT ON COLUMN subscriptions.subscriptions.owner_user_id IS 'Account manager (staff user) responsible for the subscription; NULL = unassigned.';
COMMENT ON COLUMN subscriptions.subscriptions.cancellation_reason_id IS 'Churn reason picked on cancellation; NULL when not cancelled or when no reason was given.';
COMMENT ON COLUMN subscriptions.subscriptions.status IS 'trialing, active, past_due (payment failed), paused, cancelled or expired (fixed term ended).';
COMMENT ON COLUMN subscriptions.subscriptions.quantity IS 'Number of units (seats, licences, boxes) billed per cycle.';
COMMENT ON COLUMN subscriptions.subscriptions.currency_code IS 'Currency the subscription is billed in (ISO 4217); mrr_amount is in this currency.';
COMMENT ON COLUMN subscriptions.subscriptions.mrr_amount IS 'Monthly recurring revenue of the subscription in currency_code (annual prices divided by 12); 0 while trialing or after cancellation.';
COMMENT ON COLUMN subscriptions.subscriptions.started_at IS 'When the subscription began (including any trial); the sign-up date.';
COMMENT ON COLUMN subscriptions.subscriptions.current_period_start IS 'Start of the billing cycle in progress.';
COMMENT ON COLUMN subscriptions.subscriptions.current_period_end IS 'End of the billing cycle in progress; the next renewal or charge date.';
COMMENT ON COLUMN subscriptions.subscriptions.is_cancel_at_period_end IS 'True when the customer asked to cancel and the subscription will stop at current_period_end instead of renewing.';
COMMENT ON COLUMN subscriptions.subscriptions.cancelled_at IS 'When cancellation was requested; NULL if never cancelled.';
COMMENT ON COLUMN subscriptions.subscriptions.ended_at IS 'When service actually stopped (churn date); NULL while the subscription is still running.';
COMMENT ON COLUMN subscriptions.subscriptions.cancellation_comment IS 'Free-text explanation given on cancellation; NULL if none.';
COMMENT ON COLUMN subscriptions.subscriptions.external_reference IS 'Subscription id in an external billing system; NULL if native.';
COMMENT ON COLUMN subscriptions.subscriptions.metadata IS 'Free-form attributes attached by integrations.';
COMMENT ON COLUMN subscriptions.subscriptions.deleted_at IS 'When the subscription was deleted in the back office; NULL = live.';

CREATE TABLE subscriptions.subscription_items (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    kind subscriptions.item_kind NOT NULL,
    plan_price_id bigint,
    addon_id bigint,
    quantity integer NOT NULL DEFAULT 1,
    unit_amount numeric(14,4) NOT NULL,
    currency_code char(3) NOT NULL,
    added_at timestamptz NOT NULL,
    removed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT subscription_items_quantity_check CHECK (quantity > 0),
    CONSTRAINT subscription_items_removed_at_check CHECK (removed_at IS NULL OR removed_at >= added_at)
);
COMMENT ON TABLE subscriptions.subscription_items IS 'Items (components, line items) of a subscription: the base plan price and any add-ons, each with its own quantity and unit price.';
COMMENT ON COLUMN subscriptions.subscription_items.subscription_id IS 'Subscription the item is part of.';
COMMENT ON COLUMN subscriptions.subscription_items.kind IS 'plan (the base plan price) or addon.';
COMMENT ON COLUMN subscriptions.subscription_items.plan_price_id IS 'Plan price billed by the item; set when kind = plan, NULL for add-on items.';
COMMENT ON COLUMN subscriptions.subscription_items.addon_id IS 'Add-on billed by the item; set when kind = addon, NULL for plan items.';
COMMENT ON COLUMN subscriptions.subscription_items.quantity IS 'Units of the item billed per cycle (seats, licences).';
COMMENT ON COLUMN subscriptions.subscription_items.unit_amount IS 'Price per unit per cycle actually charged (after any negotiated override), in currency_code.';
COMMENT ON COLUMN subscriptions.subscription_items.currency_code IS 'Currency of unit_amount; same as the subscription currency.';
COMMENT ON COLUMN subscriptions.subscription_items.added_at IS 'When the item was added to the subscription.';
COMMENT ON COLUMN subscriptions.subscription_items.removed_at IS 'When the item was removed; NULL while it is still on the subscription.';

CREATE TABLE subscriptions.subscription_events (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    event_type subscriptions.subscription_event_type NOT NULL,
    occurred_at timestamptz NOT NULL,
    from_plan_id bigint,
    to_plan_id bigint NOT NULL,
    actor_user_id bigint,
    actor_type shared.actor_type NOT NULL,
    quantity_before integer,
    quantity_after integer,
    mrr_delta_amount numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    note text,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE subscriptions.subscription_events IS 'Subscription lifecycle log (MRR movements): one row per event such as start, upgrade, downgrade, quantity change, pause, resume, cancellation or reactivation, with the change in MRR it caused. Append-only; the basis of new / expansion / contraction / churn MRR reports.';
COMMENT ON COLUMN subscriptions.subscription_events.subscription_id IS 'Subscription the event happened to.';
COMMENT ON COLUMN subscriptions.subscription_events.event_type IS 'started, upgraded, downgraded, quantity_changed, paused, resumed, cancelled or reactivated.';
COMMENT ON COLUMN subscriptions.subscription_events.occurred_at IS 'When the event took effect.';
COMMENT ON COLUMN subscriptions.subscription_events.from_plan_id IS 'Plan before an upgrade or downgrade; NULL for every other event type, including started.';
COMMENT ON COLUMN subscriptions.subscription_events.to_plan_id IS 'Plan the subscription is on after the event (unchanged plan for events other than upgrades and downgrades).';
COMMENT ON COLUMN subscriptions.subscription_events.actor_user_id IS 'Staff user who triggered the event; NULL when the customer (self-service) or the system did.';
COMMENT ON COLUMN subscriptions.subscription_events.actor_type IS 'Kind of principal that triggered the event (user, api_key, oauth_client, contact, system).';
COMMENT ON COLUMN subscriptions.subscription_events.quantity_before IS 'Subscription quantity before the event; NULL when not applicable (start).';
COMMENT ON COLUMN subscriptions.subscription_events.quantity_after IS 'Subscription quantity after the event; NULL when not applicable.';
COMMENT ON COLUMN subscriptions.subscription_events.mrr_delta_amount IS 'Change in monthly recurring revenue caused by the event, in currency_code: positive for new and expansion MRR, negative for contraction and churn, 0 if none.';
COMMENT ON COLUMN subscriptions.subscription_events.currency_code IS 'Currency of mrr_delta_amount; same as the subscription currency.';
COMMENT ON COLUMN subscriptions.subscription_events.note IS 'Optional free-text context for the event.';

CREATE TABLE subscriptions.usage_records (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    meter_id bigint NOT NULL,
    billing_period_id bigint,
    api_key_id bigint,
    quantity numeric(18,4) NOT NULL,
    recorded_at timestamptz NOT NULL,
    period_date date NOT NULL,
    idempotency_key varchar(128) NOT NULL,
    source text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT usage_records_quantity_check CHECK (quantity >= 0)
);
COMMENT ON TABLE subscriptions.usage_records IS 'Metered usage (consumption readings) reported against a subscription for one meter, e.g. 1,200 API calls on a given day. Summed or maxed per billing period according to the meter''s aggregation.';
COMMENT ON COLUMN subscriptions.usage_records.subscription_id IS 'Subscription the usage is billed to.';
COMMENT ON COLUMN subscriptions.usage_records.meter_id IS 'Meter that measured the usage; its unit_label gives the unit of quantity.';
COMMENT ON COLUMN subscriptions.usage_records.billing_period_id IS 'Billing period the usage was rated into; NULL while not yet billed.';
COMMENT ON COLUMN subscriptions.usage_records.api_key_id IS 'API key the usage was reported with; NULL when recorded by staff or an internal job.';
COMMENT ON COLUMN subscriptions.usage_records.quantity IS 'Amount consumed, in the meter''s unit (calls, GB, hours).';
COMMENT ON COLUMN subscriptions.usage_records.recorded_at IS 'When the usage happened (as reported).';
COMMENT ON COLUMN subscriptions.usage_records.period_date IS 'Calendar day the usage is attributed to, for daily usage reports.';
COMMENT ON COLUMN subscriptions.usage_records.idempotency_key IS 'Key supplied by the reporter so a retried report is not counted twice; unique within the tenant.';
COMMENT ON COLUMN subscriptions.usage_records.source IS 'Where the reading came from: typical values api, integration, manual, import.';

CREATE TABLE subscriptions.trials (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    plan_id bigint NOT NULL,
    outcome subscriptions.trial_outcome NOT NULL DEFAULT 'in_progress',
    started_at timestamptz NOT NULL,
    ends_at timestamptz NOT NULL,
    converted_at timestamptz,
    extension_days smallint NOT NULL DEFAULT 0,
    is_card_required boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT trials_ends_at_check CHECK (ends_at > started_at)
);
COMMENT ON TABLE subscriptions.trials IS 'Free trial periods of subscriptions, and whether the trial converted to a paying subscription (trial conversion).';
COMMENT ON COLUMN subscriptions.trials.subscription_id IS 'Subscription the trial belongs to; at most one trial per subscription.';
COMMENT ON COLUMN subscriptions.trials.plan_id IS 'Plan being tried.';
COMMENT ON COLUMN subscriptions.trials.outcome IS 'in_progress, converted (became paying), cancelled (customer stopped early) or expired (ended without converting).';
COMMENT ON COLUMN subscriptions.trials.started_at IS 'When the trial began.';
COMMENT ON COLUMN subscriptions.trials.ends_at IS 'When the trial ends or ended, including any extension.';
COMMENT ON COLUMN subscriptions.trials.converted_at IS 'When the first paid period started; NULL if the trial did not convert (yet).';
COMMENT ON COLUMN subscriptions.trials.extension_days IS 'Days added to the original trial length by staff; 0 if not extended.';
COMMENT ON COLUMN subscriptions.trials.is_card_required IS 'True when a payment method had to be on file to start the trial.';

CREATE TABLE subscriptions.pauses (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    paused_by_user_id bigint,
    collection subscriptions.pause_collection NOT NULL DEFAULT 'skip_billing',
    paused_at timestamptz NOT NULL,
    scheduled_resume_at timestamptz,
    resumed_at timestamptz,
    reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pauses_resumed_at_check CHECK (resumed_at IS NULL OR resumed_at >= paused_at)
);
COMMENT ON TABLE subscriptions.pauses IS 'Paused periods (holds, freezes, skips) of a subscription: from when it was paused until it resumed. A subscription can be paused several times.';
COMMENT ON COLUMN subscriptions.pauses.subscription_id IS 'Subscription that was paused.';
COMMENT ON COLUMN subscriptions.pauses.paused_by_user_id IS 'Staff user who paused it; NULL when the customer paused it through self-service.';
COMMENT ON COLUMN subscriptions.pauses.collection IS 'What happens to charges due during the pause: skip_billing, keep_as_draft or mark_uncollectible.';
COMMENT ON COLUMN subscriptions.pauses.paused_at IS 'When the pause started.';
COMMENT ON COLUMN subscriptions.pauses.scheduled_resume_at IS 'When the subscription is planned to resume automatically; NULL = paused until further notice.';
COMMENT ON COLUMN subscriptions.pauses.resumed_at IS 'When it actually resumed; NULL while still paused (or if it was cancelled while paused).';
COMMENT ON COLUMN subscriptions.pauses.reason IS 'Why the subscription was paused, free text; NULL if not given.';

CREATE TABLE subscriptions.billing_periods (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    plan_price_id bigint NOT NULL,
    status subscriptions.billing_period_status NOT NULL,
    period_start date NOT NULL,
    period_end date NOT NULL,
    recurring_amount numeric(14,2) NOT NULL,
    usage_amount numeric(14,2) NOT NULL DEFAULT 0,
    discount_amount numeric(14,2) NOT NULL DEFAULT 0,
    amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    invoiced_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT billing_periods_period_end_check CHECK (period_end > period_start)
);
COMMENT ON TABLE subscriptions.billing_periods IS 'Billing periods (billing cycles, service periods) of a subscription: one row per cycle billed or to be billed, with the recurring, usage and discount amounts charged for it.';
COMMENT ON COLUMN subscriptions.billing_periods.subscription_id IS 'Subscription billed.';
COMMENT ON COLUMN subscriptions.billing_periods.plan_price_id IS 'Price point in effect for the period.';
COMMENT ON COLUMN subscriptions.billing_periods.status IS 'upcoming, open (in progress), invoiced, paid or void (not charged, e.g. paused or cancelled).';
COMMENT ON COLUMN subscriptions.billing_periods.period_start IS 'First day covered by the period.';
COMMENT ON COLUMN subscriptions.billing_periods.period_end IS 'Day after the last day covered (exclusive end).';
COMMENT ON COLUMN subscriptions.billing_periods.recurring_amount IS 'Fixed recurring charge for the period (plan and add-ons x quantity), in currency_code.';
COMMENT ON COLUMN subscriptions.billing_periods.usage_amount IS 'Metered usage charges for the period, in currency_code; 0 for plans without metering.';
COMMENT ON COLUMN subscriptions.billing_periods.discount_amount IS 'Coupon or contract discount taken off, in currency_code.';
COMMENT ON COLUMN subscriptions.billing_periods.amount IS 'Net amount billed for the period before tax: recurring + usage - discount, in currency_code.';
COMMENT ON COLUMN subscriptions.billing_periods.currency_code IS 'Currency of all amounts of the period; same as the subscription currency.';
COMMENT ON COLUMN subscriptions.billing_periods.invoiced_at IS 'When the period was handed to invoicing; NULL if not invoiced yet.';

CREATE TABLE subscriptions.entitlements (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    source subscriptions.entitlement_source NOT NULL,
    addon_id bigint,
    granted_by_user_id bigint,
    feature_key varchar(64) NOT NULL,
    limit_value bigint,
    is_enabled boolean NOT NULL DEFAULT true,
    starts_at timestamptz NOT NULL,
    ends_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT entitlements_ends_at_check CHECK (ends_at IS NULL OR ends_at >= starts_at)
);
COMMENT ON TABLE subscriptions.entitlements IS 'Entitlements (feature access, usage allowances, quotas) a subscription grants, e.g. "api_access" or "seats up to 25", from the plan, an add-on or a manual grant.';
COMMENT ON COLUMN subscriptions.entitlements.subscription_id IS 'Subscription that grants the entitlement.';
COMMENT ON COLUMN subscriptions.entitlements.source IS 'What grants it: plan, addon or manual (granted by staff).';
COMMENT ON COLUMN subscriptions.entitlements.addon_id IS 'Add-on that grants it when source = addon; NULL otherwise.';
COMMENT ON COLUMN subscriptions.entitlements.granted_by_user_id IS 'Staff user who granted it when source = manual; NULL otherwise.';
COMMENT ON COLUMN subscriptions.entitlements.feature_key IS 'Identifier of the feature or allowance, e.g. api_access, seats, priority_support.';
COMMENT ON COLUMN subscriptions.entitlements.limit_value IS 'Allowance in the feature''s own unit (seats, GB, calls per month); NULL = unlimited or a simple on/off feature.';
COMMENT ON COLUMN subscriptions.entitlements.is_enabled IS 'False when the entitlement is suspended (e.g. during a pause or past-due state).';
COMMENT ON COLUMN subscriptions.entitlements.starts_at IS 'When access begins.';
COMMENT ON COLUMN subscriptions.entitlements.ends_at IS 'When access ends; NULL = lasts as long as the subscription.';

CREATE TABLE subscriptions.renewals (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    subscription_id bigint NOT NULL,
    from_plan_price_id bigint NOT NULL,
    to_plan_price_id bigint,
    decided_by_user_id bigint,
    renewal_date date NOT NULL,
    outcome subscriptions.renewal_outcome NOT NULL,
    decided_at timestamptz NOT NULL,
    term_months smallint NOT NULL DEFAULT 12,
    previous_mrr_amount numeric(14,2) NOT NULL,
    new_mrr_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    notes text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE subscriptions.renewals IS 'Renewal decisions (contract renewals) at the end of a subscription term and their outcome: renewed as is, upgraded, downgraded, or churned. Drives renewal rate and net revenue retention reports.';
COMMENT ON COLUMN subscriptions.renewals.subscription_id IS 'Subscription up for renewal.';
COMMENT ON COLUMN subscriptions.renewals.from_plan_price_id IS 'Price point in effect during the ending term.';
COMMENT ON COLUMN subscriptions.renewals.to_plan_price_id IS 'Price point for the new term; NULL when the outcome is churned (no new term).';
COMMENT ON COLUMN subscriptions.renewals.decided_by_user_id IS 'Staff user (account manager) who recorded the decision; NULL for automatic renewals.';
COMMENT ON COLUMN subscriptions.renewals.renewal_date IS 'Date the old term ends and the new one would start.';
COMMENT ON COLUMN subscriptions.renewals.outcome IS 'renewed, churned, downgraded or upgraded.';
COMMENT ON COLUMN subscriptions.renewals.decided_at IS 'When the outcome was decided.';
COMMENT ON COLUMN subscriptions.renewals.term_months IS 'Length of the new term in months (of the ending term when churned).';
COMMENT ON COLUMN subscriptions.renewals.previous_mrr_amount IS 'MRR before the renewal, in currency_code.';
COMMENT ON COLUMN subscriptions.renewals.new_mrr_amount IS 'MRR after the renewal, in currency_code; 0 when churned.';
COMMENT ON COLUMN subscriptions.renewals.currency_code IS 'Currency of both MRR amounts; same as the subscription currency.';
COMMENT ON COLUMN subscriptions.renewals.notes IS 'Free-text notes from the renewal conversation; NULL if none.';

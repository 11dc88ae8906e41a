-- heron phase 1, domain 13 analytics: how shoppers behave on a tenant's storefront and how the
-- tenant's staff report on the business. Devices and storefront visits (web sessions), page views,
-- site searches, product-analytics events with jsonb properties, A/B tests (experiments, arms,
-- assignments), saved dashboards, reports and funnels, and pre-aggregated daily sales per channel.

CREATE TYPE analytics.device_kind AS ENUM ('desktop', 'mobile', 'tablet', 'bot');
CREATE TYPE analytics.event_source AS ENUM ('web', 'mobile', 'server', 'import');
CREATE TYPE analytics.experiment_status AS ENUM ('draft', 'running', 'stopped', 'concluded');
CREATE TYPE analytics.widget_type AS ENUM ('kpi', 'line_chart', 'bar_chart', 'pie_chart', 'table', 'funnel', 'text');
CREATE TYPE analytics.report_kind AS ENUM ('table', 'chart', 'pivot', 'cohort', 'export');
CREATE TYPE analytics.report_run_status AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.devices (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    device_fingerprint text NOT NULL,
    kind analytics.device_kind NOT NULL,
    os text NOT NULL,
    os_version text,
    browser text NOT NULL,
    browser_version text,
    user_agent text,
    screen_width smallint,
    screen_height smallint,
    language_code char(2) NOT NULL,
    country_code char(2) NOT NULL,
    timezone_name text NOT NULL,
    first_seen_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT devices_last_seen_at_check CHECK (last_seen_at >= first_seen_at)
);
COMMENT ON TABLE analytics.devices IS 'Devices (browsers, phones, tablets, bots) seen on a tenant''s storefront, identified by a first-party cookie or app install fingerprint. One row per distinct device; a device has many visits (analytics.web_sessions).';
COMMENT ON COLUMN analytics.devices.device_fingerprint IS 'Stable anonymous device identifier (first-party cookie id or app install id); unique per tenant.';
COMMENT ON COLUMN analytics.devices.kind IS 'Form factor: desktop, mobile, tablet, or bot (crawlers and monitoring tools; usually excluded from visitor counts).';
COMMENT ON COLUMN analytics.devices.os IS 'Operating system family, e.g. Windows, macOS, iOS, Android, Linux.';
COMMENT ON COLUMN analytics.devices.os_version IS 'Operating system version string, e.g. 17.4; NULL when the user agent does not reveal it.';
COMMENT ON COLUMN analytics.devices.browser IS 'Browser or app family, e.g. Chrome, Safari, Firefox, Edge, iOS app.';
COMMENT ON COLUMN analytics.devices.browser_version IS 'Browser major.minor version; NULL when unknown.';
COMMENT ON COLUMN analytics.devices.user_agent IS 'Raw User-Agent header last seen from the device; NULL for app SDK devices.';
COMMENT ON COLUMN analytics.devices.screen_width IS 'Screen width in CSS pixels; NULL for bots and server-side captures.';
COMMENT ON COLUMN analytics.devices.screen_height IS 'Screen height in CSS pixels; NULL for bots and server-side captures.';
COMMENT ON COLUMN analytics.devices.language_code IS 'Preferred language reported by the browser (ISO 639-1), e.g. en, de, fr.';
COMMENT ON COLUMN analytics.devices.country_code IS 'Country the device was first geolocated to from its IP (ISO 3166-1 alpha-2).';
COMMENT ON COLUMN analytics.devices.timezone_name IS 'IANA time zone reported by the browser or app, e.g. Europe/Berlin; UTC when the client did not report one.';
COMMENT ON COLUMN analytics.devices.first_seen_at IS 'When the device was first seen on the storefront.';
COMMENT ON COLUMN analytics.devices.last_seen_at IS 'When the device was most recently seen; never earlier than first_seen_at.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.web_sessions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    device_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    sales_channel_id bigint NOT NULL,
    contact_id bigint,
    account_id bigint,
    session_token uuid NOT NULL,
    started_at timestamptz NOT NULL,
    ended_at timestamptz,
    landing_path text NOT NULL,
    exit_path text,
    referrer_host text,
    utm_source text,
    utm_medium text,
    utm_campaign text,
    tracking_link_id bigint,
    country_code char(2) NOT NULL,
    ip inet,
    page_view_count integer NOT NULL,
    is_bounce boolean NOT NULL,
    converted_order_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT web_sessions_ended_at_check CHECK (ended_at IS NULL OR ended_at >= started_at),
    CONSTRAINT web_sessions_page_view_count_check CHECK (page_view_count >= 0)
);
COMMENT ON TABLE analytics.web_sessions IS 'Storefront visits (web sessions): one row per visit of a device to a tenant''s online store, ending after 30 minutes of inactivity. Carries traffic source (referrer, UTM tags), bounce flag and the order it converted into, if any.';
COMMENT ON COLUMN analytics.web_sessions.device_id IS 'The device (browser or app) that made the visit.';
COMMENT ON COLUMN analytics.web_sessions.workspace_id IS 'The storefront (brand / business unit workspace) that was visited.';
COMMENT ON COLUMN analytics.web_sessions.sales_channel_id IS 'The sales channel of the storefront (the web-store or mobile-app channel) that orders placed in this visit are booked under.';
COMMENT ON COLUMN analytics.web_sessions.contact_id IS 'The logged-in or otherwise identified customer contact; NULL = anonymous visitor (most visits).';
COMMENT ON COLUMN analytics.web_sessions.account_id IS 'The business customer (account) of the identified contact at visit time; NULL for anonymous visitors and for contacts not attached to an account.';
COMMENT ON COLUMN analytics.web_sessions.session_token IS 'Random identifier of the visit as sent by the tracking script.';
COMMENT ON COLUMN analytics.web_sessions.started_at IS 'When the visit began (first hit). Use for daily/weekly visit counts.';
COMMENT ON COLUMN analytics.web_sessions.ended_at IS 'When the visit ended (last hit); NULL while the visit is still in progress.';
COMMENT ON COLUMN analytics.web_sessions.landing_path IS 'URL path of the first page of the visit, e.g. /products/blue-widget.';
COMMENT ON COLUMN analytics.web_sessions.exit_path IS 'URL path of the last page viewed; NULL while the visit is in progress.';
COMMENT ON COLUMN analytics.web_sessions.referrer_host IS 'Host name of the referring site, e.g. www.google.com; NULL = direct traffic (typed URL, bookmark).';
COMMENT ON COLUMN analytics.web_sessions.utm_source IS 'utm_source tag of the landing URL, e.g. google, newsletter, linkedin; NULL when untagged.';
COMMENT ON COLUMN analytics.web_sessions.utm_medium IS 'utm_medium tag, e.g. cpc, email, social, referral; NULL when untagged.';
COMMENT ON COLUMN analytics.web_sessions.utm_campaign IS 'utm_campaign tag as written in the URL; NULL when untagged. The campaign itself is reached through tracking_link_id.';
COMMENT ON COLUMN analytics.web_sessions.tracking_link_id IS 'The UTM-tagged marketing tracking link the visitor arrived through; NULL = not arrived via a tracked link.';
COMMENT ON COLUMN analytics.web_sessions.country_code IS 'Country the visit was geolocated to from its IP (ISO 3166-1 alpha-2).';
COMMENT ON COLUMN analytics.web_sessions.ip IS 'Visitor IP address (truncated to /24 for privacy); NULL when IP collection is disabled.';
COMMENT ON COLUMN analytics.web_sessions.page_view_count IS 'Number of pages viewed during the visit (denormalised count of analytics.page_views).';
COMMENT ON COLUMN analytics.web_sessions.is_bounce IS 'True when the visitor left after a single page without interacting.';
COMMENT ON COLUMN analytics.web_sessions.converted_order_id IS 'The order placed during this visit; NULL = the visit did not convert (no purchase).';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.page_views (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    web_session_id bigint NOT NULL,
    sequence_number smallint NOT NULL,
    path text NOT NULL,
    query_string text,
    title text NOT NULL,
    page_type text NOT NULL,
    viewed_at timestamptz NOT NULL,
    time_on_page_ms integer NOT NULL,
    scroll_depth_percent smallint NOT NULL,
    product_id bigint,
    category_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT page_views_scroll_depth_percent_check CHECK (scroll_depth_percent <= 100)
);
COMMENT ON TABLE analytics.page_views IS 'Page views (hits, pageviews): one row per page a visitor loaded during a storefront visit, with time on page and the product or category page shown.';
COMMENT ON COLUMN analytics.page_views.web_session_id IS 'The visit (web session) the page view belongs to.';
COMMENT ON COLUMN analytics.page_views.sequence_number IS 'Position of the page within the visit, starting at 1 for the landing page.';
COMMENT ON COLUMN analytics.page_views.path IS 'URL path viewed, e.g. /collections/summer or /cart.';
COMMENT ON COLUMN analytics.page_views.query_string IS 'URL query string without the leading ?, e.g. color=blue&page=2; NULL when none.';
COMMENT ON COLUMN analytics.page_views.title IS 'HTML title of the page as rendered.';
COMMENT ON COLUMN analytics.page_views.page_type IS 'Template of the page: home, product, category, search, cart, checkout, account, content.';
COMMENT ON COLUMN analytics.page_views.viewed_at IS 'When the page was loaded.';
COMMENT ON COLUMN analytics.page_views.time_on_page_ms IS 'Time spent on the page in milliseconds, until the next page view or the last heartbeat; 0 for the last page of a bounce.';
COMMENT ON COLUMN analytics.page_views.scroll_depth_percent IS 'Deepest scroll position reached, in percent of page height (0-100).';
COMMENT ON COLUMN analytics.page_views.product_id IS 'The product shown when this is a product detail page; NULL for all other pages.';
COMMENT ON COLUMN analytics.page_views.category_id IS 'The catalog category shown when this is a category listing page; NULL for all other pages.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.event_definitions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    display_name text NOT NULL,
    description text,
    category text NOT NULL,
    property_schema jsonb NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    has_pii_properties boolean NOT NULL DEFAULT false,
    owner_user_id bigint NOT NULL,
    created_by_user_id bigint NOT NULL,
    first_seen_at timestamptz,
    last_seen_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT event_definitions_last_seen_at_check CHECK (last_seen_at IS NULL OR last_seen_at >= first_seen_at)
);
COMMENT ON TABLE analytics.event_definitions IS 'The tenant''s tracking plan: one row per named product-analytics event it tracks (e.g. product_added_to_cart, checkout_started), with its expected properties. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN analytics.event_definitions.name IS 'Event name as sent by the SDKs, snake_case, unique per tenant, e.g. product_viewed, quote_requested, signup_completed.';
COMMENT ON COLUMN analytics.event_definitions.display_name IS 'Human-readable label shown in reports, e.g. Product added to cart.';
COMMENT ON COLUMN analytics.event_definitions.description IS 'When the event fires and what it means; NULL when not documented.';
COMMENT ON COLUMN analytics.event_definitions.category IS 'Grouping used in the tracking plan: navigation, commerce, account, engagement, back_office.';
COMMENT ON COLUMN analytics.event_definitions.property_schema IS 'Expected properties and their types, e.g. {"plan":"string","value":"number"}; {} when the event has no properties.';
COMMENT ON COLUMN analytics.event_definitions.is_active IS 'False when the tenant stopped collecting this event (incoming events are dropped).';
COMMENT ON COLUMN analytics.event_definitions.has_pii_properties IS 'True when the event''s properties may contain personal data and are masked for non-admin users.';
COMMENT ON COLUMN analytics.event_definitions.owner_user_id IS 'Staff user responsible for the event definition (analyst or product owner).';
COMMENT ON COLUMN analytics.event_definitions.created_by_user_id IS 'Staff user who added the event to the tracking plan.';
COMMENT ON COLUMN analytics.event_definitions.first_seen_at IS 'When the first event with this name was received; NULL = never received yet.';
COMMENT ON COLUMN analytics.event_definitions.last_seen_at IS 'When the most recent event with this name was received; NULL = never received yet.';
COMMENT ON COLUMN analytics.event_definitions.deleted_at IS 'When the definition was deleted from the tracking plan; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.events (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    event_definition_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    name text NOT NULL,
    source analytics.event_source NOT NULL,
    occurred_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    web_session_id bigint,
    device_id bigint,
    contact_id bigint,
    user_id bigint,
    message_uuid uuid NOT NULL,
    properties jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE analytics.events IS 'Product-analytics events (tracked actions, behavioural events): one row per occurrence of a tracked event, from the storefront, mobile app, back-end or an import, with free-form jsonb properties. The highest-volume table of the domain.';
COMMENT ON COLUMN analytics.events.event_definition_id IS 'The tracking-plan entry this event is an occurrence of.';
COMMENT ON COLUMN analytics.events.workspace_id IS 'The brand / business-unit workspace (analytics project) the event was sent to.';
COMMENT ON COLUMN analytics.events.name IS 'Event name copied from the definition at capture time, e.g. product_viewed, checkout_completed, report_exported.';
COMMENT ON COLUMN analytics.events.source IS 'Where the event was captured: web (browser SDK), mobile (app SDK), server (back-end call) or import (historical backfill).';
COMMENT ON COLUMN analytics.events.occurred_at IS 'When the action happened, by the client clock. Use for time bucketing.';
COMMENT ON COLUMN analytics.events.received_at IS 'When the platform ingested the event; may be later than occurred_at for offline mobile events and imports.';
COMMENT ON COLUMN analytics.events.web_session_id IS 'The storefront visit during which the event happened; NULL for server-side, import and staff back-office events.';
COMMENT ON COLUMN analytics.events.device_id IS 'The device that sent the event; NULL for server-side and import events.';
COMMENT ON COLUMN analytics.events.contact_id IS 'The identified customer contact who performed the action; NULL = anonymous visitor or a staff event.';
COMMENT ON COLUMN analytics.events.user_id IS 'The staff user who performed the action, for back-office events; NULL for customer and visitor events.';
COMMENT ON COLUMN analytics.events.message_uuid IS 'Idempotency id generated by the SDK; duplicates with the same value are dropped on ingestion.';
COMMENT ON COLUMN analytics.events.properties IS 'Event properties as sent, e.g. {"plan":"pro","value":12.5} or {"sku":"WID-42","quantity":3}; {} when none. Numeric values are in the tenant''s default currency unless a "currency" key says otherwise.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.search_queries (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    web_session_id bigint NOT NULL,
    contact_id bigint,
    query_text text NOT NULL,
    normalized_query text NOT NULL,
    language_code char(2) NOT NULL,
    result_count integer NOT NULL,
    clicked_product_id bigint,
    clicked_position smallint,
    is_autocomplete boolean NOT NULL DEFAULT false,
    searched_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT search_queries_result_count_check CHECK (result_count >= 0)
);
COMMENT ON TABLE analytics.search_queries IS 'Storefront site searches: one row per search a visitor ran, with the number of results and the product clicked, if any. Used for zero-result and search-conversion reports.';
COMMENT ON COLUMN analytics.search_queries.web_session_id IS 'The visit during which the search was run.';
COMMENT ON COLUMN analytics.search_queries.contact_id IS 'The identified customer contact who searched; NULL = anonymous visitor.';
COMMENT ON COLUMN analytics.search_queries.query_text IS 'Search terms exactly as typed, e.g. "blue widgit 10mm".';
COMMENT ON COLUMN analytics.search_queries.normalized_query IS 'Lower-cased, trimmed, spelling-corrected form used to group identical searches, e.g. "blue widget 10mm".';
COMMENT ON COLUMN analytics.search_queries.language_code IS 'Storefront language the search ran in (ISO 639-1), which decides stemming and synonyms, e.g. en, de.';
COMMENT ON COLUMN analytics.search_queries.result_count IS 'Number of products returned; 0 = zero-result search.';
COMMENT ON COLUMN analytics.search_queries.clicked_product_id IS 'The product the visitor clicked in the results; NULL = no result was clicked.';
COMMENT ON COLUMN analytics.search_queries.clicked_position IS 'Rank (1 = top) of the clicked result; NULL when nothing was clicked.';
COMMENT ON COLUMN analytics.search_queries.is_autocomplete IS 'True when the search was submitted by picking an autocomplete suggestion.';
COMMENT ON COLUMN analytics.search_queries.searched_at IS 'When the search was submitted.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.experiments (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    key text NOT NULL,
    name text NOT NULL,
    hypothesis text NOT NULL,
    status analytics.experiment_status NOT NULL,
    primary_event_definition_id bigint NOT NULL,
    traffic_percent smallint NOT NULL,
    started_at timestamptz,
    ended_at timestamptz,
    owner_user_id bigint NOT NULL,
    winning_variant_id bigint,
    conclusion text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT experiments_traffic_percent_check CHECK (traffic_percent BETWEEN 1 AND 100),
    CONSTRAINT experiments_ended_at_check CHECK (ended_at IS NULL OR ended_at >= started_at)
);
COMMENT ON TABLE analytics.experiments IS 'A/B tests (split tests, experiments) run on a storefront: one row per test, with its hypothesis, goal metric, status and winning arm. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN analytics.experiments.workspace_id IS 'The storefront (brand workspace) the test runs on.';
COMMENT ON COLUMN analytics.experiments.key IS 'Stable identifier used in code to fetch the assignment, unique per tenant, e.g. checkout_one_page_2024.';
COMMENT ON COLUMN analytics.experiments.name IS 'Human-readable test name, e.g. One-page checkout.';
COMMENT ON COLUMN analytics.experiments.hypothesis IS 'What the test is expected to show, e.g. "A one-page checkout raises conversion by 5%".';
COMMENT ON COLUMN analytics.experiments.status IS 'draft, running, stopped (halted early without a verdict) or concluded.';
COMMENT ON COLUMN analytics.experiments.primary_event_definition_id IS 'The goal metric: the tracked event whose conversion rate decides the test, e.g. checkout_completed.';
COMMENT ON COLUMN analytics.experiments.traffic_percent IS 'Share of eligible visitors enrolled in the test, in percent (1-100).';
COMMENT ON COLUMN analytics.experiments.started_at IS 'When the test started serving traffic; NULL = still a draft.';
COMMENT ON COLUMN analytics.experiments.ended_at IS 'When the test stopped serving traffic; NULL = not started or still running.';
COMMENT ON COLUMN analytics.experiments.owner_user_id IS 'Staff user who owns the test.';
COMMENT ON COLUMN analytics.experiments.winning_variant_id IS 'The arm declared the winner; NULL = not concluded, or concluded with no significant difference.';
COMMENT ON COLUMN analytics.experiments.conclusion IS 'Free-text write-up of the result; NULL until concluded.';
COMMENT ON COLUMN analytics.experiments.deleted_at IS 'When the test was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.experiment_variants (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    experiment_id bigint NOT NULL,
    key text NOT NULL,
    name text NOT NULL,
    description text,
    traffic_weight numeric(5,4) NOT NULL,
    is_control boolean NOT NULL,
    config jsonb NOT NULL,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT experiment_variants_traffic_weight_check CHECK (traffic_weight <= 1)
);
COMMENT ON TABLE analytics.experiment_variants IS 'Arms (variants, treatments) of an A/B test: one row per version being compared, including the control. Not to be confused with product variants (SKUs) in catalog.product_variants.';
COMMENT ON COLUMN analytics.experiment_variants.experiment_id IS 'The A/B test this arm belongs to.';
COMMENT ON COLUMN analytics.experiment_variants.key IS 'Identifier of the arm within its test, used in code, e.g. control, treatment_a.';
COMMENT ON COLUMN analytics.experiment_variants.name IS 'Human-readable arm name, e.g. Current checkout.';
COMMENT ON COLUMN analytics.experiment_variants.description IS 'What differs in this arm; NULL when self-explanatory.';
COMMENT ON COLUMN analytics.experiment_variants.traffic_weight IS 'Fraction of the test''s traffic sent to this arm, 0 to 1 (e.g. 0.5000); the arms of a test sum to 1.';
COMMENT ON COLUMN analytics.experiment_variants.is_control IS 'True for the baseline arm the others are compared against (one per test).';
COMMENT ON COLUMN analytics.experiment_variants.config IS 'Feature payload served to visitors in this arm, e.g. {"checkout":"one_page","button_color":"green"}.';
COMMENT ON COLUMN analytics.experiment_variants.created_by_user_id IS 'Staff user who set up the arm.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.experiment_assignments (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    experiment_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    device_id bigint NOT NULL,
    contact_id bigint,
    web_session_id bigint NOT NULL,
    assigned_at timestamptz NOT NULL,
    first_exposed_at timestamptz,
    is_excluded boolean NOT NULL DEFAULT false,
    has_converted boolean NOT NULL DEFAULT false,
    converted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT experiment_assignments_first_exposed_at_check CHECK (first_exposed_at IS NULL OR first_exposed_at >= assigned_at)
);
COMMENT ON TABLE analytics.experiment_assignments IS 'Bucketing of visitors into A/B test arms: one row per device enrolled in a test, saying which arm (variant) it saw and whether it converted on the goal metric.';
COMMENT ON COLUMN analytics.experiment_assignments.experiment_id IS 'The A/B test the device was enrolled in.';
COMMENT ON COLUMN analytics.experiment_assignments.variant_id IS 'The test arm (analytics.experiment_variants, not a catalog SKU) the device was bucketed into.';
COMMENT ON COLUMN analytics.experiment_assignments.device_id IS 'The device enrolled; a device is enrolled at most once per test.';
COMMENT ON COLUMN analytics.experiment_assignments.contact_id IS 'The identified customer contact using the device at assignment; NULL = anonymous visitor.';
COMMENT ON COLUMN analytics.experiment_assignments.web_session_id IS 'The visit during which the device was first bucketed.';
COMMENT ON COLUMN analytics.experiment_assignments.assigned_at IS 'When the device was bucketed into the arm.';
COMMENT ON COLUMN analytics.experiment_assignments.first_exposed_at IS 'When the visitor first actually saw the tested change; NULL = assigned but never exposed.';
COMMENT ON COLUMN analytics.experiment_assignments.is_excluded IS 'True when the assignment is excluded from analysis (bot, internal staff traffic, QA override).';
COMMENT ON COLUMN analytics.experiment_assignments.has_converted IS 'True when the visitor fired the test''s goal event after assignment.';
COMMENT ON COLUMN analytics.experiment_assignments.converted_at IS 'When the goal event first fired after assignment; NULL = not converted.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.saved_reports (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    kind analytics.report_kind NOT NULL,
    definition jsonb NOT NULL,
    owner_user_id bigint NOT NULL,
    is_shared boolean NOT NULL DEFAULT false,
    schedule_cron text,
    delivery_channel shared.message_channel,
    last_run_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE analytics.saved_reports IS 'Saved reports (report definitions, custom reports) built by staff in the reporting tool: the query definition, owner, sharing and optional delivery schedule. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN analytics.saved_reports.workspace_id IS 'The brand / business-unit workspace whose data the report covers.';
COMMENT ON COLUMN analytics.saved_reports.name IS 'Report title, e.g. Weekly revenue by channel.';
COMMENT ON COLUMN analytics.saved_reports.description IS 'What the report shows; NULL when not described.';
COMMENT ON COLUMN analytics.saved_reports.kind IS 'Output shape: table, chart, pivot, cohort or export (file only).';
COMMENT ON COLUMN analytics.saved_reports.definition IS 'The report query as built in the editor: source, metrics, dimensions, filters, date range, e.g. {"source":"orders","metrics":["net_amount"],"group_by":["sales_channel"],"range":"last_30_days"}.';
COMMENT ON COLUMN analytics.saved_reports.owner_user_id IS 'Staff user who owns the report and can edit it.';
COMMENT ON COLUMN analytics.saved_reports.is_shared IS 'True when every staff user of the tenant can open the report; false = private to the owner.';
COMMENT ON COLUMN analytics.saved_reports.schedule_cron IS 'Cron expression of the scheduled delivery, e.g. 0 7 * * 1; NULL = not scheduled, run on demand only.';
COMMENT ON COLUMN analytics.saved_reports.delivery_channel IS 'Channel scheduled results are delivered through (email, in_app…); NULL when not scheduled.';
COMMENT ON COLUMN analytics.saved_reports.last_run_at IS 'When the report was last executed; NULL = never run.';
COMMENT ON COLUMN analytics.saved_reports.deleted_at IS 'When the report was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.report_runs (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    saved_report_id bigint NOT NULL,
    run_by_user_id bigint,
    status analytics.report_run_status NOT NULL,
    output_format text NOT NULL,
    parameters jsonb NOT NULL,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    duration_ms integer,
    row_count integer,
    error_message text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT report_runs_output_format_check CHECK (output_format IN ('screen', 'csv', 'xlsx', 'pdf', 'json')),
    CONSTRAINT report_runs_finished_at_check CHECK (finished_at IS NULL OR finished_at >= started_at)
);
COMMENT ON TABLE analytics.report_runs IS 'Executions of saved reports: one row each time a report was run, on demand by a staff user or by its schedule, with outcome and size.';
COMMENT ON COLUMN analytics.report_runs.saved_report_id IS 'The saved report that was executed.';
COMMENT ON COLUMN analytics.report_runs.run_by_user_id IS 'Staff user who ran the report on demand; NULL = scheduled run triggered by the system.';
COMMENT ON COLUMN analytics.report_runs.status IS 'queued, running, succeeded, failed or cancelled.';
COMMENT ON COLUMN analytics.report_runs.output_format IS 'Output produced: screen (viewed in the browser), csv, xlsx, pdf or json.';
COMMENT ON COLUMN analytics.report_runs.parameters IS 'Run-time parameters that overrode the definition, e.g. {"range":"2024-01-01/2024-01-31"}; {} when none.';
COMMENT ON COLUMN analytics.report_runs.started_at IS 'When execution started.';
COMMENT ON COLUMN analytics.report_runs.finished_at IS 'When execution ended (successfully or not); NULL while queued or running.';
COMMENT ON COLUMN analytics.report_runs.duration_ms IS 'Execution time in milliseconds; NULL while queued or running.';
COMMENT ON COLUMN analytics.report_runs.row_count IS 'Number of result rows produced; NULL until the run succeeded.';
COMMENT ON COLUMN analytics.report_runs.error_message IS 'Error text of a failed run; NULL otherwise.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.funnels (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    steps jsonb NOT NULL,
    entry_event_definition_id bigint NOT NULL,
    goal_event_definition_id bigint NOT NULL,
    conversion_window_hours integer NOT NULL,
    owner_user_id bigint NOT NULL,
    is_shared boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT funnels_conversion_window_hours_check CHECK (conversion_window_hours > 0)
);
COMMENT ON TABLE analytics.funnels IS 'Saved conversion funnels: an ordered list of tracked events (e.g. product_viewed → added_to_cart → checkout_completed) whose step-to-step drop-off the tenant analyses. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN analytics.funnels.workspace_id IS 'The brand / business-unit workspace whose events the funnel analyses.';
COMMENT ON COLUMN analytics.funnels.name IS 'Funnel name, e.g. Storefront purchase funnel.';
COMMENT ON COLUMN analytics.funnels.description IS 'What the funnel measures; NULL when not described.';
COMMENT ON COLUMN analytics.funnels.steps IS 'Ordered steps, each an event name with optional property filters, e.g. [{"event":"product_viewed"},{"event":"product_added_to_cart"},{"event":"checkout_completed"}].';
COMMENT ON COLUMN analytics.funnels.entry_event_definition_id IS 'The event of the first step (funnel entry).';
COMMENT ON COLUMN analytics.funnels.goal_event_definition_id IS 'The event of the last step (conversion goal).';
COMMENT ON COLUMN analytics.funnels.conversion_window_hours IS 'Maximum time, in hours, from entry to goal for a journey to count as converted, e.g. 24 or 168.';
COMMENT ON COLUMN analytics.funnels.owner_user_id IS 'Staff user who owns the funnel.';
COMMENT ON COLUMN analytics.funnels.is_shared IS 'True when every staff user of the tenant can open the funnel; false = private to the owner.';
COMMENT ON COLUMN analytics.funnels.deleted_at IS 'When the funnel was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.dashboards (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    slug text NOT NULL,
    name text NOT NULL,
    description text,
    owner_user_id bigint NOT NULL,
    is_shared boolean NOT NULL DEFAULT false,
    is_default boolean NOT NULL DEFAULT false,
    layout jsonb NOT NULL,
    refresh_interval_seconds integer,
    tags text[] NOT NULL,
    last_viewed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT dashboards_refresh_interval_seconds_check CHECK (refresh_interval_seconds > 0)
);
COMMENT ON TABLE analytics.dashboards IS 'Saved dashboards (boards, KPI screens) of the tenant''s staff: a named grid of widgets. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN analytics.dashboards.workspace_id IS 'The brand / business-unit workspace the dashboard belongs to.';
COMMENT ON COLUMN analytics.dashboards.slug IS 'URL identifier of the dashboard, unique per tenant, e.g. sales-overview.';
COMMENT ON COLUMN analytics.dashboards.name IS 'Dashboard title, e.g. Sales overview.';
COMMENT ON COLUMN analytics.dashboards.description IS 'Purpose of the dashboard; NULL when not described.';
COMMENT ON COLUMN analytics.dashboards.owner_user_id IS 'Staff user who owns the dashboard and can edit it.';
COMMENT ON COLUMN analytics.dashboards.is_shared IS 'True when every staff user of the tenant can open it; false = private to the owner.';
COMMENT ON COLUMN analytics.dashboards.is_default IS 'True for the dashboard shown on the back-office home page of its workspace.';
COMMENT ON COLUMN analytics.dashboards.layout IS 'Grid settings, e.g. {"columns":12,"theme":"light"}.';
COMMENT ON COLUMN analytics.dashboards.refresh_interval_seconds IS 'Auto-refresh period in seconds, e.g. 300; NULL = refreshed manually only.';
COMMENT ON COLUMN analytics.dashboards.tags IS 'Free labels for finding dashboards, e.g. {finance,weekly}; empty array when none.';
COMMENT ON COLUMN analytics.dashboards.last_viewed_at IS 'When anyone last opened the dashboard; NULL = never opened.';
COMMENT ON COLUMN analytics.dashboards.deleted_at IS 'When the dashboard was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.dashboard_widgets (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    dashboard_id bigint NOT NULL,
    widget_type analytics.widget_type NOT NULL,
    title text NOT NULL,
    saved_report_id bigint,
    position_x smallint NOT NULL,
    position_y smallint NOT NULL,
    width smallint NOT NULL,
    height smallint NOT NULL,
    config jsonb NOT NULL,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT dashboard_widgets_width_check CHECK (width > 0)
);
COMMENT ON TABLE analytics.dashboard_widgets IS 'Widgets (tiles, cards, charts) placed on a dashboard: one row per tile, showing a saved report, a funnel, or an inline metric or text.';
COMMENT ON COLUMN analytics.dashboard_widgets.dashboard_id IS 'The dashboard the widget is placed on.';
COMMENT ON COLUMN analytics.dashboard_widgets.widget_type IS 'Visualisation: kpi, line_chart, bar_chart, pie_chart, table, funnel or text.';
COMMENT ON COLUMN analytics.dashboard_widgets.title IS 'Caption shown above the widget, e.g. Revenue this month.';
COMMENT ON COLUMN analytics.dashboard_widgets.saved_report_id IS 'The saved report whose results the widget shows; NULL = the widget has an inline query or funnel reference in config, or is a text tile.';
COMMENT ON COLUMN analytics.dashboard_widgets.position_x IS 'Column of the top-left corner on the dashboard grid, 0-based.';
COMMENT ON COLUMN analytics.dashboard_widgets.position_y IS 'Row of the top-left corner on the dashboard grid, 0-based.';
COMMENT ON COLUMN analytics.dashboard_widgets.width IS 'Width in grid columns (1-12).';
COMMENT ON COLUMN analytics.dashboard_widgets.height IS 'Height in grid rows.';
COMMENT ON COLUMN analytics.dashboard_widgets.config IS 'Display and inline query settings, e.g. {"metric":"order_count","range":"last_7_days","compare":"previous_period"} or {"funnel":42} for a funnel widget.';
COMMENT ON COLUMN analytics.dashboard_widgets.created_by_user_id IS 'Staff user who added the widget.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE analytics.daily_sales_rollups (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    sales_channel_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    rollup_date date NOT NULL,
    currency_code char(3) NOT NULL,
    order_count integer NOT NULL,
    unit_count integer NOT NULL,
    new_account_count integer NOT NULL,
    gross_amount numeric(14,2) NOT NULL,
    discount_amount numeric(14,2) NOT NULL,
    tax_amount numeric(14,2) NOT NULL,
    net_amount numeric(14,2) NOT NULL,
    refunded_amount numeric(14,2) NOT NULL,
    computed_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT daily_sales_rollups_order_count_check CHECK (order_count >= 0)
);
COMMENT ON TABLE analytics.daily_sales_rollups IS 'Pre-aggregated daily sales per sales channel (daily revenue summary): one row per channel and calendar day, recomputed nightly from orders. All amounts of a row are in its currency_code, the channel''s reporting currency (orders in other currencies are converted at the day''s exchange rate). Amounts of different channels may be in different currencies.';
COMMENT ON COLUMN analytics.daily_sales_rollups.sales_channel_id IS 'The sales channel (web store, sales rep, EDI, marketplace) the figures are for.';
COMMENT ON COLUMN analytics.daily_sales_rollups.workspace_id IS 'The brand / business-unit workspace the channel sells for (copied from the channel for filtering).';
COMMENT ON COLUMN analytics.daily_sales_rollups.rollup_date IS 'Calendar day the orders were placed, in the tenant''s time zone.';
COMMENT ON COLUMN analytics.daily_sales_rollups.currency_code IS 'ISO 4217 currency of every amount in the row: the channel''s reporting currency.';
COMMENT ON COLUMN analytics.daily_sales_rollups.order_count IS 'Number of orders placed on the channel that day (cancelled orders excluded).';
COMMENT ON COLUMN analytics.daily_sales_rollups.unit_count IS 'Number of item units ordered that day, summed over order lines.';
COMMENT ON COLUMN analytics.daily_sales_rollups.new_account_count IS 'Number of customers (accounts) placing their first ever order that day.';
COMMENT ON COLUMN analytics.daily_sales_rollups.gross_amount IS 'Sum of order values before discounts and tax, in currency_code.';
COMMENT ON COLUMN analytics.daily_sales_rollups.discount_amount IS 'Sum of discounts and coupons applied, in currency_code (positive number).';
COMMENT ON COLUMN analytics.daily_sales_rollups.tax_amount IS 'Sum of tax charged, in currency_code.';
COMMENT ON COLUMN analytics.daily_sales_rollups.net_amount IS 'Net sales: gross_amount minus discount_amount, excluding tax, in currency_code.';
COMMENT ON COLUMN analytics.daily_sales_rollups.refunded_amount IS 'Refunds issued that day against the channel''s orders, in currency_code.';
COMMENT ON COLUMN analytics.daily_sales_rollups.computed_at IS 'When the rollup row was last recomputed.';

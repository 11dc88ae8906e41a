-- heron phase 1, domain 14 ops: running the platform for a tenant. Feature flags and their
-- per-tenant overrides, third-party integrations and their sync runs, outgoing webhooks, background
-- jobs, the API request log, the audit trail, sensitive-data access log, bulk data exports, staff
-- file uploads, and operational incidents with their status updates.

CREATE TYPE ops.flag_kind AS ENUM ('release', 'experiment', 'operational', 'permission', 'kill_switch');
CREATE TYPE ops.integration_category AS ENUM ('erp', 'crm', 'ecommerce', 'shipping', 'accounting', 'marketing');
CREATE TYPE ops.integration_auth_method AS ENUM ('oauth2', 'api_key', 'basic_auth', 'sftp', 'none');
CREATE TYPE ops.connection_status AS ENUM ('pending', 'active', 'error', 'paused', 'disconnected');
CREATE TYPE ops.sync_direction AS ENUM ('inbound', 'outbound', 'bidirectional');
CREATE TYPE ops.sync_status AS ENUM ('queued', 'running', 'succeeded', 'partially_failed', 'failed', 'cancelled');
CREATE TYPE ops.delivery_status AS ENUM ('pending', 'delivered', 'failed', 'retrying', 'abandoned');
CREATE TYPE ops.job_status AS ENUM ('scheduled', 'queued', 'running', 'paused', 'completed', 'failed', 'cancelled');
CREATE TYPE ops.job_run_status AS ENUM ('running', 'succeeded', 'failed', 'timed_out', 'cancelled');
CREATE TYPE ops.access_purpose AS ENUM ('customer_support', 'billing_inquiry', 'fraud_review', 'legal_request', 'data_export', 'other');
CREATE TYPE ops.export_kind AS ENUM ('accounts', 'contacts', 'orders', 'invoices', 'products', 'audit_log', 'data_subject_request');
CREATE TYPE ops.export_status AS ENUM ('requested', 'processing', 'ready', 'expired', 'failed');
CREATE TYPE ops.scan_status AS ENUM ('pending', 'clean', 'infected', 'failed');
CREATE TYPE ops.incident_severity AS ENUM ('sev1', 'sev2', 'sev3', 'sev4');
CREATE TYPE ops.incident_status AS ENUM ('investigating', 'identified', 'monitoring', 'resolved', 'postmortem_done');

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.feature_flags (
    id bigint NOT NULL,
    key text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    kind ops.flag_kind NOT NULL,
    is_enabled_by_default boolean NOT NULL,
    rollout_percent smallint NOT NULL,
    minimum_plan_id bigint NOT NULL,
    owner_team text NOT NULL,
    is_archived boolean NOT NULL DEFAULT false,
    expires_on date,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT feature_flags_rollout_percent_check CHECK (rollout_percent BETWEEN 0 AND 100)
);
COMMENT ON TABLE ops.feature_flags IS 'Platform feature flags (feature toggles) defined by the platform operator: one row per flag, with its default state and gradual-rollout percentage. Global: tenants change a flag only through ops.feature_flag_overrides.';
COMMENT ON COLUMN ops.feature_flags.key IS 'Flag key used in code, unique, e.g. new_checkout, b2b_quotes_v2.';
COMMENT ON COLUMN ops.feature_flags.name IS 'Human-readable flag name, e.g. New checkout.';
COMMENT ON COLUMN ops.feature_flags.description IS 'What the flag switches on or off.';
COMMENT ON COLUMN ops.feature_flags.kind IS 'Purpose: release, experiment, operational, permission or kill_switch.';
COMMENT ON COLUMN ops.feature_flags.is_enabled_by_default IS 'Whether the feature is on for tenants without an override (subject to rollout_percent).';
COMMENT ON COLUMN ops.feature_flags.rollout_percent IS 'Share of tenants, in percent (0-100), for which the default applies during a gradual rollout; 100 = everyone.';
COMMENT ON COLUMN ops.feature_flags.minimum_plan_id IS 'Cheapest platform plan whose tenants may use the feature; the entry plan (starter) when every tenant may use it.';
COMMENT ON COLUMN ops.feature_flags.owner_team IS 'Platform engineering team responsible for the flag, e.g. checkout, billing, growth.';
COMMENT ON COLUMN ops.feature_flags.is_archived IS 'True when the flag is retired (feature fully launched or removed) and no longer evaluated.';
COMMENT ON COLUMN ops.feature_flags.expires_on IS 'Date by which the flag should be cleaned up; NULL = permanent flag.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.integrations (
    id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    vendor text NOT NULL,
    category ops.integration_category NOT NULL,
    description text NOT NULL,
    auth_method ops.integration_auth_method NOT NULL,
    docs_url text,
    minimum_plan_id bigint NOT NULL,
    is_available boolean NOT NULL DEFAULT true,
    is_beta boolean NOT NULL DEFAULT false,
    allows_multiple_connections boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE ops.integrations IS 'The integration marketplace (apps, connectors): one row per third-party system the platform can connect to, e.g. NetSuite, Salesforce, Shopify, ShipStation, QuickBooks, Mailchimp. Global catalogue; a tenant''s use of one is in ops.integration_connections.';
COMMENT ON COLUMN ops.integrations.code IS 'Stable integration code, unique, e.g. netsuite, salesforce, shopify, quickbooks_online.';
COMMENT ON COLUMN ops.integrations.name IS 'Display name in the marketplace, e.g. QuickBooks Online.';
COMMENT ON COLUMN ops.integrations.vendor IS 'Company that makes the third-party system, e.g. Oracle, Intuit.';
COMMENT ON COLUMN ops.integrations.category IS 'erp, crm, ecommerce, shipping, accounting or marketing.';
COMMENT ON COLUMN ops.integrations.description IS 'Marketplace description of what the integration syncs.';
COMMENT ON COLUMN ops.integrations.auth_method IS 'How the connection authenticates: oauth2, api_key, basic_auth, sftp or none.';
COMMENT ON COLUMN ops.integrations.docs_url IS 'Link to the setup guide; NULL when there is none.';
COMMENT ON COLUMN ops.integrations.minimum_plan_id IS 'Cheapest platform plan that includes the integration; the entry plan (starter) when every tenant may connect it.';
COMMENT ON COLUMN ops.integrations.is_available IS 'False when the integration is withdrawn from the marketplace (existing connections keep working).';
COMMENT ON COLUMN ops.integrations.is_beta IS 'True while the integration is in beta.';
COMMENT ON COLUMN ops.integrations.allows_multiple_connections IS 'True when a tenant may connect several instances (e.g. several Shopify stores).';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.feature_flag_overrides (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    feature_flag_id bigint NOT NULL,
    is_enabled boolean NOT NULL,
    rollout_percent smallint,
    reason text NOT NULL,
    set_by_user_id bigint NOT NULL,
    expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE ops.feature_flag_overrides IS 'Per-tenant feature-flag overrides: one row per tenant and flag whose state differs from the platform default (beta opt-ins, early access, kill switches).';
COMMENT ON COLUMN ops.feature_flag_overrides.feature_flag_id IS 'The platform feature flag overridden for this tenant.';
COMMENT ON COLUMN ops.feature_flag_overrides.is_enabled IS 'The state the flag takes for this tenant, replacing is_enabled_by_default.';
COMMENT ON COLUMN ops.feature_flag_overrides.rollout_percent IS 'Share of the tenant''s users, in percent (0-100), that get the overridden state; NULL = all users.';
COMMENT ON COLUMN ops.feature_flag_overrides.reason IS 'Why the override exists, e.g. beta customer, support workaround, contract term.';
COMMENT ON COLUMN ops.feature_flag_overrides.set_by_user_id IS 'Tenant staff user (usually an admin) who set or requested the override.';
COMMENT ON COLUMN ops.feature_flag_overrides.expires_at IS 'When the override lapses and the default applies again; NULL = permanent.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.integration_connections (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    integration_id bigint NOT NULL,
    workspace_id bigint,
    display_name text NOT NULL,
    status ops.connection_status NOT NULL,
    external_account_ref text,
    config jsonb NOT NULL,
    connected_by_user_id bigint NOT NULL,
    connected_at timestamptz NOT NULL,
    disconnected_at timestamptz,
    last_synced_at timestamptz,
    last_error_message text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT integration_connections_disconnected_at_check CHECK (disconnected_at IS NULL OR disconnected_at >= connected_at)
);
COMMENT ON TABLE ops.integration_connections IS 'A tenant''s connected integrations (installed apps, connectors): one row per connection of the tenant to a third-party system, with its configuration and health. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN ops.integration_connections.integration_id IS 'The marketplace integration that was connected.';
COMMENT ON COLUMN ops.integration_connections.workspace_id IS 'The brand / business-unit workspace the connection serves; NULL = the whole tenant.';
COMMENT ON COLUMN ops.integration_connections.display_name IS 'Name the tenant gave the connection, e.g. NetSuite production, EU Shopify store.';
COMMENT ON COLUMN ops.integration_connections.status IS 'pending (setup not finished), active, error (credentials or sync failing), paused, or disconnected.';
COMMENT ON COLUMN ops.integration_connections.external_account_ref IS 'The tenant''s account identifier in the third-party system, e.g. a NetSuite account number or shop domain; NULL until setup completes.';
COMMENT ON COLUMN ops.integration_connections.config IS 'Connection settings with secrets removed, e.g. {"sync_orders":true,"price_list":"wholesale","interval_minutes":15}.';
COMMENT ON COLUMN ops.integration_connections.connected_by_user_id IS 'Staff user who set up the connection.';
COMMENT ON COLUMN ops.integration_connections.connected_at IS 'When the connection was established.';
COMMENT ON COLUMN ops.integration_connections.disconnected_at IS 'When the connection was disconnected; NULL = still connected.';
COMMENT ON COLUMN ops.integration_connections.last_synced_at IS 'When the last successful sync finished; NULL = never synced.';
COMMENT ON COLUMN ops.integration_connections.last_error_message IS 'Most recent error reported by the connection; NULL when healthy.';
COMMENT ON COLUMN ops.integration_connections.deleted_at IS 'When the connection was removed from the tenant''s settings; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.background_jobs (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    job_type text NOT NULL,
    name text NOT NULL,
    queue_name text NOT NULL,
    status ops.job_status NOT NULL,
    priority smallint NOT NULL,
    schedule_cron text,
    payload jsonb NOT NULL,
    max_attempts smallint NOT NULL,
    created_by_user_id bigint,
    integration_connection_id bigint,
    next_run_at timestamptz,
    last_run_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT background_jobs_max_attempts_check CHECK (max_attempts > 0)
);
COMMENT ON TABLE ops.background_jobs IS 'Background jobs (scheduled tasks, cron jobs, queued work) of a tenant: one row per recurring or one-off job such as an invoice run, catalog import, integration sync or scheduled report. Executions are in ops.job_runs. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN ops.background_jobs.job_type IS 'Worker that executes the job: invoice_run, catalog_import, integration_sync, report_delivery, data_export, stock_recalc, webhook_retry.';
COMMENT ON COLUMN ops.background_jobs.name IS 'Human-readable job name, e.g. Nightly NetSuite order sync.';
COMMENT ON COLUMN ops.background_jobs.queue_name IS 'Worker queue the job is placed on: default, critical, bulk, reports.';
COMMENT ON COLUMN ops.background_jobs.status IS 'scheduled (recurring, waiting for next_run_at), queued, running, paused, completed (one-off done), failed or cancelled.';
COMMENT ON COLUMN ops.background_jobs.priority IS 'Queue priority, 0 = lowest; higher runs first.';
COMMENT ON COLUMN ops.background_jobs.schedule_cron IS 'Cron expression of a recurring job, e.g. 0 2 * * *; NULL = one-off job.';
COMMENT ON COLUMN ops.background_jobs.payload IS 'Job arguments, e.g. {"since":"2024-05-01","dry_run":false}.';
COMMENT ON COLUMN ops.background_jobs.max_attempts IS 'How many times a failing run is retried before the job is marked failed.';
COMMENT ON COLUMN ops.background_jobs.created_by_user_id IS 'Staff user who created or scheduled the job; NULL = created by the system.';
COMMENT ON COLUMN ops.background_jobs.integration_connection_id IS 'The integration connection a sync job works on; NULL for jobs unrelated to integrations.';
COMMENT ON COLUMN ops.background_jobs.next_run_at IS 'When the job will next run; NULL when nothing is scheduled (one-off done, paused or cancelled).';
COMMENT ON COLUMN ops.background_jobs.last_run_at IS 'When the job last started; NULL = never run.';
COMMENT ON COLUMN ops.background_jobs.deleted_at IS 'When staff deleted the job; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.job_runs (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    background_job_id bigint NOT NULL,
    attempt_number smallint NOT NULL,
    retry_of_job_run_id bigint,
    status ops.job_run_status NOT NULL,
    worker_host text NOT NULL,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    duration_ms integer,
    items_processed integer NOT NULL,
    error_message text,
    output jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT job_runs_attempt_number_check CHECK (attempt_number > 0),
    CONSTRAINT job_runs_finished_at_check CHECK (finished_at IS NULL OR finished_at >= started_at)
);
COMMENT ON TABLE ops.job_runs IS 'Executions of background jobs (job run history): one row per attempt of a job, with timing, outcome and volume processed.';
COMMENT ON COLUMN ops.job_runs.background_job_id IS 'The job that was executed.';
COMMENT ON COLUMN ops.job_runs.attempt_number IS 'Attempt number within one scheduled execution, 1 = first try.';
COMMENT ON COLUMN ops.job_runs.retry_of_job_run_id IS 'The failed run this attempt retries; NULL = first attempt.';
COMMENT ON COLUMN ops.job_runs.status IS 'running, succeeded, failed, timed_out or cancelled.';
COMMENT ON COLUMN ops.job_runs.worker_host IS 'Name of the worker machine that executed the run, e.g. worker-eu-3.';
COMMENT ON COLUMN ops.job_runs.started_at IS 'When the run started.';
COMMENT ON COLUMN ops.job_runs.finished_at IS 'When the run ended; NULL while running.';
COMMENT ON COLUMN ops.job_runs.duration_ms IS 'Run time in milliseconds; NULL while running.';
COMMENT ON COLUMN ops.job_runs.items_processed IS 'Number of items (orders, invoices, rows…) the run handled.';
COMMENT ON COLUMN ops.job_runs.error_message IS 'Error text of a failed or timed-out run; NULL otherwise.';
COMMENT ON COLUMN ops.job_runs.output IS 'Structured result summary, e.g. {"created":120,"updated":8,"skipped":2}; {} when none.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.sync_runs (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    integration_connection_id bigint NOT NULL,
    job_run_id bigint NOT NULL,
    triggered_by_user_id bigint,
    direction ops.sync_direction NOT NULL,
    sync_object text NOT NULL,
    status ops.sync_status NOT NULL,
    started_at timestamptz NOT NULL,
    finished_at timestamptz,
    records_processed integer NOT NULL,
    records_failed integer NOT NULL,
    error_message text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT sync_runs_finished_at_check CHECK (finished_at IS NULL OR finished_at >= started_at)
);
COMMENT ON TABLE ops.sync_runs IS 'Integration sync runs: one row per run that exchanged records between the platform and a connected third-party system, with counts and errors.';
COMMENT ON COLUMN ops.sync_runs.integration_connection_id IS 'The tenant''s integration connection that was synced.';
COMMENT ON COLUMN ops.sync_runs.job_run_id IS 'The background-job run that executed the sync (every sync, scheduled or manual, runs as a job).';
COMMENT ON COLUMN ops.sync_runs.triggered_by_user_id IS 'Staff user who clicked "sync now"; NULL = scheduled or automatic run.';
COMMENT ON COLUMN ops.sync_runs.direction IS 'inbound (into the platform), outbound (to the third party) or bidirectional.';
COMMENT ON COLUMN ops.sync_runs.sync_object IS 'Record type synced: orders, products, inventory, accounts, contacts, invoices, payments.';
COMMENT ON COLUMN ops.sync_runs.status IS 'queued, running, succeeded, partially_failed, failed or cancelled.';
COMMENT ON COLUMN ops.sync_runs.started_at IS 'When the run started.';
COMMENT ON COLUMN ops.sync_runs.finished_at IS 'When the run ended; NULL while queued or running.';
COMMENT ON COLUMN ops.sync_runs.records_processed IS 'Number of records read or written successfully.';
COMMENT ON COLUMN ops.sync_runs.records_failed IS 'Number of records that could not be synced.';
COMMENT ON COLUMN ops.sync_runs.error_message IS 'Main error of a failed or partially failed run; NULL when none.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.webhook_endpoints (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    url text NOT NULL,
    description text,
    secret_hint text NOT NULL,
    event_types text[] NOT NULL,
    api_version text NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    oauth_client_id bigint,
    consecutive_failure_count integer NOT NULL DEFAULT 0,
    last_delivery_at timestamptz,
    disabled_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE ops.webhook_endpoints IS 'Webhook endpoints (webhook subscriptions, callback URLs): URLs of the tenant or its apps that receive platform events such as order.created. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN ops.webhook_endpoints.url IS 'HTTPS URL events are POSTed to.';
COMMENT ON COLUMN ops.webhook_endpoints.description IS 'What the endpoint is for; NULL when not described.';
COMMENT ON COLUMN ops.webhook_endpoints.secret_hint IS 'Last four characters of the signing secret, to tell secrets apart; the secret itself is not stored here.';
COMMENT ON COLUMN ops.webhook_endpoints.event_types IS 'Event types subscribed to, e.g. {order.created,order.updated,invoice.paid}; {*} = all events.';
COMMENT ON COLUMN ops.webhook_endpoints.api_version IS 'Payload version sent, e.g. 2024-04-01.';
COMMENT ON COLUMN ops.webhook_endpoints.is_active IS 'False when the endpoint is paused by staff or auto-disabled after repeated failures.';
COMMENT ON COLUMN ops.webhook_endpoints.created_by_user_id IS 'Staff user who registered the endpoint.';
COMMENT ON COLUMN ops.webhook_endpoints.oauth_client_id IS 'The OAuth app that registered the endpoint through the API; NULL = registered by staff in the back office.';
COMMENT ON COLUMN ops.webhook_endpoints.consecutive_failure_count IS 'Failed deliveries in a row since the last success; the endpoint is auto-disabled at 50.';
COMMENT ON COLUMN ops.webhook_endpoints.last_delivery_at IS 'When an event was last delivered successfully; NULL = never.';
COMMENT ON COLUMN ops.webhook_endpoints.disabled_at IS 'When the endpoint was last deactivated; NULL = never deactivated.';
COMMENT ON COLUMN ops.webhook_endpoints.deleted_at IS 'When the endpoint was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.webhook_deliveries (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    webhook_endpoint_id bigint NOT NULL,
    event_type text NOT NULL,
    event_uuid uuid NOT NULL,
    payload jsonb NOT NULL,
    attempt_number smallint NOT NULL,
    status ops.delivery_status NOT NULL,
    response_status smallint,
    response_body_excerpt text,
    delivered_at timestamptz NOT NULL,
    duration_ms integer,
    next_retry_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT webhook_deliveries_attempt_number_check CHECK (attempt_number > 0)
);
COMMENT ON TABLE ops.webhook_deliveries IS 'Webhook delivery log: one row per attempt to POST an event to a webhook endpoint, including retries, with the HTTP response received.';
COMMENT ON COLUMN ops.webhook_deliveries.webhook_endpoint_id IS 'The endpoint the event was sent to.';
COMMENT ON COLUMN ops.webhook_deliveries.event_type IS 'Event type delivered, e.g. order.created, fulfillment.shipped, invoice.paid.';
COMMENT ON COLUMN ops.webhook_deliveries.event_uuid IS 'Identifier of the event; identical across retries of the same event so receivers can de-duplicate.';
COMMENT ON COLUMN ops.webhook_deliveries.payload IS 'JSON body sent, e.g. {"type":"order.created","data":{"order_id":123}}.';
COMMENT ON COLUMN ops.webhook_deliveries.attempt_number IS 'Attempt number for this event and endpoint, 1 = first try.';
COMMENT ON COLUMN ops.webhook_deliveries.status IS 'pending, delivered (2xx received), failed, retrying (a further attempt is scheduled) or abandoned (retries exhausted).';
COMMENT ON COLUMN ops.webhook_deliveries.response_status IS 'HTTP status code returned, e.g. 200, 404, 500; NULL = no response (timeout or connection error).';
COMMENT ON COLUMN ops.webhook_deliveries.response_body_excerpt IS 'First 1 KB of the response body; NULL when there was no response.';
COMMENT ON COLUMN ops.webhook_deliveries.delivered_at IS 'When the attempt was sent.';
COMMENT ON COLUMN ops.webhook_deliveries.duration_ms IS 'Time until the response arrived, in milliseconds; NULL on timeout or connection error.';
COMMENT ON COLUMN ops.webhook_deliveries.next_retry_at IS 'When the next attempt is scheduled; NULL when delivered or abandoned.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.api_requests (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    request_id uuid NOT NULL,
    api_key_id bigint,
    oauth_client_id bigint,
    user_id bigint,
    method text NOT NULL,
    path text NOT NULL,
    route_template text NOT NULL,
    api_version text NOT NULL,
    status_code smallint NOT NULL,
    duration_ms integer NOT NULL,
    request_bytes integer NOT NULL,
    response_bytes integer NOT NULL,
    ip inet NOT NULL,
    user_agent text,
    requested_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT api_requests_method_check CHECK (method IN ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')),
    CONSTRAINT api_requests_duration_ms_check CHECK (duration_ms >= 0)
);
COMMENT ON TABLE ops.api_requests IS 'The tenant''s API request log (API calls, access log): one row per call to the public REST API, made with an API key or by an OAuth app, with response status and latency.';
COMMENT ON COLUMN ops.api_requests.request_id IS 'Unique request identifier returned in the X-Request-Id header; quoted in support tickets.';
COMMENT ON COLUMN ops.api_requests.api_key_id IS 'The API key that authenticated the call; NULL when the call used an OAuth token instead.';
COMMENT ON COLUMN ops.api_requests.oauth_client_id IS 'The OAuth app that made the call; NULL when the call used an API key.';
COMMENT ON COLUMN ops.api_requests.user_id IS 'The staff user on whose behalf an OAuth app acted; NULL for API-key calls and app-only tokens.';
COMMENT ON COLUMN ops.api_requests.method IS 'HTTP method: GET, POST, PUT, PATCH or DELETE.';
COMMENT ON COLUMN ops.api_requests.path IS 'Request path with ids filled in, e.g. /v2/orders/10234.';
COMMENT ON COLUMN ops.api_requests.route_template IS 'Matched route with placeholders, for grouping, e.g. /v2/orders/{id}.';
COMMENT ON COLUMN ops.api_requests.api_version IS 'API version requested, e.g. 2024-04-01.';
COMMENT ON COLUMN ops.api_requests.status_code IS 'HTTP response status, e.g. 200, 201, 401, 404, 429 (rate limited), 500.';
COMMENT ON COLUMN ops.api_requests.duration_ms IS 'Server processing time in milliseconds.';
COMMENT ON COLUMN ops.api_requests.request_bytes IS 'Size of the request body in bytes; 0 for GET.';
COMMENT ON COLUMN ops.api_requests.response_bytes IS 'Size of the response body in bytes.';
COMMENT ON COLUMN ops.api_requests.ip IS 'Client IP address.';
COMMENT ON COLUMN ops.api_requests.user_agent IS 'User-Agent header of the client; NULL when absent.';
COMMENT ON COLUMN ops.api_requests.requested_at IS 'When the request was received. Use for hourly/daily API-usage counts.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.audit_log (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    actor_type shared.actor_type NOT NULL,
    actor_user_id bigint,
    actor_api_key_id bigint,
    actor_oauth_client_id bigint,
    actor_contact_id bigint,
    action text NOT NULL,
    entity_schema text NOT NULL,
    entity_table text NOT NULL,
    entity_id bigint NOT NULL,
    changes jsonb NOT NULL,
    ip inet,
    user_agent text,
    request_id uuid,
    occurred_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE ops.audit_log IS 'The audit trail (audit log, change history, activity log): one row per change made to a business record — who did what, to which record, when, and the before/after values. Append-only.';
COMMENT ON COLUMN ops.audit_log.actor_type IS 'Kind of principal that made the change: user (staff), api_key, oauth_client, contact (customer self-service) or system (automation).';
COMMENT ON COLUMN ops.audit_log.actor_user_id IS 'The staff user who made the change; NULL when the actor is not a staff user (API key, OAuth app without user, customer, system).';
COMMENT ON COLUMN ops.audit_log.actor_api_key_id IS 'The API key used when actor_type = api_key; NULL otherwise.';
COMMENT ON COLUMN ops.audit_log.actor_oauth_client_id IS 'The OAuth app used when actor_type = oauth_client; NULL otherwise.';
COMMENT ON COLUMN ops.audit_log.actor_contact_id IS 'The customer contact who made the change in the self-service portal when actor_type = contact; NULL otherwise.';
COMMENT ON COLUMN ops.audit_log.action IS 'What was done, as <entity>.<verb>, e.g. order.update, invoice.void, user.role_granted, product.delete.';
COMMENT ON COLUMN ops.audit_log.entity_schema IS 'Schema of the changed record, e.g. orders, billing, auth.';
COMMENT ON COLUMN ops.audit_log.entity_table IS 'Table of the changed record, e.g. orders, invoices, users.';
COMMENT ON COLUMN ops.audit_log.entity_id IS 'id of the changed record in entity_schema.entity_table (polymorphic, so not a foreign key).';
COMMENT ON COLUMN ops.audit_log.changes IS 'Changed fields with old and new values, e.g. {"status":["open","paid"],"due_date":["2024-05-01","2024-05-15"]}; {} for actions without field changes.';
COMMENT ON COLUMN ops.audit_log.ip IS 'IP address the change came from; NULL for system changes.';
COMMENT ON COLUMN ops.audit_log.user_agent IS 'User-Agent of the client; NULL for system changes.';
COMMENT ON COLUMN ops.audit_log.request_id IS 'Request id of the API call or page action that made the change (joins ops.api_requests.request_id); NULL for system changes.';
COMMENT ON COLUMN ops.audit_log.occurred_at IS 'When the change was made.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.data_access_log (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    session_id bigint NOT NULL,
    purpose ops.access_purpose NOT NULL,
    case_id bigint,
    entity_schema text NOT NULL,
    entity_table text NOT NULL,
    entity_id bigint NOT NULL,
    subject_contact_id bigint,
    field_names text[] NOT NULL,
    ip inet NOT NULL,
    accessed_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE ops.data_access_log IS 'Sensitive-data access log (PII read log, privacy access trail): one row each time a staff user revealed protected fields of a record, with the declared purpose. Append-only; used for GDPR and SOC 2 reviews.';
COMMENT ON COLUMN ops.data_access_log.user_id IS 'The staff user who viewed the data.';
COMMENT ON COLUMN ops.data_access_log.session_id IS 'The back-office login session in which the data was viewed.';
COMMENT ON COLUMN ops.data_access_log.purpose IS 'Declared reason: customer_support, billing_inquiry, fraud_review, legal_request, data_export or other.';
COMMENT ON COLUMN ops.data_access_log.case_id IS 'The support ticket (case) that justified the access; NULL when no ticket was cited.';
COMMENT ON COLUMN ops.data_access_log.entity_schema IS 'Schema of the record viewed, e.g. crm, billing.';
COMMENT ON COLUMN ops.data_access_log.entity_table IS 'Table of the record viewed, e.g. contacts, payment_methods.';
COMMENT ON COLUMN ops.data_access_log.entity_id IS 'id of the record viewed in entity_schema.entity_table (polymorphic, so not a foreign key).';
COMMENT ON COLUMN ops.data_access_log.subject_contact_id IS 'The person (customer contact) the data is about; NULL when the record is not about a contact.';
COMMENT ON COLUMN ops.data_access_log.field_names IS 'Protected fields revealed, e.g. {email,phone,tax_number}.';
COMMENT ON COLUMN ops.data_access_log.ip IS 'IP address of the staff user.';
COMMENT ON COLUMN ops.data_access_log.accessed_at IS 'When the data was viewed.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.data_exports (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    requested_by_user_id bigint NOT NULL,
    kind ops.export_kind NOT NULL,
    file_format text NOT NULL,
    status ops.export_status NOT NULL,
    filters jsonb NOT NULL,
    saved_report_id bigint,
    subject_contact_id bigint,
    row_count integer,
    byte_size bigint,
    storage_key text,
    download_count integer NOT NULL DEFAULT 0,
    requested_at timestamptz NOT NULL,
    completed_at timestamptz,
    expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT data_exports_file_format_check CHECK (file_format IN ('csv', 'xlsx', 'json', 'parquet')),
    CONSTRAINT data_exports_completed_at_check CHECK (completed_at IS NULL OR completed_at >= requested_at)
);
COMMENT ON TABLE ops.data_exports IS 'Bulk data exports (downloads, CSV exports, data subject access requests) requested by staff: one row per export file, with its status and download link lifetime. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN ops.data_exports.requested_by_user_id IS 'Staff user who requested the export.';
COMMENT ON COLUMN ops.data_exports.kind IS 'What is exported: accounts, contacts, orders, invoices, products, audit_log, or data_subject_request (all data about one person).';
COMMENT ON COLUMN ops.data_exports.file_format IS 'File format: csv, xlsx, json or parquet.';
COMMENT ON COLUMN ops.data_exports.status IS 'requested, processing, ready (downloadable), expired (link lapsed) or failed.';
COMMENT ON COLUMN ops.data_exports.filters IS 'Filters applied, e.g. {"created_from":"2024-01-01","status":["paid"]}; {} = everything.';
COMMENT ON COLUMN ops.data_exports.saved_report_id IS 'The saved report whose results were exported; NULL for plain table exports.';
COMMENT ON COLUMN ops.data_exports.subject_contact_id IS 'The person whose data is exported, for a data_subject_request; NULL for other kinds.';
COMMENT ON COLUMN ops.data_exports.row_count IS 'Number of rows in the file; NULL until ready.';
COMMENT ON COLUMN ops.data_exports.byte_size IS 'File size in bytes; NULL until ready.';
COMMENT ON COLUMN ops.data_exports.storage_key IS 'Object-storage key of the file; NULL until ready or after the file was purged.';
COMMENT ON COLUMN ops.data_exports.download_count IS 'How many times the file was downloaded.';
COMMENT ON COLUMN ops.data_exports.requested_at IS 'When the export was requested.';
COMMENT ON COLUMN ops.data_exports.completed_at IS 'When the file was ready or the export failed; NULL while in progress.';
COMMENT ON COLUMN ops.data_exports.expires_at IS 'When the download link stops working; NULL until ready.';
COMMENT ON COLUMN ops.data_exports.deleted_at IS 'When staff deleted the export from the list; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.file_uploads (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    uploaded_by_user_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    background_job_id bigint,
    file_name text NOT NULL,
    content_type text NOT NULL,
    byte_size bigint NOT NULL,
    storage_key text NOT NULL,
    checksum_sha256 char(64) NOT NULL,
    purpose text NOT NULL,
    scan_status ops.scan_status NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT file_uploads_byte_size_check CHECK (byte_size > 0)
);
COMMENT ON TABLE ops.file_uploads IS 'Files (attachments, imports, documents) uploaded by staff in the back office, e.g. catalog import spreadsheets, logos, signed contracts. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN ops.file_uploads.uploaded_by_user_id IS 'Staff user who uploaded the file.';
COMMENT ON COLUMN ops.file_uploads.workspace_id IS 'The brand / business-unit workspace the file was uploaded in.';
COMMENT ON COLUMN ops.file_uploads.background_job_id IS 'The import job that processes the file; NULL when the file is not an import.';
COMMENT ON COLUMN ops.file_uploads.file_name IS 'Original file name, e.g. price_update_may.xlsx.';
COMMENT ON COLUMN ops.file_uploads.content_type IS 'MIME type, e.g. text/csv, application/pdf, image/png.';
COMMENT ON COLUMN ops.file_uploads.byte_size IS 'File size in bytes.';
COMMENT ON COLUMN ops.file_uploads.storage_key IS 'Object-storage key where the file is kept.';
COMMENT ON COLUMN ops.file_uploads.checksum_sha256 IS 'Hex SHA-256 digest of the content, used to detect duplicate uploads.';
COMMENT ON COLUMN ops.file_uploads.purpose IS 'Why the file was uploaded: catalog_import, customer_import, price_import, logo, contract, other.';
COMMENT ON COLUMN ops.file_uploads.scan_status IS 'Malware scan result: pending, clean, infected (quarantined) or failed.';
COMMENT ON COLUMN ops.file_uploads.deleted_at IS 'When the file was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.incidents (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    title text NOT NULL,
    summary text,
    severity ops.incident_severity NOT NULL,
    status ops.incident_status NOT NULL,
    affected_services text[] NOT NULL,
    integration_connection_id bigint,
    is_customer_facing boolean NOT NULL,
    reported_by_user_id bigint NOT NULL,
    commander_user_id bigint,
    started_at timestamptz NOT NULL,
    detected_at timestamptz NOT NULL,
    resolved_at timestamptz,
    postmortem_url text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT incidents_detected_at_check CHECK (detected_at >= started_at),
    CONSTRAINT incidents_resolved_at_check CHECK (resolved_at IS NULL OR resolved_at >= started_at)
);
COMMENT ON TABLE ops.incidents IS 'Operational incidents (outages, service disruptions) affecting a tenant''s operations, e.g. a failing ERP sync or checkout errors, with severity, commander and time to resolve.';
COMMENT ON COLUMN ops.incidents.title IS 'Short description, e.g. Orders not reaching NetSuite.';
COMMENT ON COLUMN ops.incidents.summary IS 'Longer description of impact and cause; NULL until written.';
COMMENT ON COLUMN ops.incidents.severity IS 'sev1 (critical outage) to sev4 (minor, no customer impact).';
COMMENT ON COLUMN ops.incidents.status IS 'investigating, identified, monitoring, resolved or postmortem_done.';
COMMENT ON COLUMN ops.incidents.affected_services IS 'Affected areas, e.g. {checkout,storefront,integrations,api}.';
COMMENT ON COLUMN ops.incidents.integration_connection_id IS 'The integration connection at fault; NULL when the incident is not caused by an integration.';
COMMENT ON COLUMN ops.incidents.is_customer_facing IS 'True when the tenant''s customers noticed the incident (storefront, portal or order flow affected).';
COMMENT ON COLUMN ops.incidents.reported_by_user_id IS 'Staff user who declared the incident.';
COMMENT ON COLUMN ops.incidents.commander_user_id IS 'Staff user leading the response (incident commander); NULL = no commander assigned yet.';
COMMENT ON COLUMN ops.incidents.started_at IS 'When the impact began.';
COMMENT ON COLUMN ops.incidents.detected_at IS 'When the incident was noticed; detected_at - started_at is time to detect.';
COMMENT ON COLUMN ops.incidents.resolved_at IS 'When impact ended; NULL = still open. resolved_at - started_at is time to resolve.';
COMMENT ON COLUMN ops.incidents.postmortem_url IS 'Link to the post-incident review; NULL when none was written.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE ops.incident_updates (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    incident_id bigint NOT NULL,
    author_user_id bigint NOT NULL,
    status ops.incident_status NOT NULL,
    severity ops.incident_severity NOT NULL,
    body text NOT NULL,
    is_public boolean NOT NULL,
    notified_channel shared.message_channel,
    posted_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE ops.incident_updates IS 'Status updates (incident timeline entries) posted during an incident: one row per update, with the incident''s status and severity at that moment.';
COMMENT ON COLUMN ops.incident_updates.incident_id IS 'The incident the update is about.';
COMMENT ON COLUMN ops.incident_updates.author_user_id IS 'Staff user who posted the update.';
COMMENT ON COLUMN ops.incident_updates.status IS 'Incident status set by this update (investigating, identified, monitoring, resolved, postmortem_done).';
COMMENT ON COLUMN ops.incident_updates.severity IS 'Incident severity as of this update (may be raised or lowered during the incident).';
COMMENT ON COLUMN ops.incident_updates.body IS 'Text of the update, e.g. "Fix deployed, monitoring order sync".';
COMMENT ON COLUMN ops.incident_updates.is_public IS 'True when the update was shown to the tenant''s customers on the status page; false = internal only.';
COMMENT ON COLUMN ops.incident_updates.notified_channel IS 'Channel subscribers were notified through (email, sms…); NULL = no notification sent.';
COMMENT ON COLUMN ops.incident_updates.posted_at IS 'When the update was posted.';

-- heron phase 2, domain 14 ops: keys and indexes for feature flags, integrations and syncs,
-- webhooks, background jobs, the API request log, the audit trail, data access and exports,
-- file uploads and incidents.

-- Primary keys ---------------------------------------------------------------------------------
ALTER TABLE ops.feature_flags ADD CONSTRAINT feature_flags_pkey PRIMARY KEY (id);
ALTER TABLE ops.integrations ADD CONSTRAINT integrations_pkey PRIMARY KEY (id);
ALTER TABLE ops.feature_flag_overrides ADD CONSTRAINT feature_flag_overrides_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.integration_connections ADD CONSTRAINT integration_connections_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.background_jobs ADD CONSTRAINT background_jobs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.job_runs ADD CONSTRAINT job_runs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.sync_runs ADD CONSTRAINT sync_runs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.webhook_endpoints ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.webhook_deliveries ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.api_requests ADD CONSTRAINT api_requests_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.audit_log ADD CONSTRAINT audit_log_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.data_access_log ADD CONSTRAINT data_access_log_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.data_exports ADD CONSTRAINT data_exports_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.file_uploads ADD CONSTRAINT file_uploads_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.incidents ADD CONSTRAINT incidents_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE ops.incident_updates ADD CONSTRAINT incident_updates_pkey PRIMARY KEY (tenant_id, id);

-- Unique constraints ---------------------------------------------------------------------------
ALTER TABLE ops.feature_flags ADD CONSTRAINT feature_flags_key_key UNIQUE (key);
ALTER TABLE ops.integrations ADD CONSTRAINT integrations_code_key UNIQUE (code);
ALTER TABLE ops.feature_flag_overrides ADD CONSTRAINT feature_flag_overrides_tenant_id_feature_flag_id_key UNIQUE (tenant_id, feature_flag_id);

-- Foreign keys: global catalogues --------------------------------------------------------------
ALTER TABLE ops.feature_flags ADD CONSTRAINT feature_flags_minimum_plan_id_fkey FOREIGN KEY (minimum_plan_id) REFERENCES tenancy.plans (id);
ALTER TABLE ops.integrations ADD CONSTRAINT integrations_minimum_plan_id_fkey FOREIGN KEY (minimum_plan_id) REFERENCES tenancy.plans (id);

-- Foreign keys: feature_flag_overrides ---------------------------------------------------------
ALTER TABLE ops.feature_flag_overrides ADD CONSTRAINT feature_flag_overrides_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.feature_flag_overrides ADD CONSTRAINT feature_flag_overrides_feature_flag_id_fkey FOREIGN KEY (feature_flag_id) REFERENCES ops.feature_flags (id);
ALTER TABLE ops.feature_flag_overrides ADD CONSTRAINT feature_flag_overrides_set_by_user_id_fkey FOREIGN KEY (tenant_id, set_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: integration_connections --------------------------------------------------------
ALTER TABLE ops.integration_connections ADD CONSTRAINT integration_connections_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.integration_connections ADD CONSTRAINT integration_connections_integration_id_fkey FOREIGN KEY (integration_id) REFERENCES ops.integrations (id);
ALTER TABLE ops.integration_connections ADD CONSTRAINT integration_connections_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE ops.integration_connections ADD CONSTRAINT integration_connections_connected_by_user_id_fkey FOREIGN KEY (tenant_id, connected_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: background_jobs ----------------------------------------------------------------
ALTER TABLE ops.background_jobs ADD CONSTRAINT background_jobs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.background_jobs ADD CONSTRAINT background_jobs_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE ops.background_jobs ADD CONSTRAINT background_jobs_integration_connection_id_fkey FOREIGN KEY (tenant_id, integration_connection_id) REFERENCES ops.integration_connections (tenant_id, id);

-- Foreign keys: job_runs -----------------------------------------------------------------------
ALTER TABLE ops.job_runs ADD CONSTRAINT job_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.job_runs ADD CONSTRAINT job_runs_background_job_id_fkey FOREIGN KEY (tenant_id, background_job_id) REFERENCES ops.background_jobs (tenant_id, id);
ALTER TABLE ops.job_runs ADD CONSTRAINT job_runs_retry_of_job_run_id_fkey FOREIGN KEY (tenant_id, retry_of_job_run_id) REFERENCES ops.job_runs (tenant_id, id);

-- Foreign keys: sync_runs ----------------------------------------------------------------------
ALTER TABLE ops.sync_runs ADD CONSTRAINT sync_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.sync_runs ADD CONSTRAINT sync_runs_integration_connection_id_fkey FOREIGN KEY (tenant_id, integration_connection_id) REFERENCES ops.integration_connections (tenant_id, id);
ALTER TABLE ops.sync_runs ADD CONSTRAINT sync_runs_job_run_id_fkey FOREIGN KEY (tenant_id, job_run_id) REFERENCES ops.job_runs (tenant_id, id);
ALTER TABLE ops.sync_runs ADD CONSTRAINT sync_runs_triggered_by_user_id_fkey FOREIGN KEY (tenant_id, triggered_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: webhook_endpoints --------------------------------------------------------------
ALTER TABLE ops.webhook_endpoints ADD CONSTRAINT webhook_endpoints_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.webhook_endpoints ADD CONSTRAINT webhook_endpoints_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE ops.webhook_endpoints ADD CONSTRAINT webhook_endpoints_oauth_client_id_fkey FOREIGN KEY (tenant_id, oauth_client_id) REFERENCES auth.oauth_clients (tenant_id, id);

-- Foreign keys: webhook_deliveries -------------------------------------------------------------
ALTER TABLE ops.webhook_deliveries ADD CONSTRAINT webhook_deliveries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_endpoint_id_fkey FOREIGN KEY (tenant_id, webhook_endpoint_id) REFERENCES ops.webhook_endpoints (tenant_id, id);

-- Foreign keys: api_requests -------------------------------------------------------------------
ALTER TABLE ops.api_requests ADD CONSTRAINT api_requests_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.api_requests ADD CONSTRAINT api_requests_api_key_id_fkey FOREIGN KEY (tenant_id, api_key_id) REFERENCES auth.api_keys (tenant_id, id);
ALTER TABLE ops.api_requests ADD CONSTRAINT api_requests_oauth_client_id_fkey FOREIGN KEY (tenant_id, oauth_client_id) REFERENCES auth.oauth_clients (tenant_id, id);
ALTER TABLE ops.api_requests ADD CONSTRAINT api_requests_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: audit_log ----------------------------------------------------------------------
ALTER TABLE ops.audit_log ADD CONSTRAINT audit_log_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.audit_log ADD CONSTRAINT audit_log_actor_user_id_fkey FOREIGN KEY (tenant_id, actor_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE ops.audit_log ADD CONSTRAINT audit_log_actor_api_key_id_fkey FOREIGN KEY (tenant_id, actor_api_key_id) REFERENCES auth.api_keys (tenant_id, id);
ALTER TABLE ops.audit_log ADD CONSTRAINT audit_log_actor_oauth_client_id_fkey FOREIGN KEY (tenant_id, actor_oauth_client_id) REFERENCES auth.oauth_clients (tenant_id, id);
ALTER TABLE ops.audit_log ADD CONSTRAINT audit_log_actor_contact_id_fkey FOREIGN KEY (tenant_id, actor_contact_id) REFERENCES crm.contacts (tenant_id, id);

-- Foreign keys: data_access_log ----------------------------------------------------------------
ALTER TABLE ops.data_access_log ADD CONSTRAINT data_access_log_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.data_access_log ADD CONSTRAINT data_access_log_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE ops.data_access_log ADD CONSTRAINT data_access_log_session_id_fkey FOREIGN KEY (tenant_id, session_id) REFERENCES auth.sessions (tenant_id, id);
ALTER TABLE ops.data_access_log ADD CONSTRAINT data_access_log_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE ops.data_access_log ADD CONSTRAINT data_access_log_subject_contact_id_fkey FOREIGN KEY (tenant_id, subject_contact_id) REFERENCES crm.contacts (tenant_id, id);

-- Foreign keys: data_exports -------------------------------------------------------------------
ALTER TABLE ops.data_exports ADD CONSTRAINT data_exports_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.data_exports ADD CONSTRAINT data_exports_requested_by_user_id_fkey FOREIGN KEY (tenant_id, requested_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE ops.data_exports ADD CONSTRAINT data_exports_saved_report_id_fkey FOREIGN KEY (tenant_id, saved_report_id) REFERENCES analytics.saved_reports (tenant_id, id);
ALTER TABLE ops.data_exports ADD CONSTRAINT data_exports_subject_contact_id_fkey FOREIGN KEY (tenant_id, subject_contact_id) REFERENCES crm.contacts (tenant_id, id);

-- Foreign keys: file_uploads -------------------------------------------------------------------
ALTER TABLE ops.file_uploads ADD CONSTRAINT file_uploads_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.file_uploads ADD CONSTRAINT file_uploads_uploaded_by_user_id_fkey FOREIGN KEY (tenant_id, uploaded_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE ops.file_uploads ADD CONSTRAINT file_uploads_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE ops.file_uploads ADD CONSTRAINT file_uploads_background_job_id_fkey FOREIGN KEY (tenant_id, background_job_id) REFERENCES ops.background_jobs (tenant_id, id);

-- Foreign keys: incidents ----------------------------------------------------------------------
ALTER TABLE ops.incidents ADD CONSTRAINT incidents_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.incidents ADD CONSTRAINT incidents_integration_connection_id_fkey FOREIGN KEY (tenant_id, integration_connection_id) REFERENCES ops.integration_connections (tenant_id, id);
ALTER TABLE ops.incidents ADD CONSTRAINT incidents_reported_by_user_id_fkey FOREIGN KEY (tenant_id, reported_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE ops.incidents ADD CONSTRAINT incidents_commander_user_id_fkey FOREIGN KEY (tenant_id, commander_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: incident_updates ---------------------------------------------------------------
ALTER TABLE ops.incident_updates ADD CONSTRAINT incident_updates_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE ops.incident_updates ADD CONSTRAINT incident_updates_incident_id_fkey FOREIGN KEY (tenant_id, incident_id) REFERENCES ops.incidents (tenant_id, id);
ALTER TABLE ops.incident_updates ADD CONSTRAINT incident_updates_author_user_id_fkey FOREIGN KEY (tenant_id, author_user_id) REFERENCES auth.users (tenant_id, id);

-- Indexes: join paths of the volume tables and time columns used for bucketing -----------------
CREATE INDEX integration_connections_integration_id_idx ON ops.integration_connections (tenant_id, integration_id);
CREATE INDEX job_runs_background_job_id_idx ON ops.job_runs (tenant_id, background_job_id);
CREATE INDEX job_runs_started_at_idx ON ops.job_runs (tenant_id, started_at);
CREATE INDEX sync_runs_integration_connection_id_started_at_idx ON ops.sync_runs (tenant_id, integration_connection_id, started_at);
CREATE INDEX webhook_deliveries_webhook_endpoint_id_idx ON ops.webhook_deliveries (tenant_id, webhook_endpoint_id);
CREATE INDEX webhook_deliveries_delivered_at_idx ON ops.webhook_deliveries (tenant_id, delivered_at);
CREATE INDEX api_requests_requested_at_idx ON ops.api_requests (tenant_id, requested_at);
CREATE INDEX api_requests_api_key_id_idx ON ops.api_requests (tenant_id, api_key_id);
CREATE INDEX audit_log_occurred_at_idx ON ops.audit_log (tenant_id, occurred_at);
CREATE INDEX audit_log_entity_table_entity_id_idx ON ops.audit_log (tenant_id, entity_table, entity_id);
CREATE INDEX audit_log_actor_user_id_idx ON ops.audit_log (tenant_id, actor_user_id);
CREATE INDEX data_access_log_accessed_at_idx ON ops.data_access_log (tenant_id, accessed_at);
CREATE INDEX data_access_log_user_id_idx ON ops.data_access_log (tenant_id, user_id);
CREATE INDEX data_exports_requested_at_idx ON ops.data_exports (tenant_id, requested_at);
CREATE INDEX incidents_started_at_idx ON ops.incidents (tenant_id, started_at);
CREATE INDEX incident_updates_incident_id_idx ON ops.incident_updates (tenant_id, incident_id);

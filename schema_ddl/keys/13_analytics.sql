-- heron phase 2, domain 13 analytics: keys and indexes for storefront behaviour (devices, visits,
-- page views, searches, events), A/B tests, dashboards, reports, funnels and daily sales rollups.

-- Primary keys ---------------------------------------------------------------------------------
ALTER TABLE analytics.devices ADD CONSTRAINT devices_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.page_views ADD CONSTRAINT page_views_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.event_definitions ADD CONSTRAINT event_definitions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.events ADD CONSTRAINT events_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.search_queries ADD CONSTRAINT search_queries_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.experiments ADD CONSTRAINT experiments_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.experiment_variants ADD CONSTRAINT experiment_variants_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.saved_reports ADD CONSTRAINT saved_reports_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.report_runs ADD CONSTRAINT report_runs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.funnels ADD CONSTRAINT funnels_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.dashboards ADD CONSTRAINT dashboards_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.dashboard_widgets ADD CONSTRAINT dashboard_widgets_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE analytics.daily_sales_rollups ADD CONSTRAINT daily_sales_rollups_pkey PRIMARY KEY (tenant_id, id);

-- Unique constraints ---------------------------------------------------------------------------
ALTER TABLE analytics.devices ADD CONSTRAINT devices_tenant_id_device_fingerprint_key UNIQUE (tenant_id, device_fingerprint);
ALTER TABLE analytics.event_definitions ADD CONSTRAINT event_definitions_tenant_id_name_key UNIQUE (tenant_id, name);
ALTER TABLE analytics.experiments ADD CONSTRAINT experiments_tenant_id_key_key UNIQUE (tenant_id, key);
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_tenant_id_experiment_id_device_id_key UNIQUE (tenant_id, experiment_id, device_id);
ALTER TABLE analytics.dashboards ADD CONSTRAINT dashboards_tenant_id_slug_key UNIQUE (tenant_id, slug);
ALTER TABLE analytics.daily_sales_rollups ADD CONSTRAINT daily_sales_rollups_tenant_id_sales_channel_id_rollup_date_key UNIQUE (tenant_id, sales_channel_id, rollup_date);

-- Foreign keys: devices ------------------------------------------------------------------------
ALTER TABLE analytics.devices ADD CONSTRAINT devices_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.devices ADD CONSTRAINT devices_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE analytics.devices ADD CONSTRAINT devices_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE analytics.devices ADD CONSTRAINT devices_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);

-- Foreign keys: web_sessions -------------------------------------------------------------------
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_device_id_fkey FOREIGN KEY (tenant_id, device_id) REFERENCES analytics.devices (tenant_id, id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_sales_channel_id_fkey FOREIGN KEY (tenant_id, sales_channel_id) REFERENCES orders.sales_channels (tenant_id, id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_tracking_link_id_fkey FOREIGN KEY (tenant_id, tracking_link_id) REFERENCES marketing.tracking_links (tenant_id, id);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE analytics.web_sessions ADD CONSTRAINT web_sessions_converted_order_id_fkey FOREIGN KEY (tenant_id, converted_order_id) REFERENCES orders.orders (tenant_id, id);

-- Foreign keys: page_views ---------------------------------------------------------------------
ALTER TABLE analytics.page_views ADD CONSTRAINT page_views_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.page_views ADD CONSTRAINT page_views_web_session_id_fkey FOREIGN KEY (tenant_id, web_session_id) REFERENCES analytics.web_sessions (tenant_id, id);
ALTER TABLE analytics.page_views ADD CONSTRAINT page_views_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE analytics.page_views ADD CONSTRAINT page_views_category_id_fkey FOREIGN KEY (tenant_id, category_id) REFERENCES catalog.categories (tenant_id, id);

-- Foreign keys: event_definitions --------------------------------------------------------------
ALTER TABLE analytics.event_definitions ADD CONSTRAINT event_definitions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.event_definitions ADD CONSTRAINT event_definitions_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE analytics.event_definitions ADD CONSTRAINT event_definitions_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: events -------------------------------------------------------------------------
ALTER TABLE analytics.events ADD CONSTRAINT events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.events ADD CONSTRAINT events_event_definition_id_fkey FOREIGN KEY (tenant_id, event_definition_id) REFERENCES analytics.event_definitions (tenant_id, id);
ALTER TABLE analytics.events ADD CONSTRAINT events_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE analytics.events ADD CONSTRAINT events_web_session_id_fkey FOREIGN KEY (tenant_id, web_session_id) REFERENCES analytics.web_sessions (tenant_id, id);
ALTER TABLE analytics.events ADD CONSTRAINT events_device_id_fkey FOREIGN KEY (tenant_id, device_id) REFERENCES analytics.devices (tenant_id, id);
ALTER TABLE analytics.events ADD CONSTRAINT events_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE analytics.events ADD CONSTRAINT events_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: search_queries -----------------------------------------------------------------
ALTER TABLE analytics.search_queries ADD CONSTRAINT search_queries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.search_queries ADD CONSTRAINT search_queries_web_session_id_fkey FOREIGN KEY (tenant_id, web_session_id) REFERENCES analytics.web_sessions (tenant_id, id);
ALTER TABLE analytics.search_queries ADD CONSTRAINT search_queries_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE analytics.search_queries ADD CONSTRAINT search_queries_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE analytics.search_queries ADD CONSTRAINT search_queries_clicked_product_id_fkey FOREIGN KEY (tenant_id, clicked_product_id) REFERENCES catalog.products (tenant_id, id);

-- Foreign keys: experiments --------------------------------------------------------------------
ALTER TABLE analytics.experiments ADD CONSTRAINT experiments_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.experiments ADD CONSTRAINT experiments_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE analytics.experiments ADD CONSTRAINT experiments_primary_event_definition_id_fkey FOREIGN KEY (tenant_id, primary_event_definition_id) REFERENCES analytics.event_definitions (tenant_id, id);
ALTER TABLE analytics.experiments ADD CONSTRAINT experiments_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE analytics.experiments ADD CONSTRAINT experiments_winning_variant_id_fkey FOREIGN KEY (tenant_id, winning_variant_id) REFERENCES analytics.experiment_variants (tenant_id, id);

-- Foreign keys: experiment_variants ------------------------------------------------------------
ALTER TABLE analytics.experiment_variants ADD CONSTRAINT experiment_variants_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.experiment_variants ADD CONSTRAINT experiment_variants_experiment_id_fkey FOREIGN KEY (tenant_id, experiment_id) REFERENCES analytics.experiments (tenant_id, id);
ALTER TABLE analytics.experiment_variants ADD CONSTRAINT experiment_variants_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: experiment_assignments ---------------------------------------------------------
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_experiment_id_fkey FOREIGN KEY (tenant_id, experiment_id) REFERENCES analytics.experiments (tenant_id, id);
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES analytics.experiment_variants (tenant_id, id);
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_device_id_fkey FOREIGN KEY (tenant_id, device_id) REFERENCES analytics.devices (tenant_id, id);
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE analytics.experiment_assignments ADD CONSTRAINT experiment_assignments_web_session_id_fkey FOREIGN KEY (tenant_id, web_session_id) REFERENCES analytics.web_sessions (tenant_id, id);

-- Foreign keys: saved_reports ------------------------------------------------------------------
ALTER TABLE analytics.saved_reports ADD CONSTRAINT saved_reports_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.saved_reports ADD CONSTRAINT saved_reports_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE analytics.saved_reports ADD CONSTRAINT saved_reports_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: report_runs --------------------------------------------------------------------
ALTER TABLE analytics.report_runs ADD CONSTRAINT report_runs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.report_runs ADD CONSTRAINT report_runs_saved_report_id_fkey FOREIGN KEY (tenant_id, saved_report_id) REFERENCES analytics.saved_reports (tenant_id, id);
ALTER TABLE analytics.report_runs ADD CONSTRAINT report_runs_run_by_user_id_fkey FOREIGN KEY (tenant_id, run_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: funnels ------------------------------------------------------------------------
ALTER TABLE analytics.funnels ADD CONSTRAINT funnels_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.funnels ADD CONSTRAINT funnels_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE analytics.funnels ADD CONSTRAINT funnels_entry_event_definition_id_fkey FOREIGN KEY (tenant_id, entry_event_definition_id) REFERENCES analytics.event_definitions (tenant_id, id);
ALTER TABLE analytics.funnels ADD CONSTRAINT funnels_goal_event_definition_id_fkey FOREIGN KEY (tenant_id, goal_event_definition_id) REFERENCES analytics.event_definitions (tenant_id, id);
ALTER TABLE analytics.funnels ADD CONSTRAINT funnels_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: dashboards ---------------------------------------------------------------------
ALTER TABLE analytics.dashboards ADD CONSTRAINT dashboards_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.dashboards ADD CONSTRAINT dashboards_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE analytics.dashboards ADD CONSTRAINT dashboards_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: dashboard_widgets --------------------------------------------------------------
ALTER TABLE analytics.dashboard_widgets ADD CONSTRAINT dashboard_widgets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.dashboard_widgets ADD CONSTRAINT dashboard_widgets_dashboard_id_fkey FOREIGN KEY (tenant_id, dashboard_id) REFERENCES analytics.dashboards (tenant_id, id);
ALTER TABLE analytics.dashboard_widgets ADD CONSTRAINT dashboard_widgets_saved_report_id_fkey FOREIGN KEY (tenant_id, saved_report_id) REFERENCES analytics.saved_reports (tenant_id, id);
ALTER TABLE analytics.dashboard_widgets ADD CONSTRAINT dashboard_widgets_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Foreign keys: daily_sales_rollups ------------------------------------------------------------
ALTER TABLE analytics.daily_sales_rollups ADD CONSTRAINT daily_sales_rollups_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE analytics.daily_sales_rollups ADD CONSTRAINT daily_sales_rollups_sales_channel_id_fkey FOREIGN KEY (tenant_id, sales_channel_id) REFERENCES orders.sales_channels (tenant_id, id);
ALTER TABLE analytics.daily_sales_rollups ADD CONSTRAINT daily_sales_rollups_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE analytics.daily_sales_rollups ADD CONSTRAINT daily_sales_rollups_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);

-- Indexes: join paths of the volume tables and time columns used for bucketing -----------------
CREATE INDEX web_sessions_device_id_idx ON analytics.web_sessions (tenant_id, device_id);
CREATE INDEX web_sessions_started_at_idx ON analytics.web_sessions (tenant_id, started_at);
CREATE INDEX web_sessions_contact_id_idx ON analytics.web_sessions (tenant_id, contact_id);
CREATE INDEX page_views_web_session_id_idx ON analytics.page_views (tenant_id, web_session_id);
CREATE INDEX page_views_viewed_at_idx ON analytics.page_views (tenant_id, viewed_at);
CREATE INDEX events_event_definition_id_occurred_at_idx ON analytics.events (tenant_id, event_definition_id, occurred_at);
CREATE INDEX events_occurred_at_idx ON analytics.events (tenant_id, occurred_at);
CREATE INDEX events_web_session_id_idx ON analytics.events (tenant_id, web_session_id);
CREATE INDEX events_contact_id_idx ON analytics.events (tenant_id, contact_id);
CREATE INDEX search_queries_searched_at_idx ON analytics.search_queries (tenant_id, searched_at);
CREATE INDEX experiment_variants_experiment_id_idx ON analytics.experiment_variants (tenant_id, experiment_id);
CREATE INDEX experiment_assignments_variant_id_idx ON analytics.experiment_assignments (tenant_id, variant_id);
CREATE INDEX report_runs_saved_report_id_idx ON analytics.report_runs (tenant_id, saved_report_id);
CREATE INDEX dashboard_widgets_dashboard_id_idx ON analytics.dashboard_widgets (tenant_id, dashboard_id);
CREATE INDEX daily_sales_rollups_rollup_date_idx ON analytics.daily_sales_rollups (tenant_id, rollup_date);

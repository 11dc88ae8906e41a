-- heron phase 2, domain 01 tenancy: primary keys, unique keys, foreign keys and indexes of the
-- platform, its tenants and the shared reference data. Also holds the schema's one declared
-- back-reference, tenancy.tenants.owner_user_id -> auth.users (needs keys/02_auth.sql applied first).

-- Primary keys ---------------------------------------------------------------------------------

ALTER TABLE tenancy.currencies ADD CONSTRAINT currencies_pkey PRIMARY KEY (code);
ALTER TABLE tenancy.countries ADD CONSTRAINT countries_pkey PRIMARY KEY (code);
ALTER TABLE tenancy.exchange_rates ADD CONSTRAINT exchange_rates_pkey PRIMARY KEY (id);
ALTER TABLE tenancy.languages ADD CONSTRAINT languages_pkey PRIMARY KEY (code);
ALTER TABLE tenancy.timezones ADD CONSTRAINT timezones_pkey PRIMARY KEY (name);
ALTER TABLE tenancy.data_regions ADD CONSTRAINT data_regions_pkey PRIMARY KEY (id);
ALTER TABLE tenancy.plans ADD CONSTRAINT plans_pkey PRIMARY KEY (id);
ALTER TABLE tenancy.plan_features ADD CONSTRAINT plan_features_pkey PRIMARY KEY (id);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_pkey PRIMARY KEY (id);
ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE tenancy.tenant_subscriptions ADD CONSTRAINT tenant_subscriptions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE tenancy.tenant_settings ADD CONSTRAINT tenant_settings_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE tenancy.tenant_domains ADD CONSTRAINT tenant_domains_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE tenancy.tenant_usage_daily ADD CONSTRAINT tenant_usage_daily_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE tenancy.platform_invoices ADD CONSTRAINT platform_invoices_pkey PRIMARY KEY (tenant_id, id);

-- Unique keys ----------------------------------------------------------------------------------

ALTER TABLE tenancy.countries ADD CONSTRAINT countries_iso3_key UNIQUE (iso3);
ALTER TABLE tenancy.exchange_rates ADD CONSTRAINT exchange_rates_currency_code_rate_date_key UNIQUE (currency_code, rate_date);
ALTER TABLE tenancy.data_regions ADD CONSTRAINT data_regions_code_key UNIQUE (code);
ALTER TABLE tenancy.plans ADD CONSTRAINT plans_code_key UNIQUE (code);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_name_key UNIQUE (name);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_slug_key UNIQUE (slug);
ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_tenant_id_slug_key UNIQUE (tenant_id, slug);
ALTER TABLE tenancy.tenant_domains ADD CONSTRAINT tenant_domains_tenant_id_hostname_key UNIQUE (tenant_id, hostname);
ALTER TABLE tenancy.tenant_usage_daily ADD CONSTRAINT tenant_usage_daily_tenant_id_usage_date_key UNIQUE (tenant_id, usage_date);
ALTER TABLE tenancy.platform_invoices ADD CONSTRAINT platform_invoices_tenant_id_invoice_number_key UNIQUE (tenant_id, invoice_number);

-- Foreign keys: reference data -----------------------------------------------------------------

ALTER TABLE tenancy.countries ADD CONSTRAINT countries_default_currency_code_fkey FOREIGN KEY (default_currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE tenancy.exchange_rates ADD CONSTRAINT exchange_rates_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE tenancy.timezones ADD CONSTRAINT timezones_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE tenancy.data_regions ADD CONSTRAINT data_regions_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE tenancy.plans ADD CONSTRAINT plans_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE tenancy.plan_features ADD CONSTRAINT plan_features_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES tenancy.plans (id);
ALTER TABLE tenancy.plan_features ADD CONSTRAINT plan_features_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);

-- Foreign keys: tenants ------------------------------------------------------------------------

ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES tenancy.plans (id);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_default_currency_code_fkey FOREIGN KEY (default_currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_data_region_id_fkey FOREIGN KEY (data_region_id) REFERENCES tenancy.data_regions (id);

-- Foreign keys: tenant-scoped tables -----------------------------------------------------------

ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_parent_workspace_id_fkey FOREIGN KEY (tenant_id, parent_workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_default_currency_code_fkey FOREIGN KEY (default_currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);
ALTER TABLE tenancy.workspaces ADD CONSTRAINT workspaces_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);

ALTER TABLE tenancy.tenant_subscriptions ADD CONSTRAINT tenant_subscriptions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE tenancy.tenant_subscriptions ADD CONSTRAINT tenant_subscriptions_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES tenancy.plans (id);
ALTER TABLE tenancy.tenant_subscriptions ADD CONSTRAINT tenant_subscriptions_replaced_subscription_id_fkey FOREIGN KEY (tenant_id, replaced_subscription_id) REFERENCES tenancy.tenant_subscriptions (tenant_id, id);
ALTER TABLE tenancy.tenant_subscriptions ADD CONSTRAINT tenant_subscriptions_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);

ALTER TABLE tenancy.tenant_settings ADD CONSTRAINT tenant_settings_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE tenancy.tenant_settings ADD CONSTRAINT tenant_settings_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);

ALTER TABLE tenancy.tenant_domains ADD CONSTRAINT tenant_domains_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE tenancy.tenant_domains ADD CONSTRAINT tenant_domains_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE tenancy.tenant_domains ADD CONSTRAINT tenant_domains_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);

ALTER TABLE tenancy.tenant_usage_daily ADD CONSTRAINT tenant_usage_daily_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE tenancy.tenant_usage_daily ADD CONSTRAINT tenant_usage_daily_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES tenancy.plans (id);
ALTER TABLE tenancy.tenant_usage_daily ADD CONSTRAINT tenant_usage_daily_tenant_subscription_id_fkey FOREIGN KEY (tenant_id, tenant_subscription_id) REFERENCES tenancy.tenant_subscriptions (tenant_id, id);

ALTER TABLE tenancy.platform_invoices ADD CONSTRAINT platform_invoices_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE tenancy.platform_invoices ADD CONSTRAINT platform_invoices_tenant_subscription_id_fkey FOREIGN KEY (tenant_id, tenant_subscription_id) REFERENCES tenancy.tenant_subscriptions (tenant_id, id);
ALTER TABLE tenancy.platform_invoices ADD CONSTRAINT platform_invoices_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES tenancy.plans (id);
ALTER TABLE tenancy.platform_invoices ADD CONSTRAINT platform_invoices_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE tenancy.platform_invoices ADD CONSTRAINT platform_invoices_billing_country_code_fkey FOREIGN KEY (billing_country_code) REFERENCES tenancy.countries (code);

-- Indexes --------------------------------------------------------------------------------------

CREATE INDEX exchange_rates_rate_date_idx ON tenancy.exchange_rates (rate_date);
CREATE INDEX plan_features_plan_id_idx ON tenancy.plan_features (plan_id);
CREATE INDEX tenants_plan_id_idx ON tenancy.tenants (plan_id);
CREATE INDEX tenants_signed_up_at_idx ON tenancy.tenants (signed_up_at);
CREATE INDEX tenant_subscriptions_tenant_id_plan_id_idx ON tenancy.tenant_subscriptions (tenant_id, plan_id);
CREATE INDEX tenant_subscriptions_tenant_id_started_at_idx ON tenancy.tenant_subscriptions (tenant_id, started_at);
CREATE INDEX tenant_settings_tenant_id_workspace_id_idx ON tenancy.tenant_settings (tenant_id, workspace_id);
CREATE INDEX tenant_usage_daily_tenant_id_plan_id_idx ON tenancy.tenant_usage_daily (tenant_id, plan_id);
CREATE INDEX platform_invoices_tenant_id_tenant_subscription_id_idx ON tenancy.platform_invoices (tenant_id, tenant_subscription_id);
CREATE INDEX platform_invoices_tenant_id_issued_at_idx ON tenancy.platform_invoices (tenant_id, issued_at);

-- Back-reference (the only one in the schema) ---------------------------------------------------
-- Points forward to domain 02: it can only be created once auth.users has its primary key
-- (keys/02_auth.sql), so a loader applies it last.

ALTER TABLE tenancy.tenants ADD CONSTRAINT tenants_owner_user_id_fkey FOREIGN KEY (id, owner_user_id) REFERENCES auth.users (tenant_id, id);
COMMENT ON CONSTRAINT tenants_owner_user_id_fkey ON tenancy.tenants IS 'back-reference: the owner is a user of the same tenant, and users belong to tenants';

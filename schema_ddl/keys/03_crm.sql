-- heron schema, phase 2, domain 03 crm: primary keys, unique keys, foreign keys and indexes of
-- the customer (account), contact, lead and sales-pipeline tables.

-- crm.accounts
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_account_number_key UNIQUE (tenant_id, account_number);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_parent_account_id_fkey FOREIGN KEY (tenant_id, parent_account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_billing_country_code_fkey FOREIGN KEY (billing_country_code) REFERENCES tenancy.countries (code);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_preferred_currency_code_fkey FOREIGN KEY (preferred_currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);
ALTER TABLE crm.accounts ADD CONSTRAINT accounts_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX accounts_owner_user_id_idx ON crm.accounts (tenant_id, owner_user_id);
CREATE INDEX accounts_parent_account_id_idx ON crm.accounts (tenant_id, parent_account_id);

-- crm.contacts
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_email_key UNIQUE (tenant_id, email);
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.contacts ADD CONSTRAINT contacts_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX contacts_account_id_idx ON crm.contacts (tenant_id, account_id);

-- crm.addresses
ALTER TABLE crm.addresses ADD CONSTRAINT addresses_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.addresses ADD CONSTRAINT addresses_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.addresses ADD CONSTRAINT addresses_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.addresses ADD CONSTRAINT addresses_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE crm.addresses ADD CONSTRAINT addresses_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX addresses_account_id_idx ON crm.addresses (tenant_id, account_id);

-- crm.account_segments
ALTER TABLE crm.account_segments ADD CONSTRAINT account_segments_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.account_segments ADD CONSTRAINT account_segments_code_key UNIQUE (tenant_id, code);
ALTER TABLE crm.account_segments ADD CONSTRAINT account_segments_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.account_segments ADD CONSTRAINT account_segments_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.account_segments ADD CONSTRAINT account_segments_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- crm.segment_memberships
ALTER TABLE crm.segment_memberships ADD CONSTRAINT segment_memberships_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.segment_memberships ADD CONSTRAINT segment_memberships_segment_id_account_id_key UNIQUE (tenant_id, segment_id, account_id);
ALTER TABLE crm.segment_memberships ADD CONSTRAINT segment_memberships_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.segment_memberships ADD CONSTRAINT segment_memberships_segment_id_fkey FOREIGN KEY (tenant_id, segment_id) REFERENCES crm.account_segments (tenant_id, id);
ALTER TABLE crm.segment_memberships ADD CONSTRAINT segment_memberships_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.segment_memberships ADD CONSTRAINT segment_memberships_added_by_user_id_fkey FOREIGN KEY (tenant_id, added_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX segment_memberships_account_id_idx ON crm.segment_memberships (tenant_id, account_id);

-- crm.account_team_members
ALTER TABLE crm.account_team_members ADD CONSTRAINT account_team_members_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.account_team_members ADD CONSTRAINT account_team_members_account_id_user_id_key UNIQUE (tenant_id, account_id, user_id);
ALTER TABLE crm.account_team_members ADD CONSTRAINT account_team_members_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.account_team_members ADD CONSTRAINT account_team_members_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.account_team_members ADD CONSTRAINT account_team_members_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.account_team_members ADD CONSTRAINT account_team_members_team_id_fkey FOREIGN KEY (tenant_id, team_id) REFERENCES auth.teams (tenant_id, id);
ALTER TABLE crm.account_team_members ADD CONSTRAINT account_team_members_assigned_by_user_id_fkey FOREIGN KEY (tenant_id, assigned_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX account_team_members_user_id_idx ON crm.account_team_members (tenant_id, user_id);

-- crm.lead_sources
ALTER TABLE crm.lead_sources ADD CONSTRAINT lead_sources_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.lead_sources ADD CONSTRAINT lead_sources_code_key UNIQUE (tenant_id, code);
ALTER TABLE crm.lead_sources ADD CONSTRAINT lead_sources_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.lead_sources ADD CONSTRAINT lead_sources_default_owner_user_id_fkey FOREIGN KEY (tenant_id, default_owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.lead_sources ADD CONSTRAINT lead_sources_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- crm.leads
ALTER TABLE crm.leads ADD CONSTRAINT leads_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.leads ADD CONSTRAINT leads_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.leads ADD CONSTRAINT leads_lead_source_id_fkey FOREIGN KEY (tenant_id, lead_source_id) REFERENCES crm.lead_sources (tenant_id, id);
ALTER TABLE crm.leads ADD CONSTRAINT leads_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.leads ADD CONSTRAINT leads_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE crm.leads ADD CONSTRAINT leads_converted_account_id_fkey FOREIGN KEY (tenant_id, converted_account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.leads ADD CONSTRAINT leads_converted_contact_id_fkey FOREIGN KEY (tenant_id, converted_contact_id) REFERENCES crm.contacts (tenant_id, id);
CREATE INDEX leads_lead_source_id_idx ON crm.leads (tenant_id, lead_source_id);
CREATE INDEX leads_created_at_idx ON crm.leads (tenant_id, created_at);

-- crm.pipeline_stages
ALTER TABLE crm.pipeline_stages ADD CONSTRAINT pipeline_stages_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.pipeline_stages ADD CONSTRAINT pipeline_stages_code_key UNIQUE (tenant_id, code);
ALTER TABLE crm.pipeline_stages ADD CONSTRAINT pipeline_stages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.pipeline_stages ADD CONSTRAINT pipeline_stages_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE crm.pipeline_stages ADD CONSTRAINT pipeline_stages_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- crm.opportunities
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_opportunity_number_key UNIQUE (tenant_id, opportunity_number);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_primary_contact_id_fkey FOREIGN KEY (tenant_id, primary_contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_stage_id_fkey FOREIGN KEY (tenant_id, stage_id) REFERENCES crm.pipeline_stages (tenant_id, id);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_lead_id_fkey FOREIGN KEY (tenant_id, lead_id) REFERENCES crm.leads (tenant_id, id);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE crm.opportunities ADD CONSTRAINT opportunities_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX opportunities_account_id_idx ON crm.opportunities (tenant_id, account_id);
CREATE INDEX opportunities_stage_id_idx ON crm.opportunities (tenant_id, stage_id);
CREATE INDEX opportunities_expected_close_date_idx ON crm.opportunities (tenant_id, expected_close_date);

-- crm.opportunity_contacts
ALTER TABLE crm.opportunity_contacts ADD CONSTRAINT opportunity_contacts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.opportunity_contacts ADD CONSTRAINT opportunity_contacts_opportunity_id_contact_id_key UNIQUE (tenant_id, opportunity_id, contact_id);
ALTER TABLE crm.opportunity_contacts ADD CONSTRAINT opportunity_contacts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.opportunity_contacts ADD CONSTRAINT opportunity_contacts_opportunity_id_fkey FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm.opportunities (tenant_id, id);
ALTER TABLE crm.opportunity_contacts ADD CONSTRAINT opportunity_contacts_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE crm.opportunity_contacts ADD CONSTRAINT opportunity_contacts_added_by_user_id_fkey FOREIGN KEY (tenant_id, added_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX opportunity_contacts_contact_id_idx ON crm.opportunity_contacts (tenant_id, contact_id);

-- crm.activities
ALTER TABLE crm.activities ADD CONSTRAINT activities_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.activities ADD CONSTRAINT activities_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.activities ADD CONSTRAINT activities_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.activities ADD CONSTRAINT activities_lead_id_fkey FOREIGN KEY (tenant_id, lead_id) REFERENCES crm.leads (tenant_id, id);
ALTER TABLE crm.activities ADD CONSTRAINT activities_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE crm.activities ADD CONSTRAINT activities_opportunity_id_fkey FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm.opportunities (tenant_id, id);
ALTER TABLE crm.activities ADD CONSTRAINT activities_performed_by_user_id_fkey FOREIGN KEY (tenant_id, performed_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX activities_account_id_idx ON crm.activities (tenant_id, account_id);
CREATE INDEX activities_occurred_at_idx ON crm.activities (tenant_id, occurred_at);

-- crm.crm_tasks
ALTER TABLE crm.crm_tasks ADD CONSTRAINT crm_tasks_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.crm_tasks ADD CONSTRAINT crm_tasks_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.crm_tasks ADD CONSTRAINT crm_tasks_assigned_to_user_id_fkey FOREIGN KEY (tenant_id, assigned_to_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.crm_tasks ADD CONSTRAINT crm_tasks_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.crm_tasks ADD CONSTRAINT crm_tasks_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.crm_tasks ADD CONSTRAINT crm_tasks_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE crm.crm_tasks ADD CONSTRAINT crm_tasks_opportunity_id_fkey FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm.opportunities (tenant_id, id);
CREATE INDEX crm_tasks_assigned_to_user_id_idx ON crm.crm_tasks (tenant_id, assigned_to_user_id);

-- crm.notes
ALTER TABLE crm.notes ADD CONSTRAINT notes_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.notes ADD CONSTRAINT notes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.notes ADD CONSTRAINT notes_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.notes ADD CONSTRAINT notes_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE crm.notes ADD CONSTRAINT notes_opportunity_id_fkey FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm.opportunities (tenant_id, id);
ALTER TABLE crm.notes ADD CONSTRAINT notes_author_user_id_fkey FOREIGN KEY (tenant_id, author_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX notes_account_id_idx ON crm.notes (tenant_id, account_id);

-- crm.account_health_scores
ALTER TABLE crm.account_health_scores ADD CONSTRAINT account_health_scores_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.account_health_scores ADD CONSTRAINT account_health_scores_account_id_scored_on_key UNIQUE (tenant_id, account_id, scored_on);
ALTER TABLE crm.account_health_scores ADD CONSTRAINT account_health_scores_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.account_health_scores ADD CONSTRAINT account_health_scores_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.account_health_scores ADD CONSTRAINT account_health_scores_scored_by_user_id_fkey FOREIGN KEY (tenant_id, scored_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX account_health_scores_scored_on_idx ON crm.account_health_scores (tenant_id, scored_on);

-- crm.credit_limits
ALTER TABLE crm.credit_limits ADD CONSTRAINT credit_limits_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE crm.credit_limits ADD CONSTRAINT credit_limits_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE crm.credit_limits ADD CONSTRAINT credit_limits_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE crm.credit_limits ADD CONSTRAINT credit_limits_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE crm.credit_limits ADD CONSTRAINT credit_limits_requested_by_user_id_fkey FOREIGN KEY (tenant_id, requested_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE crm.credit_limits ADD CONSTRAINT credit_limits_approved_by_user_id_fkey FOREIGN KEY (tenant_id, approved_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX credit_limits_account_id_idx ON crm.credit_limits (tenant_id, account_id);

-- heron schema, phase 2, domain 11 marketing: primary keys, unique keys, foreign keys and
-- indexes of campaigns, audiences, ad spend, attribution, forms, referrals, loyalty and consents.

-- Primary keys first, so that foreign keys between tables of this domain can be added in any order.
ALTER TABLE marketing.campaigns ADD CONSTRAINT campaigns_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.audiences ADD CONSTRAINT audiences_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.audience_members ADD CONSTRAINT audience_members_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.ad_accounts ADD CONSTRAINT ad_accounts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.ad_spend_daily ADD CONSTRAINT ad_spend_daily_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.tracking_links ADD CONSTRAINT tracking_links_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.landing_pages ADD CONSTRAINT landing_pages_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.forms ADD CONSTRAINT forms_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.form_submissions ADD CONSTRAINT form_submissions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.referral_programs ADD CONSTRAINT referral_programs_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.loyalty_accounts ADD CONSTRAINT loyalty_accounts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.loyalty_transactions ADD CONSTRAINT loyalty_transactions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE marketing.consents ADD CONSTRAINT consents_pkey PRIMARY KEY (tenant_id, id);

-- ---------------------------------------------------------------- campaigns
ALTER TABLE marketing.campaigns ADD CONSTRAINT campaigns_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE marketing.campaigns ADD CONSTRAINT campaigns_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.campaigns ADD CONSTRAINT campaigns_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE marketing.campaigns ADD CONSTRAINT campaigns_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE marketing.campaigns ADD CONSTRAINT campaigns_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE marketing.campaigns ADD CONSTRAINT campaigns_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX campaigns_tenant_id_starts_at_idx ON marketing.campaigns (tenant_id, starts_at);

-- ---------------------------------------------------------------- audiences
ALTER TABLE marketing.audiences ADD CONSTRAINT audiences_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.audiences ADD CONSTRAINT audiences_segment_id_fkey FOREIGN KEY (tenant_id, segment_id) REFERENCES crm.account_segments (tenant_id, id);
ALTER TABLE marketing.audiences ADD CONSTRAINT audiences_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- audience_members
ALTER TABLE marketing.audience_members ADD CONSTRAINT audience_members_tenant_id_audience_id_contact_id_key UNIQUE (tenant_id, audience_id, contact_id);
ALTER TABLE marketing.audience_members ADD CONSTRAINT audience_members_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.audience_members ADD CONSTRAINT audience_members_audience_id_fkey FOREIGN KEY (tenant_id, audience_id) REFERENCES marketing.audiences (tenant_id, id);
ALTER TABLE marketing.audience_members ADD CONSTRAINT audience_members_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE marketing.audience_members ADD CONSTRAINT audience_members_added_by_user_id_fkey FOREIGN KEY (tenant_id, added_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX audience_members_tenant_id_contact_id_idx ON marketing.audience_members (tenant_id, contact_id);

-- ---------------------------------------------------------------- ad_accounts
ALTER TABLE marketing.ad_accounts ADD CONSTRAINT ad_accounts_tenant_id_external_account_id_key UNIQUE (tenant_id, external_account_id);
ALTER TABLE marketing.ad_accounts ADD CONSTRAINT ad_accounts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.ad_accounts ADD CONSTRAINT ad_accounts_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE marketing.ad_accounts ADD CONSTRAINT ad_accounts_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);
ALTER TABLE marketing.ad_accounts ADD CONSTRAINT ad_accounts_connected_by_user_id_fkey FOREIGN KEY (tenant_id, connected_by_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- ad_spend_daily
ALTER TABLE marketing.ad_spend_daily ADD CONSTRAINT ad_spend_daily_tenant_id_campaign_id_spend_date_key UNIQUE (tenant_id, campaign_id, spend_date);
ALTER TABLE marketing.ad_spend_daily ADD CONSTRAINT ad_spend_daily_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.ad_spend_daily ADD CONSTRAINT ad_spend_daily_campaign_id_fkey FOREIGN KEY (tenant_id, campaign_id) REFERENCES marketing.campaigns (tenant_id, id);
ALTER TABLE marketing.ad_spend_daily ADD CONSTRAINT ad_spend_daily_ad_account_id_fkey FOREIGN KEY (tenant_id, ad_account_id) REFERENCES marketing.ad_accounts (tenant_id, id);
ALTER TABLE marketing.ad_spend_daily ADD CONSTRAINT ad_spend_daily_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX ad_spend_daily_tenant_id_spend_date_idx ON marketing.ad_spend_daily (tenant_id, spend_date);
CREATE INDEX ad_spend_daily_tenant_id_ad_account_id_idx ON marketing.ad_spend_daily (tenant_id, ad_account_id);

-- ---------------------------------------------------------------- tracking_links
ALTER TABLE marketing.tracking_links ADD CONSTRAINT tracking_links_tenant_id_short_code_key UNIQUE (tenant_id, short_code);
ALTER TABLE marketing.tracking_links ADD CONSTRAINT tracking_links_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.tracking_links ADD CONSTRAINT tracking_links_campaign_id_fkey FOREIGN KEY (tenant_id, campaign_id) REFERENCES marketing.campaigns (tenant_id, id);
ALTER TABLE marketing.tracking_links ADD CONSTRAINT tracking_links_landing_page_id_fkey FOREIGN KEY (tenant_id, landing_page_id) REFERENCES marketing.landing_pages (tenant_id, id);
ALTER TABLE marketing.tracking_links ADD CONSTRAINT tracking_links_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX tracking_links_tenant_id_campaign_id_idx ON marketing.tracking_links (tenant_id, campaign_id);

-- ---------------------------------------------------------------- attribution_touches
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_campaign_id_fkey FOREIGN KEY (tenant_id, campaign_id) REFERENCES marketing.campaigns (tenant_id, id);
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_tracking_link_id_fkey FOREIGN KEY (tenant_id, tracking_link_id) REFERENCES marketing.tracking_links (tenant_id, id);
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE marketing.attribution_touches ADD CONSTRAINT attribution_touches_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX attribution_touches_tenant_id_order_id_idx ON marketing.attribution_touches (tenant_id, order_id);
CREATE INDEX attribution_touches_tenant_id_campaign_id_idx ON marketing.attribution_touches (tenant_id, campaign_id);
CREATE INDEX attribution_touches_tenant_id_touched_at_idx ON marketing.attribution_touches (tenant_id, touched_at);

-- ---------------------------------------------------------------- landing_pages
ALTER TABLE marketing.landing_pages ADD CONSTRAINT landing_pages_tenant_id_slug_key UNIQUE (tenant_id, slug);
ALTER TABLE marketing.landing_pages ADD CONSTRAINT landing_pages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.landing_pages ADD CONSTRAINT landing_pages_campaign_id_fkey FOREIGN KEY (tenant_id, campaign_id) REFERENCES marketing.campaigns (tenant_id, id);
ALTER TABLE marketing.landing_pages ADD CONSTRAINT landing_pages_form_id_fkey FOREIGN KEY (tenant_id, form_id) REFERENCES marketing.forms (tenant_id, id);
ALTER TABLE marketing.landing_pages ADD CONSTRAINT landing_pages_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE marketing.landing_pages ADD CONSTRAINT landing_pages_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- forms
ALTER TABLE marketing.forms ADD CONSTRAINT forms_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.forms ADD CONSTRAINT forms_campaign_id_fkey FOREIGN KEY (tenant_id, campaign_id) REFERENCES marketing.campaigns (tenant_id, id);
ALTER TABLE marketing.forms ADD CONSTRAINT forms_lead_source_id_fkey FOREIGN KEY (tenant_id, lead_source_id) REFERENCES crm.lead_sources (tenant_id, id);
ALTER TABLE marketing.forms ADD CONSTRAINT forms_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE marketing.forms ADD CONSTRAINT forms_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- form_submissions
ALTER TABLE marketing.form_submissions ADD CONSTRAINT form_submissions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.form_submissions ADD CONSTRAINT form_submissions_form_id_fkey FOREIGN KEY (tenant_id, form_id) REFERENCES marketing.forms (tenant_id, id);
ALTER TABLE marketing.form_submissions ADD CONSTRAINT form_submissions_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE marketing.form_submissions ADD CONSTRAINT form_submissions_lead_id_fkey FOREIGN KEY (tenant_id, lead_id) REFERENCES crm.leads (tenant_id, id);
ALTER TABLE marketing.form_submissions ADD CONSTRAINT form_submissions_landing_page_id_fkey FOREIGN KEY (tenant_id, landing_page_id) REFERENCES marketing.landing_pages (tenant_id, id);
CREATE INDEX form_submissions_tenant_id_form_id_idx ON marketing.form_submissions (tenant_id, form_id);
CREATE INDEX form_submissions_tenant_id_submitted_at_idx ON marketing.form_submissions (tenant_id, submitted_at);

-- ---------------------------------------------------------------- referral_programs
ALTER TABLE marketing.referral_programs ADD CONSTRAINT referral_programs_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE marketing.referral_programs ADD CONSTRAINT referral_programs_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.referral_programs ADD CONSTRAINT referral_programs_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE marketing.referral_programs ADD CONSTRAINT referral_programs_referred_discount_id_fkey FOREIGN KEY (tenant_id, referred_discount_id) REFERENCES pricing.discounts (tenant_id, id);
ALTER TABLE marketing.referral_programs ADD CONSTRAINT referral_programs_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- referrals
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_tenant_id_referral_code_key UNIQUE (tenant_id, referral_code);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_program_id_fkey FOREIGN KEY (tenant_id, program_id) REFERENCES marketing.referral_programs (tenant_id, id);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_referrer_account_id_fkey FOREIGN KEY (tenant_id, referrer_account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_referrer_contact_id_fkey FOREIGN KEY (tenant_id, referrer_contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_referred_account_id_fkey FOREIGN KEY (tenant_id, referred_account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_first_order_id_fkey FOREIGN KEY (tenant_id, first_order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE marketing.referrals ADD CONSTRAINT referrals_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX referrals_tenant_id_program_id_idx ON marketing.referrals (tenant_id, program_id);
CREATE INDEX referrals_tenant_id_referrer_account_id_idx ON marketing.referrals (tenant_id, referrer_account_id);

-- ---------------------------------------------------------------- loyalty_accounts
ALTER TABLE marketing.loyalty_accounts ADD CONSTRAINT loyalty_accounts_tenant_id_contact_id_key UNIQUE (tenant_id, contact_id);
ALTER TABLE marketing.loyalty_accounts ADD CONSTRAINT loyalty_accounts_tenant_id_membership_number_key UNIQUE (tenant_id, membership_number);
ALTER TABLE marketing.loyalty_accounts ADD CONSTRAINT loyalty_accounts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.loyalty_accounts ADD CONSTRAINT loyalty_accounts_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE marketing.loyalty_accounts ADD CONSTRAINT loyalty_accounts_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);

-- ---------------------------------------------------------------- loyalty_transactions
ALTER TABLE marketing.loyalty_transactions ADD CONSTRAINT loyalty_transactions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.loyalty_transactions ADD CONSTRAINT loyalty_transactions_loyalty_account_id_fkey FOREIGN KEY (tenant_id, loyalty_account_id) REFERENCES marketing.loyalty_accounts (tenant_id, id);
ALTER TABLE marketing.loyalty_transactions ADD CONSTRAINT loyalty_transactions_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
CREATE INDEX loyalty_transactions_tenant_id_loyalty_account_id_idx ON marketing.loyalty_transactions (tenant_id, loyalty_account_id);
CREATE INDEX loyalty_transactions_tenant_id_occurred_at_idx ON marketing.loyalty_transactions (tenant_id, occurred_at);

-- ---------------------------------------------------------------- consents
ALTER TABLE marketing.consents ADD CONSTRAINT consents_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE marketing.consents ADD CONSTRAINT consents_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE marketing.consents ADD CONSTRAINT consents_form_submission_id_fkey FOREIGN KEY (tenant_id, form_submission_id) REFERENCES marketing.form_submissions (tenant_id, id);
CREATE INDEX consents_tenant_id_contact_id_idx ON marketing.consents (tenant_id, contact_id);

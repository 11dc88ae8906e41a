-- heron phase 1, domain 01 tenancy: the platform itself. Its tenants (the merchants that run their
-- wholesale business on heron), the platform plans they pay for, their subscriptions, domains,
-- workspaces and metered usage, plus the platform-wide reference data every other domain uses
-- (countries, currencies, daily exchange rates, languages, time zones, hosting regions).

CREATE TYPE tenancy.tenant_status AS ENUM ('trial', 'active', 'past_due', 'suspended', 'churned');
CREATE TYPE tenancy.feature_kind AS ENUM ('flag', 'limit', 'metered', 'addon');
CREATE TYPE tenancy.tenant_subscription_status AS ENUM ('trialing', 'active', 'past_due', 'cancelled', 'expired');
CREATE TYPE tenancy.domain_purpose AS ENUM ('storefront', 'customer_portal', 'help_center', 'email_sending');
CREATE TYPE tenancy.domain_verification_status AS ENUM ('pending', 'verified', 'failed', 'expired');
CREATE TYPE tenancy.workspace_kind AS ENUM ('brand', 'business_unit', 'region', 'sandbox');
CREATE TYPE tenancy.platform_invoice_status AS ENUM ('draft', 'open', 'paid', 'void', 'uncollectible');

-- ---------------------------------------------------------------------------------------------
-- Reference data (global)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE tenancy.currencies (
    code char(3) NOT NULL,
    numeric_code char(3),
    name text NOT NULL,
    symbol text NOT NULL,
    minor_units smallint NOT NULL DEFAULT 2,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT currencies_minor_units_check CHECK (minor_units >= 0)
);
COMMENT ON TABLE tenancy.currencies IS 'ISO 4217 currencies known to the platform: one row per currency (USD, EUR, GBP…). Every money column in the schema carries a currency_code pointing here; amounts in different currencies must be converted with tenancy.exchange_rates before they are summed.';
COMMENT ON COLUMN tenancy.currencies.code IS 'ISO 4217 alphabetic currency code, e.g. USD, EUR, GBP, JPY. Primary key.';
COMMENT ON COLUMN tenancy.currencies.numeric_code IS 'ISO 4217 three-digit numeric code as text, e.g. 840 for USD, 978 for EUR. NULL for codes without an official numeric code.';
COMMENT ON COLUMN tenancy.currencies.name IS 'English name of the currency, e.g. US Dollar, Euro, Pound Sterling.';
COMMENT ON COLUMN tenancy.currencies.symbol IS 'Display symbol used when formatting amounts, e.g. $, €, £, ¥.';
COMMENT ON COLUMN tenancy.currencies.minor_units IS 'Number of decimal places of the minor unit (2 for USD cents, 0 for JPY, 3 for KWD).';
COMMENT ON COLUMN tenancy.currencies.is_active IS 'True when tenants can price, invoice and settle in this currency; false for currencies kept only for history.';

CREATE TABLE tenancy.countries (
    code char(2) NOT NULL,
    iso3 char(3) NOT NULL,
    numeric_code char(3),
    name text NOT NULL,
    official_name text,
    region text NOT NULL,
    subregion text,
    default_currency_code char(3) NOT NULL,
    calling_code text,
    is_eu boolean NOT NULL DEFAULT false,
    has_postal_codes boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE tenancy.countries IS 'ISO 3166-1 countries and territories: one row per country. Used for tenant, workspace, customer and warehouse locations, billing addresses, tax and geo-IP lookups.';
COMMENT ON COLUMN tenancy.countries.code IS 'ISO 3166-1 alpha-2 country code, e.g. US, DE, GB, FR. Primary key.';
COMMENT ON COLUMN tenancy.countries.iso3 IS 'ISO 3166-1 alpha-3 country code, e.g. USA, DEU, GBR.';
COMMENT ON COLUMN tenancy.countries.numeric_code IS 'ISO 3166-1 three-digit numeric code as text, e.g. 840 for the United States. NULL when not assigned.';
COMMENT ON COLUMN tenancy.countries.name IS 'Common English short name, e.g. Germany, United States.';
COMMENT ON COLUMN tenancy.countries.official_name IS 'Formal name, e.g. Federal Republic of Germany. NULL when identical to the short name.';
COMMENT ON COLUMN tenancy.countries.region IS 'Continent-level region: Africa, Americas, Asia, Europe or Oceania.';
COMMENT ON COLUMN tenancy.countries.subregion IS 'UN geoscheme sub-region, e.g. Western Europe, Northern America, South-eastern Asia. NULL when not classified.';
COMMENT ON COLUMN tenancy.countries.default_currency_code IS 'Legal-tender currency normally used in the country (ISO 4217), e.g. EUR for DE, USD for US.';
COMMENT ON COLUMN tenancy.countries.calling_code IS 'International telephone dialling prefix including the plus sign, e.g. +49, +1. NULL when unknown.';
COMMENT ON COLUMN tenancy.countries.is_eu IS 'True for member states of the European Union (relevant for VAT and data-residency rules).';
COMMENT ON COLUMN tenancy.countries.has_postal_codes IS 'True when addresses in this country use postal codes (false e.g. for Hong Kong, Ireland before Eircode).';

CREATE TABLE tenancy.exchange_rates (
    id bigint NOT NULL,
    currency_code char(3) NOT NULL,
    rate_date date NOT NULL,
    rate_to_usd numeric(18,8) NOT NULL,
    rate_from_usd numeric(18,8) NOT NULL,
    source text NOT NULL,
    is_provisional boolean NOT NULL DEFAULT false,
    fetched_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT exchange_rates_rate_to_usd_check CHECK (rate_to_usd > 0),
    CONSTRAINT exchange_rates_rate_from_usd_check CHECK (rate_from_usd > 0)
);
COMMENT ON TABLE tenancy.exchange_rates IS 'Daily reference FX rates (currency conversion rates) of each currency against the US dollar: exactly one row per currency per calendar day. Convert an amount to USD by multiplying it by rate_to_usd of the matching rate_date; needed before summing money across currencies.';
COMMENT ON COLUMN tenancy.exchange_rates.currency_code IS 'Currency the rate is quoted for (ISO 4217). USD itself has rate 1.';
COMMENT ON COLUMN tenancy.exchange_rates.rate_date IS 'Calendar date the rate applies to (end-of-day reference rate). Every currency has exactly one row for every calendar day of the window, weekends included.';
COMMENT ON COLUMN tenancy.exchange_rates.rate_to_usd IS 'USD value of one unit of the currency on rate_date, e.g. 1.08 for EUR. Multiply an amount in this currency by it to get USD.';
COMMENT ON COLUMN tenancy.exchange_rates.rate_from_usd IS 'Units of this currency bought by one US dollar on rate_date (the inverse of rate_to_usd), e.g. 0.926 for EUR.';
COMMENT ON COLUMN tenancy.exchange_rates.source IS 'Provider the rate was taken from, e.g. ecb, openexchangerates, manual.';
COMMENT ON COLUMN tenancy.exchange_rates.is_provisional IS 'True when the rate is an intraday estimate that may still be replaced by the official end-of-day fixing.';
COMMENT ON COLUMN tenancy.exchange_rates.fetched_at IS 'When the platform downloaded the rate from the source.';

CREATE TABLE tenancy.languages (
    code char(2) NOT NULL,
    iso3 char(3) NOT NULL,
    name text NOT NULL,
    native_name text NOT NULL,
    is_rtl boolean NOT NULL DEFAULT false,
    is_storefront_supported boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE tenancy.languages IS 'ISO 639-1 languages (locales) used to localise the back office, storefronts and customer messages: one row per language.';
COMMENT ON COLUMN tenancy.languages.code IS 'ISO 639-1 two-letter language code, e.g. en, de, fr, es, ja. Primary key.';
COMMENT ON COLUMN tenancy.languages.iso3 IS 'ISO 639-2/T three-letter language code, e.g. eng, deu, fra.';
COMMENT ON COLUMN tenancy.languages.name IS 'English name of the language, e.g. German.';
COMMENT ON COLUMN tenancy.languages.native_name IS 'Name of the language in itself, e.g. Deutsch, Français, 日本語.';
COMMENT ON COLUMN tenancy.languages.is_rtl IS 'True for right-to-left scripts such as Arabic and Hebrew.';
COMMENT ON COLUMN tenancy.languages.is_storefront_supported IS 'True when storefronts, templates and the back office can be translated into this language.';

CREATE TABLE tenancy.timezones (
    name text NOT NULL,
    country_code char(2),
    abbreviation text NOT NULL,
    utc_offset_minutes integer NOT NULL,
    dst_offset_minutes integer NOT NULL,
    has_dst boolean NOT NULL DEFAULT false,
    is_canonical boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE tenancy.timezones IS 'IANA time zones (tz database) that tenants, workspaces, staff and warehouses operate in: one row per zone name. Used to turn timestamptz values into local business days.';
COMMENT ON COLUMN tenancy.timezones.name IS 'IANA zone name, e.g. Europe/Berlin, America/New_York, Asia/Tokyo, UTC. Primary key.';
COMMENT ON COLUMN tenancy.timezones.country_code IS 'Country the zone belongs to (ISO 3166-1 alpha-2). NULL for zones not tied to one country such as UTC or Etc/GMT+5.';
COMMENT ON COLUMN tenancy.timezones.abbreviation IS 'Usual standard-time abbreviation, e.g. CET, EST, JST.';
COMMENT ON COLUMN tenancy.timezones.utc_offset_minutes IS 'Standard-time offset from UTC in minutes, e.g. 60 for Europe/Berlin, -300 for America/New_York.';
COMMENT ON COLUMN tenancy.timezones.dst_offset_minutes IS 'Offset from UTC in minutes while daylight saving time is in force; equal to utc_offset_minutes when the zone has no DST.';
COMMENT ON COLUMN tenancy.timezones.has_dst IS 'True when the zone observes daylight saving time.';
COMMENT ON COLUMN tenancy.timezones.is_canonical IS 'True for canonical zone names; false for backward-compatible aliases such as US/Eastern.';

CREATE TABLE tenancy.data_regions (
    id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    cloud_provider text NOT NULL,
    provider_region text NOT NULL,
    country_code char(2) NOT NULL,
    is_default boolean NOT NULL DEFAULT false,
    allows_new_tenants boolean NOT NULL DEFAULT true,
    launched_at timestamptz NOT NULL,
    retired_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT data_regions_retired_at_check CHECK (retired_at IS NULL OR retired_at >= launched_at)
);
COMMENT ON TABLE tenancy.data_regions IS 'Hosting regions (data residency locations) a tenant''s data can be pinned to, e.g. EU (Frankfurt) or US East: one row per region the platform runs in.';
COMMENT ON COLUMN tenancy.data_regions.code IS 'Short stable code of the region, e.g. eu-central, us-east, ap-southeast.';
COMMENT ON COLUMN tenancy.data_regions.name IS 'Display name shown to tenants, e.g. European Union (Frankfurt).';
COMMENT ON COLUMN tenancy.data_regions.cloud_provider IS 'Infrastructure provider hosting the region: aws, gcp or azure.';
COMMENT ON COLUMN tenancy.data_regions.provider_region IS 'The provider''s own region identifier, e.g. eu-central-1, us-east1.';
COMMENT ON COLUMN tenancy.data_regions.country_code IS 'Country where the data physically resides (ISO 3166-1 alpha-2).';
COMMENT ON COLUMN tenancy.data_regions.is_default IS 'True for the region new tenants are placed in when they do not choose one.';
COMMENT ON COLUMN tenancy.data_regions.allows_new_tenants IS 'False when the region is closed to sign-ups (full or being retired); existing tenants stay.';
COMMENT ON COLUMN tenancy.data_regions.launched_at IS 'When the region went live.';
COMMENT ON COLUMN tenancy.data_regions.retired_at IS 'When the region was decommissioned. NULL while it is in service.';

-- ---------------------------------------------------------------------------------------------
-- The platform's own plans (global)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE tenancy.plans (
    id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    description text,
    tier smallint NOT NULL,
    billing_interval shared.billing_interval NOT NULL DEFAULT 'month',
    currency_code char(3) NOT NULL,
    monthly_price numeric(14,2) NOT NULL,
    annual_price numeric(14,2),
    extra_seat_price numeric(14,2),
    seat_limit integer,
    api_call_limit_daily bigint,
    storage_limit_gb integer,
    trial_days smallint NOT NULL DEFAULT 14,
    is_public boolean NOT NULL DEFAULT true,
    is_legacy boolean NOT NULL DEFAULT false,
    retired_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT plans_monthly_price_check CHECK (monthly_price >= 0),
    CONSTRAINT plans_trial_days_check CHECK (trial_days >= 0),
    CONSTRAINT plans_tier_check CHECK (tier BETWEEN 1 AND 5)
);
COMMENT ON TABLE tenancy.plans IS 'The platform''s own plans (SaaS pricing tiers, editions) sold to tenants, e.g. starter, growth, enterprise: one row per plan version. Not to be confused with subscriptions.plans, the recurring offerings a tenant sells to its own customers.';
COMMENT ON COLUMN tenancy.plans.code IS 'Stable machine code of the plan, e.g. starter, growth, enterprise, growth_2022.';
COMMENT ON COLUMN tenancy.plans.name IS 'Marketing name shown on the pricing page, e.g. Growth.';
COMMENT ON COLUMN tenancy.plans.description IS 'Short marketing description of who the plan is for. NULL when not written.';
COMMENT ON COLUMN tenancy.plans.tier IS 'Rank of the plan from 1 (entry level) to 5 (top tier); used to tell upgrades from downgrades.';
COMMENT ON COLUMN tenancy.plans.billing_interval IS 'Default billing interval the plan is sold on (usually month or year).';
COMMENT ON COLUMN tenancy.plans.currency_code IS 'Currency of the list prices on this row (ISO 4217), usually USD.';
COMMENT ON COLUMN tenancy.plans.monthly_price IS 'List price per month for the base seats, in currency_code. 0 for free plans.';
COMMENT ON COLUMN tenancy.plans.annual_price IS 'List price for a full year paid upfront, in currency_code. NULL when the plan cannot be bought annually.';
COMMENT ON COLUMN tenancy.plans.extra_seat_price IS 'Monthly price of each staff seat above seat_limit, in currency_code. NULL when extra seats cannot be bought.';
COMMENT ON COLUMN tenancy.plans.seat_limit IS 'Number of staff users (seats) included. NULL means unlimited seats.';
COMMENT ON COLUMN tenancy.plans.api_call_limit_daily IS 'API requests per day included before throttling or overage. NULL means unlimited.';
COMMENT ON COLUMN tenancy.plans.storage_limit_gb IS 'File and media storage included, in gigabytes. NULL means unlimited.';
COMMENT ON COLUMN tenancy.plans.trial_days IS 'Length of the free trial in days offered when a tenant signs up on this plan; 0 means no trial.';
COMMENT ON COLUMN tenancy.plans.is_public IS 'True when the plan is listed on the public pricing page; false for custom or sales-negotiated plans.';
COMMENT ON COLUMN tenancy.plans.is_legacy IS 'True for grandfathered plans that existing tenants keep but new tenants cannot choose.';
COMMENT ON COLUMN tenancy.plans.retired_at IS 'When the plan stopped being sold. NULL while it is on sale.';

CREATE TABLE tenancy.plan_features (
    id bigint NOT NULL,
    plan_id bigint NOT NULL,
    feature_key text NOT NULL,
    feature_name text NOT NULL,
    kind tenancy.feature_kind NOT NULL,
    is_enabled boolean NOT NULL DEFAULT true,
    limit_value bigint,
    unit text,
    currency_code char(3) NOT NULL,
    overage_unit_price numeric(14,4),
    sort_order smallint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE tenancy.plan_features IS 'Entitlements of the platform plans: one row per plan and capability or limit it includes (SSO, API access, custom domains, number of warehouses…). Drives the feature matrix on the pricing page.';
COMMENT ON COLUMN tenancy.plan_features.plan_id IS 'Platform plan the feature belongs to.';
COMMENT ON COLUMN tenancy.plan_features.feature_key IS 'Machine key of the capability, e.g. sso, api_access, custom_domains, max_warehouses, b2b_price_lists.';
COMMENT ON COLUMN tenancy.plan_features.feature_name IS 'Human label of the capability shown in the feature matrix, e.g. Single sign-on.';
COMMENT ON COLUMN tenancy.plan_features.kind IS 'flag = on/off capability; limit = capped quantity; metered = billed per unit above the limit; addon = purchasable extra.';
COMMENT ON COLUMN tenancy.plan_features.is_enabled IS 'True when the plan includes the capability; false rows document that it is explicitly excluded.';
COMMENT ON COLUMN tenancy.plan_features.limit_value IS 'Included quantity for limit and metered features, in unit. NULL means unlimited or not applicable (flags).';
COMMENT ON COLUMN tenancy.plan_features.unit IS 'Unit of limit_value, e.g. seats, warehouses, api_calls_per_day, gb. NULL for flags.';
COMMENT ON COLUMN tenancy.plan_features.currency_code IS 'Currency of overage_unit_price (ISO 4217), normally the plan''s currency.';
COMMENT ON COLUMN tenancy.plan_features.overage_unit_price IS 'Price charged per unit used above limit_value, in currency_code. NULL when usage above the limit is blocked instead of billed.';
COMMENT ON COLUMN tenancy.plan_features.sort_order IS 'Display position of the feature in the pricing matrix (ascending).';

-- ---------------------------------------------------------------------------------------------
-- Tenants (global: this table IS the tenant directory)
-- ---------------------------------------------------------------------------------------------

CREATE TABLE tenancy.tenants (
    id bigint NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    legal_name text NOT NULL,
    status tenancy.tenant_status NOT NULL DEFAULT 'trial',
    plan_id bigint NOT NULL,
    owner_user_id bigint,
    country_code char(2) NOT NULL,
    default_currency_code char(3) NOT NULL,
    timezone_name text NOT NULL,
    language_code char(2) NOT NULL,
    data_region_id bigint NOT NULL,
    industry text,
    employee_band text,
    vat_number text,
    billing_email text NOT NULL,
    website_url text,
    is_test boolean NOT NULL DEFAULT false,
    signed_up_at timestamptz NOT NULL,
    trial_ends_at timestamptz,
    churned_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenants_churned_at_check CHECK (churned_at IS NULL OR churned_at >= signed_up_at),
    CONSTRAINT tenants_trial_ends_at_check CHECK (trial_ends_at IS NULL OR trial_ends_at >= signed_up_at)
);
COMMENT ON TABLE tenancy.tenants IS 'The tenants of the platform: the merchants (companies, customers of the platform, "accounts" in platform-speak) that run their wholesale business on heron. One row per tenant; every tenant_id column in the schema points here. Rows are soft-deleted: deleted_at is set instead of removing the row. Exclude is_test tenants from business reporting.';
COMMENT ON COLUMN tenancy.tenants.name IS 'Display name of the tenant (trading name), unique across the platform, e.g. Acme Supplies.';
COMMENT ON COLUMN tenancy.tenants.slug IS 'URL-safe unique handle used in back-office URLs and default storefront hostnames, e.g. acme-supplies.';
COMMENT ON COLUMN tenancy.tenants.legal_name IS 'Registered company name used on platform invoices, e.g. Acme Supplies GmbH.';
COMMENT ON COLUMN tenancy.tenants.status IS 'Lifecycle status: trial (evaluating), active (paying), past_due (platform invoice overdue), suspended (access blocked), churned (left the platform).';
COMMENT ON COLUMN tenancy.tenants.plan_id IS 'Current platform plan of the tenant (denormalised from the active tenancy.tenant_subscriptions row).';
COMMENT ON COLUMN tenancy.tenants.owner_user_id IS 'Staff user who owns the tenant account (billing owner, can delete the tenant); a user of this same tenant in auth.users. NULL only briefly during sign-up before the first user exists.';
COMMENT ON COLUMN tenancy.tenants.country_code IS 'Country where the tenant company is established (ISO 3166-1 alpha-2); drives platform tax.';
COMMENT ON COLUMN tenancy.tenants.default_currency_code IS 'Reporting and default selling currency of the tenant (ISO 4217). Individual price lists and orders may use other currencies.';
COMMENT ON COLUMN tenancy.tenants.timezone_name IS 'IANA time zone the tenant reports in; defines the tenant''s business day.';
COMMENT ON COLUMN tenancy.tenants.language_code IS 'Default language of the tenant''s back office and customer communication (ISO 639-1).';
COMMENT ON COLUMN tenancy.tenants.data_region_id IS 'Hosting region the tenant''s data is pinned to (data residency).';
COMMENT ON COLUMN tenancy.tenants.industry IS 'Industry vertical declared at sign-up, e.g. industrial_supplies, food_and_beverage, apparel, electronics, healthcare. NULL when not given.';
COMMENT ON COLUMN tenancy.tenants.employee_band IS 'Company size band declared at sign-up: 1-10, 11-50, 51-200, 201-1000 or 1000+. NULL when not given.';
COMMENT ON COLUMN tenancy.tenants.vat_number IS 'VAT / sales-tax registration number printed on platform invoices. NULL when the tenant has none on file.';
COMMENT ON COLUMN tenancy.tenants.billing_email IS 'Address platform invoices and payment reminders are sent to.';
COMMENT ON COLUMN tenancy.tenants.website_url IS 'Public company website. NULL when not given.';
COMMENT ON COLUMN tenancy.tenants.is_test IS 'True for internal demo, sandbox and QA tenants that must be excluded from business metrics.';
COMMENT ON COLUMN tenancy.tenants.signed_up_at IS 'When the tenant signed up (start of the customer relationship with the platform).';
COMMENT ON COLUMN tenancy.tenants.trial_ends_at IS 'When the sign-up trial ends or ended. NULL when the tenant started without a trial.';
COMMENT ON COLUMN tenancy.tenants.churned_at IS 'When the tenant churned (cancelled and left). NULL for tenants that have not churned.';
COMMENT ON COLUMN tenancy.tenants.deleted_at IS 'When the tenant was deleted from the platform (soft delete). NULL for live tenants.';

-- ---------------------------------------------------------------------------------------------
-- Tenant-scoped tables
-- ---------------------------------------------------------------------------------------------

CREATE TABLE tenancy.workspaces (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    parent_workspace_id bigint,
    name text NOT NULL,
    slug text NOT NULL,
    kind tenancy.workspace_kind NOT NULL DEFAULT 'brand',
    description text,
    country_code char(2) NOT NULL,
    default_currency_code char(3) NOT NULL,
    timezone_name text NOT NULL,
    language_code char(2) NOT NULL,
    logo_url text,
    is_default boolean NOT NULL DEFAULT false,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE tenancy.workspaces IS 'Workspaces of a tenant: the brands, business units, regional divisions or sandboxes it operates under, each with its own storefront, currency and locale defaults. One row per workspace; every tenant has one default workspace. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN tenancy.workspaces.parent_workspace_id IS 'Enclosing workspace for nested business units (e.g. a brand inside a regional division). NULL for top-level workspaces.';
COMMENT ON COLUMN tenancy.workspaces.name IS 'Display name of the brand or business unit, e.g. Acme Industrial, Acme Europe.';
COMMENT ON COLUMN tenancy.workspaces.slug IS 'URL-safe handle, unique within the tenant, e.g. acme-industrial.';
COMMENT ON COLUMN tenancy.workspaces.kind IS 'What the workspace represents: brand, business_unit, region or sandbox (test area).';
COMMENT ON COLUMN tenancy.workspaces.description IS 'Free-text description for staff. NULL when empty.';
COMMENT ON COLUMN tenancy.workspaces.country_code IS 'Main country the brand or unit operates in (ISO 3166-1 alpha-2).';
COMMENT ON COLUMN tenancy.workspaces.default_currency_code IS 'Default selling currency of the workspace (ISO 4217); may differ from the tenant''s reporting currency.';
COMMENT ON COLUMN tenancy.workspaces.timezone_name IS 'IANA time zone of the workspace''s business day.';
COMMENT ON COLUMN tenancy.workspaces.language_code IS 'Default language of the workspace''s storefront and messages (ISO 639-1).';
COMMENT ON COLUMN tenancy.workspaces.logo_url IS 'URL of the brand logo. NULL when none uploaded.';
COMMENT ON COLUMN tenancy.workspaces.is_default IS 'True for the tenant''s default workspace (exactly one per tenant).';
COMMENT ON COLUMN tenancy.workspaces.deleted_at IS 'When the workspace was deleted (soft delete). NULL for live workspaces.';

CREATE TABLE tenancy.tenant_subscriptions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    plan_id bigint NOT NULL,
    replaced_subscription_id bigint,
    status tenancy.tenant_subscription_status NOT NULL,
    billing_interval shared.billing_interval NOT NULL DEFAULT 'month',
    seat_count integer NOT NULL,
    currency_code char(3) NOT NULL,
    mrr_amount numeric(14,2) NOT NULL,
    discount_percent numeric(5,2) NOT NULL DEFAULT 0,
    is_auto_renew boolean NOT NULL DEFAULT true,
    started_at timestamptz NOT NULL,
    trial_ends_at timestamptz,
    current_period_ends_at timestamptz NOT NULL,
    ended_at timestamptz,
    cancel_reason text,
    external_ref text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenant_subscriptions_seat_count_check CHECK (seat_count > 0),
    CONSTRAINT tenant_subscriptions_mrr_amount_check CHECK (mrr_amount >= 0),
    CONSTRAINT tenant_subscriptions_discount_percent_check CHECK (discount_percent <= 100),
    CONSTRAINT tenant_subscriptions_ended_at_check CHECK (ended_at IS NULL OR ended_at >= started_at)
);
COMMENT ON TABLE tenancy.tenant_subscriptions IS 'A tenant''s subscription history to platform plans (what the merchant pays heron): one row per subscription period; an upgrade or downgrade ends one row and starts the next. The current subscription is the row with ended_at NULL. MRR here is platform revenue, distinct from subscriptions.subscriptions, which tenants sell to their customers.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.plan_id IS 'Platform plan subscribed to.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.replaced_subscription_id IS 'Previous subscription of the same tenant that this one replaced (upgrade, downgrade or re-subscription). NULL for the tenant''s first subscription.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.status IS 'trialing (free trial), active (paid and current), past_due (invoice overdue), cancelled (ended by the tenant), expired (ended by non-payment or end of term).';
COMMENT ON COLUMN tenancy.tenant_subscriptions.billing_interval IS 'How often the tenant is invoiced for this subscription (month or year, rarely quarter).';
COMMENT ON COLUMN tenancy.tenant_subscriptions.seat_count IS 'Number of staff seats paid for.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.currency_code IS 'Currency the tenant is billed in for this subscription (ISO 4217).';
COMMENT ON COLUMN tenancy.tenant_subscriptions.mrr_amount IS 'Monthly recurring revenue of the subscription after discount, in currency_code (annual plans divided by 12). 0 while trialing.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.discount_percent IS 'Negotiated discount off list price, in percent (0-100).';
COMMENT ON COLUMN tenancy.tenant_subscriptions.is_auto_renew IS 'False when the tenant has scheduled cancellation at the end of the current period.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.started_at IS 'When the subscription started.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.trial_ends_at IS 'End of the free trial of this subscription. NULL when it had no trial.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.current_period_ends_at IS 'End of the current (or, for ended rows, last) billing period.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.ended_at IS 'When the subscription ended (cancelled, expired or replaced). NULL for the current subscription.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.cancel_reason IS 'Reason given when the tenant cancelled, e.g. too_expensive, missing_feature, switched_competitor, business_closed. NULL when not cancelled or not stated.';
COMMENT ON COLUMN tenancy.tenant_subscriptions.external_ref IS 'Identifier of the subscription in the platform''s own billing provider, e.g. sub_1Nx…. NULL for manually invoiced enterprise deals.';

CREATE TABLE tenancy.tenant_settings (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    namespace text NOT NULL,
    settings jsonb NOT NULL,
    schema_version integer NOT NULL DEFAULT 1,
    is_locked boolean NOT NULL DEFAULT false,
    notes text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenant_settings_schema_version_check CHECK (schema_version > 0)
);
COMMENT ON TABLE tenancy.tenant_settings IS 'Per-tenant configuration documents (preferences, tenant config): one jsonb document per settings namespace, either tenant-wide or overriding it for one workspace.';
COMMENT ON COLUMN tenancy.tenant_settings.workspace_id IS 'Workspace the settings override applies to. NULL means the tenant-wide default for the namespace.';
COMMENT ON COLUMN tenancy.tenant_settings.namespace IS 'Settings area, e.g. checkout, branding, security, notifications, tax, inventory.';
COMMENT ON COLUMN tenancy.tenant_settings.settings IS 'The configuration document as jsonb, e.g. {"require_po_number": true, "min_order_value": 250}.';
COMMENT ON COLUMN tenancy.tenant_settings.schema_version IS 'Version of the document layout for the namespace, used for migrations.';
COMMENT ON COLUMN tenancy.tenant_settings.is_locked IS 'True when platform support has locked the settings so tenant staff cannot change them.';
COMMENT ON COLUMN tenancy.tenant_settings.notes IS 'Internal note explaining the configuration. NULL when none.';

CREATE TABLE tenancy.tenant_domains (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint NOT NULL,
    hostname text NOT NULL,
    purpose tenancy.domain_purpose NOT NULL DEFAULT 'storefront',
    verification_status tenancy.domain_verification_status NOT NULL DEFAULT 'pending',
    verification_token text NOT NULL,
    language_code char(2) NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    ssl_status text NOT NULL DEFAULT 'pending',
    verified_at timestamptz,
    ssl_expires_at timestamptz,
    last_checked_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenant_domains_ssl_status_check CHECK (ssl_status IN ('pending', 'issued', 'renewing', 'failed')),
    CONSTRAINT tenant_domains_verified_at_check CHECK (verified_at IS NULL OR verified_at >= created_at)
);
COMMENT ON TABLE tenancy.tenant_domains IS 'Custom domains (vanity hostnames, DNS names) a tenant connects to its storefront, customer portal, help centre or e-mail sending, with their DNS verification and SSL certificate state. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN tenancy.tenant_domains.workspace_id IS 'Workspace (brand) whose storefront, portal or help centre the domain serves; the tenant''s main storefront belongs to its default workspace.';
COMMENT ON COLUMN tenancy.tenant_domains.hostname IS 'Fully qualified host name, lower case, e.g. shop.acme.com, help.acme.com.';
COMMENT ON COLUMN tenancy.tenant_domains.purpose IS 'What the domain is used for: storefront, customer_portal, help_center or email_sending.';
COMMENT ON COLUMN tenancy.tenant_domains.verification_status IS 'DNS ownership check: pending (record not yet seen), verified, failed, expired (verification lapsed).';
COMMENT ON COLUMN tenancy.tenant_domains.verification_token IS 'Value the tenant must publish in a DNS TXT record to prove ownership.';
COMMENT ON COLUMN tenancy.tenant_domains.language_code IS 'Default language served on this domain (ISO 639-1).';
COMMENT ON COLUMN tenancy.tenant_domains.is_primary IS 'True for the canonical domain of its purpose; other domains redirect to it.';
COMMENT ON COLUMN tenancy.tenant_domains.ssl_status IS 'TLS certificate state: pending, issued, renewing or failed.';
COMMENT ON COLUMN tenancy.tenant_domains.verified_at IS 'When DNS ownership was first verified. NULL while unverified.';
COMMENT ON COLUMN tenancy.tenant_domains.ssl_expires_at IS 'Expiry of the current TLS certificate. NULL when none has been issued.';
COMMENT ON COLUMN tenancy.tenant_domains.last_checked_at IS 'When DNS and certificate were last checked. NULL before the first check.';
COMMENT ON COLUMN tenancy.tenant_domains.deleted_at IS 'When the domain was removed by the tenant (soft delete). NULL for connected domains.';

CREATE TABLE tenancy.tenant_usage_daily (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    usage_date date NOT NULL,
    plan_id bigint NOT NULL,
    tenant_subscription_id bigint,
    active_seat_count integer NOT NULL,
    active_user_count integer NOT NULL,
    api_call_count bigint NOT NULL,
    storage_bytes bigint NOT NULL,
    bandwidth_bytes bigint NOT NULL,
    order_count integer NOT NULL,
    email_send_count integer NOT NULL,
    webhook_delivery_count integer NOT NULL,
    has_overage boolean NOT NULL DEFAULT false,
    computed_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenant_usage_daily_api_call_count_check CHECK (api_call_count >= 0),
    CONSTRAINT tenant_usage_daily_storage_bytes_check CHECK (storage_bytes >= 0)
);
COMMENT ON TABLE tenancy.tenant_usage_daily IS 'Metered platform usage per tenant per calendar day (UTC): seats, API calls, storage, bandwidth, orders, e-mails and webhooks. One row per tenant and day, used for plan limits, overage billing and platform adoption reporting.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.usage_date IS 'UTC calendar day the usage was measured for.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.plan_id IS 'Platform plan in effect for the tenant on usage_date.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.tenant_subscription_id IS 'Subscription in effect on usage_date. NULL on days when the tenant had no live subscription (lapsed or suspended).';
COMMENT ON COLUMN tenancy.tenant_usage_daily.active_seat_count IS 'Staff seats occupied at the end of the day (billable seats).';
COMMENT ON COLUMN tenancy.tenant_usage_daily.active_user_count IS 'Distinct staff users who logged in during the day.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.api_call_count IS 'API requests made with the tenant''s credentials during the day.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.storage_bytes IS 'File and media storage used at the end of the day, in bytes.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.bandwidth_bytes IS 'Storefront and API egress during the day, in bytes.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.order_count IS 'Orders created on the platform by the tenant during the day.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.email_send_count IS 'Outbound e-mails sent on the tenant''s behalf during the day.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.webhook_delivery_count IS 'Webhook delivery attempts made to the tenant''s endpoints during the day.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.has_overage IS 'True when any metered quantity exceeded the plan''s included limit on that day.';
COMMENT ON COLUMN tenancy.tenant_usage_daily.computed_at IS 'When the daily metering job produced this row.';

CREATE TABLE tenancy.platform_invoices (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    tenant_subscription_id bigint,
    plan_id bigint NOT NULL,
    invoice_number text NOT NULL,
    status tenancy.platform_invoice_status NOT NULL DEFAULT 'draft',
    currency_code char(3) NOT NULL,
    subtotal_amount numeric(14,2) NOT NULL,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    total_amount numeric(14,2) NOT NULL,
    amount_paid numeric(14,2) NOT NULL DEFAULT 0,
    billing_country_code char(2) NOT NULL,
    period_start date NOT NULL,
    period_end date NOT NULL,
    issued_at timestamptz,
    due_date date,
    paid_at timestamptz,
    voided_at timestamptz,
    pdf_url text,
    external_ref text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT platform_invoices_period_end_check CHECK (period_end >= period_start),
    CONSTRAINT platform_invoices_total_amount_check CHECK (total_amount >= 0),
    CONSTRAINT platform_invoices_amount_paid_check CHECK (amount_paid >= 0)
);
COMMENT ON TABLE tenancy.platform_invoices IS 'Invoices (bills) the platform issued to a tenant for its platform plan, seats and overage: heron''s own revenue. One row per invoice. Not to be confused with billing.invoices, which tenants issue to their customers.';
COMMENT ON COLUMN tenancy.platform_invoices.tenant_subscription_id IS 'Subscription the invoice bills. NULL for one-off charges such as onboarding or professional-services fees.';
COMMENT ON COLUMN tenancy.platform_invoices.plan_id IS 'Platform plan the tenant was on for the billed period.';
COMMENT ON COLUMN tenancy.platform_invoices.invoice_number IS 'Human-readable invoice number, unique per tenant, e.g. HRN-2024-000123.';
COMMENT ON COLUMN tenancy.platform_invoices.status IS 'draft (not yet issued), open (issued, awaiting payment), paid, void (cancelled), uncollectible (written off).';
COMMENT ON COLUMN tenancy.platform_invoices.currency_code IS 'Currency all amounts of the invoice are in (ISO 4217).';
COMMENT ON COLUMN tenancy.platform_invoices.subtotal_amount IS 'Sum of the invoice lines before tax, in currency_code.';
COMMENT ON COLUMN tenancy.platform_invoices.tax_amount IS 'VAT / sales tax charged, in currency_code.';
COMMENT ON COLUMN tenancy.platform_invoices.total_amount IS 'Amount due including tax (subtotal_amount + tax_amount), in currency_code.';
COMMENT ON COLUMN tenancy.platform_invoices.amount_paid IS 'Amount collected so far, in currency_code; equals total_amount once paid.';
COMMENT ON COLUMN tenancy.platform_invoices.billing_country_code IS 'Country of the tenant''s billing address at issue time (ISO 3166-1 alpha-2); determines the tax treatment.';
COMMENT ON COLUMN tenancy.platform_invoices.period_start IS 'First day of the service period billed.';
COMMENT ON COLUMN tenancy.platform_invoices.period_end IS 'Last day of the service period billed.';
COMMENT ON COLUMN tenancy.platform_invoices.issued_at IS 'When the invoice was finalised and sent. NULL while draft.';
COMMENT ON COLUMN tenancy.platform_invoices.due_date IS 'Date payment is due. NULL while draft.';
COMMENT ON COLUMN tenancy.platform_invoices.paid_at IS 'When the invoice was fully paid. NULL while unpaid.';
COMMENT ON COLUMN tenancy.platform_invoices.voided_at IS 'When the invoice was voided. NULL unless status is void.';
COMMENT ON COLUMN tenancy.platform_invoices.pdf_url IS 'Link to the rendered PDF. NULL while draft.';
COMMENT ON COLUMN tenancy.platform_invoices.external_ref IS 'Identifier of the invoice in the platform''s billing provider, e.g. in_1Nx…. NULL for manually created invoices.';

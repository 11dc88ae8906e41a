-- heron schema, phase 1, domain 03 crm: the tenant's business customers (accounts, also called
-- customers or clients), the people who work there (contacts), segmentation, the lead funnel and
-- the sales pipeline (stages, deals/opportunities), logged activities, tasks, notes, customer
-- health scoring and trade-credit limits.

CREATE TYPE crm.account_tier AS ENUM ('strategic', 'key', 'standard', 'long_tail');
COMMENT ON TYPE crm.account_tier IS 'Commercial importance band of a customer account, from strategic (top few) to long_tail.';
CREATE TYPE crm.account_status AS ENUM ('prospect', 'active', 'on_hold', 'churned');
COMMENT ON TYPE crm.account_status IS 'Lifecycle status of a customer account.';
CREATE TYPE crm.contact_status AS ENUM ('active', 'inactive', 'bounced', 'left_company');
COMMENT ON TYPE crm.contact_status IS 'Whether a contact person is still reachable and relevant.';
CREATE TYPE crm.address_kind AS ENUM ('billing', 'shipping', 'hq', 'other');
COMMENT ON TYPE crm.address_kind IS 'Purpose of a customer postal address.';
CREATE TYPE crm.segment_kind AS ENUM ('static', 'dynamic');
COMMENT ON TYPE crm.segment_kind IS 'static = members curated by hand; dynamic = members computed from a rule.';
CREATE TYPE crm.membership_source AS ENUM ('manual', 'rule', 'import', 'api');
COMMENT ON TYPE crm.membership_source IS 'How an account entered a segment.';
CREATE TYPE crm.account_team_role AS ENUM ('owner', 'account_executive', 'customer_success_manager', 'sales_engineer', 'support_lead', 'executive_sponsor');
COMMENT ON TYPE crm.account_team_role IS 'Role a staff member plays on a customer account team.';
CREATE TYPE crm.lead_source_kind AS ENUM ('inbound', 'outbound', 'referral', 'event', 'partner', 'paid_ads', 'marketplace');
COMMENT ON TYPE crm.lead_source_kind IS 'Broad family of a lead source.';
CREATE TYPE crm.lead_status AS ENUM ('new', 'contacted', 'qualified', 'unqualified', 'converted', 'recycled');
COMMENT ON TYPE crm.lead_status IS 'Qualification status of a lead (prospect).';
CREATE TYPE crm.opportunity_status AS ENUM ('open', 'won', 'lost');
COMMENT ON TYPE crm.opportunity_status IS 'Outcome state of a sales deal.';
CREATE TYPE crm.opportunity_kind AS ENUM ('new_business', 'expansion', 'renewal', 'cross_sell');
COMMENT ON TYPE crm.opportunity_kind IS 'Kind of sales deal: a first sale, an upsell, a renewal or a cross-sell.';
CREATE TYPE crm.opportunity_contact_role AS ENUM ('decision_maker', 'economic_buyer', 'champion', 'influencer', 'technical_evaluator', 'end_user', 'blocker');
COMMENT ON TYPE crm.opportunity_contact_role IS 'Buying-committee role of a contact on a deal.';
CREATE TYPE crm.activity_kind AS ENUM ('call', 'meeting', 'email', 'demo');
COMMENT ON TYPE crm.activity_kind IS 'Type of a logged sales activity.';
CREATE TYPE crm.activity_direction AS ENUM ('inbound', 'outbound', 'internal');
COMMENT ON TYPE crm.activity_direction IS 'Who initiated a logged activity.';
CREATE TYPE crm.activity_outcome AS ENUM ('completed', 'no_answer', 'left_voicemail', 'rescheduled', 'cancelled');
COMMENT ON TYPE crm.activity_outcome IS 'Result of a logged activity.';
CREATE TYPE crm.task_status AS ENUM ('open', 'in_progress', 'done', 'cancelled');
COMMENT ON TYPE crm.task_status IS 'Progress of a CRM follow-up task.';
CREATE TYPE crm.task_priority AS ENUM ('low', 'normal', 'high', 'urgent');
COMMENT ON TYPE crm.task_priority IS 'Urgency of a CRM follow-up task.';
CREATE TYPE crm.health_band AS ENUM ('healthy', 'neutral', 'at_risk', 'critical');
COMMENT ON TYPE crm.health_band IS 'Traffic-light band derived from a customer health score.';
CREATE TYPE crm.credit_limit_status AS ENUM ('pending_approval', 'active', 'superseded', 'revoked');
COMMENT ON TYPE crm.credit_limit_status IS 'Approval and validity state of a trade-credit limit.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.accounts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    account_number varchar(32) NOT NULL,
    name text NOT NULL,
    legal_name text,
    industry text,
    tier crm.account_tier NOT NULL DEFAULT 'standard',
    status crm.account_status NOT NULL DEFAULT 'prospect',
    owner_user_id bigint,
    parent_account_id bigint,
    billing_country_code char(2) NOT NULL,
    preferred_currency_code char(3) NOT NULL,
    language_code char(2) NOT NULL,
    timezone_name text NOT NULL,
    annual_revenue_estimate numeric(14,2),
    employee_count integer,
    website text,
    phone text,
    tax_identifier text,
    tags text[] NOT NULL DEFAULT '{}',
    external_ref text,
    became_customer_at timestamptz,
    churned_at timestamptz,
    created_by_user_id bigint NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}',
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT accounts_employee_count_check CHECK (employee_count >= 0)
);
COMMENT ON TABLE crm.accounts IS 'Business customers of the tenant: one row per customer company (also called clients, customer accounts or buyers in business language), from prospect to churned. Subsidiaries point to their parent account. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN crm.accounts.workspace_id IS 'Brand or business unit of the tenant that owns this customer; NULL = shared across all workspaces of the tenant.';
COMMENT ON COLUMN crm.accounts.account_number IS 'Human-readable customer number shown on invoices and orders, unique per tenant (e.g. ''C-004211'').';
COMMENT ON COLUMN crm.accounts.name IS 'Trading name of the customer company as staff know it.';
COMMENT ON COLUMN crm.accounts.legal_name IS 'Registered legal entity name used on contracts and invoices; NULL = same as name or not yet captured.';
COMMENT ON COLUMN crm.accounts.industry IS 'Industry of the customer, free text from a picklist (e.g. ''retail'', ''hospitality'', ''manufacturing'', ''healthcare''); NULL = unknown.';
COMMENT ON COLUMN crm.accounts.tier IS 'Commercial tier of the customer: strategic, key, standard or long_tail.';
COMMENT ON COLUMN crm.accounts.status IS 'Lifecycle status: prospect (not bought yet), active, on_hold (orders blocked, e.g. unpaid) or churned (lost customer).';
COMMENT ON COLUMN crm.accounts.owner_user_id IS 'Staff user who owns the customer relationship (account manager); NULL = unassigned.';
COMMENT ON COLUMN crm.accounts.parent_account_id IS 'Parent company for a subsidiary or branch; NULL = top-level account (no parent).';
COMMENT ON COLUMN crm.accounts.billing_country_code IS 'ISO 3166-1 alpha-2 country the customer is billed in (drives tax and reporting by country).';
COMMENT ON COLUMN crm.accounts.preferred_currency_code IS 'ISO 4217 currency the customer trades in; also the currency of annual_revenue_estimate.';
COMMENT ON COLUMN crm.accounts.language_code IS 'ISO 639-1 language for documents and messages to this customer (defaults to the tenant language).';
COMMENT ON COLUMN crm.accounts.timezone_name IS 'IANA time zone of the customer head office (e.g. ''Europe/Berlin''), defaulting to the tenant time zone.';
COMMENT ON COLUMN crm.accounts.annual_revenue_estimate IS 'Estimated yearly revenue of the customer company itself (firmographic size, not what it spends with the tenant), in preferred_currency_code; NULL = unknown.';
COMMENT ON COLUMN crm.accounts.employee_count IS 'Approximate head count of the customer company; NULL = unknown.';
COMMENT ON COLUMN crm.accounts.website IS 'Public website URL of the customer; NULL = none recorded.';
COMMENT ON COLUMN crm.accounts.phone IS 'Main switchboard phone number in free format; NULL = none recorded.';
COMMENT ON COLUMN crm.accounts.tax_identifier IS 'VAT / GST / EIN number of the customer as printed on invoices; NULL = not provided.';
COMMENT ON COLUMN crm.accounts.tags IS 'Free labels staff attach to the customer (e.g. {''reseller'',''vip''}); empty array = none.';
COMMENT ON COLUMN crm.accounts.external_ref IS 'Identifier of this customer in an external system such as an ERP or a previous CRM; NULL = not synced.';
COMMENT ON COLUMN crm.accounts.became_customer_at IS 'When the account placed its first order or signed, turning from prospect into a customer; NULL = still a prospect.';
COMMENT ON COLUMN crm.accounts.churned_at IS 'When the customer was marked as churned (lost); NULL = not churned.';
COMMENT ON COLUMN crm.accounts.created_by_user_id IS 'Staff user who created the customer record (for imports, the user who ran the import).';
COMMENT ON COLUMN crm.accounts.metadata IS 'Custom fields defined by the tenant, as a jsonb object.';
COMMENT ON COLUMN crm.accounts.deleted_at IS 'When the customer record was deleted in the back office; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.contacts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint,
    first_name text NOT NULL,
    last_name text NOT NULL,
    email varchar(320) NOT NULL,
    phone text,
    mobile_phone text,
    job_title text,
    department text,
    status crm.contact_status NOT NULL DEFAULT 'active',
    is_primary boolean NOT NULL DEFAULT false,
    allows_marketing_email boolean NOT NULL DEFAULT false,
    country_code char(2) NOT NULL,
    language_code char(2) NOT NULL,
    owner_user_id bigint,
    linkedin_url text,
    last_contacted_at timestamptz,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE crm.contacts IS 'People the tenant sells to: buyers, purchasing managers and other individuals, usually working at a customer account (the people behind customers/clients). Also the shopper identity for storefront orders and reviews. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN crm.contacts.account_id IS 'Customer company the person works for; NULL = individual buyer without a company (consumer or sole trader).';
COMMENT ON COLUMN crm.contacts.first_name IS 'Given name.';
COMMENT ON COLUMN crm.contacts.last_name IS 'Family name.';
COMMENT ON COLUMN crm.contacts.email IS 'E-mail address, unique per tenant; also the storefront login.';
COMMENT ON COLUMN crm.contacts.phone IS 'Office phone number in free format; NULL = none recorded.';
COMMENT ON COLUMN crm.contacts.mobile_phone IS 'Mobile number used for SMS, in E.164 format where known; NULL = none recorded.';
COMMENT ON COLUMN crm.contacts.job_title IS 'Job title as given by the person (e.g. ''Head of Purchasing''); NULL = unknown.';
COMMENT ON COLUMN crm.contacts.department IS 'Department inside the customer company (e.g. ''procurement'', ''finance'', ''IT''); NULL = unknown.';
COMMENT ON COLUMN crm.contacts.status IS 'Reachability: active, inactive, bounced (e-mail undeliverable) or left_company.';
COMMENT ON COLUMN crm.contacts.is_primary IS 'True for the main point of contact of the account; at most one per account by convention.';
COMMENT ON COLUMN crm.contacts.allows_marketing_email IS 'Snapshot of whether the person currently accepts marketing e-mail; the consent history lives in marketing.consents.';
COMMENT ON COLUMN crm.contacts.country_code IS 'ISO 3166-1 alpha-2 country where the person is based (defaults to the account billing country).';
COMMENT ON COLUMN crm.contacts.language_code IS 'ISO 639-1 preferred language for messages (defaults to the account language).';
COMMENT ON COLUMN crm.contacts.owner_user_id IS 'Staff user responsible for this person; NULL = follows the account owner or unassigned.';
COMMENT ON COLUMN crm.contacts.linkedin_url IS 'LinkedIn profile URL; NULL = not recorded.';
COMMENT ON COLUMN crm.contacts.last_contacted_at IS 'When staff last logged an activity with this person; NULL = never contacted.';
COMMENT ON COLUMN crm.contacts.created_by_user_id IS 'Staff user who created the record (for storefront self-registrations, the user who approved the buyer).';
COMMENT ON COLUMN crm.contacts.deleted_at IS 'When the contact was deleted (e.g. on an erasure request); NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.addresses (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    kind crm.address_kind NOT NULL,
    label text,
    recipient_name text,
    line1 text NOT NULL,
    line2 text,
    city text NOT NULL,
    region text,
    postal_code varchar(20),
    country_code char(2) NOT NULL,
    latitude numeric(9,6),
    longitude numeric(9,6),
    is_default boolean NOT NULL DEFAULT false,
    is_verified boolean NOT NULL DEFAULT false,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE crm.addresses IS 'Postal addresses of customer accounts: billing addresses, ship-to / delivery locations and head-office addresses. Orders copy them into their own snapshots. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN crm.addresses.account_id IS 'Customer account the address belongs to.';
COMMENT ON COLUMN crm.addresses.kind IS 'Purpose: billing, shipping (delivery site), hq (head office) or other.';
COMMENT ON COLUMN crm.addresses.label IS 'Short name staff use for the site (e.g. ''Rotterdam DC'', ''Store 12''); NULL = none.';
COMMENT ON COLUMN crm.addresses.recipient_name IS 'Name printed on the first line of the label; NULL = use the account name.';
COMMENT ON COLUMN crm.addresses.line1 IS 'Street and number.';
COMMENT ON COLUMN crm.addresses.line2 IS 'Building, floor, suite or dock; NULL = not needed.';
COMMENT ON COLUMN crm.addresses.city IS 'City or town.';
COMMENT ON COLUMN crm.addresses.region IS 'State, province or county; NULL where the country has none in addresses.';
COMMENT ON COLUMN crm.addresses.postal_code IS 'Postal or ZIP code; NULL in countries without postal codes.';
COMMENT ON COLUMN crm.addresses.country_code IS 'ISO 3166-1 alpha-2 country of the address.';
COMMENT ON COLUMN crm.addresses.latitude IS 'Geocoded latitude in decimal degrees; NULL = not geocoded.';
COMMENT ON COLUMN crm.addresses.longitude IS 'Geocoded longitude in decimal degrees; NULL = not geocoded.';
COMMENT ON COLUMN crm.addresses.is_default IS 'True if this is the default address of its kind for the account.';
COMMENT ON COLUMN crm.addresses.is_verified IS 'True once an address-validation service confirmed the address.';
COMMENT ON COLUMN crm.addresses.created_by_user_id IS 'Staff user who entered or last confirmed the address (storefront-entered addresses are confirmed by the account owner).';
COMMENT ON COLUMN crm.addresses.deleted_at IS 'When the address was removed from the account; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.account_segments (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    description text,
    kind crm.segment_kind NOT NULL DEFAULT 'static',
    rule_definition jsonb,
    owner_user_id bigint NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    member_count integer NOT NULL DEFAULT 0,
    last_evaluated_at timestamptz,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE crm.account_segments IS 'Named customer segments (cohorts, groups of clients) such as ''EU wholesalers'' or ''at-risk key accounts'', used for targeting, pricing and reporting. Either curated by hand or computed from a rule.';
COMMENT ON COLUMN crm.account_segments.code IS 'Stable machine code of the segment, unique per tenant (e.g. ''eu_wholesale'').';
COMMENT ON COLUMN crm.account_segments.name IS 'Display name of the segment.';
COMMENT ON COLUMN crm.account_segments.description IS 'What the segment is for; NULL = no description.';
COMMENT ON COLUMN crm.account_segments.kind IS 'static (members added by hand) or dynamic (members computed from rule_definition).';
COMMENT ON COLUMN crm.account_segments.rule_definition IS 'Filter rule for dynamic segments as jsonb (field, operator, value clauses); NULL for static segments.';
COMMENT ON COLUMN crm.account_segments.owner_user_id IS 'Staff user responsible for the segment (by default its creator).';
COMMENT ON COLUMN crm.account_segments.is_active IS 'False once the segment is retired; retired segments keep their history.';
COMMENT ON COLUMN crm.account_segments.member_count IS 'Cached number of current members (rows in crm.segment_memberships with removed_at NULL) at last evaluation.';
COMMENT ON COLUMN crm.account_segments.last_evaluated_at IS 'When the dynamic rule was last run; NULL = never evaluated or static.';
COMMENT ON COLUMN crm.account_segments.created_by_user_id IS 'Staff user who created the segment.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.segment_memberships (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    segment_id bigint NOT NULL,
    account_id bigint NOT NULL,
    source crm.membership_source NOT NULL DEFAULT 'manual',
    added_by_user_id bigint,
    added_at timestamptz NOT NULL,
    removed_at timestamptz,
    is_pinned boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT segment_memberships_removed_at_check CHECK (removed_at IS NULL OR removed_at >= added_at)
);
COMMENT ON TABLE crm.segment_memberships IS 'Which customer accounts are (or were) in which segment: one row per account and segment. A row with removed_at set is a past membership.';
COMMENT ON COLUMN crm.segment_memberships.segment_id IS 'The segment.';
COMMENT ON COLUMN crm.segment_memberships.account_id IS 'The customer account in the segment.';
COMMENT ON COLUMN crm.segment_memberships.source IS 'How the account got in: manual, rule (dynamic evaluation), import or api.';
COMMENT ON COLUMN crm.segment_memberships.added_by_user_id IS 'Staff user who added the account; NULL = added automatically by a rule, import or API call.';
COMMENT ON COLUMN crm.segment_memberships.added_at IS 'When the account entered the segment.';
COMMENT ON COLUMN crm.segment_memberships.removed_at IS 'When the account left the segment; NULL = still a member.';
COMMENT ON COLUMN crm.segment_memberships.is_pinned IS 'True if the member is kept even when a dynamic rule would drop it.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.account_team_members (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    user_id bigint NOT NULL,
    team_id bigint,
    role crm.account_team_role NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    commission_split_percent numeric(5,2),
    starts_on date NOT NULL,
    ends_on date,
    assigned_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT account_team_members_commission_split_percent_check CHECK (commission_split_percent <= 100),
    CONSTRAINT account_team_members_ends_on_check CHECK (ends_on IS NULL OR ends_on >= starts_on)
);
COMMENT ON TABLE crm.account_team_members IS 'Staff assigned to a customer account and in which role (account executive, customer success manager / CSM, sales engineer…): the account team or coverage model.';
COMMENT ON COLUMN crm.account_team_members.account_id IS 'Customer account covered.';
COMMENT ON COLUMN crm.account_team_members.user_id IS 'Staff user on the account team.';
COMMENT ON COLUMN crm.account_team_members.team_id IS 'Staff team the assignment is made through (e.g. ''Enterprise sales DACH''); NULL = assigned individually.';
COMMENT ON COLUMN crm.account_team_members.role IS 'Role on the account: owner, account_executive, customer_success_manager, sales_engineer, support_lead or executive_sponsor.';
COMMENT ON COLUMN crm.account_team_members.is_primary IS 'True for the lead person in that role.';
COMMENT ON COLUMN crm.account_team_members.commission_split_percent IS 'Share of sales commission credited to this member, in percent (0–100); NULL = not commissioned.';
COMMENT ON COLUMN crm.account_team_members.starts_on IS 'First day of the assignment.';
COMMENT ON COLUMN crm.account_team_members.ends_on IS 'Last day of the assignment; NULL = current assignment.';
COMMENT ON COLUMN crm.account_team_members.assigned_by_user_id IS 'Manager or admin who made the assignment (the territory-rules run is recorded under the admin who owns the rules).';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.lead_sources (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    kind crm.lead_source_kind NOT NULL,
    description text,
    default_owner_user_id bigint,
    is_active boolean NOT NULL DEFAULT true,
    sort_order integer NOT NULL DEFAULT 0,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE crm.lead_sources IS 'Where leads (prospects) come from: channels and origins such as trade shows, website forms, partner referrals or cold outreach.';
COMMENT ON COLUMN crm.lead_sources.code IS 'Stable code of the source, unique per tenant (e.g. ''web_form'', ''tradeshow_2024'').';
COMMENT ON COLUMN crm.lead_sources.name IS 'Display name of the source.';
COMMENT ON COLUMN crm.lead_sources.kind IS 'Family: inbound, outbound, referral, event, partner, paid_ads or marketplace.';
COMMENT ON COLUMN crm.lead_sources.description IS 'Notes on the source; NULL = none.';
COMMENT ON COLUMN crm.lead_sources.default_owner_user_id IS 'Staff user new leads from this source are routed to; NULL = round-robin routing.';
COMMENT ON COLUMN crm.lead_sources.is_active IS 'False once the source can no longer be chosen for new leads.';
COMMENT ON COLUMN crm.lead_sources.sort_order IS 'Position in pick lists, ascending.';
COMMENT ON COLUMN crm.lead_sources.created_by_user_id IS 'Staff user who defined the source.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.leads (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    lead_source_id bigint,
    owner_user_id bigint,
    status crm.lead_status NOT NULL DEFAULT 'new',
    first_name text,
    last_name text NOT NULL,
    email varchar(320),
    phone text,
    company_name text,
    job_title text,
    industry text,
    country_code char(2) NOT NULL,
    estimated_employee_count integer,
    score integer NOT NULL DEFAULT 0,
    utm_campaign text,
    disqualified_reason text,
    last_activity_at timestamptz,
    converted_at timestamptz,
    converted_account_id bigint,
    converted_contact_id bigint,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT leads_score_check CHECK (score BETWEEN 0 AND 100)
);
COMMENT ON TABLE crm.leads IS 'Leads: prospects (potential customers) not yet converted into an account, from first contact through qualification. On conversion the lead points to the customer account and contact it became. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN crm.leads.lead_source_id IS 'Where the lead came from; NULL = source unknown (e.g. old imports).';
COMMENT ON COLUMN crm.leads.owner_user_id IS 'Sales rep working the lead; NULL = unassigned, waiting in the queue.';
COMMENT ON COLUMN crm.leads.status IS 'Qualification status: new, contacted, qualified, unqualified, converted or recycled (back to nurture).';
COMMENT ON COLUMN crm.leads.first_name IS 'Given name of the prospect; NULL = not captured.';
COMMENT ON COLUMN crm.leads.last_name IS 'Family name of the prospect.';
COMMENT ON COLUMN crm.leads.email IS 'E-mail address of the prospect; NULL = not captured. Not unique: duplicates are common.';
COMMENT ON COLUMN crm.leads.phone IS 'Phone number in free format; NULL = not captured.';
COMMENT ON COLUMN crm.leads.company_name IS 'Company the prospect says they work for; NULL = individual or not captured.';
COMMENT ON COLUMN crm.leads.job_title IS 'Job title of the prospect; NULL = unknown.';
COMMENT ON COLUMN crm.leads.industry IS 'Industry of the prospect company (e.g. ''retail'', ''construction''); NULL = unknown.';
COMMENT ON COLUMN crm.leads.country_code IS 'ISO 3166-1 alpha-2 country of the prospect (from the form or IP geolocation).';
COMMENT ON COLUMN crm.leads.estimated_employee_count IS 'Approximate head count of the prospect company; NULL = unknown.';
COMMENT ON COLUMN crm.leads.score IS 'Lead score from 0 (cold) to 100 (sales-ready).';
COMMENT ON COLUMN crm.leads.utm_campaign IS 'utm_campaign value captured with the lead; NULL = not from a tagged link.';
COMMENT ON COLUMN crm.leads.disqualified_reason IS 'Why the lead was marked unqualified (e.g. ''no budget'', ''competitor'', ''student''); NULL = not disqualified.';
COMMENT ON COLUMN crm.leads.last_activity_at IS 'Time of the latest logged activity on the lead; NULL = none yet.';
COMMENT ON COLUMN crm.leads.converted_at IS 'When the lead was converted into a customer account; NULL = not converted.';
COMMENT ON COLUMN crm.leads.converted_account_id IS 'Customer account the lead was converted into (new or existing); NULL = not converted.';
COMMENT ON COLUMN crm.leads.converted_contact_id IS 'Contact person the lead became on conversion; NULL = not converted.';
COMMENT ON COLUMN crm.leads.deleted_at IS 'When the lead was deleted (spam, duplicates); NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.pipeline_stages (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    pipeline_name text NOT NULL DEFAULT 'Sales',
    code varchar(64) NOT NULL,
    name text NOT NULL,
    position integer NOT NULL,
    win_probability integer NOT NULL,
    is_closed boolean NOT NULL DEFAULT false,
    is_won boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    expected_days_in_stage integer,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT pipeline_stages_win_probability_check CHECK (win_probability BETWEEN 0 AND 100)
);
COMMENT ON TABLE crm.pipeline_stages IS 'The ordered stages of the sales pipeline (funnel steps such as discovery, proposal, negotiation, closed won, closed lost) with the win probability used for forecasting.';
COMMENT ON COLUMN crm.pipeline_stages.workspace_id IS 'Workspace whose pipeline the stage belongs to; NULL = tenant-wide pipeline.';
COMMENT ON COLUMN crm.pipeline_stages.pipeline_name IS 'Name of the pipeline the stage belongs to, when a tenant runs several (e.g. ''Sales'', ''Renewals'', ''Partner'').';
COMMENT ON COLUMN crm.pipeline_stages.code IS 'Stable code of the stage, unique per tenant (e.g. ''sales.proposal'').';
COMMENT ON COLUMN crm.pipeline_stages.name IS 'Display name of the stage.';
COMMENT ON COLUMN crm.pipeline_stages.position IS 'Order of the stage within its pipeline, 0 = first.';
COMMENT ON COLUMN crm.pipeline_stages.win_probability IS 'Probability in percent (0–100) that a deal in this stage is won; weights the forecast.';
COMMENT ON COLUMN crm.pipeline_stages.is_closed IS 'True for terminal stages (closed won or closed lost).';
COMMENT ON COLUMN crm.pipeline_stages.is_won IS 'True for the closed-won stage.';
COMMENT ON COLUMN crm.pipeline_stages.is_active IS 'False once the stage was retired; old deals may still reference it.';
COMMENT ON COLUMN crm.pipeline_stages.expected_days_in_stage IS 'Target number of days a deal should stay in this stage before it counts as stale; NULL = no target.';
COMMENT ON COLUMN crm.pipeline_stages.created_by_user_id IS 'Staff user who defined or last reconfigured the stage.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.opportunities (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    opportunity_number varchar(32) NOT NULL,
    name text NOT NULL,
    account_id bigint NOT NULL,
    primary_contact_id bigint,
    owner_user_id bigint NOT NULL,
    stage_id bigint NOT NULL,
    lead_id bigint,
    kind crm.opportunity_kind NOT NULL DEFAULT 'new_business',
    status crm.opportunity_status NOT NULL DEFAULT 'open',
    amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    forecast_probability integer,
    expected_close_date date,
    stage_changed_at timestamptz,
    closed_at timestamptz,
    lost_reason text,
    competitor_name text,
    next_step text,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT opportunities_amount_check CHECK (amount >= 0),
    CONSTRAINT opportunities_forecast_probability_check CHECK (forecast_probability BETWEEN 0 AND 100)
);
COMMENT ON TABLE crm.opportunities IS 'Sales opportunities: the deals (potential sales) being worked with a customer account, open or closed won/lost, with their value and expected close date. The pipeline and forecast are built from this table. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN crm.opportunities.opportunity_number IS 'Human-readable deal number, unique per tenant (e.g. ''OPP-2024-0193'').';
COMMENT ON COLUMN crm.opportunities.name IS 'Short title of the deal (e.g. ''Acme – spring restock 2025'').';
COMMENT ON COLUMN crm.opportunities.account_id IS 'Customer account the deal is with.';
COMMENT ON COLUMN crm.opportunities.primary_contact_id IS 'Main contact person on the deal; NULL = not identified yet (see crm.opportunity_contacts for the full buying committee).';
COMMENT ON COLUMN crm.opportunities.owner_user_id IS 'Sales rep who owns the deal and gets the credit.';
COMMENT ON COLUMN crm.opportunities.stage_id IS 'Current pipeline stage of the deal.';
COMMENT ON COLUMN crm.opportunities.lead_id IS 'Lead the deal was created from on conversion; NULL = deal opened directly on an existing account.';
COMMENT ON COLUMN crm.opportunities.kind IS 'new_business, expansion (upsell), renewal or cross_sell.';
COMMENT ON COLUMN crm.opportunities.status IS 'open while being worked, won or lost once closed.';
COMMENT ON COLUMN crm.opportunities.amount IS 'Expected (open) or final (won) deal value in currency_code, before tax.';
COMMENT ON COLUMN crm.opportunities.currency_code IS 'ISO 4217 currency of amount.';
COMMENT ON COLUMN crm.opportunities.forecast_probability IS 'Rep override of the win probability in percent (0–100); NULL = use the stage win_probability.';
COMMENT ON COLUMN crm.opportunities.expected_close_date IS 'Date the rep expects the deal to close; NULL = not estimated yet.';
COMMENT ON COLUMN crm.opportunities.stage_changed_at IS 'When the deal entered its current stage; NULL = never moved since creation.';
COMMENT ON COLUMN crm.opportunities.closed_at IS 'When the deal was closed won or lost; NULL = still open.';
COMMENT ON COLUMN crm.opportunities.lost_reason IS 'Why a lost deal was lost (e.g. ''price'', ''timing'', ''went with competitor''); NULL unless status is lost.';
COMMENT ON COLUMN crm.opportunities.competitor_name IS 'Main competitor in the deal; NULL = none known.';
COMMENT ON COLUMN crm.opportunities.next_step IS 'Next agreed step in free text; NULL = none recorded.';
COMMENT ON COLUMN crm.opportunities.created_by_user_id IS 'Staff user who created the deal (for lead conversions, the user who converted the lead).';
COMMENT ON COLUMN crm.opportunities.deleted_at IS 'When the deal was deleted (duplicates, test data); NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.opportunity_contacts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    opportunity_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    role crm.opportunity_contact_role NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    influence_level smallint,
    notes text,
    added_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT opportunity_contacts_influence_level_check CHECK (influence_level BETWEEN 1 AND 5)
);
COMMENT ON TABLE crm.opportunity_contacts IS 'The contacts involved in a deal and the role each plays in the buying committee (decision maker, champion, blocker…).';
COMMENT ON COLUMN crm.opportunity_contacts.opportunity_id IS 'The deal.';
COMMENT ON COLUMN crm.opportunity_contacts.contact_id IS 'Person involved in the deal.';
COMMENT ON COLUMN crm.opportunity_contacts.role IS 'Buying role: decision_maker, economic_buyer, champion, influencer, technical_evaluator, end_user or blocker.';
COMMENT ON COLUMN crm.opportunity_contacts.is_primary IS 'True for the main contact on the deal.';
COMMENT ON COLUMN crm.opportunity_contacts.influence_level IS 'Rep''s estimate of the person''s influence on the decision, 1 (low) to 5 (decisive); NULL = not assessed.';
COMMENT ON COLUMN crm.opportunity_contacts.notes IS 'Free-text notes on the person''s stance; NULL = none.';
COMMENT ON COLUMN crm.opportunity_contacts.added_by_user_id IS 'Staff user who linked the contact to the deal.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.activities (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    kind crm.activity_kind NOT NULL,
    direction crm.activity_direction NOT NULL DEFAULT 'outbound',
    outcome crm.activity_outcome NOT NULL DEFAULT 'completed',
    subject text NOT NULL,
    summary text,
    account_id bigint,
    lead_id bigint,
    contact_id bigint,
    opportunity_id bigint,
    performed_by_user_id bigint NOT NULL,
    occurred_at timestamptz NOT NULL,
    duration_minutes integer,
    is_auto_logged boolean NOT NULL DEFAULT false,
    external_ref text,
    metadata jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT activities_duration_minutes_check CHECK (duration_minutes >= 0)
);
COMMENT ON TABLE crm.activities IS 'Sales activity log: every call, meeting, e-mail or demo staff had with customers or prospects (touchpoints, interactions), linked to the account, lead, person and deal it concerned. Append-only.';
COMMENT ON COLUMN crm.activities.kind IS 'call, meeting, email or demo.';
COMMENT ON COLUMN crm.activities.direction IS 'inbound (customer reached out), outbound (staff reached out) or internal.';
COMMENT ON COLUMN crm.activities.outcome IS 'Result: completed, no_answer, left_voicemail, rescheduled or cancelled.';
COMMENT ON COLUMN crm.activities.subject IS 'One-line subject (e-mail subject, meeting title).';
COMMENT ON COLUMN crm.activities.summary IS 'Free-text summary of what was discussed; NULL = none written.';
COMMENT ON COLUMN crm.activities.account_id IS 'Customer account the activity concerned; NULL = activity with a lead not yet converted.';
COMMENT ON COLUMN crm.activities.lead_id IS 'Lead the activity concerned; NULL = activity with an existing customer.';
COMMENT ON COLUMN crm.activities.contact_id IS 'Person spoken to; NULL = not tied to one contact (e.g. a group meeting).';
COMMENT ON COLUMN crm.activities.opportunity_id IS 'Deal the activity was part of; NULL = not tied to a deal.';
COMMENT ON COLUMN crm.activities.performed_by_user_id IS 'Staff user who performed or logged the activity.';
COMMENT ON COLUMN crm.activities.occurred_at IS 'When the call, meeting, e-mail or demo took place.';
COMMENT ON COLUMN crm.activities.duration_minutes IS 'Length in minutes; NULL for e-mails or when not recorded.';
COMMENT ON COLUMN crm.activities.is_auto_logged IS 'True if captured automatically by e-mail or calendar sync rather than typed in.';
COMMENT ON COLUMN crm.activities.external_ref IS 'Message or event id in the mail/calendar/telephony system; NULL = logged by hand.';
COMMENT ON COLUMN crm.activities.metadata IS 'Extra attributes from the source system (call recording URL, attendees…) as jsonb.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.crm_tasks (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    title text NOT NULL,
    description text,
    status crm.task_status NOT NULL DEFAULT 'open',
    priority crm.task_priority NOT NULL DEFAULT 'normal',
    assigned_to_user_id bigint NOT NULL,
    created_by_user_id bigint NOT NULL,
    account_id bigint NOT NULL,
    contact_id bigint,
    opportunity_id bigint,
    due_on date,
    reminder_at timestamptz,
    completed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE crm.crm_tasks IS 'Follow-up to-dos (tasks, action items, reminders) for sales and account staff, such as ''send revised quote'' or ''call back on Monday''.';
COMMENT ON COLUMN crm.crm_tasks.title IS 'Short description of what has to be done.';
COMMENT ON COLUMN crm.crm_tasks.description IS 'Longer details; NULL = none.';
COMMENT ON COLUMN crm.crm_tasks.status IS 'open, in_progress, done or cancelled.';
COMMENT ON COLUMN crm.crm_tasks.priority IS 'low, normal, high or urgent.';
COMMENT ON COLUMN crm.crm_tasks.assigned_to_user_id IS 'Staff user who must do the task.';
COMMENT ON COLUMN crm.crm_tasks.created_by_user_id IS 'Staff user who created the task (may be the assignee).';
COMMENT ON COLUMN crm.crm_tasks.account_id IS 'Customer account the task is filed under (tasks on unconverted leads are not tracked here).';
COMMENT ON COLUMN crm.crm_tasks.contact_id IS 'Person the task relates to; NULL = none in particular.';
COMMENT ON COLUMN crm.crm_tasks.opportunity_id IS 'Deal the task relates to; NULL = not tied to a deal.';
COMMENT ON COLUMN crm.crm_tasks.due_on IS 'Date the task is due; NULL = no deadline.';
COMMENT ON COLUMN crm.crm_tasks.reminder_at IS 'When the assignee gets a reminder; NULL = no reminder.';
COMMENT ON COLUMN crm.crm_tasks.completed_at IS 'When the task was marked done; NULL = not done (open, in progress or cancelled).';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.notes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    contact_id bigint,
    opportunity_id bigint,
    author_user_id bigint NOT NULL,
    title text,
    body text NOT NULL,
    is_pinned boolean NOT NULL DEFAULT false,
    is_private boolean NOT NULL DEFAULT false,
    tags text[] NOT NULL DEFAULT '{}',
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE crm.notes IS 'Free-text notes (comments, remarks) staff write on a customer account, optionally about a specific person or deal. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN crm.notes.account_id IS 'Customer account the note is filed under.';
COMMENT ON COLUMN crm.notes.contact_id IS 'Person the note is about; NULL = about the account in general.';
COMMENT ON COLUMN crm.notes.opportunity_id IS 'Deal the note is about; NULL = not about a deal.';
COMMENT ON COLUMN crm.notes.author_user_id IS 'Staff user who wrote the note.';
COMMENT ON COLUMN crm.notes.title IS 'Optional heading; NULL = untitled.';
COMMENT ON COLUMN crm.notes.body IS 'Note text (markdown).';
COMMENT ON COLUMN crm.notes.is_pinned IS 'True if pinned to the top of the account timeline.';
COMMENT ON COLUMN crm.notes.is_private IS 'True if only the author can see it.';
COMMENT ON COLUMN crm.notes.tags IS 'Free labels on the note (e.g. {''pricing'',''escalation''}); empty array = none.';
COMMENT ON COLUMN crm.notes.deleted_at IS 'When the note was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.account_health_scores (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    scored_on date NOT NULL,
    score smallint NOT NULL,
    band crm.health_band NOT NULL,
    previous_score smallint,
    usage_score smallint,
    support_score smallint,
    payment_score smallint,
    engagement_score smallint,
    model_version text NOT NULL,
    drivers jsonb NOT NULL DEFAULT '{}',
    scored_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT account_health_scores_score_check CHECK (score BETWEEN 0 AND 100)
);
COMMENT ON TABLE crm.account_health_scores IS 'Periodic customer-health scores (churn-risk scoring) of customer accounts: one row per account and scoring date, with the overall 0–100 score and its components.';
COMMENT ON COLUMN crm.account_health_scores.account_id IS 'Customer account scored.';
COMMENT ON COLUMN crm.account_health_scores.scored_on IS 'Business date the score applies to (one score per account per day at most).';
COMMENT ON COLUMN crm.account_health_scores.score IS 'Overall health from 0 (about to churn) to 100 (very healthy).';
COMMENT ON COLUMN crm.account_health_scores.band IS 'Band derived from score: healthy, neutral, at_risk or critical.';
COMMENT ON COLUMN crm.account_health_scores.previous_score IS 'Overall score at the previous scoring run; NULL = first score of the account.';
COMMENT ON COLUMN crm.account_health_scores.usage_score IS 'Product usage / ordering frequency component, 0–100; NULL = no data.';
COMMENT ON COLUMN crm.account_health_scores.support_score IS 'Support experience component (ticket volume, CSAT), 0–100; NULL = no data.';
COMMENT ON COLUMN crm.account_health_scores.payment_score IS 'Payment behaviour component (late invoices), 0–100; NULL = no data.';
COMMENT ON COLUMN crm.account_health_scores.engagement_score IS 'Engagement component (meetings, e-mail replies), 0–100; NULL = no data.';
COMMENT ON COLUMN crm.account_health_scores.model_version IS 'Version of the scoring model or rule set that produced the score (e.g. ''v3.2'', ''manual'').';
COMMENT ON COLUMN crm.account_health_scores.drivers IS 'Top factors behind the score as jsonb (factor name to contribution).';
COMMENT ON COLUMN crm.account_health_scores.scored_by_user_id IS 'Customer success manager who set the score by hand; NULL = computed by the automated model.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE crm.credit_limits (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    limit_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    status crm.credit_limit_status NOT NULL DEFAULT 'pending_approval',
    effective_from date NOT NULL,
    effective_to date,
    risk_rating text,
    reason text,
    requested_by_user_id bigint NOT NULL,
    approved_by_user_id bigint,
    approved_at timestamptz,
    review_due_on date,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT credit_limits_limit_amount_check CHECK (limit_amount >= 0),
    CONSTRAINT credit_limits_effective_to_check CHECK (effective_to IS NULL OR effective_to >= effective_from)
);
COMMENT ON TABLE crm.credit_limits IS 'Trade-credit limits (credit lines, open-account terms) granted to customer accounts over time: how much a customer may owe on unpaid invoices. One row per limit period; the current limit is the active row whose period covers today.';
COMMENT ON COLUMN crm.credit_limits.account_id IS 'Customer account the credit is granted to.';
COMMENT ON COLUMN crm.credit_limits.limit_amount IS 'Maximum outstanding receivable allowed, in currency_code.';
COMMENT ON COLUMN crm.credit_limits.currency_code IS 'ISO 4217 currency of limit_amount.';
COMMENT ON COLUMN crm.credit_limits.status IS 'pending_approval, active, superseded (replaced by a newer limit) or revoked.';
COMMENT ON COLUMN crm.credit_limits.effective_from IS 'First day the limit applies.';
COMMENT ON COLUMN crm.credit_limits.effective_to IS 'Last day the limit applies; NULL = open-ended.';
COMMENT ON COLUMN crm.credit_limits.risk_rating IS 'Credit risk grade from the tenant''s credit check (e.g. ''A'' to ''E''); NULL = not rated.';
COMMENT ON COLUMN crm.credit_limits.reason IS 'Why the limit was set or changed; NULL = none given.';
COMMENT ON COLUMN crm.credit_limits.requested_by_user_id IS 'Staff user who requested the limit (usually the account owner).';
COMMENT ON COLUMN crm.credit_limits.approved_by_user_id IS 'Finance user who approved the limit; NULL = not approved yet.';
COMMENT ON COLUMN crm.credit_limits.approved_at IS 'When the limit was approved; NULL = not approved yet.';
COMMENT ON COLUMN crm.credit_limits.review_due_on IS 'Date the limit should be reviewed again; NULL = no review scheduled.';

-- heron schema, phase 1, domain 11 marketing: demand generation and loyalty.
-- Campaigns and their budgets, target audiences, connected ad accounts and their daily spend,
-- UTM tracking links, order attribution, landing pages and lead-capture forms, customer
-- referral schemes, loyalty points, and the marketing consents (opt-ins / opt-outs) of contacts.

CREATE TYPE marketing.campaign_channel AS ENUM ('email', 'paid_search', 'paid_social', 'display', 'events', 'partner', 'organic');
COMMENT ON TYPE marketing.campaign_channel IS 'Primary channel a marketing campaign runs on.';
CREATE TYPE marketing.campaign_objective AS ENUM ('awareness', 'lead_generation', 'conversion', 'retention', 'reactivation');
COMMENT ON TYPE marketing.campaign_objective IS 'Business goal a campaign is planned against.';
CREATE TYPE marketing.campaign_status AS ENUM ('draft', 'scheduled', 'active', 'completed', 'cancelled');
COMMENT ON TYPE marketing.campaign_status IS 'Lifecycle state of a campaign.';
CREATE TYPE marketing.audience_kind AS ENUM ('static', 'dynamic', 'imported', 'lookalike');
COMMENT ON TYPE marketing.audience_kind IS 'How the members of an audience are determined.';
CREATE TYPE marketing.audience_member_source AS ENUM ('manual', 'rule', 'import', 'api', 'form');
COMMENT ON TYPE marketing.audience_member_source IS 'How a contact came to be in an audience.';
CREATE TYPE marketing.ad_platform AS ENUM ('google_ads', 'meta', 'linkedin', 'tiktok', 'microsoft');
COMMENT ON TYPE marketing.ad_platform IS 'Advertising network an ad account belongs to.';
CREATE TYPE marketing.ad_account_status AS ENUM ('pending', 'connected', 'disconnected', 'suspended');
COMMENT ON TYPE marketing.ad_account_status IS 'Connection state of an advertising account.';
CREATE TYPE marketing.touch_type AS ENUM ('first_touch', 'last_touch', 'assist');
COMMENT ON TYPE marketing.touch_type IS 'Position of a marketing touch in the path to an order.';
CREATE TYPE marketing.attribution_model AS ENUM ('first_touch', 'last_touch', 'linear', 'position_based', 'time_decay');
COMMENT ON TYPE marketing.attribution_model IS 'Rule used to split the credit for an order across touches.';
CREATE TYPE marketing.landing_page_status AS ENUM ('draft', 'published', 'unpublished', 'archived');
COMMENT ON TYPE marketing.landing_page_status IS 'Publication state of a landing page.';
CREATE TYPE marketing.form_kind AS ENUM ('contact_us', 'newsletter', 'demo_request', 'quote_request', 'event_registration', 'gated_content');
COMMENT ON TYPE marketing.form_kind IS 'Purpose of a lead-capture form.';
CREATE TYPE marketing.referral_program_status AS ENUM ('draft', 'active', 'paused', 'ended');
COMMENT ON TYPE marketing.referral_program_status IS 'Lifecycle state of a referral program.';
CREATE TYPE marketing.reward_kind AS ENUM ('account_credit', 'discount', 'cash', 'loyalty_points');
COMMENT ON TYPE marketing.reward_kind IS 'Form in which a referral reward is paid out.';
CREATE TYPE marketing.referral_status AS ENUM ('invited', 'signed_up', 'qualified', 'rewarded', 'rejected', 'expired');
COMMENT ON TYPE marketing.referral_status IS 'Progress of one referral from invitation to reward.';
CREATE TYPE marketing.loyalty_tier AS ENUM ('bronze', 'silver', 'gold', 'platinum');
COMMENT ON TYPE marketing.loyalty_tier IS 'Loyalty-program tier (status level) of a member.';
CREATE TYPE marketing.loyalty_transaction_kind AS ENUM ('earn', 'redeem', 'expire', 'adjust');
COMMENT ON TYPE marketing.loyalty_transaction_kind IS 'Kind of movement on a loyalty-points account.';
CREATE TYPE marketing.consent_purpose AS ENUM ('marketing', 'newsletter', 'product_updates', 'surveys', 'third_party_sharing', 'profiling');
COMMENT ON TYPE marketing.consent_purpose IS 'Purpose of processing a consent is given or refused for.';

-- ---------------------------------------------------------------- campaigns
CREATE TABLE marketing.campaigns (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    code varchar(40) NOT NULL,
    name text NOT NULL,
    description text,
    channel marketing.campaign_channel NOT NULL,
    objective marketing.campaign_objective NOT NULL,
    status marketing.campaign_status NOT NULL DEFAULT 'draft',
    starts_at timestamptz NOT NULL,
    ends_at timestamptz,
    budget_amount numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    owner_user_id bigint NOT NULL,
    created_by_user_id bigint NOT NULL,
    tags text[] NOT NULL DEFAULT '{}',
    metadata jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT campaigns_ends_at_check CHECK (ends_at IS NULL OR ends_at >= starts_at),
    CONSTRAINT campaigns_budget_amount_check CHECK (budget_amount >= 0)
);
COMMENT ON TABLE marketing.campaigns IS 'Marketing campaigns (promotions, launches, drives) a tenant plans and runs, with their channel, flight dates and budget. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN marketing.campaigns.workspace_id IS 'Brand or business unit running the campaign; NULL = a tenant-wide campaign not tied to one brand.';
COMMENT ON COLUMN marketing.campaigns.code IS 'Short internal campaign code, unique per tenant, e.g. SPRING24-EMAIL; often reused as utm_campaign.';
COMMENT ON COLUMN marketing.campaigns.name IS 'Human-readable campaign name shown in the back office.';
COMMENT ON COLUMN marketing.campaigns.description IS 'Free-text brief of the campaign; NULL if none was written.';
COMMENT ON COLUMN marketing.campaigns.channel IS 'Primary marketing channel: email, paid_search, paid_social, display, events, partner or organic.';
COMMENT ON COLUMN marketing.campaigns.objective IS 'Goal of the campaign: awareness, lead_generation, conversion, retention or reactivation.';
COMMENT ON COLUMN marketing.campaigns.status IS 'Lifecycle state: draft, scheduled, active, completed or cancelled.';
COMMENT ON COLUMN marketing.campaigns.starts_at IS 'Planned (or actual) start of the campaign flight.';
COMMENT ON COLUMN marketing.campaigns.ends_at IS 'End of the campaign flight; NULL = open-ended (always-on) campaign.';
COMMENT ON COLUMN marketing.campaigns.budget_amount IS 'Total approved budget for the whole flight, in currency_code; 0 when no budget was set.';
COMMENT ON COLUMN marketing.campaigns.currency_code IS 'ISO 4217 currency of budget_amount.';
COMMENT ON COLUMN marketing.campaigns.owner_user_id IS 'Staff member (marketer) accountable for the campaign.';
COMMENT ON COLUMN marketing.campaigns.created_by_user_id IS 'Staff member who created the campaign record.';
COMMENT ON COLUMN marketing.campaigns.tags IS 'Free labels for filtering, e.g. {q2,black-friday,enterprise}.';
COMMENT ON COLUMN marketing.campaigns.metadata IS 'Additional settings as a JSON document (creative links, agency, notes); NULL if none.';
COMMENT ON COLUMN marketing.campaigns.deleted_at IS 'When the campaign was deleted in the back office; NULL = live.';

-- ---------------------------------------------------------------- audiences
CREATE TABLE marketing.audiences (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    kind marketing.audience_kind NOT NULL,
    segment_id bigint,
    definition jsonb,
    member_count integer NOT NULL DEFAULT 0,
    is_active boolean NOT NULL DEFAULT true,
    last_refreshed_at timestamptz,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT audiences_member_count_check CHECK (member_count >= 0)
);
COMMENT ON TABLE marketing.audiences IS 'Target audiences (mailing lists, target groups) of contacts that campaigns and broadcasts are sent to. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN marketing.audiences.name IS 'Audience name, e.g. "EU wholesale buyers" or "Lapsed 90 days".';
COMMENT ON COLUMN marketing.audiences.description IS 'Free-text description of who is targeted; NULL if none.';
COMMENT ON COLUMN marketing.audiences.kind IS 'How members are determined: static (hand-picked), dynamic (rule), imported (file upload) or lookalike.';
COMMENT ON COLUMN marketing.audiences.segment_id IS 'CRM customer segment the audience is built from; NULL = audience not derived from a CRM segment.';
COMMENT ON COLUMN marketing.audiences.definition IS 'Filter rules of a dynamic audience as a JSON document; NULL for static and imported audiences.';
COMMENT ON COLUMN marketing.audiences.member_count IS 'Number of current members as of last_refreshed_at (cached; count audience_members for the live figure).';
COMMENT ON COLUMN marketing.audiences.is_active IS 'Whether the audience can be selected for new sends.';
COMMENT ON COLUMN marketing.audiences.last_refreshed_at IS 'When membership was last recomputed; NULL = never refreshed.';
COMMENT ON COLUMN marketing.audiences.created_by_user_id IS 'Staff member who created the audience.';
COMMENT ON COLUMN marketing.audiences.deleted_at IS 'When the audience was deleted; NULL = live.';

-- ---------------------------------------------------------------- audience_members
CREATE TABLE marketing.audience_members (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    audience_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    source marketing.audience_member_source NOT NULL,
    added_by_user_id bigint,
    added_at timestamptz NOT NULL,
    removed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT audience_members_removed_at_check CHECK (removed_at IS NULL OR removed_at >= added_at)
);
COMMENT ON TABLE marketing.audience_members IS 'Membership of contacts in target audiences (list members): one row per contact and audience.';
COMMENT ON COLUMN marketing.audience_members.audience_id IS 'Audience the contact belongs to.';
COMMENT ON COLUMN marketing.audience_members.contact_id IS 'Contact (person) who is a member of the audience.';
COMMENT ON COLUMN marketing.audience_members.source IS 'How the contact was added: manual, rule, import, api or form.';
COMMENT ON COLUMN marketing.audience_members.added_by_user_id IS 'Staff member who added the contact; NULL = added automatically by a rule, import, API call or form.';
COMMENT ON COLUMN marketing.audience_members.added_at IS 'When the contact joined the audience.';
COMMENT ON COLUMN marketing.audience_members.removed_at IS 'When the contact left the audience; NULL = still a member.';

-- ---------------------------------------------------------------- ad_accounts
CREATE TABLE marketing.ad_accounts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    platform marketing.ad_platform NOT NULL,
    external_account_id varchar(64) NOT NULL,
    name text NOT NULL,
    currency_code char(3) NOT NULL,
    timezone_name text NOT NULL,
    status marketing.ad_account_status NOT NULL DEFAULT 'pending',
    spend_limit_amount numeric(14,2),
    connected_by_user_id bigint NOT NULL,
    connected_at timestamptz NOT NULL,
    last_synced_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ad_accounts_spend_limit_amount_check CHECK (spend_limit_amount >= 0)
);
COMMENT ON TABLE marketing.ad_accounts IS 'Advertising accounts (Google Ads, Meta, LinkedIn, TikTok, Microsoft Ads) the tenant has connected so ad spend can be imported.';
COMMENT ON COLUMN marketing.ad_accounts.platform IS 'Ad network: google_ads, meta, linkedin, tiktok or microsoft.';
COMMENT ON COLUMN marketing.ad_accounts.external_account_id IS 'Account id on the ad platform, e.g. 123-456-7890 for Google Ads; unique per tenant.';
COMMENT ON COLUMN marketing.ad_accounts.name IS 'Display name of the ad account.';
COMMENT ON COLUMN marketing.ad_accounts.currency_code IS 'ISO 4217 currency the ad platform bills this account in; spend imported from it is in this currency.';
COMMENT ON COLUMN marketing.ad_accounts.timezone_name IS 'IANA time zone the ad platform reports days in, e.g. America/New_York.';
COMMENT ON COLUMN marketing.ad_accounts.status IS 'Connection state: pending, connected, disconnected or suspended.';
COMMENT ON COLUMN marketing.ad_accounts.spend_limit_amount IS 'Account-level spending cap set on the platform, in currency_code; NULL = no cap.';
COMMENT ON COLUMN marketing.ad_accounts.connected_by_user_id IS 'Staff member who authorised the connection.';
COMMENT ON COLUMN marketing.ad_accounts.connected_at IS 'When the account was first connected.';
COMMENT ON COLUMN marketing.ad_accounts.last_synced_at IS 'When spend was last imported from the platform; NULL = never synced.';

-- ---------------------------------------------------------------- ad_spend_daily
CREATE TABLE marketing.ad_spend_daily (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    ad_account_id bigint NOT NULL,
    spend_date date NOT NULL,
    spend_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    impressions bigint NOT NULL DEFAULT 0,
    clicks integer NOT NULL DEFAULT 0,
    conversions integer NOT NULL DEFAULT 0,
    conversion_value_amount numeric(14,2) NOT NULL DEFAULT 0,
    synced_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ad_spend_daily_spend_amount_check CHECK (spend_amount >= 0),
    CONSTRAINT ad_spend_daily_impressions_check CHECK (impressions >= 0),
    CONSTRAINT ad_spend_daily_clicks_check CHECK (clicks >= 0)
);
COMMENT ON TABLE marketing.ad_spend_daily IS 'Daily advertising spend (ad cost, media spend) and delivery metrics per campaign, imported from the ad platforms: one row per campaign and day.';
COMMENT ON COLUMN marketing.ad_spend_daily.campaign_id IS 'Campaign the spend is booked to.';
COMMENT ON COLUMN marketing.ad_spend_daily.ad_account_id IS 'Ad account the spend was incurred on.';
COMMENT ON COLUMN marketing.ad_spend_daily.spend_date IS 'Calendar day of the spend, in the ad account''s reporting time zone.';
COMMENT ON COLUMN marketing.ad_spend_daily.spend_amount IS 'Money spent that day, in currency_code (the ad account currency, which may differ from the campaign budget currency).';
COMMENT ON COLUMN marketing.ad_spend_daily.currency_code IS 'ISO 4217 currency of spend_amount and conversion_value_amount.';
COMMENT ON COLUMN marketing.ad_spend_daily.impressions IS 'Number of times ads were shown that day.';
COMMENT ON COLUMN marketing.ad_spend_daily.clicks IS 'Number of ad clicks that day.';
COMMENT ON COLUMN marketing.ad_spend_daily.conversions IS 'Conversions reported by the ad platform that day (platform-attributed, not order attribution).';
COMMENT ON COLUMN marketing.ad_spend_daily.conversion_value_amount IS 'Value of the platform-reported conversions, in currency_code.';
COMMENT ON COLUMN marketing.ad_spend_daily.synced_at IS 'When these figures were last imported; late syncs can restate a day.';

-- ---------------------------------------------------------------- tracking_links
CREATE TABLE marketing.tracking_links (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    campaign_id bigint NOT NULL,
    landing_page_id bigint,
    short_code varchar(16) NOT NULL,
    destination_url text NOT NULL,
    utm_source text NOT NULL,
    utm_medium text NOT NULL,
    utm_campaign text NOT NULL,
    utm_content text,
    utm_term text,
    click_count integer NOT NULL DEFAULT 0,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tracking_links_click_count_check CHECK (click_count >= 0)
);
COMMENT ON TABLE marketing.tracking_links IS 'UTM-tagged tracking links (short links, campaign URLs) that attribute visits and orders to a campaign.';
COMMENT ON COLUMN marketing.tracking_links.campaign_id IS 'Campaign the link belongs to.';
COMMENT ON COLUMN marketing.tracking_links.landing_page_id IS 'Tenant landing page the link points to; NULL = destination is another URL (storefront page, product page, external site).';
COMMENT ON COLUMN marketing.tracking_links.short_code IS 'Short-link code, unique per tenant, e.g. x7Kp2Q.';
COMMENT ON COLUMN marketing.tracking_links.destination_url IS 'Full target URL including the UTM query parameters.';
COMMENT ON COLUMN marketing.tracking_links.utm_source IS 'utm_source value, e.g. google, newsletter, linkedin.';
COMMENT ON COLUMN marketing.tracking_links.utm_medium IS 'utm_medium value, e.g. cpc, email, social, referral.';
COMMENT ON COLUMN marketing.tracking_links.utm_campaign IS 'utm_campaign value, usually the campaign code.';
COMMENT ON COLUMN marketing.tracking_links.utm_content IS 'utm_content value distinguishing creatives or placements; NULL if not used.';
COMMENT ON COLUMN marketing.tracking_links.utm_term IS 'utm_term value (paid keyword); NULL if not used.';
COMMENT ON COLUMN marketing.tracking_links.click_count IS 'Number of clicks recorded on the short link so far.';
COMMENT ON COLUMN marketing.tracking_links.is_active IS 'Whether the short link still redirects.';
COMMENT ON COLUMN marketing.tracking_links.created_by_user_id IS 'Staff member who generated the link.';
COMMENT ON COLUMN marketing.tracking_links.expires_at IS 'When the short link stops redirecting; NULL = never expires.';

-- ---------------------------------------------------------------- attribution_touches
CREATE TABLE marketing.attribution_touches (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    order_id bigint NOT NULL,
    account_id bigint NOT NULL,
    campaign_id bigint,
    tracking_link_id bigint,
    contact_id bigint,
    touch_type marketing.touch_type NOT NULL,
    attribution_model marketing.attribution_model NOT NULL,
    source_channel text NOT NULL,
    touched_at timestamptz NOT NULL,
    weight numeric(5,4) NOT NULL,
    credited_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT attribution_touches_weight_check CHECK (weight >= 0),
    CONSTRAINT attribution_touches_weight_check1 CHECK (weight <= 1),
    CONSTRAINT attribution_touches_credited_amount_check CHECK (credited_amount >= 0)
);
COMMENT ON TABLE marketing.attribution_touches IS 'Marketing attribution: the touches (campaign clicks, visits, direct arrivals) credited with a share of an order''s revenue under an attribution model.';
COMMENT ON COLUMN marketing.attribution_touches.order_id IS 'Order the revenue credit belongs to.';
COMMENT ON COLUMN marketing.attribution_touches.account_id IS 'Customer account that placed the order.';
COMMENT ON COLUMN marketing.attribution_touches.campaign_id IS 'Campaign credited; NULL = unattributed touch (direct or organic traffic with no campaign).';
COMMENT ON COLUMN marketing.attribution_touches.tracking_link_id IS 'Tracking link that was clicked; NULL = the visit did not come through a tracked link.';
COMMENT ON COLUMN marketing.attribution_touches.contact_id IS 'Contact identified at the touch; NULL = anonymous visitor not matched to a contact.';
COMMENT ON COLUMN marketing.attribution_touches.touch_type IS 'Position of the touch in the journey: first_touch, last_touch or assist.';
COMMENT ON COLUMN marketing.attribution_touches.attribution_model IS 'Model the credit was computed with: first_touch, last_touch, linear, position_based or time_decay.';
COMMENT ON COLUMN marketing.attribution_touches.source_channel IS 'Traffic source of the touch, e.g. direct, organic_search, paid_search, email, social, referral.';
COMMENT ON COLUMN marketing.attribution_touches.touched_at IS 'When the touch (click or visit) happened.';
COMMENT ON COLUMN marketing.attribution_touches.weight IS 'Share of the order credited to this touch, 0 to 1; weights of one order and model sum to 1.';
COMMENT ON COLUMN marketing.attribution_touches.credited_amount IS 'Order revenue credited to this touch (order total times weight), in currency_code.';
COMMENT ON COLUMN marketing.attribution_touches.currency_code IS 'ISO 4217 currency of credited_amount (the order currency).';

-- ---------------------------------------------------------------- landing_pages
CREATE TABLE marketing.landing_pages (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    campaign_id bigint,
    form_id bigint,
    slug varchar(120) NOT NULL,
    title text NOT NULL,
    url text NOT NULL,
    language_code char(2) NOT NULL,
    status marketing.landing_page_status NOT NULL DEFAULT 'draft',
    meta_description text,
    content jsonb NOT NULL,
    published_at timestamptz,
    view_count integer NOT NULL DEFAULT 0,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE marketing.landing_pages IS 'Campaign landing pages (microsites, promo pages) built in the page editor. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN marketing.landing_pages.campaign_id IS 'Campaign the page was built for; NULL = evergreen page not tied to a campaign.';
COMMENT ON COLUMN marketing.landing_pages.form_id IS 'Lead-capture form embedded on the page; NULL = page has no form.';
COMMENT ON COLUMN marketing.landing_pages.slug IS 'URL path segment of the page, unique per tenant, e.g. spring-sale-2024.';
COMMENT ON COLUMN marketing.landing_pages.title IS 'Page title (headline).';
COMMENT ON COLUMN marketing.landing_pages.url IS 'Public URL of the page.';
COMMENT ON COLUMN marketing.landing_pages.language_code IS 'ISO 639-1 language of the page content.';
COMMENT ON COLUMN marketing.landing_pages.status IS 'Publication state: draft, published, unpublished or archived.';
COMMENT ON COLUMN marketing.landing_pages.meta_description IS 'SEO meta description; NULL if not set.';
COMMENT ON COLUMN marketing.landing_pages.content IS 'Page blocks and layout as a JSON document.';
COMMENT ON COLUMN marketing.landing_pages.published_at IS 'When the page was first published; NULL = never published.';
COMMENT ON COLUMN marketing.landing_pages.view_count IS 'Number of page views recorded so far.';
COMMENT ON COLUMN marketing.landing_pages.created_by_user_id IS 'Staff member who created the page.';
COMMENT ON COLUMN marketing.landing_pages.deleted_at IS 'When the page was deleted; NULL = live.';

-- ---------------------------------------------------------------- forms
CREATE TABLE marketing.forms (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    campaign_id bigint,
    lead_source_id bigint NOT NULL,
    name text NOT NULL,
    kind marketing.form_kind NOT NULL,
    language_code char(2) NOT NULL,
    fields jsonb NOT NULL,
    is_double_opt_in boolean NOT NULL DEFAULT false,
    is_captcha_enabled boolean NOT NULL DEFAULT true,
    redirect_url text,
    submission_count integer NOT NULL DEFAULT 0,
    owner_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE marketing.forms IS 'Lead-capture forms (web forms, sign-up forms, demo-request forms) placed on landing pages and the storefront. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN marketing.forms.campaign_id IS 'Campaign the form collects leads for; NULL = always-on form not tied to a campaign.';
COMMENT ON COLUMN marketing.forms.lead_source_id IS 'CRM lead source assigned to leads created from this form.';
COMMENT ON COLUMN marketing.forms.name IS 'Internal form name, e.g. "Contact sales - EN".';
COMMENT ON COLUMN marketing.forms.kind IS 'Purpose: contact_us, newsletter, demo_request, quote_request, event_registration or gated_content.';
COMMENT ON COLUMN marketing.forms.language_code IS 'ISO 639-1 language of the form labels.';
COMMENT ON COLUMN marketing.forms.fields IS 'Field definitions (name, label, type, required) as a JSON array.';
COMMENT ON COLUMN marketing.forms.is_double_opt_in IS 'Whether submitters must confirm their e-mail address before being subscribed.';
COMMENT ON COLUMN marketing.forms.is_captcha_enabled IS 'Whether the form shows a CAPTCHA against spam.';
COMMENT ON COLUMN marketing.forms.redirect_url IS 'Page shown after submission; NULL = inline thank-you message.';
COMMENT ON COLUMN marketing.forms.submission_count IS 'Number of submissions received so far (cached).';
COMMENT ON COLUMN marketing.forms.owner_user_id IS 'Staff member responsible for the form and its follow-up.';
COMMENT ON COLUMN marketing.forms.deleted_at IS 'When the form was deleted; NULL = live.';

-- ---------------------------------------------------------------- form_submissions
CREATE TABLE marketing.form_submissions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    form_id bigint NOT NULL,
    contact_id bigint,
    lead_id bigint,
    landing_page_id bigint,
    submitted_at timestamptz NOT NULL,
    email text,
    payload jsonb NOT NULL,
    ip inet,
    user_agent text,
    referrer_url text,
    is_spam boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE marketing.form_submissions IS 'Submitted forms (form fills, sign-ups, inbound enquiries): one row per submission of a lead-capture form.';
COMMENT ON COLUMN marketing.form_submissions.form_id IS 'Form that was submitted.';
COMMENT ON COLUMN marketing.form_submissions.contact_id IS 'Existing contact the submission was matched to; NULL = contact not yet created (unknown submitter).';
COMMENT ON COLUMN marketing.form_submissions.lead_id IS 'CRM lead created or updated from the submission; NULL = no lead (e.g. newsletter sign-up or spam).';
COMMENT ON COLUMN marketing.form_submissions.landing_page_id IS 'Landing page the form was submitted on; NULL = submitted elsewhere (storefront, embedded widget).';
COMMENT ON COLUMN marketing.form_submissions.submitted_at IS 'When the form was submitted.';
COMMENT ON COLUMN marketing.form_submissions.email IS 'E-mail address entered in the form; NULL if the form has no e-mail field.';
COMMENT ON COLUMN marketing.form_submissions.payload IS 'All submitted field values as a JSON object keyed by field name.';
COMMENT ON COLUMN marketing.form_submissions.ip IS 'IP address of the submitter; NULL when not captured (privacy setting).';
COMMENT ON COLUMN marketing.form_submissions.user_agent IS 'Browser user-agent string of the submitter; NULL when not captured.';
COMMENT ON COLUMN marketing.form_submissions.referrer_url IS 'Page the visitor came from, including any UTM parameters; NULL if unknown.';
COMMENT ON COLUMN marketing.form_submissions.is_spam IS 'Whether the submission was flagged as spam and ignored.';

-- ---------------------------------------------------------------- referral_programs
CREATE TABLE marketing.referral_programs (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(40) NOT NULL,
    name text NOT NULL,
    description text,
    status marketing.referral_program_status NOT NULL DEFAULT 'draft',
    reward_kind marketing.reward_kind NOT NULL,
    reward_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    referred_discount_id bigint,
    starts_at timestamptz NOT NULL,
    ends_at timestamptz,
    max_rewards_per_referrer integer,
    terms_url text,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT referral_programs_ends_at_check CHECK (ends_at IS NULL OR ends_at >= starts_at),
    CONSTRAINT referral_programs_reward_amount_check CHECK (reward_amount >= 0),
    CONSTRAINT referral_programs_max_rewards_per_referrer_check CHECK (max_rewards_per_referrer > 0)
);
COMMENT ON TABLE marketing.referral_programs IS 'Referral schemes (refer-a-friend, customer referral programs) that reward customers for bringing in new customers. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN marketing.referral_programs.code IS 'Program code, unique per tenant, e.g. REFER-2024.';
COMMENT ON COLUMN marketing.referral_programs.name IS 'Program name shown to customers.';
COMMENT ON COLUMN marketing.referral_programs.description IS 'Short description of how the program works; NULL if none.';
COMMENT ON COLUMN marketing.referral_programs.status IS 'Lifecycle state: draft, active, paused or ended.';
COMMENT ON COLUMN marketing.referral_programs.reward_kind IS 'How the referrer is rewarded: account_credit, discount, cash or loyalty_points.';
COMMENT ON COLUMN marketing.referral_programs.reward_amount IS 'Reward per successful referral, in currency_code (for loyalty_points: the money value of the points).';
COMMENT ON COLUMN marketing.referral_programs.currency_code IS 'ISO 4217 currency of reward_amount.';
COMMENT ON COLUMN marketing.referral_programs.referred_discount_id IS 'Discount given to the referred (new) customer on the first order; NULL = the referred customer gets no discount.';
COMMENT ON COLUMN marketing.referral_programs.starts_at IS 'When referrals start being accepted.';
COMMENT ON COLUMN marketing.referral_programs.ends_at IS 'When the program stops accepting referrals; NULL = open-ended.';
COMMENT ON COLUMN marketing.referral_programs.max_rewards_per_referrer IS 'Maximum number of rewards one referrer can earn; NULL = unlimited.';
COMMENT ON COLUMN marketing.referral_programs.terms_url IS 'Link to the program terms and conditions; NULL if none published.';
COMMENT ON COLUMN marketing.referral_programs.created_by_user_id IS 'Staff member who set up the program.';
COMMENT ON COLUMN marketing.referral_programs.deleted_at IS 'When the program was deleted; NULL = live.';

-- ---------------------------------------------------------------- referrals
CREATE TABLE marketing.referrals (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    program_id bigint NOT NULL,
    referral_code varchar(32) NOT NULL,
    referrer_account_id bigint NOT NULL,
    referrer_contact_id bigint NOT NULL,
    referred_account_id bigint,
    referred_email text NOT NULL,
    status marketing.referral_status NOT NULL DEFAULT 'invited',
    invited_at timestamptz NOT NULL,
    signed_up_at timestamptz,
    first_order_id bigint,
    rewarded_at timestamptz,
    reward_amount numeric(14,2),
    currency_code char(3) NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT referrals_signed_up_at_check CHECK (signed_up_at IS NULL OR signed_up_at >= invited_at),
    CONSTRAINT referrals_rewarded_at_check CHECK (rewarded_at IS NULL OR rewarded_at >= invited_at)
);
COMMENT ON TABLE marketing.referrals IS 'Referrals made by customers (refer-a-friend invitations): who referred whom under which program, and whether the reward was paid.';
COMMENT ON COLUMN marketing.referrals.program_id IS 'Referral program the referral was made under.';
COMMENT ON COLUMN marketing.referrals.referral_code IS 'Personal referral code or link token used, unique per tenant.';
COMMENT ON COLUMN marketing.referrals.referrer_account_id IS 'Existing customer account that made the referral (the referrer).';
COMMENT ON COLUMN marketing.referrals.referrer_contact_id IS 'Person at the referrer account who sent the invitation.';
COMMENT ON COLUMN marketing.referrals.referred_account_id IS 'New customer account created by the referred prospect; NULL = the referred prospect has not signed up.';
COMMENT ON COLUMN marketing.referrals.referred_email IS 'E-mail address the invitation was sent to.';
COMMENT ON COLUMN marketing.referrals.status IS 'Progress: invited, signed_up, qualified, rewarded, rejected or expired.';
COMMENT ON COLUMN marketing.referrals.invited_at IS 'When the referral invitation was sent.';
COMMENT ON COLUMN marketing.referrals.signed_up_at IS 'When the referred prospect created an account; NULL = not signed up.';
COMMENT ON COLUMN marketing.referrals.first_order_id IS 'First order of the referred customer that qualified the referral; NULL = no qualifying order yet.';
COMMENT ON COLUMN marketing.referrals.rewarded_at IS 'When the referrer was rewarded; NULL = not rewarded (yet).';
COMMENT ON COLUMN marketing.referrals.reward_amount IS 'Reward actually granted to the referrer, in currency_code; NULL until rewarded.';
COMMENT ON COLUMN marketing.referrals.currency_code IS 'ISO 4217 currency of reward_amount (the program currency).';

-- ---------------------------------------------------------------- loyalty_accounts
CREATE TABLE marketing.loyalty_accounts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    account_id bigint,
    membership_number varchar(20) NOT NULL,
    tier marketing.loyalty_tier NOT NULL DEFAULT 'bronze',
    current_points integer NOT NULL DEFAULT 0,
    lifetime_points integer NOT NULL DEFAULT 0,
    is_active boolean NOT NULL DEFAULT true,
    enrolled_at timestamptz NOT NULL,
    tier_expires_on date,
    last_activity_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT loyalty_accounts_lifetime_points_check CHECK (lifetime_points >= 0)
);
COMMENT ON TABLE marketing.loyalty_accounts IS 'Loyalty-program memberships (rewards accounts, points wallets) of contacts, with their current points and tier: one per contact.';
COMMENT ON COLUMN marketing.loyalty_accounts.contact_id IS 'Contact (member) who owns the loyalty account.';
COMMENT ON COLUMN marketing.loyalty_accounts.account_id IS 'Customer account the member buys for; NULL = member not attached to a business account.';
COMMENT ON COLUMN marketing.loyalty_accounts.membership_number IS 'Loyalty card / membership number, unique per tenant.';
COMMENT ON COLUMN marketing.loyalty_accounts.tier IS 'Current tier: bronze, silver, gold or platinum.';
COMMENT ON COLUMN marketing.loyalty_accounts.current_points IS 'Points available to redeem right now (the points balance); equals the sum of loyalty_transactions.points.';
COMMENT ON COLUMN marketing.loyalty_accounts.lifetime_points IS 'All points ever earned, ignoring redemptions and expiry; drives the tier.';
COMMENT ON COLUMN marketing.loyalty_accounts.is_active IS 'Whether the membership is active (false = closed or frozen).';
COMMENT ON COLUMN marketing.loyalty_accounts.enrolled_at IS 'When the contact joined the loyalty program.';
COMMENT ON COLUMN marketing.loyalty_accounts.tier_expires_on IS 'Date the current tier lapses unless requalified; NULL = tier does not expire (bronze).';
COMMENT ON COLUMN marketing.loyalty_accounts.last_activity_at IS 'When points last moved on the account; NULL = no activity since enrolment.';

-- ---------------------------------------------------------------- loyalty_transactions
CREATE TABLE marketing.loyalty_transactions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    loyalty_account_id bigint NOT NULL,
    order_id bigint,
    kind marketing.loyalty_transaction_kind NOT NULL,
    points integer NOT NULL,
    points_after integer NOT NULL,
    description text,
    occurred_at timestamptz NOT NULL,
    expires_on date,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE marketing.loyalty_transactions IS 'Loyalty points ledger: every points movement (points earned, redeemed, expired, adjusted) on a loyalty account.';
COMMENT ON COLUMN marketing.loyalty_transactions.loyalty_account_id IS 'Loyalty account the points moved on.';
COMMENT ON COLUMN marketing.loyalty_transactions.order_id IS 'Order that earned or redeemed the points; NULL = not tied to an order (expiry, manual adjustment, bonus).';
COMMENT ON COLUMN marketing.loyalty_transactions.kind IS 'Movement kind: earn, redeem, expire or adjust.';
COMMENT ON COLUMN marketing.loyalty_transactions.points IS 'Signed number of points: positive for earn (and positive adjustments), negative for redeem, expire and negative adjustments.';
COMMENT ON COLUMN marketing.loyalty_transactions.points_after IS 'Points available on the account right after this movement (running figure).';
COMMENT ON COLUMN marketing.loyalty_transactions.description IS 'Reason shown to the member, e.g. "Order SO-10023" or "Goodwill bonus"; NULL if none.';
COMMENT ON COLUMN marketing.loyalty_transactions.occurred_at IS 'When the points movement took effect.';
COMMENT ON COLUMN marketing.loyalty_transactions.expires_on IS 'Date earned points expire; NULL for non-earn movements or points that never expire.';

-- ---------------------------------------------------------------- consents
CREATE TABLE marketing.consents (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    channel shared.message_channel NOT NULL,
    purpose marketing.consent_purpose NOT NULL,
    is_granted boolean NOT NULL,
    legal_basis text NOT NULL DEFAULT 'consent',
    granted_at timestamptz NOT NULL,
    revoked_at timestamptz,
    source text NOT NULL,
    form_submission_id bigint,
    ip inet,
    consent_text_version text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT consents_revoked_at_check CHECK (revoked_at IS NULL OR revoked_at >= granted_at),
    CONSTRAINT consents_legal_basis_check CHECK (legal_basis IN ('consent', 'legitimate_interest', 'contract'))
);
COMMENT ON TABLE marketing.consents IS 'Marketing consents (opt-ins and opt-outs, GDPR permissions) of contacts per channel and purpose, with when and how they were given or revoked.';
COMMENT ON COLUMN marketing.consents.contact_id IS 'Contact the consent belongs to.';
COMMENT ON COLUMN marketing.consents.channel IS 'Channel the consent covers: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN marketing.consents.purpose IS 'Processing purpose: marketing, newsletter, product_updates, surveys, third_party_sharing or profiling.';
COMMENT ON COLUMN marketing.consents.is_granted IS 'true = opted in, false = explicitly opted out. A granted consent with revoked_at set is no longer valid.';
COMMENT ON COLUMN marketing.consents.legal_basis IS 'GDPR legal basis: consent, legitimate_interest or contract.';
COMMENT ON COLUMN marketing.consents.granted_at IS 'When the choice was recorded (opt-in time, or opt-out time when is_granted is false).';
COMMENT ON COLUMN marketing.consents.revoked_at IS 'When a granted consent was withdrawn; NULL = still in force.';
COMMENT ON COLUMN marketing.consents.source IS 'Where the consent was captured, e.g. web_form, checkout, preference_center, import, sales_rep.';
COMMENT ON COLUMN marketing.consents.form_submission_id IS 'Form submission that captured the consent; NULL = captured another way (checkout, import, staff).';
COMMENT ON COLUMN marketing.consents.ip IS 'IP address the consent was given from (proof of consent); NULL if not captured.';
COMMENT ON COLUMN marketing.consents.consent_text_version IS 'Version of the consent wording shown, e.g. 2024-03; NULL if unknown (legacy import).';

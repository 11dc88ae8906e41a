-- heron domain 05 pricing, phase 1: what things cost. Global tax authorities and their rate
-- history, the tenant's tax classes, price lists and their per-SKU entries with quantity breaks,
-- customer-specific price lists and negotiated contract prices, discounts with their rules,
-- coupon codes, time-boxed promotions, and the audit history of list-price changes.

CREATE TYPE pricing.tax_jurisdiction_level AS ENUM ('country', 'state', 'county', 'city', 'special_district');
COMMENT ON TYPE pricing.tax_jurisdiction_level IS 'Administrative level of a tax authority.';

CREATE TYPE pricing.price_list_status AS ENUM ('draft', 'scheduled', 'active', 'expired', 'archived');
COMMENT ON TYPE pricing.price_list_status IS 'Lifecycle state of a price list.';

CREATE TYPE pricing.contract_price_status AS ENUM ('pending_approval', 'approved', 'rejected', 'expired', 'superseded');
COMMENT ON TYPE pricing.contract_price_status IS 'Approval state of a negotiated customer price.';

CREATE TYPE pricing.discount_kind AS ENUM ('percentage', 'fixed_amount', 'free_shipping', 'bogo');
COMMENT ON TYPE pricing.discount_kind IS 'How a discount reduces the price: percent off, fixed amount off, free shipping, or buy-one-get-one.';

CREATE TYPE pricing.discount_status AS ENUM ('draft', 'active', 'paused', 'expired', 'archived');
COMMENT ON TYPE pricing.discount_status IS 'Lifecycle state of a discount definition.';

CREATE TYPE pricing.discount_scope AS ENUM ('order', 'line_item', 'shipping');
COMMENT ON TYPE pricing.discount_scope IS 'What part of an order a discount is applied to.';

CREATE TYPE pricing.discount_rule_type AS ENUM ('product', 'category', 'account_segment', 'min_subtotal', 'min_quantity', 'first_order');
COMMENT ON TYPE pricing.discount_rule_type IS 'Kind of eligibility condition a discount rule expresses.';

CREATE TYPE pricing.coupon_status AS ENUM ('active', 'exhausted', 'expired', 'disabled');
COMMENT ON TYPE pricing.coupon_status IS 'Whether a coupon code can still be redeemed.';

CREATE TYPE pricing.promotion_status AS ENUM ('draft', 'scheduled', 'active', 'ended', 'cancelled');
COMMENT ON TYPE pricing.promotion_status IS 'Lifecycle state of a promotion.';

CREATE TYPE pricing.price_change_source AS ENUM ('manual', 'bulk_import', 'api', 'pricing_rule', 'promotion', 'currency_revaluation');
COMMENT ON TYPE pricing.price_change_source IS 'What caused a list-price change.';

-- ---------------------------------------------------------------------------------------------

CREATE TABLE pricing.tax_jurisdictions (
    id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    jurisdiction_level pricing.tax_jurisdiction_level NOT NULL,
    country_code char(2) NOT NULL,
    subdivision_code varchar(6),
    parent_jurisdiction_id bigint,
    authority_name text NOT NULL,
    filing_currency_code char(3) NOT NULL,
    tax_name text NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE pricing.tax_jurisdictions IS 'Tax authorities (tax jurisdictions) maintained by the platform for all tenants: a country, state/province, county or city that levies sales tax, VAT or GST. One row per authority; rates live in pricing.tax_rates.';
COMMENT ON COLUMN pricing.tax_jurisdictions.code IS 'Platform-wide jurisdiction code, e.g. US-CA, US-CA-LA, DE, GB. Unique.';
COMMENT ON COLUMN pricing.tax_jurisdictions.name IS 'Display name of the jurisdiction, e.g. California, Los Angeles County, Germany.';
COMMENT ON COLUMN pricing.tax_jurisdictions.jurisdiction_level IS 'Administrative level: country, state, county, city or special_district.';
COMMENT ON COLUMN pricing.tax_jurisdictions.country_code IS 'ISO 3166-1 alpha-2 country the jurisdiction lies in.';
COMMENT ON COLUMN pricing.tax_jurisdictions.subdivision_code IS 'ISO 3166-2 subdivision suffix (state or province, e.g. CA, NY, ON); NULL for country-level jurisdictions.';
COMMENT ON COLUMN pricing.tax_jurisdictions.parent_jurisdiction_id IS 'Enclosing jurisdiction (a county''s state, a state''s country); NULL for top-level country jurisdictions.';
COMMENT ON COLUMN pricing.tax_jurisdictions.authority_name IS 'Name of the tax authority that collects the tax, e.g. California Department of Tax and Fee Administration, HMRC.';
COMMENT ON COLUMN pricing.tax_jurisdictions.filing_currency_code IS 'Currency tax returns are filed and paid in for this jurisdiction.';
COMMENT ON COLUMN pricing.tax_jurisdictions.tax_name IS 'Name of the tax as shown on invoices: VAT, GST, HST, sales tax, use tax.';
COMMENT ON COLUMN pricing.tax_jurisdictions.is_active IS 'False once the platform no longer calculates tax for this jurisdiction.';

CREATE TABLE pricing.tax_rates (
    id bigint NOT NULL,
    tax_jurisdiction_id bigint NOT NULL,
    tax_class text NOT NULL,
    name text NOT NULL,
    rate_percent numeric(6,3) NOT NULL,
    is_compound boolean NOT NULL DEFAULT false,
    is_applied_to_shipping boolean NOT NULL DEFAULT false,
    valid_from date NOT NULL,
    valid_to date,
    legal_reference text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tax_rates_rate_percent_check CHECK (rate_percent >= 0),
    CONSTRAINT tax_rates_valid_to_check CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
COMMENT ON TABLE pricing.tax_rates IS 'Tax rate history (VAT/GST/sales-tax rates) per jurisdiction and tax class, maintained by the platform. One row is a rate valid over a date range; the current rate is the row whose valid_to is NULL or in the future.';
COMMENT ON COLUMN pricing.tax_rates.tax_jurisdiction_id IS 'Jurisdiction (tax authority) that levies this rate.';
COMMENT ON COLUMN pricing.tax_rates.tax_class IS 'Tax class the rate applies to; matched against pricing.tax_categories.tax_class. Typical values: standard, reduced, super_reduced, zero, exempt, digital_services, food.';
COMMENT ON COLUMN pricing.tax_rates.name IS 'Label printed on invoices, e.g. "VAT 19%", "CA State Sales Tax".';
COMMENT ON COLUMN pricing.tax_rates.rate_percent IS 'Tax rate in percent (7.250 means 7.25 %). Zero for zero-rated classes.';
COMMENT ON COLUMN pricing.tax_rates.is_compound IS 'True if this rate is charged on top of the price including lower-level taxes (tax on tax), as in Quebec QST.';
COMMENT ON COLUMN pricing.tax_rates.is_applied_to_shipping IS 'True if shipping charges are also taxed at this rate in the jurisdiction.';
COMMENT ON COLUMN pricing.tax_rates.valid_from IS 'First calendar day the rate applies (inclusive).';
COMMENT ON COLUMN pricing.tax_rates.valid_to IS 'Last calendar day the rate applies (inclusive); NULL means the rate is still in force.';
COMMENT ON COLUMN pricing.tax_rates.legal_reference IS 'Statute or official notice that set the rate; NULL when not recorded.';

CREATE TABLE pricing.tax_categories (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    code text NOT NULL,
    name text NOT NULL,
    description text,
    tax_class text NOT NULL,
    external_tax_code text,
    is_default boolean NOT NULL DEFAULT false,
    is_exempt boolean NOT NULL DEFAULT false,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE pricing.tax_categories IS 'The tenant''s product tax classes (tax codes, tax categories) such as general goods, food, digital services or exempt items; each maps to a platform tax_class used to look up pricing.tax_rates. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN pricing.tax_categories.workspace_id IS 'Brand or business unit the tax category belongs to; NULL means it is shared by all workspaces of the tenant.';
COMMENT ON COLUMN pricing.tax_categories.code IS 'Tenant-defined short code, e.g. GEN, FOOD, DIGI, EXEMPT. Unique per tenant.';
COMMENT ON COLUMN pricing.tax_categories.name IS 'Display name, e.g. General merchandise, Books, Software downloads.';
COMMENT ON COLUMN pricing.tax_categories.description IS 'Free-text explanation of which products belong in the category; NULL if none given.';
COMMENT ON COLUMN pricing.tax_categories.tax_class IS 'Platform tax class this category maps to (standard, reduced, zero, exempt, digital_services, food); joins to pricing.tax_rates.tax_class.';
COMMENT ON COLUMN pricing.tax_categories.external_tax_code IS 'Product tax code in an external tax engine (e.g. Avalara or TaxJar code such as P0000000); NULL when no engine is connected.';
COMMENT ON COLUMN pricing.tax_categories.is_default IS 'True for the category assigned to products that have none; at most one per tenant by convention.';
COMMENT ON COLUMN pricing.tax_categories.is_exempt IS 'True if items in this category are never taxed, whatever the rate table says.';
COMMENT ON COLUMN pricing.tax_categories.created_by_user_id IS 'Staff user who created the category.';
COMMENT ON COLUMN pricing.tax_categories.deleted_at IS 'When the category was deleted; NULL means it is live.';

CREATE TABLE pricing.price_lists (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    code text NOT NULL,
    name text NOT NULL,
    description text,
    currency_code char(3) NOT NULL,
    status pricing.price_list_status NOT NULL DEFAULT 'draft',
    is_default boolean NOT NULL DEFAULT false,
    is_tax_inclusive boolean NOT NULL DEFAULT false,
    base_price_list_id bigint,
    markup_percent numeric(7,3),
    priority integer NOT NULL DEFAULT 100,
    valid_from date,
    valid_to date,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT price_lists_valid_to_check CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
COMMENT ON TABLE pricing.price_lists IS 'Named price lists (price books, rate cards, tariffs) in one currency, e.g. "Wholesale EUR 2024" or "Distributor USD". SKU prices are in pricing.price_list_entries; customers are assigned through pricing.account_price_lists. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN pricing.price_lists.workspace_id IS 'Brand or business unit the price list belongs to; NULL means it is usable across all workspaces of the tenant.';
COMMENT ON COLUMN pricing.price_lists.code IS 'Tenant-defined short code, e.g. WHOLESALE-EUR, MSRP-USD. Unique per tenant.';
COMMENT ON COLUMN pricing.price_lists.name IS 'Display name of the price list.';
COMMENT ON COLUMN pricing.price_lists.description IS 'Free-text description of who the list is for; NULL if none given.';
COMMENT ON COLUMN pricing.price_lists.currency_code IS 'Currency all prices on this list are quoted in.';
COMMENT ON COLUMN pricing.price_lists.status IS 'Lifecycle: draft, scheduled (starts later), active, expired, archived. Only active lists are used for quoting.';
COMMENT ON COLUMN pricing.price_lists.is_default IS 'True for the list used when a customer has no assigned price list (the list price / public price book).';
COMMENT ON COLUMN pricing.price_lists.is_tax_inclusive IS 'True if entry prices include tax (typical for B2C/EU gross pricing); false for net prices.';
COMMENT ON COLUMN pricing.price_lists.base_price_list_id IS 'Price list this one is derived from by applying markup_percent; NULL for a standalone list whose prices are entered directly.';
COMMENT ON COLUMN pricing.price_lists.markup_percent IS 'Percentage added to (positive) or removed from (negative) the base list''s prices; NULL for standalone lists.';
COMMENT ON COLUMN pricing.price_lists.priority IS 'Tie-breaker when several lists apply to a customer: lower number wins. Default 100.';
COMMENT ON COLUMN pricing.price_lists.valid_from IS 'First day the list may be used; NULL means no start restriction.';
COMMENT ON COLUMN pricing.price_lists.valid_to IS 'Last day the list may be used (inclusive); NULL means open-ended.';
COMMENT ON COLUMN pricing.price_lists.created_by_user_id IS 'Staff user who created the price list.';
COMMENT ON COLUMN pricing.price_lists.deleted_at IS 'When the price list was deleted; NULL means it is live.';

CREATE TABLE pricing.price_list_entries (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    price_list_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    unit_price numeric(14,4) NOT NULL,
    compare_at_price numeric(14,4),
    currency_code char(3) NOT NULL,
    unit_of_measure_id bigint NOT NULL,
    min_quantity integer NOT NULL DEFAULT 1,
    is_active boolean NOT NULL DEFAULT true,
    effective_from timestamptz NOT NULL,
    updated_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT price_list_entries_unit_price_check CHECK (unit_price >= 0),
    CONSTRAINT price_list_entries_min_quantity_check CHECK (min_quantity > 0)
);
COMMENT ON TABLE pricing.price_list_entries IS 'The price of one SKU (product variant) on one price list: the list price / base price a customer on that list pays per unit before quantity breaks, contract prices and discounts. One row per price list and SKU.';
COMMENT ON COLUMN pricing.price_list_entries.price_list_id IS 'Price list this entry belongs to.';
COMMENT ON COLUMN pricing.price_list_entries.variant_id IS 'SKU (catalog.product_variants row) being priced.';
COMMENT ON COLUMN pricing.price_list_entries.unit_price IS 'Price per unit of measure, in currency_code (the price list''s currency). Net or gross according to the list''s is_tax_inclusive.';
COMMENT ON COLUMN pricing.price_list_entries.compare_at_price IS 'Reference price shown struck through (MSRP / RRP), in currency_code; NULL when no comparison price is shown.';
COMMENT ON COLUMN pricing.price_list_entries.currency_code IS 'Currency of unit_price and compare_at_price; always equals the price list''s currency.';
COMMENT ON COLUMN pricing.price_list_entries.unit_of_measure_id IS 'Unit the price is per (each, box of 12, kg).';
COMMENT ON COLUMN pricing.price_list_entries.min_quantity IS 'Minimum order quantity (MOQ) at this price, in units of measure. Default 1.';
COMMENT ON COLUMN pricing.price_list_entries.is_active IS 'False if the SKU is temporarily not sellable on this list.';
COMMENT ON COLUMN pricing.price_list_entries.effective_from IS 'When the current unit_price took effect; earlier prices are in pricing.price_changes.';
COMMENT ON COLUMN pricing.price_list_entries.updated_by_user_id IS 'Staff user who last changed the price; NULL if it was last set by an import, API client or pricing rule.';

CREATE TABLE pricing.volume_tiers (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    price_list_entry_id bigint NOT NULL,
    tier_rank smallint NOT NULL,
    label text,
    min_quantity integer NOT NULL,
    max_quantity integer,
    unit_price numeric(14,4) NOT NULL,
    currency_code char(3) NOT NULL,
    discount_percent numeric(6,3),
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT volume_tiers_min_quantity_check CHECK (min_quantity > 0),
    CONSTRAINT volume_tiers_max_quantity_check CHECK (max_quantity IS NULL OR max_quantity >= min_quantity)
);
COMMENT ON TABLE pricing.volume_tiers IS 'Quantity breaks (volume pricing, tiered pricing, bulk discounts) on a price-list entry: ordering at least min_quantity units of the SKU gets this lower unit price.';
COMMENT ON COLUMN pricing.volume_tiers.price_list_entry_id IS 'Price-list entry (SKU on a price list) the break belongs to.';
COMMENT ON COLUMN pricing.volume_tiers.tier_rank IS 'Position of the tier, 1 = smallest quantity break.';
COMMENT ON COLUMN pricing.volume_tiers.label IS 'Optional label shown to buyers, e.g. "Case price", "Pallet price"; NULL if none.';
COMMENT ON COLUMN pricing.volume_tiers.min_quantity IS 'Smallest order quantity (units) that qualifies for this tier.';
COMMENT ON COLUMN pricing.volume_tiers.max_quantity IS 'Largest quantity covered by this tier; NULL means no upper bound (the top tier).';
COMMENT ON COLUMN pricing.volume_tiers.unit_price IS 'Price per unit at this tier, in currency_code.';
COMMENT ON COLUMN pricing.volume_tiers.currency_code IS 'Currency of unit_price; equals the price list''s currency.';
COMMENT ON COLUMN pricing.volume_tiers.discount_percent IS 'Informational discount versus the entry''s base unit_price, in percent; NULL if not computed.';
COMMENT ON COLUMN pricing.volume_tiers.created_by_user_id IS 'Staff user who defined the tier.';

CREATE TABLE pricing.account_price_lists (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    price_list_id bigint NOT NULL,
    priority integer NOT NULL DEFAULT 100,
    is_active boolean NOT NULL DEFAULT true,
    valid_from date NOT NULL,
    valid_to date,
    assigned_by_user_id bigint NOT NULL,
    notes text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT account_price_lists_valid_to_check CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
COMMENT ON TABLE pricing.account_price_lists IS 'Assignment of price lists to business customers (customer price groups): which price list a customer account buys from. A customer with no row here is quoted from the tenant''s default price list.';
COMMENT ON COLUMN pricing.account_price_lists.account_id IS 'Customer account (crm.accounts) the price list is assigned to.';
COMMENT ON COLUMN pricing.account_price_lists.price_list_id IS 'Price list assigned to the customer.';
COMMENT ON COLUMN pricing.account_price_lists.priority IS 'Order in which a customer''s lists are tried when a SKU is on several: lower number wins.';
COMMENT ON COLUMN pricing.account_price_lists.is_active IS 'False if the assignment has been switched off without deleting it.';
COMMENT ON COLUMN pricing.account_price_lists.valid_from IS 'First day the customer buys from this list.';
COMMENT ON COLUMN pricing.account_price_lists.valid_to IS 'Last day of the assignment (inclusive); NULL means open-ended.';
COMMENT ON COLUMN pricing.account_price_lists.assigned_by_user_id IS 'Staff user (usually the account manager) who made the assignment.';
COMMENT ON COLUMN pricing.account_price_lists.notes IS 'Free-text reason for the assignment; NULL if none.';

CREATE TABLE pricing.contract_prices (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    contract_reference text,
    unit_price numeric(14,4) NOT NULL,
    currency_code char(3) NOT NULL,
    min_quantity integer NOT NULL DEFAULT 1,
    status pricing.contract_price_status NOT NULL DEFAULT 'pending_approval',
    valid_from date NOT NULL,
    valid_to date,
    opportunity_id bigint,
    created_by_user_id bigint NOT NULL,
    approved_by_user_id bigint,
    approved_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT contract_prices_unit_price_check CHECK (unit_price >= 0),
    CONSTRAINT contract_prices_valid_to_check CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
COMMENT ON TABLE pricing.contract_prices IS 'Negotiated per-customer prices (contract pricing, special pricing agreements, net prices) for one SKU, overriding any price list while approved and in date. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN pricing.contract_prices.account_id IS 'Customer account the negotiated price is for.';
COMMENT ON COLUMN pricing.contract_prices.variant_id IS 'SKU (catalog.product_variants) the price applies to.';
COMMENT ON COLUMN pricing.contract_prices.contract_reference IS 'Identifier of the signed agreement or framework contract, e.g. SPA-2024-0113; NULL if not tied to a document.';
COMMENT ON COLUMN pricing.contract_prices.unit_price IS 'Agreed net price per unit, in currency_code.';
COMMENT ON COLUMN pricing.contract_prices.currency_code IS 'Currency of unit_price; may differ from the customer''s price-list currency.';
COMMENT ON COLUMN pricing.contract_prices.min_quantity IS 'Minimum quantity per order line for the contract price to apply. Default 1.';
COMMENT ON COLUMN pricing.contract_prices.status IS 'Approval state: pending_approval, approved, rejected, expired, superseded. Only approved rows are used for pricing.';
COMMENT ON COLUMN pricing.contract_prices.valid_from IS 'First day the negotiated price applies.';
COMMENT ON COLUMN pricing.contract_prices.valid_to IS 'Last day the negotiated price applies (inclusive); NULL means until further notice.';
COMMENT ON COLUMN pricing.contract_prices.opportunity_id IS 'Sales deal (crm.opportunities) in which the price was negotiated; NULL if it was agreed outside the pipeline.';
COMMENT ON COLUMN pricing.contract_prices.created_by_user_id IS 'Staff user (usually the sales rep) who entered the price.';
COMMENT ON COLUMN pricing.contract_prices.approved_by_user_id IS 'Manager who approved the price; NULL while pending or if rejected.';
COMMENT ON COLUMN pricing.contract_prices.approved_at IS 'When the price was approved; NULL if not (yet) approved.';
COMMENT ON COLUMN pricing.contract_prices.deleted_at IS 'When the contract price was deleted; NULL means it is live.';

CREATE TABLE pricing.discounts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    name text NOT NULL,
    description text,
    kind pricing.discount_kind NOT NULL,
    scope pricing.discount_scope NOT NULL DEFAULT 'order',
    status pricing.discount_status NOT NULL DEFAULT 'draft',
    percent_off numeric(6,3),
    amount_off numeric(14,2),
    currency_code char(3) NOT NULL,
    starts_at timestamptz NOT NULL,
    ends_at timestamptz,
    is_stackable boolean NOT NULL DEFAULT false,
    is_automatic boolean NOT NULL DEFAULT false,
    max_uses_per_account integer,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT discounts_percent_off_check CHECK (percent_off <= 100),
    CONSTRAINT discounts_ends_at_check CHECK (ends_at IS NULL OR ends_at >= starts_at)
);
COMMENT ON TABLE pricing.discounts IS 'Discount definitions (price reductions, markdowns, offers): what is taken off and for how long. Eligibility conditions are in pricing.discount_rules; redeemable codes in pricing.coupons. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN pricing.discounts.workspace_id IS 'Brand or business unit running the discount; NULL means it applies across the whole tenant.';
COMMENT ON COLUMN pricing.discounts.name IS 'Internal name, e.g. "Spring restock 10%", "Free shipping over 500".';
COMMENT ON COLUMN pricing.discounts.description IS 'Customer-facing explanation shown at checkout; NULL if none.';
COMMENT ON COLUMN pricing.discounts.kind IS 'Mechanism: percentage (uses percent_off), fixed_amount (uses amount_off), free_shipping, or bogo (buy one get one).';
COMMENT ON COLUMN pricing.discounts.scope IS 'What the discount reduces: the whole order, individual line items, or shipping.';
COMMENT ON COLUMN pricing.discounts.status IS 'Lifecycle: draft, active, paused, expired, archived.';
COMMENT ON COLUMN pricing.discounts.percent_off IS 'Percent taken off (15.000 = 15 %) for percentage discounts; NULL for other kinds.';
COMMENT ON COLUMN pricing.discounts.amount_off IS 'Fixed amount taken off, in currency_code, for fixed_amount discounts; NULL for other kinds.';
COMMENT ON COLUMN pricing.discounts.currency_code IS 'Currency of amount_off and of min_subtotal thresholds in the discount''s rules.';
COMMENT ON COLUMN pricing.discounts.starts_at IS 'When the discount becomes usable.';
COMMENT ON COLUMN pricing.discounts.ends_at IS 'When the discount stops being usable; NULL means no end date.';
COMMENT ON COLUMN pricing.discounts.is_stackable IS 'True if it can be combined with other discounts on the same order.';
COMMENT ON COLUMN pricing.discounts.is_automatic IS 'True if applied automatically when the rules match; false if it needs a coupon code.';
COMMENT ON COLUMN pricing.discounts.max_uses_per_account IS 'How many orders per customer account may use it; NULL means unlimited.';
COMMENT ON COLUMN pricing.discounts.created_by_user_id IS 'Staff user who created the discount.';
COMMENT ON COLUMN pricing.discounts.deleted_at IS 'When the discount was deleted; NULL means it is live.';

CREATE TABLE pricing.discount_rules (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    discount_id bigint NOT NULL,
    rule_type pricing.discount_rule_type NOT NULL,
    product_id bigint,
    category_id bigint,
    account_segment_id bigint,
    min_subtotal numeric(14,2),
    min_quantity integer,
    currency_code char(3) NOT NULL,
    is_exclusion boolean NOT NULL DEFAULT false,
    sort_order integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT discount_rules_min_quantity_check CHECK (min_quantity > 0)
);
COMMENT ON TABLE pricing.discount_rules IS 'Eligibility conditions (qualifiers, targeting rules) of a discount: which products, categories or customer segments it applies to, or the minimum basket needed. All non-exclusion rules of a discount must hold for it to apply.';
COMMENT ON COLUMN pricing.discount_rules.discount_id IS 'Discount the rule belongs to.';
COMMENT ON COLUMN pricing.discount_rules.rule_type IS 'Condition kind: product, category, account_segment, min_subtotal, min_quantity or first_order. Decides which of the other columns is filled.';
COMMENT ON COLUMN pricing.discount_rules.product_id IS 'Product the rule targets; NULL unless rule_type = product.';
COMMENT ON COLUMN pricing.discount_rules.category_id IS 'Catalog category the rule targets (including its sub-categories); NULL unless rule_type = category.';
COMMENT ON COLUMN pricing.discount_rules.account_segment_id IS 'Customer segment whose accounts qualify; NULL unless rule_type = account_segment.';
COMMENT ON COLUMN pricing.discount_rules.min_subtotal IS 'Minimum order subtotal before tax and shipping, in currency_code; NULL unless rule_type = min_subtotal.';
COMMENT ON COLUMN pricing.discount_rules.min_quantity IS 'Minimum number of qualifying units in the cart; NULL unless rule_type = min_quantity.';
COMMENT ON COLUMN pricing.discount_rules.currency_code IS 'Currency of min_subtotal; equals the discount''s currency.';
COMMENT ON COLUMN pricing.discount_rules.is_exclusion IS 'True if the rule excludes what it matches (e.g. "not on category Clearance") instead of requiring it.';
COMMENT ON COLUMN pricing.discount_rules.sort_order IS 'Display order of the rule in the discount editor.';

CREATE TABLE pricing.coupons (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    discount_id bigint NOT NULL,
    code text NOT NULL,
    status pricing.coupon_status NOT NULL DEFAULT 'active',
    account_id bigint,
    max_redemptions integer,
    redeemed_count integer NOT NULL DEFAULT 0,
    starts_at timestamptz NOT NULL,
    expires_at timestamptz,
    last_redeemed_at timestamptz,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT coupons_max_redemptions_check CHECK (max_redemptions > 0),
    CONSTRAINT coupons_redeemed_count_check CHECK (redeemed_count >= 0),
    CONSTRAINT coupons_expires_at_check CHECK (expires_at IS NULL OR expires_at >= starts_at)
);
COMMENT ON TABLE pricing.coupons IS 'Redeemable coupon codes (promo codes, voucher codes, discount codes) that unlock a discount at checkout. A code is either public or issued to one customer account.';
COMMENT ON COLUMN pricing.coupons.discount_id IS 'Discount the code unlocks.';
COMMENT ON COLUMN pricing.coupons.code IS 'The code customers type, e.g. SPRING10, WELCOME-ACME. Unique per tenant, case-insensitive in the product.';
COMMENT ON COLUMN pricing.coupons.status IS 'active, exhausted (max_redemptions reached), expired, or disabled by staff.';
COMMENT ON COLUMN pricing.coupons.account_id IS 'Customer account the code is reserved for; NULL means a public coupon anyone can redeem.';
COMMENT ON COLUMN pricing.coupons.max_redemptions IS 'Total number of redemptions allowed; NULL means unlimited.';
COMMENT ON COLUMN pricing.coupons.redeemed_count IS 'Number of orders that have redeemed the code so far.';
COMMENT ON COLUMN pricing.coupons.starts_at IS 'When the code becomes redeemable.';
COMMENT ON COLUMN pricing.coupons.expires_at IS 'When the code stops being redeemable; NULL means it never expires.';
COMMENT ON COLUMN pricing.coupons.last_redeemed_at IS 'When the code was last redeemed; NULL if never used.';
COMMENT ON COLUMN pricing.coupons.created_by_user_id IS 'Staff user who generated the code.';

CREATE TABLE pricing.promotions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    code text NOT NULL,
    name text NOT NULL,
    description text,
    status pricing.promotion_status NOT NULL DEFAULT 'draft',
    starts_at timestamptz NOT NULL,
    ends_at timestamptz NOT NULL,
    discount_id bigint,
    price_list_id bigint,
    banner_text text,
    budget_amount numeric(14,2),
    currency_code char(3) NOT NULL,
    owner_user_id bigint NOT NULL,
    tags text[] NOT NULL DEFAULT '{}',
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT promotions_ends_at_check CHECK (ends_at >= starts_at),
    CONSTRAINT promotions_budget_amount_check CHECK (budget_amount >= 0)
);
COMMENT ON TABLE pricing.promotions IS 'Time-boxed promotions (sales events, campaigns such as Black Friday or a summer sale) that feature a set of products and may carry a discount or a promotional price list. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN pricing.promotions.workspace_id IS 'Brand or business unit running the promotion; NULL means tenant-wide.';
COMMENT ON COLUMN pricing.promotions.code IS 'Tenant-defined short code, e.g. BF-2024, SUMMER-SALE. Unique per tenant.';
COMMENT ON COLUMN pricing.promotions.name IS 'Display name of the promotion.';
COMMENT ON COLUMN pricing.promotions.description IS 'Internal description of the promotion''s goals; NULL if none.';
COMMENT ON COLUMN pricing.promotions.status IS 'Lifecycle: draft, scheduled, active, ended, cancelled.';
COMMENT ON COLUMN pricing.promotions.starts_at IS 'When the promotion goes live.';
COMMENT ON COLUMN pricing.promotions.ends_at IS 'When the promotion ends.';
COMMENT ON COLUMN pricing.promotions.discount_id IS 'Discount applied to the promoted products; NULL for a merchandising-only promotion (featured placement, no price effect) or one priced through price_list_id.';
COMMENT ON COLUMN pricing.promotions.price_list_id IS 'Promotional price list used during the promotion; NULL when the promotion does not switch price lists.';
COMMENT ON COLUMN pricing.promotions.banner_text IS 'Headline shown on the storefront banner; NULL if no banner.';
COMMENT ON COLUMN pricing.promotions.budget_amount IS 'Planned markdown budget (revenue the tenant is willing to give away), in currency_code; NULL if no budget was set.';
COMMENT ON COLUMN pricing.promotions.currency_code IS 'Currency of budget_amount and of promotion_products.promo_unit_price.';
COMMENT ON COLUMN pricing.promotions.owner_user_id IS 'Staff user (merchandiser or marketer) responsible for the promotion.';
COMMENT ON COLUMN pricing.promotions.tags IS 'Free labels for reporting, e.g. {seasonal,clearance}.';
COMMENT ON COLUMN pricing.promotions.deleted_at IS 'When the promotion was deleted; NULL means it is live.';

CREATE TABLE pricing.promotion_products (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    promotion_id bigint NOT NULL,
    product_id bigint NOT NULL,
    display_rank integer NOT NULL DEFAULT 0,
    is_featured boolean NOT NULL DEFAULT false,
    badge_label text,
    promo_unit_price numeric(14,4),
    currency_code char(3) NOT NULL,
    max_quantity_per_order integer,
    added_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT promotion_products_max_quantity_per_order_check CHECK (max_quantity_per_order > 0)
);
COMMENT ON TABLE pricing.promotion_products IS 'Products included in a promotion (promoted items, featured products), with an optional fixed promotional price. One row per promotion and product.';
COMMENT ON COLUMN pricing.promotion_products.promotion_id IS 'Promotion the product is part of.';
COMMENT ON COLUMN pricing.promotion_products.product_id IS 'Product being promoted (all its SKUs take part).';
COMMENT ON COLUMN pricing.promotion_products.display_rank IS 'Sort position on the promotion landing page; lower first.';
COMMENT ON COLUMN pricing.promotion_products.is_featured IS 'True if the product is a hero item shown in the promotion banner.';
COMMENT ON COLUMN pricing.promotion_products.badge_label IS 'Badge shown on the product tile, e.g. "-20%", "Deal"; NULL for no badge.';
COMMENT ON COLUMN pricing.promotion_products.promo_unit_price IS 'Fixed promotional price per unit, in currency_code; NULL means the promotion''s discount (or price list) determines the price.';
COMMENT ON COLUMN pricing.promotion_products.currency_code IS 'Currency of promo_unit_price; equals the promotion''s currency.';
COMMENT ON COLUMN pricing.promotion_products.max_quantity_per_order IS 'Purchase limit per order during the promotion; NULL means no limit.';
COMMENT ON COLUMN pricing.promotion_products.added_by_user_id IS 'Staff user who added the product to the promotion.';

CREATE TABLE pricing.price_changes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    price_list_id bigint NOT NULL,
    price_list_entry_id bigint,
    variant_id bigint NOT NULL,
    old_price numeric(14,4),
    new_price numeric(14,4) NOT NULL,
    currency_code char(3) NOT NULL,
    change_source pricing.price_change_source NOT NULL,
    changed_by_user_id bigint,
    changed_at timestamptz NOT NULL,
    reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT price_changes_new_price_check CHECK (new_price >= 0)
);
COMMENT ON TABLE pricing.price_changes IS 'History of list-price changes (price updates, repricing, price increases and markdowns) of a SKU on a price list: one row each time a price-list entry''s unit price was set or changed. Append-only log.';
COMMENT ON COLUMN pricing.price_changes.price_list_id IS 'Price list on which the price changed.';
COMMENT ON COLUMN pricing.price_changes.price_list_entry_id IS 'Price-list entry that was changed; NULL for derived price lists (base_price_list_id + markup), whose prices are computed from the base list and have no entries of their own.';
COMMENT ON COLUMN pricing.price_changes.variant_id IS 'SKU whose price changed.';
COMMENT ON COLUMN pricing.price_changes.old_price IS 'Unit price before the change, in currency_code; NULL when the SKU was first added to the list.';
COMMENT ON COLUMN pricing.price_changes.new_price IS 'Unit price after the change, in currency_code.';
COMMENT ON COLUMN pricing.price_changes.currency_code IS 'Currency of old_price and new_price (the price list''s currency).';
COMMENT ON COLUMN pricing.price_changes.change_source IS 'What made the change: manual edit, bulk_import, api, pricing_rule, promotion, currency_revaluation.';
COMMENT ON COLUMN pricing.price_changes.changed_by_user_id IS 'Staff user who made the change; NULL for changes made by imports, API clients or automatic rules.';
COMMENT ON COLUMN pricing.price_changes.changed_at IS 'When the new price took effect.';
COMMENT ON COLUMN pricing.price_changes.reason IS 'Free-text reason, e.g. "supplier cost increase", "annual price review"; NULL if not given.';

-- heron schema, phase 1, domain 09 billing: how a tenant bills its business customers and gets paid.
-- Invoices and their lines and taxes, payment terms, stored payment methods, payments and each
-- charge attempt, how payments settle invoices, credit notes, refunds, chargebacks (disputes) and
-- the double-entry general ledger. Amounts are always stated in the row's currency_code.

CREATE TYPE billing.gateway_kind AS ENUM ('card_processor', 'bank_transfer', 'direct_debit', 'wallet', 'marketplace');
COMMENT ON TYPE billing.gateway_kind IS 'Broad category of a payment gateway (processor).';

CREATE TYPE billing.gl_account_kind AS ENUM ('asset', 'liability', 'equity', 'revenue', 'expense');
COMMENT ON TYPE billing.gl_account_kind IS 'Accounting class of a general-ledger account.';

CREATE TYPE billing.payment_method_kind AS ENUM ('card', 'ach', 'sepa_debit', 'wire', 'invoice');
COMMENT ON TYPE billing.payment_method_kind IS 'Instrument type of a stored payment method.';

CREATE TYPE billing.invoice_status AS ENUM ('draft', 'open', 'paid', 'partially_paid', 'void', 'uncollectible');
COMMENT ON TYPE billing.invoice_status IS 'Lifecycle state of a customer invoice.';

CREATE TYPE billing.invoice_line_kind AS ENUM ('product', 'subscription', 'usage', 'shipping', 'fee', 'adjustment');
COMMENT ON TYPE billing.invoice_line_kind IS 'What an invoice line charges for.';

CREATE TYPE billing.payment_status AS ENUM ('pending', 'succeeded', 'failed', 'refunded', 'partially_refunded');
COMMENT ON TYPE billing.payment_status IS 'State of a received (or attempted) customer payment.';

CREATE TYPE billing.payment_attempt_outcome AS ENUM ('succeeded', 'declined', 'error', 'requires_action', 'timed_out');
COMMENT ON TYPE billing.payment_attempt_outcome IS 'Result a gateway returned for one charge attempt.';

CREATE TYPE billing.credit_note_reason AS ENUM ('product_return', 'pricing_error', 'damaged_goods', 'duplicate_charge', 'service_outage', 'goodwill', 'other');
COMMENT ON TYPE billing.credit_note_reason IS 'Why a credit note was issued.';

CREATE TYPE billing.credit_note_status AS ENUM ('draft', 'issued', 'applied', 'void');
COMMENT ON TYPE billing.credit_note_status IS 'Lifecycle state of a credit note.';

CREATE TYPE billing.refund_status AS ENUM ('pending', 'succeeded', 'failed', 'canceled');
COMMENT ON TYPE billing.refund_status IS 'State of a refund paid back to a customer.';

CREATE TYPE billing.refund_reason AS ENUM ('requested_by_customer', 'product_return', 'duplicate', 'fraudulent', 'service_issue', 'other');
COMMENT ON TYPE billing.refund_reason IS 'Why money was paid back.';

CREATE TYPE billing.dispute_reason AS ENUM ('fraudulent', 'product_not_received', 'product_unacceptable', 'duplicate', 'subscription_canceled', 'credit_not_processed', 'general');
COMMENT ON TYPE billing.dispute_reason IS 'Reason code the card network or bank gave for a chargeback.';

CREATE TYPE billing.dispute_status AS ENUM ('needs_response', 'under_review', 'won', 'lost');
COMMENT ON TYPE billing.dispute_status IS 'State of a chargeback (dispute).';

CREATE TYPE billing.ledger_source_kind AS ENUM ('invoice', 'payment', 'credit_note', 'refund', 'dispute', 'manual_adjustment');
COMMENT ON TYPE billing.ledger_source_kind IS 'Business document that caused a journal line to be posted.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.payment_gateways (
    id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    kind billing.gateway_kind NOT NULL,
    supported_currencies text[] NOT NULL DEFAULT '{}',
    supported_country_codes text[] NOT NULL DEFAULT '{}',
    website_url text,
    api_base_url text,
    settlement_days smallint NOT NULL DEFAULT 2,
    allows_refunds boolean NOT NULL DEFAULT true,
    allows_partial_refunds boolean NOT NULL DEFAULT true,
    allows_recurring boolean NOT NULL DEFAULT true,
    has_dispute_api boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE billing.payment_gateways IS 'Global catalogue of payment gateways (payment processors, PSPs) the platform integrates, such as Stripe, Adyen or GoCardless. One row per gateway; tenants route card charges, bank debits and refunds through them.';
COMMENT ON COLUMN billing.payment_gateways.code IS 'Stable machine code of the gateway, e.g. stripe, adyen, braintree, gocardless. Unique.';
COMMENT ON COLUMN billing.payment_gateways.name IS 'Display name of the gateway, e.g. Stripe.';
COMMENT ON COLUMN billing.payment_gateways.kind IS 'Category of processor: card_processor, bank_transfer, direct_debit, wallet or marketplace.';
COMMENT ON COLUMN billing.payment_gateways.supported_currencies IS 'ISO 4217 codes the gateway can charge in, e.g. {USD,EUR,GBP}.';
COMMENT ON COLUMN billing.payment_gateways.supported_country_codes IS 'ISO 3166 alpha-2 codes of merchant countries the gateway operates in.';
COMMENT ON COLUMN billing.payment_gateways.website_url IS 'Public website of the gateway. NULL = not recorded.';
COMMENT ON COLUMN billing.payment_gateways.api_base_url IS 'Base URL of the gateway API the platform calls. NULL = the gateway has no public API (file-based or manual settlement).';
COMMENT ON COLUMN billing.payment_gateways.settlement_days IS 'Typical number of business days until captured funds are paid out to the merchant (T+n).';
COMMENT ON COLUMN billing.payment_gateways.allows_refunds IS 'True if refunds can be issued through the gateway API.';
COMMENT ON COLUMN billing.payment_gateways.allows_partial_refunds IS 'True if a refund may be smaller than the original charge.';
COMMENT ON COLUMN billing.payment_gateways.allows_recurring IS 'True if stored credentials can be charged again without the customer present (recurring / merchant-initiated).';
COMMENT ON COLUMN billing.payment_gateways.has_dispute_api IS 'True if chargebacks are reported and answered via the gateway API rather than by e-mail or portal.';
COMMENT ON COLUMN billing.payment_gateways.is_active IS 'False once the platform stopped offering the gateway to tenants.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.payment_terms (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    description text,
    due_days integer NOT NULL,
    early_payment_discount_days integer,
    early_payment_discount_percent numeric(5,2),
    is_end_of_month boolean NOT NULL DEFAULT false,
    is_default boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT payment_terms_due_days_check CHECK (due_days >= 0)
);
COMMENT ON TABLE billing.payment_terms IS 'Payment terms a tenant offers on invoices ("net 30", "due on receipt", "2/10 net 30"). One row per term definition; the due date of an invoice is its issue date plus due_days. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN billing.payment_terms.code IS 'Short business code of the term, unique per tenant, e.g. NET30, NET60, DUE_ON_RECEIPT, 2_10_NET30.';
COMMENT ON COLUMN billing.payment_terms.name IS 'Human-readable name printed on invoices, e.g. Net 30 days.';
COMMENT ON COLUMN billing.payment_terms.description IS 'Optional longer explanation shown to staff. NULL = none.';
COMMENT ON COLUMN billing.payment_terms.due_days IS 'Days after the invoice issue date until payment is due; 0 = due on receipt.';
COMMENT ON COLUMN billing.payment_terms.early_payment_discount_days IS 'Days within which an early-payment discount applies (the 10 in 2/10 net 30). NULL = no early-payment discount.';
COMMENT ON COLUMN billing.payment_terms.early_payment_discount_percent IS 'Early-payment (prompt-payment) discount in percent, e.g. 2.00. NULL = no discount.';
COMMENT ON COLUMN billing.payment_terms.is_end_of_month IS 'True if the due date is counted from the end of the invoice month (EOM terms) rather than the issue date.';
COMMENT ON COLUMN billing.payment_terms.is_default IS 'True for the term applied to new customers who have no explicit term.';
COMMENT ON COLUMN billing.payment_terms.is_active IS 'False if the term can no longer be chosen for new invoices.';
COMMENT ON COLUMN billing.payment_terms.created_by_user_id IS 'Staff user who defined the term.';
COMMENT ON COLUMN billing.payment_terms.deleted_at IS 'When the term was deleted by staff. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.gl_accounts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_code text NOT NULL,
    name text NOT NULL,
    kind billing.gl_account_kind NOT NULL,
    parent_gl_account_id bigint,
    description text,
    erp_reference text,
    is_postable boolean NOT NULL DEFAULT true,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE billing.gl_accounts IS 'The tenant''s chart of accounts: general-ledger (GL) accounts such as Accounts Receivable, Product Revenue, Sales Tax Payable or Bank. One row per account; ledger entries and invoice lines post to them. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN billing.gl_accounts.account_code IS 'Account number in the chart of accounts, unique per tenant, e.g. 1200 (receivables), 4000 (revenue), 2300 (tax payable).';
COMMENT ON COLUMN billing.gl_accounts.name IS 'Account name, e.g. Accounts Receivable, Subscription Revenue, Payment Processing Fees.';
COMMENT ON COLUMN billing.gl_accounts.kind IS 'Accounting class: asset, liability, equity, revenue or expense.';
COMMENT ON COLUMN billing.gl_accounts.parent_gl_account_id IS 'Parent (summary) account in the chart-of-accounts tree. NULL = top-level account.';
COMMENT ON COLUMN billing.gl_accounts.description IS 'What should be booked to this account. NULL = none given.';
COMMENT ON COLUMN billing.gl_accounts.erp_reference IS 'Identifier of the same account in the tenant''s external ERP / accounting system (NetSuite, Xero…). NULL = not synced.';
COMMENT ON COLUMN billing.gl_accounts.is_postable IS 'True if journal lines may post directly; false for summary (header) accounts that only aggregate children.';
COMMENT ON COLUMN billing.gl_accounts.is_active IS 'False if the account is closed for new postings but kept for history.';
COMMENT ON COLUMN billing.gl_accounts.created_by_user_id IS 'Staff user (usually finance) who created the account.';
COMMENT ON COLUMN billing.gl_accounts.deleted_at IS 'When the account was deleted from the chart. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.payment_methods (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    account_id bigint NOT NULL,
    contact_id bigint,
    kind billing.payment_method_kind NOT NULL,
    gateway_id bigint NOT NULL,
    gateway_token text NOT NULL,
    brand text,
    last4 char(4),
    expires_on date,
    holder_name text,
    billing_country_code char(2) NOT NULL,
    mandate_reference text,
    is_default boolean NOT NULL DEFAULT false,
    is_verified boolean NOT NULL DEFAULT false,
    last_used_at timestamptz,
    metadata jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE billing.payment_methods IS 'Payment methods stored on file for a customer account: saved credit cards, ACH and SEPA direct-debit mandates, wire and pay-by-invoice arrangements. Only a gateway token is kept, never the card number. Rows are soft-deleted: deleted_at is set instead of removing the row (a customer removing a card).';
COMMENT ON COLUMN billing.payment_methods.account_id IS 'Customer (crm account) the payment method belongs to.';
COMMENT ON COLUMN billing.payment_methods.contact_id IS 'Contact who added the method, e.g. the cardholder. NULL = company-level method not tied to a person.';
COMMENT ON COLUMN billing.payment_methods.kind IS 'Instrument type: card, ach, sepa_debit, wire or invoice (pay by bank transfer against invoice).';
COMMENT ON COLUMN billing.payment_methods.gateway_id IS 'Payment gateway that holds the stored credential.';
COMMENT ON COLUMN billing.payment_methods.gateway_token IS 'Opaque token / payment-method id at the gateway used to charge it, e.g. pm_1Nx…';
COMMENT ON COLUMN billing.payment_methods.brand IS 'Card brand (visa, mastercard, amex, discover) or bank name for debits. NULL = not applicable (wire, invoice).';
COMMENT ON COLUMN billing.payment_methods.last4 IS 'Last four digits of the card or bank account number, for display. NULL = not applicable.';
COMMENT ON COLUMN billing.payment_methods.expires_on IS 'Last day the card is valid (end of expiry month). NULL = the method does not expire (bank debit, wire, invoice).';
COMMENT ON COLUMN billing.payment_methods.holder_name IS 'Name of the card holder or bank-account owner as entered. NULL = not captured.';
COMMENT ON COLUMN billing.payment_methods.billing_country_code IS 'Country of the card issuer or bank account (ISO 3166 alpha-2).';
COMMENT ON COLUMN billing.payment_methods.mandate_reference IS 'Direct-debit mandate reference (SEPA / ACH authorisation id). NULL for cards, wire and invoice.';
COMMENT ON COLUMN billing.payment_methods.is_default IS 'True for the method charged automatically for subscriptions and open invoices of the account.';
COMMENT ON COLUMN billing.payment_methods.is_verified IS 'True once the method passed verification (micro-deposits, 3-D Secure setup, mandate confirmation).';
COMMENT ON COLUMN billing.payment_methods.last_used_at IS 'When the method was last charged. NULL = never charged.';
COMMENT ON COLUMN billing.payment_methods.metadata IS 'Free-form gateway details as jsonb, e.g. {"funding": "credit", "wallet": "apple_pay"}.';
COMMENT ON COLUMN billing.payment_methods.deleted_at IS 'When the method was removed by the customer or staff. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.invoices (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    invoice_number text NOT NULL,
    account_id bigint NOT NULL,
    billing_contact_id bigint,
    billing_address_id bigint NOT NULL,
    order_id bigint,
    subscription_id bigint,
    billing_period_id bigint,
    payment_terms_id bigint NOT NULL,
    status billing.invoice_status NOT NULL DEFAULT 'draft',
    currency_code char(3) NOT NULL,
    subtotal_amount numeric(14,2) NOT NULL DEFAULT 0,
    discount_amount numeric(14,2) NOT NULL DEFAULT 0,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    total_amount numeric(14,2) NOT NULL DEFAULT 0,
    amount_paid numeric(14,2) NOT NULL DEFAULT 0,
    amount_due numeric(14,2) NOT NULL DEFAULT 0,
    issued_on date NOT NULL,
    due_on date NOT NULL,
    sent_at timestamptz,
    paid_at timestamptz,
    voided_at timestamptz,
    customer_po_number text,
    memo text,
    hosted_url text,
    erp_reference text,
    created_by_user_id bigint,
    metadata jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT invoices_due_on_check CHECK (due_on >= issued_on),
    CONSTRAINT invoices_amount_due_check CHECK (amount_due >= 0)
);
COMMENT ON TABLE billing.invoices IS 'Invoices (bills) a tenant issues to its business customers, for an order, a subscription billing period or raised manually. One row per invoice with its totals; accounts receivable (A/R) is the amount_due of open invoices. Rows are soft-deleted: deleted_at is set instead of removing the row (only draft invoices are deleted; issued ones are voided).';
COMMENT ON COLUMN billing.invoices.invoice_number IS 'Human-facing invoice number, unique per tenant, e.g. INV-2024-000183.';
COMMENT ON COLUMN billing.invoices.account_id IS 'Customer (crm account) billed.';
COMMENT ON COLUMN billing.invoices.billing_contact_id IS 'Contact the invoice is addressed and e-mailed to (accounts-payable person). NULL = sent to the account''s general billing e-mail.';
COMMENT ON COLUMN billing.invoices.billing_address_id IS 'Customer address printed as bill-to on the invoice.';
COMMENT ON COLUMN billing.invoices.order_id IS 'Order this invoice bills. NULL = a subscription invoice or a manual invoice not tied to an order.';
COMMENT ON COLUMN billing.invoices.subscription_id IS 'Subscription this invoice bills (recurring charge). NULL = order or manual invoice.';
COMMENT ON COLUMN billing.invoices.billing_period_id IS 'Subscription billing period covered by the invoice. NULL = not a recurring invoice.';
COMMENT ON COLUMN billing.invoices.payment_terms_id IS 'Payment terms applied (net 30, due on receipt…); due_on = issued_on + the term''s due_days.';
COMMENT ON COLUMN billing.invoices.status IS 'draft (not yet issued), open (issued, nothing paid), partially_paid, paid, void (cancelled after issue) or uncollectible (written off as bad debt).';
COMMENT ON COLUMN billing.invoices.currency_code IS 'Currency of every amount on the invoice (ISO 4217).';
COMMENT ON COLUMN billing.invoices.subtotal_amount IS 'Sum of line amounts before tax, after line discounts, in currency_code.';
COMMENT ON COLUMN billing.invoices.discount_amount IS 'Invoice-level discount deducted from the subtotal, in currency_code; 0 = none.';
COMMENT ON COLUMN billing.invoices.tax_amount IS 'Total tax charged (sum of invoice_taxes), in currency_code.';
COMMENT ON COLUMN billing.invoices.total_amount IS 'Grand total billed = subtotal - discount + tax, in currency_code.';
COMMENT ON COLUMN billing.invoices.amount_paid IS 'Amount settled so far by payment allocations and applied credit notes, in currency_code.';
COMMENT ON COLUMN billing.invoices.amount_due IS 'Outstanding balance still owed = total - paid, in currency_code; 0 once paid, void or written off.';
COMMENT ON COLUMN billing.invoices.issued_on IS 'Invoice date (date of issue), the business date revenue is reported on.';
COMMENT ON COLUMN billing.invoices.due_on IS 'Payment due date; overdue when amount_due > 0 after this date.';
COMMENT ON COLUMN billing.invoices.sent_at IS 'When the invoice was first e-mailed to the customer. NULL = not sent (draft, or delivered by post / EDI).';
COMMENT ON COLUMN billing.invoices.paid_at IS 'When the invoice became fully paid. NULL = not (yet) fully paid.';
COMMENT ON COLUMN billing.invoices.voided_at IS 'When the invoice was voided. NULL = not voided.';
COMMENT ON COLUMN billing.invoices.customer_po_number IS 'The customer''s own purchase-order number quoted on the invoice. NULL = none supplied.';
COMMENT ON COLUMN billing.invoices.memo IS 'Free-text note printed on the invoice. NULL = none.';
COMMENT ON COLUMN billing.invoices.hosted_url IS 'Link to the online invoice page where the customer can view and pay it. NULL = no hosted page (drafts, or the tenant does not use online invoice pages).';
COMMENT ON COLUMN billing.invoices.erp_reference IS 'Id of the invoice in the tenant''s ERP / accounting system. NULL = not exported.';
COMMENT ON COLUMN billing.invoices.created_by_user_id IS 'Staff user who created the invoice. NULL = generated automatically (order checkout or subscription renewal run).';
COMMENT ON COLUMN billing.invoices.metadata IS 'Free-form key/value data as jsonb, e.g. integration ids.';
COMMENT ON COLUMN billing.invoices.deleted_at IS 'When a draft invoice was deleted. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.invoice_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    invoice_id bigint NOT NULL,
    line_number integer NOT NULL,
    kind billing.invoice_line_kind NOT NULL,
    order_line_id bigint,
    variant_id bigint,
    subscription_item_id bigint,
    description text NOT NULL,
    quantity numeric(14,3) NOT NULL,
    unit_price numeric(14,4) NOT NULL,
    discount_amount numeric(14,2) NOT NULL DEFAULT 0,
    line_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    tax_category_id bigint NOT NULL,
    gl_account_id bigint NOT NULL,
    period_starts_on date,
    period_ends_on date,
    is_taxable boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT invoice_lines_period_ends_on_check CHECK (period_ends_on IS NULL OR period_ends_on >= period_starts_on)
);
COMMENT ON TABLE billing.invoice_lines IS 'Line items of an invoice: one row per billed SKU, subscription charge, usage charge, shipping or fee. line_amount summed over an invoice gives its subtotal.';
COMMENT ON COLUMN billing.invoice_lines.invoice_id IS 'Invoice the line belongs to.';
COMMENT ON COLUMN billing.invoice_lines.line_number IS 'Position of the line on the invoice, starting at 1.';
COMMENT ON COLUMN billing.invoice_lines.kind IS 'What is charged: product, subscription, usage (metered), shipping, fee or adjustment.';
COMMENT ON COLUMN billing.invoice_lines.order_line_id IS 'Order line being invoiced. NULL = the line does not come from an order (subscription, usage, fee or manual line).';
COMMENT ON COLUMN billing.invoice_lines.variant_id IS 'SKU (product variant) billed. NULL = a non-product line (subscription fee, shipping, adjustment).';
COMMENT ON COLUMN billing.invoice_lines.subscription_item_id IS 'Subscription item (plan or add-on) this recurring or usage charge is for. NULL = not a subscription charge.';
COMMENT ON COLUMN billing.invoice_lines.description IS 'Line text printed on the invoice, e.g. product name or "Growth plan, March 2024".';
COMMENT ON COLUMN billing.invoice_lines.quantity IS 'Quantity billed, in the unit of the SKU or meter (can be fractional for usage).';
COMMENT ON COLUMN billing.invoice_lines.unit_price IS 'Price per unit before line discount, in currency_code.';
COMMENT ON COLUMN billing.invoice_lines.discount_amount IS 'Discount taken on this line, in currency_code; 0 = none.';
COMMENT ON COLUMN billing.invoice_lines.line_amount IS 'Net line amount = quantity x unit_price - discount, before tax, in currency_code. Negative for credit adjustments.';
COMMENT ON COLUMN billing.invoice_lines.currency_code IS 'Currency of the line amounts; always equals the invoice currency.';
COMMENT ON COLUMN billing.invoice_lines.tax_category_id IS 'Tax class applied to the line (standard, reduced, exempt, digital services…).';
COMMENT ON COLUMN billing.invoice_lines.gl_account_id IS 'Revenue GL account the line posts to (e.g. Product Revenue, Subscription Revenue, Shipping Income).';
COMMENT ON COLUMN billing.invoice_lines.period_starts_on IS 'First day of the service period billed (subscription and usage lines). NULL = not a period charge.';
COMMENT ON COLUMN billing.invoice_lines.period_ends_on IS 'Last day of the service period billed. NULL = not a period charge.';
COMMENT ON COLUMN billing.invoice_lines.is_taxable IS 'False if the line is exempt from tax.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.invoice_taxes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    invoice_id bigint NOT NULL,
    tax_rate_id bigint NOT NULL,
    tax_jurisdiction_id bigint NOT NULL,
    tax_name text NOT NULL,
    rate_percent numeric(7,4) NOT NULL,
    taxable_amount numeric(14,2) NOT NULL,
    tax_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    is_inclusive boolean NOT NULL DEFAULT false,
    is_reverse_charge boolean NOT NULL DEFAULT false,
    exemption_reference text,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE billing.invoice_taxes IS 'Tax breakdown of an invoice: one row per tax rate applied (VAT, GST, state and county sales tax). The tax_amount of all rows of an invoice adds up to invoices.tax_amount.';
COMMENT ON COLUMN billing.invoice_taxes.invoice_id IS 'Invoice the tax was charged on.';
COMMENT ON COLUMN billing.invoice_taxes.tax_rate_id IS 'Platform tax rate applied (global rate history row).';
COMMENT ON COLUMN billing.invoice_taxes.tax_jurisdiction_id IS 'Tax authority the tax is owed to (snapshot of the rate''s jurisdiction).';
COMMENT ON COLUMN billing.invoice_taxes.tax_name IS 'Tax label printed on the invoice, e.g. VAT 20%, CA State Sales Tax.';
COMMENT ON COLUMN billing.invoice_taxes.rate_percent IS 'Rate applied in percent at invoicing time, e.g. 19.0000.';
COMMENT ON COLUMN billing.invoice_taxes.taxable_amount IS 'Base the rate was applied to, in currency_code.';
COMMENT ON COLUMN billing.invoice_taxes.tax_amount IS 'Tax charged at this rate, in currency_code.';
COMMENT ON COLUMN billing.invoice_taxes.currency_code IS 'Currency of the amounts; equals the invoice currency.';
COMMENT ON COLUMN billing.invoice_taxes.is_inclusive IS 'True if the tax is included in the line prices (gross pricing) rather than added on top.';
COMMENT ON COLUMN billing.invoice_taxes.is_reverse_charge IS 'True if the buyer self-assesses the tax (EU B2B reverse charge); tax_amount is then 0.';
COMMENT ON COLUMN billing.invoice_taxes.exemption_reference IS 'Customer tax-exemption certificate or VAT id quoted. NULL = no exemption.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.payments (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    payment_number text NOT NULL,
    account_id bigint NOT NULL,
    payment_method_id bigint,
    gateway_id bigint,
    method_kind billing.payment_method_kind NOT NULL,
    status billing.payment_status NOT NULL DEFAULT 'pending',
    amount numeric(14,2) NOT NULL,
    fee_amount numeric(14,2) NOT NULL DEFAULT 0,
    amount_refunded numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    received_at timestamptz NOT NULL,
    settled_on date,
    external_reference text,
    memo text,
    recorded_by_user_id bigint,
    metadata jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT payments_amount_check CHECK (amount > 0)
);
COMMENT ON TABLE billing.payments IS 'Payments (money received, receipts, collections) from customer accounts: card charges, direct debits, wires and checks. One row per payment; payment_allocations say which invoices it settles. Cash collected = succeeded payments minus refunds.';
COMMENT ON COLUMN billing.payments.payment_number IS 'Receipt number of the payment, unique per tenant, e.g. PAY-000912.';
COMMENT ON COLUMN billing.payments.account_id IS 'Customer (crm account) who paid.';
COMMENT ON COLUMN billing.payments.payment_method_id IS 'Stored payment method charged. NULL = paid without a stored method (one-off wire, check, cash received offline).';
COMMENT ON COLUMN billing.payments.gateway_id IS 'Gateway that processed the payment. NULL = received outside any gateway (bank wire or check recorded manually).';
COMMENT ON COLUMN billing.payments.method_kind IS 'Instrument used: card, ach, sepa_debit, wire or invoice (bank transfer against an invoice).';
COMMENT ON COLUMN billing.payments.status IS 'pending (initiated, not confirmed), succeeded, failed, refunded (fully) or partially_refunded.';
COMMENT ON COLUMN billing.payments.amount IS 'Gross amount paid by the customer, in currency_code.';
COMMENT ON COLUMN billing.payments.fee_amount IS 'Processing fee the gateway withheld, in currency_code; 0 for offline payments.';
COMMENT ON COLUMN billing.payments.amount_refunded IS 'Total refunded so far against this payment, in currency_code.';
COMMENT ON COLUMN billing.payments.currency_code IS 'Currency of amount, fee_amount and amount_refunded (ISO 4217).';
COMMENT ON COLUMN billing.payments.received_at IS 'When the payment was received or the charge initiated; the timestamp cash reports bucket by.';
COMMENT ON COLUMN billing.payments.settled_on IS 'Date the funds were paid out to the tenant''s bank. NULL = not yet settled (or failed).';
COMMENT ON COLUMN billing.payments.external_reference IS 'Gateway charge id or bank transfer reference, e.g. ch_3Ox… or a wire reference. NULL = none.';
COMMENT ON COLUMN billing.payments.memo IS 'Staff note on the payment. NULL = none.';
COMMENT ON COLUMN billing.payments.recorded_by_user_id IS 'Staff user who recorded a manual payment. NULL = captured automatically through a gateway.';
COMMENT ON COLUMN billing.payments.metadata IS 'Free-form gateway response details as jsonb.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.payment_attempts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    payment_id bigint NOT NULL,
    account_id bigint NOT NULL,
    attempt_number smallint NOT NULL,
    gateway_id bigint NOT NULL,
    payment_method_id bigint NOT NULL,
    attempted_at timestamptz NOT NULL,
    outcome billing.payment_attempt_outcome NOT NULL,
    failure_code text,
    failure_message text,
    amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    gateway_transaction_reference text,
    response_ms integer,
    client_ip inet,
    is_retry boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE billing.payment_attempts IS 'Every charge attempt sent to a payment gateway for a payment, including declines, errors and dunning retries. One row per attempt (an event log); the approval or decline rate is computed from outcome.';
COMMENT ON COLUMN billing.payment_attempts.payment_id IS 'Payment the attempt tries to collect.';
COMMENT ON COLUMN billing.payment_attempts.attempt_number IS 'Sequence of the attempt within its payment, starting at 1.';
COMMENT ON COLUMN billing.payment_attempts.gateway_id IS 'Gateway the attempt was sent to.';
COMMENT ON COLUMN billing.payment_attempts.payment_method_id IS 'Payment method charged (cards entered once at checkout are also recorded as payment methods).';
COMMENT ON COLUMN billing.payment_attempts.account_id IS 'Customer (crm account) being charged; same as the payment''s account.';
COMMENT ON COLUMN billing.payment_attempts.attempted_at IS 'When the request was sent to the gateway.';
COMMENT ON COLUMN billing.payment_attempts.outcome IS 'succeeded, declined (by the issuer), error (gateway or network), requires_action (3-D Secure challenge) or timed_out.';
COMMENT ON COLUMN billing.payment_attempts.failure_code IS 'Decline or error code from the gateway, e.g. insufficient_funds, card_declined, expired_card, do_not_honor. NULL when the attempt succeeded.';
COMMENT ON COLUMN billing.payment_attempts.failure_message IS 'Human-readable failure text from the gateway. NULL when the attempt succeeded.';
COMMENT ON COLUMN billing.payment_attempts.amount IS 'Amount the attempt tried to charge, in currency_code.';
COMMENT ON COLUMN billing.payment_attempts.currency_code IS 'Currency of the attempted amount.';
COMMENT ON COLUMN billing.payment_attempts.gateway_transaction_reference IS 'Transaction id returned by the gateway. NULL if the gateway never answered.';
COMMENT ON COLUMN billing.payment_attempts.response_ms IS 'Gateway round-trip latency in milliseconds. NULL = timed out.';
COMMENT ON COLUMN billing.payment_attempts.client_ip IS 'IP address of the customer for customer-present attempts. NULL = merchant-initiated (recurring) charge.';
COMMENT ON COLUMN billing.payment_attempts.is_retry IS 'True if the attempt is an automatic dunning retry after an earlier failure.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.payment_allocations (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    payment_id bigint NOT NULL,
    invoice_id bigint NOT NULL,
    allocated_amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    allocated_at timestamptz NOT NULL,
    allocated_by_user_id bigint,
    note text,
    is_reversed boolean NOT NULL DEFAULT false,
    reversed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT payment_allocations_allocated_amount_check CHECK (allocated_amount > 0),
    CONSTRAINT payment_allocations_reversed_at_check CHECK (reversed_at IS NULL OR reversed_at >= allocated_at)
);
COMMENT ON TABLE billing.payment_allocations IS 'Cash application: how much of a payment settles which invoice. One row per payment-invoice pair; one payment can pay several invoices and one invoice can be paid by several payments (partial payments).';
COMMENT ON COLUMN billing.payment_allocations.payment_id IS 'Payment the money comes from.';
COMMENT ON COLUMN billing.payment_allocations.invoice_id IS 'Invoice the money is applied to.';
COMMENT ON COLUMN billing.payment_allocations.allocated_amount IS 'Amount of the payment applied to the invoice, in currency_code.';
COMMENT ON COLUMN billing.payment_allocations.currency_code IS 'Currency of allocated_amount; equals both the payment and the invoice currency.';
COMMENT ON COLUMN billing.payment_allocations.allocated_at IS 'When the money was applied to the invoice.';
COMMENT ON COLUMN billing.payment_allocations.allocated_by_user_id IS 'Staff user who applied the cash manually. NULL = applied automatically (card charge for the invoice, auto-matching).';
COMMENT ON COLUMN billing.payment_allocations.note IS 'Remittance note or matching comment. NULL = none.';
COMMENT ON COLUMN billing.payment_allocations.is_reversed IS 'True if the allocation was undone (payment bounced or refunded); it then no longer counts towards the invoice.';
COMMENT ON COLUMN billing.payment_allocations.reversed_at IS 'When the allocation was reversed. NULL = still in effect.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.credit_notes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    credit_note_number text NOT NULL,
    invoice_id bigint NOT NULL,
    account_id bigint NOT NULL,
    return_id bigint,
    reason billing.credit_note_reason NOT NULL,
    status billing.credit_note_status NOT NULL DEFAULT 'draft',
    subtotal_amount numeric(14,2) NOT NULL,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    total_amount numeric(14,2) NOT NULL,
    amount_applied numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    issued_at timestamptz NOT NULL,
    voided_at timestamptz,
    memo text,
    issued_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT credit_notes_total_amount_check CHECK (total_amount > 0)
);
COMMENT ON TABLE billing.credit_notes IS 'Credit notes (credit memos) issued against an invoice to reduce what the customer owes: for returned goods, pricing errors, outages or goodwill. One row per credit note; refunds may pay the credit out in cash.';
COMMENT ON COLUMN billing.credit_notes.credit_note_number IS 'Document number of the credit note, unique per tenant, e.g. CN-2024-00042.';
COMMENT ON COLUMN billing.credit_notes.invoice_id IS 'Invoice being credited.';
COMMENT ON COLUMN billing.credit_notes.account_id IS 'Customer (crm account) credited; same as the invoice''s account.';
COMMENT ON COLUMN billing.credit_notes.return_id IS 'Return (RMA) that triggered the credit. NULL = the credit is not for returned goods.';
COMMENT ON COLUMN billing.credit_notes.reason IS 'Why credit was given: product_return, pricing_error, damaged_goods, duplicate_charge, service_outage, goodwill or other.';
COMMENT ON COLUMN billing.credit_notes.status IS 'draft, issued (available), applied (fully used against invoices or refunded) or void.';
COMMENT ON COLUMN billing.credit_notes.subtotal_amount IS 'Credited amount before tax, in currency_code.';
COMMENT ON COLUMN billing.credit_notes.tax_amount IS 'Tax credited back, in currency_code.';
COMMENT ON COLUMN billing.credit_notes.total_amount IS 'Total credit = subtotal + tax, in currency_code (a positive number).';
COMMENT ON COLUMN billing.credit_notes.amount_applied IS 'Part of the credit already used against invoices or refunded, in currency_code.';
COMMENT ON COLUMN billing.credit_notes.currency_code IS 'Currency of the credit note; equals the invoice currency.';
COMMENT ON COLUMN billing.credit_notes.issued_at IS 'When the credit note was issued (or created, for drafts).';
COMMENT ON COLUMN billing.credit_notes.voided_at IS 'When the credit note was voided. NULL = not voided.';
COMMENT ON COLUMN billing.credit_notes.memo IS 'Explanation printed on the credit note. NULL = none.';
COMMENT ON COLUMN billing.credit_notes.issued_by_user_id IS 'Staff user who issued (approved) the credit.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.credit_note_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    credit_note_id bigint NOT NULL,
    line_number integer NOT NULL,
    invoice_line_id bigint,
    return_line_id bigint,
    variant_id bigint,
    description text NOT NULL,
    quantity numeric(14,3) NOT NULL,
    unit_price numeric(14,4) NOT NULL,
    line_amount numeric(14,2) NOT NULL,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    tax_category_id bigint NOT NULL,
    gl_account_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE billing.credit_note_lines IS 'Lines of a credit note: which invoiced items, returned SKUs or amounts are credited. line_amount summed per credit note gives its subtotal.';
COMMENT ON COLUMN billing.credit_note_lines.credit_note_id IS 'Credit note the line belongs to.';
COMMENT ON COLUMN billing.credit_note_lines.line_number IS 'Position of the line on the credit note, starting at 1.';
COMMENT ON COLUMN billing.credit_note_lines.invoice_line_id IS 'Invoice line being credited. NULL = a lump-sum credit not tied to one invoice line.';
COMMENT ON COLUMN billing.credit_note_lines.return_line_id IS 'Returned SKU line (RMA line) the credit is for. NULL = not a return credit.';
COMMENT ON COLUMN billing.credit_note_lines.variant_id IS 'SKU (product variant) credited. NULL = non-product credit (fee, goodwill, service credit).';
COMMENT ON COLUMN billing.credit_note_lines.description IS 'Line text printed on the credit note.';
COMMENT ON COLUMN billing.credit_note_lines.quantity IS 'Quantity credited (positive).';
COMMENT ON COLUMN billing.credit_note_lines.unit_price IS 'Credited price per unit, in currency_code.';
COMMENT ON COLUMN billing.credit_note_lines.line_amount IS 'Credited amount of the line before tax, in currency_code (positive).';
COMMENT ON COLUMN billing.credit_note_lines.tax_amount IS 'Tax credited on the line, in currency_code.';
COMMENT ON COLUMN billing.credit_note_lines.currency_code IS 'Currency of the line; equals the credit note currency.';
COMMENT ON COLUMN billing.credit_note_lines.gl_account_id IS 'GL account debited by the credit, usually a contra-revenue account such as Sales Returns and Allowances.';
COMMENT ON COLUMN billing.credit_note_lines.tax_category_id IS 'Tax class of the credited item; decides which tax is credited back.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.refunds (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    refund_number text NOT NULL,
    payment_id bigint NOT NULL,
    account_id bigint NOT NULL,
    credit_note_id bigint,
    gateway_id bigint,
    reason billing.refund_reason NOT NULL,
    status billing.refund_status NOT NULL DEFAULT 'pending',
    amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    requested_at timestamptz NOT NULL,
    refunded_at timestamptz,
    external_reference text,
    failure_code text,
    requested_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT refunds_amount_check CHECK (amount > 0),
    CONSTRAINT refunds_refunded_at_check CHECK (refunded_at IS NULL OR refunded_at >= requested_at)
);
COMMENT ON TABLE billing.refunds IS 'Refunds: money paid back to a customer against an earlier payment, in full or in part, usually backing a credit note. One row per refund; net revenue and net cash subtract succeeded refunds.';
COMMENT ON COLUMN billing.refunds.refund_number IS 'Document number of the refund, unique per tenant, e.g. RF-000311.';
COMMENT ON COLUMN billing.refunds.payment_id IS 'Original payment being refunded.';
COMMENT ON COLUMN billing.refunds.account_id IS 'Customer (crm account) receiving the money back; same as the payment''s account.';
COMMENT ON COLUMN billing.refunds.credit_note_id IS 'Credit note the refund pays out. NULL = refund issued directly on the payment without a credit note (e.g. duplicate charge reversed at the gateway).';
COMMENT ON COLUMN billing.refunds.gateway_id IS 'Gateway the refund was sent through. NULL = refunded offline by bank transfer or check.';
COMMENT ON COLUMN billing.refunds.reason IS 'requested_by_customer, product_return, duplicate, fraudulent, service_issue or other.';
COMMENT ON COLUMN billing.refunds.status IS 'pending, succeeded, failed or canceled.';
COMMENT ON COLUMN billing.refunds.amount IS 'Amount paid back, in currency_code (positive).';
COMMENT ON COLUMN billing.refunds.currency_code IS 'Currency of the refund; equals the original payment currency.';
COMMENT ON COLUMN billing.refunds.requested_at IS 'When staff requested the refund.';
COMMENT ON COLUMN billing.refunds.refunded_at IS 'When the refund was confirmed as paid out. NULL = not completed (pending, failed or canceled).';
COMMENT ON COLUMN billing.refunds.external_reference IS 'Gateway refund id or bank reference. NULL = none yet.';
COMMENT ON COLUMN billing.refunds.failure_code IS 'Gateway reason when the refund failed, e.g. charge_already_refunded. NULL = not failed.';
COMMENT ON COLUMN billing.refunds.requested_by_user_id IS 'Staff user who requested the refund.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.disputes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    payment_id bigint NOT NULL,
    account_id bigint NOT NULL,
    gateway_id bigint NOT NULL,
    reason billing.dispute_reason NOT NULL,
    status billing.dispute_status NOT NULL DEFAULT 'needs_response',
    amount numeric(14,2) NOT NULL,
    fee_amount numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    opened_at timestamptz NOT NULL,
    evidence_due_at timestamptz,
    closed_at timestamptz,
    external_reference text NOT NULL,
    has_submitted_evidence boolean NOT NULL DEFAULT false,
    evidence jsonb NOT NULL DEFAULT '{}',
    handled_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT disputes_closed_at_check CHECK (closed_at IS NULL OR closed_at >= opened_at)
);
COMMENT ON TABLE billing.disputes IS 'Chargebacks (payment disputes) a customer''s card issuer or bank opened against a payment. One row per dispute; the tenant answers with evidence and wins or loses the disputed amount.';
COMMENT ON COLUMN billing.disputes.payment_id IS 'Payment being charged back.';
COMMENT ON COLUMN billing.disputes.account_id IS 'Customer (crm account) who disputed; same as the payment''s account.';
COMMENT ON COLUMN billing.disputes.gateway_id IS 'Gateway that reported the chargeback.';
COMMENT ON COLUMN billing.disputes.reason IS 'Network reason code: fraudulent, product_not_received, product_unacceptable, duplicate, subscription_canceled, credit_not_processed or general.';
COMMENT ON COLUMN billing.disputes.status IS 'needs_response (evidence required), under_review (with the issuer), won or lost.';
COMMENT ON COLUMN billing.disputes.amount IS 'Disputed amount withdrawn from the tenant, in currency_code.';
COMMENT ON COLUMN billing.disputes.fee_amount IS 'Chargeback fee the gateway charged, in currency_code.';
COMMENT ON COLUMN billing.disputes.currency_code IS 'Currency of amount and fee_amount.';
COMMENT ON COLUMN billing.disputes.opened_at IS 'When the chargeback was opened.';
COMMENT ON COLUMN billing.disputes.evidence_due_at IS 'Deadline to submit evidence. NULL = no response possible (e.g. early fraud warning).';
COMMENT ON COLUMN billing.disputes.closed_at IS 'When the dispute was decided (won or lost). NULL = still open.';
COMMENT ON COLUMN billing.disputes.external_reference IS 'Dispute id at the gateway, e.g. dp_1Nq…';
COMMENT ON COLUMN billing.disputes.has_submitted_evidence IS 'True once evidence was sent to the gateway.';
COMMENT ON COLUMN billing.disputes.evidence IS 'Evidence submitted as jsonb: tracking numbers, receipts, customer communication references.';
COMMENT ON COLUMN billing.disputes.handled_by_user_id IS 'Staff user handling the dispute. NULL = not yet picked up.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE billing.ledger_entries (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    journal_number text NOT NULL,
    line_number smallint NOT NULL,
    entry_date date NOT NULL,
    gl_account_id bigint NOT NULL,
    source_kind billing.ledger_source_kind NOT NULL,
    account_id bigint,
    invoice_id bigint,
    payment_id bigint,
    credit_note_id bigint,
    refund_id bigint,
    debit_amount numeric(14,2) NOT NULL DEFAULT 0,
    credit_amount numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    memo text,
    is_reversal boolean NOT NULL DEFAULT false,
    posted_at timestamptz NOT NULL,
    posted_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ledger_entries_debit_amount_check CHECK (debit_amount >= 0),
    CONSTRAINT ledger_entries_credit_amount_check CHECK (credit_amount >= 0)
);
COMMENT ON TABLE billing.ledger_entries IS 'General-ledger journal lines (double-entry bookkeeping). One row is one debit or credit line posted to a GL account; the lines sharing a journal_number form one balanced journal entry (debits = credits). Written by invoicing, payments, credit notes, refunds, chargebacks and manual adjustments.';
COMMENT ON COLUMN billing.ledger_entries.journal_number IS 'Number of the journal entry the line belongs to, e.g. JE-2024-03-01877; all its lines balance.';
COMMENT ON COLUMN billing.ledger_entries.line_number IS 'Position of the line within its journal entry, starting at 1.';
COMMENT ON COLUMN billing.ledger_entries.entry_date IS 'Accounting (posting) date the line belongs to; financial periods are bucketed by it.';
COMMENT ON COLUMN billing.ledger_entries.gl_account_id IS 'GL account debited or credited.';
COMMENT ON COLUMN billing.ledger_entries.source_kind IS 'Document that caused the posting: invoice, payment, credit_note, refund, dispute or manual_adjustment.';
COMMENT ON COLUMN billing.ledger_entries.account_id IS 'Customer (crm account) of the receivable sub-ledger. NULL = the line is not customer-specific (bank, fee or manual lines).';
COMMENT ON COLUMN billing.ledger_entries.invoice_id IS 'Invoice that caused the posting. NULL = not an invoice posting.';
COMMENT ON COLUMN billing.ledger_entries.payment_id IS 'Payment that caused the posting (including dispute postings on that payment). NULL = not a payment posting.';
COMMENT ON COLUMN billing.ledger_entries.credit_note_id IS 'Credit note that caused the posting. NULL = not a credit-note posting.';
COMMENT ON COLUMN billing.ledger_entries.refund_id IS 'Refund that caused the posting. NULL = not a refund posting.';
COMMENT ON COLUMN billing.ledger_entries.debit_amount IS 'Debit side of the line, in currency_code; 0 on credit lines.';
COMMENT ON COLUMN billing.ledger_entries.credit_amount IS 'Credit side of the line, in currency_code; 0 on debit lines.';
COMMENT ON COLUMN billing.ledger_entries.currency_code IS 'Currency of the debit and credit amounts (transaction currency).';
COMMENT ON COLUMN billing.ledger_entries.memo IS 'Line description, e.g. "Revenue INV-2024-000183". NULL = none.';
COMMENT ON COLUMN billing.ledger_entries.is_reversal IS 'True if the line reverses an earlier posting (void, bounced payment, lost chargeback).';
COMMENT ON COLUMN billing.ledger_entries.posted_at IS 'When the line was written to the ledger.';
COMMENT ON COLUMN billing.ledger_entries.posted_by_user_id IS 'Staff user who posted a manual journal entry. NULL = posted automatically by the system.';

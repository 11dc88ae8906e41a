-- heron schema, phase 2, domain 09 billing: primary keys, unique business keys (invoice, payment,
-- credit-note and refund numbers per tenant), tenant-safe composite foreign keys and join indexes for
-- invoices, payments, credit notes, refunds, chargebacks and the general ledger.

-- billing.payment_gateways
ALTER TABLE billing.payment_gateways ADD CONSTRAINT payment_gateways_pkey PRIMARY KEY (id);
ALTER TABLE billing.payment_gateways ADD CONSTRAINT payment_gateways_code_key UNIQUE (code);

-- billing.payment_terms
ALTER TABLE billing.payment_terms ADD CONSTRAINT payment_terms_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.payment_terms ADD CONSTRAINT payment_terms_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.payment_terms ADD CONSTRAINT payment_terms_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE billing.payment_terms ADD CONSTRAINT payment_terms_tenant_id_code_key UNIQUE (tenant_id, code);

-- billing.gl_accounts
ALTER TABLE billing.gl_accounts ADD CONSTRAINT gl_accounts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.gl_accounts ADD CONSTRAINT gl_accounts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.gl_accounts ADD CONSTRAINT gl_accounts_parent_gl_account_id_fkey FOREIGN KEY (tenant_id, parent_gl_account_id) REFERENCES billing.gl_accounts (tenant_id, id);
ALTER TABLE billing.gl_accounts ADD CONSTRAINT gl_accounts_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE billing.gl_accounts ADD CONSTRAINT gl_accounts_tenant_id_account_code_key UNIQUE (tenant_id, account_code);

-- billing.payment_methods
ALTER TABLE billing.payment_methods ADD CONSTRAINT payment_methods_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.payment_methods ADD CONSTRAINT payment_methods_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.payment_methods ADD CONSTRAINT payment_methods_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.payment_methods ADD CONSTRAINT payment_methods_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE billing.payment_methods ADD CONSTRAINT payment_methods_gateway_id_fkey FOREIGN KEY (gateway_id) REFERENCES billing.payment_gateways (id);
ALTER TABLE billing.payment_methods ADD CONSTRAINT payment_methods_billing_country_code_fkey FOREIGN KEY (billing_country_code) REFERENCES tenancy.countries (code);
CREATE INDEX payment_methods_tenant_id_account_id_idx ON billing.payment_methods (tenant_id, account_id);

-- billing.invoices
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_billing_contact_id_fkey FOREIGN KEY (tenant_id, billing_contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_billing_address_id_fkey FOREIGN KEY (tenant_id, billing_address_id) REFERENCES crm.addresses (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_billing_period_id_fkey FOREIGN KEY (tenant_id, billing_period_id) REFERENCES subscriptions.billing_periods (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_payment_terms_id_fkey FOREIGN KEY (tenant_id, payment_terms_id) REFERENCES billing.payment_terms (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE billing.invoices ADD CONSTRAINT invoices_tenant_id_invoice_number_key UNIQUE (tenant_id, invoice_number);
CREATE INDEX invoices_tenant_id_account_id_idx ON billing.invoices (tenant_id, account_id);
CREATE INDEX invoices_tenant_id_issued_on_idx ON billing.invoices (tenant_id, issued_on);
CREATE INDEX invoices_tenant_id_subscription_id_idx ON billing.invoices (tenant_id, subscription_id);
CREATE INDEX invoices_tenant_id_order_id_idx ON billing.invoices (tenant_id, order_id);

-- billing.invoice_lines
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_invoice_id_fkey FOREIGN KEY (tenant_id, invoice_id) REFERENCES billing.invoices (tenant_id, id);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_order_line_id_fkey FOREIGN KEY (tenant_id, order_line_id) REFERENCES orders.order_lines (tenant_id, id);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_subscription_item_id_fkey FOREIGN KEY (tenant_id, subscription_item_id) REFERENCES subscriptions.subscription_items (tenant_id, id);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_tax_category_id_fkey FOREIGN KEY (tenant_id, tax_category_id) REFERENCES pricing.tax_categories (tenant_id, id);
ALTER TABLE billing.invoice_lines ADD CONSTRAINT invoice_lines_gl_account_id_fkey FOREIGN KEY (tenant_id, gl_account_id) REFERENCES billing.gl_accounts (tenant_id, id);
CREATE INDEX invoice_lines_tenant_id_invoice_id_idx ON billing.invoice_lines (tenant_id, invoice_id);

-- billing.invoice_taxes
ALTER TABLE billing.invoice_taxes ADD CONSTRAINT invoice_taxes_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.invoice_taxes ADD CONSTRAINT invoice_taxes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.invoice_taxes ADD CONSTRAINT invoice_taxes_invoice_id_fkey FOREIGN KEY (tenant_id, invoice_id) REFERENCES billing.invoices (tenant_id, id);
ALTER TABLE billing.invoice_taxes ADD CONSTRAINT invoice_taxes_tax_rate_id_fkey FOREIGN KEY (tax_rate_id) REFERENCES pricing.tax_rates (id);
ALTER TABLE billing.invoice_taxes ADD CONSTRAINT invoice_taxes_tax_jurisdiction_id_fkey FOREIGN KEY (tax_jurisdiction_id) REFERENCES pricing.tax_jurisdictions (id);
ALTER TABLE billing.invoice_taxes ADD CONSTRAINT invoice_taxes_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.invoice_taxes ADD CONSTRAINT invoice_taxes_tenant_id_invoice_id_tax_rate_id_key UNIQUE (tenant_id, invoice_id, tax_rate_id);

-- billing.payments
ALTER TABLE billing.payments ADD CONSTRAINT payments_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.payments ADD CONSTRAINT payments_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.payments ADD CONSTRAINT payments_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.payments ADD CONSTRAINT payments_payment_method_id_fkey FOREIGN KEY (tenant_id, payment_method_id) REFERENCES billing.payment_methods (tenant_id, id);
ALTER TABLE billing.payments ADD CONSTRAINT payments_gateway_id_fkey FOREIGN KEY (gateway_id) REFERENCES billing.payment_gateways (id);
ALTER TABLE billing.payments ADD CONSTRAINT payments_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.payments ADD CONSTRAINT payments_recorded_by_user_id_fkey FOREIGN KEY (tenant_id, recorded_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE billing.payments ADD CONSTRAINT payments_tenant_id_payment_number_key UNIQUE (tenant_id, payment_number);
CREATE INDEX payments_tenant_id_account_id_idx ON billing.payments (tenant_id, account_id);
CREATE INDEX payments_tenant_id_received_at_idx ON billing.payments (tenant_id, received_at);

-- billing.payment_attempts
ALTER TABLE billing.payment_attempts ADD CONSTRAINT payment_attempts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.payment_attempts ADD CONSTRAINT payment_attempts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.payment_attempts ADD CONSTRAINT payment_attempts_payment_id_fkey FOREIGN KEY (tenant_id, payment_id) REFERENCES billing.payments (tenant_id, id);
ALTER TABLE billing.payment_attempts ADD CONSTRAINT payment_attempts_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.payment_attempts ADD CONSTRAINT payment_attempts_gateway_id_fkey FOREIGN KEY (gateway_id) REFERENCES billing.payment_gateways (id);
ALTER TABLE billing.payment_attempts ADD CONSTRAINT payment_attempts_payment_method_id_fkey FOREIGN KEY (tenant_id, payment_method_id) REFERENCES billing.payment_methods (tenant_id, id);
ALTER TABLE billing.payment_attempts ADD CONSTRAINT payment_attempts_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX payment_attempts_tenant_id_payment_id_idx ON billing.payment_attempts (tenant_id, payment_id);
CREATE INDEX payment_attempts_tenant_id_attempted_at_idx ON billing.payment_attempts (tenant_id, attempted_at);

-- billing.payment_allocations
ALTER TABLE billing.payment_allocations ADD CONSTRAINT payment_allocations_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.payment_allocations ADD CONSTRAINT payment_allocations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.payment_allocations ADD CONSTRAINT payment_allocations_payment_id_fkey FOREIGN KEY (tenant_id, payment_id) REFERENCES billing.payments (tenant_id, id);
ALTER TABLE billing.payment_allocations ADD CONSTRAINT payment_allocations_invoice_id_fkey FOREIGN KEY (tenant_id, invoice_id) REFERENCES billing.invoices (tenant_id, id);
ALTER TABLE billing.payment_allocations ADD CONSTRAINT payment_allocations_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.payment_allocations ADD CONSTRAINT payment_allocations_allocated_by_user_id_fkey FOREIGN KEY (tenant_id, allocated_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE billing.payment_allocations ADD CONSTRAINT payment_allocations_tenant_id_payment_id_invoice_id_key UNIQUE (tenant_id, payment_id, invoice_id);
CREATE INDEX payment_allocations_tenant_id_invoice_id_idx ON billing.payment_allocations (tenant_id, invoice_id);

-- billing.credit_notes
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_invoice_id_fkey FOREIGN KEY (tenant_id, invoice_id) REFERENCES billing.invoices (tenant_id, id);
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_return_id_fkey FOREIGN KEY (tenant_id, return_id) REFERENCES orders.returns (tenant_id, id);
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_issued_by_user_id_fkey FOREIGN KEY (tenant_id, issued_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE billing.credit_notes ADD CONSTRAINT credit_notes_tenant_id_credit_note_number_key UNIQUE (tenant_id, credit_note_number);
CREATE INDEX credit_notes_tenant_id_invoice_id_idx ON billing.credit_notes (tenant_id, invoice_id);

-- billing.credit_note_lines
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_credit_note_id_fkey FOREIGN KEY (tenant_id, credit_note_id) REFERENCES billing.credit_notes (tenant_id, id);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_invoice_line_id_fkey FOREIGN KEY (tenant_id, invoice_line_id) REFERENCES billing.invoice_lines (tenant_id, id);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_return_line_id_fkey FOREIGN KEY (tenant_id, return_line_id) REFERENCES orders.return_lines (tenant_id, id);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_tax_category_id_fkey FOREIGN KEY (tenant_id, tax_category_id) REFERENCES pricing.tax_categories (tenant_id, id);
ALTER TABLE billing.credit_note_lines ADD CONSTRAINT credit_note_lines_gl_account_id_fkey FOREIGN KEY (tenant_id, gl_account_id) REFERENCES billing.gl_accounts (tenant_id, id);
CREATE INDEX credit_note_lines_tenant_id_credit_note_id_idx ON billing.credit_note_lines (tenant_id, credit_note_id);

-- billing.refunds
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_payment_id_fkey FOREIGN KEY (tenant_id, payment_id) REFERENCES billing.payments (tenant_id, id);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_credit_note_id_fkey FOREIGN KEY (tenant_id, credit_note_id) REFERENCES billing.credit_notes (tenant_id, id);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_gateway_id_fkey FOREIGN KEY (gateway_id) REFERENCES billing.payment_gateways (id);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_requested_by_user_id_fkey FOREIGN KEY (tenant_id, requested_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE billing.refunds ADD CONSTRAINT refunds_tenant_id_refund_number_key UNIQUE (tenant_id, refund_number);
CREATE INDEX refunds_tenant_id_payment_id_idx ON billing.refunds (tenant_id, payment_id);

-- billing.disputes
ALTER TABLE billing.disputes ADD CONSTRAINT disputes_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.disputes ADD CONSTRAINT disputes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.disputes ADD CONSTRAINT disputes_payment_id_fkey FOREIGN KEY (tenant_id, payment_id) REFERENCES billing.payments (tenant_id, id);
ALTER TABLE billing.disputes ADD CONSTRAINT disputes_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.disputes ADD CONSTRAINT disputes_gateway_id_fkey FOREIGN KEY (gateway_id) REFERENCES billing.payment_gateways (id);
ALTER TABLE billing.disputes ADD CONSTRAINT disputes_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.disputes ADD CONSTRAINT disputes_handled_by_user_id_fkey FOREIGN KEY (tenant_id, handled_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX disputes_tenant_id_payment_id_idx ON billing.disputes (tenant_id, payment_id);

-- billing.ledger_entries
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_gl_account_id_fkey FOREIGN KEY (tenant_id, gl_account_id) REFERENCES billing.gl_accounts (tenant_id, id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_invoice_id_fkey FOREIGN KEY (tenant_id, invoice_id) REFERENCES billing.invoices (tenant_id, id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_payment_id_fkey FOREIGN KEY (tenant_id, payment_id) REFERENCES billing.payments (tenant_id, id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_credit_note_id_fkey FOREIGN KEY (tenant_id, credit_note_id) REFERENCES billing.credit_notes (tenant_id, id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_refund_id_fkey FOREIGN KEY (tenant_id, refund_id) REFERENCES billing.refunds (tenant_id, id);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE billing.ledger_entries ADD CONSTRAINT ledger_entries_posted_by_user_id_fkey FOREIGN KEY (tenant_id, posted_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX ledger_entries_tenant_id_gl_account_id_entry_date_idx ON billing.ledger_entries (tenant_id, gl_account_id, entry_date);
CREATE INDEX ledger_entries_tenant_id_invoice_id_idx ON billing.ledger_entries (tenant_id, invoice_id);
CREATE INDEX ledger_entries_tenant_id_payment_id_idx ON billing.ledger_entries (tenant_id, payment_id);

-- heron domain 05 pricing, phase 2: primary keys, unique keys, foreign keys and indexes of the
-- price lists, contract prices, discounts, coupons, promotions and tax tables.

-- pricing.tax_jurisdictions (global)
ALTER TABLE pricing.tax_jurisdictions ADD CONSTRAINT tax_jurisdictions_pkey PRIMARY KEY (id);
ALTER TABLE pricing.tax_jurisdictions ADD CONSTRAINT tax_jurisdictions_code_key UNIQUE (code);
ALTER TABLE pricing.tax_jurisdictions ADD CONSTRAINT tax_jurisdictions_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE pricing.tax_jurisdictions ADD CONSTRAINT tax_jurisdictions_parent_jurisdiction_id_fkey FOREIGN KEY (parent_jurisdiction_id) REFERENCES pricing.tax_jurisdictions (id);
ALTER TABLE pricing.tax_jurisdictions ADD CONSTRAINT tax_jurisdictions_filing_currency_code_fkey FOREIGN KEY (filing_currency_code) REFERENCES tenancy.currencies (code);

-- pricing.tax_rates (global)
ALTER TABLE pricing.tax_rates ADD CONSTRAINT tax_rates_pkey PRIMARY KEY (id);
ALTER TABLE pricing.tax_rates ADD CONSTRAINT tax_rates_tax_jurisdiction_id_fkey FOREIGN KEY (tax_jurisdiction_id) REFERENCES pricing.tax_jurisdictions (id);
CREATE INDEX tax_rates_tax_jurisdiction_id_valid_from_idx ON pricing.tax_rates (tax_jurisdiction_id, valid_from);

-- pricing.tax_categories
ALTER TABLE pricing.tax_categories ADD CONSTRAINT tax_categories_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.tax_categories ADD CONSTRAINT tax_categories_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE pricing.tax_categories ADD CONSTRAINT tax_categories_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.tax_categories ADD CONSTRAINT tax_categories_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE pricing.tax_categories ADD CONSTRAINT tax_categories_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- pricing.price_lists
ALTER TABLE pricing.price_lists ADD CONSTRAINT price_lists_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.price_lists ADD CONSTRAINT price_lists_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE pricing.price_lists ADD CONSTRAINT price_lists_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.price_lists ADD CONSTRAINT price_lists_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE pricing.price_lists ADD CONSTRAINT price_lists_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.price_lists ADD CONSTRAINT price_lists_base_price_list_id_fkey FOREIGN KEY (tenant_id, base_price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE pricing.price_lists ADD CONSTRAINT price_lists_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- pricing.price_list_entries
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_tenant_id_price_list_id_variant_id_key UNIQUE (tenant_id, price_list_id, variant_id);
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_price_list_id_fkey FOREIGN KEY (tenant_id, price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_unit_of_measure_id_fkey FOREIGN KEY (unit_of_measure_id) REFERENCES catalog.units_of_measure (id);
ALTER TABLE pricing.price_list_entries ADD CONSTRAINT price_list_entries_updated_by_user_id_fkey FOREIGN KEY (tenant_id, updated_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX price_list_entries_tenant_id_variant_id_idx ON pricing.price_list_entries (tenant_id, variant_id);

-- pricing.volume_tiers
ALTER TABLE pricing.volume_tiers ADD CONSTRAINT volume_tiers_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.volume_tiers ADD CONSTRAINT volume_tiers_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.volume_tiers ADD CONSTRAINT volume_tiers_price_list_entry_id_fkey FOREIGN KEY (tenant_id, price_list_entry_id) REFERENCES pricing.price_list_entries (tenant_id, id);
ALTER TABLE pricing.volume_tiers ADD CONSTRAINT volume_tiers_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.volume_tiers ADD CONSTRAINT volume_tiers_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX volume_tiers_tenant_id_price_list_entry_id_idx ON pricing.volume_tiers (tenant_id, price_list_entry_id);

-- pricing.account_price_lists
ALTER TABLE pricing.account_price_lists ADD CONSTRAINT account_price_lists_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.account_price_lists ADD CONSTRAINT account_price_lists_tenant_id_account_id_price_list_id_key UNIQUE (tenant_id, account_id, price_list_id);
ALTER TABLE pricing.account_price_lists ADD CONSTRAINT account_price_lists_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.account_price_lists ADD CONSTRAINT account_price_lists_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE pricing.account_price_lists ADD CONSTRAINT account_price_lists_price_list_id_fkey FOREIGN KEY (tenant_id, price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE pricing.account_price_lists ADD CONSTRAINT account_price_lists_assigned_by_user_id_fkey FOREIGN KEY (tenant_id, assigned_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX account_price_lists_tenant_id_price_list_id_idx ON pricing.account_price_lists (tenant_id, price_list_id);

-- pricing.contract_prices
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_opportunity_id_fkey FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm.opportunities (tenant_id, id);
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE pricing.contract_prices ADD CONSTRAINT contract_prices_approved_by_user_id_fkey FOREIGN KEY (tenant_id, approved_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX contract_prices_tenant_id_account_id_variant_id_idx ON pricing.contract_prices (tenant_id, account_id, variant_id);

-- pricing.discounts
ALTER TABLE pricing.discounts ADD CONSTRAINT discounts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.discounts ADD CONSTRAINT discounts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.discounts ADD CONSTRAINT discounts_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE pricing.discounts ADD CONSTRAINT discounts_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.discounts ADD CONSTRAINT discounts_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX discounts_tenant_id_starts_at_idx ON pricing.discounts (tenant_id, starts_at);

-- pricing.discount_rules
ALTER TABLE pricing.discount_rules ADD CONSTRAINT discount_rules_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.discount_rules ADD CONSTRAINT discount_rules_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.discount_rules ADD CONSTRAINT discount_rules_discount_id_fkey FOREIGN KEY (tenant_id, discount_id) REFERENCES pricing.discounts (tenant_id, id);
ALTER TABLE pricing.discount_rules ADD CONSTRAINT discount_rules_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE pricing.discount_rules ADD CONSTRAINT discount_rules_category_id_fkey FOREIGN KEY (tenant_id, category_id) REFERENCES catalog.categories (tenant_id, id);
ALTER TABLE pricing.discount_rules ADD CONSTRAINT discount_rules_account_segment_id_fkey FOREIGN KEY (tenant_id, account_segment_id) REFERENCES crm.account_segments (tenant_id, id);
ALTER TABLE pricing.discount_rules ADD CONSTRAINT discount_rules_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX discount_rules_tenant_id_discount_id_idx ON pricing.discount_rules (tenant_id, discount_id);

-- pricing.coupons
ALTER TABLE pricing.coupons ADD CONSTRAINT coupons_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.coupons ADD CONSTRAINT coupons_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE pricing.coupons ADD CONSTRAINT coupons_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.coupons ADD CONSTRAINT coupons_discount_id_fkey FOREIGN KEY (tenant_id, discount_id) REFERENCES pricing.discounts (tenant_id, id);
ALTER TABLE pricing.coupons ADD CONSTRAINT coupons_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE pricing.coupons ADD CONSTRAINT coupons_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX coupons_tenant_id_discount_id_idx ON pricing.coupons (tenant_id, discount_id);

-- pricing.promotions
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_discount_id_fkey FOREIGN KEY (tenant_id, discount_id) REFERENCES pricing.discounts (tenant_id, id);
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_price_list_id_fkey FOREIGN KEY (tenant_id, price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.promotions ADD CONSTRAINT promotions_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX promotions_tenant_id_starts_at_idx ON pricing.promotions (tenant_id, starts_at);

-- pricing.promotion_products
ALTER TABLE pricing.promotion_products ADD CONSTRAINT promotion_products_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.promotion_products ADD CONSTRAINT promotion_products_tenant_id_promotion_id_product_id_key UNIQUE (tenant_id, promotion_id, product_id);
ALTER TABLE pricing.promotion_products ADD CONSTRAINT promotion_products_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.promotion_products ADD CONSTRAINT promotion_products_promotion_id_fkey FOREIGN KEY (tenant_id, promotion_id) REFERENCES pricing.promotions (tenant_id, id);
ALTER TABLE pricing.promotion_products ADD CONSTRAINT promotion_products_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE pricing.promotion_products ADD CONSTRAINT promotion_products_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.promotion_products ADD CONSTRAINT promotion_products_added_by_user_id_fkey FOREIGN KEY (tenant_id, added_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX promotion_products_tenant_id_product_id_idx ON pricing.promotion_products (tenant_id, product_id);

-- pricing.price_changes
ALTER TABLE pricing.price_changes ADD CONSTRAINT price_changes_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE pricing.price_changes ADD CONSTRAINT price_changes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE pricing.price_changes ADD CONSTRAINT price_changes_price_list_id_fkey FOREIGN KEY (tenant_id, price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE pricing.price_changes ADD CONSTRAINT price_changes_price_list_entry_id_fkey FOREIGN KEY (tenant_id, price_list_entry_id) REFERENCES pricing.price_list_entries (tenant_id, id);
ALTER TABLE pricing.price_changes ADD CONSTRAINT price_changes_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE pricing.price_changes ADD CONSTRAINT price_changes_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE pricing.price_changes ADD CONSTRAINT price_changes_changed_by_user_id_fkey FOREIGN KEY (tenant_id, changed_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX price_changes_tenant_id_variant_id_changed_at_idx ON pricing.price_changes (tenant_id, variant_id, changed_at);
CREATE INDEX price_changes_tenant_id_changed_at_idx ON pricing.price_changes (tenant_id, changed_at);

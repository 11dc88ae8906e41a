-- heron phase 2, domain 07 orders: primary keys, unique business keys, foreign keys and indexes
-- for carts, quotes, orders, shipments (fulfillments) and returns.

-- carriers (global)
ALTER TABLE orders.carriers ADD CONSTRAINT carriers_pkey PRIMARY KEY (id);
ALTER TABLE orders.carriers ADD CONSTRAINT carriers_code_key UNIQUE (code);
ALTER TABLE orders.carriers ADD CONSTRAINT carriers_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);

-- sales_channels
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_default_currency_code_fkey FOREIGN KEY (default_currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_default_price_list_id_fkey FOREIGN KEY (tenant_id, default_price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_default_warehouse_id_fkey FOREIGN KEY (tenant_id, default_warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE orders.sales_channels ADD CONSTRAINT sales_channels_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- shipping_methods
ALTER TABLE orders.shipping_methods ADD CONSTRAINT shipping_methods_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.shipping_methods ADD CONSTRAINT shipping_methods_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE orders.shipping_methods ADD CONSTRAINT shipping_methods_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.shipping_methods ADD CONSTRAINT shipping_methods_carrier_id_fkey FOREIGN KEY (carrier_id) REFERENCES orders.carriers (id);
ALTER TABLE orders.shipping_methods ADD CONSTRAINT shipping_methods_destination_country_code_fkey FOREIGN KEY (destination_country_code) REFERENCES tenancy.countries (code);
ALTER TABLE orders.shipping_methods ADD CONSTRAINT shipping_methods_origin_warehouse_id_fkey FOREIGN KEY (tenant_id, origin_warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE orders.shipping_methods ADD CONSTRAINT shipping_methods_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);

-- carts
ALTER TABLE orders.carts ADD CONSTRAINT carts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.carts ADD CONSTRAINT carts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.carts ADD CONSTRAINT carts_sales_channel_id_fkey FOREIGN KEY (tenant_id, sales_channel_id) REFERENCES orders.sales_channels (tenant_id, id);
ALTER TABLE orders.carts ADD CONSTRAINT carts_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE orders.carts ADD CONSTRAINT carts_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE orders.carts ADD CONSTRAINT carts_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE orders.carts ADD CONSTRAINT carts_price_list_id_fkey FOREIGN KEY (tenant_id, price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE orders.carts ADD CONSTRAINT carts_coupon_id_fkey FOREIGN KEY (tenant_id, coupon_id) REFERENCES pricing.coupons (tenant_id, id);
CREATE INDEX carts_tenant_id_last_activity_at_idx ON orders.carts (tenant_id, last_activity_at);

-- cart_items
ALTER TABLE orders.cart_items ADD CONSTRAINT cart_items_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.cart_items ADD CONSTRAINT cart_items_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.cart_items ADD CONSTRAINT cart_items_cart_id_fkey FOREIGN KEY (tenant_id, cart_id) REFERENCES orders.carts (tenant_id, id);
ALTER TABLE orders.cart_items ADD CONSTRAINT cart_items_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE orders.cart_items ADD CONSTRAINT cart_items_bundle_id_fkey FOREIGN KEY (tenant_id, bundle_id) REFERENCES catalog.bundles (tenant_id, id);
ALTER TABLE orders.cart_items ADD CONSTRAINT cart_items_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX cart_items_tenant_id_cart_id_idx ON orders.cart_items (tenant_id, cart_id);

-- quotes
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_tenant_id_quote_number_key UNIQUE (tenant_id, quote_number);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_opportunity_id_fkey FOREIGN KEY (tenant_id, opportunity_id) REFERENCES crm.opportunities (tenant_id, id);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_price_list_id_fkey FOREIGN KEY (tenant_id, price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE orders.quotes ADD CONSTRAINT quotes_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX quotes_tenant_id_account_id_idx ON orders.quotes (tenant_id, account_id);

-- quote_lines
ALTER TABLE orders.quote_lines ADD CONSTRAINT quote_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.quote_lines ADD CONSTRAINT quote_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.quote_lines ADD CONSTRAINT quote_lines_quote_id_fkey FOREIGN KEY (tenant_id, quote_id) REFERENCES orders.quotes (tenant_id, id);
ALTER TABLE orders.quote_lines ADD CONSTRAINT quote_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE orders.quote_lines ADD CONSTRAINT quote_lines_tax_category_id_fkey FOREIGN KEY (tenant_id, tax_category_id) REFERENCES pricing.tax_categories (tenant_id, id);
ALTER TABLE orders.quote_lines ADD CONSTRAINT quote_lines_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX quote_lines_tenant_id_quote_id_idx ON orders.quote_lines (tenant_id, quote_id);

-- orders
ALTER TABLE orders.orders ADD CONSTRAINT orders_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_tenant_id_order_number_key UNIQUE (tenant_id, order_number);
ALTER TABLE orders.orders ADD CONSTRAINT orders_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_sales_channel_id_fkey FOREIGN KEY (tenant_id, sales_channel_id) REFERENCES orders.sales_channels (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_quote_id_fkey FOREIGN KEY (tenant_id, quote_id) REFERENCES orders.quotes (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_cart_id_fkey FOREIGN KEY (tenant_id, cart_id) REFERENCES orders.carts (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_coupon_id_fkey FOREIGN KEY (tenant_id, coupon_id) REFERENCES pricing.coupons (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_price_list_id_fkey FOREIGN KEY (tenant_id, price_list_id) REFERENCES pricing.price_lists (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_shipping_method_id_fkey FOREIGN KEY (tenant_id, shipping_method_id) REFERENCES orders.shipping_methods (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_placed_by_user_id_fkey FOREIGN KEY (tenant_id, placed_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE orders.orders ADD CONSTRAINT orders_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX orders_tenant_id_account_id_idx ON orders.orders (tenant_id, account_id);
CREATE INDEX orders_tenant_id_placed_at_idx ON orders.orders (tenant_id, placed_at);
CREATE INDEX orders_tenant_id_sales_channel_id_idx ON orders.orders (tenant_id, sales_channel_id);

-- order_lines
ALTER TABLE orders.order_lines ADD CONSTRAINT order_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.order_lines ADD CONSTRAINT order_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.order_lines ADD CONSTRAINT order_lines_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE orders.order_lines ADD CONSTRAINT order_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE orders.order_lines ADD CONSTRAINT order_lines_unit_of_measure_id_fkey FOREIGN KEY (unit_of_measure_id) REFERENCES catalog.units_of_measure (id);
ALTER TABLE orders.order_lines ADD CONSTRAINT order_lines_tax_category_id_fkey FOREIGN KEY (tenant_id, tax_category_id) REFERENCES pricing.tax_categories (tenant_id, id);
ALTER TABLE orders.order_lines ADD CONSTRAINT order_lines_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX order_lines_tenant_id_order_id_idx ON orders.order_lines (tenant_id, order_id);
CREATE INDEX order_lines_tenant_id_variant_id_idx ON orders.order_lines (tenant_id, variant_id);

-- order_status_history
ALTER TABLE orders.order_status_history ADD CONSTRAINT order_status_history_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.order_status_history ADD CONSTRAINT order_status_history_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.order_status_history ADD CONSTRAINT order_status_history_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE orders.order_status_history ADD CONSTRAINT order_status_history_changed_by_user_id_fkey FOREIGN KEY (tenant_id, changed_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX order_status_history_tenant_id_order_id_idx ON orders.order_status_history (tenant_id, order_id);

-- order_discounts
ALTER TABLE orders.order_discounts ADD CONSTRAINT order_discounts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.order_discounts ADD CONSTRAINT order_discounts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.order_discounts ADD CONSTRAINT order_discounts_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE orders.order_discounts ADD CONSTRAINT order_discounts_discount_id_fkey FOREIGN KEY (tenant_id, discount_id) REFERENCES pricing.discounts (tenant_id, id);
ALTER TABLE orders.order_discounts ADD CONSTRAINT order_discounts_coupon_id_fkey FOREIGN KEY (tenant_id, coupon_id) REFERENCES pricing.coupons (tenant_id, id);
ALTER TABLE orders.order_discounts ADD CONSTRAINT order_discounts_order_line_id_fkey FOREIGN KEY (tenant_id, order_line_id) REFERENCES orders.order_lines (tenant_id, id);
ALTER TABLE orders.order_discounts ADD CONSTRAINT order_discounts_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX order_discounts_tenant_id_order_id_idx ON orders.order_discounts (tenant_id, order_id);

-- order_addresses
ALTER TABLE orders.order_addresses ADD CONSTRAINT order_addresses_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.order_addresses ADD CONSTRAINT order_addresses_tenant_id_order_id_kind_key UNIQUE (tenant_id, order_id, kind);
ALTER TABLE orders.order_addresses ADD CONSTRAINT order_addresses_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.order_addresses ADD CONSTRAINT order_addresses_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE orders.order_addresses ADD CONSTRAINT order_addresses_address_id_fkey FOREIGN KEY (tenant_id, address_id) REFERENCES crm.addresses (tenant_id, id);
ALTER TABLE orders.order_addresses ADD CONSTRAINT order_addresses_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);

-- fulfillments
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_carrier_id_fkey FOREIGN KEY (carrier_id) REFERENCES orders.carriers (id);
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_shipping_method_id_fkey FOREIGN KEY (tenant_id, shipping_method_id) REFERENCES orders.shipping_methods (tenant_id, id);
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_packed_by_user_id_fkey FOREIGN KEY (tenant_id, packed_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE orders.fulfillments ADD CONSTRAINT fulfillments_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX fulfillments_tenant_id_order_id_idx ON orders.fulfillments (tenant_id, order_id);
CREATE INDEX fulfillments_tenant_id_shipped_at_idx ON orders.fulfillments (tenant_id, shipped_at);

-- fulfillment_lines
ALTER TABLE orders.fulfillment_lines ADD CONSTRAINT fulfillment_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.fulfillment_lines ADD CONSTRAINT fulfillment_lines_tenant_id_fulfillment_id_order_line_id_key UNIQUE (tenant_id, fulfillment_id, order_line_id);
ALTER TABLE orders.fulfillment_lines ADD CONSTRAINT fulfillment_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.fulfillment_lines ADD CONSTRAINT fulfillment_lines_fulfillment_id_fkey FOREIGN KEY (tenant_id, fulfillment_id) REFERENCES orders.fulfillments (tenant_id, id);
ALTER TABLE orders.fulfillment_lines ADD CONSTRAINT fulfillment_lines_order_line_id_fkey FOREIGN KEY (tenant_id, order_line_id) REFERENCES orders.order_lines (tenant_id, id);
ALTER TABLE orders.fulfillment_lines ADD CONSTRAINT fulfillment_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE orders.fulfillment_lines ADD CONSTRAINT fulfillment_lines_lot_id_fkey FOREIGN KEY (tenant_id, lot_id) REFERENCES inventory.lots (tenant_id, id);
CREATE INDEX fulfillment_lines_tenant_id_order_line_id_idx ON orders.fulfillment_lines (tenant_id, order_line_id);

-- returns
ALTER TABLE orders.returns ADD CONSTRAINT returns_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.returns ADD CONSTRAINT returns_tenant_id_rma_number_key UNIQUE (tenant_id, rma_number);
ALTER TABLE orders.returns ADD CONSTRAINT returns_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.returns ADD CONSTRAINT returns_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE orders.returns ADD CONSTRAINT returns_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE orders.returns ADD CONSTRAINT returns_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE orders.returns ADD CONSTRAINT returns_receiving_warehouse_id_fkey FOREIGN KEY (tenant_id, receiving_warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE orders.returns ADD CONSTRAINT returns_approved_by_user_id_fkey FOREIGN KEY (tenant_id, approved_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE orders.returns ADD CONSTRAINT returns_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX returns_tenant_id_order_id_idx ON orders.returns (tenant_id, order_id);

-- return_lines
ALTER TABLE orders.return_lines ADD CONSTRAINT return_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE orders.return_lines ADD CONSTRAINT return_lines_tenant_id_return_id_order_line_id_key UNIQUE (tenant_id, return_id, order_line_id);
ALTER TABLE orders.return_lines ADD CONSTRAINT return_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE orders.return_lines ADD CONSTRAINT return_lines_return_id_fkey FOREIGN KEY (tenant_id, return_id) REFERENCES orders.returns (tenant_id, id);
ALTER TABLE orders.return_lines ADD CONSTRAINT return_lines_order_line_id_fkey FOREIGN KEY (tenant_id, order_line_id) REFERENCES orders.order_lines (tenant_id, id);
ALTER TABLE orders.return_lines ADD CONSTRAINT return_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE orders.return_lines ADD CONSTRAINT return_lines_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX return_lines_tenant_id_return_id_idx ON orders.return_lines (tenant_id, return_id);

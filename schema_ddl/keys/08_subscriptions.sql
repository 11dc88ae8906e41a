-- heron phase 2, domain 08 subscriptions: primary keys, unique business keys, foreign keys and
-- indexes for the tenant's recurring plans and its customers' subscriptions.

-- plans
ALTER TABLE subscriptions.plans ADD CONSTRAINT plans_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.plans ADD CONSTRAINT plans_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE subscriptions.plans ADD CONSTRAINT plans_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.plans ADD CONSTRAINT plans_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE subscriptions.plans ADD CONSTRAINT plans_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE subscriptions.plans ADD CONSTRAINT plans_tax_category_id_fkey FOREIGN KEY (tenant_id, tax_category_id) REFERENCES pricing.tax_categories (tenant_id, id);
ALTER TABLE subscriptions.plans ADD CONSTRAINT plans_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- plan_prices
ALTER TABLE subscriptions.plan_prices ADD CONSTRAINT plan_prices_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.plan_prices ADD CONSTRAINT plan_prices_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.plan_prices ADD CONSTRAINT plan_prices_plan_id_fkey FOREIGN KEY (tenant_id, plan_id) REFERENCES subscriptions.plans (tenant_id, id);
ALTER TABLE subscriptions.plan_prices ADD CONSTRAINT plan_prices_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE subscriptions.plan_prices ADD CONSTRAINT plan_prices_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX plan_prices_tenant_id_plan_id_idx ON subscriptions.plan_prices (tenant_id, plan_id);

-- meters
ALTER TABLE subscriptions.meters ADD CONSTRAINT meters_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.meters ADD CONSTRAINT meters_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE subscriptions.meters ADD CONSTRAINT meters_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.meters ADD CONSTRAINT meters_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- addons
ALTER TABLE subscriptions.addons ADD CONSTRAINT addons_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.addons ADD CONSTRAINT addons_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE subscriptions.addons ADD CONSTRAINT addons_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.addons ADD CONSTRAINT addons_plan_id_fkey FOREIGN KEY (tenant_id, plan_id) REFERENCES subscriptions.plans (tenant_id, id);
ALTER TABLE subscriptions.addons ADD CONSTRAINT addons_meter_id_fkey FOREIGN KEY (tenant_id, meter_id) REFERENCES subscriptions.meters (tenant_id, id);
ALTER TABLE subscriptions.addons ADD CONSTRAINT addons_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE subscriptions.addons ADD CONSTRAINT addons_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);

-- cancellation_reasons
ALTER TABLE subscriptions.cancellation_reasons ADD CONSTRAINT cancellation_reasons_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.cancellation_reasons ADD CONSTRAINT cancellation_reasons_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE subscriptions.cancellation_reasons ADD CONSTRAINT cancellation_reasons_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.cancellation_reasons ADD CONSTRAINT cancellation_reasons_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- subscriptions
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_tenant_id_subscription_number_key UNIQUE (tenant_id, subscription_number);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_plan_id_fkey FOREIGN KEY (tenant_id, plan_id) REFERENCES subscriptions.plans (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_plan_price_id_fkey FOREIGN KEY (tenant_id, plan_price_id) REFERENCES subscriptions.plan_prices (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_sales_channel_id_fkey FOREIGN KEY (tenant_id, sales_channel_id) REFERENCES orders.sales_channels (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_coupon_id_fkey FOREIGN KEY (tenant_id, coupon_id) REFERENCES pricing.coupons (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_owner_user_id_fkey FOREIGN KEY (tenant_id, owner_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_cancellation_reason_id_fkey FOREIGN KEY (tenant_id, cancellation_reason_id) REFERENCES subscriptions.cancellation_reasons (tenant_id, id);
ALTER TABLE subscriptions.subscriptions ADD CONSTRAINT subscriptions_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX subscriptions_tenant_id_account_id_idx ON subscriptions.subscriptions (tenant_id, account_id);
CREATE INDEX subscriptions_tenant_id_plan_id_idx ON subscriptions.subscriptions (tenant_id, plan_id);
CREATE INDEX subscriptions_tenant_id_started_at_idx ON subscriptions.subscriptions (tenant_id, started_at);

-- subscription_items
ALTER TABLE subscriptions.subscription_items ADD CONSTRAINT subscription_items_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.subscription_items ADD CONSTRAINT subscription_items_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.subscription_items ADD CONSTRAINT subscription_items_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.subscription_items ADD CONSTRAINT subscription_items_plan_price_id_fkey FOREIGN KEY (tenant_id, plan_price_id) REFERENCES subscriptions.plan_prices (tenant_id, id);
ALTER TABLE subscriptions.subscription_items ADD CONSTRAINT subscription_items_addon_id_fkey FOREIGN KEY (tenant_id, addon_id) REFERENCES subscriptions.addons (tenant_id, id);
ALTER TABLE subscriptions.subscription_items ADD CONSTRAINT subscription_items_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX subscription_items_tenant_id_subscription_id_idx ON subscriptions.subscription_items (tenant_id, subscription_id);

-- subscription_events
ALTER TABLE subscriptions.subscription_events ADD CONSTRAINT subscription_events_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.subscription_events ADD CONSTRAINT subscription_events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.subscription_events ADD CONSTRAINT subscription_events_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.subscription_events ADD CONSTRAINT subscription_events_from_plan_id_fkey FOREIGN KEY (tenant_id, from_plan_id) REFERENCES subscriptions.plans (tenant_id, id);
ALTER TABLE subscriptions.subscription_events ADD CONSTRAINT subscription_events_to_plan_id_fkey FOREIGN KEY (tenant_id, to_plan_id) REFERENCES subscriptions.plans (tenant_id, id);
ALTER TABLE subscriptions.subscription_events ADD CONSTRAINT subscription_events_actor_user_id_fkey FOREIGN KEY (tenant_id, actor_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE subscriptions.subscription_events ADD CONSTRAINT subscription_events_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX subscription_events_tenant_id_subscription_id_idx ON subscriptions.subscription_events (tenant_id, subscription_id);
CREATE INDEX subscription_events_tenant_id_occurred_at_idx ON subscriptions.subscription_events (tenant_id, occurred_at);

-- billing_periods
ALTER TABLE subscriptions.billing_periods ADD CONSTRAINT billing_periods_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.billing_periods ADD CONSTRAINT billing_periods_tenant_id_subscription_id_period_start_key UNIQUE (tenant_id, subscription_id, period_start);
ALTER TABLE subscriptions.billing_periods ADD CONSTRAINT billing_periods_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.billing_periods ADD CONSTRAINT billing_periods_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.billing_periods ADD CONSTRAINT billing_periods_plan_price_id_fkey FOREIGN KEY (tenant_id, plan_price_id) REFERENCES subscriptions.plan_prices (tenant_id, id);
ALTER TABLE subscriptions.billing_periods ADD CONSTRAINT billing_periods_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX billing_periods_tenant_id_period_start_idx ON subscriptions.billing_periods (tenant_id, period_start);

-- usage_records
ALTER TABLE subscriptions.usage_records ADD CONSTRAINT usage_records_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.usage_records ADD CONSTRAINT usage_records_tenant_id_idempotency_key_key UNIQUE (tenant_id, idempotency_key);
ALTER TABLE subscriptions.usage_records ADD CONSTRAINT usage_records_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.usage_records ADD CONSTRAINT usage_records_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.usage_records ADD CONSTRAINT usage_records_meter_id_fkey FOREIGN KEY (tenant_id, meter_id) REFERENCES subscriptions.meters (tenant_id, id);
ALTER TABLE subscriptions.usage_records ADD CONSTRAINT usage_records_billing_period_id_fkey FOREIGN KEY (tenant_id, billing_period_id) REFERENCES subscriptions.billing_periods (tenant_id, id);
ALTER TABLE subscriptions.usage_records ADD CONSTRAINT usage_records_api_key_id_fkey FOREIGN KEY (tenant_id, api_key_id) REFERENCES auth.api_keys (tenant_id, id);
CREATE INDEX usage_records_tenant_id_subscription_id_period_date_idx ON subscriptions.usage_records (tenant_id, subscription_id, period_date);

-- trials
ALTER TABLE subscriptions.trials ADD CONSTRAINT trials_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.trials ADD CONSTRAINT trials_tenant_id_subscription_id_key UNIQUE (tenant_id, subscription_id);
ALTER TABLE subscriptions.trials ADD CONSTRAINT trials_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.trials ADD CONSTRAINT trials_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.trials ADD CONSTRAINT trials_plan_id_fkey FOREIGN KEY (tenant_id, plan_id) REFERENCES subscriptions.plans (tenant_id, id);

-- pauses
ALTER TABLE subscriptions.pauses ADD CONSTRAINT pauses_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.pauses ADD CONSTRAINT pauses_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.pauses ADD CONSTRAINT pauses_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.pauses ADD CONSTRAINT pauses_paused_by_user_id_fkey FOREIGN KEY (tenant_id, paused_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX pauses_tenant_id_subscription_id_idx ON subscriptions.pauses (tenant_id, subscription_id);

-- entitlements
ALTER TABLE subscriptions.entitlements ADD CONSTRAINT entitlements_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.entitlements ADD CONSTRAINT entitlements_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.entitlements ADD CONSTRAINT entitlements_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.entitlements ADD CONSTRAINT entitlements_addon_id_fkey FOREIGN KEY (tenant_id, addon_id) REFERENCES subscriptions.addons (tenant_id, id);
ALTER TABLE subscriptions.entitlements ADD CONSTRAINT entitlements_granted_by_user_id_fkey FOREIGN KEY (tenant_id, granted_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX entitlements_tenant_id_subscription_id_idx ON subscriptions.entitlements (tenant_id, subscription_id);

-- renewals
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_tenant_id_subscription_id_renewal_date_key UNIQUE (tenant_id, subscription_id, renewal_date);
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_from_plan_price_id_fkey FOREIGN KEY (tenant_id, from_plan_price_id) REFERENCES subscriptions.plan_prices (tenant_id, id);
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_to_plan_price_id_fkey FOREIGN KEY (tenant_id, to_plan_price_id) REFERENCES subscriptions.plan_prices (tenant_id, id);
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_decided_by_user_id_fkey FOREIGN KEY (tenant_id, decided_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE subscriptions.renewals ADD CONSTRAINT renewals_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX renewals_tenant_id_renewal_date_idx ON subscriptions.renewals (tenant_id, renewal_date);

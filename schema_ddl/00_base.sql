-- heron schema, phase 1 base: the 14 domain schemas (in dependency order) and `shared`,
-- which holds only the types that more than one domain uses. Tables never live in `shared`.

CREATE SCHEMA tenancy;
COMMENT ON SCHEMA tenancy IS 'The platform, its tenants (merchants) and shared reference data such as countries, currencies and exchange rates.';
CREATE SCHEMA auth;
COMMENT ON SCHEMA auth IS 'Staff identities of each tenant and their access control.';
CREATE SCHEMA crm;
COMMENT ON SCHEMA crm IS 'Business customers (accounts), their contacts and the sales pipeline.';
CREATE SCHEMA catalog;
COMMENT ON SCHEMA catalog IS 'Products, SKUs (variants), categories and product content.';
CREATE SCHEMA pricing;
COMMENT ON SCHEMA pricing IS 'Price lists, negotiated prices, discounts, coupons and tax rates.';
CREATE SCHEMA inventory;
COMMENT ON SCHEMA inventory IS 'Warehouses, stock levels and movements, suppliers and purchasing.';
CREATE SCHEMA orders;
COMMENT ON SCHEMA orders IS 'Carts, quotes, orders, shipments (fulfillments) and returns.';
CREATE SCHEMA subscriptions;
COMMENT ON SCHEMA subscriptions IS 'Recurring plans tenants sell to their customers, and their lifecycle.';
CREATE SCHEMA billing;
COMMENT ON SCHEMA billing IS 'Invoices, payments, credit notes, refunds, chargebacks and the ledger.';
CREATE SCHEMA support;
COMMENT ON SCHEMA support IS 'The help desk: tickets (cases), SLAs, satisfaction and the knowledge base.';
CREATE SCHEMA marketing;
COMMENT ON SCHEMA marketing IS 'Campaigns, ad spend, attribution, referrals, loyalty and consent.';
CREATE SCHEMA comms;
COMMENT ON SCHEMA comms IS 'Outbound messages, their delivery events, chat and notification preferences.';
CREATE SCHEMA analytics;
COMMENT ON SCHEMA analytics IS 'Storefront behaviour, product analytics events, experiments and reports.';
CREATE SCHEMA ops;
COMMENT ON SCHEMA ops IS 'Operations, integrations, webhooks, jobs and the audit trail.';
CREATE SCHEMA shared;
COMMENT ON SCHEMA shared IS 'Types used by more than one domain. Holds no tables.';

CREATE TYPE shared.message_channel AS ENUM ('email', 'sms', 'push', 'in_app', 'whatsapp');
COMMENT ON TYPE shared.message_channel IS 'Channel a message or notification is delivered through.';
CREATE TYPE shared.billing_interval AS ENUM ('day', 'week', 'month', 'quarter', 'year');
COMMENT ON TYPE shared.billing_interval IS 'Recurrence unit of a plan or price.';
CREATE TYPE shared.actor_type AS ENUM ('user', 'api_key', 'oauth_client', 'contact', 'system');
COMMENT ON TYPE shared.actor_type IS 'Kind of principal that performed an action.';

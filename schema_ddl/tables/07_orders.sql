-- heron phase 1, domain 07 orders: how a tenant sells. Shopping carts and B2B quotes lead to
-- customer orders; orders are shipped in fulfillments (shipments) and may come back as returns (RMAs).
-- Carriers are the only global table here; everything else belongs to one tenant.

CREATE TYPE orders.sales_channel_kind AS ENUM ('web_store', 'sales_rep', 'edi', 'marketplace', 'phone');
COMMENT ON TYPE orders.sales_channel_kind IS 'Kind of sales channel an order can arrive through.';
CREATE TYPE orders.cart_status AS ENUM ('active', 'converted', 'abandoned');
COMMENT ON TYPE orders.cart_status IS 'Lifecycle state of a shopping cart.';
CREATE TYPE orders.quote_status AS ENUM ('draft', 'sent', 'accepted', 'declined', 'expired');
COMMENT ON TYPE orders.quote_status IS 'Lifecycle state of a B2B price quote.';
CREATE TYPE orders.order_status AS ENUM ('pending', 'confirmed', 'paid', 'partially_shipped', 'shipped', 'delivered', 'cancelled', 'refunded');
COMMENT ON TYPE orders.order_status IS 'Lifecycle state of a customer order.';
CREATE TYPE orders.address_kind AS ENUM ('shipping', 'billing');
COMMENT ON TYPE orders.address_kind IS 'Role of an address snapshot on an order: ship-to or bill-to.';
CREATE TYPE orders.fulfillment_status AS ENUM ('pending', 'picking', 'packed', 'shipped', 'in_transit', 'delivered', 'failed');
COMMENT ON TYPE orders.fulfillment_status IS 'Lifecycle state of a shipment (fulfillment).';
CREATE TYPE orders.return_reason AS ENUM ('damaged_in_transit', 'defective', 'wrong_item', 'not_as_described', 'no_longer_needed', 'arrived_late', 'other');
COMMENT ON TYPE orders.return_reason IS 'Why the customer sends goods back.';
CREATE TYPE orders.return_status AS ENUM ('requested', 'approved', 'rejected', 'received', 'refunded', 'closed');
COMMENT ON TYPE orders.return_status IS 'Lifecycle state of a return authorisation (RMA).';
CREATE TYPE orders.item_condition AS ENUM ('unopened', 'like_new', 'used', 'damaged', 'defective');
COMMENT ON TYPE orders.item_condition IS 'Condition a returned item arrived in at the warehouse.';

-- carriers (global) -----------------------------------------------------------------------------

CREATE TABLE orders.carriers (
    id bigint NOT NULL,
    code varchar(32) NOT NULL,
    name text NOT NULL,
    tracking_url_template text,
    website_url text,
    country_code char(2) NOT NULL,
    is_international boolean NOT NULL DEFAULT true,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE orders.carriers IS 'Shipping carriers (couriers, parcel and freight companies such as UPS, DHL, FedEx) known platform-wide; shared by all tenants. Shipments (orders.fulfillments) name the carrier that moved them.';
COMMENT ON COLUMN orders.carriers.code IS 'Short unique carrier code used in integrations, e.g. ups, dhl_express, fedex, postnl.';
COMMENT ON COLUMN orders.carriers.name IS 'Display name of the carrier, e.g. "DHL Express".';
COMMENT ON COLUMN orders.carriers.tracking_url_template IS 'URL pattern for parcel tracking with a {tracking_number} placeholder; NULL when the carrier offers no public tracking page.';
COMMENT ON COLUMN orders.carriers.website_url IS 'Carrier home page; NULL if unknown.';
COMMENT ON COLUMN orders.carriers.country_code IS 'Country where the carrier is headquartered (ISO 3166-1 alpha-2).';
COMMENT ON COLUMN orders.carriers.is_international IS 'True when the carrier ships across borders, false for domestic-only carriers.';
COMMENT ON COLUMN orders.carriers.is_active IS 'False when the platform no longer supports the carrier for new shipments.';

-- sales channels ---------------------------------------------------------------------------------

CREATE TABLE orders.sales_channels (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    kind orders.sales_channel_kind NOT NULL,
    workspace_id bigint NOT NULL,
    default_currency_code char(3) NOT NULL,
    default_price_list_id bigint NOT NULL,
    default_warehouse_id bigint NOT NULL,
    created_by_user_id bigint NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    external_reference text,
    settings jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE orders.sales_channels IS 'Sales channels of a tenant: where orders come from (B2B web store, field sales reps, EDI feeds, marketplaces, phone orders). One row per channel. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN orders.sales_channels.code IS 'Short channel code, unique within the tenant, e.g. webshop_eu, edi_walmart, reps_north.';
COMMENT ON COLUMN orders.sales_channels.name IS 'Display name of the channel shown in reports.';
COMMENT ON COLUMN orders.sales_channels.kind IS 'Type of channel: web_store, sales_rep, edi, marketplace or phone.';
COMMENT ON COLUMN orders.sales_channels.workspace_id IS 'Brand or business unit (tenancy.workspaces) the channel belongs to.';
COMMENT ON COLUMN orders.sales_channels.default_currency_code IS 'Currency new carts and orders in this channel start in (ISO 4217).';
COMMENT ON COLUMN orders.sales_channels.default_price_list_id IS 'Price list applied in this channel when the buyer has no account-specific price list.';
COMMENT ON COLUMN orders.sales_channels.default_warehouse_id IS 'Warehouse that normally ships orders from this channel.';
COMMENT ON COLUMN orders.sales_channels.created_by_user_id IS 'Staff user who set the channel up.';
COMMENT ON COLUMN orders.sales_channels.is_active IS 'False when the channel no longer accepts new orders.';
COMMENT ON COLUMN orders.sales_channels.external_reference IS 'Identifier of the channel in the external system (marketplace seller id, EDI partner id); NULL for native channels.';
COMMENT ON COLUMN orders.sales_channels.settings IS 'Channel configuration document (checkout options, EDI mapping, marketplace fees policy).';
COMMENT ON COLUMN orders.sales_channels.deleted_at IS 'When the channel was deleted in the back office; NULL = live.';

-- shipping methods -------------------------------------------------------------------------------

CREATE TABLE orders.shipping_methods (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    carrier_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    service_level text NOT NULL,
    destination_country_code char(2),
    origin_warehouse_id bigint NOT NULL,
    base_fee numeric(14,2) NOT NULL,
    fee_per_kg numeric(14,4) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    estimated_days_min smallint NOT NULL,
    estimated_days_max smallint NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT shipping_methods_estimated_days_max_check CHECK (estimated_days_max >= estimated_days_min)
);
COMMENT ON TABLE orders.shipping_methods IS 'Shipping options (delivery methods, shipping rates) a tenant offers at checkout, each served by one carrier, e.g. "DHL Express next day". Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN orders.shipping_methods.carrier_id IS 'Carrier that performs this delivery service.';
COMMENT ON COLUMN orders.shipping_methods.code IS 'Short method code, unique within the tenant, e.g. std_ground, express_24h.';
COMMENT ON COLUMN orders.shipping_methods.name IS 'Name shown to buyers at checkout.';
COMMENT ON COLUMN orders.shipping_methods.service_level IS 'Speed class of the service: typical values standard, express, overnight, freight, pickup.';
COMMENT ON COLUMN orders.shipping_methods.destination_country_code IS 'Only country the method ships to; NULL means it is offered for every destination.';
COMMENT ON COLUMN orders.shipping_methods.origin_warehouse_id IS 'Warehouse the method ships from.';
COMMENT ON COLUMN orders.shipping_methods.base_fee IS 'Flat shipping charge per order, in currency_code.';
COMMENT ON COLUMN orders.shipping_methods.fee_per_kg IS 'Additional charge per kilogram of parcel weight, in currency_code; 0 for flat-rate methods.';
COMMENT ON COLUMN orders.shipping_methods.currency_code IS 'Currency of base_fee and fee_per_kg (ISO 4217).';
COMMENT ON COLUMN orders.shipping_methods.estimated_days_min IS 'Fastest promised transit time in business days.';
COMMENT ON COLUMN orders.shipping_methods.estimated_days_max IS 'Slowest promised transit time in business days.';
COMMENT ON COLUMN orders.shipping_methods.is_active IS 'False when the method is no longer offered at checkout.';
COMMENT ON COLUMN orders.shipping_methods.deleted_at IS 'When the method was deleted in the back office; NULL = live.';

-- carts ------------------------------------------------------------------------------------------

CREATE TABLE orders.carts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    sales_channel_id bigint NOT NULL,
    account_id bigint,
    contact_id bigint,
    status orders.cart_status NOT NULL DEFAULT 'active',
    currency_code char(3) NOT NULL,
    subtotal_amount numeric(14,2) NOT NULL DEFAULT 0,
    item_count integer NOT NULL DEFAULT 0,
    price_list_id bigint NOT NULL,
    coupon_id bigint,
    visitor_token uuid NOT NULL,
    last_activity_at timestamptz NOT NULL,
    abandoned_at timestamptz,
    converted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE orders.carts IS 'Shopping carts (baskets) opened on a tenant''s web store or other self-service channel. A cart is active while being filled, converted when checkout produced an order (the order points back via orders.orders.cart_id), or abandoned.';
COMMENT ON COLUMN orders.carts.sales_channel_id IS 'Channel (usually the web store) the cart was opened in.';
COMMENT ON COLUMN orders.carts.account_id IS 'Business customer the cart is for; NULL for a guest cart that is not yet linked to a customer account.';
COMMENT ON COLUMN orders.carts.contact_id IS 'Signed-in buyer (crm.contacts) who owns the cart; NULL = guest shopper who has not logged in.';
COMMENT ON COLUMN orders.carts.status IS 'active, converted (checked out into an order) or abandoned (left without buying).';
COMMENT ON COLUMN orders.carts.currency_code IS 'Currency the cart is priced in (ISO 4217).';
COMMENT ON COLUMN orders.carts.subtotal_amount IS 'Sum of item prices before discounts, tax and shipping, in currency_code.';
COMMENT ON COLUMN orders.carts.item_count IS 'Number of distinct cart lines currently in the cart.';
COMMENT ON COLUMN orders.carts.price_list_id IS 'Price list used to price the cart: the account''s own list, else the channel default.';
COMMENT ON COLUMN orders.carts.coupon_id IS 'Coupon code entered in the cart; NULL when none was entered.';
COMMENT ON COLUMN orders.carts.visitor_token IS 'Anonymous storefront visitor identifier stored in the browser cookie; lets guest carts be recovered.';
COMMENT ON COLUMN orders.carts.last_activity_at IS 'Last time an item was added, changed or removed.';
COMMENT ON COLUMN orders.carts.abandoned_at IS 'When the cart was flagged as abandoned; NULL if it is still active or was converted.';
COMMENT ON COLUMN orders.carts.converted_at IS 'When checkout completed and an order was created; NULL if not converted.';

CREATE TABLE orders.cart_items (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    cart_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    bundle_id bigint,
    quantity integer NOT NULL,
    unit_price numeric(14,4) NOT NULL,
    currency_code char(3) NOT NULL,
    added_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT cart_items_quantity_check CHECK (quantity > 0)
);
COMMENT ON TABLE orders.cart_items IS 'Cart lines (basket items): one SKU and quantity placed in a shopping cart.';
COMMENT ON COLUMN orders.cart_items.cart_id IS 'Cart the item sits in.';
COMMENT ON COLUMN orders.cart_items.variant_id IS 'SKU (catalog.product_variants) added to the cart.';
COMMENT ON COLUMN orders.cart_items.bundle_id IS 'Kit the SKU was added as part of; NULL when added on its own.';
COMMENT ON COLUMN orders.cart_items.quantity IS 'Number of units, in the SKU''s selling unit.';
COMMENT ON COLUMN orders.cart_items.unit_price IS 'Price per unit quoted to the shopper at the time of adding, in currency_code, before discounts and tax.';
COMMENT ON COLUMN orders.cart_items.currency_code IS 'Currency of unit_price; same as the cart currency.';
COMMENT ON COLUMN orders.cart_items.added_at IS 'When the shopper put the item in the cart.';

-- quotes -----------------------------------------------------------------------------------------

CREATE TABLE orders.quotes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    quote_number varchar(32) NOT NULL,
    account_id bigint NOT NULL,
    contact_id bigint,
    owner_user_id bigint NOT NULL,
    opportunity_id bigint,
    price_list_id bigint,
    status orders.quote_status NOT NULL DEFAULT 'draft',
    version smallint NOT NULL DEFAULT 1,
    currency_code char(3) NOT NULL,
    subtotal_amount numeric(14,2) NOT NULL,
    discount_amount numeric(14,2) NOT NULL DEFAULT 0,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    total_amount numeric(14,2) NOT NULL,
    valid_until date NOT NULL,
    sent_at timestamptz,
    decided_at timestamptz,
    terms text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT quotes_decided_at_check CHECK (decided_at IS NULL OR decided_at >= sent_at)
);
COMMENT ON TABLE orders.quotes IS 'B2B price quotes (quotations, proposals, offers) a sales rep sends to a business customer; an accepted quote usually becomes an order (orders.orders.quote_id). Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN orders.quotes.quote_number IS 'Human-readable quote number printed on the PDF, unique within the tenant, e.g. Q-2024-00123.';
COMMENT ON COLUMN orders.quotes.account_id IS 'Business customer the quote is addressed to.';
COMMENT ON COLUMN orders.quotes.contact_id IS 'Buyer contact the quote was sent to; NULL when addressed to the account in general.';
COMMENT ON COLUMN orders.quotes.owner_user_id IS 'Sales rep (staff user) responsible for the quote.';
COMMENT ON COLUMN orders.quotes.opportunity_id IS 'Sales deal (crm.opportunities) the quote belongs to; NULL for quotes made outside the pipeline.';
COMMENT ON COLUMN orders.quotes.price_list_id IS 'Price list the quote was priced from; NULL when prices were entered by hand.';
COMMENT ON COLUMN orders.quotes.status IS 'draft, sent, accepted, declined or expired (valid_until passed without an answer).';
COMMENT ON COLUMN orders.quotes.version IS 'Revision number; increases each time the quote is re-issued.';
COMMENT ON COLUMN orders.quotes.currency_code IS 'Currency all quote amounts are in (ISO 4217).';
COMMENT ON COLUMN orders.quotes.subtotal_amount IS 'Sum of line amounts before discount and tax, in currency_code.';
COMMENT ON COLUMN orders.quotes.discount_amount IS 'Total discount granted on the quote, in currency_code.';
COMMENT ON COLUMN orders.quotes.tax_amount IS 'Estimated tax on the quote, in currency_code.';
COMMENT ON COLUMN orders.quotes.total_amount IS 'Grand total offered to the customer (subtotal - discount + tax), in currency_code.';
COMMENT ON COLUMN orders.quotes.valid_until IS 'Last day the quoted prices are honoured.';
COMMENT ON COLUMN orders.quotes.sent_at IS 'When the quote was sent to the customer; NULL while still a draft.';
COMMENT ON COLUMN orders.quotes.decided_at IS 'When the customer accepted or declined; NULL if no decision yet (or the quote expired).';
COMMENT ON COLUMN orders.quotes.terms IS 'Free-text commercial terms and conditions printed on the quote.';
COMMENT ON COLUMN orders.quotes.deleted_at IS 'When the quote was deleted in the back office; NULL = live.';

CREATE TABLE orders.quote_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    quote_id bigint NOT NULL,
    line_number smallint NOT NULL,
    variant_id bigint NOT NULL,
    tax_category_id bigint NOT NULL,
    description text NOT NULL,
    quantity integer NOT NULL,
    unit_price numeric(14,4) NOT NULL,
    discount_percent numeric(5,2) NOT NULL DEFAULT 0,
    line_total numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT quote_lines_quantity_check CHECK (quantity > 0),
    CONSTRAINT quote_lines_discount_percent_check CHECK (discount_percent <= 100)
);
COMMENT ON TABLE orders.quote_lines IS 'Lines of a B2B quote: one SKU, quantity and offered price.';
COMMENT ON COLUMN orders.quote_lines.quote_id IS 'Quote the line belongs to.';
COMMENT ON COLUMN orders.quote_lines.line_number IS 'Position of the line on the quote, starting at 1.';
COMMENT ON COLUMN orders.quote_lines.variant_id IS 'SKU (catalog.product_variants) being quoted.';
COMMENT ON COLUMN orders.quote_lines.tax_category_id IS 'Tax class used to estimate tax on the line.';
COMMENT ON COLUMN orders.quote_lines.description IS 'Line text shown on the quote (product name plus any custom wording).';
COMMENT ON COLUMN orders.quote_lines.quantity IS 'Number of units quoted.';
COMMENT ON COLUMN orders.quote_lines.unit_price IS 'Offered price per unit before the line discount, in currency_code.';
COMMENT ON COLUMN orders.quote_lines.discount_percent IS 'Line discount in percent (0-100) off unit_price.';
COMMENT ON COLUMN orders.quote_lines.line_total IS 'quantity x unit_price less the line discount, excluding tax, in currency_code.';
COMMENT ON COLUMN orders.quote_lines.currency_code IS 'Currency of the line amounts; same as the quote currency.';

-- orders -----------------------------------------------------------------------------------------

CREATE TABLE orders.orders (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    order_number varchar(32) NOT NULL,
    account_id bigint NOT NULL,
    contact_id bigint,
    sales_channel_id bigint NOT NULL,
    quote_id bigint,
    cart_id bigint,
    coupon_id bigint,
    price_list_id bigint,
    shipping_method_id bigint,
    warehouse_id bigint,
    placed_by_user_id bigint,
    status orders.order_status NOT NULL DEFAULT 'pending',
    currency_code char(3) NOT NULL,
    subtotal_amount numeric(14,2) NOT NULL,
    discount_amount numeric(14,2) NOT NULL DEFAULT 0,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    shipping_amount numeric(14,2) NOT NULL DEFAULT 0,
    total_amount numeric(14,2) NOT NULL,
    customer_po_number text,
    requested_delivery_date date,
    placed_at timestamptz NOT NULL,
    confirmed_at timestamptz,
    cancelled_at timestamptz,
    is_test boolean NOT NULL DEFAULT false,
    external_reference text,
    notes text,
    metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT orders_cancelled_at_check CHECK (cancelled_at IS NULL OR cancelled_at >= placed_at)
);
COMMENT ON TABLE orders.orders IS 'Customer orders (sales orders, purchases, bookings) placed by a business customer through any sales channel. One row per order; amounts are in the order''s own currency. Test orders are flagged with is_test. Rows are soft-deleted: deleted_at is set instead of removing the row (orders deleted in the back office).';
COMMENT ON COLUMN orders.orders.order_number IS 'Human-readable order number shown to customers, unique within the tenant, e.g. SO-100045.';
COMMENT ON COLUMN orders.orders.account_id IS 'Business customer (crm.accounts) that bought; always set.';
COMMENT ON COLUMN orders.orders.contact_id IS 'Person who placed the order (buyer contact); NULL when it came from an integration (EDI, marketplace) with no buyer contact.';
COMMENT ON COLUMN orders.orders.sales_channel_id IS 'Channel the order came through (web store, sales rep, EDI, marketplace, phone).';
COMMENT ON COLUMN orders.orders.quote_id IS 'Accepted quote the order was created from; NULL for orders placed without a quote.';
COMMENT ON COLUMN orders.orders.cart_id IS 'Shopping cart checked out to create the order; NULL for orders not placed through a cart (reps, EDI, phone).';
COMMENT ON COLUMN orders.orders.coupon_id IS 'Coupon code redeemed on the order; NULL when no coupon was used.';
COMMENT ON COLUMN orders.orders.price_list_id IS 'Price list the order was priced from; NULL = catalogue list prices.';
COMMENT ON COLUMN orders.orders.shipping_method_id IS 'Delivery option chosen; NULL for digital-only or customer-pickup orders.';
COMMENT ON COLUMN orders.orders.warehouse_id IS 'Warehouse allocated to ship the order; NULL while not yet allocated.';
COMMENT ON COLUMN orders.orders.placed_by_user_id IS 'Sales rep (staff user) who keyed the order in on behalf of the customer; NULL for self-service and integration orders.';
COMMENT ON COLUMN orders.orders.status IS 'Current state: pending, confirmed, paid, partially_shipped, shipped, delivered, cancelled or refunded. History is in orders.order_status_history.';
COMMENT ON COLUMN orders.orders.currency_code IS 'Currency every amount of the order is in (ISO 4217); convert with tenancy.exchange_rates before summing across orders.';
COMMENT ON COLUMN orders.orders.subtotal_amount IS 'Sum of line amounts before order discounts, tax and shipping, in currency_code.';
COMMENT ON COLUMN orders.orders.discount_amount IS 'Total discounts and coupons applied to the order, in currency_code.';
COMMENT ON COLUMN orders.orders.tax_amount IS 'Total sales tax / VAT charged, in currency_code.';
COMMENT ON COLUMN orders.orders.shipping_amount IS 'Shipping charged to the customer, in currency_code.';
COMMENT ON COLUMN orders.orders.total_amount IS 'Grand total the customer owes: subtotal - discount + tax + shipping, in currency_code (order value, GMV).';
COMMENT ON COLUMN orders.orders.customer_po_number IS 'The buyer''s own purchase-order number quoted on the order; NULL if the buyer gave none.';
COMMENT ON COLUMN orders.orders.requested_delivery_date IS 'Delivery date the customer asked for; NULL = as soon as possible.';
COMMENT ON COLUMN orders.orders.placed_at IS 'When the order was placed (order date); use this, not created_at, for sales by day/month.';
COMMENT ON COLUMN orders.orders.confirmed_at IS 'When the tenant accepted the order; NULL while still pending.';
COMMENT ON COLUMN orders.orders.cancelled_at IS 'When the order was cancelled; NULL if it was never cancelled.';
COMMENT ON COLUMN orders.orders.is_test IS 'True for test orders placed by staff; exclude them from revenue reporting.';
COMMENT ON COLUMN orders.orders.external_reference IS 'Order id in the originating system (marketplace order id, EDI document number); NULL for native orders.';
COMMENT ON COLUMN orders.orders.notes IS 'Free-text instructions from the customer or the rep.';
COMMENT ON COLUMN orders.orders.metadata IS 'Arbitrary key/value data attached by integrations.';
COMMENT ON COLUMN orders.orders.deleted_at IS 'When the order was deleted in the back office; NULL = live.';

CREATE TABLE orders.order_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    order_id bigint NOT NULL,
    line_number smallint NOT NULL,
    variant_id bigint NOT NULL,
    unit_of_measure_id bigint NOT NULL,
    tax_category_id bigint NOT NULL,
    sku varchar(64) NOT NULL,
    product_name text NOT NULL,
    quantity integer NOT NULL,
    unit_price numeric(14,4) NOT NULL,
    discount_amount numeric(14,2) NOT NULL DEFAULT 0,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    line_total numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT order_lines_quantity_check CHECK (quantity > 0)
);
COMMENT ON TABLE orders.order_lines IS 'Order lines (line items): the SKUs bought on an order, with quantity and price as charged. Revenue per product is summed from here.';
COMMENT ON COLUMN orders.order_lines.order_id IS 'Order the line belongs to.';
COMMENT ON COLUMN orders.order_lines.line_number IS 'Position of the line within the order, starting at 1.';
COMMENT ON COLUMN orders.order_lines.variant_id IS 'SKU (catalog.product_variants) ordered.';
COMMENT ON COLUMN orders.order_lines.unit_of_measure_id IS 'Unit the quantity is expressed in (each, box, kg).';
COMMENT ON COLUMN orders.order_lines.tax_category_id IS 'Tax class applied to the line (tax-exempt goods use a zero-rate class).';
COMMENT ON COLUMN orders.order_lines.sku IS 'SKU code as it was at order time (snapshot).';
COMMENT ON COLUMN orders.order_lines.product_name IS 'Product name as it was at order time (snapshot).';
COMMENT ON COLUMN orders.order_lines.quantity IS 'Number of units ordered.';
COMMENT ON COLUMN orders.order_lines.unit_price IS 'Price per unit charged before discount and tax, in currency_code.';
COMMENT ON COLUMN orders.order_lines.discount_amount IS 'Discount allocated to this line, in currency_code.';
COMMENT ON COLUMN orders.order_lines.tax_amount IS 'Tax charged on this line, in currency_code.';
COMMENT ON COLUMN orders.order_lines.line_total IS 'Net line amount: quantity x unit_price - discount_amount, excluding tax, in currency_code.';
COMMENT ON COLUMN orders.order_lines.currency_code IS 'Currency of the line amounts; same as the order currency.';

CREATE TABLE orders.order_status_history (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    order_id bigint NOT NULL,
    from_status orders.order_status,
    to_status orders.order_status NOT NULL,
    changed_at timestamptz NOT NULL,
    changed_by_user_id bigint,
    actor_type shared.actor_type NOT NULL,
    reason text,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE orders.order_status_history IS 'Order status log: one row for every status change of an order (append-only audit of the order lifecycle).';
COMMENT ON COLUMN orders.order_status_history.order_id IS 'Order whose status changed.';
COMMENT ON COLUMN orders.order_status_history.from_status IS 'Status before the change; NULL for the first row, when the order was created.';
COMMENT ON COLUMN orders.order_status_history.to_status IS 'Status after the change.';
COMMENT ON COLUMN orders.order_status_history.changed_at IS 'When the status changed.';
COMMENT ON COLUMN orders.order_status_history.changed_by_user_id IS 'Staff user who made the change; NULL when the system, an integration or the customer did it.';
COMMENT ON COLUMN orders.order_status_history.actor_type IS 'Kind of principal that made the change (user, api_key, oauth_client, contact, system).';
COMMENT ON COLUMN orders.order_status_history.reason IS 'Optional explanation, e.g. cancellation reason or payment reference.';

CREATE TABLE orders.order_discounts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    order_id bigint NOT NULL,
    discount_id bigint NOT NULL,
    coupon_id bigint,
    order_line_id bigint,
    label text NOT NULL,
    amount numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    applied_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE orders.order_discounts IS 'Discounts, promotions and coupon codes applied to an order, one row per applied discount with the money it took off.';
COMMENT ON COLUMN orders.order_discounts.order_id IS 'Order the discount was applied to.';
COMMENT ON COLUMN orders.order_discounts.discount_id IS 'Discount definition (pricing.discounts) that produced the reduction.';
COMMENT ON COLUMN orders.order_discounts.coupon_id IS 'Coupon code redeemed to trigger the discount; NULL for automatic discounts that need no code.';
COMMENT ON COLUMN orders.order_discounts.order_line_id IS 'Line the discount applies to; NULL for an order-level discount spread over the whole order.';
COMMENT ON COLUMN orders.order_discounts.label IS 'Text shown to the customer, e.g. "Spring sale -10%".';
COMMENT ON COLUMN orders.order_discounts.amount IS 'Money taken off by this discount, positive, in currency_code.';
COMMENT ON COLUMN orders.order_discounts.currency_code IS 'Currency of amount; same as the order currency.';
COMMENT ON COLUMN orders.order_discounts.applied_at IS 'When the discount was applied.';

CREATE TABLE orders.order_addresses (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    order_id bigint NOT NULL,
    kind orders.address_kind NOT NULL,
    address_id bigint,
    recipient_name text NOT NULL,
    company_name text,
    line1 text NOT NULL,
    line2 text,
    city text NOT NULL,
    region text,
    postal_code varchar(16),
    country_code char(2) NOT NULL,
    phone varchar(32),
    email text,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE orders.order_addresses IS 'Ship-to and bill-to address snapshots of an order, copied at order time so later edits to the customer''s address book do not change past orders. At most one row per order and kind.';
COMMENT ON COLUMN orders.order_addresses.order_id IS 'Order the address belongs to.';
COMMENT ON COLUMN orders.order_addresses.kind IS 'shipping (ship-to, delivery address) or billing (bill-to, invoice address).';
COMMENT ON COLUMN orders.order_addresses.address_id IS 'Address-book entry (crm.addresses) the snapshot was copied from; NULL when the address was typed in at checkout.';
COMMENT ON COLUMN orders.order_addresses.recipient_name IS 'Person or department to deliver or bill to.';
COMMENT ON COLUMN orders.order_addresses.company_name IS 'Company name on the label or invoice; NULL if not given.';
COMMENT ON COLUMN orders.order_addresses.line1 IS 'Street and house number.';
COMMENT ON COLUMN orders.order_addresses.line2 IS 'Suite, floor, building; NULL if unused.';
COMMENT ON COLUMN orders.order_addresses.city IS 'City or town.';
COMMENT ON COLUMN orders.order_addresses.region IS 'State, province or county; NULL where not used.';
COMMENT ON COLUMN orders.order_addresses.postal_code IS 'ZIP or postal code; NULL in countries without one.';
COMMENT ON COLUMN orders.order_addresses.country_code IS 'Country of the address (ISO 3166-1 alpha-2); use it for sales by country.';
COMMENT ON COLUMN orders.order_addresses.phone IS 'Contact phone for the carrier; NULL if not given.';
COMMENT ON COLUMN orders.order_addresses.email IS 'E-mail for delivery or invoice notifications; NULL if not given.';

-- fulfillments (shipments) -----------------------------------------------------------------------

CREATE TABLE orders.fulfillments (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    order_id bigint NOT NULL,
    warehouse_id bigint NOT NULL,
    carrier_id bigint NOT NULL,
    shipping_method_id bigint,
    packed_by_user_id bigint,
    status orders.fulfillment_status NOT NULL DEFAULT 'pending',
    tracking_number text,
    package_count smallint NOT NULL DEFAULT 1,
    weight_kg numeric(10,3),
    shipping_cost numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    shipped_at timestamptz,
    delivered_at timestamptz,
    external_reference text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT fulfillments_delivered_at_check CHECK (delivered_at IS NULL OR delivered_at >= shipped_at)
);
COMMENT ON TABLE orders.fulfillments IS 'Shipments (deliveries, consignments, parcels sent) of an order: one row per physical dispatch from a warehouse with a carrier. An order may ship in several fulfillments (partial shipment).';
COMMENT ON COLUMN orders.fulfillments.order_id IS 'Order being shipped.';
COMMENT ON COLUMN orders.fulfillments.warehouse_id IS 'Warehouse the goods left from.';
COMMENT ON COLUMN orders.fulfillments.carrier_id IS 'Carrier that transports the shipment (global orders.carriers).';
COMMENT ON COLUMN orders.fulfillments.shipping_method_id IS 'Tenant delivery option used; NULL when the shipment was booked directly with the carrier outside the configured methods.';
COMMENT ON COLUMN orders.fulfillments.packed_by_user_id IS 'Warehouse staff user who packed it; NULL when packed by a 3PL or automation.';
COMMENT ON COLUMN orders.fulfillments.status IS 'pending, picking, packed, shipped, in_transit, delivered or failed (lost / undeliverable).';
COMMENT ON COLUMN orders.fulfillments.tracking_number IS 'Carrier tracking number; NULL until the label is printed.';
COMMENT ON COLUMN orders.fulfillments.package_count IS 'Number of parcels or pallets in the shipment.';
COMMENT ON COLUMN orders.fulfillments.weight_kg IS 'Gross shipping weight in kilograms; NULL if not weighed.';
COMMENT ON COLUMN orders.fulfillments.shipping_cost IS 'What the carrier charges the tenant for this shipment (cost, not what the customer paid), in currency_code.';
COMMENT ON COLUMN orders.fulfillments.currency_code IS 'Currency of shipping_cost (ISO 4217).';
COMMENT ON COLUMN orders.fulfillments.shipped_at IS 'When the carrier picked the shipment up; NULL if not shipped yet.';
COMMENT ON COLUMN orders.fulfillments.delivered_at IS 'When the carrier reported delivery; NULL if not delivered (yet).';
COMMENT ON COLUMN orders.fulfillments.external_reference IS 'Shipment id at the carrier or 3PL; NULL if none.';

CREATE TABLE orders.fulfillment_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    fulfillment_id bigint NOT NULL,
    order_line_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    lot_id bigint,
    quantity integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT fulfillment_lines_quantity_check CHECK (quantity > 0)
);
COMMENT ON TABLE orders.fulfillment_lines IS 'Contents of a shipment: how many units of which order line went out in a fulfillment.';
COMMENT ON COLUMN orders.fulfillment_lines.fulfillment_id IS 'Shipment the units were packed in.';
COMMENT ON COLUMN orders.fulfillment_lines.order_line_id IS 'Order line being (partly) fulfilled.';
COMMENT ON COLUMN orders.fulfillment_lines.variant_id IS 'SKU shipped; same as the order line''s SKU, repeated for convenience.';
COMMENT ON COLUMN orders.fulfillment_lines.lot_id IS 'Batch / lot the units were picked from; NULL for products not tracked by lot.';
COMMENT ON COLUMN orders.fulfillment_lines.quantity IS 'Units shipped in this fulfillment; may be less than the ordered quantity.';

-- returns (RMAs) ---------------------------------------------------------------------------------

CREATE TABLE orders.returns (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    rma_number varchar(32) NOT NULL,
    order_id bigint NOT NULL,
    account_id bigint NOT NULL,
    contact_id bigint,
    receiving_warehouse_id bigint NOT NULL,
    approved_by_user_id bigint,
    reason orders.return_reason NOT NULL,
    status orders.return_status NOT NULL DEFAULT 'requested',
    requested_at timestamptz NOT NULL,
    approved_at timestamptz,
    received_at timestamptz,
    refund_amount numeric(14,2) NOT NULL DEFAULT 0,
    restocking_fee numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    customer_comment text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT returns_received_at_check CHECK (received_at IS NULL OR received_at >= requested_at)
);
COMMENT ON TABLE orders.returns IS 'Return authorisations (RMAs, return requests) for goods a customer sends back from an order. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN orders.returns.rma_number IS 'Return merchandise authorisation number given to the customer, unique within the tenant, e.g. RMA-004512.';
COMMENT ON COLUMN orders.returns.order_id IS 'Original order the goods were bought on.';
COMMENT ON COLUMN orders.returns.account_id IS 'Business customer returning the goods (same as the order''s account).';
COMMENT ON COLUMN orders.returns.contact_id IS 'Person who requested the return; NULL when raised by staff without a named contact.';
COMMENT ON COLUMN orders.returns.receiving_warehouse_id IS 'Warehouse the goods must be sent back to.';
COMMENT ON COLUMN orders.returns.approved_by_user_id IS 'Staff user who approved or rejected the RMA; NULL while undecided or when auto-approved.';
COMMENT ON COLUMN orders.returns.reason IS 'Main reason given: damaged_in_transit, defective, wrong_item, not_as_described, no_longer_needed, arrived_late, other.';
COMMENT ON COLUMN orders.returns.status IS 'requested, approved, rejected, received (goods arrived), refunded or closed.';
COMMENT ON COLUMN orders.returns.requested_at IS 'When the customer asked to return.';
COMMENT ON COLUMN orders.returns.approved_at IS 'When the RMA was approved; NULL if not (yet) approved.';
COMMENT ON COLUMN orders.returns.received_at IS 'When the returned goods arrived at the warehouse; NULL if not received yet.';
COMMENT ON COLUMN orders.returns.refund_amount IS 'Money to be refunded to the customer for this return, in currency_code; 0 until assessed.';
COMMENT ON COLUMN orders.returns.restocking_fee IS 'Fee withheld from the refund for restocking, in currency_code; 0 if none.';
COMMENT ON COLUMN orders.returns.currency_code IS 'Currency of refund_amount and restocking_fee; same as the order currency.';
COMMENT ON COLUMN orders.returns.customer_comment IS 'Free-text explanation from the customer.';
COMMENT ON COLUMN orders.returns.deleted_at IS 'When the RMA was deleted in the back office; NULL = live.';

CREATE TABLE orders.return_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    return_id bigint NOT NULL,
    order_line_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    quantity integer NOT NULL,
    condition orders.item_condition,
    is_restocked boolean NOT NULL DEFAULT false,
    refund_amount numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT return_lines_quantity_check CHECK (quantity > 0)
);
COMMENT ON TABLE orders.return_lines IS 'Returned SKUs and quantities of an RMA, one row per order line being sent back.';
COMMENT ON COLUMN orders.return_lines.return_id IS 'Return authorisation (RMA) the line belongs to.';
COMMENT ON COLUMN orders.return_lines.order_line_id IS 'Order line the units were originally bought on.';
COMMENT ON COLUMN orders.return_lines.variant_id IS 'SKU being returned.';
COMMENT ON COLUMN orders.return_lines.quantity IS 'Units returned.';
COMMENT ON COLUMN orders.return_lines.condition IS 'Condition on arrival: unopened, like_new, used, damaged, defective; NULL until inspected.';
COMMENT ON COLUMN orders.return_lines.is_restocked IS 'True when the units were put back into sellable stock.';
COMMENT ON COLUMN orders.return_lines.refund_amount IS 'Refund credited for this line, in currency_code.';
COMMENT ON COLUMN orders.return_lines.currency_code IS 'Currency of refund_amount; same as the order currency.';

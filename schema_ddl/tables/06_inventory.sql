-- heron domain 06 inventory, phase 1: stock and procurement. The tenant's warehouses with their
-- zones and bins, stock levels per SKU and warehouse, the stock-movement ledger, lots/batches,
-- suppliers and what they sell, purchase orders and goods receipts against them, transfers of
-- stock between warehouses, and cycle counts.

CREATE TYPE inventory.warehouse_kind AS ENUM ('own', '3pl', 'dropship');
COMMENT ON TYPE inventory.warehouse_kind IS 'Who operates a stock location: the tenant itself, a third-party logistics provider, or a drop-shipping supplier.';

CREATE TYPE inventory.zone_type AS ENUM ('receiving', 'storage', 'picking', 'packing', 'shipping', 'quarantine');
COMMENT ON TYPE inventory.zone_type IS 'Function of a zone inside a warehouse.';

CREATE TYPE inventory.bin_type AS ENUM ('shelf', 'pallet_rack', 'floor', 'cold_storage', 'bulk');
COMMENT ON TYPE inventory.bin_type IS 'Physical kind of a storage bin.';

CREATE TYPE inventory.supplier_status AS ENUM ('prospective', 'active', 'on_hold', 'blocked');
COMMENT ON TYPE inventory.supplier_status IS 'Whether purchase orders may be placed with a supplier.';

CREATE TYPE inventory.movement_type AS ENUM ('receipt', 'pick', 'adjustment', 'transfer_in', 'transfer_out', 'return');
COMMENT ON TYPE inventory.movement_type IS 'Reason a stock quantity changed.';

CREATE TYPE inventory.lot_status AS ENUM ('available', 'quarantined', 'expired', 'recalled', 'consumed');
COMMENT ON TYPE inventory.lot_status IS 'Usability of a lot (batch) of stock.';

CREATE TYPE inventory.purchase_order_status AS ENUM ('draft', 'sent', 'partially_received', 'received', 'cancelled');
COMMENT ON TYPE inventory.purchase_order_status IS 'Lifecycle state of a purchase order.';

CREATE TYPE inventory.receipt_status AS ENUM ('pending_putaway', 'completed', 'discrepancy', 'cancelled');
COMMENT ON TYPE inventory.receipt_status IS 'Processing state of a goods receipt.';

CREATE TYPE inventory.receipt_condition AS ENUM ('good', 'damaged', 'wrong_item', 'short_dated');
COMMENT ON TYPE inventory.receipt_condition IS 'Condition of received goods as inspected at the dock.';

CREATE TYPE inventory.transfer_status AS ENUM ('requested', 'approved', 'in_transit', 'received', 'cancelled');
COMMENT ON TYPE inventory.transfer_status IS 'Lifecycle state of a stock transfer between warehouses.';

CREATE TYPE inventory.cycle_count_status AS ENUM ('scheduled', 'in_progress', 'counted', 'approved', 'cancelled');
COMMENT ON TYPE inventory.cycle_count_status IS 'Lifecycle state of a cycle count.';

-- ---------------------------------------------------------------------------------------------

CREATE TABLE inventory.warehouses (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    code text NOT NULL,
    name text NOT NULL,
    kind inventory.warehouse_kind NOT NULL DEFAULT 'own',
    dropship_supplier_id bigint,
    operator_name text,
    address_line1 text NOT NULL,
    address_line2 text,
    city text NOT NULL,
    region text,
    postal_code text,
    country_code char(2) NOT NULL,
    timezone_name text NOT NULL,
    latitude numeric(9,6),
    longitude numeric(9,6),
    manager_user_id bigint,
    is_active boolean NOT NULL DEFAULT true,
    is_default boolean NOT NULL DEFAULT false,
    opened_on date,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE inventory.warehouses IS 'The tenant''s stock locations (warehouses, distribution centres, DCs, fulfilment centres, depots), whether run by the tenant, by a 3PL provider, or by a drop-shipping supplier. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN inventory.warehouses.workspace_id IS 'Brand or business unit the warehouse serves; NULL means it is shared by all workspaces of the tenant.';
COMMENT ON COLUMN inventory.warehouses.code IS 'Tenant-defined short code, e.g. AMS1, DC-EAST. Unique per tenant.';
COMMENT ON COLUMN inventory.warehouses.name IS 'Display name, e.g. Rotterdam DC, Chicago 3PL.';
COMMENT ON COLUMN inventory.warehouses.kind IS 'Operator: own (tenant-run), 3pl (third-party logistics provider), dropship (the supplier ships directly).';
COMMENT ON COLUMN inventory.warehouses.dropship_supplier_id IS 'Supplier that ships from this location; NULL unless kind = dropship.';
COMMENT ON COLUMN inventory.warehouses.operator_name IS 'Name of the 3PL provider running the site, e.g. DHL Supply Chain; NULL for own and dropship locations.';
COMMENT ON COLUMN inventory.warehouses.address_line1 IS 'Street address of the site.';
COMMENT ON COLUMN inventory.warehouses.address_line2 IS 'Unit, building or dock detail; NULL if not needed.';
COMMENT ON COLUMN inventory.warehouses.city IS 'City of the site.';
COMMENT ON COLUMN inventory.warehouses.region IS 'State, province or region; NULL where not used.';
COMMENT ON COLUMN inventory.warehouses.postal_code IS 'Postal or ZIP code; NULL where the country has none.';
COMMENT ON COLUMN inventory.warehouses.country_code IS 'ISO 3166-1 alpha-2 country of the site.';
COMMENT ON COLUMN inventory.warehouses.timezone_name IS 'IANA time zone the site operates in (cut-off times, shift reports), e.g. Europe/Amsterdam.';
COMMENT ON COLUMN inventory.warehouses.latitude IS 'Latitude in decimal degrees; NULL if not geocoded.';
COMMENT ON COLUMN inventory.warehouses.longitude IS 'Longitude in decimal degrees; NULL if not geocoded.';
COMMENT ON COLUMN inventory.warehouses.manager_user_id IS 'Staff user who manages the site; NULL for 3PL and dropship sites without a tenant manager.';
COMMENT ON COLUMN inventory.warehouses.is_active IS 'False once the site no longer ships or receives (closed but kept for history).';
COMMENT ON COLUMN inventory.warehouses.is_default IS 'True for the warehouse that new stock and orders default to.';
COMMENT ON COLUMN inventory.warehouses.opened_on IS 'Date the site started operating; NULL if unknown.';
COMMENT ON COLUMN inventory.warehouses.deleted_at IS 'When the warehouse was deleted; NULL means it is live.';

CREATE TABLE inventory.warehouse_zones (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    warehouse_id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    zone_type inventory.zone_type NOT NULL,
    is_temperature_controlled boolean NOT NULL DEFAULT false,
    min_temperature_c numeric(5,2),
    max_temperature_c numeric(5,2),
    sort_order integer NOT NULL DEFAULT 0,
    supervisor_user_id bigint,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT warehouse_zones_max_temperature_c_check CHECK (max_temperature_c IS NULL OR max_temperature_c >= min_temperature_c)
);
COMMENT ON TABLE inventory.warehouse_zones IS 'Zones (areas, sections) inside a warehouse, such as receiving dock, bulk storage, pick face, packing or quarantine area.';
COMMENT ON COLUMN inventory.warehouse_zones.warehouse_id IS 'Warehouse the zone is in.';
COMMENT ON COLUMN inventory.warehouse_zones.code IS 'Zone code within the warehouse, e.g. A, RCV, COLD. Repeats across warehouses.';
COMMENT ON COLUMN inventory.warehouse_zones.name IS 'Display name, e.g. Receiving dock, Mezzanine pick area.';
COMMENT ON COLUMN inventory.warehouse_zones.zone_type IS 'Function: receiving, storage, picking, packing, shipping or quarantine.';
COMMENT ON COLUMN inventory.warehouse_zones.is_temperature_controlled IS 'True for chilled or frozen zones.';
COMMENT ON COLUMN inventory.warehouse_zones.min_temperature_c IS 'Lowest allowed temperature in degrees Celsius; NULL if not controlled.';
COMMENT ON COLUMN inventory.warehouse_zones.max_temperature_c IS 'Highest allowed temperature in degrees Celsius; NULL if not controlled.';
COMMENT ON COLUMN inventory.warehouse_zones.sort_order IS 'Position in the pick path; pickers walk zones in ascending order.';
COMMENT ON COLUMN inventory.warehouse_zones.supervisor_user_id IS 'Staff user responsible for the zone; NULL if none is assigned.';
COMMENT ON COLUMN inventory.warehouse_zones.is_active IS 'False if the zone is closed (e.g. during re-racking).';

CREATE TABLE inventory.bins (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    warehouse_id bigint NOT NULL,
    warehouse_zone_id bigint NOT NULL,
    code text NOT NULL,
    barcode text NOT NULL,
    bin_type inventory.bin_type NOT NULL DEFAULT 'shelf',
    aisle text,
    rack text,
    shelf_level text,
    max_weight_kg numeric(10,2),
    max_volume_liters numeric(10,2),
    is_pickable boolean NOT NULL DEFAULT true,
    is_active boolean NOT NULL DEFAULT true,
    last_counted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bins_max_weight_kg_check CHECK (max_weight_kg > 0)
);
COMMENT ON TABLE inventory.bins IS 'Storage bins (bin locations, slots, shelf positions) inside a warehouse zone, where stock is physically put away and picked from.';
COMMENT ON COLUMN inventory.bins.warehouse_id IS 'Warehouse the bin is in (same as its zone''s warehouse).';
COMMENT ON COLUMN inventory.bins.warehouse_zone_id IS 'Zone the bin belongs to.';
COMMENT ON COLUMN inventory.bins.code IS 'Human-readable location code, e.g. A-03-02-B (aisle-rack-level-position). Unique within a warehouse.';
COMMENT ON COLUMN inventory.bins.barcode IS 'Barcode label scanned at the bin. Unique per tenant.';
COMMENT ON COLUMN inventory.bins.bin_type IS 'Physical kind: shelf, pallet_rack, floor, cold_storage or bulk.';
COMMENT ON COLUMN inventory.bins.aisle IS 'Aisle identifier; NULL for floor locations.';
COMMENT ON COLUMN inventory.bins.rack IS 'Rack or bay identifier within the aisle; NULL for floor locations.';
COMMENT ON COLUMN inventory.bins.shelf_level IS 'Shelf level within the rack (A = floor level); NULL for floor locations.';
COMMENT ON COLUMN inventory.bins.max_weight_kg IS 'Load limit in kilograms; NULL if not specified.';
COMMENT ON COLUMN inventory.bins.max_volume_liters IS 'Usable volume in litres; NULL if not specified.';
COMMENT ON COLUMN inventory.bins.is_pickable IS 'True if orders may be picked from the bin; false for reserve/overstock locations.';
COMMENT ON COLUMN inventory.bins.is_active IS 'False if the bin is blocked or removed from service.';
COMMENT ON COLUMN inventory.bins.last_counted_at IS 'When the bin was last physically counted; NULL if never counted.';

CREATE TABLE inventory.suppliers (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    legal_name text,
    tax_number text,
    status inventory.supplier_status NOT NULL DEFAULT 'active',
    country_code char(2) NOT NULL,
    currency_code char(3) NOT NULL,
    payment_terms_days integer NOT NULL DEFAULT 30,
    default_lead_time_days integer,
    minimum_order_amount numeric(14,2),
    rating smallint,
    email text,
    phone text,
    website text,
    buyer_user_id bigint,
    notes text,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT suppliers_payment_terms_days_check CHECK (payment_terms_days >= 0),
    CONSTRAINT suppliers_rating_check CHECK (rating BETWEEN 1 AND 5)
);
COMMENT ON TABLE inventory.suppliers IS 'Suppliers (vendors, manufacturers, distributors) the tenant buys stock from through purchase orders. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN inventory.suppliers.code IS 'Tenant-defined vendor code, e.g. V-00123. Unique per tenant.';
COMMENT ON COLUMN inventory.suppliers.name IS 'Trading name of the supplier.';
COMMENT ON COLUMN inventory.suppliers.legal_name IS 'Registered legal name used on purchase orders; NULL if same as name.';
COMMENT ON COLUMN inventory.suppliers.tax_number IS 'VAT / tax identification number of the supplier; NULL if not recorded.';
COMMENT ON COLUMN inventory.suppliers.status IS 'prospective (being onboarded), active, on_hold (no new POs for now), blocked (do not use).';
COMMENT ON COLUMN inventory.suppliers.country_code IS 'ISO 3166-1 alpha-2 country the supplier ships from.';
COMMENT ON COLUMN inventory.suppliers.currency_code IS 'Currency the supplier invoices in; default currency of its purchase orders and of minimum_order_amount.';
COMMENT ON COLUMN inventory.suppliers.payment_terms_days IS 'Days after invoice the tenant has to pay the supplier (30 = net 30).';
COMMENT ON COLUMN inventory.suppliers.default_lead_time_days IS 'Typical days from PO to delivery; NULL if unknown. Overridden per SKU in supplier_products.';
COMMENT ON COLUMN inventory.suppliers.minimum_order_amount IS 'Smallest PO value the supplier accepts, in currency_code; NULL if there is no minimum.';
COMMENT ON COLUMN inventory.suppliers.rating IS 'Buyer''s vendor rating from 1 (poor) to 5 (excellent); NULL if not yet rated.';
COMMENT ON COLUMN inventory.suppliers.email IS 'General order e-mail address; NULL if orders go to a named contact.';
COMMENT ON COLUMN inventory.suppliers.phone IS 'Main phone number; NULL if unknown.';
COMMENT ON COLUMN inventory.suppliers.website IS 'Supplier website URL; NULL if unknown.';
COMMENT ON COLUMN inventory.suppliers.buyer_user_id IS 'Staff buyer (purchaser) responsible for the supplier; NULL if unassigned.';
COMMENT ON COLUMN inventory.suppliers.notes IS 'Free-text notes about the supplier; NULL if none.';
COMMENT ON COLUMN inventory.suppliers.deleted_at IS 'When the supplier was deleted; NULL means it is live.';

CREATE TABLE inventory.supplier_contacts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    supplier_id bigint NOT NULL,
    first_name text NOT NULL,
    last_name text NOT NULL,
    job_title text,
    contact_role text NOT NULL DEFAULT 'sales',
    email text,
    phone text,
    language_code char(2) NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT supplier_contacts_contact_role_check CHECK (contact_role IN ('sales', 'accounts_receivable', 'logistics', 'quality', 'management'))
);
COMMENT ON TABLE inventory.supplier_contacts IS 'People at suppliers (vendor contacts, account reps) the tenant''s buyers deal with. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN inventory.supplier_contacts.supplier_id IS 'Supplier the person works for.';
COMMENT ON COLUMN inventory.supplier_contacts.first_name IS 'Given name.';
COMMENT ON COLUMN inventory.supplier_contacts.last_name IS 'Family name.';
COMMENT ON COLUMN inventory.supplier_contacts.job_title IS 'Job title at the supplier, e.g. Key Account Manager; NULL if unknown.';
COMMENT ON COLUMN inventory.supplier_contacts.contact_role IS 'What the tenant contacts them for: sales, accounts_receivable, logistics, quality or management.';
COMMENT ON COLUMN inventory.supplier_contacts.email IS 'E-mail address; NULL if unknown.';
COMMENT ON COLUMN inventory.supplier_contacts.phone IS 'Phone number; NULL if unknown.';
COMMENT ON COLUMN inventory.supplier_contacts.language_code IS 'ISO 639-1 language to correspond in.';
COMMENT ON COLUMN inventory.supplier_contacts.is_primary IS 'True for the supplier''s main contact for purchase orders.';
COMMENT ON COLUMN inventory.supplier_contacts.created_by_user_id IS 'Staff user who added the contact.';
COMMENT ON COLUMN inventory.supplier_contacts.deleted_at IS 'When the contact was deleted; NULL means it is live.';

CREATE TABLE inventory.supplier_products (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    supplier_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    supplier_sku text NOT NULL,
    unit_cost numeric(14,4) NOT NULL,
    currency_code char(3) NOT NULL,
    unit_of_measure_id bigint NOT NULL,
    pack_size integer NOT NULL DEFAULT 1,
    min_order_quantity integer NOT NULL DEFAULT 1,
    lead_time_days integer NOT NULL,
    is_preferred boolean NOT NULL DEFAULT false,
    quoted_on date,
    valid_until date,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT supplier_products_unit_cost_check CHECK (unit_cost >= 0),
    CONSTRAINT supplier_products_min_order_quantity_check CHECK (min_order_quantity > 0),
    CONSTRAINT supplier_products_lead_time_days_check CHECK (lead_time_days >= 0)
);
COMMENT ON TABLE inventory.supplier_products IS 'Supplier catalogue / vendor price list: which supplier sells which SKU, under what supplier part number, at what purchase cost (buy price) and lead time. One row per supplier and SKU. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN inventory.supplier_products.supplier_id IS 'Supplier offering the item.';
COMMENT ON COLUMN inventory.supplier_products.variant_id IS 'The tenant''s SKU (catalog.product_variants) the supplier item corresponds to.';
COMMENT ON COLUMN inventory.supplier_products.supplier_sku IS 'The supplier''s own part number / article number for the item.';
COMMENT ON COLUMN inventory.supplier_products.unit_cost IS 'Purchase cost per unit of measure, in currency_code, before discounts and freight.';
COMMENT ON COLUMN inventory.supplier_products.currency_code IS 'Currency of unit_cost (usually the supplier''s invoicing currency).';
COMMENT ON COLUMN inventory.supplier_products.unit_of_measure_id IS 'Unit the cost is per (each, case, kg).';
COMMENT ON COLUMN inventory.supplier_products.pack_size IS 'Number of sellable units in one purchasing unit (e.g. 12 per case).';
COMMENT ON COLUMN inventory.supplier_products.min_order_quantity IS 'Minimum order quantity (MOQ) in purchasing units.';
COMMENT ON COLUMN inventory.supplier_products.lead_time_days IS 'Days from sending the PO to the goods arriving.';
COMMENT ON COLUMN inventory.supplier_products.is_preferred IS 'True for the supplier reorders of this SKU go to by default.';
COMMENT ON COLUMN inventory.supplier_products.quoted_on IS 'Date the supplier quoted the current unit_cost; NULL if unknown.';
COMMENT ON COLUMN inventory.supplier_products.valid_until IS 'Last day the quoted cost is guaranteed; NULL means until further notice.';
COMMENT ON COLUMN inventory.supplier_products.deleted_at IS 'When the supplier item was deleted; NULL means it is live.';

CREATE TABLE inventory.stock_levels (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    warehouse_id bigint NOT NULL,
    default_bin_id bigint,
    on_hand integer NOT NULL DEFAULT 0,
    reserved integer NOT NULL DEFAULT 0,
    incoming integer NOT NULL DEFAULT 0,
    safety_stock integer NOT NULL DEFAULT 0,
    reorder_point integer,
    reorder_quantity integer,
    last_movement_at timestamptz,
    last_counted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT stock_levels_reserved_check CHECK (reserved >= 0),
    CONSTRAINT stock_levels_incoming_check CHECK (incoming >= 0),
    CONSTRAINT stock_levels_reorder_quantity_check CHECK (reorder_quantity > 0)
);
COMMENT ON TABLE inventory.stock_levels IS 'Current inventory position (stock on hand, stock balance) of one SKU in one warehouse. Available-to-sell (ATP) is on_hand minus reserved. One row per SKU and warehouse, kept in step with inventory.stock_movements.';
COMMENT ON COLUMN inventory.stock_levels.variant_id IS 'SKU (catalog.product_variants) the stock is of.';
COMMENT ON COLUMN inventory.stock_levels.warehouse_id IS 'Warehouse holding the stock.';
COMMENT ON COLUMN inventory.stock_levels.default_bin_id IS 'Bin where the SKU is normally picked from in this warehouse; NULL if the warehouse does not manage bins (e.g. 3PL or dropship).';
COMMENT ON COLUMN inventory.stock_levels.on_hand IS 'Units physically in the warehouse, in the SKU''s base unit. Can be negative briefly when picks are booked before receipts.';
COMMENT ON COLUMN inventory.stock_levels.reserved IS 'Units allocated to open orders and not yet picked.';
COMMENT ON COLUMN inventory.stock_levels.incoming IS 'Units on open purchase orders and inbound transfers not yet received.';
COMMENT ON COLUMN inventory.stock_levels.safety_stock IS 'Buffer units kept back from sale.';
COMMENT ON COLUMN inventory.stock_levels.reorder_point IS 'When available stock falls to this level a reorder is suggested; NULL means no automatic replenishment.';
COMMENT ON COLUMN inventory.stock_levels.reorder_quantity IS 'Units to reorder when the reorder point is hit; NULL means use the supplier MOQ.';
COMMENT ON COLUMN inventory.stock_levels.last_movement_at IS 'When the last stock movement for this SKU and warehouse happened; NULL if none yet.';
COMMENT ON COLUMN inventory.stock_levels.last_counted_at IS 'When the SKU was last physically counted here; NULL if never counted.';

CREATE TABLE inventory.stock_movements (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    warehouse_id bigint NOT NULL,
    bin_id bigint,
    lot_id bigint,
    movement_type inventory.movement_type NOT NULL,
    quantity integer NOT NULL,
    unit_cost numeric(14,4),
    currency_code char(3) NOT NULL,
    occurred_at timestamptz NOT NULL,
    reference text,
    reason_code text,
    goods_receipt_line_id bigint,
    stock_transfer_id bigint,
    cycle_count_id bigint,
    performed_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE inventory.stock_movements IS 'Stock ledger (inventory transactions, stock moves): every change to the quantity of a SKU in a warehouse — goods receipts, order picks, adjustments and write-offs, transfers and customer returns. Append-only; summing quantity gives on-hand stock.';
COMMENT ON COLUMN inventory.stock_movements.variant_id IS 'SKU whose stock changed.';
COMMENT ON COLUMN inventory.stock_movements.warehouse_id IS 'Warehouse where the change happened.';
COMMENT ON COLUMN inventory.stock_movements.bin_id IS 'Bin the stock was put into or taken from; NULL when the warehouse does not track bins.';
COMMENT ON COLUMN inventory.stock_movements.lot_id IS 'Lot (batch) moved; NULL for SKUs that are not lot-tracked.';
COMMENT ON COLUMN inventory.stock_movements.movement_type IS 'Reason: receipt, pick (for an order), adjustment (damage, write-off, count correction), transfer_in, transfer_out, return (customer return restocked).';
COMMENT ON COLUMN inventory.stock_movements.quantity IS 'Signed change in units: positive adds stock (receipt, transfer_in, return, positive adjustment), negative removes it (pick, transfer_out, write-off).';
COMMENT ON COLUMN inventory.stock_movements.unit_cost IS 'Inventory valuation cost per unit at the time of the move, in currency_code; NULL if the SKU has no cost yet.';
COMMENT ON COLUMN inventory.stock_movements.currency_code IS 'Currency of unit_cost (the tenant''s inventory valuation currency).';
COMMENT ON COLUMN inventory.stock_movements.occurred_at IS 'When the stock physically moved.';
COMMENT ON COLUMN inventory.stock_movements.reference IS 'External document number that caused the move, e.g. an order number for picks, an RMA number for returns; NULL if none.';
COMMENT ON COLUMN inventory.stock_movements.reason_code IS 'Adjustment reason, e.g. damaged, expired, theft, count_correction; NULL for non-adjustments.';
COMMENT ON COLUMN inventory.stock_movements.goods_receipt_line_id IS 'Goods-receipt line the stock arrived on; NULL unless movement_type = receipt.';
COMMENT ON COLUMN inventory.stock_movements.stock_transfer_id IS 'Stock transfer the move belongs to; NULL unless movement_type is transfer_in or transfer_out.';
COMMENT ON COLUMN inventory.stock_movements.cycle_count_id IS 'Cycle count whose variance this adjustment books; NULL for other moves.';
COMMENT ON COLUMN inventory.stock_movements.performed_by_user_id IS 'Staff user who scanned or booked the move; NULL for automatic moves (integrations, 3PL feeds, system jobs).';

CREATE TABLE inventory.lots (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    lot_code text NOT NULL,
    supplier_id bigint,
    supplier_lot_code text,
    status inventory.lot_status NOT NULL DEFAULT 'available',
    manufactured_on date,
    expires_on date,
    initial_quantity integer NOT NULL,
    quality_notes text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT lots_initial_quantity_check CHECK (initial_quantity > 0),
    CONSTRAINT lots_expires_on_check CHECK (expires_on IS NULL OR expires_on >= manufactured_on)
);
COMMENT ON TABLE inventory.lots IS 'Lots (batches) of a SKU with their production and expiry (best-before) dates, for traceability, FEFO picking and recalls.';
COMMENT ON COLUMN inventory.lots.variant_id IS 'SKU the lot is of.';
COMMENT ON COLUMN inventory.lots.lot_code IS 'Lot / batch number printed on the goods. Unique per tenant.';
COMMENT ON COLUMN inventory.lots.supplier_id IS 'Supplier that delivered the lot; NULL for lots produced or repacked in-house.';
COMMENT ON COLUMN inventory.lots.supplier_lot_code IS 'The supplier''s own batch number when it differs from lot_code; NULL otherwise.';
COMMENT ON COLUMN inventory.lots.status IS 'available, quarantined (on hold for inspection), expired, recalled, or consumed (fully used up).';
COMMENT ON COLUMN inventory.lots.manufactured_on IS 'Production date; NULL if unknown.';
COMMENT ON COLUMN inventory.lots.expires_on IS 'Expiry or best-before date; NULL for goods that do not expire.';
COMMENT ON COLUMN inventory.lots.initial_quantity IS 'Units in the lot when first received.';
COMMENT ON COLUMN inventory.lots.quality_notes IS 'Inspection or recall notes; NULL if none.';

CREATE TABLE inventory.purchase_orders (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    po_number text NOT NULL,
    supplier_id bigint NOT NULL,
    supplier_contact_id bigint,
    warehouse_id bigint NOT NULL,
    status inventory.purchase_order_status NOT NULL DEFAULT 'draft',
    ordered_at timestamptz NOT NULL,
    sent_at timestamptz,
    expected_at timestamptz,
    received_at timestamptz,
    subtotal numeric(14,2) NOT NULL DEFAULT 0,
    tax_amount numeric(14,2) NOT NULL DEFAULT 0,
    shipping_cost numeric(14,2) NOT NULL DEFAULT 0,
    total_cost numeric(14,2) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    payment_terms_days integer NOT NULL,
    supplier_reference text,
    created_by_user_id bigint NOT NULL,
    approved_by_user_id bigint,
    notes text,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT purchase_orders_total_cost_check CHECK (total_cost >= 0),
    CONSTRAINT purchase_orders_expected_at_check CHECK (expected_at IS NULL OR expected_at >= ordered_at)
);
COMMENT ON TABLE inventory.purchase_orders IS 'Purchase orders (POs, supplier orders, replenishment orders) the tenant places with suppliers for delivery into one of its warehouses. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN inventory.purchase_orders.po_number IS 'PO number shown to the supplier, e.g. PO-2024-00871. Unique per tenant.';
COMMENT ON COLUMN inventory.purchase_orders.supplier_id IS 'Supplier the order is placed with.';
COMMENT ON COLUMN inventory.purchase_orders.supplier_contact_id IS 'Person at the supplier the PO was sent to; NULL if sent to the supplier''s general address.';
COMMENT ON COLUMN inventory.purchase_orders.warehouse_id IS 'Warehouse the goods are to be delivered to.';
COMMENT ON COLUMN inventory.purchase_orders.status IS 'Lifecycle: draft, sent (to the supplier), partially_received, received (complete), cancelled.';
COMMENT ON COLUMN inventory.purchase_orders.ordered_at IS 'Date and time the PO was raised (its order date).';
COMMENT ON COLUMN inventory.purchase_orders.sent_at IS 'When the PO was transmitted to the supplier; NULL while still a draft.';
COMMENT ON COLUMN inventory.purchase_orders.expected_at IS 'Promised delivery date and time; NULL if the supplier has not confirmed one.';
COMMENT ON COLUMN inventory.purchase_orders.received_at IS 'When the last outstanding line was received; NULL until fully received.';
COMMENT ON COLUMN inventory.purchase_orders.subtotal IS 'Sum of line values before tax and freight, in currency_code.';
COMMENT ON COLUMN inventory.purchase_orders.tax_amount IS 'Input tax (VAT) charged by the supplier, in currency_code.';
COMMENT ON COLUMN inventory.purchase_orders.shipping_cost IS 'Freight charged by the supplier, in currency_code.';
COMMENT ON COLUMN inventory.purchase_orders.total_cost IS 'Grand total of the PO (subtotal + tax + shipping), in currency_code.';
COMMENT ON COLUMN inventory.purchase_orders.currency_code IS 'Currency of all amounts on the PO and its lines (usually the supplier''s currency).';
COMMENT ON COLUMN inventory.purchase_orders.payment_terms_days IS 'Agreed payment terms in days for this PO (copied from the supplier, may be overridden).';
COMMENT ON COLUMN inventory.purchase_orders.supplier_reference IS 'The supplier''s order confirmation number; NULL until confirmed.';
COMMENT ON COLUMN inventory.purchase_orders.created_by_user_id IS 'Staff buyer who raised the PO.';
COMMENT ON COLUMN inventory.purchase_orders.approved_by_user_id IS 'Manager who approved the PO; NULL if not yet approved or below the approval threshold.';
COMMENT ON COLUMN inventory.purchase_orders.notes IS 'Instructions to the supplier or internal notes; NULL if none.';
COMMENT ON COLUMN inventory.purchase_orders.deleted_at IS 'When the PO was deleted (drafts only, in practice); NULL means it is live.';

CREATE TABLE inventory.purchase_order_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    purchase_order_id bigint NOT NULL,
    line_number integer NOT NULL,
    variant_id bigint NOT NULL,
    supplier_product_id bigint,
    description text NOT NULL,
    quantity_ordered integer NOT NULL,
    quantity_received integer NOT NULL DEFAULT 0,
    unit_of_measure_id bigint NOT NULL,
    unit_cost numeric(14,4) NOT NULL,
    line_total numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    tax_rate_percent numeric(6,3) NOT NULL DEFAULT 0,
    expected_at timestamptz,
    is_closed boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT purchase_order_lines_quantity_ordered_check CHECK (quantity_ordered > 0),
    CONSTRAINT purchase_order_lines_quantity_received_check CHECK (quantity_received >= 0)
);
COMMENT ON TABLE inventory.purchase_order_lines IS 'Lines of a purchase order: one SKU, the quantity ordered from the supplier, its purchase cost, and how much has arrived so far.';
COMMENT ON COLUMN inventory.purchase_order_lines.purchase_order_id IS 'Purchase order the line belongs to.';
COMMENT ON COLUMN inventory.purchase_order_lines.line_number IS 'Position of the line on the PO, starting at 1.';
COMMENT ON COLUMN inventory.purchase_order_lines.variant_id IS 'SKU being purchased.';
COMMENT ON COLUMN inventory.purchase_order_lines.supplier_product_id IS 'Supplier catalogue item the cost came from; NULL for ad-hoc lines bought outside the supplier catalogue.';
COMMENT ON COLUMN inventory.purchase_order_lines.description IS 'Line text printed on the PO (supplier SKU and name).';
COMMENT ON COLUMN inventory.purchase_order_lines.quantity_ordered IS 'Units ordered, in unit_of_measure.';
COMMENT ON COLUMN inventory.purchase_order_lines.quantity_received IS 'Units received so far across all goods receipts; less than quantity_ordered while the line is open.';
COMMENT ON COLUMN inventory.purchase_order_lines.unit_of_measure_id IS 'Purchasing unit of the quantities (each, case, pallet).';
COMMENT ON COLUMN inventory.purchase_order_lines.unit_cost IS 'Agreed purchase cost per unit, in currency_code.';
COMMENT ON COLUMN inventory.purchase_order_lines.line_total IS 'quantity_ordered x unit_cost before tax, in currency_code.';
COMMENT ON COLUMN inventory.purchase_order_lines.currency_code IS 'Currency of unit_cost and line_total; equals the PO''s currency.';
COMMENT ON COLUMN inventory.purchase_order_lines.tax_rate_percent IS 'Input tax rate charged on the line, in percent.';
COMMENT ON COLUMN inventory.purchase_order_lines.expected_at IS 'Line-specific promised delivery; NULL means the PO''s expected_at applies.';
COMMENT ON COLUMN inventory.purchase_order_lines.is_closed IS 'True once the line is fully received or short-closed (no more deliveries expected).';

CREATE TABLE inventory.goods_receipts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    receipt_number text NOT NULL,
    purchase_order_id bigint NOT NULL,
    supplier_id bigint NOT NULL,
    warehouse_id bigint NOT NULL,
    status inventory.receipt_status NOT NULL DEFAULT 'pending_putaway',
    received_at timestamptz NOT NULL,
    received_by_user_id bigint NOT NULL,
    delivery_note_number text,
    carrier_name text,
    tracking_number text,
    notes text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE inventory.goods_receipts IS 'Goods receipts (GRNs, inbound deliveries, receivings): one delivery from a supplier received at a warehouse dock against a purchase order. A PO may be received in several deliveries.';
COMMENT ON COLUMN inventory.goods_receipts.receipt_number IS 'Goods received note (GRN) number, e.g. GRN-000512. Unique per tenant.';
COMMENT ON COLUMN inventory.goods_receipts.purchase_order_id IS 'Purchase order the delivery is against.';
COMMENT ON COLUMN inventory.goods_receipts.supplier_id IS 'Supplier that delivered (same as the PO''s supplier).';
COMMENT ON COLUMN inventory.goods_receipts.warehouse_id IS 'Warehouse where the delivery was received.';
COMMENT ON COLUMN inventory.goods_receipts.status IS 'pending_putaway (on the dock), completed (put away), discrepancy (quantities or quality differ from the PO), cancelled.';
COMMENT ON COLUMN inventory.goods_receipts.received_at IS 'When the delivery was received at the dock.';
COMMENT ON COLUMN inventory.goods_receipts.received_by_user_id IS 'Staff user who booked the receipt.';
COMMENT ON COLUMN inventory.goods_receipts.delivery_note_number IS 'Supplier''s delivery note / packing slip number; NULL if none came with the goods.';
COMMENT ON COLUMN inventory.goods_receipts.carrier_name IS 'Haulier that brought the goods, e.g. DHL Freight; NULL if supplier-delivered.';
COMMENT ON COLUMN inventory.goods_receipts.tracking_number IS 'Carrier tracking or consignment number; NULL if none.';
COMMENT ON COLUMN inventory.goods_receipts.notes IS 'Dock notes (damaged pallets, late arrival); NULL if none.';

CREATE TABLE inventory.goods_receipt_lines (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    goods_receipt_id bigint NOT NULL,
    purchase_order_line_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    quantity_received integer NOT NULL,
    quantity_rejected integer NOT NULL DEFAULT 0,
    item_condition inventory.receipt_condition NOT NULL DEFAULT 'good',
    lot_id bigint,
    bin_id bigint,
    rejection_reason text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT goods_receipt_lines_quantity_received_check CHECK (quantity_received >= 0),
    CONSTRAINT goods_receipt_lines_quantity_rejected_check CHECK (quantity_rejected >= 0)
);
COMMENT ON TABLE inventory.goods_receipt_lines IS 'Received quantities per purchase-order line within one goods receipt, with the lot they arrived as and the bin they were put away to.';
COMMENT ON COLUMN inventory.goods_receipt_lines.goods_receipt_id IS 'Goods receipt (delivery) the line belongs to.';
COMMENT ON COLUMN inventory.goods_receipt_lines.purchase_order_line_id IS 'Purchase-order line being received.';
COMMENT ON COLUMN inventory.goods_receipt_lines.variant_id IS 'SKU received (same as the PO line''s SKU).';
COMMENT ON COLUMN inventory.goods_receipt_lines.quantity_received IS 'Units accepted into stock in this delivery.';
COMMENT ON COLUMN inventory.goods_receipt_lines.quantity_rejected IS 'Units refused at the dock (damaged, wrong item) and not added to stock.';
COMMENT ON COLUMN inventory.goods_receipt_lines.item_condition IS 'Inspection result: good, damaged, wrong_item or short_dated.';
COMMENT ON COLUMN inventory.goods_receipt_lines.lot_id IS 'Lot the goods were booked into; NULL for SKUs that are not lot-tracked.';
COMMENT ON COLUMN inventory.goods_receipt_lines.bin_id IS 'Bin the goods were put away to; NULL while still on the dock or where bins are not tracked.';
COMMENT ON COLUMN inventory.goods_receipt_lines.rejection_reason IS 'Why units were rejected; NULL if none were.';

CREATE TABLE inventory.stock_transfers (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    transfer_number text NOT NULL,
    from_warehouse_id bigint NOT NULL,
    to_warehouse_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    lot_id bigint,
    quantity integer NOT NULL,
    status inventory.transfer_status NOT NULL DEFAULT 'requested',
    requested_at timestamptz NOT NULL,
    shipped_at timestamptz,
    received_at timestamptz,
    requested_by_user_id bigint NOT NULL,
    received_by_user_id bigint,
    carrier_name text,
    tracking_number text,
    notes text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT stock_transfers_quantity_check CHECK (quantity > 0),
    CONSTRAINT stock_transfers_shipped_at_check CHECK (shipped_at IS NULL OR shipped_at >= requested_at),
    CONSTRAINT stock_transfers_received_at_check CHECK (received_at IS NULL OR received_at >= shipped_at)
);
COMMENT ON TABLE inventory.stock_transfers IS 'Stock transfers (inter-warehouse moves, transfer orders, rebalancing) of one SKU from one warehouse to another. Booked as a transfer_out movement when shipped and a transfer_in movement when received.';
COMMENT ON COLUMN inventory.stock_transfers.transfer_number IS 'Transfer order number, e.g. TO-2024-0331. Unique per tenant.';
COMMENT ON COLUMN inventory.stock_transfers.from_warehouse_id IS 'Warehouse the stock leaves (source).';
COMMENT ON COLUMN inventory.stock_transfers.to_warehouse_id IS 'Warehouse the stock goes to (destination).';
COMMENT ON COLUMN inventory.stock_transfers.variant_id IS 'SKU being transferred.';
COMMENT ON COLUMN inventory.stock_transfers.lot_id IS 'Lot being transferred; NULL for SKUs that are not lot-tracked.';
COMMENT ON COLUMN inventory.stock_transfers.quantity IS 'Units transferred.';
COMMENT ON COLUMN inventory.stock_transfers.status IS 'Lifecycle: requested, approved, in_transit (shipped), received, cancelled.';
COMMENT ON COLUMN inventory.stock_transfers.requested_at IS 'When the transfer was requested.';
COMMENT ON COLUMN inventory.stock_transfers.shipped_at IS 'When the stock left the source warehouse; NULL if not yet shipped.';
COMMENT ON COLUMN inventory.stock_transfers.received_at IS 'When the stock arrived at the destination; NULL while in transit or not yet shipped.';
COMMENT ON COLUMN inventory.stock_transfers.requested_by_user_id IS 'Staff user who requested the transfer.';
COMMENT ON COLUMN inventory.stock_transfers.received_by_user_id IS 'Staff user who booked the arrival; NULL until received.';
COMMENT ON COLUMN inventory.stock_transfers.carrier_name IS 'Haulier used for the move; NULL for own trucks or not yet shipped.';
COMMENT ON COLUMN inventory.stock_transfers.tracking_number IS 'Carrier tracking number; NULL if none.';
COMMENT ON COLUMN inventory.stock_transfers.notes IS 'Free-text notes; NULL if none.';

CREATE TABLE inventory.cycle_counts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    count_reference text NOT NULL,
    warehouse_id bigint NOT NULL,
    bin_id bigint,
    variant_id bigint NOT NULL,
    status inventory.cycle_count_status NOT NULL DEFAULT 'scheduled',
    scheduled_on date NOT NULL,
    counted_at timestamptz,
    expected_quantity integer NOT NULL,
    counted_quantity integer,
    variance_quantity integer,
    is_blind_count boolean NOT NULL DEFAULT true,
    counted_by_user_id bigint,
    approved_by_user_id bigint,
    notes text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT cycle_counts_counted_quantity_check CHECK (counted_quantity >= 0)
);
COMMENT ON TABLE inventory.cycle_counts IS 'Cycle counts (stock takes, physical inventory counts, stock audits): one row per SKU counted in a warehouse (optionally one bin) on one count run, with the system quantity, the counted quantity and the variance.';
COMMENT ON COLUMN inventory.cycle_counts.count_reference IS 'Identifier of the count run the row belongs to, e.g. CC-AMS1-2024-W14; shared by all SKUs counted in that run.';
COMMENT ON COLUMN inventory.cycle_counts.warehouse_id IS 'Warehouse where the count took place.';
COMMENT ON COLUMN inventory.cycle_counts.bin_id IS 'Bin that was counted; NULL for a count of the SKU across the whole warehouse.';
COMMENT ON COLUMN inventory.cycle_counts.variant_id IS 'SKU counted.';
COMMENT ON COLUMN inventory.cycle_counts.status IS 'Lifecycle: scheduled, in_progress, counted, approved (variance booked), cancelled.';
COMMENT ON COLUMN inventory.cycle_counts.scheduled_on IS 'Date the count is planned for.';
COMMENT ON COLUMN inventory.cycle_counts.counted_at IS 'When the physical count was done; NULL until counted.';
COMMENT ON COLUMN inventory.cycle_counts.expected_quantity IS 'System on-hand quantity at the time of the count (book stock).';
COMMENT ON COLUMN inventory.cycle_counts.counted_quantity IS 'Units physically found; NULL until counted.';
COMMENT ON COLUMN inventory.cycle_counts.variance_quantity IS 'counted_quantity minus expected_quantity (negative = shrinkage); NULL until counted.';
COMMENT ON COLUMN inventory.cycle_counts.is_blind_count IS 'True if the counter was not shown the expected quantity.';
COMMENT ON COLUMN inventory.cycle_counts.counted_by_user_id IS 'Staff user who did the count; NULL until counted or when counted by a 3PL.';
COMMENT ON COLUMN inventory.cycle_counts.approved_by_user_id IS 'Manager who approved the variance adjustment; NULL until approved.';
COMMENT ON COLUMN inventory.cycle_counts.notes IS 'Counter''s remarks; NULL if none.';

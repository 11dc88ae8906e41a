-- heron domain 06 inventory, phase 2: primary keys, unique keys, foreign keys and indexes of the
-- warehouse, stock, supplier and purchasing tables.

-- Primary and unique keys first: several foreign keys below point forward within the domain.
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE inventory.warehouse_zones ADD CONSTRAINT warehouse_zones_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.bins ADD CONSTRAINT bins_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.bins ADD CONSTRAINT bins_tenant_id_barcode_key UNIQUE (tenant_id, barcode);
ALTER TABLE inventory.suppliers ADD CONSTRAINT suppliers_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.suppliers ADD CONSTRAINT suppliers_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE inventory.supplier_contacts ADD CONSTRAINT supplier_contacts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.supplier_products ADD CONSTRAINT supplier_products_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.supplier_products ADD CONSTRAINT supplier_products_tenant_id_supplier_id_variant_id_key UNIQUE (tenant_id, supplier_id, variant_id);
ALTER TABLE inventory.stock_levels ADD CONSTRAINT stock_levels_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.stock_levels ADD CONSTRAINT stock_levels_tenant_id_variant_id_warehouse_id_key UNIQUE (tenant_id, variant_id, warehouse_id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.lots ADD CONSTRAINT lots_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.lots ADD CONSTRAINT lots_tenant_id_lot_code_key UNIQUE (tenant_id, lot_code);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_tenant_id_po_number_key UNIQUE (tenant_id, po_number);
ALTER TABLE inventory.purchase_order_lines ADD CONSTRAINT purchase_order_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.goods_receipts ADD CONSTRAINT goods_receipts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.goods_receipts ADD CONSTRAINT goods_receipts_tenant_id_receipt_number_key UNIQUE (tenant_id, receipt_number);
ALTER TABLE inventory.goods_receipt_lines ADD CONSTRAINT goods_receipt_lines_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_tenant_id_transfer_number_key UNIQUE (tenant_id, transfer_number);
ALTER TABLE inventory.cycle_counts ADD CONSTRAINT cycle_counts_pkey PRIMARY KEY (tenant_id, id);

-- Foreign keys and indexes, table by table.

-- inventory.warehouses
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_dropship_supplier_id_fkey FOREIGN KEY (tenant_id, dropship_supplier_id) REFERENCES inventory.suppliers (tenant_id, id);
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);
ALTER TABLE inventory.warehouses ADD CONSTRAINT warehouses_manager_user_id_fkey FOREIGN KEY (tenant_id, manager_user_id) REFERENCES auth.users (tenant_id, id);

-- inventory.warehouse_zones
ALTER TABLE inventory.warehouse_zones ADD CONSTRAINT warehouse_zones_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.warehouse_zones ADD CONSTRAINT warehouse_zones_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.warehouse_zones ADD CONSTRAINT warehouse_zones_supervisor_user_id_fkey FOREIGN KEY (tenant_id, supervisor_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX warehouse_zones_tenant_id_warehouse_id_idx ON inventory.warehouse_zones (tenant_id, warehouse_id);

-- inventory.bins
ALTER TABLE inventory.bins ADD CONSTRAINT bins_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.bins ADD CONSTRAINT bins_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.bins ADD CONSTRAINT bins_warehouse_zone_id_fkey FOREIGN KEY (tenant_id, warehouse_zone_id) REFERENCES inventory.warehouse_zones (tenant_id, id);
CREATE INDEX bins_tenant_id_warehouse_zone_id_idx ON inventory.bins (tenant_id, warehouse_zone_id);

-- inventory.suppliers
ALTER TABLE inventory.suppliers ADD CONSTRAINT suppliers_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.suppliers ADD CONSTRAINT suppliers_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE inventory.suppliers ADD CONSTRAINT suppliers_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE inventory.suppliers ADD CONSTRAINT suppliers_buyer_user_id_fkey FOREIGN KEY (tenant_id, buyer_user_id) REFERENCES auth.users (tenant_id, id);

-- inventory.supplier_contacts
ALTER TABLE inventory.supplier_contacts ADD CONSTRAINT supplier_contacts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.supplier_contacts ADD CONSTRAINT supplier_contacts_supplier_id_fkey FOREIGN KEY (tenant_id, supplier_id) REFERENCES inventory.suppliers (tenant_id, id);
ALTER TABLE inventory.supplier_contacts ADD CONSTRAINT supplier_contacts_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE inventory.supplier_contacts ADD CONSTRAINT supplier_contacts_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX supplier_contacts_tenant_id_supplier_id_idx ON inventory.supplier_contacts (tenant_id, supplier_id);

-- inventory.supplier_products
ALTER TABLE inventory.supplier_products ADD CONSTRAINT supplier_products_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.supplier_products ADD CONSTRAINT supplier_products_supplier_id_fkey FOREIGN KEY (tenant_id, supplier_id) REFERENCES inventory.suppliers (tenant_id, id);
ALTER TABLE inventory.supplier_products ADD CONSTRAINT supplier_products_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.supplier_products ADD CONSTRAINT supplier_products_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE inventory.supplier_products ADD CONSTRAINT supplier_products_unit_of_measure_id_fkey FOREIGN KEY (unit_of_measure_id) REFERENCES catalog.units_of_measure (id);
CREATE INDEX supplier_products_tenant_id_variant_id_idx ON inventory.supplier_products (tenant_id, variant_id);

-- inventory.stock_levels
ALTER TABLE inventory.stock_levels ADD CONSTRAINT stock_levels_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.stock_levels ADD CONSTRAINT stock_levels_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.stock_levels ADD CONSTRAINT stock_levels_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.stock_levels ADD CONSTRAINT stock_levels_default_bin_id_fkey FOREIGN KEY (tenant_id, default_bin_id) REFERENCES inventory.bins (tenant_id, id);
CREATE INDEX stock_levels_tenant_id_warehouse_id_idx ON inventory.stock_levels (tenant_id, warehouse_id);

-- inventory.stock_movements
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_bin_id_fkey FOREIGN KEY (tenant_id, bin_id) REFERENCES inventory.bins (tenant_id, id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_lot_id_fkey FOREIGN KEY (tenant_id, lot_id) REFERENCES inventory.lots (tenant_id, id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_goods_receipt_line_id_fkey FOREIGN KEY (tenant_id, goods_receipt_line_id) REFERENCES inventory.goods_receipt_lines (tenant_id, id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_stock_transfer_id_fkey FOREIGN KEY (tenant_id, stock_transfer_id) REFERENCES inventory.stock_transfers (tenant_id, id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_cycle_count_id_fkey FOREIGN KEY (tenant_id, cycle_count_id) REFERENCES inventory.cycle_counts (tenant_id, id);
ALTER TABLE inventory.stock_movements ADD CONSTRAINT stock_movements_performed_by_user_id_fkey FOREIGN KEY (tenant_id, performed_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX stock_movements_tenant_id_variant_id_warehouse_id_idx ON inventory.stock_movements (tenant_id, variant_id, warehouse_id);
CREATE INDEX stock_movements_tenant_id_occurred_at_idx ON inventory.stock_movements (tenant_id, occurred_at);

-- inventory.lots
ALTER TABLE inventory.lots ADD CONSTRAINT lots_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.lots ADD CONSTRAINT lots_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.lots ADD CONSTRAINT lots_supplier_id_fkey FOREIGN KEY (tenant_id, supplier_id) REFERENCES inventory.suppliers (tenant_id, id);
CREATE INDEX lots_tenant_id_variant_id_idx ON inventory.lots (tenant_id, variant_id);

-- inventory.purchase_orders
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_supplier_id_fkey FOREIGN KEY (tenant_id, supplier_id) REFERENCES inventory.suppliers (tenant_id, id);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_supplier_contact_id_fkey FOREIGN KEY (tenant_id, supplier_contact_id) REFERENCES inventory.supplier_contacts (tenant_id, id);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE inventory.purchase_orders ADD CONSTRAINT purchase_orders_approved_by_user_id_fkey FOREIGN KEY (tenant_id, approved_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX purchase_orders_tenant_id_supplier_id_idx ON inventory.purchase_orders (tenant_id, supplier_id);
CREATE INDEX purchase_orders_tenant_id_ordered_at_idx ON inventory.purchase_orders (tenant_id, ordered_at);

-- inventory.purchase_order_lines
ALTER TABLE inventory.purchase_order_lines ADD CONSTRAINT purchase_order_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.purchase_order_lines ADD CONSTRAINT purchase_order_lines_purchase_order_id_fkey FOREIGN KEY (tenant_id, purchase_order_id) REFERENCES inventory.purchase_orders (tenant_id, id);
ALTER TABLE inventory.purchase_order_lines ADD CONSTRAINT purchase_order_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.purchase_order_lines ADD CONSTRAINT purchase_order_lines_supplier_product_id_fkey FOREIGN KEY (tenant_id, supplier_product_id) REFERENCES inventory.supplier_products (tenant_id, id);
ALTER TABLE inventory.purchase_order_lines ADD CONSTRAINT purchase_order_lines_unit_of_measure_id_fkey FOREIGN KEY (unit_of_measure_id) REFERENCES catalog.units_of_measure (id);
ALTER TABLE inventory.purchase_order_lines ADD CONSTRAINT purchase_order_lines_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX purchase_order_lines_tenant_id_purchase_order_id_idx ON inventory.purchase_order_lines (tenant_id, purchase_order_id);

-- inventory.goods_receipts
ALTER TABLE inventory.goods_receipts ADD CONSTRAINT goods_receipts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.goods_receipts ADD CONSTRAINT goods_receipts_purchase_order_id_fkey FOREIGN KEY (tenant_id, purchase_order_id) REFERENCES inventory.purchase_orders (tenant_id, id);
ALTER TABLE inventory.goods_receipts ADD CONSTRAINT goods_receipts_supplier_id_fkey FOREIGN KEY (tenant_id, supplier_id) REFERENCES inventory.suppliers (tenant_id, id);
ALTER TABLE inventory.goods_receipts ADD CONSTRAINT goods_receipts_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.goods_receipts ADD CONSTRAINT goods_receipts_received_by_user_id_fkey FOREIGN KEY (tenant_id, received_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX goods_receipts_tenant_id_purchase_order_id_idx ON inventory.goods_receipts (tenant_id, purchase_order_id);

-- inventory.goods_receipt_lines
ALTER TABLE inventory.goods_receipt_lines ADD CONSTRAINT goods_receipt_lines_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.goods_receipt_lines ADD CONSTRAINT goods_receipt_lines_goods_receipt_id_fkey FOREIGN KEY (tenant_id, goods_receipt_id) REFERENCES inventory.goods_receipts (tenant_id, id);
ALTER TABLE inventory.goods_receipt_lines ADD CONSTRAINT goods_receipt_lines_purchase_order_line_id_fkey FOREIGN KEY (tenant_id, purchase_order_line_id) REFERENCES inventory.purchase_order_lines (tenant_id, id);
ALTER TABLE inventory.goods_receipt_lines ADD CONSTRAINT goods_receipt_lines_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.goods_receipt_lines ADD CONSTRAINT goods_receipt_lines_lot_id_fkey FOREIGN KEY (tenant_id, lot_id) REFERENCES inventory.lots (tenant_id, id);
ALTER TABLE inventory.goods_receipt_lines ADD CONSTRAINT goods_receipt_lines_bin_id_fkey FOREIGN KEY (tenant_id, bin_id) REFERENCES inventory.bins (tenant_id, id);
CREATE INDEX goods_receipt_lines_tenant_id_goods_receipt_id_idx ON inventory.goods_receipt_lines (tenant_id, goods_receipt_id);

-- inventory.stock_transfers
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_from_warehouse_id_fkey FOREIGN KEY (tenant_id, from_warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_to_warehouse_id_fkey FOREIGN KEY (tenant_id, to_warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_lot_id_fkey FOREIGN KEY (tenant_id, lot_id) REFERENCES inventory.lots (tenant_id, id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_requested_by_user_id_fkey FOREIGN KEY (tenant_id, requested_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE inventory.stock_transfers ADD CONSTRAINT stock_transfers_received_by_user_id_fkey FOREIGN KEY (tenant_id, received_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX stock_transfers_tenant_id_requested_at_idx ON inventory.stock_transfers (tenant_id, requested_at);

-- inventory.cycle_counts
ALTER TABLE inventory.cycle_counts ADD CONSTRAINT cycle_counts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE inventory.cycle_counts ADD CONSTRAINT cycle_counts_warehouse_id_fkey FOREIGN KEY (tenant_id, warehouse_id) REFERENCES inventory.warehouses (tenant_id, id);
ALTER TABLE inventory.cycle_counts ADD CONSTRAINT cycle_counts_bin_id_fkey FOREIGN KEY (tenant_id, bin_id) REFERENCES inventory.bins (tenant_id, id);
ALTER TABLE inventory.cycle_counts ADD CONSTRAINT cycle_counts_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE inventory.cycle_counts ADD CONSTRAINT cycle_counts_counted_by_user_id_fkey FOREIGN KEY (tenant_id, counted_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE inventory.cycle_counts ADD CONSTRAINT cycle_counts_approved_by_user_id_fkey FOREIGN KEY (tenant_id, approved_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX cycle_counts_tenant_id_scheduled_on_idx ON inventory.cycle_counts (tenant_id, scheduled_on);

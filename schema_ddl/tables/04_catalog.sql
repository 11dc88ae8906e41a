-- heron schema, phase 1, domain 04 catalog: what tenants sell. Products and their SKUs (variants),
-- the category tree, brands, attributes, media, curated collections, bundles/kits and customer
-- reviews. Units of measure are global. Prices and tax classes live in domain 05 pricing, which
-- references this domain, never the other way round.

CREATE TYPE catalog.uom_kind AS ENUM ('count', 'weight', 'volume', 'length', 'area', 'time');
COMMENT ON TYPE catalog.uom_kind IS 'Physical dimension a unit of measure counts or measures.';
CREATE TYPE catalog.product_status AS ENUM ('draft', 'active', 'archived');
COMMENT ON TYPE catalog.product_status IS 'Publication lifecycle of a product.';
CREATE TYPE catalog.product_type AS ENUM ('physical', 'digital', 'service');
COMMENT ON TYPE catalog.product_type IS 'Whether a product is shipped goods, a download/licence or a service.';
CREATE TYPE catalog.attribute_data_type AS ENUM ('text', 'number', 'boolean', 'color', 'size', 'select');
COMMENT ON TYPE catalog.attribute_data_type IS 'Value type of a product attribute.';
CREATE TYPE catalog.media_type AS ENUM ('image', 'video', 'model_3d', 'document');
COMMENT ON TYPE catalog.media_type IS 'Kind of product media file.';
CREATE TYPE catalog.collection_kind AS ENUM ('manual', 'automated');
COMMENT ON TYPE catalog.collection_kind IS 'manual = products picked by hand; automated = products selected by a rule.';
CREATE TYPE catalog.collection_sort AS ENUM ('manual', 'best_selling', 'newest', 'title_asc', 'title_desc');
COMMENT ON TYPE catalog.collection_sort IS 'Default order of products shown in a collection.';
CREATE TYPE catalog.bundle_status AS ENUM ('draft', 'active', 'retired');
COMMENT ON TYPE catalog.bundle_status IS 'Lifecycle of a bundle (kit).';
CREATE TYPE catalog.review_status AS ENUM ('pending', 'published', 'rejected');
COMMENT ON TYPE catalog.review_status IS 'Moderation state of a product review.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.units_of_measure (
    id bigint NOT NULL,
    code varchar(16) NOT NULL,
    name text NOT NULL,
    plural_name text NOT NULL,
    symbol varchar(16) NOT NULL,
    kind catalog.uom_kind NOT NULL,
    base_unit_id bigint,
    conversion_factor numeric(18,6) NOT NULL DEFAULT 1,
    decimal_places smallint NOT NULL DEFAULT 0,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT units_of_measure_conversion_factor_check CHECK (conversion_factor > 0)
);
COMMENT ON TABLE catalog.units_of_measure IS 'Platform-wide list of units of measure (UoM) items are sold, stocked and measured in: each/piece, box, case, pallet, kg, litre, metre, hour… Shared by all tenants.';
COMMENT ON COLUMN catalog.units_of_measure.code IS 'Unique short code (UN/ECE rec. 20 style where possible, e.g. ''EA'', ''BX'', ''KGM'', ''LTR'').';
COMMENT ON COLUMN catalog.units_of_measure.name IS 'Singular display name (e.g. ''box'').';
COMMENT ON COLUMN catalog.units_of_measure.plural_name IS 'Plural display name (e.g. ''boxes'').';
COMMENT ON COLUMN catalog.units_of_measure.symbol IS 'Symbol printed after quantities (e.g. ''pc'', ''kg'', ''l'').';
COMMENT ON COLUMN catalog.units_of_measure.kind IS 'Dimension: count, weight, volume, length, area or time.';
COMMENT ON COLUMN catalog.units_of_measure.base_unit_id IS 'Base unit of the same kind this unit converts to (e.g. gram for kilogram); NULL = this unit is itself a base unit.';
COMMENT ON COLUMN catalog.units_of_measure.conversion_factor IS 'How many base units one of this unit equals (1 for a base unit; 1000 for kg when the base is g).';
COMMENT ON COLUMN catalog.units_of_measure.decimal_places IS 'Decimal places allowed in quantities of this unit (0 for pieces, 3 for kg).';
COMMENT ON COLUMN catalog.units_of_measure.is_active IS 'False once the unit can no longer be chosen for new products.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.categories (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    parent_category_id bigint,
    name text NOT NULL,
    slug varchar(160) NOT NULL,
    description text,
    path text NOT NULL,
    depth smallint NOT NULL DEFAULT 0,
    position integer NOT NULL DEFAULT 0,
    is_visible boolean NOT NULL DEFAULT true,
    image_url text,
    seo_title text,
    seo_description text,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT categories_depth_check CHECK (depth >= 0)
);
COMMENT ON TABLE catalog.categories IS 'The tenant''s product category tree (taxonomy, departments, product groups) used for storefront navigation and reporting; each category may have a parent. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN catalog.categories.workspace_id IS 'Workspace (brand or storefront) whose tree the category belongs to; NULL = shared by all workspaces.';
COMMENT ON COLUMN catalog.categories.parent_category_id IS 'Parent category; NULL = top-level category (root of the tree).';
COMMENT ON COLUMN catalog.categories.name IS 'Display name (e.g. ''Cleaning supplies'').';
COMMENT ON COLUMN catalog.categories.slug IS 'URL-safe identifier, unique per tenant (e.g. ''cleaning-supplies'').';
COMMENT ON COLUMN catalog.categories.description IS 'Category description shown on the storefront; NULL = none.';
COMMENT ON COLUMN catalog.categories.path IS 'Slash-separated slugs from the root down to this category (e.g. ''janitorial/cleaning-supplies''), denormalised for breadcrumbs.';
COMMENT ON COLUMN catalog.categories.depth IS 'Level in the tree: 0 = top level, 1 = child of a top-level category, and so on.';
COMMENT ON COLUMN catalog.categories.position IS 'Sort order among siblings, ascending.';
COMMENT ON COLUMN catalog.categories.is_visible IS 'False hides the category from the storefront menu while keeping it for back-office use.';
COMMENT ON COLUMN catalog.categories.image_url IS 'Banner or tile image URL; NULL = none.';
COMMENT ON COLUMN catalog.categories.seo_title IS 'HTML title override for search engines; NULL = use name.';
COMMENT ON COLUMN catalog.categories.seo_description IS 'Meta description for search engines; NULL = generated.';
COMMENT ON COLUMN catalog.categories.created_by_user_id IS 'Staff user who created the category (for imports, the user who ran the import).';
COMMENT ON COLUMN catalog.categories.deleted_at IS 'When the category was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.brands (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    name text NOT NULL,
    slug varchar(160) NOT NULL,
    description text,
    logo_url text,
    website text,
    country_code char(2) NOT NULL,
    is_house_brand boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.brands IS 'Product brands (manufacturers, labels, makes) the tenant carries, including its own private-label / house brands.';
COMMENT ON COLUMN catalog.brands.workspace_id IS 'Workspace the brand is managed in; NULL = shared by all workspaces.';
COMMENT ON COLUMN catalog.brands.name IS 'Brand name as shown to buyers.';
COMMENT ON COLUMN catalog.brands.slug IS 'URL-safe identifier, unique per tenant.';
COMMENT ON COLUMN catalog.brands.description IS 'Brand story shown on the brand page; NULL = none.';
COMMENT ON COLUMN catalog.brands.logo_url IS 'Logo image URL; NULL = none.';
COMMENT ON COLUMN catalog.brands.website IS 'Manufacturer website; NULL = none.';
COMMENT ON COLUMN catalog.brands.country_code IS 'ISO 3166-1 alpha-2 home country of the brand owner.';
COMMENT ON COLUMN catalog.brands.is_house_brand IS 'True for the tenant''s own private-label brand.';
COMMENT ON COLUMN catalog.brands.is_active IS 'False once the brand is no longer carried.';
COMMENT ON COLUMN catalog.brands.created_by_user_id IS 'Staff user who created the brand.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.products (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    title text NOT NULL,
    slug varchar(200) NOT NULL,
    subtitle text,
    description text,
    status catalog.product_status NOT NULL DEFAULT 'draft',
    product_type catalog.product_type NOT NULL DEFAULT 'physical',
    brand_id bigint,
    primary_category_id bigint,
    default_uom_id bigint NOT NULL,
    origin_country_code char(2),
    hs_code varchar(16),
    tags text[] NOT NULL DEFAULT '{}',
    is_featured boolean NOT NULL DEFAULT false,
    has_variants boolean NOT NULL DEFAULT false,
    seo_title text,
    seo_description text,
    external_ref text,
    metadata jsonb NOT NULL DEFAULT '{}',
    published_at timestamptz,
    archived_at timestamptz,
    created_by_user_id bigint NOT NULL,
    updated_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.products IS 'Sellable products (items, goods, articles, catalogue entries) of the tenant. A product groups one or more SKUs (catalog.product_variants); stock, prices and order lines are kept per SKU, not per product. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN catalog.products.workspace_id IS 'Workspace (brand or storefront) that sells the product; NULL = sold in all workspaces.';
COMMENT ON COLUMN catalog.products.title IS 'Product name shown to buyers (e.g. ''Nitrile gloves, powder-free'').';
COMMENT ON COLUMN catalog.products.slug IS 'URL-safe identifier of the product page, unique per tenant.';
COMMENT ON COLUMN catalog.products.subtitle IS 'Short tagline under the title; NULL = none.';
COMMENT ON COLUMN catalog.products.description IS 'Long description (HTML or markdown); NULL = not written yet.';
COMMENT ON COLUMN catalog.products.status IS 'draft (not visible), active (on sale) or archived (no longer sold, kept for history).';
COMMENT ON COLUMN catalog.products.product_type IS 'physical (shipped goods), digital (download or licence) or service (installation, training…).';
COMMENT ON COLUMN catalog.products.brand_id IS 'Brand of the product; NULL = unbranded / generic item.';
COMMENT ON COLUMN catalog.products.primary_category_id IS 'Main category used for breadcrumbs and reporting; NULL = uncategorised. All placements are in catalog.product_categories.';
COMMENT ON COLUMN catalog.products.default_uom_id IS 'Unit of measure the product is sold in by default (each, box, kg…); SKUs may override it.';
COMMENT ON COLUMN catalog.products.origin_country_code IS 'ISO 3166-1 alpha-2 country of origin (manufacture) for customs; NULL = unknown or not applicable.';
COMMENT ON COLUMN catalog.products.hs_code IS 'Harmonized System customs tariff code (e.g. ''4015.19''); NULL = not classified or not physical.';
COMMENT ON COLUMN catalog.products.tags IS 'Free labels for search and merchandising (e.g. {''eco'',''bestseller''}); empty array = none.';
COMMENT ON COLUMN catalog.products.is_featured IS 'True if promoted on the storefront home page.';
COMMENT ON COLUMN catalog.products.has_variants IS 'True if the product has several SKUs (sizes, colours…); false = one default SKU.';
COMMENT ON COLUMN catalog.products.seo_title IS 'HTML title override for search engines; NULL = use title.';
COMMENT ON COLUMN catalog.products.seo_description IS 'Meta description for search engines; NULL = generated from description.';
COMMENT ON COLUMN catalog.products.external_ref IS 'Identifier of the product in an ERP or PIM system; NULL = not synced.';
COMMENT ON COLUMN catalog.products.metadata IS 'Tenant-defined custom fields as a jsonb object.';
COMMENT ON COLUMN catalog.products.published_at IS 'When the product first went on sale (status active); NULL = never published.';
COMMENT ON COLUMN catalog.products.archived_at IS 'When the product was archived (discontinued); NULL = not archived.';
COMMENT ON COLUMN catalog.products.created_by_user_id IS 'Staff user who created the product (for imports, the user who ran the import).';
COMMENT ON COLUMN catalog.products.updated_by_user_id IS 'Staff user who last edited the product (equals created_by_user_id until the first edit).';
COMMENT ON COLUMN catalog.products.deleted_at IS 'When the product was deleted from the catalogue; NULL = live. Archived products are not deleted.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.product_variants (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    product_id bigint NOT NULL,
    sku varchar(64) NOT NULL,
    name text NOT NULL,
    barcode varchar(32),
    manufacturer_part_number text,
    uom_id bigint NOT NULL,
    units_per_pack integer NOT NULL DEFAULT 1,
    weight_grams integer,
    length_mm integer,
    width_mm integer,
    height_mm integer,
    cost_price numeric(14,4),
    currency_code char(3) NOT NULL,
    position integer NOT NULL DEFAULT 0,
    is_default boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    allows_backorder boolean NOT NULL DEFAULT false,
    discontinued_at timestamptz,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT product_variants_units_per_pack_check CHECK (units_per_pack > 0),
    CONSTRAINT product_variants_cost_price_check CHECK (cost_price >= 0)
);
COMMENT ON TABLE catalog.product_variants IS 'SKUs (stock-keeping units, item variants, article numbers): the concrete sellable versions of a product, e.g. one size and colour. Stock, prices, cart and order lines all point at a SKU. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN catalog.product_variants.product_id IS 'Product this SKU belongs to.';
COMMENT ON COLUMN catalog.product_variants.sku IS 'Stock-keeping unit code, unique per tenant (e.g. ''GLV-NIT-M-BLU-100'').';
COMMENT ON COLUMN catalog.product_variants.name IS 'Variant label built from its options (e.g. ''Blue / M / box of 100'').';
COMMENT ON COLUMN catalog.product_variants.barcode IS 'GTIN / EAN / UPC barcode; NULL = none assigned.';
COMMENT ON COLUMN catalog.product_variants.manufacturer_part_number IS 'Manufacturer part number (MPN); NULL = unknown.';
COMMENT ON COLUMN catalog.product_variants.uom_id IS 'Unit of measure one unit of this SKU is sold in (each, box, kg…).';
COMMENT ON COLUMN catalog.product_variants.units_per_pack IS 'Number of individual pieces in one sales unit (100 for a box of 100; 1 for singles).';
COMMENT ON COLUMN catalog.product_variants.weight_grams IS 'Shipping weight of one sales unit in grams; NULL = unknown or not physical.';
COMMENT ON COLUMN catalog.product_variants.length_mm IS 'Package length in millimetres; NULL = unknown.';
COMMENT ON COLUMN catalog.product_variants.width_mm IS 'Package width in millimetres; NULL = unknown.';
COMMENT ON COLUMN catalog.product_variants.height_mm IS 'Package height in millimetres; NULL = unknown.';
COMMENT ON COLUMN catalog.product_variants.cost_price IS 'Standard purchase or production cost of one sales unit (unit cost, COGS basis), in currency_code; NULL = not costed. Selling prices live in pricing.price_list_entries.';
COMMENT ON COLUMN catalog.product_variants.currency_code IS 'ISO 4217 currency of cost_price.';
COMMENT ON COLUMN catalog.product_variants.position IS 'Display order among the product''s SKUs, ascending.';
COMMENT ON COLUMN catalog.product_variants.is_default IS 'True for the SKU preselected on the product page.';
COMMENT ON COLUMN catalog.product_variants.is_active IS 'False if the SKU can no longer be ordered (but is not deleted).';
COMMENT ON COLUMN catalog.product_variants.allows_backorder IS 'True if the SKU may be ordered when out of stock.';
COMMENT ON COLUMN catalog.product_variants.discontinued_at IS 'When the SKU was discontinued by the manufacturer or tenant; NULL = still current.';
COMMENT ON COLUMN catalog.product_variants.created_by_user_id IS 'Staff user who created the SKU (for imports, the user who ran the import).';
COMMENT ON COLUMN catalog.product_variants.deleted_at IS 'When the SKU was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.product_categories (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    product_id bigint NOT NULL,
    category_id bigint NOT NULL,
    position integer NOT NULL DEFAULT 0,
    is_primary boolean NOT NULL DEFAULT false,
    added_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.product_categories IS 'Placement of products in categories (a product can appear in several categories of the tree).';
COMMENT ON COLUMN catalog.product_categories.product_id IS 'The product placed.';
COMMENT ON COLUMN catalog.product_categories.category_id IS 'The category it appears in.';
COMMENT ON COLUMN catalog.product_categories.position IS 'Sort order of the product within the category listing, ascending.';
COMMENT ON COLUMN catalog.product_categories.is_primary IS 'True for the product''s main category (mirrors products.primary_category_id).';
COMMENT ON COLUMN catalog.product_categories.added_by_user_id IS 'Staff user who placed the product in the category.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.attributes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    description text,
    data_type catalog.attribute_data_type NOT NULL DEFAULT 'select',
    unit_uom_id bigint,
    is_variant_axis boolean NOT NULL DEFAULT false,
    is_filterable boolean NOT NULL DEFAULT true,
    is_required boolean NOT NULL DEFAULT false,
    position integer NOT NULL DEFAULT 0,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.attributes IS 'Product attribute definitions (properties, specs, options) such as colour, size, material or voltage; variant axes define how a product splits into SKUs.';
COMMENT ON COLUMN catalog.attributes.code IS 'Stable machine code, unique per tenant (e.g. ''color'', ''size'', ''material'').';
COMMENT ON COLUMN catalog.attributes.name IS 'Display label (e.g. ''Colour'').';
COMMENT ON COLUMN catalog.attributes.description IS 'Guidance for catalogue editors; NULL = none.';
COMMENT ON COLUMN catalog.attributes.data_type IS 'Value type: text, number, boolean, color, size or select (pick from catalog.attribute_values).';
COMMENT ON COLUMN catalog.attributes.unit_uom_id IS 'Unit numeric values are expressed in (e.g. kg for ''net weight''); NULL = unitless attribute.';
COMMENT ON COLUMN catalog.attributes.is_variant_axis IS 'True if SKUs of a product differ by this attribute (size, colour).';
COMMENT ON COLUMN catalog.attributes.is_filterable IS 'True if shown as a storefront search filter (facet).';
COMMENT ON COLUMN catalog.attributes.is_required IS 'True if every SKU must have a value.';
COMMENT ON COLUMN catalog.attributes.position IS 'Display order of the attribute, ascending.';
COMMENT ON COLUMN catalog.attributes.created_by_user_id IS 'Staff user who defined the attribute.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.attribute_values (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    attribute_id bigint NOT NULL,
    code varchar(128) NOT NULL,
    label text NOT NULL,
    numeric_value numeric(14,4),
    swatch_hex char(7),
    position integer NOT NULL DEFAULT 0,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.attribute_values IS 'The allowed values (options, choices) of a product attribute, e.g. red/blue/green for colour or S/M/L/XL for size.';
COMMENT ON COLUMN catalog.attribute_values.attribute_id IS 'Attribute the value belongs to.';
COMMENT ON COLUMN catalog.attribute_values.code IS 'Stable code prefixed with the attribute code, unique per tenant (e.g. ''color.red'', ''size.xl'').';
COMMENT ON COLUMN catalog.attribute_values.label IS 'Display label (e.g. ''Red'', ''XL'').';
COMMENT ON COLUMN catalog.attribute_values.numeric_value IS 'Numeric value for number attributes, in the attribute''s unit; NULL for non-numeric values.';
COMMENT ON COLUMN catalog.attribute_values.swatch_hex IS 'Colour swatch as ''#RRGGBB''; NULL for non-colour values.';
COMMENT ON COLUMN catalog.attribute_values.position IS 'Display order within the attribute, ascending (S before M before L).';
COMMENT ON COLUMN catalog.attribute_values.is_active IS 'False once the value can no longer be assigned.';
COMMENT ON COLUMN catalog.attribute_values.created_by_user_id IS 'Staff user who added the value (for imports, the user who ran the import).';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.variant_attribute_values (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    attribute_id bigint NOT NULL,
    attribute_value_id bigint,
    custom_value text,
    assigned_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.variant_attribute_values IS 'The attribute values (specs, options) of each SKU: one row per SKU and attribute, e.g. SKU 123 has colour = red.';
COMMENT ON COLUMN catalog.variant_attribute_values.variant_id IS 'The SKU described.';
COMMENT ON COLUMN catalog.variant_attribute_values.attribute_id IS 'The attribute set on the SKU.';
COMMENT ON COLUMN catalog.variant_attribute_values.attribute_value_id IS 'Chosen predefined value; NULL = free-form value given in custom_value.';
COMMENT ON COLUMN catalog.variant_attribute_values.custom_value IS 'Free-form value for text or number attributes (e.g. ''230 V''); NULL when attribute_value_id is set.';
COMMENT ON COLUMN catalog.variant_attribute_values.assigned_by_user_id IS 'Staff user who set the value.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.product_images (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    product_id bigint NOT NULL,
    variant_id bigint,
    media_type catalog.media_type NOT NULL DEFAULT 'image',
    url text NOT NULL,
    alt_text text,
    mime_type varchar(100) NOT NULL,
    width_px integer,
    height_px integer,
    file_size_bytes bigint,
    position integer NOT NULL DEFAULT 0,
    is_primary boolean NOT NULL DEFAULT false,
    uploaded_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.product_images IS 'Product media: photos, videos, 3D models and spec sheets shown on product pages, optionally specific to one SKU. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN catalog.product_images.product_id IS 'Product the media belongs to.';
COMMENT ON COLUMN catalog.product_images.variant_id IS 'SKU the media shows (e.g. the red version); NULL = applies to all SKUs of the product.';
COMMENT ON COLUMN catalog.product_images.media_type IS 'image, video, model_3d or document (spec sheet, safety data sheet).';
COMMENT ON COLUMN catalog.product_images.url IS 'CDN URL of the file.';
COMMENT ON COLUMN catalog.product_images.alt_text IS 'Accessibility text; NULL = not written.';
COMMENT ON COLUMN catalog.product_images.mime_type IS 'MIME type (e.g. ''image/jpeg'', ''video/mp4'', ''application/pdf'').';
COMMENT ON COLUMN catalog.product_images.width_px IS 'Width in pixels; NULL for documents.';
COMMENT ON COLUMN catalog.product_images.height_px IS 'Height in pixels; NULL for documents.';
COMMENT ON COLUMN catalog.product_images.file_size_bytes IS 'File size in bytes; NULL = unknown (externally hosted).';
COMMENT ON COLUMN catalog.product_images.position IS 'Gallery order, ascending.';
COMMENT ON COLUMN catalog.product_images.is_primary IS 'True for the main (thumbnail) image of the product.';
COMMENT ON COLUMN catalog.product_images.uploaded_by_user_id IS 'Staff user who uploaded the file (for feed imports, the owner of the feed).';
COMMENT ON COLUMN catalog.product_images.deleted_at IS 'When the media was removed; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.collections (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    title text NOT NULL,
    slug varchar(160) NOT NULL,
    description text,
    kind catalog.collection_kind NOT NULL DEFAULT 'manual',
    rule_definition jsonb,
    sort_order catalog.collection_sort NOT NULL DEFAULT 'manual',
    image_url text,
    is_published boolean NOT NULL DEFAULT false,
    starts_at timestamptz NOT NULL,
    ends_at timestamptz,
    curated_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT collections_ends_at_check CHECK (ends_at IS NULL OR ends_at >= starts_at)
);
COMMENT ON TABLE catalog.collections IS 'Curated product groupings (merchandising collections, ranges, lookbooks, ''new arrivals'', ''back to school'') that cut across the category tree, hand-picked or rule-based. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN catalog.collections.workspace_id IS 'Workspace (storefront) showing the collection; NULL = all workspaces.';
COMMENT ON COLUMN catalog.collections.title IS 'Display title (e.g. ''Spring essentials'').';
COMMENT ON COLUMN catalog.collections.slug IS 'URL-safe identifier, unique per tenant.';
COMMENT ON COLUMN catalog.collections.description IS 'Intro text shown on the collection page; NULL = none.';
COMMENT ON COLUMN catalog.collections.kind IS 'manual (products picked by hand) or automated (products selected by rule_definition).';
COMMENT ON COLUMN catalog.collections.rule_definition IS 'Selection rule for automated collections as jsonb (e.g. tag = ''eco'' and brand in (…)); NULL for manual collections.';
COMMENT ON COLUMN catalog.collections.sort_order IS 'Default product order: manual, best_selling, newest, title_asc or title_desc.';
COMMENT ON COLUMN catalog.collections.image_url IS 'Hero image URL; NULL = none.';
COMMENT ON COLUMN catalog.collections.is_published IS 'True if visible on the storefront (within its starts_at/ends_at window).';
COMMENT ON COLUMN catalog.collections.starts_at IS 'When the collection becomes visible.';
COMMENT ON COLUMN catalog.collections.ends_at IS 'When the collection stops being visible; NULL = evergreen, no end.';
COMMENT ON COLUMN catalog.collections.curated_by_user_id IS 'Merchandiser (staff user) responsible for the collection.';
COMMENT ON COLUMN catalog.collections.deleted_at IS 'When the collection was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.collection_products (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    collection_id bigint NOT NULL,
    product_id bigint NOT NULL,
    position integer NOT NULL DEFAULT 0,
    is_pinned boolean NOT NULL DEFAULT false,
    added_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE catalog.collection_products IS 'Collection membership: which products are in which merchandising collection, and in what order.';
COMMENT ON COLUMN catalog.collection_products.collection_id IS 'The collection.';
COMMENT ON COLUMN catalog.collection_products.product_id IS 'Product included in the collection.';
COMMENT ON COLUMN catalog.collection_products.position IS 'Order of the product in the collection when sorted manually, ascending.';
COMMENT ON COLUMN catalog.collection_products.is_pinned IS 'True if pinned to the top regardless of the sort order.';
COMMENT ON COLUMN catalog.collection_products.added_by_user_id IS 'Staff user who added the product; NULL = added by the automated collection rule.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.bundles (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    status catalog.bundle_status NOT NULL DEFAULT 'draft',
    is_prebuilt boolean NOT NULL DEFAULT false,
    allows_substitutions boolean NOT NULL DEFAULT false,
    valid_from date NOT NULL,
    valid_to date,
    created_by_user_id bigint NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bundles_valid_to_check CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
COMMENT ON TABLE catalog.bundles IS 'Bundles (kits, packs, sets) sold as one item: each bundle is sold under its own SKU and consists of several component SKUs listed in catalog.bundle_items. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN catalog.bundles.variant_id IS 'The SKU under which the bundle is ordered and invoiced (one bundle per SKU).';
COMMENT ON COLUMN catalog.bundles.name IS 'Bundle name (e.g. ''Starter cleaning kit'').';
COMMENT ON COLUMN catalog.bundles.description IS 'What the kit is for; NULL = none.';
COMMENT ON COLUMN catalog.bundles.status IS 'draft, active (can be ordered) or retired.';
COMMENT ON COLUMN catalog.bundles.is_prebuilt IS 'True if the kit is assembled in advance and stocked as such; false = picked from component stock at order time.';
COMMENT ON COLUMN catalog.bundles.allows_substitutions IS 'True if components may be swapped for their listed substitutes when out of stock.';
COMMENT ON COLUMN catalog.bundles.valid_from IS 'First day the bundle can be sold.';
COMMENT ON COLUMN catalog.bundles.valid_to IS 'Last day the bundle can be sold; NULL = open-ended.';
COMMENT ON COLUMN catalog.bundles.created_by_user_id IS 'Staff user who set up the bundle.';
COMMENT ON COLUMN catalog.bundles.deleted_at IS 'When the bundle was deleted; NULL = live.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.bundle_items (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    bundle_id bigint NOT NULL,
    variant_id bigint NOT NULL,
    quantity integer NOT NULL,
    uom_id bigint NOT NULL,
    substitute_variant_id bigint,
    is_optional boolean NOT NULL DEFAULT false,
    position integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bundle_items_quantity_check CHECK (quantity > 0)
);
COMMENT ON TABLE catalog.bundle_items IS 'Components of a bundle (kit contents, bill of materials): which SKUs and how many go into one bundle.';
COMMENT ON COLUMN catalog.bundle_items.bundle_id IS 'The bundle (kit).';
COMMENT ON COLUMN catalog.bundle_items.variant_id IS 'Component SKU included in the bundle.';
COMMENT ON COLUMN catalog.bundle_items.quantity IS 'Number of units of the component per one bundle, in uom_id.';
COMMENT ON COLUMN catalog.bundle_items.uom_id IS 'Unit the component quantity is counted in.';
COMMENT ON COLUMN catalog.bundle_items.substitute_variant_id IS 'Alternative SKU that may replace the component when it is out of stock; NULL = no substitute.';
COMMENT ON COLUMN catalog.bundle_items.is_optional IS 'True if the buyer may leave this component out.';
COMMENT ON COLUMN catalog.bundle_items.position IS 'Display order in the kit contents, ascending.';

-- ---------------------------------------------------------------------------------------------
CREATE TABLE catalog.product_reviews (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    product_id bigint NOT NULL,
    variant_id bigint,
    contact_id bigint,
    account_id bigint,
    rating smallint NOT NULL,
    title text,
    body text,
    reviewer_display_name text NOT NULL,
    language_code char(2) NOT NULL,
    status catalog.review_status NOT NULL DEFAULT 'pending',
    is_verified_purchase boolean NOT NULL DEFAULT false,
    helpful_vote_count integer NOT NULL DEFAULT 0,
    moderated_by_user_id bigint,
    moderated_at timestamptz,
    published_at timestamptz,
    merchant_reply text,
    replied_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT product_reviews_rating_check CHECK (rating BETWEEN 1 AND 5)
);
COMMENT ON TABLE catalog.product_reviews IS 'Ratings and reviews (star ratings, customer feedback, testimonials) of products written by buyers, with their moderation state.';
COMMENT ON COLUMN catalog.product_reviews.product_id IS 'Product reviewed.';
COMMENT ON COLUMN catalog.product_reviews.variant_id IS 'Specific SKU the reviewer bought; NULL = review of the product in general.';
COMMENT ON COLUMN catalog.product_reviews.contact_id IS 'Contact person who wrote the review; NULL = anonymous or guest reviewer.';
COMMENT ON COLUMN catalog.product_reviews.account_id IS 'Customer account of the reviewer at the time of writing; NULL = anonymous or individual buyer without a company.';
COMMENT ON COLUMN catalog.product_reviews.rating IS 'Star rating from 1 (worst) to 5 (best).';
COMMENT ON COLUMN catalog.product_reviews.title IS 'Review headline; NULL = rating only.';
COMMENT ON COLUMN catalog.product_reviews.body IS 'Review text; NULL = rating only.';
COMMENT ON COLUMN catalog.product_reviews.reviewer_display_name IS 'Name shown with the review (e.g. ''Maria, facility manager'' or ''Anonymous'').';
COMMENT ON COLUMN catalog.product_reviews.language_code IS 'ISO 639-1 language of the review text (detected on submission).';
COMMENT ON COLUMN catalog.product_reviews.status IS 'Moderation state: pending, published or rejected.';
COMMENT ON COLUMN catalog.product_reviews.is_verified_purchase IS 'True if the reviewer is known to have ordered the product.';
COMMENT ON COLUMN catalog.product_reviews.helpful_vote_count IS 'How many shoppers marked the review as helpful.';
COMMENT ON COLUMN catalog.product_reviews.moderated_by_user_id IS 'Staff user who approved or rejected the review; NULL = not moderated yet or auto-approved.';
COMMENT ON COLUMN catalog.product_reviews.moderated_at IS 'When the moderation decision was made; NULL = pending.';
COMMENT ON COLUMN catalog.product_reviews.published_at IS 'When the review went live on the storefront; NULL = not published (pending or rejected).';
COMMENT ON COLUMN catalog.product_reviews.merchant_reply IS 'Public reply from the tenant; NULL = no reply.';
COMMENT ON COLUMN catalog.product_reviews.replied_at IS 'When the reply was posted; NULL = no reply.';

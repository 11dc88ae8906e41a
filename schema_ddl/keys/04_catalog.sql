-- heron schema, phase 2, domain 04 catalog: primary keys, unique keys, foreign keys and indexes of
-- the product, SKU (variant), category, attribute, media, collection, bundle and review tables.

-- catalog.units_of_measure (global)
ALTER TABLE catalog.units_of_measure ADD CONSTRAINT units_of_measure_pkey PRIMARY KEY (id);
ALTER TABLE catalog.units_of_measure ADD CONSTRAINT units_of_measure_code_key UNIQUE (code);
ALTER TABLE catalog.units_of_measure ADD CONSTRAINT units_of_measure_base_unit_id_fkey FOREIGN KEY (base_unit_id) REFERENCES catalog.units_of_measure (id);

-- catalog.categories
ALTER TABLE catalog.categories ADD CONSTRAINT categories_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.categories ADD CONSTRAINT categories_slug_key UNIQUE (tenant_id, slug);
ALTER TABLE catalog.categories ADD CONSTRAINT categories_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.categories ADD CONSTRAINT categories_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE catalog.categories ADD CONSTRAINT categories_parent_category_id_fkey FOREIGN KEY (tenant_id, parent_category_id) REFERENCES catalog.categories (tenant_id, id);
ALTER TABLE catalog.categories ADD CONSTRAINT categories_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX categories_parent_category_id_idx ON catalog.categories (tenant_id, parent_category_id);

-- catalog.brands
ALTER TABLE catalog.brands ADD CONSTRAINT brands_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.brands ADD CONSTRAINT brands_slug_key UNIQUE (tenant_id, slug);
ALTER TABLE catalog.brands ADD CONSTRAINT brands_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.brands ADD CONSTRAINT brands_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE catalog.brands ADD CONSTRAINT brands_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE catalog.brands ADD CONSTRAINT brands_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- catalog.products
ALTER TABLE catalog.products ADD CONSTRAINT products_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.products ADD CONSTRAINT products_slug_key UNIQUE (tenant_id, slug);
ALTER TABLE catalog.products ADD CONSTRAINT products_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.products ADD CONSTRAINT products_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE catalog.products ADD CONSTRAINT products_brand_id_fkey FOREIGN KEY (tenant_id, brand_id) REFERENCES catalog.brands (tenant_id, id);
ALTER TABLE catalog.products ADD CONSTRAINT products_primary_category_id_fkey FOREIGN KEY (tenant_id, primary_category_id) REFERENCES catalog.categories (tenant_id, id);
ALTER TABLE catalog.products ADD CONSTRAINT products_default_uom_id_fkey FOREIGN KEY (default_uom_id) REFERENCES catalog.units_of_measure (id);
ALTER TABLE catalog.products ADD CONSTRAINT products_origin_country_code_fkey FOREIGN KEY (origin_country_code) REFERENCES tenancy.countries (code);
ALTER TABLE catalog.products ADD CONSTRAINT products_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE catalog.products ADD CONSTRAINT products_updated_by_user_id_fkey FOREIGN KEY (tenant_id, updated_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX products_brand_id_idx ON catalog.products (tenant_id, brand_id);
CREATE INDEX products_primary_category_id_idx ON catalog.products (tenant_id, primary_category_id);

-- catalog.product_variants
ALTER TABLE catalog.product_variants ADD CONSTRAINT product_variants_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.product_variants ADD CONSTRAINT product_variants_sku_key UNIQUE (tenant_id, sku);
ALTER TABLE catalog.product_variants ADD CONSTRAINT product_variants_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.product_variants ADD CONSTRAINT product_variants_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE catalog.product_variants ADD CONSTRAINT product_variants_uom_id_fkey FOREIGN KEY (uom_id) REFERENCES catalog.units_of_measure (id);
ALTER TABLE catalog.product_variants ADD CONSTRAINT product_variants_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE catalog.product_variants ADD CONSTRAINT product_variants_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX product_variants_product_id_idx ON catalog.product_variants (tenant_id, product_id);

-- catalog.product_categories
ALTER TABLE catalog.product_categories ADD CONSTRAINT product_categories_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.product_categories ADD CONSTRAINT product_categories_product_id_category_id_key UNIQUE (tenant_id, product_id, category_id);
ALTER TABLE catalog.product_categories ADD CONSTRAINT product_categories_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.product_categories ADD CONSTRAINT product_categories_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE catalog.product_categories ADD CONSTRAINT product_categories_category_id_fkey FOREIGN KEY (tenant_id, category_id) REFERENCES catalog.categories (tenant_id, id);
ALTER TABLE catalog.product_categories ADD CONSTRAINT product_categories_added_by_user_id_fkey FOREIGN KEY (tenant_id, added_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX product_categories_category_id_idx ON catalog.product_categories (tenant_id, category_id);

-- catalog.attributes
ALTER TABLE catalog.attributes ADD CONSTRAINT attributes_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.attributes ADD CONSTRAINT attributes_code_key UNIQUE (tenant_id, code);
ALTER TABLE catalog.attributes ADD CONSTRAINT attributes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.attributes ADD CONSTRAINT attributes_unit_uom_id_fkey FOREIGN KEY (unit_uom_id) REFERENCES catalog.units_of_measure (id);
ALTER TABLE catalog.attributes ADD CONSTRAINT attributes_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- catalog.attribute_values
ALTER TABLE catalog.attribute_values ADD CONSTRAINT attribute_values_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.attribute_values ADD CONSTRAINT attribute_values_code_key UNIQUE (tenant_id, code);
ALTER TABLE catalog.attribute_values ADD CONSTRAINT attribute_values_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.attribute_values ADD CONSTRAINT attribute_values_attribute_id_fkey FOREIGN KEY (tenant_id, attribute_id) REFERENCES catalog.attributes (tenant_id, id);
ALTER TABLE catalog.attribute_values ADD CONSTRAINT attribute_values_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX attribute_values_attribute_id_idx ON catalog.attribute_values (tenant_id, attribute_id);

-- catalog.variant_attribute_values
ALTER TABLE catalog.variant_attribute_values ADD CONSTRAINT variant_attribute_values_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.variant_attribute_values ADD CONSTRAINT variant_attribute_values_variant_id_attribute_id_key UNIQUE (tenant_id, variant_id, attribute_id);
ALTER TABLE catalog.variant_attribute_values ADD CONSTRAINT variant_attribute_values_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.variant_attribute_values ADD CONSTRAINT variant_attribute_values_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE catalog.variant_attribute_values ADD CONSTRAINT variant_attribute_values_attribute_id_fkey FOREIGN KEY (tenant_id, attribute_id) REFERENCES catalog.attributes (tenant_id, id);
ALTER TABLE catalog.variant_attribute_values ADD CONSTRAINT variant_attribute_values_attribute_value_id_fkey FOREIGN KEY (tenant_id, attribute_value_id) REFERENCES catalog.attribute_values (tenant_id, id);
ALTER TABLE catalog.variant_attribute_values ADD CONSTRAINT variant_attribute_values_assigned_by_user_id_fkey FOREIGN KEY (tenant_id, assigned_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX variant_attribute_values_attribute_value_id_idx ON catalog.variant_attribute_values (tenant_id, attribute_value_id);

-- catalog.product_images
ALTER TABLE catalog.product_images ADD CONSTRAINT product_images_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.product_images ADD CONSTRAINT product_images_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.product_images ADD CONSTRAINT product_images_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE catalog.product_images ADD CONSTRAINT product_images_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE catalog.product_images ADD CONSTRAINT product_images_uploaded_by_user_id_fkey FOREIGN KEY (tenant_id, uploaded_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX product_images_product_id_idx ON catalog.product_images (tenant_id, product_id);

-- catalog.collections
ALTER TABLE catalog.collections ADD CONSTRAINT collections_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.collections ADD CONSTRAINT collections_slug_key UNIQUE (tenant_id, slug);
ALTER TABLE catalog.collections ADD CONSTRAINT collections_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.collections ADD CONSTRAINT collections_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE catalog.collections ADD CONSTRAINT collections_curated_by_user_id_fkey FOREIGN KEY (tenant_id, curated_by_user_id) REFERENCES auth.users (tenant_id, id);

-- catalog.collection_products
ALTER TABLE catalog.collection_products ADD CONSTRAINT collection_products_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.collection_products ADD CONSTRAINT collection_products_collection_id_product_id_key UNIQUE (tenant_id, collection_id, product_id);
ALTER TABLE catalog.collection_products ADD CONSTRAINT collection_products_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.collection_products ADD CONSTRAINT collection_products_collection_id_fkey FOREIGN KEY (tenant_id, collection_id) REFERENCES catalog.collections (tenant_id, id);
ALTER TABLE catalog.collection_products ADD CONSTRAINT collection_products_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE catalog.collection_products ADD CONSTRAINT collection_products_added_by_user_id_fkey FOREIGN KEY (tenant_id, added_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX collection_products_product_id_idx ON catalog.collection_products (tenant_id, product_id);

-- catalog.bundles
ALTER TABLE catalog.bundles ADD CONSTRAINT bundles_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.bundles ADD CONSTRAINT bundles_variant_id_key UNIQUE (tenant_id, variant_id);
ALTER TABLE catalog.bundles ADD CONSTRAINT bundles_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.bundles ADD CONSTRAINT bundles_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE catalog.bundles ADD CONSTRAINT bundles_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- catalog.bundle_items
ALTER TABLE catalog.bundle_items ADD CONSTRAINT bundle_items_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.bundle_items ADD CONSTRAINT bundle_items_bundle_id_variant_id_key UNIQUE (tenant_id, bundle_id, variant_id);
ALTER TABLE catalog.bundle_items ADD CONSTRAINT bundle_items_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.bundle_items ADD CONSTRAINT bundle_items_bundle_id_fkey FOREIGN KEY (tenant_id, bundle_id) REFERENCES catalog.bundles (tenant_id, id);
ALTER TABLE catalog.bundle_items ADD CONSTRAINT bundle_items_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE catalog.bundle_items ADD CONSTRAINT bundle_items_uom_id_fkey FOREIGN KEY (uom_id) REFERENCES catalog.units_of_measure (id);
ALTER TABLE catalog.bundle_items ADD CONSTRAINT bundle_items_substitute_variant_id_fkey FOREIGN KEY (tenant_id, substitute_variant_id) REFERENCES catalog.product_variants (tenant_id, id);
CREATE INDEX bundle_items_variant_id_idx ON catalog.bundle_items (tenant_id, variant_id);

-- catalog.product_reviews
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_product_id_fkey FOREIGN KEY (tenant_id, product_id) REFERENCES catalog.products (tenant_id, id);
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_variant_id_fkey FOREIGN KEY (tenant_id, variant_id) REFERENCES catalog.product_variants (tenant_id, id);
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE catalog.product_reviews ADD CONSTRAINT product_reviews_moderated_by_user_id_fkey FOREIGN KEY (tenant_id, moderated_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX product_reviews_product_id_idx ON catalog.product_reviews (tenant_id, product_id);
CREATE INDEX product_reviews_created_at_idx ON catalog.product_reviews (tenant_id, created_at);

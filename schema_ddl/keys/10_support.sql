-- heron schema, phase 2, domain 10 support: primary keys, unique business keys (ticket numbers, queue
-- codes, tag names, knowledge-base slugs per tenant), tenant-safe composite foreign keys and the
-- indexes help-desk reporting joins and buckets by (tickets per queue, agent, account and day).

-- support.business_hours
ALTER TABLE support.business_hours ADD CONSTRAINT business_hours_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.business_hours ADD CONSTRAINT business_hours_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.business_hours ADD CONSTRAINT business_hours_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);
ALTER TABLE support.business_hours ADD CONSTRAINT business_hours_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE support.business_hours ADD CONSTRAINT business_hours_tenant_id_name_key UNIQUE (tenant_id, name);

-- support.sla_policies
ALTER TABLE support.sla_policies ADD CONSTRAINT sla_policies_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.sla_policies ADD CONSTRAINT sla_policies_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.sla_policies ADD CONSTRAINT sla_policies_business_hours_id_fkey FOREIGN KEY (tenant_id, business_hours_id) REFERENCES support.business_hours (tenant_id, id);
ALTER TABLE support.sla_policies ADD CONSTRAINT sla_policies_account_segment_id_fkey FOREIGN KEY (tenant_id, account_segment_id) REFERENCES crm.account_segments (tenant_id, id);
ALTER TABLE support.sla_policies ADD CONSTRAINT sla_policies_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.sla_policies ADD CONSTRAINT sla_policies_tenant_id_name_key UNIQUE (tenant_id, name);

-- support.queues
ALTER TABLE support.queues ADD CONSTRAINT queues_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.queues ADD CONSTRAINT queues_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.queues ADD CONSTRAINT queues_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE support.queues ADD CONSTRAINT queues_team_id_fkey FOREIGN KEY (tenant_id, team_id) REFERENCES auth.teams (tenant_id, id);
ALTER TABLE support.queues ADD CONSTRAINT queues_default_sla_policy_id_fkey FOREIGN KEY (tenant_id, default_sla_policy_id) REFERENCES support.sla_policies (tenant_id, id);
ALTER TABLE support.queues ADD CONSTRAINT queues_business_hours_id_fkey FOREIGN KEY (tenant_id, business_hours_id) REFERENCES support.business_hours (tenant_id, id);
ALTER TABLE support.queues ADD CONSTRAINT queues_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE support.queues ADD CONSTRAINT queues_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.queues ADD CONSTRAINT queues_tenant_id_code_key UNIQUE (tenant_id, code);

-- support.agent_profiles
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_team_id_fkey FOREIGN KEY (tenant_id, team_id) REFERENCES auth.teams (tenant_id, id);
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_default_queue_id_fkey FOREIGN KEY (tenant_id, default_queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_business_hours_id_fkey FOREIGN KEY (tenant_id, business_hours_id) REFERENCES support.business_hours (tenant_id, id);
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);
ALTER TABLE support.agent_profiles ADD CONSTRAINT agent_profiles_tenant_id_user_id_key UNIQUE (tenant_id, user_id);

-- support.cases
ALTER TABLE support.cases ADD CONSTRAINT cases_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.cases ADD CONSTRAINT cases_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_queue_id_fkey FOREIGN KEY (tenant_id, queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_assignee_user_id_fkey FOREIGN KEY (tenant_id, assignee_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_sla_policy_id_fkey FOREIGN KEY (tenant_id, sla_policy_id) REFERENCES support.sla_policies (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_subscription_id_fkey FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions.subscriptions (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_invoice_id_fkey FOREIGN KEY (tenant_id, invoice_id) REFERENCES billing.invoices (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_parent_case_id_fkey FOREIGN KEY (tenant_id, parent_case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE support.cases ADD CONSTRAINT cases_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.cases ADD CONSTRAINT cases_tenant_id_case_number_key UNIQUE (tenant_id, case_number);
CREATE INDEX cases_tenant_id_account_id_idx ON support.cases (tenant_id, account_id);
CREATE INDEX cases_tenant_id_queue_id_status_idx ON support.cases (tenant_id, queue_id, status);
CREATE INDEX cases_tenant_id_assignee_user_id_idx ON support.cases (tenant_id, assignee_user_id);
CREATE INDEX cases_tenant_id_opened_at_idx ON support.cases (tenant_id, opened_at);

-- support.case_messages
ALTER TABLE support.case_messages ADD CONSTRAINT case_messages_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.case_messages ADD CONSTRAINT case_messages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.case_messages ADD CONSTRAINT case_messages_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.case_messages ADD CONSTRAINT case_messages_author_user_id_fkey FOREIGN KEY (tenant_id, author_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.case_messages ADD CONSTRAINT case_messages_author_contact_id_fkey FOREIGN KEY (tenant_id, author_contact_id) REFERENCES crm.contacts (tenant_id, id);
CREATE INDEX case_messages_tenant_id_case_id_idx ON support.case_messages (tenant_id, case_id);
CREATE INDEX case_messages_tenant_id_sent_at_idx ON support.case_messages (tenant_id, sent_at);

-- support.case_assignments
ALTER TABLE support.case_assignments ADD CONSTRAINT case_assignments_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.case_assignments ADD CONSTRAINT case_assignments_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.case_assignments ADD CONSTRAINT case_assignments_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.case_assignments ADD CONSTRAINT case_assignments_assignee_user_id_fkey FOREIGN KEY (tenant_id, assignee_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.case_assignments ADD CONSTRAINT case_assignments_queue_id_fkey FOREIGN KEY (tenant_id, queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE support.case_assignments ADD CONSTRAINT case_assignments_assigned_by_user_id_fkey FOREIGN KEY (tenant_id, assigned_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX case_assignments_tenant_id_case_id_idx ON support.case_assignments (tenant_id, case_id);
CREATE INDEX case_assignments_tenant_id_assignee_user_id_idx ON support.case_assignments (tenant_id, assignee_user_id);

-- support.tags
ALTER TABLE support.tags ADD CONSTRAINT tags_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.tags ADD CONSTRAINT tags_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.tags ADD CONSTRAINT tags_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.tags ADD CONSTRAINT tags_tenant_id_name_key UNIQUE (tenant_id, name);

-- support.case_tags
ALTER TABLE support.case_tags ADD CONSTRAINT case_tags_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.case_tags ADD CONSTRAINT case_tags_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.case_tags ADD CONSTRAINT case_tags_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.case_tags ADD CONSTRAINT case_tags_tag_id_fkey FOREIGN KEY (tenant_id, tag_id) REFERENCES support.tags (tenant_id, id);
ALTER TABLE support.case_tags ADD CONSTRAINT case_tags_tagged_by_user_id_fkey FOREIGN KEY (tenant_id, tagged_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.case_tags ADD CONSTRAINT case_tags_tenant_id_case_id_tag_id_key UNIQUE (tenant_id, case_id, tag_id);
CREATE INDEX case_tags_tenant_id_tag_id_idx ON support.case_tags (tenant_id, tag_id);

-- support.case_attachments
ALTER TABLE support.case_attachments ADD CONSTRAINT case_attachments_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.case_attachments ADD CONSTRAINT case_attachments_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.case_attachments ADD CONSTRAINT case_attachments_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.case_attachments ADD CONSTRAINT case_attachments_case_message_id_fkey FOREIGN KEY (tenant_id, case_message_id) REFERENCES support.case_messages (tenant_id, id);
ALTER TABLE support.case_attachments ADD CONSTRAINT case_attachments_uploaded_by_user_id_fkey FOREIGN KEY (tenant_id, uploaded_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.case_attachments ADD CONSTRAINT case_attachments_uploaded_by_contact_id_fkey FOREIGN KEY (tenant_id, uploaded_by_contact_id) REFERENCES crm.contacts (tenant_id, id);
CREATE INDEX case_attachments_tenant_id_case_message_id_idx ON support.case_attachments (tenant_id, case_message_id);

-- support.sla_breaches
ALTER TABLE support.sla_breaches ADD CONSTRAINT sla_breaches_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.sla_breaches ADD CONSTRAINT sla_breaches_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.sla_breaches ADD CONSTRAINT sla_breaches_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.sla_breaches ADD CONSTRAINT sla_breaches_sla_policy_id_fkey FOREIGN KEY (tenant_id, sla_policy_id) REFERENCES support.sla_policies (tenant_id, id);
ALTER TABLE support.sla_breaches ADD CONSTRAINT sla_breaches_queue_id_fkey FOREIGN KEY (tenant_id, queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE support.sla_breaches ADD CONSTRAINT sla_breaches_assignee_user_id_fkey FOREIGN KEY (tenant_id, assignee_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.sla_breaches ADD CONSTRAINT sla_breaches_acknowledged_by_user_id_fkey FOREIGN KEY (tenant_id, acknowledged_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX sla_breaches_tenant_id_case_id_idx ON support.sla_breaches (tenant_id, case_id);
CREATE INDEX sla_breaches_tenant_id_breached_at_idx ON support.sla_breaches (tenant_id, breached_at);

-- support.satisfaction_surveys
ALTER TABLE support.satisfaction_surveys ADD CONSTRAINT satisfaction_surveys_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.satisfaction_surveys ADD CONSTRAINT satisfaction_surveys_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.satisfaction_surveys ADD CONSTRAINT satisfaction_surveys_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.satisfaction_surveys ADD CONSTRAINT satisfaction_surveys_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE support.satisfaction_surveys ADD CONSTRAINT satisfaction_surveys_agent_user_id_fkey FOREIGN KEY (tenant_id, agent_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.satisfaction_surveys ADD CONSTRAINT satisfaction_surveys_queue_id_fkey FOREIGN KEY (tenant_id, queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE support.satisfaction_surveys ADD CONSTRAINT satisfaction_surveys_tenant_id_case_id_key UNIQUE (tenant_id, case_id);
CREATE INDEX satisfaction_surveys_tenant_id_responded_at_idx ON support.satisfaction_surveys (tenant_id, responded_at);

-- support.escalations
ALTER TABLE support.escalations ADD CONSTRAINT escalations_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.escalations ADD CONSTRAINT escalations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.escalations ADD CONSTRAINT escalations_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE support.escalations ADD CONSTRAINT escalations_from_queue_id_fkey FOREIGN KEY (tenant_id, from_queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE support.escalations ADD CONSTRAINT escalations_to_queue_id_fkey FOREIGN KEY (tenant_id, to_queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE support.escalations ADD CONSTRAINT escalations_to_team_id_fkey FOREIGN KEY (tenant_id, to_team_id) REFERENCES auth.teams (tenant_id, id);
ALTER TABLE support.escalations ADD CONSTRAINT escalations_escalated_by_user_id_fkey FOREIGN KEY (tenant_id, escalated_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.escalations ADD CONSTRAINT escalations_sla_breach_id_fkey FOREIGN KEY (tenant_id, sla_breach_id) REFERENCES support.sla_breaches (tenant_id, id);
CREATE INDEX escalations_tenant_id_case_id_idx ON support.escalations (tenant_id, case_id);

-- support.kb_categories
ALTER TABLE support.kb_categories ADD CONSTRAINT kb_categories_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.kb_categories ADD CONSTRAINT kb_categories_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.kb_categories ADD CONSTRAINT kb_categories_parent_kb_category_id_fkey FOREIGN KEY (tenant_id, parent_kb_category_id) REFERENCES support.kb_categories (tenant_id, id);
ALTER TABLE support.kb_categories ADD CONSTRAINT kb_categories_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE support.kb_categories ADD CONSTRAINT kb_categories_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.kb_categories ADD CONSTRAINT kb_categories_tenant_id_slug_key UNIQUE (tenant_id, slug);

-- support.kb_articles
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_kb_category_id_fkey FOREIGN KEY (tenant_id, kb_category_id) REFERENCES support.kb_categories (tenant_id, id);
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_author_user_id_fkey FOREIGN KEY (tenant_id, author_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_last_edited_by_user_id_fkey FOREIGN KEY (tenant_id, last_edited_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_translated_from_kb_article_id_fkey FOREIGN KEY (tenant_id, translated_from_kb_article_id) REFERENCES support.kb_articles (tenant_id, id);
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE support.kb_articles ADD CONSTRAINT kb_articles_tenant_id_slug_key UNIQUE (tenant_id, slug);
CREATE INDEX kb_articles_tenant_id_kb_category_id_idx ON support.kb_articles (tenant_id, kb_category_id);

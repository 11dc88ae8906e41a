-- heron schema, phase 2, domain 12 comms: primary keys, unique keys, foreign keys and indexes
-- of senders, templates, broadcasts, messages and their events, preferences, push, SMS and chat.

-- Primary keys first, so that foreign keys between tables of this domain can be added in any order.
ALTER TABLE comms.sender_identities ADD CONSTRAINT sender_identities_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.templates ADD CONSTRAINT templates_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.broadcasts ADD CONSTRAINT broadcasts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.message_events ADD CONSTRAINT message_events_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.suppressions ADD CONSTRAINT suppressions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.notification_preferences ADD CONSTRAINT notification_preferences_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.notifications ADD CONSTRAINT notifications_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.push_tokens ADD CONSTRAINT push_tokens_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.phone_numbers ADD CONSTRAINT phone_numbers_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.conversation_participants ADD CONSTRAINT conversation_participants_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.chat_messages ADD CONSTRAINT chat_messages_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE comms.unsubscribes ADD CONSTRAINT unsubscribes_pkey PRIMARY KEY (tenant_id, id);

-- ---------------------------------------------------------------- sender_identities
ALTER TABLE comms.sender_identities ADD CONSTRAINT sender_identities_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.sender_identities ADD CONSTRAINT sender_identities_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE comms.sender_identities ADD CONSTRAINT sender_identities_phone_number_id_fkey FOREIGN KEY (tenant_id, phone_number_id) REFERENCES comms.phone_numbers (tenant_id, id);
ALTER TABLE comms.sender_identities ADD CONSTRAINT sender_identities_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- templates
ALTER TABLE comms.templates ADD CONSTRAINT templates_tenant_id_code_key UNIQUE (tenant_id, code);
ALTER TABLE comms.templates ADD CONSTRAINT templates_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.templates ADD CONSTRAINT templates_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE comms.templates ADD CONSTRAINT templates_sender_identity_id_fkey FOREIGN KEY (tenant_id, sender_identity_id) REFERENCES comms.sender_identities (tenant_id, id);
ALTER TABLE comms.templates ADD CONSTRAINT templates_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE comms.templates ADD CONSTRAINT templates_updated_by_user_id_fkey FOREIGN KEY (tenant_id, updated_by_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- broadcasts
ALTER TABLE comms.broadcasts ADD CONSTRAINT broadcasts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.broadcasts ADD CONSTRAINT broadcasts_campaign_id_fkey FOREIGN KEY (tenant_id, campaign_id) REFERENCES marketing.campaigns (tenant_id, id);
ALTER TABLE comms.broadcasts ADD CONSTRAINT broadcasts_template_id_fkey FOREIGN KEY (tenant_id, template_id) REFERENCES comms.templates (tenant_id, id);
ALTER TABLE comms.broadcasts ADD CONSTRAINT broadcasts_audience_id_fkey FOREIGN KEY (tenant_id, audience_id) REFERENCES marketing.audiences (tenant_id, id);
ALTER TABLE comms.broadcasts ADD CONSTRAINT broadcasts_sender_identity_id_fkey FOREIGN KEY (tenant_id, sender_identity_id) REFERENCES comms.sender_identities (tenant_id, id);
ALTER TABLE comms.broadcasts ADD CONSTRAINT broadcasts_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
CREATE INDEX broadcasts_tenant_id_campaign_id_idx ON comms.broadcasts (tenant_id, campaign_id);

-- ---------------------------------------------------------------- messages
ALTER TABLE comms.messages ADD CONSTRAINT messages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_broadcast_id_fkey FOREIGN KEY (tenant_id, broadcast_id) REFERENCES comms.broadcasts (tenant_id, id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_template_id_fkey FOREIGN KEY (tenant_id, template_id) REFERENCES comms.templates (tenant_id, id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_sender_identity_id_fkey FOREIGN KEY (tenant_id, sender_identity_id) REFERENCES comms.sender_identities (tenant_id, id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_order_id_fkey FOREIGN KEY (tenant_id, order_id) REFERENCES orders.orders (tenant_id, id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE comms.messages ADD CONSTRAINT messages_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
CREATE INDEX messages_tenant_id_broadcast_id_idx ON comms.messages (tenant_id, broadcast_id);
CREATE INDEX messages_tenant_id_contact_id_idx ON comms.messages (tenant_id, contact_id);
CREATE INDEX messages_tenant_id_queued_at_idx ON comms.messages (tenant_id, queued_at);

-- ---------------------------------------------------------------- message_events
ALTER TABLE comms.message_events ADD CONSTRAINT message_events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.message_events ADD CONSTRAINT message_events_message_id_fkey FOREIGN KEY (tenant_id, message_id) REFERENCES comms.messages (tenant_id, id);
ALTER TABLE comms.message_events ADD CONSTRAINT message_events_tracking_link_id_fkey FOREIGN KEY (tenant_id, tracking_link_id) REFERENCES marketing.tracking_links (tenant_id, id);
CREATE INDEX message_events_tenant_id_message_id_idx ON comms.message_events (tenant_id, message_id);
CREATE INDEX message_events_tenant_id_occurred_at_idx ON comms.message_events (tenant_id, occurred_at);

-- ---------------------------------------------------------------- suppressions
ALTER TABLE comms.suppressions ADD CONSTRAINT suppressions_tenant_id_address_key UNIQUE (tenant_id, address);
ALTER TABLE comms.suppressions ADD CONSTRAINT suppressions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.suppressions ADD CONSTRAINT suppressions_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE comms.suppressions ADD CONSTRAINT suppressions_source_message_id_fkey FOREIGN KEY (tenant_id, source_message_id) REFERENCES comms.messages (tenant_id, id);

-- ---------------------------------------------------------------- notification_preferences
ALTER TABLE comms.notification_preferences ADD CONSTRAINT notification_preferences_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.notification_preferences ADD CONSTRAINT notification_preferences_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE comms.notification_preferences ADD CONSTRAINT notification_preferences_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
CREATE INDEX notification_preferences_tenant_id_contact_id_idx ON comms.notification_preferences (tenant_id, contact_id);

-- ---------------------------------------------------------------- notifications
ALTER TABLE comms.notifications ADD CONSTRAINT notifications_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.notifications ADD CONSTRAINT notifications_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE comms.notifications ADD CONSTRAINT notifications_actor_user_id_fkey FOREIGN KEY (tenant_id, actor_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE comms.notifications ADD CONSTRAINT notifications_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
CREATE INDEX notifications_tenant_id_user_id_idx ON comms.notifications (tenant_id, user_id);

-- ---------------------------------------------------------------- push_tokens
ALTER TABLE comms.push_tokens ADD CONSTRAINT push_tokens_tenant_id_token_key UNIQUE (tenant_id, token);
ALTER TABLE comms.push_tokens ADD CONSTRAINT push_tokens_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.push_tokens ADD CONSTRAINT push_tokens_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE comms.push_tokens ADD CONSTRAINT push_tokens_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
CREATE INDEX push_tokens_tenant_id_contact_id_idx ON comms.push_tokens (tenant_id, contact_id);

-- ---------------------------------------------------------------- phone_numbers
ALTER TABLE comms.phone_numbers ADD CONSTRAINT phone_numbers_tenant_id_e164_key UNIQUE (tenant_id, e164);
ALTER TABLE comms.phone_numbers ADD CONSTRAINT phone_numbers_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.phone_numbers ADD CONSTRAINT phone_numbers_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);
ALTER TABLE comms.phone_numbers ADD CONSTRAINT phone_numbers_currency_code_fkey FOREIGN KEY (currency_code) REFERENCES tenancy.currencies (code);
ALTER TABLE comms.phone_numbers ADD CONSTRAINT phone_numbers_assigned_queue_id_fkey FOREIGN KEY (tenant_id, assigned_queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE comms.phone_numbers ADD CONSTRAINT phone_numbers_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- ---------------------------------------------------------------- conversations
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_account_id_fkey FOREIGN KEY (tenant_id, account_id) REFERENCES crm.accounts (tenant_id, id);
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_queue_id_fkey FOREIGN KEY (tenant_id, queue_id) REFERENCES support.queues (tenant_id, id);
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_assigned_user_id_fkey FOREIGN KEY (tenant_id, assigned_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_case_id_fkey FOREIGN KEY (tenant_id, case_id) REFERENCES support.cases (tenant_id, id);
ALTER TABLE comms.conversations ADD CONSTRAINT conversations_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
CREATE INDEX conversations_tenant_id_started_at_idx ON comms.conversations (tenant_id, started_at);
CREATE INDEX conversations_tenant_id_contact_id_idx ON comms.conversations (tenant_id, contact_id);

-- ---------------------------------------------------------------- conversation_participants
ALTER TABLE comms.conversation_participants ADD CONSTRAINT conversation_participants_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.conversation_participants ADD CONSTRAINT conversation_participants_conversation_id_fkey FOREIGN KEY (tenant_id, conversation_id) REFERENCES comms.conversations (tenant_id, id);
ALTER TABLE comms.conversation_participants ADD CONSTRAINT conversation_participants_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE comms.conversation_participants ADD CONSTRAINT conversation_participants_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
CREATE INDEX conversation_participants_tenant_id_conversation_id_idx ON comms.conversation_participants (tenant_id, conversation_id);

-- ---------------------------------------------------------------- chat_messages
ALTER TABLE comms.chat_messages ADD CONSTRAINT chat_messages_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.chat_messages ADD CONSTRAINT chat_messages_conversation_id_fkey FOREIGN KEY (tenant_id, conversation_id) REFERENCES comms.conversations (tenant_id, id);
ALTER TABLE comms.chat_messages ADD CONSTRAINT chat_messages_author_user_id_fkey FOREIGN KEY (tenant_id, author_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE comms.chat_messages ADD CONSTRAINT chat_messages_author_contact_id_fkey FOREIGN KEY (tenant_id, author_contact_id) REFERENCES crm.contacts (tenant_id, id);
CREATE INDEX chat_messages_tenant_id_conversation_id_idx ON comms.chat_messages (tenant_id, conversation_id);
CREATE INDEX chat_messages_tenant_id_sent_at_idx ON comms.chat_messages (tenant_id, sent_at);

-- ---------------------------------------------------------------- unsubscribes
ALTER TABLE comms.unsubscribes ADD CONSTRAINT unsubscribes_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE comms.unsubscribes ADD CONSTRAINT unsubscribes_contact_id_fkey FOREIGN KEY (tenant_id, contact_id) REFERENCES crm.contacts (tenant_id, id);
ALTER TABLE comms.unsubscribes ADD CONSTRAINT unsubscribes_message_id_fkey FOREIGN KEY (tenant_id, message_id) REFERENCES comms.messages (tenant_id, id);
ALTER TABLE comms.unsubscribes ADD CONSTRAINT unsubscribes_broadcast_id_fkey FOREIGN KEY (tenant_id, broadcast_id) REFERENCES comms.broadcasts (tenant_id, id);
CREATE INDEX unsubscribes_tenant_id_contact_id_idx ON comms.unsubscribes (tenant_id, contact_id);

-- heron schema, phase 1, domain 12 comms: messages to customers.
-- Sender identities and templates, one-to-many broadcasts, every outbound e-mail / SMS / push
-- message and its delivery events, suppression lists, unsubscribes and notification preferences,
-- device push tokens and SMS numbers, in-app notifications to staff, and live chat.

CREATE TYPE comms.template_kind AS ENUM ('transactional', 'marketing', 'system');
COMMENT ON TYPE comms.template_kind IS 'Whether a template is used for transactional, marketing or system messages.';
CREATE TYPE comms.broadcast_status AS ENUM ('draft', 'scheduled', 'sending', 'sent', 'cancelled', 'failed');
COMMENT ON TYPE comms.broadcast_status IS 'Lifecycle state of a broadcast (bulk send).';
CREATE TYPE comms.message_status AS ENUM ('queued', 'sent', 'delivered', 'bounced', 'failed');
COMMENT ON TYPE comms.message_status IS 'Delivery state of one outbound message.';
CREATE TYPE comms.message_event_type AS ENUM ('delivered', 'opened', 'clicked', 'bounced', 'complained', 'unsubscribed');
COMMENT ON TYPE comms.message_event_type IS 'Kind of engagement or delivery event reported for a message.';
CREATE TYPE comms.suppression_reason AS ENUM ('hard_bounce', 'complaint', 'unsubscribed', 'invalid_address', 'manual', 'legal_request');
COMMENT ON TYPE comms.suppression_reason IS 'Why an address was put on the suppression list.';
CREATE TYPE comms.notification_frequency AS ENUM ('immediate', 'daily_digest', 'weekly_digest');
COMMENT ON TYPE comms.notification_frequency IS 'How often notifications of a topic are delivered.';
CREATE TYPE comms.notification_kind AS ENUM ('mention', 'assignment', 'approval_request', 'reminder', 'system_alert', 'report_ready');
COMMENT ON TYPE comms.notification_kind IS 'Kind of in-app notification shown to a staff user.';
CREATE TYPE comms.push_platform AS ENUM ('ios', 'android', 'web');
COMMENT ON TYPE comms.push_platform IS 'Platform a push token was issued for.';
CREATE TYPE comms.phone_number_type AS ENUM ('local', 'mobile', 'toll_free', 'short_code');
COMMENT ON TYPE comms.phone_number_type IS 'Kind of telephone number rented for SMS and voice.';
CREATE TYPE comms.phone_number_status AS ENUM ('provisioning', 'active', 'suspended', 'released');
COMMENT ON TYPE comms.phone_number_status IS 'Provisioning state of a rented phone number.';
CREATE TYPE comms.conversation_channel AS ENUM ('web_chat', 'in_app', 'whatsapp', 'sms', 'messenger');
COMMENT ON TYPE comms.conversation_channel IS 'Channel a live-chat conversation takes place on.';
CREATE TYPE comms.conversation_status AS ENUM ('open', 'pending', 'snoozed', 'closed');
COMMENT ON TYPE comms.conversation_status IS 'State of a live-chat conversation.';
CREATE TYPE comms.participant_role AS ENUM ('customer', 'agent', 'observer', 'bot');
COMMENT ON TYPE comms.participant_role IS 'Role a participant plays in a chat conversation.';
CREATE TYPE comms.unsubscribe_reason AS ENUM ('too_frequent', 'not_relevant', 'never_signed_up', 'privacy_concern', 'other');
COMMENT ON TYPE comms.unsubscribe_reason IS 'Reason a recipient gave for unsubscribing.';

-- ---------------------------------------------------------------- sender_identities
CREATE TABLE comms.sender_identities (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    workspace_id bigint,
    channel shared.message_channel NOT NULL,
    display_name text NOT NULL,
    from_email text,
    reply_to_email text,
    phone_number_id bigint,
    sending_domain text,
    is_verified boolean NOT NULL DEFAULT false,
    verified_at timestamptz,
    is_default boolean NOT NULL DEFAULT false,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE comms.sender_identities IS 'Sender identities (from-addresses, sender names, SMS sender ids) that outbound messages are sent as, with their verification state. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN comms.sender_identities.workspace_id IS 'Brand the sender belongs to; NULL = shared by all brands of the tenant.';
COMMENT ON COLUMN comms.sender_identities.channel IS 'Channel the identity sends on: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN comms.sender_identities.display_name IS 'Sender name recipients see, e.g. "Acme Wholesale".';
COMMENT ON COLUMN comms.sender_identities.from_email IS 'From e-mail address, e.g. orders@acme.com; NULL for non-e-mail channels.';
COMMENT ON COLUMN comms.sender_identities.reply_to_email IS 'Reply-to address; NULL = replies go to from_email.';
COMMENT ON COLUMN comms.sender_identities.phone_number_id IS 'Rented number SMS and WhatsApp messages are sent from; NULL for e-mail and push identities.';
COMMENT ON COLUMN comms.sender_identities.sending_domain IS 'Domain authenticated with SPF/DKIM for e-mail, e.g. mail.acme.com; NULL for non-e-mail channels.';
COMMENT ON COLUMN comms.sender_identities.is_verified IS 'Whether ownership of the address, domain or number has been verified; unverified identities cannot send.';
COMMENT ON COLUMN comms.sender_identities.verified_at IS 'When verification succeeded; NULL = not verified.';
COMMENT ON COLUMN comms.sender_identities.is_default IS 'Whether this is the default sender for its channel.';
COMMENT ON COLUMN comms.sender_identities.created_by_user_id IS 'Staff member who added the identity.';
COMMENT ON COLUMN comms.sender_identities.deleted_at IS 'When the identity was deleted; NULL = live.';

-- ---------------------------------------------------------------- templates
CREATE TABLE comms.templates (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code varchar(64) NOT NULL,
    name text NOT NULL,
    channel shared.message_channel NOT NULL,
    kind comms.template_kind NOT NULL,
    language_code char(2) NOT NULL,
    sender_identity_id bigint,
    subject text,
    body text NOT NULL,
    variables text[] NOT NULL DEFAULT '{}',
    version integer NOT NULL DEFAULT 1,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    updated_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT templates_version_check CHECK (version > 0)
);
COMMENT ON TABLE comms.templates IS 'Message templates (e-mail templates, SMS texts, push copy) with placeholders, used by broadcasts and transactional messages such as order confirmations. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN comms.templates.code IS 'Stable template key, unique per tenant, e.g. order_confirmation_en or newsletter_2024_05.';
COMMENT ON COLUMN comms.templates.name IS 'Display name of the template.';
COMMENT ON COLUMN comms.templates.channel IS 'Channel the template is written for: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN comms.templates.kind IS 'Use: transactional (order, invoice, password mails), marketing or system.';
COMMENT ON COLUMN comms.templates.language_code IS 'ISO 639-1 language of the template text.';
COMMENT ON COLUMN comms.templates.sender_identity_id IS 'Sender the template sends as; NULL = the channel''s default sender identity.';
COMMENT ON COLUMN comms.templates.subject IS 'Subject line (may contain placeholders); NULL for SMS and push templates.';
COMMENT ON COLUMN comms.templates.body IS 'Template body (HTML or plain text) with {{placeholders}}.';
COMMENT ON COLUMN comms.templates.variables IS 'Placeholder names the body expects, e.g. {first_name,order_number}.';
COMMENT ON COLUMN comms.templates.version IS 'Revision number, incremented on each published edit.';
COMMENT ON COLUMN comms.templates.is_active IS 'Whether the template can be used for new sends.';
COMMENT ON COLUMN comms.templates.created_by_user_id IS 'Staff member who created the template.';
COMMENT ON COLUMN comms.templates.updated_by_user_id IS 'Staff member who last edited the template (the creator until first edit).';
COMMENT ON COLUMN comms.templates.deleted_at IS 'When the template was deleted; NULL = live.';

-- ---------------------------------------------------------------- broadcasts
CREATE TABLE comms.broadcasts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    channel shared.message_channel NOT NULL,
    campaign_id bigint,
    template_id bigint NOT NULL,
    audience_id bigint,
    sender_identity_id bigint NOT NULL,
    status comms.broadcast_status NOT NULL DEFAULT 'draft',
    scheduled_at timestamptz,
    sent_at timestamptz,
    recipient_count integer NOT NULL DEFAULT 0,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT broadcasts_recipient_count_check CHECK (recipient_count >= 0)
);
COMMENT ON TABLE comms.broadcasts IS 'Broadcasts (bulk sends, e-mail blasts, newsletters, SMS campaigns): one-to-many sends of a template to an audience. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN comms.broadcasts.name IS 'Internal name of the send, e.g. "May newsletter - EU".';
COMMENT ON COLUMN comms.broadcasts.channel IS 'Channel of the send: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN comms.broadcasts.campaign_id IS 'Marketing campaign the send belongs to; NULL = standalone send not part of a campaign (e.g. service announcement).';
COMMENT ON COLUMN comms.broadcasts.template_id IS 'Template rendered for every recipient.';
COMMENT ON COLUMN comms.broadcasts.audience_id IS 'Audience sent to; NULL = sent to an ad-hoc uploaded list rather than a saved audience.';
COMMENT ON COLUMN comms.broadcasts.sender_identity_id IS 'Sender identity the messages go out as.';
COMMENT ON COLUMN comms.broadcasts.status IS 'Lifecycle state: draft, scheduled, sending, sent, cancelled or failed.';
COMMENT ON COLUMN comms.broadcasts.scheduled_at IS 'When the send is scheduled to start; NULL = not scheduled (draft or sent immediately).';
COMMENT ON COLUMN comms.broadcasts.sent_at IS 'When sending actually started; NULL = not sent yet.';
COMMENT ON COLUMN comms.broadcasts.recipient_count IS 'Number of recipients messages were generated for (after suppressions).';
COMMENT ON COLUMN comms.broadcasts.created_by_user_id IS 'Staff member who created the send.';
COMMENT ON COLUMN comms.broadcasts.deleted_at IS 'When the broadcast was deleted; NULL = live.';

-- ---------------------------------------------------------------- messages
CREATE TABLE comms.messages (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    channel shared.message_channel NOT NULL,
    broadcast_id bigint,
    template_id bigint,
    sender_identity_id bigint NOT NULL,
    contact_id bigint,
    order_id bigint,
    case_id bigint,
    to_address text NOT NULL,
    subject text,
    status comms.message_status NOT NULL DEFAULT 'queued',
    queued_at timestamptz NOT NULL,
    sent_at timestamptz,
    provider text NOT NULL,
    provider_message_id text,
    provider_fee numeric(14,4) NOT NULL DEFAULT 0,
    currency_code char(3) NOT NULL,
    error_message text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT messages_sent_at_check CHECK (sent_at IS NULL OR sent_at >= queued_at),
    CONSTRAINT messages_provider_fee_check CHECK (provider_fee >= 0)
);
COMMENT ON TABLE comms.messages IS 'Every outbound message (e-mail, SMS, push, WhatsApp) sent to a recipient, whether part of a broadcast or transactional (order confirmations, shipping notices, ticket replies).';
COMMENT ON COLUMN comms.messages.channel IS 'Channel the message was sent on: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN comms.messages.broadcast_id IS 'Broadcast that generated the message; NULL = transactional message sent one-to-one.';
COMMENT ON COLUMN comms.messages.template_id IS 'Template the message was rendered from; NULL = free-text message written by staff.';
COMMENT ON COLUMN comms.messages.sender_identity_id IS 'Sender identity the message went out as.';
COMMENT ON COLUMN comms.messages.contact_id IS 'Contact the message was sent to; NULL = recipient address not linked to a contact (e.g. guest checkout).';
COMMENT ON COLUMN comms.messages.order_id IS 'Order the message is about (confirmation, shipping notice); NULL = not about an order.';
COMMENT ON COLUMN comms.messages.case_id IS 'Support ticket the message is about; NULL = not a help-desk message.';
COMMENT ON COLUMN comms.messages.to_address IS 'Recipient address: e-mail address, E.164 phone number or push token reference.';
COMMENT ON COLUMN comms.messages.subject IS 'Rendered subject line; NULL for SMS and push.';
COMMENT ON COLUMN comms.messages.status IS 'Delivery state: queued, sent, delivered, bounced or failed.';
COMMENT ON COLUMN comms.messages.queued_at IS 'When the message was queued for sending.';
COMMENT ON COLUMN comms.messages.sent_at IS 'When the message was handed to the provider; NULL = still queued or failed before hand-off.';
COMMENT ON COLUMN comms.messages.provider IS 'Delivery provider used, e.g. sendgrid, ses, twilio, fcm, apns.';
COMMENT ON COLUMN comms.messages.provider_message_id IS 'Message id assigned by the provider; NULL until handed off.';
COMMENT ON COLUMN comms.messages.provider_fee IS 'Price the provider charged for this message, in currency_code (fractions of a cent for e-mail, a few cents per SMS segment).';
COMMENT ON COLUMN comms.messages.currency_code IS 'ISO 4217 currency of provider_fee.';
COMMENT ON COLUMN comms.messages.error_message IS 'Provider error text for failed or bounced messages; NULL otherwise.';

-- ---------------------------------------------------------------- message_events
CREATE TABLE comms.message_events (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    message_id bigint NOT NULL,
    event_type comms.message_event_type NOT NULL,
    occurred_at timestamptz NOT NULL,
    url text,
    tracking_link_id bigint,
    user_agent text,
    ip inet,
    bounce_type text,
    provider_event_id text,
    payload jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT message_events_bounce_type_check CHECK (bounce_type IN ('hard', 'soft'))
);
COMMENT ON TABLE comms.message_events IS 'Delivery and engagement events of messages reported by providers: deliveries, opens, clicks, bounces, spam complaints and unsubscribes.';
COMMENT ON COLUMN comms.message_events.message_id IS 'Message the event is about.';
COMMENT ON COLUMN comms.message_events.event_type IS 'Event: delivered, opened, clicked, bounced, complained or unsubscribed.';
COMMENT ON COLUMN comms.message_events.occurred_at IS 'When the event happened, as reported by the provider.';
COMMENT ON COLUMN comms.message_events.url IS 'Link that was clicked; NULL for events other than clicked.';
COMMENT ON COLUMN comms.message_events.tracking_link_id IS 'Marketing tracking link that was clicked; NULL = not a click, or the clicked URL was not a tracked link.';
COMMENT ON COLUMN comms.message_events.user_agent IS 'User agent of the opening or clicking client; NULL when not reported.';
COMMENT ON COLUMN comms.message_events.ip IS 'IP address of the opening or clicking client; NULL when not reported.';
COMMENT ON COLUMN comms.message_events.bounce_type IS 'hard (permanent) or soft (temporary) for bounced events; NULL for other events.';
COMMENT ON COLUMN comms.message_events.provider_event_id IS 'Event id from the provider webhook, for de-duplication; NULL if the provider sends none.';
COMMENT ON COLUMN comms.message_events.payload IS 'Raw provider webhook payload as JSON; NULL if not retained.';

-- ---------------------------------------------------------------- suppressions
CREATE TABLE comms.suppressions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    address text NOT NULL,
    channel shared.message_channel NOT NULL,
    reason comms.suppression_reason NOT NULL,
    contact_id bigint,
    source_message_id bigint,
    suppressed_at timestamptz NOT NULL,
    expires_at timestamptz,
    note text,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT suppressions_expires_at_check CHECK (expires_at IS NULL OR expires_at >= suppressed_at)
);
COMMENT ON TABLE comms.suppressions IS 'Suppression list (do-not-contact list, block list): e-mail addresses and phone numbers that must not be sent to, e.g. after hard bounces or spam complaints.';
COMMENT ON COLUMN comms.suppressions.address IS 'Suppressed e-mail address or E.164 phone number, unique per tenant.';
COMMENT ON COLUMN comms.suppressions.channel IS 'Channel the address belongs to: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN comms.suppressions.reason IS 'Why it is suppressed: hard_bounce, complaint, unsubscribed, invalid_address, manual or legal_request.';
COMMENT ON COLUMN comms.suppressions.contact_id IS 'Contact owning the address; NULL = address not matched to any contact.';
COMMENT ON COLUMN comms.suppressions.source_message_id IS 'Message whose bounce or complaint caused the suppression; NULL = not caused by a message (manual entry, import, legal request).';
COMMENT ON COLUMN comms.suppressions.suppressed_at IS 'When the address was suppressed.';
COMMENT ON COLUMN comms.suppressions.expires_at IS 'When the suppression lapses (typical for soft bounces); NULL = permanent.';
COMMENT ON COLUMN comms.suppressions.note IS 'Staff note on a manual suppression; NULL if none.';
COMMENT ON COLUMN comms.suppressions.is_active IS 'Whether the suppression is in force (false = lifted by staff).';

-- ---------------------------------------------------------------- notification_preferences
CREATE TABLE comms.notification_preferences (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    channel shared.message_channel NOT NULL,
    topic text NOT NULL,
    is_enabled boolean NOT NULL DEFAULT true,
    frequency comms.notification_frequency NOT NULL DEFAULT 'immediate',
    language_code char(2) NOT NULL,
    changed_via text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE comms.notification_preferences IS 'Per-contact communication preferences (preference-centre settings): which topics a contact wants to receive on which channel, how often and in which language.';
COMMENT ON COLUMN comms.notification_preferences.contact_id IS 'Contact the preference belongs to.';
COMMENT ON COLUMN comms.notification_preferences.channel IS 'Channel the preference applies to: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN comms.notification_preferences.topic IS 'Message topic, e.g. order_updates, shipping, invoices, newsletter, promotions, product_news.';
COMMENT ON COLUMN comms.notification_preferences.is_enabled IS 'Whether the contact wants messages of this topic on this channel.';
COMMENT ON COLUMN comms.notification_preferences.frequency IS 'Delivery cadence: immediate, daily_digest or weekly_digest.';
COMMENT ON COLUMN comms.notification_preferences.language_code IS 'ISO 639-1 language the contact wants these messages in.';
COMMENT ON COLUMN comms.notification_preferences.changed_via IS 'Where the preference was last set, e.g. preference_center, account_settings, staff, api, import.';

-- ---------------------------------------------------------------- notifications
CREATE TABLE comms.notifications (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    kind comms.notification_kind NOT NULL,
    title text NOT NULL,
    body text,
    link_url text,
    priority text NOT NULL DEFAULT 'normal',
    actor_user_id bigint,
    case_id bigint,
    read_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT notifications_read_at_check CHECK (read_at IS NULL OR read_at >= created_at),
    CONSTRAINT notifications_priority_check CHECK (priority IN ('low', 'normal', 'high'))
);
COMMENT ON TABLE comms.notifications IS 'In-app notifications (bell alerts, inbox items) shown to staff users in the back office, e.g. "You were assigned ticket #123". Rows are soft-deleted: deleted_at is set when the user dismisses the notification instead of removing the row.';
COMMENT ON COLUMN comms.notifications.user_id IS 'Staff user the notification is for.';
COMMENT ON COLUMN comms.notifications.kind IS 'Kind: mention, assignment, approval_request, reminder, system_alert or report_ready.';
COMMENT ON COLUMN comms.notifications.title IS 'Short headline shown in the notification list.';
COMMENT ON COLUMN comms.notifications.body IS 'Longer text; NULL when the title says it all.';
COMMENT ON COLUMN comms.notifications.link_url IS 'Back-office page the notification opens; NULL = no link.';
COMMENT ON COLUMN comms.notifications.priority IS 'Display priority: low, normal or high.';
COMMENT ON COLUMN comms.notifications.actor_user_id IS 'Staff user whose action triggered the notification; NULL = generated by the system.';
COMMENT ON COLUMN comms.notifications.case_id IS 'Support ticket the notification is about; NULL = not about a ticket.';
COMMENT ON COLUMN comms.notifications.read_at IS 'When the user read the notification; NULL = unread.';
COMMENT ON COLUMN comms.notifications.deleted_at IS 'When the user dismissed (deleted) the notification; NULL = still in the inbox.';

-- ---------------------------------------------------------------- push_tokens
CREATE TABLE comms.push_tokens (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    token text NOT NULL,
    platform comms.push_platform NOT NULL,
    app_version text,
    device_model text,
    language_code char(2) NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    registered_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT push_tokens_last_seen_at_check CHECK (last_seen_at >= registered_at),
    CONSTRAINT push_tokens_revoked_at_check CHECK (revoked_at IS NULL OR revoked_at >= registered_at)
);
COMMENT ON TABLE comms.push_tokens IS 'Device push tokens (APNs / FCM / web-push registrations) of contacts using the tenant''s mobile or web app, used to send push notifications.';
COMMENT ON COLUMN comms.push_tokens.contact_id IS 'Contact signed in on the device.';
COMMENT ON COLUMN comms.push_tokens.token IS 'Device token issued by the push service, unique per tenant.';
COMMENT ON COLUMN comms.push_tokens.platform IS 'Platform: ios, android or web.';
COMMENT ON COLUMN comms.push_tokens.app_version IS 'App version that registered the token, e.g. 4.2.1; NULL for web push.';
COMMENT ON COLUMN comms.push_tokens.device_model IS 'Device model, e.g. iPhone15,2; NULL if not reported.';
COMMENT ON COLUMN comms.push_tokens.language_code IS 'ISO 639-1 language of the device, used to localise pushes.';
COMMENT ON COLUMN comms.push_tokens.is_active IS 'Whether pushes are still sent to the token (false after uninstall or rejection).';
COMMENT ON COLUMN comms.push_tokens.registered_at IS 'When the token was first registered.';
COMMENT ON COLUMN comms.push_tokens.last_seen_at IS 'When the app last reported the token.';
COMMENT ON COLUMN comms.push_tokens.revoked_at IS 'When the push service reported the token invalid or the user opted out; NULL = still valid.';

-- ---------------------------------------------------------------- phone_numbers
CREATE TABLE comms.phone_numbers (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    e164 varchar(16) NOT NULL,
    country_code char(2) NOT NULL,
    number_type comms.phone_number_type NOT NULL,
    capabilities text[] NOT NULL DEFAULT '{}',
    status comms.phone_number_status NOT NULL DEFAULT 'provisioning',
    provider text NOT NULL,
    provider_number_id text,
    monthly_fee numeric(14,2) NOT NULL,
    currency_code char(3) NOT NULL,
    assigned_queue_id bigint,
    purchased_at timestamptz NOT NULL,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT phone_numbers_monthly_fee_check CHECK (monthly_fee >= 0)
);
COMMENT ON TABLE comms.phone_numbers IS 'Phone numbers (SMS numbers, short codes, virtual numbers) the tenant rents from a telecom provider to send and receive SMS. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN comms.phone_numbers.e164 IS 'Number in E.164 format, e.g. +14155550123, unique per tenant.';
COMMENT ON COLUMN comms.phone_numbers.country_code IS 'ISO 3166-1 alpha-2 country the number belongs to.';
COMMENT ON COLUMN comms.phone_numbers.number_type IS 'Kind of number: local, mobile, toll_free or short_code.';
COMMENT ON COLUMN comms.phone_numbers.capabilities IS 'What the number supports, e.g. {sms,mms,voice,whatsapp}.';
COMMENT ON COLUMN comms.phone_numbers.status IS 'State: provisioning, active, suspended or released.';
COMMENT ON COLUMN comms.phone_numbers.provider IS 'Telecom provider renting the number, e.g. twilio, vonage, messagebird.';
COMMENT ON COLUMN comms.phone_numbers.provider_number_id IS 'Id of the number at the provider; NULL while provisioning.';
COMMENT ON COLUMN comms.phone_numbers.monthly_fee IS 'Monthly rental charged by the provider, in currency_code.';
COMMENT ON COLUMN comms.phone_numbers.currency_code IS 'ISO 4217 currency of monthly_fee.';
COMMENT ON COLUMN comms.phone_numbers.assigned_queue_id IS 'Help-desk queue inbound SMS are routed to; NULL = inbound messages not routed to support.';
COMMENT ON COLUMN comms.phone_numbers.purchased_at IS 'When the number was rented.';
COMMENT ON COLUMN comms.phone_numbers.created_by_user_id IS 'Staff member who rented the number.';
COMMENT ON COLUMN comms.phone_numbers.deleted_at IS 'When the number was removed from the tenant; NULL = live.';

-- ---------------------------------------------------------------- conversations
CREATE TABLE comms.conversations (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    channel comms.conversation_channel NOT NULL,
    contact_id bigint,
    account_id bigint,
    queue_id bigint NOT NULL,
    assigned_user_id bigint,
    case_id bigint,
    language_code char(2) NOT NULL,
    status comms.conversation_status NOT NULL DEFAULT 'open',
    subject text,
    started_at timestamptz NOT NULL,
    first_response_at timestamptz,
    ended_at timestamptz,
    message_count integer NOT NULL DEFAULT 0,
    rating smallint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT conversations_ended_at_check CHECK (ended_at IS NULL OR ended_at >= started_at),
    CONSTRAINT conversations_first_response_at_check CHECK (first_response_at IS NULL OR first_response_at >= started_at),
    CONSTRAINT conversations_rating_check CHECK (rating BETWEEN 1 AND 5)
);
COMMENT ON TABLE comms.conversations IS 'Live-chat conversations (chat threads, chat sessions) between storefront visitors or customers and the tenant''s agents.';
COMMENT ON COLUMN comms.conversations.channel IS 'Where the chat happens: web_chat, in_app, whatsapp, sms or messenger.';
COMMENT ON COLUMN comms.conversations.contact_id IS 'Contact chatting; NULL = anonymous visitor who was not identified.';
COMMENT ON COLUMN comms.conversations.account_id IS 'Customer account of the contact; NULL = visitor not linked to a customer account.';
COMMENT ON COLUMN comms.conversations.queue_id IS 'Help-desk queue the chat was routed to.';
COMMENT ON COLUMN comms.conversations.assigned_user_id IS 'Agent currently handling the chat; NULL = unassigned (waiting in the queue or handled by a bot).';
COMMENT ON COLUMN comms.conversations.case_id IS 'Support ticket created from the chat; NULL = chat resolved without a ticket.';
COMMENT ON COLUMN comms.conversations.language_code IS 'ISO 639-1 language the chat is held in.';
COMMENT ON COLUMN comms.conversations.status IS 'State: open, pending (waiting on customer), snoozed or closed.';
COMMENT ON COLUMN comms.conversations.subject IS 'Topic chosen or typed at the start; NULL if none.';
COMMENT ON COLUMN comms.conversations.started_at IS 'When the first message of the chat was sent.';
COMMENT ON COLUMN comms.conversations.first_response_at IS 'When an agent first replied; NULL = no agent reply yet.';
COMMENT ON COLUMN comms.conversations.ended_at IS 'When the chat was closed; NULL = still open.';
COMMENT ON COLUMN comms.conversations.message_count IS 'Number of chat messages exchanged (cached).';
COMMENT ON COLUMN comms.conversations.rating IS 'Post-chat satisfaction rating from 1 (poor) to 5 (great); NULL = not rated.';

-- ---------------------------------------------------------------- conversation_participants
CREATE TABLE comms.conversation_participants (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    conversation_id bigint NOT NULL,
    role comms.participant_role NOT NULL,
    user_id bigint,
    contact_id bigint,
    joined_at timestamptz NOT NULL,
    left_at timestamptz,
    last_read_at timestamptz,
    is_muted boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT conversation_participants_left_at_check CHECK (left_at IS NULL OR left_at >= joined_at)
);
COMMENT ON TABLE comms.conversation_participants IS 'Participants of a live chat: the customers, agents, observers and bots taking part, and when they joined and left.';
COMMENT ON COLUMN comms.conversation_participants.conversation_id IS 'Chat conversation taken part in.';
COMMENT ON COLUMN comms.conversation_participants.role IS 'Role: customer, agent, observer or bot.';
COMMENT ON COLUMN comms.conversation_participants.user_id IS 'Staff user taking part; NULL = the participant is a contact or a bot.';
COMMENT ON COLUMN comms.conversation_participants.contact_id IS 'Contact taking part; NULL = the participant is staff or a bot.';
COMMENT ON COLUMN comms.conversation_participants.joined_at IS 'When the participant joined the chat.';
COMMENT ON COLUMN comms.conversation_participants.left_at IS 'When the participant left or was transferred away; NULL = still in the chat.';
COMMENT ON COLUMN comms.conversation_participants.last_read_at IS 'Read marker: time of the last message the participant has seen; NULL = nothing read.';
COMMENT ON COLUMN comms.conversation_participants.is_muted IS 'Whether the participant muted notifications for this chat.';

-- ---------------------------------------------------------------- chat_messages
CREATE TABLE comms.chat_messages (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    conversation_id bigint NOT NULL,
    author_type shared.actor_type NOT NULL,
    author_user_id bigint,
    author_contact_id bigint,
    body text NOT NULL,
    is_internal_note boolean NOT NULL DEFAULT false,
    attachment_count integer NOT NULL DEFAULT 0,
    sent_at timestamptz NOT NULL,
    edited_at timestamptz,
    metadata jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT chat_messages_attachment_count_check CHECK (attachment_count >= 0),
    CONSTRAINT chat_messages_edited_at_check CHECK (edited_at IS NULL OR edited_at >= sent_at)
);
COMMENT ON TABLE comms.chat_messages IS 'Individual live-chat messages (chat lines) posted in a conversation by a customer, an agent or a bot.';
COMMENT ON COLUMN comms.chat_messages.conversation_id IS 'Chat conversation the message belongs to.';
COMMENT ON COLUMN comms.chat_messages.author_type IS 'Kind of author: user (agent), contact (customer), system (bot or automation), api_key or oauth_client (integration).';
COMMENT ON COLUMN comms.chat_messages.author_user_id IS 'Agent who wrote the message; NULL = not written by staff.';
COMMENT ON COLUMN comms.chat_messages.author_contact_id IS 'Customer contact who wrote the message; NULL = not written by a contact (agent, bot, or anonymous visitor).';
COMMENT ON COLUMN comms.chat_messages.body IS 'Message text (plain text or markdown).';
COMMENT ON COLUMN comms.chat_messages.is_internal_note IS 'Whether this is an internal note visible to agents only.';
COMMENT ON COLUMN comms.chat_messages.attachment_count IS 'Number of files attached to the message.';
COMMENT ON COLUMN comms.chat_messages.sent_at IS 'When the message was posted.';
COMMENT ON COLUMN comms.chat_messages.edited_at IS 'When the message was last edited; NULL = never edited.';
COMMENT ON COLUMN comms.chat_messages.metadata IS 'Extra data such as quick-reply buttons or bot intent, as JSON; NULL if none.';

-- ---------------------------------------------------------------- unsubscribes
CREATE TABLE comms.unsubscribes (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    channel shared.message_channel NOT NULL,
    topic text,
    message_id bigint,
    broadcast_id bigint,
    reason comms.unsubscribe_reason,
    reason_comment text,
    method text NOT NULL,
    ip inet,
    unsubscribed_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE comms.unsubscribes IS 'Unsubscribe requests (opt-outs) received from contacts, via the unsubscribe link, a STOP reply, the preference centre or staff.';
COMMENT ON COLUMN comms.unsubscribes.contact_id IS 'Contact who unsubscribed.';
COMMENT ON COLUMN comms.unsubscribes.channel IS 'Channel unsubscribed from: email, sms, push, in_app or whatsapp.';
COMMENT ON COLUMN comms.unsubscribes.topic IS 'Topic unsubscribed from, e.g. newsletter or promotions; NULL = unsubscribed from all marketing on the channel.';
COMMENT ON COLUMN comms.unsubscribes.message_id IS 'Message whose unsubscribe link or reply triggered the request; NULL = not triggered from a message (preference centre, staff).';
COMMENT ON COLUMN comms.unsubscribes.broadcast_id IS 'Broadcast the contact unsubscribed from; NULL = not from a broadcast (transactional message or preference centre).';
COMMENT ON COLUMN comms.unsubscribes.reason IS 'Reason picked: too_frequent, not_relevant, never_signed_up, privacy_concern or other; NULL = no reason given.';
COMMENT ON COLUMN comms.unsubscribes.reason_comment IS 'Free-text comment left by the contact; NULL if none.';
COMMENT ON COLUMN comms.unsubscribes.method IS 'How the request came in, e.g. unsubscribe_link, list_unsubscribe_header, sms_stop_reply, preference_center, staff.';
COMMENT ON COLUMN comms.unsubscribes.ip IS 'IP address the request came from; NULL for SMS replies and staff entries.';
COMMENT ON COLUMN comms.unsubscribes.unsubscribed_at IS 'When the contact unsubscribed.';

-- heron schema, phase 1, domain 10 support: the tenant's help desk for its business customers.
-- Queues, SLA policies and business-hour calendars, agent settings, support tickets (cases) with
-- their conversation, assignments, tags and attachments, SLA breaches, CSAT surveys, escalations
-- and the self-service knowledge base (help centre).

CREATE TYPE support.case_priority AS ENUM ('low', 'normal', 'high', 'urgent');
COMMENT ON TYPE support.case_priority IS 'Urgency of a support ticket (case).';

CREATE TYPE support.case_status AS ENUM ('new', 'open', 'pending', 'on_hold', 'solved', 'closed');
COMMENT ON TYPE support.case_status IS 'Lifecycle state of a support ticket (case).';

CREATE TYPE support.case_channel AS ENUM ('email', 'web', 'chat', 'phone', 'api');
COMMENT ON TYPE support.case_channel IS 'Channel a ticket or ticket message came in through.';

CREATE TYPE support.routing_method AS ENUM ('manual', 'round_robin', 'least_busy', 'skills_based');
COMMENT ON TYPE support.routing_method IS 'How new tickets in a queue are assigned to agents.';

CREATE TYPE support.agent_status AS ENUM ('available', 'busy', 'away', 'offline');
COMMENT ON TYPE support.agent_status IS 'Current availability of a support agent.';

CREATE TYPE support.assignment_reason AS ENUM ('initial_routing', 'manual', 'escalation', 'rebalancing', 'agent_unavailable');
COMMENT ON TYPE support.assignment_reason IS 'Why a ticket was (re)assigned.';

CREATE TYPE support.sla_metric AS ENUM ('first_response', 'next_response', 'resolution');
COMMENT ON TYPE support.sla_metric IS 'SLA target that a breach refers to.';

CREATE TYPE support.escalation_reason AS ENUM ('sla_risk', 'customer_request', 'technical_complexity', 'key_account', 'complaint', 'product_bug');
COMMENT ON TYPE support.escalation_reason IS 'Why a ticket was escalated to a higher tier.';

CREATE TYPE support.escalation_status AS ENUM ('open', 'accepted', 'resolved', 'rejected');
COMMENT ON TYPE support.escalation_status IS 'State of an escalation.';

CREATE TYPE support.kb_article_status AS ENUM ('draft', 'published', 'archived');
COMMENT ON TYPE support.kb_article_status IS 'Publication state of a knowledge-base article.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.queues (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    description text,
    workspace_id bigint,
    team_id bigint NOT NULL,
    default_sla_policy_id bigint NOT NULL,
    business_hours_id bigint NOT NULL,
    language_code char(2) NOT NULL,
    inbound_email text,
    routing_method support.routing_method NOT NULL DEFAULT 'round_robin',
    is_default boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE support.queues IS 'Help-desk queues (inboxes, groups) that support tickets are routed into, e.g. Billing questions, Technical support, Returns. One row per queue. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN support.queues.code IS 'Short code of the queue, unique per tenant, e.g. BILLING, TECH_T1, RETURNS.';
COMMENT ON COLUMN support.queues.name IS 'Display name of the queue shown to agents.';
COMMENT ON COLUMN support.queues.description IS 'What kind of tickets belong in the queue. NULL = none given.';
COMMENT ON COLUMN support.queues.workspace_id IS 'Brand or business unit the queue serves. NULL = shared by all workspaces of the tenant.';
COMMENT ON COLUMN support.queues.team_id IS 'Staff team that works the queue (e.g. Support Tier 1, Billing team).';
COMMENT ON COLUMN support.queues.default_sla_policy_id IS 'SLA policy applied to new tickets in the queue unless a priority- or segment-specific policy matches.';
COMMENT ON COLUMN support.queues.business_hours_id IS 'Working-hour calendar the queue is staffed on.';
COMMENT ON COLUMN support.queues.language_code IS 'Language the queue answers in (ISO 639-1), e.g. en, de.';
COMMENT ON COLUMN support.queues.inbound_email IS 'Support address whose e-mails become tickets in this queue, e.g. billing@help.example.com. NULL = no e-mail intake.';
COMMENT ON COLUMN support.queues.routing_method IS 'How tickets are assigned: manual, round_robin, least_busy or skills_based.';
COMMENT ON COLUMN support.queues.is_default IS 'True for the queue that receives tickets no routing rule matched.';
COMMENT ON COLUMN support.queues.is_active IS 'False if the queue no longer accepts new tickets.';
COMMENT ON COLUMN support.queues.created_by_user_id IS 'Staff user (help-desk admin) who created the queue.';
COMMENT ON COLUMN support.queues.deleted_at IS 'When the queue was deleted. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.sla_policies (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    priority support.case_priority NOT NULL,
    first_response_minutes integer NOT NULL,
    next_response_minutes integer,
    resolution_minutes integer NOT NULL,
    business_hours_id bigint NOT NULL,
    account_segment_id bigint,
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT sla_policies_first_response_minutes_check CHECK (first_response_minutes > 0),
    CONSTRAINT sla_policies_resolution_minutes_check CHECK (resolution_minutes > 0)
);
COMMENT ON TABLE support.sla_policies IS 'Service-level agreement (SLA) policies: response and resolution time targets for tickets of one priority, optionally for one customer segment (e.g. Enterprise urgent: first reply in 60 minutes, resolve in 8 hours).';
COMMENT ON COLUMN support.sla_policies.name IS 'Policy name, e.g. Enterprise - Urgent, Standard - Normal.';
COMMENT ON COLUMN support.sla_policies.description IS 'Explanation of the commitment. NULL = none.';
COMMENT ON COLUMN support.sla_policies.priority IS 'Ticket priority the targets apply to: low, normal, high or urgent.';
COMMENT ON COLUMN support.sla_policies.first_response_minutes IS 'Target time from ticket creation to the first public agent reply, in minutes (counted in business hours when business_hours_id is set).';
COMMENT ON COLUMN support.sla_policies.next_response_minutes IS 'Target time to answer each further customer message, in minutes. NULL = no next-reply target.';
COMMENT ON COLUMN support.sla_policies.resolution_minutes IS 'Target time from creation to solved, in minutes.';
COMMENT ON COLUMN support.sla_policies.business_hours_id IS 'Calendar the SLA clock runs on (a 24x7 calendar for round-the-clock targets).';
COMMENT ON COLUMN support.sla_policies.account_segment_id IS 'Customer segment the policy is reserved for (e.g. premium support customers). NULL = applies to all customers.';
COMMENT ON COLUMN support.sla_policies.is_active IS 'False if the policy is no longer applied to new tickets.';
COMMENT ON COLUMN support.sla_policies.created_by_user_id IS 'Staff user who defined the policy.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.business_hours (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    timezone_name text NOT NULL,
    country_code char(2) NOT NULL,
    weekly_schedule jsonb NOT NULL DEFAULT '{}',
    holidays jsonb NOT NULL DEFAULT '[]',
    open_hours_per_week numeric(5,2) NOT NULL,
    is_always_open boolean NOT NULL DEFAULT false,
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE support.business_hours IS 'Working-hour calendars (support hours, schedules) that SLA clocks and queues run on, e.g. "EU office Mon-Fri 08:00-18:00 CET". One row per calendar.';
COMMENT ON COLUMN support.business_hours.name IS 'Calendar name, e.g. US support hours, 24x7.';
COMMENT ON COLUMN support.business_hours.timezone_name IS 'IANA time zone the opening times are expressed in, e.g. Europe/Berlin.';
COMMENT ON COLUMN support.business_hours.country_code IS 'Country whose public holidays close the desk (ISO 3166 alpha-2).';
COMMENT ON COLUMN support.business_hours.weekly_schedule IS 'Opening intervals per weekday as jsonb, e.g. {"mon": [["08:00","18:00"]], "sat": []}.';
COMMENT ON COLUMN support.business_hours.holidays IS 'Extra closed dates as a jsonb array of ISO dates, e.g. ["2024-12-24","2024-12-31"].';
COMMENT ON COLUMN support.business_hours.open_hours_per_week IS 'Hours the desk is staffed per week according to weekly_schedule (168 for 24x7).';
COMMENT ON COLUMN support.business_hours.is_always_open IS 'True for a 24x7 calendar; weekly_schedule is then ignored.';
COMMENT ON COLUMN support.business_hours.is_default IS 'True for the tenant''s default calendar.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.agent_profiles (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    display_name text NOT NULL,
    tier smallint NOT NULL DEFAULT 1,
    status support.agent_status NOT NULL DEFAULT 'offline',
    max_open_cases integer NOT NULL DEFAULT 25,
    team_id bigint NOT NULL,
    default_queue_id bigint NOT NULL,
    business_hours_id bigint NOT NULL,
    timezone_name text NOT NULL,
    language_codes text[] NOT NULL DEFAULT '{}',
    skills text[] NOT NULL DEFAULT '{}',
    signature text,
    can_manage_kb boolean NOT NULL DEFAULT false,
    is_active boolean NOT NULL DEFAULT true,
    last_active_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT agent_profiles_tier_check CHECK (tier BETWEEN 1 AND 3)
);
COMMENT ON TABLE support.agent_profiles IS 'Help-desk settings of a staff user who works as a support agent: tier, capacity, skills, availability. One row per agent (at most one per user).';
COMMENT ON COLUMN support.agent_profiles.user_id IS 'Staff user the profile belongs to.';
COMMENT ON COLUMN support.agent_profiles.display_name IS 'Name shown to customers on replies, e.g. "Anna from Support".';
COMMENT ON COLUMN support.agent_profiles.tier IS 'Support tier / level: 1 = front line, 2 = specialist, 3 = engineering escalation.';
COMMENT ON COLUMN support.agent_profiles.status IS 'Current availability: available, busy, away or offline; routing only assigns to available agents.';
COMMENT ON COLUMN support.agent_profiles.max_open_cases IS 'Capacity: maximum number of unsolved tickets routed to the agent at once.';
COMMENT ON COLUMN support.agent_profiles.team_id IS 'Support team the agent belongs to (e.g. Tier 2 EMEA).';
COMMENT ON COLUMN support.agent_profiles.default_queue_id IS 'Queue the agent works by default.';
COMMENT ON COLUMN support.agent_profiles.business_hours_id IS 'Shift calendar of the agent.';
COMMENT ON COLUMN support.agent_profiles.timezone_name IS 'IANA time zone the agent works in.';
COMMENT ON COLUMN support.agent_profiles.language_codes IS 'ISO 639-1 codes of languages the agent supports, e.g. {en,fr}.';
COMMENT ON COLUMN support.agent_profiles.skills IS 'Skill labels used by skills-based routing, e.g. {billing,api,returns}.';
COMMENT ON COLUMN support.agent_profiles.signature IS 'Text appended to the agent''s replies. NULL = no signature.';
COMMENT ON COLUMN support.agent_profiles.can_manage_kb IS 'True if the agent may write and publish knowledge-base articles.';
COMMENT ON COLUMN support.agent_profiles.is_active IS 'False once the user no longer works tickets.';
COMMENT ON COLUMN support.agent_profiles.last_active_at IS 'Last time the agent acted in the help desk. NULL = never.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.cases (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_number text NOT NULL,
    account_id bigint,
    contact_id bigint,
    requester_email text NOT NULL,
    queue_id bigint NOT NULL,
    assignee_user_id bigint,
    sla_policy_id bigint NOT NULL,
    order_id bigint,
    subscription_id bigint,
    invoice_id bigint,
    parent_case_id bigint,
    language_code char(2) NOT NULL,
    priority support.case_priority NOT NULL DEFAULT 'normal',
    status support.case_status NOT NULL DEFAULT 'new',
    channel support.case_channel NOT NULL,
    subject text NOT NULL,
    description text NOT NULL,
    category text,
    opened_at timestamptz NOT NULL,
    first_response_due_at timestamptz NOT NULL,
    first_response_at timestamptz,
    resolution_due_at timestamptz NOT NULL,
    solved_at timestamptz,
    closed_at timestamptz,
    reopen_count integer NOT NULL DEFAULT 0,
    has_breached_sla boolean NOT NULL DEFAULT false,
    created_by_user_id bigint,
    external_reference text,
    custom_fields jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT cases_first_response_at_check CHECK (first_response_at IS NULL OR first_response_at >= opened_at),
    CONSTRAINT cases_solved_at_check CHECK (solved_at IS NULL OR solved_at >= opened_at)
);
COMMENT ON TABLE support.cases IS 'Support tickets (cases, help-desk requests, issues) raised by customers or on their behalf by staff. One row per ticket with its requester, queue, assignee, priority, status and SLA timestamps. Rows are soft-deleted: deleted_at is set instead of removing the row (spam and test tickets).';
COMMENT ON COLUMN support.cases.case_number IS 'Ticket number shown to the customer, unique per tenant, e.g. CS-104233.';
COMMENT ON COLUMN support.cases.account_id IS 'Customer (crm account) the ticket is about. NULL = ticket from an unknown requester not matched to any customer.';
COMMENT ON COLUMN support.cases.contact_id IS 'Contact who raised the ticket. NULL = requester not matched to a known contact (see requester_email).';
COMMENT ON COLUMN support.cases.requester_email IS 'E-mail address of the requester as received, also for unknown requesters.';
COMMENT ON COLUMN support.cases.queue_id IS 'Queue (group, inbox) the ticket currently sits in.';
COMMENT ON COLUMN support.cases.assignee_user_id IS 'Agent (staff user) currently owning the ticket. NULL = unassigned, waiting in the queue.';
COMMENT ON COLUMN support.cases.sla_policy_id IS 'SLA policy whose targets apply, chosen from queue, priority and customer segment when the ticket is created.';
COMMENT ON COLUMN support.cases.order_id IS 'Order the ticket is about (where is my order, wrong item…). NULL = not about a specific order.';
COMMENT ON COLUMN support.cases.subscription_id IS 'Subscription the ticket is about. NULL = not about a subscription.';
COMMENT ON COLUMN support.cases.invoice_id IS 'Invoice the ticket is about (billing question, dispute of a charge). NULL = not about an invoice.';
COMMENT ON COLUMN support.cases.parent_case_id IS 'Ticket this one was merged into or is a follow-up of. NULL = a standalone ticket.';
COMMENT ON COLUMN support.cases.language_code IS 'Language of the conversation (ISO 639-1).';
COMMENT ON COLUMN support.cases.priority IS 'Urgency: low, normal, high or urgent.';
COMMENT ON COLUMN support.cases.status IS 'new (untouched), open (being worked), pending (waiting on the customer), on_hold (waiting on a third party), solved or closed (solved and locked). Unsolved = new, open, pending, on_hold.';
COMMENT ON COLUMN support.cases.channel IS 'How the ticket came in: email, web (form or portal), chat, phone or api.';
COMMENT ON COLUMN support.cases.subject IS 'Ticket subject line.';
COMMENT ON COLUMN support.cases.description IS 'The requester''s initial message.';
COMMENT ON COLUMN support.cases.category IS 'Open-set topic chosen by the agent or form, e.g. billing, shipping, product_question, technical, account_access. NULL = not categorised.';
COMMENT ON COLUMN support.cases.opened_at IS 'When the ticket was created; the timestamp ticket volume is bucketed by.';
COMMENT ON COLUMN support.cases.first_response_due_at IS 'SLA deadline for the first public reply.';
COMMENT ON COLUMN support.cases.first_response_at IS 'When an agent first replied publicly. NULL = not yet answered.';
COMMENT ON COLUMN support.cases.resolution_due_at IS 'SLA deadline for solving the ticket.';
COMMENT ON COLUMN support.cases.solved_at IS 'When the ticket was (last) marked solved. NULL = not solved.';
COMMENT ON COLUMN support.cases.closed_at IS 'When the ticket was closed and locked. NULL = not closed.';
COMMENT ON COLUMN support.cases.reopen_count IS 'Number of times the requester reopened the ticket after it was solved.';
COMMENT ON COLUMN support.cases.has_breached_sla IS 'True if any SLA target of the ticket was missed (details in sla_breaches).';
COMMENT ON COLUMN support.cases.created_by_user_id IS 'Staff user who logged the ticket on the customer''s behalf (phone call). NULL = created by the requester through the channel.';
COMMENT ON COLUMN support.cases.external_reference IS 'Id of the ticket in an external system (Jira issue key, old help desk). NULL = none.';
COMMENT ON COLUMN support.cases.custom_fields IS 'Tenant-defined ticket fields as jsonb, e.g. {"product_area": "api", "severity": "S2"}.';
COMMENT ON COLUMN support.cases.deleted_at IS 'When the ticket was deleted (spam, test). NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.case_messages (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_id bigint NOT NULL,
    author_type shared.actor_type NOT NULL,
    author_user_id bigint,
    author_contact_id bigint,
    channel support.case_channel NOT NULL,
    is_internal_note boolean NOT NULL DEFAULT false,
    body text NOT NULL,
    body_format text NOT NULL DEFAULT 'text',
    sent_at timestamptz NOT NULL,
    external_message_reference text,
    edited_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT case_messages_body_format_check CHECK (body_format IN ('text', 'html', 'markdown'))
);
COMMENT ON TABLE support.case_messages IS 'The conversation on a support ticket: customer messages, agent replies and internal notes (comments only staff see). One row per message.';
COMMENT ON COLUMN support.case_messages.case_id IS 'Ticket the message belongs to.';
COMMENT ON COLUMN support.case_messages.author_type IS 'Who wrote it: user (agent), contact (customer), api_key, oauth_client or system (automation).';
COMMENT ON COLUMN support.case_messages.author_user_id IS 'Agent who wrote the message. NULL = not written by staff (customer or automation).';
COMMENT ON COLUMN support.case_messages.author_contact_id IS 'Customer contact who wrote the message. NULL = written by staff or automation, or by an unknown requester.';
COMMENT ON COLUMN support.case_messages.channel IS 'Channel the message was sent or received on: email, web, chat, phone (call summary) or api.';
COMMENT ON COLUMN support.case_messages.is_internal_note IS 'True for an internal note visible only to staff; false for a public message the customer sees.';
COMMENT ON COLUMN support.case_messages.body IS 'Message content.';
COMMENT ON COLUMN support.case_messages.body_format IS 'Markup of body: text, html or markdown.';
COMMENT ON COLUMN support.case_messages.sent_at IS 'When the message was sent or received.';
COMMENT ON COLUMN support.case_messages.external_message_reference IS 'E-mail Message-ID or chat message id from the channel. NULL = written in the help desk itself.';
COMMENT ON COLUMN support.case_messages.edited_at IS 'When an internal note was last edited. NULL = never edited.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.case_assignments (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_id bigint NOT NULL,
    assignee_user_id bigint NOT NULL,
    queue_id bigint NOT NULL,
    assigned_by_user_id bigint,
    reason support.assignment_reason NOT NULL,
    assigned_at timestamptz NOT NULL,
    unassigned_at timestamptz,
    is_current boolean NOT NULL DEFAULT true,
    note text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT case_assignments_unassigned_at_check CHECK (unassigned_at IS NULL OR unassigned_at >= assigned_at)
);
COMMENT ON TABLE support.case_assignments IS 'Assignment history of tickets: who owned a ticket, from when until when. One row per assignment of a ticket to an agent; the current owner is also on cases.assignee_user_id.';
COMMENT ON COLUMN support.case_assignments.case_id IS 'Ticket that was assigned.';
COMMENT ON COLUMN support.case_assignments.assignee_user_id IS 'Agent the ticket was assigned to.';
COMMENT ON COLUMN support.case_assignments.queue_id IS 'Queue the ticket was in at the time.';
COMMENT ON COLUMN support.case_assignments.assigned_by_user_id IS 'Staff user who assigned it. NULL = assigned automatically by a routing rule.';
COMMENT ON COLUMN support.case_assignments.reason IS 'initial_routing, manual, escalation, rebalancing or agent_unavailable.';
COMMENT ON COLUMN support.case_assignments.assigned_at IS 'When the assignment started.';
COMMENT ON COLUMN support.case_assignments.unassigned_at IS 'When the agent stopped owning the ticket. NULL = still assigned.';
COMMENT ON COLUMN support.case_assignments.is_current IS 'True for the assignment in effect now (unassigned_at IS NULL).';
COMMENT ON COLUMN support.case_assignments.note IS 'Hand-over note to the new assignee. NULL = none.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.tags (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    color varchar(7),
    is_active boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE support.tags IS 'Ticket tags (labels) agents and automations put on support tickets, e.g. refund_request, bug, vip. One row per tag. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN support.tags.name IS 'Tag label, unique per tenant, lowercase, e.g. refund_request, late_delivery, bug.';
COMMENT ON COLUMN support.tags.description IS 'When to use the tag. NULL = none.';
COMMENT ON COLUMN support.tags.color IS 'Display colour as hex, e.g. #E5484D. NULL = default grey.';
COMMENT ON COLUMN support.tags.is_active IS 'False if the tag is hidden from the picker but kept on old tickets.';
COMMENT ON COLUMN support.tags.created_by_user_id IS 'Staff user who created the tag.';
COMMENT ON COLUMN support.tags.deleted_at IS 'When the tag was deleted. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.case_tags (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_id bigint NOT NULL,
    tag_id bigint NOT NULL,
    source text NOT NULL DEFAULT 'agent',
    tagged_by_user_id bigint,
    tagged_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT case_tags_source_check CHECK (source IN ('agent', 'automation', 'api', 'import'))
);
COMMENT ON TABLE support.case_tags IS 'Tags applied to support tickets: one row per tag on a ticket.';
COMMENT ON COLUMN support.case_tags.case_id IS 'Tagged ticket.';
COMMENT ON COLUMN support.case_tags.tag_id IS 'Tag applied.';
COMMENT ON COLUMN support.case_tags.source IS 'What applied the tag: agent, automation (trigger or macro), api or import.';
COMMENT ON COLUMN support.case_tags.tagged_by_user_id IS 'Agent who applied the tag. NULL = applied by an automation, the API or an import.';
COMMENT ON COLUMN support.case_tags.tagged_at IS 'When the tag was applied.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.case_attachments (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_id bigint NOT NULL,
    case_message_id bigint NOT NULL,
    file_name text NOT NULL,
    content_type text NOT NULL,
    byte_size bigint NOT NULL,
    storage_key text NOT NULL,
    sha256 char(64) NOT NULL,
    uploaded_by_user_id bigint,
    uploaded_by_contact_id bigint,
    is_inline boolean NOT NULL DEFAULT false,
    is_malware_scanned boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT case_attachments_byte_size_check CHECK (byte_size >= 0)
);
COMMENT ON TABLE support.case_attachments IS 'Files (screenshots, PDFs, logs) attached to messages on support tickets. One row per file. Rows are soft-deleted: deleted_at is set instead of removing the row (redacted or removed attachments).';
COMMENT ON COLUMN support.case_attachments.case_id IS 'Ticket the file belongs to (same as the message''s ticket).';
COMMENT ON COLUMN support.case_attachments.case_message_id IS 'Ticket message the file was attached to.';
COMMENT ON COLUMN support.case_attachments.file_name IS 'Original file name, e.g. invoice_scan.pdf.';
COMMENT ON COLUMN support.case_attachments.content_type IS 'MIME type, e.g. image/png, application/pdf, text/plain.';
COMMENT ON COLUMN support.case_attachments.byte_size IS 'File size in bytes.';
COMMENT ON COLUMN support.case_attachments.storage_key IS 'Object-storage key where the file content is kept.';
COMMENT ON COLUMN support.case_attachments.sha256 IS 'Hex SHA-256 digest of the content, for de-duplication.';
COMMENT ON COLUMN support.case_attachments.uploaded_by_user_id IS 'Agent who uploaded the file. NULL = uploaded by the customer.';
COMMENT ON COLUMN support.case_attachments.uploaded_by_contact_id IS 'Customer contact who uploaded the file. NULL = uploaded by staff, or by an unknown requester.';
COMMENT ON COLUMN support.case_attachments.is_inline IS 'True for images embedded in the message body rather than listed as attachments.';
COMMENT ON COLUMN support.case_attachments.is_malware_scanned IS 'True once the file passed the malware scan.';
COMMENT ON COLUMN support.case_attachments.deleted_at IS 'When the attachment was deleted or redacted. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.sla_breaches (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_id bigint NOT NULL,
    sla_policy_id bigint NOT NULL,
    metric support.sla_metric NOT NULL,
    priority support.case_priority NOT NULL,
    queue_id bigint NOT NULL,
    assignee_user_id bigint,
    target_at timestamptz NOT NULL,
    breached_at timestamptz NOT NULL,
    overdue_minutes integer,
    is_acknowledged boolean NOT NULL DEFAULT false,
    acknowledged_by_user_id bigint,
    acknowledged_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT sla_breaches_breached_at_check CHECK (breached_at >= target_at)
);
COMMENT ON TABLE support.sla_breaches IS 'Missed SLA targets: one row each time a ticket passed its first-response, next-response or resolution deadline. Used for SLA compliance (attainment) reporting.';
COMMENT ON COLUMN support.sla_breaches.case_id IS 'Ticket that missed the target.';
COMMENT ON COLUMN support.sla_breaches.sla_policy_id IS 'SLA policy whose target was missed.';
COMMENT ON COLUMN support.sla_breaches.metric IS 'Which target was missed: first_response, next_response or resolution.';
COMMENT ON COLUMN support.sla_breaches.priority IS 'Ticket priority at the moment of the breach.';
COMMENT ON COLUMN support.sla_breaches.queue_id IS 'Queue the ticket was in when it breached.';
COMMENT ON COLUMN support.sla_breaches.assignee_user_id IS 'Agent who owned the ticket at the breach. NULL = the ticket was unassigned.';
COMMENT ON COLUMN support.sla_breaches.target_at IS 'Deadline that was missed.';
COMMENT ON COLUMN support.sla_breaches.breached_at IS 'When the breach was detected (at or after target_at); bucket breaches by this.';
COMMENT ON COLUMN support.sla_breaches.overdue_minutes IS 'How late the target was eventually met, in minutes. NULL = the target is still unmet.';
COMMENT ON COLUMN support.sla_breaches.is_acknowledged IS 'True once a lead reviewed the breach.';
COMMENT ON COLUMN support.sla_breaches.acknowledged_by_user_id IS 'Team lead who reviewed the breach. NULL = not reviewed yet.';
COMMENT ON COLUMN support.sla_breaches.acknowledged_at IS 'When the breach was reviewed. NULL = not reviewed yet.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.satisfaction_surveys (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_id bigint NOT NULL,
    contact_id bigint NOT NULL,
    agent_user_id bigint NOT NULL,
    queue_id bigint NOT NULL,
    sent_channel shared.message_channel NOT NULL,
    score smallint NOT NULL,
    comment text,
    sent_at timestamptz NOT NULL,
    responded_at timestamptz NOT NULL,
    is_follow_up_requested boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT satisfaction_surveys_score_check CHECK (score BETWEEN 1 AND 5)
);
COMMENT ON TABLE support.satisfaction_surveys IS 'Customer satisfaction (CSAT) survey responses after a ticket was solved: one row per answered survey, at most one per ticket. CSAT % = share of scores 4 and 5.';
COMMENT ON COLUMN support.satisfaction_surveys.case_id IS 'Ticket that was rated.';
COMMENT ON COLUMN support.satisfaction_surveys.contact_id IS 'Contact who answered (surveys are only sent to known contacts).';
COMMENT ON COLUMN support.satisfaction_surveys.agent_user_id IS 'Agent who solved the ticket and is credited with the rating.';
COMMENT ON COLUMN support.satisfaction_surveys.queue_id IS 'Queue the ticket was solved in.';
COMMENT ON COLUMN support.satisfaction_surveys.sent_channel IS 'Channel the survey was sent through, typically email or in_app.';
COMMENT ON COLUMN support.satisfaction_surveys.score IS 'Rating from 1 (very unsatisfied) to 5 (very satisfied).';
COMMENT ON COLUMN support.satisfaction_surveys.comment IS 'Free-text feedback left with the rating. NULL = no comment.';
COMMENT ON COLUMN support.satisfaction_surveys.sent_at IS 'When the survey was sent.';
COMMENT ON COLUMN support.satisfaction_surveys.responded_at IS 'When the customer answered; bucket CSAT by this.';
COMMENT ON COLUMN support.satisfaction_surveys.is_follow_up_requested IS 'True if the customer asked to be contacted again.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.escalations (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    case_id bigint NOT NULL,
    from_tier smallint NOT NULL,
    to_tier smallint NOT NULL,
    from_queue_id bigint NOT NULL,
    to_queue_id bigint NOT NULL,
    to_team_id bigint NOT NULL,
    escalated_by_user_id bigint,
    sla_breach_id bigint,
    reason support.escalation_reason NOT NULL,
    status support.escalation_status NOT NULL DEFAULT 'open',
    note text,
    escalated_at timestamptz NOT NULL,
    resolved_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT escalations_to_tier_check CHECK (to_tier > from_tier)
);
COMMENT ON TABLE support.escalations IS 'Tickets escalated to a higher support tier (tier 1 to tier 2, to engineering, to a key-account manager). One row per escalation of a ticket.';
COMMENT ON COLUMN support.escalations.case_id IS 'Escalated ticket.';
COMMENT ON COLUMN support.escalations.from_tier IS 'Support tier the ticket was at (1-3).';
COMMENT ON COLUMN support.escalations.to_tier IS 'Support tier the ticket was escalated to; always higher than from_tier.';
COMMENT ON COLUMN support.escalations.from_queue_id IS 'Queue the ticket left.';
COMMENT ON COLUMN support.escalations.to_queue_id IS 'Queue the ticket was moved to.';
COMMENT ON COLUMN support.escalations.to_team_id IS 'Staff team receiving the escalation (e.g. Tier 2, Engineering on-call).';
COMMENT ON COLUMN support.escalations.escalated_by_user_id IS 'Agent who escalated. NULL = escalated automatically by an SLA rule.';
COMMENT ON COLUMN support.escalations.sla_breach_id IS 'SLA breach that triggered the escalation. NULL = not triggered by a breach.';
COMMENT ON COLUMN support.escalations.reason IS 'sla_risk, customer_request, technical_complexity, key_account, complaint or product_bug.';
COMMENT ON COLUMN support.escalations.status IS 'open, accepted (picked up by the higher tier), resolved or rejected (sent back).';
COMMENT ON COLUMN support.escalations.note IS 'Escalation summary for the receiving tier. NULL = none.';
COMMENT ON COLUMN support.escalations.escalated_at IS 'When the ticket was escalated.';
COMMENT ON COLUMN support.escalations.resolved_at IS 'When the escalation was resolved or rejected. NULL = still open or accepted.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.kb_categories (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    description text,
    parent_kb_category_id bigint,
    language_code char(2) NOT NULL,
    position integer NOT NULL DEFAULT 0,
    is_public boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);
COMMENT ON TABLE support.kb_categories IS 'Knowledge-base (help-centre, FAQ) sections and sub-sections that group articles, e.g. Getting started, Billing, Shipping & returns. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN support.kb_categories.name IS 'Section title shown in the help centre.';
COMMENT ON COLUMN support.kb_categories.slug IS 'URL segment of the section, unique per tenant, e.g. billing-and-invoices.';
COMMENT ON COLUMN support.kb_categories.description IS 'Short text shown under the section title. NULL = none.';
COMMENT ON COLUMN support.kb_categories.parent_kb_category_id IS 'Parent section. NULL = a top-level section.';
COMMENT ON COLUMN support.kb_categories.language_code IS 'Language of the section (ISO 639-1).';
COMMENT ON COLUMN support.kb_categories.position IS 'Sort order among sibling sections, 0 first.';
COMMENT ON COLUMN support.kb_categories.is_public IS 'False for internal sections only agents can see.';
COMMENT ON COLUMN support.kb_categories.created_by_user_id IS 'Staff user who created the section.';
COMMENT ON COLUMN support.kb_categories.deleted_at IS 'When the section was deleted. NULL = live.';


-- ---------------------------------------------------------------------------------------------
CREATE TABLE support.kb_articles (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    slug text NOT NULL,
    kb_category_id bigint NOT NULL,
    author_user_id bigint NOT NULL,
    last_edited_by_user_id bigint NOT NULL,
    translated_from_kb_article_id bigint,
    language_code char(2) NOT NULL,
    title text NOT NULL,
    summary text,
    body text NOT NULL,
    status support.kb_article_status NOT NULL DEFAULT 'draft',
    is_internal boolean NOT NULL DEFAULT false,
    keywords text[] NOT NULL DEFAULT '{}',
    published_at timestamptz,
    view_count integer NOT NULL DEFAULT 0,
    helpful_votes integer NOT NULL DEFAULT 0,
    unhelpful_votes integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT kb_articles_view_count_check CHECK (view_count >= 0)
);
COMMENT ON TABLE support.kb_articles IS 'Knowledge-base (help-centre, FAQ, self-service) articles customers read before or instead of opening a ticket. One row per article per language. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN support.kb_articles.slug IS 'URL slug of the article, unique per tenant, e.g. how-to-download-an-invoice.';
COMMENT ON COLUMN support.kb_articles.kb_category_id IS 'Knowledge-base section the article is filed in.';
COMMENT ON COLUMN support.kb_articles.author_user_id IS 'Staff user who wrote the article.';
COMMENT ON COLUMN support.kb_articles.last_edited_by_user_id IS 'Staff user who last edited it (the author until someone else edits).';
COMMENT ON COLUMN support.kb_articles.translated_from_kb_article_id IS 'Source article this is a translation of. NULL = an original article.';
COMMENT ON COLUMN support.kb_articles.language_code IS 'Language of the article (ISO 639-1).';
COMMENT ON COLUMN support.kb_articles.title IS 'Article title.';
COMMENT ON COLUMN support.kb_articles.summary IS 'One-paragraph abstract shown in search results. NULL = none.';
COMMENT ON COLUMN support.kb_articles.body IS 'Article content (HTML).';
COMMENT ON COLUMN support.kb_articles.status IS 'draft, published (visible in the help centre) or archived (withdrawn).';
COMMENT ON COLUMN support.kb_articles.is_internal IS 'True for agent-only articles hidden from customers.';
COMMENT ON COLUMN support.kb_articles.keywords IS 'Search keywords, e.g. {invoice,pdf,download}.';
COMMENT ON COLUMN support.kb_articles.published_at IS 'When the article was (first) published. NULL = never published.';
COMMENT ON COLUMN support.kb_articles.view_count IS 'Number of times the article was viewed in the help centre (running counter).';
COMMENT ON COLUMN support.kb_articles.helpful_votes IS 'Number of "was this helpful? yes" votes.';
COMMENT ON COLUMN support.kb_articles.unhelpful_votes IS 'Number of "was this helpful? no" votes.';
COMMENT ON COLUMN support.kb_articles.deleted_at IS 'When the article was deleted. NULL = live.';

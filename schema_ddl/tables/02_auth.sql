-- heron phase 1, domain 02 auth: the staff identities of each tenant (the people who log in to the
-- back office) and their access control: roles, permissions, teams, sessions and sign-in history,
-- API keys, OAuth applications and tokens, second factors, invitations, password resets and
-- single sign-on (SAML/OIDC) connections.

CREATE TYPE auth.user_status AS ENUM ('invited', 'active', 'suspended', 'deactivated');
CREATE TYPE auth.team_kind AS ENUM ('sales', 'support', 'operations', 'marketing', 'finance', 'engineering');
CREATE TYPE auth.auth_method AS ENUM ('password', 'sso', 'magic_link', 'passkey');
CREATE TYPE auth.session_end_reason AS ENUM ('logout', 'expired', 'idle_timeout', 'revoked', 'password_changed');
CREATE TYPE auth.login_outcome AS ENUM ('success', 'wrong_password', 'unknown_user', 'locked_out', 'mfa_failed', 'sso_error', 'blocked_ip');
CREATE TYPE auth.oauth_token_type AS ENUM ('access', 'refresh', 'authorization_code');
CREATE TYPE auth.oauth_grant_type AS ENUM ('authorization_code', 'client_credentials', 'refresh_token', 'device_code');
CREATE TYPE auth.mfa_factor_type AS ENUM ('totp', 'sms', 'webauthn', 'email', 'recovery_codes');
CREATE TYPE auth.invitation_status AS ENUM ('pending', 'accepted', 'expired', 'revoked');
CREATE TYPE auth.sso_protocol AS ENUM ('saml', 'oidc');
CREATE TYPE auth.sso_connection_status AS ENUM ('draft', 'testing', 'active', 'disabled');

-- ---------------------------------------------------------------------------------------------
-- Identities
-- ---------------------------------------------------------------------------------------------

CREATE TABLE auth.users (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    email text NOT NULL,
    full_name text NOT NULL,
    display_name text,
    job_title text,
    phone text,
    status auth.user_status NOT NULL DEFAULT 'invited',
    is_owner boolean NOT NULL DEFAULT false,
    is_service_account boolean NOT NULL DEFAULT false,
    has_mfa boolean NOT NULL DEFAULT false,
    workspace_id bigint,
    manager_user_id bigint,
    invited_by_user_id bigint,
    language_code char(2) NOT NULL,
    timezone_name text NOT NULL,
    avatar_url text,
    joined_at timestamptz NOT NULL,
    last_login_at timestamptz,
    password_changed_at timestamptz,
    deactivated_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_deactivated_at_check CHECK (deactivated_at IS NULL OR deactivated_at >= joined_at)
);
COMMENT ON TABLE auth.users IS 'Staff users of a tenant: the employees (team members, agents, sales reps, admins, seats) who log in to the back office. Not the tenant''s customers, which are crm.accounts and crm.contacts. One row per person per tenant. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN auth.users.email IS 'Login e-mail address, lower case, unique within the tenant.';
COMMENT ON COLUMN auth.users.full_name IS 'Full name of the staff member, e.g. Maria Schmidt.';
COMMENT ON COLUMN auth.users.display_name IS 'Short name shown in the UI and on customer-facing messages, e.g. Maria S. NULL means full_name is shown.';
COMMENT ON COLUMN auth.users.job_title IS 'Job title, e.g. Sales Manager, Support Agent, Warehouse Lead. NULL when not filled in.';
COMMENT ON COLUMN auth.users.phone IS 'Work phone number in E.164 format, e.g. +4930123456. NULL when not given.';
COMMENT ON COLUMN auth.users.status IS 'invited (has not accepted yet), active (can log in), suspended (temporarily blocked), deactivated (left the company; no longer counts as a seat).';
COMMENT ON COLUMN auth.users.is_owner IS 'True for the tenant owner (the user tenancy.tenants.owner_user_id points to).';
COMMENT ON COLUMN auth.users.is_service_account IS 'True for non-human accounts used by integrations and automation; exclude them when counting people.';
COMMENT ON COLUMN auth.users.has_mfa IS 'True when the user has at least one verified second factor (two-factor authentication enabled).';
COMMENT ON COLUMN auth.users.workspace_id IS 'Home workspace (brand or business unit) the user works in. NULL means the user works across all workspaces of the tenant.';
COMMENT ON COLUMN auth.users.manager_user_id IS 'Line manager of the user (another staff user of the tenant). NULL for users without a recorded manager.';
COMMENT ON COLUMN auth.users.invited_by_user_id IS 'Staff user who invited this user. NULL for the founding user and for users provisioned by SSO/SCIM.';
COMMENT ON COLUMN auth.users.language_code IS 'Back-office interface language (locale) of the user (ISO 639-1).';
COMMENT ON COLUMN auth.users.timezone_name IS 'IANA time zone times are shown in for this user.';
COMMENT ON COLUMN auth.users.avatar_url IS 'Profile picture URL. NULL when none uploaded.';
COMMENT ON COLUMN auth.users.joined_at IS 'When the user joined the tenant (accepted the invitation or was provisioned).';
COMMENT ON COLUMN auth.users.last_login_at IS 'Most recent successful sign-in. NULL when the user has never logged in.';
COMMENT ON COLUMN auth.users.password_changed_at IS 'When the password was last set or changed. NULL for SSO-only users without a password.';
COMMENT ON COLUMN auth.users.deactivated_at IS 'When the user was deactivated (offboarded). NULL while active, invited or suspended.';
COMMENT ON COLUMN auth.users.deleted_at IS 'When the user was deleted (soft delete). NULL for live users.';

CREATE TABLE auth.permissions (
    id bigint NOT NULL,
    code text NOT NULL,
    name text NOT NULL,
    description text NOT NULL,
    module text NOT NULL,
    resource text NOT NULL,
    action text NOT NULL,
    is_sensitive boolean NOT NULL DEFAULT false,
    is_deprecated boolean NOT NULL DEFAULT false,
    minimum_plan_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT permissions_action_check CHECK (action IN ('read', 'create', 'update', 'delete', 'approve', 'export', 'manage'))
);
COMMENT ON TABLE auth.permissions IS 'The platform''s catalogue of grantable permissions (privileges, access rights, scopes): one row per permission such as orders.refund or billing.export. Global; tenants bundle them into auth.roles.';
COMMENT ON COLUMN auth.permissions.code IS 'Unique permission code in resource.action form, e.g. orders.read, orders.refund, users.manage.';
COMMENT ON COLUMN auth.permissions.name IS 'Human label shown in the role editor, e.g. Issue refunds.';
COMMENT ON COLUMN auth.permissions.description IS 'What holding the permission allows.';
COMMENT ON COLUMN auth.permissions.module IS 'Product area the permission belongs to, e.g. orders, catalog, billing, support, settings.';
COMMENT ON COLUMN auth.permissions.resource IS 'Kind of object the permission governs, e.g. order, invoice, user, price_list.';
COMMENT ON COLUMN auth.permissions.action IS 'Operation allowed on the resource: read, create, update, delete, approve, export or manage.';
COMMENT ON COLUMN auth.permissions.is_sensitive IS 'True for permissions that touch money, personal data or security (refunds, exports, user management); their use is audited.';
COMMENT ON COLUMN auth.permissions.is_deprecated IS 'True for permissions kept for old roles but no longer offered for new ones.';
COMMENT ON COLUMN auth.permissions.minimum_plan_id IS 'Lowest platform plan on which the permission is available. NULL means available on every plan.';

-- ---------------------------------------------------------------------------------------------
-- Roles and teams
-- ---------------------------------------------------------------------------------------------

CREATE TABLE auth.roles (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    workspace_id bigint,
    is_system boolean NOT NULL DEFAULT false,
    is_default_for_new_users boolean NOT NULL DEFAULT false,
    created_by_user_id bigint,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE auth.roles IS 'Roles (permission sets, access profiles) defined by a tenant, e.g. Admin, Sales Rep, Warehouse Staff, Read-only. One row per role. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN auth.roles.name IS 'Role name, unique within the tenant, e.g. Admin, Sales Rep, Support Agent, Finance.';
COMMENT ON COLUMN auth.roles.description IS 'What the role is for. NULL when not written.';
COMMENT ON COLUMN auth.roles.workspace_id IS 'Workspace the role is limited to. NULL means the role applies tenant-wide.';
COMMENT ON COLUMN auth.roles.is_system IS 'True for built-in roles the platform creates for every tenant (Owner, Admin, Read-only); they cannot be edited.';
COMMENT ON COLUMN auth.roles.is_default_for_new_users IS 'True for the role pre-selected when inviting a new user.';
COMMENT ON COLUMN auth.roles.created_by_user_id IS 'Staff user who created the role. NULL for built-in system roles seeded by the platform.';
COMMENT ON COLUMN auth.roles.deleted_at IS 'When the role was deleted (soft delete). NULL for live roles.';

CREATE TABLE auth.role_permissions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    role_id bigint NOT NULL,
    permission_id bigint NOT NULL,
    granted_by_user_id bigint NOT NULL,
    conditions jsonb,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE auth.role_permissions IS 'Which permissions each role grants: one row per role and permission (the role''s access rights).';
COMMENT ON COLUMN auth.role_permissions.role_id IS 'Role that grants the permission.';
COMMENT ON COLUMN auth.role_permissions.permission_id IS 'Permission granted by the role.';
COMMENT ON COLUMN auth.role_permissions.granted_by_user_id IS 'Staff user who added the permission to the role (for built-in roles, the tenant owner).';
COMMENT ON COLUMN auth.role_permissions.conditions IS 'Optional restrictions on the grant as jsonb, e.g. {"max_refund": 500} or {"own_records_only": true}. NULL means unrestricted.';

CREATE TABLE auth.user_roles (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    role_id bigint NOT NULL,
    workspace_id bigint,
    granted_by_user_id bigint NOT NULL,
    granted_at timestamptz NOT NULL,
    expires_at timestamptz,
    revoked_at timestamptz,
    revoked_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT user_roles_expires_at_check CHECK (expires_at IS NULL OR expires_at >= granted_at),
    CONSTRAINT user_roles_revoked_at_check CHECK (revoked_at IS NULL OR revoked_at >= granted_at)
);
COMMENT ON TABLE auth.user_roles IS 'Role assignments (role grants) of staff users: one row per user and role. An assignment is current while revoked_at is NULL and expires_at is NULL or in the future.';
COMMENT ON COLUMN auth.user_roles.user_id IS 'Staff user holding the role.';
COMMENT ON COLUMN auth.user_roles.role_id IS 'Role assigned.';
COMMENT ON COLUMN auth.user_roles.workspace_id IS 'Workspace the assignment is limited to. NULL means the role applies in every workspace.';
COMMENT ON COLUMN auth.user_roles.granted_by_user_id IS 'Staff user (an admin) who assigned the role.';
COMMENT ON COLUMN auth.user_roles.granted_at IS 'When the role was assigned.';
COMMENT ON COLUMN auth.user_roles.expires_at IS 'When a temporary assignment lapses automatically. NULL for permanent assignments.';
COMMENT ON COLUMN auth.user_roles.revoked_at IS 'When the role was taken away. NULL while the assignment stands.';
COMMENT ON COLUMN auth.user_roles.revoked_by_user_id IS 'Staff user who revoked the role. NULL while not revoked, or when it expired on its own.';

CREATE TABLE auth.teams (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    description text,
    kind auth.team_kind NOT NULL,
    workspace_id bigint NOT NULL,
    lead_user_id bigint,
    created_by_user_id bigint NOT NULL,
    email_alias text,
    timezone_name text NOT NULL,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE auth.teams IS 'Teams (groups, squads, desks) of staff users, e.g. Inside Sales DACH, Support Tier 2, Key Accounts. One row per team. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN auth.teams.name IS 'Team name, unique within the tenant, e.g. Support Tier 2.';
COMMENT ON COLUMN auth.teams.description IS 'What the team does. NULL when not written.';
COMMENT ON COLUMN auth.teams.kind IS 'Function of the team: sales, support, operations, marketing, finance or engineering.';
COMMENT ON COLUMN auth.teams.workspace_id IS 'Workspace (brand or business unit) the team belongs to; tenant-wide teams sit in the default workspace.';
COMMENT ON COLUMN auth.teams.lead_user_id IS 'Staff user who leads the team (team lead, manager). NULL when the team has no designated lead.';
COMMENT ON COLUMN auth.teams.created_by_user_id IS 'Staff user who created the team.';
COMMENT ON COLUMN auth.teams.email_alias IS 'Shared mailbox of the team, e.g. tier2@acme.com. NULL when none.';
COMMENT ON COLUMN auth.teams.timezone_name IS 'IANA time zone the team works in (used for its working hours).';
COMMENT ON COLUMN auth.teams.deleted_at IS 'When the team was deleted (soft delete). NULL for live teams.';

CREATE TABLE auth.team_members (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    team_id bigint NOT NULL,
    user_id bigint NOT NULL,
    member_role text NOT NULL DEFAULT 'member',
    added_by_user_id bigint NOT NULL,
    joined_at timestamptz NOT NULL,
    left_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT team_members_member_role_check CHECK (member_role IN ('member', 'lead', 'manager', 'observer')),
    CONSTRAINT team_members_left_at_check CHECK (left_at IS NULL OR left_at >= joined_at)
);
COMMENT ON TABLE auth.team_members IS 'Team membership: one row per staff user and team they belong to. Membership is current while left_at is NULL.';
COMMENT ON COLUMN auth.team_members.team_id IS 'Team the user belongs to.';
COMMENT ON COLUMN auth.team_members.user_id IS 'Staff user who is a member of the team.';
COMMENT ON COLUMN auth.team_members.member_role IS 'Role inside the team: member, lead, manager or observer.';
COMMENT ON COLUMN auth.team_members.added_by_user_id IS 'Staff user who added the member to the team.';
COMMENT ON COLUMN auth.team_members.joined_at IS 'When the user joined the team.';
COMMENT ON COLUMN auth.team_members.left_at IS 'When the user left the team. NULL for current members.';

-- ---------------------------------------------------------------------------------------------
-- Sign-in
-- ---------------------------------------------------------------------------------------------

CREATE TABLE auth.sessions (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    token_hash text NOT NULL,
    auth_method auth.auth_method NOT NULL,
    sso_connection_id bigint,
    mfa_factor_id bigint,
    ip_address inet NOT NULL,
    user_agent text NOT NULL,
    country_code char(2),
    is_impersonation boolean NOT NULL DEFAULT false,
    started_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    ended_at timestamptz,
    end_reason auth.session_end_reason,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT sessions_expires_at_check CHECK (expires_at >= started_at),
    CONSTRAINT sessions_last_seen_at_check CHECK (last_seen_at >= started_at),
    CONSTRAINT sessions_ended_at_check CHECK (ended_at IS NULL OR ended_at >= started_at)
);
COMMENT ON TABLE auth.sessions IS 'Back-office login sessions of staff users: one row per signed-in session (browser or device), from sign-in until logout or expiry.';
COMMENT ON COLUMN auth.sessions.user_id IS 'Staff user the session belongs to.';
COMMENT ON COLUMN auth.sessions.token_hash IS 'SHA-256 hash of the session cookie token; the token itself is never stored.';
COMMENT ON COLUMN auth.sessions.auth_method IS 'How the user signed in: password, sso, magic_link or passkey.';
COMMENT ON COLUMN auth.sessions.sso_connection_id IS 'Identity-provider connection used to sign in. NULL unless auth_method is sso.';
COMMENT ON COLUMN auth.sessions.mfa_factor_id IS 'Second factor used to complete sign-in. NULL when no second factor was required or used.';
COMMENT ON COLUMN auth.sessions.ip_address IS 'Client IP address at sign-in.';
COMMENT ON COLUMN auth.sessions.user_agent IS 'Browser user-agent string at sign-in.';
COMMENT ON COLUMN auth.sessions.country_code IS 'Country resolved from ip_address by geo-IP lookup (ISO 3166-1 alpha-2). NULL when the lookup failed.';
COMMENT ON COLUMN auth.sessions.is_impersonation IS 'True when platform support opened the session on the user''s behalf ("log in as").';
COMMENT ON COLUMN auth.sessions.started_at IS 'When the session was created (sign-in time).';
COMMENT ON COLUMN auth.sessions.last_seen_at IS 'Last request made with the session.';
COMMENT ON COLUMN auth.sessions.expires_at IS 'Absolute expiry of the session.';
COMMENT ON COLUMN auth.sessions.ended_at IS 'When the session actually ended. NULL while it is still open (and not yet expired).';
COMMENT ON COLUMN auth.sessions.end_reason IS 'Why the session ended: logout, expired, idle_timeout, revoked (by an admin) or password_changed. NULL while open.';

CREATE TABLE auth.login_attempts (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint,
    session_id bigint,
    email_entered text NOT NULL,
    auth_method auth.auth_method NOT NULL,
    outcome auth.login_outcome NOT NULL,
    failure_detail text,
    ip_address inet NOT NULL,
    user_agent text NOT NULL,
    is_suspicious boolean NOT NULL DEFAULT false,
    risk_score smallint NOT NULL DEFAULT 0,
    attempted_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT login_attempts_risk_score_check CHECK (risk_score <= 100)
);
COMMENT ON TABLE auth.login_attempts IS 'Sign-in log: every attempt to log in to the back office, successful or failed (failed logins, lockouts, brute-force attempts). One row per attempt; never updated.';
COMMENT ON COLUMN auth.login_attempts.user_id IS 'Staff user the entered e-mail matched. NULL when it matched no user (outcome unknown_user).';
COMMENT ON COLUMN auth.login_attempts.session_id IS 'Session created by the attempt. NULL for every attempt that did not succeed.';
COMMENT ON COLUMN auth.login_attempts.email_entered IS 'E-mail address typed on the login form, as entered.';
COMMENT ON COLUMN auth.login_attempts.auth_method IS 'Sign-in method tried: password, sso, magic_link or passkey.';
COMMENT ON COLUMN auth.login_attempts.outcome IS 'Result: success, wrong_password, unknown_user, locked_out (too many failures), mfa_failed, sso_error or blocked_ip.';
COMMENT ON COLUMN auth.login_attempts.failure_detail IS 'Technical detail of a failure, e.g. the IdP error message. NULL on success.';
COMMENT ON COLUMN auth.login_attempts.ip_address IS 'Client IP address of the attempt.';
COMMENT ON COLUMN auth.login_attempts.user_agent IS 'Browser user-agent string of the attempt.';
COMMENT ON COLUMN auth.login_attempts.is_suspicious IS 'True when the risk engine flagged the attempt (new country, impossible travel, known bad IP).';
COMMENT ON COLUMN auth.login_attempts.risk_score IS 'Risk score from 0 (normal) to 100 (almost certainly malicious).';
COMMENT ON COLUMN auth.login_attempts.attempted_at IS 'When the attempt was made.';

CREATE TABLE auth.mfa_factors (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    factor_type auth.mfa_factor_type NOT NULL,
    label text NOT NULL,
    phone_number text,
    credential_ref text NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    verified_at timestamptz,
    last_used_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE auth.mfa_factors IS 'Second factors (2FA / MFA methods: authenticator apps, security keys, SMS numbers, recovery codes) enrolled by staff users. One row per enrolled factor. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN auth.mfa_factors.user_id IS 'Staff user who enrolled the factor.';
COMMENT ON COLUMN auth.mfa_factors.factor_type IS 'Kind of factor: totp (authenticator app), sms, webauthn (security key or passkey), email or recovery_codes.';
COMMENT ON COLUMN auth.mfa_factors.label IS 'Name the user gave the factor, e.g. iPhone, YubiKey 5C.';
COMMENT ON COLUMN auth.mfa_factors.phone_number IS 'Phone number codes are sent to, E.164 format. NULL unless factor_type is sms.';
COMMENT ON COLUMN auth.mfa_factors.credential_ref IS 'Reference to the encrypted secret or WebAuthn credential in the key vault; never the secret itself.';
COMMENT ON COLUMN auth.mfa_factors.is_primary IS 'True for the factor offered first at sign-in.';
COMMENT ON COLUMN auth.mfa_factors.verified_at IS 'When enrolment was confirmed with a first valid code. NULL while enrolment is incomplete (the factor cannot be used yet).';
COMMENT ON COLUMN auth.mfa_factors.last_used_at IS 'Last successful use of the factor. NULL when never used.';
COMMENT ON COLUMN auth.mfa_factors.deleted_at IS 'When the user removed the factor (soft delete). NULL for enrolled factors.';

CREATE TABLE auth.password_resets (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    requested_by_user_id bigint,
    token_hash text NOT NULL,
    channel shared.message_channel NOT NULL DEFAULT 'email',
    request_ip inet,
    requested_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT password_resets_expires_at_check CHECK (expires_at >= requested_at),
    CONSTRAINT password_resets_used_at_check CHECK (used_at IS NULL OR used_at >= requested_at)
);
COMMENT ON TABLE auth.password_resets IS 'Password-reset requests ("forgot password" links) and whether they were used: one row per reset link sent to a staff user.';
COMMENT ON COLUMN auth.password_resets.user_id IS 'Staff user whose password is to be reset.';
COMMENT ON COLUMN auth.password_resets.requested_by_user_id IS 'Admin who triggered the reset for the user. NULL for self-service "forgot password" requests.';
COMMENT ON COLUMN auth.password_resets.token_hash IS 'Hash of the one-time reset token; the token itself is never stored.';
COMMENT ON COLUMN auth.password_resets.channel IS 'How the reset link was delivered, normally email, sometimes sms.';
COMMENT ON COLUMN auth.password_resets.request_ip IS 'IP address the request came from. NULL for admin-triggered resets.';
COMMENT ON COLUMN auth.password_resets.requested_at IS 'When the reset was requested.';
COMMENT ON COLUMN auth.password_resets.expires_at IS 'When the link stops working (usually one hour after the request).';
COMMENT ON COLUMN auth.password_resets.used_at IS 'When the link was used to set a new password. NULL when never used (expired or ignored).';

CREATE TABLE auth.invitations (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    email text NOT NULL,
    invited_by_user_id bigint NOT NULL,
    role_id bigint NOT NULL,
    team_id bigint,
    accepted_user_id bigint,
    language_code char(2) NOT NULL,
    status auth.invitation_status NOT NULL DEFAULT 'pending',
    token_hash text NOT NULL,
    message text,
    resend_count smallint NOT NULL DEFAULT 0,
    sent_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    accepted_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT invitations_resend_count_check CHECK (resend_count >= 0),
    CONSTRAINT invitations_expires_at_check CHECK (expires_at >= sent_at),
    CONSTRAINT invitations_accepted_at_check CHECK (accepted_at IS NULL OR accepted_at >= sent_at)
);
COMMENT ON TABLE auth.invitations IS 'Invitations (invites) for new staff to join the tenant''s back office, pending and accepted: one row per invitation e-mail sent.';
COMMENT ON COLUMN auth.invitations.email IS 'E-mail address the invitation was sent to.';
COMMENT ON COLUMN auth.invitations.invited_by_user_id IS 'Staff user who sent the invitation.';
COMMENT ON COLUMN auth.invitations.role_id IS 'Role the invitee receives on accepting.';
COMMENT ON COLUMN auth.invitations.team_id IS 'Team the invitee is added to on accepting. NULL when no team was chosen.';
COMMENT ON COLUMN auth.invitations.accepted_user_id IS 'Staff user created when the invitation was accepted. NULL while pending, expired or revoked.';
COMMENT ON COLUMN auth.invitations.language_code IS 'Language the invitation e-mail was written in (ISO 639-1); becomes the new user''s interface language.';
COMMENT ON COLUMN auth.invitations.status IS 'pending (sent, not yet answered), accepted, expired (link lapsed) or revoked (withdrawn by an admin).';
COMMENT ON COLUMN auth.invitations.token_hash IS 'Hash of the one-time invitation token.';
COMMENT ON COLUMN auth.invitations.message IS 'Personal note included in the invitation e-mail. NULL when none.';
COMMENT ON COLUMN auth.invitations.resend_count IS 'How many times the invitation e-mail was re-sent after the first send.';
COMMENT ON COLUMN auth.invitations.sent_at IS 'When the invitation was first sent.';
COMMENT ON COLUMN auth.invitations.expires_at IS 'When the invitation link lapses (usually 7 days after sending).';
COMMENT ON COLUMN auth.invitations.accepted_at IS 'When the invitee accepted. NULL unless status is accepted.';
COMMENT ON COLUMN auth.invitations.revoked_at IS 'When an admin withdrew the invitation. NULL unless status is revoked.';

-- ---------------------------------------------------------------------------------------------
-- Machine access and identity providers
-- ---------------------------------------------------------------------------------------------

CREATE TABLE auth.api_keys (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    key_prefix text NOT NULL,
    key_hash text NOT NULL,
    environment text NOT NULL DEFAULT 'live',
    scopes text[] NOT NULL,
    role_id bigint NOT NULL,
    workspace_id bigint,
    created_by_user_id bigint NOT NULL,
    last_used_at timestamptz,
    last_used_ip inet,
    expires_at timestamptz,
    revoked_at timestamptz,
    revoked_by_user_id bigint,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT api_keys_environment_check CHECK (environment IN ('live', 'test')),
    CONSTRAINT api_keys_revoked_at_check CHECK (revoked_at IS NULL OR revoked_at >= created_at)
);
COMMENT ON TABLE auth.api_keys IS 'API keys (API credentials, access tokens, secret keys) issued by the tenant for its own scripts and integrations: one row per key. A key is usable while revoked_at is NULL and it has not expired. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN auth.api_keys.name IS 'Label given by staff, e.g. ERP sync, Warehouse scanner app.';
COMMENT ON COLUMN auth.api_keys.key_prefix IS 'First characters of the key shown in the UI to recognise it, e.g. hk_live_3f9a; unique within the tenant.';
COMMENT ON COLUMN auth.api_keys.key_hash IS 'Hash of the full secret key; the secret is shown once and never stored.';
COMMENT ON COLUMN auth.api_keys.environment IS 'live (production data) or test (sandbox data).';
COMMENT ON COLUMN auth.api_keys.scopes IS 'Permission codes the key is restricted to, e.g. {orders.read,catalog.read}; empty means everything role_id allows.';
COMMENT ON COLUMN auth.api_keys.role_id IS 'Role whose permissions the key acts with.';
COMMENT ON COLUMN auth.api_keys.workspace_id IS 'Workspace the key is restricted to. NULL means the key can access every workspace.';
COMMENT ON COLUMN auth.api_keys.created_by_user_id IS 'Staff user who created the key.';
COMMENT ON COLUMN auth.api_keys.last_used_at IS 'Last request authenticated with the key. NULL when never used.';
COMMENT ON COLUMN auth.api_keys.last_used_ip IS 'Client IP address of the last request. NULL when never used.';
COMMENT ON COLUMN auth.api_keys.expires_at IS 'When the key stops working. NULL for keys that never expire.';
COMMENT ON COLUMN auth.api_keys.revoked_at IS 'When the key was revoked (rolled or disabled). NULL while active.';
COMMENT ON COLUMN auth.api_keys.revoked_by_user_id IS 'Staff user who revoked the key. NULL while the key is not revoked.';
COMMENT ON COLUMN auth.api_keys.deleted_at IS 'When the key was deleted from the list (soft delete). NULL for listed keys.';

CREATE TABLE auth.oauth_clients (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    client_identifier text NOT NULL,
    client_secret_hash text,
    description text,
    redirect_uris text[] NOT NULL,
    allowed_scopes text[] NOT NULL,
    is_confidential boolean NOT NULL DEFAULT true,
    is_first_party boolean NOT NULL DEFAULT false,
    created_by_user_id bigint NOT NULL,
    homepage_url text,
    logo_url text,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE auth.oauth_clients IS 'OAuth applications (connected apps, OAuth2 clients) registered by the tenant so third-party or in-house apps can act on its data: one row per registered app. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN auth.oauth_clients.name IS 'Application name shown on the consent screen, e.g. Acme Mobile Sales App.';
COMMENT ON COLUMN auth.oauth_clients.client_identifier IS 'Public OAuth client id string, unique within the tenant.';
COMMENT ON COLUMN auth.oauth_clients.client_secret_hash IS 'Hash of the client secret. NULL for public clients (mobile and single-page apps) that have no secret.';
COMMENT ON COLUMN auth.oauth_clients.description IS 'What the app does. NULL when not written.';
COMMENT ON COLUMN auth.oauth_clients.redirect_uris IS 'Allowed redirect URIs after authorisation.';
COMMENT ON COLUMN auth.oauth_clients.allowed_scopes IS 'Scopes the app may request, e.g. {orders.read,customers.read}.';
COMMENT ON COLUMN auth.oauth_clients.is_confidential IS 'True for server-side apps that can keep a secret; false for public clients.';
COMMENT ON COLUMN auth.oauth_clients.is_first_party IS 'True for the tenant''s own apps, which skip the consent screen.';
COMMENT ON COLUMN auth.oauth_clients.created_by_user_id IS 'Staff user who registered the app.';
COMMENT ON COLUMN auth.oauth_clients.homepage_url IS 'Homepage of the app. NULL when none.';
COMMENT ON COLUMN auth.oauth_clients.logo_url IS 'Logo shown on the consent screen. NULL when none.';
COMMENT ON COLUMN auth.oauth_clients.deleted_at IS 'When the app was deleted (soft delete); its tokens stop working. NULL for live apps.';

CREATE TABLE auth.oauth_tokens (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    oauth_client_id bigint NOT NULL,
    user_id bigint,
    parent_token_id bigint,
    token_type auth.oauth_token_type NOT NULL,
    grant_type auth.oauth_grant_type NOT NULL,
    token_hash text NOT NULL,
    scopes text[] NOT NULL,
    ip_address inet,
    issued_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at timestamptz,
    revoked_by_user_id bigint,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT oauth_tokens_expires_at_check CHECK (expires_at >= issued_at),
    CONSTRAINT oauth_tokens_revoked_at_check CHECK (revoked_at IS NULL OR revoked_at >= issued_at)
);
COMMENT ON TABLE auth.oauth_tokens IS 'Tokens (access tokens, refresh tokens, authorisation codes, grants) issued to OAuth clients: one row per token. A token is valid while revoked_at is NULL and expires_at is in the future.';
COMMENT ON COLUMN auth.oauth_tokens.oauth_client_id IS 'OAuth application the token was issued to.';
COMMENT ON COLUMN auth.oauth_tokens.user_id IS 'Staff user who authorised the app (on whose behalf it acts). NULL for client_credentials tokens, which act as the app itself.';
COMMENT ON COLUMN auth.oauth_tokens.parent_token_id IS 'Refresh token or authorisation code this token was exchanged from. NULL for tokens issued directly.';
COMMENT ON COLUMN auth.oauth_tokens.token_type IS 'access (short-lived bearer token), refresh (long-lived, exchanged for access tokens) or authorization_code (one-time code).';
COMMENT ON COLUMN auth.oauth_tokens.grant_type IS 'OAuth grant the token was issued under: authorization_code, client_credentials, refresh_token or device_code.';
COMMENT ON COLUMN auth.oauth_tokens.token_hash IS 'Hash of the token value; the token itself is never stored.';
COMMENT ON COLUMN auth.oauth_tokens.scopes IS 'Scopes granted to the token, e.g. {orders.read}.';
COMMENT ON COLUMN auth.oauth_tokens.ip_address IS 'IP address of the client when the token was issued. NULL when not recorded.';
COMMENT ON COLUMN auth.oauth_tokens.issued_at IS 'When the token was issued.';
COMMENT ON COLUMN auth.oauth_tokens.expires_at IS 'When the token expires.';
COMMENT ON COLUMN auth.oauth_tokens.last_used_at IS 'Last request authenticated with the token. NULL when never used.';
COMMENT ON COLUMN auth.oauth_tokens.revoked_at IS 'When the token was revoked. NULL while not revoked.';
COMMENT ON COLUMN auth.oauth_tokens.revoked_by_user_id IS 'Staff user who revoked the token (disconnected the app). NULL when not revoked or revoked automatically.';

CREATE TABLE auth.sso_connections (
    id bigint NOT NULL,
    tenant_id bigint NOT NULL,
    name text NOT NULL,
    protocol auth.sso_protocol NOT NULL,
    provider text NOT NULL,
    status auth.sso_connection_status NOT NULL DEFAULT 'draft',
    email_domains text[] NOT NULL,
    issuer_url text NOT NULL,
    sign_in_url text NOT NULL,
    certificate_fingerprint text,
    idp_metadata jsonb,
    default_role_id bigint,
    is_enforced boolean NOT NULL DEFAULT false,
    allows_jit_provisioning boolean NOT NULL DEFAULT true,
    created_by_user_id bigint NOT NULL,
    last_used_at timestamptz,
    deleted_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE auth.sso_connections IS 'Single sign-on (SSO) connections to the tenant''s identity provider over SAML 2.0 or OpenID Connect (Okta, Entra ID / Azure AD, Google Workspace…): one row per configured IdP connection. Rows are soft-deleted: deleted_at is set instead of removing the row.';
COMMENT ON COLUMN auth.sso_connections.name IS 'Label of the connection, unique within the tenant, e.g. Okta production.';
COMMENT ON COLUMN auth.sso_connections.protocol IS 'Federation protocol: saml or oidc.';
COMMENT ON COLUMN auth.sso_connections.provider IS 'Identity provider product, e.g. okta, azure_ad, google_workspace, onelogin, jumpcloud, custom.';
COMMENT ON COLUMN auth.sso_connections.status IS 'draft (being configured), testing (only admins may use it), active, disabled.';
COMMENT ON COLUMN auth.sso_connections.email_domains IS 'E-mail domains routed to this IdP at sign-in, e.g. {acme.com,acme.de}.';
COMMENT ON COLUMN auth.sso_connections.issuer_url IS 'IdP entity id (SAML) or issuer URL (OIDC).';
COMMENT ON COLUMN auth.sso_connections.sign_in_url IS 'IdP single-sign-on endpoint users are redirected to.';
COMMENT ON COLUMN auth.sso_connections.certificate_fingerprint IS 'SHA-256 fingerprint of the IdP signing certificate (SAML). NULL for OIDC connections.';
COMMENT ON COLUMN auth.sso_connections.idp_metadata IS 'Raw IdP configuration as jsonb (attribute mappings, endpoints, claims). NULL until uploaded.';
COMMENT ON COLUMN auth.sso_connections.default_role_id IS 'Role given to users created just-in-time at first SSO sign-in. NULL means the tenant''s default role (auth.roles.is_default_for_new_users) is used.';
COMMENT ON COLUMN auth.sso_connections.is_enforced IS 'True when users of the listed domains must use SSO and password login is disabled for them.';
COMMENT ON COLUMN auth.sso_connections.allows_jit_provisioning IS 'True when unknown users who authenticate at the IdP get a staff account created automatically.';
COMMENT ON COLUMN auth.sso_connections.created_by_user_id IS 'Staff user (an admin) who set up the connection.';
COMMENT ON COLUMN auth.sso_connections.last_used_at IS 'Last successful sign-in through the connection. NULL when never used.';
COMMENT ON COLUMN auth.sso_connections.deleted_at IS 'When the connection was deleted (soft delete). NULL for live connections.';

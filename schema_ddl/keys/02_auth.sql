-- heron phase 2, domain 02 auth: primary keys, unique keys, foreign keys and indexes of the staff
-- identities and access-control tables. Every reference between tenant-scoped tables is composite
-- (tenant_id, x_id), so a user, role or team can never be linked across tenants.

-- Primary keys ---------------------------------------------------------------------------------

ALTER TABLE auth.users ADD CONSTRAINT users_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.permissions ADD CONSTRAINT permissions_pkey PRIMARY KEY (id);
ALTER TABLE auth.roles ADD CONSTRAINT roles_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.role_permissions ADD CONSTRAINT role_permissions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.teams ADD CONSTRAINT teams_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.team_members ADD CONSTRAINT team_members_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.sessions ADD CONSTRAINT sessions_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.login_attempts ADD CONSTRAINT login_attempts_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.mfa_factors ADD CONSTRAINT mfa_factors_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.password_resets ADD CONSTRAINT password_resets_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.invitations ADD CONSTRAINT invitations_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.api_keys ADD CONSTRAINT api_keys_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.oauth_clients ADD CONSTRAINT oauth_clients_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.oauth_tokens ADD CONSTRAINT oauth_tokens_pkey PRIMARY KEY (tenant_id, id);
ALTER TABLE auth.sso_connections ADD CONSTRAINT sso_connections_pkey PRIMARY KEY (tenant_id, id);

-- Unique keys ----------------------------------------------------------------------------------

ALTER TABLE auth.users ADD CONSTRAINT users_tenant_id_email_key UNIQUE (tenant_id, email);
ALTER TABLE auth.permissions ADD CONSTRAINT permissions_code_key UNIQUE (code);
ALTER TABLE auth.roles ADD CONSTRAINT roles_tenant_id_name_key UNIQUE (tenant_id, name);
ALTER TABLE auth.role_permissions ADD CONSTRAINT role_permissions_tenant_id_role_id_permission_id_key UNIQUE (tenant_id, role_id, permission_id);
ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_tenant_id_user_id_role_id_key UNIQUE (tenant_id, user_id, role_id);
ALTER TABLE auth.teams ADD CONSTRAINT teams_tenant_id_name_key UNIQUE (tenant_id, name);
ALTER TABLE auth.team_members ADD CONSTRAINT team_members_tenant_id_team_id_user_id_key UNIQUE (tenant_id, team_id, user_id);
ALTER TABLE auth.api_keys ADD CONSTRAINT api_keys_tenant_id_key_prefix_key UNIQUE (tenant_id, key_prefix);
ALTER TABLE auth.oauth_clients ADD CONSTRAINT oauth_clients_tenant_id_client_identifier_key UNIQUE (tenant_id, client_identifier);
ALTER TABLE auth.sso_connections ADD CONSTRAINT sso_connections_tenant_id_name_key UNIQUE (tenant_id, name);

-- Foreign keys ---------------------------------------------------------------------------------

ALTER TABLE auth.users ADD CONSTRAINT users_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.users ADD CONSTRAINT users_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE auth.users ADD CONSTRAINT users_manager_user_id_fkey FOREIGN KEY (tenant_id, manager_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.users ADD CONSTRAINT users_invited_by_user_id_fkey FOREIGN KEY (tenant_id, invited_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.users ADD CONSTRAINT users_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE auth.users ADD CONSTRAINT users_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);

ALTER TABLE auth.permissions ADD CONSTRAINT permissions_minimum_plan_id_fkey FOREIGN KEY (minimum_plan_id) REFERENCES tenancy.plans (id);

ALTER TABLE auth.roles ADD CONSTRAINT roles_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.roles ADD CONSTRAINT roles_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE auth.roles ADD CONSTRAINT roles_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.role_permissions ADD CONSTRAINT role_permissions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.role_permissions ADD CONSTRAINT role_permissions_role_id_fkey FOREIGN KEY (tenant_id, role_id) REFERENCES auth.roles (tenant_id, id);
ALTER TABLE auth.role_permissions ADD CONSTRAINT role_permissions_permission_id_fkey FOREIGN KEY (permission_id) REFERENCES auth.permissions (id);
ALTER TABLE auth.role_permissions ADD CONSTRAINT role_permissions_granted_by_user_id_fkey FOREIGN KEY (tenant_id, granted_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_role_id_fkey FOREIGN KEY (tenant_id, role_id) REFERENCES auth.roles (tenant_id, id);
ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_granted_by_user_id_fkey FOREIGN KEY (tenant_id, granted_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.user_roles ADD CONSTRAINT user_roles_revoked_by_user_id_fkey FOREIGN KEY (tenant_id, revoked_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.teams ADD CONSTRAINT teams_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.teams ADD CONSTRAINT teams_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE auth.teams ADD CONSTRAINT teams_lead_user_id_fkey FOREIGN KEY (tenant_id, lead_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.teams ADD CONSTRAINT teams_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.teams ADD CONSTRAINT teams_timezone_name_fkey FOREIGN KEY (timezone_name) REFERENCES tenancy.timezones (name);

ALTER TABLE auth.team_members ADD CONSTRAINT team_members_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.team_members ADD CONSTRAINT team_members_team_id_fkey FOREIGN KEY (tenant_id, team_id) REFERENCES auth.teams (tenant_id, id);
ALTER TABLE auth.team_members ADD CONSTRAINT team_members_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.team_members ADD CONSTRAINT team_members_added_by_user_id_fkey FOREIGN KEY (tenant_id, added_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.sessions ADD CONSTRAINT sessions_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.sessions ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.sessions ADD CONSTRAINT sessions_sso_connection_id_fkey FOREIGN KEY (tenant_id, sso_connection_id) REFERENCES auth.sso_connections (tenant_id, id);
ALTER TABLE auth.sessions ADD CONSTRAINT sessions_mfa_factor_id_fkey FOREIGN KEY (tenant_id, mfa_factor_id) REFERENCES auth.mfa_factors (tenant_id, id);
ALTER TABLE auth.sessions ADD CONSTRAINT sessions_country_code_fkey FOREIGN KEY (country_code) REFERENCES tenancy.countries (code);

ALTER TABLE auth.login_attempts ADD CONSTRAINT login_attempts_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.login_attempts ADD CONSTRAINT login_attempts_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.login_attempts ADD CONSTRAINT login_attempts_session_id_fkey FOREIGN KEY (tenant_id, session_id) REFERENCES auth.sessions (tenant_id, id);

ALTER TABLE auth.mfa_factors ADD CONSTRAINT mfa_factors_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.mfa_factors ADD CONSTRAINT mfa_factors_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.password_resets ADD CONSTRAINT password_resets_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.password_resets ADD CONSTRAINT password_resets_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.password_resets ADD CONSTRAINT password_resets_requested_by_user_id_fkey FOREIGN KEY (tenant_id, requested_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.invitations ADD CONSTRAINT invitations_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.invitations ADD CONSTRAINT invitations_invited_by_user_id_fkey FOREIGN KEY (tenant_id, invited_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.invitations ADD CONSTRAINT invitations_role_id_fkey FOREIGN KEY (tenant_id, role_id) REFERENCES auth.roles (tenant_id, id);
ALTER TABLE auth.invitations ADD CONSTRAINT invitations_team_id_fkey FOREIGN KEY (tenant_id, team_id) REFERENCES auth.teams (tenant_id, id);
ALTER TABLE auth.invitations ADD CONSTRAINT invitations_language_code_fkey FOREIGN KEY (language_code) REFERENCES tenancy.languages (code);
ALTER TABLE auth.invitations ADD CONSTRAINT invitations_accepted_user_id_fkey FOREIGN KEY (tenant_id, accepted_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.api_keys ADD CONSTRAINT api_keys_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.api_keys ADD CONSTRAINT api_keys_role_id_fkey FOREIGN KEY (tenant_id, role_id) REFERENCES auth.roles (tenant_id, id);
ALTER TABLE auth.api_keys ADD CONSTRAINT api_keys_workspace_id_fkey FOREIGN KEY (tenant_id, workspace_id) REFERENCES tenancy.workspaces (tenant_id, id);
ALTER TABLE auth.api_keys ADD CONSTRAINT api_keys_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.api_keys ADD CONSTRAINT api_keys_revoked_by_user_id_fkey FOREIGN KEY (tenant_id, revoked_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.oauth_clients ADD CONSTRAINT oauth_clients_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.oauth_clients ADD CONSTRAINT oauth_clients_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.oauth_tokens ADD CONSTRAINT oauth_tokens_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.oauth_tokens ADD CONSTRAINT oauth_tokens_oauth_client_id_fkey FOREIGN KEY (tenant_id, oauth_client_id) REFERENCES auth.oauth_clients (tenant_id, id);
ALTER TABLE auth.oauth_tokens ADD CONSTRAINT oauth_tokens_user_id_fkey FOREIGN KEY (tenant_id, user_id) REFERENCES auth.users (tenant_id, id);
ALTER TABLE auth.oauth_tokens ADD CONSTRAINT oauth_tokens_parent_token_id_fkey FOREIGN KEY (tenant_id, parent_token_id) REFERENCES auth.oauth_tokens (tenant_id, id);
ALTER TABLE auth.oauth_tokens ADD CONSTRAINT oauth_tokens_revoked_by_user_id_fkey FOREIGN KEY (tenant_id, revoked_by_user_id) REFERENCES auth.users (tenant_id, id);

ALTER TABLE auth.sso_connections ADD CONSTRAINT sso_connections_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenancy.tenants (id);
ALTER TABLE auth.sso_connections ADD CONSTRAINT sso_connections_default_role_id_fkey FOREIGN KEY (tenant_id, default_role_id) REFERENCES auth.roles (tenant_id, id);
ALTER TABLE auth.sso_connections ADD CONSTRAINT sso_connections_created_by_user_id_fkey FOREIGN KEY (tenant_id, created_by_user_id) REFERENCES auth.users (tenant_id, id);

-- Indexes --------------------------------------------------------------------------------------

CREATE INDEX users_tenant_id_workspace_id_idx ON auth.users (tenant_id, workspace_id);
CREATE INDEX role_permissions_tenant_id_permission_id_idx ON auth.role_permissions (tenant_id, permission_id);
CREATE INDEX user_roles_tenant_id_role_id_idx ON auth.user_roles (tenant_id, role_id);
CREATE INDEX team_members_tenant_id_user_id_idx ON auth.team_members (tenant_id, user_id);
CREATE INDEX sessions_tenant_id_user_id_idx ON auth.sessions (tenant_id, user_id);
CREATE INDEX sessions_tenant_id_started_at_idx ON auth.sessions (tenant_id, started_at);
CREATE INDEX login_attempts_tenant_id_user_id_idx ON auth.login_attempts (tenant_id, user_id);
CREATE INDEX login_attempts_tenant_id_attempted_at_idx ON auth.login_attempts (tenant_id, attempted_at);
CREATE INDEX mfa_factors_tenant_id_user_id_idx ON auth.mfa_factors (tenant_id, user_id);
CREATE INDEX password_resets_tenant_id_user_id_idx ON auth.password_resets (tenant_id, user_id);
CREATE INDEX invitations_tenant_id_invited_by_user_id_idx ON auth.invitations (tenant_id, invited_by_user_id);
CREATE INDEX api_keys_tenant_id_created_by_user_id_idx ON auth.api_keys (tenant_id, created_by_user_id);
CREATE INDEX oauth_tokens_tenant_id_oauth_client_id_idx ON auth.oauth_tokens (tenant_id, oauth_client_id);
CREATE INDEX oauth_tokens_tenant_id_user_id_idx ON auth.oauth_tokens (tenant_id, user_id);

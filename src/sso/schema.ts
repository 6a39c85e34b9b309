/**
 * The sso room's tables (migrations/023-sso-scim.ts), merged into the store's `DB` type by
 * declaration, so store/schema.ts names no room. Timestamps are epoch ms.
 */

/** An organization's SCIM bearer token: only its SHA-256; one per organization (a new one replaces it). */
export interface ScimTokensTable {
  organization_id: string;
  token_hash: string;
  created_at: number;
}

/**
 * A person the organization's directory provisioned: `user_id` is the person (a member of the
 * organization while `active` is 1), `resource` the SCIM attributes the directory sent (JSON text:
 * name, emails, the enterprise extension…), kept to answer reads as the directory wrote them.
 */
export interface ScimUsersTable {
  id: string;
  organization_id: string;
  user_id: string;
  user_name: string;
  external_id: string | null;
  active: number;
  resource: string;
  created_at: number;
  updated_at: number;
}

/** A group of the directory; its members take the organization role its display name names (scim-roles.ts). */
export interface ScimGroupsTable {
  id: string;
  organization_id: string;
  display_name: string;
  external_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface ScimGroupMembersTable {
  group_id: string;
  scim_user_id: string;
}

/** A SAML connection of an organization, from its IdP's metadata (saml-connections.ts). */
export interface SsoConnectionsTable {
  id: string;
  organization_id: string;
  /** "saml" (OpenID connections are not built yet). */
  kind: string;
  idp_entity_id: string;
  /** The IdP's single sign-on URL for the HTTP-Redirect binding. */
  idp_sso_url: string;
  /** Its signing certificates (JSON list of base64 DER). */
  idp_certs: string;
  idp_initiated: number;
  /** The file or URL the metadata came from. */
  metadata_source: string;
  created_at: number;
}

/** An assertion a connection accepted, remembered until its NotOnOrAfter so it is never accepted twice. */
export interface SamlAssertionsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: number;
}

/** Whether the organization requires SSO for its proven domains (migrations/027-sso-required.ts). */
export interface SsoSettingsTable {
  organization_id: string;
  sso_required: number;
  updated_at: number;
}

declare module "../store/schema.js" {
  interface DB {
    scim_tokens: ScimTokensTable;
    scim_users: ScimUsersTable;
    scim_groups: ScimGroupsTable;
    scim_group_members: ScimGroupMembersTable;
    sso_connections: SsoConnectionsTable;
    saml_assertions: SamlAssertionsTable;
    sso_settings: SsoSettingsTable;
  }
}

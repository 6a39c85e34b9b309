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

declare module "../store/schema.js" {
  interface DB {
    scim_tokens: ScimTokensTable;
    scim_users: ScimUsersTable;
    scim_groups: ScimGroupsTable;
    scim_group_members: ScimGroupMembersTable;
  }
}

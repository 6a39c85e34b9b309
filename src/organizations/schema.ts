/**
 * The organizations room's tables (migrations/016-organizations.ts, 018-organization-domains.ts), merged into the store's `DB`
 * type by declaration, so store/schema.ts names no room. Timestamps are epoch ms.
 */

/** An organization: a display name, a unique slug, and the app's JSON metadata (size-limited). */
export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  /** The app's JSON object (text); NULL when it has none. */
  metadata: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * A person (the token's `sub`) in an organization, with one role: a built-in one (owner, admin,
 * member) or an operator's role from the roles room. `active_at` is when the person last made it
 * their active organization (the latest one is the `org` claim); NULL: never.
 */
export interface OrganizationMembersTable {
  organization_id: string;
  user_id: string;
  role: string;
  created_at: number;
  active_at: number | null;
}

/**
 * An invitation by address: only the SHA-256 of its token is stored. It ends when accepted,
 * revoked or past `expires_at`; a resend replaces the token hash, so the older link stops working.
 */
export interface OrganizationInvitationsTable {
  id: string;
  organization_id: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
  sent_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

/**
 * A domain the organization has proven (migrations/018-organization-domains.ts): the operator adds
 * it once they have checked the organization owns it. A person with a verified address at exactly
 * this domain may join with `role`.
 */
export interface OrganizationDomainsTable {
  domain: string;
  organization_id: string;
  role: string;
  /** Who vouched for it: "admin-api", "cli" or "dashboard". */
  verified_by: string;
  created_at: number;
}

declare module "../store/schema.js" {
  interface DB {
    organizations: OrganizationsTable;
    organization_members: OrganizationMembersTable;
    organization_invitations: OrganizationInvitationsTable;
    organization_domains: OrganizationDomainsTable;
  }
}

import type { Selectable } from "kysely";

/**
 * The provider's tables (migration 014), declared in the room: oidc-provider's own records (codes,
 * tokens, grants, sessions, interactions, dynamically registered clients), and what the operator
 * registers (clients and resources).
 */

/**
 * One oidc-provider model instance (AuthorizationCode, RefreshToken, AccessToken, Grant, Session,
 * Interaction, Client from registration…), keyed by (model, id). `payload` is the library's JSON;
 * the columns beside it are the lookups the adapter interface asks for (grant, uid, user code) and
 * the (account, client) pair that finds a remembered grant.
 */
export interface OauthRecordsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  account_id: string | null;
  client_id: string | null;
  /** Epoch ms; null = no expiry. */
  expires_at: number | null;
  /** Epoch ms when a code or refresh token was used; a second use ends the grant. */
  consumed_at: number | null;
  created_at: number;
}

/** A client the operator registered (CLI, admin API). */
export interface OauthClientsTable {
  client_id: string;
  name: string;
  /** "public" (PKCE, no secret) or "confidential" (a secret; SHA-256 of it kept, never the secret). */
  type: "public" | "confidential";
  secret_hash: string | null;
  /** JSON arrays. */
  redirect_uris: string;
  scopes: string;
  resources: string;
  grant_types: string;
  created_at: number;
}

/** An API or MCP server tokens may be issued for (RFC 8707 resource indicator → `aud`). */
export interface OauthResourcesTable {
  /** The resource indicator: an absolute https URL (http only on loopback), no fragment. */
  resource: string;
  name: string;
  /** JSON array of the scopes it understands. */
  scopes: string;
  created_at: number;
}

export type OauthTables = {
  oauth_records: OauthRecordsTable;
  oauth_clients: OauthClientsTable;
  oauth_resources: OauthResourcesTable;
};

export type OauthRecordRow = Selectable<OauthRecordsTable>;
export type OauthClientRow = Selectable<OauthClientsTable>;
export type OauthResourceRow = Selectable<OauthResourcesTable>;

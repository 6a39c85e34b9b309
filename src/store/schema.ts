import type { Generated } from "kysely";

/**
 * Kysely table types. Timestamps are epoch milliseconds (bigint on PostgreSQL, read back as
 * numbers); booleans are stored as 0/1 integers so both dialects behave the same. These are the
 * kernel's and the feature rooms' tables; each sign-in method adds its own to `DB` by declaration
 * merging (methods/<method>/tables.ts).
 */
export interface UsersTable {
  id: string;
  /** The user's current canonical email (trimmed, lowercased); not unique across login methods. */
  email: string;
  time_joined: number;
  updated_at: number;
  /** The person this login method belongs to (account linking); NULL: a person of its own. */
  primary_user_id: string | null;
}




/** An address is verified for a user when a row exists for (user_id, email). */
export interface VerifiedEmailsTable {
  user_id: string;
  email: string;
  verified_at: number;
}

/**
 * What one-time tokens are for: the kernel's, and each room's by declaration merging (its own
 * `declare module ".../store/schema.js"`). A purpose is also the kind of the mail that carries it.
 */
export interface TokenPurposes {
  email_verification: true;
}

/** One-time tokens (email verification, and the rooms' links by mail): only the SHA-256 of the token is kept. */
export interface OneTimeTokensTable {
  token_hash: string;
  purpose: keyof TokenPurposes & string;
  user_id: string;
  email: string;
  created_at: number;
  expires_at: number;
}

export interface SessionsTable {
  handle: string;
  user_id: string;
  created_at: number;
  /** Sliding expiry: moved forward on every refresh. */
  expires_at: number;
  last_refreshed_at: number | null;
  revoked_at: number | null;
  revoke_reason: string | null;
  /** Where the session was started (client IP as limit-guard sees it, User-Agent), for "My account". */
  client_ip: Generated<string | null>;
  user_agent: Generated<string | null>;
  /** Who acts in it when not the person (a support session): JSON {sub, email, reason}, the token's `act` claim (migration 025). */
  actor: Generated<string | null>;
  /** The fixed time it ends whatever its refreshes (a support session's 15 minutes); NULL: the sliding expiry only. */
  ends_at: Generated<number | null>;
}

/** A session's refresh token as another server kept it (migration 017): SHA-256(SHA-256(token)), hex. */
export interface MovedRefreshTokensTable {
  token_hash2: string;
  session_handle: string;
  /** The moved_refresh_keys row its children are encrypted with, if any. */
  key_id: string | null;
}

/** Another server's refresh-token encryption key, sealed under the server secret (migration 017). */
export interface MovedRefreshKeysTable {
  id: string;
  secret_enc: string;
  created_at: number;
}

/** Every refresh token ever issued for a session (its family), hashed; rotation marks `rotated_at`. */
export interface RefreshTokensTable {
  token_hash: string;
  session_handle: string;
  parent_hash: string | null;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  public_jwk: string;
  /** Private JWK as JSON, or "enc:v1:<…>" when encrypted with the server secret. */
  private_jwk: string;
  created_at: number;
  /** When it stopped signing; null for the current key. */
  retired_at: number | null;
  /** Another server's key moved in (migration 017: "supertokens"), never signs; NULL for ours. */
  moved_from: Generated<string | null>;
}

/**
 * Mail waiting to be sent (written in the same transaction as the state change that caused it).
 * Bodies hold raw tokens, so they are scrubbed (set to null) once the relay has accepted the mail.
 */
export interface MailOutboxTable {
  id: string;
  created_at: number;
  kind: string;
  /** JSON object of extra headers (X-Authsvc-Action, X-Authsvc-Expires-At); never user-supplied text. */
  headers: string | null;
  to_address: string;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  status: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  lease_owner: string | null;
  last_error: string | null;
  sent_at: number | null;
  message_id: string | null;
  /** The relay's reply to the accepted message, e.g. "250 2.0.0 Ok: queued as 4F1". */
  smtp_response: string | null;
}

export interface CaughtMailTable {
  id: Generated<number>;
  received_at: number;
  mail_from: string | null;
  to_address: string;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  headers: string | null;
}

/** Append-only audit log (update and delete are refused by the database). */
export interface EventsTable {
  id: Generated<number>;
  at: number;
  type: string;
  user_id: string | null;
  data: string | null;
  /** The admin behind the event (dashboard actions, admin sign-ins), see store/events.ts. */
  admin_id: string | null;
}

/**
 * Rate-limit counters, one row per (bucket, key): `count` hits since the window opened (or
 * consecutive failures for sign-in), `blocked_until` the time before which the key is refused
 * (0 when not blocked). A row is dead once both `expires_at` and `blocked_until` have passed.
 */
export interface RateLimitsTable {
  bucket: string;
  key: string;
  count: number;
  updated_at: number;
  expires_at: number;
  blocked_until: number;
}

/** A factor a session has completed (the `st-mfa` claim's `c`). */
export interface MfaSessionFactorsTable {
  session_handle: string;
  factor_id: string;
  completed_at: number;
}

/** A secondary factor a person requires at every sign-in (set when they set one up). */
export interface MfaRequiredFactorsTable {
  user_id: string;
  factor_id: string;
  created_at: number;
}



/** A recovery code: only its SHA-256 is kept; `used_at` set once it has been used. */
export interface MfaRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created_at: number;
  used_at: number | null;
}


/** A role: a name and (in role_permissions) its permissions (src/roles/); `organization` 1: organizations may hand it out. */
export interface RolesTable { name: string; created_at: number; organization: number }
export interface RolePermissionsTable { role: string; permission: string }
/** A role given to a person (the token's `sub`). */
export interface UserRolesTable { user_id: string; role: string; created_at: number }
/** The app's JSON object for a person (src/metadata/). */
export interface UserMetadataTable { user_id: string; data: string; updated_at: number }
/** A self-service deletion waiting for its grace period to pass (src/account/). */
/** The locale a person reads their mail in (022-person-locales): one row per person. */
export interface PersonLocalesTable { user_id: string; locale: string; updated_at: number }
export interface AccountDeletionsTable { user_id: string; requested_at: number; delete_at: number; cancel_token_hash: string }

/** Every table; a sign-in method adds its tables here from its room (declare module). */
export interface DB {
  users: UsersTable;
  verified_emails: VerifiedEmailsTable;
  one_time_tokens: OneTimeTokensTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  signing_keys: SigningKeysTable;
  mail_outbox: MailOutboxTable;
  caught_mail: CaughtMailTable;
  events: EventsTable;
  rate_limits: RateLimitsTable;
  mfa_session_factors: MfaSessionFactorsTable;
  mfa_required_factors: MfaRequiredFactorsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  user_metadata: UserMetadataTable;
  account_deletions: AccountDeletionsTable;
  person_locales: PersonLocalesTable;
  moved_refresh_tokens: MovedRefreshTokensTable;
  moved_refresh_keys: MovedRefreshKeysTable;
}

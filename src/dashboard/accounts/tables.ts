/**
 * The dashboard's accounts' tables, added to the kernel's database type (store/schema.ts) by
 * declaration merging: the kernel never names them. Their migration keeps the one order of
 * store/migrations/index.ts (011-admins, its part in ../migrations/).
 */
declare module "../../store/schema.js" {
  interface DB {
    admins: AdminsTable;
    admin_sessions: AdminSessionsTable;
  }
}

/** A dashboard admin (src/dashboard/accounts/): not an app user. `totp_secret_enc` NULL = no second factor. */
export interface AdminsTable { id: string; email: string; password_hash: string; totp_secret_enc: string | null; totp_last_step: number; created_at: number; updated_at: number }
/** A dashboard session: only the SHA-256 of its token; idle and absolute limits are checked on use. */
export interface AdminSessionsTable { token_hash: string; admin_id: string; created_at: number; last_seen_at: number; expires_at: number; ip: string | null; user_agent: string | null }

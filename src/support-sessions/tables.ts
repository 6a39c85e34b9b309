/**
 * The support-sessions room's table, added to the kernel's database type by declaration merging
 * (the kernel never names it); its migration is 025-support-sessions (store/migrations/index.ts).
 */
declare module "../store/schema.js" {
  interface DB {
    support_sessions: SupportSessionsTable;
  }
}

/**
 * A session an admin opened as a person (the session itself is the kernel's row `session_handle`):
 * who, why, until when; the hash of its one-time hand-over link (NULL once used); when and why it ended.
 */
export interface SupportSessionsTable {
  session_handle: string;
  person_id: string;
  admin_id: string;
  admin_email: string;
  reason: string;
  started_at: number;
  ends_at: number;
  link_hash: string | null;
  link_expires_at: number;
  ended_at: number | null;
  end_reason: string | null;
}

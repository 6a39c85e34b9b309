/** The CDI's table (migration 024), added to the kernel's DB. */
export interface CdiSessionsTable {
  handle: string;
  tenant_id: string;
  /** JSON object: the app's claims in every access token of the session. */
  jwt_payload: string;
  /** JSON object: the app's session data in the database. */
  session_data: string;
  anti_csrf_token: string | null;
}

declare module "../store/schema.js" {
  interface DB {
    cdi_sessions: CdiSessionsTable;
  }
}

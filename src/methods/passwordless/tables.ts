
/**
 * This room's tables, added to the kernel's database type (store/schema.ts) by declaration merging:
 * the kernel never names them. Their migrations keep the one order of store/migrations/index.ts.
 */
declare module "../../store/schema.js" {
  interface DB {
    passwordless_users: PasswordlessUsersTable;
    passwordless_devices: PasswordlessDevicesTable;
    passwordless_codes: PasswordlessCodesTable;
  }
}

/** One passwordless login method per address (methods/passwordless). */
export interface PasswordlessUsersTable {
  user_id: string;
  email: string;
  created_at: number;
}

/** A started passwordless flow: its id is the SHA-256 of the deviceId only the browser holds. */
export interface PasswordlessDevicesTable {
  pre_auth_session_id: string;
  email: string;
  /** Random, never leaves the server: a typed code becomes a link code only with it. */
  link_code_salt: string;
  failed_attempts: number;
  created_at: number;
}

/** A mailed code, kept as the SHA-256 of its link code (the typed code maps to the same link code). */
export interface PasswordlessCodesTable {
  link_code_hash: string;
  pre_auth_session_id: string;
  created_at: number;
  expires_at: number;
}

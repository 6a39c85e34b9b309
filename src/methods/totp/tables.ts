
/**
 * This room's tables, added to the kernel's database type (store/schema.ts) by declaration merging:
 * the kernel never names them. Their migrations keep the one order of store/migrations/index.ts.
 */
declare module "../../store/schema.js" {
  interface DB {
    totp_devices: TotpDevicesTable;
    totp_used_codes: TotpUsedCodesTable;
    totp_attempts: TotpAttemptsTable;
  }
}

/** A TOTP device: the Base32 secret, encrypted with the server secret ("enc:v1:…") when one is set. */
export interface TotpDevicesTable {
  user_id: string;
  name: string;
  secret_enc: string;
  period: number;
  skew: number;
  created_at: number;
  verified_at: number | null;
}

/** A TOTP code already accepted for a user, refused again until `expires_at` (replay protection). */
export interface TotpUsedCodesTable {
  user_id: string;
  code: string;
  expires_at: number;
}

/** Consecutive wrong second-factor codes of a user (the lock-out); a right one resets it. */
export interface TotpAttemptsTable {
  user_id: string;
  failures: number;
  last_failure_at: number;
}

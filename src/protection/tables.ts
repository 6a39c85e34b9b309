/**
 * The protection room's tables, added to the kernel's database type by declaration merging (the
 * kernel never names them); their migration keeps the one order of store/migrations/index.ts.
 */
declare module "../store/schema.js" {
  interface DB {
    captcha_solutions: CaptchaSolutionsTable;
    protection_secrets: ProtectionSecretsTable;
    breached_sign_ins: BreachedSignInsTable;
  }
}

/** A bot-check solution already used, by the SHA-256 of what identifies it, kept until its challenge expires (single use). */
export interface CaptchaSolutionsTable {
  id: string;
  expires_at: number;
}

/** Secrets the room makes itself on first use and every instance shares (the proof-of-work challenges' HMAC keys). */
export interface ProtectionSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** A password login whose password was found breached at a sign-in (--breached-passwords-at-sign-in), until it changes. */
export interface BreachedSignInsTable {
  user_id: string;
  found_at: number;
}

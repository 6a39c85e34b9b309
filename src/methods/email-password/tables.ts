
/**
 * This room's tables, added to the kernel's database type (store/schema.ts) by declaration merging:
 * the kernel never names them. Their migrations keep the one order of store/migrations/index.ts.
 */
declare module "../../store/schema.js" {
  interface DB {
    email_password_credentials: EmailPasswordCredentialsTable;
  }
  interface TokenPurposes {
    password_reset: true;
  }
}

/** One email/password login per user; the email is unique among email/password logins. */
export interface EmailPasswordCredentialsTable {
  user_id: string;
  email: string;
  /** Scheme-prefixed hash, see core/passwords. Never leaves the server. */
  password_hash: string;
  created_at: number;
  updated_at: number;
}

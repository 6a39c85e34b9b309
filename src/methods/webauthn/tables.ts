
/**
 * This room's tables, added to the kernel's database type (store/schema.ts) by declaration merging:
 * the kernel never names them. Their migrations keep the one order of store/migrations/index.ts.
 */
declare module "../../store/schema.js" {
  interface DB {
    webauthn_accounts: WebauthnAccountsTable;
    webauthn_credentials: WebauthnCredentialsTable;
    webauthn_options: WebauthnOptionsTable;
  }
  interface TokenPurposes {
    webauthn_recovery: true;
  }
}

/** A passkey login (recipe user); the address is unique among passkey logins. */
export interface WebauthnAccountsTable {
  user_id: string;
  email: string;
  created_at: number;
}

/** A registered passkey: the authenticator's public key (COSE, base64url) and its signature counter. */
export interface WebauthnCredentialsTable {
  /** The credential id (base64url), as the authenticator gives it. */
  id: string;
  user_id: string;
  rp_id: string;
  public_key: string;
  counter: number;
  /** JSON array of transports ("internal", "usb", ...), or null. */
  transports: string | null;
  created_at: number;
  last_used_at: number | null;
}

/** Registration or sign-in options handed out: the challenge, used once, until `expires_at`. */
export interface WebauthnOptionsTable {
  id: string;
  kind: "registration" | "authentication";
  challenge: string;
  email: string | null;
  user_handle: string | null;
  rp_id: string;
  user_verification: string;
  created_at: number;
  expires_at: number;
}

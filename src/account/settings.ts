import type { SettingsBlock } from "../config/engine.js";
import { duration } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    accountDeletionGraceMs: number;
  }
}

/** The self-service account's settings. */
export const accountSettings: SettingsBlock = { after: "metadataClaim", helpGroup: "Accounts and metadata", helpGroupAfter: "Sign-in methods", rows: [
  { key: "accountDeletionGraceMs", flag: "account-deletion-grace", env: "AUTHSVC_ACCOUNT_DELETION_GRACE", parse: duration(0, 90 * 86_400_000), default: () => 7 * 86_400_000, doc: "how long a self-service account deletion waits (the mail's link cancels it); 0 deletes at once" },
] };

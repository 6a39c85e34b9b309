import type { SettingsBlock } from "../config/engine.js";
import { duration } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    auditRetentionMs: number;
  }
}

/** The audit room's setting (docs/security.md, "Audit log"): after the protection room's. */
export const auditSettings: SettingsBlock = { after: "dkimSelector", rows: [
  { key: "auditRetentionMs", flag: "audit-retention", env: "AUTHSVC_AUDIT_RETENTION", parse: duration(86_400_000, 3650 * 86_400_000), default: () => 90 * 86_400_000, doc: "how long the audit log keeps an entry (the purge job deletes older ones); at least a day" },
] };

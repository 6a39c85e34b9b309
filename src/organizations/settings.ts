import type { SettingsBlock } from "../config/engine.js";
import { duration } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    organizationInvitationLifetimeMs: number;
  }
}

/** Organizations' settings (docs/organizations.md). */
export const organizationSettings: SettingsBlock = { after: "accountDeletionGraceMs", rows: [
  { key: "organizationInvitationLifetimeMs", flag: "organization-invitation-lifetime", env: "AUTHSVC_ORGANIZATION_INVITATION_LIFETIME", parse: duration(3_600_000, 90 * 86_400_000), default: () => 7 * 86_400_000, doc: "how long an invitation to an organization works (a resend starts it again)" },
] };

import type { SettingsBlock } from "../config/engine.js";
import { bool } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    newSignInMail: boolean;
  }
}

/** The security-mails room's setting (docs/security.md, "Security mails"). */
export const securityMailSettings: SettingsBlock = { after: "auditRetentionMs", rows: [
  { key: "newSignInMail", flag: "new-sign-in-mail", env: "AUTHSVC_NEW_SIGN_IN_MAIL", parse: bool, default: (c) => c.mode === "production", doc: "mail a person when they sign in from a device and network not seen for them before (not their first sign-in), with a \"this wasn't me\" link that signs everything out and asks for a new password; on in production, off in development (a local server sees one browser after another)" },
] };

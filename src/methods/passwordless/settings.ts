import type { SettingsBlock } from "../../config/engine.js";
import { duration, oneOf } from "../../config/parsers.js";

declare module "../../config/types.js" {
  interface Config {
    /** Passwordless sign-in (docs/passwordless.md). */
    passwordlessFlowType: "both" | "code" | "link" | "off";
    passwordlessCodeLifetimeMs: number;
  }
}

/** Passwordless sign-in's settings, documented after account linking. */
export const passwordlessSettings: SettingsBlock = { after: "accountLinking", helpGroup: "Sign-in methods", rows: [
  { key: "passwordlessFlowType", flag: "passwordless-flow-type", env: "AUTHSVC_PASSWORDLESS_FLOW_TYPE", parse: oneOf("both", "code", "link", "off"), default: () => "both", doc: "passwordless sign-in by email: a one-time code, a magic link, both, or off (docs/passwordless.md)" },
  { key: "passwordlessCodeLifetimeMs", flag: "passwordless-code-lifetime", env: "AUTHSVC_PASSWORDLESS_CODE_LIFETIME", parse: duration(60_000, 86_400_000), default: () => 10 * 60_000, doc: "how long a mailed sign-in code and link work (ASVS 6.5.5: at most 10 minutes)" },
] };

import type { SettingsBlock } from "../config/engine.js";
import { adminKey } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    /** The SuperTokens Core Driver Interface under /cdi (docs/supertokens-core.md): off when unset. */
    cdiApiKey: string | undefined;
  }
}

/** The CDI's one setting: its API key, which also switches it on. A secret: env or file only, like the admin key. */
export const cdiSettings: SettingsBlock = { after: "adminApiKey", rows: [
  { key: "cdiApiKey", env: "AUTHSVC_CDI_API_KEY", parse: adminKey, secret: "all", default: () => undefined, doc: "serve the SuperTokens Core Driver Interface under /cdi with this API key (the SDK's `apiKey`; ≥ 32 chars: `authsvc admin-key` makes one; unset = off); env or file only" },
] };

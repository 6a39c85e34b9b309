import type { SettingsBlock, SettingsCheck } from "../config/engine.js";
import { adminKey, bool } from "../config/parsers.js";
import { ConfigError } from "../config/types.js";

declare module "../config/types.js" {
  interface Config {
    /** The SuperTokens Core Driver Interface under /cdi (docs/supertokens-core.md): off when unset. */
    cdiApiKey: string | undefined;
    /** The CDI's test mode (apps made and removed by the SDK's own test suite); never in production. */
    cdiTestMode: boolean;
  }
}

/** The CDI's settings: its API key, which also switches it on (a secret: env or file only, like the admin key), and its test mode. */
export const cdiSettings: SettingsBlock = { after: "adminApiKey", rows: [
  { key: "cdiApiKey", env: "AUTHSVC_CDI_API_KEY", parse: adminKey, secret: "all", default: () => undefined, doc: "serve the SuperTokens Core Driver Interface under /cdi with this API key (the SDK's `apiKey`; ≥ 32 chars: `authsvc admin-key` makes one; unset = off); env or file only" },
  { key: "cdiTestMode", env: "AUTHSVC_CDI_TEST_MODE", parse: bool, default: () => false, doc: "the CDI's test mode, for supertokens-node's own test suite (scripts/sdk-suite.mjs): /cdi answers without a key, and `PUT /cdi/recipe/multitenancy/app/v2` makes throwaway apps, each its own empty SQLite database under /cdi/appid-<id>; refused in production; env only" },
] };

/** The test mode takes requests without a key and makes databases on request: a development tool only. */
export const cdiChecks: readonly SettingsCheck[] = [
  (c) => {
    if (c.cdiTestMode && c.mode === "production") throw new ConfigError("AUTHSVC_CDI_TEST_MODE is for supertokens-node's test suite: it answers without an API key, so it is refused in production mode");
    if (c.cdiTestMode && c.workers > 1) throw new ConfigError("AUTHSVC_CDI_TEST_MODE keeps its apps in one process: run it with --workers 1");
  },
];

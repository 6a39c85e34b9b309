import type { SettingsBlock } from "../config/engine.js";
import { fail, int, kindOf, optStr } from "../config/parsers.js";
import { PROTOCOL_KEYS } from "../core/claims.js";

declare module "../config/types.js" {
  interface Config {
    metadataMaxBytes: number;
    metadataClaim: string | undefined;
  }
}

/** User metadata's settings (docs/roles-and-metadata.md): after the sign-in methods' rows that follow account linking, before the cookies. */
export const metadataSettings: SettingsBlock = { before: "cookieSameSite", helpGroup: "Accounts and metadata", helpGroupAfter: "Sign-in methods", rows: [
  // Roles, metadata and the self-service account (issue 23; src/roles, src/metadata, src/account)
  { key: "metadataMaxBytes", flag: "metadata-max-bytes", env: "AUTHSVC_METADATA_MAX_BYTES", parse: int(64, 65_536), default: () => 4096, doc: "largest user metadata object, in bytes of JSON (an update past it is refused)" },
  { key: "metadataClaim", flag: "metadata-claim", env: "AUTHSVC_METADATA_CLAIM", parse: kindOf("claim", (v: unknown) => { const s = optStr(v) as string | undefined; if (s !== undefined && (PROTOCOL_KEYS.has(s) || s.startsWith("st-"))) fail("that claim is the access token's own (or the SDKs'): choose another name"); return s === undefined || /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(s) ? s : fail("expected a claim name: a letter, then letters, digits, '_', '.', ':' or '-'"); }), default: () => undefined, doc: "copy each user's metadata into access tokens under this claim (unset: not copied)" },
] };

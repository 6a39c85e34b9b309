import type { SettingsBlock, SettingsCheck } from "../../config/engine.js";
import { duration, fail, kindOf, originList, str, type Parser } from "../../config/parsers.js";
import { ConfigError } from "../../config/types.js";

declare module "../../config/types.js" {
  interface Config {
    webauthnRpId: string;
    webauthnRpName: string;
    webauthnOrigins: readonly string[];
    webauthnRecoveryTokenLifetimeMs: number;
  }
}

/** A WebAuthn relying party ID: a bare host name (no scheme, port or path), lowercased. */
const rpId: Parser = kindOf("host", (v: unknown) => {
  const s = (str(v) as string).trim().toLowerCase();
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(s) ? s : fail("expected a host name such as example.com (no scheme, port or path)");
});

/** Passkeys' settings (docs/passkeys.md): after the hosted pages, whose settings the defaults read. */
export const webauthnSettings: SettingsBlock = { after: "pagesRedirectPaths", helpGroup: "Sign-in methods", rows: [
  { key: "webauthnRpId", flag: "webauthn-rp-id", env: "AUTHSVC_WEBAUTHN_RP_ID", parse: rpId, default: (c) => new URL(c.websiteUrl!).hostname, doc: "passkeys: the relying party ID, a domain that every passkey origin is on (default: the website URL's host); passkeys stay bound to it, so choose it once" },
  { key: "webauthnRpName", flag: "webauthn-rp-name", env: "AUTHSVC_WEBAUTHN_RP_NAME", parse: str, default: (c) => c.pagesProductName ?? "authsvc", doc: "passkeys: the name the browser shows when a passkey is made (default: the hosted pages' product name)" },
  { key: "webauthnOrigins", flag: "webauthn-origins", env: "AUTHSVC_WEBAUTHN_ORIGINS", parse: originList, default: (c) => [...new Set([c.websiteUrl!, ...(c.hostedPages ? [c.publicUrl!] : [])])], doc: "passkeys: comma-separated origins whose pages may make and use passkeys (default: the website URL, and the public URL when the hosted pages are on)" },
  { key: "webauthnRecoveryTokenLifetimeMs", flag: "webauthn-recovery-token-lifetime", env: "AUTHSVC_WEBAUTHN_RECOVERY_TOKEN_LIFETIME", parse: duration(60_000, 86_400_000), default: () => 3_600_000, doc: "passkeys: validity of the \"lost my passkey\" recovery link" },
] };

/** A browser refuses a passkey whose RP ID is not the page's host or a parent domain of it. */
export const checkRelyingParty: SettingsCheck = (c) => {
  const offRp = c.webauthnOrigins.filter((o) => { const h = new URL(o).hostname; return h !== c.webauthnRpId && !h.endsWith(`.${c.webauthnRpId}`); });
  if (offRp.length) throw new ConfigError(`invalid value for --webauthn-rp-id: "${c.webauthnRpId}": the passkey origins ${offRp.join(", ")} are not on that domain (set --webauthn-rp-id to a domain they share, or --webauthn-origins)`);
};

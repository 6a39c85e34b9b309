import type { SettingsBlock } from "../config/engine.js";
import { bool, duration, fail, kindOf, limitSpec } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    oauthProvider: boolean;
    oauthDynamicRegistration: boolean;
    limitOauthIp: string;
    limitOauthRegistrationIp: string;
    oauthClientMetadataDocuments: boolean;
    oauthClientMetadataHosts: string[];
    oauthClientMetadataTimeoutMs: number;
    limitOauthClientDocumentIp: string;
  }
}

/** A comma-separated list of host names (no scheme, port or path), lower-cased. */
const hostList = kindOf("hosts", (v: unknown): unknown => {
  const items = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : fail("expected a comma-separated list of host names such as claude.ai,vscode.dev");
  return (items as unknown[]).map((x) => String(x).trim().toLowerCase()).filter((x) => x !== "").map((h) => (/^[a-z0-9.-]{1,253}$/.test(h) && !h.startsWith(".") ? h : fail(`${h} is not a host name`)));
});

/**
 * The OAuth 2.1 / OpenID provider's settings (docs/oauth-provider.md), at the end of the table.
 * Access and refresh tokens it issues live as long as the kernel's (access-token-lifetime,
 * refresh-token-lifetime): one key window (core/signing-keys.ts) covers both kinds of token.
 */
export const oauthSettings: SettingsBlock = { rows: [
  { key: "oauthProvider", flag: "oauth-provider", env: "AUTHSVC_OAUTH_PROVIDER", parse: bool, default: () => true, doc: "be an OAuth 2.1 / OpenID Connect provider for other apps and MCP clients (issuer: the public URL; false turns every /oauth/* path and its discovery documents off)" },
  { key: "oauthDynamicRegistration", flag: "oauth-dynamic-registration", env: "AUTHSVC_OAUTH_DYNAMIC_REGISTRATION", parse: bool, default: () => false, doc: "let clients register themselves (RFC 7591, POST /oauth/register), rate limited per client IP; off: only clients the operator creates (`authsvc oauth clients create`)" },
  { key: "limitOauthIp", flag: "limit-oauth-ip", env: "AUTHSVC_LIMIT_OAUTH_IP", parse: limitSpec, default: () => "600/15m", doc: "OAuth provider requests (authorize, token, userinfo, introspection, revocation, consent) per client IP (bucket oauth-ip; N/window or off)" },
  { key: "limitOauthRegistrationIp", flag: "limit-oauth-registration-ip", env: "AUTHSVC_LIMIT_OAUTH_REGISTRATION_IP", parse: limitSpec, default: () => "10/1h", doc: "dynamic client registrations per client IP (bucket oauth-registration-ip; N/window or off)" },
  { key: "oauthClientMetadataDocuments", flag: "oauth-client-metadata-documents", env: "AUTHSVC_OAUTH_CLIENT_METADATA_DOCUMENTS", parse: bool, default: () => true, doc: "accept an https URL as client_id and read the client from the JSON document there (client ID metadata documents, as MCP clients use), fetched with an SSRF guard; false: only registered clients" },
  { key: "oauthClientMetadataHosts", flag: "oauth-client-metadata-hosts", env: "AUTHSVC_OAUTH_CLIENT_METADATA_HOSTS", parse: hostList, default: () => [], doc: "comma-separated hosts whose client metadata documents are accepted (default: any public host)" },
  { key: "oauthClientMetadataTimeoutMs", flag: "oauth-client-metadata-timeout", env: "AUTHSVC_OAUTH_CLIENT_METADATA_TIMEOUT", parse: duration(1000, 30_000), default: () => 5000, doc: "how long fetching a client metadata document may take, connection included" },
  { key: "limitOauthClientDocumentIp", flag: "limit-oauth-client-document-ip", env: "AUTHSVC_LIMIT_OAUTH_CLIENT_DOCUMENT_IP", parse: limitSpec, default: () => "30/15m", doc: "client metadata document fetches (cache misses) caused per client IP (bucket oauth-client-document-ip; N/window or off)" },
] };

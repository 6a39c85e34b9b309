import type { SettingsBlock } from "../config/engine.js";
import { bool, limitSpec } from "../config/parsers.js";

declare module "../config/types.js" {
  interface Config {
    oauthProvider: boolean;
    oauthDynamicRegistration: boolean;
    limitOauthIp: string;
    limitOauthRegistrationIp: string;
  }
}

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
] };

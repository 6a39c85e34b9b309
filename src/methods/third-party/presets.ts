import { importPKCS8, SignJWT } from "jose";
import type { FieldMap, Provider, ProviderClient } from "./provider-config.js";

/**
 * Built-in providers, chosen by thirdPartyId prefix ("google", "google-workspace", "github-enterprise"…
 * all match by their start, as in SuperTokens). Every default can be overridden in the config.
 */
export interface ProviderHooks {
  /** Extra checks of a client at startup (e.g. Apple's signing key). */
  checkClient?(client: ProviderClient, fail: (field: string, why: string) => never): void;
  /** Endpoints that depend on the client's additionalConfig (tenant, self-hosted base URL). */
  endpointsFor?(provider: Provider, input: Record<string, unknown>): Partial<Provider>;
  /** A client secret made per request (Apple signs one with the team's key). */
  clientSecret?(client: ProviderClient, nowMs: number): Promise<string | undefined>;
  /** The issuer an ID token must carry (Microsoft's multi-tenant issuer is a template). */
  issuerFor?(issuer: string, payload: Record<string, unknown>): string | undefined;
  /** More user info after the user-info call, with a GET that carries the access token. */
  extraUserInfo?(get: (url: string) => Promise<unknown>, info: Record<string, unknown>, userInfoEndpoint: string): Promise<Record<string, unknown>>;
}

export interface PresetDefaults {
  oidcDiscoveryEndpoint?: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userInfoEndpoint?: string;
  scope?: string[];
  authorizationEndpointQueryParams?: Record<string, string | null>;
  userInfoEndpointHeaders?: Record<string, string>;
  userInfoMap?: { fromIdTokenPayload?: Partial<FieldMap>; fromUserInfoAPI?: Partial<FieldMap> };
}

export interface Preset { id: string; name: string; defaults: PresetDefaults; hooks: ProviderHooks }

const str = (o: Record<string, unknown>, k: string) => (typeof o[k] === "string" && (o[k] as string).trim() !== "" ? (o[k] as string).trim() : undefined);

const presets: Preset[] = [
  {
    id: "google", name: "Google", hooks: {},
    defaults: { oidcDiscoveryEndpoint: "https://accounts.google.com/.well-known/openid-configuration", scope: ["openid", "email"] },
  },
  {
    // GitHub is OAuth2 only: /user for the id, /user/emails for the primary address and whether
    // GitHub verified it (the profile's public email may be any address the user typed).
    id: "github", name: "GitHub",
    defaults: {
      authorizationEndpoint: "https://github.com/login/oauth/authorize",
      tokenEndpoint: "https://github.com/login/oauth/access_token",
      userInfoEndpoint: "https://api.github.com/user",
      scope: ["read:user", "user:email"],
      userInfoEndpointHeaders: { Accept: "application/vnd.github+json", "User-Agent": "authsvc" },
      userInfoMap: { fromUserInfoAPI: { userId: "id", email: "email", emailVerified: "email_verified" } },
    },
    hooks: {
      // …/user → …/user/emails, so GitHub Enterprise (https://host/api/v3/user) works too.
      async extraUserInfo(get, info, userInfoEndpoint) {
        const emails = await get(userInfoEndpoint.replace(/\/+$/, "") + "/emails");
        const list = Array.isArray(emails) ? (emails as Array<Record<string, unknown>>) : [];
        const primary = list.find((e) => e && e.primary === true && typeof e.email === "string");
        return { ...info, email: primary?.email, email_verified: primary?.verified === true };
      },
    },
  },
  {
    id: "apple", name: "Apple",
    defaults: {
      oidcDiscoveryEndpoint: "https://appleid.apple.com/.well-known/openid-configuration",
      scope: ["openid", "email"],
      authorizationEndpointQueryParams: { response_mode: "form_post" },
    },
    hooks: {
      checkClient(c, fail) {
        if (c.clientSecret) return;
        for (const k of ["keyId", "teamId", "privateKey"]) if (!str(c.additionalConfig, k)) fail(`additionalConfig.${k}`, "is required for Apple unless clientSecret is given");
        if (!/-----BEGIN PRIVATE KEY-----/.test(String(c.additionalConfig.privateKey))) fail("additionalConfig.privateKey", "expected a PKCS#8 PEM key (-----BEGIN PRIVATE KEY-----)");
      },
      // Apple's client secret is a short-lived ES256 JWT signed with the team's key.
      async clientSecret(c, nowMs) {
        if (c.clientSecret) return c.clientSecret;
        const key = await importPKCS8(String(c.additionalConfig.privateKey), "ES256");
        const now = Math.floor(nowMs / 1000);
        return new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: str(c.additionalConfig, "keyId") })
          .setIssuer(str(c.additionalConfig, "teamId")!).setSubject(c.clientId).setAudience("https://appleid.apple.com")
          .setIssuedAt(now).setExpirationTime(now + 300).sign(key);
      },
    },
  },
  {
    id: "microsoft", name: "Microsoft",
    defaults: { scope: ["openid", "email", "profile"] },
    hooks: {
      endpointsFor(p, input) {
        if (input.oidcDiscoveryEndpoint) return {};
        const tenant = str(p.clients[0].additionalConfig, "directoryId") ?? "common";
        return { oidcDiscoveryEndpoint: `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/v2.0/.well-known/openid-configuration` };
      },
      // The multi-tenant issuer reads ".../{tenantid}/v2.0": the token's own tenant fills it in.
      issuerFor: (issuer, payload) => (issuer.includes("{tenantid}") ? (typeof payload.tid === "string" ? issuer.replace("{tenantid}", payload.tid) : undefined) : issuer),
    },
  },
  {
    id: "gitlab", name: "GitLab",
    defaults: { scope: ["openid", "email"] },
    hooks: {
      endpointsFor(p, input) {
        if (input.oidcDiscoveryEndpoint) return {};
        const base = (str(p.clients[0].additionalConfig, "gitlabBaseUrl") ?? "https://gitlab.com").replace(/\/+$/, "");
        return { oidcDiscoveryEndpoint: `${base}/.well-known/openid-configuration` };
      },
    },
  },
  {
    id: "discord", name: "Discord", hooks: {},
    defaults: {
      authorizationEndpoint: "https://discord.com/oauth2/authorize",
      tokenEndpoint: "https://discord.com/api/oauth2/token",
      userInfoEndpoint: "https://discord.com/api/users/@me",
      scope: ["identify", "email"],
      userInfoMap: { fromUserInfoAPI: { userId: "id", email: "email", emailVerified: "verified" } },
    },
  },
];

/** The preset whose id starts the thirdPartyId, or undefined for a generic provider. */
export function findPreset(thirdPartyId: string): Preset | undefined {
  const id = thirdPartyId.toLowerCase();
  if (id.startsWith("active-directory")) return presets.find((p) => p.id === "microsoft");
  return presets.find((p) => id.startsWith(p.id));
}

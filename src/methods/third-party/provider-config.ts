import { findPreset, type ProviderHooks } from "./presets.js";

/**
 * Third-party provider configuration: the raw JSON objects of `config.providers` are checked field
 * by field and merged over a preset (chosen by thirdPartyId prefix, FDI notes §10.3). Errors name
 * the provider and the field, never a value (the objects hold client secrets).
 */
export interface FieldMap { userId: string; email: string; emailVerified: string }

export interface ProviderClient {
  clientType?: string;
  clientId: string;
  clientSecret?: string;
  scope: string[];
  forcePKCE: boolean;
  additionalConfig: Record<string, unknown>;
}

export interface Provider {
  id: string;
  name: string;
  /** The preset this provider is built on, if any (e.g. "github"). */
  preset?: string;
  clients: ProviderClient[];
  oidcDiscoveryEndpoint?: string;
  authorizationEndpoint?: string;
  authorizationEndpointQueryParams: Record<string, string | null>;
  tokenEndpoint?: string;
  tokenEndpointBodyParams: Record<string, string>;
  tokenEndpointAuthMethod: "client_secret_post" | "client_secret_basic";
  userInfoEndpoint?: string;
  userInfoEndpointQueryParams: Record<string, string>;
  userInfoEndpointHeaders: Record<string, string>;
  jwksURI?: string;
  issuer?: string;
  userInfoMap: { fromIdTokenPayload: FieldMap; fromUserInfoAPI: FieldMap };
  requireEmail: boolean;
  /** Send a nonce derived from the PKCE verifier and require it back in the ID token. */
  nonce: boolean;
  /** Accept `oAuthTokens` holding only an access token (its audience cannot be checked). */
  allowAccessTokenOnly: boolean;
  timeoutMs: number;
  hooks: ProviderHooks;
}

type Check = (v: unknown) => unknown; // returns the value or throws a reason string
const fail = (why: string): never => { throw why; };
const str: Check = (v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : fail("expected a non-empty string"));
const bool: Check = (v) => (typeof v === "boolean" ? v : fail("expected true or false"));
const url: Check = (v) => {
  const s = str(v) as string;
  let u: URL;
  try { u = new URL(s); } catch { return fail("expected an absolute http(s) URL"); }
  if (u.protocol !== "http:" && u.protocol !== "https:") fail("expected an http or https URL");
  if (u.username || u.password) fail("credentials in the URL are not allowed");
  return u.toString();
};
const strArray: Check = (v) => {
  const arr = typeof v === "string" ? v.split(/[\s,]+/).filter(Boolean) : v;
  return Array.isArray(arr) && arr.every((x) => typeof x === "string" && x.trim() !== "") ? arr.map((x: string) => x.trim()) : fail("expected an array of strings");
};
const strMap = (allowNull: boolean): Check => (v) => {
  if (!v || typeof v !== "object" || Array.isArray(v)) return fail("expected an object of strings");
  for (const [k, x] of Object.entries(v)) if (typeof x !== "string" && !(allowNull && x === null)) fail(`"${k}" must be a string${allowNull ? " or null" : ""}`);
  return { ...(v as Record<string, string>) };
};
const timeout: Check = (v) => (Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 60_000 ? v : fail("expected a whole number of milliseconds from 100 to 60000"));
const authMethod: Check = (v) => (v === "client_secret_post" || v === "client_secret_basic" ? v : fail("expected client_secret_post or client_secret_basic"));

const topLevel: Record<string, Check> = {
  thirdPartyId: (v) => (typeof v === "string" && /^[a-z0-9-]{1,64}$/i.test(v) ? v : fail("expected letters, digits and dashes (at most 64)")),
  name: str, oidcDiscoveryEndpoint: url, authorizationEndpoint: url, authorizationEndpointQueryParams: strMap(true),
  tokenEndpoint: url, tokenEndpointBodyParams: strMap(false), tokenEndpointAuthMethod: authMethod,
  userInfoEndpoint: url, userInfoEndpointQueryParams: strMap(false), userInfoEndpointHeaders: strMap(false),
  jwksURI: url, issuer: str, requireEmail: bool, nonce: bool, allowAccessTokenOnly: bool, timeoutMs: timeout,
  // single-client shorthand, and the SuperTokens `clients` array
  clientId: str, clientSecret: str, scope: strArray, forcePKCE: bool, additionalConfig: (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : fail("expected an object")),
  clients: (v) => (Array.isArray(v) && v.length > 0 ? v : fail("expected a non-empty array of client objects")),
  userInfoMap: (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : fail("expected an object")),
};
const clientFields: Record<string, Check> = {
  clientType: str, clientId: str, clientSecret: str, scope: strArray, forcePKCE: bool, additionalConfig: topLevel.additionalConfig,
};
const mapFields = ["userId", "email", "emailVerified"] as const;

class FieldError { constructor(readonly field: string, readonly why: string) {} }

function checkObject(o: Record<string, unknown>, table: Record<string, Check>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const check = table[k];
    if (!check) throw new FieldError(prefix + k, `unknown field (known: ${Object.keys(table).join(", ")})`);
    if (v === undefined) continue;
    try { out[k] = check(v); } catch (why) {
      if (typeof why !== "string") throw why;
      throw new FieldError(prefix + k, why);
    }
  }
  return out;
}

function checkFieldMap(v: unknown, field: string): Partial<FieldMap> {
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new FieldError(field, "expected an object");
  const out: Partial<FieldMap> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!(mapFields as readonly string[]).includes(k)) throw new FieldError(`${field}.${k}`, `unknown field (known: ${mapFields.join(", ")})`);
    if (typeof x !== "string" || !/^[^.\s]+(\.[^.\s]+)*$/.test(x)) throw new FieldError(`${field}.${k}`, "expected a dotted path such as email or user.profile.email");
    out[k as keyof FieldMap] = x;
  }
  return out;
}

/** Accepts `{fromIdTokenPayload?, fromUserInfoAPI?}` (SuperTokens) or a flat map applying to both. */
function checkUserInfoMap(v: Record<string, unknown>): { fromIdTokenPayload: Partial<FieldMap>; fromUserInfoAPI: Partial<FieldMap> } {
  if ("fromIdTokenPayload" in v || "fromUserInfoAPI" in v) {
    for (const k of Object.keys(v)) if (k !== "fromIdTokenPayload" && k !== "fromUserInfoAPI") throw new FieldError(`userInfoMap.${k}`, "unknown field (known: fromIdTokenPayload, fromUserInfoAPI)");
    return {
      fromIdTokenPayload: v.fromIdTokenPayload === undefined ? {} : checkFieldMap(v.fromIdTokenPayload, "userInfoMap.fromIdTokenPayload"),
      fromUserInfoAPI: v.fromUserInfoAPI === undefined ? {} : checkFieldMap(v.fromUserInfoAPI, "userInfoMap.fromUserInfoAPI"),
    };
  }
  const flat = checkFieldMap(v, "userInfoMap");
  return { fromIdTokenPayload: flat, fromUserInfoAPI: flat };
}

const defaultMap: FieldMap = { userId: "sub", email: "email", emailVerified: "email_verified" };

function normaliseOne(raw: unknown, index: number, mode: string): Provider {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new FieldError(`providers[${index}]`, "expected an object");
  const input = checkObject(raw as Record<string, unknown>, topLevel, "");
  if (typeof input.thirdPartyId !== "string") throw new FieldError("thirdPartyId", "is required");
  const id = input.thirdPartyId;
  const preset = findPreset(id);
  const base = preset?.defaults ?? {};
  const pick = <T>(k: string): T | undefined => (input[k] ?? (base as Record<string, unknown>)[k]) as T | undefined;

  if (input.clients && (input.clientId || input.clientSecret || input.scope || input.forcePKCE !== undefined || input.additionalConfig)) {
    throw new FieldError("clients", "give either clients or clientId/clientSecret/scope/forcePKCE/additionalConfig, not both");
  }
  const rawClients = (input.clients as unknown[] | undefined) ?? [{ clientId: input.clientId, clientSecret: input.clientSecret, scope: input.scope, forcePKCE: input.forcePKCE, additionalConfig: input.additionalConfig }];
  const clients: ProviderClient[] = rawClients.map((c, i) => {
    const prefix = input.clients ? `clients[${i}].` : "";
    if (!c || typeof c !== "object" || Array.isArray(c)) throw new FieldError(`clients[${i}]`, "expected an object");
    const o = checkObject(c as Record<string, unknown>, clientFields, prefix);
    if (!o.clientId) throw new FieldError(prefix + "clientId", "is required");
    return {
      clientType: o.clientType as string | undefined,
      clientId: o.clientId as string,
      clientSecret: o.clientSecret as string | undefined,
      scope: (o.scope as string[] | undefined) ?? base.scope ?? [],
      forcePKCE: (o.forcePKCE as boolean | undefined) ?? false,
      additionalConfig: (o.additionalConfig as Record<string, unknown> | undefined) ?? {},
    };
  });
  if (clients.length > 1) {
    const types = clients.map((c) => c.clientType);
    if (types.some((t) => !t) || new Set(types).size !== types.length) throw new FieldError("clients", "with more than one client, each needs its own clientType");
  }
  for (const [i, c] of clients.entries()) preset?.hooks.checkClient?.(c, (field, why) => { throw new FieldError(input.clients ? `clients[${i}].${field}` : field, why); });

  const map = input.userInfoMap ? checkUserInfoMap(input.userInfoMap as Record<string, unknown>) : { fromIdTokenPayload: {}, fromUserInfoAPI: {} };
  const baseMap = base.userInfoMap ?? {};
  const provider: Provider = {
    id,
    name: (input.name as string | undefined) ?? preset?.name ?? id,
    preset: preset?.id,
    clients,
    oidcDiscoveryEndpoint: pick("oidcDiscoveryEndpoint"),
    authorizationEndpoint: pick("authorizationEndpoint"),
    authorizationEndpointQueryParams: { ...base.authorizationEndpointQueryParams, ...(input.authorizationEndpointQueryParams as object) },
    tokenEndpoint: pick("tokenEndpoint"),
    tokenEndpointBodyParams: { ...(input.tokenEndpointBodyParams as object) },
    tokenEndpointAuthMethod: pick("tokenEndpointAuthMethod") ?? "client_secret_post",
    userInfoEndpoint: pick("userInfoEndpoint"),
    userInfoEndpointQueryParams: { ...(input.userInfoEndpointQueryParams as object) },
    userInfoEndpointHeaders: { ...base.userInfoEndpointHeaders, ...(input.userInfoEndpointHeaders as object) },
    jwksURI: pick("jwksURI"),
    issuer: pick("issuer"),
    userInfoMap: {
      fromIdTokenPayload: { ...defaultMap, ...baseMap.fromIdTokenPayload, ...map.fromIdTokenPayload },
      fromUserInfoAPI: { ...defaultMap, ...baseMap.fromUserInfoAPI, ...map.fromUserInfoAPI },
    },
    requireEmail: pick("requireEmail") ?? true,
    nonce: pick("nonce") ?? true,
    allowAccessTokenOnly: pick("allowAccessTokenOnly") ?? false,
    timeoutMs: pick("timeoutMs") ?? 5000,
    hooks: preset?.hooks ?? {},
  };
  if (preset?.hooks.endpointsFor) Object.assign(provider, preset.hooks.endpointsFor(provider, input));

  if (!provider.oidcDiscoveryEndpoint) {
    if (!provider.authorizationEndpoint) throw new FieldError("authorizationEndpoint", "is required without oidcDiscoveryEndpoint");
    if (!provider.tokenEndpoint) throw new FieldError("tokenEndpoint", "is required without oidcDiscoveryEndpoint");
    if (!provider.userInfoEndpoint && !provider.jwksURI) throw new FieldError("userInfoEndpoint", "is required without oidcDiscoveryEndpoint or jwksURI (no way to learn who signed in)");
    if (provider.jwksURI && !provider.issuer) throw new FieldError("issuer", "is required with jwksURI (ID tokens are checked against it)");
  }
  if (mode === "production") {
    for (const k of ["oidcDiscoveryEndpoint", "authorizationEndpoint", "tokenEndpoint", "userInfoEndpoint", "jwksURI"] as const) {
      const v = provider[k];
      // Codes, tokens and secrets travel over these: plain http only to this machine.
      if (v && new URL(v).protocol === "http:" && !isLoopback(new URL(v).hostname)) throw new FieldError(k, "must be https in production (http only for localhost)");
    }
  }
  return provider;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Validates and normalises every configured provider. Throws an Error whose message names the
 * provider and the field ("provider "my-oidc": clientId: is required").
 */
export function normaliseProviders(raw: readonly unknown[], mode: string): Provider[] {
  const out: Provider[] = [];
  for (const [i, p] of raw.entries()) {
    const label = p && typeof p === "object" && typeof (p as { thirdPartyId?: unknown }).thirdPartyId === "string" ? `provider "${(p as { thirdPartyId: string }).thirdPartyId}"` : `providers[${i}]`;
    try {
      out.push(normaliseOne(p, i, mode));
    } catch (err) {
      if (err instanceof FieldError) throw new Error(`${label}: ${err.field}: ${err.why}`);
      throw err;
    }
  }
  const ids = out.map((p) => p.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`provider "${dup}": thirdPartyId: used more than once`);
  return out;
}

/** The client for a request: the one of the given clientType, or the only one. */
export function selectClient(provider: Provider, clientType: string | undefined): ProviderClient | undefined {
  if (clientType !== undefined) return provider.clients.find((c) => c.clientType === clientType);
  return provider.clients.length === 1 ? provider.clients[0] : undefined;
}

import { randomBytes } from "node:crypto";
import type { CoreContext } from "../core/context.js";
import { AuthError, badInput } from "../core/errors.js";
import { insertEvent } from "../store/events.js";
import { isUniqueViolation } from "../store/database.js";
import { createSecretToken, hashToken } from "../util/random.js";
import type { OauthClientRow, OauthResourceRow } from "./schema.js";
import * as repo from "./store.js";

/**
 * What the operator registers (the CLI `authsvc oauth clients|resources …` and the admin API call
 * these same functions): clients (name, redirect URIs, public or confidential, allowed scopes and
 * resources) and resources (an API or MCP server and its scopes). A client's secret is shown once;
 * only its SHA-256 is kept (256 random bits, so a fast hash is enough).
 */

/** The OpenID scopes the provider knows; any other scope belongs to a resource. */
export const OIDC_SCOPES = ["openid", "email", "offline_access"] as const;
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

export interface ClientView {
  clientId: string; name: string; type: "public" | "confidential"; redirectUris: string[];
  scopes: string[]; resources: string[]; grantTypes: string[]; createdAt: number;
}
export interface ResourceView { resource: string; name: string; scopes: string[]; createdAt: number }

const list = (json: string) => JSON.parse(json) as string[];

export function clientView(r: OauthClientRow): ClientView {
  return { clientId: r.client_id, name: r.name, type: r.type, redirectUris: list(r.redirect_uris), scopes: list(r.scopes), resources: list(r.resources), grantTypes: list(r.grant_types), createdAt: Number(r.created_at) };
}
export function resourceView(r: OauthResourceRow): ResourceView {
  return { resource: r.resource, name: r.name, scopes: list(r.scopes), createdAt: Number(r.created_at) };
}

/** A redirect URI kind: web (https, or http on loopback for development), or native (loopback http, any port; or a private-use scheme). */
export function checkRedirectUri(raw: unknown): { uri: string; native: boolean } {
  if (typeof raw !== "string" || raw.length > 2000) throw badInput("each redirect URI must be a URL of at most 2000 characters");
  let u: URL;
  try { u = new URL(raw); } catch { throw badInput(`redirect URI ${JSON.stringify(raw)} is not an absolute URL`); }
  if (u.hash || raw.includes("#")) throw badInput("a redirect URI must not have a fragment");
  if (u.username || u.password) throw badInput("a redirect URI must not carry credentials");
  if (u.protocol === "https:") return { uri: u.href, native: false };
  if (u.protocol === "http:") {
    if (!LOOPBACK_HOSTS.has(u.hostname)) throw badInput("an http redirect URI must be on a loopback address (127.0.0.1, [::1] or localhost); use https otherwise");
    return { uri: u.href, native: true };
  }
  // Private-use URI schemes of native apps (RFC 8252 §7.1): reverse domain names, e.g. com.example.app:/callback.
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(u.protocol) && !["javascript:", "data:", "file:", "vbscript:"].includes(u.protocol)) return { uri: raw, native: true };
  throw badInput("a redirect URI must be https, http on a loopback address, or a private-use scheme such as com.example.app:/callback");
}

/**
 * The grants a client that describes itself (dynamic registration, a client metadata document) may
 * use: a person's sign-in and consent, then refreshes. Tokens without a person (client_credentials)
 * are for the confidential clients the operator creates, and only for the resources it allows them.
 */
export const PUBLIC_CLIENT_GRANTS: readonly string[] = ["authorization_code", "refresh_token"];

/** Why the grant types of a self-described client are refused, or undefined when they are allowed. */
export function checkPublicClientGrants(grants: unknown): string | undefined {
  if (!Array.isArray(grants) || grants.length === 0 || grants.some((g) => !PUBLIC_CLIENT_GRANTS.includes(g))) return "grant_types may only hold authorization_code and refresh_token (client_credentials is for confidential clients the operator creates)";
  if (!grants.includes("authorization_code")) return "grant_types must include authorization_code";
  return undefined;
}

/**
 * The rules of a client that described itself (registered, or a metadata document), on the client
 * metadata as the provider reads it: public (no secret: PKCE proves it), the public grants only,
 * and redirect URIs that checkRedirectUri accepts, as the operator's are. Undefined: allowed.
 */
export function checkPublicClient(m: Record<string, unknown>): string | undefined {
  if (m.token_endpoint_auth_method !== "none") return "only public clients may register or describe themselves (token_endpoint_auth_method none)";
  const grants = checkPublicClientGrants(m.grant_types);
  if (grants) return grants;
  for (const uri of Array.isArray(m.redirect_uris) ? m.redirect_uris : []) {
    try { checkRedirectUri(uri); } catch (err) { return `redirect_uris: ${err instanceof AuthError ? err.message : "a redirect URI is invalid"}`; }
  }
  return undefined;
}

/** A resource indicator (RFC 8707 §2): an absolute https URL (http only on loopback), no fragment. */
export function checkResourceIndicator(raw: unknown): string {
  if (typeof raw !== "string" || raw.length > 2000) throw badInput("resource must be an absolute URL of at most 2000 characters");
  let u: URL;
  try { u = new URL(raw); } catch { throw badInput("resource must be an absolute URL such as https://mcp.example.com/mcp"); }
  if (u.hash || raw.includes("#")) throw badInput("resource must not have a fragment");
  if (u.username || u.password) throw badInput("resource must not carry credentials");
  if (u.protocol !== "https:" && !(u.protocol === "http:" && LOOPBACK_HOSTS.has(u.hostname))) throw badInput("resource must be https (http only on a loopback address)");
  // Kept as given: clients compare the string they send with the one registered.
  return raw;
}

function checkName(raw: unknown, what: string): string {
  if (typeof raw !== "string" || raw.trim() === "" || raw.length > 100 || /[\u0000-\u001f\u007f]/.test(raw)) throw badInput(`${what} must be text of 1 to 100 characters`);
  return raw.trim();
}

function checkScopes(raw: unknown, what: string): string[] {
  const items = typeof raw === "string" ? raw.split(/[\s,]+/).filter(Boolean) : raw;
  if (!Array.isArray(items) || items.length > 50) throw badInput(`${what} must be a list of at most 50 scopes`);
  for (const s of items) if (typeof s !== "string" || !SCOPE_TOKEN.test(s)) throw badInput(`${what}: ${JSON.stringify(s)} is not a valid scope`);
  return [...new Set(items as string[])];
}

const asList = (raw: unknown): unknown[] | undefined => (raw === undefined ? undefined : typeof raw === "string" ? raw.split(/[\s,]+/).filter(Boolean) : Array.isArray(raw) ? raw : [raw]);

export interface NewClient { name: unknown; redirectUris?: unknown; type?: unknown; scopes?: unknown; resources?: unknown; grantTypes?: unknown }

/** Registers a client; a confidential one's secret is in the answer, this once. */
export async function createClient(ctx: CoreContext, input: NewClient, source: string): Promise<ClientView & { clientSecret?: string }> {
  const name = checkName(input.name, "name");
  const type = input.type ?? "public";
  if (type !== "public" && type !== "confidential") throw badInput("type must be public or confidential");
  const grantTypes = asList(input.grantTypes) ?? ["authorization_code", "refresh_token"];
  for (const g of grantTypes) if (g !== "authorization_code" && g !== "refresh_token" && g !== "client_credentials") throw badInput("grant types must be authorization_code, refresh_token or client_credentials");
  if (grantTypes.includes("client_credentials") && type !== "confidential") throw badInput("client_credentials needs a confidential client (one with a secret)");
  if (grantTypes.includes("refresh_token") && !grantTypes.includes("authorization_code")) throw badInput("refresh_token needs authorization_code");
  const redirects = (asList(input.redirectUris) ?? []).map(checkRedirectUri);
  if (grantTypes.includes("authorization_code") && redirects.length === 0) throw badInput("a client that signs people in needs at least one redirect URI");
  if (redirects.length > 20) throw badInput("at most 20 redirect URIs");
  const resources = (asList(input.resources) ?? []).map(checkResourceIndicator);
  for (const r of resources) if (!(await repo.findResource(ctx.store.db, r))) throw badInput(`resource ${r} is not registered; register it first (authsvc oauth resources create)`);
  // The OpenID scopes it may ask for; a resource's scopes are the resource's (its registration says which).
  const scopes = input.scopes === undefined ? [...OIDC_SCOPES] : checkScopes(input.scopes, "scopes");
  for (const sc of scopes) if (!(OIDC_SCOPES as readonly string[]).includes(sc)) throw badInput(`scopes: ${sc} is not one of ${OIDC_SCOPES.join(", ")} (a resource's scopes come with the resource)`);
  const now = ctx.clock.now();
  const clientId = `cl_${randomBytes(16).toString("hex")}`;
  const secret = type === "confidential" ? `cs_${createSecretToken()}` : undefined;
  const row: OauthClientRow = {
    client_id: clientId, name, type, secret_hash: secret ? hashToken(secret) : null,
    redirect_uris: JSON.stringify(redirects.map((r) => r.uri)), scopes: JSON.stringify(scopes), resources: JSON.stringify(resources),
    grant_types: JSON.stringify(grantTypes), created_at: now,
  };
  await ctx.store.writeTx(async (tx) => {
    await repo.insertClient(tx, row);
    await insertEvent(tx, { at: now, type: "oauth.client_created", userId: null, data: { clientId, name, type, source } });
  });
  return { ...clientView(row), ...(secret ? { clientSecret: secret } : {}) };
}

export async function listClientViews(ctx: CoreContext): Promise<ClientView[]> {
  return (await repo.listClients(ctx.store.db)).map(clientView);
}

/** Deletes a client with every code, token and grant issued to it: its tokens stop working at once. */
export async function deleteClient(ctx: CoreContext, clientId: string, source: string): Promise<void> {
  await ctx.store.writeTx(async (tx) => {
    if (!(await repo.deleteClient(tx, clientId))) throw new AuthError("NOT_FOUND", "No such OAuth client");
    await repo.deleteClientRecords(tx, clientId);
    await insertEvent(tx, { at: ctx.clock.now(), type: "oauth.client_deleted", userId: null, data: { clientId, source } });
  });
}

/** Registers a resource (an API or MCP server) and the scopes it understands. */
export async function createResource(ctx: CoreContext, input: { resource: unknown; name?: unknown; scopes?: unknown }, source: string): Promise<ResourceView> {
  const resource = checkResourceIndicator(input.resource);
  const name = input.name === undefined ? new URL(resource).host : checkName(input.name, "name");
  const scopes = checkScopes(input.scopes ?? [], "scopes");
  for (const s of scopes) if ((OIDC_SCOPES as readonly string[]).includes(s)) throw badInput(`${s} is an OpenID scope, not a resource's`);
  const now = ctx.clock.now();
  const row: OauthResourceRow = { resource, name, scopes: JSON.stringify(scopes), created_at: now };
  try {
    await ctx.store.writeTx(async (tx) => {
      await repo.insertResource(tx, row);
      await insertEvent(tx, { at: now, type: "oauth.resource_created", userId: null, data: { resource, source } });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AuthError("CONFLICT", "This resource is already registered");
    throw err;
  }
  return resourceView(row);
}

export async function listResourceViews(ctx: CoreContext): Promise<ResourceView[]> {
  return (await repo.listResources(ctx.store.db)).map(resourceView);
}

export async function deleteResource(ctx: CoreContext, resource: string, source: string): Promise<void> {
  await ctx.store.writeTx(async (tx) => {
    if (!(await repo.deleteResource(tx, resource))) throw new AuthError("NOT_FOUND", "No such OAuth resource");
    await insertEvent(tx, { at: ctx.clock.now(), type: "oauth.resource_deleted", userId: null, data: { resource, source } });
  });
}

/**
 * An operator's client as oidc-provider's client metadata. `client_secret` holds the secret's hash:
 * the provider compares through compareClientSecret, which provider.ts replaces with a hash
 * comparison, and only client_secret_basic/post are enabled, so it never signs with it.
 */
export function clientMetadata(r: OauthClientRow): Record<string, unknown> {
  const redirects = list(r.redirect_uris);
  const grants = list(r.grant_types);
  const native = redirects.some((u) => !u.startsWith("https:"));
  return {
    client_id: r.client_id, client_name: r.name,
    ...(r.type === "confidential" ? { client_secret: r.secret_hash, token_endpoint_auth_method: "client_secret_basic" } : { token_endpoint_auth_method: "none" }),
    redirect_uris: redirects, grant_types: grants, response_types: grants.includes("authorization_code") ? ["code"] : [],
    application_type: native ? "native" : "web", authsvc_resources: list(r.resources),
    // The OpenID scopes it may ask for. A machine client's allow-list would also cover its resources'
    // scopes, which the resource registration already bounds, so it has none.
    ...(grants.includes("client_credentials") ? {} : { scope: list(r.scopes).join(" ") }),
  };
}

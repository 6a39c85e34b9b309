import { createHmac, timingSafeEqual } from "node:crypto";
import type { OidcProvider } from "oidc-provider";

/** oidc-provider (and Koa under it) is loaded on the first OAuth request, not at every start: it is the largest library here. */
type OidcModule = typeof import("oidc-provider");
let oidcModule: Promise<OidcModule> | undefined;
const loadOidc = () => (oidcModule ??= import("oidc-provider"));
import type { CoreContext } from "../core/context.js";
import { getUser } from "../core/users.js";
import { hashToken } from "../util/random.js";
import { createAdapterClass } from "./adapter.js";
import { AuthError } from "../core/errors.js";
import { createDocumentLoader, isDocumentClientId, requestScope } from "./client-documents.js";
import { DocumentRefused } from "./guarded-fetch.js";
import { checkPublicClient, OIDC_SCOPES } from "./clients.js";
import { grantClaimOf, introspectionAllowed, refusePublicIntrospection, useJwtIntrospection } from "./introspection.js";
import { authsvcSession } from "./signed-in.js";
import * as repo from "./store.js";

/** Where the provider's endpoints live (the issuer is the bare public URL; discovery at /.well-known/…). */
export const OAUTH_PREFIX = "/oauth";
export const routes = {
  authorization: `${OAUTH_PREFIX}/authorize`, token: `${OAUTH_PREFIX}/token`, jwks: `${OAUTH_PREFIX}/jwks`,
  userinfo: `${OAUTH_PREFIX}/userinfo`, introspection: `${OAUTH_PREFIX}/introspect`, revocation: `${OAUTH_PREFIX}/revoke`,
  registration: `${OAUTH_PREFIX}/register`, end_session: `${OAUTH_PREFIX}/end-session`,
  code_verification: `${OAUTH_PREFIX}/device`, device_authorization: `${OAUTH_PREFIX}/device/auth`,
  pushed_authorization_request: `${OAUTH_PREFIX}/par`, backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
} as const;
export const interactionPath = (uid: string) => `${OAUTH_PREFIX}/interaction/${uid}`;

/** The provider of the current signing key, rebuilt when the key ring's current key changes. */
export interface OauthProviderHolder { get(): Promise<OidcProvider> }

export function createProviderHolder(ctx: CoreContext): OauthProviderHolder {
  let built: { kid: string; cookieKeys: string[]; provider: OidcProvider } | undefined;
  const documents = createDocumentLoader(ctx);
  return {
    async get() {
      const { kid, key } = await ctx.keys.signingKey();
      if (built?.kid !== kid) {
        const jwk = { ...key.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
        const keys = cookieKeys(ctx, jwk, built?.cookieKeys[0]);
        built = { kid, cookieKeys: keys, provider: buildProvider(await loadOidc(), ctx, jwk, keys, documents) };
      }
      return built.provider;
    },
  };
}

/**
 * The keys that sign the provider's cookies (the first signs, all verify), the same in every
 * process and instance: from the server secret; without one (development), from the current
 * signing key's private part, which every worker reads from the database (a sign-in that spans a
 * key rotation still verifies with the previous one). Never random per process: the default
 * `serve` has a worker per core, and an interaction begun on one must finish on another.
 */
function cookieKeys(ctx: CoreContext, jwk: Record<string, unknown>, previous: string | undefined): string[] {
  const derive = (from: string) => createHmac("sha256", from).update("authsvc oauth-provider cookies v1").digest("base64url");
  const secret = ctx.config.secret;
  if (secret) return [derive(secret)];
  const current = derive(String(jwk.d));
  return previous && previous !== current ? [current, previous] : [current];
}

type DocumentLoader = ReturnType<typeof createDocumentLoader>;

function buildProvider({ default: Provider, errors, interactionPolicy }: OidcModule, ctx: CoreContext, jwk: Record<string, unknown>, cookieKeys: string[], documents: DocumentLoader): OidcProvider {
  const { config } = ctx;
  const accessTtl = Math.floor(config.accessTokenLifetimeMs / 1000);
  const longTtl = Math.floor(config.refreshTokenLifetimeMs / 1000);

  // The login prompt also asks for a sign-in when the person has no live authsvc session (signed
  // out, or another person): the provider's own session cookie alone never signs anyone in.
  const policy = interactionPolicy.base();
  policy.get("login")!.checks.add(new interactionPolicy.Check("authsvc_session", "End-User authentication is required", async (c: any) => {
    const sub = (await authsvcSession(ctx, c.req))?.personId;
    return sub !== undefined && sub === c.oidc.session.accountId ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
  }), 0);
  // Every URL the provider publishes or redirects to is built on the public URL (mount.ts pins the
  // request to it); the interaction's too, absolute, so no relative redirect meets another host.
  const origin = new URL(config.publicUrl).origin;

  const provider = new Provider(config.publicUrl, {
    adapter: createAdapterClass(ctx),
    jwks: { keys: [jwk] },
    routes,
    scopes: [...OIDC_SCOPES],
    // auth_time and amr in every ID token: when and how the person signed in (signed-in.ts).
    claims: { openid: ["sub", "auth_time", "amr"], email: ["email", "email_verified"] },
    findAccount: async (_c: unknown, sub: string) => {
      const user = await getUser(ctx, sub);
      if (!user) return undefined;
      return { accountId: user.id, claims: async () => ({ sub: user.id, email: user.email, email_verified: user.verified }) };
    },
    interactions: { policy, url: (_c: unknown, interaction: { uid: string }) => `${origin}${interactionPath(interaction.uid)}` },
    responseTypes: ["code"],
    pkce: { methods: ["S256"], required: () => true },
    clientAuthMethods: ["none", "client_secret_basic", "client_secret_post"],
    enabledJWA: {
      idTokenSigningAlgValues: ["RS256"], userinfoSigningAlgValues: ["RS256"], introspectionSigningAlgValues: ["RS256"],
      authorizationSigningAlgValues: ["RS256"], requestObjectSigningAlgValues: ["RS256"], clientAuthSigningAlgValues: ["RS256"],
    },
    features: {
      devInteractions: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // Introspection answers a confidential client about its own tokens, or a resource server
      // (a confidential client the operator allowed the token's audience) about tokens for it.
      introspection: { enabled: true, allowedPolicy: (c: any, client: any, token: any) => introspectionAllowed(c, client, token) },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      clientCredentials: { enabled: true },
      registration: { enabled: config.oauthDynamicRegistration },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: async (_c: unknown, indicator: string, client: { metadata(): Record<string, unknown> }) => {
          const found = await repo.findResource(ctx.store.db, indicator);
          if (!found) throw new errors.InvalidTarget("this resource is not registered with this authorization server");
          const allowed = client.metadata().authsvc_resources;
          if (Array.isArray(allowed) && !allowed.includes(indicator)) throw new errors.InvalidTarget("this client may not request tokens for this resource");
          return { scope: (JSON.parse(found.scopes) as string[]).join(" "), audience: indicator, accessTokenTTL: accessTtl, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
        },
      },
    },
    extraClientMetadata: {
      properties: ["authsvc_resources"],
      // Every client but the operator's (which alone carry authsvc_resources, checked when created:
      // clients.ts) described itself: registered, or a metadata document. Such a client is public and
      // reaches a resource only through a person's consent: the same rules wherever it came from.
      validator: (c: any, key: string, value: unknown, metadata: Record<string, unknown>) => {
        if (key !== "authsvc_resources") return;
        if (c?.oidc?.route === "registration" && value !== undefined) throw new errors.InvalidClientMetadata("authsvc_resources cannot be registered");
        if (Array.isArray(value)) return;
        const why = checkPublicClient(metadata);
        if (why) throw new errors.InvalidClientMetadata(why);
      },
    },
    discovery: { client_id_metadata_document_supported: config.oauthClientMetadataDocuments },
    clientDefaults: { token_endpoint_auth_method: "client_secret_basic", grant_types: ["authorization_code"], response_types: ["code"], id_token_signed_response_alg: "RS256" },
    // A JWT access token carries its grant, so introspection can say it ended with it (introspection.ts).
    extraTokenClaims: (_c: unknown, token: any) => grantClaimOf(token),
    issueRefreshToken: async (_c: unknown, client: { grantTypeAllowed(g: string): boolean }, code: { scopes: Set<string> }) =>
      client.grantTypeAllowed("refresh_token") && (code.scopes.has("offline_access") || !code.scopes.has("openid")),
    rotateRefreshToken: true,
    loadExistingGrant: async (c: any) => {
      const clientId = c.oidc.client.clientId as string;
      const accountId = c.oidc.session.accountId as string | undefined;
      const grantId = c.oidc.result?.consent?.grantId ?? c.oidc.session.grantIdFor(clientId)
        ?? (accountId ? await repo.findLatestGrantId(ctx.store.db, accountId, clientId, ctx.clock.now()) : undefined);
      return grantId ? c.oidc.provider.Grant.find(grantId) : undefined;
    },
    // Browser-based public clients (the MCP Inspector) call the token endpoint from their page.
    clientBasedCORS: (_c: unknown, _origin: string, client: { tokenEndpointAuthMethod: string }) => client.tokenEndpointAuthMethod === "none",
    cookies: { keys: cookieKeys, long: { httpOnly: true, sameSite: "lax" }, short: { httpOnly: true, sameSite: "lax" } },
    ttl: {
      AccessToken: accessTtl, ClientCredentials: accessTtl, IdToken: accessTtl, AuthorizationCode: 60,
      RefreshToken: longTtl, Grant: longTtl, Session: longTtl, Interaction: 600,
    },
    renderError: async (c: any, out: Record<string, string>) => {
      c.type = "html";
      c.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><main><h1>This sign-in cannot go on</h1><p>${escape(out.error ?? "error")}: ${escape(out.error_description ?? "")}</p></main></body></html>`;
    },
  });
  // mount.ts pins Host and X-Forwarded-* to the public URL before the provider sees a request.
  provider.proxy = true;
  // Client secrets are kept as SHA-256 hashes (clients.ts): compare the hash of what was presented.
  provider.Client.prototype.compareClientSecret = async function compare(this: { clientSecret?: string }, actual: string) {
    if (typeof this.clientSecret !== "string" || typeof actual !== "string") return false;
    const a = Buffer.from(this.clientSecret), b = Buffer.from(hashToken(actual));
    return a.length === b.length && timingSafeEqual(a, b);
  };
  useClientDocuments(provider, errors, ctx, documents);
  useJwtIntrospection(provider, ctx);
  provider.use(refusePublicIntrospection);
  // scopes_supported: the OpenID scopes and every registered resource's, read at each request (resources come and go).
  provider.use(async (c, next) => {
    await next();
    if (c.oidc?.route !== "discovery" || !c.body || typeof c.body !== "object") return;
    const resourceScopes = (await repo.listResources(ctx.store.db)).flatMap((r) => JSON.parse(r.scopes) as string[]);
    c.body.scopes_supported = [...new Set([...OIDC_SCOPES, ...resourceScopes])];
  });
  allowResourceScopesInRegistration(provider);
  provider.on("server_error", (_c: unknown, err: Error) => ctx.logger.error("oauth provider error", { error: String(err?.message ?? err) }));
  return provider;
}

/**
 * Every lookup of a client goes through Client.find: a client_id that is a URL is a client ID
 * metadata document (client-documents.ts), any other is a client of the operator or a registered
 * one (the adapter). A document that cannot be used is invalid_client with the reason, never a 500.
 */
function useClientDocuments(provider: OidcProvider, errors: OidcModule["errors"], ctx: CoreContext, documents: DocumentLoader): void {
  const Client = provider.Client;
  const find = Client.find.bind(Client);
  const built = new WeakMap<Record<string, unknown>, ReturnType<typeof find>>();
  Client.find = async (id: string) => {
    if (typeof id !== "string" || !isDocumentClientId(id)) return find(id);
    if (!ctx.config.oauthClientMetadataDocuments) throw new errors.InvalidClient("client metadata documents are not accepted by this server (a URL is not a client_id here)");
    try {
      const metadata = await documents.load(id);
      let client = built.get(metadata);
      if (!client) built.set(metadata, (client = Promise.resolve(new Client(metadata))));
      return await client;
    } catch (err) {
      if (err instanceof AuthError && err.code === "RATE_LIMITED") {
        // Over the oauth-client-document-ip budget: 429 with Retry-After, as the other buckets answer.
        const limited = new errors.CustomOIDCProviderError("temporarily_unavailable", "too many client metadata documents were fetched for this address; try again later");
        limited.status = limited.statusCode = 429;
        requestScope.getStore()?.res.setHeader("retry-after", String(err.details.retryAfterSeconds ?? 60));
        throw limited;
      }
      if (err instanceof DocumentRefused) throw new errors.InvalidClient(`client metadata document refused: ${err.message}`);
      if (err instanceof Error && err.name === "InvalidClientMetadata") throw new errors.InvalidClient(`client metadata document refused: ${(err as { error_description?: string }).error_description ?? err.message}`);
      throw err;
    }
  };
}

/**
 * A client that registers itself may name the scopes of the resources it will ask for (the MCP
 * SDK registers with the scopes of the MCP server's metadata): oidc-provider would refuse every
 * scope beyond the OpenID ones. Those it checks as before; the others need only be well-formed
 * scope tokens (RFC 6749 §3.3). They grant nothing: a resource's scopes are granted per resource
 * (getResourceServerInfo), and the client's list only ever restricts the OpenID scopes.
 */
function allowResourceScopesInRegistration(provider: OidcProvider): void {
  const schema = (provider.Client as unknown as { Schema: { prototype: { scope?: string; scopes(): void; invalidate(m: string): never } } }).Schema.prototype;
  const checkOidcScopes = schema.scopes;
  schema.scopes = function scopes(this: typeof schema) {
    if (typeof this.scope !== "string") return checkOidcScopes.call(this);
    const all = [...new Set(this.scope.split(" "))];
    if (all.some((s) => !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))) this.invalidate("scope must be space-separated scope tokens");
    this.scope = all.filter((s) => (OIDC_SCOPES as readonly string[]).includes(s)).join(" ") || undefined;
    checkOidcScopes.call(this);
    this.scope = all.join(" ");
  };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

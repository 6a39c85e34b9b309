import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import Provider, { type OidcProvider } from "oidc-provider";

/**
 * A real OpenID Provider (the `oidc-provider` package) on 127.0.0.1, port 0, with a minimal login
 * page of our own. Two clients: a confidential one (client_secret_post) and a public one
 * (PKCE required). Accounts are a mutable map, so a test can change a user's email between logins.
 */
export const REDIRECT_URI = "http://localhost:3000/auth/callback/test";
export const CONFIDENTIAL = { clientId: "confidential-app", clientSecret: "s3cret-confidential-client-value" };
export const PUBLIC = { clientId: "public-app" };

export interface AccountClaims { email?: string; email_verified?: boolean; account?: Record<string, unknown>; groups?: string[] }

export interface TestIdp {
  issuer: string;
  discovery: string;
  accounts: Map<string, AccountClaims>;
  close(): Promise<void>;
}

/** `redirectUris`: more callback URLs the clients accept (the browser tests' hosted callback page). */
export async function startOidcProvider(opts: { redirectUris?: string[] } = {}): Promise<TestIdp> {
  const redirectUris = [REDIRECT_URI, ...(opts.redirectUris ?? [])];
  const server = createServer();
  const sockets = new Set<Socket>();
  server.on("connection", (s) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, AccountClaims>();
  // Our own signing key, storage and login page instead of the provider's development-only defaults.
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      { client_id: CONFIDENTIAL.clientId, client_secret: CONFIDENTIAL.clientSecret, token_endpoint_auth_method: "client_secret_post", redirect_uris: redirectUris, grant_types: ["authorization_code"], response_types: ["code"] },
      { client_id: PUBLIC.clientId, token_endpoint_auth_method: "none", redirect_uris: redirectUris, grant_types: ["authorization_code"], response_types: ["code"] },
    ],
    adapter: createMapAdapter(),
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test-idp-key", alg: "RS256", use: "sig" }] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...accounts.get(sub) }),
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], account: ["account"], groups: ["groups"] },
    scopes: ["openid", "email", "account", "groups"],
    // Like Google: the ID token of the code flow carries the email claims too.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    // PKCE required of the public client only (the confidential one also signs in without it).
    pkce: { required: (_ctx: unknown, client: { tokenEndpointAuthMethod: string }) => client.tokenEndpointAuthMethod === "none" },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["test-cookie-signing-key"] },
    ttl: { IdToken: 3600, AccessToken: 3600, AuthorizationCode: 120, Session: 3600, Interaction: 600, Grant: 3600 },
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    if (req.url?.startsWith("/interaction/")) void interact(provider, req, res);
    else callback(req, res);
  });
  return {
    issuer,
    discovery: `${issuer}/.well-known/openid-configuration`,
    accounts,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The login page: GET shows a form asking for a login name; POST signs that account in and grants
 * every scope the client asked for (login and consent in one step).
 */
async function interact(provider: OidcProvider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<form action="/interaction/${details.uid}" method="post"><input name="login"><input name="password" type="password"><button type="submit">Sign in</button></form>`);
      return;
    }
    let text = "";
    for await (const chunk of req) text += chunk;
    const accountId = details.session?.accountId ?? new URLSearchParams(text).get("login") ?? "";
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(err));
  }
}

/** Provider storage in a Map (per provider instance, expiry honoured), so tests share nothing. */
function createMapAdapter() {
  const store = new Map<string, { payload: Record<string, unknown>; expiresAt?: number }>();
  const live = (key: string) => {
    const e = store.get(key);
    if (e?.expiresAt !== undefined && e.expiresAt < Date.now()) { store.delete(key); return undefined; }
    return e?.payload;
  };
  return class MapAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) { return `${this.model}:${id}`; }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
      if (typeof payload.uid === "string") store.set(`${this.model}:uid:${payload.uid}`, { payload: { id } });
      if (typeof payload.userCode === "string") store.set(`${this.model}:userCode:${payload.userCode}`, { payload: { id } });
    }
    async find(id: string) { return live(this.key(id)); }
    async findByUid(uid: string) { const r = live(`${this.model}:uid:${uid}`); return r ? this.find(String(r.id)) : undefined; }
    async findByUserCode(code: string) { const r = live(`${this.model}:userCode:${code}`); return r ? this.find(String(r.id)) : undefined; }
    async consume(id: string) { const p = live(this.key(id)); if (p) p.consumed = Math.floor(Date.now() / 1000); }
    async destroy(id: string) { store.delete(this.key(id)); }
    async revokeByGrantId(grantId: string) {
      for (const [k, e] of store) if (e.payload.grantId === grantId) store.delete(k);
    }
  };
}

/**
 * Plays the browser: follows redirects by hand with a small cookie jar, fills the login form with
 * `login` (any password) and submits the consent form, until the provider redirects to our
 * redirect URI. Returns that callback URL's query parameters.
 */
export async function authorizeInBrowser(authorisationUrl: string, login: string): Promise<Record<string, string>> {
  const jar = new Map<string, string>();
  let url = authorisationUrl;
  let init: { method: string; body?: string } = { method: "GET" };
  for (let step = 0; step < 20; step++) {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (init.body) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const [name, ...rest] = pair.split("=");
      const expired = attrs.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a)) || rest.join("=") === "";
      if (expired) jar.delete(name.trim()); else jar.set(name.trim(), rest.join("="));
    }
    if (res.status >= 300 && res.status < 400) {
      await res.arrayBuffer();
      const next = new URL(res.headers.get("location")!, url);
      if (next.toString().startsWith(REDIRECT_URI)) return Object.fromEntries(next.searchParams);
      url = next.toString();
      init = { method: "GET" };
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new Error(`unexpected provider page (HTTP ${res.status}): ${html.slice(0, 300)}`);
    const form = new URLSearchParams();
    for (const m of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(m[0])?.[1];
      if (!name) continue;
      const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? "";
      form.set(name, name === "login" ? login : name === "password" ? "any-password" : value);
    }
    url = new URL(action.replace(/&amp;/g, "&"), url).toString();
    init = { method: "POST", body: form.toString() };
  }
  throw new Error("too many steps in the provider's login flow");
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s: Server = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * The whole browser round trip against our server at `base`: GET /auth/authorisationurl → the
 * provider's login and consent → POST /auth/signinup with the callback's query and the PKCE
 * verifier, sending `headers` (e.g. the mode headers) on the sign-in. Returns the raw response
 * and its JSON.
 */
export async function signInWithProvider(base: string, thirdPartyId: string, login: string, headers: Record<string, string> = {}, extraBody: Record<string, unknown> = {}): Promise<{ res: Response; json: Record<string, any> }> {
  const u = await fetch(`${base}/auth/authorisationurl?thirdPartyId=${thirdPartyId}&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
  if (u.status !== 200) throw new Error(`authorisationurl answered ${u.status}: ${await u.text()}`);
  const { urlWithQueryParams, pkceCodeVerifier } = (await u.json()) as { urlWithQueryParams: string; pkceCodeVerifier?: string };
  const params = await authorizeInBrowser(urlWithQueryParams, login);
  const res = await fetch(`${base}/auth/signinup`, {
    method: "POST",
    headers: { "content-type": "application/json", rid: "thirdparty", ...headers },
    body: JSON.stringify({ ...extraBody, thirdPartyId, redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: params, pkceCodeVerifier } }),
  });
  return { res, json: (await res.json()) as Record<string, any> };
}

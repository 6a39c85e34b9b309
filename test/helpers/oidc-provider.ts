import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID Provider (the `oidc-provider` package) on 127.0.0.1, port 0, with its development
 * login and consent pages. Two clients: a confidential one (client_secret_post) and a public one
 * (PKCE required). Accounts are a mutable map, so a test can change a user's email between logins.
 */
export const REDIRECT_URI = "http://localhost:3000/auth/callback/test";
export const CONFIDENTIAL = { clientId: "confidential-app", clientSecret: "s3cret-confidential-client-value" };
export const PUBLIC = { clientId: "public-app" };

export interface AccountClaims { email?: string; email_verified?: boolean; account?: Record<string, unknown> }

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
  const provider = new Provider(issuer, {
    clients: [
      { client_id: CONFIDENTIAL.clientId, client_secret: CONFIDENTIAL.clientSecret, token_endpoint_auth_method: "client_secret_post", redirect_uris: redirectUris, grant_types: ["authorization_code"], response_types: ["code"] },
      { client_id: PUBLIC.clientId, token_endpoint_auth_method: "none", redirect_uris: redirectUris, grant_types: ["authorization_code"], response_types: ["code"] },
    ],
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...accounts.get(sub) }),
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], account: ["account"] },
    scopes: ["openid", "email", "account"],
    // Like Google: the ID token of the code flow carries the email claims too.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["test-cookie-signing-key"] },
    ttl: { IdToken: 3600, AccessToken: 3600, AuthorizationCode: 120, Session: 3600, Interaction: 600, Grant: 3600 },
  });
  server.on("request", provider.callback());
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
export async function signInWithProvider(base: string, thirdPartyId: string, login: string, headers: Record<string, string> = {}): Promise<{ res: Response; json: Record<string, any> }> {
  const u = await fetch(`${base}/auth/authorisationurl?thirdPartyId=${thirdPartyId}&redirectURIOnProviderDashboard=${encodeURIComponent(REDIRECT_URI)}`);
  if (u.status !== 200) throw new Error(`authorisationurl answered ${u.status}: ${await u.text()}`);
  const { urlWithQueryParams, pkceCodeVerifier } = (await u.json()) as { urlWithQueryParams: string; pkceCodeVerifier?: string };
  const params = await authorizeInBrowser(urlWithQueryParams, login);
  const res = await fetch(`${base}/auth/signinup`, {
    method: "POST",
    headers: { "content-type": "application/json", rid: "thirdparty", ...headers },
    body: JSON.stringify({ thirdPartyId, redirectURIInfo: { redirectURIOnProviderDashboard: REDIRECT_URI, redirectURIQueryParams: params, pkceCodeVerifier } }),
  });
  return { res, json: (await res.json()) as Record<string, any> };
}

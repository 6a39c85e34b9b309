import * as oidc from "openid-client";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";
import { authorizeInBrowser, browse, CookieJar, signUpInto, verifyInto, type OauthServer } from "./oauth.js";
import { credentials, postJson, readTokens, refresh, type Tokens } from "./session-client.js";
import { startSupportSession } from "../../src/support-sessions/support.js";

/**
 * The ways into an account, opened as their holders open them (through HTTP), and tried again as
 * they are used: test/core/ways-in-matrix.test.ts fires every security event at each. A probe per
 * declared way in (Room.waysIn, by id): a room that declares a new one adds its probe here.
 */

export const PASSWORD = "correct horse battery staple";
export const MCP = "https://mcp.example.com/mcp";

/** Someone whose ways in an event must end: `signIn` starts a new session (cookie mode) of the login concerned. */
export interface Person {
  email: string;
  /** The person's id (`sub`). */
  userId: string;
  signIn(): Promise<{ jar: CookieJar; tokens: Tokens }>;
}

/** The apps of the matrix: a public client for MCP (the person's grant), and MCP's resource server (introspects its tokens). */
export interface Apps { clientId: string; redirect: string; resourceServer: { clientId: string; clientSecret: string } }

export async function registerApps(s: OauthServer): Promise<Apps> {
  await createResource(s.app.ctx, { resource: MCP, name: "Notes MCP", scopes: ["notes:read"] }, "test");
  const redirect = `${s.url}/cb`;
  const client = await createClient(s.app.ctx, { name: "Notes app", redirectUris: [redirect], resources: [MCP] }, "test");
  const rs = await createClient(s.app.ctx, { name: "Notes MCP (resource server)", type: "confidential", grantTypes: ["client_credentials"], resources: [MCP] }, "test");
  return { clientId: client.clientId, redirect, resourceServer: { clientId: rs.clientId, clientSecret: rs.clientSecret! } };
}

/** A password user who verified their address, signed in (the jar holds that first session). */
export async function passwordPerson(s: OauthServer, email: string): Promise<Person & { jar: CookieJar }> {
  const jar = new CookieJar();
  await signUpInto(jar, s.url, email);
  return { email, jar, userId: await whoAmI(s, jar), signIn: () => passwordSignIn(s, email) };
}

/** Signs in with the password in cookie mode, into `jar` (a browser signing in again keeps its other cookies) or a new one. */
export async function passwordSignIn(s: OauthServer, email: string, password = PASSWORD, jar = new CookieJar()): Promise<{ jar: CookieJar; tokens: Tokens }> {
  const res = await postJson(`${s.url}/auth/signin`, credentials(email, password), { rid: "emailpassword" });
  if (res.status !== 200 || ((await res.json()) as { status: string }).status !== "OK") throw new Error(`sign-in of ${email} failed`);
  jar.take(res);
  return { jar, tokens: readTokens(res, "cookie") };
}

export async function whoAmI(s: OauthServer, jar: CookieJar): Promise<string> {
  return ((await (await browse(jar, `${s.url}/auth/account/me`)).json()) as { user: { id: string } }).user.id;
}

/** A passkey user who verified their address: sign-up and sign-in through the WebAuthn ceremonies. */
export async function passkeyPerson(s: OauthServer, email: string): Promise<Person & { authenticator: SoftwareAuthenticator }> {
  const authenticator = new SoftwareAuthenticator(s.app.config.webauthnOrigins[0]);
  const options = await webauthn(s, "/webauthn/options/register", { email });
  const credential = authenticator.register(options as never);
  const up = await postJson(`${s.url}/auth/webauthn/signup`, { webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId, credential }, { rid: "webauthn" });
  if (up.status !== 200) throw new Error(`passkey sign-up answered ${up.status}`);
  const jar = new CookieJar();
  jar.take(up);
  await verifyInto(jar, s.url);
  const signIn = async () => {
    const o = await webauthn(s, "/webauthn/options/signin", {});
    const res = await postJson(`${s.url}/auth/webauthn/signin`, { webauthnGeneratedOptionsId: o.webauthnGeneratedOptionsId, credential: authenticator.authenticate(o as never) }, { rid: "webauthn" });
    if (res.status !== 200) throw new Error(`passkey sign-in answered ${res.status}`);
    const j = new CookieJar();
    j.take(res);
    return { jar: j, tokens: readTokens(res, "cookie") };
  };
  return { email, authenticator, userId: await whoAmI(s, jar), signIn };
}

export async function webauthn(s: OauthServer, path: string, body: unknown): Promise<Record<string, any>> {
  const r = (await (await postJson(`${s.url}/auth${path}`, body, { rid: "webauthn" })).json()) as Record<string, any>;
  if (r.status !== "OK") throw new Error(`${path} answered ${r.status}`);
  return r;
}

/** What still works of one way in: each check true while it lets its holder act as the person. */
export interface Probe<H = unknown> { open(s: OauthServer, apps: Apps, p: Person): Promise<H>; check(s: OauthServer, apps: Apps, h: H): Promise<Record<string, boolean>> }

/** A session: its refresh token still rotates. */
const sessionProbe: Probe<{ tokens: Tokens }> = {
  open: async (_s, _a, p) => ({ tokens: (await p.signIn()).tokens }),
  async check(s, _a, h) {
    const res = await refresh(s.url, h.tokens);
    if (res.status === 200) h.tokens = readTokens(res, "cookie", undefined, h.tokens);
    else if (res.status !== 401) throw new Error(`refresh answered ${res.status}`);
    return { refresh: res.status === 200 };
  },
};

/** An app's grant (a real authorization-code flow with consent): its refresh token still rotates, its JWT access token is still active at introspection. */
const grantProbe: Probe<{ config: oidc.Configuration; refreshToken: string; accessToken: string }> = {
  async open(s, apps, p) {
    const { jar } = await p.signIn();
    const config = await oidc.discovery(new URL(s.url), apps.clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: apps.redirect, scope: "openid offline_access notes:read", resource: MCP, prompt: "consent", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "st" });
    const { callback } = await authorizeInBrowser(jar, s.url, url.toString());
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: "st" });
    return { config, refreshToken: tokens.refresh_token!, accessToken: tokens.access_token };
  },
  async check(s, apps, h) {
    const active = (await introspect(s, apps.resourceServer, h.accessToken)).active === true;
    try {
      const next = await oidc.refreshTokenGrant(h.config, h.refreshToken, { resource: MCP });
      h.refreshToken = next.refresh_token!;
      return { refresh: true, introspection: active };
    } catch (err) {
      if ((err as { error?: string }).error !== "invalid_grant") throw err;
      return { refresh: false, introspection: active };
    }
  },
};

/** POST /oauth/introspect as a confidential client (HTTP Basic). */
export async function introspect(s: OauthServer, client: { clientId: string; clientSecret?: string }, token: string): Promise<Record<string, unknown> & { status: number }> {
  const auth: Record<string, string> = client.clientSecret === undefined ? {} : { authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString("base64")}` };
  const body = new URLSearchParams({ token, ...(client.clientSecret === undefined ? { client_id: client.clientId } : {}) });
  const res = await fetch(`${s.url}/oauth/introspect`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...auth }, body });
  return { status: res.status, ...((await res.json()) as Record<string, unknown>) };
}

/**
 * A support session (src/support-sessions): an admin opens it as the person, through the same
 * function as the dashboard's action once the admin's own code is checked (the dashboard's TOTP
 * check is tested in test/support-sessions), and its one-time link hands it to the admin's
 * browser over HTTP; it works while its refresh token still rotates.
 */
const supportProbe: Probe<{ tokens: Tokens }> = {
  async open(s, _a, p) {
    const started = await startSupportSession(s.app.ctx, { userId: p.userId, admin: { id: "probe-admin", email: "support@example.com" }, reason: "ways-in matrix" });
    if (!started) throw new Error(`no support session for ${p.userId}`);
    const res = await fetch(started.link, { redirect: "manual" });
    if (res.status !== 303) throw new Error(`the support-session link answered ${res.status}`);
    return { tokens: readTokens(res, "cookie") };
  },
  check: (s, a, h) => sessionProbe.check(s, a, h),
};

/** The probe of each declared way in, by its id. */
export const probes: Readonly<Record<string, Probe<any>>> = { sessions: sessionProbe, "oauth-grants": grantProbe, "support-sessions": supportProbe };

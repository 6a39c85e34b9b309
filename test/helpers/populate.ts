import * as oidc from "openid-client";
import { expect } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { testConfig } from "../../src/config.js";
import { startHttpServer } from "../../src/http/server.js";
import { banPerson } from "../../src/bans/bans.js";
import { signInAdmin } from "../../src/dashboard/accounts/sign-in.js";
import { generateCode } from "../../src/methods/totp/secrets.js";
import { createPasswordlessUser } from "../../src/methods/passwordless/consume.js";
import { upsertThirdPartyUser } from "../../src/methods/third-party/sign-in-up.js";
import { updateMetadata } from "../../src/metadata/metadata.js";
import { setPersonLocale } from "../../src/store/person-locales.js";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { addDomain } from "../../src/organizations/domains.js";
import { createInvitation } from "../../src/organizations/invitations.js";
import { createOrganization } from "../../src/organizations/organizations.js";
import { addOidcConnection, addSamlConnection } from "../../src/sso/saml-connections.js";
import { requestCache } from "../../src/sso/saml-requests.js";
import { rotateScimToken } from "../../src/sso/scim-tokens.js";
import { rememberAssertion } from "../../src/sso/store.js";
import { setSsoRequired } from "../../src/sso/routing.js";
import { createPowChallenge } from "../../src/protection/captcha/pow.js";
import { markBreached, useSolution } from "../../src/protection/store.js";
import { putRole, setUserRole } from "../../src/roles/roles.js";
import { insertCaughtMail } from "../../src/store/caught-mail.js";
import { insertMovedRefreshKey, insertMovedRefreshTokens } from "../../src/store/moved-sessions.js";
import { createCdiSession } from "../../src/cdi/sessions.js";
import { startSupportSession } from "../../src/support-sessions/support.js";
import { markEmailVerified } from "../../src/store/users.js";
import { addEndpoint } from "../../src/webhooks/endpoints.js";
import { createManualClock } from "../../src/util/clock.js";
import { createTestAdmin } from "./dashboard.js";
import { authorizeInBrowser, CookieJar } from "./oauth.js";
import { jwtPayload, postJson, postWithSession, readTokens, refresh, signUp, type Tokens } from "./session-client.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

/** A server to fill: its app, the URL it listens on (also its public URL and issuer), its clock. */
export interface Filled { app: App; url: string; clock: ReturnType<typeof createManualClock> }

/**
 * authsvc on a database, listening on `port` (also its public URL and OAuth issuer), on a clock
 * of its own starting at `now`, with the hosted pages; `start` runs its workers (mail, webhooks).
 */
export async function serveFilled(database: string, o: { port: number; now: number; secret: string; start: boolean }): Promise<Filled & { close(): Promise<void> }> {
  const url = `http://127.0.0.1:${o.port}`;
  const clock = createManualClock(o.now);
  const config = testConfig({ database, port: o.port, publicUrl: url, websiteUrl: url, corsOrigins: [url], hostedPages: true, secret: o.secret, webhookTimeoutMs: 2000 });
  const app = await createApp(config, { clock });
  await app.migrate();
  if (o.start) await app.start();
  const server = await startHttpServer(app.http, { port: o.port, host: "127.0.0.1", bodyLimit: config.bodyLimit, logger: app.ctx.logger });
  return { app, url, clock, close: async () => { await server.stop(0); await app.close(); } };
}

/**
 * What the people of a filled database still do on the server `s` now serving it (a copy of it, an
 * upgrade of it): the session started before refreshes; the password signs in, with its role; the
 * OAuth grant's refresh token rotates; the TOTP device's secret (sealed with the server secret)
 * gives an accepted code; the organization's owner carries its claim.
 */
export async function expectPeopleServed(s: Filled, p: Populated): Promise<void> {
  expect((await refresh(s.url, p.ada.tokens)).status).toBe(200);
  const ada = await signUp(s.url, p.ada.email, "header", "/auth/signin");
  expect(ada.json.status).toBe("OK");
  expect(jwtPayload(ada.tokens.access)["st-role"]).toEqual({ v: ["editor"], t: expect.any(Number) });
  const config = await oidc.discovery(new URL(s.url), p.oauth.clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  const next = await oidc.refreshTokenGrant(config, p.oauth.refreshToken, { resource: p.oauth.resource });
  expect(next.refresh_token).toBeTruthy();
  expect(next.refresh_token).not.toBe(p.oauth.refreshToken);
  const tim = await signUp(s.url, p.totp.email, "header", "/auth/signin");
  expect(jwtPayload(tim.tokens.access)["st-mfa"].v).toBe(false);
  const ok = await postWithSession(s.url, "/totp/verify", tim.tokens, { totp: generateCode(p.totp.secret, s.clock.now()) });
  expect(ok.json).toEqual({ status: "OK" });
  expect(jwtPayload(ok.tokens!.access)["st-mfa"].v).toBe(true);
  const olga = await signUp(s.url, p.org.email, "header", "/auth/signin");
  expect(jwtPayload(olga.tokens.access).org).toMatchObject({ slug: p.org.slug, role: "owner" });
}

/** What the filled database holds that a test can use again on a copy of it (or after an upgrade). */
export interface Populated {
  password: string;
  /** Signed up with a password, address verified, roles and metadata; a live session. */
  ada: { email: string; id: string; tokens: Tokens };
  /** A verified TOTP device (and a used code, a failed one, recovery codes). */
  totp: { email: string; secret: string };
  /** Owner of an organization (active in it), which has a domain and a pending invitation. */
  org: { email: string; slug: string };
  /** A public client with a refresh token from the code flow (offline_access). */
  oauth: { clientId: string; redirect: string; refreshToken: string; resource: string };
  /** An endpoint whose deliveries wait in the queue (the filled server's workers never ran). */
  webhook: { url: string; secret: string };
}

const PASSWORD = "correct horse battery staple";

/**
 * Puts rows in every table a release of authsvc has, through the server's own HTTP API where a
 * person would act and through its core functions where an operator would (roles, organizations,
 * clients, endpoints, admins), and through a room's own store functions for the rows only other
 * systems or outside services write (moved sessions, caught mail, a used bot-check solution, a
 * breached-password mark), never by writing rows by hand. The
 * server must not be started (app.start()): mail and webhook deliveries stay queued, as in a
 * database copied while they wait. Used by the db copy tests and by the upgrade fixture's script.
 */
export async function populateEveryTable(s: Filled, webhookUrl: string): Promise<Populated> {
  const { app, url, clock } = s;
  const ctx = app.ctx;
  const hook = await addEndpoint(ctx, { url: webhookUrl, events: ["user.created", "user.signed_in"] });
  // A person with a password: verified address, an outstanding verification token and its mail, a session.
  const ada = await signUp(url, "ada@example.com", "header");
  const adaId = (ada.json.user as { id: string }).id;
  await markEmailVerified(app.store.db, adaId, "ada@example.com", clock.now());
  await postJson(`${url}/auth/signin`, { formFields: [{ id: "email", value: "ada@example.com" }, { id: "password", value: "not the password" }] });
  await putRole(ctx, "editor", ["notes:write"]);
  await setUserRole(ctx, adaId, "editor");
  await updateMetadata(ctx, adaId, { plan: "pro" });
  // The locale her mail is written in (022-person-locales).
  await setPersonLocale(app.store.db, adaId, "de", clock.now());
  // A second factor: a device verified by a code, a wrong code, the recovery codes, a session that completed it.
  const tim = await signUp(url, "tim@example.com", "header");
  const device = await postWithSession(url, "/totp/device", tim.tokens, {});
  const secret = device.json.secret as string;
  await postWithSession(url, "/user/email/verify/token", tim.tokens);
  await postWithSession(url, "/totp/device/verify", tim.tokens, { deviceName: device.json.deviceName, totp: generateCode(secret, clock.now()) === "000000" ? "111111" : "000000" });
  await postWithSession(url, "/totp/device/verify", tim.tokens, { deviceName: device.json.deviceName, totp: generateCode(secret, clock.now()) });
  // A later sign-in that failed its code once (the counter behind the lock-out).
  const again = await signUp(url, "tim@example.com", "header", "/auth/signin");
  await postWithSession(url, "/totp/verify", again.tokens, { totp: generateCode(secret, clock.now()) === "000000" ? "111111" : "000000" });
  // Other ways in: an identity at a provider, a passwordless flow waiting for its code, a passkey and an unused challenge.
  await upsertThirdPartyUser(ctx, { thirdPartyId: "google", thirdPartyUserId: "g-1234", email: "gil@example.com", emailVerified: true });
  const pia = await createPasswordlessUser(ctx, { email: "pia@example.com", source: "test" });
  // A banned person (the bans room), until a time.
  if (pia.status !== "OK") throw new Error(`passwordless user: ${pia.status}`);
  await banPerson(ctx, pia.user.id, { reason: "spam", until: clock.now() + 30 * 86_400_000, source: "test" });
  await postJson(`${url}/auth/signinup/code`, { email: "pat@example.com", shouldTryLinkingWithSessionUser: false }, { rid: "passwordless" });
  await passkey(url, "kai@example.com");
  // A person who asked for their account to be deleted (waiting out the grace period).
  const leaving = await signUp(url, "lea@example.com", "header");
  await postWithSession(url, "/account/delete", leaving.tokens, { password: PASSWORD });
  // An organization with a domain and an invitation; its owner signs in again to carry the claim.
  const owner = await signUp(url, "olga@example.com", "header");
  const ownerId = (owner.json.user as { id: string }).id;
  // A verified address: consent to an app (below) asks for one.
  await markEmailVerified(app.store.db, ownerId, "olga@example.com", clock.now());
  const org = await createOrganization(ctx, { name: "Acme", slug: "acme" }, ownerId, { personId: ownerId });
  await addDomain(ctx, org.id, { domain: "acme.example.com", role: "member" }, "test");
  await createInvitation(ctx, org.id, { personId: ownerId }, { email: "ivan@example.com", role: "member" });
  // Its directory: a SCIM token, a provisioned person and a group that makes them an admin.
  await scimProvision(url, await rotateScimToken(ctx, org.id, "test"));
  // A SAML connection (as its metadata gives it) and an assertion it accepted, which only its IdP's sign-ins write.
  const saml = await addSamlConnection(ctx, org.id, { metadata: { entityId: "https://idp.acme.example.com/metadata", ssoUrl: "https://idp.acme.example.com/sso", certs: ["MIIBfake"] }, source: "idp.xml", idpInitiated: false, actor: "test" });
  await rememberAssertion(app.store.db, saml.id, "_assertion-1", clock.now() + 300_000, clock.now());
  // "SSO required" for its domain (the sso room's setting row).
  await setSsoRequired(ctx, org.id, true, "test");
  // An AuthnRequest it sent, waiting for the IdP's answer; and an OpenID connection (its client secret sealed).
  await requestCache(ctx, saml.id).saveAsync("_request-1", new Date(clock.now()).toISOString());
  await addOidcConnection(ctx, org.id, { issuer: "https://login.acme.example.com", clientId: "authsvc", clientSecret: "s3cret-of-the-client", scope: ["openid", "email"], actor: "test" });
  // OAuth: a client and a resource, and a grant with a refresh token.
  const oauth = await oauthGrant(s, "olga@example.com");
  // The dashboard's admin and a session of theirs; moved-in sessions; a caught mail.
  const admin = await createTestAdmin(app, { email: "root@example.com" });
  await signInAdmin(ctx, { email: admin.email, password: admin.password, code: admin.code(), ipKey: "127.0.0.1", ip: "127.0.0.1", userAgent: "populate" });
  await insertMovedRefreshKey(app.store.db, { id: "st-key-1", secret_enc: "moved-key-sealed", created_at: clock.now() });
  const sessionHandle = (await app.store.db.selectFrom("sessions").select("handle").where("user_id", "=", adaId).executeTakeFirstOrThrow()).handle;
  await insertMovedRefreshTokens(app.store.db, [{ token_hash2: "f".repeat(64), session_handle: sessionHandle, key_id: "st-key-1" }]);
  // A session a backend's SuperTokens SDK opened through the CDI (its payload and data).
  await createCdiSession(ctx, { userId: adaId, payload: { app: "populate" }, data: { cart: 1 }, antiCsrf: true, tenantId: "public" });
  await insertCaughtMail(app.store.db, { received_at: clock.now(), mail_from: "no-reply@localhost", to_address: "ada@example.com", subject: "Hello", text_body: "hi", html_body: "<p>hi</p>", headers: "{}" });
  // The protection room: its proof-of-work keys (made by the first challenge), a used bot-check
  // solution and a breached-password mark, which only its outside checks write otherwise.
  await createPowChallenge(ctx);
  await useSolution(app.store, "solution-1", clock.now() + 600_000);
  await markBreached(app.store.db, adaId, clock.now());
  // A support session the admin opened as Ada (a session with an actor, its room's row).
  await startSupportSession(ctx, { userId: adaId, admin: { id: admin.id, email: admin.email }, reason: "populate" });
  await ctx.deferred.drain();
  return {
    password: PASSWORD,
    ada: { email: "ada@example.com", id: adaId, tokens: ada.tokens },
    totp: { email: "tim@example.com", secret },
    org: { email: "olga@example.com", slug: org.slug },
    oauth,
    webhook: { url: webhookUrl, secret: hook.secret },
  };
}

async function scimProvision(url: string, token: string): Promise<void> {
  const scim = async (path: string, body: unknown) => {
    const res = await fetch(`${url}/scim/v2${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`SCIM ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
  const user = await scim("/Users", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "sam@acme.example.com", name: { givenName: "Sam" }, emails: [{ value: "sam@acme.example.com", primary: true }] });
  await scim("/Groups", { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "admin", members: [{ value: user.id }] });
}

async function passkey(url: string, email: string): Promise<void> {
  // The test configuration's website (testConfig): the passkey origin and relying party it allows.
  const auth = new SoftwareAuthenticator("http://localhost:3000");
  const call = async (path: string, body: unknown) => {
    const res = await postJson(`${url}/auth${path}`, body, { rid: "webauthn", "st-auth-mode": "header" });
    return { res, json: (await res.json()) as Record<string, any> };
  };
  const options = await call("/webauthn/options/register", { email });
  const credential = auth.register(options.json as never);
  const up = await call("/webauthn/signup", { webauthnGeneratedOptionsId: options.json.webauthnGeneratedOptionsId, credential });
  if (up.json.status !== "OK") throw new Error(`passkey sign-up: ${JSON.stringify(up.json)}`);
  readTokens(up.res, "header");
  await call("/webauthn/options/signin", {});
}

/** The code flow with PKCE for a person (signed in in a cookie jar), scope offline_access: a refresh token. */
async function oauthGrant(s: Filled, email: string): Promise<Populated["oauth"]> {
  const resource = "https://notes.example.com/api";
  await createResource(s.app.ctx, { resource, name: "Notes", scopes: ["notes:read"] }, "test");
  const redirect = `${s.url}/cb`;
  const { clientId } = await createClient(s.app.ctx, { name: "Notes app", redirectUris: [redirect], resources: [resource] }, "test");
  const jar = new CookieJar();
  jar.take(await postJson(`${s.url}/auth/signin`, { formFields: [{ id: "email", value: email }, { id: "password", value: PASSWORD }] }));
  const config = await oidc.discovery(new URL(s.url), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authUrl = oidc.buildAuthorizationUrl(config, { redirect_uri: redirect, scope: "openid email offline_access notes:read", resource, prompt: "consent", state, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256" });
  const { callback } = await authorizeInBrowser(jar, s.url, authUrl.toString());
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  if (!tokens.refresh_token) throw new Error("the code flow gave no refresh token");
  return { clientId, redirect, refreshToken: tokens.refresh_token, resource };
}

import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINK_FRESHNESS_MS } from "../../src/core/login-policy.js";
import { generateCode } from "../../src/methods/totp/secrets.js";
import type { OauthTables } from "../../src/oauth-provider/schema.js";
import { backends } from "../helpers/backends.js";
import { browse, CookieJar, signUpInto, startOauthServer, type OauthServer } from "../helpers/oauth.js";
import { passwordSignIn, registerApps, MCP, type Apps } from "../helpers/ways-in.js";

/**
 * Allowing an app follows the account's rules, as an attacker would find them over HTTP: no grant
 * for a person without a verified address (someone who signed up first with another's address), no
 * sign-in to the provider nor consent from a session older than 5 minutes (a copied cookie), the
 * client's max_age and prompt=login honoured, the second factor complete; and the ID token says
 * when and how the person signed in (auth_time, amr).
 */
describe.each(backends)("OAuth consent obeys the account's rules on $name", (backend) => {
  let s: OauthServer;
  let apps: Apps;
  beforeAll(async () => {
    s = await startOauthServer(backend, { secret: "a server secret that is long enough for tests 0123456789" });
    apps = await registerApps(s);
  });
  afterAll(async () => { await s?.close(); });

  /** An authorization request of the MCP app, as a browser starts it; its PKCE verifier and config for the code exchange. */
  async function authorization(params: Record<string, string> = {}) {
    const config = await oidc.discovery(new URL(s.url), apps.clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: apps.redirect, scope: "openid offline_access notes:read", resource: MCP, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "st", ...params });
    return { config, verifier, url: url.toString() };
  }

  /** Follows the browser until authsvc shows a page or sends it elsewhere (the sign-in page, the client). */
  async function walk(jar: CookieJar, start: string): Promise<{ status: number; url: string; html?: string; location?: URL }> {
    let url = start;
    for (let i = 0; i < 8; i++) {
      const res = await browse(jar, url);
      if (res.status < 300 || res.status >= 400) return { status: res.status, url, html: await res.text() };
      const next = new URL(res.headers.get("location")!, url);
      if (!next.pathname.startsWith("/oauth/")) return { status: res.status, url, location: next };
      url = next.toString();
    }
    throw new Error("too many redirects");
  }
  const grants = async () => (await s.app.ctx.store.db.withTables<OauthTables>().selectFrom("oauth_records").select("id").where("model", "=", "Grant").execute()).length;
  const allow = (jar: CookieJar, interaction: string) => browse(jar, `${interaction}/confirm`, { method: "POST", headers: { origin: s.url, "content-type": "application/x-www-form-urlencoded" }, body: "" });

  it("finding 1: someone who signed up first with another's address (unverified) cannot allow an app: the page says to verify first, a forged Allow makes no grant, and the app hears access_denied", async () => {
    const attacker = new CookieJar();
    await signUpInto(attacker, s.url, "victim-1@example.com", { verify: false });
    const before = await grants();
    const page = await walk(attacker, (await authorization({ prompt: "consent" })).url);
    expect(page.status).toBe(403);
    expect(page.html).toContain("Verify your email address first");
    expect(page.html).not.toContain('id="allow"');
    const forged = await allow(attacker, page.url);
    expect(forged.status).toBe(403);
    expect(await grants()).toBe(before);
    const back = await browse(attacker, `${page.url}/abort`, { method: "POST", headers: { origin: s.url } });
    const done = await walk(attacker, new URL(back.headers.get("location")!, page.url).toString());
    expect(done.location?.searchParams.get("error")).toBe("access_denied");
  });

  it("finding 2: a session cookie older than 5 minutes (a copy) neither signs in to the provider nor allows an app; a fresh sign-in does", async () => {
    const victim = new CookieJar();
    await signUpInto(victim, s.url, "copied@example.com");
    s.clock.advance(LINK_FRESHNESS_MS + 1000);
    const copy = new CookieJar();
    copy.values.set("sAccessToken", victim.values.get("sAccessToken")!);
    const before = await grants();
    const { url } = await authorization({ prompt: "consent" });
    const sent = await walk(copy, url);
    expect(sent.location?.pathname).toBe("/auth");
    expect(sent.location?.origin).toBe(s.url);
    expect(sent.location?.searchParams.get("signInAgain")).toBe("1");
    // Allow, forged on the interaction: back to the sign-in page, not to the app.
    const forged = await allow(copy, sent.url);
    expect(new URL(forged.headers.get("location")!, s.url).pathname).toBe("/auth");
    expect(await grants()).toBe(before);

    // The owner signs in again in that browser: consent, and a grant.
    const { jar } = await passwordSignIn(s, "copied@example.com", undefined, copy);
    const consent = await walk(jar, sent.url);
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('id="allow"');
    expect((await allow(jar, consent.url)).status).toBe(303);
    expect(await grants()).toBe(before + 1);
  });

  it("a provider sign-in from this browser that is now older than 5 minutes asks again before a new consent", async () => {
    const { jar } = await passwordSignIn(s, (await signUpThen("stale-consent@example.com")));
    const first = await walk(jar, (await authorization({ scope: "openid" })).url);
    expect(first.status).toBe(200); // signed in to the provider (fresh), now at consent
    s.clock.advance(LINK_FRESHNESS_MS + 1000);
    const later = await walk(jar, (await authorization({ scope: "openid offline_access notes:read" })).url);
    expect(later.location?.searchParams.get("signInAgain")).toBe("1");
  });

  it("max_age: a sign-in older than it is asked again; auth_time and amr in the ID token are the new sign-in's", async () => {
    const email = await signUpThen("max-age@example.com");
    const { jar } = await passwordSignIn(s, email);
    s.clock.advance(120_000);
    const a = await authorization({ max_age: "60", prompt: "consent" });
    const sent = await walk(jar, a.url);
    expect(sent.location?.searchParams.get("signInAgain")).toBe("1");
    s.clock.advance(1000);
    const again = (await passwordSignIn(s, email, undefined, jar)).jar;
    const consent = await walk(again, sent.url);
    const tokens = await finish(again, consent, a);
    expect(tokens.claims()).toMatchObject({ auth_time: Math.floor(s.clock.now() / 1000), amr: ["pwd"] });
  });

  it("prompt=login asks for a new sign-in even from a fresh session, and is then satisfied", async () => {
    const email = await signUpThen("prompt-login@example.com");
    const { jar } = await passwordSignIn(s, email);
    s.clock.advance(1000);
    const a = await authorization({ prompt: "login consent" });
    const sent = await walk(jar, a.url);
    expect(sent.location?.searchParams.get("signInAgain")).toBe("1");
    const again = (await passwordSignIn(s, email, undefined, jar)).jar;
    const consent = await walk(again, sent.url);
    expect(consent.status).toBe(200);
    const tokens = await finish(again, consent, a);
    expect(tokens.claims()?.auth_time).toBe(Math.floor(s.clock.now() / 1000));
  });

  it("the second factor must be complete; then amr names both factors and mfa", async () => {
    const email = await signUpThen("two-factors@example.com");
    const first = (await passwordSignIn(s, email)).jar;
    const headers = { "content-type": "application/json", rid: "totp" };
    const device = (await (await browse(first, `${s.url}/auth/totp/device`, { method: "POST", headers, body: "{}" })).json()) as { deviceName: string; secret: string };
    const verified = await browse(first, `${s.url}/auth/totp/device/verify`, { method: "POST", headers, body: JSON.stringify({ deviceName: device.deviceName, totp: generateCode(device.secret, s.clock.now()) }) });
    expect(((await verified.json()) as { status: string }).status).toBe("OK");

    s.clock.advance(30_000);
    const { jar } = await passwordSignIn(s, email); // a password alone: st-mfa.v is false
    const a = await authorization({ prompt: "consent" });
    const sent = await walk(jar, a.url);
    expect(sent.location?.pathname).toBe("/auth");
    const code = await browse(jar, `${s.url}/auth/totp/verify`, { method: "POST", headers, body: JSON.stringify({ totp: generateCode(device.secret, s.clock.now()) }) });
    expect(((await code.json()) as { status: string }).status).toBe("OK");
    const consent = await walk(jar, sent.url);
    const tokens = await finish(jar, consent, a);
    expect(tokens.claims()?.amr).toEqual(["pwd", "otp", "mfa"]);
  });

  /** A person who signed up and verified their address; returns the address. */
  async function signUpThen(email: string): Promise<string> {
    await signUpInto(new CookieJar(), s.url, email);
    return email;
  }

  /** Allow on the consent page, then the code for tokens. */
  async function finish(jar: CookieJar, consent: { status: number; url: string }, a: Awaited<ReturnType<typeof authorization>>) {
    expect(consent.status).toBe(200);
    const posted = await allow(jar, consent.url);
    const back = await walk(jar, new URL(posted.headers.get("location")!, consent.url).toString());
    return oidc.authorizationCodeGrant(a.config, back.location!, { pkceCodeVerifier: a.verifier, expectedState: "st" });
  }
});

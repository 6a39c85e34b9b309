import { createApp, type App } from "../../src/app.js";
import { testConfig, type Config } from "../../src/config.js";
import { startHttpServer, type HttpServer } from "../../src/http/server.js";
import { createManualClock } from "../../src/util/clock.js";
import type { Backend } from "./backends.js";
import { closedPort } from "./oidc-provider.js";
import { credentials, postJson } from "./session-client.js";

/**
 * authsvc as an OAuth provider for tests: a migrated app whose public URL is its real listener
 * (the issuer must be the address clients reach), hosted pages on, on the listener stack `serve` uses.
 */
export interface OauthServer { app: App; url: string; clock: ReturnType<typeof createManualClock>; close(): Promise<void> }

export async function startOauthServer(backend: Backend, config: Partial<Config> = {}): Promise<OauthServer> {
  const db = await backend.create();
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}`;
  const clock = createManualClock(Date.now());
  const app = await createApp(testConfig({ database: db.url, port, publicUrl: url, websiteUrl: url, corsOrigins: [url], hostedPages: true, ...config }), { clock });
  await app.migrate();
  await app.start();
  const server: HttpServer = await startHttpServer(app.http, { port, host: "127.0.0.1", bodyLimit: app.ctx.config.bodyLimit, logger: app.ctx.logger });
  return {
    app, url, clock,
    close: async () => { await server.stop(0); await app.close(); await db.drop(); },
  };
}

/** A browser's cookies, simplified: one value per name, sent everywhere on this origin. */
export class CookieJar {
  readonly values = new Map<string, string>();
  take(res: Response): void {
    for (const raw of res.headers.getSetCookie()) {
      const [pair, ...attrs] = raw.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim(), value = pair.slice(eq + 1);
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now()) || value === "";
      if (expired) this.values.delete(name); else this.values.set(name, value);
    }
  }
  header(): string { return [...this.values].map(([k, v]) => `${k}=${v}`).join("; "); }
}

/**
 * Signs a person up through the API in cookie mode and verifies their address as they would (the
 * verification token, which a development server hands back, then the link's POST in the session):
 * the jar then holds their authsvc session. Allowing an app needs a verified address;
 * `{ verify: false }` leaves it unverified.
 */
export async function signUpInto(jar: CookieJar, base: string, email: string, opts: { verify?: boolean } = {}): Promise<void> {
  const res = await postJson(`${base}/auth/signup`, credentials(email));
  if (res.status !== 200) throw new Error(`signup answered ${res.status}`);
  jar.take(res);
  if (opts.verify !== false) await verifyInto(jar, base);
}

/** Verifies the address of the jar's session through the API (development mode: the token comes back in the answer). */
export async function verifyInto(jar: CookieJar, base: string): Promise<void> {
  const headers = { "content-type": "application/json", rid: "emailverification" };
  const asked = await browse(jar, `${base}/auth/user/email/verify/token`, { method: "POST", headers, body: "{}" });
  const { token } = (await asked.json()) as { token?: string };
  if (!token) throw new Error(`the verification token request answered ${asked.status} without a token`);
  const done = await browse(jar, `${base}/auth/user/email/verify`, { method: "POST", headers, body: JSON.stringify({ method: "token", token }) });
  if (done.status !== 200 || ((await done.json()) as { status: string }).status !== "OK") throw new Error(`verification answered ${done.status}`);
}

/** One browser step: a request with the jar's cookies, no automatic redirects. */
export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
  jar.take(res);
  return res;
}

/**
 * Follows the browser's path from the authorization URL: the provider's redirects, the interaction
 * (sign-in with the jar's session), and the consent page, where it presses Allow (or Deny). Returns
 * the URL the browser is finally sent to (the client's redirect URI with code or error), and the
 * consent page's HTML when one was shown.
 */
export async function authorizeInBrowser(jar: CookieJar, base: string, authorizationUrl: string, answer: "allow" | "deny" = "allow"): Promise<{ callback: URL; consentPage?: string }> {
  let url = authorizationUrl;
  let consentPage: string | undefined;
  for (let step = 0; step < 12; step++) {
    const res = await browse(jar, url);
    if (res.status === 200 && url.includes("/oauth/interaction/")) {
      consentPage = await res.text();
      const action = `${url}/${answer === "allow" ? "confirm" : "abort"}`;
      const posted = await browse(jar, action, { method: "POST", headers: { origin: base, "content-type": "application/x-www-form-urlencoded" }, body: "" });
      if (posted.status !== 303 && posted.status !== 302) throw new Error(`consent answered ${posted.status}: ${await posted.text()}`);
      url = new URL(posted.headers.get("location")!, url).toString();
      continue;
    }
    if (res.status !== 302 && res.status !== 303) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
    const next = new URL(res.headers.get("location")!, url);
    if (next.origin !== new URL(base).origin || next.pathname === "/cb") return { callback: next, consentPage };
    url = next.toString();
  }
  throw new Error("too many steps");
}

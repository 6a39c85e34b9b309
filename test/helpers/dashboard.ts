import { randomBytes } from "node:crypto";
import type { Page } from "puppeteer-core";
import type { App } from "../../src/app.js";
import { createAdmin } from "../../src/dashboard/accounts/admins.js";
import { ADMIN_TOTP_PERIOD_S, generateAdminCode } from "../../src/dashboard/accounts/second-factor.js";

/**
 * The dashboard's test helpers (dash-users and dash-ops code against them): an admin made through
 * the same core function as `authsvc admins create`, an HTTP client signed in over the real sign-in
 * form, and the same sign-in in Chromium.
 *
 * A code is accepted once (and so is every earlier one): `code()` hands out the next code not yet
 * used, from the previous time step up to the next one. When those three are used and the app runs
 * on an injected clock (createTestApp's), it moves that clock one step (30 s) on; on the system
 * clock it waits for the next step. Sign in through `code()` only, so it knows what was used.
 */
export interface TestAdmin { id: string; email: string; password: string; totpSecret: string; code(): string }

export async function createTestAdmin(app: App, opts: { email?: string; password?: string } = {}): Promise<TestAdmin> {
  const email = opts.email ?? `admin-${randomBytes(4).toString("hex")}@example.com`;
  const password = opts.password ?? `admin pass ${randomBytes(6).toString("hex")}`;
  const made = await createAdmin(app.ctx, { email, password, source: "cli" });
  let lastStep = 0;
  const clock = app.ctx.clock as { now(): number; advance?: (ms: number) => void };
  const stepOf = () => Math.floor(clock.now() / 1000 / ADMIN_TOTP_PERIOD_S);
  return {
    id: made.id,
    email: made.email,
    password,
    totpSecret: made.secret,
    code() {
      let current = stepOf();
      while (lastStep + 1 > current + 1) {
        if (clock.advance) clock.advance(ADMIN_TOTP_PERIOD_S * 1000);
        else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
        current = stepOf();
      }
      lastStep = Math.max(lastStep + 1, current - 1);
      return generateAdminCode(made.secret, lastStep);
    },
  };
}

export interface DashboardClient {
  /** The Cookie header this client sends (the session, and a flash message while one is pending). */
  cookie: string;
  /** The session's CSRF token (`post` adds it to every form). */
  csrf: string;
  /** GETs a dashboard path, following redirects on this server; the final (HTML) response. */
  get(path: string): Promise<Response>;
  /** POSTs a form (csrf added, Origin of the dashboard, as a browser sends it); redirects not followed. */
  post(path: string, form: Record<string, string>): Promise<Response>;
}

/** Signs in over HTTP (the sign-in form: password + code) and reads the CSRF token from the overview. */
export async function dashboardSession(baseUrl: string, admin: TestAdmin): Promise<DashboardClient> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const gone = pair.slice(i + 1) === "" || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) jar.delete(name); else jar.set(name, pair.slice(i + 1));
    }
    client.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  };
  const client: DashboardClient = {
    cookie: "",
    csrf: "",
    async get(path) {
      let url = new URL(path, baseUrl);
      for (let hops = 0; ; hops++) {
        const res = await fetch(url, { headers: { cookie: client.cookie }, redirect: "manual" });
        keep(res);
        const to = res.headers.get("location");
        if (res.status < 300 || res.status >= 400 || !to || hops === 5) return res;
        url = new URL(to, url);
        if (url.origin !== new URL(baseUrl).origin) return res;
      }
    },
    async post(path, form) {
      const res = await fetch(new URL(path, baseUrl), {
        method: "POST",
        headers: { cookie: client.cookie, origin: new URL(baseUrl).origin, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf: client.csrf, ...form }).toString(),
        redirect: "manual",
      });
      keep(res);
      return res;
    },
  };
  const res = await fetch(new URL("/admin/sign-in", baseUrl), {
    method: "POST",
    headers: { origin: new URL(baseUrl).origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: admin.email, password: admin.password, code: admin.code(), next: "/admin" }).toString(),
    redirect: "manual",
  });
  keep(res);
  if (res.status !== 303 || !client.cookie) throw new Error(`dashboard sign-in of ${admin.email} failed: ${res.status} ${await res.text()}`);
  const page = await (await client.get("/admin")).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error("no CSRF token on the dashboard's overview");
  client.csrf = csrf;
  return client;
}

/** Signs in through the sign-in page in Chromium, as a person types it; lands on /admin. */
export async function signInToDashboard(page: Page, baseUrl: string, admin: TestAdmin): Promise<void> {
  await page.goto(new URL("/admin/sign-in", baseUrl).toString());
  await page.type("#email", admin.email);
  await page.type("#password", admin.password);
  await page.type("#code", admin.code());
  await Promise.all([page.waitForNavigation(), page.click("form.sign-in button[type=submit]")]);
  const path = new URL(page.url()).pathname;
  if (path !== "/admin") throw new Error(`dashboard sign-in of ${admin.email} ended on ${page.url()}: ${await page.$eval("main", (m) => m.textContent ?? "")}`);
}

import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUser } from "../../src/core/users.js";
import { backends } from "../helpers/backends.js";
import { closedPort } from "../helpers/oidc-provider.js";
import { createTestApp, type TestApp } from "../helpers/test-app.js";
import { bundleFrontend, startFrontend, type FrontendServer } from "./frontend-app.js";
import { launchBrowser, openTab } from "./harness.js";

const KEY = "cdi-browser-key-0123456789-abcdefghijklm";
const ENTRY = fileURLToPath(new URL("./cdi-web-js-app.ts", import.meta.url));
const APP = fileURLToPath(new URL("../fixtures/cdi/express-app.mjs", import.meta.url));
const PASSWORD = "a long and unusual passphrase 42";

declare const app: {
  signUp(email: string, password: string): Promise<string>;
  signIn(email: string, password: string): Promise<string>;
  sendVerificationMail(): Promise<string>;
  verifyEmail(token: string): Promise<string>;
  me(path?: string): Promise<{ status: number; body: any }>;
  payload(): Promise<Record<string, any>>;
  refresh(): Promise<boolean>;
  signOut(): Promise<boolean>;
};

/**
 * The whole chain of an existing SuperTokens app, its core swapped for authsvc: supertokens-web-js
 * in Chromium → the app's backend on supertokens-node 24 (a real Express app) → authsvc's CDI.
 */
describe.each(backends)("supertokens-web-js → supertokens-node → authsvc's CDI on $name (Chromium)", (backend) => {
  let t: TestApp;
  let child: ChildProcess;
  let apiUrl: string;
  let web: FrontendServer;
  let browser: Browser;
  let page: Page & { problems: string[] };

  beforeAll(async () => {
    t = await createTestApp({ backend, config: { cdiApiKey: KEY } });
    const webPort = await closedPort();
    const website = `http://localhost:${webPort}`;
    child = spawn(process.execPath, [APP], { env: { ...process.env, CDI_URI: `${t.url}/cdi`, CDI_API_KEY: KEY, WEBSITE_DOMAIN: website, OIDC_ISSUER: "http://127.0.0.1:9" }, stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((ok) => createInterface({ input: child.stdout! }).once("line", ok));
    apiUrl = `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
    const bundle = await bundleFrontend(ENTRY, { placeholders: { '"http://localhost:3001"': "apiDomain" }, globalName: "app" });
    web = await startFrontend(bundle, { apiDomain: apiUrl }, { port: webPort, host: "localhost" });
    browser = await launchBrowser();
    page = await openTab(browser, web.url);
  });
  afterAll(async () => {
    await browser?.close();
    await web?.close();
    child?.kill("SIGTERM");
    await t?.close();
  });

  const mailToken = async (email: string) => {
    const mails = (await (await fetch(`${apiUrl}/_test/mails`)).json()) as Array<{ type: string; user: { email: string }; emailVerifyLink?: string }>;
    return new URL(mails.filter((m) => m.type === "EMAIL_VERIFICATION" && m.user.email === email).at(-1)!.emailVerifyLink!).searchParams.get("token")!;
  };

  it("signs up, verifies the address, refreshes and signs out through the SDKs, on authsvc's store", async () => {
    const email = `web-js-${backend.name}@example.com`;
    await page.goto(`${web.url}/`);
    expect(await page.evaluate((e, p) => app.signUp(e, p), email, PASSWORD)).toBe("OK");
    const user = (await t.app.store.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst())!;
    expect(user).toBeDefined();
    // EmailVerification REQUIRED: the app refuses the session until the address is proven.
    expect((await page.evaluate(() => app.me())).status).toBe(403);
    expect(await page.evaluate(() => app.sendVerificationMail())).toBe("OK");
    expect(await page.evaluate((tk) => app.verifyEmail(tk), await mailToken(email))).toBe("OK");
    expect((await getUser(t.app.ctx, user.id))?.verified).toBe(true);
    const me = await page.evaluate(() => app.me());
    expect(me).toMatchObject({ status: 200, body: { userId: user.id } });
    expect((await page.evaluate(() => app.payload()))["st-ev"]).toMatchObject({ v: true });

    expect(await page.evaluate(() => app.refresh())).toBe(true);
    expect((await page.evaluate(() => app.me("/me-db"))).status).toBe(200);
    expect(await page.evaluate(() => app.signOut())).toBe(false);
    const live = await t.app.store.db.selectFrom("sessions").select("handle").where("user_id", "=", user.id).where("revoked_at", "is", null).execute();
    expect(live).toEqual([]);
    expect(await page.evaluate((e, p) => app.signIn(e, p), email, PASSWORD)).toBe("OK");
    expect((await page.evaluate(() => app.me("/me-db"))).status).toBe(200);
  });
});

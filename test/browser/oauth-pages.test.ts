import { createServer, type Server } from "node:http";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpWithPassword } from "../../src/methods/email-password/accounts.js";
import { createClient, createResource } from "../../src/oauth-provider/clients.js";
import { expectAccessible, expectNoHorizontalScroll, fill, openTab, screenshot, usePagesSuite, waitForText, waitVisible } from "./harness.js";

const MCP = "https://mcp.example.com/a/rather/long/path/to/the/notes/mcp/endpoint";

/**
 * The provider's pages in Chromium at phone width (360 px), checked by axe: the consent page (who
 * asks, where it returns, the loopback warning, the resource and scopes) and "Connected apps"
 * (linked from My account), where the person disconnects the app.
 */
describe("the consent and connected-apps pages (Chromium, 360 px)", () => {
  const suite = usePagesSuite();
  let callback: Server;
  let redirect = "";
  let clientId = "";
  beforeAll(async () => {
    callback = createServer((_req, res) => { res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Done</title><p>Done</p>"); });
    await new Promise<void>((r) => callback.listen(0, "127.0.0.1", () => r()));
    redirect = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
    await createResource(suite.s.app.ctx, { resource: MCP, name: "Notes MCP", scopes: ["notes:read", "notes:write"] }, "test");
    clientId = (await createClient(suite.s.app.ctx, { name: "Notes desktop", redirectUris: ["http://127.0.0.1/callback"], resources: [MCP] }, "test")).clientId;
    const up = await signUpWithPassword(suite.s.app.ctx, { email: "pages@example.com", password: "oauth pages pass 1", verified: true });
    if (up.status !== "OK") throw new Error(up.status);
  });
  afterAll(async () => {
    callback?.closeAllConnections();
    await new Promise((r) => callback?.close(r));
  });

  it("asks consent readably at 360 px, then lists the app under Connected apps, where it is disconnected", async () => {
    const page = await openTab(await suite.browser.createBrowserContext(), suite.s.url, { width: 360, height: 740 });
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL(`${suite.s.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      client_id: clientId, response_type: "code", redirect_uri: redirect, scope: "openid email notes:read notes:write", resource: MCP, state: "s1",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256",
    })) authorize.searchParams.set(k, v);
    await page.goto(authorize.toString());
    await waitVisible(page, "#form");
    await fill(page, "#email", "pages@example.com");
    await fill(page, "#password", "oauth pages pass 1");
    await page.click("#submit");
    await waitVisible(page, "#allow");
    const consent = await page.$eval("main", (el) => el.textContent ?? "");
    expect(consent).toContain("Allow Notes desktop?");
    expect(consent).toContain(new URL(redirect).host);
    expect(consent).toMatch(/a program on this computer/);
    expect(consent).toContain("Access to: Notes MCP"); // the resource's registered name, not its URL
    expect(consent).toContain("Your email address");
    expect(consent).toContain("notes:write");
    await expectAccessible(page, "consent page");
    await expectNoHorizontalScroll(page, "consent page");
    await screenshot(page, "oauth-consent", { ignore: [".warning", "main p:first-of-type"] });
    await Promise.all([page.waitForNavigation(), page.click("#allow")]);
    expect(new URL(page.url()).searchParams.get("code")).toBeTruthy();

    await page.goto(`${suite.s.url}/auth/account`);
    await waitVisible(page, "#view-account");
    await Promise.all([page.waitForNavigation(), page.click("#account-links a[href$='/connected-apps']")]);
    await waitVisible(page, "#view-list");
    const app = await page.$eval("#apps li", (el) => el.textContent ?? "");
    expect(app).toContain("Notes desktop");
    expect(app).toContain("Returns to: 127.0.0.1");
    expect(app).toContain(`${MCP} (notes:read, notes:write)`);
    expect(app).toContain("your account (openid, email)");
    await expectAccessible(page, "connected apps");
    await expectNoHorizontalScroll(page, "connected apps");
    await screenshot(page, "connected-apps", { ignore: ["#apps li p:nth-of-type(3)"] });
    await page.click("#apps li button");
    await waitForText(page, "#status", /Notes desktop was disconnected/);
    await page.waitForFunction(() => document.querySelectorAll("#apps li").length === 0 && !(document.getElementById("none") as HTMLElement).hidden);
    await expectAccessible(page, "connected apps, none left");
    expect(page.problems).toEqual([]);
  });
});

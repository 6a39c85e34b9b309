import { createServer, type Server } from "node:http";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type BrowserContext, type Page } from "puppeteer-core";
import { expect } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { testConfig, type Config } from "../../src/config.js";
import { toNodeListener } from "../../src/http/app.js";
import { sqliteBackend } from "../helpers/backends.js";
import { closedPort } from "../helpers/oidc-provider.js";

/** Debian's Chromium (apt-get install chromium); nothing is downloaded. */
export const CHROMIUM = process.env.AUTHSVC_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = fileURLToPath(new URL("../../docs/screenshots/", import.meta.url));

export interface PagesServer {
  app: App;
  url: string;
  close(): Promise<void>;
}

/**
 * A development server as `serve` runs it (migrated, mail worker and built-in catcher started),
 * with hosted pages on and its public URL and website URL both its own origin: the pages, the
 * API and the mail links all live at `url`, as on a developer's machine.
 */
export async function startPagesServer(config: Partial<Config> = {}): Promise<PagesServer> {
  const db = await sqliteBackend.create();
  const port = config.port || (await closedPort());
  const url = `http://127.0.0.1:${port}`;
  const app = await createApp(testConfig({ database: db.url, port, publicUrl: url, websiteUrl: url, corsOrigins: [url], hostedPages: true, mailCatcher: true, mailCatcherPort: 0, ...config }));
  await app.migrate();
  await app.start();
  const server: Server = createServer(toNodeListener(app.http));
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  return {
    app,
    url,
    close: async () => {
      app.beginShutdown(); // ends the inbox's event streams, so the server can close
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await app.close();
      await db.drop();
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/**
 * A new tab that records what must never happen on our pages: a script error, a console error
 * (a CSP violation is one), a failed request to our origin.
 */
export async function openTab(browser: Browser | BrowserContext, origin: string, viewport = { width: 1024, height: 800 }): Promise<Page & { problems: string[] }> {
  const page = (await browser.newPage()) as Page & { problems: string[] };
  page.problems = [];
  await page.setViewport(viewport);
  page.on("pageerror", (e) => page.problems.push(`page error: ${(e as Error).message}`));
  // A 401 is how a page learns that nobody is signed in (the browser logs it); anything else is a fault.
  page.on("console", (m) => { if (m.type() === "error" && m.location().url?.startsWith(origin) && !/status of 401/.test(m.text())) page.problems.push(`console: ${m.text()}`); });
  page.on("console", (m) => { if (m.type() === "error" && /Content Security Policy/i.test(m.text())) page.problems.push(`CSP: ${m.text()}`); });
  return page;
}

const axeSource: string = (createRequire(import.meta.url)("axe-core") as { source: string }).source;

/** Runs axe-core in the page (injected through the DevTools protocol, which the CSP does not apply to). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }> }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious, `${what}: axe-core found serious or critical violations`).toEqual([]);
}

/** At phone width (360 px) the page must not scroll sideways. */
export async function expectNoHorizontalScroll(page: Page, what: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${what}: scrollWidth ${scroll} > clientWidth ${client} at ${page.viewport()?.width}px`).toBeLessThanOrEqual(client);
}

/** Writes docs/screenshots/<name>.png (the README shows them), of the viewport as it is. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Not fullPage: resizing for it drops the inbox's sandboxed (out-of-process) mail frame from the picture.
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png` as `${string}.png` });
}

/** Waits until the element's text matches. */
export async function waitForText(page: Page, selector: string, re: RegExp, timeout = 15_000): Promise<void> {
  await page.waitForFunction((sel, src, flags) => {
    const el = document.querySelector(sel);
    return !!el && new RegExp(src, flags).test(el.textContent ?? "");
  }, { timeout }, selector, re.source, re.flags);
}

/** Waits until the element is shown (not inside anything `hidden`). */
export async function waitVisible(page: Page, selector: string, timeout = 15_000): Promise<void> {
  await page.waitForSelector(selector, { visible: true, timeout });
}

/** Types into a field as a person does (clears it first). */
export async function fill(page: Page, selector: string, text: string): Promise<void> {
  await page.click(selector, { clickCount: 3 });
  await page.keyboard.press("Backspace");
  await page.type(selector, text);
}

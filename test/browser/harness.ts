import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import puppeteer, { type Browser, type BrowserContext, type Page } from "puppeteer-core";
import { afterAll, beforeAll, expect } from "vitest";
import { createApp, type App } from "../../src/app.js";
import { testConfig, type Config } from "../../src/config.js";
import { toNodeListener } from "../../src/http/app.js";
import type { Clock } from "../../src/util/clock.js";
import { sqliteBackend, type Backend } from "../helpers/backends.js";
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
export async function startPagesServer(config: Partial<Config> = {}, overrides: { clock?: Clock; backend?: Backend } = {}): Promise<PagesServer> {
  return startAuthsvc((url) => ({ publicUrl: url, websiteUrl: url, corsOrigins: [url], hostedPages: true, ...config }), { port: config.port, clock: overrides.clock, backend: overrides.backend });
}

/**
 * authsvc as `serve` runs it in development (migrated, outbox worker and built-in mail catcher
 * started), through the same listener stack, on 127.0.0.1 and a free port (or `port`). `config`
 * gets the server's URL (`host` is the name the browser uses for it) and gives the settings.
 * The database is a SQLite file unless `backend` says otherwise.
 */
export async function startAuthsvc(config: (url: string) => Partial<Config>, opts: { port?: number; host?: string; clock?: Clock; backend?: Backend } = {}): Promise<PagesServer> {
  const db = await (opts.backend ?? sqliteBackend).create();
  const port = opts.port || (await closedPort());
  const url = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  const app = await createApp(testConfig({ database: db.url, port, mailCatcher: true, mailCatcherPort: 0, ...config(url) }), { clock: opts.clock });
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

/**
 * A test file's pages server and browser: started before its tests, closed after them. Read
 * `suite.s` and `suite.browser` inside tests (they are set once `beforeAll` has run).
 */
export function usePagesSuite(config: Partial<Config> = {}, overrides: { clock?: Clock; backend?: Backend } = {}): { s: PagesServer; browser: Browser } {
  const suite = {} as { s: PagesServer; browser: Browser };
  beforeAll(async () => {
    suite.s = await startPagesServer(config, overrides);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.s?.close();
  });
  return suite;
}

/** `args`: more Chromium switches (e.g. --host-resolver-rules to give loopback servers real-looking names). */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // A test drives several tabs; a tab in the background must keep running its timers and
    // animation frames (puppeteer's waits poll on them), or a wait there can stall until it times out.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
      "--disable-background-timer-throttling", "--disable-renderer-backgrounding", "--disable-backgrounding-occluded-windows", ...args],
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
  // A 401 is how a page learns that a session it held has ended (revoked, expired; the browser logs
  // it); anything else is a fault. Signed out, the pages send no such request (signed-out-quiet.test.ts).
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

/**
 * Refreshes docs/screenshots/<name>.png (the docs show them), of the viewport as it is, only when
 * the picture changed: PNG bytes are not stable from run to run, so Chromium decodes the old and the
 * new picture and compares their pixels. What changes on every run (a token, a time, an id) is named
 * in `ignore` (selectors): those boxes are left out of the comparison, so a run does not rewrite the
 * docs, while any other change (a new button, a colour) does. Never fails a test: a read-only checkout
 * (CI) just keeps the old pictures.
 */
export async function screenshot(page: Page, name: string, opts: { ignore?: string[] } = {}): Promise<void> {
  const file = `${SCREENSHOTS}${name}.png`;
  try {
    // Not fullPage: resizing for it drops the inbox's sandboxed (out-of-process) mail frame from the picture.
    const fresh = Buffer.from(await page.screenshot({ type: "png" }));
    const old = existsSync(file) ? readFileSync(file) : undefined;
    if (old) {
      const ignore = await page.evaluate((sels) => sels.flatMap((sel) => Array.from(document.querySelectorAll(sel), (el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x * devicePixelRatio, y: r.y * devicePixelRatio, w: r.width * devicePixelRatio, h: r.height * devicePixelRatio };
      })), opts.ignore ?? []);
      if (old.equals(fresh) || (await changedPixelShare(page.browser(), old, fresh, ignore)) <= SCREENSHOT_TOLERANCE) return;
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(file, fresh);
  } catch (err) {
    console.warn(`screenshot ${name} not refreshed: ${(err as Error).message}`);
  }
}

/** Share of pixels that may differ (font anti-aliasing) before a screenshot counts as changed: 0.05 %. */
export const SCREENSHOT_TOLERANCE = 0.0005;

interface Box { x: number; y: number; w: number; h: number }

/** The share of pixels (0..1) that differ noticeably between two PNGs, outside `ignore`; 1 when their sizes differ. */
export async function changedPixelShare(browser: Browser, a: Buffer, b: Buffer, ignore: Box[] = []): Promise<number> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (a64, b64, boxes) => {
      const decode = async (s: string) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${s}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext("2d")!;
        ctx.drawImage(bitmap, 0, 0);
        return ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      };
      const [x, y] = [await decode(a64), await decode(b64)];
      if (x.width !== y.width || x.height !== y.height) return 1;
      const ignored = (px: number, py: number) => boxes.some((r) => px >= r.x && px < r.x + r.w && py >= r.y && py < r.y + r.h);
      let changed = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        // Anti-aliasing noise is not a change: only a channel that moved by more than 32 counts.
        if (Math.abs(x.data[i] - y.data[i]) > 32 || Math.abs(x.data[i + 1] - y.data[i + 1]) > 32 || Math.abs(x.data[i + 2] - y.data[i + 2]) > 32) {
          const p = i / 4;
          if (!ignored(p % x.width, Math.floor(p / x.width))) changed++;
        }
      }
      return changed / (x.width * x.height);
    }, a.toString("base64"), b.toString("base64"), ignore);
  } finally {
    await page.close();
  }
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

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { build, version as esbuildVersion } from "esbuild";
import type { App } from "../../src/app.js";
import type { Config } from "../../src/config.js";
import type { Clock } from "../../src/util/clock.js";
import { startAuthsvc } from "./harness.js";

/**
 * A harness for driving the real SuperTokens frontend SDKs (prebuilt UI or web-js) in Chromium
 * against authsvc: bundle an app once per run, serve it from its own origin, and start an authsvc
 * whose website URL is that origin. Later sign-in methods add recipes to their own example app
 * and reuse all three pieces.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const CACHE = join(ROOT, "node_modules/.cache/authsvc-browser");

/** The example apps docs/frontend.md shows (verbatim: test/docs/frontend.test.ts). */
export const EXAMPLES = {
  prebuiltUi: join(ROOT, "examples/frontend/prebuilt-ui.tsx"),
  webJs: join(ROOT, "examples/frontend/web-js.ts"),
  prebuiltUiPasswordless: join(ROOT, "examples/frontend/prebuilt-ui-passwordless.tsx"),
};

/**
 * What the example's literal values become at run time: each key is text that must occur exactly
 * once in the source (so the docs' snippet cannot drift from what is tested) and holds one quoted
 * literal, which becomes a read of the setting named by the value (window.__FRONTEND_SETTINGS__,
 * provided by the served page).
 */
export type Placeholders = Record<string, string>;

/** The placeholders of examples/frontend/*: the documented addresses and the token transfer method. */
export const EXAMPLE_PLACEHOLDERS: Placeholders = {
  '"http://localhost:3567"': "apiDomain",
  '"http://localhost:3000"': "websiteDomain",
  'tokenTransferMethod: "cookie"': "tokenTransferMethod",
};

/** supertokens-web-js needs no website domain: the example has only the API's address and the mode. */
export const WEB_JS_PLACEHOLDERS: Placeholders = Object.fromEntries(Object.entries(EXAMPLE_PLACEHOLDERS).filter(([, setting]) => setting !== "websiteDomain"));

export interface BundleOptions {
  /** Default: EXAMPLE_PLACEHOLDERS. */
  placeholders?: Placeholders;
  /** The global the entry's exports are put on, for a test to call them (page.evaluate). */
  globalName?: string;
}

/**
 * Bundles `entry` (a .ts/.tsx app importing the SDKs from node_modules) with esbuild, as the docs
 * show it, with each placeholder replaced by a read of the page's settings. Cached on disk by the
 * source, the lockfile and esbuild's version, so a run builds each app once (the suite's files run
 * in separate module graphs, so a cache in memory would not be shared).
 */
export async function bundleFrontend(entry: string, opts: BundleOptions = {}): Promise<string> {
  const placeholders = opts.placeholders ?? EXAMPLE_PLACEHOLDERS;
  let source = readFileSync(entry, "utf8");
  const lock = readFileSync(join(ROOT, "package-lock.json"));
  const key = createHash("sha256").update(source).update(lock).update(esbuildVersion).update(JSON.stringify(opts)).digest("hex").slice(0, 24);
  const cached = join(CACHE, `${key}.js`);
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  for (const [text, setting] of Object.entries(placeholders)) {
    const count = source.split(text).length - 1;
    if (count !== 1) throw new Error(`${entry}: expected ${text} exactly once, found it ${count} times`);
    const value = `globalThis.__FRONTEND_SETTINGS__[${JSON.stringify(setting)}]`;
    // Only the quoted literal inside the text is swapped, so `tokenTransferMethod: "cookie"` keeps its key.
    source = source.replace(text, () => text.replace(/"[^"]*"/, value));
  }
  const out = await build({
    stdin: { contents: source, resolveDir: dirname(entry), sourcefile: entry, loader: entry.endsWith(".tsx") ? "tsx" : "ts" },
    bundle: true,
    write: false,
    format: "iife",
    globalName: opts.globalName,
    jsx: "automatic",
    target: "es2022",
    // React's production build: what an app ships, and quicker in the browser.
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const js = out.outputFiles[0].text;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(cached, js);
  return js;
}

export interface FrontendServer { url: string; close(): Promise<void> }

/**
 * Serves the bundle as a single-page app on 127.0.0.1: /app.js is the bundle, every other path the
 * page (the prebuilt UI routes on the client), which hands `settings` to the bundle. `host` is the
 * name the browser uses (e.g. "localhost" to put the app on another site than an API on 127.0.0.1).
 */
export async function startFrontend(bundle: string, settings: Record<string, string>, opts: { port?: number; host?: string } = {}): Promise<FrontendServer> {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Frontend test app</title></head>` +
    `<body><div id="root"></div><script>window.__FRONTEND_SETTINGS__ = ${JSON.stringify(settings).replace(/</g, "\\u003c")};</script>` +
    `<script src="/app.js"></script></body></html>`;
  const server: Server = createServer((req, res) => {
    const js = req.url === "/app.js";
    res.writeHead(200, { "content-type": js ? "text/javascript; charset=utf-8" : "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(js ? bundle : page);
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A clock that follows the wall clock plus an offset a test can move forward (the browser's time stays real). */
export function createOffsetClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => { offset += ms; } };
}

export interface ApiServer { app: App; url: string; clock: ReturnType<typeof createOffsetClock>; close(): Promise<void> }

/**
 * authsvc for a frontend on `websiteUrl`: CORS allows that origin and mail links point at its
 * /auth pages. No hosted pages: the frontend has its own. Its clock can be moved forward.
 * `host` is the name the browser uses for it (its public URL).
 */
export async function startApi(websiteUrl: string, config: Partial<Config> = {}, host = "127.0.0.1"): Promise<ApiServer> {
  const clock = createOffsetClock();
  const server = await startAuthsvc((url) => ({ publicUrl: url, websiteUrl, corsOrigins: [websiteUrl], hostedPages: false, ...config }), { port: config.port, host, clock });
  return { ...server, clock };
}

/** The two token transfer methods, each with the host the app runs on: cookie mode on the API's site, header mode on another. */
export const TOKEN_MODES = [
  { method: "cookie", host: "127.0.0.1" },
  { method: "header", host: "localhost" },
] as const;
